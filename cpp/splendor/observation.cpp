// observation_tensor: a fixed-length float encoding of one player's view.
#include <algorithm>
#include <cassert>
#include <cstring>

#include "core/bits.hpp"
#include "splendor/state.hpp"
#include "splendor_tables.inc"

namespace splendor {
namespace {

// present, level one-hot (3), cost (5), bonus one-hot (5), points, hidden flag.
float* write_card(float* out, int card, bool known, int level, bool hidden) {
  out[0] = 1.0f;
  out[1 + level] = 1.0f;
  if (known) {
    const CardRow& row = tables::kCards[card];
    for (int c = 0; c < kColours; ++c) out[4 + c] = row.cost[c];
    out[9 + row.bonus] = 1.0f;
    out[14] = row.points;
  }
  out[15] = hidden ? 1.0f : 0.0f;
  return out + kCardFeatures;
}

}  // namespace

void State::observation_tensor(int player, float* out) const {
  float* const begin = out;
  std::memset(out, 0, sizeof(float) * kObservationSize);
  const int n = config_.players;
  for (int r = 0; r < kMaxPlayers; ++r, out += 15) {
    if (r >= n) continue;
    const Player& p = players_[(player + r) % n];
    for (int k = 0; k < kNumKinds; ++k) out[k] = static_cast<float>(core::swar::lane(p.tokens, k));
    for (int c = 0; c < kColours; ++c) out[6 + c] = static_cast<float>(core::swar::lane(p.bonuses, c));
    out[11] = p.points;
    out[12] = p.cards_bought;
    out[13] = p.num_reserved;
    out[14] = static_cast<float>(core::popcount(p.nobles));
  }
  for (int k = 0; k < kNumKinds; ++k) *out++ = static_cast<float>(core::swar::lane(bank_, k));
  for (int s = 0; s < kTableSlots; ++s) {
    if (table_[s] == kNoCard) {
      out += kCardFeatures;
      continue;
    }
    out = write_card(out, table_[s], true, s / kSlotsPerLevel, false);
  }
  for (int r = 0; r < kMaxPlayers; ++r) {
    const int seat = (player + r) % n;
    for (int i = 0; i < kMaxReserved; ++i) {
      if (r >= n || i >= players_[seat].num_reserved) {
        out += kCardFeatures;
        continue;
      }
      const int card = players_[seat].reserved[i];
      const bool hidden = (players_[seat].reserved_blind >> i) & 1;
      out = write_card(out, card, !hidden || seat == player, tables::kCards[card].level - 1, hidden);
    }
  }
  for (int b = 0; b < kNumNobles; ++b) *out++ = static_cast<float>((table_nobles_ >> b) & 1);
  for (int l = 0; l < kLevels; ++l) *out++ = deck_size_[l];
  out[static_cast<int>(phase_)] = 1.0f;
  out += 5;
  if (phase_ != Phase::kChance && phase_ != Phase::kOver) out[(turn_seat_ - player + n) % n] = 1.0f;
  out += 4;
  *out++ = end_triggered() ? 1.0f : 0.0f;
  *out++ = passes_;
  assert(out - begin == kObservationSize);
  (void)begin;
}

namespace {
// Offsets in observation_tensor (its layout above and in docs/observation.md).
constexpr int kSeatFloats = 15;
constexpr int kTableAt = kMaxPlayers * kSeatFloats + kNumKinds;
constexpr int kReservedAt = kTableAt + kTableSlots * kCardFeatures;
constexpr int kNoblesAt = kReservedAt + kMaxPlayers * kMaxReserved * kCardFeatures;
static_assert(kNoblesAt + kNumNobles + kLevels + 5 + 4 + 2 == kObservationSize);

// One card's needs for a seat with these tokens and bonuses; all zero if the card is absent
// or its cost unseen.
float* card_needs(const float* card, bool seen, const float* tokens, const float* bonuses, float* out) {
  if (card[0] == 0.0f || !seen) return out + kNeedsPerCard;
  float total = 0.0f, short_after_tokens = 0.0f;
  for (int c = 0; c < kColours; ++c) {
    const float need = std::max(0.0f, card[4 + c] - bonuses[c]);
    out[c] = need;
    total += need;
    short_after_tokens += std::max(0.0f, need - tokens[c]);
  }
  const float short_after_gold = std::max(0.0f, short_after_tokens - tokens[kColours]);
  out[5] = total;
  out[6] = short_after_tokens;
  out[7] = short_after_gold;
  out[8] = short_after_gold == 0.0f ? 1.0f : 0.0f;
  return out + kNeedsPerCard;
}
}  // namespace

void needs_features(const float* observation, int players, float* out) {
  std::memset(out, 0, sizeof(float) * static_cast<size_t>(players) * kNeedsPerSeat);
  for (int r = 0; r < players; ++r, out += kNeedsPerSeat) {
    const float* tokens = observation + r * kSeatFloats;
    const float* bonuses = tokens + kNumKinds;
    float* at = out;
    for (int s = 0; s < kTableSlots; ++s)
      at = card_needs(observation + kTableAt + s * kCardFeatures, true, tokens, bonuses, at);
    for (int i = 0; i < kMaxReserved; ++i) {
      const float* card = observation + kReservedAt + (r * kMaxReserved + i) * kCardFeatures;
      at = card_needs(card, r == 0 || card[15] == 0.0f, tokens, bonuses, at);  // others' blind reserves are unseen
    }
    for (int b = 0; b < kNumNobles; ++b, ++at) {
      if (observation[kNoblesAt + b] == 0.0f) continue;
      float need = 0.0f;
      for (int c = 0; c < kColours; ++c) need += std::max(0.0f, tables::kNobles[b].requirement[c] - bonuses[c]);
      *at = need;
    }
  }
}

}  // namespace splendor
