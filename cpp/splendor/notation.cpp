// Readable move notation, both ways (docs/actions.md).
#include <cctype>
#include <string>
#include <vector>

#include "core/words.hpp"
#include "splendor/state.hpp"
#include "splendor_tables.inc"

namespace splendor {
namespace {

constexpr char kLetters[kNumKinds] = {'W', 'U', 'G', 'R', 'K', 'Y'};
constexpr const char* kColourNames[kNumKinds] = {"white", "blue", "green", "red", "black", "gold"};

const char* kSyntaxHelp =
    "moves look like: take WUG | take RR | reserve 1.3 | reserve deck 2 | reserve #12 | buy 2.1 | buy #47 | "
    "buy reserved 1 | return K | noble 3 | pass | reveal #23 | reveal noble 4 "
    "(colours W U G R K, gold Y; levels and slots count from 1; #N is a card id)";

// A colour by letter or name; -1 if neither.
int colour_of(const std::string& w) {
  for (int k = 0; k < kNumKinds; ++k)
    if (w == kColourNames[k] || (w.size() == 1 && std::toupper(static_cast<unsigned char>(w[0])) == kLetters[k])) return k;
  return -1;
}

bool parse_int(const std::string& w, int* out) {
  if (w.empty() || w.size() > 4) return false;
  int v = 0;
  for (char ch : w) {
    if (!std::isdigit(static_cast<unsigned char>(ch))) return false;
    v = v * 10 + (ch - '0');
  }
  *out = v;
  return true;
}

// "#47" -> card index 46.
bool parse_card_id(const std::string& w, int* card) {
  int id = 0;
  if (w.size() < 2 || w[0] != '#' || !parse_int(w.substr(1), &id)) return false;
  if (id < 1 || id > kNumCards) throw core::InvalidInput("card id " + w + " does not exist (ids are #1 to #90)");
  *card = id - 1;
  return true;
}

// "2.3" -> table slot (level 2, slot 3) -> 7.
bool parse_slot(const std::string& w, int* slot) {
  const auto dot = w.find('.');
  int level = 0, index = 0;
  if (dot == std::string::npos || !parse_int(w.substr(0, dot), &level) || !parse_int(w.substr(dot + 1), &index))
    return false;
  if (level < 1 || level > kLevels || index < 1 || index > kSlotsPerLevel)
    throw core::InvalidInput("table position " + w + " does not exist (levels 1-3, slots 1-4)");
  *slot = (level - 1) * kSlotsPerLevel + index - 1;
  return true;
}

[[noreturn]] void bad(std::string_view text, const std::string& why) {
  throw core::InvalidInput("cannot read move '" + std::string(text) + "': " + why + "; " + kSyntaxHelp);
}

}  // namespace

std::string State::action_to_string(Action a) const {
  if (a < 0 || a >= kNumDistinctActions) return "invalid action " + std::to_string(a);
  if (a < kTakeTwo) {
    std::string s = "take ";
    for (int c = 0; c < kColours; ++c)
      if ((kTakeDistinctTable[a].colours >> c) & 1) s.push_back(kLetters[c]);
    return s;
  }
  if (a < kReserveTable) return std::string("take ") + kLetters[a - kTakeTwo] + kLetters[a - kTakeTwo];
  auto slot_text = [](int slot) {
    return std::to_string(slot / kSlotsPerLevel + 1) + "." + std::to_string(slot % kSlotsPerLevel + 1);
  };
  if (a < kReserveDeck) return "reserve " + slot_text(a - kReserveTable);
  if (a < kBuyTable) return "reserve deck " + std::to_string(a - kReserveDeck + 1);
  if (a < kBuyReserved) return "buy " + slot_text(a - kBuyTable);
  if (a < kPass) return "buy reserved " + std::to_string(a - kBuyReserved + 1);
  if (a == kPass) return "pass";
  if (a < kChooseNoble) return std::string("return ") + kLetters[a - kReturnToken];
  if (a < kRevealCard) return "noble " + std::to_string(a - kChooseNoble + 1);
  if (a < kRevealNoble) return "reveal #" + std::to_string(a - kRevealCard + 1);
  return "reveal noble " + std::to_string(a - kRevealNoble + 1);
}

// The card a move names (a table slot, a reserved card, a revealed card) or the noble
// chosen: the label people read, so they need not look the slot up.
std::string State::action_label(Action a) const {
  int card = kNoCard;
  if (a >= kReserveTable && a < kReserveDeck) card = table_[a - kReserveTable];
  if (a >= kBuyTable && a < kBuyReserved) card = table_[a - kBuyTable];
  if (a >= kBuyReserved && a < kPass && a - kBuyReserved < players_[turn_seat_].num_reserved)
    card = players_[turn_seat_].reserved[a - kBuyReserved];
  if (a >= kRevealCard && a < kRevealNoble) card = a - kRevealCard;
  const std::string text = action_to_string(a);
  if (a >= kChooseNoble && a < kRevealCard)  // the noble by its requirement, as people name nobles: "noble 6 (U4G4)"
    return text + " (" + noble_text(a - kChooseNoble) + ")";
  return card == kNoCard ? text : text + " (" + card_text(card) + ")";
}

Action State::string_to_action(std::string_view text) const {
  try {
    return parse_action(text);
  } catch (const core::InvalidInput& e) {
    const std::string what = e.what();
    if (what.rfind("cannot read move", 0) == 0) throw;
    bad(text, what);
  }
}

Action State::parse_action(std::string_view text) const {
  const std::vector<std::string> w = core::lower_words(text);
  if (w.empty()) bad(text, "it is empty");
  const std::string& verb = w[0];
  const size_t n = w.size();
  int value = 0;

  if (verb == "pass" && n == 1) return kPass;

  if (verb == "take") {
    // Colours as one word of letters ("wug", "rr") or as separate letters/names.
    std::vector<int> colours;
    for (size_t i = 1; i < n; ++i) {
      const int named = colour_of(w[i]);
      if (named >= 0 && w[i].size() > 1) {
        colours.push_back(named);
        continue;
      }
      for (char ch : w[i]) {
        const int c = colour_of(std::string(1, ch));
        if (c < 0) bad(text, std::string("'") + ch + "' is not a colour");
        colours.push_back(c);
      }
    }
    for (int c : colours)
      if (c == kGold) bad(text, "gold cannot be taken, only received by reserving");
    if (colours.size() == 2 && colours[0] == colours[1]) return kTakeTwo + colours[0];
    if (colours.empty() || colours.size() > 3) bad(text, "take names 1 to 3 different colours, or one colour twice");
    uint8_t set = 0;
    for (int c : colours) {
      if ((set >> c) & 1) bad(text, "the same colour twice is only allowed as a take of exactly two");
      set = static_cast<uint8_t>(set | (1u << c));
    }
    for (int i = 0; i < 25; ++i)
      if (kTakeDistinctTable[i].colours == set) return kTakeDistinct + i;
  }

  if (verb == "reserve" || verb == "buy") {
    const bool reserve = verb == "reserve";
    if (n == 2 && parse_slot(w[1], &value)) return (reserve ? kReserveTable : kBuyTable) + value;
    if (n == 3 && reserve && w[1] == "deck" && parse_int(w[2], &value)) {
      if (value < 1 || value > kLevels) bad(text, "decks are numbered 1 to 3");
      return kReserveDeck + value - 1;
    }
    if (n == 3 && !reserve && w[1] == "reserved" && parse_int(w[2], &value)) {
      if (value < 1 || value > kMaxReserved) bad(text, "reserved cards are numbered 1 to 3");
      return kBuyReserved + value - 1;
    }
    if (n == 2 && parse_card_id(w[1], &value)) {
      for (int s = 0; s < kTableSlots; ++s)
        if (table_[s] == value) return (reserve ? kReserveTable : kBuyTable) + s;
      if (!reserve && phase_ != Phase::kChance && phase_ != Phase::kOver) {
        const Player& p = players_[turn_seat_];
        for (int i = 0; i < p.num_reserved; ++i)
          if (p.reserved[i] == value) return kBuyReserved + i;
      }
      bad(text, "card " + w[1] + (reserve ? " is not on the table" : " is not on the table or in your reserve"));
    }
  }

  if (verb == "return" && n == 2) {
    const int c = colour_of(w[1]);
    if (c < 0) bad(text, "'" + w[1] + "' is not a token colour");
    return kReturnToken + c;
  }

  if (verb == "noble" && n == 2 && parse_int(w[1], &value)) {
    if (value < 1 || value > kNumNobles) bad(text, "nobles are numbered 1 to 10");
    return kChooseNoble + value - 1;
  }

  if (verb == "reveal") {
    if (n == 2 && parse_card_id(w[1], &value)) return kRevealCard + value;
    if (n == 3 && w[1] == "noble" && parse_int(w[2], &value)) {
      if (value < 1 || value > kNumNobles) bad(text, "nobles are numbered 1 to 10");
      return kRevealNoble + value - 1;
    }
  }
  bad(text, "unknown form");
}

}  // namespace splendor
