// Information-set MCTS, written once for every game of docs/engine-interface.md: the
// search object a caller holds. It runs the threads, pauses them for snapshots and
// keeps the trees between searches for reuse. The parts live by concern:
//   params.hpp        SearchParams and their validation
//   tree.hpp          the node arena
//   parallelism.hpp   root and tree parallelism as two ways to access a tree
//   descent.hpp       UCB selection and expansion (ucb.hpp: the score's tables)
//   evaluators.hpp    the leaf evaluators and their registry
//   network.hpp       a policy-value network's weights and forward pass
//   puct.hpp          PUCT selection with the network's priors
//   tree_search.hpp   one thread's iterations
//   leaf_batch.hpp    leaves valued outside the search, a batch at a time
//   solver.hpp        proven results (MCTS-Solver)
//   probe.hpp         the solver's proof of a win within two turns at the root
//   choice.hpp        the best-move rule, analysis mode's floor, the 95% intervals
//   collect.hpp       the result (result.hpp) from the trees, principal variations
//   turns.hpp         the result per whole turn (asked for: `turns`)
//   reuse.hpp         keeping the subtree of the position reached
//
// Threads use root parallelism (one tree and one random stream per thread, root
// statistics merged by action) or tree parallelism (one shared tree, a virtual loss
// steering threads apart). With one thread and a seed the search is deterministic,
// and both modes give the same result.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/types.hpp"
#include "search/collect.hpp"
#include "search/evaluators.hpp"
#include "search/network.hpp"
#include "search/params.hpp"
#include "search/probe.hpp"
#include "search/result.hpp"
#include "search/reuse.hpp"
#include "search/seeds.hpp"
#include "search/tree.hpp"
#include "search/tree_search.hpp"
#include "search/turns.hpp"

namespace search {

// The search: owns one tree per thread, keeps them between calls for tree reuse.
template <class G>
class MCTS {
 public:
  using State = typename G::State;
  using Clock = std::chrono::steady_clock;

  explicit MCTS(const SearchParams& params) : params_(params) {
    params_.validate();
    if (!params_.network.empty()) params_.net = load_network(params_.network);
    check_evaluator<G>(params_);
    trees_.resize(static_cast<size_t>(params_.threads));
  }

  const SearchParams& params() const { return params_; }

  // Thread-safe: asks a running search to stop after its current iteration.
  void request_stop() { stop_.store(true, std::memory_order_relaxed); }

  // Thread-safe, for progress reports while search(root) runs in another thread:
  // pauses the search threads between iterations, reads the trees, resumes them.
  // Pausing does not change what the search does, so results stay deterministic.
  // Empty when no search is running. `turns`: also the whole turns (search/turns.hpp).
  std::optional<SearchResult> snapshot(const State& root, bool turns = false) {
    std::lock_guard<std::mutex> reading(collect_mu_);
    {
      std::unique_lock<std::mutex> lock(pause_mu_);
      if (!running_) return std::nullopt;
      pause_.store(true, std::memory_order_relaxed);
      pause_cv_.wait(lock, [&] { return paused_ == active_; });
    }
    SearchResult r = collect<G>(trees_, root, root.current_player(), params_, searches_);
    if (turns) add_turns(r, root);
    r.seconds = std::chrono::duration<double>(Clock::now() - started_).count();
    r.iterations_per_second = r.seconds > 0 ? static_cast<double>(r.iterations) / r.seconds : 0.0;
    r.reused_visits = reused_;
    {
      std::lock_guard<std::mutex> lock(pause_mu_);
      pause_.store(false, std::memory_order_relaxed);
    }
    pause_cv_.notify_all();
    return r;
  }

  // Forgets the trees (the next search starts fresh).
  void reset() {
    have_previous_ = false;
    for (auto& t : trees_)
      if (t.own_tree.size()) t.own_tree.clear();  // tree parallelism leaves trees 1..N-1 empty
  }

  // `turns`: the result also gives the whole turns of the player to move (people's
  // answers; a bot playing one decision at a time needs none).
  // `hook`: the leaves are valued by it a batch at a time (search/leaf_batch.hpp), one
  // thread, no network, no tree reuse; its exception ends the search.
  SearchResult search(const State& root, bool turns = false, const LeafHook* hook = nullptr) {
    if (hook) {
      if (params_.threads != 1) throw core::InvalidInput("evaluate_with searches with one thread: set threads=1");
      if (params_.net) throw core::InvalidInput("evaluate_with and network are two ways to value a leaf: give one");
      if (hook->batch_size < 1 || hook->batch_size > kMaxBatchSize)
        throw core::InvalidInput("batch_size must be 1.." + std::to_string(kMaxBatchSize) + ", got " +
                                 std::to_string(hook->batch_size));
    }
    if (root.is_terminal()) throw core::InvalidInput("cannot search a terminal state: the game is over");
    if (root.is_chance())
      throw core::InvalidInput("cannot search a chance node: apply a chance outcome first (the search needs a player to move)");
    if (params_.net) params_.net->check_players(root.num_players());
    const int player = root.current_player();
    const auto start = Clock::now();
    started_ = start;
    stop_.store(false, std::memory_order_relaxed);

    uint64_t reused = 0;
    std::vector<core::Action> line;
    const bool reusing = params_.reuse_tree && !hook && have_previous_ && previous_.current_player() == player &&
                       reuse::find_line<G>(trees_[0].own_tree, previous_, root, line);
    const bool shared = params_.parallelism == Parallelism::kTree;
    for (auto& t : trees_) {
      if (shared && &t != &trees_[0]) continue;  // tree parallelism: only tree 0 is searched
      if (reusing && reuse::follow(t.own_tree, line)) {
        reuse::prune_illegal_children(t.own_tree, root);
        reused += t.own_tree[0].visits;
      } else {
        t.own_tree.clear();
      }
    }

    const int n_threads = params_.threads;
    const bool timed = params_.time_limit > 0;
    const auto deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(params_.time_limit));
    const size_t memory_per_tree =
        static_cast<size_t>(params_.memory_limit) / static_cast<size_t>(shared ? 1 : n_threads);
    for (int t = 0; t < n_threads; ++t)
      trees_[t].begin(thread_seed(params_.seed, searches_, t), player, shared ? &trees_[0].own_tree : nullptr,
                      params_.net != nullptr || hook != nullptr);
    if (shared) trees_[0].own_tree.reserve_for(memory_per_tree);  // after begin: with the priors' chunks counted
    const probe::Found probed = probe::prove_win<G>(root, params_, start);
    const double probe_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (probed.move >= 0) prove_root(probed, player);  // the threads then stop at once
    reused_ = reused;
    {
      std::lock_guard<std::mutex> lock(pause_mu_);
      active_ = n_threads;
      paused_ = 0;
      running_ = true;
    }
    struct EndRun {  // running_ turns false before anything else reads or changes the trees
      MCTS& m;
      void operator()() {
        std::lock_guard<std::mutex> reading(m.collect_mu_);  // waits for a snapshot in progress
        std::lock_guard<std::mutex> lock(m.pause_mu_);
        m.running_ = false;
      }
      ~EndRun() {
        if (m.running_) (*this)();
      }
    } end_run{*this};
    auto checkpoint = [this] {
      if (!pause_.load(std::memory_order_relaxed)) return;
      std::unique_lock<std::mutex> lock(pause_mu_);
      ++paused_;
      pause_cv_.notify_all();
      pause_cv_.wait(lock, [&] { return !pause_.load(std::memory_order_relaxed); });
      --paused_;
    };
    auto work = [&](int t) {
      struct Finish {  // a finished thread no longer touches its tree: snapshots need not wait for it
        MCTS& m;
        ~Finish() {
          std::lock_guard<std::mutex> lock(m.pause_mu_);
          --m.active_;
          m.pause_cv_.notify_all();
        }
      } finish{*this};
      int64_t budget = 0;
      if (params_.iterations > 0) {
        budget = params_.iterations / n_threads + (t < params_.iterations % n_threads ? 1 : 0);
        if (budget == 0) return;
      }
      trees_[t].template run<Clock>(root, params_, budget, deadline, timed, stop_, memory_per_tree, checkpoint, hook);
    };
    if (n_threads == 1) {
      work(0);
    } else {
      std::vector<std::thread> pool;
      std::exception_ptr error;
      std::atomic<bool> failed{false};
      for (int t = 1; t < n_threads; ++t)
        pool.emplace_back([&, t] {
          try {
            work(t);
          } catch (...) {
            if (!failed.exchange(true)) error = std::current_exception();
            request_stop();
          }
        });
      try {
        work(0);
      } catch (...) {
        request_stop();
        for (auto& th : pool) th.join();
        throw;
      }
      for (auto& th : pool) th.join();
      if (error) std::rethrow_exception(error);
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    end_run();

    SearchResult r = collect<G>(trees_, root, player, params_, searches_);
    if (turns) add_turns(r, root);
    r.interrupted = stop_.load(std::memory_order_relaxed);
    r.seconds = seconds;
    r.iterations_per_second = seconds > 0 ? static_cast<double>(r.iterations) / seconds : 0.0;
    r.reused_visits = reused;
    r.probe_nodes = probed.nodes;
    r.probe_seconds = probed.nodes ? probe_seconds : 0.0;
    previous_ = root;
    have_previous_ = true;
    ++searches_;
    return r;
  }

 private:
  // The probe's win: its first move proven won (a node of tree 0, with no visits if the
  // tree had none) and every tree's root proven, so no iteration runs.
  void prove_root(const probe::Found& won, int player) {
    const uint8_t code = solver::encode(solver::Proof::kWin, won.turns);
    Tree& tree = trees_[0].own_tree;
    uint32_t child = tree[0].first_child;
    while (child && tree[child].action != won.move) child = tree[child].next_sibling;
    if (!child) child = tree.add_child(0, won.move, player);
    tree[child].flags = proven_first(tree[child].flags, code);
    for (auto& t : trees_)
      if (t.own_tree.size()) t.own_tree[0].flags = code;
  }

  void add_turns(SearchResult& r, const State& root) const {
    r.turns = collect_turns<G>(trees_, root, r.player, params_, r.search_index, r.best_action);
    r.has_turns = true;
  }

  SearchParams params_;
  std::vector<TreeSearch<G>> trees_;
  std::atomic<bool> stop_{false};
  State previous_{};
  bool have_previous_ = false;
  uint64_t searches_ = 0;
  // Snapshots: search threads park between iterations while pause_ is set.
  std::mutex collect_mu_;  // one reader of the trees at a time; held while running_ turns false
  std::mutex pause_mu_;
  std::condition_variable pause_cv_;
  std::atomic<bool> pause_{false};
  int active_ = 0;   // search threads still iterating
  int paused_ = 0;   // search threads parked
  bool running_ = false;
  Clock::time_point started_{};
  uint64_t reused_ = 0;
};

}  // namespace search
