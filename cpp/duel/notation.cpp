// Readable action notation (docs/actions-duel.md), both ways.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "duel/state.hpp"

namespace duel {

namespace {

constexpr const char* kSyntax =
    "expected one of: take CELL [CELL [CELL]], privilege CELL, replenish, reserve L.S gold CELL, "
    "reserve deckL gold CELL, buy L.S, buy rN, token CELL, steal KIND, joker COLOUR, royal N, "
    "discard KIND, card ID, fill KIND, first SEAT (cells a1..e5: column a-e, row 1-5 from the top; "
    "L.S = level 1-3 and slot from the left)";

std::string slot_name(int slot) {
  int level = slot_level(slot);
  return std::to_string(level + 1) + "." + std::to_string(slot - kSlotFirst[level] + 1);
}

int parse_slot(std::string_view s) {  // "L.S" -> pyramid slot, -1 if not one
  if (s.size() != 3 || s[1] != '.' || s[0] < '1' || s[0] > '3') return -1;
  int level = s[0] - '1', n = s[2] - '1';
  if (n < 0 || n >= kSlotFirst[level + 1] - kSlotFirst[level]) return -1;
  return kSlotFirst[level] + n;
}

int parse_int(std::string_view s, int lo, int hi) {
  if (s.empty() || s.size() > 4) return -1;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v >= lo && v <= hi ? v : -1;
}

[[noreturn]] void bad(std::string_view text, const std::string& why) {
  throw core::InvalidInput("cannot read move '" + std::string(text) + "': " + why);
}

}  // namespace

std::string cell_name(int c) {
  std::string s = "a1";
  s[0] = static_cast<char>('a' + c % 5);
  s[1] = static_cast<char>('1' + c / 5);
  return s;
}

int parse_cell(std::string_view s) {
  if (s.size() != 2 || s[0] < 'a' || s[0] > 'e' || s[1] < '1' || s[1] > '5') return -1;
  return (s[1] - '1') * 5 + (s[0] - 'a');
}

int parse_kind(std::string_view s) {
  for (int k = 0; k < kNumKinds; ++k)
    if (s == kKindNames[k]) return k;
  return -1;
}

std::string State::action_to_string(core::Action a) const {
  if (a < 0 || a >= kNumDistinctActions) return "invalid(" + std::to_string(a) + ")";
  if (a < kNumTakes) {
    std::string out = "take";
    const Segment& s = kSeg.seg[a];
    for (int k = 0; k < s.len; ++k) out.append(" ").append(cell_name(s.cells[k]));
    return out;
  }
  if (a < kReplenish) return "privilege " + cell_name(a - kPrivilegeBase);
  if (a == kReplenish) return "replenish";
  if (a < kBuyBase) {
    int t = (a - kReserveBase) / 25, g = (a - kReserveBase) % 25;
    std::string target = t < kNumSlots ? slot_name(t) : "deck" + std::to_string(t - kNumSlots + 1);
    return "reserve " + target + " gold " + cell_name(g);
  }
  if (a < kTokenBase) {
    int b = a - kBuyBase;
    std::string out = "buy ";
    if (b < kNumSlots) return out.append(slot_name(b));
    return out.append("r").append(std::to_string(b - kNumSlots + 1));
  }
  if (a < kStealBase) return "token " + cell_name(a - kTokenBase);
  if (a < kJokerBase) return std::string("steal ") + kKindNames[a - kStealBase];
  if (a < kRoyalBase) return std::string("joker ") + kKindNames[a - kJokerBase];
  if (a < kDiscardBase) return "royal " + std::to_string(a - kRoyalBase + 1);
  if (a < kRevealBase) return std::string("discard ") + kKindNames[a - kDiscardBase];
  if (a < kFillBase) return "card " + std::to_string(a - kRevealBase + 1);
  if (a < kFirstBase) return std::string("fill ") + kKindNames[a - kFillBase];
  return "first " + std::to_string(a - kFirstBase);
}

// The card a move names (a pyramid slot, a reserved card, a revealed card): the label
// people read, so they need not look the slot up. kNoCard when it names none.
std::string State::action_label(core::Action a) const {
  int card = kNoCard;
  if (a >= kReserveBase && a < kBuyBase && (a - kReserveBase) / 25 < kNumSlots) card = pyramid_[(a - kReserveBase) / 25];
  if (a >= kBuyBase && a < kBuyBase + kNumSlots) card = pyramid_[a - kBuyBase];
  if (a >= kBuyBase + kNumSlots && a < kTokenBase && a - kBuyBase - kNumSlots < players_[turn_seat_].num_reserved)
    card = players_[turn_seat_].reserved[a - kBuyBase - kNumSlots];
  if (a >= kRevealBase && a < kFillBase) card = a - kRevealBase;
  const std::string text = action_to_string(a);
  return card == kNoCard ? text : text + " (" + card_text(card) + ")";
}

core::Action State::string_to_action(std::string_view text) const {
  std::vector<std::string> w;
  std::string cur;
  for (char ch : text) {
    if (std::isspace(static_cast<unsigned char>(ch)) || ch == ',') {
      if (!cur.empty()) w.push_back(std::move(cur)), cur.clear();
    } else {
      cur += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
  }
  if (!cur.empty()) w.push_back(std::move(cur));
  if (w.empty()) bad(text, kSyntax);
  const std::string& verb = w[0];
  size_t n = w.size();
  auto one_arg = [&]() -> const std::string& {
    if (n != 2) bad(text, "'" + verb + "' takes one argument");
    return w[1];
  };
  auto cell_arg = [&](const std::string& s) {
    int c = parse_cell(s);
    if (c < 0) bad(text, "'" + s + "' is not a cell (a1..e5: column a-e, row 1-5 from the top)");
    return c;
  };
  auto kind_arg = [&](const std::string& s, int count) {
    int k = parse_kind(s);
    if (k < 0 || k >= count) {
      std::string names;
      for (int i = 0; i < count; ++i) names += (i ? ", " : "") + std::string(kKindNames[i]);
      bad(text, "'" + s + "' is not one of " + names);
    }
    return k;
  };

  if (verb == "take") {
    if (n < 2 || n > 4) bad(text, "take names 1 to 3 cells, e.g. 'take c3 c4 c5'");
    uint32_t mask = 0;
    for (size_t i = 1; i < n; ++i) mask |= 1u << cell_arg(w[i]);
    for (int id = 0; id < kNumTakes; ++id)
      if (kSeg.seg[id].mask == mask && kSeg.seg[id].len == static_cast<int>(n - 1)) return id;
    bad(text, "the cells are not consecutive cells of one row, column or diagonal");
  }
  if (verb == "privilege") return kPrivilegeBase + cell_arg(one_arg());
  if (verb == "replenish") {
    if (n != 1) bad(text, "'replenish' takes no argument");
    return kReplenish;
  }
  if (verb == "reserve") {
    if (n != 4 || w[2] != "gold") bad(text, "expected 'reserve L.S gold CELL' or 'reserve deckL gold CELL'");
    int target = parse_slot(w[1]);
    if (target < 0 && w[1].size() == 5 && w[1].compare(0, 4, "deck") == 0 && w[1][4] >= '1' && w[1][4] <= '3')
      target = kNumSlots + (w[1][4] - '1');
    if (target < 0) bad(text, "'" + w[1] + "' is not a pyramid slot (1.1-1.5, 2.1-2.4, 3.1-3.3) or deck1-deck3");
    return kReserveBase + target * 25 + cell_arg(w[3]);
  }
  if (verb == "buy") {
    const std::string& s = one_arg();
    int slot = parse_slot(s);
    if (slot >= 0) return kBuyBase + slot;
    if (s.size() == 2 && s[0] == 'r' && s[1] >= '1' && s[1] <= '3') return kBuyBase + kNumSlots + (s[1] - '1');
    bad(text, "'" + s + "' is not a pyramid slot (1.1-1.5, 2.1-2.4, 3.1-3.3) or reserve r1-r3");
  }
  if (verb == "token") return kTokenBase + cell_arg(one_arg());
  if (verb == "steal") return kStealBase + kind_arg(one_arg(), 6);
  if (verb == "joker") return kJokerBase + kind_arg(one_arg(), 5);
  if (verb == "discard") return kDiscardBase + kind_arg(one_arg(), 7);
  if (verb == "fill") return kFillBase + kind_arg(one_arg(), 7);
  if (verb == "royal") {
    int r = parse_int(one_arg(), 1, kNumRoyals);
    if (r < 0) bad(text, "royal cards are numbered 1-4 (royals.csv rows)");
    return kRoyalBase + r - 1;
  }
  if (verb == "card") {
    int id = parse_int(one_arg(), 1, kNumCards);
    if (id < 0) bad(text, "card ids are 1-67 (cards.csv rows)");
    return kRevealBase + id - 1;
  }
  if (verb == "first") {
    int seat = parse_int(one_arg(), 0, 1);
    if (seat < 0) bad(text, "the first player is seat 0 or 1");
    return kFirstBase + seat;
  }
  bad(text, kSyntax);
}

}  // namespace duel
