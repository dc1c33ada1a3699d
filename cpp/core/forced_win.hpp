// Does the seat to move win within its next `turns` turns whatever the others do and
// whatever is revealed, deciding only on what it sees? An exhaustive AND-OR search
// (every move, every reveal) under a node limit, so its "yes" is a proof: the search
// runs it at the root near the end of the game (search/probe.hpp, docs/search.md
// "Proven results"), and bench/forced_wins.py measures the search's proofs against it.
//
// What the seat does not know is handled by sets of worlds: positions the seat cannot
// tell apart (the same observation_tensor). Its own decision is one move for the whole
// set; an opponent's decision is any legal move in any world; a chance event is any
// outcome in any world (explicit chance, the cards left in the true decks). The children
// are then grouped by the seat's observation again, so a reveal it sees splits the set
// and one it does not see (an opponent's blind reserve) keeps the worlds together. The
// root is one world: the caller must only ask where the seat can see every card the
// opponents hold (else their unknown cards would be more worlds); a card left in a deck
// is then exactly a card the seat cannot see.
//
// A turn is a run of one seat's decisions (as the solver counts, search/solver.hpp):
// an extra turn (Duel's `again`) belongs to the turn before it. A win is the end of the
// game with the seat the sole winner (return 1), before its turn `turns + 1` begins.
// A win found comes with its first move and the turns of play (every seat's, the root's
// counting 1) by which the game has ended whatever happens: the solver's distance.
#pragma once
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "core/game.hpp"
#include "core/types.hpp"

namespace core {

enum class ForcedWin : uint8_t { kNo = 0, kYes = 1, kUnknown = 2 };  // kUnknown: node limit reached

template <class G>
class ForcedWinCheck {
 public:
  using State = typename G::State;

  using Clock = std::chrono::steady_clock;

  ForcedWinCheck(int turns, uint64_t max_nodes) : turns_(turns), max_nodes_(max_nodes) {}

  // Also stop (undecided) at this time. The clock is read at every position: one
  // position (all its moves or reveals applied, in every world, and grouped) costs
  // microseconds to milliseconds, far above a clock read (~20 ns), and a read every 1024
  // positions overran a 2 ms share of a 0.02 s move by up to a quarter second
  // (bench/notes/2026-12-02-solver-equal-time.md).
  void set_deadline(Clock::time_point deadline) {
    deadline_ = deadline;
    timed_ = true;
  }

  // `first_move` >= 0: the seat's first decision is that move (is it a winning one?).
  ForcedWin check(const State& root, Action first_move = -1) {
    seat_ = root.current_player();
    first_move_ = first_move;
    winning_move_ = -1;
    nodes_ = 0;
    aborted_ = false;
    State s = root;
    s.set_explicit_chance(true);
    std::vector<State> worlds{s};
    turns_of_play_ = wins(worlds, 0, -1, 1);
    if (aborted_) turns_of_play_ = 0;
    return aborted_ ? ForcedWin::kUnknown : turns_of_play_ ? ForcedWin::kYes : ForcedWin::kNo;
  }
  uint64_t nodes() const { return nodes_; }
  // After a kYes: the first move of a win, and the turns of play by which it has won.
  Action winning_move() const { return winning_move_; }
  int turns_of_play() const { return turns_of_play_; }

 private:
  int turns_;
  uint64_t max_nodes_;
  Clock::time_point deadline_{};
  bool timed_ = false;
  int seat_ = 0;
  Action first_move_ = -1;
  Action winning_move_ = -1;
  int turns_of_play_ = 0;
  uint64_t nodes_ = 0;
  bool aborted_ = false;

  uint64_t observed(const State& s) const {
    std::array<float, G::kObservationSize> t;
    s.observation_tensor(seat_, t.data());
    uint64_t h = 1469598103934665603ull ^ static_cast<uint64_t>(s.current_player() + 8);
    for (float f : t) {
      uint32_t bits;
      std::memcpy(&bits, &f, sizeof bits);
      h = (h ^ bits) * 1099511628211ull;
    }
    return h;
  }

  // Children grouped by what the seat sees; each group must be won. Returns the turns
  // of play by which every group is won, 0 if one is not.
  int all_groups_win(std::vector<State>& children, int turns_begun, int mover, int plays) {
    std::vector<std::pair<uint64_t, size_t>> keys;
    keys.reserve(children.size());
    for (size_t i = 0; i < children.size(); ++i) keys.emplace_back(observed(children[i]), i);
    std::sort(keys.begin(), keys.end());
    std::vector<State> group;
    int latest = 0;
    for (size_t i = 0; i < keys.size();) {
      group.clear();
      size_t j = i;
      for (; j < keys.size() && keys[j].first == keys[i].first; ++j) group.push_back(children[keys[j].second]);
      const int won = wins(group, turns_begun, mover, plays);
      if (!won) return 0;
      latest = std::max(latest, won);
      i = j;
    }
    return latest;
  }

  // `worlds`: positions the seat cannot tell apart, all at the same kind of node;
  // `plays`: the turn of play in progress (the root's is 1). Returns the turns of play
  // by which the seat has won whatever happens from here, 0 if it may not win in time.
  int wins(std::vector<State>& worlds, int turns_begun, int last_mover, int plays) {
    if (aborted_ || ++nodes_ > max_nodes_ || (timed_ && Clock::now() >= deadline_)) {
      aborted_ = true;
      return 0;
    }
    const State& first = worlds.front();
    if (first.is_terminal()) {
      double values[G::kMaxPlayers];
      for (const State& w : worlds) {
        w.returns(values);
        if (values[seat_] != 1.0) return 0;
      }
      return plays;
    }
    std::vector<State> children;
    if (first.is_chance()) {
      typename G::ChanceList outcomes;
      for (const State& w : worlds) {
        w.chance_outcomes(outcomes);
        for (const auto& o : outcomes) {
          children.push_back(w);
          children.back().apply(o.action);
        }
      }
      return all_groups_win(children, turns_begun, last_mover, plays);
    }
    const int mover = first.current_player();
    if (last_mover >= 0 && mover != last_mover) ++plays;  // another seat's turn begins
    if (mover == seat_ && last_mover != seat_ && ++turns_begun > turns_) return 0;  // out of turns
    typename G::ActionList legal;
    if (mover != seat_) {  // any move in any world
      for (const State& w : worlds) {
        w.legal_actions(legal);
        for (Action a : legal) {
          children.push_back(w);
          children.back().apply(a);
        }
      }
      if (worlds.size() > 1) return all_groups_win(children, turns_begun, mover, plays);
      refutations_first(children);
      std::vector<State> one(1);
      int latest = 0;
      for (const State& c : children) {  // the seat sees the move made: each child is its own set
        one[0] = c;
        const int won = wins(one, turns_begun, mover, plays);
        if (!won) return 0;
        latest = std::max(latest, won);
      }
      return latest;
    }
    first.legal_actions(legal);  // the seat's own moves: the same in every world it cannot tell apart
    std::vector<std::pair<double, Action>> moves;
    const bool at_root = last_mover < 0;
    for (Action a : legal) {
      if (at_root && first_move_ >= 0 && a != first_move_) continue;
      bool everywhere = true;
      for (const State& w : worlds) everywhere = everywhere && w.is_legal(a);
      if (!everywhere) continue;
      State c = first;
      c.apply(a);
      moves.emplace_back(promise(c), a);
    }
    std::sort(moves.begin(), moves.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    for (const auto& [value, a] : moves) {
      children.clear();
      for (const State& w : worlds) {
        children.push_back(w);
        children.back().apply(a);
      }
      if (const int won = all_groups_win(children, turns_begun, mover, plays)) {
        if (at_root) winning_move_ = a;
        return won;
      }
      if (aborted_) return 0;
    }
    return 0;
  }

  // How good a position looks for the seat: the order in which moves are tried (the
  // seat's likely wins first, the opponents' likely refutations first). Order only.
  double promise(const State& s) const {
    if (s.is_terminal()) {
      double values[G::kMaxPlayers];
      s.returns(values);
      return values[seat_] == 1.0 ? 2.0 : -1.0;
    }
    if constexpr (G::kHas.evaluate)
      return s.evaluate(seat_);
    else
      return 0.0;
  }

  void refutations_first(std::vector<State>& children) const {
    std::vector<std::pair<double, size_t>> keyed;
    for (size_t i = 0; i < children.size(); ++i) keyed.emplace_back(promise(children[i]), i);
    std::stable_sort(keyed.begin(), keyed.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<State> sorted;
    sorted.reserve(children.size());
    for (const auto& k : keyed) sorted.push_back(children[k.second]);
    children.swap(sorted);
  }
};

}  // namespace core
