// Search speed from fixed positions. Usage:
//   bench_search [--game splendor|duel] [--players 2] [--iterations N] [--rollout EVALUATOR]
//                [--cutoff K] [--threads T] [--parallelism root|tree] [--midgame PLIES] [--seed S]
//                [--time SECONDS] [--solver on|off] [--probe on|off] [--exploration C]
//                [--analysis-moves K] [--network FILE.smnet] [--value-mix L] [--puct C] [--policy-cache on|off]
//                [--position FILE]
// --rollout names a leaf evaluator of search/evaluators.hpp (random, heuristic, evaluate).
// The mid-game position is reached by PLIES heuristic moves from the seeded deal; --position
// searches from a position file instead (docs/position-format.md; a view's unknown cards
// drawn from the deal seed), e.g. a view written as the table shows it.
// With one thread and an iteration budget the node count is deterministic.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "bench/args.hpp"
#include "duel/game.hpp"
#include "duel/position.hpp"
#include "search/mcts.hpp"
#include "splendor/game.hpp"
#include "splendor/position.hpp"

namespace {

splendor::Config config_of(splendor::Game, int players) { return splendor::Config::standard(players); }
duel::Config config_of(duel::Game, int) { return duel::Config{}; }
splendor::State read_of(splendor::Game, const core::json::Value& doc, uint64_t seed) {
  return splendor::read_position(doc, seed).state;
}
duel::State read_of(duel::Game, const core::json::Value& doc, uint64_t seed) { return duel::read_position(doc, seed).state; }

template <class G>
int run(const search::SearchParams& params, int players, int midgame, uint64_t deal, const std::string& position) {
  using State = typename G::State;
  State s = position.empty() ? State::initial(config_of(G{}, players), deal, false)
                             : read_of(G{}, core::json::parse(position), deal);
  players = s.num_players();
  core::Rng rng(deal);
  for (int i = 0; i < midgame && !s.is_terminal(); ++i) s.apply(s.heuristic_action(rng));
  search::MCTS<G> mcts(params);
  const search::SearchResult r = mcts.search(s);
  std::printf("%s players=%d midgame=%d rollout=%s cutoff=%d threads=%d parallelism=%s iterations=%llu seconds=%.3f it_per_s=%.0f "
              "nodes=%llu bytes=%llu bytes_per_node=%.1f max_depth=%d best=%s visits=%llu win_rate=%.3f\n",
              G::kName, players, midgame, params.evaluator.c_str(),
              params.rollout_cutoff, params.threads,
              params.parallelism == search::Parallelism::kTree ? "tree" : "root", (unsigned long long)r.iterations, r.seconds,
              r.iterations_per_second, (unsigned long long)r.nodes, (unsigned long long)r.bytes,
              r.nodes ? static_cast<double>(sizeof(search::Node)) : 0.0, r.max_depth,
              s.action_to_string(r.best_action).c_str(), (unsigned long long)r.moves[0].visits, r.moves[0].win_rate);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  search::register_game_input_features<splendor::Game>();  // a --network file may read them
  search::register_game_input_features<duel::Game>();
  search::SearchParams p;
  p.iterations = 100000;
  p.reuse_tree = false;
  int players = 2, midgame = 0;
  std::string game = "splendor", position;
  uint64_t deal = 1;
  const char* prog = "bench_search";
  for (int i = 1; i < argc; i += 2) {
    const std::string k = argv[i];
    if (i + 1 == argc) bench::fail(prog, "option " + k + " needs a value");
    const char* v = argv[i + 1];
    if (k == "--game") game = bench::choice(prog, "--game", v, {"splendor", "duel"});
    else if (k == "--players") players = static_cast<int>(bench::whole(prog, "--players", v, 2));
    else if (k == "--iterations") p.iterations = bench::whole(prog, "--iterations", v, 0);
    else if (k == "--rollout") {
      if (!search::is_evaluator(v)) bench::fail(prog, "--rollout must be one of " + search::evaluator_names() + ", got '" + v + "'");
      p.evaluator = v;
    }
    else if (k == "--cutoff") p.rollout_cutoff = static_cast<int>(bench::whole(prog, "--cutoff", v, 0));
    else if (k == "--threads") p.threads = static_cast<int>(bench::whole(prog, "--threads", v, 1));
    else if (k == "--parallelism")
      p.parallelism = bench::choice(prog, "--parallelism", v, {"root", "tree"}) == "tree" ? search::Parallelism::kTree
                                                                                       : search::Parallelism::kRoot;
    else if (k == "--midgame") midgame = static_cast<int>(bench::whole(prog, "--midgame", v, 0));
    else if (k == "--seed") p.seed = static_cast<uint64_t>(bench::whole(prog, "--seed", v, 0));
    else if (k == "--deal") deal = static_cast<uint64_t>(bench::whole(prog, "--deal", v, 0));
    else if (k == "--time") p.time_limit = bench::real(prog, "--time", v, 0.0);
    else if (k == "--exploration") p.exploration = bench::real(prog, "--exploration", v, 0.0);
    else if (k == "--solver") p.solver = bench::choice(prog, "--solver", v, {"on", "off"}) == "on";
    else if (k == "--network") p.network = v;
    else if (k == "--value-mix") p.value_mix = bench::real(prog, "--value-mix", v, 0.0);
    else if (k == "--puct") p.puct = bench::real(prog, "--puct", v, 0.0);
    else if (k == "--policy-cache") p.policy_cache = bench::choice(prog, "--policy-cache", v, {"on", "off"}) == "on";
    else if (k == "--probe") p.probe = bench::choice(prog, "--probe", v, {"on", "off"}) == "on";
    else if (k == "--analysis-moves") p.analysis_moves = static_cast<int>(bench::whole(prog, "--analysis-moves", v, 0));
    else if (k == "--position") {
      std::ifstream file(v);
      if (!file) bench::fail(prog, std::string("cannot read the position file ") + v);
      std::ostringstream text;
      text << file.rdbuf();
      position = text.str();
    }
    else bench::fail(prog, "unknown option " + k);
  }
  if (p.time_limit > 0 && p.iterations == 100000) p.iterations = 0;
  if (!position.empty()) {
    try {
      game = core::game_of(core::json::Cursor(core::json::parse(position)));
    } catch (const core::InvalidInput& e) {
      bench::fail(prog, e.what());
    }
  }
  if (game == "duel" && players != 2) bench::fail(prog, "Splendor Duel has 2 players, got --players " + std::to_string(players));
  try {  // the search and the game check the rest (ValueError-style messages)
    if (game == "duel") return run<duel::Game>(p, 2, midgame, deal, position);
    return run<splendor::Game>(p, players, midgame, deal, position);
  } catch (const core::InvalidInput& e) {
    bench::fail(prog, e.what());
  }
}
