// Search speed from fixed positions. Usage:
//   bench_search [--game splendor|duel] [--players 2] [--iterations N] [--rollout random|heuristic]
//                [--cutoff K] [--threads T] [--parallelism root|tree] [--midgame PLIES] [--seed S]
//                [--time SECONDS]
// The mid-game position is reached by PLIES heuristic moves from the seeded deal.
// With one thread and an iteration budget the node count is deterministic.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "search/games.hpp"
#include "search/mcts.hpp"

namespace {

splendor::Config config_of(search::SplendorGame, int players) { return splendor::Config::standard(players); }
duel::Config config_of(search::DuelGame, int) { return duel::Config{}; }

template <class G>
int run(const char* name, const search::SearchParams& params, int players, int midgame, uint64_t deal) {
  using State = typename G::State;
  State s = State::initial(config_of(G{}, players), deal, false);
  core::Rng rng(deal);
  for (int i = 0; i < midgame && !s.is_terminal(); ++i) s.apply(s.heuristic_action(rng));
  search::MCTS<G> mcts(params);
  const search::SearchResult r = mcts.search(s);
  std::printf("%s players=%d midgame=%d rollout=%s cutoff=%d threads=%d parallelism=%s iterations=%llu seconds=%.3f it_per_s=%.0f "
              "nodes=%llu bytes=%llu bytes_per_node=%.1f max_depth=%d best=%s visits=%llu win_rate=%.3f\n",
              name, players, midgame, params.rollout == search::Rollout::kRandom ? "random" : "heuristic",
              params.rollout_cutoff, params.threads,
              params.parallelism == search::Parallelism::kTree ? "tree" : "root", (unsigned long long)r.iterations, r.seconds,
              r.iterations_per_second, (unsigned long long)r.nodes, (unsigned long long)r.bytes,
              r.nodes ? static_cast<double>(sizeof(search::Node)) : 0.0, r.max_depth,
              s.action_to_string(r.best_action).c_str(), (unsigned long long)r.moves[0].visits, r.moves[0].win_rate);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  search::SearchParams p;
  p.iterations = 100000;
  p.reuse_tree = false;
  int players = 2, midgame = 0;
  std::string game = "splendor";
  uint64_t deal = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    const char* v = argv[i + 1];
    if (k == "--game") game = v;
    else if (k == "--players") players = std::atoi(v);
    else if (k == "--iterations") p.iterations = std::atoll(v);
    else if (k == "--rollout") p.rollout = std::strcmp(v, "random") == 0 ? search::Rollout::kRandom : search::Rollout::kHeuristic;
    else if (k == "--cutoff") p.rollout_cutoff = std::atoi(v);
    else if (k == "--threads") p.threads = std::atoi(v);
    else if (k == "--parallelism") p.parallelism = std::strcmp(v, "tree") == 0 ? search::Parallelism::kTree : search::Parallelism::kRoot;
    else if (k == "--midgame") midgame = std::atoi(v);
    else if (k == "--seed") p.seed = std::strtoull(v, nullptr, 10);
    else if (k == "--deal") deal = std::strtoull(v, nullptr, 10);
    else if (k == "--time") p.time_limit = std::atof(v);
    else if (k == "--exploration") p.exploration = std::atof(v);
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 2;
    }
  }
  if (p.time_limit > 0 && p.iterations == 100000) p.iterations = 0;
  if (game == "duel") return run<search::DuelGame>("duel", p, 2, midgame, deal);
  return run<search::SplendorGame>("splendor", p, players, midgame, deal);
}
