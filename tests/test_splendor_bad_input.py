"""Bad input through the Python API: a ValueError naming the problem, state unchanged."""
from __future__ import annotations

import json

import pytest

import splendor_mcts as sm


@pytest.fixture
def state():
    return sm.load_game("splendor").new_initial_state(seed=3)


@pytest.mark.parametrize("action", [-1, 177, 10**6, 45, 60, 61, 67, 77])
def test_illegal_action_ids_are_refused_and_state_unchanged(state, action):
    before = state.to_json()
    with pytest.raises(ValueError, match="illegal action|out of range|incompatible|integer"):
        state.apply_action(action)
    assert state.to_json() == before


def test_non_integer_actions_are_refused(state):
    for bad in ("take WUG", 1.5, None):
        with pytest.raises((TypeError, ValueError)):
            state.apply_action(bad)


def test_actions_after_the_end_are_refused():
    s = sm.load_game("splendor").new_initial_state(seed=1)
    import numpy as np

    rng = np.random.default_rng(0)
    while not s.is_terminal():
        s.apply_action(int(rng.choice(s.legal_actions())))
    with pytest.raises(ValueError, match="game is over"):
        s.apply_action(0)


@pytest.mark.parametrize(
    "text,needle",
    [("", "empty"), ("tkae WUG", "unknown form"), ("take WUGR", "1 to 3"), ("take WWU", "same colour twice"),
     ("take Q", "not a colour"), ("buy 4.1", "does not exist"), ("reserve 1.5", "does not exist"),
     ("buy #91", "does not exist"), ("buy #1", "not on the table"), ("reserve deck 4", "decks are numbered"),
     ("noble 11", "numbered 1 to 10"), ("return X", "not a token colour")],
)
def test_bad_move_text_explains_the_notation(state, text, needle):
    with pytest.raises(ValueError, match=needle) as err:
        state.string_to_action(text)
    assert "moves look like" in str(err.value)


@pytest.mark.parametrize("seat", [-1, 2, 99])
def test_out_of_range_seats(state, seat):
    for call in (state.observation_json, state.observation_tensor):
        with pytest.raises(ValueError, match="seat"):
            call(seat)
    with pytest.raises(ValueError, match="seat"):
        state.determinize(seat, 1)


def test_action_to_string_out_of_range(state):
    with pytest.raises(ValueError, match="out of range"):
        state.action_to_string(500)


def _edit(state, fn):
    d = json.loads(state.to_json())
    d.pop("bank")  # derived fields are optional on input; the edits below set them when they test them
    for p in d["players"]:
        p.pop("points")
        p.pop("bonuses")
    fn(d)
    return json.dumps(d)


@pytest.mark.parametrize(
    "edit,needle",
    [
        (lambda d: d["players"][0]["tokens"].update(red=5), r"players\[0\]\.tokens\.red: 5 exceeds the 4 in the game"),
        (lambda d: (d["players"][0]["tokens"].update(red=3), d["players"][1]["tokens"].update(red=2)),
         r"players: the players hold 5 red tokens but the game has only 4"),
        (lambda d: d["players"][1]["tokens"].update(red=-1), r"players\[1\]\.tokens\.red: -1 is less than 0"),
        (lambda d: d.update(bank={"white": 4, "blue": 4, "green": 4, "red": 4, "black": 4, "gold": 4}),
         r"bank\.gold: 4 does not add up"),
        (lambda d: d["players"][0]["cards"].append(d["table"][0][0]), r"card #\d+ is also at"),
        (lambda d: d["players"][0]["cards"].append(91), r"players\[0\]\.cards\[0\]: card id 91 does not exist"),
        (lambda d: d["decks"][0].pop(), r"is nowhere"),
        (lambda d: d["table"][0].__setitem__(0, d["table"][1][0]), r"table\[0\]\[0\]: card #\d+ is a level-2 card, not level 1"),
        (lambda d: d["players"][0].update(tokns={}), r'players\[0\]: unknown field "tokns" \(did you mean "tokens"\?\)'),
        (lambda d: d.update(to_move=2), r"to_move: 2 is more than 1"),
        (lambda d: d.update(phase="lunch"), r'phase: unknown phase "lunch"'),
        (lambda d: d.update(phase="return_tokens"), r"return_tokens needs"),
        (lambda d: d.update(phase="over"), r"cannot be over"),
        (lambda d: d["variant"].update(players=3), r"variant\.players: the position says 3"),
        (lambda d: d.update(game="duel"), r'game: this is a position of "duel"'),
        (lambda d: d["players"].pop(), r"players: expected 2 elements, found 1"),
        (lambda d: d["players"][0].update(nobles=[1]), r"noble #1"),
        (lambda d: d["players"][0].update(points=3), r"players\[0\]\.points: 3 does not match"),
        (lambda d: d["players"][0]["tokens"].update(white=4, blue=4, green=3), r"tokens exceed the limit"),
        (lambda d: d["players"][0]["reserved"].append({"level": 1, "blind": True}), r"unknown reserved card"),
        (lambda d: d.update(decks=[36, 26, 16]), r"decks\[0\]: a full position lists each deck"),
    ],
)
def test_inconsistent_json_names_the_problem_and_path(state, edit, needle):
    game = sm.load_game("splendor")
    with pytest.raises(ValueError, match=needle):
        game.state_from_json(_edit(state, edit))


@pytest.mark.parametrize("text", ["", "{", "[]", "null", '{"players": 3}', "{'a': 1}", '{"a": 1,}', "\x00", "1e999"])
def test_malformed_json_is_a_value_error(text):
    with pytest.raises(ValueError):
        sm.load_game("splendor").state_from_json(text)


def test_observation_with_impossible_counts_is_refused(state):
    game = sm.load_game("splendor")
    d = json.loads(state.observation_json(1))
    d["decks"][0] = 30
    with pytest.raises(ValueError, match=r"decks\[0\]: 36 level-1 cards are not seen anywhere"):
        game.state_from_observation(json.dumps(d), seed=1)


def test_bad_seeds(state):
    game = sm.load_game("splendor")
    for seed in (-1, 2**64, "7", 1.5):
        with pytest.raises(ValueError, match="seed"):
            game.new_initial_state(seed=seed)


def test_bad_random_playout_arguments():
    game = sm.load_game("splendor")
    for n in (-1, 1.5, "10"):
        with pytest.raises(ValueError, match="n_games"):
            sm.random_playouts(game, n, seed=1)


def _pending_blind_reserve(edit) -> str:
    """A full position whose seat 0 waits for the card of a blind reserve of level 1."""
    d = json.loads(sm.load_game("splendor").new_initial_state(seed=1).to_json())
    d.update(explicit_chance=True, pending_blind_reserve=1, phase="chance")
    for p in d["players"]:
        p.pop("points"), p.pop("bonuses")
    edit(d)
    return json.dumps(d)


def test_a_pending_blind_reserve_needs_room_in_the_movers_reserve():
    def fill_reserve(d):
        d["players"][0]["reserved"] = [{"card": d["decks"][2].pop(), "blind": False} for _ in range(3)]
    with pytest.raises(ValueError, match=r"pending_blind_reserve: the player to move already holds 3 reserved cards"):
        sm.load_game("splendor").state_from_json(_pending_blind_reserve(fill_reserve))


def test_a_pending_blind_reserve_needs_a_card_in_its_deck():
    def empty_level_1(d):
        d["players"][1]["cards"] += d["decks"][0]
        d["decks"][0] = []
    with pytest.raises(ValueError, match=r"pending_blind_reserve: the level 1 deck is empty"):
        sm.load_game("splendor").state_from_json(_pending_blind_reserve(empty_level_1))


def test_a_pending_blind_reserve_that_can_happen_is_accepted():
    state = sm.load_game("splendor").state_from_json(_pending_blind_reserve(lambda d: None))
    assert state.current_player() == sm.CHANCE and state.legal_actions()


def test_a_move_with_non_ascii_text_is_a_value_error():
    state = sm.load_game("splendor").new_initial_state(seed=1)
    for text in ("take é", "buy ñ.1", "réserve 1.1"):
        with pytest.raises(ValueError, match="cannot read move"):
            state.string_to_action(text)


@pytest.mark.parametrize("game", ["splendor", "duel"])
def test_undecodable_input_bytes_are_a_value_error_naming_the_text(game):
    # Python carries bytes it could not decode (a terminal in the C locale) as lone surrogates.
    state = sm.load_game(game).new_initial_state(seed=1)
    with pytest.raises(ValueError, match="move text is not valid text"):
        state.string_to_action("take \udcff")
    card_from_text = getattr(sm._core, f"{game}_card_from_text")
    with pytest.raises(ValueError, match="card text is not valid text"):
        card_from_text("W2\udcff")


def test_a_line_break_quoted_from_the_input_stays_inside_its_problem_line():
    """Problems are one per line: a newline in a quoted value is escaped, never copied raw."""
    game = sm.load_game("splendor")
    doc = json.loads(game.new_initial_state(seed=1).to_json())
    doc["phase"] = "main\nover"
    doc["to_move"] = 9
    with pytest.raises(ValueError) as refused:
        game.state_from_json(json.dumps(doc))
    lines = str(refused.value).splitlines()
    assert len(lines) == 2 and all(line.startswith(("phase: ", "to_move: ")) for line in lines), lines
    assert 'unknown phase "main\\nover"' in str(refused.value)


def test_an_action_id_beyond_the_engine_ints_is_a_type_error_and_changes_nothing():
    """Documented in docs/engine-interface.md: pybind11 cannot convert it, so no engine code runs."""
    state = sm.load_game("splendor").new_initial_state(seed=1)
    before = state.to_json()
    for action in (2**31, 2**70):
        with pytest.raises(TypeError):
            state.apply_action(action)
    assert state.to_json() == before
