"""The PettingZoo AEC environment (splendor_mcts.envs): PettingZoo's own API test, masks
and rewards against the engine, chance kept away from the agents, seeding, bad actions."""
from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the [pettingzoo] extra is not installed (pip install pettingzoo gymnasium)")

from pettingzoo.test import api_test, seed_test  # noqa: E402
from pettingzoo.utils.wrappers import TerminateIllegalWrapper  # noqa: E402

import splendor_mcts as sm  # noqa: E402
from splendor_mcts.envs import env, raw_env  # noqa: E402

SPLENDOR_SPECS = ["splendor(players=2)", "splendor(players=3)", "splendor(players=4)"]


def _has_duel() -> bool:
    try:
        sm.load_game("duel")
    except ValueError:
        return False
    return True


DUEL = pytest.param("duel", marks=pytest.mark.skipif(not _has_duel(), reason="Splendor Duel is not in this build yet"))
ALL_SPECS = [*SPLENDOR_SPECS, DUEL]


def _quiet_api_test(e: Any, num_cycles: int) -> None:
    # api_test warns that Dict observations are not plain arrays; that is the
    # PettingZoo convention for action masks, not a fault.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(e, num_cycles=num_cycles)


def _play(e: Any, seed: int, actions_seed: int) -> Iterator[tuple[str, dict[str, np.ndarray], float, bool]]:
    """Plays one random game (legal moves drawn from the mask) and yields, for every
    agent the environment selects, (agent, observation, reward, done) before it steps."""
    e.reset(seed=seed)
    rng = np.random.default_rng(actions_seed)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, _ = e.last()
        yield agent, obs, reward, termination or truncation
        if termination or truncation:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_pettingzoo_api_test_passes_through_whole_games(spec: str) -> None:
    e = env(spec)
    _quiet_api_test(e, num_cycles=150)  # several hundred steps: games reach their end
    assert e.num_agents == 0 or e.num_agents == sm.load_game(spec).num_players()


def test_pettingzoo_api_test_passes_with_sampled_chance() -> None:
    _quiet_api_test(env("splendor(players=3)", chance="sample"), num_cycles=150)


def test_pettingzoo_seed_test_passes() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        seed_test(lambda: env("splendor(players=3)"), num_cycles=100)


@pytest.mark.parametrize("spec,chance", [
    *[(s, "deal") for s in SPLENDOR_SPECS],
    ("splendor(players=3)", "sample"),
    pytest.param("duel", "deal", marks=DUEL.marks),
    pytest.param("duel", "sample", marks=DUEL.marks),
])
def test_random_game_masks_observations_and_rewards_match_the_engine(spec: str, chance: str) -> None:
    e = env(spec, chance=chance)
    base = e.unwrapped
    n = base.game.num_players()
    finished: list[str] = []
    repeats = 0
    previous = None
    for agent, obs, reward, done in _play(e, seed=11, actions_seed=5):
        state = base.game_state
        seat = int(agent.split("_")[1])
        assert np.array_equal(obs["observation"], state.observation_tensor(seat))
        assert base.observation_space(agent).contains(obs)
        if done:
            assert state.is_terminal()
            assert not obs["action_mask"].any()
            assert reward == state.returns()[seat]
            finished.append(agent)
            continue
        # Agents only ever see their own decisions: never a chance node.
        assert state.current_player() == seat
        assert obs["action_mask"].dtype == np.int8
        assert np.flatnonzero(obs["action_mask"]).tolist() == sorted(state.legal_actions())
        assert reward == 0.0
        for other in base.possible_agents:
            if other != agent:
                assert not base.observe(other)["action_mask"].any()
        repeats += agent == previous
        previous = agent
    assert sorted(finished) == sorted(base.possible_agents) and e.agents == []
    assert sum(state.returns()) == pytest.approx(1.0)
    assert repeats > 0, "no multi-step decision (returning tokens, choosing a noble) in a whole random game"


def test_rewards_are_the_returns_for_every_seat_and_only_at_the_end() -> None:
    e = env("splendor(players=4)")
    totals = dict.fromkeys(e.unwrapped.possible_agents, 0.0)
    for agent, _obs, reward, _done in _play(e, seed=3, actions_seed=3):
        totals[agent] += reward
        if not e.unwrapped.game_state.is_terminal():
            assert all(r == 0.0 for r in e.rewards.values())
    returns = e.unwrapped.game_state.returns()
    assert [totals[f"player_{s}"] for s in range(4)] == returns
    assert sorted(returns)[-1] > 0 and min(returns) == 0.0


def test_multi_step_decisions_keep_the_same_agent_selected() -> None:
    e = env("splendor(players=2)")
    seen = 0
    previous = None
    for agent, _obs, _reward, done in _play(e, seed=21, actions_seed=2):
        if done:
            break
        if json.loads(e.unwrapped.game_state.to_json())["phase"] == "return_tokens":
            # The agent who just took tokens above the limit gives them back.
            assert agent == previous
            seen += 1
        previous = agent
    assert seen > 0, "the game never asked to return tokens"


def test_same_seed_and_actions_give_the_same_game() -> None:
    def record(chance: str, seed: int) -> list[Any]:
        e = env("splendor(players=3)", chance=chance)
        out: list[Any] = []
        for agent, obs, reward, _done in _play(e, seed=seed, actions_seed=9):
            out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward))
        out.append(e.unwrapped.game_state.to_json())
        return out

    for chance in ("deal", "sample"):
        assert record(chance, 4) == record(chance, 4)
        assert record(chance, 4) != record(chance, 5)


def test_deal_mode_deals_the_game_of_new_initial_state() -> None:
    game = sm.load_game("splendor", players=3)
    e = env(game)
    e.reset(seed=123)
    assert e.unwrapped.game_state.to_json() == game.new_initial_state(seed=123).to_json()


def test_sampled_chance_draws_reveals_from_the_env_rng() -> None:
    deal = env("splendor(players=2)")
    sample = env("splendor(players=2)", chance="sample")
    tables = []
    for seed in range(4):
        deal.reset(seed=seed)
        sample.reset(seed=seed)
        assert sample.unwrapped.game_state.current_player() != sm.CHANCE
        tables.append((json.loads(deal.unwrapped.game_state.to_json())["table"],
                       json.loads(sample.unwrapped.game_state.to_json())["table"]))
    assert any(d != s for d, s in tables)


def test_unseeded_resets_continue_the_seeded_stream() -> None:
    a, b = env("splendor"), env("splendor")
    a.reset(seed=8)
    b.reset(seed=8)
    deals = []
    for _ in range(2):
        a.reset()
        b.reset()
        assert a.unwrapped.game_state.to_json() == b.unwrapped.game_state.to_json()
        deals.append(a.unwrapped.game_state.to_json())
    assert deals[0] != deals[1]


def _illegal_inputs(e: Any) -> list[tuple[Any, str]]:
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    n = e.unwrapped.game.num_distinct_actions()
    return [(illegal, f"illegal action {illegal}"), (-1, "out of range"), (n, "out of range"),
            (1.5, "not an integer"), ("3", "not an integer"), (True, "not an integer"),
            (None, "not None")]


def test_illegal_actions_raise_value_error_and_change_nothing() -> None:
    e = env("splendor(players=3)")
    e.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(7):  # some way into the game, so another seat may be to move
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    base = e.unwrapped
    agent = e.agent_selection
    before = (base.game_state.to_json(), agent, dict(base._cumulative_rewards), dict(e.rewards))
    for action, words in _illegal_inputs(e):
        with pytest.raises(ValueError, match=agent) as info:
            e.step(action)
        assert words in str(info.value)
        after = (base.game_state.to_json(), e.agent_selection, dict(base._cumulative_rewards), dict(e.rewards))
        assert after == before
    legal = int(np.flatnonzero(e.observe(agent)["action_mask"])[0])
    e.step(np.int64(legal))  # numpy integers are accepted
    assert base.game_state.to_json() != before[0]


def test_done_agents_step_only_with_none() -> None:
    e = env("splendor(players=2)")
    for _agent, _obs, _reward, done in _play(e, seed=1, actions_seed=1):
        if done:
            with pytest.raises(ValueError, match="None"):
                e.step(0)
            break
    else:
        pytest.fail("the game never ended")


def test_terminate_illegal_wrapper_can_replace_the_error() -> None:
    e = TerminateIllegalWrapper(raw_env("splendor(players=3)"), illegal_reward=-1)
    e.reset(seed=0)
    agent = e.agent_selection
    illegal = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1


def test_spaces_match_the_game() -> None:
    game = sm.load_game("splendor", players=4)
    e = env("splendor", players=4)
    assert e.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    for agent in e.possible_agents:
        space = e.observation_space(agent)
        assert space["observation"].shape == (game.observation_tensor_size(),)
        assert space["observation"].dtype == np.float32
        assert space["action_mask"].shape == (game.num_distinct_actions(),)
        assert space["action_mask"].dtype == np.int8
        assert e.action_space(agent).n == game.num_distinct_actions()
    with pytest.raises(ValueError, match="player_4"):
        e.action_space("player_4")


@pytest.mark.parametrize("kwargs,words", [
    ({"game": "splendor(players=5)"}, "players"),
    ({"game": "splendor", "chance": "dice"}, "chance"),
    ({"game": "splendor", "render_mode": "rgb_array"}, "render_mode"),
    ({"game": sm.load_game("splendor"), "players": 3}, "game name"),
    ({"game": "duel", "max_decision": 5}, r"raw_env: unknown keyword 'max_decision' \(its keywords: game, "
                                          r"render_mode, chance, max_decisions; duel's variant fields: "
                                          r"colour_points_to_win, crowns_to_win"),
])
def test_bad_construction_arguments_are_named(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        raw_env(**kwargs)


def test_render_shows_the_mover_the_last_moves_and_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    e = env("splendor(players=2)", render_mode="ansi")
    e.reset(seed=6)
    first = e.render()
    assert "player_0 to move" in first and "level 1" in first and "bank" in first
    move = int(np.flatnonzero(e.observe("player_0")["action_mask"])[0])
    text = e.unwrapped.game_state.action_to_string(move)
    e.step(move)
    assert f"player_0: {text}" in e.render()
    for _ in _play(e, seed=6, actions_seed=6):
        pass
    assert "game over; returns:" in e.render()

    human = env("splendor(players=2)", render_mode="human")
    human.reset(seed=6)
    assert human.render() is None
    assert "player_0 to move" in capsys.readouterr().out
    silent = env("splendor(players=2)")
    silent.reset(seed=6)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert silent.render() is None
    silent.close()


def test_duel_render_draws_the_duel_board() -> None:
    e = env("duel", render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert "royals" in text and "level 3" in text and "a  b  c  d  e" in text


def test_an_illegal_action_says_why() -> None:
    e = env("splendor")
    e.reset(seed=2)
    with pytest.raises(ValueError, match=r"illegal action 60 \(pass\) for player_0: pass only when no other move "
                                         r"exists \(take WUG is legal\); legal: \[0, 1,"):
        e.step(60)


def test_a_looping_game_is_truncated_at_max_decisions() -> None:
    # The lowest legal action loops for ever in Duel (replenish, take a token, discard it, ...).
    e = env("duel", max_decisions=40)
    e.reset(seed=1)
    decisions = 0
    for agent in e.agent_iter(max_iter=1000):
        observation, reward, termination, truncation, info = e.last()
        if termination or truncation:
            assert truncation and not termination and reward == 0.0 and info["max_decisions"] == 40
            assert not observation["action_mask"].any()
            e.step(None)
            continue
        e.step(int(np.flatnonzero(observation["action_mask"])[0]))
        decisions += 1
    assert decisions == 40 and e.agents == []
    with pytest.raises(ValueError, match="max_decisions must be a whole number of decisions from 1 to"):
        env("duel", max_decisions=0)
