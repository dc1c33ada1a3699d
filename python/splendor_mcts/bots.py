"""Bots with one method, ``step(state) -> action``: MCTS, random and greedy.

Every bot plays whichever seat is to move in the state it is given and only uses what
that seat can see (the C++ side resamples hidden cards before looking ahead).
"""
from __future__ import annotations

from typing import Any

from .games.game import Game
from .search.analyze import Analysis
from .search.defaults import BOT_ITERATIONS
from .search.settings import make_params
from .seeds import check_seed


class Bot:
    """Base class: checks the game and the state, counts steps for seeding."""

    name = "bot"

    def __init__(self, game: Game, seed: int = 0) -> None:
        if not isinstance(game, Game):
            raise ValueError(f"game must be a Game (from sm.load_game), got {type(game).__name__}")
        self.game = game
        self.seed = check_seed(seed)
        self._steps = 0
        self._probe = game.new_initial_state(seed=0)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.game.spec!r}, seed={self.seed})"

    def _check(self, state: Any) -> None:
        if type(state) is not type(self._probe) or state.num_players() != self._probe.num_players():
            raise ValueError(f"state is not a position of {self.game.spec}")
        if state.is_terminal():
            raise ValueError("state is terminal: the game is over, there is no move to choose")
        if state.is_chance_node():
            raise ValueError("state is a chance node: apply a chance outcome, bots choose players' moves only")

    def step(self, state: Any) -> int:
        raise NotImplementedError


class RandomBot(Bot):
    """A uniformly random legal move (C++)."""

    name = "random"

    def step(self, state: Any) -> int:
        self._check(state)
        self._steps += 1
        return int(self.game.entry.engine.random_agent_action(state, self.seed, self._steps))


class GreedyBot(Bot):
    """One ply of look-ahead: the move after which the heuristic evaluation of the
    mover's position is best (C++; hidden cards resampled from the mover's view)."""

    name = "greedy"

    def step(self, state: Any) -> int:
        self._check(state)
        self._steps += 1
        return int(self.game.entry.engine.greedy_agent_action(state, self.seed, self._steps))


class MCTSBot(Bot):
    """Information-set MCTS with the settings of docs/search.md ("Settings"; see ``sm.analyze``).

    ``iterations`` per move (``search.defaults.BOT_ITERATIONS`` when neither it nor
    ``time_limit`` is given) or a ``time_limit`` in seconds per move, or both. With
    ``reuse_tree`` (the default) the bot keeps the subtree of the position reached when
    the moves played since its last step are in its tree (checked by replaying them;
    otherwise it starts fresh). With one thread and an iteration budget its moves are
    deterministic for a seed. The solver's root probe is off, as for play
    (``search.defaults.PROBE_FOR_ADVICE``; ``probe=True`` turns it on). ``last_analysis``
    holds the statistics of the last step (its move texts are made only if read).
    ``network`` is a ``.smnet`` file, ``"shipped"`` or ``"none"``; without it, the game
    family's shipped network where its entry in the networks index (``search.network_index``)
    turns it on.
    """

    name = "mcts"

    def __init__(
        self,
        game: Game,
        iterations: int | None = None,
        time_limit: float | None = None,
        threads: int | None = None,
        seed: int = 0,
        exploration: float | None = None,
        evaluator: str | None = None,
        rollout_cutoff: int | None = None,
        perfect_information: bool | None = None,
        memory_limit: int | None = None,
        reuse_tree: bool | None = None,
        parallelism: str | None = None,
        rollout: str | None = None,
        solver: bool | None = None,
        probe: bool | None = None,
        analysis_moves: int | None = None,
        network: str | None = None,
        value_mix: float | None = None,
        puct: float | None = None,
        policy_cache: bool | None = None,
    ) -> None:
        super().__init__(game, seed)
        if iterations is None and time_limit is None:
            iterations = BOT_ITERATIONS
        self.params = make_params(
            game.entry.search_defaults, game=game.entry.name, players=game.num_players(), iterations=iterations, time_limit=time_limit, threads=threads, seed=seed,
            exploration=exploration, evaluator=evaluator, rollout=rollout, rollout_cutoff=rollout_cutoff,
            perfect_information=perfect_information, memory_limit=memory_limit, reuse_tree=reuse_tree,
            parallelism=parallelism, solver=solver, probe=probe, analysis_moves=analysis_moves, network=network,
            value_mix=value_mix, puct=puct, policy_cache=policy_cache)
        self._searcher = game.entry.searcher(self.params)
        self.last_analysis: Analysis | None = None

    def __repr__(self) -> str:
        budget = f"iterations={self.params.iterations}" if self.params.iterations else f"time_limit={self.params.time_limit}"
        return f"MCTSBot({self.game.spec!r}, {budget}, threads={self.params.threads}, seed={self.seed})"

    def reset(self) -> None:
        """Forget the search tree (e.g. before a new game)."""
        self._searcher.reset()

    def step(self, state: Any) -> int:
        self._check(state)
        self._steps += 1
        self.last_analysis = self._searcher.search(state)
        return int(self.last_analysis.best_action)


__all__ = ["Bot", "GreedyBot", "MCTSBot", "RandomBot"]
