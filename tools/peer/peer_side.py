"""The peer's half of the peer wrapper (docs/peer-alphazero.md): runs in the peer's own venv.

cestpasphoto/alpha-zero-general's pretrained Splendor player, driven over JSON lines on
standard input and output by ``tools/peer/peer_engine.py`` (which speaks our engine protocol
and does all the translating). This program imports the peer's code from its checkout at
run time and nothing from ``splendor_mcts``: none of the peer's code is in this repository.

Requests (``{"op": "tables"}``: the two tables alone), one JSON object a line, each answered by one line (``{"ok": false, "error": ...}``
when it cannot be obeyed):

* ``{"op": "load", "players": N}``: load ``splendor/pretrained_{N}players.pt`` as the peer's
  ``pit`` script does (its settings restored from the checkpoint) and warm it up; answers the
  settings, the peer's card table (per level, per deck group, the two 7-value rows of each card)
  and its noble table.
* ``{"op": "newgame", "players": N, "seed": S}``: a fresh search tree; numpy seeded with S.
* ``{"op": "think", "players": N, "board": [[...]], "allowed": [81 x 0/1], "turn": T,
  "simulations": M}``: the peer's MCTS from ``board`` (its canonical form: the mover is its
  player 0) with the root's actions cut to ``allowed``; answers its ``action``, its own
  ``valid`` actions there, and the CPU and wall seconds the search took.
* ``{"op": "valid", "players": N, "board": [[...]]}``: the peer's own valid actions (its game
  only: no network is loaded for this).

Run as ``PYTHON peer_side.py --checkout DIR --check`` it loads the 2, 3 and 4-player networks,
searches one position with each and prints their settings (the setup script's last step).
"""
from __future__ import annotations

import os

# One thread everywhere, set before numpy, numba, torch or onnxruntime start their pools.
for _name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ[_name] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import types  # noqa: E402
from typing import Any, TextIO  # noqa: E402

ACTIONS = 81
PLAYERS = (2, 3, 4)
# The peer's modules the wrapper imports (each a .py file of its checkout).
MODULES = ("MCTS", "GenericNNetWrapper", "utils", "NeuralNet", "Game", "splendor/SplendorGame",
           "splendor/SplendorLogic", "splendor/SplendorLogicNumba", "splendor/SplendorNNet", "splendor/NNet")


def network_file(checkout: str, players: int) -> str:
    return os.path.join(checkout, "splendor", f"pretrained_{players}players.pt")


def missing_files(checkout: str) -> list[str]:
    """The files of the peer's checkout this wrapper needs that are not there."""
    wanted = [*(f"{module}.py" for module in MODULES), *(os.path.relpath(network_file(checkout, n), checkout) for n in PLAYERS)]
    return [name for name in wanted if not os.path.isfile(os.path.join(checkout, name))]


def make_divisible(v: float, divisor: int, min_value: int | None = None) -> int:
    """torchvision's ``_make_divisible`` (MobileNet's channel rounding), the one helper the peer
    imports from torchvision, whose wheel does not load with the pinned torch: the nearest
    multiple of ``divisor``, at least ``min_value``, never more than 10 % below ``v``."""
    if min_value is None:
        min_value = divisor
    rounded = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if rounded < 0.9 * v:
        rounded += divisor
    return rounded


_STAND_IN = ("torchvision", "torchvision.models", "torchvision.models._utils")


def _import_peer_network() -> Any:
    """The peer's ``splendor.NNet``, its one torchvision import served by a stand-in module
    that is gone again afterwards (so torch's ONNX exporter finds no torchvision, as without it)."""
    utils = types.ModuleType("torchvision.models._utils")
    utils._make_divisible = make_divisible  # type: ignore[attr-defined]
    package, models = types.ModuleType("torchvision"), types.ModuleType("torchvision.models")
    package.models = models  # type: ignore[attr-defined]
    models._utils = utils  # type: ignore[attr-defined]
    if any(name in sys.modules for name in _STAND_IN):
        raise RuntimeError("torchvision is already imported: the stand-in would not be used")
    sys.modules.update(zip(_STAND_IN, (package, models, utils)))
    try:
        from splendor import NNet
    finally:
        for name in _STAND_IN:
            sys.modules.pop(name, None)
    return NNet


class _RootMaskedGame:
    """The peer's game object with the valid actions of one board (the search's root) cut to a
    mask: the peer's search asks its game for the valid moves of every node it expands, so the
    root's are the legal ones in our game and the tree below follows the peer's own rules."""

    def __init__(self, game: Any) -> None:
        self._game = game
        self._root: bytes | None = None
        self._mask: Any = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def set_root(self, board: Any, mask: Any) -> None:
        self._root, self._mask = board.tobytes(), mask

    def getValidMoves(self, board: Any, player: int) -> Any:  # noqa: N802 - the peer's name
        valid = self._game.getValidMoves(board, player)
        if self._root is not None and board.tobytes() == self._root:
            return valid & self._mask
        return valid


class Peer:
    """The peer's player for each number of players, loaded on first use."""

    def __init__(self, checkout: str) -> None:
        self.checkout = os.path.abspath(checkout)
        self.loaded: dict[int, dict[str, Any]] = {}
        self.games: dict[int, Any] = {}
        self.searches: dict[int, Any] = {}
        sys.path.insert(0, self.checkout)
        import numpy  # the peer's venv has it

        self.np = numpy

    # ------------------------------------------------------------------ loading
    def game(self, players: int) -> Any:
        """The peer's game for ``players`` (its rules and encoding, no network)."""
        if players not in PLAYERS:
            raise ValueError(f"the peer has pretrained networks for 2, 3 and 4 players, not {players}")
        if players not in self.games:
            import splendor.SplendorGame as game_module  # the peer's module, from its checkout

            # Its game reads the number of players from this module constant (2 in its code).
            game_module.NUMBER_PLAYERS = players
            self.games[players] = game_module.SplendorGame()
        return self.games[players]

    def load(self, players: int) -> dict[str, Any]:
        if players not in PLAYERS:
            raise ValueError(f"the peer has pretrained networks for 2, 3 and 4 players, not {players}")
        if players in self.loaded:
            return self.loaded[players]["answer"]
        started = time.perf_counter()
        from MCTS import MCTS  # noqa: F401 - imported here so its numba functions compile now
        from utils import dotdict

        NNetWrapper = _import_peer_network().NNetWrapper  # noqa: N806 - the peer's class

        game = self.game(players)
        # As pit script's create_player: default network arguments, then the checkpoint's own.
        net = NNetWrapper(game, dict(lr=None, dropout=0., epochs=None, batch_size=None, nn_version=-1))
        path = network_file(self.checkout, players)
        keys = net.load_checkpoint(os.path.dirname(path), os.path.basename(path))
        if keys is None:
            raise ValueError(f"the peer could not load {path}")
        cpuct = keys.get("cpuct")
        settings = {
            "file": os.path.relpath(path, self.checkout),
            "numMCTSSims": keys.get("numMCTSSims", 100),
            "fpu": keys.get("fpu", 0.),
            "universes": keys.get("universes", 1),
            "cpuct": float(cpuct[0]) if isinstance(cpuct, list) else cpuct,
            "prob_fullMCTS": 1.,
            "forced_playouts": keys.get("forced_playouts", False),
            "no_mem_optim": False,
            "temperature_half_life": (keys["temperature"][2:3] or [10])[0],
            "nn_version": getattr(net.nnet, "version", None),
        }
        answer = {"ok": True, "players": players, "settings": settings, **tables()}
        self.loaded[players] = {"game": game, "net": net, "settings": settings, "dotdict": dotdict,
                                "answer": answer}
        self.new_search(players)
        board = game.getInitBoard().copy()  # warm up: numba compiles, the network goes to ONNX
        self.think(players, board, [1] * ACTIONS, 1, 4)
        self.new_search(players)
        answer["load_seconds"] = round(time.perf_counter() - started, 3)
        return answer

    def new_search(self, players: int, seed: int | None = None) -> None:
        from MCTS import MCTS

        entry = self.loaded[players]
        settings = entry["settings"]
        args = entry["dotdict"]({key: settings[key] for key in (
            "numMCTSSims", "fpu", "universes", "cpuct", "prob_fullMCTS", "forced_playouts", "no_mem_optim")})
        masked = _RootMaskedGame(entry["game"])
        self.searches[players] = (MCTS(masked, entry["net"], args), masked)
        if seed is not None:
            self.np.random.seed(seed % 2**32)

    # ------------------------------------------------------------------ searching
    def _board(self, players: int, rows: Any) -> Any:
        board = self.np.array(rows, dtype=self.np.int8)
        expected = self.game(players).getBoardSize()
        if board.shape != tuple(expected):
            raise ValueError(f"board of shape {board.shape}, the {players}-player game's is {tuple(expected)}")
        return board

    def valid(self, players: int, rows: Any) -> list[int]:
        board = self._board(players, rows)
        return [int(v) for v in self.game(players).getValidMoves(board, 0)]

    def think(self, players: int, rows: Any, allowed: list[int], turn: int, simulations: int) -> dict[str, Any]:
        np = self.np
        board = self._board(players, rows)
        mask = np.array(allowed, dtype=bool)
        if mask.shape != (ACTIONS,):
            raise ValueError(f"allowed must hold {ACTIONS} values, got {mask.shape}")
        game = self.loaded[players]["game"]
        valid = np.array(game.getValidMoves(board, 0), dtype=bool)
        root = valid & mask
        if not root.any():
            raise ValueError("none of the allowed actions is valid for the peer")
        mcts, masked = self.searches[players]
        masked.set_root(board, root)
        mcts.nodes_data.pop(game.stringRepresentation(board), None)  # a root kept from an earlier
        mcts.args.numMCTSSims = simulations                            # search had its own mask
        half_life = self.loaded[players]["settings"]["temperature_half_life"]
        temperature = 0.5 * 0.5 ** (turn / half_life)  # pit script's temp_for_game (it ends at 0.0)
        cpu, wall = time.process_time(), time.perf_counter()
        probs = mcts.getActionProb(board, temp=temperature, force_full_search=True)[0]
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        action = int(np.argmax(probs))  # as pit script's player
        if not root[action]:
            raise ValueError(f"the peer chose action {action}, which is not among the allowed ones")
        return {"ok": True, "action": action, "valid": [int(v) for v in valid],
                "cpu": round(cpu, 6), "wall": round(wall, 6)}


def tables() -> dict[str, Any]:
    """The peer's card table (per level, per group, each card's cost and gain rows) and nobles."""
    from splendor import SplendorLogic as logic

    levels = [logic.np_all_cards_1, logic.np_all_cards_2, logic.np_all_cards_3]
    return {"cards": [[[card.tolist() for card in group] for group in level] for level in levels],
            "nobles": logic.np_all_nobles.tolist()}


def _players(request: dict[str, Any]) -> int:
    players = request.get("players")
    if not isinstance(players, int) or isinstance(players, bool):
        raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
    return players


def handle(peer: Peer, request: dict[str, Any]) -> dict[str, Any]:
    op = request.get("op")
    if op == "tables":
        return {"ok": True, **tables()}
    if op == "load":
        return peer.load(_players(request))
    players = _players(request)
    if op == "valid":
        return {"ok": True, "valid": peer.valid(players, request["board"])}
    if players not in peer.loaded:
        raise ValueError(f"the {players}-player network is not loaded (send load first)")
    if op == "newgame":
        peer.new_search(players, int(request.get("seed", 0)))
        return {"ok": True}
    if op == "think":
        simulations = request.get("simulations")
        if not isinstance(simulations, int) or simulations < 1:
            raise ValueError(f"simulations must be a positive integer, got {simulations!r}")
        return peer.think(players, request["board"], request["allowed"], int(request["turn"]), simulations)
    raise ValueError(f"unknown op {op!r} (known: tables, load, newgame, think, valid)")


def serve(peer: Peer, requests: TextIO, answers: TextIO) -> None:
    for line in requests:
        if not line.strip():
            continue
        try:
            answer = handle(peer, json.loads(line))
        except (ValueError, KeyError, TypeError) as exc:
            answer = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


def check(peer: Peer) -> int:
    """Load each pretrained network, search one position with it, print its settings."""
    for players in PLAYERS:
        answer = peer.load(players)
        print(f"{players} players: {answer['settings']['file']} loaded in {answer['load_seconds']} s; "
              f"settings as pit script restores them: {json.dumps(answer['settings'])}")
        game = peer.loaded[players]["game"]
        moved = peer.think(players, game.getInitBoard().copy(), [1] * ACTIONS, 1, 16)
        print(f"  16 simulations from a new deal: action {moved['action']} in {moved['cpu']:.3f} s CPU")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", required=True, help="the peer's checkout (alpha-zero-general)")
    parser.add_argument("--check", action="store_true", help="load every pretrained network and exit")
    args = parser.parse_args(argv)
    missing = missing_files(args.checkout)
    if missing:
        print(f"peer_side: {args.checkout} is not a checkout of alpha-zero-general with its Splendor player: "
              f"missing {', '.join(missing)}", file=sys.stderr)
        return 2
    # The answers get the real standard output; whatever the peer's code prints goes to stderr.
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    # The peer writes its ONNX export into the working directory: give it a private one.
    workdir = tempfile.TemporaryDirectory(prefix="peer-side-")  # removed when this process ends
    os.chdir(workdir.name)
    peer = Peer(args.checkout)
    import torch

    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)
    if args.check:
        sys.stdout = answers
        return check(peer)
    serve(peer, sys.stdin, answers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
