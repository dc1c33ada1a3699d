"""Tournaments on the real engine with its built-in bots (random, greedy, a small MCTS)."""

from __future__ import annotations

from pathlib import Path

import pytest

import splendor_mcts as sm
from splendor_mcts.records import replay
from splendor_mcts.tournament import TournamentConfig, TournamentStore, run_tournament

pytestmark = pytest.mark.skipif(
    not all(hasattr(sm, n) for n in ("RandomBot", "GreedyBot", "MCTSBot")),
    reason="the engine's bots (sm.RandomBot, sm.GreedyBot, sm.MCTSBot) are not built into splendor_mcts yet",
)


def test_two_player_match_on_the_engine_records_every_game_exactly(tmp_path: Path) -> None:
    db = tmp_path / "e.sqlite"
    result = run_tournament(TournamentConfig(game="splendor", players=2, agents=("greedy", "random"), deals=3,
                                             seed=5, db=db, concurrency=2))
    assert len(result.games) == 6 and not result.forfeits
    store = TournamentStore.open_existing(db)
    records = list(store.records())
    store.close()
    by_deal: dict[int, list] = {}
    for r in records:
        by_deal.setdefault(r.meta["deal"], []).append(r)
        final = replay(r)
        assert final.is_terminal() and tuple(final.returns()) == r.result
        state = sm.load_game(r.game).new_initial_state(seed=r.seed, explicit_chance=True)
        decisions = 0
        for action in r.actions:
            decisions += state.current_player() != sm.CHANCE
            state.apply_action(action)
        assert len(r.move_times) == decisions  # one time per decision, none for chance
    game = sm.load_game(records[0].game)
    for a, b in by_deal.values():
        assert a.seats == b.seats[::-1] and a.seed == b.seed
        # The first chance outcomes (the opening deal) are the same cards for both seatings.
        sa, sb = game.new_initial_state(seed=a.seed, explicit_chance=True), game.new_initial_state(seed=b.seed, explicit_chance=True)
        for x, y in zip(a.actions, b.actions):
            if sa.current_player() != sm.CHANCE or sb.current_player() != sm.CHANCE:
                break
            assert x == y
            sa.apply_action(x)
            sb.apply_action(y)


def test_three_player_round_robin_on_the_engine(tmp_path: Path) -> None:
    agents = ("random", "greedy", "mcts:iterations=20", "random:name=random2")
    result = run_tournament(TournamentConfig(game="splendor", players=3, agents=agents, deals=1, seed=2,
                                             db=tmp_path / "p3.sqlite", concurrency=1))
    assert len(result.games) == 4 * 3 and result.table.kind == "plackett-luce"
    assert sorted(r.games for r in result.table.rows) == [9, 9, 9, 9]


def test_sprt_on_the_engine_accepts_greedy_over_random(tmp_path: Path) -> None:
    from splendor_mcts.tournament import SprtConfig

    result = run_tournament(TournamentConfig(game="splendor", players=2, agents=("greedy", "random"), deals=300,
                                             seed=3, db=tmp_path / "s.sqlite", concurrency=1,
                                             sprt=SprtConfig(elo0=0, elo1=100)))
    assert result.sprt is not None and result.sprt.verdict == "H1"
    assert len(result.games) < result.scheduled
