// Information-set Monte Carlo tree search (SO-ISMCTS, Cowling, Powley & Whitehouse
// 2012), written once for every game of docs/engine-interface.md.
//
// Each iteration copies the root, resamples everything the searching player cannot
// see (State::determinize, or determinize_lazily where a game draws hidden cards only
// when they are revealed), and descends a tree of that player's information sets:
// at a node only the children legal in this sample compete, and UCB uses each
// child's availability count (how often it was legal when its parent was selected
// from) in place of the parent's visits. Card reveals happen inside apply() from the
// resampled deck (explicit chance off), so chance is sampled, never peeked.
// Each node backs up the return of the seat that moved into it, so 3-4 player games
// are searched with each seat maximising its own result.
//
// Threads use root parallelism (one tree and one random stream per thread, root
// statistics merged by action) or tree parallelism (one shared tree, statistics
// updated with relaxed atomics, a virtual loss: each node on the way down counts its
// visit at once and receives the return at backup, so a pending descent looks like a
// loss to the other threads and steers them elsewhere). With one thread and a seed
// the search is deterministic, and both modes give the same result.
#pragma once
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "core/bits.hpp"
#include "core/rng.hpp"
#include "core/types.hpp"
#include "search/params.hpp"
#include "search/result.hpp"
#include "search/tree.hpp"

namespace search {

namespace detail {

// sqrt(ln(n)) and 1/sqrt(n) for the counts UCB reads, one per candidate child: table
// loads instead of a log, a square root and a division.
struct UcbTables {
  static constexpr int kBits = 12;
  static constexpr uint32_t kSize = 1u << kBits;
  float sqrt_ln[kSize];
  float ln[kSize];
  float inv_sqrt[kSize];
  UcbTables() {
    for (uint32_t i = 0; i < kSize; ++i) {
      ln[i] = i ? std::log(static_cast<float>(i)) : 0.0f;
      sqrt_ln[i] = std::sqrt(ln[i]);
      inv_sqrt[i] = i ? 1.0f / std::sqrt(static_cast<float>(i)) : 0.0f;
    }
  }
};
inline const UcbTables kUcb;

// sqrt(ln(n)); beyond the table from n's leading 12 bits and its power of two (n is
// rounded down by less than 2^-11 of itself: ln(n) is off by less than 5e-4).
inline float sqrt_ln(uint32_t n) {
  if (n < UcbTables::kSize) return kUcb.sqrt_ln[n];
  const int shift = std::bit_width(n) - UcbTables::kBits;
  return std::sqrt(kUcb.ln[n >> shift] + static_cast<float>(shift) * 0.69314718f);
}

// c * sqrt(ln(avail) / visits), visits >= 1.
inline float exploration_term(float c, uint32_t avail, uint32_t visits) {
  const float is = visits < UcbTables::kSize ? kUcb.inv_sqrt[visits] : 1.0f / std::sqrt(static_cast<float>(visits));
  return c * sqrt_ln(avail) * is;
}

// Lower bound of the Wilson score interval (95%) for a mean of returns in [0, 1].
inline double wilson_lower(double mean, double n) {
  if (n <= 0) return 0.0;
  constexpr double z = 1.96;
  const double z2n = z * z / n;
  const double centre = mean + z2n / 2;
  const double spread = z * std::sqrt(std::max(mean * (1 - mean), 0.0) / n + z2n / (4 * n));
  return std::clamp((centre - spread) / (1 + z2n), 0.0, mean);  // rounding can leave it a hair above
}

// The search never reads a hash: games that can skip its incremental update do.
template <class State>
inline void play(State& s, core::Action a) {
  if constexpr (requires { s.apply_unhashed(a); })
    s.apply_unhashed(a);
  else
    s.apply(a);
}

inline uint64_t thread_seed(uint64_t seed, uint64_t search_index, int thread) {
  return core::splitmix64(core::splitmix64(seed ^ (search_index * 0x9e3779b97f4a7c15ULL)) + static_cast<uint64_t>(thread));
}

}  // namespace detail

// One tree searched by one thread.
template <class G>
class TreeSearch {
 public:
  using State = typename G::State;
  using ActionList = typename G::ActionList;
  static constexpr int kWords = (G::kNumDistinctActions + 63) / 64;
  static_assert(G::kNumDistinctActions <= 32768, "Node::action is 16 bits");
  static_assert(G::kMaxPlayers <= 255, "Node::mover is 8 bits");
  static constexpr int kMaxPath = 512;            // deeper descents stop growing the tree
  static constexpr int kMaxRolloutPlies = 4000;   // rollouts always end: evaluate() beyond this

  Tree own_tree;               // unused by tree parallelism's threads 1..N-1
  int64_t iterations = 0;
  int max_depth = 0;
  bool memory_full = false;
  double seat_sum[G::kMaxPlayers] = {};

  // `shared`: the tree of tree parallelism, else nullptr (this thread's own tree).
  void begin(uint64_t seed, int root_player, Tree* shared) {
    shared_ = shared;
    rng_ = core::Rng(seed);
    root_player_ = root_player;
    iterations = 0;
    max_depth = 0;
    memory_full = false;
    for (double& v : seat_sum) v = 0.0;
    if (!shared_ && own_tree.size() == 0) own_tree.clear();
  }

  // Runs iterations until `budget` (0 = none) or the deadline or a stop request;
  // `checkpoint()` runs between iterations (where a snapshot may pause the thread).
  template <class Clock, class Checkpoint>
  void run(const State& root, const SearchParams& p, int64_t budget, typename Clock::time_point deadline,
           bool timed, const std::atomic<bool>& stop, size_t memory_limit, Checkpoint&& checkpoint) {
    while ((budget == 0 || iterations < budget) && !stop.load(std::memory_order_relaxed)) {
      // The clock is read every 16 iterations: ~20 ns each, negligible at that rate.
      if (timed && (iterations & 15) == 0 && Clock::now() >= deadline) break;
      checkpoint();
      Tree& t = shared_ ? *shared_ : own_tree;
      const bool can_grow = t.bytes_if_grown() <= memory_limit;
      memory_full |= !can_grow;
      if (shared_)
        iterate<true>(t, root, p, can_grow, memory_limit);
      else
        iterate<false>(t, root, p, can_grow, memory_limit);
      ++iterations;
    }
  }

 private:
  core::Rng rng_;
  int root_player_ = 0;
  Tree* shared_ = nullptr;

  using ActionBits = std::array<uint64_t, kWords>;
  static bool test(const ActionBits& bits, int a) { return (bits[a >> 6] >> (a & 63)) & 1; }
  static void set(ActionBits& bits, int a) { bits[a >> 6] |= uint64_t{1} << (a & 63); }

  // The legal actions as a bitset, from the game's own bitset where it has one.
  static void legal_bits(const State& s, ActionBits& bits) {
    if constexpr (requires { s.legal_action_bits(bits); }) {
      s.legal_action_bits(bits);
    } else {
      ActionList legal;
      s.legal_actions(legal);
      bits = {};
      for (core::Action a : legal) set(bits, a);
    }
  }

  // The k-th (0-based, ascending ids) action of a bitset.
  static core::Action nth_action(const ActionBits& bits, int k) {
    for (int w = 0;; ++w) {
      const int n = core::popcount(bits[w]);
      if (k < n) return w * 64 + core::nth_set_bit_dispatch(bits[w], k);
      k -= n;
    }
  }

  // Tree parallelism's accesses to statistics other threads write (plain when kShared
  // is false: one thread per tree). Relaxed: each is a counter read on its own.
  template <bool kShared>
  static uint32_t bump(uint32_t& x) {
    if constexpr (kShared) return std::atomic_ref<uint32_t>(x).fetch_add(1, std::memory_order_relaxed) + 1;
    return ++x;
  }
  template <bool kShared, class T>
  static T peek(T& x) {
    if constexpr (kShared) return std::atomic_ref<T>(x).load(std::memory_order_relaxed);
    return x;
  }

  static void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }

  // Tree parallelism: adds child `a` to `node`, whose child list began at `head` when
  // this thread scanned it. Another thread may have added `a` since: that child is then
  // taken (with this visit's virtual loss), so a move never gets two nodes. Children
  // are published by the release store of first_child, after they are complete.
  // 0 when the memory limit stops the tree growing.
  static uint32_t expand_shared(Tree& tree, uint32_t node, uint32_t head, core::Action a, int mover,
                                size_t memory_limit) {
    std::atomic_ref<uint8_t> busy(tree[node].busy);
    for (int spins = 0; busy.exchange(1, std::memory_order_acquire);)
      while (busy.load(std::memory_order_relaxed))
        if (++spins % 64 == 0)
          std::this_thread::yield();  // the holder may have been preempted (more threads than cores)
        else
          cpu_relax();
    std::atomic_ref<uint32_t> first(tree[node].first_child);
    const uint32_t now = first.load(std::memory_order_relaxed);  // only lock holders write it
    uint32_t child = 0;
    for (uint32_t ci = now; ci != head; ci = tree[ci].next_sibling)
      if (tree[ci].action == a) {
        child = ci;
        bump<true>(tree[ci].avail);
        bump<true>(tree[ci].visits);
        break;
      }
    if (!child) {
      child = tree.add_shared(a, mover, memory_limit);
      if (child) {
        tree[child].next_sibling = now;
        first.store(child, std::memory_order_release);
      }
    }
    busy.store(0, std::memory_order_release);
    return child;
  }

  template <bool kShared>
  void iterate(Tree& tree, const State& root, const SearchParams& p, bool can_grow, size_t memory_limit) {
    State s = root;
    s.set_explicit_chance(false);  // first: a lazy sample needs reveals resolved by apply
    if (!p.perfect_information) {
      if constexpr (requires { s.determinize_lazily(root_player_, rng_); })
        s.determinize_lazily(root_player_, rng_);
      else
        s.determinize(root_player_, rng_);
    }
    uint32_t path[kMaxPath];
    int depth = 0;
    uint32_t node = 0;
    path[depth++] = 0;
    double values[G::kMaxPlayers];
    const float c = static_cast<float>(p.exploration);
    bool at_terminal = false;
    if constexpr (kShared) bump<true>(tree[0].visits);
    for (;;) {
      while (s.is_chance()) detail::play(s, s.random_action(rng_));  // games with chance left in apply
      if (s.is_terminal()) {
        at_terminal = true;
        break;
      }
      ActionBits legal;
      legal_bits(s, legal);
      ActionBits seen{};
      int n_seen = 0;
      uint32_t best = 0;
      float best_score = -1.0f;
      // Shared: an acquire load (never a plain one, which would race with expand_shared's
      // store), so the children it publishes are seen complete.
      uint32_t head;
      if constexpr (kShared)
        head = std::atomic_ref<uint32_t>(tree[node].first_child).load(std::memory_order_acquire);
      else
        head = tree[node].first_child;
      for (uint32_t ci = head; ci; ci = tree[ci].next_sibling) {
        Node& ch = tree[ci];
        if (!test(legal, ch.action)) continue;
        set(seen, ch.action);
        ++n_seen;
        uint32_t avail;
        if constexpr (kShared) {
          // A plain load and store, not a locked increment: every legal child on every
          // descent is touched, and the locked version halved the mid-game speed on 2
          // threads (bench/RESULTS.md). A lost count only nudges UCB's log term.
          std::atomic_ref<uint32_t> r(ch.avail);
          avail = r.load(std::memory_order_relaxed) + 1;
          r.store(avail, std::memory_order_relaxed);
        } else {
          avail = ++ch.avail;
        }
        const uint32_t visits = peek<kShared>(ch.visits);  // >= 1: a node is created with its first visit
        const float score = peek<kShared>(ch.value_sum) / static_cast<float>(visits) + detail::exploration_term(c, avail, visits);
        if (score > best_score) {
          best_score = score;
          best = ci;
        }
      }
      int n_legal = 0;
      for (uint64_t w : legal) n_legal += core::popcount(w);
      const int untried = n_legal - n_seen;
      if (untried > 0 && can_grow && depth < kMaxPath) {
        ActionBits fresh;
        for (int w = 0; w < kWords; ++w) fresh[w] = legal[w] & ~seen[w];
        const core::Action a = nth_action(fresh, static_cast<int>(rng_.below(static_cast<uint32_t>(untried))));
        uint32_t child;
        if constexpr (kShared) {
          child = expand_shared(tree, node, head, a, s.current_player(), memory_limit);
          if (!child) {  // another thread took the last memory: roll out from this node
            memory_full = true;
            break;
          }
        } else {
          child = tree.add_child(node, a, s.current_player());
          tree[child].avail = 1;
        }
        detail::play(s, a);
        path[depth++] = child;
        break;
      }
      if (best == 0 || depth >= kMaxPath) break;  // cannot grow here: roll out from this node
      if constexpr (kShared) bump<true>(tree[best].visits);  // the virtual loss
      detail::play(s, tree[best].action);
      node = best;
      path[depth++] = best;
    }
    if (at_terminal)
      s.returns(values);
    else
      rollout(s, p, values);
    if constexpr (kShared) {
      for (int i = 1; i < depth; ++i) {  // the visits were counted on the way down
        Node& n = tree[path[i]];
        std::atomic_ref<float>(n.value_sum).fetch_add(static_cast<float>(values[n.mover]), std::memory_order_relaxed);
      }
    } else {
      tree[0].visits++;
      for (int i = 1; i < depth; ++i) {
        Node& n = tree[path[i]];
        n.visits++;
        n.value_sum += static_cast<float>(values[n.mover]);
      }
    }
    for (int seat = 0; seat < root.num_players(); ++seat) seat_sum[seat] += values[seat];
    max_depth = std::max(max_depth, depth - 1);
  }

  void rollout(State& s, const SearchParams& p, double* values) {
    const int limit = p.rollout_cutoff > 0 ? std::min(p.rollout_cutoff, kMaxRolloutPlies) : kMaxRolloutPlies;
    if (p.rollout == Rollout::kHeuristic) {
      for (int ply = 0; ply < limit && !s.is_terminal(); ++ply) detail::play(s, s.heuristic_action(rng_));
    } else if constexpr (requires { s.play_random(rng_, limit); }) {
      s.play_random(rng_, limit);
    } else {
      for (int ply = 0; ply < limit && !s.is_terminal(); ++ply) detail::play(s, s.random_action(rng_));
    }
    if (s.is_terminal())
      s.returns(values);
    else
      for (int seat = 0; seat < s.num_players(); ++seat) values[seat] = s.evaluate(seat);
  }
};

// The search: owns one tree per thread, keeps them between calls for tree reuse.
template <class G>
class MCTS {
 public:
  using State = typename G::State;
  using Clock = std::chrono::steady_clock;

  explicit MCTS(const SearchParams& params) : params_(params) {
    params_.validate();
    trees_.resize(static_cast<size_t>(params_.threads));
  }

  const SearchParams& params() const { return params_; }

  // Thread-safe: asks a running search to stop after its current iteration.
  void request_stop() { stop_.store(true, std::memory_order_relaxed); }

  // Thread-safe, for progress reports while search(root) runs in another thread:
  // pauses the search threads between iterations, reads the trees, resumes them.
  // Pausing does not change what the search does, so results stay deterministic.
  // Empty when no search is running.
  std::optional<SearchResult> snapshot(const State& root) {
    std::lock_guard<std::mutex> reading(collect_mu_);
    {
      std::unique_lock<std::mutex> lock(pause_mu_);
      if (!running_) return std::nullopt;
      pause_.store(true, std::memory_order_relaxed);
      pause_cv_.wait(lock, [&] { return paused_ == active_; });
    }
    SearchResult r = collect(root, root.current_player());
    for (const auto& t : trees_) r.iterations += static_cast<uint64_t>(t.iterations);
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

  SearchResult search(const State& root) {
    if (root.is_terminal()) throw core::InvalidInput("cannot search a terminal state: the game is over");
    if (root.is_chance())
      throw core::InvalidInput("cannot search a chance node: apply a chance outcome first (the search needs a player to move)");
    const int player = root.current_player();
    const auto start = Clock::now();
    started_ = start;
    stop_.store(false, std::memory_order_relaxed);

    uint64_t reused = 0;
    std::vector<core::Action> line;
    const bool reuse = params_.reuse_tree && have_previous_ && previous_.current_player() == player &&
                       find_line(previous_, root, line);
    const bool shared = params_.parallelism == Parallelism::kTree;
    for (auto& t : trees_) {
      if (shared && &t != &trees_[0]) continue;  // tree parallelism: only tree 0 is searched
      if (reuse && follow(t.own_tree, line)) {
        prune_illegal_children(t.own_tree, root);
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
    if (shared) trees_[0].own_tree.reserve_for(memory_per_tree);
    for (int t = 0; t < n_threads; ++t)
      trees_[t].begin(detail::thread_seed(params_.seed, searches_, t), player, shared ? &trees_[0].own_tree : nullptr);
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
      trees_[t].template run<Clock>(root, params_, budget, deadline, timed, stop_, memory_per_tree, checkpoint);
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

    SearchResult r = collect(root, player);
    r.interrupted = stop_.load(std::memory_order_relaxed);
    r.seconds = seconds;
    for (const auto& t : trees_) r.iterations += static_cast<uint64_t>(t.iterations);
    r.iterations_per_second = seconds > 0 ? static_cast<double>(r.iterations) / seconds : 0.0;
    r.reused_visits = reused;
    previous_ = root;
    have_previous_ = true;
    ++searches_;
    return r;
  }

 private:
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

  SearchResult collect(const State& root, int player) const {
    SearchResult r;
    r.player = player;
    struct Acc {
      uint64_t visits = 0, avail = 0;
      double value = 0;
      int best_tree = -1;
      uint32_t best_node = 0;
      uint64_t best_visits = 0;
    };
    std::vector<Acc> acc(static_cast<size_t>(G::kNumDistinctActions));
    std::vector<double> seat(static_cast<size_t>(root.num_players()), 0.0);
    uint64_t seat_iterations = 0;
    for (int t = 0; t < static_cast<int>(trees_.size()); ++t) {
      const auto& ts = trees_[t];
      r.max_depth = std::max(r.max_depth, ts.max_depth);
      r.memory_full |= ts.memory_full;
      seat_iterations += static_cast<uint64_t>(ts.iterations);
      for (int s = 0; s < root.num_players(); ++s) seat[s] += ts.seat_sum[s];
      if (t > 0 && params_.parallelism == Parallelism::kTree) continue;  // one shared tree
      const Tree& tree = ts.own_tree;
      r.root_visits += tree[0].visits;
      r.nodes += tree.size();
      r.bytes += tree.bytes();
      for (uint32_t c = tree[0].first_child; c; c = tree[c].next_sibling) {
        Acc& a = acc[static_cast<size_t>(tree[c].action)];
        a.visits += tree[c].visits;
        a.avail += tree[c].avail;
        a.value += tree[c].value_sum;
        if (tree[c].visits > a.best_visits) {
          a.best_visits = tree[c].visits;
          a.best_tree = t;
          a.best_node = c;
        }
      }
    }
    for (double& v : seat) v = seat_iterations ? v / static_cast<double>(seat_iterations) : 0.0;
    r.seat_values = seat;

    // Principal variations are spelled out on a sample of the hidden cards drawn from
    // the player's view, so their texts reveal nothing the player does not know.
    State view = root;
    core::Rng view_rng(detail::thread_seed(params_.seed, searches_, -1));
    if (!params_.perfect_information) view.determinize(player, view_rng);
    view.set_explicit_chance(false);

    for (int a = 0; a < G::kNumDistinctActions; ++a) {
      const Acc& x = acc[static_cast<size_t>(a)];
      if (x.visits == 0 || !root.is_legal(a)) continue;
      MoveStats m;
      m.action = a;
      m.visits = x.visits;
      m.avail = x.avail;
      m.win_rate = x.value / static_cast<double>(x.visits);
      m.lcb = detail::wilson_lower(m.win_rate, static_cast<double>(x.visits));
      principal_variation(trees_[x.best_tree].own_tree, x.best_node, view, m);
      r.moves.push_back(std::move(m));
    }
    std::sort(r.moves.begin(), r.moves.end(), [](const MoveStats& a, const MoveStats& b) {
      if (a.visits != b.visits) return a.visits > b.visits;
      if (a.win_rate != b.win_rate) return a.win_rate > b.win_rate;
      return a.action < b.action;
    });
    if (!r.moves.empty()) r.best_action = r.moves[0].action;
    return r;
  }

  // The move, then the most visited child repeatedly while it is legal in `view`.
  static void principal_variation(const Tree& tree, uint32_t node, const State& view, MoveStats& m) {
    State s = view;
    constexpr int kMaxPv = 24;
    while (node && static_cast<int>(m.pv.size()) < kMaxPv) {
      const core::Action a = tree[node].action;
      if (s.is_terminal() || s.is_chance() || !s.is_legal(a)) break;
      m.pv.push_back(a);
      m.pv_text.push_back(s.action_to_string(a));
      s.apply(a);
      uint32_t best = 0;
      for (uint32_t c = tree[node].first_child; c; c = tree[c].next_sibling)
        if (!best || tree[c].visits > tree[best].visits) best = c;
      node = best;
    }
  }

  // The moves from `from` to `to` through tree 0, found by replaying tree moves on
  // `from` until a position the searching player cannot tell from `to` (equal
  // observations). Only the player's own information is compared, so the hidden cards
  // of `to` do not steer the search.
  bool find_line(const State& from, const State& to, std::vector<core::Action>& line) const {
    const int player = to.current_player();
    if (from.num_players() != to.num_players()) return false;
    std::vector<float> target(static_cast<size_t>(G::kObservationSize)), probe(target.size());
    to.observation_tensor(player, target.data());
    if (from.current_player() == player) {
      from.observation_tensor(player, probe.data());
      if (probe == target) return true;  // same position: keep the whole tree
    }
    State start = from;
    start.set_explicit_chance(false);
    int budget = 100000;  // node visits: the replay must stay cheap next to the search
    return dfs(trees_[0].own_tree, 0, start, player, target, probe, line, budget);
  }

  static bool dfs(const Tree& tree, uint32_t node, const State& s, int player, const std::vector<float>& target,
                  std::vector<float>& probe, std::vector<core::Action>& line, int& budget) {
    constexpr int kMaxLine = 32;
    if (static_cast<int>(line.size()) >= kMaxLine) return false;
    for (uint32_t c = tree[node].first_child; c; c = tree[c].next_sibling) {
      if (--budget < 0) return false;
      const core::Action a = tree[c].action;
      if (!s.is_legal(a)) continue;
      State next = s;
      next.apply(a);
      line.push_back(a);
      if (next.current_player() == player) {
        next.observation_tensor(player, probe.data());
        if (probe == target) return true;
      }
      if (!next.is_terminal() && dfs(tree, c, next, player, target, probe, line, budget)) return true;
      line.pop_back();
    }
    return false;
  }

  // A reused node gathered children from every sample of the cards revealed on the
  // way (a bought card's replacement differs between samples); at the new root the
  // revealed cards are known, so moves that are not legal there go.
  static void prune_illegal_children(Tree& tree, const State& root) {
    uint32_t* link = &tree[0].first_child;
    while (*link) {
      Node& c = tree[*link];
      if (root.is_legal(c.action))
        link = &c.next_sibling;
      else
        *link = c.next_sibling;
    }
  }

  // Re-roots `tree` at the end of `line` (compacting the kept subtree); false if the
  // line leaves the tree.
  static bool follow(Tree& tree, const std::vector<core::Action>& line) {
    uint32_t node = 0;
    for (core::Action a : line) {
      uint32_t next = 0;
      for (uint32_t c = tree[node].first_child; c; c = tree[c].next_sibling)
        if (tree[c].action == a) {
          next = c;
          break;
        }
      if (!next) return false;
      node = next;
    }
    if (node == 0) return tree.size() > 0;
    Tree fresh;
    fresh.clear();
    fresh[0] = tree[node];
    fresh[0].first_child = 0;
    fresh[0].next_sibling = 0;
    fresh[0].action = -1;
    // Copies children breadth first; each copied node's child list is rebuilt in order.
    std::vector<std::pair<uint32_t, uint32_t>> queue{{node, 0}};
    for (size_t q = 0; q < queue.size(); ++q) {
      const auto [old_index, new_index] = queue[q];
      uint32_t tail = 0;
      for (uint32_t c = tree[old_index].first_child; c; c = tree[c].next_sibling) {
        const uint32_t copy = fresh.add();
        fresh[copy] = tree[c];
        fresh[copy].first_child = 0;
        fresh[copy].next_sibling = 0;
        if (tail)
          fresh[tail].next_sibling = copy;
        else
          fresh[new_index].first_child = copy;
        tail = copy;
        queue.emplace_back(c, copy);
      }
    }
    tree = std::move(fresh);
    return true;
  }
};

}  // namespace search
