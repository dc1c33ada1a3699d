"""Agent specs and schedules: parsing, clear errors, seat rotation, stable seeds."""

from __future__ import annotations

import itertools
import sys
from collections import Counter

import pytest

import splendor_mcts as sm
from splendor_mcts.tournament.agents import build_agent, parse_agent_spec
from splendor_mcts.tournament.schedule import deal_seed, deals_for_games, make_pairings, make_schedule


def test_builtin_specs_parse_and_print_back() -> None:
    s = parse_agent_spec("mcts:iterations=2000,threads=1")
    assert (s.kind, dict(s.params), s.name) == ("mcts", {"iterations": 2000, "threads": 1}, "mcts:iterations=2000,threads=1")
    t = parse_agent_spec("mcts:time=0.5,name=fast")
    assert t.params == (("time", 0.5),) and t.name == "fast" and t.spec == "mcts:time=0.5"
    assert parse_agent_spec(t.full_spec) == t
    assert parse_agent_spec("greedy").spec == "greedy"
    assert parse_agent_spec("random:name=r2").full_spec == "random:name=r2"


def test_python_agent_spec_is_checked_against_the_class() -> None:
    s = parse_agent_spec("tournament_fakes:ThresholdAgent:threshold=6,name=t6")
    assert (s.kind, s.target, s.params, s.name) == ("python", "tournament_fakes:ThresholdAgent", (("threshold", 6),), "t6")
    assert parse_agent_spec(s.full_spec) == s


@pytest.mark.parametrize("spec, message", [
    ("alphabeta", "unknown agent 'alphabeta'"),
    ("mcts:iterations=0", "parameter 'iterations': iterations or time_limit must be given"),
    ("mcts:iterations=abc", "parameter 'iterations': iterations must be an integer"),
    ("mcts:time=-1", "parameter 'time': time_limit must be between 0 and 1000000 seconds, got -1"),
    ("mcts:depth=3", "unknown parameter 'depth' for mcts"),
    ("mcts:exploration=-0.5", "parameter 'exploration': exploration must be a finite number >= 0"),
    ("mcts:rollout=clever", "parameter 'evaluator': evaluator \\(rollout\\) must be one of random"),
    ("mcts:evaluator=random,rollout=heuristic", "evaluator is given twice \\(as evaluator and as rollout\\)"),
    ("mcts:rollout_cutoff=-1", "parameter 'rollout_cutoff': rollout_cutoff must be >= 0"),
    ("mcts:parallelism=leaf", "parameter 'parallelism': parallelism must be 'root' or 'tree'"),
    ("mcts:memory_limit=1000", "parameter 'memory_limit': memory_limit must be at least 1 MiB"),
    ("mcts:reuse_tree=yes", "parameter 'reuse_tree': reuse_tree must be true or false"),
    ("mcts:perfect_information=2", "parameter 'perfect_information': perfect_information must be true or false"),
    ("mcts:solver=off", "parameter 'solver': solver must be true or false"),
    ("mcts:policy_cache=yes", "parameter 'policy_cache': policy_cache must be true or false"),
    ("mcts:threads=300", "parameter 'threads': threads must be between 1 and 256"),
    ("mcts:seed=3", "unknown parameter 'seed' for mcts"),
    ("mcts:iterations", "expected key=value"),
    ("mcts:threads=1,threads=2", "given twice"),
    ("greedy:iterations=5", "unknown parameter 'iterations' for greedy"),
    ("random:name=a b", "display name"),
    ("no_such_module_xyz:Bot", "cannot import module 'no_such_module_xyz'"),
    ("tournament_fakes:NoSuchBot", "has no class 'NoSuchBot'"),
    ("tournament_fakes:ThresholdAgent:depth=2", "cannot be built"),
    ("tournament_fakes:load_fake_game", "no step"),
    ("", "non-empty"),
])
def test_bad_specs_are_named(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_agent_spec(spec)


@pytest.mark.parametrize("agents, players", [(2, 2), (3, 2), (4, 3), (5, 4)])
def test_every_agent_plays_every_seat_of_every_deal(agents: int, players: int) -> None:
    games = make_schedule(agents, players, "round-robin", deals=3, tournament_seed=9)
    pairings = make_pairings(agents, players, "round-robin")
    assert len(pairings) == len(list(itertools.combinations(range(agents), players)))
    assert len(games) == 3 * len(pairings) * players
    by_deal: dict[tuple[int, int], list] = {}
    for g in games:
        by_deal.setdefault((g.deal, g.pairing), []).append(g)
        assert g.seed == deal_seed(9, g.deal)  # the same cards for every rotation and pairing
        assert sorted(g.seats) == sorted(pairings[g.pairing])
    for (deal, pairing), rotations in by_deal.items():
        assert len(rotations) == players
        for agent in pairings[pairing]:
            assert sorted(r.seats.index(agent) for r in rotations) == list(range(players))
    assert sorted(g.game_id for g in games) == list(range(len(games)))


def test_gauntlet_and_stable_ids_when_extending() -> None:
    pairings = make_pairings(4, 2, "gauntlet")
    assert pairings == [(0, 1), (0, 2), (0, 3)]
    assert all(0 in p for p in make_pairings(5, 3, "gauntlet"))
    short = make_schedule(4, 2, "gauntlet", 2, 5)
    long = make_schedule(4, 2, "gauntlet", 5, 5)
    assert long[: len(short)] == short
    assert Counter(g.seats[0] for g in long)[0] == 15  # challenger takes seat 1 in half its games


@pytest.mark.parametrize("args, message", [
    ((1, 2, "round-robin"), "at least 2 agents"),
    ((3, 4, "round-robin"), "4-player game needs at least 4 agents"),
    ((3, 1, "round-robin"), "at least 2 players"),
    ((3, 2, "swiss"), "unknown tournament mode"),
])
def test_impossible_pairings_are_refused(args: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_pairings(*args)


def test_games_must_be_whole_deals() -> None:
    assert deals_for_games(10, 2) == 5
    with pytest.raises(ValueError, match="use --games 6"):
        deals_for_games(5, 3)
    with pytest.raises(ValueError, match="--deals must be a whole number from 1 to 1000000, got 0"):
        make_schedule(2, 2, "round-robin", 0, 0)
    # issue 49: a schedule of 10**400 deals was built, game by game, before the first game
    with pytest.raises(ValueError, match="--games must be a whole number from 1 to 2000000, got 1000"):
        deals_for_games(10**400, 2)
    with pytest.raises(ValueError, match="--deals must be a whole number from 1 to 1000000, got 1000"):
        make_schedule(2, 2, "round-robin", 10**400, 0)


def test_an_mcts_spec_sets_every_search_setting() -> None:
    spec = parse_agent_spec("mcts:iterations=50,time=2,threads=2,parallelism=tree,exploration=0.6,rollout=random,"
                            "rollout_cutoff=5,perfect_information=true,memory_limit=2000000,reuse_tree=false")
    bot = build_agent(spec, sm.load_game("splendor"), seed=7)
    p = bot.params
    assert (p.iterations, p.time_limit, p.threads, p.parallelism, p.exploration, p.evaluator, p.rollout_cutoff,
            p.perfect_information, p.memory_limit, p.reuse_tree, p.seed) == (
        50, 2.0, 2, "tree", 0.6, "random", 5, True, 2_000_000, False, 7)
    default = build_agent(parse_agent_spec("mcts"), sm.load_game("duel"), seed=1).params
    assert default.iterations == 2000 and default.evaluator == "heuristic" and default.rollout_cutoff == 30
    assert default.solver is True
    assert build_agent(parse_agent_spec("mcts:time=0.02,solver=false"), sm.load_game("duel"), seed=1).params.solver is False


HUGE = "1" + "0" * 400  # issue 49: a number no float holds


@pytest.mark.parametrize("params, message", [
    (f"movetime={HUGE}", "movetime must be a number of seconds greater than 0 and at most 1000000, got 1000"),
    (f"timeout={HUGE}", "timeout must be a number of seconds greater than 0"),
    (f"margin={HUGE}", "margin must be a number of seconds"), (f"grace={HUGE}", "grace must be a number of seconds"),
    ("movetime=nan", "movetime must be a number of seconds"), ("timeout=inf", "timeout must be a number of seconds"),
    (f"iterations={HUGE}", "iterations must be a whole number from 1 to 4611686018427387904"),
    (f"tc={HUGE}+1", "tc must be BASE\\+INC in seconds \\(e.g. 60\\+0.5\\): the base must be a number of seconds"),
    (f"tc=60+{HUGE}", "the increment must be a number of seconds from 0 to 1000000"),
], ids=lambda x: x[:24])
def test_engine_spec_numbers_out_of_range_are_named(params: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_agent_spec(f'engine:cmd="{sys.executable}",{params}')


@pytest.mark.parametrize("key", ["time", "exploration", "puct", "value_mix"])
def test_mcts_spec_numbers_no_float_holds_are_named(key: str) -> None:
    with pytest.raises(ValueError, match=f"parameter '{key}': .* is out of range, got 1000"):
        parse_agent_spec(f"mcts:{key}={HUGE}")
