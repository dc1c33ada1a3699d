"""Positions for search and bot tests, found by seeded random play (no hand-made states)."""
from __future__ import annotations

import json
import random
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Callable

import splendor_mcts as sm
from splendor_mcts.search import network_index, networks


def random_position(game: sm.Game, seed: int, plies: int) -> object:
    """The position after up to ``plies`` random moves from deal ``seed`` (never terminal)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    for _ in range(plies):
        legal = state.legal_actions()
        child = state.clone()
        child.apply_action(rng.choice(legal))
        if child.is_terminal():
            break
        state = child
    return state


def final_moves(state: object) -> tuple[set[int], set[int], set[int]]:
    """Moves that end the game with the mover winning outright, losing outright, and
    moves that do not end it."""
    player = state.current_player()
    wins, losses, others = set(), set(), set()
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        if not child.is_terminal():
            others.add(a)
        elif child.returns()[player] == 1.0:
            wins.add(a)
        elif child.returns()[player] == 0.0:
            losses.add(a)
    return wins, losses, others


def opponent_wins_next(state: object, action: int) -> bool:
    """After ``action`` the other player is to move and has a move that wins at once."""
    child = state.clone()
    child.apply_action(action)
    return child.current_player() != state.current_player() and bool(final_moves(child)[0])


def find_win_in_one(game: sm.Game, seed: int, min_losing: int = 5) -> tuple[object, set[int]]:
    """A position where some moves win at once and at least ``min_losing`` lose at once
    (Splendor: the last seat of the final round). In games that end the moment someone
    wins (Duel) no move loses at once: there the losing moves are those after which the
    opponent can win at once."""
    instant_end = game.name == "duel"
    rng = random.Random(seed)
    for deal in range(seed * 1000, seed * 1000 + 500):
        state = game.new_initial_state(seed=deal)
        while not state.is_terminal():
            legal = state.legal_actions()
            wins, losses, others = final_moves(state)
            if wins and instant_end:
                losses = {a for a in others if opponent_wins_next(state, a)}
            if wins and len(losses) >= min_losing:
                return state, wins
            state.apply_action(rng.choice(legal))
    raise AssertionError("no win-in-one position found")


def play_game(game: sm.Game, bots: list, seed: int) -> list[float]:
    """One game from deal ``seed``; ``bots[seat]`` plays ``seat``. Returns the returns."""
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    return state.returns()


def policy_wins_against_random(game: sm.Game, n_games: int, check: Callable[[object], None]) -> float:
    """Games seat 0 wins (ties shared) playing the rollout policy (``heuristic_action``)
    against uniformly random moves from deals 0..n_games-1. Every policy move must be
    legal; ``check(state)`` runs on every position on the way."""
    wins = 0.0
    for g in range(n_games):
        state = game.new_initial_state(seed=g)
        rng = random.Random(g)
        while not state.is_terminal():
            check(state)
            if state.current_player() == 0:
                action = state.heuristic_action(rng.randrange(2**63))
                assert action in state.legal_actions()
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        wins += state.returns()[0]
    return wins


def win_in_one_positions(game: sm.Game, seeds: range, per_game: int = 1) -> list[tuple[object, set[int]]]:
    """Positions of random games (deals ``seeds``, random moves) where some move ends the
    game at once with the mover winning outright, and those moves: up to ``per_game``
    per game, from its end backwards. In Splendor the game ends only with a round, so
    these are the last seat's moves; an earlier seat's move that reaches the winning
    points is no certain win (later seats still play) and is not counted."""
    found = []
    for deal in seeds:
        rng = random.Random(deal)
        state = game.new_initial_state(seed=deal)
        game_positions = []
        while not state.is_terminal():
            wins = final_moves(state)[0]
            if wins:
                game_positions.append((state.clone(), wins))
            state.apply_action(rng.choice(state.legal_actions()))
        found += game_positions[-per_game:]
    return found


def sees_every_held_card(state: object) -> bool:
    """No card an opponent holds is hidden from the player to move (no blind reserve of
    theirs): then the cards it cannot see are exactly those left in the decks."""
    view = json.loads(state.observation_json(state.current_player()))
    return all("card" in r for p in view["players"] for r in p["reserved"])


def end_positions(game: sm.Game, seeds: range, last: int) -> list[object]:
    """The last ``last`` decisions of random games (deals ``seeds``, random moves) where
    the player to move sees every card the opponents hold (what ``_core.forced_win`` takes)."""
    found = []
    for deal in seeds:
        state, rng, history = game.new_initial_state(seed=deal), random.Random(deal), []
        while not state.is_terminal():
            history.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
        found += [s for s in history[-last:] if not s.is_chance_node() and sees_every_held_card(s)]
    return found


def default_networks_off(monkeypatch, folder: Path) -> None:
    """The package's networks with every index entry off, copied into ``folder`` and named by
    ``$SPLENDOR_MCTS_NETWORKS`` for this test, whatever the package turns on: the default
    search is then the one without a network (``network=shipped`` still finds them)."""
    package = networks.folder()
    entries = network_index.read_index(package)
    folder.mkdir(parents=True, exist_ok=True)
    for entry in entries.values():
        shutil.copyfile(package / entry.file, folder / entry.file)
    network_index.write_index(folder, {family: replace(use, on=False) for family, use in entries.items()})
    monkeypatch.setenv(networks.FOLDER_VARIABLE, str(folder))
