// read_position: a position's text crosses to C++ once and comes back as the game's
// name, its variant, the state and the observer; PositionError, the ValueError whose
// `problems` holds each problem's JSON path and message apart.
#include <pybind11/eval.h>
#include <pybind11/pybind11.h>

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "bindings/games.hpp"
#include "bindings/registry.hpp"
#include "core/problems.hpp"

namespace bindings {

namespace py = pybind11;

namespace {

py::handle position_error;  // the exception type, owned by the module

// Raises PositionError(problems) in Python.
void raise_problems(const std::vector<core::Problem>& problems) {
  py::list items;
  for (const core::Problem& p : problems) items.append(py::dict(py::arg("path") = p.path, py::arg("message") = p.message));
  const py::object error = position_error(items);
  PyErr_SetObject(position_error.ptr(), error.ptr());
}

// A variant object (flat: integers, booleans, words, null) as keyword arguments for load_game.
py::dict variant_dict(const core::json::Ordered& variant) {
  py::dict out;
  for (const auto& [key, value] : variant.items()) {
    out[py::str(key)] = value.is_null()      ? py::object(py::none())
                        : value.is_boolean() ? py::object(py::bool_(value.get<bool>()))
                        : value.is_string()  ? py::object(py::str(value.get<std::string>()))
                                             : py::object(py::int_(value.get<int64_t>()));
  }
  return out;
}

template <typename Position, typename VariantJson>
py::tuple result(const std::string& game, Position&& p, VariantJson&& variant_json) {
  return py::make_tuple(game, variant_dict(variant_json(p.variant)), std::move(p.state),
                        p.observer < 0 ? py::object(py::none()) : py::object(py::int_(p.observer)));
}

}  // namespace

void bind_position(py::module_& m) {
  // Defined in Python so that Python code can raise it too, with the same text.
  py::dict scope;
  scope["__builtins__"] = py::module_::import("builtins");
  scope["__name__"] = m.attr("__name__");
  py::exec(R"py(
class PositionError(ValueError):
    """A position that cannot be read. ``problems`` holds one {"path", "message"} dict per
    problem (path "" when the text is not JSON, "(root)" for the whole document); str()
    has one line per problem, "path: message" (a line break quoted from the input escaped,
    as core::Problem::text does)."""

    def __init__(self, problems):
        self.problems = [{"path": str(p["path"]), "message": str(p["message"])} for p in problems]
        lines = (f"{p['path']}: {p['message']}" if p["path"] else p["message"] for p in self.problems)
        super().__init__("\n".join(line.replace("\n", "\\n").replace("\r", "\\r") for line in lines))
)py",
           scope);
  const py::object error = scope["PositionError"];
  m.attr("PositionError") = error;
  position_error = error;  // kept alive by the module
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const core::InvalidPosition& e) {
      raise_problems(e.problems());
    } catch (const core::PathError& e) {
      raise_problems({e.problem()});
    }
  });

  m.def(
      "read_position",
      [](std::string_view text, uint64_t seed, bool full) -> py::tuple {
        const core::json::Value doc = core::json::parse(text);
        const core::json::Cursor root(doc);
        const std::string game = core::game_of(root);
        std::optional<py::tuple> read;
        std::set<std::string> known;
        BoundGames::for_each([&]<class B>() {
          known.insert(B::Game::kName);
          if (!read && game == B::Game::kName) read = result(game, B::read_position(doc, seed, full), B::variant_json);
        });
        if (read) return *read;
        std::string names;
        for (const std::string& name : known) names += (names.empty() ? "" : ", ") + name;
        root["game"].fail("unknown game '" + game + "'; known games: " + names);
      },
      py::arg("text"), py::arg("seed") = 0, py::arg("full") = false,
      "(game name, variant dict, state, observer or None) from a position's JSON text "
      "(docs/position-format.md): the game and variant come from the position itself. A view's unknown cards are "
      "drawn with `seed`; `full` requires a full state (every card placed). Raises PositionError.");
}

}  // namespace bindings
