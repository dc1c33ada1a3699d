// One pybind11 binding for any game State (docs/engine-interface.md): the Python
// method names of OpenSpiel's State. Conversion only; the rules live in the State.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cctype>
#include <cstddef>
#include <limits>
#include <optional>
#include <utility>
#include <string>
#include <type_traits>
#include <vector>

#include "core/forced_win.hpp"
#include "core/game_loops.hpp"
#include "core/turns.hpp"
#include "core/types.hpp"

namespace bindings {

namespace py = pybind11;

template <typename Game>
void check_seat(const typename Game::State& s, int player, const char* what) {
  if (player < 0 || player >= s.num_players())
    throw core::InvalidInput(std::string(what) + ": seat " + std::to_string(player) + " is out of range (0.." +
                             std::to_string(s.num_players() - 1) + ")");
}

// One field of a game's rules struct: its Python keyword and the Config member it sets.
template <class Config, class M>
struct RulesField {
  const char* name;
  M Config::*member;
};
template <class Config, class M>
RulesField<Config, M> field(const char* name, M Config::*member) {
  return {name, member};
}

// How Python passes a rules field and reads it back: an int (a bool for a flag); one too
// wide for its member is refused by name here, Config::validate then checks the rules' own
// bounds. A game specialises RulesValue for a member of a type of its own (Splendor's take
// rule: a bool or a word).
template <class M>
struct RulesValue {
  using Arg = std::conditional_t<std::is_same_v<M, bool>, bool, int>;
  static M from_python(Arg v, const char* field) {
    if constexpr (std::is_same_v<M, bool>) {
      return v;
    } else {
      if (v < std::numeric_limits<M>::min() || v > std::numeric_limits<M>::max())
        throw core::InvalidInput(std::string(field) + ": " + std::to_string(v) + " is out of range");
      return static_cast<M>(v);
    }
  }
  static M to_python(M v) { return v; }
};

// A game's Config as an immutable Python class built from one keyword per field (all
// required: the defaults live in the Python config classes) and read back by name.
template <class Config, class... M>
py::class_<Config> bind_rules(py::module_& m, const char* class_name, const char* doc,
                              RulesField<Config, M>... fields) {
  py::class_<Config> cls(m, class_name, doc);
  cls.def(py::init([fields...](typename RulesValue<M>::Arg... values) {
            Config c;
            ((c.*(fields.member) = RulesValue<M>::from_python(values, fields.name)), ...);
            c.validate();
            return c;
          }),
          py::arg(fields.name)...);
  (cls.def_property_readonly(
       fields.name, [member = fields.member](const Config& c) { return RulesValue<M>::to_python(c.*member); }),
   ...);
  cls.def("__eq__", [](const Config& a, const Config& b) { return a == b; }, py::is_operator(), py::arg("other"));
  return cls;
}

// A component table as a list of dicts: each row's 1-based "id", then what
// fill(dict, row, index) adds.
template <class Row, std::size_t N, class Fill>
py::list table_rows(const Row (&rows)[N], Fill fill) {
  py::list out;
  for (std::size_t i = 0; i < N; ++i) {
    py::dict d;
    d["id"] = i + 1;
    fill(d, rows[i], static_cast<int>(i));
    out.append(d);
  }
  return out;
}

// {names[i]: values[i]} for i < n: a cost or requirement by colour.
template <class T>
py::dict named_values(const char* const* names, const T* values, int n) {
  py::dict d;
  for (int i = 0; i < n; ++i) d[names[i]] = values[i];
  return d;
}

inline std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// What a State's own methods say: its Config (config()'s type) and ChanceList
// (chance_outcomes' argument), so a game's search traits are all the bindings need.
template <class State, class List>
List chance_list_of(void (State::*)(List&) const);
template <class State>
using ConfigOf = std::remove_cvref_t<decltype(std::declval<const State&>().config())>;
template <class State>
using ChanceListOf = decltype(chance_list_of(&State::chance_outcomes));

// A str argument as UTF-8. A lone surrogate (how Python carries undecodable input bytes)
// cannot be encoded: that is bad input, a ValueError naming it, not pybind11's TypeError.
inline std::string utf8_text(const py::str& text, const char* what) {
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
  if (data == nullptr) {
    PyErr_Clear();
    throw core::InvalidInput(std::string(what) + " is not valid text (it holds a lone surrogate, "
                             "e.g. from undecodable input bytes)");
  }
  return std::string(data, static_cast<size_t>(size));
}

template <typename Game>
int check_action(int a) {
  if (a < 0 || a >= Game::kNumDistinctActions)
    throw core::InvalidInput("action " + std::to_string(a) + " is out of range (0.." +
                             std::to_string(Game::kNumDistinctActions - 1) + ")");
  return a;
}

// Game: a game's declaration (splendor/game.hpp, duel/game.hpp: State, ActionList,
// kNumDistinctActions, kObservationSize). `game` names it in Python: module functions, constants.
template <typename Game>
py::class_<typename Game::State> bind_state(py::module_& m, const char* class_name, const std::string& game) {
  using State = typename Game::State;
  using ActionList = typename Game::ActionList;
  using ChanceList = ChanceListOf<State>;
  const std::string name = class_name;
  const std::string doc = "A " + game + " position: a value (clone() copies it) with OpenSpiel's State methods; "
                          "Game.new_initial_state makes one.";
  py::class_<State> cls(m, class_name, doc.c_str());
  cls.def("__repr__",
          [name](const State& s) {
            return "<" + name + " players=" + std::to_string(s.num_players()) +
                   " to_move=" + std::to_string(s.current_player()) + " hash=" + std::to_string(s.hash()) + ">";
          })
      .def_static("initial", &State::initial, py::arg("config"), py::arg("seed"), py::arg("explicit_chance"),
                  "The deal of `seed`; with `explicit_chance` every card reveal is a chance node.")
      .def("num_players", &State::num_players, "Number of seats.")
      .def("current_player", &State::current_player, "Seat to move, or CHANCE (-1) / TERMINAL (-4).")
      .def("is_terminal", &State::is_terminal, "Whether the game is over.")
      .def("is_chance_node", &State::is_chance, "Whether the next action is a chance outcome (a card reveal).")
      .def("legal_actions",
           [](const State& s) {
             ActionList list;
             s.legal_actions(list);
             return std::vector<int>(list.begin(), list.end());
           },
           "Legal action ids in ascending order (chance outcomes at chance nodes).")
      .def("chance_outcomes",
           [](const State& s) {
             ChanceList list;
             s.chance_outcomes(list);
             std::vector<std::pair<int, double>> out;
             for (const auto& o : list) out.emplace_back(o.action, o.probability);
             return out;
           },
           "(action, probability) pairs at a chance node; empty elsewhere.")
      .def("dealt_outcome", &State::dealt_outcome,
           "At a chance node: the outcome this state's own seeded deal produces.")
      .def("apply_action", &State::apply_checked, py::arg("action"),
           "Apply a legal action; ValueError (state unchanged) otherwise.")
      .def("is_legal", &State::is_legal, py::arg("action"), "Whether `action` is legal here.")
      .def("action_to_string", [](const State& s, int a) { return s.action_to_string(check_action<Game>(a)); },
           py::arg("action"), "The action's notation (docs/actions.md, docs/actions-duel.md).")
      .def("action_label", [](const State& s, int a) { return s.action_label(check_action<Game>(a)); },
           py::arg("action"),
           "The notation and the card the move names, if any: 'buy 2.1 (green 1pt W2U3K2)' (a Splendor noble "
           "by its requirement: 'noble 6 (U4G4)').")
      .def("string_to_action", [](const State& s, const py::str& text) { return s.string_to_action(utf8_text(text, "move text")); },
           py::arg("text"),
           "The action a notation names, legal here or not (why_illegal says why not); ValueError if it cannot "
           "be read.")
      .def("split_turns",
           [](const State& s, const std::vector<int>& actions) {
             std::vector<std::pair<int, std::vector<int>>> out;
             for (auto& t : core::split_turns(s, std::vector<core::Action>(actions.begin(), actions.end())))
               out.emplace_back(t.seat, std::move(t.actions));
             return out;
           },
           py::arg("actions"),
           "`actions` played from here, cut into whole turns: [(seat, actions)], a turn being one seat's "
           "decisions until another seat is to move or the game ends; a chance outcome stays in the turn it "
           "happens in. Stops at the end of the game or at an action that is not legal.")
      .def("returns",
           [](const State& s) {
             std::vector<double> r(static_cast<size_t>(s.num_players()));
             s.returns(r.data());
             return r;
           },
           "Per seat: win 1, loss 0, tied winners share 1; zeros before the end.")
      .def("clone", [](const State& s) { return State(s); }, "An independent copy.")
      .def("__copy__", [](const State& s) { return State(s); })
      .def("__deepcopy__", [](const State& s, py::dict) { return State(s); }, py::arg("memo"))
      .def("hash", &State::hash, "64-bit Zobrist hash of the position (deck order excluded).")
      .def("__eq__", [](const State& a, const State& b) { return a == b; }, py::is_operator(), py::arg("other"))
      .def("__hash__", &State::hash)
      .def_property_readonly("explicit_chance", &State::explicit_chance,
                             "Whether card reveals are chance nodes (else drawn from the deal at once).")
      .def("set_explicit_chance", &State::set_explicit_chance, py::arg("on"), "Turn explicit chance on or off.")
      .def("legal_actions_mask",
           [](const State& s) {
             py::array_t<bool> mask(Game::kNumDistinctActions);
             auto flags = mask.template mutable_unchecked<1>();
             for (int i = 0; i < Game::kNumDistinctActions; ++i) flags(i) = false;
             ActionList list;
             s.legal_actions(list);
             for (int a : list) flags(a) = true;
             return mask;
           },
           "numpy bool array of length num_distinct_actions.")
      .def("observation_tensor",
           [](const State& s, int player) {
             check_seat<Game>(s, player, "observation_tensor");
             py::array_t<float> out(Game::kObservationSize);
             s.observation_tensor(player, out.mutable_data());
             return out;
           },
           py::arg("player"), "numpy float32 vector of what `player` sees.")
      .def("to_json", &State::to_json, "The full state as JSON (deck order included).")
      .def("observation_json",
           [](const State& s, int player) {
             check_seat<Game>(s, player, "observation_json");
             return s.observation_json(player);
           },
           py::arg("player"), "What `player` knows, as JSON (no deck order, no others' blind reserves).")
      .def_static("from_json", &State::from_json, py::arg("config"), py::arg("text"),
                  "The state to_json wrote (docs/position-format.md); ValueError naming the problem otherwise.")
      .def_static("from_observation", &State::from_observation, py::arg("config"), py::arg("text"), py::arg("seed"),
                  "A full state consistent with an observation_json view, its unknown cards drawn with `seed`.")
      .def("determinize",
           [](State& s, int observer, uint64_t seed) {
             check_seat<Game>(s, observer, "determinize");
             core::Rng rng(core::splitmix64(seed));
             s.determinize(observer, rng);
           },
           py::arg("observer"), py::arg("seed"),
           "Resample in place everything `observer` cannot see (deck order, others' blind reserves).")
      .def("heuristic_action",
           [](const State& s, uint64_t seed) {
             if (s.is_terminal()) throw core::InvalidInput("heuristic_action: the game is over");
             core::Rng rng(core::splitmix64(seed));
             return s.heuristic_action(rng);
           },
           py::arg("seed"), "The rollout policy's move (buys what scores, takes what visible cards need).")
      .def("evaluate",
           [](const State& s, int player) {
             check_seat<Game>(s, player, "evaluate");
             return s.evaluate(player);
           },
           py::arg("player"), "Heuristic win chance in [0, 1] of `player` (the rollout cut-off value).");
  m.attr((upper(game) + "_NUM_DISTINCT_ACTIONS").c_str()) = Game::kNumDistinctActions;
  m.attr((upper(game) + "_OBSERVATION_SIZE").c_str()) = Game::kObservationSize;
  m.def("perft",
        [](const State& s, int depth) {
          if (depth < 0) throw core::InvalidInput("perft: depth must be >= 0");
          const State own = s;  // copied under the GIL: another thread may change `s` meanwhile
          py::gil_scoped_release release;
          return core::perft<State, ActionList>(own, depth);
        },
        py::arg("state"), py::arg("depth"), "Number of leaf decisions depth plies below state.");
  m.def("forced_win",
        [](const State& s, int turns, uint64_t max_nodes, std::optional<int> move) -> py::object {
          if (turns < 1) throw core::InvalidInput("forced_win: turns must be >= 1");
          if (s.is_terminal() || s.is_chance()) throw core::InvalidInput("forced_win: no seat is to move here");
          if (move && !s.is_legal(check_action<Game>(*move)))
            throw core::InvalidInput("forced_win: move " + std::to_string(*move) + " is not legal here");
          const State own = s;  // copied under the GIL, as in perft
          core::ForcedWin r;
          {
            py::gil_scoped_release release;
            r = core::ForcedWinCheck<Game>(turns, max_nodes).check(own, move ? *move : -1);
          }
          if (r == core::ForcedWin::kUnknown) return py::none();
          return py::bool_(r == core::ForcedWin::kYes);
        },
        py::arg("state"), py::arg("turns"), py::arg("max_nodes"), py::arg("move") = py::none(),
        "The exhaustive check (core/forced_win.hpp; the search's root probe runs it, bench/forced_wins.py "
        "measures against it): whether the seat to move wins within its next `turns` turns "
        "whatever the others do and whatever is revealed, deciding on what it sees (core/forced_win.hpp); with "
        "`move`, playing that move first. None when max_nodes positions did not decide it. Only where the seat "
        "sees every card the others hold.");
  m.def("perft_divide",
        [](const State& s, int depth) {
          if (depth < 1) throw core::InvalidInput("perft_divide: depth must be >= 1");
          std::vector<std::pair<core::Action, uint64_t>> counts;
          const State own = s;  // copied under the GIL, as in perft
          {
            py::gil_scoped_release release;
            counts = core::perft_divide<State, ActionList>(own, depth);
          }
          std::vector<std::pair<std::string, uint64_t>> out;
          for (const auto& [a, n] : counts) out.emplace_back(own.action_to_string(a), n);
          return out;
        },
        py::arg("state"), py::arg("depth"),
        "(move text, perft count depth - 1 plies below it) per root move, in legal_actions order.");
  m.def((game + "_random_playouts").c_str(),
        [](const ConfigOf<State>& config, int64_t n_games, uint64_t seed) {
          if (n_games < 0) throw core::InvalidInput("n_games must be >= 0");
          config.validate();
          core::PlayoutResult r;
          {
            py::gil_scoped_release release;
            r = core::random_playouts<State>(config, n_games, seed);
          }
          const py::ssize_t players = n_games ? static_cast<py::ssize_t>(r.returns.size() / static_cast<size_t>(n_games)) : 0;
          py::array_t<double> returns({static_cast<py::ssize_t>(n_games), players});
          std::copy(r.returns.begin(), r.returns.end(), returns.mutable_data());
          py::array_t<int32_t> lengths(static_cast<py::ssize_t>(n_games));
          std::copy(r.lengths.begin(), r.lengths.end(), lengths.mutable_data());
          return py::make_tuple(returns, lengths);
        },
        py::arg("config"), py::arg("n_games"), py::arg("seed"),
        "(returns[n_games, players], lengths[n_games]) of uniformly random complete games, game i dealt from "
        "seed and i only (GIL released).");
  cls.def("why_illegal", [](const State& s, int a) { return s.why_illegal(check_action<Game>(a)); }, py::arg("action"),
          "Why `action` is not legal here, in the player's terms ('needs 2 more red (you have ...)'); '' if legal.");
  return cls;
}

// Games whose views may give bought cards as the table shows them (core/bought_sampler.hpp):
// one overload each of the module functions.
template <typename Game>
void bind_sampled_cards(py::module_& m) {
  using State = typename Game::State;
  m.def(
      "release_sampled_card",
      [](State& s, int card_id, uint64_t seed, const std::vector<int>& keep_out) {
        core::Rng rng(seed);
        uint64_t out[2] = {0, 0};
        for (int id : keep_out)
          if (id >= 1 && id <= 128) out[(id - 1) >> 6] |= uint64_t{1} << ((id - 1) & 63);
        return s.release_sampled_card(card_id - 1, rng, out);
      },
      py::arg("state"), py::arg("card_id"), py::arg("seed"), py::arg("keep_out") = std::vector<int>{},
      "A card seen on the table (a typed reveal) that `state` had drawn for a bought-card summary of a position: "
      "the summaries are drawn again without it (nor any card id of `keep_out`) and it goes back to its deck. False "
      "if it was not such a card or no other draw fits the summaries (nothing changes then).");
  m.def("has_sampled_cards", [](const State& s) { return s.has_sampled_cards(); }, py::arg("state"),
        "Whether some of `state`'s bought cards are known only as the table shows them (drawn from the unseen cards).");
}

}  // namespace bindings
