// The registry's names for SearchParams::validate (declared in search/params.hpp, so
// that header needs none of the evaluators).
#include "search/evaluators.hpp"

namespace search {

bool is_evaluator(std::string_view name) {
  bool known = false;
  for_each_evaluator([&](const char* n, const char*) { known |= name == n; });
  return known;
}

std::string evaluator_names() {
  std::string out;
  for_each_evaluator([&](const char* n, const char*) { out += (out.empty() ? "" : ", ") + std::string(n); });
  return out;
}

}  // namespace search
