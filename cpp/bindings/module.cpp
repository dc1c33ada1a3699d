// The _core extension module: one bind_*.cpp per area registers itself here.
#include <pybind11/pybind11.h>

#include "bindings/registry.hpp"
#include "core/types.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() = "splendor_mcts C++ core: rules engines, playouts and search";
  pybind11::register_exception<core::InvalidInput>(m, "InvalidInput", PyExc_ValueError);
  m.attr("CHANCE") = core::kChancePlayer;
  m.attr("TERMINAL") = core::kTerminalPlayer;
  bindings::bind_splendor(m);
  bindings::bind_duel(m);
  bindings::bind_search(m);
  bindings::bind_position(m);
}
