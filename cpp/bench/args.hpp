// Argument parsing for the bench drivers: a bad argument ends the program with status 2
// and a message naming it, never a silent default or an abort.
#pragma once
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>

namespace bench {

[[noreturn]] inline void fail(const char* program, const std::string& message) {
  std::fprintf(stderr, "%s: %s\n", program, message.c_str());
  std::exit(2);
}

// A whole number >= `min`.
inline long long whole(const char* program, const char* name, const char* text, long long min) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text, &end, 10);
  if (end == text || *end != '\0' || errno == ERANGE || v < min)
    fail(program, std::string(name) + " must be a whole number of at least " + std::to_string(min) + ", got '" + text + "'");
  return v;
}

// A number >= `min`.
inline double real(const char* program, const char* name, const char* text, double min) {
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(v >= min)) {
    char bound[32];
    std::snprintf(bound, sizeof bound, "%g", min);
    fail(program, std::string(name) + " must be a number of at least " + bound + ", got '" + text + "'");
  }
  return v;
}

// One of `options`.
inline std::string choice(const char* program, const char* name, const char* text, std::initializer_list<const char*> options) {
  std::string listed;
  for (const char* o : options) {
    if (std::strcmp(o, text) == 0) return text;
    listed += listed.empty() ? o : std::string(", ") + o;
  }
  fail(program, std::string(name) + " must be one of " + listed + ", got '" + text + "'");
}

}  // namespace bench
