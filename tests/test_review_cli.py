"""``splendor-mcts review``: finds an injected blunder (a move that wins at once, not played)."""
from __future__ import annotations

import json
import subprocess
import sys

import splendor_mcts as sm
from splendor_mcts.records import GameRecord, replay


def settle(state):
    while state.is_chance_node():
        state.apply_action(state.dealt_outcome())


def after(state, action):
    result = state.clone()
    result.apply_action(action)
    settle(result)
    return result


def wins_at_once(state, action, seat):
    end = after(state, action)
    return end.is_terminal() and end.returns()[seat] == 1.0


def loses_at_once(state, action, seat):
    end = after(state, action)
    return end.is_terminal() and end.returns()[seat] == 0.0


def blunder_record() -> tuple[GameRecord, int, int]:
    """A 2-player record of greedy play where seat 0 has reached the points to win and
    seat 1, last in the round, could win at once with a buy but takes tokens and loses."""
    game = sm.load_game("splendor")
    for seed in range(50):
        state = game.new_initial_state(seed=seed, explicit_chance=True)
        actions: list[int] = []
        for _ in range(600):
            if state.is_terminal():
                break
            if state.is_chance_node():
                action = state.dealt_outcome()
            else:
                legal = state.legal_actions()
                seat = state.current_player()
                if seat == 1:
                    winning = [a for a in legal if wins_at_once(state, a, 1)]
                    losing = [a for a in legal if loses_at_once(state, a, 1)
                              and state.action_to_string(a).startswith("take")]
                    if winning and losing:
                        state.apply_action(losing[0])
                        actions.append(losing[0])
                        turn = len(actions) - 1
                        while state.is_chance_node():
                            actions.append(state.dealt_outcome())
                            state.apply_action(actions[-1])
                        record = GameRecord(game=game.spec, seed=seed, seats=("greedy", "blunderer"),
                                            actions=tuple(actions), result=tuple(state.returns()))
                        return record, turn, winning[0]
                texts = {a: state.action_to_string(a) for a in legal}
                buys = [a for a in legal if texts[a].startswith("buy")]
                takes = [a for a in legal if texts[a].startswith("take")]
                action = max(buys, key=lambda a: (a % 7, a)) if buys else (takes[seed % len(takes)] if takes else legal[0])
            state.apply_action(action)
            actions.append(action)
    raise AssertionError("no blunder position found")


def turn_as_players_count(record: GameRecord, index: int) -> int:
    """The turn (from 1) of the record's action ``index``, counted the slow way: a new turn
    whenever another seat decides; reveals are no turns (no Duel extra turns in Splendor)."""
    state = sm.load_game(record.game).new_initial_state(seed=record.seed, explicit_chance=record.explicit_chance)
    turns, last = 0, None
    for action in record.actions[:index + 1]:
        if not state.is_chance_node():
            turns += state.current_player() != last
            last = state.current_player()
        state.apply_action(action)
    return turns


def test_review_finds_the_injected_blunder(tmp_path):
    record, turn, winning = blunder_record()
    replay(record)  # the record is valid
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    run = subprocess.run([sys.executable, "-m", "splendor_mcts.cli", "review", str(path), "--iterations", "300",
                          "--threads", "1", "--json"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    review = json.loads(run.stdout)
    seat1 = review["players"][1]
    worst = seat1["worst"][0]
    assert worst["action_number"] == turn
    assert worst["turn_number"] + 1 == turn_as_players_count(record, turn) < turn  # the reveals count no turn
    assert worst["best_actions"][0] == winning or worst["best_win_rate"] > 0.95
    assert worst["drop"] >= 0.3
    assert seat1["mistakes"] >= 1


def test_review_table_and_bad_record(tmp_path):
    record, turn, _ = blunder_record()
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    run = subprocess.run([sys.executable, "-m", "splendor_mcts.cli", "review", str(path), "--iterations", "150",
                          "--threads", "1"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "seat 2 (blunderer)" in run.stdout
    rows = [line.split("│") for line in run.stdout.splitlines() if "│" in line]
    assert str(turn_as_players_count(record, turn)) in [row[0].strip() for row in rows]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**record.to_dict(), "actions": [999]}))
    run = subprocess.run([sys.executable, "-m", "splendor_mcts.cli", "review", str(bad)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 3 and "record.actions[0]: action 999 is outside" in run.stderr


def test_review_plots_the_win_rate_graph(tmp_path):
    import xml.etree.ElementTree as ET

    record, turn, _ = blunder_record()
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    png, svg = tmp_path / "review.png", tmp_path / "review.svg"
    for chart in (png, svg):
        run = subprocess.run([sys.executable, "-m", "splendor_mcts.cli", "review", str(path), "--iterations", "150",
                              "--threads", "1", "--plot", str(chart)], capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stderr
        assert f"Win-rate graph: {chart}" in run.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    root = ET.parse(svg).getroot()  # well-formed
    texts = " ".join("".join(t.itertext()) for t in root.iter() if t.tag.endswith("text"))
    for shown in ("seat 1 (greedy)", "seat 2 (blunderer)", "mistake", "turn", "win %"):
        assert shown in texts, shown


def test_review_refuses_a_bad_plot_path_before_reviewing(tmp_path):
    record, _, _ = blunder_record()
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    for plot, message in ((tmp_path / "review.pdf", "--plot wants a file name ending in .png or .svg"),
                          (tmp_path / "missing" / "review.png", "does not exist"),
                          (tmp_path, "wants a file name ending in .png or .svg")):
        run = subprocess.run([sys.executable, "-m", "splendor_mcts.cli", "review", str(path), "--plot", str(plot)],
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == 2 and message in run.stderr and "Traceback" not in run.stderr, run.stderr
        assert run.stdout == ""  # refused before any search
