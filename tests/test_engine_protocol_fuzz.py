"""Property tests of ``splendor-mcts engine`` (docs/engine-protocol.md; issue 49), as
tests/test_protocol_fuzz.py has for the analysis protocol: any lines, and above all any
numbers in ``go``, ``setoption`` and ``position startpos``, are answered by the protocol's
own messages (an ``info string error`` for a line it cannot obey), never a traceback; every
``isready`` gets its ``readyok``, every ``go`` its ``bestmove`` (or the refusal of a ``go``
sent while thinking); and the engine reads to the end of its input and exits 0."""
from __future__ import annotations

import io
import subprocess
import sys
import threading
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from splendor_mcts.engines.server import EngineServer

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
VIEWS = [" ".join((EXAMPLES / name).read_text().split()) for name in ("splendor-2p-view.json", "duel-view.json")]
OPTIONS = ["iterations", "threads", "parallelism", "seed", "exploration", "evaluator", "rollout_cutoff",
           "memory_limit", "reuse_tree", "network", "value_mix", "puct", "hash"]
# What an engine's messages begin with (docs/engine-protocol.md, "Engine to manager").
MESSAGES = ("id ", "feature ", "option ", "sepok", "readyok", "info ", "bestmove ")

numbers = st.one_of(
    st.integers(-2**70, 2**70).map(str),
    st.integers(0, 10**400).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["nan", "inf", "-inf", "1e400", "1_000", "\u0661", "\u00b2", "0x10", "1" + "0" * 400,
                     "0" * 5000 + "1", "1" + "0" * 5000, "", "-0", "+5", " 7", "1.5", "2**62"]),
    st.text(max_size=6),
)
go_words = st.lists(st.sampled_from(["iterations", "nodes", "movetime", "time", "inc", "infinite", "wtime", "depth"])
                    | numbers, max_size=6).map(lambda words: "go " + " ".join(words))
setoptions = st.builds(lambda name, value: f"setoption name {name} value {value}", st.sampled_from(OPTIONS),
                       numbers | st.sampled_from(["true", "false", "auto", "root", "tree", "random", "none"]))
positions = st.one_of(
    st.sampled_from(VIEWS).map(lambda view: f"position view {view}"),
    st.builds(lambda seed, moves: f"position startpos seed {seed} moves {moves}", numbers,
              st.sampled_from(["", "reveal #23", "?", "take WUG"])),
    st.builds(lambda head: f"position startpos {head}", st.text(max_size=12)),
)
lines = st.one_of(
    go_words, go_words, setoptions, positions,
    st.sampled_from(["sep", "isready", "stop", "newgame splendor", "newgame duel", "newgame chess", "legalmoves",
                     "go iterations 50", "go movetime 5"]),
    st.text(max_size=40).map(lambda text: " ".join(text.split())),  # garbage, one line
)


def _run(batch: list[str]) -> list[str]:
    """The engine's answers to these lines (then end of input); the test fails if it raises or hangs."""
    out = io.StringIO()
    server = EngineServer(io.StringIO("".join(line + "\n" for line in batch)), out)
    codes: list[int] = []
    runner = threading.Thread(target=lambda: codes.append(server.run()), daemon=True)
    runner.start()
    runner.join(120)
    assert not runner.is_alive(), "the engine did not finish reading its input"
    assert codes == [0], "the engine raised (see the thread's traceback above)"
    return out.getvalue().splitlines()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(lines, min_size=1, max_size=8))
def test_any_lines_are_answered_in_the_protocol_and_the_engine_reads_on(batch: list[str]) -> None:
    batch = [line for line in batch if line.split(" ", 1)[0] != "quit"]  # quit would end the input early
    out = _run(["newgame splendor", *batch, "isready"])
    assert all(line.startswith(MESSAGES) for line in out), out
    assert not any("Traceback" in line for line in out)
    asked = [line for line in batch if line.split(" ", 1)[0] == "go"]
    refused_while_thinking = [line for line in out if line.startswith("info string error go: the engine is thinking")]
    assert sum(line.startswith("bestmove ") for line in out) == len(asked) - len(refused_while_thinking), out
    assert out.count("readyok") == batch.count("isready") + 1, out


def test_the_engine_process_answers_issue_49s_numbers_and_exits_0() -> None:
    huge = "1" + "0" * 400
    lines = ["newgame splendor", f"position view {VIEWS[0]}", f"go movetime {huge}", f"go time {huge} inc 5",
             f"go time 5 inc {huge}", "isready", "quit"]
    done = subprocess.run([sys.executable, "-m", "splendor_mcts.cli", "engine"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    out = done.stdout.splitlines()
    assert [line.split(" must ")[0] for line in out if "error" in line] == [
        "info string error go: movetime", "info string error go: time", "info string error go: inc"]
    assert out.count("bestmove (none)") == 3 and out[-1] == "readyok"
