// Shared wording of the reasons a move is refused (each game's legality.cpp).
#pragma once
#include <cstdint>
#include <string>

#include "core/swar.hpp"
#include "core/types.hpp"

namespace core {

inline std::string count_of(int n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// "needs 2 more red (you have 1 red token, 1 red bonus, 0 gold)" (the shortfall before gold,
// then what gold pays of it), or "" if tokens,
// bonuses (lanes below `bonus_kinds`) and `gold` pay `cost` (byte lanes by kind).
inline std::string shortfall_text(uint64_t cost, uint64_t tokens, uint64_t bonuses, int kinds, int bonus_kinds, int gold,
                                  const char* const* names) {
  std::string needs, have;
  int missing = 0;
  for (int k = 0; k < kinds; ++k) {
    const int held = swar::lane(tokens, k), bonus = k < bonus_kinds ? swar::lane(bonuses, k) : 0;
    const int short_by = swar::lane(cost, k) - held - bonus;
    if (short_by <= 0) continue;
    const std::string name = names[k];
    missing += short_by;
    needs += (needs.empty() ? "" : ", ") + std::to_string(short_by) + " more " + name;
    have += count_of(held, name + " token", name + " tokens") + ", ";
    if (k < bonus_kinds) have += count_of(bonus, name + " bonus", name + " bonuses") + ", ";
  }
  if (missing <= gold) return "";
  const std::string paid = gold ? ", your " + std::to_string(gold) + " gold pays only " + std::to_string(gold) : "";
  return "needs " + needs + paid + " (you have " + have + std::to_string(gold) + " gold)";
}

// The refusal of apply_checked, the same words in every game: "illegal action 52 (buy 2.4):
// needs 3 more red (you have ...)". `num_actions` bounds the ids that have a notation.
template <class State>
[[noreturn]] void refuse_illegal(const State& s, int action, int num_actions) {
  if (s.is_terminal()) throw InvalidInput("the game is over: no action can be applied");
  const std::string text = action >= 0 && action < num_actions ? " (" + s.action_to_string(action) + ")" : "";
  throw InvalidInput("illegal action " + std::to_string(action) + text + ": " + s.why_illegal(action));
}

}  // namespace core
