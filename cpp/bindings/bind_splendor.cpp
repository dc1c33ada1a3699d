// Python bindings of the base game.
#include <pybind11/stl.h>

#include "bindings/bind_state.hpp"
#include "bindings/registry.hpp"
#include "splendor/self_check.hpp"
#include "splendor/state.hpp"
#include "splendor_tables.inc"

namespace bindings {
namespace {

struct SplendorGame {
  using State = splendor::State;
  using Config = splendor::Config;
  using ActionList = splendor::ActionList;
  using ChanceList = splendor::ChanceList;
  static constexpr int kNumDistinctActions = splendor::kNumDistinctActions;
  static constexpr int kObservationSize = splendor::kObservationSize;
  static constexpr const char* kName = "splendor";
};

constexpr const char* kColourNames[5] = {"white", "blue", "green", "red", "black"};

py::dict cost_dict(const uint8_t* cost) {
  py::dict d;
  for (int c = 0; c < 5; ++c) d[kColourNames[c]] = cost[c];
  return d;
}

}  // namespace

void bind_splendor(py::module_& m) {
  using splendor::Config;
  py::class_<Config>(m, "SplendorRules", "Engine-side rules of a Splendor variant (built by SplendorConfig).")
      .def(py::init([](int players, int points_to_win, bool take_fewer_distinct, int gem_tokens, int gold_tokens,
                       int nobles, int token_limit, int reserve_limit, int take_two_min) {
             auto byte = [](int v, const char* field) {
               if (v < 0 || v > 255) throw core::InvalidInput(std::string(field) + " is out of range");
               return static_cast<uint8_t>(v);
             };
             Config c;
             c.players = byte(players, "players");
             c.points_to_win = byte(points_to_win, "points_to_win");
             c.take_fewer_distinct = take_fewer_distinct;
             c.gem_tokens = byte(gem_tokens, "gem_tokens");
             c.gold_tokens = byte(gold_tokens, "gold_tokens");
             c.nobles = byte(nobles, "nobles");
             c.token_limit = byte(token_limit, "token_limit");
             c.reserve_limit = byte(reserve_limit, "reserve_limit");
             c.take_two_min = byte(take_two_min, "take_two_min");
             c.validate();
             return c;
           }),
           py::arg("players"), py::arg("points_to_win"), py::arg("take_fewer_distinct"), py::arg("gem_tokens"),
           py::arg("gold_tokens"), py::arg("nobles"), py::arg("token_limit"), py::arg("reserve_limit"),
           py::arg("take_two_min"))
      .def_readonly("players", &Config::players)
      .def("__eq__", [](const Config& a, const Config& b) { return a == b; }, py::is_operator());

  bind_state<SplendorGame>(m, "SplendorState")
      .def("__repr__", [](const splendor::State& s) {
        return "<SplendorState players=" + std::to_string(s.num_players()) +
               " to_move=" + std::to_string(s.current_player()) + " hash=" + std::to_string(s.hash()) + ">";
      });

  m.def("splendor_self_check",
        [](const Config& config, int64_t n_games, uint64_t seed) {
          if (n_games < 0) throw core::InvalidInput("n_games must be >= 0");
          splendor::SelfCheckReport r;
          {
            py::gil_scoped_release release;
            r = splendor::self_check_random_games(config, n_games, seed);
          }
          py::dict d;
          d["games"] = r.games;
          d["decisions"] = r.decisions;
          d["failure_count"] = r.failure_count;
          d["failures"] = r.failures;
          return d;
        },
        py::arg("config"), py::arg("n_games"), py::arg("seed"),
        "Plays random games checking every invariant after every action (see self_check.hpp).");
  m.attr("SPLENDOR_NUM_DISTINCT_ACTIONS") = splendor::kNumDistinctActions;
  m.attr("SPLENDOR_OBSERVATION_SIZE") = splendor::kObservationSize;
  m.def("splendor_cards", [] {
    py::list out;
    for (int i = 0; i < splendor::tables::kNumCards; ++i) {
      const auto& row = splendor::tables::kCards[i];
      py::dict d;
      d["id"] = i + 1;
      d["level"] = row.level;
      d["bonus"] = kColourNames[row.bonus];
      d["points"] = row.points;
      d["cost"] = cost_dict(row.cost);
      d["text"] = splendor::card_text(i);
      out.append(d);
    }
    return out;
  });
  m.def(
      "splendor_card_from_text", [](std::string_view text) { return splendor::card_from_text(text) + 1; },
      py::arg("text"), "Card id of a readable description such as \"green 1pt W2U1\"; ValueError otherwise.");
  m.def("splendor_nobles", [] {
    py::list out;
    for (int i = 0; i < splendor::tables::kNumNobles; ++i) {
      const auto& row = splendor::tables::kNobles[i];
      py::dict d;
      d["id"] = i + 1;
      d["points"] = row.points;
      d["requirement"] = cost_dict(row.requirement);
      out.append(d);
    }
    return out;
  });
}

}  // namespace bindings
