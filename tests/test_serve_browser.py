"""The web board in a real browser: Playwright driving the system's Chromium, headless.

Skipped (with the reason) when Playwright or Chromium is missing, unless
``SPLENDOR_MCTS_REQUIRE_BROWSER=1`` (``.ci/run`` sets it): then they fail. One browser and
one board for the whole module; each test its own page. Each player's path (set up, load,
new game, moves, undo, follow, review, Duel) runs in a 1000 px and a 1400 px wide window and
checks what the player SEES: an element displayed and inside the window's width (the hint
in view when asked), never just present in the page; and no path ever makes the page wider
than its window (checked after every test, and where a path is most crowded).

The board's elements are checked in the page, not against pixel goldens. The screenshots
(``board-*.png``, shown by docs/board.md) go to a temporary folder, or to
``$SPLENDOR_MCTS_SCREENSHOTS``: ``SPLENDOR_MCTS_SCREENSHOTS=docs`` remakes the committed ones
(only then are files under docs/ written).
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = next((path for path in (os.environ.get("SPLENDOR_MCTS_CHROMIUM"), "/usr/bin/chromium",
                                   shutil.which("chromium"), shutil.which("chromium-browser")) if path and os.path.exists(path)),
                None)
REQUIRED = os.environ.get("SPLENDOR_MCTS_REQUIRE_BROWSER") == "1"


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        return f"{exc.name} is not installed (pip install \".[test]\")"
    if CHROMIUM is None:
        return "no Chromium found (apt-get install chromium, or set SPLENDOR_MCTS_CHROMIUM)"
    return None


@pytest.fixture(scope="module")
def browser():
    reason = _missing()
    if reason:
        if REQUIRED:
            pytest.fail(f"SPLENDOR_MCTS_REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                              args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def board_url(browser):
    from board_server import running_board
    from splendor_mcts.serve.settings import ServeSettings

    with running_board(ServeSettings(threads=1, max_search_seconds=20)) as (url, _app):
        yield url


WIDE, NARROW = 1400, 1000  # a wide screen, and a laptop's window
HEIGHT = 900
both_widths = pytest.mark.parametrize("page", [NARROW, WIDE], indirect=True, ids=["1000px", "1400px"])


@pytest.fixture()
def page(browser, board_url, request):
    """A new page of the board in a window ``request.param`` px wide (default 1400). After
    the test: no errors on the page, and nothing wider than the window."""
    width = getattr(request, "param", WIDE)
    context = browser.new_context(viewport={"width": width, "height": HEIGHT}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(10000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(board_url)
    page.wait_for_selector("body[data-ready=true]")
    yield page
    try:
        fits(page)
    finally:
        context.close()
    assert errors == [], f"errors on the page: {errors}"


def fits(page) -> None:
    """The page is no wider than its window: nothing to scroll sideways."""
    wide, window = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert wide <= window, f"the page is {wide} px wide in a {window} px window"


def shown(page, selector: str, in_view: bool = False) -> None:
    """``selector``'s first element is seen: displayed (not in a hidden panel), inside the
    window's width, and with ``in_view`` its top inside the window as it is scrolled."""
    element = page.locator(selector).first
    assert element.is_visible(), f"{selector} is not visible"
    box = element.bounding_box()  # in the window's coordinates
    width, height = page.evaluate("[innerWidth, innerHeight]")
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, f"{selector} is outside the window's width: {box}"
    if in_view:
        assert 0 <= box["y"] < height, f"{selector} is not in view (top at {box['y']:.0f} px, the window {height} px high)"


def hidden(page, selector: str) -> None:
    assert page.locator(selector).count() == 0 or not page.locator(selector).first.is_visible(), f"{selector} is shown"


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = os.environ.get("SPLENDOR_MCTS_SCREENSHOTS")
    return Path(folder) if folder else tmp_path_factory.mktemp("screenshots")


def screenshot(page, shots: Path, name: str, whole_page: bool = False) -> Path:
    """A screenshot of the board (or of the window), kept small: 64 colours."""
    from PIL import Image

    path = shots / f"board-{name}.png"
    page.wait_for_load_state("networkidle")  # a board being fetched (a hint's marked turn) would replace it mid-shot
    if whole_page:
        page.screenshot(path=str(path))
    else:
        page.locator("#board svg").screenshot(path=str(path))
    with Image.open(path) as image:
        assert image.width > 600 and len(image.convert("RGB").getcolors(1 << 24)) > 20  # a picture, not a blank
        image.convert("RGB").quantize(64).save(path, optimize=True)
    return path


def board_ids(page) -> set[str]:
    return set(page.eval_on_selector_all("#board svg [id]", "els => els.map(e => e.id)"))


def ask_hint(page, seconds: float) -> None:
    """Hint (or Continue) for ``seconds``, waited for to its end."""
    page.fill("#hint-seconds", str(seconds))
    page.click("#hint-start")
    page.wait_for_function("(() => { const head = document.querySelector('#hint-head').textContent;"
                           " return document.querySelector('#hint-stop').disabled && head && !head.includes('thinking'); })()",
                           timeout=seconds * 1000 + 20000)


def load(page, text: str, kind: str = "position", mode: str = "analyze") -> str:
    """The Load tab's text loaded as a position or a record; the id of the session made."""
    page.click("#tab-load")
    page.fill("#load-text", text)
    page.select_option("#load-mode", mode)
    with page.expect_response(f"**/api/sessions/{kind}") as answer:
        page.click(f"#load-{kind}")
    page.wait_for_selector("#play-bar:not([hidden])")
    return answer.value.json()["id"]


# The outlines (`.mark` rectangles) of a board picture, as one string to compare.
MARKS = "(root) => [...root.querySelectorAll('.mark')].map((r) => ['x', 'y', 'width', 'height']" \
        ".map((a) => r.getAttribute(a)).join(' ')).sort().join('|')"

# The outlines the server draws for a turn (its action ids, "12,40") in session `id`'s position.
OUTLINE_OF = f"""async ([id, actions]) => {{
  const svg = await (await fetch(`/api/sessions/${{id}}/board.svg?actions=${{actions}}`)).text();
  return ({MARKS})(new DOMParser().parseFromString(svg, 'image/svg+xml'));
}}"""


def outline_shown(page) -> str:
    return page.eval_on_selector("#board svg", MARKS)


def outline_of(page, session: str, actions: str) -> str:
    return page.evaluate(OUTLINE_OF, [session, actions])


def test_set_up_a_3_player_position_by_clicking_then_hint(page, shots):
    page.click("#tab-setup")
    page.select_option("#setup-players", "3")
    page.click("#setup-new")
    page.wait_for_selector("#board svg #seat-2")
    # Replace the first level-1 card: click it on the board, pick a card in the picker.
    before = page.get_attribute("#board svg #card-1\\.1", "data-card")
    page.click("#board svg #card-1\\.1")
    page.wait_for_selector("#picker[open] .pick")
    choice = page.eval_on_selector_all("#picker-items .pick", "els => els.map(e => e.dataset.id)")
    new = next(c for c in choice if c != before and page.locator(f"#board svg [data-card='{c}']").count() == 0)
    page.click(f"#picker-items .pick[data-id='{new}']")
    page.wait_for_function(f"document.querySelector('#board svg #card-1\\\\.1').dataset.card === '{new}'")
    # Tokens by stepper: seat 2 holds two white and a blue.
    for kind in ("white", "white", "blue"):
        page.click(f"#step-1-{kind}")
        page.wait_for_timeout(50)
    page.wait_for_function("document.querySelector('#board svg #seat-1-token-white text').textContent === '2'")
    # A bought card for seat 3 (any level-1 card still unseen), and a blind reserve for seat 2.
    page.click("#add-cards-2")
    page.wait_for_selector("#picker[open] .pick")
    page.fill("#picker-filter", "0pt")
    free = [c for c in page.eval_on_selector_all("#picker-items .pick", "els => els.map(e => e.dataset.id)")
            if page.locator(f"#board svg [data-card='{c}']").count() == 0]
    page.click(f"#picker-items .pick[data-id='{free[0]}']")
    page.wait_for_function("document.querySelector('#board svg #seat-2-bonus-white') !== null")
    page.click("#setup-seat-1 button:has-text('+ blind 2')")
    page.wait_for_selector("#board svg #seat-1-reserved-1")
    # Seat 2's bought cards as the table shows them, by colour: two green cards worth 1 point
    # (the server draws which ones and infers the decks).
    for button in ("#bought-1-green-cards", "#bought-1-green-cards", "#bought-1-green-points"):
        page.click(button)
        page.wait_for_timeout(50)
    page.wait_for_function("document.querySelector('#board svg #seat-1-bonus-green text').textContent === '2'")
    assert "1 point" in page.eval_on_selector("#board svg #seat-1", "g => g.textContent")
    assert page.get_attribute("#setup-problems", "data-count") == "0"
    ids = board_ids(page)
    assert {"seat-0", "seat-1", "seat-2", "deck-1", "bank-gold", "card-3.4"} <= ids
    assert len([i for i in ids if i.startswith("noble-")]) == 4
    screenshot(page, shots, "setup")
    # Analyze it: the live hint.
    page.select_option("#setup-observer", "0")
    page.click("#setup-analyze")
    page.wait_for_selector("#play-bar:not([hidden])")
    page.fill("#hint-seconds", "2")
    page.click("#hint-start")
    page.wait_for_selector("#hint-turns li .bar .interval")
    page.wait_for_function("document.querySelector('#hint-start').textContent === 'Continue'", timeout=10000)
    assert int(page.get_attribute("#hint-head", "data-updates")) >= 5
    shown(page, "#hint-turns li", in_view=True)
    assert "%" in page.inner_text("#hint-turns li")
    assert page.locator("#board svg .mark").count() >= 1
    shown(page, "#hint-plan")  # the final report's plan of the best turn, in words
    best = page.inner_text("#hint-turns li .turn-label")
    assert page.inner_text("#hint-plan").startswith(f"Plan: {best}")
    screenshot(page, shots, "hint", whole_page=True)


def test_play_against_the_engine_with_an_undo(page, shots):
    page.select_option("#new-game-name", "splendor")
    page.select_option("#new-players", "2")
    page.select_option("#strength", "100")
    page.click("#new-start")
    page.wait_for_selector("#board svg #seat-1")
    for turn in range(3):
        page.wait_for_function("document.querySelectorAll('#legal-moves option').length > 0")
        first = page.eval_on_selector("#legal-moves", "s => s.options[0].value")
        page.select_option("#legal-moves", first)
        page.click("#legal-play")
        page.wait_for_function(f"document.querySelectorAll('#history li.engine').length >= {turn + 1}")
    assert page.locator("#history li.user").count() == 3
    page.click("#undo")
    page.wait_for_function("document.querySelectorAll('#history li.user').length === 2")
    assert page.locator("#history li.engine").count() == 2
    assert "undid" in page.inner_text("#message")
    # A move typed by clicking the board: a level-1 card proposes its buy, an illegal one is refused with the reason.
    page.click("#board svg #card-3\\.1")
    assert page.input_value("#move-input") == "buy 3.1"
    page.click("#move-play")
    page.wait_for_selector("#message.error")
    assert "buy 3.1: " in page.inner_text("#message")
    page.click("#board svg #deck-2")  # each game's reserve from a deck, as its registry entry words it
    assert page.input_value("#move-input") == "reserve deck 2"
    screenshot(page, shots, "play")
    # Exports: the board as SVG and PNG (drawn on a canvas in the page), the position, the record.
    for button, name, start in (("#export-svg", "board.svg", b"<svg"), ("#export-png", "board.png", b"\x89PNG"),
                                ("#export-position", "position.json", b"{"), ("#export-record", "record.json", b"{")):
        with page.expect_download() as download:
            page.click(button)
        assert download.value.suggested_filename == name
        assert Path(download.value.path()).read_bytes().startswith(start)


def test_a_click_on_a_duel_deck_types_its_reserve(page):
    page.select_option("#new-game-name", "duel")
    page.select_option("#strength", "100")
    page.click("#new-start")
    page.wait_for_selector("#board svg #deck-1")
    page.wait_for_function("document.querySelectorAll('#legal-moves option').length > 0")
    page.click("#board svg #deck-3")
    assert page.input_value("#move-input") == "reserve deck3 gold "


@both_widths
def test_follow_two_reveals(page):
    load(page, (ROOT / "examples" / "splendor-3p-view.json").read_text(), mode="follow")
    for seat, move, reveal in ((2, "reserve 1.1", True), (0, "take WGR", False), (1, "reserve 1.2", True)):
        page.wait_for_function(f"document.querySelector('#status').textContent.includes('seat {seat + 1} to move')")
        page.fill("#move-input", move)
        page.click("#move-play")
        if not reveal:
            continue
        page.wait_for_selector("#reveal-box:not([hidden])")
        shown(page, "#reveal-pick")
        assert page.input_value("#move-input") == ""  # the move played is gone from the box
        page.click("#reveal-pick")
        page.wait_for_selector("#picker[open] .pick")
        free = [c for c in page.eval_on_selector_all("#picker-items .pick", "els => els.map(e => e.dataset.id)")
                if page.locator(f"#board svg [data-card='{c}']").count() == 0]
        page.click(f"#picker-items .pick[data-id='{free[0]}']")
        page.wait_for_selector("#reveal-box[hidden]", state="attached")
        slot = move.split()[1].replace(".", "\\.")
        assert page.get_attribute(f"#board svg #card-{slot}", "data-card") == free[0]
    assert page.locator("#history li.user").count() == 5  # three moves and two reveals


@both_widths
def test_review_a_long_record_with_its_graph(page, shots):
    import splendor_mcts as sm
    from splendor_mcts.play.random_game import random_record

    record = random_record(sm.load_game("splendor", players=2), seed=3)
    load(page, record.to_json(), kind="record")
    # Issue 50, defect 5: a long record's history scrolled sideways (two CSS columns cut at a
    # height overflow to the right); it wraps down and scrolls down.
    moves = page.locator("#history li").count()
    assert moves > 100
    shown(page, "#history")
    wide, box, high, tall = page.eval_on_selector("#history", "h => [h.scrollWidth, h.clientWidth, h.scrollHeight, h.clientHeight]")
    assert wide <= box and high > tall, (wide, box, high, tall)
    fits(page)
    page.click("#tab-review")
    page.fill("#review-iterations", "300")  # a few seconds: long enough to see its progress
    page.click("#review-start")
    # "reviewing turn i of n" with a progress bar while it runs (one check: it ends soon after).
    page.wait_for_function("(() => { const p = document.querySelector('#review-progress');"
                           " return p && p.querySelector('progress') && p.textContent.includes('reviewing turn'); })()")
    page.wait_for_selector("#review-graph svg circle.point", timeout=60000)
    rows = page.locator("#review-table tbody tr").count()
    assert rows == page.locator("#review-graph svg circle.point").count() > 10
    assert page.locator("#review-graph svg polyline.seat-line").count() == 2
    shown(page, "#review-graph svg")
    shown(page, "#review-table")
    # A row shows the board before its decision with the best turn outlined; then back to the game.
    page.locator("#review-table tbody tr").nth(4).click()
    page.wait_for_selector("#board svg .mark")
    assert page.get_attribute("#board svg .mark", "stroke")
    shown(page, "#show-current")
    if page.viewport_size["width"] == WIDE:
        screenshot(page, shots, "review", whole_page=True)
    page.click("#show-current")
    page.wait_for_selector("#viewing-box", state="hidden")
    assert page.locator("#board svg .mark").count() == 0
    assert page.locator("#review-table tbody tr").count() == rows  # the review is still of this game
    fits(page)


def test_set_up_a_duel_position_by_clicking(page, shots):
    page.click("#tab-setup")
    page.select_option("#setup-game", "duel")
    assert page.input_value("#setup-players") == "2"
    page.click("#setup-new")
    page.wait_for_selector("#board svg #token-board")
    before = page.get_attribute("#board svg #cell-c3", "data-kind")
    page.click("#board svg #cell-c3")  # the next kind, or a problem named by its path if the counts no longer add up
    page.wait_for_function(f"""document.querySelector('#board svg #cell-c3').dataset.kind !== {before!r}
                               || document.querySelector('#setup-problems').dataset.count !== '0'""")
    page.click("#step-1-privileges")
    page.wait_for_function("document.querySelector('#setup-problems').dataset.count !== undefined")
    ids = board_ids(page)
    assert {"card-3.3", "card-1.5", "royal-1", "privilege-supply", "seat-1-token-pearl"} <= ids
    assert len([i for i in ids if i.startswith("cell-")]) == 25
    screenshot(page, shots, "duel")


def pick_free(page, words: str, joker: bool = False) -> str:
    """In the open card picker: a card matching ``words`` that is neither on the board nor
    listed in the setup's seats, picked."""
    page.wait_for_selector("#picker[open] .pick")
    page.fill("#picker-filter", words)
    listed = page.eval_on_selector_all("#picker-items .pick", "els => els.map(e => [e.dataset.id, e.title])")
    held = page.inner_text("#setup-seats").replace("×", " ").split()
    card = next(c for c, title in listed if title.startswith("joker") == joker and f"#{c}" not in held
                and page.locator(f"#board svg [data-card='{c}']").count() == 0)
    page.click(f"#picker-items .pick[data-id='{card}']")
    return card


def test_duel_royals_and_a_jokers_colour_by_clicking(page, shots):
    page.click("#tab-setup")
    page.select_option("#setup-game", "duel")
    page.click("#setup-new")
    page.wait_for_selector("#board svg #token-board")
    # Seat 1 bought three cards with a crown each: three crowns earn a royal.
    picked = []
    for n in range(3):
        page.click("#add-cards-0")
        picked.append(pick_free(page, "1cr"))
        page.wait_for_function(f"document.querySelectorAll('#setup-seat-0 .chip').length === {n + 1}")
    page.wait_for_function("document.querySelector('#setup-problems').textContent.includes('royal')")
    # A click on a royal of the board gives it to seat 1 (the next click would pass it to seat 2).
    page.click("#board svg #royal-1")
    page.wait_for_selector("#board svg #seat-0 #royal-1")
    page.wait_for_function("document.querySelector('#setup-problems').dataset.count === '0'")
    assert "royal 1" in page.inner_text("#royals-0")
    # A joker bought joins the colour of a card seat 1 has; its button shows the next colour.
    page.click("#add-cards-0")
    pick_free(page, "joker", joker=True)
    page.wait_for_selector("#joker-0-3")
    first = page.inner_text("#joker-0-3")
    assert first in ("white", "blue", "green", "red", "black")
    page.wait_for_function("document.querySelector('#setup-problems').dataset.count === '0'")
    before = int(page.eval_on_selector(f"#board svg #seat-0-bonus-{first} text", "t => t.textContent"))
    page.click("#joker-0-3")
    page.wait_for_function(f"document.querySelector('#joker-0-3').textContent !== {first!r}")
    page.wait_for_function(f"Number(document.querySelector('#board svg #seat-0-bonus-{first} text').textContent)"
                           f" === {before - 1} || document.querySelector('#setup-problems').textContent.includes('joker')")
    screenshot(page, shots, "duel-setup", whole_page=True)


@both_widths
def test_a_new_game_drops_the_set_up_positions_hint_and_the_move_typed(page):
    """Set up, then hint; a new game, two moves, an undo, a hint again. Issue 50, defect 1:
    the new game kept the set-up position's hint, through its later moves; defect 5: the move
    box kept the last game's text."""
    page.click("#tab-setup")
    page.select_option("#setup-players", "2")
    page.click("#setup-new")
    page.wait_for_selector("#board svg #seat-1")
    page.wait_for_selector("#setup-problems[data-count='0']", state="attached")
    page.click("#setup-analyze")
    page.wait_for_selector("#play-bar:not([hidden])")
    ask_hint(page, 1)
    shown(page, "#hint-turns li", in_view=True)
    page.fill("#move-input", "buy 1.1")
    page.click("#tab-game")
    page.select_option("#new-game-name", "splendor")
    page.select_option("#new-players", "3")
    page.select_option("#new-mode", "analyze")
    page.click("#new-start")
    page.wait_for_selector("#board svg #seat-2")
    hidden(page, "#hint-turns li")
    hidden(page, "#hint-head")
    hidden(page, "#hint-plan")  # the old position's plan goes with its hint
    assert page.input_value("#move-input") == ""
    assert page.inner_text("#hint-start") == "Hint"
    for n in (1, 2):
        page.wait_for_function("document.querySelectorAll('#legal-moves option').length > 0")
        page.click("#legal-play")
        page.wait_for_function(f"document.querySelectorAll('#history li').length === {n}")
        hidden(page, "#hint-turns li")
    page.click("#undo")
    page.wait_for_function("document.querySelectorAll('#history li').length === 1")
    shown(page, "#history li")
    ask_hint(page, 1)
    shown(page, "#hint-turns li", in_view=True)
    assert "seat 2" in page.inner_text("#hint-head")  # the position after the undo: seat 2 to move


@both_widths
def test_a_hint_asked_on_the_load_tab_is_shown_there(page, shots):
    """Issue 50, defect 2: after Load position, Hint searched but its list was on the hidden
    Game tab. And at 1000 px the panels wrap under the board instead of off the window."""
    load(page, (ROOT / "examples" / "splendor-win-now-view.json").read_text())
    ask_hint(page, 1)
    shown(page, "#hint-turns li .turn-label", in_view=True)
    assert "wins now" in page.inner_text("#hint-turns li")
    assert page.locator("#board svg .mark").count() >= 1
    shown(page, "#panel-load")
    fits(page)
    if page.viewport_size["width"] == NARROW:
        screenshot(page, shots, "narrow", whole_page=True)
    page.click("#tab-review")  # and from another tab
    ask_hint(page, 1)
    shown(page, "#hint-turns li .turn-label", in_view=True)


@both_widths
def test_a_duel_hint_reads_in_order_and_its_turns_are_outlined_and_played(page):
    """Issue 50, defect 5: the line after a turn read out of order (boxes of each seat's turn
    side by side, bottom-aligned, wrapping) with cards too small to read a cost."""
    session = load(page, (ROOT / "examples" / "duel-view.json").read_text())
    page.click("#tab-game")
    ask_hint(page, 2)
    shown(page, "#hint-turns li", in_view=True)
    for turn in range(page.locator("#hint-turns > li").count()):
        rows = page.locator(f"#hint-turns > li:nth-child({turn + 1}) .pv > *")
        boxes = [rows.nth(i).bounding_box() for i in range(rows.count())]
        seats = [rows.nth(i).inner_text().split(":")[0] for i in range(rows.count())]
        # One seat's turn per line, each below the one before: it reads in the order played.
        for above, below in zip(boxes, boxes[1:]):
            assert below["y"] >= above["y"] + above["height"] - 1, (turn, boxes)
        assert all(seat.startswith("seat ") for seat in seats) and all(a != b for a, b in zip(seats, seats[1:])), seats
    cards = page.locator("#hint-turns .pv svg")
    assert cards.count() > 0
    for i in range(cards.count()):
        assert cards.nth(i).bounding_box()["width"] >= 64  # the card's cost legible
    shown(page, "#hint-turns .pv > *")
    # A click outlines that turn (and it stays outlined); a double-click plays its first move.
    second = page.locator("#hint-turns > li:nth-child(2) .turn-label")
    second.click()
    expected = outline_of(page, session, page.get_attribute("#hint-turns > li:nth-child(2)", "data-actions"))
    page.wait_for_function(f"({MARKS})(document.querySelector('#board svg')) === {expected!r}")
    second.dblclick()
    page.wait_for_function("document.querySelectorAll('#history li').length === 1")
    hidden(page, "#hint-turns li")
    assert page.locator("#board svg .mark").count() == 0


# A hint of session `id` searched for half a second: its last report (the events read to the end).
LAST_REPORT = """async (id) => {
  const text = await (await fetch(`/api/sessions/${id}/hint?seconds=0.5`)).text();
  const events = text.split('\\n\\n').filter((e) => e.startsWith('data: '));
  return JSON.parse(events[events.length - 1].slice(6));
}"""


def test_the_outline_on_the_board_keeps_up_with_the_hints_list(page):
    """Issue 50, defect 5: while the search ran, the board kept outlining the first update's
    best turn when the list showed another as best. The page is sent a search's updates in
    which the best turn changes (a real report of the position, then its two best turns
    swapped), so what it outlines does not hang on how a search goes."""
    session = load(page, (ROOT / "examples" / "splendor-3p-view.json").read_text())
    report = page.evaluate(LAST_REPORT, session)
    first = {**report, "final": False}
    turns = report["turns"]
    second = {**first, "turns": [turns[1], turns[0], *turns[2:]]}
    stream = "".join(f"data: {json.dumps(update)}\n\n" for update in (first, second))  # and the search still runs
    page.route("**/hint?*", lambda route: route.fulfill(status=200, content_type="text/event-stream", body=stream))
    page.click("#hint-start")
    page.wait_for_function(f"document.querySelector('#hint-turns > li .turn-label')?.textContent === {turns[1]['label']!r}")
    page.wait_for_load_state("networkidle")  # the board asked for
    was_best, best = (outline_of(page, session, ",".join(map(str, turn["actions"]))) for turn in turns[:2])
    assert best != was_best
    assert outline_shown(page) == best, "the board does not outline the best turn listed"


def test_the_set_up_table_has_the_board_only_while_its_tab_is_open(page):
    """The board shows one position, and the controls, the hint and its outline are of it: the
    table being set up while its tab is open, the game's again when it is left."""
    load(page, (ROOT / "examples" / "splendor-win-now-view.json").read_text())
    ask_hint(page, 1)
    page.click("#tab-setup")
    page.select_option("#setup-players", "2")
    page.click("#setup-new")
    page.wait_for_function("document.querySelector('#board svg #seat-1').textContent.includes('0 points')")
    hidden(page, "#play-bar")
    hidden(page, "#hint-turns li")
    page.click("#tab-game")
    page.wait_for_function("document.querySelector('#board svg #seat-1').textContent.includes('14 points')")
    shown(page, "#hint-start")
    assert page.locator("#board svg .mark").count() == 0  # the hint went with the position it was of
