#!/usr/bin/env python3
"""A minimal engine for the engine protocol (docs/engine-protocol.md), in plain Python.

It needs nothing but the standard library: the tournament sends the legal moves in the
game's notation with every position (``legalmoves``), so an engine can play without
knowing the rules. This one plays a buy when it can, else any legal move, at random.
Try it:

    splendor-mcts tournament 'engine:cmd="python3 examples/engines/random_engine.py",name=rnd' greedy

Use it as the skeleton of your own engine: read ``position view`` (a JSON object: what your
seat sees, docs/position-format.md) and choose among ``legalmoves`` in ``go``.
"""
import json
import random
import sys

NAME = "random-buyer 1.0"


class Engine:
    def __init__(self):
        self.rng = random.Random(0)
        self.view = None        # the last position, as a dict
        self.legal = []         # the legal moves of that position, in notation

    def send(self, line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def choose(self):
        buys = [m for m in self.legal if m.startswith("buy")]
        return self.rng.choice(buys or self.legal)

    def handle(self, line):
        word, _, rest = line.partition(" ")
        if word == "sep":
            self.send(f"id name {NAME}")
            self.send("id author the splendor_mcts examples")
            self.send("feature games splendor duel")
            self.send("feature reuse")
            self.send("option name seed type spin default 0 min 0 max 18446744073709551615")
            self.send("sepok")
        elif word == "isready":
            self.send("readyok")
        elif word == "setoption":
            words = rest.split()
            if words[:2] == ["name", "seed"] and len(words) == 4 and words[3].isdigit():
                self.rng.seed(int(words[3]))
            else:
                self.send(f"info string error setoption: unknown option or bad value: {rest}")
        elif word == "newgame":
            self.view, self.legal = None, []
        elif word == "position":
            kind, _, body = rest.partition(" ")
            try:
                self.view = json.loads(body) if kind in ("view", "state") else None
            except ValueError as exc:
                self.send(f"info string error position: not JSON: {exc}")
            self.legal = []
        elif word == "legalmoves":
            self.legal = [m.strip() for m in rest.split(",") if m.strip()]
        elif word == "go":
            if not self.legal:
                self.send("info string error go: no legal moves were sent (send legalmoves after position)")
                self.send("bestmove (none)")
            else:
                self.send(f"bestmove {self.choose()}")
        elif word == "stop":
            pass  # this engine answers go at once: there is never a search to stop
        else:
            self.send(f"info string error unknown command {word!r}")

    def run(self):
        for raw in sys.stdin:
            line = raw.strip()
            if line == "quit":
                return
            if line:
                self.handle(line)


if __name__ == "__main__":
    Engine().run()
