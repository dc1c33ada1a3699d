// Search parameters: budgets, exploration, the leaf evaluator, threads, hidden
// information. problem() / validate() is the one place they are checked and names the
// offending field. The Python API fills exploration / evaluator / cutoff
// per game from measurements (docs/search.md, "Defaults").
#pragma once
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include "core/types.hpp"

namespace search {

// kRoot: one tree per thread, root statistics merged. kTree: one shared tree, statistics
// updated atomically, virtual loss steering threads apart (not deterministic with 2+ threads).
enum class Parallelism : uint8_t { kRoot, kTree };

// The registered leaf evaluators (search/evaluators.hpp holds the registry; these are
// defined out of line so this header needs none of the evaluators).
bool is_evaluator(std::string_view name);
std::string evaluator_names();  // "random, heuristic, ..." in registration order

// A network's weights (search/network.hpp), read once per file and shared: load_network
// keeps what it read by path (and the file's size and time), so validating and then
// searching, or many bots on one file, read it once. InvalidInput naming the file and
// the problem; network_problem gives that message instead.
class Network;
std::shared_ptr<const Network> load_network(const std::string& path);
std::optional<std::string> network_problem(const std::string& path);

// Past about 292 years a deadline overflows the clock; a million seconds (11.6 days) is
// far beyond any real search and keeps the arithmetic exact.
inline constexpr double kMaxTimeLimit = 1e6;

// Analysis mode (docs/search.md, "Best move"): each of the k root moves first in the
// best-move rule's order gets at least this share of the root's visits, and moves with
// that share are ranked by their lower confidence bound. k * share stays <= 1/2, so
// UCB keeps at least half of the iterations.
inline constexpr double kAnalysisShare = 0.05;
inline constexpr int kMaxAnalysisMoves = 10;

struct SearchParams {
  int64_t iterations = 0;       // total over all threads; 0 = no iteration budget
  double time_limit = 0.0;      // seconds; 0 = no time budget (time budgets are not deterministic)
  double exploration = 0.4;     // UCT constant c in mean + c * sqrt(ln(availability) / visits)
  int threads = 1;
  Parallelism parallelism = Parallelism::kRoot;  // how threads share the work (docs/search.md, "Threads")
  uint64_t seed = 0;
  std::string evaluator = "heuristic";  // how a new leaf is valued: a name of search/evaluators.hpp
  int rollout_cutoff = 0;       // rollout plies before State::evaluate; 0 = play out to the end
  bool perfect_information = false;  // experiments only: search the true hidden cards
  int64_t memory_limit = int64_t{1} << 30;  // bytes of tree over all threads; the tree stops growing there
  bool reuse_tree = true;       // MCTS::search keeps the subtree of the position reached
  bool solver = true;           // prove results (search/solver.hpp); off: the search as before the solver
  // The solver's root probe (search/probe.hpp; runs only with the solver). Off, the search
  // for play: at 0.02 s a move in Splendor it cost strength (docs/search.md, "Proven results"); the doors
  // whose answer a person reads turn it on (python/splendor_mcts/search/defaults.py).
  bool probe = false;
  int analysis_moves = 0;       // analysis mode's k (above); 0 = off, the search for play
  // A policy-value network (docs/network-format.md): its value head values the leaves
  // (mixed with the evaluator's value by value_mix) and its policy head gives PUCT priors
  // (search/puct.hpp). Empty: none, the search exactly as without networks.
  std::string network;
  double value_mix = 1.0;       // leaf value = value_mix * network + (1 - value_mix) * evaluator
  double puct = 1.0;            // PUCT c in Q + c * prior * sqrt(availability) / (1 + visits)
  // With a network: keep a node's policy from the expansion that ran it for its later ones
  // (search/puct.hpp, "The policy cache"); off: the policy runs at every expansion.
  bool policy_cache = true;
  std::shared_ptr<const Network> net;  // `network` read (MCTS fills it; never set by a door)

  // The first bad setting: its field (the member's name) and a message naming it. The one
  // check of the values; each door maps the field to the name its user typed.
  struct Problem {
    std::string field;
    std::string message;
  };
  std::optional<Problem> problem() const {
    auto bad = [](const char* field, const std::string& msg) { return std::optional<Problem>(Problem{field, msg}); };
    if (iterations < 0) return bad("iterations", "iterations must be >= 0, got " + std::to_string(iterations));
    if (!(time_limit >= 0.0) || !(time_limit <= kMaxTimeLimit))
      return bad("time_limit", "time_limit must be between 0 and 1000000 seconds, got " + (std::ostringstream() << time_limit).str());
    if (iterations == 0 && time_limit == 0.0) return bad("iterations", "iterations or time_limit must be given (> 0)");
    if (!(exploration >= 0.0) || !std::isfinite(exploration))
      return bad("exploration", "exploration must be a finite number >= 0");
    if (threads < 1 || threads > 256)
      return bad("threads", "threads must be between 1 and 256, got " + std::to_string(threads));
    if (parallelism != Parallelism::kRoot && parallelism != Parallelism::kTree)
      return bad("parallelism", "parallelism must be root or tree");
    if (!is_evaluator(evaluator))
      return bad("evaluator", "evaluator (rollout) must be one of " + evaluator_names() + ", got '" + evaluator + "'");
    if (rollout_cutoff < 0) return bad("rollout_cutoff", "rollout_cutoff must be >= 0, got " + std::to_string(rollout_cutoff));
    if (!network.empty())
      if (auto why = network_problem(network)) return bad("network", *why);
    if (!(value_mix >= 0.0 && value_mix <= 1.0))
      return bad("value_mix", "value_mix must be between 0 and 1 (1: the network's value only)");
    if (network.empty() && value_mix != 1.0)
      return bad("value_mix", "value_mix mixes a network's value: give a network (network=PATH) or leave it at 1");
    if (!(puct >= 0.0) || !std::isfinite(puct)) return bad("puct", "puct must be a finite number >= 0");
    if (memory_limit < (int64_t{1} << 20))
      return bad("memory_limit", "memory_limit must be at least 1 MiB (1048576 bytes)");
    if (analysis_moves < 0 || analysis_moves > kMaxAnalysisMoves)
      return bad("analysis_moves", "analysis_moves must be between 0 (off) and " + std::to_string(kMaxAnalysisMoves) +
                                       ", got " + std::to_string(analysis_moves));
    return std::nullopt;
  }

  void validate() const {
    if (const auto p = problem()) throw core::InvalidInput(p->message);
  }
};

}  // namespace search
