// C++ checks of the solver inside the search (search/solver.hpp): wins in one are
// proven and chosen, positions lost whatever the player does are proven lost, no
// proof is ever false for the true cards, and proofs propagate up a tree as the
// MCTS-Solver rules say. doctest cases, run by ctest.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "core/forced_win.hpp"
#include "duel/game.hpp"
#include "search/mcts.hpp"
#include "splendor/game.hpp"

namespace {

void expect(bool ok, const char* what) { CHECK_MESSAGE(ok, what); }

// What a move does at once: ends the game with the mover winning outright (+1),
// losing outright (-1), or anything else (0).
template <class G>
int outcome(const typename G::State& s, core::Action a) {
  typename G::State child = s;
  child.apply(a);
  if (!child.is_terminal()) return 0;
  double values[G::kMaxPlayers];
  child.returns(values);
  const double v = values[s.current_player()];
  return v == 1.0 ? 1 : v == 0.0 ? -1 : 0;
}

template <class G>
struct Found {
  typename G::State state;
  int wins = 0, losses = 0, moves = 0;
};

// The positions of random games (deals `first`..) where some move wins at once, and
// those where every move loses at once.
template <class G>
void random_game_positions(const typename G::Config& config, uint64_t first, int games, std::vector<Found<G>>& out) {
  for (uint64_t deal = first; deal < first + static_cast<uint64_t>(games); ++deal) {
    typename G::State s = G::State::initial(config, deal, false);
    core::Rng rng(deal);
    while (!s.is_terminal()) {
      typename G::ActionList legal;
      s.legal_actions(legal);
      Found<G> f{s};
      for (core::Action a : legal) {
        const int o = outcome<G>(s, a);
        f.wins += o == 1;
        f.losses += o == -1;
      }
      f.moves = static_cast<int>(legal.size());
      if (f.wins || f.losses == f.moves) out.push_back(f);
      s.apply(s.random_action(rng));
    }
  }
}

search::SearchParams default_params(int threads, search::Parallelism parallelism) {
  search::SearchParams p;  // the defaults of sm.analyze (python/splendor_mcts/search/defaults.py)
  p.iterations = 1000;
  p.evaluator = "heuristic";
  p.rollout_cutoff = 30;
  p.threads = threads;
  p.parallelism = parallelism;
  return p;
}

// Every proof the search reports holds for the true cards, a win in one is chosen and
// proven, and a position where every move loses is proven lost.
template <class G>
void check_positions(const std::vector<Found<G>>& found, const search::SearchParams& params, const char* game) {
  int wins_seen = 0, lost_seen = 0;
  for (const Found<G>& f : found) {
    search::MCTS<G> mcts(params);
    const search::SearchResult r = mcts.search(f.state);
    for (const search::MoveStats& m : r.moves) {
      const int o = outcome<G>(f.state, m.action);
      if (m.proof == search::solver::Proof::kWin) expect(o == 1 && m.proof_turns == 1, "a move proven won wins at once");
      if (m.proof == search::solver::Proof::kLoss) expect(o == -1 && m.proof_turns == 1, "a move proven lost loses at once");
    }
    if (f.wins) {
      ++wins_seen;
      expect(outcome<G>(f.state, r.best_action) == 1, "the search plays a win in one");
      expect(r.proof == search::solver::Proof::kWin && r.proof_turns == 1, "a win in one is reported proven");
      expect(r.iterations < static_cast<uint64_t>(params.iterations), "a proven root ends the search");
    } else {
      ++lost_seen;
      expect(r.proof == search::solver::Proof::kLoss, "a position where every move loses is proven lost");
    }
  }
  std::printf("%s: %d wins in one, %d positions lost whatever the player does\n", game, wins_seen, lost_seen);
  expect(wins_seen >= 5, "the fixture has wins in one");
}

TEST_CASE("wins in one and lost positions") {
  for (int players = 2; players <= 4; ++players) {
    std::vector<Found<splendor::Game>> found;
    random_game_positions<splendor::Game>(splendor::Config::standard(players), 100, 30, found);
    check_positions<splendor::Game>(found, default_params(1, search::Parallelism::kRoot), "splendor");
  }
  std::vector<Found<duel::Game>> found;
  random_game_positions<duel::Game>(duel::Config{}, 100, 8, found);
  check_positions<duel::Game>(found, default_params(1, search::Parallelism::kRoot), "duel");
  check_positions<duel::Game>(found, default_params(2, search::Parallelism::kTree), "duel, tree parallelism");
  check_positions<duel::Game>(found, default_params(3, search::Parallelism::kRoot), "duel, 3 root trees");
}

// A bot keeps its tree between moves (reuse_tree): the children of the new root were
// made below the old one, where nothing is proven, so a win in one among them must be
// proven when the descent first chooses it (it is never made again). Each position of
// random games with a win in one is searched after the same seat's previous decision.
template <class G>
void check_reused_wins(const typename G::Config& config, uint64_t first, int games, const char* game) {
  search::SearchParams p = default_params(1, search::Parallelism::kRoot);
  p.iterations = 3000;
  p.reuse_tree = true;
  int checked = 0;
  for (uint64_t deal = first; deal < first + static_cast<uint64_t>(games); ++deal) {
    std::vector<typename G::State> line{G::State::initial(config, deal, false)};
    core::Rng rng(deal);
    while (!line.back().is_terminal()) {
      typename G::State next = line.back();
      next.apply(next.random_action(rng));
      line.push_back(next);
    }
    for (size_t j = 1; j < line.size(); ++j) {
      const typename G::State& b = line[j];
      if (b.is_terminal() || b.is_chance()) continue;
      typename G::ActionList legal;
      b.legal_actions(legal);
      if (std::none_of(legal.begin(), legal.end(), [&](core::Action a) { return outcome<G>(b, a) == 1; })) continue;
      size_t i = j;  // the same seat's previous decision
      while (i > 0 && (line[i - 1].is_chance() || line[i - 1].current_player() != b.current_player())) --i;
      if (i == 0) continue;
      search::MCTS<G> mcts(p);
      mcts.search(line[i - 1]);
      const search::SearchResult r = mcts.search(b);
      if (r.reused_visits == 0) continue;
      ++checked;
      expect(outcome<G>(b, r.best_action) == 1, "a reused tree plays a win in one");
      expect(r.proof == search::solver::Proof::kWin && r.proof_turns == 1, "a reused tree proves a win in one");
    }
  }
  std::printf("%s: %d wins in one searched with a reused tree\n", game, checked);
  expect(checked >= 5, "the fixture reuses trees at wins in one");
}

TEST_CASE("wins in one in a reused tree") {
  check_reused_wins<duel::Game>(duel::Config{}, 100, 8, "duel");
  check_reused_wins<splendor::Game>(splendor::Config::standard(2), 100, 30, "splendor 2p");
}

// The MCTS-Solver rules on a hand-made tree: seat 0 moves into A (a lost end) or B,
// where seat 1 moves into C (lost at once) or D, where seat 1 moves again into E (lost).
TEST_CASE("propagation rules") {
  using search::solver::encode;
  using search::solver::Proof;
  auto build = [](search::Tree& t) {
    t.clear();
    const uint32_t a = t.add_child(0, 1, 0), b = t.add_child(0, 2, 0);
    const uint32_t c = t.add_child(b, 3, 1), d = t.add_child(b, 4, 1);
    const uint32_t e = t.add_child(d, 5, 1);
    t[a].flags = encode(Proof::kLoss, 1);
    t[c].flags = encode(Proof::kLoss, 1);
    t[e].flags = encode(Proof::kLoss, 1);
    return std::vector<uint32_t>{0, b, d, e};
  };
  const int n_legal[] = {2, 2, 1};
  search::Tree t;
  std::vector<uint32_t> path = build(t);
  search::solver::propagate<search::OwnTree>(t, path.data(), 2, n_legal, 2);
  // D: seat 1's only move loses, within its own turn. B: both of seat 1's moves lose,
  // so seat 0's move into B wins in 2 turns (this one and seat 1's). The root: B wins.
  expect(t[path[2]].flags == encode(Proof::kLoss, 1), "a node whose every move loses is lost (same turn)");
  expect(t[path[1]].flags == encode(Proof::kWin, 2), "the opponent lost whatever he does: a win, one turn later");
  expect(t[0].flags == encode(Proof::kWin, 2), "the root is won by its winning move");

  path = build(t);
  search::solver::propagate<search::OwnTree>(t, path.data(), 2, n_legal, 3);
  expect(t[path[1]].flags == 0, "3 players: seat 1 losing says nothing of who wins");
  expect(t[0].flags == 0, "3 players: nothing proven at the root");

  path = build(t);
  const int untried[] = {2, 3, 1};  // B has a legal move with no child yet
  search::solver::propagate<search::OwnTree>(t, path.data(), 2, untried, 2);
  expect(t[path[1]].flags == 0, "a node with an untried move is not lost");
}

// The exhaustive check stops at its deadline at once: the root probe gives it a share of
// a time limit (search/probe.hpp), and its positions are costly (a clock read every
// 1024 positions overran a 2 ms share by up to a quarter second). Positions of random
// games whose check needs more than a thousand positions, with a deadline already past:
// undecided after the first position.
TEST_CASE("the forced-win check stops at its deadline") {
  using G = splendor::Game;
  int checked = 0;
  for (uint64_t deal = 0; deal < 40 && checked < 3; ++deal) {
    G::State s = G::State::initial(splendor::Config::standard(2), deal, false);
    core::Rng rng(deal);
    while (!s.is_terminal() && checked < 3) {
      if (!s.is_chance() && !s.others_hold_unseen(s.current_player()) && s.may_win_within(2)) {
        core::ForcedWinCheck<G> unbounded(2, 20000);
        const core::ForcedWin verdict = unbounded.check(s);
        if (verdict == core::ForcedWin::kUnknown || unbounded.nodes() > 1100) {
          ++checked;
          core::ForcedWinCheck<G> late(2, 20000);
          late.set_deadline(std::chrono::steady_clock::now());
          expect(late.check(s) == core::ForcedWin::kUnknown, "a check past its deadline decides nothing");
          CHECK(late.nodes() <= 1);
        }
      }
      s.apply(s.random_action(rng));
    }
  }
  expect(checked == 3, "the fixture finds positions the check needs more than 1100 positions for");
}

// Proven wins come first (the quickest first), proven losses last (the longest first).
TEST_CASE("move order") {
  using search::solver::Proof;
  std::vector<search::MoveStats> moves(5);
  const Proof proofs[] = {Proof::kLoss, Proof::kWin, Proof::kUnknown, Proof::kWin, Proof::kLoss};
  const int turns[] = {1, 3, 0, 1, 4};
  for (int i = 0; i < 5; ++i) {
    moves[i].action = i;
    moves[i].visits = static_cast<uint64_t>(100 - i);
    moves[i].proof = proofs[i];
    moves[i].proof_turns = turns[i];
  }
  const search::SearchParams play;  // analysis mode off
  const uint64_t lcb_visits = search::lcb_min_visits(play, 500);
  std::sort(moves.begin(), moves.end(),
            [&](const auto& a, const auto& b) { return search::better_move(a, b, lcb_visits); });
  const int order[] = {3, 1, 2, 4, 0};
  for (int i = 0; i < 5; ++i) expect(moves[i].action == order[i], "moves ordered by proof, then visits");
}

}  // namespace
