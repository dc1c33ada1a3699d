"""The search through sm.analyze: finds wins, legal moves only, budgets, determinism,
no peeking at hidden cards, 3-4 players, bad input."""
from __future__ import annotations

import json
import os
import random
import signal
import threading
import time

import pytest

import splendor_mcts as sm
from search_helpers import find_win_in_one, random_position

GAMES = [sm.load_game("splendor", players=n) for n in (2, 3, 4)] + [sm.load_game("duel")]


def stable(analysis: sm.Analysis) -> dict:
    """to_dict() without the wall-clock fields."""
    d = analysis.to_dict()
    for key in ("seconds", "iterationsPerSecond"):
        d["rootInfo"].pop(key)
    return d


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.spec)
@pytest.mark.parametrize("seed", [1, 2])
def test_finds_win_in_one(game, seed):
    state, wins = find_win_in_one(game, seed)
    analysis = sm.analyze(state, iterations=3000, seed=seed)
    assert analysis.best_action in wins
    assert analysis.moves[0].win_rate > 0.9


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.spec)
def test_moves_are_legal_and_stats_consistent(game):
    for seed in range(6):
        state = random_position(game, seed, plies=seed * 17)
        legal = set(state.legal_actions())
        a = sm.analyze(state, iterations=400, seed=seed, top_k=None)
        assert a.best_action in legal
        assert {m.action for m in a.moves} <= legal
        assert sum(m.visits for m in a.moves) == a.root.visits == 400
        assert a.moves == sorted(a.moves, key=lambda m: -m.visits)
        for m in a.moves:
            assert 0.0 <= m.lcb <= m.win_rate <= 1.0
            assert m.pv_actions[0] == m.action and m.pv[0] == m.text
            assert m.label.startswith(m.text) and m.avail >= m.visits
        assert len(a.root.win_rates) == game.num_players()
        assert sum(a.root.win_rates) == pytest.approx(1.0, abs=1e-6)
        # One node per iteration, except for descents that end at the end of the game.
        assert 1 < a.root.nodes <= 401 and a.root.bytes >= a.root.nodes * sm._core.SEARCH_NODE_BYTES


@pytest.mark.parametrize("spec", ["splendor", "duel"])
def test_iteration_budget_is_exact_with_threads(spec):
    state = sm.load_game(spec).new_initial_state(seed=3)
    for threads in (1, 2, 3):
        a = sm.analyze(state, iterations=1001, threads=threads, seed=1)
        assert a.root.iterations == a.root.visits == 1001


def test_time_budget():
    state = sm.load_game("splendor").new_initial_state(seed=3)
    start = time.perf_counter()
    a = sm.analyze(state, time_limit=0.3, seed=1)
    elapsed = time.perf_counter() - start
    assert 0.3 <= a.root.seconds < 0.5 and elapsed < 1.0
    assert a.root.iterations > 1000
    # Both budgets: the first reached stops the search.
    a = sm.analyze(state, iterations=500, time_limit=10.0, seed=1)
    assert a.root.iterations == 500 and a.root.seconds < 1.0


@pytest.mark.parametrize("spec", ["splendor(players=3)", "duel"])
def test_same_seed_one_thread_is_deterministic(spec):
    state = random_position(sm.load_game(spec), 5, plies=30)
    first = sm.analyze(state, iterations=2000, seed=42)
    assert stable(first) == stable(sm.analyze(state, iterations=2000, seed=42))
    assert stable(first) != stable(sm.analyze(state, iterations=2000, seed=43))
    # Root parallelism: each thread's tree has its own seed and share of the budget.
    two = sm.analyze(state, iterations=2000, seed=42, threads=2)
    assert stable(two) == stable(sm.analyze(state, iterations=2000, seed=42, threads=2))


def test_to_json_shape():
    state = sm.load_game("splendor").new_initial_state(seed=9)
    a = sm.analyze(state, iterations=300, top_k=3)
    import json

    d = json.loads(a.to_json())
    assert {"visits", "nodes", "bytes", "winrates", "currentPlayer", "maxDepth"} <= set(d["rootInfo"])
    assert len(d["moveInfos"]) == 3
    assert {"move", "label", "action", "visits", "winrate", "lcb", "pv", "pvActions"} <= set(d["moveInfos"][0])
    assert d["bestAction"] == a.best_action == a.moves[0].action
    assert d["params"]["maxIterations"] == 300 and d["params"]["evaluator"] == "heuristic"


def test_results_are_the_engines_read_only_classes():
    state = sm.load_game("splendor").new_initial_state(seed=9)
    a = sm.analyze(state, iterations=300, top_k=None)
    assert type(a) is sm.Analysis and type(a.root) is sm.RootInfo and all(type(m) is sm.MoveInfo for m in a.moves)
    with pytest.raises(AttributeError):
        a.best_action = 3
    with pytest.raises(AttributeError):
        a.moves[0].visits = 0
    assert a.moves is a.moves and a.best_text == a.moves[0].text == a.to_dict()["bestMove"]
    assert a.params.iterations == 300 and a.params.reuse_tree is False


@pytest.mark.parametrize("spec", ["splendor", "duel"])
def test_labels_name_the_card_a_move_takes(spec):
    """``buy 1.2`` reads ``buy 1.2 (<the card in that slot>)``; moves naming no card read as their notation."""
    game = sm.load_game(spec)
    state = game.new_initial_state(seed=2)
    texts = {c["id"]: c["text"] for c in game.cards()}
    view = json.loads(state.observation_json(state.current_player()))
    rows = view["table"] if spec == "splendor" else view["pyramid"]
    for action in range(game.num_distinct_actions()):
        text, label = state.action_to_string(action), state.action_label(action)
        words = text.split()
        if words[0] in ("buy", "reserve") and "." in words[1]:
            level, slot = (int(x) for x in words[1].split("."))
            assert label == f"{text} ({texts[rows[level - 1][slot - 1]]})"
        elif words[0] == "noble":  # a noble chosen, by its requirement
            need = game.nobles()[int(words[1]) - 1]["requirement"]
            letters = "".join(f"{'WUGRK'[i]}{need[c]}" for i, c in enumerate(("white", "blue", "green", "red", "black"))
                              if need.get(c))
            assert label == f"{text} ({letters})"
        elif words[0] not in ("reveal", "card"):
            assert label == text
    a = sm.analyze(state, iterations=200, top_k=None)
    assert [m.label for m in a.moves] == [state.action_label(m.action) for m in a.moves]
    reveal = state.string_to_action("reveal #5" if spec == "splendor" else "card 5")
    assert state.action_label(reveal) == f"{state.action_to_string(reveal)} ({texts[5]})"
    # The mover's own reserved card, as the mover sees it.
    rng = random.Random(3)
    while True:
        seat = state.current_player()
        reserved = json.loads(state.observation_json(seat))["players"][seat]["reserved"] if seat >= 0 else []
        if reserved:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    card = reserved[0]["card"] if isinstance(reserved[0], dict) else reserved[0]
    buy = state.string_to_action("buy reserved 1" if spec == "splendor" else "buy r1")
    assert state.action_label(buy) == f"{state.action_to_string(buy)} ({texts[card]})"


def hidden_differs(state, observer, seed):
    """``state`` with everything ``observer`` cannot see resampled (and really changed)."""
    other = state.clone()
    other.determinize(observer, seed)
    assert other != state
    return other


@pytest.mark.parametrize("spec", ["splendor(players=2)", "splendor(players=4)", "duel"])
def test_search_cannot_peek_at_hidden_cards(spec):
    game = sm.load_game(spec)
    # A position where an opponent has reserved blind: their card is hidden too.
    rng = random.Random(len(spec))
    state = game.new_initial_state(seed=len(spec))
    blind = set()
    while not (blind - {state.current_player()}) or state.current_player() < 0:
        legal = state.legal_actions()
        blind_moves = [a for a in legal if state.action_to_string(a).startswith("reserve deck")]
        a = rng.choice(blind_moves or legal)
        if a in blind_moves:
            blind.add(state.current_player())
        state.apply_action(a)
    me = state.current_player()
    twin = hidden_differs(state, me, seed=77)
    assert twin.observation_tensor(me).tolist() == state.observation_tensor(me).tolist()
    a = sm.analyze(state, iterations=1500, seed=5)
    b = sm.analyze(twin, iterations=1500, seed=5)
    assert stable(a) == stable(b)
    # The comparison can fail: a perfect-information search does see the difference.
    pa = sm.analyze(state, iterations=1500, seed=5, perfect_information=True)
    pb = sm.analyze(twin, iterations=1500, seed=5, perfect_information=True)
    assert stable(pa) != stable(pb)


def test_bad_parameters_name_the_parameter():
    state = sm.load_game("splendor").new_initial_state(seed=1)
    for kwargs, name in [
        ({"iterations": -1}, "iterations"),
        ({"iterations": 0}, "iterations"),
        ({"iterations": 1.5}, "iterations"),
        ({"time_limit": -1.0}, "time_limit"),
        ({"time_limit": float("nan")}, "time_limit"),
        ({"threads": 0}, "threads"),
        ({"rollout": "smart"}, "rollout"),
        ({"rollout_cutoff": -3}, "rollout_cutoff"),
        ({"exploration": -0.1}, "exploration"),
        ({"seed": -1}, "seed"),
        ({"top_k": 0}, "top_k"),
        ({"memory_limit": 10}, "memory_limit"),
        ({"perfect_information": 1}, "perfect_information"),
    ]:
        with pytest.raises(ValueError, match=name):
            sm.analyze(state, **{"iterations": 10, **kwargs})
    with pytest.raises(ValueError, match="state"):
        sm.analyze("not a state", iterations=10)


@pytest.mark.parametrize("spec", ["splendor", "duel"])
def test_every_registered_evaluator_searches(spec):
    """`rollout` takes any leaf evaluator the C++ registry holds; each gives its own search."""
    from splendor_mcts import _core

    assert list(_core.EVALUATORS) == ["random", "heuristic", "evaluate"]
    state = sm.load_game(spec).new_initial_state(seed=3)
    results = {name: stable(sm.analyze(state, iterations=300, seed=1, rollout=name)) for name in _core.EVALUATORS}
    assert all(r["rootInfo"]["visits"] == 300 for r in results.values())
    assert len({str(r["moveInfos"]) for r in results.values()}) == 3
    params = _core.SearchParams()
    params.evaluator = "evaluate"
    assert params.rollout == "evaluate"  # one setting under both names


@pytest.mark.parametrize("spec", ["splendor", "duel"])
def test_terminal_and_chance_states_are_refused(spec):
    game = sm.load_game(spec)
    rng = random.Random(1)
    state = game.new_initial_state(seed=1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(ValueError, match="terminal"):
        sm.analyze(state, iterations=10)
    chance = game.new_initial_state(seed=1, explicit_chance=True)
    assert chance.is_chance_node()
    with pytest.raises(ValueError, match="chance"):
        sm.analyze(chance, iterations=10)


def test_explicit_chance_state_between_reveals_is_searched():
    game = sm.load_game("splendor")
    state = game.new_initial_state(seed=4, explicit_chance=True)
    while state.is_chance_node():
        state.apply_action(state.dealt_outcome())
    a = sm.analyze(state, iterations=300, seed=1)
    assert a.best_action in state.legal_actions()
    assert state.explicit_chance  # the caller's state is untouched


def test_memory_limit_stops_growth():
    state = sm.load_game("splendor").new_initial_state(seed=2)
    a = sm.analyze(state, iterations=60000, memory_limit=1 << 20, seed=1)
    assert a.root.memory_full
    assert a.root.bytes <= 1 << 20
    assert a.root.iterations == 60000 and a.root.nodes < 60000


def test_ctrl_c_stops_the_search():
    state = sm.load_game("splendor").new_initial_state(seed=2)
    # A process started in the background by a non-interactive shell inherits SIGINT as
    # ignored, and Python then installs no handler: give it Python's, as in a terminal.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
        start = time.perf_counter()
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            sm.analyze(state, time_limit=20.0, threads=2)
        assert time.perf_counter() - start < 2.0
    finally:
        signal.signal(signal.SIGINT, previous)
    # The module still works afterwards.
    assert sm.analyze(state, iterations=50).root.iterations == 50


def test_progress_reports_and_stop_from_the_callback():
    state = sm.load_game("splendor").new_initial_state(seed=2)
    seen = []

    def progress(partial):
        seen.append(partial.root.iterations)
        assert partial.best_action in state.legal_actions()
        return len(seen) >= 3  # stop after the third report

    start = time.perf_counter()
    a = sm.analyze(state, time_limit=20.0, threads=2, progress=progress, progress_interval=0.05)
    assert time.perf_counter() - start < 2.0
    assert len(seen) == 3 and seen == sorted(seen) and seen[0] > 0
    assert a.root.interrupted and a.root.iterations >= seen[-1]
    # Reports do not change a deterministic search.
    plain = sm.analyze(state, iterations=30000, seed=3)
    watched = sm.analyze(state, iterations=30000, seed=3, progress=lambda p: None, progress_interval=0.01)
    assert stable(plain) == stable(watched)
    with pytest.raises(ValueError, match="progress_interval"):
        sm.analyze(state, iterations=10, progress=print, progress_interval=0)
    with pytest.raises(ZeroDivisionError):
        sm.analyze(state, time_limit=5.0, progress=lambda p: 1 / 0, progress_interval=0.02)


@pytest.mark.parametrize("spec", ["splendor", "duel"])
def test_tree_parallelism(spec):
    state = random_position(sm.load_game(spec), 6, plies=10)
    # One thread: the same search as root parallelism, by construction. Tree parallelism
    # counts a visit on the way down, root parallelism at backup; where a node's own
    # visits are read (PUCT's first-play term with a network, analysis mode's floor) each
    # leaves out the descent in progress (visits_before, cpp/search/parallelism.hpp).
    for settings in ({}, {"network": "shipped"}, {"analysis_moves": 5}, {"network": "shipped", "analysis_moves": 5}):
        root = stable(sm.analyze(state, iterations=2000, seed=7, top_k=None, **settings))
        tree = stable(sm.analyze(state, iterations=2000, seed=7, top_k=None, parallelism="tree", **settings))
        assert root.pop("params")["parallelism"] == "root" and tree.pop("params")["parallelism"] == "tree"
        assert root == tree, settings
    # Two threads share one tree: legal, the budget exact, every iteration through one root move.
    a = sm.analyze(state, iterations=3001, threads=2, seed=7, top_k=None, parallelism="tree")
    assert a.best_action in state.legal_actions()
    assert a.root.iterations == a.root.visits == sum(m.visits for m in a.moves) == 3001
    assert a.root.nodes <= 3002
    bot = sm.MCTSBot(sm.load_game(spec), iterations=500, threads=2, parallelism="tree")
    assert bot.step(state) in state.legal_actions()


def test_tree_parallelism_memory_limit_and_progress():
    state = sm.load_game("splendor").new_initial_state(seed=2)
    a = sm.analyze(state, iterations=60000, threads=2, memory_limit=1 << 20, seed=1, parallelism="tree")
    assert a.root.memory_full and a.root.bytes <= 1 << 20 and a.root.iterations == 60000
    # The shared tree reserves its chunk table for the limit: a huge limit must not allocate it.
    a = sm.analyze(state, iterations=500, threads=2, memory_limit=2**63 - 1, seed=1, parallelism="tree")
    assert a.root.iterations == 500 and not a.root.memory_full
    seen = []

    def progress(partial):
        seen.append(partial.root.iterations)
        assert partial.best_action in state.legal_actions()
        return len(seen) >= 2

    a = sm.analyze(state, time_limit=20.0, threads=2, parallelism="tree", progress=progress, progress_interval=0.05)
    assert len(seen) == 2 and a.root.interrupted and a.root.iterations >= seen[-1] > 0


def test_bad_parallelism_is_rejected():
    game = sm.load_game("splendor")
    state = game.new_initial_state(seed=1)
    for bad in ("leaf", "", 2):
        with pytest.raises(ValueError, match="parallelism"):
            sm.analyze(state, iterations=10, parallelism=bad)
        with pytest.raises(ValueError, match="parallelism"):
            sm.MCTSBot(game, iterations=10, parallelism=bad)
    assert sm.analyze(state, iterations=10, parallelism=None).params.parallelism == "root"  # None: the default


@pytest.mark.parametrize("spec", ["splendor", "duel"])
def test_the_shortest_time_limit_still_gives_a_legal_move(spec):
    state = sm.load_game(spec).new_initial_state(seed=3)
    analysis = sm.analyze(state, time_limit=1e-9)
    assert analysis.root.iterations >= 1 and analysis.best_action in state.legal_actions()


@pytest.mark.parametrize("limit", [1e10, float("inf"), -1.0])
def test_time_limits_beyond_the_range_are_refused_before_searching(limit):
    state = sm.load_game("splendor").new_initial_state(seed=3)
    with pytest.raises(ValueError, match="time_limit must be between 0 and 1000000 seconds"):
        sm.analyze(state, time_limit=limit)
    with pytest.raises(ValueError, match="time_limit must be between 0 and 1000000 seconds"):
        sm.MCTSBot(sm.load_game("splendor"), time_limit=limit)
