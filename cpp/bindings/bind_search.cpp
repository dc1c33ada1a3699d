// Python bindings of the search settings and results, and each game's searcher
// (bindings/bind_searcher.hpp): conversion only.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings/bind_searcher.hpp"
#include "bindings/games.hpp"
#include "bindings/registry.hpp"

namespace bindings {

namespace py = pybind11;
using namespace pybind11::literals;

namespace {

// "win", "loss" or None: proven for the player to move (search/solver.hpp).
py::object proof_name(search::solver::Proof p) {
  if (p == search::solver::Proof::kWin) return py::str("win");
  if (p == search::solver::Proof::kLoss) return py::str("loss");
  return py::none();
}

// A principal variation by turns: [{"seat", "turn" (1: the player to move's), "moves"}].
py::list pv_turns(const MoveTexts& t, const std::vector<core::Action>& pv) {
  py::list out;
  int turn = 0;
  for (auto& [seat, moves] : t.turn_line(pv)) out.append(py::dict("seat"_a = seat, "turn"_a = ++turn, "moves"_a = moves));
  return out;
}

py::dict move_dict(const MoveInfo& x) {
  const auto& m = x.m();
  const MoveTexts& t = *x.d->texts;
  return py::dict("move"_a = t.text(m.action), "label"_a = t.label(m.action), "action"_a = m.action,
                  "visits"_a = m.visits, "winrate"_a = m.win_rate, "lcb"_a = m.lcb, "ucb"_a = m.ucb, "pv"_a = t.line(m.pv),
                  "pvActions"_a = m.pv, "pvTurns"_a = pv_turns(t, m.pv), "proof"_a = proof_name(m.proof),
                  "proofTurns"_a = m.proof_turns, "prior"_a = m.prior >= 0.0 ? py::object(py::float_(m.prior)) : py::none());
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out.append(out.empty() ? "" : core::kTurnSeparator).append(p);
  return out;
}

std::vector<std::string> turn_moves(const TurnInfo& x) {
  std::vector<std::string> out;
  for (core::Action a : x.t().actions) out.push_back(x.d->texts->text(a));
  return out;
}

py::dict turn_dict(const TurnInfo& x) {
  const auto& m = x.m();
  const MoveTexts& t = *x.d->texts;
  return py::dict("turn"_a = joined(turn_moves(x)), "moves"_a = turn_moves(x), "actions"_a = x.t().actions,
                  "label"_a = joined(t.turn_labels(x.t().actions)), "complete"_a = x.t().complete,
                  "visits"_a = m.visits, "winrate"_a = m.win_rate, "lcb"_a = m.lcb, "ucb"_a = m.ucb, "pv"_a = t.line(m.pv),
                  "pvActions"_a = m.pv, "pvTurns"_a = pv_turns(t, m.pv), "proof"_a = proof_name(m.proof),
                  "proofTurns"_a = m.proof_turns);
}

py::dict root_dict(const search::SearchResult& r) {
  return py::dict("currentPlayer"_a = r.player, "visits"_a = r.root_visits,
                  "winrate"_a = r.seat_values.at(static_cast<size_t>(r.player)), "winrates"_a = r.seat_values,
                  "iterations"_a = r.iterations, "seconds"_a = r.seconds,
                  "iterationsPerSecond"_a = r.iterations_per_second, "maxDepth"_a = r.max_depth, "nodes"_a = r.nodes,
                  "bytes"_a = r.bytes, "reusedVisits"_a = r.reused_visits, "interrupted"_a = r.interrupted,
                  "memoryFull"_a = r.memory_full);
}

// How reports name the network: a shipped one by its family and hash, not its installed
// path (splendor_mcts.search.networks.network_label); none is null.
py::object network_name(const std::string& path) {
  if (path.empty()) return py::none();
  return py::module_::import("splendor_mcts.search.networks").attr("network_label")(path);
}

// The settings as the analysis protocol names them (docs/search.md); no budget is null.
py::dict params_dict(const search::SearchParams& p) {
  const auto unless_zero = [](auto value) { return value ? py::cast(value) : py::none(); };
  return py::dict("maxIterations"_a = unless_zero(p.iterations), "maxTime"_a = unless_zero(p.time_limit),
                  "threads"_a = p.threads, "parallelism"_a = p.parallelism == search::Parallelism::kTree ? "tree" : "root",
                  "seed"_a = p.seed, "exploration"_a = p.exploration, "evaluator"_a = p.evaluator,
                  "rolloutCutoff"_a = p.rollout_cutoff, "perfectInformation"_a = p.perfect_information,
                  "memoryLimit"_a = p.memory_limit, "reuseTree"_a = p.reuse_tree,
                  "solver"_a = p.solver, "probe"_a = p.probe, "analysisMoves"_a = p.analysis_moves,
                  "network"_a = network_name(p.network),
                  "valueMix"_a = p.value_mix, "puct"_a = p.puct, "policyCache"_a = p.policy_cache);
}

py::list moves_of(Analysis& a) {
  if (!a.moves) {
    py::list list;
    for (size_t i = 0; i < a.d->shown; ++i) list.append(MoveInfo{a.d, i});
    a.moves = list;
  }
  return a.moves;
}

// None when the search was not asked for turns.
py::object turns_of(Analysis& a) {
  if (!a.d->result.has_turns) return py::none();
  if (!a.turns) {
    py::list list;
    for (size_t i = 0; i < a.d->shown_turns; ++i) list.append(TurnInfo{a.d, i});
    a.turns = list;
  }
  return a.turns;
}

py::dict analysis_dict(Analysis& a) {
  const auto& r = a.d->result;
  py::list moves;
  size_t order = 0;
  for (py::handle m : moves_of(a)) {
    py::dict d = move_dict(m.cast<const MoveInfo&>());
    d["order"] = order++;
    moves.append(d);
  }
  py::dict out;
  out["rootInfo"] = root_dict(r);
  out["moveInfos"] = moves;
  if (r.has_turns) {
    py::list turns;
    order = 0;
    for (py::handle t : turns_of(a)) {
      py::dict d = turn_dict(t.cast<const TurnInfo&>());
      d["order"] = order++;
      turns.append(d);
    }
    out["turnInfos"] = turns;
  }
  out["bestAction"] = r.best_action;
  out["bestWinrate"] = search::best_play_value(r);
  out["proof"] = proof_name(r.proof);
  out["proofTurns"] = r.proof_turns;
  out["bestMove"] = r.best_action >= 0 ? py::object(py::str(a.d->texts->text(r.best_action))) : py::none();
  out["params"] = params_dict(a.d->params);
  return out;
}

py::str dumps(const py::dict& d) { return py::module_::import("json").attr("dumps")(d); }

void bind_results(py::module_& m) {
  using search::MoveStats;
  py::class_<MoveInfo>(m, "MoveInfo",
                       "Statistics of one root move. `win_rate` is the mean return (win 1, loss 0, shared wins split) "
                       "of the player to move; `lcb` and `ucb` the bounds of its 95% Wilson interval; `pv` the principal variation as move "
                       "texts starting with this move (`pv_actions` as ids). Texts are made when read.")
      .def_property_readonly("action", [](const MoveInfo& x) { return x.m().action; })
      .def_property_readonly("text", [](const MoveInfo& x) { return x.d->texts->text(x.m().action); },
                             "The move's notation, e.g. 'buy 2.1'.")
      .def_property_readonly("label", [](const MoveInfo& x) { return x.d->texts->label(x.m().action); },
                             "The notation and the card the move names, e.g. 'buy 2.1 (green 1pt W2U3K2)'.")
      .def_property_readonly("visits", [](const MoveInfo& x) { return x.m().visits; })
      .def_property_readonly("avail", [](const MoveInfo& x) { return x.m().avail; },
                             "How often the move was legal in a sampled descent (its UCB availability count).")
      .def_property_readonly("win_rate", [](const MoveInfo& x) { return x.m().win_rate; })
      .def_property_readonly("lcb", [](const MoveInfo& x) { return x.m().lcb; },
                             "Lower bound of win_rate's 95% interval (Wilson score); the best-move rule reads it.")
      .def_property_readonly("ucb", [](const MoveInfo& x) { return x.m().ucb; },
                             "Upper bound of win_rate's 95% interval (Wilson score).")
      .def_property_readonly("pv", [](const MoveInfo& x) { return x.d->texts->line(x.m().pv); })
      .def_property_readonly("pv_actions", [](const MoveInfo& x) { return x.m().pv; })
      .def_property_readonly("pv_turns", [](const MoveInfo& x) { return pv_turns(*x.d->texts, x.m().pv); },
                             "The principal variation by turns: [{'seat', 'turn' (1: this one), 'moves'}].")
      .def_property_readonly("proof", [](const MoveInfo& x) { return proof_name(x.m().proof); },
                             "\"win\" or \"loss\" when the search proved this move's result for the player to move "
                             "whatever the hidden cards (docs/search.md), else None.")
      .def_property_readonly("proof_turns", [](const MoveInfo& x) { return x.m().proof_turns; },
                             "Proven: the turns of play until the game ends (1: this turn); else 0.")
      .def_property_readonly(
          "prior", [](const MoveInfo& x) { return x.m().prior >= 0.0 ? py::object(py::float_(x.m().prior)) : py::none(); },
          "The network's policy for this move at the root (docs/search.md, \"Networks\"); None without a network.")
      .def("to_dict", &move_dict, "The protocol's moveInfo (docs/analysis-protocol.md).")
      .def("__repr__", [](const MoveInfo& x) {
        return "MoveInfo(" + x.d->texts->text(x.m().action) + ", visits=" + std::to_string(x.m().visits) +
               ", win_rate=" + py::repr(py::float_(x.m().win_rate)).cast<std::string>() + ")";
      });
  py::class_<TurnInfo>(m, "TurnInfo",
                       "Statistics of one whole turn of the player to move (its decisions until another seat "
                       "moves or the game ends): those of the turn's last decision, so `visits` counts the "
                       "iterations that played the whole turn. `text` joins the moves' notations with ', ' "
                       "(each part reads back with string_to_action); `complete` is False while the search has "
                       "not yet expanded the rest of the turn. Texts are made when read.")
      .def_property_readonly("actions", [](const TurnInfo& x) { return x.t().actions; })
      .def_property_readonly("moves", &turn_moves, "The turn's moves as notations.")
      .def_property_readonly("text", [](const TurnInfo& x) { return joined(turn_moves(x)); },
                             "The turn's notation, e.g. 'take WUK, return R'.")
      .def_property_readonly("label", [](const TurnInfo& x) { return joined(x.d->texts->turn_labels(x.t().actions)); },
                             "The turn with the cards its moves name, e.g. 'buy 2.1 (green 1pt W2U3K2), noble 1'.")
      .def_property_readonly("complete", [](const TurnInfo& x) { return x.t().complete; })
      .def_property_readonly("visits", [](const TurnInfo& x) { return x.m().visits; })
      .def_property_readonly("win_rate", [](const TurnInfo& x) { return x.m().win_rate; })
      .def_property_readonly("lcb", [](const TurnInfo& x) { return x.m().lcb; })
      .def_property_readonly("ucb", [](const TurnInfo& x) { return x.m().ucb; }, "Upper bound of the 95% interval of win_rate.")
      .def_property_readonly("pv", [](const TurnInfo& x) { return x.d->texts->line(x.m().pv); },
                             "The turn's moves, then the most visited line after it.")
      .def_property_readonly("pv_actions", [](const TurnInfo& x) { return x.m().pv; })
      .def_property_readonly("pv_turns", [](const TurnInfo& x) { return pv_turns(*x.d->texts, x.m().pv); },
                             "The principal variation by turns: [{'seat', 'turn' (1: this one), 'moves'}].")
      .def_property_readonly("proof", [](const TurnInfo& x) { return proof_name(x.m().proof); },
                             "\"win\" or \"loss\" proven for the player to move after the whole turn, else None.")
      .def_property_readonly("proof_turns", [](const TurnInfo& x) { return x.m().proof_turns; })
      .def("to_dict", &turn_dict, "The protocol's turnInfo (docs/analysis-protocol.md).")
      .def("__repr__", [](const TurnInfo& x) {
        return "TurnInfo(" + joined(turn_moves(x)) + ", visits=" + std::to_string(x.m().visits) +
               ", win_rate=" + py::repr(py::float_(x.m().win_rate)).cast<std::string>() + ")";
      });
  py::class_<RootInfo>(m, "RootInfo",
                       "The root: seat to move, visits (reused ones included), mean return per seat over this "
                       "search's iterations, speed and tree size.")
      .def_property_readonly("player", [](const RootInfo& x) { return x.d->result.player; })
      .def_property_readonly("visits", [](const RootInfo& x) { return x.d->result.root_visits; })
      .def_property_readonly("win_rates", [](const RootInfo& x) { return x.d->result.seat_values; })
      .def_property_readonly("iterations", [](const RootInfo& x) { return x.d->result.iterations; })
      .def_property_readonly("seconds", [](const RootInfo& x) { return x.d->result.seconds; })
      .def_property_readonly("iterations_per_second", [](const RootInfo& x) { return x.d->result.iterations_per_second; })
      .def_property_readonly("max_depth", [](const RootInfo& x) { return x.d->result.max_depth; })
      .def_property_readonly("nodes", [](const RootInfo& x) { return x.d->result.nodes; })
      .def_property_readonly("bytes", [](const RootInfo& x) { return x.d->result.bytes; })
      .def_property_readonly("reused_visits", [](const RootInfo& x) { return x.d->result.reused_visits; })
      .def_property_readonly("probe_nodes", [](const RootInfo& x) { return x.d->result.probe_nodes; },
                             "Positions the solver's root probe visited (docs/search.md, \"Proven results\").")
      .def_property_readonly("probe_seconds", [](const RootInfo& x) { return x.d->result.probe_seconds; },
                             "Seconds of `seconds` the solver's root probe took (0 if it did not run).")
      .def_property_readonly("interrupted", [](const RootInfo& x) { return x.d->result.interrupted; })
      .def_property_readonly("memory_full", [](const RootInfo& x) { return x.d->result.memory_full; })
      .def("to_dict", [](const RootInfo& x) { return root_dict(x.d->result); },
           "The protocol's rootInfo (docs/analysis-protocol.md).");
  py::class_<Analysis>(m, "Analysis",
                       "Result of a search: the move to play and the statistics of the root moves in the best-move "
                       "rule's order (docs/search.md, \"Best move\"; the first is best_action), at most top_k.")
      .def_property_readonly("best_action", [](const Analysis& a) { return a.d->result.best_action; })
      .def_property_readonly("best_text", [](const Analysis& a) { return a.d->texts->text(a.d->result.best_action); })
      .def_property_readonly("best_label", [](const Analysis& a) { return a.d->texts->label(a.d->result.best_action); })
      .def_property_readonly("proof", [](const Analysis& a) { return proof_name(a.d->result.proof); },
                             "The root's proven result for the player to move (\"win\", \"loss\") or None.")
      .def_property_readonly("proof_turns", [](const Analysis& a) { return a.d->result.proof_turns; })
      .def_property_readonly("best_win_rate", [](const Analysis& a) { return search::best_play_value(a.d->result); },
                             "The value of the best play found for the player to move, the one a person is told: "
                             "the proven result (1 or 0), else the first whole turn's win rate (with turns), else "
                             "the best move's; not the root's mean (root.win_rates), which averages every move "
                             "searched (docs/analysis-protocol.md, bestWinrate).")
      .def_property_readonly("moves", &moves_of)
      .def_property_readonly("turns", &turns_of,
                             "The whole turns of the player to move (at most top_k, in the moves' order), or None "
                             "when the search was not asked for them (turns=False).")
      .def_property_readonly("root", [](const Analysis& a) { return RootInfo{a.d}; })
      .def_property_readonly("params", [](const Analysis& a) { return a.d->params; },
                             "A copy of the settings searched with.")
      .def("to_dict", &analysis_dict,
           "KataGo-style: {'rootInfo': {...}, 'moveInfos': [...], 'turnInfos': [...] (with turns), 'bestAction', "
           "'bestWinrate', 'proof', 'proofTurns', 'bestMove', 'params'} "
           "(docs/analysis-protocol.md).")
      .def("to_json", [](Analysis& a) { return dumps(analysis_dict(a)); }, "to_dict() as a JSON string.")
      .def("__repr__", [](const Analysis& a) {
        const auto& r = a.d->result;
        return "Analysis(best=" + a.d->texts->text(r.best_action) + ", iterations=" + std::to_string(r.iterations) +
               ", moves=" + std::to_string(a.d->shown) + ")";
      });
}

}  // namespace

void bind_search(py::module_& m) {
  using search::SearchParams;
  py::class_<SearchParams> params(m, "SearchParams", "Search settings; validate() raises ValueError naming the field.");
  params.def(py::init<>())
      .def_readwrite("iterations", &SearchParams::iterations)
      .def_readwrite("time_limit", &SearchParams::time_limit)
      .def_readwrite("exploration", &SearchParams::exploration)
      .def_readwrite("threads", &SearchParams::threads)
      .def_readwrite("seed", &SearchParams::seed)
      .def_readwrite("evaluator", &SearchParams::evaluator,
                     "How a new leaf is valued: one of EVALUATORS (random or heuristic rollouts, or evaluate). "
                     "validate() checks the name.")
      .def_property(
          "rollout", [](const SearchParams& p) { return p.evaluator; },
          [](SearchParams& p, const std::string& v) { p.evaluator = v; },
          "The evaluator under its former name (the rollout policy): the same setting as `evaluator`.")
      .def_readwrite("rollout_cutoff", &SearchParams::rollout_cutoff)
      .def_readwrite("perfect_information", &SearchParams::perfect_information)
      .def_readwrite("memory_limit", &SearchParams::memory_limit)
      .def_readwrite("reuse_tree", &SearchParams::reuse_tree)
      .def_readwrite("solver", &SearchParams::solver,
                     "Prove results (docs/search.md, \"Proven results\"); False: the search as before the solver.")
      .def_readwrite("probe", &SearchParams::probe,
                     "The solver's root probe, a proof of a win within two turns before the iterations "
                     "(docs/search.md, \"Proven results\"); runs only with `solver`. False (the default): "
                     "the search for play; the doors whose answer a person reads turn it on.")
      .def_readwrite("network", &SearchParams::network,
                     "A policy-value network's .smnet file (docs/network-format.md): its value values the leaves and "
                     "its policy gives PUCT priors; empty: none. validate() reads and checks the file.")
      .def_readwrite("value_mix", &SearchParams::value_mix,
                     "The leaf value: value_mix * network + (1 - value_mix) * evaluator (1: the network only).")
      .def_readwrite("puct", &SearchParams::puct, "PUCT's c with a network: Q + c * prior * sqrt(avail) / (1 + visits).")
      .def_readwrite("policy_cache", &SearchParams::policy_cache,
                     "With a network: a node's later expansions reuse the policy its first one computed "
                     "(docs/search.md, \"Networks\"); False: the policy runs at every expansion.")
      .def_readwrite("analysis_moves", &SearchParams::analysis_moves,
                     "Analysis mode: the k root moves first in the best-move rule's order each get at least "
                     "ANALYSIS_SHARE of the root's visits, and moves with that share rank by their lower bound; "
                     "0 (the default) is off, the search for play. validate() checks 0..MAX_ANALYSIS_MOVES.")
      .def("validate", &SearchParams::validate)
      .def(
          "problem",
          [](const SearchParams& p) -> py::object {
            const auto problem = p.problem();
            if (!problem) return py::none();
            return py::make_tuple(problem->field, problem->message);
          },
          "The first bad setting as (field, message), or None; validate() raises the message.");
  params.def_property(
      "parallelism", [](const SearchParams& p) { return p.parallelism == search::Parallelism::kTree ? "tree" : "root"; },
      [](SearchParams& p, const std::string& v) {
        if (v != "root" && v != "tree") throw core::InvalidInput("parallelism must be 'root' or 'tree', got '" + v + "'");
        p.parallelism = v == "tree" ? search::Parallelism::kTree : search::Parallelism::kRoot;
      },
      "How threads share the work: 'root' (a tree each) or 'tree' (one shared tree).");
  py::dict evaluators;  // name -> one line of help, in registration order
  search::for_each_evaluator([&](const char* name, const char* help) { evaluators[name] = help; });
  m.attr("EVALUATORS") = evaluators;
  m.attr("SEARCH_NODE_BYTES") = sizeof(search::Node);
  m.attr("TURN_SEPARATOR") = std::string(core::kTurnSeparator);
  m.attr("ANALYSIS_SHARE") = search::kAnalysisShare;
  m.attr("MAX_ANALYSIS_MOVES") = search::kMaxAnalysisMoves;
  m.attr("DEFAULT_BATCH_SIZE") = search::kDefaultBatchSize;
  m.attr("MAX_BATCH_SIZE") = search::kMaxBatchSize;
  bind_results(m);
  BoundGames::for_each([&]<class B>() { bind_searcher<typename B::Game>(m, class_prefix(B::Game::kName)); });
}

}  // namespace bindings
