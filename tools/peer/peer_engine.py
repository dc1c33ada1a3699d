"""The peer's pretrained Splendor player speaking our engine protocol (docs/peer-alphazero.md).

    python3 tools/peer/peer_engine.py --checkout PEER_CHECKOUT [--venv VENV] [--stats FILE]

This half runs with our package (``splendor_mcts``: the protocol's words, the rules); it
starts ``peer_side.py`` in the peer's own virtual environment and speaks JSON lines to it.
For every decision of its seat it reads the view the tournament sends, fills the cards the
seat cannot see by our own sampling (``state_from_observation``), encodes the position in the
peer's layout (``translate.encode``), offers the peer only the actions that are legal turns
of ours (``translate.plans``), and answers the first decision of the chosen action; the
token returns of that turn follow from the plan, a noble choice is the lowest id. What it
had to map or mask is counted per game (``peer-stats`` on stderr, and ``--stats FILE``).
"""
from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import translate  # noqa: E402

from splendor_mcts.engines import wire  # noqa: E402
from splendor_mcts.engines.server import EngineServer  # noqa: E402
from splendor_mcts.games.game import load_game  # noqa: E402
from splendor_mcts.seeds import MAX_SEED  # noqa: E402

NO_MOVE = "(none)"
DEFAULT_SIMULATIONS = 800
PEER_SIDE = HERE / "peer_side.py"


def default_venv(checkout: str) -> str:
    return os.path.join(checkout, ".venv")


def venv_python(venv: str) -> str:
    return os.path.join(venv, "bin", "python")


class PeerFailure(RuntimeError):
    """The peer's half refused a request or is gone."""


class PeerProcess:
    """``peer_side.py`` in the peer's venv, spoken to one JSON request at a time."""

    def __init__(self, checkout: str, venv: str) -> None:
        python = venv_python(venv)
        if not os.access(python, os.X_OK):
            raise PeerFailure(f"no Python at {python}: set up the peer first (tools/peer/setup_peer.py {checkout})")
        self._lock = threading.Lock()
        self.process = subprocess.Popen([python, str(PEER_SIDE), "--checkout", checkout], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)

    def request(self, **request: Any) -> dict[str, Any]:
        with self._lock:
            assert self.process.stdin is not None and self.process.stdout is not None
            try:
                self.process.stdin.write(json.dumps(request) + "\n")
                self.process.stdin.flush()
                line = self.process.stdout.readline()
            except (BrokenPipeError, OSError):
                line = ""
            if not line:
                code = self.process.poll()
                raise PeerFailure(f"the peer's process ended (exit code {code}); its stderr says why")
            answer = json.loads(line)
            if not answer.get("ok"):
                raise PeerFailure(f"the peer refused {request.get('op')}: {answer.get('error')}")
            return dict(answer)

    def close(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            try:
                self.process.stdin.close()
                self.process.wait(5)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()


class PeerEngine(EngineServer):
    """The protocol loop around the peer (docs/engine-protocol.md): ``splendor-mcts engine``'s
    loop, output and option handling, with the peer deciding instead of our search."""

    def __init__(self, peer: Any, stdin: IO[str], stdout: IO[str], stats_file: str | None = None) -> None:
        # Not EngineServer.__init__: that one sets up our search's options and searchers.
        self.peer = peer
        self.stdin, self.stdout = stdin, stdout
        self.stats_file = stats_file
        self.options = {o.name: o for o in (
            wire.Option("simulations", "spin", str(DEFAULT_SIMULATIONS), 1, 10**6),
            wire.Option("seed", "spin", "0", 0, MAX_SEED))}
        self.values = {name: o.default for name, o in self.options.items()}
        self.game: Any = None
        self.catalogue: dict[int, translate.Catalogue] = {}
        self.state: Any = None
        self.position: dict[str, Any] | None = None
        self.decisions = 0      # decisions asked this game (varies the hidden-card samples)
        self.turns = 0          # this seat's turns so far this game (the peer's turn counter)
        self.pending: list[str] = []  # the rest of the turn being played (token returns)
        self.stats = translate.Stats()
        self._searchers: dict[Any, Any] = {}
        self._out = threading.Lock()
        self._stop = threading.Event()  # the peer's search cannot be stopped early: it ends on its own
        self._thinking: threading.Thread | None = None
        self._busy = False
        self._commands = {wire.HELLO: self._hello, "isready": lambda _: self.send("readyok"),
                          "setoption": self._setoption, "newgame": self._newgame, "position": self._position,
                          "legalmoves": lambda _: None, "go": self._go, "stop": lambda _: None}

    def run(self) -> int:
        try:
            return super().run()
        finally:
            self._end_game()

    def handle(self, word: str, rest: str) -> None:
        try:
            super().handle(word, rest)
        except PeerFailure as exc:
            self.error(f"{word}: {exc}")

    def _search_params(self, values: dict[str, str], **budget: Any) -> None:
        """The options need no check beyond their declared ranges."""

    # ------------------------------------------------------------------ commands
    def _hello(self, _: str) -> None:
        self.send("id name alpha-zero-general splendor (cestpasphoto), peer wrapper")
        self.send("id author cestpasphoto; wrapper by splendor_mcts")
        self.send(f"id protocol {wire.PROTOCOL_VERSION}")
        self.send("feature games splendor")
        self.send("feature reuse")
        for option in self.options.values():
            self.send(option.line())
        self.send(wire.HELLO_OK)

    def _newgame(self, rest: str) -> None:
        if not rest:
            raise ValueError("expected: newgame GAME (splendor, 'splendor(players=3)')")
        game = load_game(rest)
        players = game.num_players()
        if game.entry.name != "splendor" or game.spec != load_game(f"splendor(players={players})").spec:
            raise ValueError(f"the peer plays Splendor by the published rules for 2-4 players, not {game.spec}")
        self._end_game()
        if players not in self.catalogue:
            tables = self.peer.request(op="load", players=players)
            self.catalogue[players] = translate.Catalogue.match(game.cards(), game.nobles(), tables["cards"],
                                                                tables["nobles"])
            print(f"peer: {players}-player network loaded in {tables.get('load_seconds')} s, settings "
                  f"{json.dumps(tables['settings'])}", file=sys.stderr, flush=True)
        self.peer.request(op="newgame", players=players, seed=int(self.values["seed"]))
        self.game = game
        self.state, self.position = None, None
        self.decisions, self.turns, self.pending = 0, 0, []
        self.stats = translate.Stats()

    def _position(self, rest: str) -> None:
        self.state, self.position = None, None
        kind, _, body = rest.partition(" ")
        if self.game is None:
            raise ValueError("send newgame first")
        if kind == "view":
            seed = (int(self.values["seed"]) * 1_000_003 + self.decisions) % (MAX_SEED + 1)
            self.state, self.position = translate.seat_position(self.game, body, seed)
        elif kind == "state":
            state = self.game.state_from_json(body)
            self.state, self.position = state, json.loads(state.to_json())
        else:
            raise ValueError(f"expected position view JSON or position state JSON, got {kind!r} "
                             "(this wrapper does not replay startpos)")

    def _go(self, rest: str) -> None:
        try:
            limits = wire.parse_go(rest.split())
            if limits.movetime is not None or limits.time is not None or limits.infinite:
                raise ValueError("the peer searches a number of simulations (option simulations, or go iterations N); "
                                 "it takes no time limit")
            if self.state is None or self.position is None:
                raise ValueError("no position: send position first")
            if self.state.is_terminal() or self.state.current_player() < 0:
                raise ValueError("no decision here (the game is over or a chance outcome is due)")
        except ValueError as exc:
            self.error(f"go: {exc}")
            self.send(f"bestmove {NO_MOVE}")
            return
        simulations = limits.iterations or int(self.values["simulations"])
        self._busy = True
        self._thinking = threading.Thread(target=self._think, args=(self.state, self.position, simulations),
                                          daemon=True, name="peer-search")
        self._thinking.start()

    # ------------------------------------------------------------------ deciding
    def _think(self, state: Any, position: dict[str, Any], simulations: int) -> None:
        try:
            move = self.decide(state, position, simulations)
            lines = [f"bestmove {move}"]
        except (ValueError, PeerFailure) as exc:
            lines = [f"info string error go: {' '.join(str(exc).split())}", f"bestmove {NO_MOVE}"]
        with self._out:
            self._busy = False
            self.stdout.write("\n".join(lines) + "\n")
            self.stdout.flush()

    def decide(self, state: Any, position: dict[str, Any], simulations: int) -> str:
        """Our move for this decision: a search of the peer in the main phase, else the plan."""
        self.decisions += 1
        seat = state.current_player()
        phase = position["phase"]
        legal = {state.action_to_string(a) for a in state.legal_actions()}
        if phase == "choose_noble":  # the peer takes every noble at once: the lowest id here
            self.stats.noble_choices += 1
            return min(legal, key=lambda move: int(move.split()[1]))
        if phase == "return_tokens":
            if self.pending and self.pending[0] in legal:
                self.stats.follow_ups += 1
                return self.pending.pop(0)
            self.pending = []
            self.stats.fallbacks += 1  # not a turn the wrapper planned: give back gold, else the most held
            tokens = position["players"][seat]["tokens"]
            for colour, letter in sorted(zip((*translate.COLOURS, translate.GOLD), "WUGRKY"),
                                         key=lambda c: (c[0] != translate.GOLD, -tokens[c[0]])):
                if f"return {letter}" in legal:
                    return f"return {letter}"
            return sorted(legal)[0]
        return self._turn(state, position, seat, simulations)

    def _turn(self, state: Any, position: dict[str, Any], seat: int, simulations: int) -> str:
        limit = self.game.config.token_limit
        players = self.game.num_players()
        offered = translate.plans(state, position, limit)
        if not offered:
            raise ValueError("no legal turn of ours is an action of the peer here")
        board, capped = translate.encode(position, seat, self.turns * players + seat, self.catalogue[players])
        allowed = [int(a in offered) for a in range(translate.ACTIONS)]
        answer = self.peer.request(op="think", players=players, board=board, allowed=allowed,
                                   turn=self.turns * players + seat + 1, simulations=simulations)
        self.turns += 1
        valid, action = answer["valid"], int(answer["action"])
        masked = sum(1 for a in range(translate.ACTIONS) if valid[a] and not allowed[a])
        s = self.stats
        s.searches += 1
        s.masked += masked
        s.searches_masked += masked > 0
        s.offered_not_valid += sum(1 for a in range(translate.ACTIONS) if allowed[a] and not valid[a])
        s.capped_rounds += capped
        s.cpu += float(answer["cpu"])
        s.wall += float(answer["wall"])
        if action not in offered:
            raise ValueError(f"the peer answered action {action}, which was not offered")
        plan = offered[action]
        if plan.mapped:
            s.mapped[plan.mapped] += 1
        self.pending = list(plan.moves[1:])
        return plan.moves[0]

    def _end_game(self) -> None:
        if self.game is None or not (self.stats.searches or self.stats.noble_choices or self.stats.fallbacks):
            return
        record = {"game": self.game.spec, **self.stats.as_dict()}
        print(f"peer-stats {json.dumps(record)}", file=sys.stderr, flush=True)
        if self.stats_file:
            with open(self.stats_file, "a", encoding="utf-8") as out:
                out.write(json.dumps(record) + "\n")
        self.stats = translate.Stats()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="cestpasphoto/alpha-zero-general's Splendor player as an engine")
    parser.add_argument("--checkout", required=True, help="the peer's checkout (set up by tools/peer/setup_peer.py)")
    parser.add_argument("--venv", help="the peer's virtual environment (default: CHECKOUT/.venv)")
    parser.add_argument("--stats", help="append one JSON line per game: what had to be mapped or masked")
    args = parser.parse_args(argv)
    checkout = os.path.abspath(args.checkout)
    try:
        peer = PeerProcess(checkout, os.path.abspath(args.venv or default_venv(checkout)))
    except PeerFailure as exc:
        print(f"peer_engine: {exc}", file=sys.stderr)
        return 2
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    started = time.monotonic()
    try:
        return PeerEngine(peer, stdin, sys.stdout, args.stats).run()
    finally:
        peer.close()
        print(f"peer: done after {time.monotonic() - started:.1f} s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
