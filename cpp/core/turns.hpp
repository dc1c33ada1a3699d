// Turns, for every game: a turn is the consecutive decisions of one seat until another
// seat is to move or the game ends. The search answers per turn (search/turns.hpp);
// this holds what people-facing code needs of a line of moves: its cut into turns and
// the separator of a turn's text.
#pragma once
#include <string_view>
#include <vector>

#include "core/types.hpp"

namespace core {

// Between the parts of a turn's text; no part of either game's notation contains it,
// so a turn's text splits back into parts that string_to_action reads.
inline constexpr std::string_view kTurnSeparator = ", ";

// A line of moves cut into turns: each turn's seat and its moves. A chance outcome
// (explicit chance, as in a record) stays in the turn it happens in. Stops at the end
// of the game or at a move not legal in `s`.
struct TurnLine {
  int seat = 0;
  std::vector<Action> actions;
};

template <class State>
std::vector<TurnLine> split_turns(State s, const std::vector<Action>& line) {
  std::vector<TurnLine> out;
  for (Action a : line) {
    if (s.is_terminal() || !s.is_legal(a)) break;
    if (!s.is_chance() && (out.empty() || out.back().seat != s.current_player())) out.push_back({s.current_player(), {}});
    if (out.empty()) out.push_back({kChancePlayer, {}});  // a line that starts with a reveal
    out.back().actions.push_back(a);
    s.apply(a);
  }
  return out;
}

}  // namespace core
