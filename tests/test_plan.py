"""The plan in words (docs/hints.md, "The plan") on hand-made positions where the plan is
known: the card the line aims at and when, and the threat the best turn stops and how."""
from __future__ import annotations

import splendor_mcts as sm
from splendor_mcts.analysis.advice import advise
from splendor_mcts.analysis.plan import Plan, aim, how_stopped, visible_cards
from splendor_mcts.analysis.threats import WINS, Threat

from splendor_positions import Position
from threat_reference import threat_position


def aim_position() -> Position:
    """Splendor, 2 players, seat 1 to move with 14 points (white 4pt K7, white 4pt W3R3K6,
    white 5pt W3K7, and black 1pt U4 bought) and 3 green and 3 black tokens: `white 1pt G4`
    at 1.1 and `green 1pt K4` at 1.2 (and `red 2pt K5` at 2.3, with its black bonus) each win
    it the game once it has one more token."""
    return (Position(players=2, seed=3).give_cards(0, 72, 73, 74, 40).tokens(0, green=3, black=3)
            .on_table(1, 1, 8).on_table(1, 2, 24).set(to_move=0))


def line(state, *moves: str) -> list[int]:
    """The actions of ``moves`` played one after another from ``state``."""
    probe, out = state.clone(), []
    for move in moves:
        out.append(probe.string_to_action(move))
        probe.apply_action(out[-1])
    return out


def test_the_aim_is_the_first_visible_card_the_line_buys_and_when():
    state = aim_position().state()
    assert aim(state, line(state, "take WGK", "take WUR", "buy 1.2")) == ("buy 1.2 (green 1pt K4)", 1)
    # a card bought on a later turn counts those turns; the turn being played counts none
    assert aim(state, line(state, "take WGK", "take WUR", "reserve 3.1", "take WUR", "buy 1.1")) == \
        ("buy 1.1 (white 1pt G4)", 2)
    assert aim(state, line(state, "take WGK", "take WUR")) == (None, None)


def test_the_cards_seen_are_the_table_and_ones_own_reserve():
    p = aim_position().reserve(0, 16).reserve(1, 32, blind=True).reserve(1, 41)
    state = p.state()
    seen = visible_cards(state, 0)
    assert {p.table_card(level, slot) for level in (1, 2, 3) for slot in (1, 2, 3, 4)} | {16} == seen
    assert 32 not in seen and 41 not in seen  # seat 2's reserves are no aim of seat 1's


def test_the_plan_in_words():
    plan = Plan(turn="take WGK", target="buy 1.2 (green 1pt K4)", target_turns=1)
    assert plan.words() == "take WGK, aiming at buy 1.2 (green 1pt K4) next turn"
    plan = Plan(turn="reserve 2.1 (blue 2pt U5)", target="buy 1.1 (white 1pt G4)", target_turns=3,
                stops="seat 2's win with buy 2.1 (blue 2pt U5)", by="reserving that card")
    assert plan.words() == ("reserve 2.1 (blue 2pt U5), aiming at buy 1.1 (white 1pt G4) in 3 of your turns; "
                            "it stops seat 2's win with buy 2.1 (blue 2pt U5) by reserving that card")
    plan = Plan(turn="take WRK", allows="seat 2 wins next turn with buy 2.1 (blue 2pt U5)")
    assert plan.words() == "take WRK; after it seat 2 wins next turn with buy 2.1 (blue 2pt U5)"
    assert Plan(turn="take WGK").words() == "take WGK, with no card you can see bought in your next turns of the line"


def test_how_a_turn_stops_a_threat():
    threat = Threat(WINS, seat=1, moves=["buy 2.1"], labels=["buy 2.1 (blue 2pt U5)"])
    assert how_stopped(["reserve 2.1"], threat) == "reserving that card"
    assert how_stopped(["buy 2.1"], threat) == "buying that card"
    assert how_stopped(["privilege c3", "take c2"], threat) == "taking the tokens it needs"
    assert how_stopped(["buy 1.1"], threat) is None


def test_the_hint_plans_to_block_the_win_it_sees():
    state = threat_position().state()
    analysis = sm.analyze(state, iterations=4000, threads=1, seed=1, top_k=5, turns=True, analysis_moves=5)
    advice = advise(state, analysis)
    assert analysis.turns[0].text == "reserve 2.1"
    assert advice.threats[0].status != WINS and all(t.status == WINS for t in advice.threats[1:])
    [summary] = advice.summaries
    assert summary.stopped_by == ["reserve 2.1"] and len(summary.allowed_by) == len(analysis.turns) - 1
    assert advice.plan is not None
    assert (advice.plan.stops, advice.plan.by) == ("seat 2's win with buy 2.1 (blue 2pt U5)", "reserving that card")
    assert advice.plan.words().startswith("reserve 2.1 (blue 2pt U5)")


def test_the_hint_aims_at_the_card_that_wins():
    state = aim_position().state()
    analysis = sm.analyze(state, iterations=4000, threads=1, seed=1, top_k=3, turns=True, analysis_moves=3)
    plan = advise(state, analysis).plan
    assert plan is not None and plan.target_turns == 1  # one more token, then any of the cards that score
    assert plan.target is not None and plan.target.startswith("buy ")
    assert plan.words().startswith(f"{analysis.turns[0].label}, aiming at {plan.target} next turn")
