// Tree reuse between searches: when the position searched next was reached by moves
// the previous search's tree holds, that subtree is kept (re-rooted and compacted) and
// its visits count toward the new search.
#pragma once
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "core/types.hpp"
#include "search/tree.hpp"

namespace search::reuse {

namespace detail {

template <class G>
bool dfs(const Tree& tree, uint32_t node, const typename G::State& s, int player, const std::vector<float>& target,
         std::vector<float>& probe, std::vector<core::Action>& line, int& budget) {
  constexpr int kMaxLine = 32;
  if (static_cast<int>(line.size()) >= kMaxLine) return false;
  for (uint32_t c = tree[node].first_child; c; c = tree[c].next_sibling) {
    if (--budget < 0) return false;
    const core::Action a = tree[c].action;
    if (!s.is_legal(a)) continue;
    typename G::State next = s;
    next.apply(a);
    line.push_back(a);
    if (next.current_player() == player) {
      next.observation_tensor(player, probe.data());
      if (probe == target) return true;
    }
    if (!next.is_terminal() && dfs<G>(tree, c, next, player, target, probe, line, budget)) return true;
    line.pop_back();
  }
  return false;
}

}  // namespace detail

// The moves from `from` to `to` through `tree` (searched from `from`), found by
// replaying tree moves on `from` until a position the searching player cannot tell
// from `to` (equal observations). Only the player's own information is compared, so
// the hidden cards of `to` do not steer the search.
template <class G>
bool find_line(const Tree& tree, const typename G::State& from, const typename G::State& to,
               std::vector<core::Action>& line) {
  const int player = to.current_player();
  if (from.num_players() != to.num_players()) return false;
  std::vector<float> target(static_cast<size_t>(G::kObservationSize)), probe(target.size());
  to.observation_tensor(player, target.data());
  if (from.current_player() == player) {
    from.observation_tensor(player, probe.data());
    if (probe == target) return true;  // same position: keep the whole tree
  }
  typename G::State start = from;
  start.set_explicit_chance(false);
  int budget = 100000;  // node visits: the replay must stay cheap next to the search
  return detail::dfs<G>(tree, 0, start, player, target, probe, line, budget);
}

// A reused node gathered children from every sample of the cards revealed on the
// way (a bought card's replacement differs between samples); at the new root the
// revealed cards are known, so moves that are not legal there go.
template <class State>
void prune_illegal_children(Tree& tree, const State& root) {
  uint32_t* link = &tree[0].first_child;
  while (*link) {
    Node& c = tree[*link];
    if (root.is_legal(c.action))
      link = &c.next_sibling;
    else
      *link = c.next_sibling;
  }
}

// Re-roots `tree` at the end of `line` (compacting the kept subtree); false if the
// line leaves the tree.
inline bool follow(Tree& tree, const std::vector<core::Action>& line) {
  uint32_t node = 0;
  for (core::Action a : line) {
    uint32_t next = 0;
    for (uint32_t c = tree[node].first_child; c; c = tree[c].next_sibling)
      if (tree[c].action == a) {
        next = c;
        break;
      }
    if (!next) return false;
    node = next;
  }
  if (node == 0) return tree.size() > 0;
  Tree fresh;
  if (tree.has_priors()) fresh.enable_priors(tree.policy_bytes());
  fresh.clear();
  fresh[0] = tree[node];
  // The new root's cached policy was made in a sample; its cards are known now.
  if (tree.has_priors()) fresh.prior(0) = Prior{tree.prior(node).prior, tree.prior(node).untried, 0};
  fresh[0].first_child = 0;
  fresh[0].next_sibling = 0;
  fresh[0].action = -1;
  // Copies children breadth first; each copied node's child list is rebuilt in order.
  std::vector<std::pair<uint32_t, uint32_t>> queue{{node, 0}};
  for (size_t q = 0; q < queue.size(); ++q) {
    const auto [old_index, new_index] = queue[q];
    uint32_t tail = 0;
    for (uint32_t c = tree[old_index].first_child; c; c = tree[c].next_sibling) {
      const uint32_t copy = fresh.add();
      fresh[copy] = tree[c];
      if (tree.has_priors()) {
        Prior& prior = fresh.prior(copy) = tree.prior(c);
        if (prior.policy) {  // (the memory limit is checked as the search grows the tree)
          const uint32_t entry = fresh.add_policy(SIZE_MAX);
          std::memcpy(fresh.policy(entry), tree.policy(prior.policy), tree.policy_bytes());
          prior.policy = entry;
        }
      }
      fresh[copy].first_child = 0;
      fresh[copy].next_sibling = 0;
      if (tail)
        fresh[tail].next_sibling = copy;
      else
        fresh[new_index].first_child = copy;
      tail = copy;
      queue.emplace_back(c, copy);
    }
  }
  tree = std::move(fresh);
  return true;
}

}  // namespace search::reuse
