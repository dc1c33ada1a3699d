// MCTS-Solver (Winands, Björnsson & Saito 2008) inside information-set MCTS: results
// that hold in every sample of the hidden cards back up as proven values, which the
// descent no longer samples. docs/search.md ("Proven results") gives the argument for
// where a proof is sound; in short:
//   - A node is *exact* when every sample that reaches it is the same position as far
//     as the result of any move there goes: the root always (the searching player's own
//     information set, whose legal moves and move outcomes both games decide on
//     information that player has), and, with perfect_information, every node reached
//     without a chance event drawn by the search.
//   - A move from an exact node into a won or lost end of the game is proven (a shared
//     win is not: it stays an estimate). A node is proven won for the seat to move
//     there when one child is, lost when all its legal moves have children and all are
//     proven lost; its proof then holds for the move into it when that move's seat is
//     the seat to move, or in a 2-player game (one seat's loss is the other's win).
// Wins over several turns, which the tree cannot prove below the root under hidden
// information, come from the root probe (search/probe.hpp) before the iterations.
// A proof is stored in the node's flags byte (bit 0 is tree parallelism's lock), with
// its distance in turns of play (1 = the game ends with this move's turn), so a quick
// win and a long resistance can be preferred.
#pragma once
#include <algorithm>
#include <cstdint>

#include "search/tree.hpp"

namespace search::solver {

enum class Proof : uint8_t { kUnknown = 0, kWin = 1, kLoss = 2 };  // for the seat that made the move

inline constexpr uint8_t kLockBit = 1;
inline constexpr uint8_t kProofMask = 3 << 1;
inline constexpr int kMaxTurns = 32;  // 5 bits; a longer proof is not recorded (not proving is always sound)

constexpr uint8_t encode(Proof p, int turns) {
  return static_cast<uint8_t>(static_cast<int>(p) << 1 | (turns - 1) << 3);
}
constexpr Proof proof_of(uint8_t flags) { return static_cast<Proof>((flags & kProofMask) >> 1); }
constexpr int turns_of(uint8_t flags) { return (flags >> 3) + 1; }

// The proof of a node for the seat to move there (its children's mover), 0 if none;
// `n_legal`: the moves legal there (the same in every sample: the node is exact).
template <class Access>
uint8_t node_proof(Tree& tree, uint32_t node, int n_legal, int& to_move) {
  int children = 0, quickest_win = kMaxTurns + 1, longest_loss = 0;
  bool all_lost = true;
  for (uint32_t c = Access::first_child(tree, node); c; c = tree[c].next_sibling) {
    ++children;
    to_move = tree[c].mover;
    const uint8_t f = Access::flags(tree[c]);
    if (proof_of(f) == Proof::kWin)
      quickest_win = std::min(quickest_win, turns_of(f));
    else if (proof_of(f) == Proof::kLoss)
      longest_loss = std::max(longest_loss, turns_of(f));
    else
      all_lost = false;
  }
  if (quickest_win <= kMaxTurns) return encode(Proof::kWin, quickest_win);
  if (all_lost && children == n_legal && children > 0) return encode(Proof::kLoss, longest_loss);
  return 0;
}

// After path[from + 1] was proven: proves its ancestors path[from], path[from - 1], ...
// (all exact) as far as the proof reaches. The root's proof is for the seat to move
// there; every other node's for the seat whose move led to it.
template <class Access>
void propagate(Tree& tree, const uint32_t* path, int from, const int* n_legal, int num_players) {
  for (int i = from; i >= 0; --i) {
    Node& n = tree[path[i]];
    int to_move = 0;
    const uint8_t code = node_proof<Access>(tree, path[i], n_legal[i], to_move);
    if (!code) return;
    if (i == 0) {
      Access::prove(n, code);
      return;
    }
    Proof p = proof_of(code);
    int turns = turns_of(code);
    if (n.mover != to_move) {  // the game moves on to another seat's turn
      if (p == Proof::kLoss && num_players != 2) return;  // some other seat wins: which, is unknown
      p = p == Proof::kWin ? Proof::kLoss : Proof::kWin;
      if (++turns > kMaxTurns) return;
    }
    Access::prove(n, encode(p, turns));
  }
}

}  // namespace search::solver
