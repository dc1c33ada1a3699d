// Random Splendor Duel games for a few seconds, checking every invariant after every
// action. Built with ASan+UBSan in CI (.ci/run). Usage: fuzz_duel [seconds] [seed]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/invariants.hpp"
#include "duel/state.hpp"

using namespace duel;
using core::Action;

namespace {

int failures = 0;

void expect(bool ok, const char* what, uint64_t seed, int step) {
  if (ok) return;
  if (++failures <= 20)
    std::fprintf(stderr, "FAIL: %s (game seed %llu, step %d)\n", what, (unsigned long long)seed, step);
}

// 25 tokens between board, bag and players; every card in exactly one place;
// privileges within the count; nobody above 10 tokens between turns.
void check_conservation(const State& s, uint64_t seed, int step) {
  int tokens[kNumKinds] = {};
  for (int c = 0; c < kNumCells; ++c)
    if (s.cell(c) != kEmpty) ++tokens[s.cell(c)];
  for (int k = 0; k < kNumKinds; ++k) {
    tokens[k] += core::swar::lane(s.bag(), k) + core::swar::lane(s.player(0).tokens, k) + core::swar::lane(s.player(1).tokens, k);
    int mask_count = core::popcount(s.kind_mask(k));
    int cells = 0;
    for (int c = 0; c < kNumCells; ++c) cells += s.cell(c) == k;
    expect(mask_count == cells, "board masks match cells", seed, step);
  }
  for (int k = 0; k < kNumKinds; ++k)
    expect(tokens[k] == (k < kPearl ? 4 : k == kPearl ? 2 : 3), "25 tokens accounted for", seed, step);
  int seen[kNumCards] = {};
  for (int slot = 0; slot < kNumSlots; ++slot)
    if (s.pyramid(slot) != kNoCard) ++seen[s.pyramid(slot)];
  for (int l = 0; l < 3; ++l)
    core::for_each_bit(s.deck(l), [&](int i) { ++seen[kLevelFirst[l] + i]; });
  for (int seat = 0; seat < 2; ++seat) {
    const Player& p = s.player(seat);
    for (int i = 0; i < p.num_reserved; ++i) ++seen[p.reserved[i]];
    for (int c = 0; c < kNumCards; ++c) seen[c] += p.owns(c);
    expect(p.num_reserved <= kMaxReserved, "at most 3 reserved", seed, step);
  }
  for (int c = 0; c < kNumCards; ++c) expect(seen[c] == 1, "card in exactly one place", seed, step);
  int priv = s.player(0).privileges + s.player(1).privileges;
  expect(priv <= s.config().privileges && s.privilege_supply() >= 0, "privileges conserved", seed, step);
  if (!s.in_setup() && s.phase() == Phase::kMain)
    expect(s.player(s.turn_seat() ^ 1).num_tokens() <= kMaxTokensHeld, "opponent holds at most 10", seed, step);
}

// The vectorised buy mask against a plain recomputation from the card table.
void check_buys(const State& s, const ActionList& legal, uint64_t seed, int step) {
  if (s.phase() != Phase::kMain || s.in_setup()) return;
  const Player& p = s.player(s.turn_seat());
  auto affordable = [&](int card) {
    int shortfall = 0;
    for (int k = 0; k < 6; ++k) {
      int need = tables::kCards[card].cost[k] - (k < 5 ? core::swar::lane(p.bonuses, k) : 0) - core::swar::lane(p.tokens, k);
      shortfall += need > 0 ? need : 0;
    }
    bool joker_ok = tables::kCards[card].bonus != kBonusJoker || p.bonuses != 0;
    return joker_ok && shortfall <= core::swar::lane(p.tokens, kGold);
  };
  for (int b = 0; b < kNumSlots + kMaxReserved; ++b) {
    int card = b < kNumSlots ? s.pyramid(b) : b - kNumSlots < p.num_reserved ? p.reserved[b - kNumSlots] : kNoCard;
    bool want = card != kNoCard && affordable(card);
    expect(legal.contains(kBuyBase + b) == want, "buy mask matches the card table", seed, step);
  }
}

void check_bad_inputs(State& s, core::Rng& rng, uint64_t seed, int step) {
  core::check_refuses_bad_action<kNumDistinctActions>(
      s, rng, [&](bool ok, const char* what) { expect(ok, what, seed, step); });
  const State before = s;
  // Random text: either a valid id or InvalidInput, never a crash.
  static const char* kWords[] = {"take", "buy", "reserve", "gold", "privilege", "royal", "joker", "steal",
                                 "discard", "a1", "e5", "c3", "2.3", "deck2", "r1", "red", "pearl", "9",
                                 "z", "", "1.5", "card", "fill", "first", "replenish", "  ", "0", "67"};
  std::string text;
  for (int i = 0, n = static_cast<int>(rng.below(5)); i < n; ++i)
    text += std::string(kWords[rng.below(sizeof kWords / sizeof *kWords)]) + (rng.below(3) ? " " : "");
  try {
    Action a = s.string_to_action(text);
    expect(a >= 0 && a < kNumDistinctActions, "parsed action in range", seed, step);
  } catch (const core::InvalidInput&) {
  }
  expect(s == before, "state unchanged by parsing", seed, step);
}

// Full JSON round-trips; views are the same after determinizing what the viewer
// cannot see and after reading the view back; damaged JSON is refused or gives a
// consistent, playable position.
void check_json(const State& s, core::Rng& rng, uint64_t seed, int step) {
  const std::string text = s.to_json();
  try {
    State back = State::from_json(s.config(), text);
    expect(back == s, "JSON round-trips", seed, step);
  } catch (const core::InvalidInput& e) {
    expect(false, "own JSON is readable", seed, step);
    if (failures <= 20) std::fprintf(stderr, "  %s\n%s\n", e.what(), text.c_str());
  }
  if (s.in_setup()) return;
  for (int seat = 0; seat < 2; ++seat) {
    const std::string view = s.observation_json(seat);
    expect(view.find("\"deal\"") == std::string::npos, "a view has no deal", seed, step);
    State d = s;
    d.determinize(seat, rng);
    expect(d.observation_json(seat) == view, "determinizing keeps the view", seed, step);
    static float before[kObservationSize], after[kObservationSize];
    s.observation_tensor(seat, before);
    d.observation_tensor(seat, after);
    expect(std::memcmp(before, after, sizeof before) == 0, "determinizing keeps the observation tensor", seed, step);
    try {
      State guess = State::from_observation(s.config(), view, rng.next());
      expect(guess.observation_json(seat) == view, "a state from a view shows the same view", seed, step);
      check_conservation(guess, seed, step);
    } catch (const core::InvalidInput& e) {
      expect(false, "own view is readable", seed, step);
      if (failures <= 20) std::fprintf(stderr, "  %s\n%s\n", e.what(), view.c_str());
    }
  }
  // Damaged input: one random edit.
  std::string bad = text;
  size_t at = rng.below(static_cast<uint32_t>(bad.size()));
  static const char kJunk[] = "0123456789.-\"{}[],:WURKP*ntfe ";
  switch (rng.below(3)) {
    case 0: bad[at] = kJunk[rng.below(sizeof kJunk - 1)]; break;
    case 1: bad.erase(at, 1 + rng.below(4)); break;
    default: bad.insert(at, 1, kJunk[rng.below(sizeof kJunk - 1)]); break;
  }
  try {
    State damaged = State::from_json(s.config(), bad);
    check_conservation(damaged, seed, step);
    expect(damaged.hash() == damaged.compute_hash(), "hash of a read position", seed, step);
    ActionList l;
    damaged.legal_actions(l);
    expect(damaged.is_terminal() || !l.empty(), "a read position is playable", seed, step);
  } catch (const core::InvalidInput&) {
  }
}

void play_one(const Config& cfg, uint64_t seed, bool explicit_chance, bool heuristic, bool json_often) {
  State s = State::initial(cfg, seed, explicit_chance);
  core::Rng rng(seed * 31 + 7);
  ActionList legal;
  State unhashed = s;  // follows the same moves through apply_unhashed
  for (int step = 0; !s.is_terminal(); ++step) {
    expect(step < 5000, "game terminates", seed, step);
    if (step >= 5000) return;
    const auto at_step = [&](bool ok, const char* what) { expect(ok, what, seed, step); };
    check_conservation(s, seed, step);
    core::check_decision(s, legal, at_step);
    check_buys(s, legal, seed, step);
    for (int i = 1; i < legal.size(); ++i) expect(legal[i - 1] < legal[i], "legal actions ascending", seed, step);
    if (s.is_chance()) {
      ChanceList outs;
      s.chance_outcomes(outs);
      double total = 0;
      bool dealt_listed = false;
      for (auto o : outs) total += o.probability, dealt_listed |= o.action == s.dealt_outcome();
      expect(outs.size() == legal.size(), "chance outcomes are the legal actions", seed, step);
      expect(total > 0.999999 && total < 1.000001, "chance probabilities sum to 1", seed, step);
      expect(dealt_listed, "dealt outcome is a chance outcome", seed, step);
    } else {
      // Determinizing for either seat keeps the position consistent.
      State d = s;
      d.determinize(static_cast<int>(rng.below(2)), rng);
      check_conservation(d, seed, step);
      expect(d.hash() == d.compute_hash(), "hash after determinize", seed, step);
      double v = s.evaluate(s.current_player());
      expect(v >= 0.0 && v <= 1.0, "evaluate in [0, 1]", seed, step);
      Action h = s.heuristic_action(rng);
      expect(legal.contains(h), "heuristic_action is legal", seed, step);
    }
    check_bad_inputs(s, rng, seed, step);
    if (step % (json_often ? 5 : 40) == 0) check_json(s, rng, seed, step);
    const Action a = heuristic ? s.heuristic_action(rng) : s.random_action(rng);
    State copy = s;
    copy.apply(a);
    core::check_move(s, unhashed, a, legal, at_step);
    expect(copy == s, "a copy plays the same", seed, step);
  }
  check_conservation(s, seed, -1);
  check_json(s, rng, seed, -1);
  double r[2];
  s.returns(r);
  expect(r[0] + r[1] == 1.0 && (r[0] == 1.0 || r[1] == 1.0), "one winner", seed, -1);
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 3.0;
  const uint64_t base_seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
  long games = 0;
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t g = 0;; ++g) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > seconds) break;
    core::Rng vr(base_seed * 1000003 + g);
    Config cfg;
    if (g % 4 == 3) {  // variants
      cfg.points_to_win = static_cast<int16_t>(5 + vr.below(30));
      cfg.crowns_to_win = static_cast<int16_t>(3 + vr.below(12));
      cfg.colour_points_to_win = static_cast<int16_t>(3 + vr.below(12));
      cfg.privileges = static_cast<int16_t>(vr.below(7));
      cfg.first_player = static_cast<int16_t>(static_cast<int>(vr.below(3)) - 1);
    }
    play_one(cfg, base_seed * 1000003 + g, (g % 2) == 1, (g % 8) == 5, (g % 4) == 0);
    ++games;
  }
  std::printf("fuzz_duel: %ld games, %d failures\n", games, failures);
  return failures ? 1 : 0;
}
