// Collecting the problems of a position instead of stopping at the first: the readers
// of both games (docs/position-format.md) report every independent problem at once.
#pragma once
#include <string>
#include <vector>

#include "core/types.hpp"

namespace core {

class ProblemCollector {
 protected:
  // Runs one independent read or check, recording its problem instead of stopping.
  template <typename F>
  void attempt(F&& step) {
    try {
      step();
    } catch (const InvalidInput& e) {
      errors_.emplace_back(e.what());
    }
  }
  // Throws all recorded problems as one InvalidInput, one per line.
  void throw_if_errors() const {
    if (errors_.empty()) return;
    std::string message;
    for (const std::string& e : errors_) message += (message.empty() ? "" : "\n") + e;
    throw InvalidInput(message);
  }

 private:
  std::vector<std::string> errors_;
};

}  // namespace core
