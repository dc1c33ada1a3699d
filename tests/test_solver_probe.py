"""The solver's root probe (cpp/search/probe.hpp, docs/search.md "Proven results"): near
the end of a game the search runs the exhaustive check of cpp/core/forced_win.hpp at the
root, so a win within two of the player's turns, whatever the others do and whatever is
revealed, is proven and played; where an opponent holds a card the player cannot see it
does not run; a position with no such win gets no proof; the search stays deterministic."""
from __future__ import annotations

import random
import subprocess
import sys

import pytest

import splendor_mcts as sm
from splendor_mcts import _core
from splendor_mcts.analysis.running import SearchLimits
from splendor_mcts.bots import MCTSBot
from splendor_mcts.tournament.agents import parse_agent_spec
from search_helpers import end_positions, sees_every_held_card

SPLENDOR = sm.load_game("splendor", players=2)
DUEL = sm.load_game("duel")
ITERATIONS = 20_000
NODES = 300_000


def own_turns(turns_of_play: int, players: int) -> int:
    """The mover's turns among ``turns_of_play`` turns of play that begin with its own."""
    return (turns_of_play - 1) // players + 1


def wins_in_two(game: sm.Game, deals: range) -> list[object]:
    """Positions with a forced win in two turns but none in one, which the exhaustive
    check decides within half the positions the probe gets at ITERATIONS (the probe
    first spends some on a win in one)."""
    return [s for s in end_positions(game, deals, 8)
            if _core.forced_win(s, 1, NODES) is False and _core.forced_win(s, 2, ITERATIONS // 2) is True]


SPLENDOR_DEALS = range(15, 22)  # deals whose last positions hold such wins (found by the check)
DUEL_DEALS = range(31, 39)


@pytest.mark.parametrize("game,deals", [(SPLENDOR, SPLENDOR_DEALS), (DUEL, DUEL_DEALS)], ids=["splendor", "duel"])
def test_a_win_in_two_turns_is_proven_and_played(game, deals):
    positions = wins_in_two(game, deals)
    assert len(positions) >= 2
    for i, state in enumerate(positions):
        analysis = sm.analyze(state, iterations=ITERATIONS, seed=i, top_k=None)
        assert analysis.proof == "win", state.to_json()
        assert analysis.root.iterations == 0 and analysis.root.probe_nodes > 0  # proven before any iteration
        best = analysis.moves[0]
        assert best.action == analysis.best_action and best.proof == "win" and best.win_rate == best.lcb == 1.0
        assert best.proof_turns == analysis.proof_turns > 1
        assert own_turns(best.proof_turns, game.num_players()) == 2
        assert _core.forced_win(state, 2, NODES, analysis.best_action) is True  # the move played wins
        assert analysis.to_dict()["moveInfos"][0]["proofTurns"] == best.proof_turns
        assert analysis.root.win_rates[state.current_player()] == 1.0  # no iteration: the known result


def test_a_win_in_one_comes_first():
    """Where seat 1 (the first) wins within its own turn (the round then ends with seat 2's
    turn, whatever it does), the probe proves that, not a longer win."""
    in_one = [s for s in end_positions(SPLENDOR, range(0, 12), 8)
              if s.current_player() == 0 and _core.forced_win(s, 1, 1000) is True]  # within the probe's budget
    assert in_one
    for state in in_one:
        analysis = sm.analyze(state, iterations=2000, seed=1, top_k=None)
        assert analysis.proof == "win" and analysis.proof_turns <= 2  # seat 1's last turn ends the round
        assert _core.forced_win(state, 1, NODES, analysis.best_action) is True


def test_no_probe_where_an_opponent_holds_a_blind_reserve():
    """The exhaustive check needs the unseen cards to be exactly the decks'. With an
    opponent's blind reserve the probe does not run; given the true cards
    (perfect_information) it runs on the same position, so the reserve is what stops it."""
    hidden = []
    for deal in range(40):
        state, rng, history = SPLENDOR.new_initial_state(seed=deal), random.Random(deal), []
        while not state.is_terminal():
            history.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
        hidden += [s for s in history[-8:] if not s.is_chance_node() and not sees_every_held_card(s)]
    checked = 0
    for state in hidden:
        true_cards = sm.analyze(state, iterations=500, seed=1, top_k=None, perfect_information=True)
        if not true_cards.root.probe_nodes:
            continue  # its gate sees no win in reach: nothing to show here
        checked += 1
        analysis = sm.analyze(state, iterations=500, seed=1, top_k=None)
        assert analysis.root.probe_nodes == 0 and analysis.root.probe_seconds == 0
    assert checked >= 3


@pytest.mark.parametrize("game", [SPLENDOR, DUEL], ids=lambda g: g.name)
def test_no_proof_without_a_forced_win(game):
    """Positions where the exhaustive check finds no win within two turns: the probe
    runs (the gate lets it) and proves nothing."""
    none = [s for s in end_positions(game, range(0, 8), 8) if _core.forced_win(s, 2, NODES) is False]
    ran = 0
    for state in none:
        analysis = sm.analyze(state, iterations=3000, seed=2, top_k=None)
        assert analysis.proof != "win"
        assert all(m.proof != "win" for m in analysis.moves)
        ran += analysis.root.probe_nodes > 0
    assert ran >= 3


def test_deterministic_with_one_thread():
    state = wins_in_two(SPLENDOR, SPLENDOR_DEALS)[0]
    first = sm.analyze(state, iterations=ITERATIONS, seed=5, top_k=None, threads=1)
    again = sm.analyze(state, iterations=ITERATIONS, seed=5, top_k=None, threads=1)
    assert (first.best_action, first.proof, first.proof_turns, first.root.probe_nodes) == \
           (again.best_action, again.proof, again.proof_turns, again.root.probe_nodes)
    # Out of budget (too few iterations for the check): the same search, the same tree.
    short = [sm.analyze(state, iterations=50, seed=5, top_k=None, threads=1) for _ in range(2)]
    assert short[0].root.probe_nodes == short[1].root.probe_nodes > 0
    assert [(m.action, m.visits) for m in short[0].moves] == [(m.action, m.visits) for m in short[1].moves]


def test_hint_says_wins_in_n_turns(tmp_path):
    state = wins_in_two(SPLENDOR, SPLENDOR_DEALS)[0]
    path = tmp_path / "two.json"
    path.write_text(state.to_json())
    run = subprocess.run([sys.executable, "-m", "splendor_mcts.cli", "hint", str(path), "--iterations", "20000",
                          "--threads", "1"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    turns = sm.analyze(state, iterations=ITERATIONS, seed=0, top_k=None).proof_turns
    assert f"proven: wins in {turns} turns whatever the others do" in " ".join(run.stdout.split())


def test_the_probe_is_on_for_advice_and_off_for_play():
    """The probe's setting (docs/search.md, "Settings"): on for sm.analyze and the tools a
    person reads (analysis mode), off for a bot and play's engine moves; explicit wins."""
    state = wins_in_two(SPLENDOR, SPLENDOR_DEALS)[0]
    assert sm.analyze(state, iterations=ITERATIONS, seed=0).root.probe_nodes > 0
    unprobed = sm.analyze(state, iterations=2000, seed=0, probe=False)
    assert unprobed.root.probe_nodes == 0 and unprobed.root.iterations == 2000
    bot = MCTSBot(SPLENDOR, iterations=2000, seed=0)
    assert bot.params.probe is False and bot.params.solver is True
    bot.step(state)
    assert bot.last_analysis.root.probe_nodes == 0 and bot.last_analysis.root.iterations == 2000
    probing = MCTSBot(SPLENDOR, iterations=ITERATIONS, seed=0, probe=True)
    probing.step(state)
    assert probing.last_analysis.proof == "win" and probing.last_analysis.root.iterations == 0
    assert SearchLimits().search_settings()["probe"] is True
    assert SearchLimits(analysis=False).search_settings()["probe"] is False  # play's engine moves
    assert SearchLimits(analysis=False, settings={"probe": True}).search_settings()["probe"] is True
    assert SearchLimits(settings={"probe": False}).search_settings()["probe"] is False


def test_a_bad_probe_setting_is_named():
    state = wins_in_two(SPLENDOR, SPLENDOR_DEALS)[0]
    with pytest.raises(ValueError, match="probe must be true or false, got 'yes'"):
        sm.analyze(state, iterations=10, probe="yes")
    with pytest.raises(ValueError, match="probe must be true or false"):
        MCTSBot(SPLENDOR, iterations=10, probe=1)
    with pytest.raises(ValueError, match="probe"):
        parse_agent_spec("mcts:time=0.02,probe=maybe")
