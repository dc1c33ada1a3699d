"""bench/observation_features.py's derived features, against the rules: where the observer is
to move, it "can buy" exactly the face-up cards the engine lets it buy, and each player's
needs for the nobles on the table are what the view's bonuses leave."""
from __future__ import annotations

import json
import random

import numpy as np

import splendor_mcts as sm
from tool_modules import load_tool

PER_PLAYER = 172
CARDS = 18
BUYABLE = slice(CARDS * 5 + 3 * CARDS, CARDS * 5 + 4 * CARDS)  # after the needs, their sums and both shortfalls
NOBLES = slice(CARDS * 5 + 4 * CARDS, PER_PLAYER)
COLOURS = ("white", "blue", "green", "red", "black")


def test_the_observer_can_buy_exactly_the_face_up_cards_it_may_buy():
    features = load_tool("observation_features", "bench")
    game = sm.load_game("splendor", players=2)
    rng = random.Random(4)
    requirement = {n["id"]: n["requirement"] for n in game.nobles()}
    checked = buys = 0
    for g in range(12):
        state = game.new_initial_state(seed=g)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.dealt_outcome())
                continue
            moves = [state.action_to_string(a) for a in state.legal_actions()]
            if not any(m.startswith("return") or m.startswith("noble") for m in moves):
                observer = state.current_player()
                derived = features.derived(state.observation_tensor(observer)[None])
                assert derived.shape == (1, 2 * PER_PLAYER)
                can_buy = derived[0, BUYABLE][:12]
                allowed = np.zeros(12)
                for m in moves:
                    if m.startswith("buy ") and "." in m:
                        level, slot = map(int, m[4:].split("."))
                        allowed[4 * (level - 1) + slot - 1] = 1
                np.testing.assert_array_equal(can_buy, allowed, err_msg=f"{moves}")
                view = json.loads(state.observation_json(observer))
                for r in range(2):
                    bonuses = view["players"][(observer + r) % 2]["bonuses"]
                    expected = np.zeros(10)
                    for noble in view["nobles"]:
                        expected[noble - 1] = sum(max(0, requirement[noble][c] - bonuses[c]) for c in COLOURS)
                    np.testing.assert_array_equal(derived[0, r * PER_PLAYER:(r + 1) * PER_PLAYER][NOBLES], expected)
                checked += 1
                buys += int(allowed.sum())
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 200 and buys > 100
