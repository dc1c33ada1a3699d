"""A record's stated termination and result against its replay (issue 15): ``review`` refuses a
record whose stated result its replay contradicts; the tournament report, ``replay`` and
``export`` flag such a game by its id."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest
from tournament_fakes import HighCardGame, ThresholdAgent

import splendor_mcts as sm
from splendor_mcts import exit_codes
from splendor_mcts.cli import main
from splendor_mcts.records import Forfeit, GameRecord, forfeit_result, replay, replay_checked, result_problem

LOADER = "tournament_fakes:load_fake_game"
T = "tournament_fakes:ThresholdAgent"
R = "tournament_fakes:RandomAgent"


def _finished(game: HighCardGame, seed: int, stop: int | None = None) -> GameRecord:
    """A record of ``game`` played to the end (or cut after ``stop`` actions, unfinished)."""
    state = game.new_initial_state(seed=seed, explicit_chance=True)
    agent = ThresholdAgent(game)
    actions: list[int] = []
    while not state.is_terminal() and (stop is None or len(actions) < stop):
        a = state.dealt_outcome() if state.current_player() < 0 else agent.step(state)
        state.apply_action(a)
        actions.append(a)
    if stop is not None:
        return GameRecord(game=game.spec, seed=seed, seats=("a", "b"), actions=tuple(actions), termination="unfinished")
    return GameRecord(game=game.spec, seed=seed, seats=("a", "b"), actions=tuple(actions), result=tuple(state.returns()))


def _with(record: GameRecord, **changes: object) -> GameRecord:
    return GameRecord.from_dict({**record.to_dict(), **changes})


def _decisive(game: HighCardGame) -> GameRecord:
    for seed in range(100):
        record = _finished(game, seed)
        if record.result is not None and sorted(record.result) == [0.0, 1.0]:
            return record
    raise AssertionError("no decisive game in 100 seeds")


def test_records_that_agree_with_their_replay_pass() -> None:
    game = HighCardGame(2, 5)
    finished = _decisive(game)
    assert result_problem(finished, replay(finished, game=game)) is None
    assert replay_checked(finished, game=game).is_terminal()
    cut = _finished(game, 4, stop=3)
    assert result_problem(cut, replay(cut, game=game)) is None
    # A forfeit by the seat to move, and one before any action (an agent that could not be built).
    state = replay(cut, game=game)
    mover = state.current_player()
    forfeit = _with(cut, termination="forfeit", result=list(forfeit_result(2, mover)),
                    forfeit={"seat": mover, "reason": "crashed"})
    assert result_problem(forfeit, state) is None
    built = GameRecord(game=game.spec, seed=4, seats=("a", "b"), actions=(), termination="forfeit",
                       result=forfeit_result(2, 1), forfeit=Forfeit(1, "crashed while being built"))
    assert result_problem(built, replay(built, game=game)) is None


def test_each_contradiction_is_named() -> None:
    game = HighCardGame(2, 5)
    finished = _decisive(game)
    assert finished.result is not None
    cut = _finished(game, 4, stop=3)
    mover = replay(cut, game=game).current_player()
    cases = [
        (_with(finished, result=list(reversed(finished.result))), r"stated result \[.*\] but the replay ends"),
        (_with(finished, result=None, termination="unfinished"), "termination 'unfinished' but the game is over"),
        (_with(cut, result=[1.0, 0.0], termination="normal"), "termination 'normal' but the game is not over"),
        (_with(cut, termination="forfeit", result=list(forfeit_result(2, 1 - mover)),
               forfeit={"seat": 1 - mover, "reason": "x"}), f"seat {1 - mover} forfeited but seat {mover} was to move"),
        (_with(cut, termination="forfeit", result=[0.5, 0.5], forfeit={"seat": mover, "reason": "x"}),
         f"stated result .* but a forfeit by seat {mover} scores"),
        (_with(finished, seats=["a", "b", "c"], result=[1.0, 0.0, 0.0]), "it has 3 seats but its game is for 2 players"),
    ]
    for record, message in cases:
        with pytest.raises(ValueError, match="contradicts its replay: " + message):
            replay_checked(record, game=game)


def _splendor_record() -> GameRecord:
    game = sm.load_game("splendor")
    rng = random.Random(3)
    state = game.new_initial_state(seed=3, explicit_chance=True)
    actions: list[int] = []
    while not state.is_terminal():
        a = state.dealt_outcome() if state.is_chance_node() else rng.choice(state.legal_actions())
        state.apply_action(a)
        actions.append(a)
    return GameRecord(game=game.spec, seed=3, seats=("x", "y"), actions=tuple(actions), result=tuple(state.returns()))


def test_review_refuses_a_record_whose_result_contradicts_its_replay(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture) -> None:
    record = _splendor_record()
    assert record.result is not None
    path = tmp_path / "game.json"
    path.write_text(_with(record, result=list(reversed(record.result))).to_json())
    assert main(["review", str(path), "--iterations", "10"]) == exit_codes.INVALID_INPUT
    err = capsys.readouterr().err
    assert "stated result contradicts its replay: stated result" in err and "Traceback" not in err


def _tampered_tournament(tmp_path: Path, capsys: pytest.CaptureFixture) -> tuple[Path, int, int]:
    """A fake tournament whose game 1 says (in its row and record) the other seat won, and whose
    game 2's row disagrees with its record."""
    db = tmp_path / "t.sqlite"
    args = ["tournament", T, R, "--game", "highcard", "--game-loader", LOADER, "--db", str(db),
            "--concurrency", "1", "--no-progress", "--deals", "2"]
    assert main(args) == 0
    assert "contradict" not in capsys.readouterr().out
    conn = sqlite3.connect(db)
    with conn:
        (text,) = conn.execute("SELECT record FROM games WHERE game_id = 1").fetchone()
        data = json.loads(text)
        data["result"] = [1.0 - x for x in data["result"]]
        conn.execute("UPDATE games SET result = ?, record = ? WHERE game_id = 1",
                     (json.dumps(data["result"]), json.dumps(data)))
        (result,) = conn.execute("SELECT result FROM games WHERE game_id = 2").fetchone()
        conn.execute("UPDATE games SET result = ? WHERE game_id = 2", (json.dumps([1.0 - x for x in json.loads(result)]),))
    conn.close()
    return db, 1, 2


def test_tournament_report_replay_and_export_flag_a_contradicted_result(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture) -> None:
    db, replayed, table = _tampered_tournament(tmp_path, capsys)
    args = ["tournament", T, R, "--game", "highcard", "--game-loader", LOADER, "--db", str(db),
            "--concurrency", "1", "--no-progress", "--deals", "2"]
    assert main(args) == 0  # the report of the resumed run
    out = capsys.readouterr().out
    assert "Results that contradict their replay (2" in out
    assert f"game {replayed}: stated result" in out and "but the replay ends" in out
    assert f"game {table}: the games table gives result" in out
    assert main(["replay", "--db", str(db), str(replayed), "--game-loader", LOADER]) == 0
    err = capsys.readouterr().err
    assert f"replay: game {replayed}: the record's stated result contradicts its replay: stated result" in err
    assert main(["replay", "--db", str(db), "3", "--game-loader", LOADER]) == 0
    assert "contradicts" not in capsys.readouterr().err
    assert main(["export", "--db", str(db), "--game-loader", LOADER]) == 0
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 4  # every game is exported, the flagged ones too
    assert f"export: game {replayed}: " in captured.err and f"export: game {table}: " in captured.err
    # Without the game's loader the records are still exported, and the check says why it did not run.
    assert main(["export", "--db", str(db)]) == 0
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 4 and "results not checked against their replays" in captured.err


@pytest.mark.parametrize("change, message", [({"actions": [2**31]}, "field 'actions'"), ({"seed": 2**64}, "field 'seed'")])
def test_review_names_an_action_id_or_seed_out_of_the_engine_range(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                                   change: dict, message: str) -> None:
    path = tmp_path / "game.json"
    record = {"format": "splendor-mcts-record/1", "game": "splendor", "seed": 1, "seats": ["a", "b"], "actions": [],
              "result": None, "termination": "unfinished", **change}
    path.write_text(json.dumps(record))
    assert main(["review", str(path)]) == exit_codes.INVALID_INPUT
    err = capsys.readouterr().err
    assert "not a valid game record" in err and message in err and "Traceback" not in err


def test_an_adjudicated_draw_agrees_with_a_replay_not_over_and_an_equal_share() -> None:
    game = HighCardGame(2, 5)
    cut = _finished(game, 4, stop=3)
    draw = _with(cut, termination="adjudicated", result=[0.5, 0.5])
    assert result_problem(draw, replay(draw, game=game)) is None
    lopsided = _with(draw, result=[1.0, 0.0])
    assert result_problem(lopsided, replay(lopsided, game=game)) == \
        "stated result [1.0, 0.0] but an adjudicated draw scores [0.5, 0.5]"
    finished = _with(_decisive(game), termination="adjudicated", result=[0.5, 0.5])
    assert "termination 'adjudicated' but the game is over" in result_problem(finished, replay(finished, game=game))
