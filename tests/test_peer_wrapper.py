"""The peer wrapper's translation (tools/peer: docs/peer-alphazero.md) without the peer installed:
cards and nobles matched one to one, the board layout read back, hidden cards never shown,
the legal-move mask over random games, and the wrapper playing whole games legally."""
from __future__ import annotations

import io
import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

import peer_stand_in as stand_in
import translate as tr
from splendor_mcts import load_game

RECORDED = Path(__file__).parent / "data" / "peer_valid_actions.json"
GAMES = {n: load_game(f"splendor(players={n})") for n in (2, 3, 4)}


def catalogue(players: int = 2, **kwargs: Any) -> tr.Catalogue:
    game = GAMES[players]
    t = stand_in.tables(game, **kwargs)
    return tr.Catalogue.match(game.cards(), game.nobles(), t["cards"], t["nobles"])


def random_positions(players: int, games: int, seed: int) -> list[tuple[Any, dict[str, Any], int]]:
    """(state, its JSON, turns played) at every main-phase decision of random games."""
    game, rng, found = GAMES[players], random.Random(seed), []
    for _ in range(games):
        state, turns = game.new_initial_state(seed=rng.randrange(2**32)), 0
        while not state.is_terminal():
            position = json.loads(state.to_json())
            if position["phase"] == "main":
                found.append((state.clone(), position, turns))
                turns += 1
            state.apply_action(rng.choice(state.legal_actions()))
    return found


# ---------------------------------------------------------------------------- cards and nobles
def test_every_card_and_noble_is_matched_to_the_peers_one_to_one() -> None:
    game = GAMES[2]
    matched = catalogue()
    assert len(matched.cards) == 90 and len(set(matched.cards.values())) == 90
    assert len(matched.nobles) == 10 and len(set(matched.nobles.values())) == 10
    for card in game.cards():
        peer = matched.cards[card["id"]]
        assert peer.level == card["level"]
        assert list(peer.cost_row[:5]) == [card["cost"][c] for c in tr.COLOURS]
        assert peer.gain_row[tr.COLOURS.index(card["bonus"])] == 1 and peer.gain_row[6] == card["points"]
    for noble in game.nobles():
        assert list(matched.nobles[noble["id"]][:5]) == [noble["requirement"][c] for c in tr.COLOURS]


@pytest.mark.parametrize("damage", ["duplicate", "missing", "points", "noble"])
def test_a_table_that_is_not_a_bijection_is_refused(damage: str) -> None:
    game = GAMES[2]
    t = stand_in.tables(game)
    if damage == "duplicate":
        t["cards"][0][0][1] = t["cards"][0][0][0]
    elif damage == "missing":
        t["cards"][2][3].pop()
    elif damage == "points":
        t["cards"][1][2][0][1][6] += 1
    else:
        t["nobles"][0] = list(t["nobles"][1])
    with pytest.raises(ValueError, match="peer|ours|match"):
        tr.Catalogue.match(game.cards(), game.nobles(), t["cards"], t["nobles"])


# ---------------------------------------------------------------------------- positions
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_board_reads_back_as_the_position_seen_from_the_mover(players: int) -> None:
    matched = catalogue(players, shift=3)
    by_rows = {(c.cost_row, c.gain_row): card_id for card_id, c in matched.cards.items()}
    noble_rows = {row: noble for noble, row in matched.nobles.items()}
    for state, position, turns in random_positions(players, 2, seed=players)[::5]:
        seat = state.current_player()
        assert turns % players == seat  # turns: of every player, so far
        rows, capped = tr.encode(position, seat, turns, matched)
        assert len(rows) == tr.board_rows(players) and all(-128 <= v <= 127 for r in rows for v in r)
        board = stand_in.Board(rows, players)
        assert (board.round(), capped) == tr.round_number(turns, seat, players)
        assert board.round() % players == seat
        assert board.bank == [position["bank"][c] for c in (*tr.COLOURS, "gold")]
        for level in range(3):
            for slot in range(4):
                cost, gain = board.table(level, slot)
                expected = position["table"][level][slot]
                assert by_rows.get((tuple(cost), tuple(gain))) == expected
            counts, bits = board.deck(level)
            deck = {card_id for card_id, c in matched.cards.items() if bits[c.group] & (128 >> c.index)
                    and c.level == level + 1}
            assert deck == set(position["decks"][level]) and sum(counts) == len(deck)
        slots = sorted([*position["nobles"], *(x for p in position["players"] for x in p["nobles"])])
        assert [noble_rows.get(tuple(r)) for r in board.nobles()] == [x if x in position["nobles"] else None
                                                                      for x in slots]
        for k in range(players):  # the mover first, then the others in seat order
            player = position["players"][(seat + k) % players]
            assert board.tokens(k) == [player["tokens"][c] for c in (*tr.COLOURS, "gold")]
            assert {noble_rows[tuple(r)] for r in board.owned_nobles(k) if any(r)} == set(player["nobles"])
            bought = board.bought(k)
            assert bought[:5] == [player["bonuses"][c] for c in tr.COLOURS]
            assert bought[6] == sum(next(c["points"] for c in GAMES[players].cards() if c["id"] == i)
                                    for i in player["cards"])
            held = [by_rows.get((tuple(cost), tuple(gain))) for cost, gain in board.reserved(k) if any(cost)]
            assert held == [r["card"] for r in player["reserved"]]


def test_a_game_longer_than_the_peers_is_shown_as_its_last_round() -> None:
    assert tr.round_number(40, 1, 2) == (40, False)
    assert tr.round_number(123, 1, 2) == (123, False)   # its last turn: 62 turns a player
    assert tr.round_number(130, 0, 2) == (122, True)    # same seat, never a finished game
    assert tr.round_number(200, 2, 3) == (185, True)
    state, position, _ = random_positions(2, 1, seed=9)[0]
    rows, capped = tr.encode(position, 0, 300, catalogue())
    assert capped and rows[0][6] == tr.int8(122)


def test_the_peer_sees_only_what_the_seat_sees() -> None:
    """Two deals that differ only in cards seat 1 cannot see (seat 0's blind reserve and the
    deck order) give seat 1's wrapper the same board."""
    game = GAMES[2]
    state = game.new_initial_state(seed=11)
    for move in ("take WUG", "take WRK", "reserve deck 2"):
        state.apply_action(state.string_to_action(move))
    full = json.loads(state.to_json())
    hidden = full["players"][0]["reserved"][0]["card"]
    other = json.loads(state.to_json())
    swap = other["decks"][1][0]  # the bottom card of level 2 takes the blind reserve's place
    other["decks"][1][0], other["players"][0]["reserved"][0]["card"] = hidden, swap
    other["decks"][2].reverse()
    twin = game.state_from_json(json.dumps(other))
    view = state.observation_json(1)
    assert twin.observation_json(1) == view and swap != hidden
    boards = []
    for s in (state, twin):
        _, position = tr.seat_position(game, s.observation_json(1), seed=5)
        boards.append(tr.encode(position, 1, 3, catalogue())[0])
    assert boards[0] == boards[1]
    # ... and the blind reserve it is shown is one seat 1 has not seen, of its level.
    _, position = tr.seat_position(game, view, seed=5)
    shown = position["players"][0]["reserved"][0]["card"]
    seen = {c for row in full["table"] for c in row if c} | {r["card"] for r in full["players"][1]["reserved"]}
    assert shown not in seen and next(c for c in game.cards() if c["id"] == shown)["level"] == 2


# ---------------------------------------------------------------------------- the mask
def _effect(before: dict[str, Any], after: dict[str, Any], seat: int) -> tuple[Any, ...]:
    """What a turn did for the mover: its tokens after, the card it bought, the card (or the
    level of the deck) it reserved."""
    old, new = before["players"][seat], after["players"][seat]
    bought = set(new["cards"]) - set(old["cards"])
    reserved = [r for r in new["reserved"] if r not in old["reserved"]]
    card_level = {c["id"]: c["level"] for c in GAMES[len(before["players"])].cards()}
    reserve: Any = None
    if reserved:
        r = reserved[0]
        reserve = ("deck", card_level[r["card"]]) if r.get("blind") else r["card"]
    return (tuple(new["tokens"][c] for c in (*tr.COLOURS, "gold")), tuple(sorted(bought)), reserve)


def _peer_effect(action: int, position: dict[str, Any], seat: int) -> tuple[Any, ...] | None:
    """The same for a peer action, by its documented rules (None: a give-back, no turn of ours)."""
    player = position["players"][seat]
    tokens = [player["tokens"][c] for c in (*tr.COLOURS, "gold")]
    if tr.GIVE_BACK <= action < tr.PASS:
        return None
    if tr.TAKE <= action < tr.GIVE_BACK or action == tr.PASS:
        return (tuple(tr.expected_tokens(action, tokens, position["bank"]["gold"]) or ()), (), None)
    gold = int(position["bank"]["gold"] > 0 and sum(tokens) <= 9)
    if action < tr.RESERVE:
        level, slot = divmod(action, 4)
        card = position["table"][level][slot]
        return ("buy", card) if card is not None else None
    if action < tr.BUY_RESERVED:
        target: Any = (("deck", action - tr.RESERVE_DECK + 1) if action >= tr.RESERVE_DECK
                       else position["table"][(action - tr.RESERVE) // 4][(action - tr.RESERVE) % 4])
        return (tuple([*tokens[:5], tokens[5] + gold]), (), target)
    held = player["reserved"]
    return ("buy", held[action - tr.BUY_RESERVED]["card"]) if action - tr.BUY_RESERVED < len(held) else None


def _our_turns(state: Any, seat: int) -> list[tuple[dict[str, Any], list[str]]]:
    """Every whole turn of ours (a main decision and each multiset of returns after it)."""
    turns = []
    for action in state.legal_actions():
        first = state.clone()
        first.apply_action(action)
        frontier = [(first, [state.action_to_string(action)])]
        while frontier:
            probe, moves = frontier.pop()
            position = json.loads(probe.to_json())
            if position["phase"] != "return_tokens" or position["to_move"] != seat:
                turns.append((position, moves))
                continue
            last = moves[-1] if moves[-1].startswith("return") else ""
            for ret in probe.legal_actions():
                text = probe.action_to_string(ret)
                if text >= last:  # returns in order: each multiset once
                    nxt = probe.clone()
                    nxt.apply_action(ret)
                    frontier.append((nxt, [*moves, text]))
    return turns


def _comparable(effect: tuple[Any, ...]) -> tuple[Any, ...]:
    return ("buy", effect[1][0]) if effect[1] else effect


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_peer_is_offered_exactly_the_legal_turns_it_can_express(players: int) -> None:
    """Over random games: every action offered is valid for the peer and its plan is a legal
    turn of ours doing what the peer's rules say; every peer-valid action that some legal turn
    of ours does is offered. Give-backs are never offered."""
    matched = catalogue(players)
    positions = random_positions(players, 2, seed=100 + players)

    def held(entry: tuple[Any, dict[str, Any], int]) -> int:
        return sum(entry[1]["players"][entry[0].current_player()]["tokens"].values())

    # Mostly positions at 8 tokens or more, where takes need returns; a few others.
    chosen = [e for e in positions if held(e) >= 8][::2][:16] + [e for e in positions if held(e) < 8][::9][:6]
    checked = mapped = 0
    for state, position, turns in chosen:
        seat = state.current_player()
        offered = tr.plans(state, position, 10)
        rows, _ = tr.encode(position, seat, turns, matched)
        valid = stand_in.valid_actions(rows, players)
        ours = {}
        for after, moves in _our_turns(state, seat):
            ours.setdefault(_comparable(_effect(position, after, seat)), moves)
        for action in range(tr.ACTIONS):
            effect = _peer_effect(action, position, seat)
            expressible = valid[action] and effect is not None and effect in ours
            assert (action in offered) == bool(expressible), (action, effect, position)
            if action in offered:
                probe = state.clone()
                for move in offered[action].moves:
                    probe.apply_action(probe.string_to_action(move))  # raises when not legal
                assert _comparable(_effect(position, json.loads(probe.to_json()), seat)) == effect
                mapped += offered[action].mapped is not None
        checked += 1
    assert checked >= 16 and mapped > 0


def test_recorded_answers_of_the_real_peer_agree_with_the_stand_in() -> None:
    """tests/data/peer_valid_actions.json: the real peer's valid actions on boards the wrapper
    made (tools/peer/record_valid.py); the stand-in's rules must give the same on each."""
    recorded = json.loads(RECORDED.read_text())["positions"]
    assert {r["players"] for r in recorded} == {2, 3, 4} and len(recorded) >= 90
    near_limit = 0
    for record in recorded:
        assert stand_in.valid_actions(record["board"], record["players"]) == [int(v) for v in record["valid"]]
        near_limit += sum(stand_in.Board(record["board"], record["players"]).tokens(0)) >= 8
    assert near_limit >= 10


# ---------------------------------------------------------------------------- the wrapper
def _engine(game: Any, seed: int) -> tuple[Any, io.StringIO, Any]:
    import peer_engine

    peer = stand_in.StandInPeer(game, seed)
    out = io.StringIO()
    return peer_engine.PeerEngine(peer, io.StringIO(), out, None), out, peer


def _ask(engine: Any, out: io.StringIO, view: str) -> str:
    engine.handle("position", f"view {view}")
    engine.handle("go", "")
    if engine._thinking is not None:
        engine._thinking.join()
    last = out.getvalue().strip().splitlines()[-1]
    assert last.startswith("bestmove "), out.getvalue()[-500:]
    return last[len("bestmove "):]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_wrapper_plays_whole_random_games_legally(players: int) -> None:
    """The wrapper, around the stand-in peer, in seat 0 of games against random moves: every
    move it sends is legal; the returns of a mapped take come from its plan, never a fallback."""
    game = GAMES[players]
    engine, out, peer = _engine(game, seed=players)
    totals: dict[str, int] = {"searches": 0, "follow_ups": 0, "fallbacks": 0, "offered_not_valid": 0}
    rng = random.Random(players)
    for deal in range(3):
        engine.handle("newgame", game.spec)
        state = game.new_initial_state(seed=deal)
        while not state.is_terminal():
            if state.current_player() == 0:
                move = _ask(engine, out, state.observation_json(0))
                action = state.string_to_action(move)
                assert state.is_legal(action), (move, state.why_illegal(action))
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        for key in totals:
            totals[key] += getattr(engine.stats, key)
    assert totals["searches"] > 40 and totals["fallbacks"] == 0 and totals["offered_not_valid"] == 0
    assert "info string error" not in out.getvalue()
    think = [r for r in peer.requests if r["op"] == "think"]
    assert all(r["simulations"] == 800 for r in think)


def test_the_wrapper_refuses_what_it_cannot_do_with_a_clear_error() -> None:
    game = GAMES[2]
    engine, out, _ = _engine(game, seed=0)
    engine.handle("newgame", "splendor(points_to_win=18)")
    engine.handle("newgame", "duel")
    engine.handle("go", "")
    engine.handle("newgame", "splendor")
    engine.handle("position", "startpos")
    engine.handle("position", f"view {game.new_initial_state(seed=1).observation_json(0)}")
    engine.handle("go", "movetime 500")
    engine.handle("setoption", "name simulations value 0")
    lines = out.getvalue().splitlines()
    assert [line.split(":")[0] for line in lines if line.startswith("info string error")] == [
        "info string error newgame", "info string error newgame", "info string error go",
        "info string error position", "info string error go", "info string error setoption"]
    assert "published rules" in lines[0] and "takes no time limit" in out.getvalue()
    assert lines.count("bestmove (none)") == 2
    engine.handle("setoption", "name simulations value 3200")
    assert _ask(engine, out, game.new_initial_state(seed=1).observation_json(0)).startswith(("take", "reserve"))
    assert engine.peer.requests[-1]["simulations"] == 3200


def test_take_sets_are_the_peers_order() -> None:
    """Its list: every set of 1, then of 2, then of 3 colours, in combinations order."""
    assert tr.TAKE_SETS[:5] == tuple((c,) for c in range(5))
    assert tr.TAKE_SETS[5] == (0, 1) and tr.TAKE_SETS[14] == (3, 4)
    assert tr.TAKE_SETS[15:] == tuple(itertools.combinations(range(5), 3))


def _at(tokens: dict[str, int]) -> tuple[Any, dict[str, Any]]:
    """A 2-player opening with seat 0 holding ``tokens`` (taken from the bank)."""
    game = GAMES[2]
    position = json.loads(game.new_initial_state(seed=4).to_json())
    for colour, count in tokens.items():
        position["players"][0]["tokens"][colour] = count
        position["bank"][colour] -= count
    state = game.state_from_json(json.dumps(position))
    return state, json.loads(state.to_json())


def test_turns_the_peer_plays_differently_are_mapped_to_the_same_turn_of_ours() -> None:
    # 10 tokens: a reserve gives back the gold it took (the peer takes none); a pass is a take
    # returned whole (our pass is not legal while other moves are); no take is offered.
    state, position = _at({"white": 2, "blue": 2, "green": 2, "red": 2, "black": 2})
    offered = tr.plans(state, position, 10)
    assert offered[tr.RESERVE].moves == ("reserve 1.1", "return Y") and offered[tr.RESERVE].mapped
    assert offered[tr.RESERVE_DECK + 2].moves == ("reserve deck 3", "return Y")
    assert offered[tr.PASS].moves == ("take WUG", "return W", "return U", "return G")
    assert not any(tr.TAKE <= a < tr.GIVE_BACK for a in offered)
    assert not any(tr.GIVE_BACK <= a < tr.PASS for a in offered)
    # 9 tokens: a take of one colour is a take of three and two returns; two colours are not
    # offered (they would end at 11); a take of two of one colour neither.
    state, position = _at({"white": 1, "blue": 2, "green": 2, "red": 2, "black": 2})
    offered = tr.plans(state, position, 10)
    assert offered[tr.TAKE + 3].moves == ("take WUR", "return W", "return U")  # take R
    assert {a for a in offered if tr.TAKE <= a < tr.GIVE_BACK} == set(range(tr.TAKE, tr.TAKE + 5))
    assert tr.PASS not in offered and offered[tr.RESERVE].moves == ("reserve 1.1",)
    # 7 tokens: takes of three as they are; fewer colours are not legal turns of ours.
    state, position = _at({"white": 1, "blue": 2, "green": 2, "red": 2})
    offered = tr.plans(state, position, 10)
    assert offered[tr.TAKE + 15].moves == ("take WUG",) and offered[tr.TAKE + 15].mapped is None
    assert not any(tr.TAKE <= a < tr.TAKE + 15 for a in offered)


def test_without_the_peer_set_up_the_scripts_say_what_is_missing(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    import peer_engine
    import setup_peer

    assert peer_engine.main(["--checkout", str(tmp_path)]) == 2
    assert "set up the peer first (tools/peer/setup_peer.py" in capsys.readouterr().err
    assert setup_peer.main([str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "not a checkout of alpha-zero-general" in err and "splendor/pretrained_2players.pt" in err
    assert setup_peer.main([str(tmp_path / "nowhere")]) == 2
    assert "is not a directory" in capsys.readouterr().err
