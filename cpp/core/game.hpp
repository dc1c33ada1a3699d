// What a game is to the generic code (search, playout loops, bench drivers, tests):
// the GameState concept of docs/engine-interface.md, one named concept per optional
// capability, and the check every game's `struct Game` declaration passes.
//
// A game declares its capabilities (Game::kHas) and check_game<Game>() asserts that
// every declaration matches what the State really has. So a misspelt optional
// method (determinize_lazy instead of determinize_lazily) fails the build where it is
// declared, and a new method nobody declared does too, instead of the generic code
// silently taking its slow path.
#pragma once
#include <array>
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/rng.hpp"
#include "core/types.hpp"

namespace core {

// Legal actions as a bitset: bit a of word a / 64.
template <int kNumDistinctActions>
using ActionBits = std::array<uint64_t, (kNumDistinctActions + 63) / 64>;

// What every game state has (docs/engine-interface.md).
template <class S, class Config, class ActionList, class ChanceList>
concept GameState =
    std::is_trivially_copyable_v<S> && std::equality_comparable<S> &&
    requires(S s, const S cs, const Config& config, ActionList& actions, ChanceList& chances, Action a, Rng& rng,
             double* values, float* tensor, int seat, uint64_t seed, bool flag, std::string_view text) {
      { S::initial(config, seed, flag) } -> std::same_as<S>;
      { cs.config() } -> std::same_as<const Config&>;
      { cs.num_players() } -> std::same_as<int>;
      { cs.current_player() } -> std::same_as<int>;
      { cs.is_terminal() } -> std::same_as<bool>;
      { cs.is_chance() } -> std::same_as<bool>;
      cs.legal_actions(actions);
      { cs.is_legal(a) } -> std::same_as<bool>;
      s.apply(a);
      s.apply_checked(a);
      { cs.why_illegal(a) } -> std::same_as<std::string>;
      cs.chance_outcomes(chances);
      { cs.dealt_outcome() } -> std::same_as<Action>;
      { cs.random_action(rng) } -> std::same_as<Action>;
      cs.returns(values);
      { cs.hash() } -> std::same_as<uint64_t>;
      { cs.compute_hash() } -> std::same_as<uint64_t>;
      s.determinize(seat, rng);
      s.set_explicit_chance(flag);
      { cs.explicit_chance() } -> std::same_as<bool>;
      { cs.action_to_string(a) } -> std::same_as<std::string>;
      { cs.action_label(a) } -> std::same_as<std::string>;
      { cs.string_to_action(text) } -> std::same_as<Action>;
      { cs.to_json() } -> std::same_as<std::string>;
      { cs.observation_json(seat) } -> std::same_as<std::string>;
      { S::from_json(config, text) } -> std::same_as<S>;
      { S::from_observation(config, text, seed) } -> std::same_as<S>;
      cs.observation_tensor(seat, tensor);
      // The game's one definition of a legal position: every rule invariant it breaks,
      // named (none for any state play reaches). Readers and random-game tests both call it.
      { cs.invariant_problems() } -> std::same_as<std::vector<std::string>>;
    };

// ---- Optional capabilities (each used by the generic code where a game has it) -----

// legal_actions as a bitset: the search's tree step reads it without building a list.
template <class S, int kNumDistinctActions>
concept HasLegalActionBits = requires(const S s, ActionBits<kNumDistinctActions>& bits) {
  { s.legal_action_bits(bits) } -> std::same_as<void>;
};

// determinize drawing hidden cards only when they are revealed (the search's sample).
template <class S>
concept HasDeterminizeLazily = requires(S s, int seat, Rng& rng) {
  { s.determinize_lazily(seat, rng) } -> std::same_as<void>;
};

// The game's own random-move loop (unhashed): returns the moves made.
template <class S>
concept HasPlayRandom = requires(S s, Rng& rng, int max_plies) {
  { s.play_random(rng, max_plies) } -> std::same_as<int>;
};

// apply without the incremental hash update (playouts and rollouts read no hash).
template <class S>
concept HasApplyUnhashed = requires(S s, Action a) {
  { s.apply_unhashed(a) } -> std::same_as<void>;
};

// A heuristic value in [0, 1] of a non-terminal state for a seat.
template <class S>
concept HasEvaluate = requires(const S s, int seat) {
  { s.evaluate(seat) } -> std::same_as<double>;
};

// A fast rollout policy's move.
template <class S>
concept HasHeuristicAction = requires(const S s, Rng& rng) {
  { s.heuristic_action(rng) } -> std::same_as<Action>;
};

// What the search's proof probe needs (search/probe.hpp): whether a seat other than
// `seat` holds a card `seat` cannot see (then the exhaustive check at the root does not
// apply), and a cheap gate: false when the seat to move cannot win within its next
// `turns` turns (each game says how its bound is drawn), so the probe costs nothing
// where no win is near.
template <class S>
concept HasWinProbe = requires(const S s, int seat, int turns) {
  { s.others_hold_unseen(seat) } -> std::same_as<bool>;
  { s.may_win_within(turns) } -> std::same_as<bool>;
};

// ---- The declaration -----------------------------------------------------------------

// The optional methods a game's State has (each false unless declared).
struct Capabilities {
  bool legal_action_bits = false;
  bool determinize_lazily = false;
  bool play_random = false;
  bool apply_unhashed = false;
  bool evaluate = false;
  bool heuristic_action = false;
  bool win_probe = false;
};

// A game's types and sizes, in the order of docs/engine-interface.md. A game declares
//   struct Game : core::GameTypes<...> { kName; kHas; };  static_assert(core::check_game<Game>());
template <class S, class C, class AL, class CL, int NumDistinctActions, int MaxPlayers, int MaxLegalActions,
          int ObservationSize>
struct GameTypes {
  using State = S;
  using Config = C;
  using ActionList = AL;
  using ChanceList = CL;
  static constexpr int kNumDistinctActions = NumDistinctActions;
  static constexpr int kMaxPlayers = MaxPlayers;
  static constexpr int kMaxLegalActions = MaxLegalActions;
  static constexpr int kObservationSize = ObservationSize;
};

// True when `G` is a complete game declaration: its types and sizes, a State of the
// interface, and capabilities (G::kHas) that match the State. Use as
//   static_assert(core::check_game<Game>());
// each failing part has its own message naming the capability.
template <class G>
consteval bool check_game() {
  using S = typename G::State;
  static_assert(std::is_same_v<decltype(G::kName), const char* const>, "Game::kName: the game's name");
  static_assert(std::is_same_v<decltype(G::kHas), const Capabilities>, "Game::kHas: the State's optional methods");
  static_assert(G::kNumDistinctActions > 0 && G::kMaxPlayers > 0 && G::kMaxLegalActions > 0 && G::kObservationSize > 0,
                "Game sizes must be positive");
  static_assert(GameState<S, typename G::Config, typename G::ActionList, typename G::ChanceList>,
                "Game::State lacks part of the interface of docs/engine-interface.md");
  static_assert(G::kHas.legal_action_bits == HasLegalActionBits<S, G::kNumDistinctActions>,
                "Game::kHas.legal_action_bits does not match State::legal_action_bits(core::ActionBits<N>&) const");
  static_assert(G::kHas.determinize_lazily == HasDeterminizeLazily<S>,
                "Game::kHas.determinize_lazily does not match State::determinize_lazily(int, core::Rng&)");
  static_assert(G::kHas.play_random == HasPlayRandom<S>, "Game::kHas.play_random does not match int State::play_random(core::Rng&, int)");
  static_assert(G::kHas.apply_unhashed == HasApplyUnhashed<S>,
                "Game::kHas.apply_unhashed does not match State::apply_unhashed(core::Action)");
  static_assert(G::kHas.evaluate == HasEvaluate<S>, "Game::kHas.evaluate does not match double State::evaluate(int) const");
  static_assert(G::kHas.heuristic_action == HasHeuristicAction<S>,
                "Game::kHas.heuristic_action does not match core::Action State::heuristic_action(core::Rng&) const");
  static_assert(G::kHas.win_probe == HasWinProbe<S>,
                "Game::kHas.win_probe does not match bool State::others_hold_unseen(int) const and "
                "bool State::may_win_within(int) const");
  return true;
}

// As apply where the game can skip the hash update (nobody reads a playout's hash).
template <class G>
inline void apply_unhashed(typename G::State& s, Action a) {
  if constexpr (G::kHas.apply_unhashed)
    s.apply_unhashed(a);
  else
    s.apply(a);
}

}  // namespace core
