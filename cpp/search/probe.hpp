// The solver's root probe (docs/search.md, "Proven results"): before the iterations,
// near the end of a game, the exhaustive check of core/forced_win.hpp asks whether the
// seat to move wins within 1, then 2 of its turns whatever the others do and whatever
// is revealed, deciding on what it sees. Its yes is a proof for that seat, which the
// tree cannot give below the root under hidden information (each sample reveals its own
// cards). It runs only where it is sound and cheap:
//   - the game has the capability (core/game.hpp, HasWinProbe), the solver is on and the
//     probe asked for (SearchParams::probe: off for play, on for the advice doors);
//   - no other seat holds a card the seat cannot see (with perfect_information the true
//     cards are searched, so this does not matter): the cards it cannot see are then
//     exactly the decks' (Duel's bag is known by its counts), which the check enumerates;
//   - the game's gate (may_win_within) leaves a win within reach;
//   - within a budget: kNodesPerIteration positions per iteration of the search's
//     budget (deterministic), and kTimeShare of a time limit (the search then has the
//     rest of the time).
#pragma once
#include <chrono>
#include <cstdint>

#include "core/forced_win.hpp"
#include "core/game.hpp"
#include "core/types.hpp"
#include "search/params.hpp"

namespace search::probe {

inline constexpr int kMaxOwnTurns = 2;
inline constexpr int64_t kNodesPerIteration = 1;
inline constexpr double kTimeShare = 0.1;

struct Found {
  core::Action move = -1;  // a winning first decision, -1 if none was proven
  int turns = 0;           // turns of play by which the game is won (search/solver.hpp's distance)
  uint64_t nodes = 0;      // positions the check visited
};

// A move that ends the game at once with the seat to move the sole winner, -1 if none:
// the quickest win, which the check (explicit chance: a reveal may come before the end)
// need not try first.
template <class G>
core::Action win_at_once(const typename G::State& root) {
  typename G::State s = root;
  s.set_explicit_chance(false);
  typename G::ActionList legal;
  s.legal_actions(legal);
  double values[G::kMaxPlayers];
  for (core::Action a : legal) {
    typename G::State child = s;
    child.apply(a);
    if (!child.is_terminal()) continue;
    child.returns(values);
    if (values[root.current_player()] == 1.0) return a;
  }
  return -1;
}

// `start`: when the search began (a time limit's share counts from there).
template <class G>
Found prove_win(const typename G::State& root, const SearchParams& p, std::chrono::steady_clock::time_point start) {
  Found found;
  if constexpr (G::kHas.win_probe) {
    if (!p.solver || !p.probe) return found;
    if (!p.perfect_information && root.others_hold_unseen(root.current_player())) return found;
    if (const core::Action now = win_at_once<G>(root); now >= 0) return Found{now, 1, 0};
    uint64_t budget = p.iterations > 0 ? static_cast<uint64_t>(p.iterations * kNodesPerIteration) : ~uint64_t{0};
    for (int turns = 1; turns <= kMaxOwnTurns && budget > found.nodes; ++turns) {
      if (!root.may_win_within(turns)) continue;
      core::ForcedWinCheck<G> check(turns, budget - found.nodes);
      if (p.time_limit > 0)
        check.set_deadline(start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                       std::chrono::duration<double>(kTimeShare * p.time_limit)));
      const core::ForcedWin verdict = check.check(root);
      found.nodes += check.nodes();
      if (verdict == core::ForcedWin::kYes) {
        found.move = check.winning_move();
        found.turns = check.turns_of_play();
        return found;
      }
      if (verdict == core::ForcedWin::kUnknown) return found;  // out of budget: a longer check would be too
    }
  }
  return found;
}

}  // namespace search::probe
