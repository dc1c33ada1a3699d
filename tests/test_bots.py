"""Bots: MCTSBot, RandomBot, GreedyBot through step(state); tree reuse; a fixed-seed
strength smoke test (the full measurement is bench/strength.py)."""
from __future__ import annotations

import random

import pytest

import splendor_mcts as sm
from search_helpers import play_game, random_position

GAME = sm.load_game("splendor")


@pytest.mark.parametrize("make", [sm.RandomBot, sm.GreedyBot, lambda g, seed: sm.MCTSBot(g, iterations=50, seed=seed)])
@pytest.mark.parametrize("spec", ["splendor(players=2)", "splendor(players=3)", "splendor(players=4)", "duel"])
def test_bots_play_legal_moves_to_the_end(make, spec):
    game = sm.load_game(spec)
    bots = [make(game, seed=s) for s in range(game.num_players())]
    state = game.new_initial_state(seed=len(spec))
    moves = 0
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert isinstance(action, int) and action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves > 20 and sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("make", [sm.RandomBot, sm.GreedyBot, lambda g, seed: sm.MCTSBot(g, iterations=200, seed=seed)])
def test_bots_are_deterministic_for_a_seed(make):
    def moves(seed):
        bot = make(GAME, seed=seed)
        return [bot.step(random_position(GAME, s, plies=s * 7)) for s in range(8)]

    assert moves(1) == moves(1)
    assert moves(1) != moves(2)


def test_bots_refuse_bad_states_and_parameters():
    bot = sm.GreedyBot(GAME)
    over = GAME.new_initial_state(seed=1)
    rng = random.Random(1)
    while not over.is_terminal():
        over.apply_action(rng.choice(over.legal_actions()))
    with pytest.raises(ValueError, match="terminal"):
        bot.step(over)
    with pytest.raises(ValueError, match="chance"):
        bot.step(GAME.new_initial_state(seed=1, explicit_chance=True))
    with pytest.raises(ValueError, match="not a position"):
        bot.step(sm.load_game("splendor", players=3).new_initial_state(seed=1))
    with pytest.raises(ValueError, match="game"):
        sm.RandomBot("splendor")
    for kwargs, name in [
        ({"iterations": -5}, "iterations"),
        ({"threads": 0}, "threads"),
        ({"rollout": "clever"}, "rollout"),
        ({"time_limit": -1}, "time_limit"),
        ({"seed": "x"}, "seed"),
        ({"reuse_tree": "yes"}, "reuse_tree"),
    ]:
        with pytest.raises(ValueError, match=name):
            sm.MCTSBot(GAME, **kwargs)


def test_mcts_bot_reuses_its_tree_when_the_moves_are_in_it():
    bot = sm.MCTSBot(GAME, iterations=3000, seed=4)
    other = sm.RandomBot(GAME, seed=4)
    state = GAME.new_initial_state(seed=4)
    reused = []
    while not state.is_terminal() and len(reused) < 6:
        if state.current_player() == 0:
            state.apply_action(bot.step(state))
            reused.append(bot.last_analysis.root.reused_visits)
        else:
            state.apply_action(other.step(state))
    assert reused[0] == 0
    assert sum(1 for r in reused[1:] if r > 0) >= 3, reused
    # Root visits = reused + this search's iterations.
    root = bot.last_analysis.root
    assert root.visits == root.reused_visits + root.iterations
    # A position the tree knows nothing of: a fresh search.
    bot.step(random_position(GAME, 99, plies=40))
    assert bot.last_analysis.root.reused_visits == 0


def test_reuse_does_not_change_legality_or_budget():
    bot = sm.MCTSBot(GAME, iterations=500, seed=1)
    state = GAME.new_initial_state(seed=8)
    for _ in range(30):
        if state.is_terminal():
            break
        a = bot.step(state)  # the bot plays every seat: reuse only when the seat matches
        assert a in state.legal_actions()
        assert bot.last_analysis.root.iterations == 500
        state.apply_action(a)


@pytest.mark.parametrize("spec", ["splendor", "duel"])
def test_smoke_strength_against_random_and_greedy(spec):
    # Fixed seeds, seats alternated: MCTS at 200 iterations per move.
    GAME = sm.load_game(spec)
    wins_vs_random = 0
    for g in range(20):
        mcts, rnd = sm.MCTSBot(GAME, iterations=200, seed=g), sm.RandomBot(GAME, seed=g)
        seat = g % 2
        bots = [mcts, rnd] if seat == 0 else [rnd, mcts]
        wins_vs_random += play_game(GAME, bots, seed=1000 + g)[seat]
    assert wins_vs_random >= 18
    if spec == "duel":
        return  # Duel's one-ply greedy is a weak baseline (bench/notes/2026-12-01-search-defaults.md): no fixed bar here
    wins_greedy = 0
    for g in range(20):
        greedy, rnd = sm.GreedyBot(GAME, seed=g), sm.RandomBot(GAME, seed=g)
        seat = g % 2
        bots = [greedy, rnd] if seat == 0 else [rnd, greedy]
        wins_greedy += play_game(GAME, bots, seed=2000 + g)[seat]
    assert wins_greedy >= 16


@pytest.mark.parametrize("spec", ["splendor", "duel"])
def test_reused_trees_never_give_illegal_moves(spec):
    # A reused node mixes samples of the cards revealed since the last search; moves
    # that were legal only in some of them must not come back at the new root.
    GAME = sm.load_game(spec)
    for g in range(4):
        bots = [sm.MCTSBot(GAME, iterations=400, seed=g, exploration=1.0), sm.MCTSBot(GAME, iterations=400, seed=g + 50)]
        state = GAME.new_initial_state(seed=300 + g)
        while not state.is_terminal():
            bot = bots[state.current_player()]
            action = bot.step(state)
            assert action in state.legal_actions()
            assert {m.action for m in bot.last_analysis.moves} <= set(state.legal_actions())
            state.apply_action(action)


def test_mcts_bot_takes_every_search_setting():
    bot = sm.MCTSBot(GAME, iterations=60, time_limit=5.0, threads=2, parallelism="tree", seed=3, exploration=0.7,
                     evaluator="random", rollout_cutoff=4, perfect_information=True, memory_limit=1 << 21,
                     reuse_tree=False)
    p = bot.params
    assert (p.iterations, p.time_limit, p.threads, p.parallelism, p.seed, p.exploration, p.evaluator,
            p.rollout_cutoff, p.perfect_information, p.memory_limit, p.reuse_tree) == (
        60, 5.0, 2, "tree", 3, 0.7, "random", 4, True, 1 << 21, False)
    state = GAME.new_initial_state(seed=1)
    assert state.is_legal(bot.step(state))
    assert sm.MCTSBot(GAME, rollout="random").params.evaluator == "random"  # the evaluator's former name
    with pytest.raises(ValueError, match="evaluator is given twice"):
        sm.MCTSBot(GAME, rollout="random", evaluator="heuristic")


def test_mcts_bot_makes_no_move_texts_nobody_reads(monkeypatch: pytest.MonkeyPatch):
    """A bot plays the best move: the texts of its analysis are made only when read."""
    calls: list[str] = []
    state_class = type(GAME.new_initial_state(seed=1))
    for name in ("action_to_string", "action_label"):
        real = getattr(state_class, name)
        monkeypatch.setattr(state_class, name, lambda self, a, _real=real, _name=name: calls.append(_name) or _real(self, a))
    bot = sm.MCTSBot(GAME, iterations=100, seed=1)
    state = GAME.new_initial_state(seed=1)
    for _ in range(10):
        state.apply_action(bot.step(state))
    assert calls == []
    assert bot.last_analysis is not None and bot.last_analysis.best_text == state.action_to_string(
        bot.last_analysis.best_action) and calls == ["action_to_string"]
