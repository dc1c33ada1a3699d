// Nim, a test-only third game that proves the game seam (docs/adding-a-game.md): one
// heap of stones, each player takes 1 to `max_take` in turn, whoever takes the last
// stone wins. No chance and nothing hidden, so determinize has nothing to draw. It is
// declared once (nim::Game), run through core::random_sim_test and searched in
// tests/test_toy.cpp, and bound to Python by a test-only module (nim_module.cpp, built
// with SPLENDOR_MCTS_TEST_GAMES) so that the Python tests can load, search, play and read
// it; the shipped _core does not include it.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.hpp"
#include "core/invariants.hpp"
#include "core/json.hpp"
#include "core/position.hpp"
#include "core/problems.hpp"
#include "core/reasons.hpp"
#include "core/rng.hpp"
#include "core/types.hpp"

namespace nim {

inline constexpr int kMaxTake = 5;
inline constexpr int kMaxStones = 100;
inline constexpr int kNumDistinctActions = kMaxTake;  // action a takes a + 1 stones
inline constexpr int kMaxPlayers = 2;
inline constexpr int kMaxLegalActions = kMaxTake;
inline constexpr int kObservationSize = 3;
using ActionList = core::FixedList<core::Action, kMaxLegalActions>;
using ChanceList = core::FixedList<core::ChanceOutcome, 1>;

struct Config {
  int16_t stones = 15;
  int16_t max_take = 3;

  void validate() const {
    if (stones < 1 || stones > kMaxStones)
      throw core::InvalidInput("stones must be between 1 and " + std::to_string(kMaxStones) + ", got " +
                               std::to_string(stones));
    if (max_take < 1 || max_take > kMaxTake)
      throw core::InvalidInput("max_take must be between 1 and " + std::to_string(kMaxTake) + ", got " +
                               std::to_string(max_take));
  }
  bool operator==(const Config&) const = default;
};

// The "variant" object of a position.
inline core::json::Ordered variant_json(const Config& c) { return {{"stones", c.stones}, {"max_take", c.max_take}}; }

class State {
 public:
  static State initial(const Config& config, uint64_t /*seed: nothing to deal*/, bool explicit_chance) {
    config.validate();
    State s;
    s.config_ = config;
    s.stones_ = config.stones;
    s.explicit_chance_ = explicit_chance;
    return s;
  }

  const Config& config() const { return config_; }
  int num_players() const { return 2; }
  int current_player() const { return is_terminal() ? core::kTerminalPlayer : mover_; }
  bool is_terminal() const { return stones_ == 0; }
  bool is_chance() const { return false; }
  int stones() const { return stones_; }

  void legal_actions(ActionList& out) const {
    out.clear();
    for (int a = 0; a < takes(); ++a) out.push(a);
  }
  bool is_legal(core::Action a) const { return a >= 0 && a < takes(); }
  void apply(core::Action a) {
    stones_ = static_cast<int16_t>(stones_ - (a + 1));
    mover_ ^= 1;
  }
  void apply_checked(core::Action a) {
    if (!is_legal(a)) core::refuse_illegal(*this, a, kNumDistinctActions);
    apply(a);
  }
  std::string why_illegal(core::Action a) const {
    if (is_legal(a)) return "";
    return std::to_string(stones_) + " stones left, take 1 to " + std::to_string(config_.max_take);
  }
  void chance_outcomes(ChanceList& out) const { out.clear(); }
  core::Action dealt_outcome() const { throw core::InvalidInput("nim has no chance nodes"); }
  core::Action random_action(core::Rng& rng) const { return static_cast<core::Action>(rng.below(static_cast<uint32_t>(takes()))); }
  // Whoever took the last stone (the seat not to move) wins.
  void returns(double* out) const {
    out[0] = out[1] = 0.0;
    if (is_terminal()) out[mover_ ^ 1] = 1.0;
  }
  uint64_t hash() const { return compute_hash(); }  // two small numbers: no incremental part to keep
  uint64_t compute_hash() const { return core::splitmix64(static_cast<uint64_t>(stones_) * 2 + mover_); }
  void determinize(int, core::Rng&) {}  // nothing is hidden
  void set_explicit_chance(bool on) { explicit_chance_ = on; }
  bool explicit_chance() const { return explicit_chance_; }

  std::string action_to_string(core::Action a) const { return "take " + std::to_string(a + 1); }
  std::string action_label(core::Action a) const { return action_to_string(a); }  // no move names a card
  // The legal move "take N" (or "N") names; refused with the legal range otherwise.
  core::Action string_to_action(std::string_view text) const {
    std::string_view rest = text;
    if (rest.starts_with("take ")) rest.remove_prefix(5);
    const bool one_digit = rest.size() == 1 && rest[0] >= '1' && rest[0] <= '9';
    if (is_terminal()) throw core::InvalidInput("'" + std::string(text) + "': the game is over");
    if (!one_digit || !is_legal(rest[0] - '1'))
      throw core::InvalidInput("'" + std::string(text) + "' is not a legal move: expected 'take N', N from 1 to " +
                               std::to_string(takes()));
    return rest[0] - '1';
  }

  std::string to_json() const { return position_json(-1).dump(); }
  std::string observation_json(int seat) const { return position_json(seat).dump(); }
  static State from_json(const Config& config, std::string_view text);
  static State from_observation(const Config& config, std::string_view text, uint64_t seed);
  // What a seat sees (everything): stones left of the start, whether it is to move, the take limit.
  void observation_tensor(int seat, float* out) const {
    out[0] = static_cast<float>(stones_) / static_cast<float>(config_.stones);
    out[1] = mover_ == seat ? 1.0f : 0.0f;
    out[2] = static_cast<float>(config_.max_take) / kMaxTake;
  }

  // The theory of this Nim: a heap that is a multiple of max_take + 1 is lost for the mover.
  double evaluate(int seat) const {
    if (is_terminal()) return seat == (mover_ ^ 1) ? 1.0 : 0.0;
    const bool mover_wins = stones_ % (config_.max_take + 1) != 0;
    return (seat == mover_) == mover_wins ? 1.0 : 0.0;
  }
  // The winning take where there is one, else a random one.
  core::Action heuristic_action(core::Rng& rng) const {
    const int winning = stones_ % (config_.max_take + 1);
    return winning != 0 ? winning - 1 : random_action(rng);
  }

  bool operator==(const State&) const = default;

  // Nim's rule invariants: each move takes 1 to max_take stones, so the heap never grows
  // past the variant's, and one of the two seats is to move.
  std::vector<std::string> invariant_problems() const {
    core::InvariantProblems problems;
    problems(stones_ >= 0 && stones_ <= config_.stones, "the heap is within the variant's stones");
    problems(mover_ <= 1, "one of the two seats is to move");
    return problems.take();
  }

 private:
  friend class Reader;
  Config config_;
  int16_t stones_ = 0;
  uint8_t mover_ = 0;
  bool explicit_chance_ = false;

  int takes() const { return stones_ < config_.max_take ? stones_ : config_.max_take; }

  core::json::Ordered position_json(int observer) const {
    core::json::Ordered w = {{"game", "nim"}, {"variant", variant_json(config_)}};
    if (observer >= 0) w["observer"] = observer;
    w["to_move"] = mover_;
    w["stones"] = stones_;
    w["explicit_chance"] = explicit_chance_;
    return w;
  }
};

// Reads a position (docs/position-format.md's common fields, and "stones"), every
// problem by its JSON path.
class Reader : core::PositionReaderBase {
 public:
  Reader(const Config& config, bool view, uint64_t /*seed: nothing hidden*/)
      : PositionReaderBase(0, view), config_(config) {}

  State read(const core::json::Cursor& root) {
    check_root(root, "nim", {"game", "variant", "observer", "to_move", "stones", "explicit_chance"});
    check_variant(root, variant_json(config_));
    throw_if_errors();
    State s = State::initial(config_, 0, false);
    attempt([&] { s.mover_ = root["to_move"].as_int(uint8_t{0}, uint8_t{1}); });
    attempt([&] { s.stones_ = root["stones"].as_int(int16_t{0}, config_.stones); });
    read_flag(root, "explicit_chance", s.explicit_chance_);
    attempt([&] {
      if (root.has("observer")) root["observer"].as_int(0, 1);
    });
    throw_if_errors();
    return s;
  }

 private:
  Config config_;
};

inline State State::from_json(const Config& config, std::string_view text) {
  return core::read_state<Reader>(config, text, false, 0);
}
inline State State::from_observation(const Config& config, std::string_view text, uint64_t seed) {
  return core::read_state<Reader>(config, text, true, seed);
}

// A position whose variant comes from its own "variant" (the defaults where it says nothing).
inline core::Position<State, Config> read_position(const core::json::Value& doc, uint64_t seed, bool full = false) {
  const core::json::Cursor root(doc);
  Config variant;
  const core::json::Cursor v = root.get("variant");
  if (v.has("stones")) variant.stones = v["stones"].as_int(int16_t{1}, int16_t{kMaxStones});
  if (v.has("max_take")) variant.max_take = v["max_take"].as_int(int16_t{1}, int16_t{kMaxTake});
  return core::read_position<Reader>(doc, variant, 2, seed, full);
}

struct Game : core::GameTypes<State, Config, ActionList, ChanceList, kNumDistinctActions, kMaxPlayers, kMaxLegalActions,
                              kObservationSize> {
  static constexpr const char* kName = "nim";
  static constexpr core::Capabilities kHas{.evaluate = true, .heuristic_action = true};
};
static_assert(core::check_game<Game>());

}  // namespace nim
