// C++ checks of the search and of what it relies on in the engines: doctest cases, run
// by ctest (test_search -tc="name" runs one).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <doctest/doctest.h>

#include <cstdio>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "search/agents.hpp"
#include "duel/game.hpp"
#include "search/mcts.hpp"
#include "splendor/game.hpp"
#include "splendor_tables.inc"

using SplendorGame = splendor::Game;
using splendor::State;

namespace {

void expect(bool ok, const char* what) { CHECK_MESSAGE(ok, what); }

// A 3-player position where seats 1 and 2 hold blind reserves.
State position_with_blind_reserves() {
  State s = State::initial(splendor::Config::standard(3), 11, false);
  core::Rng rng(5);
  for (int i = 0; i < 6; ++i) s.apply(s.heuristic_action(rng));
  for (int seat_moves = 0; seat_moves < 3; ++seat_moves) {
    if (s.current_player() != 0 && s.is_legal(splendor::kReserveDeck)) s.apply(splendor::kReserveDeck);
    else s.apply(s.heuristic_action(rng));
    while (s.phase() != splendor::Phase::kMain) s.apply(s.heuristic_action(rng));
  }
  return s;
}

TEST_CASE("determinize is canonical and consistent") {
  const State s = position_with_blind_reserves();
  int blind = 0;
  for (int p = 1; p < 3; ++p) blind += core::popcount(s.player(p).reserved_blind);
  expect(blind >= 1, "fixture has an opponent blind reserve");
  State twin = s;
  core::Rng shuffle(99);
  twin.determinize(0, shuffle);  // same view for seat 0, other hidden cards
  expect(!(twin == s), "determinize changed the hidden cards");
  State a = s, b = twin;
  core::Rng ra(7), rb(7);
  a.determinize(0, ra);
  b.determinize(0, rb);
  expect(a == b, "determinize depends only on the observer's view and the rng");
  for (int p = 0; p < 3; ++p) {
    const splendor::Player& pl = a.player(p);
    for (int c = 0; c < splendor::kColours; ++c) {
      uint32_t lanes = 0;
      for (int i = 0; i < pl.num_reserved; ++i)
        lanes |= static_cast<uint32_t>(core::swar::lane(State::card_cost(pl.reserved[i]), c)) << (8 * i);
      expect(pl.reserved_cost[c] == lanes, "reserved card costs follow the resampled reserves");
    }
  }
  expect(a.hash() == a.compute_hash(), "hash after determinize");
}

int card_level(int card) { return splendor::tables::kCards[card].level - 1; }

// Plays `s` to the end with a fixed random stream; the moves and the returns.
std::pair<std::vector<core::Action>, std::vector<double>> playout(State s, uint64_t seed) {
  core::Rng rng(seed);
  std::vector<core::Action> moves;
  while (!s.is_terminal()) {
    moves.push_back(s.random_action(rng));
    s.apply_unhashed(moves.back());
  }
  std::vector<double> r(static_cast<size_t>(s.num_players()));
  s.returns(r.data());
  return {moves, r};
}

// The search's lazy sample: it cannot peek either, and it draws hidden reserves and
// reveals with the same (uniform) distribution as a full shuffle.
TEST_CASE("lazy determinize") {
  const State s = position_with_blind_reserves();
  State twin = s;
  core::Rng shuffle(99);
  twin.determinize(0, shuffle);
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    State a = s, b = twin;
    core::Rng ra(seed), rb(seed);
    a.determinize_lazily(0, ra);
    b.determinize_lazily(0, rb);
    expect(a.observation_json(0) == s.observation_json(0), "determinize_lazily keeps the observer's view");
    expect(playout(a, seed) == playout(b, seed), "a lazy sample plays on what the observer sees only");
  }
  // Seat 1's first blind reserve, and the card seat 0's own blind reserve then draws.
  int hidden_index = 0;
  while (!((s.player(1).reserved_blind >> hidden_index) & 1)) ++hidden_index;
  const int level = card_level(s.player(1).reserved[hidden_index]);
  const bool can_reserve = s.is_legal(splendor::kReserveDeck + level);
  expect(can_reserve, "fixture: seat 0 can reserve blind");
  constexpr int kSamples = 30000;
  int reserve_counts[splendor::kNumCards] = {}, draw_counts[splendor::kNumCards] = {};
  core::Rng rng(17);
  for (int i = 0; i < kSamples; ++i) {
    State t = s;
    t.determinize_lazily(0, rng);
    ++reserve_counts[t.player(1).reserved[hidden_index]];
    t.apply_unhashed(splendor::kReserveDeck + level);
    ++draw_counts[t.player(0).reserved[t.player(0).num_reserved - 1]];
  }
  // Unseen by seat 0: the level's deck and the opponents' blind reserves of that level.
  int unseen = s.deck_size(level);
  for (int p = 1; p < 3; ++p)
    for (int i = 0; i < s.player(p).num_reserved; ++i)
      unseen += ((s.player(p).reserved_blind >> i) & 1) && card_level(s.player(p).reserved[i]) == level;
  const double expected = static_cast<double>(kSamples) / unseen, slack = 5 * std::sqrt(expected);
  int support = 0;
  for (int c = 0; c < splendor::kNumCards; ++c) {
    if (!reserve_counts[c] && !draw_counts[c]) continue;
    ++support;
    expect(std::abs(reserve_counts[c] - expected) < slack, "a blind reserve is any unseen card, uniformly");
    expect(std::abs(draw_counts[c] - expected) < slack, "a lazy draw is any unseen card, uniformly");
  }
  expect(support == unseen, "every unseen card can be sampled");
}

TEST_CASE("search deterministic and legal") {
  const State s = position_with_blind_reserves();
  search::SearchParams p;
  p.iterations = 3000;
  p.seed = 3;
  search::MCTS<SplendorGame> m1(p), m2(p);
  const auto r1 = m1.search(s), r2 = m2.search(s);
  expect(r1.nodes == r2.nodes && r1.best_action == r2.best_action && r1.moves.size() == r2.moves.size(),
         "same seed, one thread: same search");
  for (size_t i = 0; i < r1.moves.size() && i < r2.moves.size(); ++i)
    expect(r1.moves[i].visits == r2.moves[i].visits && r1.moves[i].win_rate == r2.moves[i].win_rate, "same move stats");
  expect(s.is_legal(r1.best_action), "best action legal");
  expect(r1.root_visits == 3000 && r1.nodes == 3001, "one node per iteration");
}

// The same search code on Splendor Duel: legal, deterministic, memory-limited.
TEST_CASE("duel search") {
  duel::State s = duel::State::initial(duel::Config{}, 5, false);
  core::Rng rng(2);
  for (int i = 0; i < 20 && !s.is_terminal(); ++i) s.apply(s.heuristic_action(rng));
  search::SearchParams p;
  p.iterations = 2000;
  p.seed = 9;
  search::MCTS<duel::Game> m1(p), m2(p);
  const auto r1 = m1.search(s), r2 = m2.search(s);
  expect(s.is_legal(r1.best_action), "duel: best action legal");
  expect(r1.nodes == r2.nodes && r1.best_action == r2.best_action, "duel: deterministic");
  p.threads = 2;
  p.memory_limit = 1 << 20;
  p.iterations = 40000;
  search::MCTS<duel::Game> m3(p);
  const auto r3 = m3.search(s);
  expect(r3.iterations == 40000 && r3.bytes <= (1u << 20) && r3.memory_full, "duel: two threads, memory limit");
}

// Whole turns from the per-decision trees (search/turns.hpp), one tree and two merged:
// each turn is one seat's decisions (core::split_turns agrees), complete exactly when
// that seat's turn is over, no two reach the same position (the orders of one turn are
// one), and together they have at most the root's visits.
TEST_CASE("whole turns") {
  duel::State s = duel::State::initial(duel::Config{}, 5, false);
  core::Rng rng(2);
  for (int i = 0; i < 20 && !s.is_terminal(); ++i) s.apply(s.heuristic_action(rng));
  const int seat = s.current_player();
  for (int threads : {1, 2}) {
    search::SearchParams p;
    p.iterations = 4000;
    p.seed = 4;
    p.threads = threads;
    p.perfect_information = true;  // one sample: a turn's end is the true state's
    search::MCTS<duel::Game> m(p);
    const auto r = m.search(s, true);
    expect(r.has_turns && !r.turns.empty(), "turns when asked for");
    uint64_t visits = 0;
    std::set<uint64_t> reached;
    for (const auto& t : r.turns) {
      const auto first = std::find_if(r.moves.begin(), r.moves.end(),
                                      [&](const search::MoveStats& mv) { return mv.action == t.actions[0]; });
      expect(first != r.moves.end() && t.stats.visits > 0, "a turn begins with a root move and was visited");
      visits += t.stats.visits;
      const auto split = core::split_turns(s, t.actions);
      expect(split.size() == 1 && split[0].seat == seat && split[0].actions == t.actions, "a turn is one seat's");
      duel::State after = s;
      for (core::Action a : t.actions) after.apply(a);
      expect(t.complete == (after.is_terminal() || after.current_player() != seat), "complete when the turn is over");
      expect(reached.insert(after.hash()).second, "no two turns reach the same position");
      expect(std::equal(t.actions.begin(), t.actions.end(), t.stats.pv.begin()), "the line starts with the turn");
    }
    expect(visits <= r.root_visits, "the turns share the root's visits");
  }
  search::SearchParams p;
  p.iterations = 100;
  search::MCTS<duel::Game> plain(p);
  expect(!plain.search(s).has_turns, "no turns unless asked for");
}

// Every registered evaluator searches both games deterministically; the cut-off
// evaluation values a leaf by State::evaluate; an unknown name is refused by name.
TEST_CASE("evaluators") {
  const State s = position_with_blind_reserves();
  const duel::State d = duel::State::initial(duel::Config{}, 5, false);
  std::vector<double> first_win_rates;
  search::for_each_evaluator([&](const char* name, const char*) {
    search::SearchParams p;
    p.iterations = 600;
    p.seed = 2;
    p.evaluator = name;
    search::MCTS<SplendorGame> a(p), b(p);
    const auto ra = a.search(s), rb = b.search(s);
    expect(s.is_legal(ra.best_action) && ra.iterations == 600, "each evaluator: a legal answer within budget");
    expect(ra.best_action == rb.best_action && ra.moves[0].win_rate == rb.moves[0].win_rate, "each evaluator: deterministic");
    first_win_rates.push_back(ra.moves[0].win_rate);
    search::MCTS<duel::Game> dm(p);
    expect(d.is_legal(dm.search(d).best_action), "each evaluator: duel");
  });
  expect(first_win_rates.size() == 3 && first_win_rates[0] != first_win_rates[1] &&
             first_win_rates[1] != first_win_rates[2],
         "the evaluators value leaves differently");

  search::SearchParams one;
  one.iterations = 1;
  one.evaluator = "evaluate";
  one.perfect_information = true;  // the leaf is the true position after the move
  search::MCTS<SplendorGame> m(one);
  const auto r = m.search(s);
  State leaf = s;
  leaf.set_explicit_chance(false);
  leaf.apply(r.best_action);
  expect(std::abs(r.moves[0].win_rate - leaf.evaluate(s.current_player())) < 1e-6,
         "evaluate: the leaf's value is State::evaluate of the mover");

  one.evaluator = "clever";
  bool refused = false;
  try {
    search::MCTS<SplendorGame> bad(one);
  } catch (const core::InvalidInput& e) {
    refused = std::string(e.what()).find("random, heuristic, evaluate, got 'clever'") != std::string::npos;
  }
  expect(refused, "an unknown evaluator is refused, naming the registered ones");
}

// SearchParams::problem() names the first bad field (every door maps it to its own name);
// validate() throws its message.
TEST_CASE("params problems") {
  struct Case {
    void (*set)(search::SearchParams&);
    const char* field;
  };
  const Case cases[] = {
      {[](search::SearchParams& p) { p.iterations = -1; }, "iterations"},
      {[](search::SearchParams& p) { p.iterations = 0; }, "iterations"},
      {[](search::SearchParams& p) { p.time_limit = -1; }, "time_limit"},
      {[](search::SearchParams& p) { p.exploration = -0.5; }, "exploration"},
      {[](search::SearchParams& p) { p.threads = 257; }, "threads"},
      {[](search::SearchParams& p) { p.evaluator = "clever"; }, "evaluator"},
      {[](search::SearchParams& p) { p.rollout_cutoff = -1; }, "rollout_cutoff"},
      {[](search::SearchParams& p) { p.memory_limit = 1000; }, "memory_limit"},
      {[](search::SearchParams& p) { p.analysis_moves = search::kMaxAnalysisMoves + 1; }, "analysis_moves"},
      {[](search::SearchParams& p) { p.analysis_moves = -1; }, "analysis_moves"},
  };
  for (const Case& c : cases) {
    search::SearchParams p;
    p.iterations = 10;
    c.set(p);
    const auto problem = p.problem();
    expect(problem && problem->field == c.field && problem->message.rfind(c.field, 0) == 0,
           "problem() names the bad field first in its message");
    bool thrown = false;
    try {
      p.validate();
    } catch (const core::InvalidInput& e) {
      thrown = problem && e.what() == problem->message;
    }
    expect(thrown, "validate() throws problem()'s message");
  }
  search::SearchParams fine;
  fine.iterations = 10;
  expect(!fine.problem(), "the defaults with a budget are valid");
}

bool same_moves(const search::SearchResult& a, const search::SearchResult& b) {
  bool same = a.nodes == b.nodes && a.best_action == b.best_action && a.moves.size() == b.moves.size();
  for (size_t i = 0; same && i < a.moves.size(); ++i)
    same = a.moves[i].action == b.moves[i].action && a.moves[i].visits == b.moves[i].visits &&
           a.moves[i].avail == b.moves[i].avail && a.moves[i].win_rate == b.moves[i].win_rate;
  return same;
}

// Tree parallelism: with one thread the same search as root parallelism by
// construction; with two, the budget is kept and the shared tree stays within memory.
TEST_CASE("tree parallelism") {
  const State s = position_with_blind_reserves();
  search::SearchParams p;
  p.iterations = 3000;
  p.seed = 4;
  search::MCTS<SplendorGame> root_mode(p);
  p.parallelism = search::Parallelism::kTree;
  search::MCTS<SplendorGame> tree_mode(p);
  expect(same_moves(root_mode.search(s), tree_mode.search(s)), "tree mode, one thread: same search as root mode");

  p.threads = 2;
  search::MCTS<SplendorGame> two(p);
  State pos = s;
  for (int turn = 0; turn < 3; ++turn) {  // later searches reuse the shared tree
    const auto r = two.search(pos);
    uint64_t child_visits = 0;
    for (const auto& m : r.moves) child_visits += m.visits;
    expect(pos.is_legal(r.best_action), "tree mode, two threads: best action legal");
    expect(r.iterations == 3000 && r.root_visits == 3000 + r.reused_visits, "tree mode, two threads: budget kept");
    // (after reuse, children illegal at the new root are pruned with their visits)
    expect(turn > 0 || child_visits == r.root_visits, "tree mode, two threads: every iteration counted once");
    expect(r.nodes <= r.root_visits + 1, "tree mode, two threads: at most one node per iteration");
    pos.apply(r.best_action);
    while (!pos.is_terminal() && pos.current_player() != s.current_player()) {
      core::Rng rng(static_cast<uint64_t>(turn));
      pos.apply(pos.heuristic_action(rng));
    }
  }

  duel::State d = duel::State::initial(duel::Config{}, 5, false);
  search::SearchParams q;
  q.iterations = 40000;
  q.seed = 1;
  q.threads = 2;
  q.parallelism = search::Parallelism::kTree;
  q.memory_limit = 1 << 20;
  search::MCTS<duel::Game> m(q);
  const auto r = m.search(d);
  expect(r.iterations == 40000 && r.bytes <= (1u << 20) && r.memory_full && d.is_legal(r.best_action),
         "tree mode, two threads: memory limit");
}

// Runs m.search(s) in a thread and takes snapshots from this one until `wanted` were
// taken (then asks the search to stop) or the search ends. Each snapshot must be whole:
// the search threads are paused between iterations, so every iteration so far is
// counted once at the root and once at a root child (a fresh tree, no memory limit).
template <class G>
search::SearchResult search_with_snapshots(search::MCTS<G>& m, const typename G::State& s, int wanted, int& taken) {
  search::SearchResult result;
  std::atomic<bool> done{false};
  std::thread searching([&] {
    result = m.search(s);
    done.store(true);
  });
  taken = 0;
  uint64_t last_iterations = 0;
  bool whole = true;
  while (taken < wanted && !done.load()) {
    const auto snap = m.snapshot(s);
    if (!snap) {
      std::this_thread::yield();  // not started yet, or just finished
      continue;
    }
    ++taken;
    uint64_t child_visits = 0;
    for (const auto& mv : snap->moves) child_visits += mv.visits;
    whole &= snap->iterations >= last_iterations && snap->root_visits == snap->iterations &&
             child_visits == snap->root_visits;
    last_iterations = snap->iterations;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));  // let the tree grow between snapshots
  }
  if (taken == wanted) m.request_stop();
  searching.join();
  expect(whole, "snapshots: every iteration counted once at the root and once below it");
  return result;
}

// snapshot() from another thread while a search runs on two threads (one shared tree
// or one tree each); pausing for snapshots does not change a one-thread search.
TEST_CASE("snapshots during search") {
  const State s = position_with_blind_reserves();
  search::SearchParams p;
  p.time_limit = 60;  // a safety net: the search is stopped after the snapshots
  p.seed = 5;
  p.threads = 2;
  int taken = 0;
  for (const auto mode : {search::Parallelism::kTree, search::Parallelism::kRoot}) {
    p.parallelism = mode;
    search::MCTS<SplendorGame> two(p);
    const auto r = search_with_snapshots(two, s, 20, taken);
    expect(taken == 20 && r.interrupted && r.root_visits == r.iterations, "snapshots: two threads");
  }

  p.time_limit = 0;
  p.iterations = 3000;
  p.threads = 1;
  search::MCTS<SplendorGame> plain(p), watched(p);
  const auto a = plain.search(s), b = search_with_snapshots(watched, s, 1000000, taken);
  expect(same_moves(a, b), "snapshots: one thread, same search as without them");
}

TEST_CASE("agents legal") {
  State s = State::initial(splendor::Config::standard(4), 3, false);
  core::Rng rng(1);
  int moves = 0;
  while (!s.is_terminal() && moves < 2000) {
    const core::Action a = (moves & 1) ? search::greedy_agent_action<SplendorGame>(s, rng)
                                        : search::random_agent_action<SplendorGame>(s, rng);
    expect(s.is_legal(a), "agent move legal");
    s.apply(a);
    ++moves;
  }
  expect(s.is_terminal(), "agents finish a game");
}

}  // namespace

namespace {

search::MoveStats move_stats(core::Action action, uint64_t visits, double win_rate) {
  search::MoveStats m;
  m.action = action;
  m.visits = visits;
  m.win_rate = win_rate;
  m.lcb = search::wilson_lower(win_rate, static_cast<double>(visits));
  m.ucb = search::wilson_upper(win_rate, static_cast<double>(visits));
  return m;
}

std::vector<core::Action> rule_order(std::vector<search::MoveStats> moves, const search::SearchParams& p,
                                     uint64_t root_visits) {
  const uint64_t lcb_visits = search::lcb_min_visits(p, root_visits);
  std::sort(moves.begin(), moves.end(),
            [&](const auto& a, const auto& b) { return search::better_move(a, b, lcb_visits); });
  std::vector<core::Action> order;
  for (const auto& m : moves) order.push_back(m.action);
  return order;
}

}  // namespace

// The best-move rule (search/choice.hpp): in analysis mode a move with at least the
// share of the visits and a higher lower bound passes the most visited one; a move
// below the share does not, however high its mean; without analysis mode, visits.
TEST_CASE("best-move rule") {
  const std::vector<search::MoveStats> moves = {
      move_stats(0, 10000, 0.50),  // most visited, lower bound ~0.490
      move_stats(1, 3000, 0.56),   // 30% of the visits, lower bound ~0.542
      move_stats(2, 400, 0.90),    // 3% of the visits: below the share
      move_stats(3, 2000, 0.40),
  };
  const uint64_t root = 15400;
  expect(moves[1].lcb > moves[0].lcb && moves[2].lcb > moves[1].lcb, "the case is what it says");
  search::SearchParams analysis;
  analysis.analysis_moves = 5;
  expect(rule_order(moves, analysis, root) == std::vector<core::Action>{1, 0, 3, 2},
         "analysis mode: moves with the share by lower bound, then the rest by visits");
  expect(rule_order(moves, search::SearchParams{}, root) == std::vector<core::Action>{0, 1, 3, 2},
         "off: most visits first, as before");
  for (const auto& m : moves) expect(m.lcb < m.win_rate && m.win_rate < m.ucb, "the interval holds the mean");
}

// Analysis mode: each of the k moves shown has at least the share of the root's visits
// (one thread: the floor is kept on the tree the result is read from), the moves come in
// the rule's order, and the search without it is the one before it existed.
TEST_CASE("analysis mode floor") {
  const State s = position_with_blind_reserves();
  search::SearchParams p;
  p.iterations = 20000;
  p.seed = 7;
  const auto off = search::MCTS<SplendorGame>(p).search(s);
  for (int k : {1, 5, search::kMaxAnalysisMoves}) {
    p.analysis_moves = k;
    const auto r = search::MCTS<SplendorGame>(p).search(s);
    REQUIRE(r.moves.size() > static_cast<size_t>(k));
    for (int i = 0; i < k; ++i)
      expect(static_cast<double>(r.moves[i].visits) >= search::kAnalysisShare * static_cast<double>(r.root_visits),
             "every move shown has the share");
    const uint64_t lcb_visits = search::lcb_min_visits(p, r.root_visits);
    for (size_t i = 1; i < r.moves.size(); ++i)
      expect(!search::better_move(r.moves[i], r.moves[i - 1], lcb_visits), "moves in the rule's order");
    expect(r.best_action == r.moves[0].action, "the best move is the first");
  }
  p.analysis_moves = search::kMaxAnalysisMoves;
  const auto on = search::MCTS<SplendorGame>(p).search(s);
  const auto& last_off = off.moves[search::kMaxAnalysisMoves - 1];
  expect(static_cast<double>(last_off.visits) < search::kAnalysisShare * static_cast<double>(off.root_visits),
         "without analysis mode the tenth move is starved (so the floor is what fed it)");
  expect(on.nodes == off.nodes && on.root_visits == off.root_visits, "the same budget either way");
}
