"""The splendor-mcts tournament / replay / export commands, on the fake game through --game-loader."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from splendor_mcts.cli import main
from splendor_mcts.tournament import Tournament, TournamentConfig

LOADER = "tournament_fakes:load_fake_game"
T = "tournament_fakes:ThresholdAgent"
R = "tournament_fakes:RandomAgent"


def tournament(tmp_path: Path, *extra: str) -> list[str]:
    return ["tournament", T, R, "--game", "highcard", "--game-loader", LOADER, "--db", str(tmp_path / "t.sqlite"),
            "--concurrency", "1", "--no-progress", *extra]


def test_tournament_prints_results_plots_and_exports(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    png, jsonl = tmp_path / "ratings.png", tmp_path / "games.jsonl"
    assert main(tournament(tmp_path, "--games", "8", "--plot", str(png), "--export", str(jsonl))) == 0
    out = capsys.readouterr().out
    assert f"Score of {T} vs {R}: " in out
    assert "Elo difference: " in out and "LOS: " in out and "DrawRatio: " in out
    assert "Ptnml(0-2): [" in out and "Rank  Name" in out and "Time per decision" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    lines = jsonl.read_text().splitlines()
    assert len(lines) == 8 and all(json.loads(x)["format"] == "splendor-mcts-record/1" for x in lines)
    # Same command again: resumes, plays nothing, prints the same standings.
    assert main(tournament(tmp_path, "--games", "8")) == 0
    again = capsys.readouterr().out
    assert "played by this run: 0" in again and "games stored: 8 of 8" in again


def stored_rows(db: Path) -> list[tuple]:
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute("SELECT * FROM games ORDER BY game_id").fetchall()


def test_report_prints_what_a_running_tournament_has_stored_and_plays_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = tmp_path / "t.sqlite"
    missing = tournament(tmp_path, "--deals", "3", "--report")
    assert main(missing) == 2
    assert f"no tournament database at {db}" in capsys.readouterr().err and not db.exists()
    assert main(tournament(tmp_path, "--deals", "2")) == 0
    capsys.readouterr()
    before = stored_rows(db)
    running = Tournament(TournamentConfig(game="highcard", agents=(T, R), deals=3, db=db, loader=LOADER,
                                          concurrency=1))
    holder = running.open_store()  # holds the lock, as a run still playing in another process does
    try:
        assert main(tournament(tmp_path, "--deals", "3", "--report", "--json")) == 0
    finally:
        holder.close()
    shown = json.loads(capsys.readouterr().out)
    assert shown["stored"] == 4 and shown["scheduled"] == 6 and shown["playedNow"] == 0
    assert stored_rows(db) == before
    assert main(tournament(tmp_path, "--deals", "3", "--report", "--seed", "5")) == 2
    assert "holds a different tournament" in capsys.readouterr().err


def test_progress_lines_when_not_a_terminal(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    args = [a for a in tournament(tmp_path, "--deals", "2") if a != "--no-progress"]
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "[4/4]" in err and "ETA" in err


def test_replay_and_export(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(tournament(tmp_path, "--deals", "1")) == 0
    capsys.readouterr()
    assert main(["replay", "--db", str(tmp_path / "t.sqlite"), "1", "--game-loader", LOADER]) == 0
    out = capsys.readouterr().out
    assert "chance   reveal" in out and "seat 1   " in out and "termination: normal" in out
    assert " us)" in out or " ms)" in out  # each decision's time, in a unit that shows it
    assert main(["export", "--db", str(tmp_path / "t.sqlite")]) == 0
    exported = capsys.readouterr().out.splitlines()
    assert len(exported) == 2
    records = tmp_path / "g.jsonl"
    records.write_text("\n".join(exported) + "\n")
    assert main(["replay", "--records", str(records), "2", "--game-loader", LOADER, "--json"]) == 0
    final = json.loads(capsys.readouterr().out)
    assert final["turn"] == 10
    assert main(["replay", "--db", str(tmp_path / "t.sqlite"), "9", "--game-loader", LOADER]) == 2
    assert "no game 9" in capsys.readouterr().err


@pytest.mark.parametrize("extra, message", [
    (["--games", "5"], "not a multiple of the 2 seat rotations"),
    (["--sprt", "elo0=0", "elo1=x"], "elo1 must be a number"),
    (["--sprt", "elo0=nan", "elo1=1"], "elo0 must be a number from -1000 to 1000, got 'nan'"),
    (["--plot", "ratings.pdf"], "--plot wants a file name ending in .png or .svg"),
    (["--plot", "no-such-folder/ratings.png"], "the folder 'no-such-folder' does not exist"),
    (["--concurrency", "0"], "--concurrency must be a whole number of at least 1, got 0"),
    (["--games", "1" + "0" * 400], "--games must be a whole number from 1 to 2000000, got 1000"),
    (["--sprt", "elo0=0", "elo1=1e300"], "--sprt: elo1 must be a number from -1000 to 1000, got '1e300'"),
    (["--players", "5"], "players=5"),
])
def test_bad_options_fail_before_any_game(tmp_path: Path, capsys: pytest.CaptureFixture, extra: list[str],
                                          message: str) -> None:
    assert main(tournament(tmp_path, *extra)) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "t.sqlite").exists()


def test_unknown_agent_and_corrupt_database(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    args = tournament(tmp_path)
    args[2] = "mcts:iteratons=100"
    assert main(args) == 2
    assert "unknown parameter 'iteratons' for mcts" in capsys.readouterr().err
    db = tmp_path / "t.sqlite"
    db.write_bytes(b"\x00garbage" * 64)
    assert main(tournament(tmp_path)) == 2
    assert "not a usable SQLite database" in capsys.readouterr().err
    assert db.read_bytes() == b"\x00garbage" * 64


def svg_texts(path: Path) -> str:
    """The texts an SVG chart shows (matplotlib draws text as paths, each after a comment naming it)."""
    import xml.etree.ElementTree as ET

    root = ET.parse(path).getroot()  # well-formed XML, else this raises
    assert root.tag.endswith("svg")
    return path.read_text()


@pytest.mark.parametrize("players", ["2", "3"])
def test_the_chart_has_ratings_head_to_head_and_ratings_over_games(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                                   players: str) -> None:
    svg = tmp_path / "chart.svg"
    extra = ["random"] if players == "3" else []
    args = tournament(tmp_path, "--players", players, "--deals", "4", "--plot", str(svg))
    assert main(args[:3] + extra + args[3:]) == 0
    assert f"Chart: {svg}" in capsys.readouterr().out
    text = svg_texts(svg)
    for shown in ("Head to head", "finished ahead" if players == "3" else "% score", "Ratings over the games",
                  "games played", T):
        assert shown in text, shown


def test_the_chart_numbers_are_the_report_numbers(tmp_path: Path) -> None:
    from splendor_mcts.tournament.charts import head_to_head, ratings_over_games
    from splendor_mcts.tournament.runner import Tournament, TournamentConfig

    config = TournamentConfig(game="highcard", agents=(T, R), loader=LOADER, deals=10, db=str(tmp_path / "t.sqlite"),
                              concurrency=1)
    result = Tournament(config).run(lambda p: None)
    order, score = head_to_head(result)
    match = result.matches[0]
    assert order == [r.agent for r in result.table.rows]
    first = order.index(match.a)
    assert score[first][1 - first] == pytest.approx(match.overall.score)
    assert score[1 - first][first] == pytest.approx(1 - match.overall.score)
    counts, series = ratings_over_games(result)
    assert counts[-1] == len(result.games) and counts == sorted(set(counts))
    assert {r.agent: r.rating for r in result.table.rows} == {a: pytest.approx(s[-1]) for a, s in series.items()}


def test_the_chart_fits_its_title(tmp_path: Path) -> None:
    from splendor_mcts.tournament.charts import tournament_figure
    from splendor_mcts.tournament.runner import Tournament, TournamentConfig

    config = TournamentConfig(game="highcard", agents=(T, R), loader=LOADER, deals=2, db=str(tmp_path / "t.sqlite"),
                              concurrency=1)
    result = Tournament(config).run(lambda p: None)
    result.game_spec = "splendor(players=3,points_to_win=15,take_fewer_distinct=true,gem_tokens=5,gold_tokens=5,nobles=4," \
                       "token_limit=10,reserve_limit=3,take_two_min=4)"  # the longest spec a report shows
    fig = tournament_figure(result)
    fig.canvas.draw()
    box = fig._suptitle.get_window_extent(fig.canvas.get_renderer())
    assert 0 <= box.x0 and box.x1 <= fig.bbox.x1 and box.y1 <= fig.bbox.y1
    assert [ax.get_title() for ax in fig.axes if ax.get_title()] == ["Head to head: % score", "Ratings over the games"]
