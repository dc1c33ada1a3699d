// The _core extension module: the games of bindings/games.hpp, then the search and
// the position reader (one bind_*.cpp each).
#include <pybind11/pybind11.h>

#include "bindings/games.hpp"
#include "bindings/registry.hpp"
#include "core/types.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() = "splendor_mcts C++ core: rules engines, playouts and search";
  pybind11::register_exception<core::InvalidInput>(m, "InvalidInput", PyExc_ValueError);
  m.attr("CHANCE") = core::kChancePlayer;
  m.attr("TERMINAL") = core::kTerminalPlayer;
  bindings::BoundGames::for_each([&]<class B>() { B::bind(m); });
  bindings::bind_search(m);
  bindings::bind_position(m);
}
