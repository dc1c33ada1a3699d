#!/usr/bin/env python3
"""A referee-format agent that misbehaves on purpose, for the tests.

Usage: misbehave.py MODE [ROUND]. Before round ROUND (default 1) it takes three colours (or
passes when it cannot), giving back what is above 10; from ROUND on it does what MODE says:
garbage, illegal (buys card 1, which it cannot have), crash (exit code 3), hang (a busy loop),
sleep (a long sleep), flood (endless output), fork (starts a sleeping child, then hangs),
fewer (takes two colours while three are in the bank: the referee allows it), pass (``1 0``),
late-crash (prints its move, then exits with code 3).
"""
import subprocess
import sys
import time


def take_three(lines):
    n, me = map(int, lines[0].split())
    bank = list(map(int, lines[2].split()))
    held = list(map(int, lines[7 + 4 * (me - 1)].split()))
    colours = [c for c in range(5) if bank[c] > 0][:3]
    if len(colours) < 3:
        return "1 0"
    for c in colours:
        held[c] += 1
    back = []
    while sum(held) > 10:
        c = max(range(5), key=lambda x: held[x])
        held[c] -= 1
        back.append(c)
    return " ".join(map(str, [1, 3] + colours + back))


def main():
    mode = sys.argv[1]
    start = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    lines = sys.stdin.read().strip().splitlines()
    if int(lines[1]) < start:
        print(take_three(lines))
        return
    print("kibitz misbehaving: " + mode, file=sys.stderr)
    if mode == "garbage":
        print("buy the blue one please")
    elif mode == "illegal":
        print("4 1")
    elif mode == "crash":
        print("about to crash", file=sys.stderr)
        sys.exit(3)
    elif mode == "hang":
        while True:
            pass
    elif mode == "sleep":
        time.sleep(600)
    elif mode == "flood":
        while True:
            sys.stdout.write("1 3 0 1 2 " * 1000 + "\n")
    elif mode == "fork":
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", "splendor-tools-orphan-check"])
        while True:
            pass
    elif mode == "fewer":
        n, me = map(int, lines[0].split())
        bank = list(map(int, lines[2].split()))
        print(1, 2, *[c for c in range(5) if bank[c] > 0][:2])
    elif mode == "pass":
        print("1 0")
    elif mode == "late-crash":
        print(take_three(lines), flush=True)
        sys.exit(3)


main()
