// libFuzzer entry points shared by both games (built with -DSPLENDOR_MCTS_FUZZ=ON, run by
// .ci/run): the position reader and the notation parser may refuse any input with
// core::InvalidInput, and nothing else; a position they accept must pass the invariant
// checks (the game's State::invariant_problems and the decision checks), write itself back to an equal state, and stay so after each legal action.
// Any other exception escapes and aborts, which libFuzzer reports as a crash.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <string_view>

#include "core/invariants.hpp"
#include "core/json.hpp"
#include "core/types.hpp"

namespace fuzz {

inline void require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
  std::abort();
}

// `s` consistent and equal once written and read; at depth 1 also every state one legal
// action away, read back for a spread of them (JSON under ASan is slow; the Python
// test tests/test_position_consistency.py reads back after every action).
template <class G>
void check_accepted(const typename G::State& s, int depth) {
  using State = typename G::State;
  auto expect = [](bool ok, const char* what) { require(ok, what); };
  typename G::ActionList legal;
  core::check_invariants(s, expect);  // the readers' own last check, named here if it ever lets one by
  if (!s.is_terminal()) core::check_decision(s, legal, expect);
  const State back = State::from_json(s.config(), s.to_json());  // throws (aborts) if unreadable
  require(back == s, "an accepted position reads back equal");
  if (depth == 0) return;
  for (int seat = 0; seat < s.num_players(); ++seat) (void)State::from_observation(s.config(), s.observation_json(seat), 1);
  const int stride = legal.size() / 6 + 1;
  for (int i = 0; i < legal.size(); ++i) {
    State next = s;
    next.apply(legal[i]);
    if (i % stride == 0 || next.is_terminal()) {
      check_accepted<G>(next, 0);
    } else if (!next.is_terminal()) {
      typename G::ActionList after;
      core::check_invariants(next, expect);
      core::check_decision(next, after, expect);
    }
  }
}

// The position reader: a document with its own variant, as a full state and as a view.
template <class G, typename ReadPosition>
int position(const uint8_t* data, size_t size, ReadPosition&& read_position) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  core::json::Value doc;
  try {
    doc = core::json::parse(text);
  } catch (const core::InvalidInput&) {
    return 0;
  }
  for (const bool full : {true, false}) {
    try {
      const auto position = read_position(doc, 7, full);
      check_accepted<G>(position.state, 1);
    } catch (const core::InvalidInput&) {
    }
  }
  return 0;
}

// The notation parser on a few positions: refuses with InvalidInput, or gives an action
// id in range (legality is the caller's check) whose text parses back to it.
template <class G>
int notation(const uint8_t* data, size_t size) {
  using State = typename G::State;
  static const State states[] = {State::initial(typename G::Config{}, 1, false), State::initial(typename G::Config{}, 2, true),
                                 [] {
                                   State s = State::initial(typename G::Config{}, 3, false);
                                   core::Rng rng(3);
                                   for (int i = 0; i < 25 && !s.is_terminal(); ++i) s.apply(s.random_action(rng));
                                   return s;
                                 }()};
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const State& s : states) {
    try {
      const core::Action a = s.string_to_action(text);
      require(a >= 0 && a < G::kNumDistinctActions, "a parsed action is in range");
      require(s.string_to_action(s.action_to_string(a)) == a, "a parsed action's text parses back to it");
    } catch (const core::InvalidInput&) {
    }
  }
  return 0;
}

}  // namespace fuzz
