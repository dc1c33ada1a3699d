"""The SVG board (splendor_mcts.pictures.board) and ``hint --svg``: both games drawn from the
card data, the elements a page clicks, a turn's marks."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import splendor_mcts as sm
from splendor_mcts.games.positions import read_position
from splendor_mcts.pictures.board import FILL, board_svg, card_of_move, card_svg, turn_marks
from splendor_mcts.pictures.graph import win_rate_graph_svg

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NS = "{http://www.w3.org/2000/svg}"


def ids(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)  # well-formed XML, or this raises
    return {e.get("id"): e for e in root.iter() if e.get("id")}


def position(name: str):
    return read_position((EXAMPLES / name).read_text())


def test_splendor_board_has_every_element_of_the_view():
    pos = position("splendor-3p-view.json")
    view = json.loads(pos.state.observation_json(2))
    elements = ids(board_svg(pos.state))
    for level, row in enumerate(view["table"], start=1):
        for slot, card in enumerate(row, start=1):
            assert elements[f"card-{level}.{slot}"].get("data-card") == str(card)
    for noble in view["nobles"]:
        assert f"noble-{noble}" in elements
    for seat, player in enumerate(view["players"]):
        assert f"seat-{seat}" in elements
        for kind, count in player["tokens"].items():
            token = elements[f"seat-{seat}-token-{kind}"]
            assert "".join(token.itertext()) == str(count)
        for k, entry in enumerate(player["reserved"], start=1):
            reserved = elements[f"seat-{seat}-reserved-{k}"]
            assert reserved.get("data-card") == (str(entry["card"]) if "card" in entry else None)
    for level in (1, 2, 3):
        assert f"{view['decks'][level - 1]} left" in "".join(elements[f"deck-{level}"].itertext())
    assert "".join(elements["bank-black"].itertext()) == str(view["bank"]["black"])


def test_the_board_shows_only_what_its_viewer_sees():
    pos = position("splendor-3p-view.json")
    hidden = ids(board_svg(pos.state, viewer=2))["seat-0-reserved-1"]
    assert hidden.get("data-card") is None  # seat 1's blind reserve, seen from seat 3
    own = ids(board_svg(pos.state, viewer=0))["seat-0-reserved-1"]
    assert own.get("data-card") is not None


def test_duel_board_has_pyramid_token_board_royals_and_privileges():
    pos = position("duel-view.json")
    view = json.loads(pos.state.observation_json(0))
    svg = board_svg(pos.state, viewer=0)
    elements = ids(svg)
    for level, row in enumerate(view["pyramid"], start=1):
        for slot, card in enumerate(row, start=1):
            assert elements[f"card-{level}.{slot}"].get("data-card") == (str(card) if card else None)
    for r, line in enumerate(view["board"], start=1):
        for c, symbol in enumerate(line):
            cell = elements[f"cell-{'abcde'[c]}{r}"]
            assert (cell.get("data-kind") is None) == (symbol == ".")
    for royal in view["royals"]:
        assert f"royal-{royal}" in elements
    assert "privilege-supply" in elements and "token-board" in elements
    for seat, player in enumerate(view["players"]):
        assert "".join(elements[f"seat-{seat}-token-pearl"].itertext()) == str(player["tokens"]["pearl"])
    assert "crown" in svg


def test_every_card_draws_its_cost_and_points():
    for game in ("splendor", "duel"):
        for card in sm.load_game(game).cards():
            svg = card_svg(game, card["id"])
            ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{svg}</svg>')
            for kind, n in card["cost"].items():
                token = re.search(rf'<circle cx="14" [^>]*fill="{FILL[kind]}"[^>]*/><text[^>]*>(\d+)</text>', svg)
                assert (token is not None and token.group(1) == str(n)) if n else token is None, (card, kind)
            if card["points"]:
                assert re.search(rf'<text x="7" y="22" font-size="19"[^>]*>{card["points"]}</text>', svg), card
            assert card["text"] in svg



def test_a_cards_bonus_gem_is_filled_with_its_colour_and_stands_out_of_its_band():
    """The gem in a card's header was drawn in the band's own colour: an empty ring to the eye."""
    for game in ("splendor", "duel"):
        for card in sm.load_game(game).cards():
            if card["bonus"] not in ("white", "blue", "green", "red", "black"):
                continue
            head = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{card_svg(game, card["id"])}</svg>')
            band = next(head.iter(f"{NS}path"))  # the header, drawn first
            gem = next(e for e in head.iter(f"{NS}circle") if e.get("cy") == "14")  # the circle in it
            assert gem.get("fill") == FILL[card["bonus"]], card
            assert band.get("fill") != gem.get("fill"), card

def test_a_turn_marks_the_cards_and_tokens_it_uses():
    game = sm.load_game("splendor", players=2)
    state = game.new_initial_state(seed=5)
    assert turn_marks(state, [state.string_to_action("take WUG")]) == {"bank-white", "bank-blue", "bank-green"}
    assert turn_marks(state, [state.string_to_action("reserve 2.3")]) == {"card-2.3"}
    assert turn_marks(state, [state.string_to_action("reserve deck 1")]) == {"deck-1"}
    svg = board_svg(state, marks={"card-2.3"})
    assert len(re.findall(r'class="mark"', svg)) == 1
    buy = state.string_to_action("reserve 2.3")
    view = json.loads(state.observation_json(0))
    assert card_of_move(state, buy) == view["table"][1][2]
    duel = sm.load_game("duel").new_initial_state(seed=1)
    take = next(a for a in duel.legal_actions() if duel.action_to_string(a).startswith("take ") and
                len(duel.action_to_string(a).split()) == 4)
    cells = duel.action_to_string(take).split()[1:]
    assert turn_marks(duel, [take]) == {f"cell-{c}" for c in cells}


def test_win_rate_graph_has_a_point_per_decision():
    from splendor_mcts.analysis.review import Decision, Review

    decisions = [Decision(turn_number=t, action_number=t, seat=t % 2, played_turn="take WUG", played_actions=[0],
                          best_turn="take WUG", best_actions=[0], best_win_rate=0.5 + 0.01 * t, played_win_rate=0.4,
                          drop=0.1 * (t == 3), position_win_rate=0.5, win_rates=[0.5, 0.5]) for t in range(6)]
    svg = win_rate_graph_svg(Review(game="splendor(players=2)", seats=["mcts", "human"], decisions=decisions, threshold=0.05))
    root = ET.fromstring(svg)
    points = [c for c in root.iter(f"{NS}circle") if c.get("class") == "point"]
    assert [p.get("data-ply") for p in points] == ["0", "2", "4", "1", "3", "5"]
    assert [p.get("r") for p in points if p.get("data-ply") == "3"] == ["5"]  # the mistake, larger
    lines = [line for line in root.iter(f"{NS}polyline") if line.get("class") == "seat-line"]
    assert [len(line.get("points").split()) for line in lines] == [6, 6]  # every seat at every turn's start
    assert "-10" in "".join(root.itertext())  # the mistake's loss written beside it


def test_hint_svg_writes_the_board_with_the_best_turn_marked(tmp_path):
    out = tmp_path / "board.svg"
    run = subprocess.run([sys.executable, "-m", "splendor_mcts.cli", "hint", str(EXAMPLES / "splendor-2p-view.json"),
                          "--iterations", "2000", "--threads", "1", "--json", "--svg", str(out)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    best = json.loads(run.stdout)["turnInfos"][0]
    svg = out.read_text()
    pos = position("splendor-2p-view.json")
    marks = turn_marks(pos.state, best["actions"])
    assert marks and all(f'id="{m}"' in svg for m in marks)
    assert svg.count('class="mark"') == len(marks)
    bad = subprocess.run([sys.executable, "-m", "splendor_mcts.cli", "hint", str(EXAMPLES / "splendor-2p-view.json"),
                          "--iterations", "100", "--threads", "1", "--svg", str(tmp_path / "no" / "such" / "b.svg")],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "--svg: cannot write" in bad.stderr and "Traceback" not in bad.stderr
