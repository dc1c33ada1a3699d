// Python bindings of Splendor Duel: the rules object, the state (generic template)
// and the component tables.
#include <pybind11/stl.h>

#include "bindings/bind_state.hpp"
#include "bindings/bind_threats.hpp"
#include "bindings/registry.hpp"
#include "duel/state.hpp"
#include "duel/game.hpp"

namespace bindings {
namespace {

constexpr const char* kBonusNames[7] = {"white", "blue", "green", "red", "black", "joker", "none"};
constexpr const char* kAbilityNames[5] = {"again", "bonus_copy", "token", "privilege", "steal"};

py::list ability_list(uint8_t mask) {
  py::list out;
  for (int i = 0; i < 5; ++i)
    if ((mask >> i) & 1) out.append(kAbilityNames[i]);
  return out;
}

}  // namespace

void bind_duel(py::module_& m) {
  using duel::Config;
  bind_rules(m, "DuelRules", "Engine-side rules of a Splendor Duel variant (built by DuelConfig).",
             field("points_to_win", &Config::points_to_win), field("crowns_to_win", &Config::crowns_to_win),
             field("colour_points_to_win", &Config::colour_points_to_win),
             field("privileges", &Config::privileges), field("first_player", &Config::first_player));
  bind_state<duel::Game>(m, "DuelState", "duel");
  bind_sampled_cards<duel::Game>(m);
  // A buy of a reserve the seat took from a deck top: a card the opponent has not seen.
  bind_threats<duel::Game>(m, [](const duel::State& s, core::Action a, int observer) {
    const int seat = s.current_player();
    const int first = duel::kBuyBase + duel::kNumSlots;
    if (seat == observer || a < first || a >= first + duel::kMaxReserved) return false;
    return ((s.player(seat).reserved_blind >> (a - first)) & 1) != 0;
  });

  m.def("duel_cards", [] {
    return table_rows(duel::tables::kCards, [](py::dict& d, const duel::CardRow& row, int i) {
      d["level"] = row.level;
      d["bonus"] = kBonusNames[row.bonus];
      d["bonus_count"] = row.bonus_count;
      d["points"] = row.points;
      d["crowns"] = row.crowns;
      d["abilities"] = ability_list(row.abilities);
      d["cost"] = named_values(duel::kKindNames, row.cost, 6);
      d["text"] = duel::card_text(i);
    });
  }, "The Duel cards (data/splendor_duel/cards.csv), one dict each: id, level, bonus, bonus_count, points, crowns, "
     "abilities, cost, text.");
  m.def(
      "duel_card_from_text", [](const py::str& text) { return duel::card_from_text(utf8_text(text, "card text")) + 1; }, py::arg("text"),
      "Card id of a readable Duel description such as \"red 2pt 1cr W2U2G2P1\"; ValueError otherwise.");
  m.def("duel_royals", [] {
    return table_rows(duel::tables::kRoyals, [](py::dict& d, const duel::RoyalRow& row, int) {
      d["points"] = row.points;
      d["abilities"] = ability_list(row.abilities);
    });
  }, "The royal cards (data/splendor_duel/royals.csv), one dict each: id, points, abilities.");
}

}  // namespace bindings
