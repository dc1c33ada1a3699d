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

#include "bindings/bind_position.hpp"
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
      [](std::string_view text, uint64_t seed, bool full, const py::dict& readers) -> py::tuple {
        const core::json::Value doc = core::json::parse(text);
        const core::json::Cursor root(doc);
        const std::string game = core::game_of(root);
        std::optional<py::tuple> read;
        std::set<std::string> known;
        BoundGames::for_each([&]<class B>() {
          known.insert(B::Game::kName);
          if (!read && game == B::Game::kName) read = position_tuple(game, B::read_position(doc, seed, full), B::variant_json);
        });
        if (read) return *read;
        // A game bound in another module (GameEntry.engine): its own reader reads it.
        for (const auto& [name, reader] : readers) known.insert(py::str(name).cast<std::string>());
        if (readers.contains(game)) return readers[py::str(game)](py::str(text.data(), text.size()), seed, full).cast<py::tuple>();
        std::string names;
        for (const std::string& name : known) names += (names.empty() ? "" : ", ") + name;
        root["game"].fail("unknown game '" + game + "'; known games: " + names);
      },
      py::arg("text"), py::arg("seed") = 0, py::arg("full") = false, py::arg("readers") = py::dict(),
      "(game name, variant dict, state, observer or None) from a position's JSON text "
      "(docs/position-format.md): the game and variant come from the position itself. A view's unknown cards are "
      "drawn with `seed`; `full` requires a full state (every card placed). `readers` maps the name of a game bound "
      "in another module to its read_position(text, seed, full). Raises PositionError.");
}

}  // namespace bindings
