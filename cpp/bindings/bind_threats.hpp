// The threat check (core/threats.hpp) for Python: `_core.threat_after(state, turn,
// max_nodes)`, bound per game with the game's own word for "a move on a card the
// observer cannot see" (each game knows which of its reserves were taken blind).
#pragma once
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bindings/bind_state.hpp"
#include "core/threats.hpp"

namespace bindings {

template <class Game, class Unseen>
void bind_threats(py::module_& m, Unseen unseen) {
  using State = typename Game::State;
  m.def(
      "threat_after",
      [unseen](const State& s, const std::vector<int>& turn, uint64_t max_nodes) -> py::object {
        if (s.is_terminal() || s.is_chance()) throw core::InvalidInput("threat_after: no seat is to move here");
        if (turn.empty()) throw core::InvalidInput("threat_after: the turn has no decisions");
        std::vector<core::Action> actions;
        for (int a : turn) actions.push_back(check_action<Game>(a));
        const State own = s;  // copied under the GIL, as in perft
        core::Threat t;
        {
          py::gil_scoped_release release;
          t = core::ThreatCheck<Game, Unseen>(max_nodes, unseen).after_turn(own, actions);
        }
        py::dict d;
        d["threat"] = t.verdict == core::ForcedWin::kUnknown ? py::object(py::none())
                                                              : py::object(py::bool_(t.verdict == core::ForcedWin::kYes));
        d["seat"] = t.seat;
        d["moves"] = t.moves;
        d["labels"] = t.labels;
        d["texts"] = t.texts;
        d["nodes"] = t.nodes;
        return d;
      },
      py::arg("state"), py::arg("turn"), py::arg("max_nodes"),
      "The threat check (core/threats.hpp; docs/hints.md, \"Threats\"): after the seat to move plays `turn` "
      "(its whole turn's decisions), does the seat that moves next win in its next turn whatever the turn "
      "reveals, on what the seat to move can see? A dict: threat (True, False, or None when max_nodes "
      "positions did not decide it, `turn` is not one whole turn from here, or no reveal lets it be played), seat (the threatening seat, -1 "
      "if none), moves (its first decisions, action ids, that win after every reveal; may be empty with threat True), labels (each move's label where the card it names is the same after every reveal, else its notation), texts (their notations), nodes.");
}

}  // namespace bindings
