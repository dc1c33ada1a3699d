// Threats (docs/hints.md, "Threats"): after a turn of the seat to move (the observer),
// does the seat that moves next win in its next turn, and with which first moves?
//
// "Wins in its next turn" is the exhaustive check of core/forced_win.hpp for one turn,
// seen from the next seat: the game ends with it the sole winner before its following
// turn begins, whatever is revealed meanwhile and whatever the other seats do until then
// (Splendor's last round: every seat after it plays its final turn). The observer asks
// it before playing its turn, so it holds for what the observer sees:
//   - every card the observer's turn reveals is enumerated (explicit chance: every card
//     left in the decks, every bag draw); the next seat must win after each of them. A
//     reveal after which a later decision of the turn is not legal (Duel: a take from the
//     cells a replenish filled) is one where the observer would not play this turn: it
//     is left out, and a turn no reveal lets it play is undecided;
//   - the next seat's moves that use a card the observer cannot see (a reserve it took
//     blind from a deck) are not counted: a threat is what the observer can see coming.
// The threat's moves are the next seat's first decisions that win after every reveal
// (a move on a card the observer's turn replaced names the card revealed there, which
// then must win whatever it is). The next seat may also win whatever is revealed with
// no one move doing it everywhere (each reveal its own winning buy): a threat with no
// move named.
//
// Cost: the reveals are enumerated lazily and the first one without a win for the next
// seat ends the check, so a position with no threat costs one check of one reveal; the
// positions of the next seat's turn are remembered by hash (many orders of one turn). A
// node budget bounds the rest (kUnknown past it).
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/forced_win.hpp"
#include "core/game.hpp"
#include "core/types.hpp"

namespace core {

// The next seat's threat after a turn: kYes with `seat` and the first moves that win
// after every reveal (maybe none: a different win for each reveal), kNo, or kUnknown
// (the budget ran out, or the turn does not end the observer's turn).
struct Threat {
  ForcedWin verdict = ForcedWin::kNo;
  int seat = -1;
  std::vector<Action> moves;
  // Each move's label (action_label: the card it names) where it is the same after every
  // reveal, else its notation alone (the turn replaced the card it names).
  std::vector<std::string> labels;
  std::vector<std::string> texts;  // each move's notation
  uint64_t nodes = 0;
};

// `Unseen` is a callable (const State&, Action, int observer) -> bool: whether the
// action, made by the seat to move, uses a card `observer` cannot see.
template <class G, class Unseen>
class ThreatCheck {
 public:
  using State = typename G::State;

  ThreatCheck(uint64_t max_nodes, Unseen unseen) : max_nodes_(max_nodes), unseen_(unseen) {}

  // `root`: the observer to move; `turn`: the decisions of its whole turn from `root`
  // (no chance outcomes: those are what the check enumerates).
  Threat after_turn(const State& root, const std::vector<Action>& turn) {
    observer_ = root.current_player();
    turn_ = &turn;
    nodes_ = 0;
    aborted_ = false;
    seen_reveal_ = false;
    all_win_ = true;
    seat_ = -1;
    moves_.clear();
    labels_.clear();
    texts_.clear();
    known_.clear();
    State s = root;
    s.set_explicit_chance(true);
    incomplete_ = false;
    leaves(s, 0);
    Threat out;
    out.nodes = nodes_;
    if (aborted_ || incomplete_ || (!seen_reveal_ && all_win_)) {  // the last: no reveal lets the turn be played
      out.verdict = ForcedWin::kUnknown;
      return out;
    }
    if (!seen_reveal_ || !all_win_) return out;
    out.verdict = ForcedWin::kYes;
    out.seat = seat_;
    out.moves = moves_;
    out.labels = labels_;
    out.texts = texts_;
    return out;
  }

 private:
  uint64_t max_nodes_;
  Unseen unseen_;
  int observer_ = 0;
  int seat_ = -1;
  const std::vector<Action>* turn_ = nullptr;
  uint64_t nodes_ = 0;
  bool aborted_ = false;
  bool incomplete_ = false;
  bool seen_reveal_ = false;  // a position after the turn was checked
  bool all_win_ = true;       // ...and every one checked so far is a win for the next seat
  std::vector<Action> moves_;  // the first moves that won after every reveal so far
  std::vector<std::string> labels_;  // their labels, as Threat::labels
  std::vector<std::string> texts_;   // their notations
  std::unordered_map<uint64_t, bool> known_;  // wins() by position (the seat is the same within a check)

  bool spend() {
    if (aborted_ || ++nodes_ > max_nodes_) aborted_ = true;
    return !aborted_;
  }

  // Calls `f(child)` for each outcome of the chance node `s` until one returns false;
  // whether none did.
  template <class F>
  static bool every_outcome(const State& s, F&& f) {
    typename G::ChanceList outcomes;
    s.chance_outcomes(outcomes);
    for (const auto& o : outcomes) {
      State c = s;
      c.apply(o.action);
      if (!f(c)) return false;
    }
    return true;
  }

  // The observer's turn from `s`, its `i`-th decision next; every reveal enumerated.
  // Stops as soon as one position after the turn has no win for the next seat.
  void leaves(State& s, size_t i) {
    if (!all_win_ || !spend() || incomplete_) return;
    if (s.is_chance()) {
      every_outcome(s, [&](State& c) {
        leaves(c, i);
        return all_win_ && !aborted_ && !incomplete_;
      });
      return;
    }
    const bool turn_over = s.is_terminal() || s.current_player() != observer_;
    if (i == turn_->size() || turn_over) {
      if (i != turn_->size() || !turn_over) {
        incomplete_ = true;  // the decisions end before the turn does, or outlast it
        return;
      }
      after(s);
      return;
    }
    if (!s.is_legal((*turn_)[i])) return;  // after this reveal the turn is not played (see above)
    State c = s;
    c.apply((*turn_)[i]);
    leaves(c, i + 1);
  }

  // One position after the observer's turn: the next seat's winning first moves here,
  // kept where they won after every earlier reveal too.
  void after(const State& s) {
    if (!spend()) return;
    if (s.is_terminal()) {  // the turn ended the game: nobody moves next
      all_win_ = false;
      return;
    }
    const int seat = s.current_player();
    if constexpr (G::kHas.win_probe) {
      if (!s.may_win_within(1)) {
        all_win_ = false;
        return;
      }
    }
    typename G::ActionList legal;
    s.legal_actions(legal);
    std::vector<Action> winning;
    bool any = false;
    for (Action a : legal) {
      if (unseen_(s, a, observer_)) continue;
      const bool first = !seen_reveal_;
      const bool kept = first || std::find(moves_.begin(), moves_.end(), a) != moves_.end();
      // Once one move wins here the reveal is won; later moves matter only to the names.
      if (any && !kept) continue;
      State c = s;
      c.apply(a);
      if (wins(c, seat, false)) {
        any = true;
        if (kept) winning.push_back(a);
      }
      if (aborted_) return;
    }
    std::vector<std::string> labels;
    texts_.clear();
    for (Action a : winning) {
      texts_.push_back(s.action_to_string(a));
      const auto at = std::find(moves_.begin(), moves_.end(), a);
      std::string label = s.action_label(a);
      if (seen_reveal_ && label != labels_[static_cast<size_t>(at - moves_.begin())]) label = s.action_to_string(a);
      labels.push_back(label);
    }
    seen_reveal_ = true;
    seat_ = seat;
    moves_ = winning;
    labels_ = labels;
    if (!any) all_win_ = false;
  }

  // Whether `seat` has won, or wins whatever happens before its next turn begins, from
  // `s` (its turn began before; `done`: another seat has moved since). Remembered by the
  // position's hash: a turn's decisions reach one position in many orders (Duel's
  // privileges spent one way or another), which without it made a late Duel check
  // visit millions of positions.
  bool wins(const State& s, int seat, bool done) {
    const uint64_t key = s.hash() * 2 + (done ? 1 : 0);
    if (const auto it = known_.find(key); it != known_.end()) return it->second;
    const bool won = wins_here(s, seat, done);
    if (!aborted_) known_.emplace(key, won);
    return won;
  }

  bool wins_here(const State& s, int seat, bool done) {
    if (!spend()) return false;
    if (s.is_terminal()) {
      double values[G::kMaxPlayers];
      s.returns(values);
      return values[seat] == 1.0;
    }
    if (s.is_chance()) return every_outcome(s, [&](State& c) { return wins(c, seat, done); });
    const int mover = s.current_player();
    typename G::ActionList legal;
    s.legal_actions(legal);
    if (mover == seat) {
      if (done) return false;  // its next turn: too late
      for (Action a : legal) {
        if (unseen_(s, a, observer_)) continue;
        State c = s;
        c.apply(a);
        if (wins(c, seat, false)) return true;
        if (aborted_) return false;
      }
      return false;
    }
    for (Action a : legal) {  // any other seat: every move must still lose to it
      State c = s;
      c.apply(a);
      if (!wins(c, seat, true)) return false;
    }
    return true;
  }
};

}  // namespace core
