"""Every turn of a game analyzed, each player's mistakes: ``splendor-mcts review RECORD``
(commands/review.py).

A turn is a seat's decisions until another seat decides (a take and its returns, Duel's
privileges, action and returns; analysis/turns.py). At the start of each turn in the
record (chance outcomes are skipped) the position is searched from the view of the
player to move, with whole turns. The turn played is judged once, whole: its loss is the
win-rate drop against the best whole turn found, ``best.win_rate - played.win_rate``
from the same search, the played turn being the search's turn that reaches the same
position (whatever the order of its privileges, returns or picks). When the search did
not find the played turn, or gave it too few visits for its win rate to mean much, its
value is taken from the search of the next turn instead (that search's win rate for the
same player). Drops of at least ``--threshold`` are reported, and so is a blunder: a turn
after which the next seat wins in its next turn (docs/hints.md, "Threats") where the best
turn found leaves it no such win, whatever its drop; the threat is named.
"""
from __future__ import annotations

import sys
from dataclasses import asdict, dataclass
from typing import Any

from ..console import note_reading_stdin
from ..games.game import load_game
from ..json_input import JsonInputError, read_json
from ..records import GameRecord, result_problem
from ..wording import counted, seat_name, turn_name
from .running import SearchLimits, decision_problem, run_search
from .numbering import BadStep, Step, walk
from .threats import NONE, WINS, threat_after
from .turns import SEPARATOR, turn_at, turn_label

DEFAULT_THRESHOLD = 0.05
PLAIN_PROGRESS_EVERY = 5.0  # seconds between progress lines when standard error is not a terminal
# A played turn with fewer visits than this (or this share of the best turn's) is valued
# by the search of the next turn instead of its own few visits.
MIN_VISITS = 100
MIN_VISITS_SHARE = 0.05


@dataclass(frozen=True)
class Decision:
    """One reviewed turn: a player's decisions until another seat decides, judged whole.
    ``turn_number`` counts turns as players do, from 0 like the analysis protocol's
    ``turnNumber`` (card reveals start none; people read it from 1,
    :func:`~splendor_mcts.wording.turn_name`); ``action_number`` is the index in the
    record of the turn's first action; ``played_turn`` the turn played and ``best_turn``
    the best whole turn found (as people read them, with the cards), ``played_actions``
    and ``best_actions`` their decisions; ``drop`` the win rate the turn played loses
    against the best one (0 when it is the best one, in any order of its moves);
    ``threat`` the threat the turn played allows (:meth:`Threat.to_dict
    <splendor_mcts.analysis.threats.Threat.to_dict>`, the next seat's win in its next turn),
    None if it allows none; ``blunder`` whether it allows one that the best turn does not."""

    turn_number: int
    action_number: int
    seat: int
    played_turn: str
    played_actions: list[int]
    best_turn: str
    best_actions: list[int]
    best_win_rate: float
    played_win_rate: float
    drop: float
    position_win_rate: float
    win_rates: list[float]  # every seat's win rate at the turn's start (by seat index)
    threat: dict[str, Any] | None = None
    blunder: bool = False


@dataclass(frozen=True)
class Review:
    """All reviewed turns (``decisions``, one per turn) and the mistakes per seat (drops
    of at least ``threshold``)."""

    game: str
    seats: list[str]
    decisions: list[Decision]
    threshold: float

    def mistakes(self, seat: int | None = None) -> list[Decision]:
        """The turns whose drop reaches the threshold, and the blunders (of ``seat``, or all)."""
        return [d for d in self.decisions
                if (d.drop >= self.threshold or d.blunder) and (seat is None or d.seat == seat)]

    def to_dict(self) -> dict[str, Any]:
        players = []
        for seat, name in enumerate(self.seats):
            own = [d for d in self.decisions if d.seat == seat]
            mistakes = self.mistakes(seat)
            players.append({
                "seat": seat, "name": name, "decisions": len(own), "mistakes": len(mistakes),
                "averageDrop": sum(d.drop for d in own) / len(own) if own else 0.0,
                "worst": [asdict(d) for d in sorted(mistakes, key=lambda d: -d.drop)],
            })
        return {"game": self.game, "threshold": self.threshold, "players": players,
                "decisions": [asdict(d) for d in self.decisions]}


def review_record(record: Any, limits: SearchLimits, threshold: float = DEFAULT_THRESHOLD,
                  turns: list[int] | None = None, on_turn: Any = None) -> Review:
    """Analyze each turn of ``record`` (a :class:`~splendor_mcts.records.GameRecord`).

    ``turns`` limits the review to the turns starting at those action indexes.
    ``on_turn(index, total)`` is called before each analysis (progress). Raises
    ``ValueError`` for a record that does not replay, or whose stated termination or
    result contradicts its replay.
    """
    game = load_game(record.game)
    state = game.new_initial_state(seed=record.seed, explicit_chance=record.explicit_chance)
    starts: list[tuple[int, Any]] = []  # (action index, state) of each turn's first decision
    turn_numbers: dict[int, int] = {}  # action index -> turn number, numbered as the protocol does
    steps = [Step(action, f"record.actions[{index}]") for index, action in enumerate(record.actions)]
    for point in walk(state, steps, game.num_distinct_actions()):
        if isinstance(point, BadStep):
            raise ValueError(point.message)
        turn_numbers[point.action_number] = point.turn_number
        if point.turn_start and point.action_number < len(record.actions) and decision_problem(point.state) is None:
            starts.append((point.action_number, point.state.clone()))
    final = state
    problem = result_problem(record, final)
    if problem is not None:  # a review would pin mistakes on a game that did not end this way
        raise ValueError(f"the record's stated result contradicts its replay: {problem}")
    wanted = [s for s in starts if turns is None or s[0] in turns]
    if decision_problem(final) is None:  # an unfinished record: its last position values the last turn
        starts.append((len(record.actions), final))
    analyses: dict[int, Any] = {}

    def analysis_at(index: int, st: Any) -> Any:
        if index not in analyses:
            analyses[index] = run_search(st, limits.replace(top_k=None), turns=True)
        return analyses[index]

    next_start = {starts[i][0]: starts[i + 1] if i + 1 < len(starts) else None for i in range(len(starts))}
    decisions = []
    for n, (index, st) in enumerate(wanted):
        if on_turn:
            on_turn(n, len(wanted))
        seat = st.current_player()
        analysis = analysis_at(index, st)
        whole = turn_at(st, record.actions[index:])  # with the record's reveals, as they happened
        played = decisions_of(st, whole)
        best = analysis.turns[0]
        found = next((t for t in analysis.turns if same_position(st, list(t.actions), played)), None)
        is_best = found is not None and same_position(st, list(best.actions), played)
        if is_best or (found is not None and found.visits >= max(MIN_VISITS, MIN_VISITS_SHARE * best.visits)):
            played_value = found.win_rate
        else:
            played_value = value_after(next_start[index], final, seat, analysis_at)
        threat, blunder = allowed_threat(st, played, best)
        decisions.append(Decision(
            turn_number=turn_numbers[index], action_number=index, seat=seat,
            played_turn=turn_label(st, whole), played_actions=played,
            best_turn=best.label + ("" if best.complete else f"{SEPARATOR}..."), best_actions=list(best.actions),
            best_win_rate=best.win_rate, played_win_rate=played_value,
            drop=0.0 if is_best else max(0.0, best.win_rate - played_value),
            position_win_rate=analysis.root.win_rates[seat], win_rates=[float(w) for w in analysis.root.win_rates],
            threat=threat, blunder=blunder))
    return Review(game=record.game, seats=list(record.seats), decisions=decisions, threshold=threshold)


def allowed_threat(state: Any, played: list[int], best: Any) -> tuple[dict[str, Any] | None, bool]:
    """The threat the turn ``played`` (its decisions) allows from ``state``, as JSON (None if
    none), and whether it is a blunder: the best turn found (``best``, a TurnInfo) allows
    no win to the next seat."""
    if not played:
        return None, False
    threat = threat_after(state, played)
    if threat.status != WINS:
        return None, False
    blunder = best.complete and threat_after(state, list(best.actions)).status == NONE
    return threat.to_dict(), blunder


def decisions_of(state: Any, actions: list[int]) -> list[int]:
    """The decisions among a turn's ``actions`` played from ``state`` (a record's card
    reveals and bag draws left out, as a search's turns have none)."""
    probe = state.clone()
    out = []
    for action in actions:
        if not probe.is_chance_node():
            out.append(action)
        probe.apply_action(action)
    return out


def same_position(state: Any, turn: list[int], played: list[int]) -> bool:
    """Whether the decisions ``turn`` reach the position ``played`` reaches from ``state``
    (the same turn, its privileges, returns or picks perhaps in another order). Both are
    played without explicit chance, so the same deal reveals the same cards to both."""
    reached = []
    for line in (turn, played):
        probe = state.clone()
        probe.set_explicit_chance(False)
        for action in line:
            if probe.is_terminal() or not probe.is_legal(action):
                return False
            probe.apply_action(action)
        reached.append(probe)
    return bool(reached[0] == reached[1])


def value_after(next_state: tuple[int, Any] | None, final: Any, seat: int, analysis_at: Any) -> float:
    """The value for ``seat`` of the game after a turn: the next turn's search, or the result."""
    if next_state is None:  # the turn ended the game (or only reveals follow it)
        return float(final.returns()[seat]) if final.is_terminal() else 0.5
    return float(analysis_at(*next_state).root.win_rates[seat])


def read_record(source: str, index: int) -> Any:
    """The ``index``-th (from 1) record of a JSON or JSON-lines file or stdin."""
    if source == "-":
        note_reading_stdin("review", "a game record")
        text = sys.stdin.read()
    else:
        with open(source, encoding="utf-8") as handle:
            text = handle.read()
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > 1 and all(line.lstrip().startswith("{") for line in lines):
        try:
            read_json(text)
        except JsonInputError:  # JSON lines, one record each
            if not 1 <= index <= len(lines):
                raise ValueError(f"--game-index {index} is outside 1..{len(lines)}") from None
            return GameRecord.from_json(lines[index - 1])
    return GameRecord.from_json(text)


def print_review(review: Review) -> None:
    from rich.table import Table

    from ..console import make_console

    console = make_console()
    console.print(f"Review of {review.game}: {counted(len(review.decisions), 'turn')}; mistakes lose at least "
                  f"{100 * review.threshold:.0f}% win rate against the best turn found", highlight=False)
    for seat, name in enumerate(review.seats):
        own = [d for d in review.decisions if d.seat == seat]
        mistakes = review.mistakes(seat)
        avg = 100 * sum(d.drop for d in own) / len(own) if own else 0.0
        console.print(f"\n{seat_name(seat)} ({name}): {counted(len(mistakes), 'mistake')} in "
                      f"{counted(len(own), 'turn')}, average loss {avg:.1f}%", highlight=False)
        if not mistakes:
            continue
        table = Table(show_edge=False, pad_edge=False, header_style="bold")
        for col, justify in (("turn", "right"), ("played turn", "left"), ("win %", "right"), ("best turn", "left"),
                             ("win %", "right"), ("drop", "right")):
            table.add_column(col, justify=justify)  # type: ignore[arg-type]
        if any(d.blunder for d in mistakes):
            table.add_column("blunder: it allows", overflow="fold")
        for d in sorted(mistakes, key=lambda d: d.action_number):
            row = [turn_name(d.turn_number), d.played_turn, f"{100 * d.played_win_rate:.1f}", d.best_turn,
                   f"{100 * d.best_win_rate:.1f}", f"{100 * d.drop:.1f}"]
            if any(m.blunder for m in mistakes):
                row.append(d.threat["words"] if d.blunder and d.threat else "")
            table.add_row(*row)
        console.print(table)
