// The games of the Python module, each registered once in BoundGames: its declaration
// (struct Game), the function binding its rules and state (bind_<game>.cpp), and its
// position reader. module.cpp binds each game, bind_search.cpp gives each a searcher
// class and agents, bind_position.cpp reads each game's positions.
#pragma once
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include "bindings/registry.hpp"
#include "core/json.hpp"
#include "duel/game.hpp"
#include "duel/position.hpp"
#include "splendor/game.hpp"
#include "splendor/position.hpp"

namespace bindings {

template <class G, void (*Bind)(pybind11::module_&), auto ReadPosition, auto VariantJson>
struct BoundGame {
  using Game = G;
  static void bind(pybind11::module_& m) { Bind(m); }
  // A position of this game whose variant it gives (docs/position-format.md).
  static auto read_position(const core::json::Value& doc, uint64_t seed, bool full) {
    return ReadPosition(doc, seed, full);
  }
  static core::json::Ordered variant_json(const typename G::Config& config) { return VariantJson(config); }
};

template <class... Bound>
struct GameList {
  // f.template operator()<B>() for each BoundGame B, in order.
  template <class F>
  static void for_each(F&& f) {
    (f.template operator()<Bound>(), ...);
  }
};

using BoundGames = GameList<BoundGame<splendor::Game, bind_splendor, &splendor::read_position, &splendor::variant_json>,
                            BoundGame<duel::Game, bind_duel, &duel::read_position, &duel::variant_json>>;

// The prefix of a game's Python classes: "Splendor" for "splendor".
inline std::string class_prefix(const char* name) {
  std::string prefix = name;
  if (!prefix.empty() && prefix[0] >= 'a' && prefix[0] <= 'z') prefix[0] = static_cast<char>(prefix[0] - 'a' + 'A');
  return prefix;
}

}  // namespace bindings
