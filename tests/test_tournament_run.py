"""Running tournaments end to end on a small fake game: rotation, records, forfeits, resume, SPRT, backends."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from tournament_fakes import HighCardGame, PeekingAgent

from splendor_mcts.records import replay
from splendor_mcts.tournament import (
    SprtConfig,
    TournamentConfig,
    TournamentDatabaseError,
    TournamentStore,
    run_tournament,
)
from splendor_mcts.tournament.agents import ObservingAgent

LOADER = "tournament_fakes:load_fake_game"
T = "tournament_fakes:ThresholdAgent"
R = "tournament_fakes:RandomAgent"


def config(tmp_path: Path, **kw) -> TournamentConfig:
    base = dict(game="highcard", agents=(T, R), deals=4, seed=1, db=tmp_path / "t.sqlite",
                concurrency=1, loader=LOADER)
    base.update(kw)
    return TournamentConfig(**base)


def stored(db: Path) -> dict[int, tuple]:
    store = TournamentStore.open_existing(db)
    try:
        return {r.meta["game_id"]: (r.seats, r.actions, r.result, r.termination) for r in store.records()}
    finally:
        store.close()


def test_every_agent_plays_every_seat_and_records_replay(tmp_path: Path) -> None:
    agents = (T, R, "tournament_fakes:ThresholdAgent:threshold=7,name=t7")
    result = run_tournament(config(tmp_path, agents=agents, deals=3))
    assert len(result.games) == result.scheduled == 3 * 3 * 2
    store = TournamentStore.open_existing(tmp_path / "t.sqlite")
    records = list(store.records())
    game = HighCardGame(2, 5)
    by_deal: dict[tuple[int, int], list] = {}
    for r in records:
        by_deal.setdefault((r.meta["deal"], r.meta["pairing"]), []).append(r)
        state = replay(r, game=game)
        assert state.is_terminal() and tuple(state.returns()) == r.result
        assert len(r.move_times) == 2 * game.rounds  # one time per decision, none for chance
    for rotations in by_deal.values():
        assert len(rotations) == 2
        a, b = rotations
        assert a.seats == b.seats[::-1] and a.seed == b.seed
        reveals = lambda rec: [x for i, x in enumerate(rec.actions) if i % 2 == 0]  # noqa: E731
        assert reveals(a) == reveals(b)  # same cards in the same order for both seatings
    rows = store.conn.execute("SELECT num_actions, decisions FROM games").fetchall()
    assert sum(n for n, _ in rows) == sum(len(r.actions) for r in records)
    assert all(json.loads(d) == [game.rounds, game.rounds] for _, d in rows)  # every decision counted
    assert sum(t for _, t, _ in store.think_times()) == pytest.approx(sum(sum(r.move_times) for r in records))
    store.close()
    # Threshold play beats random play: the table says so.
    assert result.table.rows[-1].name == R
    report = result.report()
    assert f"Score of {T} vs {R}:" in report and "Elo difference:" in report and "Ptnml(0-2):" in report


def test_crashing_and_illegal_agents_forfeit_and_the_tournament_goes_on(tmp_path: Path) -> None:
    agents = ("tournament_fakes:CrashingAgent:crash_at=2", "tournament_fakes:IllegalAgent", T)
    result = run_tournament(config(tmp_path, agents=agents, deals=2))
    assert len(result.games) == 3 * 2 * 2
    reasons = {result.names[agent]: reason for _, agent, reason in result.forfeits}
    assert "crashed: RuntimeError: agent blew up" in reasons["tournament_fakes:CrashingAgent:crash_at=2"]
    assert "illegal move: action 7" in reasons["tournament_fakes:IllegalAgent"]
    for r in stored(tmp_path / "t.sqlite").values():
        seats, _, res, termination = r
        if T in seats and termination == "forfeit":
            assert res[seats.index(T)] == 1.0
    rows = sqlite3.connect(tmp_path / "t.sqlite").execute(
        "SELECT COUNT(*) FROM games WHERE termination = 'forfeit' AND forfeit_reason IS NOT NULL").fetchone()
    assert rows[0] == len(result.forfeits) == 12  # every game has the crasher or the illegal mover


def test_user_agent_sees_a_resampled_deck_not_the_real_one() -> None:
    game = HighCardGame(2, 5)
    state = game.new_initial_state(seed=5)
    state.apply_action(state.dealt_outcome())
    inner = PeekingAgent(game)
    ObservingAgent(inner, game, seed=3).step(state)
    assert sorted(inner.decks[0]) == sorted(state.deck)  # consistent with what is known
    assert inner.decks[0] != state.deck  # but not the hidden order


def test_concurrency_does_not_change_results(tmp_path: Path) -> None:
    run_tournament(config(tmp_path, db=tmp_path / "one.sqlite", concurrency=1, deals=3))
    run_tournament(config(tmp_path, db=tmp_path / "two.sqlite", concurrency=2, deals=3))
    assert stored(tmp_path / "one.sqlite") == stored(tmp_path / "two.sqlite")


def test_batches_of_games_per_worker_task_change_nothing(tmp_path: Path) -> None:
    # 40 cheap games: after the first results, batches of many games per worker task.
    run_tournament(config(tmp_path, db=tmp_path / "one.sqlite", concurrency=1, deals=20))
    run_tournament(config(tmp_path, db=tmp_path / "two.sqlite", concurrency=2, deals=20))
    assert stored(tmp_path / "one.sqlite") == stored(tmp_path / "two.sqlite")


def test_batcher_sizes_batches_by_the_cost_of_games_seen() -> None:
    from splendor_mcts.tournament.backends import Batcher
    from splendor_mcts.tournament.play import GameTask
    from splendor_mcts.tournament.store import PlayedGame

    tasks = [GameTask(i, "highcard", i, ("a", "b"), (0, 0)) for i in range(30)]
    batcher = Batcher(tasks, seconds=0.05, limit=8)
    assert [t.game_id for t in batcher.next_batch()] == [0]  # cost unknown: one game
    done = lambda wall: [PlayedGame(0, None, (), (), wall)]  # noqa: E731 - only wall_time is read
    batcher.observe(done(0.02))
    assert len(batcher.next_batch()) == 2  # 0.05 s / 0.02 s
    batcher.observe(done(0.0001) * 9)
    assert [t.game_id for t in batcher.next_batch()] == list(range(3, 11))  # capped at the limit
    batcher.observe(done(10.0))
    assert len(batcher.next_batch()) == 1  # slow games: one per task
    seen = [t.game_id for b in iter(batcher.next_batch, []) for t in b]
    assert seen == list(range(12, 30)) and batcher.exhausted


def test_a_schema_1_database_is_read_as_is_and_upgraded_on_resume(tmp_path: Path) -> None:
    # Made by the schema-1 code (one `moves` row per action): T vs R, deals=2, seed=1.
    db = tmp_path / "old.sqlite"
    db.write_bytes((Path(__file__).parent / "data" / "tournament_schema1.sqlite").read_bytes())
    old = TournamentStore.open_existing(db)
    assert old.schema == "1"
    records, think = list(old.records()), old.think_times()
    old.close()
    assert len(records) == 4 and [c for _, _, c in think] == [20, 20]
    assert _bytes(db) == (Path(__file__).parent / "data" / "tournament_schema1.sqlite").read_bytes()  # read only
    result = run_tournament(config(tmp_path, db=db, deals=3))  # resume: upgrade, then play deal 2
    assert result.played_now == 2 and len(result.games) == 6
    conn = sqlite3.connect(db)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "moves" not in tables
    assert conn.execute("SELECT value FROM tournament WHERE key = 'schema'").fetchone()[0] == "4"
    assert [json.loads(d) for (d,) in conn.execute("SELECT decisions FROM games ORDER BY game_id")] == [[5, 5]] * 6
    conn.close()
    new = TournamentStore.open_existing(db)
    assert list(new.records())[:4] == records
    upgraded = new.think_times()
    new.close()
    assert [c for _, _, c in upgraded] == [30, 30]
    assert [t for _, t, _ in upgraded] > [t for _, t, _ in think]


def _tamper(db: Path, statement: str) -> None:
    """Change a database behind the tournament's back."""
    conn = sqlite3.connect(db)
    conn.execute(statement)
    conn.commit()
    conn.close()


def test_a_database_of_an_unknown_schema_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    run_tournament(config(tmp_path, deals=1))
    _tamper(db, "UPDATE tournament SET value = '9' WHERE key = 'schema'")
    with pytest.raises(TournamentDatabaseError, match="has tournament schema '9'; this version reads '1', '2', '3', '4'"):
        run_tournament(config(tmp_path, deals=2))
    with pytest.raises(TournamentDatabaseError, match="schema '9'"):
        TournamentStore.open_existing(db)


KILL_SCRIPT = textwrap.dedent("""
    import sys
    from splendor_mcts.tournament import TournamentConfig, run_tournament
    run_tournament(TournamentConfig(game="highcard", agents=("tournament_fakes:SlowAgent:delay=0.01", {R!r}),
                   deals=12, seed=4, db=sys.argv[1], concurrency=2, loader={LOADER!r}))
""").format(R=R, LOADER=LOADER)


def test_resume_after_kill_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "killed.sqlite"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen([sys.executable, "-c", KILL_SCRIPT, str(db)], env=env, start_new_session=True)
    deadline = time.monotonic() + 60
    count = 0
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
        try:
            count = sqlite3.connect(db).execute("SELECT COUNT(*) FROM games").fetchone()[0]
        except sqlite3.Error:
            continue
        if count >= 4:
            break
    assert proc.poll() is None, "the run finished before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)  # the run and its workers, mid-game
    proc.wait()
    before = stored(db)
    assert 4 <= len(before) < 24
    kw = dict(agents=("tournament_fakes:SlowAgent:delay=0.01", R), deals=12, seed=4, concurrency=2)
    resumed = run_tournament(config(tmp_path, db=db, **kw))
    assert resumed.played_now == 24 - len(before)
    after = stored(db)
    assert sorted(after) == list(range(24))
    assert all(after[i] == before[i] for i in before)  # finished games kept as they were
    run_tournament(config(tmp_path, db=tmp_path / "clean.sqlite", **kw))
    assert stored(tmp_path / "clean.sqlite") == after  # same games as an uninterrupted run
    again = run_tournament(config(tmp_path, db=db, **kw))
    assert again.played_now == 0 and len(again.games) == 24


def test_sprt_stops_with_the_right_verdict(tmp_path: Path) -> None:
    sprt = SprtConfig(elo0=0, elo1=30, alpha=0.05, beta=0.05)
    better = run_tournament(config(tmp_path, db=tmp_path / "h1.sqlite", deals=400, sprt=sprt))
    assert better.sprt is not None and better.sprt.verdict == "H1"
    assert len(better.games) < better.scheduled
    assert better.sprt.llr >= sprt.upper
    worse = run_tournament(config(tmp_path, db=tmp_path / "h0.sqlite", agents=(R, T), deals=400, sprt=sprt))
    assert worse.sprt is not None and worse.sprt.verdict == "H0" and len(worse.games) < worse.scheduled
    # Resuming a decided match plays nothing more.
    again = run_tournament(config(tmp_path, db=tmp_path / "h1.sqlite", deals=400, sprt=sprt))
    assert again.played_now == 0 and again.sprt.verdict == "H1"
    assert "H1 was accepted" in better.report()


@pytest.mark.parametrize("players", [3, 4])
def test_multiplayer_sprt_tests_the_first_agent_against_the_field(tmp_path: Path, players: int) -> None:
    sprt = SprtConfig(elo0=0, elo1=30)
    game = f"highcard(players={players})"
    field = lambda agent: tuple(f"{agent}:name=f{i}" for i in range(1, players))  # noqa: E731
    better = run_tournament(config(tmp_path, game=game, db=tmp_path / "h1.sqlite", agents=(T, *field(R)), deals=400,
                                   sprt=sprt))
    assert better.sprt is not None and better.sprt.verdict == "H1" and better.sprt.players == players
    assert len(better.games) < better.scheduled and better.sprt.llr >= sprt.upper
    # Only finished deals count, each the mean of its rotations' shares of the first agent.
    by_deal: dict[int, list[float]] = {}
    for g in better.games:
        by_deal.setdefault(g.deal, []).append(g.result[g.seats.index(0)])
    finished = [sum(v) / players for v in by_deal.values() if len(v) == players]
    assert better.sprt.pairs == len(finished) and better.sprt.mean_share == pytest.approx(sum(finished) / len(finished))
    report = better.report()
    assert f"Share of {T} against the field: {better.sprt.mean_share:.3f} [" in report
    assert f"(even: {1 / players:.3f})" in report and "H1 was accepted" in report
    shown = better.to_dict()["sprt"]
    assert shown["players"] == players and shown["meanShare"] == pytest.approx(better.sprt.mean_share)
    worse = run_tournament(config(tmp_path, game=game, db=tmp_path / "h0.sqlite", agents=(R, *field(T)), deals=400,
                                  sprt=sprt))
    assert worse.sprt is not None and worse.sprt.verdict == "H0" and len(worse.games) < worse.scheduled
    again = run_tournament(config(tmp_path, game=game, db=tmp_path / "h1.sqlite", agents=(T, *field(R)), deals=400,
                                  sprt=sprt))
    assert again.played_now == 0 and again.sprt.verdict == "H1" and again.sprt.pairs == better.sprt.pairs


def test_multiplayer_tournament_uses_plackett_luce(tmp_path: Path) -> None:
    agents = (T, R, "tournament_fakes:RandomAgent:name=r2", "tournament_fakes:ThresholdAgent:threshold=8,name=t8")
    result = run_tournament(config(tmp_path, game="highcard(players=3)", agents=agents, deals=2))
    assert result.num_players == 3 and result.table.kind == "plackett-luce"
    assert len(result.games) == 4 * 2 * 3  # 4 triples x 2 deals x 3 rotations
    assert result.matches == []


def _bytes(path: Path) -> bytes:
    return path.read_bytes()


def test_a_database_of_another_tournament_is_refused_unchanged(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    run_tournament(config(tmp_path, deals=1))
    before = _bytes(db)
    with pytest.raises(TournamentDatabaseError, match=r"different tournament \(agents: .*seed|different tournament"):
        run_tournament(config(tmp_path, agents=(T, "tournament_fakes:RandomAgent:name=other")))
    with pytest.raises(TournamentDatabaseError, match="seed: database has 1, this run has 2"):
        run_tournament(config(tmp_path, seed=2))
    assert _bytes(db) == before
    # More deals of the same tournament extend it.
    assert run_tournament(config(tmp_path, deals=2)).played_now == 2


def test_corrupt_or_foreign_databases_are_refused(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(TournamentDatabaseError, match="not a usable SQLite database"):
        run_tournament(config(tmp_path, db=junk))
    assert junk.read_bytes() == b"this is not a database" * 100
    other = tmp_path / "other.sqlite"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE people (name TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(TournamentDatabaseError, match="not a splendor-mcts tournament database"):
        run_tournament(config(tmp_path, db=other))
    with pytest.raises(TournamentDatabaseError, match="no tournament database"):
        TournamentStore.open_existing(tmp_path / "missing.sqlite")


@pytest.mark.parametrize("kw, message", [
    (dict(agents=(T, "alphabeta")), "unknown agent 'alphabeta'"),
    (dict(agents=(T,)), "at least 2 agents"),
    (dict(agents=(T, T)), "listed twice"),
    (dict(game="highcard(players=4)"), "4-player game needs at least 4 agents"),
    (dict(players=7), "cannot load game highcard with players=7"),
    (dict(mode="swiss"), "unknown --mode"),
    (dict(deals=0), "--deals must be a whole number from 1 to 1000000, got 0"),
    (dict(concurrency=0), "--concurrency must be a whole number of at least 1, got 0"),
    (dict(backend="slurm"), "unknown --backend"),
    (dict(ray_address="auto"), "--ray-address needs --backend ray"),
    (dict(agents=(T, R, "tournament_fakes:RandomAgent:name=x"), sprt=SprtConfig()),
     "a 2-player game needs exactly 2 agents, got 3"),
    (dict(game="highcard(players=3)", agents=(T, R, "tournament_fakes:RandomAgent:name=x", "tournament_fakes:RandomAgent:name=y"),
          sprt=SprtConfig()), "a 3-player game needs exactly 3 agents, got 4"),
    (dict(loader="tournament_fakes:nothing"), "cannot load the game loader"),
    (dict(max_decisions=0), "--max-decisions must be a whole number of decisions from 1 to 1000000, got 0"),
    (dict(max_decisions=2.5), "--max-decisions must be a whole number"),
    (dict(max_decisions=True), "--max-decisions must be a whole number"),
])
def test_bad_input_fails_before_any_game_and_creates_no_database(tmp_path: Path, kw: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run_tournament(config(tmp_path, **kw))
    assert not (tmp_path / "t.sqlite").exists()


def test_ray_backend_gives_the_same_results_as_local(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake game (the backend's bookkeeping) and the engine with its bots (states and
    searches in Ray workers), in one Ray session: starting Ray is most of the cost."""
    ray = pytest.importorskip("ray", reason='ray is not installed: pip install ".[ray]"')
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(sys.path))  # Ray workers import the fakes too
    engine = dict(game="splendor", players=2, agents=("greedy", "mcts:iterations=10"), deals=2, seed=8, concurrency=2)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        run_tournament(config(tmp_path, db=tmp_path / "ray.sqlite", backend="ray", concurrency=2, deals=3))
        run_tournament(TournamentConfig(**engine, db=tmp_path / "ray-engine.sqlite", backend="ray"))
    finally:
        ray.shutdown()
    run_tournament(config(tmp_path, db=tmp_path / "local.sqlite", deals=3))
    run_tournament(TournamentConfig(**engine, db=tmp_path / "local-engine.sqlite"))
    assert stored(tmp_path / "ray.sqlite") == stored(tmp_path / "local.sqlite")
    assert stored(tmp_path / "ray-engine.sqlite") == stored(tmp_path / "local-engine.sqlite")


def test_a_worker_killed_by_its_agent_stops_the_run_cleanly_and_keeps_games(tmp_path: Path) -> None:
    from splendor_mcts.tournament.backends import WorkerLost

    agents = (T, R, "tournament_fakes:ProcessKillingAgent")
    with pytest.raises(WorkerLost, match="run the same command again to resume"):
        run_tournament(config(tmp_path, agents=agents, deals=3, concurrency=2))
    games = stored(tmp_path / "t.sqlite")
    assert all("tournament_fakes:ProcessKillingAgent" not in seats for seats, *_ in games.values())


def test_damaged_rows_and_truncated_files_are_reported_as_corrupt(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    run_tournament(config(tmp_path, deals=20))
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA ignore_check_constraints = ON")  # as an older version or a hand edit could
    conn.execute("DROP TRIGGER games_update_check")
    conn.execute("UPDATE games SET result = 'oops' WHERE game_id = 3")
    conn.commit()
    conn.close()
    with pytest.raises(TournamentDatabaseError, match=r"row 4 of games \(game 3\): result is not valid JSON"):
        run_tournament(config(tmp_path, deals=20))
    data = db.read_bytes()
    half = tmp_path / "half.sqlite"
    half.write_bytes(data[: len(data) // 2])
    with pytest.raises(TournamentDatabaseError, match="corrupt|not a usable SQLite database"):
        run_tournament(config(tmp_path, db=half, deals=20))
