// Python bindings of the search and the baseline agents: conversion only.
// A search runs in a worker thread with the GIL released while the calling thread
// wakes every 20 ms to check for signals, so Ctrl-C stops it cleanly.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "bindings/bind_state.hpp"
#include "bindings/registry.hpp"
#include "search/agents.hpp"
#include "duel/game.hpp"
#include "search/mcts.hpp"
#include "splendor/game.hpp"

namespace bindings {

namespace py = pybind11;

namespace {

// One search object per Python searcher; `busy` refuses overlapping calls from two
// Python threads (the GIL is released while searching).
template <class G>
struct Searcher {
  search::MCTS<G> mcts;
  std::atomic<bool> busy{false};
  explicit Searcher(const search::SearchParams& p) : mcts(p) {}
};

// "win", "loss" or None: proven for the player to move (search/solver.hpp).
py::object proof_name(search::solver::Proof p) {
  if (p == search::solver::Proof::kWin) return py::str("win");
  if (p == search::solver::Proof::kLoss) return py::str("loss");
  return py::none();
}

py::dict result_to_dict(const search::SearchResult& r) {
  py::list moves;
  for (const auto& m : r.moves) {
    py::dict d;
    d["action"] = m.action;
    d["visits"] = m.visits;
    d["avail"] = m.avail;
    d["win_rate"] = m.win_rate;
    d["lcb"] = m.lcb;
    d["pv"] = m.pv;
    d["pv_text"] = m.pv_text;
    d["proof"] = proof_name(m.proof);
    d["proof_turns"] = m.proof_turns;
    moves.append(d);
  }
  py::dict out;
  out["player"] = r.player;
  out["best_action"] = r.best_action;
  out["moves"] = moves;
  out["root_visits"] = r.root_visits;
  out["iterations"] = r.iterations;
  out["seconds"] = r.seconds;
  out["iterations_per_second"] = r.iterations_per_second;
  out["max_depth"] = r.max_depth;
  out["nodes"] = r.nodes;
  out["bytes"] = r.bytes;
  out["reused_visits"] = r.reused_visits;
  out["seat_values"] = r.seat_values;
  out["interrupted"] = r.interrupted;
  out["memory_full"] = r.memory_full;
  out["proof"] = proof_name(r.proof);
  out["proof_turns"] = r.proof_turns;
  return out;
}

template <class G>
void bind_game(py::module_& m, const std::string& prefix) {
  using State = typename G::State;
  using S = Searcher<G>;
  py::class_<S>(m, (prefix + "Searcher").c_str(), "ISMCTS over one game; keeps its trees for reuse between calls.")
      .def(py::init<const search::SearchParams&>(), py::arg("params"))
      .def("reset", [](S& s) { s.mcts.reset(); }, "Forget the trees: the next search starts fresh.")
      .def(
          "search",
          [](S& s, const State& state, py::object progress, double progress_interval) {
            if (s.busy.exchange(true)) throw core::InvalidInput("this searcher is already searching (one call at a time)");
            struct Release {
              std::atomic<bool>& flag;
              ~Release() { flag.store(false); }
            } release_busy{s.busy};
            if (!progress.is_none() && !(progress_interval > 0))
              throw core::InvalidInput("progress_interval must be > 0 seconds");
            const State root = state;
            bool interrupted = false;  // a Python exception is pending (Ctrl-C or from `progress`)
            std::future<search::SearchResult> done;
            {
              py::gil_scoped_release release;
              std::packaged_task<search::SearchResult()> task([&] { return s.mcts.search(root); });
              done = task.get_future();
              std::thread worker(std::move(task));
              using Clock = std::chrono::steady_clock;
              const auto interval = std::chrono::duration_cast<Clock::duration>(
                  std::chrono::duration<double>(progress.is_none() ? 1e9 : progress_interval));
              auto next_report = Clock::now() + interval;
              while (done.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready) {
                std::optional<search::SearchResult> partial;
                if (!progress.is_none() && Clock::now() >= next_report) {
                  partial = s.mcts.snapshot(root);
                  next_report = Clock::now() + interval;
                }
                py::gil_scoped_acquire acquire;
                if (PyErr_CheckSignals() != 0) {
                  interrupted = true;
                } else if (partial) {
                  try {
                    if (py::bool_(progress(result_to_dict(*partial)))) s.mcts.request_stop();
                  } catch (py::error_already_set& e) {
                    e.restore();
                    interrupted = true;
                  }
                }
                if (interrupted) {
                  s.mcts.request_stop();
                  break;
                }
              }
              worker.join();
            }
            if (interrupted) throw py::error_already_set();  // re-raise, the search has stopped
            return result_to_dict(done.get());
          },
          py::arg("state"), py::arg("progress") = py::none(), py::arg("progress_interval") = 0.5,
          "Search from `state` (GIL released); a dict of root and per-move statistics. `progress(partial)` "
          "is called every `progress_interval` seconds with the statistics so far; returning True stops "
          "the search.");

  // Agents take (state, seed, step): the bot's seed and its move count pick the stream.
  // The greedy agent and `evaluate` exist for games whose State has evaluate().
  auto def_agent = [&m](const char* name, core::Action (*agent)(const State&, core::Rng&)) {
    m.def(
        name,
        [agent](const State& state, uint64_t seed, uint64_t step) {
          core::Rng rng(search::thread_seed(seed, step, 0));
          return agent(state, rng);
        },
        py::arg("state"), py::arg("seed"), py::arg("step"));
  };
  def_agent("random_agent_action", &search::random_agent_action<G>);
  if constexpr (G::kHas.evaluate) {
    def_agent("greedy_agent_action", &search::greedy_agent_action<G>);
    m.def(
        "evaluate", [](const State& state, int player) {
          check_seat<G>(state, player, "evaluate");
          return state.evaluate(player);
        },
        py::arg("state"), py::arg("player"), "Heuristic win chance of `player` in [0, 1] (the rollout cut-off value).");
  }
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
      .def("validate", &SearchParams::validate);
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
  bind_game<splendor::Game>(m, "Splendor");
  bind_game<duel::Game>(m, "Duel");
}

}  // namespace bindings
