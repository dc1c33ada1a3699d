// The heuristic rollout policy and the static evaluation used by rollout cut-offs and
// the greedy agent.
#include <algorithm>
#include <cmath>

#include "core/bits.hpp"
#include "duel/state.hpp"

namespace duel {

namespace {
int max_colour_points(const Player& p) {
  return *std::max_element(p.colour_points, p.colour_points + 5);
}

using core::swar::sat_sub;

// The rollout policy's card votes in byte lanes: each card's cost as a word (lanes W U G
// R K pearl), and 12 / (1 + deficit) + points as a table.
struct VoteTables {
  uint64_t cost[kNumCards];
  uint8_t points[kNumCards];
  uint8_t weight[64];  // 12 / (1 + deficit); deficits stay far below 64 (costs are small)
  constexpr VoteTables() : cost(), points(), weight() {
    int max_points = 0, max_cost = 0;
    for (int c = 0; c < kNumCards; ++c) {
      int total = 0;
      for (int k = 0; k < 6; ++k) {
        cost[c] |= uint64_t{tables::kCards[c].cost[k]} << (8 * k);
        total += tables::kCards[c].cost[k];
      }
      points[c] = tables::kCards[c].points;
      max_points = std::max(max_points, int{points[c]});
      max_cost = std::max(max_cost, total);
    }
    for (int d = 0; d < 64; ++d) weight[d] = static_cast<uint8_t>(12 / (1 + d));
    // A voting card lacks something (deficit >= 1, weight <= 6); 15 cards' votes must fit a byte lane.
    if (max_cost >= 64 || 15 * (6 + max_points) > 255) throw "duel cards: votes would not fit the policy's byte lanes";
  }
};
constexpr VoteTables kVote{};
}  // namespace

core::Action State::heuristic_action(core::Rng& rng) const {
  if (phase_ == Phase::kOver) return -1;
  if (is_chance()) return draw(rng);
  const Player& p = players_[turn_seat_];
  const Player& opp = players_[turn_seat_ ^ 1];
  auto best_of = [&](uint32_t mask, auto score) {  // highest score, random among ties
    int best = -1, best_score = -1, ties = 0;
    core::for_each_bit(mask, [&](int i) {
      int s = score(i);
      if (s > best_score) best = i, best_score = s, ties = 1;
      else if (s == best_score && rng.below(static_cast<uint32_t>(++ties)) == 0) best = i;
    });
    return best;
  };
  switch (phase_) {
    case Phase::kJoker:  // toward the one-colour victory
      return kJokerBase + best_of(choice_mask(), [&](int c) { return p.colour_points[c] * 8 + core::swar::lane(p.bonuses, c); });
    case Phase::kSteal:
      return kStealBase + best_of(choice_mask(), [&](int k) { return core::swar::lane(opp.tokens, k) + (k == kPearl) * 2; });
    case Phase::kRoyal:
      return kRoyalBase + best_of(choice_mask(), [&](int r) { return tables::kRoyals[r].points * 4 + (r == 1); });
    case Phase::kDiscard:  // give back what we hold most of, gold and pearls last
      return kDiscardBase + best_of(choice_mask(), [&](int k) { return core::swar::lane(p.tokens, k) * 4 - (k >= kPearl) * 16 + 32; });
    case Phase::kToken:
      return random_action(rng);
    default:
      break;
  }
  MainMoves m = main_moves();
  if (m.buys) {
    int b = best_of(m.buys, [&](int i) {
      int card = i < kNumSlots ? pyramid_[i] : p.reserved[i - kNumSlots];
      const CardRow& r = tables::kCards[card];
      return r.points * 6 + r.crowns * 4 + r.bonus_count * 3 + (r.abilities != 0) * 2 + 1;
    });
    return kBuyBase + b;
  }
  // Take the tokens the nearest cards lack: each visible card votes for the colours it
  // still needs, cards close to affordable louder.
  // All six colours of a card at once: lack = max(0, cost - bonus - tokens) per lane, and
  // the card's weight added to every lane it lacks.
  const uint64_t bonus = p.bonuses & kGemLanes, tokens = p.tokens & kGemPearlLanes;
  uint64_t votes = 0;
  auto vote = [&](int card) {
    const uint64_t lack = sat_sub(sat_sub(kVote.cost[card], bonus), tokens);
    if (!lack) return;
    const int deficit = core::swar::sum(lack);
    votes += core::swar::nonzero_lanes(lack) * static_cast<uint64_t>(kVote.weight[deficit] + kVote.points[card]);
  };
  for (int s = 0; s < kNumSlots; ++s)
    if (pyramid_[s] != kNoCard) vote(pyramid_[s]);
  for (int i = 0; i < p.num_reserved; ++i) vote(p.reserved[i]);
  int want[6];
  for (int k = 0; k < 6; ++k) want[k] = core::swar::lane(votes, k);
  int best = -1, best_score = -1, ties = 0;
  for (int ty = 0; ty < kNumSegTypes; ++ty) {
    core::for_each_bit(m.starts[ty], [&](int c) {
      const Segment& s = kSeg.seg[kSeg.id[ty][c]];
      int score = 0;
      for (int k = 0; k < s.len; ++k) score += want[cell_[s.cells[k]]] + 1;
      if (score > best_score) best = kSeg.id[ty][c], best_score = score, ties = 1;
      else if (score == best_score && rng.below(static_cast<uint32_t>(++ties)) == 0) best = kSeg.id[ty][c];
    });
  }
  if (best >= 0 && (p.num_tokens() < 8 || !m.reserve_targets)) return best;
  if (m.reserve_targets) {
    int t = best_of(m.reserve_targets, [&](int i) {
      return i < kNumSlots ? tables::kCards[pyramid_[i]].points * 3 + tables::kCards[pyramid_[i]].crowns * 2 : 1;
    });
    int g = core::nth_set_bit(m.gold_cells, static_cast<int>(rng.below(static_cast<uint32_t>(core::popcount(m.gold_cells)))));
    return kReserveBase + t * 25 + g;
  }
  if (best >= 0) return best;
  return random_action(rng);  // forced replenish, or only privileges left
}

double State::evaluate(int player) const {
  if (phase_ == Phase::kOver) return winner_ == player ? 1.0 : 0.0;
  auto progress = [&](const Player& p) {
    double win = std::max({p.points / double(config_.points_to_win), p.crowns / double(config_.crowns_to_win),
                           max_colour_points(p) / double(config_.colour_points_to_win)});
    return 0.6 * win + 0.2 * p.points / double(config_.points_to_win) + 0.02 * core::swar::sum(p.bonuses) +
           0.01 * p.num_tokens() + 0.01 * p.privileges;
  };
  double d = progress(players_[player]) - progress(players_[player ^ 1]);
  return 1.0 / (1.0 + std::exp(-6.0 * d));
}

}  // namespace duel

namespace duel {

bool State::others_hold_unseen(int seat) const { return players_[seat ^ 1].reserved_blind != 0 || has_sampled_cards(); }

// A bound on what the seat to move can buy in its next `turns` turns, counting one more
// turn for an extra turn (`again`, or the royal with `again` reached by one card's
// crowns; a chain of several is not counted, so this is a gate for the probe, not a
// proof that no win exists). Each buy is of a card on the pyramid,
// in its reserve or in a deck; all of them cost at most the tokens it holds, plus its
// privileges and 2 more a turn of the opponent's (replenish, a take of three alike or
// of both pearls), plus 3 a turn before the last (a take, or a buy's ability and royal),
// plus the bonuses the earlier buys add (at most 2 each on each later card). Within that,
// the most points, crowns or points in one colour its cards can give: the lesser of the
// best `n` cards and the best fractional fill of that many tokens (cost per value).
bool State::may_win_within(int turns) const {
  if (turns > 2 || phase_ == Phase::kOver) return true;
  const Player& p = players_[turn_seat_];
  auto tokens_for = [&](int buys) {  // what `buys` buys in a row can cost at most
    return p.num_tokens() + p.privileges + 2 * (turns - 1) + 3 * (buys - 1) + buys * (buys - 1);
  };
  auto need = [&](int card) {
    int tokens = tables::kCards[card].cost[5];  // pearls: no bonus pays them
    for (int k = 0; k < 5; ++k) tokens += std::max(0, int{tables::kCards[card].cost[k]} - int(core::swar::lane(p.bonuses, k)));
    return tokens;
  };
  int cards[kNumCards], count = 0;
  for (int slot = 0; slot < kNumSlots; ++slot)
    if (pyramid_[slot] != kNoCard) cards[count++] = pyramid_[slot];
  for (int i = 0; i < p.num_reserved; ++i) cards[count++] = p.reserved[i];
  for (int level = 0; level < 3; ++level)
    core::for_each_bit(deck_[level], [&](int i) { cards[count++] = kLevelFirst[level] + i; });
  // The extra turn: one already coming (free), or one bought with an `again` card or a
  // crown card that brings the royal with `again` (the cheapest such card's tokens are
  // then spent on it).
  int n = turns, budget = tokens_for(turns);
  bool royal_again = false;
  core::for_each_bit(royals_avail_, [&](int r) { royal_again |= (tables::kRoyals[r].abilities & tables::kAbility_again) != 0; });
  const int to_royal = (p.crowns < 3 ? 3 : 6) - p.crowns;  // crowns to the next royal
  royal_again = royal_again && p.crowns < 6;
  int again = again_ || mandatory_done_ ? 0 : 1 << 30;
  for (int i = 0; i < count; ++i) {
    const CardRow& row = tables::kCards[cards[i]];
    if ((row.abilities & tables::kAbility_again) || (royal_again && row.crowns >= to_royal))
      again = std::min(again, need(cards[i]));
  }
  if (again <= budget) {
    n = turns + 1;
    budget = tokens_for(n) - again;
  }
  int cost[kNumCards], kept = 0;
  for (int i = 0; i < count; ++i) {
    const int tokens = need(cards[i]);
    if (tokens > budget) continue;
    cards[kept] = cards[i];
    cost[kept++] = tokens;
  }
  count = kept;
  // The most `value` the cards can add: min(best n values, fractional fill of the budget).
  int order[kNumCards];
  auto most = [&](auto value) {  // value(card) -> double
    int m = 0;
    for (int i = 0; i < count; ++i)
      if (value(cards[i]) > 0) order[m++] = i;
    std::sort(order, order + m, [&](int a, int b) { return value(cards[a]) > value(cards[b]); });
    double best_n = 0;
    for (int i = 0; i < std::min(m, n); ++i) best_n += value(cards[order[i]]);
    std::sort(order, order + m, [&](int a, int b) {  // free cards first, then by value per token
      if ((cost[a] == 0) != (cost[b] == 0)) return cost[a] == 0;
      return value(cards[a]) * cost[b] > value(cards[b]) * cost[a];
    });
    double fill = 0, left = budget;
    for (int i = 0; i < m && (left > 0 || cost[order[i]] == 0); ++i) {
      const double v = value(cards[order[i]]);
      const int c = cost[order[i]];
      const double share = c <= left ? 1.0 : left / c;
      fill += v * share;
      left -= c * share;
    }
    return std::min(best_n, fill);
  };
  const double crowns = most([](int card) { return double(tables::kCards[card].crowns); });
  if (p.crowns + crowns >= config_.crowns_to_win) return true;
  int royal_points = 0;  // the best royal left
  core::for_each_bit(royals_avail_, [&](int r) { royal_points = std::max<int>(royal_points, tables::kRoyals[r].points); });
  // Royal points per crown: the best royal's points over the crowns the next royal needs
  // (the one after needs 3 more), so a card's crowns count toward the points with the
  // cards that bring them, within the same buys and tokens. A royal being chosen now
  // (phase kRoyal) counts in full.
  const double per_crown = p.crowns < 6 ? double(royal_points) / to_royal : 0.0;
  const double points = most([per_crown](int card) {
    return tables::kCards[card].points + per_crown * tables::kCards[card].crowns;
  });
  if (p.points + points + (phase_ == Phase::kRoyal ? royal_points : 0) >= config_.points_to_win) return true;
  for (int c = 0; c < 5; ++c) {
    const double colour = most([c](int card) {
      const int bonus = tables::kCards[card].bonus;
      return bonus == c || bonus == 5 ? double(tables::kCards[card].points) : 0.0;
    });
    if (p.colour_points[c] + colour >= config_.colour_points_to_win) return true;
  }
  return false;
}

}  // namespace duel
