// nim_engine: the test-only Python module of Nim (nim.hpp), built only with the CMake
// option SPLENDOR_MCTS_TEST_GAMES (.ci/run builds it into tests/). It binds the game as
// _core binds its own (bind_state, bind_searcher, a position reader) from the generic core
// alone (no Splendor, no Duel), and leans on _core for the shared classes: the search
// settings and results, InvalidInput and PositionError (one pybind11 registry for both).
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "bindings/bind_position.hpp"
#include "bindings/bind_searcher.hpp"
#include "bindings/bind_state.hpp"
#include "bindings/bind_threats.hpp"
#include "core/json.hpp"
#include "tests/toy/nim.hpp"

PYBIND11_MODULE(nim_engine, m) {
  namespace py = pybind11;
  m.doc() = "The test-only game Nim (cpp/tests/toy/nim.hpp), bound beside splendor_mcts._core.";
  py::module_::import("splendor_mcts._core");  // the search settings and result classes first
  using nim::Config;
  bindings::bind_rules(m, "NimRules", "Engine-side rules of the test-only game Nim.",
                       bindings::field("stones", &Config::stones), bindings::field("max_take", &Config::max_take));
  bindings::bind_state<nim::Game>(m, "NimState", "nim");
  bindings::bind_searcher<nim::Game>(m, "Nim");
  bindings::bind_threats<nim::Game>(m, [](const nim::State&, core::Action, int) { return false; });  // nothing hidden
  m.def(
      "read_position",
      [](std::string_view text, uint64_t seed, bool full) {
        const core::json::Value doc = core::json::parse(text);
        return bindings::position_tuple("nim", nim::read_position(doc, seed, full), &nim::variant_json);
      },
      py::arg("text"), py::arg("seed") = 0, py::arg("full") = false,
      "_core.read_position for a Nim position (GameEntry.engine's reader).");
}
