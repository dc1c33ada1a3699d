// observation_tensor: a fixed-length float encoding of one player's view.
#include <algorithm>

#include "duel/state.hpp"

namespace duel {

void State::observation_tensor(int player, float* out) const {
  float* o = out;
  std::fill(out, out + kObservationSize, 0.0f);
  for (int c = 0; c < kNumCells; ++c) o[c * 8 + cell_[c]] = 1.0f;
  o += kNumCells * 8;
  for (int k = 0; k < kNumKinds; ++k) o[k] = static_cast<float>(core::swar::lane(bag_, k)) / 4.0f;
  o += kNumKinds;
  for (int i = 0; i < 2; ++i) {
    const Player& p = players_[player ^ i];
    for (int k = 0; k < kNumKinds; ++k) o[k] = static_cast<float>(core::swar::lane(p.tokens, k)) / 10.0f;
    o += kNumKinds;
    for (int c = 0; c < 5; ++c) o[c] = static_cast<float>(core::swar::lane(p.bonuses, c)) / 5.0f, o[5 + c] = p.colour_points[c] / 10.0f;
    o += 10;
    o[0] = p.points / 20.0f, o[1] = p.crowns / 10.0f, o[2] = p.privileges / 3.0f, o[3] = p.num_reserved / 3.0f;
    o += 4;
    for (int r = 0; r < kNumRoyals; ++r) o[r] = static_cast<float>((p.royals >> r) & 1);
    o += kNumRoyals;
  }
  for (int s = 0; s < kNumSlots; ++s)
    if (pyramid_[s] != kNoCard) o[s * kNumCards + pyramid_[s]] = 1.0f;
  o += kNumSlots * kNumCards;
  const Player& me = players_[player];
  for (int i = 0; i < me.num_reserved; ++i) o[i * kNumCards + me.reserved[i]] = 1.0f;
  o += kMaxReserved * kNumCards;
  const Player& opp = players_[player ^ 1];
  for (int i = 0; i < opp.num_reserved; ++i) {
    if ((opp.reserved_blind >> i) & 1) o[kMaxReserved * kNumCards + tables::kCards[opp.reserved[i]].level - 1] += 1.0f;
    else o[i * kNumCards + opp.reserved[i]] = 1.0f;
  }
  o += kMaxReserved * kNumCards + 3;
  for (int l = 0; l < 3; ++l) o[l] = static_cast<float>(core::popcount(deck_[l])) / 30.0f;
  o += 3;
  for (int r = 0; r < kNumRoyals; ++r) o[r] = static_cast<float>((royals_avail_ >> r) & 1);
  o += kNumRoyals;
  o[static_cast<int>(phase_)] = 1.0f;
  o += kNumPhases;
  o[0] = static_cast<float>(turn_seat_ == player), o[1] = replenished_, o[2] = again_;
  o += 3;
}

}  // namespace duel
