"""Searches for the web board: run in a worker thread, reported while they run, stopped on demand.

:func:`search_events` runs :func:`~splendor_mcts.analysis.running.run_search` in a thread
and yields the partial analyses as the page shows them (:func:`hint_json`) about every
``every`` seconds, then the final one. Closing the generator (the page went away, or
asked to stop) stops the search at its next report. :class:`SearchSlots` caps the
searches each client runs at once.
"""
from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator
from typing import Any

from ..analysis.advice import advise
from ..analysis.hint import headline, win_words
from ..analysis.running import SearchLimits
from ..games.registry import entry_of_state
from ..pictures.board import turn_marks
from ..search.settings import make_params


class TooManySearches(Exception):
    """A client already runs as many searches as it may, or the board does."""


class SearchSlots:
    """At most ``per_client`` searches at once for each client (:func:`.guard.client_of`),
    and ``total`` on the board (a client is only a cookie: one that makes new ones may not
    run searches without end)."""

    def __init__(self, per_client: int, total: int) -> None:
        self.per_client = per_client
        self.most = total
        self.running: dict[str, int] = {}
        self.lock = threading.Lock()

    def acquire(self, client: str) -> None:
        with self.lock:
            if self.running.get(client, 0) >= self.per_client:
                raise TooManySearches(f"at most {self.per_client} searches at once per client; stop one first")
            if sum(self.running.values()) >= self.most:
                raise TooManySearches(f"the board runs at most {self.most} searches at once; try again soon")
            self.running[client] = self.running.get(client, 0) + 1

    def release(self, client: str) -> None:
        with self.lock:
            self.running[client] -= 1
            if not self.running[client]:
                del self.running[client]

    def total(self) -> int:
        with self.lock:
            return sum(self.running.values())


def continuing_searcher(state: Any, limits: SearchLimits) -> Any:
    """A searcher of ``state``'s game with ``limits`` that keeps its tree between searches."""
    entry = entry_of_state(state)
    return entry.searcher(make_params(entry.search_defaults, game=entry.name, players=state.num_players(),
                                      **limits.search_settings(), reuse_tree=True))


def pv_steps(state: Any, actions: list[int]) -> list[dict[str, Any]]:
    """A line played from ``state`` move by move: each move's seat, label and the card it
    buys or reserves (id, or None), so the page can draw the cards. Reveals on the way are
    the game's deal."""
    from ..pictures.board import card_of_move

    probe = state.clone()
    steps = []
    for action in actions:
        while probe.is_chance_node():
            probe.apply_action(probe.dealt_outcome())
        if probe.is_terminal() or not probe.is_legal(action):
            break
        steps.append({"seat": probe.current_player(), "text": probe.action_to_string(action),
                      "label": probe.action_label(action), "card": card_of_move(probe, action)})
        probe.apply_action(action)
    return steps


def hint_json(state: Any, analysis: Any, final: bool) -> dict[str, Any]:
    """A (partial) analysis as the page shows it: the whole turns best first, each with
    its win % and interval (or proven result in words), the principal variation after it
    with its cards, and the board elements the turn uses (``marks``). ``words`` is the
    headline (:func:`~splendor_mcts.analysis.hint.headline`), of ``bestWinRate``, the value
    of the first turn; ``winRate`` is the root's mean over every move searched. The final
    report also has each turn's ``threat``, the ``threats`` among the turns and the best
    turn's ``plan`` (docs/hints.md, "Threats", "The plan"); a partial one has none."""
    root = analysis.root
    turns = []
    for turn in analysis.turns or []:
        pv = list(turn.pv_actions)
        turns.append({
            "label": turn.label, "text": turn.text, "actions": list(turn.actions), "complete": turn.complete,
            "visits": turn.visits, "winRate": turn.win_rate, "lcb": turn.lcb, "ucb": turn.ucb,
            "proof": turn.proof, "words": win_words(turn),
            "pv": pv_steps(state, pv)[len(turn.actions):], "marks": sorted(turn_marks(state, list(turn.actions))),
        })
    player = root.player
    report = {"final": final, "iterations": root.iterations, "seconds": root.seconds, "toMove": player,
              "visits": root.visits, "reused": root.reused_visits, "winRate": root.win_rates[player],
              "bestWinRate": analysis.best_win_rate, "proof": analysis.proof, "words": headline(analysis),
              "turns": turns, "threats": [], "plan": None}
    if final:  # the threat check runs once, on the final turns (analysis/advice.py)
        advice = advise(state, analysis)
        report["turns"] = advice.add_to_turns(turns)
        report.update(advice.to_dict())
    return report


async def search_events(state: Any, searcher: Any, top_k: int | None, every: float,
                        stopped: threading.Event) -> AsyncIterator[dict[str, Any]]:
    """The reports of ``searcher`` searching ``state`` as they come (see the module's text);
    the last has ``final``. Setting ``stopped`` (or closing this generator) stops the search."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
    searched = state.clone()

    def progress(partial: Any) -> bool:
        if not stopped.is_set():
            report = hint_json(searched, partial, final=False)
            loop.call_soon_threadsafe(queue.put_nowait, ("progress", report))
        return stopped.is_set()

    def work() -> None:
        try:
            analysis = searcher.search(searched, progress, every, top_k, True)
            loop.call_soon_threadsafe(queue.put_nowait, ("final", hint_json(searched, analysis, final=True)))
        except Exception as exc:  # a bad setting or position: reported to the page
            loop.call_soon_threadsafe(queue.put_nowait, ("error", str(exc)))

    worker = threading.Thread(target=work, name="board-search", daemon=True)
    worker.start()
    try:
        while True:
            kind, payload = await queue.get()
            if kind == "error":
                yield {"final": True, "error": payload}
                return
            yield payload
            if kind == "final":
                return
    finally:
        stopped.set()
        await asyncio.to_thread(worker.join)


def sse(payload: dict[str, Any]) -> str:
    """One server-sent event carrying ``payload`` as JSON."""
    return f"data: {json.dumps(payload)}\n\n"
