// Vocabulary shared by both games and the search.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace core {

using Action = int32_t;

// Same values as OpenSpiel so code written against it reads the same.
inline constexpr int kChancePlayer = -1;
inline constexpr int kTerminalPlayer = -4;

// Raised for any bad input reaching the engine (illegal action, inconsistent
// position, bad variant); the bindings turn it into Python's ValueError.
struct InvalidInput : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// Fixed-capacity list: move lists and chance outcome lists live on the stack.
template <typename T, int Capacity>
struct FixedList {
  T items[Capacity];
  int count = 0;

  void push(T v) { items[count++] = v; }
  void clear() { count = 0; }
  int size() const { return count; }
  bool empty() const { return count == 0; }
  T operator[](int i) const { return items[i]; }
  T& operator[](int i) { return items[i]; }
  const T* begin() const { return items; }
  const T* end() const { return items + count; }
  bool contains(T v) const {
    for (int i = 0; i < count; ++i)
      if (items[i] == v) return true;
    return false;
  }
};

struct ChanceOutcome {
  Action action;
  double probability;
};

}  // namespace core
