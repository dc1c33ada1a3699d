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

}  // namespace splendor
