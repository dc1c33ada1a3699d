// Position JSON io (docs/position-format.md).
#include "duel/state.hpp"

namespace duel {

std::string State::to_json() const { throw core::InvalidInput("duel JSON: not implemented yet"); }
std::string State::observation_json(int) const { throw core::InvalidInput("duel JSON: not implemented yet"); }
State State::from_json(const Config&, std::string_view) { throw core::InvalidInput("duel JSON: not implemented yet"); }
State State::from_observation(const Config&, std::string_view, uint64_t) {
  throw core::InvalidInput("duel JSON: not implemented yet");
}

}  // namespace duel
