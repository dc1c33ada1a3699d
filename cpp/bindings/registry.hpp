// Entry points of the bind_*.cpp files: each game's (listed in games.hpp), then the
// search's and the positions', called from module.cpp.
#pragma once
#include <pybind11/pybind11.h>

namespace bindings {
void bind_splendor(pybind11::module_& m);
void bind_duel(pybind11::module_& m);
void bind_search(pybind11::module_& m);
void bind_position(pybind11::module_& m);
void bind_network(pybind11::module_& m);
}  // namespace bindings
