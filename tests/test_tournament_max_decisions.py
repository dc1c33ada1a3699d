"""The decision cap of tournament games (--max-decisions): a game still going after N decisions
is adjudicated a draw, recorded, reported, replayed as consistent and resumed; databases made
before the cap open and resume with the default one."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from tournament_fakes import LOADER, load_fake_game
from tournament_fakes import RANDOM as R
from tournament_fakes import THRESHOLD as T

from splendor_mcts.cli import main
from splendor_mcts.games.limits import MAX_DECISIONS
from splendor_mcts.learning import selfplay
from splendor_mcts.records import replay_checked
from splendor_mcts.tournament import TournamentConfig, TournamentDatabaseError, TournamentStore, run_tournament

SCHEMA3 = Path(__file__).parent / "data" / "tournament_schema3.sqlite"
LOOPER = "tournament_fakes:FirstLegalAgent"


def config(db: Path, **kw) -> TournamentConfig:
    base = dict(game="highcard", agents=(T, R), deals=2, seed=1, db=db, concurrency=1, loader=LOADER)
    base.update(kw)
    return TournamentConfig(**base)


def test_selfplay_and_tournaments_share_one_default() -> None:
    assert selfplay.MAX_DECISIONS is MAX_DECISIONS  # the old public name still works
    assert TournamentConfig(game="duel", agents=("random", "greedy")).max_decisions == MAX_DECISIONS


def test_games_past_the_cap_are_adjudicated_draws_reported_and_resumed(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    # highcard has 10 decisions a game (5 rounds of 2 seats): a cap of 5 stops every game
    result = run_tournament(config(db, max_decisions=5))
    assert len(result.games) == 4 and all(g.result == (0.5, 0.5) for g in result.games)
    assert result.adjudicated == [(g, "still going after max-decisions 5") for g in range(4)]
    assert result.contradictions == []  # the replay agrees: not over, an equal share each
    report = result.report()
    assert "Adjudicated draws (4):\n  still going after max-decisions 5: games 0, 1, 2, 3" in report
    assert result.to_dict()["adjudicated"][0] == {"game": 0, "reason": "still going after max-decisions 5"}
    assert all(m.overall.draws == 4 for m in result.matches)

    store = TournamentStore.open_existing(db)
    records = list(store.records())
    store.close()
    for record in records:
        assert record.termination == "adjudicated" and record.result == (0.5, 0.5)
        assert record.meta["adjudication"] == "still going after max-decisions 5"
        assert len(record.move_times) == 5
        assert not replay_checked(record, load_fake_game(record.game)).is_terminal()

    resumed = run_tournament(config(db, max_decisions=5, deals=3))  # the same cap: resumes
    assert resumed.played_now == 2 and len(resumed.adjudicated) == 6
    with pytest.raises(TournamentDatabaseError, match="max_decisions: database has 5, this run has 10"):
        run_tournament(config(db, max_decisions=10, deals=3))


def test_a_cap_above_the_game_length_changes_nothing(tmp_path: Path) -> None:
    result = run_tournament(config(tmp_path / "t.sqlite", max_decisions=10))
    assert result.adjudicated == [] and "Adjudicated" not in result.report()


def test_a_database_made_before_the_cap_opens_and_resumes_with_the_default(tmp_path: Path) -> None:
    # Made by the schema-3 code (no adjudication column, no max_decisions in the fingerprint): T vs R, deals=2, seed=1.
    db = tmp_path / "old.sqlite"
    shutil.copy(SCHEMA3, db)
    old = TournamentStore.open_existing(db)
    assert old.schema == "3" and old.fingerprint()["max_decisions"] == MAX_DECISIONS
    assert len(list(old.records())) == 4 and old.adjudicated() == []
    old.close()
    assert db.read_bytes() == SCHEMA3.read_bytes()  # read, not changed
    with pytest.raises(TournamentDatabaseError, match=f"max_decisions: database has {MAX_DECISIONS}, this run has 5"):
        run_tournament(config(db, deals=3, max_decisions=5))
    result = run_tournament(config(db, deals=3))  # resume: upgrade to schema 4, then play deal 2
    assert result.played_now == 2 and len(result.games) == 6 and result.contradictions == []
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT value FROM tournament WHERE key = 'schema'").fetchone()[0] == "4"
    fingerprint = json.loads(conn.execute("SELECT value FROM tournament WHERE key = 'fingerprint'").fetchone()[0])
    assert fingerprint["max_decisions"] == MAX_DECISIONS
    with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):  # the new column's constraint
        conn.execute("UPDATE games SET termination = 'adjudicated' WHERE game_id = 0")
    conn.close()


def test_the_schema_ties_the_reason_to_the_termination(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    run_tournament(config(db, max_decisions=5, deals=1))
    conn = sqlite3.connect(db)
    with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
        conn.execute("UPDATE games SET adjudication = NULL WHERE game_id = 0")
    conn.close()


@pytest.mark.parametrize("value, message", [
    ("0", "--max-decisions must be a whole number of decisions from 1 to 1000000, got 0"),
    ("2000000", "--max-decisions must be a whole number of decisions from 1 to 1000000, got 2000000"),
    ("many", "argument --max-decisions: must be a whole number, got 'many'"),
])
def test_a_bad_max_decisions_is_a_usage_error_naming_it(tmp_path: Path, value: str, message: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.sqlite"
    args = ["tournament", T, R, "--game", "highcard", "--game-loader", LOADER, "--db", str(db),
            "--no-progress", "--max-decisions", value]
    try:
        code = main(args)
    except SystemExit as exc:  # argparse's own usage errors
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not db.exists()


def test_the_cli_reports_and_replays_adjudicated_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.sqlite"
    args = ["tournament", T, R, "--game", "highcard", "--game-loader", LOADER, "--db", str(db), "--deals", "1",
            "--concurrency", "1", "--no-progress", "--max-decisions", "3"]
    assert main(args) == 0
    assert "Adjudicated draws (2):\n  still going after max-decisions 3: games 0, 1" in capsys.readouterr().out
    assert main([*args, "--json"]) == 0
    assert [a["game"] for a in json.loads(capsys.readouterr().out)["adjudicated"]] == [0, 1]
    assert main(["replay", "--db", str(db), "1", "--game-loader", LOADER]) == 0
    out, err = capsys.readouterr()
    assert "termination: adjudicated  result: [0.5, 0.5]" in out
    assert "adjudicated a draw: still going after max-decisions 3" in out and err == ""
    assert main(["export", "--db", str(db), "--game-loader", LOADER]) == 0
    out, err = capsys.readouterr()
    assert [json.loads(line)["termination"] for line in out.splitlines()] == ["adjudicated"] * 2
    assert "contradict" not in err


def test_a_duel_tournament_between_agents_that_loop_ends(tmp_path: Path) -> None:
    # FirstLegalAgent loops for ever in Duel (replenish, take a token, discard it, ...).
    result = run_tournament(TournamentConfig(
        game="duel", agents=(LOOPER, f"{LOOPER}:name=B"), deals=1, seed=2, db=tmp_path / "d.sqlite",
        concurrency=1, max_decisions=60))
    assert len(result.games) == 2 and all(g.result == (0.5, 0.5) for g in result.games)
    assert [reason for _, reason in result.adjudicated] == ["still going after max-decisions 60"] * 2
    assert result.contradictions == []
