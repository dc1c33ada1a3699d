// Python bindings of the test-only game Nim (tests/toy/nim.hpp): the rules object and
// the state, as any game has them. Bound only so that the Python tests can prove the
// game seam (docs/adding-a-game.md); no tool of the package offers it.
#include "bindings/bind_state.hpp"
#include "bindings/registry.hpp"
#include "tests/toy/nim.hpp"

namespace bindings {

void bind_nim(py::module_& m) {
  using nim::Config;
  bind_rules(m, "NimRules", "Engine-side rules of the test-only game Nim.", field("stones", &Config::stones),
             field("max_take", &Config::max_take));
  bind_state<nim::Game>(m, "NimState", "nim");
}

}  // namespace bindings
