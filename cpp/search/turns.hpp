// Whole turns: the search's tree holds one node per decision, people think in turns
// (a take and its returns, a buy and its noble, Duel's privileges, replenish, action
// and the ability's target). A turn is the consecutive decisions of one seat until
// another seat is to move or the game ends (a Duel "again" ability's extra turn runs
// on in the same turn: the same seat keeps deciding). This file makes the per-turn
// answer from the per-decision trees: each line of the mover's own decisions below the
// root, with the statistics of its last node, the lines that reach the same position
// (the same privileges, returns or picks in another order) merged into one turn.
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "core/turns.hpp"
#include "core/types.hpp"
#include "search/collect.hpp"
#include "search/params.hpp"
#include "search/result.hpp"
#include "search/solver.hpp"
#include "search/tree.hpp"
#include "search/tree_search.hpp"

namespace search {

namespace turns_detail {

struct TurnAcc : NodeSum {
  bool complete = true;
};

// The lines of `player`'s own decisions below `node` (its move already on `line`):
// each ends at a node with no child of the same seat, and counts that node's visits.
template <class G>
void walk(const Tree& tree, uint32_t node, int player, int t, const typename G::State& view,
          std::vector<core::Action>& line, std::map<std::vector<core::Action>, TurnAcc>& acc) {
  bool continues = false;
  for (uint32_t c = tree[node].first_child; c; c = tree[c].next_sibling) {
    if (tree[c].mover != player) continue;
    continues = true;
    line.push_back(tree[c].action);
    walk<G>(tree, c, player, t, view, line, acc);
    line.pop_back();
  }
  if (continues || (tree[node].visits == 0 && solver::proof_of(tree[node].flags) == solver::Proof::kUnknown)) return;
  TurnAcc& a = acc[line];
  a.add(tree, t, node);
  if (!tree[node].first_child) {  // not expanded further: does the turn go on? (asked of the sample)
    typename G::State s = view;
    for (core::Action x : line) {
      if (s.is_terminal() || !s.is_legal(x)) return;  // the sample cannot tell; taken as ended
      s.apply(x);
    }
    if (!s.is_terminal() && s.current_player() == player) a.complete = false;
  }
}

// The hash of the position `line` reaches on the sample `view`; none where the sample
// cannot play it (a line the trees found on other samples), which then stays a turn of its own.
template <class G>
std::optional<uint64_t> reached(const typename G::State& view, const std::vector<core::Action>& line) {
  typename G::State s = view;
  for (core::Action a : line) {
    if (s.is_terminal() || !s.is_legal(a)) return std::nullopt;
    s.apply(a);
  }
  return s.hash();
}

// The lines of one turn: every order of its decisions that reaches the same position.
struct Merged {
  TurnAcc sum;
  std::vector<std::pair<const std::vector<core::Action>*, const TurnAcc*>> lines;

  void add(const std::vector<core::Action>& actions, const TurnAcc& a) {
    sum.merge(a);
    sum.complete = sum.complete && a.complete;
    lines.emplace_back(&actions, &a);
  }

  // The line the turn is shown as (its moves, and its own sum whose most visited node
  // the principal variation follows): the one holding the most visited node, among the
  // lines that begin with `first` when there are any (so the best turn begins with the
  // best move, the move played).
  std::pair<const std::vector<core::Action>*, const TurnAcc*> shown(core::Action first) const {
    const bool any_first =
        std::any_of(lines.begin(), lines.end(), [&](const auto& l) { return l.first->front() == first; });
    const std::pair<const std::vector<core::Action>*, const TurnAcc*>* best = nullptr;
    for (const auto& l : lines) {
      if (any_first && l.first->front() != first) continue;
      if (!best || l.second->best_visits > best->second->best_visits) best = &l;
    }
    return *best;
  }
};

}  // namespace turns_detail

// Per-turn statistics from the trees of one search (root parallelism: merged by the
// turn's moves over the threads' trees). A turn's visits and win rate are those of its
// last decision's node (the iterations that played the whole turn); its proof is that
// node's. The lines that reach
// the same position on the sample (privileges spent, tokens returned or picked in
// another order) are one turn: their visits summed, their values weighted by visits,
// shown as the line of its most visited node. Ordered by the result's rule for moves
// (search/choice.hpp's better_move), except that the best turn that can begin with
// `best_action` comes first, so the turn shown first is the move played.
template <class G>
std::vector<TurnStats> collect_turns(const std::vector<TreeSearch<G>>& trees, const typename G::State& root,
                                     int player, const SearchParams& params, uint64_t search_index,
                                     core::Action best_action) {
  using turns_detail::TurnAcc;
  std::map<std::vector<core::Action>, TurnAcc> acc;
  const typename G::State view = pv_sample<G>(root, player, params, search_index);
  std::vector<core::Action> line;
  for (int t = 0; t < static_cast<int>(trees.size()); ++t) {
    if (t > 0 && params.parallelism == Parallelism::kTree) break;  // one shared tree
    const Tree& tree = trees[t].own_tree;
    if (!tree.size()) continue;
    for (uint32_t c = tree[0].first_child; c; c = tree[c].next_sibling) {
      if (!root.is_legal(tree[c].action)) continue;
      line.assign(1, tree[c].action);
      turns_detail::walk<G>(tree, c, player, t, view, line, acc);
    }
  }
  // One turn per position reached (in the map's order of the lines: deterministic).
  std::vector<turns_detail::Merged> merged;
  std::map<uint64_t, size_t> by_position;
  for (const auto& [actions, a] : acc) {
    const std::optional<uint64_t> position = turns_detail::reached<G>(view, actions);
    size_t k = merged.size();
    if (position) k = by_position.emplace(*position, merged.size()).first->second;
    if (k == merged.size()) merged.emplace_back();
    merged[k].add(actions, a);
  }
  std::vector<TurnStats> out;
  out.reserve(merged.size());
  for (const turns_detail::Merged& group : merged) {
    const auto [line_of, shown] = group.shown(best_action);
    const std::vector<core::Action>& actions = *line_of;
    const TurnAcc& a = group.sum;
    TurnStats turn;
    turn.actions = actions;
    turn.complete = a.complete;
    turn.stats = a.stats(actions.front());
    MoveStats& m = turn.stats;
    // The turn, then the most visited line after it (where the sample allows the turn).
    typename G::State s = view;
    bool playable = true;
    for (size_t i = 0; i + 1 < actions.size() && playable; ++i) {
      playable = !s.is_terminal() && s.is_legal(actions[i]);
      if (playable) s.apply(actions[i]);
    }
    m.pv.assign(actions.begin(), actions.end() - 1);
    if (playable) principal_variation<G>(trees[shown->best_tree].own_tree, shown->best_node, s, m);
    if (m.pv.size() < actions.size()) m.pv = actions;
    out.push_back(std::move(turn));
  }
  // A turn splits its first move's visits among the turns that begin with it, so its
  // "reasonable count" for the lower-bound step is measured against the most visited turn.
  uint64_t most_visited = 0;
  for (const TurnStats& turn : out) most_visited = std::max(most_visited, turn.stats.visits);
  const uint64_t lcb_visits = lcb_min_visits(params, most_visited);
  std::stable_sort(out.begin(), out.end(),
                   [lcb_visits](const TurnStats& a, const TurnStats& b) { return better_move(a.stats, b.stats, lcb_visits); });
  const auto best = std::find_if(out.begin(), out.end(), [&](const TurnStats& t) { return t.actions.front() == best_action; });
  if (best != out.end()) std::rotate(out.begin(), best, best + 1);
  return out;
}

}  // namespace search
