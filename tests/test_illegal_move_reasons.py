"""Why a move is not legal, in the player's terms: each reason of both games through
``why_illegal`` and ``apply_action``, and agreement with ``is_legal`` over random games."""
from __future__ import annotations

import random

import pytest
from duel_positions import DuelPosition
from duel_positions import act as duel_act
from splendor_positions import Position, act

import splendor_mcts as sm

RED_5 = 43  # level 2, white 2pt R5
RED_BONUS = 28  # a level-1 card with a red bonus


def reason(state, move: str) -> str:
    action = state.string_to_action(move)
    assert not state.is_legal(action), move
    return state.why_illegal(action)


def test_red_bonus_card_is_red():
    assert next(c for c in sm.load_game("splendor").cards() if c["id"] == RED_BONUS)["bonus"] == "red"


@pytest.mark.parametrize("build,move,why", [
    (lambda p: p.on_table(2, 4, RED_5).give_cards(0, RED_BONUS).tokens(0, red=1), "buy 2.4",
     "needs 3 more red (you have 1 red token, 1 red bonus, 0 gold)"),
    (lambda p: p.on_table(2, 4, RED_5).tokens(0, red=2, gold=1), "buy 2.4",
     "needs 3 more red, your 1 gold pays only 1 (you have 2 red tokens, 0 red bonuses, 1 gold)"),
    (lambda p: p.tokens(0, green=2), "take GG", "only 2 green left (4 needed to take two)"),
    (lambda p: p.tokens(0, white=4), "take WUG", "no white left in the bank"),
    (lambda p: p, "take WU", "take three different colours while three or more are in the bank (5 are)"),
    (lambda p: p.reserve(0, 1).reserve(0, 2).reserve(0, 3), "reserve 1.1",
     "you already hold 3 reserved cards (the limit is 3)"),
    (lambda p: p.empty_deck(1), "reserve deck 1", "the level 1 deck is empty"),
    (lambda p: p.empty_deck(1).give_cards(1, p.table_card(1, 4)), "reserve 1.4", "slot 1.4 is empty"),
    (lambda p: p.empty_deck(1).give_cards(1, p.table_card(1, 4)), "buy 1.4", "slot 1.4 is empty"),
    (lambda p: p.reserve(0, 1), "buy reserved 2", "you have no reserved card 2 (you hold 1)"),
    (lambda p: p.tokens(0, red=2), "return R", "tokens are returned only when holding more than 10 (you hold 2)"),
    (lambda p: p, "noble 1", "a noble is chosen only at the end of a turn when several visit you"),
    (lambda p: p, "pass", "pass only when no other move exists (take WUG is legal)"),
    (lambda p: p, "reveal #5", "nothing is being revealed now"),
])
def test_splendor_main_phase_reasons(build, move, why):
    state = build(Position()).state()
    assert reason(state, move) == why
    with pytest.raises(ValueError, match=f"illegal action {state.string_to_action(move)} \\({move}\\): "):
        state.apply_action(state.string_to_action(move))


def test_splendor_returning_and_chance_reasons():
    state = act(Position().tokens(0, white=3, blue=3, green=3, black=1).state(), "take WUG")
    assert reason(state, "take RK") == "return tokens first (you hold 13 tokens, the limit is 10)"
    assert reason(state, "return Y") == "you have no gold token"
    opening = sm.load_game("splendor").new_initial_state(seed=1, explicit_chance=True)
    assert reason(opening, "take WUG") == "a noble must be revealed first"
    assert reason(opening, "reveal #5") == "a noble is revealed now, not a card"


def test_duel_take_reasons():
    state = DuelPosition().set_board("WUGRK", "WUGRK", "WUGRK", "WU*RK", "PP*.*").state()
    assert reason(state, "take c3 c4 c5") == "c4 holds gold (gold comes only with a reserve)"
    assert reason(state, "take b5 c5 d5") == "c5 holds gold (gold comes only with a reserve)"
    assert reason(state, "take d4 d5") == "d5 is empty (an empty cell breaks the line)"
    assert reason(state, "privilege a1") == "you have no privilege to spend"
    assert reason(state, "reserve 1.1 gold a1") == "a1 holds white, not gold"
    assert reason(state, "buy r2") == "you have no reserved card r2 (you hold 0)"
    assert reason(state, "discard red") == "tokens are returned only when holding more than 10 (you hold 0)"
    assert reason(state, "steal red") == "stealing comes only with a card's or royal's steal ability"
    assert reason(state, "royal 1") == "a royal card is taken only on reaching 3 or 6 crowns"
    with pytest.raises(ValueError, match=r"illegal action \d+ \(take c3 c4 c5\): c4 holds gold"):
        state.apply_action(state.string_to_action("take c3 c4 c5"))


def test_duel_privilege_reserve_and_buy_reasons():
    pos = DuelPosition().set_board("WUGRK", ".....", ".....", ".....", ".....").tokens(0, black=2)
    pos.players[0]["privileges"] = 1
    state = pos.state()
    assert reason(state, "privilege b2") == "b2 is empty"
    assert reason(state, "reserve 1.1 gold a1") == "no gold is on the board (reserving takes one)"
    joker = 26  # joker 1pt K4P1
    state = pos.slot(1, 1, joker).state()
    assert reason(state, "buy 1.1") == "a joker needs a card of yours with a bonus to join (you own none)"
    state = duel_act(state, "replenish")
    while state.is_chance_node():
        state.apply_action(state.dealt_outcome())
    assert reason(state, "privilege a1") == "privileges cannot be spent after replenishing this turn"
    assert reason(state, "replenish") == "you already replenished this turn"
    full = DuelPosition().set_board("*WUGR", "KWUGR", "KWUGR", "KWUGR", "KPP**")
    state = full.reserve(0, 2).reserve(0, 3).reserve(0, 4).state()
    assert reason(state, "replenish") == "the bag is empty"
    assert reason(state, "reserve 1.1 gold a1") == "you already hold 3 reserved cards (the limit)"
    assert reason(state, "buy r1") == "needs 3 more blue (you have 0 blue tokens, 0 blue bonuses, 0 gold)"


def test_duel_discard_phase_reason():
    state = DuelPosition().set_board("WUG..", ".....", ".....", ".....", ".....").tokens(
        0, white=3, blue=3, green=3, red=1).state()
    state = duel_act(state, "take a1 b1 c1")
    assert reason(state, "take a2") == "return tokens first (you hold 13 tokens, the limit is 10)"
    assert reason(state, "discard pearl") == "you have no pearl token"


@pytest.mark.parametrize("spec", ["splendor", "duel"])
def test_every_refusal_has_a_reason_and_no_legal_move_has_one(spec):
    game = sm.load_game(spec)
    rng = random.Random(7)
    for seed in range(3):
        state = game.new_initial_state(seed=seed, explicit_chance=True)
        while not state.is_terminal():
            for a in range(game.num_distinct_actions()):
                assert (state.why_illegal(a) == "") == state.is_legal(a), (seed, state.action_to_string(a))
            legal = state.legal_actions()
            state.apply_action(rng.choice(legal))
        assert state.why_illegal(0) == "the game is over"
