#!/usr/bin/env python3
"""An engine that misbehaves on purpose, for tests/test_engine_failures.py (plain Python).

It plays like a random engine (a legal move from ``legalmoves``) until its ``--at`` move
(counted from 1 over its whole life), where it does what ``--mode`` says (slow and spin go on
to its ``--until`` move, by default to the end):

  crash     exit with code 3 (after a line on stderr)
  hang      stop answering and ignore stop (sleeps); with --child it first starts a child
            process that would outlive it if only the engine were killed
  slow      answer --seconds late (asleep: wall-clock time, no CPU time), this move and every
            one after it
  spin      answer after --seconds of CPU time (a busy loop), this move and every one after it
  illegal   answer a well-formed move that is not legal
  garbage   answer a bestmove that is not a move at all
  flood     write lines of output without end
  handshake (from the start) answer sep with garbage
  readyslow (from the start) answer every isready --seconds late, as an engine loading a network

Every start writes "pid N" (and "child N") to stderr, so a test can check these are gone.
"""
import argparse
import os
import subprocess
import sys
import time


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", required=True,
                        choices=["crash", "hang", "slow", "spin", "illegal", "garbage", "flood", "handshake",
                                 "readyslow"])
    parser.add_argument("--at", type=int, default=1)
    parser.add_argument("--until", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--child", action="store_true")
    args = parser.parse_args()
    print(f"pid {os.getpid()}", file=sys.stderr, flush=True)
    moves = 0
    legal = []
    for raw in sys.stdin:
        word, _, rest = raw.strip().partition(" ")
        if word == "sep":
            if args.mode == "handshake":
                send("hello there, I am not an engine")
                send("sepok")
                continue
            send("id name bad-engine")
            send("feature reuse")
            send("sepok")
        elif word == "isready":
            if args.mode == "readyslow":
                time.sleep(args.seconds)
            send("readyok")
        elif word == "legalmoves":
            legal = [m.strip() for m in rest.split(",") if m.strip()]
        elif word == "go":
            moves += 1
            lasting = args.at <= moves <= (moves if args.until is None else args.until)
            if args.mode == "slow" and lasting:
                time.sleep(args.seconds)
            elif args.mode == "spin" and lasting:
                end = time.process_time() + args.seconds
                while time.process_time() < end:
                    pass
            elif moves == args.at:
                if args.mode == "crash":
                    print(f"bad-engine: crashing at move {moves} on purpose", file=sys.stderr, flush=True)
                    sys.exit(3)
                if args.mode == "hang":
                    if args.child:
                        child = subprocess.Popen(["sleep", "1000"])
                        print(f"child {child.pid}", file=sys.stderr, flush=True)
                    print("bad-engine: hanging", file=sys.stderr, flush=True)
                    while True:
                        time.sleep(1000)
                if args.mode == "illegal":
                    send("bestmove buy 3.4" if not any(m == "buy 3.4" for m in legal) else "bestmove reserve 9.9")
                    continue
                if args.mode == "garbage":
                    send("bestmove fly to the moon")
                    continue
                if args.mode == "flood":
                    line = "info string " + "x" * 65536 + "\n"  # big lines: the flood limit comes long before the clock
                    while True:
                        sys.stdout.write(line)
            send(f"bestmove {legal[0]}")
        elif word == "quit":
            return


if __name__ == "__main__":
    main()
