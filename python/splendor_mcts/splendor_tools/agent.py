"""Our engine as an agent of the splendor-tools referee: ``splendor-mcts splendor-tools-agent``
(commands/splendor_tools_agent.py).

The referee starts its agent afresh for every move: the command reads that move's input on
stdin, builds the position the seat sees (others' blind reserves stay unknown and are sampled
by the search), searches it, and prints the move line, with the colours of the tokens to give
back when the move leaves more than 10. ``kibitz`` lines on stderr (kept by the referee in its
game record) give the move, its win rate and the search's size.

Budget: ``--time`` seconds of search per move (default 5: the referee allows about 11 s of CPU
time, and the search is single-threaded so CPU time is at most wall time), 80% for the main
action and a third of the rest for each token given back (at most three); or ``--iterations``
per main action (a fifth of it per return), deterministic for a ``--seed``.
"""
from __future__ import annotations

import json
from typing import Any, TextIO

from ..games.game import load_game
from ..search.settings import make_params
from ..wording import counted
from .board import parse_input, view_from_input
from .moves import A_RETURN, from_our_actions

DEFAULT_SECONDS = 5.0
MAIN_SHARE = 0.8
RETURN_SHARE = (1 - MAIN_SHARE) / 3  # at most three tokens are ever given back
RETURN_ITERATIONS_DIVISOR = 5


class InputError(ValueError):
    """The referee's input cannot be read, or is not a consistent position."""


def kibitz(lines: list[str], out: TextIO) -> None:
    """The kibitz lines of :func:`answer` as the referee reads them (``kibitz ...``)."""
    for line in lines:
        print(f"kibitz {line}", file=out)
    out.flush()


def answer(text: str, seconds: float | None = None, iterations: int | None = None,
           seed: int = 0) -> tuple[str, list[str]]:
    """The move line for one referee input, and the kibitz lines (without their prefix)."""
    try:
        inp = parse_input(text)
    except ValueError as exc:
        raise InputError(f"the input is not in the referee's format: {exc}") from None
    game = load_game("splendor", players=inp.num_players)
    view = view_from_input(inp)
    try:
        state = game.state_from_observation(json.dumps(view), seed=seed)
    except ValueError as exc:
        raise InputError(f"the input is not a consistent position: {exc}") from None
    if state.is_terminal():
        raise InputError("the input's game is over (someone has won): there is no move to make")
    if seconds is None and iterations is None:
        seconds = DEFAULT_SECONDS

    def search(share: float, divisor: int) -> Any:
        params = make_params(game.entry.search_defaults, game=game.entry.name, players=game.num_players(), threads=1,
                             seed=seed, reuse_tree=False,
                             time_limit=None if seconds is None else seconds * share,
                             iterations=None if iterations is None else max(1, iterations // divisor))
        return game.entry.searcher(params).search(state, top_k=None)

    seat = state.current_player()
    analysis = search(MAIN_SHARE, 1)
    main = int(analysis.best_action)
    kibitz = [_describe(analysis, state.action_to_string(main))]
    state.apply_action(main)
    returns = []
    while not state.is_terminal() and state.current_player() == seat and \
            all(A_RETURN <= a < A_RETURN + 6 for a in state.legal_actions()):
        # The referee takes back coloured tokens only: the most searched coloured return.
        ranked = [m.action for m in search(RETURN_SHARE, RETURN_ITERATIONS_DIVISOR).moves]
        ranked += state.legal_actions()  # moves a tiny search never tried come last
        back = next(a for a in ranked if A_RETURN <= a < A_RETURN + 5)
        returns.append(int(back))
        state.apply_action(back)
    if returns:
        kibitz.append("gives back " + ", ".join(
            state.action_to_string(a).removeprefix("return ") for a in returns))
    return from_our_actions(main, returns, view).text(), kibitz


def _describe(analysis: Any, text: str) -> str:
    best = next(m for m in analysis.moves if m.action == analysis.best_action)
    root = analysis.root
    return (f"splendor-mcts: {text}, win {100 * best.win_rate:.1f}% ({best.visits} visits), "
            f"{counted(root.iterations, 'iteration')} in {root.seconds:.2f} s")
