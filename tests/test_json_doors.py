"""Deep or malformed JSON at every door that parses a user's JSON in Python (json_input.read_json):
the door's documented error (400 with a JSON error on the web board, exit code 3 on the command
line, a ValueError in the API), never a RecursionError traceback."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from splendor_mcts.json_input import MAX_DEPTH, JsonInputError, read_json
from splendor_mcts.records import GameRecord

DEEP = "[" * 100_000 + "]" * 100_000  # 200 kB: within the web board's default body limit
TOO_DEEP = "the input nests arrays or objects too deeply (more than 128 levels)"


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("text", [DEEP, DEEP.encode(), nested(MAX_DEPTH + 1), '{"a": ' + nested(MAX_DEPTH) + "}"])
def test_nesting_past_the_limit_is_refused_by_name(text):
    with pytest.raises(JsonInputError) as err:
        read_json(text)
    assert str(err.value) == TOO_DEEP


def test_nesting_up_to_the_limit_is_read():
    value = read_json(nested(MAX_DEPTH))
    for _ in range(MAX_DEPTH - 1):
        value = value[0]
    assert value == []
    assert read_json('{"a": [1, {"b": "[[[["}]}' + " " * 300) == {"a": [1, {"b": "[[[["}]}
    assert read_json(b'"\xc3\xa9"') == "é"


@pytest.mark.parametrize("text,message", [
    ("{", "the input is not JSON: Expecting property name enclosed in double quotes (line 1, column 2)"),
    ("[1, NaN]", "the input is not JSON: NaN is not a JSON value"),
    ("-Infinity", "the input is not JSON: -Infinity is not a JSON value"),
    (b'{"a": "\xff"}', "the input is not UTF-8 text (invalid start byte at byte 7)"),
])
def test_malformed_json_is_named(text, message):
    with pytest.raises(JsonInputError) as err:
        read_json(text)
    assert str(err.value) == message


def test_a_deep_record_is_a_value_error():
    with pytest.raises(ValueError, match="^game record nests arrays or objects too deeply"):
        GameRecord.from_json(DEEP)
    with pytest.raises(ValueError, match="^game record is not JSON: NaN"):
        GameRecord.from_json('{"game": "splendor", "seed": NaN}')


# ------------------------------------------------------------------ the web board
starlette = pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402

from splendor_mcts.serve.app import make_app  # noqa: E402
from splendor_mcts.serve.settings import ServeSettings  # noqa: E402


@pytest.mark.parametrize("path", ["/api/preview", "/api/sessions/record", "/api/sessions/position", "/api/sessions"])
def test_web_bodies_nested_too_deeply_answer_400_naming_it(path):
    client = TestClient(make_app(ServeSettings(threads=1)), raise_server_exceptions=False)
    response = client.post(path, content=DEEP.encode(), headers={"content-type": "application/json"})
    assert response.status_code == 400, response.text
    assert response.json() == {"error": "the request body nests arrays or objects too deeply (more than 128 levels)"}


def test_a_web_record_nested_too_deeply_inside_its_text_answers_400():
    client = TestClient(make_app(ServeSettings(threads=1)), raise_server_exceptions=False)
    response = client.post("/api/sessions/record", json={"record": DEEP})
    assert response.status_code == 400, response.text
    assert response.json()["error"].startswith("game record nests arrays or objects too deeply")


# ------------------------------------------------------------------ the command line
def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "splendor_mcts.cli", *args], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)


@pytest.fixture()
def deep_file(tmp_path: Path) -> Path:
    path = tmp_path / "deep.json"
    path.write_text(DEEP)
    return path


def test_review_of_a_deep_file_exits_3(deep_file):
    run = cli("review", str(deep_file), "--iterations", "10")
    assert run.returncode == 3, run.stderr
    assert "is not a valid game record: game record nests arrays or objects too deeply" in run.stderr
    assert "Traceback" not in run.stderr


def test_review_of_a_file_with_nan_exits_3(tmp_path):
    path = tmp_path / "nan.json"
    path.write_text(json.dumps({"game": "splendor", "seed": 1, "seats": ["a", "b"], "actions": []})
                    .replace('"seed": 1', '"seed": NaN'))
    run = cli("review", str(path), "--iterations", "10")
    assert run.returncode == 3 and "game record is not JSON: NaN is not a JSON value" in run.stderr


def test_play_load_of_a_deep_file_exits_3(deep_file):
    run = cli("play", "--load", str(deep_file), "--iterations", "10")
    assert run.returncode == 3, run.stderr
    assert f"cannot load {deep_file}" in run.stdout and "nesting deeper than 128 levels" in run.stdout
    assert "Traceback" not in run.stderr + run.stdout


def test_hint_on_a_deep_file_exits_3(deep_file):
    run = cli("hint", str(deep_file), "--iterations", "10")
    assert run.returncode == 3 and "nesting deeper than 128 levels" in run.stderr
