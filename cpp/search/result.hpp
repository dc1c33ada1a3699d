// What a search reports: per root move statistics, principal variations, root info.
#pragma once
#include <cstdint>
#include <vector>

#include "core/types.hpp"
#include "search/solver.hpp"

namespace search {

struct MoveStats {
  core::Action action = -1;
  uint64_t visits = 0;
  uint64_t avail = 0;
  double win_rate = 0.0;       // mean return of the player to move after this move
  double lcb = 0.0;            // lower bound of win_rate's 95% interval (Wilson)
  double ucb = 0.0;            // its upper bound
  std::vector<core::Action> pv;  // this move, then the most visited line below it (pv_sample's texts)
  solver::Proof proof = solver::Proof::kUnknown;  // for the player to move (search/solver.hpp)
  int proof_turns = 0;         // proven: turns of play until the end, this one counting 1
  double prior = -1.0;         // the network's policy at the root for this move; < 0: no network
};

// A whole turn of the player to move (search/turns.hpp): its decisions and the
// statistics of its last one; stats.action is the first decision, stats.pv the turn and
// the line after it.
struct TurnStats {
  std::vector<core::Action> actions;
  bool complete = true;        // false: the tree has not yet expanded the turn's rest
  MoveStats stats;
};

struct SearchResult {
  int player = 0;              // seat to move at the root
  core::Action best_action = -1;  // moves[0]
  std::vector<MoveStats> moves;  // in the best-move rule's order (search/choice.hpp)
  solver::Proof proof = solver::Proof::kUnknown;  // the root, for the player to move
  int proof_turns = 0;
  uint64_t root_visits = 0;    // iterations through the root, reused ones included
  uint64_t iterations = 0;     // iterations run by this search
  double seconds = 0.0;
  double iterations_per_second = 0.0;
  int max_depth = 0;           // deepest tree node reached (plies below the root)
  uint64_t nodes = 0;
  uint64_t bytes = 0;          // tree memory allocated (all threads)
  uint64_t reused_visits = 0;  // root visits carried over from the previous search
  uint64_t probe_nodes = 0;    // positions the solver's root probe visited (search/probe.hpp)
  double probe_seconds = 0.0;  // its share of `seconds` (with the trees' preparation)
  std::vector<double> seat_values;  // mean return per seat over the root's visits
  bool interrupted = false;    // stopped early by request (Ctrl-C)
  bool memory_full = false;    // the tree hit the memory limit and stopped growing
  uint64_t search_index = 0;   // which search of its MCTS object: picks pv_sample (collect.hpp)
  bool has_turns = false;      // turns were asked for (MCTS::search's `turns`)
  std::vector<TurnStats> turns;  // whole turns, in the order of `moves`' rule (search/turns.hpp)
};

// The value of the best play found for the player to move, the one a person is told
// ("wins X% with the best play found"; the analysis JSON's bestWinrate): a proven root's
// result (1 or 0), else the first whole turn's win rate when the result has turns (the
// turn shown first, which begins with best_action), else the best move's. Not the
// root's mean (seat_values), which averages every move searched, the weaker ones too.
inline double best_play_value(const SearchResult& r) {
  if (r.proof != solver::Proof::kUnknown) return r.proof == solver::Proof::kWin ? 1.0 : 0.0;
  if (r.has_turns && !r.turns.empty()) return r.turns.front().stats.win_rate;
  if (!r.moves.empty()) return r.moves.front().win_rate;
  return r.seat_values.empty() ? 0.0 : r.seat_values.at(static_cast<size_t>(r.player));
}

}  // namespace search
