// The _core extension module: the games of bindings/games.hpp (each with its input
// features), then the search and the position reader and the network (one bind_*.cpp each).
#include <pybind11/pybind11.h>

#include <exception>
#include <string_view>

#include "bindings/games.hpp"
#include "bindings/registry.hpp"
#include "core/types.hpp"
#include "search/input_features.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() = "splendor_mcts C++ core: rules engines, playouts and search";
  // A message may quote a person's input cut at a byte limit, splitting a UTF-8 character:
  // decoded with replacement, so the error is always a ValueError, never a UnicodeDecodeError.
  static const pybind11::exception<core::InvalidInput> invalid_input(m, "InvalidInput", PyExc_ValueError);
  pybind11::register_exception_translator([](std::exception_ptr raised) {
    try {
      if (raised) std::rethrow_exception(raised);
    } catch (const core::InvalidInput& e) {
      const std::string_view what = e.what();
      PyObject* text = PyUnicode_DecodeUTF8(what.data(), static_cast<Py_ssize_t>(what.size()), "replace");
      PyErr_SetObject(invalid_input.ptr(), text);
      Py_XDECREF(text);
    }
  });
  m.attr("CHANCE") = core::kChancePlayer;
  m.attr("TERMINAL") = core::kTerminalPlayer;
  bindings::BoundGames::for_each([&]<class B>() {
    search::register_game_input_features<typename B::Game>();  // before a network is read
    B::bind(m);
  });
  bindings::bind_search(m);
  bindings::bind_position(m);
  bindings::bind_network(m);
}
