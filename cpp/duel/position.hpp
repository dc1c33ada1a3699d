// Splendor Duel positions as JSON (docs/position-format.md). State::to_json,
// observation_json, from_json and from_observation are declared with the State.
#pragma once
#include <cstdint>

#include "core/json.hpp"
#include "core/position.hpp"
#include "duel/state.hpp"

namespace duel {

// The "variant" object of a position.
core::json::Ordered variant_json(const Config& config);

// A position (full state or a player's view) whose variant comes from its own
// "variant"; unknown cards are drawn with `seed`;
// `full` requires a full state, as from_json does. Throws core::PathError or
// core::InvalidPosition.
core::Position<State, Config> read_position(const core::json::Value& doc, uint64_t seed, bool full = false);

}  // namespace duel
