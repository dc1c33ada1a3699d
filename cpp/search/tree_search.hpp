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
//
// An iteration is a descent (descend: to a leaf, expanding it) and a backup (finish);
// between them the evaluator values the leaf. With a LeafHook (search/leaf_batch.hpp)
// several descents are held under a virtual loss and their leaves valued in one call.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/game.hpp"
#include "core/rng.hpp"
#include "core/types.hpp"
#include "search/choice.hpp"
#include "search/descent.hpp"
#include "search/evaluators.hpp"
#include "search/leaf_batch.hpp"
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
    if (priors) own_tree.enable_priors(sizeof(puct::NodePolicy<G>));  // before the first node, so the root has one too
    if (!shared_ && own_tree.size() == 0) own_tree.clear();
    // A reused root kept the proof of the move into it, for another seat maybe.
    if (!shared_ || shared_->size()) (shared_ ? *shared_ : own_tree)[0].flags = 0;
  }

  // Runs iterations until `budget` (0 = none) or the deadline or a stop request;
  // `checkpoint()` runs between iterations (where a snapshot may pause the thread).
  // The evaluator, the parallelism mode and analysis mode are chosen here, once per search.
  // `hook`: the leaves are valued by it, in batches (one thread only), else by the evaluator.
  template <class Clock, class Checkpoint>
  void run(const State& root, const SearchParams& p, int64_t budget, typename Clock::time_point deadline,
           bool timed, const std::atomic<bool>& stop, size_t memory_limit, Checkpoint&& checkpoint,
           const LeafHook* hook = nullptr) {
    if (hook) return run_held<Clock>(shared_ ? *shared_ : own_tree, root, p, *hook, budget, deadline, timed, stop,
                                     memory_limit, checkpoint);
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

  // ---- Leaves valued by a LeafHook, a batch at a time ------------------------------------

  // A batched search's priors: the policy the hook gave for a node when it was a leaf, in
  // the sample it was reached in (a network's are computed at every expansion instead).
  struct HookPriors {
    static constexpr bool kPriors = true;
    const TreeSearch& search;
    bool has_priors(uint32_t node) const { return node < search.known_.size() && search.known_[node]; }
    template <class>
    const float* policy(const State&, uint32_t node, float*) const {
      return &search.logits_[size_t{node} * G::kNumDistinctActions];
    }
  };
  struct NoPriors {};  // the hook gives no policy: UCB, as with the rollout evaluators

  LeafBatch batch_;
  std::vector<float> logits_;   // [node][action]: the hook's policy at the node, when known_
  std::vector<uint8_t> known_;

  void put_leaf(int i, const State& s) {
    constexpr size_t kObs = G::kObservationSize, kActions = G::kNumDistinctActions;
    const size_t row = static_cast<size_t>(i);
    s.observation_tensor(s.current_player(), &batch_.observations[row * kObs]);
    ActionBits<G> legal;
    legal_bits<G>(s, legal);
    for (size_t a = 0; a < kActions; ++a)
      batch_.legal[row * kActions + a] = static_cast<uint8_t>(bits::test(legal, static_cast<int>(a)));
  }

  // `first`: the root's call, which decides whether the hook gives a policy.
  void call_hook(const LeafHook& hook, int n, bool first) {
    batch_.size = n;
    batch_.values.assign(static_cast<size_t>(n) * static_cast<size_t>(batch_.players), 0.0f);
    batch_.logits.clear();
    const bool had_policy = batch_.has_policy;
    batch_.has_policy = false;
    hook.evaluate(batch_);
    if (!first && batch_.has_policy != had_policy)
      throw core::InvalidInput("evaluate_with returned policy logits for some batches and not others");
  }

  void remember_policy(uint32_t node, int i) {
    constexpr size_t kActions = G::kNumDistinctActions;
    if (known_.size() <= node) {
      known_.resize(size_t{node} + 1, 0);
      logits_.resize(known_.size() * kActions);
    }
    known_[node] = 1;
    std::copy_n(&batch_.logits[static_cast<size_t>(i) * kActions], kActions, &logits_[size_t{node} * kActions]);
  }

  template <class Clock, class Checkpoint>
  void run_held(Tree& tree, const State& root, const SearchParams& p, const LeafHook& hook, int64_t budget,
                typename Clock::time_point deadline, bool timed, const std::atomic<bool>& stop, size_t memory_limit,
                Checkpoint& checkpoint) {
    const size_t batch = static_cast<size_t>(hook.batch_size);
    batch_.players = root.num_players();
    batch_.observations.resize(batch * G::kObservationSize);
    batch_.legal.resize(batch * G::kNumDistinctActions);
    known_.clear();
    logits_.clear();
    // The root first: its policy gives the first priors, and says whether there is one.
    put_leaf(0, root);
    batch_.has_policy = false;
    call_hook(hook, 1, true);
    auto in_mode = [&]<bool kAnalysis, class Priors>(const Priors& priors) {
      loop_held<Clock, kAnalysis>(tree, root, p, hook, priors, budget, deadline, timed, stop, memory_limit, checkpoint);
    };
    auto with_priors = [&]<bool kAnalysis>() {
      if (batch_.has_policy) {
        remember_policy(0, 0);
        in_mode.template operator()<kAnalysis>(HookPriors{*this});
      } else {
        in_mode.template operator()<kAnalysis>(NoPriors{});
      }
    };
    if (p.analysis_moves > 0)
      with_priors.template operator()<true>();
    else
      with_priors.template operator()<false>();
  }

  template <class Clock, bool kAnalysis, class Priors, class Checkpoint>
  void loop_held(Tree& tree, const State& root, const SearchParams& p, const LeafHook& hook, const Priors& priors,
                 int64_t budget, typename Clock::time_point deadline, bool timed, const std::atomic<bool>& stop,
                 size_t memory_limit, Checkpoint& checkpoint) {
    std::vector<Descent> held(static_cast<size_t>(hook.batch_size), Descent(root));
    for (bool more = true; more;) {
      checkpoint();  // between batches, so a snapshot never sees a held descent's virtual loss
      int n = 0;  // descents held
      while (n < hook.batch_size) {
        const int64_t started = iterations + n;
        if ((budget != 0 && started >= budget) || stop.load(std::memory_order_relaxed) ||
            (timed && (started & 15) == 0 && started > 0 && Clock::now() >= deadline) ||
            solver::proof_of(HeldTree::flags(tree[0])) != solver::Proof::kUnknown) {
          more = false;
          break;
        }
        const bool can_grow = tree.bytes_if_grown() <= memory_limit;
        memory_full |= !can_grow;
        Descent& d = held[static_cast<size_t>(n)];
        d.s = root;
        descend<HeldTree, kAnalysis>(tree, p, priors, can_grow, memory_limit, d);
        if (d.needs_value) {
          while (d.s.is_chance()) core::apply_unhashed<G>(d.s, d.s.random_action(rng_));  // games with chance left in apply
          if (d.s.is_terminal()) {
            d.needs_value = false;
            d.s.returns(d.values);
          }
        }
        if (d.needs_value) {
          put_leaf(n++, d.s);
        } else {  // an end of the game: valued by the game, at once
          finish<HeldTree>(tree, root, d);
          ++iterations;
        }
      }
      if (n == 0) continue;
      call_hook(hook, n, false);
      for (int i = 0; i < n; ++i) {
        Descent& d = held[static_cast<size_t>(i)];
        const int players = batch_.players, seat = d.s.current_player();
        for (int k = 0; k < players; ++k)
          d.values[(seat + k) % players] = batch_.values[static_cast<size_t>(i * players + k)];
        if constexpr (kPuct<Priors>) remember_policy(d.path[d.depth - 1], i);
        finish<HeldTree>(tree, root, d);
      }
      iterations += n;
    }
  }

  // The evaluator gives PUCT priors (a network's policy, or the hook's).
  template <class Evaluator>
  static constexpr bool kPuct = requires { requires Evaluator::kPriors; };

  // One descent from the root (d.s holds it on entry) to the leaf it stops at, and that leaf's values.
  struct Descent {
    explicit Descent(const State& root) : s(root) {}
    State s;  // the root, then the sample as the descent plays it
    uint32_t path[kMaxPath];
    int n_legal[kMaxPath];  // at the exact nodes of the path, for the solver
    int depth = 0;
    int prove_from = -1;    // the solver's work after the backup: the deepest node to (re)prove
    bool needs_value = false;  // the leaf is not an end of the game already valued
    double values[G::kMaxPlayers];
  };

  template <class Access, bool kAnalysis, class Evaluator>
  void iterate(Tree& tree, const State& root, const SearchParams& p, const Evaluator& evaluator, bool can_grow,
               size_t memory_limit) {
    Descent d(root);
    descend<Access, kAnalysis>(tree, p, evaluator, can_grow, memory_limit, d);
    if (d.needs_value) evaluator.template evaluate<G>(d.s, rng_, d.values);
    finish<Access>(tree, root, d);
  }

  template <class Access>
  void finish(Tree& tree, const State& root, const Descent& d) {
    Access::backup(tree, d.path, d.depth, d.values);
    if (d.prove_from >= 0) solver::propagate<Access>(tree, d.path, d.prove_from, d.n_legal, root.num_players());
    for (int seat = 0; seat < root.num_players(); ++seat) seat_sum[seat] += d.values[seat];
    max_depth = std::max(max_depth, d.depth - 1);
  }

  template <class Access, bool kAnalysis, class Evaluator>
  void descend(Tree& tree, const SearchParams& p, const Evaluator& evaluator, bool can_grow, size_t memory_limit,
               Descent& d) {
    State& s = d.s;
    s.set_explicit_chance(false);  // first: a lazy sample needs reveals resolved by apply
    if (!p.perfect_information) {
      if constexpr (G::kHas.determinize_lazily)
        s.determinize_lazily(root_player_, rng_);
      else
        s.determinize(root_player_, rng_);
    }
    uint32_t* path = d.path;
    int* n_legal = d.n_legal;
    double* values = d.values;
    int& depth = d.depth;
    int& prove_from = d.prove_from;
    bool exact = p.solver;  // path[depth - 1] is exact (search/solver.hpp); no node is without the solver
    depth = 0;
    prove_from = -1;
    uint32_t node = 0;
    path[depth++] = 0;
    const float c = static_cast<float>(p.exploration);
    const float puct_c = static_cast<float>(p.puct);
    bool cache = false;  // the policy cache (search/puct.hpp): a network's policy() is a forward pass
    if constexpr (requires { requires Evaluator::kPolicyPass; }) cache = p.policy_cache;
    bool at_terminal = false;
    bool valued = false;    // values already hold the returns of the end reached
    Access::enter_root(tree);
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
      if constexpr (kPriors) {
        if (grow && !evaluator.has_priors(node)) break;  // a leaf still held for the hook: valued again here
        grow = grow && puct::expand_first<G, Access>(tree, node, scan, puct_c);
      }
      if (grow) {
        float prior = 0.0f;
        core::Action a;
        if constexpr (kPriors) {
          float scratch[G::kNumDistinctActions];
          auto logits = [&] { return evaluator.template policy<G>(s, node, scratch); };
          float next = 0.0f;
          if (cache)
            a = puct::choose_cached_or_run<G, Access>(tree, node, logits, legal, scan.seen, untried, memory_limit, prior, next);
          else
            a = puct::choose_untried<G>(logits(), legal, scan.seen, prior, next);
          puct::store(tree.prior(node).untried, next);
        } else {
          a = pick_untried<G>(legal, scan.seen, untried, rng_);
        }
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
    d.needs_value = !valued && !at_terminal;
    if (at_terminal && !valued) s.returns(values);
  }
};

}  // namespace search
