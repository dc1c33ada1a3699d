"""External engines that misbehave (tests/engines/bad_engine.py) forfeit as docs/engine-protocol.md
says, the database stays consistent, and no engine process is left behind."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from splendor_mcts.tournament import TournamentConfig, TournamentStore, run_tournament
from test_tournament_orphans import alive, descendants, wait_gone

BAD = Path(__file__).parent / "engines/bad_engine.py"
EXAMPLE = Path(__file__).parent.parent / "examples/engines/random_engine.py"


def bad(mode: str, at: int = 2, limits: str = "movetime=0.3,grace=0.3", extra: str = "") -> str:
    return f'engine:cmd="{sys.executable} {BAD} --mode {mode} --at {at}{extra}",{limits},name=bad'


def play(tmp_path: Path, spec: str, concurrency: int = 1, game: str = "splendor") -> tuple[object, Path]:
    db = tmp_path / "t.sqlite"
    result = run_tournament(TournamentConfig(game=game, agents=(spec, "random"), deals=1, seed=3, db=db,
                                             concurrency=concurrency))
    return result, db


def engine_pids(record) -> set[int]:  # type: ignore[no-untyped-def]
    """The pids the bad engine wrote to stderr (kept in the record's forfeit)."""
    return {int(m.group(1)) for line in record.forfeit.stderr if (m := re.match(r"(?:pid|child) (\d+)$", line))}


def stored_engine_pids(db: Path) -> set[int]:
    store = TournamentStore.open_existing(db)
    try:
        return set().union(*(engine_pids(r) for r in store.records()))
    finally:
        store.close()


CASES = [
    ("crash", "", "engine crashed: the engine exited with code 3", "bad-engine: crashing at move 2 on purpose"),
    # Asleep, it runs no CPU time: stopped at the wall-clock backstop, 4 x (0.3 + 0.1) + 2 s.
    ("hang", " --child", "engine hung: no bestmove 3.6 s after go, nor 0.3 s after stop", "bad-engine: hanging"),
    ("spin", " --seconds 0.6", "time loss: answered after ", None),
    ("illegal", "", "illegal move: 'buy 3.4': ", None),
    ("garbage", "", "malformed move: 'fly to the moon' is not a move", None),
    ("flood", "", "engine flooded its output: wrote more than", None),
    ("handshake", "", "bad handshake: expected id, option, feature or sepok after 'sep', got 'hello there", None),
]


@pytest.mark.parametrize(("mode", "extra", "reason", "stderr"), CASES, ids=[c[0] for c in CASES])
def test_a_misbehaving_engine_forfeits_and_leaves_nothing_behind(tmp_path: Path, mode: str, extra: str,
                                                                  reason: str, stderr: str | None,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    before = descendants(os.getpid())
    # A flood must be caught as a flood, not as a time loss on a loaded machine: its clock is long.
    # A spinning engine is told stop once its CPU time is up, but spins on: a long grace lets it
    # answer late however loaded the machine is, rather than be killed.
    limits = {"flood": "movetime=5,grace=1", "spin": "movetime=0.3,grace=30"}.get(mode, "movetime=0.3,grace=0.3")
    result, db = play(tmp_path, bad(mode, extra=extra, limits=limits))
    assert len(result.forfeits) == 2  # both seat rotations, each with a fresh engine
    for game_id, agent, text in result.forfeits:
        assert agent == 0 and text.startswith(reason), text
        if mode == "spin":  # charged its CPU time, about the 0.6 s it spun (in ticks of /proc)
            assert re.search(r"after 0\.[5-9]\d* s of CPU time \(\d+\.\d+ s on the wall clock\) with 0\.300 s left", text), text
    store = TournamentStore.open_existing(db)
    try:
        records = list(store.records())
        assert [g.result for g in store.scored_games()] == [(0.0, 1.0), (1.0, 0.0)]
    finally:
        store.close()
    pids: set[int] = set()
    for record in records:
        assert record.termination == "forfeit" and record.forfeit.seat == record.seats.index(
            next(s for s in record.seats if "bad_engine" in s))
        assert record.forfeit.reason.startswith(reason)
        if stderr is not None:
            assert stderr in record.forfeit.stderr
        pids |= engine_pids(record)
    assert len(pids) == (4 if "--child" in extra else 2)
    assert not wait_gone(pids, 5)
    assert descendants(os.getpid()) - before == set()
    if mode == "crash":  # replay shows the reason and the engine's last words
        from splendor_mcts.cli import main

        assert main(["replay", "--db", str(db), "0"]) == 0
        shown = capsys.readouterr().out
        assert "forfeit: seat 1 - engine crashed" in shown and "stderr: bad-engine: crashing at move 2" in shown
    # The database is whole: a second run resumes with nothing left to play.
    again = run_tournament(TournamentConfig(game="splendor", agents=(bad(mode, extra=extra, limits=limits), "random"), deals=1,
                                            seed=3, db=db, concurrency=1))
    assert again.played_now == 0 and len(again.games) == 2


def test_an_engine_slow_to_get_ready_gets_the_seconds_ready_gives_it(tmp_path: Path) -> None:
    """An engine that loads a network for a while after newgame: within ``ready`` seconds it plays,
    past them it forfeits as hung (tests/engines/bad_engine.py --mode readyslow)."""
    slow = bad("readyslow", extra=" --seconds 5", limits="timeout=30")
    (tmp_path / "late").mkdir()
    result, _ = play(tmp_path / "late", slow + ",ready=2")  # ready covers sep ... sepok too: not too short
    assert [text.split(" within")[0] for _, _, text in result.forfeits] == ["engine hung: no 'readyok'"] * 2
    (tmp_path / "patient").mkdir()
    result, _ = play(tmp_path / "patient", slow + ",ready=30")
    assert result.forfeits == [] and len(result.games) == 2


def test_worker_processes_end_their_engines_too(tmp_path: Path) -> None:
    before = descendants(os.getpid())
    result, db = play(tmp_path, bad("hang", extra=" --child"), concurrency=2)
    assert [f[2].split(":")[0] for f in result.forfeits] == ["engine hung", "engine hung"]
    pids = stored_engine_pids(db)
    assert len(pids) == 4 and not wait_gone(pids, 5)
    # (the pool's multiprocessing resource tracker stays for the test process's life)
    assert {p for p in descendants(os.getpid()) - before if "bad_engine" in _cmdline(p) or "sleep" in _cmdline(p)} == set()


def test_a_killed_tournament_takes_its_engines_with_it(tmp_path: Path) -> None:
    """SIGKILL the tournament alone while its engines think: the workers die with it (their
    PDEATHSIG), and the engines with the workers (theirs)."""
    db = tmp_path / "k.sqlite"
    script = textwrap.dedent(f"""
        from splendor_mcts.tournament import TournamentConfig, run_tournament
        run_tournament(TournamentConfig(game="splendor", agents=({bad("slow", at=1, limits="movetime=100",
                                                                     extra=" --seconds 100")!r}, "random"),
                       deals=2, seed=1, db={str(db)!r}, concurrency=2))
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    try:
        deadline = time.monotonic() + 60
        engines: set[int] = set()
        while time.monotonic() < deadline and len(engines) < 2:
            time.sleep(0.1)
            engines = {p for p in descendants(proc.pid) if "bad_engine" in _cmdline(p)}
        assert len(engines) == 2, "the engines did not start"
        tree = descendants(proc.pid)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert not wait_gone(tree, 10)
    assert all(not alive(p) for p in engines)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


@pytest.mark.parametrize("game", ["splendor", "duel"])
def test_the_example_engine_plays_a_full_tournament_against_greedy(tmp_path: Path, game: str) -> None:
    spec = f'engine:cmd="{sys.executable} {EXAMPLE}",movetime=5,name=example'
    before = descendants(os.getpid())
    result = run_tournament(TournamentConfig(game=game, agents=(spec, "greedy"), deals=2, seed=5,
                                             db=tmp_path / "e.sqlite", concurrency=1))
    assert len(result.games) == 4 and result.forfeits == []
    store = TournamentStore.open_existing(tmp_path / "e.sqlite")
    try:
        assert all(r.termination == "normal" for r in store.records())
    finally:
        store.close()
    assert descendants(os.getpid()) - before == set()


def test_engines_on_the_ray_backend_forfeit_and_end(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason='ray is not installed: pip install ".[ray]"')
    db = tmp_path / "r.sqlite"
    result = run_tournament(TournamentConfig(game="splendor", agents=(bad("hang", extra=" --child"), "random"),
                                             deals=1, seed=3, db=db, concurrency=1, backend="ray"))
    assert [f[2].split(":")[0] for f in result.forfeits] == ["engine hung", "engine hung"]
    pids = stored_engine_pids(db)
    assert len(pids) == 4 and not wait_gone(pids, 5)


def test_the_clock_is_kept_across_moves_and_running_out_loses(tmp_path: Path) -> None:
    """0.3 s of CPU time a move on a 1 s clock without increment: the fourth move comes too late."""
    spec = bad("spin", at=1, limits="tc=1+0,margin=0.05,grace=30", extra=" --seconds 0.3")
    result, db = play(tmp_path, spec)
    assert [f[2].split(":")[0] for f in result.forfeits] == ["time loss", "time loss"]
    store = TournamentStore.open_existing(db)
    try:
        for record in store.records():
            seat = record.forfeit.seat
            game_moves = [t for t, mover in zip(record.move_times, _movers(record)) if mover == seat]
            # three in time, then the clock ran out (the CPU time is charged, not the wall-clock
            # time a loaded machine adds)
            assert len(game_moves) == 3, record.forfeit.reason
    finally:
        store.close()


def test_an_engine_kept_waiting_is_charged_its_cpu_time_not_the_wall_clock(tmp_path: Path) -> None:
    """Asleep for twice its move time on its first three moves, as on a machine loaded several
    times over: it ran for almost no CPU time, so its moves count; only the wall-clock backstop
    (4 x 0.4 + 2 s) would stop it."""
    result, db = play(tmp_path, bad("slow", at=1, limits="movetime=0.3,grace=0.3", extra=" --until 3 --seconds 0.6"))
    assert result.forfeits == []
    assert "Engine clocks: bad: a move is charged the engine's CPU time (at most the wall-clock time" in result.report()
    assert result.to_dict()["engineClocks"].endswith("stopped after 4 x its limit + 2 s on the wall clock")
    store = TournamentStore.open_existing(db)
    try:
        assert [r.termination for r in store.records()] == ["normal", "normal"]
    finally:
        store.close()


def _movers(record) -> list[int]:  # type: ignore[no-untyped-def]
    import splendor_mcts as sm

    state = sm.load_game(record.game).new_initial_state(seed=record.seed, explicit_chance=True)
    movers = []
    for action in record.actions:
        if not state.is_chance_node():
            movers.append(state.current_player())
        state.apply_action(action)
    return movers


def test_an_engine_that_says_reuse_plays_the_next_game_in_the_same_process() -> None:
    import splendor_mcts as sm
    from splendor_mcts.tournament.engine_agent import EngineAgent, EnginePool, engine_settings

    game = sm.load_game("splendor")
    pool = EnginePool()
    try:
        reusable = engine_settings({"cmd": f"{sys.executable} {EXAMPLE}", "movetime": 5})
        first = EngineAgent(reusable, game, 1, pool)
        pid = first.client.pid
        first.release()
        second = EngineAgent(reusable, game, 2, pool)
        assert second.client.pid == pid
        second.failed = True  # a failed engine is never handed on
        second.release()
        assert not alive(pid)
        third = EngineAgent(reusable, game, 3, pool)
        pid3 = third.client.pid
        assert pid3 != pid
        third.release()  # idle in the pool ...
        assert alive(pid3)
    finally:
        pool.close()
    assert not alive(pid3)  # ... until the pool is closed
