// Python bindings of the base game.
#include <pybind11/stl.h>

#include "bindings/bind_state.hpp"
#include "bindings/bind_threats.hpp"
#include "bindings/registry.hpp"
#include "splendor/game.hpp"
#include "splendor/self_check.hpp"
#include "splendor/state.hpp"
#include "splendor_tables.inc"

namespace bindings {
namespace {

constexpr const char* kColourNames[5] = {"white", "blue", "green", "red", "black"};

}  // namespace

// The take rule (variant take_fewer_distinct) as Python and specs write it: true, false or
// "always", the words positions use (splendor::kTakeFewerAlways).
template <>
struct RulesValue<splendor::TakeFewer> {
  using TakeFewer = splendor::TakeFewer;
  using Arg = py::object;
  static TakeFewer from_python(const py::object& v, const char* field) {
    if (py::isinstance<py::bool_>(v)) return v.cast<bool>() ? TakeFewer::kWhenShort : TakeFewer::kNever;
    if (py::isinstance<py::str>(v) && v.cast<std::string>() == splendor::kTakeFewerAlways) return TakeFewer::kAlways;
    throw core::InvalidInput(std::string(field) + " must be true, false or " + splendor::kTakeFewerAlways + ", got " +
                             py::repr(v).cast<std::string>());
  }
  static py::object to_python(TakeFewer rule) {
    if (rule == TakeFewer::kAlways) return py::str(splendor::kTakeFewerAlways);
    return py::bool_(rule == TakeFewer::kWhenShort);
  }
};

void bind_splendor(py::module_& m) {
  using splendor::Config;
  bind_rules(m, "SplendorRules", "Engine-side rules of a Splendor variant (built by SplendorConfig).",
             field("players", &Config::players), field("points_to_win", &Config::points_to_win),
             field("take_fewer_distinct", &Config::take_fewer_distinct), field("gem_tokens", &Config::gem_tokens),
             field("gold_tokens", &Config::gold_tokens), field("nobles", &Config::nobles),
             field("token_limit", &Config::token_limit), field("reserve_limit", &Config::reserve_limit),
             field("take_two_min", &Config::take_two_min));
  bind_state<splendor::Game>(m, "SplendorState", "splendor");
  bind_sampled_cards<splendor::Game>(m);
  // A buy of a reserve the seat took blind from a deck: a card no other seat has seen.
  bind_threats<splendor::Game>(m, [](const splendor::State& s, core::Action a, int observer) {
    const int seat = s.current_player();
    if (seat == observer || a < splendor::kBuyReserved || a >= splendor::kBuyReserved + splendor::kMaxReserved)
      return false;
    return ((s.player(seat).reserved_blind >> (a - splendor::kBuyReserved)) & 1) != 0;
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
  m.def("splendor_cards", [] {
    return table_rows(splendor::tables::kCards, [](py::dict& d, const splendor::CardRow& row, int i) {
      d["level"] = row.level;
      d["bonus"] = kColourNames[row.bonus];
      d["points"] = row.points;
      d["cost"] = named_values(kColourNames, row.cost, 5);
      d["text"] = splendor::card_text(i);
    });
  }, "The development cards (data/splendor/cards.csv), one dict each: id, level, bonus, points, cost, text.");
  m.def(
      "splendor_card_from_text", [](const py::str& text) { return splendor::card_from_text(utf8_text(text, "card text")) + 1; },
      py::arg("text"), "Card id of a readable description such as \"green 1pt W2U1\"; ValueError otherwise.");
  m.def(
      "splendor_noble_from_text",
      [](const py::str& text) { return splendor::noble_from_text(utf8_text(text, "noble text")) + 1; }, py::arg("text"),
      "Noble id of \"noble 4\", \"#4\", \"4\" or a requirement as printed (\"3pt W4U4\", \"W4U4\"); ValueError otherwise.");
  m.def("splendor_nobles", [] {
    return table_rows(splendor::tables::kNobles, [](py::dict& d, const splendor::NobleRow& row, int) {
      d["points"] = row.points;
      d["requirement"] = named_values(kColourNames, row.requirement, 5);
    });
  }, "The nobles (data/splendor/nobles.csv), one dict each: id, points, requirement.");
}

}  // namespace bindings
