// Readable card descriptions of the base game: "green 1pt W2U1" <-> card index.
#include "core/card_text.hpp"

#include "splendor/state.hpp"
#include "splendor_tables.inc"

namespace splendor {
namespace {

namespace ct = core::card_text;

const ct::Alphabet& alphabet() {
  static const ct::Alphabet a{{"white", "blue", "green", "red", "black"}, "WUGRK", "WUGRK", "green 1pt W2U3K2"};
  return a;
}

ct::Face face_of(int card) {
  const CardRow& row = tables::kCards[card];
  ct::Face f;
  f.bonus = row.bonus;
  f.points = row.points;
  for (int c = 0; c < kColours; ++c) f.cost[static_cast<size_t>(c)] = row.cost[c];
  return f;
}

}  // namespace

std::string card_text(int card) { return ct::format(face_of(card), alphabet()); }

int card_from_text(std::string_view text) { return ct::find(text, alphabet(), kNumCards, face_of); }

// "noble 4", "#4", "4", or the requirement as printed: "3pt W4U4", "W4U4", "4W 4U".
int noble_from_text(std::string_view text) {
  const std::string ids = "(noble ids are 1-" + std::to_string(kNumNobles) + ")";
  std::string rest;
  for (const std::string& word : core::lower_words(text)) rest += rest.empty() ? word : " " + word;
  if (rest.rfind("noble", 0) == 0) rest = rest.substr(5);
  while (!rest.empty() && (rest[0] == ' ' || rest[0] == '#')) rest.erase(0, 1);
  if (!rest.empty() && rest.size() <= 3 && rest.find_first_not_of("0123456789") == std::string::npos) {
    const int id = std::stoi(rest);
    if (id < 1 || id > kNumNobles) throw core::InvalidInput("noble " + rest + " does not exist " + ids);
    return id - 1;
  }
  const std::string help = "cannot read the noble \"" + std::string(text) +
                           "\": give its requirement as printed (e.g. 3pt W4U4) or its id, noble N " + ids;
  ct::Face face;
  try {
    face = ct::parse("white " + rest, alphabet());  // the card grammar's points and cost
  } catch (const core::InvalidInput&) {
    throw core::InvalidInput(help);
  }
  for (int n = 0; n < kNumNobles; ++n) {
    bool same = face.points == 0 || face.points == tables::kNobles[n].points;
    for (int c = 0; c < kColours; ++c) same = same && face.cost[static_cast<size_t>(c)] == tables::kNobles[n].requirement[c];
    if (same) return n;
  }
  throw core::InvalidInput("no noble asks for \"" + std::string(text) + "\" " + ids + "; the nobles ask for " + [] {
    std::string all;
    for (int n = 0; n < kNumNobles; ++n) all += (n ? ", " : "") + noble_text(n);
    return all;
  }());
}

std::string noble_text(int noble) {
  std::string need;
  for (int c = 0; c < kColours; ++c)
    if (const int k = tables::kNobles[noble].requirement[c]) need += std::string(1, "WUGRK"[c]) + std::to_string(k);
  return need;
}

}  // namespace splendor
