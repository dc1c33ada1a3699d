"""Game records: JSON round trip, validation naming the field, replay to the same final state."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from tournament_fakes import HighCardGame, ThresholdAgent

from splendor_mcts.records import RECORD_FORMAT, Forfeit, GameRecord, read_jsonl, replay, write_jsonl


def _play(game: HighCardGame, seed: int) -> tuple[GameRecord, str]:
    state = game.new_initial_state(seed=seed, explicit_chance=True)
    agent = ThresholdAgent(game)
    actions = []
    while not state.is_terminal():
        a = state.dealt_outcome() if state.current_player() < 0 else agent.step(state)
        state.apply_action(a)
        actions.append(a)
    record = GameRecord(game=game.spec, seed=seed, seats=("a", "b"), actions=tuple(actions),
                        move_times=tuple(0.001 for _ in range(game.rounds * 2)),
                        result=tuple(state.returns()))
    return record, state.to_json()


def test_record_replays_to_same_final_state() -> None:
    game = HighCardGame(2, 5)
    record, final = _play(game, seed=11)
    again = GameRecord.from_json(record.to_json())
    assert again == record
    assert replay(again, game=game).to_json() == final
    assert replay(again, upto=0, game=game).to_json() == game.new_initial_state(seed=11).to_json()


def test_replay_names_illegal_action_and_bad_upto() -> None:
    game = HighCardGame(2, 5)
    record, _ = _play(game, seed=3)
    broken = GameRecord.from_dict({**record.to_dict(), "actions": [record.actions[0], 99]})
    with pytest.raises(ValueError, match="action #1"):
        replay(broken, game=game)
    with pytest.raises(ValueError, match="upto=999"):
        replay(record, upto=999, game=game)


def test_to_json_has_the_documented_fields() -> None:
    record = GameRecord(game="g", seed=1, seats=("x", "y"), actions=(1, 2), result=(0.0, 1.0),
                        termination="forfeit", forfeit=Forfeit(0, "crashed"))
    data = json.loads(record.to_json())
    assert list(data) == ["format", "game", "seed", "explicit_chance", "seats", "actions", "move_times",
                          "result", "termination", "forfeit", "meta"]
    assert data["format"] == RECORD_FORMAT
    assert data["forfeit"] == {"seat": 0, "reason": "crashed"}


GOOD = {"format": RECORD_FORMAT, "game": "g", "seed": 1, "seats": ["a", "b"], "actions": [1],
        "result": [1.0, 0.0]}


@pytest.mark.parametrize("change, field", [
    ({"format": "other/9"}, "format"),
    ({"seed": -1}, "seed"),
    ({"seed": "7"}, "seed"),
    ({"actions": [1, "x"]}, "actions"),
    ({"actions": "12"}, "actions"),
    ({"actions": [2**31]}, "actions"),   # not an engine action id: refused here, never a TypeError at replay
    ({"seed": 2**64}, "seed"),           # beyond the engine's seeds
    ({"seats": []}, "seats"),
    ({"result": [1.0]}, "result"),
    ({"termination": "abandoned"}, "termination"),
    ({"termination": "forfeit"}, "forfeit"),
    ({"forfeit": {"seat": 5, "reason": "x"}, "termination": "forfeit"}, "forfeit.seat"),
    ({"move_times": [-1.0]}, "move_times"),
    ({"colour": "red"}, "colour"),
    ({"meta": []}, "meta"),
])
def test_bad_records_name_the_field(change: dict, field: str) -> None:
    with pytest.raises(ValueError, match=f"'{field}'"):
        GameRecord.from_dict({**GOOD, **change})


def test_missing_field_and_bad_json() -> None:
    data = dict(GOOD)
    del data["seed"]
    with pytest.raises(ValueError, match="missing field 'seed'"):
        GameRecord.from_dict(data)
    with pytest.raises(ValueError, match=r"game record is not JSON: .* \(line 1, column 2\)"):
        GameRecord.from_json("{nope")


def test_jsonl_round_trip_and_line_numbers() -> None:
    game = HighCardGame(2, 3)
    records = [_play(game, seed)[0] for seed in range(3)]
    buf = io.StringIO()
    assert write_jsonl(records, buf) == 3
    assert list(read_jsonl(io.StringIO(buf.getvalue()))) == records
    bad = buf.getvalue() + "\n" + json.dumps({**GOOD, "seed": -2}) + "\n"
    with pytest.raises(ValueError, match="line 5"):
        list(read_jsonl(io.StringIO(bad)))


def test_an_export_that_fails_half_way_leaves_the_previous_file_whole(tmp_path: Path) -> None:
    game = HighCardGame(2, 3)
    records = [_play(game, seed)[0] for seed in range(3)]
    out = tmp_path / "games.jsonl"
    assert write_jsonl(records, out) == 3
    before = out.read_bytes()

    def failing() -> Iterator[GameRecord]:
        yield records[0]
        raise OSError("the database went away")

    with pytest.raises(OSError, match="went away"):
        write_jsonl(failing(), out)
    assert out.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]


def test_real_engine_game_record_replays_to_the_same_final_state() -> None:
    import random

    import splendor_mcts as sm

    game = sm.load_game("splendor", players=3)
    state = game.new_initial_state(seed=21, explicit_chance=True)
    rng = random.Random(0)
    actions = []
    while not state.is_terminal():
        a = state.dealt_outcome() if state.current_player() == sm.CHANCE else rng.choice(state.legal_actions())
        state.apply_action(a)
        actions.append(a)
    record = GameRecord(game=game.spec, seed=21, seats=("random",) * 3, actions=tuple(actions),
                        result=tuple(state.returns()))
    again = replay(GameRecord.from_json(record.to_json()))
    assert again.is_terminal() and again.hash() == state.hash()
    assert list(again.returns()) == list(record.result)
    if hasattr(state, "to_json"):
        assert again.to_json() == state.to_json()
    half = replay(record, upto=len(actions) // 2)
    assert not half.is_terminal()


def test_a_forfeit_keeps_an_engines_stderr_and_other_records_stay_as_they_were() -> None:
    from splendor_mcts.records import Forfeit, GameRecord

    base = dict(game="splendor", seed=1, seats=("a", "b"), actions=(), result=(0.0, 1.0), termination="forfeit")
    plain = GameRecord(**base, forfeit=Forfeit(0, "crashed"))
    assert '"forfeit":{"seat":0,"reason":"crashed"}' in plain.to_json()
    engine = GameRecord(**base, forfeit=Forfeit(0, "engine crashed: exit 3", ("pid 9", "boom")))
    assert GameRecord.from_json(engine.to_json()) == engine
    assert GameRecord.from_json(engine.to_json()).forfeit.stderr == ("pid 9", "boom")
    bad = engine.to_json().replace('["pid 9","boom"]', '"boom"')
    with pytest.raises(ValueError, match="forfeit.stderr"):
        GameRecord.from_json(bad)
