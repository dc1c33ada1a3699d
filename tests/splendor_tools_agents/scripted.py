#!/usr/bin/env python3
"""A scripted agent for the splendor-tools referee's format, written for the tests.

It knows nothing of splendor_mcts: it reads the referee's input on stdin and the card table
``cards.json`` (their id -> [cost red green blue white black], bonus colour, points) from its
own folder, as a referee agent would, and prints one move: buy the most valuable card it can
afford; else take three colours (two of one colour, or what the bank has left); else reserve;
else pass. Tokens above 10 are given back, most plentiful colour first.

Usage: scripted.py [--single-at ROUND]: in round ROUND, instead of three colours it takes one,
the first the bank has (the referee allows a take of 1 to 3 colours at any time).
"""
import json
import os
import sys


def ints(line):
    return [int(x) for x in line.split()]


def main():
    single_at = int(sys.argv[2]) if sys.argv[1:2] == ["--single-at"] else None
    lines = sys.stdin.read().strip().splitlines()
    n, me = ints(lines[0])
    bank = ints(lines[2])
    table = [ints(lines[3 + level])[1:] for level in range(3)]
    decks = [ints(lines[3 + level])[0] for level in range(3)]
    at = 7 + 4 * (me - 1)
    tokens = ints(lines[at])
    bought = ints(lines[at + 1])[1:]
    reserved = ints(lines[at + 2])[1:]
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "cards.json")) as f:
        cards = {int(k): v for k, v in json.load(f).items()}
    bonus = [0] * 5
    for card in bought:
        bonus[cards[card][1]] += 1

    def affordable(card):
        short = sum(max(0, cost - bonus[c] - tokens[c]) for c, cost in enumerate(cards[card][0]))
        return short <= tokens[5]

    options = [c for row in table for c in row if c] + reserved
    buyable = sorted((c for c in options if affordable(c)), key=lambda c: (-cards[c][2], c))
    print("kibitz scripted: %d affordable" % len(buyable), file=sys.stderr)
    if buyable:
        print(4, buyable[0])
        return
    held = list(tokens)
    available = [c for c in range(5) if bank[c] > 0]
    if available and int(lines[1]) == single_at:
        wanted = available[:1]
        move = [1, 1] + wanted
    elif len(available) >= 3:
        wanted = sorted(available, key=lambda c: (held[c], c))[:3]
        move = [1, 3] + wanted
    elif any(bank[c] >= 4 for c in range(5)):
        colour = next(c for c in range(5) if bank[c] >= 4)
        wanted = [colour, colour]
        move = [2, colour]
    elif available:
        wanted = available
        move = [1, len(available)] + available
    elif len(reserved) < 3 and any(decks):
        wanted = [5] if bank[5] else []
        move = [3, -(1 + next(level for level in range(3) if decks[level]))]
    else:
        print(1, 0)
        return
    for c in wanted:
        held[c] += 1
    while sum(held) > 10:
        c = max(range(5), key=lambda x: (held[x], -x))
        held[c] -= 1
        move.append(c)
    print(" ".join(map(str, move)))


main()
