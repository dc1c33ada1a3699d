// One thread's iterations of information-set MCTS (SO-ISMCTS, Cowling, Powley &
// Whitehouse 2012) on its tree (root parallelism) or the shared one (tree parallelism).
//
// Each iteration copies the root, resamples everything the searching player cannot
// see (State::determinize, or determinize_lazily where a game draws hidden cards only
// when they are revealed), and descends a tree of that player's information sets
// (search/descent.hpp). Card reveals happen inside apply() from the resampled deck
// (explicit chance off), so chance is sampled, never peeked. The new leaf is valued by
// the evaluator (search/evaluators.hpp) and each node backs up the return of the seat
// that moved into it, so 3-4 player games are searched with each seat maximising its
// own result. With a network (SearchParams::network) the leaf is valued by its value
// head and the descent is PUCT with its policy as priors (search/puct.hpp); without one
// none of that is compiled into the search. Results that hold in every sample are proven (search/solver.hpp): the
// descent skips proven moves and the search ends once the root is proven.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "core/game.hpp"
#include "core/rng.hpp"
#include "core/types.hpp"
#include "search/choice.hpp"
#include "search/descent.hpp"
#include "search/evaluators.hpp"
#include "search/parallelism.hpp"
#include "search/params.hpp"
#include "search/puct.hpp"
#include "search/solver.hpp"
#include "search/tree.hpp"

namespace search {

template <class G>
class TreeSearch {
 public:
  using State = typename G::State;
  static_assert(core::check_game<G>());
  static_assert(G::kNumDistinctActions <= 32768, "Node::action is 16 bits");
  static_assert(G::kMaxPlayers <= 255, "Node::mover is 8 bits");
  static constexpr int kMaxPath = 512;  // deeper descents stop growing the tree

  Tree own_tree;               // unused by tree parallelism's threads 1..N-1
  int64_t iterations = 0;
  int max_depth = 0;
  bool memory_full = false;
  double seat_sum[G::kMaxPlayers] = {};

  // `shared`: the tree of tree parallelism, else nullptr (this thread's own tree).
  void begin(uint64_t seed, int root_player, Tree* shared, bool priors) {
    shared_ = shared;
    rng_ = core::Rng(seed);
    root_player_ = root_player;
    iterations = 0;
    max_depth = 0;
    memory_full = false;
    for (double& v : seat_sum) v = 0.0;
    if (priors) own_tree.enable_priors();  // before the first node, so the root has one too
    if (!shared_ && own_tree.size() == 0) own_tree.clear();
    // A reused root kept the proof of the move into it, for another seat maybe.
    if (!shared_ || shared_->size()) (shared_ ? *shared_ : own_tree)[0].flags = 0;
  }

  // Runs iterations until `budget` (0 = none) or the deadline or a stop request;
  // `checkpoint()` runs between iterations (where a snapshot may pause the thread).
  // The evaluator, the parallelism mode and analysis mode are chosen here, once per search.
  template <class Clock, class Checkpoint>
  void run(const State& root, const SearchParams& p, int64_t budget, typename Clock::time_point deadline,
           bool timed, const std::atomic<bool>& stop, size_t memory_limit, Checkpoint&& checkpoint) {
    with_evaluator<G>(p, [&](const auto& evaluator) {
      auto in_mode = [&]<bool kAnalysis>() {
        if (shared_)
          loop<Clock, SharedTree, kAnalysis>(*shared_, root, p, evaluator, budget, deadline, timed, stop, memory_limit,
                                             checkpoint);
        else
          loop<Clock, OwnTree, kAnalysis>(own_tree, root, p, evaluator, budget, deadline, timed, stop, memory_limit,
                                          checkpoint);
      };
      if (p.analysis_moves > 0)
        in_mode.template operator()<true>();
      else
        in_mode.template operator()<false>();  // the search for play: nothing of analysis mode compiled in
    });
  }

 private:
  core::Rng rng_;
  int root_player_ = 0;
  Tree* shared_ = nullptr;

  template <class Clock, class Access, bool kAnalysis, class Evaluator, class Checkpoint>
  void loop(Tree& tree, const State& root, const SearchParams& p, const Evaluator& evaluator, int64_t budget,
            typename Clock::time_point deadline, bool timed, const std::atomic<bool>& stop, size_t memory_limit,
            Checkpoint& checkpoint) {
    while ((budget == 0 || iterations < budget) && !stop.load(std::memory_order_relaxed)) {
      // The clock is read every 16 iterations: ~20 ns each, negligible at that rate. The
      // first iteration always runs, so even the shortest time gives a move to play.
      if (timed && (iterations & 15) == 0 && iterations > 0 && Clock::now() >= deadline) break;
      checkpoint();
      if (solver::proof_of(Access::flags(tree[0])) != solver::Proof::kUnknown) break;  // nothing left to learn
      const bool can_grow = tree.bytes_if_grown() <= memory_limit;
      memory_full |= !can_grow;
      iterate<Access, kAnalysis>(tree, root, p, evaluator, can_grow, memory_limit);
      ++iterations;
    }
  }

  // The evaluator carries a network whose policy gives PUCT priors.
  template <class Evaluator>
  static constexpr bool kPuct = requires(const Evaluator& e) { e.network(); };

  template <class Access, bool kAnalysis, class Evaluator>
  void iterate(Tree& tree, const State& root, const SearchParams& p, const Evaluator& evaluator, bool can_grow,
               size_t memory_limit) {
    State s = root;
    s.set_explicit_chance(false);  // first: a lazy sample needs reveals resolved by apply
    if (!p.perfect_information) {
      if constexpr (G::kHas.determinize_lazily)
        s.determinize_lazily(root_player_, rng_);
      else
        s.determinize(root_player_, rng_);
    }
    uint32_t path[kMaxPath];
    int n_legal[kMaxPath];  // at the exact nodes of the path, for the solver
    bool exact = p.solver;  // path[depth - 1] is exact (search/solver.hpp); no node is without the solver
    int depth = 0;
    uint32_t node = 0;
    path[depth++] = 0;
    double values[G::kMaxPlayers];
    const float c = static_cast<float>(p.exploration);
    const float puct_c = static_cast<float>(p.puct);
    bool at_terminal = false;
    bool valued = false;    // values already hold the returns of the end reached
    Access::enter_root(tree);
    int prove_from = -1;    // the solver's work after the backup: the deepest node to (re)prove
    // The move into path[depth - 1], from an exact node, ended the game: the same end in
    // every sample, so a sole winner's move is a proven win and a move that gets nothing a
    // proven loss (a shared win stays an estimate).
    auto prove_end = [&](uint32_t child) {
      valued = true;
      s.returns(values);
      const double v = values[tree[child].mover];
      if (v == 1.0 || v == 0.0) {
        Access::prove(tree[child], solver::encode(v == 1.0 ? solver::Proof::kWin : solver::Proof::kLoss, 1));
        prove_from = depth - 2;
      }
    };
    for (;;) {
      while (s.is_chance()) {  // games with chance left in apply
        exact = false;
        core::apply_unhashed<G>(s, s.random_action(rng_));
      }
      if (s.is_terminal()) {
        at_terminal = true;
        break;
      }
      ActionBits<G> legal;
      legal_bits<G>(s, legal);
      const int n = bits::count(legal);
      constexpr bool kPriors = kPuct<Evaluator>;
      using Scan = std::conditional_t<kPriors, puct::Scan<G>, ChildScan<G>>;
      Scan scan;
      if constexpr (kPriors)
        scan = exact ? puct::scan_children<G, Access, true>(tree, node, legal, puct_c)
                     : puct::scan_children<G, Access, false>(tree, node, legal, puct_c);
      else
        scan = exact ? scan_children<G, Access, true>(tree, node, legal, c)
                     : scan_children<G, Access, false>(tree, node, legal, c);
      const int untried = n - scan.n_seen;
      if (exact) n_legal[depth - 1] = n;
      bool grow = untried > 0 && can_grow && depth < kMaxPath;
      if constexpr (kPriors) grow = grow && puct::expand_first<G, Access>(tree, node, scan, puct_c);
      if (grow) {
        float prior = 0.0f;
        core::Action a;
        if constexpr (kPriors)
          a = puct::choose_untried<G>(tree, node, evaluator.network(), s, legal, scan.seen, prior);
        else
          a = pick_untried<G>(legal, scan.seen, untried, rng_);
        const int mover = s.current_player();
        const uint32_t child = Access::expand(tree, node, scan.head, a, mover, memory_limit);
        if (!child) {  // another thread took the last memory: evaluate from this node
          memory_full = true;
          break;
        }
        if constexpr (kPriors) puct::store(tree.prior(child).prior, prior);
        core::apply_unhashed<G>(s, a);
        path[depth++] = child;
        if (exact && s.is_terminal()) prove_end(child);
        break;
      }
      if constexpr (kAnalysis)  // the floor of the root moves shown (search/choice.hpp)
        if (depth == 1 && scan.best)
          if (const uint32_t starved = starved_root_child<Access>(tree, p.analysis_moves)) scan.best = starved;
      if (scan.best == 0 && exact && untried == 0) prove_from = depth - 1;  // every move here is proven
      if (scan.best == 0 || depth >= kMaxPath) break;  // cannot grow here: evaluate from this node
      Access::enter(tree[scan.best]);
      core::apply_unhashed<G>(s, tree[scan.best].action);
      node = scan.best;
      path[depth++] = scan.best;
      // A child made before its parent was exact (below the root of a reused tree) was
      // never proven when it was made: it is proven here, the first time it is chosen.
      if (exact && s.is_terminal()) {
        prove_end(node);
        break;
      }
      exact = exact && p.perfect_information;  // else the next node mixes samples that differ
    }
    if (!valued) {
      if (at_terminal)
        s.returns(values);
      else
        evaluator.template evaluate<G>(s, rng_, values);
    }
    Access::backup(tree, path, depth, values);
    if (prove_from >= 0) solver::propagate<Access>(tree, path, prove_from, n_legal, root.num_players());
    for (int seat = 0; seat < root.num_players(); ++seat) seat_sum[seat] += values[seat];
    max_depth = std::max(max_depth, depth - 1);
  }
};

}  // namespace search
