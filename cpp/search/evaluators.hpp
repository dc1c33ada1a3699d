// The leaf evaluator seam (as OpenSpiel's Evaluator): how the search values a leaf it
// has just reached, as values[seat] for every seat. An evaluator is a class with
//   static constexpr const char* kName;            // its name in SearchParams::evaluator
//   static constexpr const char* kHelp;            // one line for users
//   template <class G> static constexpr bool kSupports;  // the game capabilities it needs
//   explicit E(const SearchParams&);               // built once per search and thread
//   template <class G> void evaluate(typename G::State& leaf, core::Rng&, double* values) const;
// and one line in the registry (Evaluators, below). The search picks the evaluator once
// per search and is instantiated for it, so the call per leaf is direct and inlined.
#pragma once
#include <algorithm>
#include <concepts>
#include <string>
#include <string_view>

#include "core/game.hpp"
#include "core/rng.hpp"
#include "core/types.hpp"
#include "search/network.hpp"
#include "search/params.hpp"
#include "search/puct.hpp"

namespace search {

template <class E, class G>
concept LeafEvaluator = std::constructible_from<E, const SearchParams&> &&
                        requires(const E e, typename G::State& leaf, core::Rng& rng, double* values) {
                          { E::kName } -> std::convertible_to<std::string_view>;
                          { E::kHelp } -> std::convertible_to<std::string_view>;
                          e.template evaluate<G>(leaf, rng, values);
                        };

// The cut-off evaluation: the returns at the end of the game, else State::evaluate per
// seat (a game without evaluate counts an unfinished game as a draw). Every rollout
// ends with it.
struct CutoffEvaluation {
  static constexpr const char* kName = "evaluate";
  static constexpr const char* kHelp = "State::evaluate at the new leaf, no rollout";
  template <class G>
  static constexpr bool kSupports = G::kHas.evaluate;
  explicit CutoffEvaluation(const SearchParams&) {}

  template <class G>
  static void value(const typename G::State& s, double* values) {
    if (s.is_terminal()) {
      s.returns(values);
    } else if constexpr (G::kHas.evaluate) {
      for (int seat = 0; seat < s.num_players(); ++seat) values[seat] = s.evaluate(seat);
    } else {
      for (int seat = 0; seat < s.num_players(); ++seat) values[seat] = 1.0 / s.num_players();
    }
  }
  template <class G>
  void evaluate(typename G::State& leaf, core::Rng&, double* values) const {
    value<G>(leaf, values);
  }
};

// Rollouts play to the end of the game, or `rollout_cutoff` plies and then the cut-off
// evaluation. They always end: kMaxRolloutPlies caps a game that would not.
inline constexpr int kMaxRolloutPlies = 4000;
inline int rollout_plies(const SearchParams& p) {
  return p.rollout_cutoff > 0 ? std::min(p.rollout_cutoff, kMaxRolloutPlies) : kMaxRolloutPlies;
}

// Uniformly random moves (the game's own unhashed loop where it has one).
struct RandomRollout {
  static constexpr const char* kName = "random";
  static constexpr const char* kHelp = "uniformly random moves to the end (or rollout_cutoff plies, then evaluate)";
  template <class G>
  static constexpr bool kSupports = true;
  int max_plies;
  explicit RandomRollout(const SearchParams& p) : max_plies(rollout_plies(p)) {}

  template <class G>
  void evaluate(typename G::State& s, core::Rng& rng, double* values) const {
    if constexpr (G::kHas.play_random) {
      s.play_random(rng, max_plies);
    } else {
      for (int ply = 0; ply < max_plies && !s.is_terminal(); ++ply) core::apply_unhashed<G>(s, s.random_action(rng));
    }
    CutoffEvaluation::value<G>(s, values);
  }
};

// The game's fast rollout policy (State::heuristic_action).
struct HeuristicRollout {
  static constexpr const char* kName = "heuristic";
  static constexpr const char* kHelp = "heuristic_action moves to the end (or rollout_cutoff plies, then evaluate)";
  template <class G>
  static constexpr bool kSupports = G::kHas.heuristic_action;
  int max_plies;
  explicit HeuristicRollout(const SearchParams& p) : max_plies(rollout_plies(p)) {}

  template <class G>
  void evaluate(typename G::State& s, core::Rng& rng, double* values) const {
    for (int ply = 0; ply < max_plies && !s.is_terminal(); ++ply) core::apply_unhashed<G>(s, s.heuristic_action(rng));
    CutoffEvaluation::value<G>(s, values);
  }
};

// A network's value at the leaf (search/network.hpp), alone (value_mix 1: the base
// evaluator never runs), mixed with the base evaluator's, or not at all (value_mix 0: the
// network gives priors only, and its value head never runs): the search wraps whichever
// evaluator is named in this when SearchParams::network is given. Its policy head gives
// the PUCT priors (search/puct.hpp), which the search reads through policy().
template <class Base>
struct NetworkValue {
  static constexpr const char* kName = Base::kName;
  static constexpr const char* kHelp = Base::kHelp;
  template <class G>
  static constexpr bool kSupports = Base::template kSupports<G>;
  std::shared_ptr<const Network> net;
  Base base;
  double mix;
  explicit NetworkValue(const SearchParams& p)
      : net(p.net ? p.net : load_network(p.network)), base(p), mix(p.value_mix) {}
  static constexpr bool kPriors = true;  // the descent is PUCT with policy():
  // the policy logits at `s`, the sample in which `node` is expanded, in `scratch`.
  template <class G>
  const float* policy(const typename G::State& s, uint32_t /*node*/, float* scratch) const {
    puct::policy_logits<G>(*net, s, scratch);
    return scratch;
  }
  static bool has_priors(uint32_t) { return true; }
  static constexpr bool kPolicyPass = true;  // policy() runs the network: SearchParams::policy_cache keeps it

  // Win shares per seat from the value head, for a state with a player to move.
  template <class G>
  void network_value(const typename G::State& s, double* values) const {
    const int to_move = s.current_player();
    float observation[G::kObservationSize];
    s.observation_tensor(to_move, observation);
    float logits[Network::kMaxValueSize];
    net->forward(observation, s.num_players(), nullptr, logits);
    Network::value_shares(logits, s.num_players(), to_move, values);
  }

  template <class G>
  void evaluate(typename G::State& s, core::Rng& rng, double* values) const {
    while (s.is_chance()) core::apply_unhashed<G>(s, s.random_action(rng));  // games with chance left in apply
    if (s.is_terminal()) return s.returns(values);
    if (mix >= 1.0) return network_value<G>(s, values);
    if (mix <= 0.0) return base.template evaluate<G>(s, rng, values);  // priors only: no value pass
    double from_net[G::kMaxPlayers];
    network_value<G>(s, from_net);
    base.template evaluate<G>(s, rng, values);
    for (int seat = 0; seat < s.num_players(); ++seat) values[seat] = mix * from_net[seat] + (1.0 - mix) * values[seat];
  }
};

// ---- The registry: one line per evaluator ----------------------------------------------

template <class... E>
struct EvaluatorList {};
using Evaluators = EvaluatorList<RandomRollout, HeuristicRollout, CutoffEvaluation>;

// f(name, help) for each registered evaluator, in registration order.
template <class F>
void for_each_evaluator(F&& f) {
  [&]<class... E>(EvaluatorList<E...>) { (f(E::kName, E::kHelp), ...); }(Evaluators{});
}

namespace detail {
template <class G, class E, class F>
void call_with(const SearchParams& p, F& f) {
  if constexpr (E::template kSupports<G>) {
    static_assert(LeafEvaluator<E, G>, "an evaluator must have the members listed at the top of this file");
    if (p.network.empty())
      f(E(p));
    else
      f(NetworkValue<E>(p));
  } else {
    throw core::InvalidInput(std::string("evaluator '") + E::kName + "' needs a capability the game " + G::kName +
                             " lacks (" + E::kHelp + ")");
  }
}
}  // namespace detail

// Calls f(evaluator) with the evaluator `p.evaluator` names, built from `p`; f is
// instantiated once per registered evaluator. InvalidInput for an unknown name, or one
// that needs a capability the game lacks.
template <class G, class F>
void with_evaluator(const SearchParams& p, F&& f) {
  const bool found = [&]<class... E>(EvaluatorList<E...>) {
    return ((p.evaluator == E::kName && (detail::call_with<G, E>(p, f), true)) || ...);
  }(Evaluators{});
  if (!found) throw core::InvalidInput("unknown evaluator '" + p.evaluator + "' (SearchParams::validate names them)");
}

// The game-specific checks of an evaluator setting (the game-free ones are in
// SearchParams::validate): the evaluator supports the game and a cut-off has a value.
template <class G>
void check_evaluator(const SearchParams& p) {
  with_evaluator<G>(p, [](const auto&) {});
  if (!p.network.empty()) load_network(p.network)->check_game(G::kName, G::kObservationSize, G::kNumDistinctActions);
  if (p.rollout_cutoff > 0 && !G::kHas.evaluate)
    throw core::InvalidInput(std::string("rollout_cutoff needs State::evaluate, which the game ") + G::kName + " lacks");
}

}  // namespace search
