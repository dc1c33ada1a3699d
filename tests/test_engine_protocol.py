"""The engine protocol (docs/engine-protocol.md): ``splendor-mcts engine`` line by line, and the
tournament's client against it."""

from __future__ import annotations

import io
import json
import sys
import time
from collections.abc import Iterator

import pytest

import splendor_mcts as sm
from splendor_mcts.engines import wire
from splendor_mcts.engines.manager import EngineClient
from splendor_mcts.engines.server import EngineServer


def talk(*lines: str) -> tuple[list[str], EngineServer]:
    """Run the engine over these input lines, then end of input once it has stopped thinking;
    its output lines. End of input stops a search (as quit does), so ending it at once would
    cut a budget short whenever the search is slower than the reader (a loaded machine)."""
    out = io.StringIO()

    def stdin() -> Iterator[str]:
        yield from (line + "\n" for line in lines)
        deadline = time.monotonic() + 120
        while server.busy() and time.monotonic() < deadline:
            time.sleep(0.005)

    server = EngineServer(stdin(), out)
    assert server.run() == 0
    return out.getvalue().splitlines(), server


def opening(game: sm.Game, seed: int) -> sm.SplendorState:
    state = game.new_initial_state(seed=seed, explicit_chance=True)
    while state.is_chance_node():
        state.apply_action(state.dealt_outcome())
    return state


def test_handshake_declares_every_option_with_type_default_and_range() -> None:
    out, _ = talk("sep")
    assert out[0].startswith("id name splendor-mcts") and out[-1] == wire.HELLO_OK
    options = {o.name: o for o in (wire.parse_option(line) for line in out if line.startswith("option"))}
    assert options["threads"] == wire.Option("threads", "spin", "1", 1, 256)
    assert options["parallelism"].choices == ("root", "tree")
    assert options["exploration"].type == "float" and options["exploration"].default == wire.AUTO
    assert "feature reuse" in out and "feature games splendor duel" in out


def test_bad_lines_are_answered_and_the_engine_reads_on() -> None:
    state = opening(sm.load_game("splendor"), 1)
    out, _ = talk("fly", "setoption name nope value 1", "setoption name threads value 0", "position startpos",
                  f"position state {state.to_json()}", "position view {not json", "go", "go iterations -3",
                  "newgame chess", "isready")
    errors = [line for line in out if line.startswith("info string error")]
    assert len(errors) == 8, out
    assert "unknown command 'fly'" in errors[0]
    assert "unknown option 'nope'" in errors[1]
    assert "option threads must be a whole number from 1 to 256, got '0'" in errors[2]
    assert "send newgame GAME first" in errors[3]
    assert errors[4].startswith("info string error position: ")
    assert "no position" in errors[5]  # the refused view left none: the state before it is not searched
    assert errors[6] == "info string error go: iterations must be a whole number from 1 to 4611686018427387904, got '-3'"
    assert out.count("bestmove (none)") == 2  # every go is answered, even one that cannot search
    assert out[-1] == "readyok"


@pytest.mark.parametrize("name", ["splendor", "duel"])
def test_a_view_and_its_legal_moves_get_a_legal_best_move_with_info(name: str) -> None:
    game = sm.load_game(name)
    state = opening(game, 5)
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    out, _ = talk(f"newgame {game.spec}", f"position view {state.observation_json(state.current_player())}",
                  f"legalmoves {wire.join_moves(legal)}", "go iterations 300")
    info = wire.parse_info(out[-2])
    assert info.iterations == 300 and 0 <= (info.winrate or -1) <= 100 and info.pv and info.pv[0]
    move = out[-1].removeprefix("bestmove ")
    assert move in legal and info.pv[0][0] == move


def test_same_seed_and_budget_answer_as_the_builtin_mcts_agent() -> None:
    game = sm.load_game("splendor")
    state = opening(game, 9)
    bot = sm.MCTSBot(game, iterations=400, seed=7)
    out, _ = talk("setoption name seed value 7", f"newgame {game.spec}",
                  f"position view {state.observation_json(state.current_player())}", "go iterations 400")
    assert out[-1] == f"bestmove {state.action_to_string(bot.step(state))}"


def test_go_infinite_stops_on_stop() -> None:
    game = sm.load_game("splendor")
    state = opening(game, 1)
    out, _ = talk(f"position state {state.to_json()}", "go infinite", "stop")
    assert out[-1].startswith("bestmove ") and out[-1] != "bestmove (none)"


def test_startpos_moves_with_unseen_reveals_are_redealt_to_fit_the_table() -> None:
    """An opponent's blind reserve is written '?'; when the card the engine put there shows up
    on the table later, the engine gives the hidden reserve another card."""
    game = sm.load_game("splendor")
    state = game.new_initial_state(seed=0, explicit_chance=True)
    moves = []
    while state.is_chance_node():
        moves.append(state.action_to_string(state.dealt_outcome()))
        state.apply_action(state.dealt_outcome())
    state.apply_action(state.string_to_action("reserve deck 1"))
    hidden = state.dealt_outcome()  # what the engine, with the same seed, puts there for '?'
    state.apply_action(hidden)
    state.apply_action(state.string_to_action("reserve 1.1"))
    refill = state.action_to_string(hidden)  # the table now shows that very card
    out, server = talk(f"newgame {game.spec}",
                       f"position startpos seed 0 moves {wire.join_moves(moves)}, reserve deck 1, ?, reserve 1.1, "
                       f"{refill}")
    assert not any("error" in line for line in out), out
    table_card = json.loads(server.state.to_json())
    reserved = table_card["players"][0]["reserved"][0]["card"]
    assert f"#{reserved}" != refill.split()[-1]
    assert server.state.is_legal(server.state.string_to_action("take WUG"))  # seat 0 to move again


def test_client_speaks_to_the_engine_process() -> None:
    client = EngineClient([sys.executable, "-m", "splendor_mcts.cli", "engine"])
    try:
        assert client.intro.reuse and client.intro.plays("duel") and "seed" in client.intro.options
        with pytest.raises(ValueError, match="no option 'hash'"):
            client.setoption("hash", "16")
        with pytest.raises(ValueError, match="option threads must be a whole number from 1 to 256"):
            client.setoption("threads", "999")
        game = sm.load_game("splendor")
        client.newgame(game.spec)
        state = opening(game, 2)
        legal = [state.action_to_string(a) for a in state.legal_actions()]
        answer = client.move(state.observation_json(0), legal, wire.Limits(iterations=100), 30.0, 1.0)
        assert answer.move in legal and answer.info is not None and answer.info.iterations == 100
    finally:
        client.close()
    assert not client.process.alive()


def test_wire_round_trips() -> None:
    limits = wire.Limits(iterations=5, movetime=0.25, time=60.0, inc=0.5)
    assert wire.parse_go(limits.words().split()) == limits
    assert wire.parse_go(["nodes", "7"]).iterations == 7
    with pytest.raises(ValueError, match="unknown word 'depth'"):
        wire.parse_go(["depth", "3"])
    info = wire.Info(iterations=9, time=0.5, nps=18, winrate=51.5, pv=[["take WUG"], ["buy 1.2", "noble 3"]])
    assert wire.parse_info(info.line()) == info
    option = wire.Option("Skill Level", "spin", "3", 0, 20)
    assert wire.parse_option(option.line()) == option
    with pytest.raises(ValueError, match="option Skill Level must be a whole number from 0 to 20, got '21'"):
        option.check("21")


def test_engine_specs_quote_their_command_and_round_trip() -> None:
    from splendor_mcts.tournament import parse_agent_spec
    from splendor_mcts.tournament.engine_agent import engine_settings, with_time_control

    spec = parse_agent_spec(f'engine:cmd="{sys.executable} -c \\"print(1, 2)\\"",tc=60+0.5,option.Skill=3,name=bot')
    settings = engine_settings(spec.kwargs())
    assert settings.argv == (sys.executable, "-c", "print(1, 2)")
    assert settings.clock == (60.0, 0.5) and settings.options == (("Skill", "3"),) and spec.name == "bot"
    assert parse_agent_spec(spec.full_spec) == spec
    timed = with_time_control(parse_agent_spec(f'engine:cmd="{sys.executable}"'), "10+1", None)
    assert engine_settings(timed.kwargs()).clock == (10.0, 1.0)
    assert with_time_control(spec, "10+1", None) == spec  # its own tc wins
    for bad, message in [("engine:tc=60", "needs cmd="), ('engine:cmd="no-such-program-x"', "not an executable"),
                         (f'engine:cmd="{sys.executable}",tc=fast', "tc must be BASE\\+INC"),
                         (f'engine:cmd="{sys.executable}",depth=3', "unknown parameter 'depth'"),
                         (f'engine:cmd="{sys.executable},movetime=1', "no closing quote"),
                         (f'engine:cmd="{sys.executable}",iterations=5,nodes=5', "not both")]:
        with pytest.raises(ValueError, match=message):
            parse_agent_spec(bad)


def test_a_program_that_does_not_read_its_input_is_a_hang_not_a_block() -> None:
    from splendor_mcts.engines.process import EngineFailure, EngineProcess

    process = EngineProcess(["sleep", "30"])
    try:
        with pytest.raises(EngineFailure, match="has not read its input for 0.3 s") as failure:
            process.send("x" * (1 << 20), seconds=0.3)
        assert failure.value.kind == "hang"
    finally:
        process.kill()
    assert not process.alive()


def test_tournament_time_control_options_are_checked_before_any_game(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from splendor_mcts.cli import main

    spec = f'engine:cmd="{sys.executable}",name=e'
    assert main(["tournament", spec, "random", "--tc", "soon", "--db", str(tmp_path / "t.sqlite")]) == 2
    assert "tc must be BASE+INC" in capsys.readouterr().err
    assert main(["tournament", spec, "random", "--movetime", "-1", "--db", str(tmp_path / "t.sqlite")]) == 2
    assert "movetime must be a number of seconds greater than 0 and at most 1000000, got -1.0" in capsys.readouterr().err
    assert not (tmp_path / "t.sqlite").exists()


def test_the_engine_command_survives_bytes_that_are_not_utf8() -> None:
    import subprocess

    done = subprocess.run([sys.executable, "-m", "splendor_mcts.cli", "engine"], input=b"\xff\xfe go\nisready\nquit\n",
                          capture_output=True, timeout=60)
    lines = done.stdout.decode().splitlines()
    assert done.returncode == 0 and lines[0].startswith("info string error unknown command") and lines[1] == "readyok"


HUGE = "1" + "0" * 400  # issue 49: a whole number no float holds


@pytest.mark.parametrize("limits", [f"movetime {HUGE}", f"time {HUGE}", f"time 1000 inc {HUGE}",
                                    f"iterations {HUGE}", f"nodes {HUGE}", "movetime 1e3", "movetime nan",
                                    "time inf", "movetime 1_000", "movetime \u0661", "movetime 0", "inc -1",
                                    f"movetime 1{'0' * 5000}", f"movetime -{'0' * 5000}1"],
                         ids=lambda limits: limits[:30])
def test_go_refuses_a_number_out_of_its_range_and_the_engine_reads_on(limits: str) -> None:
    state = opening(sm.load_game("splendor"), 1)
    out, _ = talk("newgame splendor", f"position view {state.observation_json(state.current_player())}",
                  f"go {limits}", "isready")
    word = limits.split()[-2]
    assert out[-3].startswith(f"info string error go: {word} must be a whole number"), out
    assert out[-2:] == ["bestmove (none)", "readyok"]


def test_go_takes_the_longest_times_the_engine_documents() -> None:
    limits = wire.parse_go(["movetime", "1000000000", "time", "0", "inc", "1000000000", "nodes", str(2**62)])
    assert limits == wire.Limits(iterations=2**62, movetime=1e6, time=0.0, inc=1e6)
    with pytest.raises(ValueError, match="movetime must be a whole number of milliseconds from 1 to 1000000000"):
        wire.parse_go(["movetime", "1000000001"])


@pytest.mark.parametrize("line", [f"setoption name threads value {HUGE}", "setoption name exploration value 1e400",
                                  "setoption name value_mix value nan", f"setoption name seed value {HUGE}",
                                  f"position startpos seed {HUGE}", "position startpos seed \u00b2"],
                         ids=lambda line: line[:40])
def test_options_and_seeds_out_of_range_are_refused_by_name(line: str) -> None:
    out, server = talk("newgame splendor", line, "isready")
    assert out[-2].startswith("info string error ") and "must be a" in out[-2], out
    assert out[-1] == "readyok"
    assert server.values == {name: o.default for name, o in server.options.items()}  # nothing was set


@pytest.mark.parametrize("line", [f"info time {HUGE}", f"info iterations {HUGE}0", "info winrate nan",
                                  "info nps -1", "info time 1e3"], ids=lambda line: line[:20])
def test_the_manager_refuses_an_engines_info_numbers_as_value_errors(line: str) -> None:
    with pytest.raises(ValueError, match="info: .* must be a"):
        wire.parse_info(line)
