// Random Splendor Duel games for a few seconds through the generic random-game test
// (core/random_sim.hpp), with Duel's own checks: token, card and privilege
// conservation, the buy mask against the card table, views without the deal.
// Built with ASan+UBSan in CI (.ci/run). Usage: fuzz_duel [seconds] [seed]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/random_sim.hpp"
#include "duel/game.hpp"

using namespace duel;
using core::Action;

namespace {

// 25 tokens between board, bag and players; every card in exactly one place;
// privileges within the count; nobody above 10 tokens between turns.
void check_conservation(const State& s, const core::Expect& expect) {
  int tokens[kNumKinds] = {};
  for (int c = 0; c < kNumCells; ++c)
    if (s.cell(c) != kEmpty) ++tokens[s.cell(c)];
  for (int k = 0; k < kNumKinds; ++k) {
    tokens[k] += core::swar::lane(s.bag(), k) + core::swar::lane(s.player(0).tokens, k) + core::swar::lane(s.player(1).tokens, k);
    int mask_count = core::popcount(s.kind_mask(k));
    int cells = 0;
    for (int c = 0; c < kNumCells; ++c) cells += s.cell(c) == k;
    expect(mask_count == cells, "board masks match cells");
  }
  for (int k = 0; k < kNumKinds; ++k)
    expect(tokens[k] == (k < kPearl ? 4 : k == kPearl ? 2 : 3), "25 tokens accounted for");
  int seen[kNumCards] = {};
  for (int slot = 0; slot < kNumSlots; ++slot)
    if (s.pyramid(slot) != kNoCard) ++seen[s.pyramid(slot)];
  for (int l = 0; l < 3; ++l)
    core::for_each_bit(s.deck(l), [&](int i) { ++seen[kLevelFirst[l] + i]; });
  for (int seat = 0; seat < 2; ++seat) {
    const Player& p = s.player(seat);
    for (int i = 0; i < p.num_reserved; ++i) ++seen[p.reserved[i]];
    for (int c = 0; c < kNumCards; ++c) seen[c] += p.owns(c);
    expect(p.num_reserved <= kMaxReserved, "at most 3 reserved");
  }
  for (int c = 0; c < kNumCards; ++c) expect(seen[c] == 1, "card in exactly one place");
  int priv = s.player(0).privileges + s.player(1).privileges;
  expect(priv <= s.config().privileges && s.privilege_supply() >= 0, "privileges conserved");
  if (!s.in_setup() && s.phase() == Phase::kMain)
    expect(s.player(s.turn_seat() ^ 1).num_tokens() <= kMaxTokensHeld, "opponent holds at most 10");
}

// The vectorised buy mask against a plain recomputation from the card table.
void check_buys(const State& s, const ActionList& legal, const core::Expect& expect) {
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
    expect(legal.contains(kBuyBase + b) == want, "buy mask matches the card table");
  }
}

// Duel's own checks for core::random_sim_test.
struct Checks : core::RuleChecks<Game> {
  bool heuristic = false;  // play the rollout policy's moves instead of random ones

  void position(const State& s, const core::Expect& expect) { check_conservation(s, expect); }
  void decision(const State& s, const ActionList& legal, core::Rng& rng, const core::Expect& expect) {
    check_buys(s, legal, expect);
    if (s.is_chance()) return;
    // Determinizing for either seat keeps the position consistent.
    State d = s;
    d.determinize(static_cast<int>(rng.below(2)), rng);
    check_conservation(d, expect);
    expect(d.hash() == d.compute_hash(), "hash after determinize");
  }
  bool has_views(const State& s) const { return !s.in_setup(); }
  void view(const State&, int, const std::string& view, const core::Expect& expect) {
    expect(view.find("\"deal\"") == std::string::npos, "a view has no deal");
  }
  core::Action choose(const State& s, core::Rng& rng) { return heuristic ? s.heuristic_action(rng) : s.random_action(rng); }
  std::string word(core::Rng& rng) {
    static constexpr const char* kWords[] = {"take", "buy", "reserve", "gold", "privilege", "royal", "joker", "steal",
                                             "discard", "a1", "e5", "c3", "2.3", "deck2", "r1", "red", "pearl", "9",
                                             "z", "", "1.5", "card", "fill", "first", "replenish", "  ", "0", "67"};
    return kWords[rng.below(sizeof kWords / sizeof *kWords)];
  }
  void end(const State& s, const core::Expect& expect) {
    double r[2];
    s.returns(r);
    expect(r[0] + r[1] == 1.0 && (r[0] == 1.0 || r[1] == 1.0), "one winner");
  }
};

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 3.0;
  const uint64_t base_seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
  core::SimReport report;
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
    Checks checks;
    checks.heuristic = (g % 8) == 5;
    const core::SimOptions options{.views_every = (g % 4) == 0 ? 5 : 40};
    core::random_sim_game<Game>(cfg, base_seed * 1000003 + g, (g % 2) == 1, report, checks, options);
  }
  for (const std::string& f : report.failures) std::fprintf(stderr, "FAIL: %s\n", f.c_str());
  std::printf("fuzz_duel: %lld games, %lld failures\n", static_cast<long long>(report.games),
              static_cast<long long>(report.failure_count));
  return report.failure_count ? 1 : 0;
}
