"""The splendor-tools referee, both ways (docs/splendor-tools.md): the id map, the input and
move formats, our engine as a referee agent, and referee-format programs seated in our
tournaments, misbehaving ones included."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import shlex
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

import splendor_mcts as sm
from splendor_mcts.records import replay
from splendor_mcts.splendor_tools import ids
from splendor_mcts.splendor_tools.agent import answer
from splendor_mcts.splendor_tools.board import format_input, input_from_view, parse_input, view_from_input
from splendor_mcts.splendor_tools.id_table import CARD_DIGESTS, CARD_IDS, NOBLE_DIGESTS, NOBLE_IDS
from splendor_mcts.splendor_tools.moves import (
    A_RETURN,
    MoveFormatError,
    MoveRefused,
    from_our_actions,
    parse_move,
    to_our_actions,
)
from splendor_mcts.splendor_tools.seat import SplendorToolsSeat
from splendor_mcts.tournament import TournamentConfig, TournamentStore, run_tournament
from splendor_mcts.tournament.agents import parse_agent_spec
from splendor_mcts.tournament.play import GameTask, play_game
from search_helpers import default_networks_off

ROOT = Path(__file__).resolve().parents[1]
AGENTS = Path(__file__).resolve().parent / "splendor_tools_agents"
# The referee's repository (a checkout or a bare git directory), when this machine has one.
MIRROR = Path(os.environ.get("SPLENDOR_TOOLS_SOURCE", "/work/.mirror/nerdvana-ro+splendor-tools/repo"))
ORPHAN_MARK = "splendor-tools-orphan-check"


def _derive_script():
    spec = importlib.util.spec_from_file_location("derive_ids", ROOT / "tools" / "derive_splendor_tools_ids.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------- the format, as described


SUPPLY = {2: 4, 3: 5, 4: 7}


def check_input(text: str) -> None:
    """Every line of one move's input has the shape the format description gives."""
    assert text.endswith("\n")
    lines = [[int(x) for x in line.split()] for line in text.splitlines()]
    n, me = lines[0]
    assert 2 <= n <= 4 and 1 <= me <= n and len(lines) == 7 + 4 * n
    assert len(lines[1]) == 1 and lines[1][0] >= 1
    bank = lines[2]
    assert len(bank) == 6 and min(bank) >= 0
    seen: list[int] = []
    for level, (lo, hi) in enumerate(((1, 40), (41, 70), (71, 90))):
        row = lines[3 + level]
        assert len(row) == 5 and row[0] >= 0
        assert all(c == 0 or lo <= c <= hi for c in row[1:])
        seen += [c for c in row[1:] if c]
    nobles = lines[6]
    assert nobles[0] == len(nobles) - 1 and all(1 <= x <= 10 for x in nobles[1:])
    totals = list(bank)
    noble_ids = list(nobles[1:])
    for seat in range(n):
        tokens, cards, reserved, owned = lines[7 + 4 * seat: 11 + 4 * seat]
        assert len(tokens) == 6 and min(tokens) >= 0 and sum(tokens) <= 10
        totals = [a + b for a, b in zip(totals, tokens)]
        for counted in (cards, reserved, owned):
            assert counted[0] == len(counted) - 1
        assert all(1 <= c <= 90 for c in cards[1:])
        assert len(reserved) - 1 <= 3
        own = seat + 1 == me
        assert all((1 <= c <= 90) or (not own and -3 <= c <= -1) for c in reserved[1:])
        assert all(1 <= x <= 10 for x in owned[1:])
        seen += cards[1:] + [c for c in reserved[1:] if c > 0]
        noble_ids += owned[1:]
    # Colour order: five gem colours of the same supply, then the 5 gold tokens.
    assert totals == [SUPPLY[n]] * 5 + [5]
    assert len(seen) == len(set(seen)) and len(noble_ids) == len(set(noble_ids))


def check_output(line: str, tokens_after: int | None = None) -> None:
    """One move line has the shape the format description gives (and, when the tokens the move
    leaves are known, gives back exactly those above 10)."""
    words = [int(x) for x in line.split()]
    kind = words[0]
    if kind == 1:
        k = words[1]
        assert 0 <= k <= 3 and len(set(words[2:2 + k])) == k and all(0 <= c <= 4 for c in words[2:2 + k])
        rest = words[2 + k:]
    elif kind == 2:
        assert 0 <= words[1] <= 4
        rest = words[2:]
    elif kind == 3:
        assert -3 <= words[1] <= 90 and words[1] != 0
        rest = words[2:]
    else:
        assert kind == 4 and 1 <= words[1] <= 90
        rest = words[2:]
    assert len(rest) <= 3 and all(0 <= c <= 4 for c in rest)  # never gold
    if tokens_after is not None:
        assert len(rest) == max(0, tokens_after - 10)


# ---------------------------------------------------------------- the id map


def test_id_map_is_a_bijection_of_all_cards_and_nobles() -> None:
    assert sorted(CARD_IDS) == list(range(1, 91)) and sorted(NOBLE_IDS) == list(range(1, 11))
    assert all(ids.their_card(ids.our_card(t)) == t for t in range(1, 91))
    assert all(ids.their_noble(ids.our_noble(t)) == t for t in range(1, 11))
    with pytest.raises(ValueError, match="card id 91"):
        ids.our_card(91)


def test_id_map_agrees_on_level_cost_bonus_and_points() -> None:
    """Our card data through the map gives back each of their rows' facts (as digests)."""
    derive = _derive_script()
    game = sm.load_game("splendor")
    ours = {c["id"]: c for c in game.cards()}
    for their_id, digest in enumerate(CARD_DIGESTS, start=1):
        card = ours[ids.our_card(their_id)]
        assert card["level"] == ids.their_level(their_id)
        assert derive.digest(derive.card_fact(card["level"], card["cost"], card["bonus"], card["points"])) == digest
    nobles = {x["id"]: x for x in game.nobles()}
    for their_id, digest in enumerate(NOBLE_DIGESTS, start=1):
        assert derive.digest(derive.noble_fact(nobles[ids.our_noble(their_id)]["requirement"])) == digest
    # A wrong map would not pass: two cards swapped give other digests.
    b = ours[CARD_IDS[1]]
    assert derive.digest(derive.card_fact(b["level"], b["cost"], b["bonus"], b["points"])) != CARD_DIGESTS[0]


def test_the_derivation_refuses_anything_but_a_one_to_one_match() -> None:
    match = _derive_script().match
    assert match(["b", "a"], ["a", "b"], "card") == (2, 1)
    for theirs, ours, message in [(["a", "a"], ["a", "b"], "two of their cards"), (["a", "c"], ["a", "b"], "not one of ours"),
                                  (["a"], ["a", "b"], "they have 1"), (["a", "b"], ["a", "a"], "are the same")]:
        with pytest.raises(SystemExit, match=message):
            match(theirs, ours, "card")


@pytest.mark.skipif(not MIRROR.exists(), reason="the referee's repository is not here (set SPLENDOR_TOOLS_SOURCE)")
def test_committed_table_is_what_the_sources_give() -> None:
    assert _derive_script().main([str(MIRROR), "--check"]) == 0


def test_colour_codes() -> None:
    assert [ids.their_colour(c) for c in range(6)] == [3, 2, 1, 0, 4, 5]  # white blue green red black gold
    assert all(ids.our_colour(ids.their_colour(c)) == c for c in range(6))


# ---------------------------------------------------------------- input and moves


def _positions(players: int, games: int = 3, seed: int = 0):
    """States met in random games (main decisions only), with their seat's view."""
    game = sm.load_game("splendor", players=players)
    rng = random.Random(seed)
    for g in range(games):
        state = game.new_initial_state(seed=seed * 100 + g)
        while not state.is_terminal():
            seat = state.current_player()
            view = json.loads(state.observation_json(seat))
            if view["phase"] == "main":
                yield game, state, view
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_input_round_trips_through_our_view(players: int) -> None:
    for k, (game, state, view) in enumerate(_positions(players, games=2, seed=players)):
        text = format_input(input_from_view(view, round_no=k + 1))
        check_input(text)
        inp = parse_input(text)
        again = game.state_from_observation(json.dumps(view_from_input(inp)), seed=k)
        back = json.loads(again.observation_json(inp.me - 1))
        assert format_input(input_from_view(back, round_no=k + 1)) == text
        # Another seat's blind reserve is only its level; our own are ids.
        for seat, p in enumerate(view["players"]):
            for r, written in zip(p["reserved"], inp.seats[seat].reserved):
                assert (written < 0) == ("card" not in r)


def test_every_legal_move_maps_both_ways() -> None:
    for game, state, view in _positions(2, games=2, seed=5):
        for main in state.legal_actions():
            after = state.clone()
            after.apply_action(main)
            returns = []
            while not after.is_terminal() and after.current_player() == view["to_move"] and \
                    all(A_RETURN <= a < A_RETURN + 6 for a in after.legal_actions()):
                returns.append(next(a for a in after.legal_actions() if a < A_RETURN + 5))
                after.apply_action(returns[-1])
            line = from_our_actions(main, returns, view).text()
            held = sum(view["players"][view["to_move"]]["tokens"].values())
            check_output(line)
            assert to_our_actions(parse_move(line), state, view) == [main, *returns]
            assert len(returns) == max(0, held + _gain(main, view) - 10)


def _gain(main: int, view: dict) -> int:
    if main < 10:
        return 3
    if main < 25:
        return 2 if main < 20 else 1
    if main < 30:
        return 2
    if main < 45:
        return 1 if view["bank"]["gold"] else 0
    return 0


def _opening():
    game = sm.load_game("splendor")
    state = game.new_initial_state(seed=3)
    return state, json.loads(state.observation_json(0))


@pytest.mark.parametrize("line, allowed", [
    ("1 2 0 1", True),      # two colours while five are in the bank
    ("1 0", True),          # a pass while other moves exist
    ("1 3 0 0 1", False),   # a colour twice
    ("4 1", False),         # a card that is nowhere
    ("1 3 0 1 2 4", False),  # gives back a token when none is due
])
def test_refused_moves_say_whether_the_referee_allows_them(line: str, allowed: bool) -> None:
    state, view = _opening()
    with pytest.raises(MoveRefused) as err:
        to_our_actions(parse_move(line), state, view)
    assert err.value.referee_allows is allowed


@pytest.mark.parametrize("line, message", [
    ("", "no move printed"), ("take blue", "not an integer"), ("5 1", "action 5"),
    ("1 4 0 1 2 3", "number of colours 4"), ("2", "ends before its colour"), ("3 0", "card id 0"),
    ("1 3 0 1 2 5", "returned colour 5"),  # gold is never given back
])
def test_garbage_is_named(line: str, message: str) -> None:
    with pytest.raises(MoveFormatError, match=message):
        parse_move(line)


@pytest.mark.parametrize("change, message", [
    (lambda ls: ls[:5], "ends before line 6"),
    (lambda ls: ["1 1"] + ls[1:], "1 players: our engine plays 2 to 4"),
    (lambda ls: ls[:3] + ["30 1 2 3 99"] + ls[4:], "card 99 is not a level-1 id"),
    (lambda ls: ls[:6] + ["2 4 11"] + ls[7:], "11 is not a valid id"),
    (lambda ls: ls + ["0"], "unexpected text"),
])
def test_bad_input_names_the_line(change, message: str) -> None:
    state, view = _opening()
    lines = format_input(input_from_view(view, 1)).splitlines()
    with pytest.raises(ValueError, match=message):
        parse_input("\n".join(change(lines)))


# ---------------------------------------------------------------- our engine as a referee agent


def test_agent_answers_with_a_legal_line_and_kibitz() -> None:
    for k, (game, state, view) in enumerate(_positions(3, games=1, seed=9)):
        if k % 7:
            continue
        text = format_input(input_from_view(view, round_no=k + 1))
        line, kibitz = answer(text, iterations=60, seed=k)
        check_output(line)
        actions = to_our_actions(parse_move(line), state, view)
        assert state.is_legal(actions[0])
        assert kibitz[0].startswith("splendor-mcts: ") and "win " in kibitz[0] and "iterations" in kibitz[0]


def test_agent_gives_back_coloured_tokens_only_and_exactly_the_excess(monkeypatch, tmp_path) -> None:
    """Positions where the mover holds gold and 9 or 10 tokens: any take makes it give back.
    The search without a network takes there often enough to test it (the shipped network's
    seldom does: no give-back in 49 such positions)."""
    default_networks_off(monkeypatch, tmp_path / "networks")
    gave_back = 0
    for k, (game, state, view) in enumerate(_positions(2, games=6, seed=21)):
        me = view["players"][view["to_move"]]
        if sum(me["tokens"].values()) < 9 or not me["tokens"]["gold"]:
            continue
        line, kibitz = answer(format_input(input_from_view(view, round_no=1)), iterations=100, seed=k)
        check_output(line)  # no gold among the colours given back
        actions = to_our_actions(parse_move(line), state, view)  # refuses a wrong number given back
        gave_back += len(actions) > 1
        assert (len(actions) > 1) == any(x.startswith("gives back ") for x in kibitz)
    assert gave_back >= 2


def test_agent_command_reads_stdin_and_rejects_bad_input() -> None:
    state, view = _opening()
    text = format_input(input_from_view(view, 1))
    cmd = [sys.executable, "-m", "splendor_mcts.cli", "splendor-tools-agent", "--iterations", "50"]
    done = subprocess.run(cmd, input=text, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    check_output(done.stdout.strip(), tokens_after=3)
    assert any(line.startswith("kibitz splendor-mcts: ") for line in done.stderr.splitlines())
    bad = subprocess.run(cmd, input="2 1\n1\n", capture_output=True, text=True, timeout=120)
    assert bad.returncode == 3 and "not in the referee's format: the input ends before line 3 (bank)" in bad.stderr and "Traceback" not in bad.stderr


# ---------------------------------------------------------------- seating referee-format programs


def _install(tmp_path: Path, name: str) -> Path:
    """A copy of a test agent in its own folder, runnable by path (the referee runs a binary)."""
    folder = tmp_path / name.removesuffix(".py")
    folder.mkdir(exist_ok=True)
    target = folder / name
    body = (AGENTS / name).read_text().split("\n", 1)[1]
    target.write_text(f"#!{sys.executable}\n{body}")
    target.chmod(target.stat().st_mode | stat.S_IXUSR)
    if name == "scripted.py":
        cards = {ids.their_card(c["id"]): [[c["cost"][ids.THEIR_COLOURS[k]] for k in range(5)],
                                           ids.their_colour(ids.OUR_COLOURS.index(c["bonus"])), c["points"]]
                 for c in sm.load_game("splendor").cards()}
        (folder / "cards.json").write_text(json.dumps(cards))
    return target


def _engine(tmp_path: Path, iterations: int = 80) -> Path:
    script = tmp_path / "engine" / "engine.sh"
    script.parent.mkdir()
    script.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m splendor_mcts.cli splendor-tools-agent "
                      f"--iterations {iterations} --seed 1\n")
    script.chmod(0o755)
    return script


def _spec(program: Path, *args: str, **params) -> str:
    words = [f'cmd="{shlex.join([str(program), *args])}"'] + [f"{k}={v}" for k, v in params.items()]
    return "splendor-tools:" + ",".join(words)


# The game a referee-format program is seated in: the published rules with the referee's take rule.
REFEREE_GAME = "splendor(take_fewer_distinct=always)"


def _play(seats: tuple[str, ...], seed: int = 3, game: str = REFEREE_GAME):
    return play_game(GameTask(game_id=1, game_spec=game, seed=seed, seats=seats,
                              agent_seeds=tuple(range(len(seats))))).record


def _leftovers(mark: str, wait: float = 5.0) -> list[str]:
    """Live processes whose command line holds ``mark``, once those killed have had ``wait``
    seconds to go (SIGKILL is delivered asynchronously)."""
    deadline = time.monotonic() + wait
    while (found := _processes(mark)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


def _processes(mark: str) -> list[str]:
    """Processes with ``mark`` as one of their arguments (a program's path, the orphan's marker)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                args = Path(f"/proc/{entry}/cmdline").read_bytes().decode(errors="replace").split("\0")
            except OSError:
                continue
            if mark in args:
                found.append(" ".join(args))
    return found


def test_our_engine_plays_a_whole_game_against_a_scripted_agent_through_the_adapter(tmp_path: Path) -> None:
    """Both seats speak the referee's format: every input written and every line read is
    checked against the format description, and the game ends normally."""
    save = tmp_path / "moves"
    seats = (_spec(_engine(tmp_path), save=save, name="engine"),
             _spec(_install(tmp_path, "scripted.py"), save=save, name="scripted"))
    record = _play(seats)
    assert record.termination == "normal", record.forfeit
    state = replay(record)
    assert state.is_terminal() and max(state.returns()) == 1.0
    inputs = sorted(save.glob("*.in"))
    assert len(inputs) >= 20  # both seats, every round
    for path in inputs:
        text = path.read_text()
        check_input(text)
        inp = parse_input(text)
        line = path.with_suffix(".out").read_text().strip()
        check_output(line)
        assert inp.me == int(path.stem.rsplit("-", 1)[1])
        if inp.me == 1:  # our engine's kibitz reaches the referee
            assert "kibitz splendor-mcts: " in path.with_suffix(".err").read_text()
    rounds = {int(p.stem.split("-")[1]) for p in inputs}
    assert rounds == set(range(1, max(rounds) + 1))


def _tournament(tmp_path: Path, agents: tuple[str, ...]) -> list:
    """Play one deal (both seatings) between two agents; the records stored."""
    result = run_tournament(TournamentConfig(game="splendor", agents=agents, deals=1, seed=2,
                                             db=tmp_path / "t.sqlite", concurrency=1))
    assert len(result.games) == 2
    store = TournamentStore.open_existing(tmp_path / "t.sqlite")
    try:
        return list(store.records())
    finally:
        store.close()


def test_a_scripted_agent_plays_a_short_tournament(tmp_path: Path) -> None:
    records = _tournament(tmp_path, (_spec(_install(tmp_path, "scripted.py"), name="scripted"), "greedy"))
    assert [r.termination for r in records] == ["normal", "normal"]
    assert all(replay(r).is_terminal() for r in records)


def test_a_crashing_program_forfeits_in_a_tournament_and_the_database_keeps_why(tmp_path: Path) -> None:
    program = _install(tmp_path, "misbehave.py")
    records = _tournament(tmp_path, (_spec(program, "crash", "3", name="crasher"), "greedy"))
    for r in records:
        seat = r.seats.index(next(s for s in r.seats if s.endswith("name=crasher")))
        assert r.termination == "forfeit" and r.forfeit.seat == seat and r.result[seat] == 0.0
        assert r.forfeit.reason.startswith("crash: exit code 3 (last stderr: ")
        replay(r)  # the actions up to the forfeit replay
    assert not _leftovers(str(program))


MISBEHAVIOUR = [
    ("garbage", {}, "garbage: 'buy' is not an integer"),
    ("illegal", {}, "illegal move: '4 1': card 1 is neither on the table nor reserved by you"),
    ("crash", {}, "crash: exit code 3 (last stderr: kibitz misbehaving: crash | about to crash)"),
    ("hang", {"cpu": 1}, "time-out: the CPU-time limit was reached"),
    ("sleep", {"wall": 1.5}, "time-out: no answer within the wall-clock limit"),
    ("flood", {}, "crash: output flood"),
    ("fork", {"cpu": 1}, "time-out: the CPU-time limit was reached"),
    ("pass", {}, "not allowed under our rules: '1 0': pass only when no other move exists"),
]


@pytest.mark.parametrize("mode, limits, reason", MISBEHAVIOUR, ids=[m[0] for m in MISBEHAVIOUR])
def test_a_misbehaving_program_forfeits_and_leaves_no_process(tmp_path: Path, mode: str, limits: dict,
                                                              reason: str) -> None:
    program = _install(tmp_path, "misbehave.py")
    record = _play((_spec(program, mode, "2", **limits), "greedy"))
    assert record.termination == "forfeit" and record.forfeit.seat == 0
    assert record.forfeit.reason.startswith(reason), record.forfeit.reason
    assert record.result == (0.0, 1.0)
    assert sum(1 for a in replay(record).legal_actions()) > 0  # stopped at its own turn, in round 2
    assert not _leftovers(ORPHAN_MARK) and not _leftovers(str(program))


def test_a_move_printed_before_a_crash_is_played_as_the_referee_plays_it(tmp_path: Path) -> None:
    state, view = _opening()
    seat = SplendorToolsSeat(sm.load_game(REFEREE_GAME), cmd=f"{_install(tmp_path, 'misbehave.py')} late-crash")
    action = seat.step(state)
    assert state.action_to_string(action).startswith("take ") and state.is_legal(action)


def test_the_program_dies_with_the_process_that_seated_it(tmp_path: Path) -> None:
    """PR_SET_PDEATHSIG: a tournament worker killed mid-move takes its running program with it."""
    program = _install(tmp_path, "misbehave.py")
    script = ("import splendor_mcts as sm\n"
              "from splendor_mcts.splendor_tools.seat import SplendorToolsSeat\n"
              f"game = sm.load_game({REFEREE_GAME!r})\n"
              f"SplendorToolsSeat(game, cmd={str(program) + ' sleep'!r}).step(game.new_initial_state(seed=1))\n")
    worker = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 60
        while not _processes(str(program)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _processes(str(program)), "the program did not start"
    finally:
        worker.kill()
        worker.wait()
    assert not _leftovers(str(program))


def test_the_round_cut_ends_a_long_game_as_the_seats_forfeit(tmp_path: Path) -> None:
    program = _install(tmp_path, "misbehave.py")
    record = _play((_spec(program, "pass", "999", max_rounds=3), "greedy"))
    assert record.termination == "forfeit" and record.forfeit.reason.startswith("round cut: ")


def test_agent_specs_parse_round_trip_and_name_their_errors(tmp_path: Path) -> None:
    program = _install(tmp_path, "misbehave.py")
    spec = parse_agent_spec(_spec(program, "crash", "2", cpu=5, wall=9, name="bad-bot"))
    assert spec.kind == "splendor-tools" and spec.name == "bad-bot"
    assert parse_agent_spec(spec.full_spec) == spec
    assert dict(spec.params)["cmd"] == f"{program} crash 2" and dict(spec.params)["wall"] == 9.0
    for text, message in [
        ("splendor-tools:cpu=3", "needs cmd="),
        (f'splendor-tools:cmd="{program}",level=3', "unknown parameter 'level'"),
        (f'splendor-tools:cmd="{program}",cpu=0', "cpu must be between 1 and 3600"),
        (f'splendor-tools:cmd="{program}",cpu=2,cpu=3', "given twice"),
        ('splendor-tools:cmd="./no-such-bot"', "is not an executable file"),
        ('splendor-tools:cmd="no-such-bot-on-path"', "not found on PATH"),
        (f'splendor-tools:cmd="{program}",name=a b', "display name"),
    ]:
        with pytest.raises(ValueError, match=message):
            parse_agent_spec(text)


def test_the_seat_refuses_other_rules(tmp_path: Path) -> None:
    program = _install(tmp_path, "misbehave.py")
    for game in ("splendor(points_to_win=18,take_fewer_distinct=always)", "duel", "splendor"):
        with pytest.raises(ValueError, match=r"published rules and its own take rule \(take_fewer_distinct=always\)"):
            SplendorToolsSeat(sm.load_game(game), cmd=str(program))


def _main_actions(record, seat: int) -> list[str]:
    """The decisions of ``seat`` in a game record, as text, in order."""
    state = sm.load_game(record.game).new_initial_state(seed=record.seed, explicit_chance=True)
    texts = []
    for action in record.actions:
        if not state.is_chance_node() and state.current_player() == seat:
            texts.append(state.action_to_string(action))
        state.apply_action(action)
    return texts


def test_a_take_of_fewer_colours_the_referee_allows_is_played(tmp_path: Path) -> None:
    """Two colours while five are in the bank: legal under the referee's take rule, which the seat plays."""
    record = _play((_spec(_install(tmp_path, "misbehave.py"), "fewer", "2"), "greedy"))
    assert record.forfeit is None or not record.forfeit.reason.startswith("not allowed under our rules"), record.forfeit
    moves = _main_actions(record, 0)
    assert len(moves) >= 2 and len(moves[1]) == len("take WU"), moves  # its round-2 move: two colours


def test_a_tournament_seats_referee_programs_under_the_referees_take_rule(tmp_path: Path) -> None:
    """A program that takes one colour while five are in the bank is not forfeited: the game is
    played with take_fewer_distinct=always, and the report says so."""
    seat = _spec(_install(tmp_path, "scripted.py"), "--single-at", "1", name="single")
    result = run_tournament(TournamentConfig(game="splendor", agents=(seat, "greedy"), deals=1, seed=2,
                                             db=tmp_path / "t.sqlite", concurrency=1))
    assert "take_fewer_distinct=always" in result.game_spec and result.forfeits == []
    report = result.report()
    assert "Rules: take_fewer_distinct=always, the splendor-tools referee's take rule, which single plays under" \
        in report.splitlines()[1]
    assert result.to_dict()["rules"].startswith("take_fewer_distinct=always")
    store = TournamentStore.open_existing(tmp_path / "t.sqlite")
    try:
        records = list(store.records())
    finally:
        store.close()
    assert [r.termination for r in records] == ["normal", "normal"]
    for record in records:
        first = _main_actions(record, record.seats.index(next(s for s in record.seats if s.endswith("name=single"))))[0]
        assert first.startswith("take ") and len(first) == len("take W"), first


@pytest.mark.parametrize("game", ["splendor(take_fewer_distinct=true)", "splendor(players=2,take_fewer_distinct=false)"])
def test_a_tournament_refuses_a_game_spec_that_forbids_the_referees_take_rule(tmp_path: Path, game: str) -> None:
    seat = _spec(_install(tmp_path, "scripted.py"), name="bot")
    with pytest.raises(ValueError, match=r"agent 'bot' plays under the splendor-tools referee's take rule "
                                         r"\(take_fewer_distinct=always\), which the game .* forbids .*: give "
                                         r"take_fewer_distinct=always or leave take_fewer_distinct out of the game spec"):
        run_tournament(TournamentConfig(game=game, agents=(seat, "greedy"), deals=1, db=tmp_path / "t.sqlite"))
    assert not (tmp_path / "t.sqlite").exists()


def test_a_tournament_refuses_a_referee_program_in_another_game(tmp_path: Path) -> None:
    seat = _spec(_install(tmp_path, "scripted.py"), name="bot")
    for game in ("duel", "splendor(points_to_win=10)"):
        with pytest.raises(ValueError, match="agent 'bot': the splendor-tools referee plays the base game"):
            run_tournament(TournamentConfig(game=game, agents=(seat, "greedy"), deals=1, db=tmp_path / "t.sqlite"))
    assert not (tmp_path / "t.sqlite").exists()


def test_the_documented_input_is_the_example_view_in_the_referees_format() -> None:
    """examples/splendor-tools-input.txt (docs/splendor-tools.md) is examples/splendor-2p-view.json
    in round 9, written by the adapter: the two examples say the same."""
    from splendor_mcts.games.positions import read_position

    examples = Path(__file__).resolve().parents[1] / "examples"
    state = read_position((examples / "splendor-2p-view.json").read_text()).state
    view = json.loads(state.observation_json(state.current_player()))
    assert (examples / "splendor-tools-input.txt").read_text() == format_input(input_from_view(view, 9))
