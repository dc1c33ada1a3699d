// Invariant checks over random games (conservation, hashing, round-trips, views,
// refusal of bad input), shared by the sanitizer fuzz driver and the Python tests.
#include "splendor/self_check.hpp"

#include <string>

#include "core/bits.hpp"
#include "core/invariants.hpp"
#include "splendor_tables.inc"

namespace splendor {
namespace {

class Checker {
 public:
  explicit Checker(SelfCheckReport& report) : report_(report) {}
  void play_one(const Config& config, uint64_t seed, bool explicit_chance);

 private:
  void expect(bool ok, const char* what, uint64_t seed, int step) {
    if (ok) return;
    ++report_.failure_count;
    if (report_.failures.size() < 20)
      report_.failures.push_back(std::string(what) + " (game seed " + std::to_string(seed) + ", step " + std::to_string(step) + ")");
  }
  void check_conservation(const State& s, uint64_t seed, int step);
  void check_buy_mask(const State& s, uint64_t seed, int step);
  SelfCheckReport& report_;
};

// Every card is in exactly one place; tokens add up to the supply.
void Checker::check_conservation(const State& s, uint64_t seed, int step) {
  int seen[kNumCards] = {};
  for (int slot = 0; slot < kTableSlots; ++slot)
    if (s.table_card(slot) != kNoCard) ++seen[s.table_card(slot)];
  for (int l = 0; l < kLevels; ++l) {
    const int base = State::first_card_of_level(l);
    expect(core::popcount(s.deck_set(l)) == s.deck_size(l), "deck set holds the deck's size", seed, step);
    core::for_each_bit(s.deck_set(l), [&](int b) { ++seen[base + b]; });
    if (s.decks_unordered()) continue;  // a lazy sample's decks are the sets only
    uint64_t listed = 0;
    for (int i = 0; i < s.deck_size(l); ++i) listed |= uint64_t{1} << (s.deck_card(l, i) - base);
    expect(listed == s.deck_set(l), "deck set matches the deck", seed, step);
  }
  int tokens[kNumKinds] = {};
  for (int k = 0; k < kNumKinds; ++k) tokens[k] = core::swar::lane(s.bank(), k);
  for (int p = 0; p < s.num_players(); ++p) {
    const Player& pl = s.player(p);
    for (int i = 0; i < pl.num_reserved; ++i) ++seen[pl.reserved[i]];
    for (int c = 0; c < kNumCards; ++c) seen[c] += pl.owns(c);
    for (int k = 0; k < kNumKinds; ++k) tokens[k] += core::swar::lane(pl.tokens, k);
  }
  const bool pending_blind = s.pending_blind_level() >= 0;
  for (int c = 0; c < kNumCards; ++c) expect(seen[c] == 1 || (pending_blind && seen[c] == 0), "card conserved", seed, step);
  for (int k = 0; k < kColours; ++k) expect(tokens[k] == s.config().gem_tokens, "gem tokens conserved", seed, step);
  expect(tokens[kGold] == s.config().gold_tokens, "gold conserved", seed, step);
}

void Checker::play_one(const Config& config, uint64_t seed, bool explicit_chance) {
  State s = State::initial(config, seed, explicit_chance);
  core::Rng rng(seed * 31 + 7);
  ActionList legal;
  State unhashed = s;  // follows the same moves through apply_unhashed
  for (int step = 0; !s.is_terminal(); ++step) {
    expect(step < 5000, "game terminates", seed, step);
    if (step >= 5000) return;
    const auto at_step = [&](bool ok, const char* what) { expect(ok, what, seed, step); };
    check_conservation(s, seed, step);
    check_buy_mask(s, seed, step);
    at_step(s.passes_this_round() <= s.turn_seat() + 1, "passes counted within the round only");
    if (s.phase() == Phase::kMain) {  // the rollout policy's vectorised target against its reference
      const uint64_t noise = core::splitmix64(seed * 0x9E3779B97F4A7C15ULL + static_cast<uint64_t>(step));
      expect(s.heuristic_target(noise) == s.heuristic_target_reference(noise), "heuristic target matches its reference",
             seed, step);
      const uint64_t bits = core::splitmix64(noise);  // any legal set and needed colours, not only this state's
      const auto takes = static_cast<uint32_t>(bits & ((1u << kTakeTwo) - 1)) >> (bits >> 60);
      const auto needed = static_cast<uint32_t>(bits >> 32) & 31;
      expect(State::heuristic_take(takes, needed, noise) == State::heuristic_take_reference(takes, needed, noise),
             "heuristic take matches its reference", seed, step);
    }
    core::check_decision(s, legal, at_step);
    if (step % 5 == 0) {
      // A full position round-trips; a player's view rebuilds a state with the same view.
      const State back = State::from_json(config, s.to_json());
      expect(back == s, "JSON round-trip equals the original", seed, step);
      expect(back.hash() == s.hash(), "JSON round-trip keeps the hash", seed, step);
      const int viewer = static_cast<int>(rng.below(static_cast<uint32_t>(s.num_players())));
      const std::string view = s.observation_json(viewer);
      const State sampled = State::from_observation(config, view, seed + static_cast<uint64_t>(step));
      expect(sampled.observation_json(viewer) == view, "a state rebuilt from a view shows the same view", seed, step);
      check_buy_mask(back, seed, step);
      check_buy_mask(sampled, seed, step);
      // Damaged positions are refused with InvalidInput or read into a consistent state.
      std::string damaged = rng.below(2) ? s.to_json() : view;
      for (int edits = 1 + static_cast<int>(rng.below(3)); edits > 0; --edits) {
        const size_t at = rng.below(static_cast<uint32_t>(damaged.size()));
        switch (rng.below(5)) {
          case 4: damaged.insert(at, "\"" + card_text(static_cast<int>(rng.below(kNumCards))) + "\""); break;
          case 0: damaged[at] = static_cast<char>("0123456789[]{},:\"-"[rng.below(17)]); break;
          case 1: damaged.erase(at, 1 + rng.below(8)); break;
          case 2: damaged.insert(at, std::to_string(rng.below(120))); break;
          default: damaged.resize(at); break;
        }
      }
      try {
        const State odd = rng.below(2) ? State::from_json(config, damaged) : State::from_observation(config, damaged, seed);
        expect(odd.hash() == odd.compute_hash(), "an accepted damaged position is consistent", seed, step);
        check_conservation(odd, seed, step);
        check_buy_mask(odd, seed, step);
      } catch (const core::InvalidInput&) {
      }
      State shuffled = s;
      core::Rng det_rng(seed ^ static_cast<uint64_t>(step));
      shuffled.determinize(viewer, det_rng);
      expect(shuffled.observation_json(viewer) == view, "determinize keeps the observer's view", seed, step);
      expect(shuffled.hash() == shuffled.compute_hash(), "determinize keeps the hash consistent", seed, step);
      check_conservation(shuffled, seed, step);
      // The search's lazy sample keeps the view and plays a consistent game to the end.
      State lazy = s;
      lazy.determinize_lazily(viewer, det_rng);
      expect(lazy.observation_json(viewer) == view, "determinize_lazily keeps the observer's view", seed, step);
      for (int ply = 0; !lazy.is_terminal() && ply < 5000; ++ply) {
        check_conservation(lazy, seed, step);
        lazy.apply_unhashed(lazy.random_action(det_rng));
      }
      expect(lazy.is_terminal(), "a lazy sample's game ends", seed, step);
    }
    core::check_refuses_bad_action<kNumDistinctActions>(s, rng, at_step);
    core::check_move(s, unhashed, s.random_action(rng), legal, at_step);
    ++report_.decisions;
  }
  double r[kMaxPlayers];
  s.returns(r);
  double sum = 0;
  for (int p = 0; p < s.num_players(); ++p) sum += r[p];
  expect(sum > 0.999 && sum < 1.001, "returns share one win", seed, -1);
}

// The vectorised buy mask against a plain recomputation from the card table.
void Checker::check_buy_mask(const State& s, uint64_t seed, int step) {
  for (int seat = 0; seat < s.num_players(); ++seat) {
    uint16_t want = 0;
    for (int n = 0; n < kNumNobles; ++n) {
      bool meets = ((s.table_nobles() >> n) & 1) != 0;
      for (int c = 0; c < kColours; ++c)
        meets = meets && core::swar::lane(s.player(seat).bonuses, c) >= tables::kNobles[n].requirement[c];
      if (meets) want = static_cast<uint16_t>(want | (1u << n));
    }
    expect(s.qualifying_nobles(seat) == want, "qualifying nobles match the noble table", seed, step);
  }
  if (s.phase() != Phase::kMain) return;
  const Player& p = s.player(s.turn_seat());
  const uint64_t mask = s.legal_main_mask();
  auto affordable = [&](int card) {
    int short_total = 0;
    for (int c = 0; c < kColours; ++c) {
      const int need = tables::kCards[card].cost[c] - core::swar::lane(p.bonuses, c) - core::swar::lane(p.tokens, c);
      short_total += need > 0 ? need : 0;
    }
    return short_total <= core::swar::lane(p.tokens, kGold);
  };
  for (int slot = 0; slot < kTableSlots; ++slot) {
    const bool want = s.table_card(slot) != kNoCard && affordable(s.table_card(slot));
    expect(((mask >> (kBuyTable + slot)) & 1) == want, "buy mask matches the card table (table)", seed, step);
  }
  for (int i = 0; i < kMaxReserved; ++i) {
    const bool want = i < p.num_reserved && affordable(p.reserved[i]);
    expect(((mask >> (kBuyReserved + i)) & 1) == want, "buy mask matches the card table (reserve)", seed, step);
  }
}

}  // namespace

SelfCheckReport self_check_random_games(const Config& config, int64_t n_games, uint64_t seed) {
  config.validate();
  SelfCheckReport report;
  Checker checker(report);
  for (int64_t g = 0; g < n_games; ++g) {
    // Alternate reveal modes so both the dealt (auto) and the explicit chance paths run.
    checker.play_one(config, core::splitmix64(seed + static_cast<uint64_t>(g)), (g % 2) == 1);
    ++report.games;
  }
  return report;
}

}  // namespace splendor
