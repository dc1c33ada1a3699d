// Readable card descriptions of Splendor Duel: "red 2pt 1cr W2U2G2P1" <-> card index.
// The grammar is core/card_text.hpp's with the Duel alphabet: bonus white ... black,
// joker or none; "x2" for a double bonus; crowns "1cr"; abilities again, token,
// privilege, steal (a joker's bonus_copy is implied by "joker" and never written);
// cost letters W U G R K and P for pearl.
#include "core/card_text.hpp"

#include "duel/state.hpp"

namespace duel {
namespace {

namespace ct = core::card_text;

const ct::Alphabet& alphabet() {
  static const ct::Alphabet a{{"white", "blue", "green", "red", "black", "joker", "none"},
                              "WUGRK--",
                              "WUGRKP",
                              "red 2pt 1cr W2U2G2P1",
                              {"again", "bonus_copy", "token", "privilege", "steal"},
                              /*crowns=*/true,
                              /*doubles=*/true};
  return a;
}

constexpr unsigned kImplied = tables::kAbility_bonus_copy;  // every joker has it, no other card

ct::Face face_of(int card) {
  const CardRow& row = tables::kCards[card];
  ct::Face f;
  f.bonus = row.bonus;
  f.points = row.points;
  f.crowns = row.crowns;
  f.bonus_count = row.bonus_count == 2 ? 2 : 1;  // format writes x2 only
  f.abilities = row.abilities & ~kImplied;
  for (int k = 0; k < 6; ++k) f.cost[static_cast<size_t>(k)] = row.cost[k];
  return f;
}

}  // namespace

std::string card_text(int card) { return ct::format(face_of(card), alphabet()); }

int card_from_text(std::string_view text) { return ct::find(text, alphabet(), kNumCards, face_of, kImplied); }

}  // namespace duel
