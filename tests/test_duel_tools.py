"""The tools for people on Splendor Duel, through the real entry points: ``play --follow``
(a real table typed in), ``hint`` on the example, hidden-card independence, a scripted
``play`` session, ``review`` finding an injected blunder and ``analyze`` on a Duel position
and record."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import splendor_mcts as sm
from splendor_mcts.games.positions import read_position
from splendor_mcts.records import GameRecord, replay

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "duel-view.json"
GAME = sm.load_game("duel")
TEXTS = {c["id"]: c["text"] for c in GAME.cards()}


def cli(command: str, *args: str, stdin: str | None = None, timeout: int = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "160"}
    return subprocess.run([sys.executable, "-m", "splendor_mcts.cli", command, *args], input=stdin,
                          capture_output=True, text=True, timeout=timeout, env=env)


def lines(*typed: str) -> str:
    return "".join(f"{line}\n" for line in typed)


# ---------------------------------------------------------------- follow a real table

OPENING_CARDS = (1, 2, 3, 4, 5, 31, 32, 33, 34, 55, 56, 57)   # pyramid 1.1 ... 3.3
BAG = "WUGRK" * 4 + "PPYY*"  # the 25 tokens, in spiral order (* is gold's first letter, still read)


def opening() -> list[str]:
    """The opening as a person types it: cards by description or id, the bag in two lines."""
    cards = [TEXTS[c] if i % 2 == 0 else f"#{c}" for i, c in enumerate(OPENING_CARDS)]
    return cards + [BAG[:10], " ".join(BAG[10:]), "first 1"]


def api_after(typed_moves: list[str]) -> object:
    """The same table through the API (follow mode starts from seed 0, explicit chance);
    the opponent's blind draws are dealt, unseen, as the session does."""
    state = GAME.new_initial_state(seed=0, explicit_chance=True)
    kinds = {"W": "white", "U": "blue", "G": "green", "R": "red", "K": "black", "P": "pearl", "Y": "gold", "*": "gold"}
    for text in [f"card {c}" for c in OPENING_CARDS] + [f"fill {kinds[ch]}" for ch in BAG] + ["first 1"] + typed_moves:
        state.apply_action(state.string_to_action(text))
        while state.is_chance_node() and json.loads(state.observation_json(0))["to_move"] != 0:
            state.apply_action(state.dealt_outcome())
    return state


def test_follow_a_duel_table_with_a_hidden_opponent_reserve(tmp_path):
    moves = ["take c3", "take c2", "reserve deck1 gold e3"]  # seat 1, seat 0, then seat 1 reserves blind
    state = api_after(moves)
    hidden = json.loads(state.to_json())["players"][1]["reserved"][0]["card"]  # what the engine dealt, unseen
    saved = tmp_path / "table.json"
    typed = opening()[:3] + ["purple 0pt W1"] + opening()[3:12] + ["R Q", "WUGRKWUGRKWUGRKWUGRKPP****"] + \
        opening()[12:] + ["take a1 c1", *moves, "board",
                          "reserve 1.1 gold e4",        # seat 0 reserves 1.1: its refill is revealed...
                          f"#{hidden}",                 # ...and it is the card the engine had dealt seat 1
                          "undo", f"save {saved}", "quit"]
    run = cli("play", "--game", "duel", "--follow", "--seat", "0", stdin=lines(*typed))
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "pyramid slot 1.1 is filled from the deck" in out
    assert "cannot read the revealed card 'purple 0pt W1'" in out and 'unknown bonus colour "purple"' in out
    assert "cannot read the token 'Q'" in out
    assert "fill gold is not possible now (outcomes: first 0, first 1); nothing was applied" in out  # a 4th gold
    assert "who plays first?" in out
    assert "cannot play 'take a1 c1'" in out and "not consecutive" in out
    assert "seat 2 plays take c3" in out and "seat 1 plays take c2" in out
    assert "seat 2 plays reserve deck1 gold e3" in out
    assert "r1) level 1 (hidden)" in out                 # the blind reserve stays unknown to seat 0
    assert TEXTS[hidden] not in out.split("seat 1 plays reserve 1.1")[0].split("seat 2 plays reserve deck1")[1]
    assert f"seat 1 plays reserve 1.1 gold e4 ({TEXTS[1]})" in out
    assert "cannot be revealed now" not in out           # the hidden draw was re-dealt to fit the table
    assert "undid" in out
    record = GameRecord.from_json(saved.read_text())
    assert record.meta["mode"] == "follow" and record.termination == "unfinished"
    final = replay(record)
    view = json.loads(final.observation_json(0))
    assert view["players"][1]["reserved"] == [{"level": 1, "blind": True}]


def test_follow_names_the_opponents_hidden_reserve_when_it_is_bought():
    """Seat 1 reserves blind and collects tokens; when it buys the reserve, the user names
    the card (one seat 1 can afford, found with a full position) and the session takes it."""
    script = ["take c3", "take c2", "reserve deck1 gold e3"]
    state = api_after(script)
    for _ in range(2):  # seat 0 takes one token, seat 1 three
        for length in (1, 3):
            move = next(t for t in map(state.action_to_string, state.legal_actions())
                        if t.startswith("take") and len(t.split()) == length + 1)
            script.append(move)
            state = api_after(script)
    script.append(next(t for t in map(state.action_to_string, state.legal_actions()) if t.startswith("take")))
    state = api_after(script)
    assert state.current_player() == 1
    full = json.loads(state.to_json())
    dealt = full["players"][1]["reserved"][0]["card"]

    def affordable(card: int) -> bool:
        swapped = json.loads(json.dumps(full))
        swapped["players"][1]["reserved"][0]["card"] = card
        swapped["decks"][0] = [dealt if c == card else c for c in full["decks"][0]]
        probe = GAME.state_from_json(json.dumps(swapped))
        return probe.is_legal(probe.string_to_action("buy r1"))

    named = [c for c in full["decks"][0] if affordable(c)]
    assert named, "seat 1 can afford some level-1 card of the deck"
    never = next(c for c in full["decks"][0] if not affordable(c))
    typed = opening() + script + [f"buy r1 #{full['pyramid'][0][0]}", f"buy r1 #{never}", f"buy r1 {TEXTS[named[0]]}",
                                  "quit"]
    run = cli("play", "--game", "duel", "--follow", "--seat", "0", stdin=lines(*typed))
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert f"cannot play 'buy r1 #{full['pyramid'][0][0]}'" in out and "you have seen it elsewhere" in out
    assert f"cannot play 'buy r1 #{never}'" in out and "buy r1: needs " in out
    assert f"seat 2 plays buy r1 ({TEXTS[named[0]]})" in out


def test_play_duel_bad_options_exit_2():
    run = cli("play", "--game", "duel", "--players", "3", stdin="")
    assert run.returncode == 2 and "Splendor Duel is a 2-player game" in run.stderr
    run = cli("play", "--game", "duel", "--seat", "2", stdin="")
    assert run.returncode == 2 and "--seat 2 is not a seat of a 2-player game" in run.stderr


# ---------------------------------------------------------------- with the search

def test_hint_on_the_duel_example_table_and_json():
    run = cli("hint", str(EXAMPLE), "--iterations", "400", "--threads", "1", "--top", "3")
    assert run.returncode == 0, run.stderr
    out = run.stdout.splitlines()
    assert "Duel, 2 players: seat 1 to move" in out[0] and "400 iterations" in out[0]
    state = read_position(EXAMPLE.read_text()).state
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    header = next(line for line in out if "visits" in line)
    rows = [line for line in out[out.index(header) + 1:] if line.strip()[:1].isdigit()]
    assert len(rows) == 3
    for row in rows:
        assert [cell.strip() for cell in row.split("│")][1].split(" (")[0] in legal, row
    run = cli("hint", str(EXAMPLE), "--iterations", "400", "--threads", "1", "--seed", "3", "--json", "--top", "4")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    api = sm.analyze(state, iterations=400, threads=1, seed=3, top_k=4, analysis_moves=4)  # hint: k = --top
    assert [m["action"] for m in data["moveInfos"]] == [m.action for m in api.moves]
    assert data["game"].startswith("duel") and data["toMove"] == 0
    assert all(m["label"].startswith(m["move"]) for m in data["moveInfos"])


def test_a_duel_hint_does_not_depend_on_the_hidden_cards():
    """Two samplings of the unseen cards (deck order, the opponent's three blind reserves)."""
    text = EXAMPLE.read_text()
    a = read_position(text, seed=1).state
    b = read_position(text, seed=77).state
    assert a.to_json() != b.to_json()
    ra = sm.analyze(a, iterations=1500, threads=1, seed=7, top_k=None)
    rb = sm.analyze(b, iterations=1500, threads=1, seed=7, top_k=None)
    assert ra.to_dict()["moveInfos"] == rb.to_dict()["moveInfos"]


def test_scripted_duel_session_moves_hint_undo_save_load(tmp_path):
    saved = tmp_path / "duel.json"
    args = ("--game", "duel", "--deal-seed", "5", "--iterations", "60", "--threads", "1", "--hint-time", "0.2")
    game = GAME.new_initial_state(seed=5)
    first = game.current_player()
    assert first == 1  # the engine moves first in this deal; the person is seat 0
    run = cli("play", *args, stdin=lines("take z9", "take a1 a3", "hint", "take c3", "undo", "take c3", "moves",
                                           f"save {saved}", "quit"))
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "\x1b[" not in out
    assert "      a  b  c  d  e" in out and "bag:" in out and "privileges in the supply" in out
    assert "cannot play 'take z9'" in out and "is not a cell" in out
    assert "cannot play 'take a1 a3'" in out and "did you mean:" in out
    assert "principal variation" in out
    assert out.count("seat 1 plays take c3") == 2 and "undid take c3" in out
    record = GameRecord.from_json(saved.read_text())
    human, engine = record.seats
    # Duel's network is on by default, and the record names the one that played.
    assert record.game == GAME.spec and human == "human"
    assert re.fullmatch(r"mcts:iterations=60,network=shipped:duel@[0-9a-f]{8}", engine), engine
    assert replay(record).current_player() == 0
    run = cli("play", "--game", "duel", "--load", str(saved), "--iterations", "60", "--threads", "1",
              stdin=lines("board", "quit"))
    assert run.returncode == 0, run.stderr
    assert f"loaded {len(record.actions)} actions" in run.stdout


def settle(state):
    while state.is_chance_node():
        state.apply_action(state.dealt_outcome())


def wins_at_once(state, action, seat) -> bool:
    end = state.clone()
    end.apply_action(action)
    settle(end)
    return end.is_terminal() and end.returns()[seat] == 1.0


def blunder_record() -> tuple[GameRecord, int, int, int]:
    """A Duel record where a seat could win at once (20 points, 10 crowns or 10 points of a
    colour) but takes tokens instead, and the opponent then wins at once."""
    for seed in range(60):
        state = GAME.new_initial_state(seed=seed, explicit_chance=True)
        actions: list[int] = []
        while not state.is_terminal() and len(actions) < 3000:
            if state.is_chance_node():
                action = state.dealt_outcome()
            else:
                seat, legal = state.current_player(), state.legal_actions()
                winning = [a for a in legal if wins_at_once(state, a, seat)]
                for take in (a for a in legal if winning and state.action_to_string(a).startswith("take")):
                    after = state.clone()
                    after.apply_action(take)
                    settle(after)
                    if after.is_terminal() or after.current_player() != 1 - seat:
                        continue
                    reply = next((b for b in after.legal_actions() if wins_at_once(after, b, 1 - seat)), None)
                    if reply is None:
                        continue
                    turn = len(actions)
                    for a in (take, reply):
                        state.apply_action(a)
                        actions.append(a)
                        while state.is_chance_node():
                            actions.append(state.dealt_outcome())
                            state.apply_action(actions[-1])
                    names = ("blunderer", "winner") if seat == 0 else ("winner", "blunderer")
                    return (GameRecord(game=GAME.spec, seed=seed, seats=names, actions=tuple(actions),
                                       result=tuple(state.returns())), turn, winning[0], seat)
                action = winning[0] if winning else state.heuristic_action(seed * 1000 + len(actions))
            state.apply_action(action)
            actions.append(action)
    raise AssertionError("no blunder position found")


def test_the_duel_blunder_record_is_what_it_says():
    record, turn, winning, seat = blunder_record()
    end = replay(record)
    assert end.is_terminal() and end.returns()[seat] == 0.0
    before = replay(record, upto=turn)
    assert wins_at_once(before, winning, seat) and not wins_at_once(before, record.actions[turn], seat)


def test_review_finds_the_injected_duel_blunder(tmp_path):
    record, turn, winning, seat = blunder_record()
    path = tmp_path / "duel-game.json"
    path.write_text(record.to_json())
    run = cli("review", str(path), "--iterations", "200", "--threads", "1", "--json", timeout=300)
    assert run.returncode == 0, run.stderr
    review = json.loads(run.stdout)
    blunder = next(d for d in review["players"][seat]["worst"] if d["action_number"] == turn)  # reported as a mistake
    assert blunder["best_actions"][0] == winning or blunder["best_win_rate"] > 0.95
    assert blunder["drop"] >= 0.5
    assert "take" in blunder["played_turn"]


def test_analyze_a_duel_position_and_record_over_a_pipe():
    record, turn, _, _ = blunder_record()
    queries = [json.dumps({"id": "pos", "position": json.loads(EXAMPLE.read_text()), "maxIterations": 200, "topK": 3}),
               json.dumps({"id": "rec", "record": record.to_dict(), "analyzeTurns": [turn], "maxIterations": 200,
                           "numbering": "actions"}),
               json.dumps({"id": "bad", "record": record.to_dict(), "analyzeTurns": [len(record.actions) + 1],
                           "numbering": "actions"})]
    run = cli("analyze", stdin=lines(*queries))
    assert run.returncode == 0, run.stderr
    answers = {r["id"]: r for r in map(json.loads, run.stdout.splitlines())}
    assert len(answers["pos"]["moveInfos"]) == 3 and answers["pos"]["rootInfo"]["iterations"] == 200
    assert answers["rec"]["actionNumber"] == turn and answers["rec"]["moveInfos"]
    assert answers["bad"]["field"] == "analyzeTurns[0]"
