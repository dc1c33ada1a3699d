// Why a move is not legal, in the player's terms (docs/actions.md). Runs only when a move
// is refused (apply_checked, the play doors), never in the search: it may build strings.
#include <string>

#include "core/reasons.hpp"
#include "splendor/state.hpp"

namespace splendor {
namespace {

constexpr const char* kNames[kNumKinds] = {"white", "blue", "green", "red", "black", "gold"};

std::string slot_name(int slot) {
  return std::to_string(slot / kSlotsPerLevel + 1) + "." + std::to_string(slot % kSlotsPerLevel + 1);
}

std::string shortfall(const Player& p, int card) {
  return core::shortfall_text(State::card_cost(card), p.tokens, p.bonuses, kColours, kColours,
                              core::swar::lane(p.tokens, kGold), kNames);
}

}  // namespace

std::string State::why_illegal(Action a) const {
  if (a < 0 || a >= kNumDistinctActions)
    return "action " + std::to_string(a) + " does not exist (ids 0 to " + std::to_string(kNumDistinctActions - 1) + ")";
  if (is_legal(a)) return "";
  const bool reveal = a >= kRevealCard;
  if (phase_ == Phase::kOver) return "the game is over";
  if (phase_ == Phase::kChance) {
    int slot = 0;
    const ChanceTarget target = chance_target(&slot);
    const char* what = target == ChanceTarget::kNoble ? "a noble" : "a card";
    if (!reveal) return std::string(what) + " must be revealed first";
    if ((a >= kRevealNoble) != (target == ChanceTarget::kNoble))
      return std::string(what) + " is revealed now, not " + (a >= kRevealNoble ? "a noble" : "a card");
    if (target == ChanceTarget::kNoble) return "that noble is already on the table";
    const int level = target == ChanceTarget::kBlindReserve ? pending_blind_ - 1 : slot / kSlotsPerLevel;
    return "that card is not in the level " + std::to_string(level + 1) + " deck";
  }
  if (reveal) return "nothing is being revealed now";
  const Player& p = players_[turn_seat_];
  const bool is_return = a >= kReturnToken && a < kChooseNoble;
  const bool is_noble = a >= kChooseNoble && a < kRevealCard;
  if (phase_ == Phase::kReturning) {
    const std::string held =
        "you hold " + std::to_string(p.num_tokens()) + " tokens, the limit is " + std::to_string(config_.token_limit);
    if (!is_return) return "return tokens first (" + held + ")";
    return "you have no " + std::string(kNames[a - kReturnToken]) + " token";
  }
  if (phase_ == Phase::kNobleChoice) {
    if (!is_noble) return "choose which noble visits you first";
    const int n = a - kChooseNoble;
    if (!((table_nobles_ >> n) & 1)) return "noble " + std::to_string(n + 1) + " is not on the table";
    return "noble " + std::to_string(n + 1) + " does not visit you (your bonuses do not meet its requirement)";
  }
  if (is_return)
    return "tokens are returned only when holding more than " + std::to_string(config_.token_limit) + " (you hold " +
           std::to_string(p.num_tokens()) + ")";
  if (is_noble) return "a noble is chosen only at the end of a turn when several visit you";

  if (a < kTakeTwo) {
    const uint8_t set = kTakeDistinctTable[a].colours;
    int available = 0;
    for (int c = 0; c < kColours; ++c) {
      const int left = core::swar::lane(bank_, c);
      available += left > 0;
      if (((set >> c) & 1) && left == 0) return std::string("no ") + kNames[c] + " left in the bank";
    }
    if (config_.take_fewer_distinct == TakeFewer::kNever) return "a take of different colours is exactly three (this variant)";
    return "take three different colours while three or more are in the bank (" + std::to_string(available) + " are)";
  }
  if (a < kReserveTable) {
    const int c = a - kTakeTwo;
    return "only " + std::to_string(core::swar::lane(bank_, c)) + " " + kNames[c] + " left (" +
           std::to_string(config_.take_two_min) + " needed to take two)";
  }
  if (a < kBuyTable) {
    if (p.num_reserved >= config_.reserve_limit)
      return "you already hold " + std::to_string(p.num_reserved) + " reserved cards (the limit is " +
             std::to_string(config_.reserve_limit) + ")";
    if (a < kReserveDeck) return "slot " + slot_name(a - kReserveTable) + " is empty";
    return "the level " + std::to_string(a - kReserveDeck + 1) + " deck is empty";
  }
  if (a < kBuyReserved) {
    const int slot = a - kBuyTable;
    if (table_[slot] == kNoCard) return "slot " + slot_name(slot) + " is empty";
    return shortfall(p, table_[slot]);
  }
  if (a < kPass) {
    const int i = a - kBuyReserved;
    if (i >= p.num_reserved)
      return "you have no reserved card " + std::to_string(i + 1) + " (you hold " + std::to_string(p.num_reserved) + ")";
    return shortfall(p, p.reserved[i]);
  }
  // a == kPass: the only main action left.
  ActionList legal;
  legal_actions(legal);
  return "pass only when no other move exists (" + action_to_string(legal[0]) + " is legal)";
}

}  // namespace splendor
