// Collecting the problems of a position instead of stopping at the first: the readers
// of both games (docs/position-format.md) report every independent problem at once.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "core/json.hpp"
#include "core/types.hpp"

namespace core {

// Every problem of an input, each with its JSON path; what() has one line per
// problem, "path: message".
class InvalidPosition : public InvalidInput {
 public:
  explicit InvalidPosition(std::vector<Problem> problems)
      : InvalidInput(text_of(problems)), problems_(std::move(problems)) {}
  const std::vector<Problem>& problems() const { return problems_; }

 private:
  std::vector<Problem> problems_;
  static std::string text_of(const std::vector<Problem>& problems) {
    std::string text;
    for (const Problem& p : problems) {
      if (!text.empty()) text += '\n';
      text += p.text();  // appended, not "\n" + text: GCC 12 at -flto warns (-Wstringop-overflow) on that
    }
    return text;
  }
};

class ProblemCollector {
 protected:
  // Runs one independent read or check, recording its problems instead of stopping.
  template <typename F>
  void attempt(F&& step) {
    try {
      step();
    } catch (const InvalidPosition& e) {
      problems_.insert(problems_.end(), e.problems().begin(), e.problems().end());
    } catch (const PathError& e) {
      problems_.push_back(e.problem());
    } catch (const InvalidInput& e) {
      problems_.push_back({"", e.what()});
    }
  }
  // Throws all recorded problems as one InvalidPosition.
  void throw_if_errors() const {
    if (!problems_.empty()) throw InvalidPosition(problems_);
  }

 private:
  std::vector<Problem> problems_;
};

}  // namespace core
