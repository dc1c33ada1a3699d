"""Positions written as a player sees the table (issue 13 item 1): bought cards by colour
(cards and points), nobles by requirement, decks inferred; the engine draws the unknown
bought cards from the unseen ones, consistently with the summaries, in every door."""
from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from test_play_cli import play

import splendor_mcts as sm
from splendor_mcts import _core
from splendor_mcts.games.positions import PositionError, as_the_table_shows, read_position

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "splendor-3p-table-view.json"
COLOURS = ("white", "blue", "green", "red", "black")


def example() -> dict:
    return json.loads(EXAMPLE.read_text())


def problems(position: dict) -> list[tuple[str, str]]:
    with pytest.raises(PositionError) as err:
        read_position(json.dumps(position))
    return [(p["path"], p["message"]) for p in err.value.problems]


def bought_by_colour(state, seat: int) -> dict[str, tuple[int, int]]:
    """(cards, points) per colour of a seat's bought cards, from the full state's ids."""
    cards = {c["id"]: c for c in sm.load_game("splendor", players=3).cards()}
    player = json.loads(state.to_json())["players"][seat]
    out = {colour: (0, 0) for colour in COLOURS}
    for card in player["cards"] + player.get("sampled_cards", []):
        n, p = out[cards[card]["bonus"]]
        out[cards[card]["bonus"]] = (n + 1, p + cards[card]["points"])
    return out


def test_the_example_reads_with_its_summaries_and_inferred_decks():
    read = read_position(EXAMPLE.read_text(), seed=3)
    state = read.state
    assert read.observer == 2 and _core.has_sampled_cards(state)
    assert bought_by_colour(state, 0) == {"white": (0, 0), "blue": (1, 0), "green": (1, 1), "red": (0, 0), "black": (2, 0)}
    assert bought_by_colour(state, 1)["red"] == (2, 3)
    view = json.loads(state.observation_json(2))
    assert view["players"][1]["bought"] == {"white": {"cards": 1, "points": 0}, "blue": {"cards": 1, "points": 0},
                                           "red": {"cards": 2, "points": 3}}
    assert view["players"][1]["cards"] == [] and view["players"][1]["points"] == 3
    assert view["nobles"] == [1, 2, 5, 8]
    # Every card is somewhere: the decks hold what nothing else does.
    full = json.loads(state.to_json())
    placed = sum(len(row) - row.count(None) for row in full["table"]) + sum(len(d) for d in full["decks"])
    placed += sum(len(p["cards"]) + len(p.get("sampled_cards", [])) + len(p["reserved"]) for p in full["players"])
    assert placed == 90
    # The view written back reads to the same view (the decks are then given and agree).
    again = read_position(json.dumps(view), seed=8).state
    assert again.observation_json(2) == state.observation_json(2)


def test_exact_cards_and_a_summary_of_the_same_colour_add_up():
    position = example()
    position["players"][2]["bought"] = {"blue": {"cards": 3, "points": 1}}  # two listed, one unknown
    state = read_position(json.dumps(position), seed=1).state
    assert bought_by_colour(state, 2)["blue"] == (3, 1)
    listed = json.loads(state.to_json())["players"][2]
    assert len(listed["sampled_cards"]) == 1 and len(listed["cards"]) == 5


def test_levels_given_are_kept_by_every_sample():
    position = example()
    position["players"][1]["bought"]["red"] = {"cards": 2, "points": 3, "levels": [0, 2, 0]}
    game = sm.load_game("splendor", players=3)
    levels = {c["id"]: c["level"] for c in game.cards()}
    state = read_position(json.dumps(position), seed=2).state
    for seed in range(40):
        sample = state.clone()
        sample.determinize(2, seed)
        reds = [c for c in json.loads(sample.to_json())["players"][1]["sampled_cards"]
                if game.cards()[c - 1]["bonus"] == "red"]
        assert sorted(levels[c] for c in reds) == [2, 2]


@pytest.mark.parametrize("edit, path, words", [
    (lambda p: p["players"][0]["bought"].update(green={"cards": 1, "points": 6}), "players[0].bought.green",
     "no 1 green card with 6 points"),
    (lambda p: p["players"][0]["bought"].update(black={"cards": 2, "pts": 0}), "players[0].bought.black",
     'unknown field "pts"'),
    (lambda p: p["players"][0]["bought"].update(black={"cards": 2, "levels": [1, 0, 0]}),
     "players[0].bought.black.levels", "the levels count 1 cards"),
    (lambda p: p["players"][2].update(bought={"blue": 1}), "players[2].bought.blue",
     '1 blue cards bought, but "cards" lists 2'),
    (lambda p: p["players"][0]["bought"].update(purple=1), "players[0].bought", 'unknown field "purple"'),
    (lambda p: p.update(nobles=["W4U4", "W5"]), "nobles[1]", 'no noble asks for "W5"'),
    (lambda p: p.update(nobles=["W4U4", "W4U4", "R4K4", "W3R3K3"]), "nobles[1]", "noble #1 is also at nobles[0]"),
    (lambda p: p.update(decks=[30, 20, 14]), "decks", "do not add up"),
    (lambda p: p["players"][1].update(points=5), "players[1].points", "5 does not match the cards and nobles, which give 3"),
])
def test_bad_summaries_are_refused_naming_the_path(edit, path, words):
    assert_refused(example(), edit, path, words)


def assert_refused(position: dict, edit, path: str, words: str) -> None:
    """``position`` after ``edit`` is refused with a problem at ``path`` saying ``words``."""
    edit(position)
    found = problems(position)
    assert any(p == path and words in m for p, m in found), found


def test_decks_that_no_draw_of_levels_can_leave_are_refused():
    position = example()
    decks = json.loads(read_position(json.dumps(position), seed=3).state.observation_json(2))["decks"]
    # Two more level-3 cards among the bought ones: only seat 2's reds could hold one.
    position["decks"] = [decks[0] + 2, decks[1], decks[2] - 2]
    found = problems(position)
    assert found[0][0] == "decks" and "no draw of the bought cards given by colour leaves these deck counts" in found[0][1]
    position["decks"] = decks
    assert read_position(json.dumps(position), seed=9).state.observation_json(2) == \
        read_position(json.dumps(position), seed=3).state.observation_json(2)


def test_the_newcomers_bonuses_and_points_get_a_hint_to_give_bought_cards():
    position = example()
    del position["players"][1]["bought"]
    position["players"][1]["bonuses"] = {"white": 1, "blue": 1, "red": 2}
    found = dict(problems(position))
    assert '"bought": {"white": {"cards": 3, "points": 1}' in found["players[1].points"]


def test_a_full_position_must_name_every_card():
    with pytest.raises(ValueError, match=r"players\[0\]\.bought: a full position names every card"):
        sm.load_game("splendor", players=3).state_from_json(EXAMPLE.read_text())


def test_samples_satisfy_the_summaries_with_no_card_twice_and_sane_frequencies():
    state = read_position(EXAMPLE.read_text(), seed=5).state
    game = sm.load_game("splendor", players=3)
    cards = game.cards()
    view = state.observation_json(2)
    visible = {c for row in json.loads(state.to_json())["table"] for c in row if c}
    want = [bought_by_colour(state, seat) for seat in range(3)]
    white = Counter()
    draws = 2000
    for seed in range(draws):
        sample = state.clone()
        sample.determinize(2, seed)
        full = json.loads(sample.to_json())
        assert sample.observation_json(2) == view
        assert [bought_by_colour(sample, seat) for seat in range(3)] == want
        placed = [c for p in full["players"] for c in p["cards"] + p.get("sampled_cards", [])]
        placed += [r["card"] for p in full["players"] for r in p["reserved"]] + [c for d in full["decks"] for c in d]
        assert len(placed) == len(set(placed)) and not visible & set(placed)
        white.update(c for c in full["players"][1]["sampled_cards"] if cards[c - 1]["bonus"] == "white")
    # Seat 2's one white card with 0 points: a level-1 white card without points that nobody
    # shows (not on the table, not seat 3's), each as likely as the others.
    candidates = [c["id"] for c in cards if c["bonus"] == "white" and c["points"] == 0 and c["id"] not in visible
                  and c["id"] != 4]
    assert set(white) == set(candidates)
    for card in candidates:
        assert abs(white[card] / draws - 1 / len(candidates)) < 0.04, (card, white[card])


def test_a_search_and_a_hint_on_a_summarised_three_player_view():
    read = read_position(EXAMPLE.read_text())
    analysis = sm.analyze(read.state, iterations=800, threads=1, seed=3, top_k=3)
    legal = set(read.state.legal_actions())
    assert analysis.moves and all(m.action in legal for m in analysis.moves)
    assert sum(m.visits for m in analysis.moves) <= 800


def test_the_same_hint_through_the_cli_and_the_protocol():
    cli, protocol = hint_through_both_doors(EXAMPLE, 500)
    assert cli == protocol


def hint_through_both_doors(path: Path, iterations: int) -> tuple[list[str], list[str]]:
    """The moves of ``hint --json`` on the position file ``path`` and of the analysis
    protocol's final answer on the same position, with the same seed."""
    cli = subprocess.run([sys.executable, "-m", "splendor_mcts.cli", "hint", str(path), "--iterations", str(iterations),
                          "--threads", "1", "--seed", "2", "--json", "--top", "3"], capture_output=True, text=True,
                         timeout=120)
    assert cli.returncode == 0, cli.stderr
    query = {"id": "t", "position": json.loads(path.read_text()), "maxIterations": iterations, "threads": 1, "seed": 2,
             "topK": 3}
    protocol = subprocess.run([sys.executable, "-m", "splendor_mcts.cli", "analyze"], input=json.dumps(query) + "\n",
                              capture_output=True, text=True, timeout=120)
    assert protocol.returncode == 0, protocol.stderr
    final = [json.loads(line) for line in protocol.stdout.splitlines() if '"isDuringSearch": false' in line.replace(
        '"isDuringSearch":false', '"isDuringSearch": false')]
    assert final, protocol.stdout
    return [m["move"] for m in json.loads(cli.stdout)["moveInfos"]], [m["move"] for m in final[-1]["moveInfos"]]


def test_play_follows_a_game_under_way_from_a_typed_position(tmp_path):
    state = read_position(EXAMPLE.read_text(), seed=0).state
    sampled = json.loads(state.to_json())["players"][1]["sampled_cards"]
    revealed = next(c for c in sampled if sm.load_game("splendor", players=3).cards()[c - 1]["level"] == 1)
    saved = tmp_path / "followed.json"
    # Seat 3 (the observer, to move) buys the level-1 red card at slot 1; the table then shows
    # a card the load had drawn among seat 2's bought cards: it is drawn again elsewhere.
    run = play(["buy 1.1", f"#{revealed}", "hint", f"save {saved}", "quit"], "--follow", "--load", str(EXAMPLE))
    assert run.returncode == 0, run.stderr
    assert "loaded the position" in run.stdout
    assert "seat 3 plays buy 1.1" in run.stdout
    assert "cannot be revealed" not in run.stdout and "principal variation" in run.stdout
    record = json.loads(saved.read_text())
    assert "position" in record["meta"] and len(record["actions"]) == 2
    # The saved record goes on from where it was.
    again = play(["board", "quit"], "--follow", "--load", str(saved))
    assert again.returncode == 0, again.stderr
    assert "loaded 2 actions" in again.stdout


def test_play_follow_reveals_the_card_a_position_had_dealt_into_a_blind_reserve():
    # Seat 1's blind level-2 reserve is in the typed position: the load dealt it some unseen
    # card. When the table reveals that very card, the reserve becomes another one of its deck.
    view = EXAMPLE.with_name("splendor-3p-view.json")
    hidden = json.loads(read_position(view.read_text(), seed=0).state.to_json())["players"][0]["reserved"][0]["card"]
    run = play(["reserve 2.1", f"#{hidden}", "board", "quit"], "--follow", "--load", str(view))
    assert run.returncode == 0, run.stderr
    assert "seat 3 plays reserve 2.1" in run.stdout and "cannot be revealed" not in run.stdout


def test_play_refuses_a_file_that_is_neither_a_record_nor_a_position(tmp_path):
    bad = tmp_path / "bad.json"
    position = example()
    position["players"][0]["bought"]["green"] = {"cards": 1, "points": 6}
    bad.write_text(json.dumps(position))
    run = play(["quit"], "--follow", "--players", "3", "--load", str(bad))
    assert "players[0].bought.green: no 1 green card with 6 points" in run.stdout


def random_stop(game, deal: int, rng: random.Random, least: int, most: int):
    """The deal of ``deal`` after ``least`` to ``most`` random moves, or None when it ended or
    stopped at a chance node."""
    state = game.new_initial_state(seed=deal)
    for _ in range(rng.randrange(least, most)):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return None if state.is_terminal() or state.is_chance_node() else state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_read_back_from_summaries_with_the_same_tensor_and_moves(players):
    game = sm.load_game("splendor", players=players)
    cards = game.cards()
    rng = random.Random(players)
    for deal in range(6):
        state = random_stop(game, deal, rng, 10, 60)
        if state is None:
            continue
        observer = state.current_player()
        view = json.loads(state.observation_json(observer))
        for seat in range(players):
            view = as_the_table_shows(view, seat, cards) if seat != observer or deal % 2 else view
        for decks in (True, False):
            text = dict(view) if decks else {k: v for k, v in view.items() if k != "decks"}
            read = read_position(json.dumps(text), seed=deal).state
            if decks:  # the same deck sizes: the same moves and tensor (no card identity in it)
                assert sorted(read.legal_actions()) == sorted(state.legal_actions())
                assert list(read.observation_tensor(observer)) == list(state.observation_tensor(observer))
            sample = read.clone()
            sample.determinize(observer, deal)
            assert sample.observation_json(observer) == read.observation_json(observer)


def test_following_names_a_blind_reserve_that_was_already_in_the_typed_position():
    from rich.console import Console

    from splendor_mcts.play.session import PlaySession

    game = sm.load_game("splendor", players=3)
    session = PlaySession(game, Console(file=io.StringIO()), humans=set(), engine=None, follow=True, viewer=2)
    assert session.load(str(EXAMPLE))
    hidden_card = json.loads(session.state.to_json())["players"][0]["reserved"][0]["card"]
    in_deck = json.loads(session.state.to_json())["decks"][1][0]
    assert session.name_start_reserve(0, 1, in_deck)
    assert json.loads(session.state.to_json())["players"][0]["reserved"][0]["card"] == in_deck
    assert hidden_card in json.loads(session.state.to_json())["decks"][1]
    typed = json.loads(read_position(EXAMPLE.read_text()).state.observation_json(2))
    assert json.loads(session.state.observation_json(2)) == {**typed, "explicit_chance": True}  # what seat 3 sees
    assert not session.name_start_reserve(0, 2, in_deck)  # a face-up reserve: nothing to name


def test_a_record_started_from_a_typed_position_replays_from_it(tmp_path):
    from splendor_mcts.records import GameRecord, replay

    saved = tmp_path / "followed.json"
    run = play(["take WGR", f"save {saved}", "quit"], "--follow", "--load", str(EXAMPLE))
    assert run.returncode == 0, run.stderr
    record = GameRecord.from_json(saved.read_text())
    state = replay(record)
    view = json.loads(state.observation_json(2))
    assert view["players"][2]["tokens"]["white"] == 1 and view["players"][0]["bought"]["black"] == {"cards": 2, "points": 0}
    assert state.current_player() == 0


def test_the_web_board_loads_a_record_started_from_a_typed_position(tmp_path):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from splendor_mcts.serve.app import make_app
    from splendor_mcts.serve.settings import ServeSettings

    saved = tmp_path / "followed.json"
    run = play(["take WGR", f"save {saved}", "quit"], "--follow", "--load", str(EXAMPLE))
    assert run.returncode == 0, run.stderr
    with TestClient(make_app(ServeSettings(threads=1))) as client:
        answer = client.post("/api/sessions/record", json={"record": saved.read_text()})
        assert answer.status_code == 200, answer.text
        data = answer.json()
        assert len(data["history"]) == 1
        position = client.get(f"/api/sessions/{data['id']}/position").json()
    assert position["players"][2]["tokens"]["white"] == 1
