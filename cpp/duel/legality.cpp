// Why a move is not legal, in the player's terms (docs/actions-duel.md). Runs only when a
// move is refused (apply_checked, the play doors), never in the search.
#include <string>

#include "core/reasons.hpp"
#include "duel/state.hpp"

namespace duel {
namespace {

std::string slot_text(int slot) {
  const int level = slot_level(slot);
  return std::to_string(level + 1) + "." + std::to_string(slot - kSlotFirst[level] + 1);
}

}  // namespace

std::string State::why_illegal(core::Action a) const {
  if (a < 0 || a >= kNumDistinctActions)
    return "action " + std::to_string(a) + " does not exist (ids 0 to " + std::to_string(kNumDistinctActions - 1) + ")";
  if (is_legal(a)) return "";
  if (phase_ == Phase::kOver) return "the game is over";
  const Player& p = players_[turn_seat_];
  const bool chance_move = a >= kRevealBase;
  // Each choice phase's id range: [first, end).
  static constexpr int kRange[kNumPhases][2] = {{0, kTokenBase},         {kJokerBase, kRoyalBase},
                                                {kTokenBase, kStealBase}, {kStealBase, kJokerBase},
                                                {kRoyalBase, kDiscardBase}, {kDiscardBase, kRevealBase},
                                                {kRevealBase, kFillBase}, {kFillBase, kFirstBase},
                                                {kFirstBase, kNumDistinctActions}, {0, 0}};
  const int phase = static_cast<int>(phase_);
  const bool this_kind = a >= kRange[phase][0] && a < kRange[phase][1];
  const int off = a - kRange[phase][0];
  auto cell_has = [&](int c) -> std::string {
    if (cell_[c] == kEmpty) return cell_name(c) + " is empty";
    return cell_name(c) + " holds " + kKindNames[cell_[c]];
  };
  switch (phase_) {
    case Phase::kReveal:
      if (!this_kind) return "a card must be revealed first";
      return "that card is not in the level " + std::to_string(slot_level(reveal_) + 1) + " deck";
    case Phase::kFill:
      if (!this_kind) return "a token must be drawn from the bag first";
      return std::string("the bag holds no ") + kKindNames[off] + " token";
    case Phase::kFirst:
      return "the first player must be drawn first";
    case Phase::kJoker:
      if (!this_kind) return "choose the colour your joker joins first";
      return std::string("you own no ") + kKindNames[off] + " card for the joker to join";
    case Phase::kToken:
      if (!this_kind) return std::string("take a ") + kKindNames[pend_token_] + " token from the board first (token ability)";
      return cell_has(off) + ", not " + kKindNames[pend_token_];
    case Phase::kSteal:
      if (!this_kind) return "choose the token you steal first";
      return std::string("your opponent has no ") + kKindNames[off] + " token";
    case Phase::kRoyal:
      if (!this_kind) return "choose your royal card first";
      return "royal " + std::to_string(off + 1) + " is already taken";
    case Phase::kDiscard:
      if (!this_kind)
        return "return tokens first (you hold " + std::to_string(p.num_tokens()) + " tokens, the limit is " +
               std::to_string(kMaxTokensHeld) + ")";
      return std::string("you have no ") + kKindNames[off] + " token";
    default:
      break;
  }
  // The main phase.
  if (chance_move) return "nothing is being revealed or drawn now";
  if (a >= kDiscardBase)
    return "tokens are returned only when holding more than " + std::to_string(kMaxTokensHeld) + " (you hold " +
           std::to_string(p.num_tokens()) + ")";
  if (a >= kRoyalBase) return "a royal card is taken only on reaching 3 or 6 crowns";
  if (a >= kJokerBase) return "a joker's colour is chosen only right after buying it";
  if (a >= kStealBase) return "stealing comes only with a card's or royal's steal ability";
  if (a >= kTokenBase) return "a token is taken this way only with a card's token ability";

  if (a < kNumTakes) {
    for (uint8_t c : kSeg.seg[a].cells) {
      if (cell_[c] == kGold) return cell_name(c) + " holds gold (gold comes only with a reserve)";
      if (cell_[c] == kEmpty) return cell_name(c) + " is empty (an empty cell breaks the line)";
    }
    return "it is not legal here";
  }
  if (a < kReplenish) {
    const int c = a - kPrivilegeBase;
    if (p.privileges == 0) return "you have no privilege to spend";
    if (replenished_) return "privileges cannot be spent after replenishing this turn";
    if (cell_[c] == kEmpty) return cell_name(c) + " is empty";
    if (cell_[c] == kGold) return cell_name(c) + " holds gold (a privilege takes a gem or pearl)";
    return "spending it would leave you no mandatory action even after replenishing";
  }
  if (a == kReplenish) return replenished_ ? "you already replenished this turn" : "the bag is empty";
  if (a < kBuyBase) {
    const int target = (a - kReserveBase) / 25, g = (a - kReserveBase) % 25;
    if (p.num_reserved >= kMaxReserved) return "you already hold " + std::to_string(kMaxReserved) + " reserved cards (the limit)";
    if (kmask_[kGold] == 0) return "no gold is on the board (reserving takes one)";
    if (cell_[g] != kGold) return cell_has(g) + ", not gold";
    if (target < kNumSlots) return "slot " + slot_text(target) + " is empty";
    return "the level " + std::to_string(target - kNumSlots + 1) + " deck is empty";
  }
  const int b = a - kBuyBase;
  int card = kNoCard;
  if (b < kNumSlots) {
    if (pyramid_[b] == kNoCard) return "slot " + slot_text(b) + " is empty";
    card = pyramid_[b];
  } else {
    if (b - kNumSlots >= p.num_reserved)
      return "you have no reserved card r" + std::to_string(b - kNumSlots + 1) + " (you hold " +
             std::to_string(p.num_reserved) + ")";
    card = p.reserved[b - kNumSlots];
  }
  if (tables::kCards[card].bonus == kBonusJoker && p.bonuses == 0)
    return "a joker needs a card of yours with a bonus to join (you own none)";
  uint64_t cost = 0;
  for (int k = 0; k < 6; ++k) cost |= uint64_t{tables::kCards[card].cost[k]} << (8 * k);
  const std::string why =
      core::shortfall_text(cost, p.tokens, p.bonuses, kPearl + 1, kPearl, core::swar::lane(p.tokens, kGold), kKindNames);
  return why.empty() ? "it is not legal here" : why;
}

}  // namespace duel
