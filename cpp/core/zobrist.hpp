// Zobrist keys: fixed pseudo-random words derived from a constant seed, so hashes
// are stable across runs, builds and machines.
#pragma once
#include <cstdint>

#include "core/rng.hpp"

namespace core {

// The i-th key of a named table; distinct tables use distinct salts.
constexpr uint64_t zobrist_key(uint64_t table_salt, uint64_t index) {
  uint64_t x = table_salt * 0x9e3779b97f4a7c15ULL + index + 1;
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Hash of a whole 64-bit word (e.g. a packed token count vector). Changing the word
// from a to b updates a hash by ^= mix(a) ^ mix(b): constant time whatever changed.
inline uint64_t word_key(uint64_t salt, uint64_t word) { return zobrist_key(salt, word); }

}  // namespace core
