"""The Gymnasium single-agent environment (splendor_mcts.envs.SingleAgentEnv): Gymnasium's
own checker, opponents by spec and by callable, rewards at the end, seeding, bad input."""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the [pettingzoo] extra is not installed (pip install pettingzoo gymnasium)")

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

import splendor_mcts as sm  # noqa: E402
from splendor_mcts.envs import SingleAgentEnv  # noqa: E402
from splendor_mcts.envs.gymnasium_env import ENV_ID  # noqa: E402

SPECS = ["splendor", "splendor(players=3)", "splendor(players=4)", "duel"]


def _play(e: SingleAgentEnv, seed: int, pick_seed: int = 0) -> tuple[list[int], float, int]:
    """A whole episode with random legal moves: the learner's actions, the final reward, steps."""
    observation, info = e.reset(seed=seed)
    rng = np.random.default_rng(pick_seed)
    actions, reward, terminated = [], 0.0, False
    while not terminated:
        assert e.game_state.current_player() == e.seat
        mask = observation["action_mask"]
        np.testing.assert_array_equal(mask, e.game_state.legal_actions_mask().astype(np.int8))
        action = int(rng.choice(np.flatnonzero(mask)))
        actions.append(action)
        observation, reward, terminated, truncated, info = e.step(action)
        assert not truncated
        if not terminated:
            assert reward == 0.0
    assert e.game_state.is_terminal() and not observation["action_mask"].any()
    assert reward == e.game_state.returns()[e.seat]
    return actions, reward, len(actions)


@pytest.mark.parametrize("spec", ["splendor", "duel"])
def test_gymnasium_check_env_passes(spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker warns about anything it dislikes
        check_env(gymnasium.make(ENV_ID, game=spec, opponent="random", render_mode="ansi").unwrapped)
    assert "learner player_0" in capsys.readouterr().out  # the "human" render mode, checked too


@pytest.mark.parametrize("spec", SPECS)
def test_episodes_end_with_the_learners_result(spec: str) -> None:
    for seat in range(sm.load_game(spec).num_players()):
        e = SingleAgentEnv(spec, opponent="greedy", seat=seat)
        _play(e, seed=seat)
        assert e.observation_space.contains(e._observation())


def test_the_same_seed_gives_the_same_episode() -> None:
    e = SingleAgentEnv("splendor(players=3)", opponent="mcts:iterations=20", seat=1)
    first = _play(e, seed=11)
    assert _play(e, seed=11) == first
    assert _play(SingleAgentEnv("splendor(players=3)", opponent="mcts:iterations=20", seat=1), seed=11) == first


def test_a_drawn_seat_and_a_callable_opponent() -> None:
    seen: list[int] = []

    def first_legal(state: Any) -> int:
        seen.append(state.current_player())
        return state.legal_actions()[0]

    e = SingleAgentEnv("splendor(players=4)", opponent=first_legal, seat=None)
    seats = set()
    for seed in range(8):
        _play(e, seed=seed)
        seats.add(e.seat)
        assert e.seat not in seen
        seen.clear()
    assert len(seats) > 1


def test_an_illegal_action_ends_the_episode_or_raises() -> None:
    e = SingleAgentEnv("splendor", opponent="random")
    observation, _ = e.reset(seed=3)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    observation, reward, terminated, _, info = e.step(illegal)
    assert terminated and reward == -1.0 and info["illegal_action"] == illegal
    with pytest.raises(RuntimeError, match="episode is over"):
        e.step(0)
    strict = SingleAgentEnv("splendor", opponent="random", illegal_action="raise")
    observation, _ = strict.reset(seed=3)
    with pytest.raises(ValueError, match=f"illegal action {illegal} "):
        strict.step(illegal)
    with pytest.raises(ValueError, match="out of range"):
        strict.step(10**6)
    with pytest.raises(ValueError, match="not an integer action id"):
        strict.step("take")
    strict.step(int(np.flatnonzero(observation["action_mask"])[0]))  # nothing changed: still playable


@pytest.mark.parametrize("kwargs, message", [
    (dict(opponent="nobody"), "unknown agent 'nobody'"),
    (dict(opponent=3), "opponent must be"),
    (dict(seat=2), "seat must be None or a seat 0..1"),
    (dict(illegal_action="ignore"), "illegal_action must be"),
    (dict(illegal_reward=float("nan")), "illegal_reward"),
    (dict(render_mode="rgb_array"), "render_mode"),
    (dict(opponents="greedy"), r"SingleAgentEnv: unknown keyword 'opponents' \(its keywords: game, opponent, seat, "
                               r"render_mode, illegal_action, illegal_reward, max_decisions; splendor's variant "
                               r"fields: gem_tokens"),
    (dict(points_to_win=18, nobels=3), "unknown keyword 'nobels'"),
])
def test_bad_arguments_are_named(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SingleAgentEnv("splendor", **kwargs)


def test_render_shows_the_learners_view() -> None:
    e = SingleAgentEnv("duel", opponent="random", render_mode="ansi", seat=1)
    e.reset(seed=2)
    text = e.render()
    assert text is not None and text.startswith(f"{e.game.spec}: learner player_1\n")


def test_a_looping_game_is_truncated_at_max_decisions() -> None:
    # The lowest legal action loops for ever in Duel (replenish, take a token, discard it, ...).
    e = SingleAgentEnv("duel", opponent=lambda state: min(state.legal_actions()), max_decisions=60)
    observation, info = e.reset(seed=1)
    steps, terminated, truncated = 0, False, False
    while not (terminated or truncated):
        observation, reward, terminated, truncated, info = e.step(int(np.flatnonzero(observation["action_mask"])[0]))
        steps += 1
    assert truncated and not terminated and reward == 0.0 and info["max_decisions"] == 60
    assert 0 < steps < 60 and not observation["action_mask"].any()  # the opponent made the other decisions
    assert not e.game_state.is_terminal()
    with pytest.raises(RuntimeError, match="the episode is over"):
        e.step(0)


@pytest.mark.parametrize("value", [0, 2.5, True])
def test_a_bad_max_decisions_is_refused(value: Any) -> None:
    with pytest.raises(ValueError, match="max_decisions must be a whole number of decisions from 1 to"):
        SingleAgentEnv("duel", max_decisions=value)
