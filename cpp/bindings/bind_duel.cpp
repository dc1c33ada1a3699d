// Python bindings of Splendor Duel: the rules object, the state (generic template)
// and the component tables.
#include <pybind11/stl.h>

#include "bindings/bind_state.hpp"
#include "bindings/registry.hpp"
#include "duel/state.hpp"

namespace bindings {
namespace {

struct DuelGame {
  using State = duel::State;
  using Config = duel::Config;
  using ActionList = duel::ActionList;
  using ChanceList = duel::ChanceList;
  static constexpr int kNumDistinctActions = duel::kNumDistinctActions;
  static constexpr int kObservationSize = duel::kObservationSize;
  static constexpr const char* kName = "duel";
};

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
  py::class_<Config>(m, "DuelRules", "Engine-side rules of a Splendor Duel variant (built by DuelConfig).")
      .def(py::init([](int points_to_win, int crowns_to_win, int colour_points_to_win, int privileges,
                       int first_player) {
             auto small = [](int v, const char* field) {
               if (v < -1 || v > 1000) throw core::InvalidInput(std::string(field) + ": " + std::to_string(v) + " is out of range");
               return static_cast<int16_t>(v);
             };
             Config c;
             c.points_to_win = small(points_to_win, "points_to_win");
             c.crowns_to_win = small(crowns_to_win, "crowns_to_win");
             c.colour_points_to_win = small(colour_points_to_win, "colour_points_to_win");
             c.privileges = small(privileges, "privileges");
             c.first_player = small(first_player, "first_player");
             c.validate();
             return c;
           }),
           py::arg("points_to_win"), py::arg("crowns_to_win"), py::arg("colour_points_to_win"), py::arg("privileges"),
           py::arg("first_player"))
      .def_readonly("points_to_win", &Config::points_to_win)
      .def("__eq__", [](const Config& a, const Config& b) { return a == b; }, py::is_operator());

  bind_state<DuelGame>(m, "DuelState")
      .def("__repr__", [](const duel::State& s) {
        return "<DuelState to_move=" + std::to_string(s.current_player()) + " hash=" + std::to_string(s.hash()) + ">";
      })
      .def("heuristic_action",
           [](const duel::State& s, uint64_t seed) {
             if (s.is_terminal()) throw core::InvalidInput("heuristic_action: the game is over");
             core::Rng rng(core::splitmix64(seed));
             return s.heuristic_action(rng);
           },
           py::arg("seed"), "The rollout policy's move (prefers buying, takes what visible cards need).")
      .def("evaluate", [](const duel::State& s, int player) {
             if (player < 0 || player > 1) throw core::InvalidInput("evaluate: seat must be 0 or 1");
             return s.evaluate(player);
           },
           py::arg("player"), "Heuristic value in [0, 1] of the position for `player`.");

  m.attr("DUEL_NUM_DISTINCT_ACTIONS") = duel::kNumDistinctActions;
  m.attr("DUEL_OBSERVATION_SIZE") = duel::kObservationSize;
  m.def("duel_cards", [] {
    py::list out;
    for (int i = 0; i < duel::tables::kNumCards; ++i) {
      const auto& row = duel::tables::kCards[i];
      py::dict d;
      d["id"] = i + 1;
      d["level"] = row.level;
      d["bonus"] = kBonusNames[row.bonus];
      d["bonus_count"] = row.bonus_count;
      d["points"] = row.points;
      d["crowns"] = row.crowns;
      d["abilities"] = ability_list(row.abilities);
      py::dict cost;
      for (int k = 0; k < 6; ++k) cost[duel::kKindNames[k]] = row.cost[k];
      d["cost"] = cost;
      d["text"] = duel::card_text(i);
      out.append(d);
    }
    return out;
  });
  m.def(
      "duel_card_from_text", [](std::string_view text) { return duel::card_from_text(text) + 1; }, py::arg("text"),
      "Card id of a readable Duel description such as \"red 2pt 1cr W2U2G2P1\"; ValueError otherwise.");
  m.def("duel_royals", [] {
    py::list out;
    for (int i = 0; i < duel::tables::kNumRoyals; ++i) {
      py::dict d;
      d["id"] = i + 1;
      d["points"] = duel::tables::kRoyals[i].points;
      d["abilities"] = ability_list(duel::tables::kRoyals[i].abilities);
      out.append(d);
    }
    return out;
  });
}

}  // namespace bindings
