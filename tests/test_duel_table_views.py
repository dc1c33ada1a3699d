"""Splendor Duel positions written as a player sees the table (issue 13 item 1): bought
cards per colour (cards, bonuses, points, crowns), jokers by the colour they joined,
colourless cards, decks inferred; the engine draws the unknown cards from the unseen ones,
consistently with the summaries, in every door."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from test_play_cli import play
from test_table_views import assert_refused, hint_through_both_doors, random_stop

import splendor_mcts as sm
from splendor_mcts import _core
from splendor_mcts.games.positions import PositionError, as_the_table_shows, read_position

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "duel-table-view.json"
GAME = sm.load_game("duel")
CARDS = GAME.cards()


def example() -> dict:
    return json.loads(EXAMPLE.read_text())


def owned(state, seat: int) -> list[dict]:
    """A seat's bought cards in the full state: listed and drawn for a summary."""
    player = json.loads(state.to_json())["players"][seat]
    return player["cards"] + player.get("sampled_cards", [])


def shown(state, seat: int) -> dict:
    """What the table shows of a seat's bought cards (as_the_table_shows of its full list)."""
    full = {"game": "duel", "players": [{"cards": owned(state, seat)}]}
    return as_the_table_shows(full, 0, CARDS)["players"][0]["bought"]


def test_the_example_reads_with_its_summaries_and_inferred_decks():
    read = read_position(EXAMPLE.read_text(), seed=3)
    state = read.state
    assert read.observer == 0 and _core.has_sampled_cards(state)
    assert shown(state, 1) == {"white": {"cards": 2, "bonuses": 2, "points": 2, "crowns": 2},
                               "blue": {"cards": 2, "bonuses": 2, "points": 2, "crowns": 2},
                               "green": {"cards": 1, "bonuses": 1, "points": 0, "crowns": 0},
                               "red": {"cards": 1, "bonuses": 1, "points": 2, "crowns": 1},
                               "black": {"cards": 1, "bonuses": 1, "points": 0, "crowns": 0}}
    view = json.loads(state.observation_json(0))
    assert view["players"][1]["cards"] == [] and view["players"][1]["bought"]["red"] == \
        {"cards": 1, "bonuses": 1, "points": 2, "crowns": 1}
    assert view["players"][1]["colour_points"] == {"white": 2, "blue": 2, "green": 0, "red": 2, "black": 0}
    full = json.loads(state.to_json())
    placed = sum(len(row) - row.count(None) for row in full["pyramid"]) + sum(len(d) for d in full["decks"])
    placed += sum(len(p["cards"]) + len(p.get("sampled_cards", [])) + len(p["reserved"]) for p in full["players"])
    assert placed == 67
    # The view written back reads to the same view (the decks are then given and agree),
    # and the full state keeps the drawn cards unknown.
    assert read_position(json.dumps(view), seed=8).state.observation_json(0) == state.observation_json(0)
    again = GAME.state_from_json(state.to_json())
    assert _core.has_sampled_cards(again) and again.observation_json(0) == state.observation_json(0)


def test_samples_keep_the_summaries_and_draw_other_cards():
    state = read_position(EXAMPLE.read_text(), seed=1).state
    blacks = set()
    for seed in range(60):
        sample = state.clone()
        sample.determinize(0, seed)
        assert shown(sample, 1) == shown(state, 1)
        assert sample.observation_json(0) == state.observation_json(0)
        blacks |= {c for c in json.loads(sample.to_json())["players"][1]["sampled_cards"] if CARDS[c - 1]["bonus"] == "black"}
    # The opponent's black card (no point, no crown) is any of the three such cards seen nowhere.
    assert blacks == {21, 23, 24}


@pytest.mark.parametrize("edit, path, words", [
    (lambda p: p["players"][1]["bought"].update(red={"cards": 1, "points": 6}), "players[1].bought.red",
     "no 1 red card with 6 points, 0 crowns and 1 bonus are left"),
    (lambda p: p["players"][1]["bought"].update(red={"cards": 2, "bonuses": 1}), "players[1].bought.red.bonuses",
     "1 bonuses from 2 cards"),
    (lambda p: p["players"][1]["bought"].update(red={"cards": 1, "pts": 2}), "players[1].bought.red",
     'unknown field "pts"'),
    (lambda p: p["players"][1]["bought"].update(purple=1), "players[1].bought", 'unknown field "purple"'),
    (lambda p: p["players"][1]["bought"].update(jokers={"green": {"cards": 1, "points": 5}}), "players[1].bought.jokers.green",
     "no 1 joker joined to green with 5 points and 0 crowns"),
    (lambda p: p["players"][1]["bought"].pop("black") and p["players"][1]["bought"].update(jokers={"black": 1}),
     "players[1].bought.jokers.black", "the player has no black card"),
    (lambda p: p["players"][1]["bought"].update(none={"cards": 1, "points": 4}), "players[1].bought.none",
     "no 1 colourless card with 4 points"),
    (lambda p: p["players"][0].update(bought={"black": {"cards": 1, "points": 0}}), "players[0].bought.black",
     "1 cards on black cards, but the cards \"cards\" lists give 2"),
    (lambda p: p.update(decks=[12, 14, 6]), "decks", "do not add up"),
    (lambda p: p["players"][1].update(points=12), "players[1].points", "12 does not match the cards and royals"),
])
def test_bad_summaries_are_refused_naming_the_path(edit, path, words):
    assert_refused(example(), edit, path, words)


def test_a_full_position_must_name_every_card():
    full = json.loads(read_position(EXAMPLE.read_text()).state.to_json())
    full["players"][1]["bought"] = {"red": 1}
    with pytest.raises(PositionError, match="players\\[1\\].bought: a full position names every card"):
        GAME.state_from_json(json.dumps(full))


@pytest.mark.parametrize("deal", range(12))
def test_random_games_read_back_from_summaries_with_the_same_tensor_moves_and_view(deal):
    state = random_stop(GAME, deal, random.Random(deal), 20, 90)
    if state is None:
        pytest.skip("the game ended before the stop")
    observer = state.current_player()
    view = json.loads(state.observation_json(observer))
    for seat in (observer ^ 1, observer) if deal % 2 else (observer ^ 1,):
        view = as_the_table_shows(view, seat, CARDS)
    for decks in (True, False):
        text = dict(view) if decks else {k: v for k, v in view.items() if k != "decks"}
        read = read_position(json.dumps(text), seed=deal).state
        if decks:  # the same deck sizes (without, a 1-point card's level is open): the same moves and tensor
            assert sorted(read.legal_actions()) == sorted(state.legal_actions())
            assert list(read.observation_tensor(observer)) == list(state.observation_tensor(observer))
        for seat in range(2):
            assert shown(read, seat) == shown(state, seat)
        written = json.loads(read.observation_json(observer))
        assert written["players"][observer ^ 1].get("bought", {}) == view["players"][observer ^ 1]["bought"]
        sample = read.clone()
        sample.determinize(observer, deal)
        assert sample.observation_json(observer) == read.observation_json(observer)


def test_a_hint_through_the_cli_and_the_protocol():
    cli, protocol = hint_through_both_doors(EXAMPLE, 400)
    assert cli and cli == protocol


def test_play_follows_a_game_under_way_from_a_typed_duel_view(tmp_path):
    state = read_position(EXAMPLE.read_text(), seed=0).state
    sampled = json.loads(state.to_json())["players"][1]["sampled_cards"]
    revealed = next(c for c in sampled if CARDS[c - 1]["bonus"] == "black")  # one of three that fit
    saved = tmp_path / "followed.json"
    # Seat 1 (the observer, to move) reserves the pyramid's first level-1 card; the table then
    # shows the card the load had drawn as seat 2's black card: another is drawn instead.
    run = play(["reserve 1.1 gold b2", f"#{revealed}", f"save {saved}", "quit"], "--game", "duel", "--follow",
               "--load", str(EXAMPLE))
    assert run.returncode == 0, run.stderr
    assert "loaded the position" in run.stdout and "cannot be revealed" not in run.stdout
    record = json.loads(saved.read_text())
    assert "position" in record["meta"] and len(record["actions"]) == 2
    again = play(["board", "quit"], "--game", "duel", "--follow", "--load", str(saved))
    assert again.returncode == 0, again.stderr
    assert "loaded 2 actions" in again.stdout
