// A position as read_position returns it, for the module of any game: _core's games
// (bind_position.cpp) and a game bound outside it (the test-only Nim,
// cpp/tests/toy/nim_module.cpp), whose reader _core's read_position calls.
#pragma once
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <utility>

#include "core/json.hpp"

namespace bindings {

namespace py = pybind11;

// A variant object (flat: integers, booleans, words, null) as keyword arguments for load_game.
inline py::dict variant_dict(const core::json::Ordered& variant) {
  py::dict out;
  for (const auto& [key, value] : variant.items()) {
    out[py::str(key)] = value.is_null()      ? py::object(py::none())
                        : value.is_boolean() ? py::object(py::bool_(value.get<bool>()))
                        : value.is_string()  ? py::object(py::str(value.get<std::string>()))
                                             : py::object(py::int_(value.get<int64_t>()));
  }
  return out;
}

// What read_position returns: (game name, variant dict, state, observer or None).
template <typename Position, typename VariantJson>
py::tuple position_tuple(const std::string& game, Position&& p, VariantJson&& variant_json) {
  return py::make_tuple(game, variant_dict(variant_json(p.variant)), std::move(p.state),
                        p.observer < 0 ? py::object(py::none()) : py::object(py::int_(p.observer)));
}

}  // namespace bindings
