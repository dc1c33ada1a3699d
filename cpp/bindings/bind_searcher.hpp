// The searcher of one game as Python sees it (bind_searcher<G>: "<Game>Searcher", its agents)
// and the result types it returns. A header so that a module binding a game outside _core
// (the test-only Nim, cpp/tests/toy/nim_module.cpp) makes the same classes; the types are in
// the named namespace `bindings`, so both modules share _core's registration of the results.
// A search runs in a worker thread with the GIL released while the calling thread
// wakes every 20 ms to check for signals, so Ctrl-C stops it cleanly.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bindings/bind_state.hpp"
#include "search/agents.hpp"
#include "search/leaf_batch.hpp"
#include "search/mcts.hpp"

namespace bindings {

namespace py = pybind11;

// One search object per Python searcher; `busy` refuses overlapping calls from two
// Python threads (the GIL is released while searching).
template <class G>
struct Searcher {
  search::MCTS<G> mcts;
  std::atomic<bool> busy{false};
  explicit Searcher(const search::SearchParams& p) : mcts(p) {}
};

// ---- A search's result as Python reads it (sm.Analysis, sm.MoveInfo, sm.RootInfo) -------
// The C++ result, read-only. Move texts and labels are made from the root state only when
// someone reads them: a bot that plays the best move makes none.

// How a result's moves read, per game.
class MoveTexts {
 public:
  virtual ~MoveTexts() = default;
  virtual std::string text(core::Action a) const = 0;   // the notation
  virtual std::string label(core::Action a) const = 0;  // the notation and the card it names
  virtual std::vector<std::string> line(const std::vector<core::Action>& pv) const = 0;
  // The line cut into turns (search/turns.hpp): each turn's seat and move texts.
  virtual std::vector<std::pair<int, std::vector<std::string>>> turn_line(const std::vector<core::Action>& pv) const = 0;
  // A turn of the player to move, its moves labelled where the sample has them legal.
  virtual std::vector<std::string> turn_labels(const std::vector<core::Action>& turn) const = 0;
};

struct AnalysisData {
  search::SearchResult result;
  search::SearchParams params;
  std::unique_ptr<const MoveTexts> texts;
  size_t shown = 0;  // moves reported (top_k)
  size_t shown_turns = 0;  // turns reported (top_k)
};
using Data = std::shared_ptr<const AnalysisData>;

template <class G>
class GameMoveTexts final : public MoveTexts {
 public:
  using State = typename G::State;
  GameMoveTexts(const State& root, const AnalysisData& data) : root_(root), data_(data) {}
  std::string text(core::Action a) const override { return root_.action_to_string(a); }
  std::string label(core::Action a) const override { return root_.action_label(a); }
  // Spelled out on the sample the search followed the line on (search/collect.hpp).
  std::vector<std::string> line(const std::vector<core::Action>& pv) const override {
    State s = sample();
    std::vector<std::string> out;
    for (core::Action a : pv) {
      out.push_back(s.action_to_string(a));
      s.apply(a);
    }
    return out;
  }
  std::vector<std::pair<int, std::vector<std::string>>> turn_line(const std::vector<core::Action>& pv) const override {
    std::vector<std::pair<int, std::vector<std::string>>> out;
    for (const core::TurnLine& t : core::split_turns(sample(), pv)) {
      out.emplace_back(t.seat, std::vector<std::string>{});
      for (core::Action a : t.actions) out.back().second.push_back(root_.action_to_string(a));
    }
    return out;
  }
  std::vector<std::string> turn_labels(const std::vector<core::Action>& turn) const override {
    State s = sample();
    std::vector<std::string> out;
    for (core::Action a : turn) {
      const bool legal = !s.is_terminal() && s.is_legal(a);
      out.push_back(legal ? s.action_label(a) : s.action_to_string(a));
      if (legal) s.apply(a);
    }
    return out;
  }

 private:
  State sample() const {
    return search::pv_sample<G>(root_, data_.result.player, data_.params, data_.result.search_index);
  }
  State root_;
  const AnalysisData& data_;  // owns this object
};

template <class G>
Data make_data(search::SearchResult&& r, const search::SearchParams& params, const typename G::State& root,
               size_t top_k) {
  auto d = std::make_shared<AnalysisData>();
  d->result = std::move(r);
  d->params = params;
  d->shown = std::min(top_k, d->result.moves.size());
  d->shown_turns = std::min(top_k, d->result.turns.size());
  d->texts = std::make_unique<GameMoveTexts<G>>(root, *d);
  return d;
}

struct MoveInfo {
  Data d;
  size_t i;
  const search::MoveStats& m() const { return d->result.moves[i]; }
};
struct TurnInfo {
  Data d;
  size_t i;
  const search::TurnStats& t() const { return d->result.turns[i]; }
  const search::MoveStats& m() const { return t().stats; }
};
struct RootInfo {
  Data d;
};
struct Analysis {
  Data d;
  py::object moves;  // the MoveInfo list, made when first read
  py::object turns;  // the TurnInfo list, likewise
};

// ---- The Python evaluator hook (search/leaf_batch.hpp, docs/search.md "Python evaluators") --
// `evaluate_with(observations, legal, players)` is called from the search's thread with
// the GIL taken for the call only; its answer is checked here, the one place.

struct PythonHook {
  py::object fn;
  std::optional<py::error_already_set> raised;  // the callback's own exception, chained to the ValueError
};

// `x` as a C-ordered float32 array [rows, one of `widths`]; InvalidInput naming `what` otherwise.
inline py::array_t<float, py::array::c_style> float_rows(py::handle x, const char* what, py::ssize_t rows,
                                                  const std::vector<py::ssize_t>& widths) {
  std::string shape;
  for (py::ssize_t w : widths)
    shape += (shape.empty() ? "[" : " or [") + std::to_string(rows) + ", " + std::to_string(w) + "]";
  if (!py::isinstance<py::array>(x))
    throw core::InvalidInput(std::string("evaluate_with must return ") + what + " as a numpy float32 array " + shape +
                             ", got " + py::str(py::type::of(x).attr("__name__")).cast<std::string>());
  const auto arr = py::reinterpret_borrow<py::array>(x);
  if (!arr.dtype().is(py::dtype::of<float>()))
    throw core::InvalidInput(std::string("evaluate_with's ") + what + " must have dtype float32, got " +
                             py::str(arr.dtype()).cast<std::string>());
  const bool fits = arr.ndim() == 2 && arr.shape(0) == rows &&
                    std::find(widths.begin(), widths.end(), arr.shape(1)) != widths.end();
  if (!fits) {
    std::string got;
    for (py::ssize_t k = 0; k < arr.ndim(); ++k) got += (k ? ", " : "") + std::to_string(arr.shape(k));
    throw core::InvalidInput(std::string("evaluate_with's ") + what + " must have shape " + shape + ", got [" + got + "]");
  }
  return py::array_t<float, py::array::c_style>::ensure(arr);
}

template <class G>
void call_python(PythonHook& h, search::LeafBatch& b) {
  constexpr py::ssize_t kObs = G::kObservationSize, kActions = G::kNumDistinctActions;
  py::gil_scoped_acquire gil;
  const py::ssize_t n = b.size;
  py::array_t<float> observations({n, kObs});
  std::copy_n(b.observations.data(), n * kObs, observations.mutable_data());
  py::array_t<bool> legal({n, kActions});
  std::copy_n(b.legal.data(), n * kActions, reinterpret_cast<uint8_t*>(legal.mutable_data()));
  py::object out;
  try {
    out = h.fn(observations, legal, b.players);
  } catch (py::error_already_set& e) {
    if (e.matches(PyExc_KeyboardInterrupt)) throw;
    const std::string what = e.what();
    h.raised = std::move(e);
    throw core::InvalidInput("evaluate_with raised " + what);
  }
  py::object values = out, logits = py::none();
  if (py::isinstance<py::tuple>(out)) {
    const auto pair = py::reinterpret_borrow<py::tuple>(out);
    if (pair.size() != 2)
      throw core::InvalidInput("evaluate_with must return values or (values, policy_logits), got a tuple of " +
                               std::to_string(pair.size()));
    values = pair[0];
    logits = pair[1];
  }
  std::vector<py::ssize_t> widths{b.players};
  if (b.players != 4) widths.push_back(4);  // a fixed head of 4, as a network's value head may be
  const auto v = float_rows(values, "values", n, widths);
  for (py::ssize_t i = 0; i < n; ++i)
    for (py::ssize_t k = 0; k < b.players; ++k) {
      const float x = v.at(i, k);
      if (!(x >= 0.0f && x <= 1.0f))  // NaN fails too
        throw core::InvalidInput("evaluate_with's values must be win shares in [0, 1], got " +
                                 py::repr(py::float_(x)).cast<std::string>() + " at [" + std::to_string(i) + ", " +
                                 std::to_string(k) + "]");
      b.values[static_cast<size_t>(i * b.players + k)] = x;
    }
  if (logits.is_none()) return;
  const auto l = float_rows(logits, "policy_logits", n, {kActions});
  const float* data = l.data();
  if (!std::all_of(data, data + n * kActions, [](float x) { return std::isfinite(x); }))
    throw core::InvalidInput("evaluate_with's policy_logits must be finite (got NaN or infinity)");
  b.logits.assign(data, data + n * kActions);
  b.has_policy = true;
}

// Binds "<prefix>Searcher" and the agents of game G.
template <class G>
void bind_searcher(py::module_& m, const std::string& prefix) {
  using State = typename G::State;
  using S = Searcher<G>;
  py::class_<S>(m, (prefix + "Searcher").c_str(), "ISMCTS over one game; keeps its trees for reuse between calls.")
      .def(py::init<const search::SearchParams&>(), py::arg("params"))
      .def("reset", [](S& s) { s.mcts.reset(); }, "Forget the trees: the next search starts fresh.")
      .def(
          "search",
          [](S& s, const State& state, py::object progress, double progress_interval, std::optional<size_t> top_k,
             bool turns, py::object evaluate_with, int batch_size) {
            if (s.busy.exchange(true)) throw core::InvalidInput("this searcher is already searching (one call at a time)");
            struct Release {
              std::atomic<bool>& flag;
              ~Release() { flag.store(false); }
            } release_busy{s.busy};
            if (!progress.is_none() && !(progress_interval > 0))
              throw core::InvalidInput("progress_interval must be > 0 seconds");
            const State root = state;
            const size_t shown = top_k.value_or(SIZE_MAX);
            std::shared_ptr<PythonHook> python_hook;
            std::optional<search::LeafHook> hook;
            if (!evaluate_with.is_none()) {
              if (!PyCallable_Check(evaluate_with.ptr()))
                throw core::InvalidInput("evaluate_with must be callable, got " + py::repr(evaluate_with).cast<std::string>());
              python_hook = std::make_shared<PythonHook>(PythonHook{evaluate_with, std::nullopt});
              hook = search::LeafHook{[python_hook](search::LeafBatch& b) { call_python<G>(*python_hook, b); }, batch_size};
            }
            auto analysis = [&](search::SearchResult&& r) {
              return Analysis{make_data<G>(std::move(r), s.mcts.params(), root, shown), py::object()};
            };
            bool interrupted = false;  // a Python exception is pending (Ctrl-C or from `progress`)
            std::future<search::SearchResult> done;
            {
              py::gil_scoped_release release;
              std::packaged_task<search::SearchResult()> task(
                  [&] { return s.mcts.search(root, turns, hook ? &*hook : nullptr); });
              done = task.get_future();
              std::thread worker(std::move(task));
              using Clock = std::chrono::steady_clock;
              const auto interval = std::chrono::duration_cast<Clock::duration>(
                  std::chrono::duration<double>(progress.is_none() ? 1e9 : progress_interval));
              auto next_report = Clock::now() + interval;
              while (done.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready) {
                std::optional<search::SearchResult> partial;
                if (!progress.is_none() && Clock::now() >= next_report) {
                  partial = s.mcts.snapshot(root, turns);
                  next_report = Clock::now() + interval;
                }
                py::gil_scoped_acquire acquire;
                if (PyErr_CheckSignals() != 0) {
                  interrupted = true;
                } else if (partial) {
                  try {
                    if (py::bool_(progress(analysis(std::move(*partial))))) s.mcts.request_stop();
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
            try {
              return analysis(done.get());
            } catch (const core::InvalidInput& e) {
              if (!python_hook || !python_hook->raised) throw;
              py::raise_from(*python_hook->raised, PyExc_ValueError, e.what());  // "raise ValueError(...) from error"
              throw py::error_already_set();
            }
          },
          py::arg("state"), py::arg("progress") = py::none(), py::arg("progress_interval") = 0.5,
          py::arg("top_k") = py::none(), py::arg("turns") = false, py::arg("evaluate_with") = py::none(),
          py::arg("batch_size") = search::kDefaultBatchSize,
          "Search from `state` (GIL released); an Analysis of the root and its `top_k` first moves in the "
          "best-move rule's order (None: all), and with `turns` its whole turns too. `progress(partial_analysis)` "
          "is called every `progress_interval` seconds; returning True stops the search. `evaluate_with"
          "(observations, legal, players)` values the leaves, up to `batch_size` per call (docs/search.md, "
          "\"Python evaluators\").");

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

}  // namespace bindings
