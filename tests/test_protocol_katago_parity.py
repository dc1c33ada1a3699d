"""KataGo parity of ``splendor-mcts analyze`` (issue 12 item 5), through the real command:
``moves`` played on from a position (each bad one named with the rules' reason), a
terminated search answering what it found, one error per bad position of ``analyzeTurns``
while the others are answered, turns numbered as players count them (and the first
numbering by actions), unknown fields answered with a warning."""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from splendor_positions import Position, dealt_record

import splendor_mcts as sm
from splendor_mcts.games.positions import read_position

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
VIEW = json.loads((EXAMPLES / "splendor-2p-view.json").read_text())  # seat 1 to move


def run_engine(*queries: dict, args: tuple[str, ...] = ()) -> list[dict]:
    run = subprocess.run([sys.executable, "-m", "splendor_mcts.cli", "analyze", *args],
                         input="".join(json.dumps(q) + "\n" for q in queries), capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return [json.loads(line) for line in run.stdout.splitlines()]


def of(answers: list[dict], query_id: str) -> list[dict]:
    return [a for a in answers if a["id"] == query_id]


def test_moves_are_played_from_the_position_before_the_analysis():
    """Notation and action ids alike; the answer is that of the position the moves reach."""
    state = read_position(json.dumps(VIEW)).state
    moves = ["take WUR", state.clone().string_to_action("take WUR")]
    reached = state.clone()
    reached.apply_action(reached.string_to_action("take WUR"))
    moves[1] = reached.string_to_action("take UK")
    reached.apply_action(moves[1])
    direct = sm.analyze(reached, iterations=300, threads=1, seed=5, top_k=3, analysis_moves=3).to_dict()  # as the protocol
    [answer] = run_engine({"id": "m", "position": VIEW, "moves": moves, "maxIterations": 300, "seed": 5, "topK": 3})
    assert answer["turnNumber"] == 2 and answer["actionNumber"] == 2
    assert [m["move"] for m in answer["moveInfos"]] == [m["move"] for m in direct["moveInfos"]]
    assert [m["visits"] for m in answer["moveInfos"]] == [m["visits"] for m in direct["moveInfos"]]


def test_each_bad_move_is_named_with_its_reason():
    answers = run_engine(
        {"id": "illegal", "position": VIEW, "moves": ["take WUR", "take UK", "buy 1.1"]},
        {"id": "unread", "position": VIEW, "moves": ["byu 1.1"]},
        {"id": "range", "position": VIEW, "moves": [9999]},
        {"id": "type", "position": VIEW, "moves": [["take", "WUR"]]},
        {"id": "list", "position": VIEW, "moves": "take WUR"},
        {"id": "v", "action": "query_version"})  # the engine reads on
    [illegal] = of(answers, "illegal")
    assert illegal["field"] == "moves[2]"
    reason = read_position(json.dumps(VIEW)).state
    for move in ("take WUR", "take UK"):
        reason.apply_action(reason.string_to_action(move))
    why = reason.why_illegal(reason.string_to_action("buy 1.1"))
    assert why and illegal["error"] == f"the last position is not reached: moves[2]: buy 1.1 is not legal here: {why}"
    [unread] = of(answers, "unread")
    assert unread["field"] == "moves[0]" and "cannot read move 'byu 1.1'" in unread["error"]
    assert of(answers, "range") == [{"id": "range", "field": "moves[0]",
                                     "error": "the last position is not reached: moves[0]: action 9999 is outside 0..176"}]
    assert of(answers, "type")[0]["field"] == "moves[0]"
    assert "a move is a string in the game's notation or an action id" in of(answers, "type")[0]["error"]
    assert of(answers, "list")[0]["field"] == "moves"
    assert of(answers, "v")[0]["version"] == 1


def test_the_reason_a_buy_is_refused_reaches_the_answer():
    position = Position().on_table(2, 4, 43).tokens(0, red=1)  # white 2pt R5, one red token
    [answer] = run_engine({"id": "b", "position": json.loads(position.text()), "moves": ["buy 2.4"]})
    assert answer["error"].endswith("moves[0]: buy 2.4 is not legal here: needs 4 more red "
                                    "(you have 1 red token, 0 red bonuses, 0 gold)")


def test_a_turn_is_every_decision_of_one_seat_and_reveals_are_aside():
    """Seat 0 takes to 13 tokens and returns three (one turn of four decisions), seat 1 then
    plays turn 1; the first numbering counts every action."""
    position = json.loads(Position().tokens(0, white=3, blue=3, green=3, black=1).text())
    moves = ["take WUG", "return W", "return U", "return G", "take WUG"]
    common = {"position": position, "moves": moves, "maxIterations": 50}
    answers = run_engine({"id": "turns", "analyzeTurns": [0, 1, 2, 3], **common},
                         {"id": "actions", "analyzeTurns": [1, 4], "numbering": "actions", **common})
    turns = {a.get("turnNumber"): a for a in of(answers, "turns")}
    assert turns[0]["actionNumber"] == 0 and turns[1]["actionNumber"] == 4 and turns[2]["actionNumber"] == 5
    assert turns[3] == {"id": "turns", "turnNumber": 3, "field": "analyzeTurns[3]",
                        "error": "turn 3 is outside the game's 0..2"}
    assert turns[0]["moveInfos"] and turns[1]["moveInfos"] and turns[2]["moveInfos"]
    assert sorted((a["actionNumber"], a["turnNumber"]) for a in of(answers, "actions")) == [(1, 0), (4, 1)]
    returning = next(a for a in of(answers, "actions") if a["actionNumber"] == 1)
    assert all(m["move"].startswith("return") for m in returning["moveInfos"])
    # A record deals the table as chance actions first: turn 0 is the first decision after them.
    record = dealt_record(3, "take WUG")
    actions = record["actions"]
    dealt = len(actions) - 1
    answers = run_engine({"id": "r", "record": record, "analyzeTurns": [0, 1], "maxIterations": 50},
                         {"id": "c", "record": record, "analyzeTurns": [0], "numbering": "actions"},
                         {"id": "rm", "record": record, "moves": ["take URK"], "maxIterations": 50})
    assert sorted((a["turnNumber"], a["actionNumber"]) for a in of(answers, "r")) == [(0, dealt), (1, dealt + 1)]
    [after] = of(answers, "rm")  # moves go on after the record's actions
    assert (after["turnNumber"], after["actionNumber"]) == (2, dealt + 2) and after["moveInfos"]
    [chance] = of(answers, "c")
    assert chance["field"] == "analyzeTurns[0]" and chance["actionNumber"] == 0
    assert chance["error"].startswith("action number 0: the position waits for a chance outcome")


def test_a_record_with_recorded_reveals_takes_its_reveals_as_moves():
    record = dealt_record(3)
    state = sm.load_game("splendor").new_initial_state(seed=3, explicit_chance=True)
    for action in record["actions"]:
        state.apply_action(action)
    state.apply_action(state.string_to_action("reserve 1.1"))
    reveal = state.action_to_string(state.legal_actions()[0])  # the refill of slot 1.1
    answers = run_engine({"id": "ok", "record": record, "moves": ["reserve 1.1", reveal], "maxIterations": 30},
                         {"id": "no", "record": record, "moves": ["reserve 1.1", "take WUG"], "maxIterations": 30})
    [ok] = of(answers, "ok")
    assert (ok["turnNumber"], ok["actionNumber"]) == (1, len(record["actions"]) + 2) and ok["moveInfos"]
    assert of(answers, "no") == [{"id": "no", "field": "moves[1]", "error": "the last position is not reached: "
                                  "moves[1]: take WUG is not legal here: a card must be revealed first"}]


def test_a_duel_turn_holds_its_privilege_and_its_action():
    duel = json.loads((EXAMPLES / "duel-view.json").read_text())
    moves = ["privilege a1", "take a2 a3"]
    answers = run_engine({"id": "d", "position": duel, "moves": moves, "analyzeTurns": [0, 1], "maxIterations": 50},
                         {"id": "a", "position": duel, "moves": moves, "analyzeTurns": [1], "numbering": "actions",
                          "maxIterations": 50})
    assert sorted((a["turnNumber"], a["actionNumber"]) for a in of(answers, "d")) == [(0, 0), (1, 2)]
    [inside] = of(answers, "a")
    assert (inside["turnNumber"], inside["actionNumber"]) == (0, 1)
    [first] = [a for a in of(answers, "d") if a["turnNumber"] == 0]  # answers of one query come in any order
    assert inside["rootInfo"]["currentPlayer"] == first["rootInfo"]["currentPlayer"]


def test_analyze_turns_answers_each_bad_turn_on_its_own_and_the_others():
    # Seat 1 takes (turn 0), seat 0 reserves (turn 1), seat 1 reserves and holds 11 tokens
    # (turn 2): its "take GG" is refused, so turn 3 is never reached.
    moves = ["take WUR", "reserve 1.1", "reserve 2.1", "take GG"]
    answers = run_engine({"id": "q", "position": VIEW, "moves": moves, "analyzeTurns": [1, 7, 3, -1, 1, 0, 2],
                          "maxIterations": 60})
    by_turn = {a["turnNumber"]: a for a in answers}
    assert len(answers) == 6  # turn 1 asked twice, answered once
    for turn in (0, 1, 2):
        assert by_turn[turn]["moveInfos"] and by_turn[turn]["actionNumber"] == turn
    reason = "moves[3]: take GG is not legal here: return tokens first (you hold 11 tokens, the limit is 10)"
    for turn in (3, 7):
        assert by_turn[turn] == {"id": "q", "turnNumber": turn, "field": "moves[3]",
                                 "error": f"turn {turn} is not reached: {reason}"}
    assert by_turn[-1] == {"id": "q", "turnNumber": -1, "field": "analyzeTurns[3]",
                           "error": "turn -1 is outside the game's 0..2"}


def test_a_finished_game_is_an_error_of_its_turn_only():
    game = sm.load_game("splendor")
    state = game.new_initial_state(seed=7, explicit_chance=True)
    actions = []
    while not state.is_terminal():
        actions.append(state.dealt_outcome() if state.is_chance_node() else state.heuristic_action(len(actions)))
        state.apply_action(actions[-1])
    record = {"format": "splendor-mcts-record/1", "game": game.spec, "seed": 7, "explicit_chance": True,
              "seats": ["a", "b"], "actions": actions, "result": state.returns(), "termination": "normal"}
    answers = run_engine({"id": "end", "record": record, "maxIterations": 30},
                         {"id": "two", "record": record, "analyzeTurns": [2, 10_000], "maxIterations": 30})
    [end] = of(answers, "end")
    assert end["error"] == "the game is over: there is no move to analyze" and end["field"] == "record"
    assert end["actionNumber"] == len(actions)
    last_turn = end["turnNumber"]
    two = {a["turnNumber"]: a for a in of(answers, "two")}
    assert two[2]["moveInfos"]
    assert two[10_000]["error"] == f"turn 10000 is outside the game's 0..{last_turn}"


def test_unknown_fields_are_warned_and_ignored_wrong_values_stay_errors():
    """As KataGo: a warning and an error are separate answers, the warning first."""
    answers = run_engine({"id": "w", "position": VIEW, "maxIterations": 50, "colour": "red", "komi": 7.5},
                         {"id": "e", "position": VIEW, "maxIterations": -1, "colour": "red"},
                         {"id": "n", "position": VIEW, "numbering": "moves"},
                         {"id": "a", "action": "query_version", "verbose": True})
    w = of(answers, "w")
    assert [a.get("field") for a in w[:2]] == ["colour", "komi"] and all("warning" in a for a in w[:2])
    assert "unknown field 'komi' is ignored" in w[1]["warning"] and w[2]["moveInfos"] and "error" not in w[2]
    e = of(answers, "e")
    assert [("warning" in a, "error" in a, a["field"]) for a in e] == [(True, False, "colour"),
                                                                      (False, True, "maxIterations")]
    assert of(answers, "n") == [{"id": "n", "field": "numbering",
                                 "error": "numbering must be one of 'turns', 'actions', got 'moves'"}]
    a = of(answers, "a")
    assert a[0]["field"] == "verbose" and "warning" in a[0] and a[1]["version"] == 1


def test_terminate_answers_what_the_search_found_and_a_queued_query_has_no_results():
    queries = [{"id": "long", "position": VIEW, "maxTime": 60, "topK": 3, "reportDuringSearchEvery": 0.5},
               {"id": "queued", "position": VIEW, "maxTime": 60}]
    with subprocess.Popen([sys.executable, "-m", "splendor_mcts.cli", "analyze", "--workers", "1"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as run:
        assert run.stdin and run.stdout
        for q in queries:
            run.stdin.write(json.dumps(q) + "\n")
        run.stdin.flush()
        assert json.loads(run.stdout.readline())["isDuringSearch"]  # the search of "long" has begun
        for target in ("queued", "long"):
            run.stdin.write(json.dumps({"id": f"t-{target}", "action": "terminate", "terminateId": target}) + "\n")
        run.stdin.close()
        out = [json.loads(line) for line in run.stdout]
        assert run.wait(timeout=60) == 0
    [long] = [a for a in of(out, "long") if not a["isDuringSearch"]]
    assert long["terminated"] is True and long["isDuringSearch"] is False
    assert long["rootInfo"]["visits"] > 0 and long["rootInfo"]["interrupted"] is True
    assert len(long["moveInfos"]) == 3 and sum(m["visits"] for m in long["moveInfos"]) > 0
    assert of(out, "queued") == [{"id": "queued", "isDuringSearch": False, "turnNumber": 0, "actionNumber": 0,
                                  "terminated": True, "noResults": True}]
    assert of(out, "t-long") == [{"id": "t-long", "action": "terminate", "terminateId": "long", "stopped": 1}]


def test_terminate_by_turn_numbers_stops_those_turns_only():
    moves = ["take WUR", "take UK"]
    query = {"id": "q", "position": VIEW, "moves": moves, "analyzeTurns": [0, 1, 2], "maxTime": 60,
             "reportDuringSearchEvery": 0.2}
    with subprocess.Popen([sys.executable, "-m", "splendor_mcts.cli", "analyze", "--workers", "3"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as run:
        assert run.stdin and run.stdout
        run.stdin.write(json.dumps(query) + "\n")
        run.stdin.flush()
        searching: set[int] = set()
        while searching != {0, 1, 2}:  # every turn's search has begun
            searching.add(json.loads(run.stdout.readline())["turnNumber"])
        run.stdin.write(json.dumps({"id": "t", "action": "terminate", "terminateId": "q", "turnNumbers": [0, 2]}) + "\n")
        run.stdin.flush()
        time.sleep(1.0)
        run.stdin.write(json.dumps({"id": "t2", "action": "terminate", "terminateId": "q"}) + "\n")
        run.stdin.close()
        out = [json.loads(line) for line in run.stdout]
        assert run.wait(timeout=60) == 0
    assert of(out, "t")[0]["stopped"] == 2 and of(out, "t2")[0]["stopped"] == 1
    final = [a for a in of(out, "q") if not a["isDuringSearch"]]
    assert sorted(a["turnNumber"] for a in final) == [0, 1, 2]
    assert all(a["terminated"] and a["moveInfos"] for a in final)
    stopped_first = {a["turnNumber"] for a in final if out.index(a) < out.index(of(out, "t2")[0])}
    assert stopped_first == {0, 2}
