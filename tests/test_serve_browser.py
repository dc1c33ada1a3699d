"""The web board in a real browser: Playwright driving the system's Chromium, headless.

Skipped (with the reason) when Playwright or Chromium is missing, unless
``SPLENDOR_MCTS_REQUIRE_BROWSER=1`` (``.ci/run`` sets it): then they fail. One browser for
the whole module; each test its own page. The board's elements are checked in the page,
not against pixel goldens; the screenshots (``board-*.png``, shown by docs/board.md) go to
a temporary folder, or to ``$SPLENDOR_MCTS_SCREENSHOTS`` (``docs`` remakes the committed ones).
"""
from __future__ import annotations

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


@pytest.fixture()
def page(browser, board_url):
    context = browser.new_context(viewport={"width": 1440, "height": 1000}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(10000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(board_url)
    page.wait_for_selector("body[data-ready=true]")
    yield page
    context.close()
    assert errors == [], f"errors on the page: {errors}"


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = os.environ.get("SPLENDOR_MCTS_SCREENSHOTS")
    return Path(folder) if folder else tmp_path_factory.mktemp("screenshots")


def screenshot(page, shots: Path, name: str, whole_page: bool = False) -> Path:
    """A screenshot of the board (or the page's top), kept small: 64 colours."""
    from PIL import Image

    path = shots / f"board-{name}.png"
    page.wait_for_load_state("networkidle")  # a board being fetched (a hint's marked turn) would replace it mid-shot
    if whole_page:
        page.screenshot(path=str(path), clip={"x": 0, "y": 0, "width": 1440, "height": 760})
    else:
        page.locator("#board svg").screenshot(path=str(path))
    with Image.open(path) as image:
        assert image.width > 600 and len(image.convert("RGB").getcolors(1 << 24)) > 20  # a picture, not a blank
        image.convert("RGB").quantize(64).save(path, optimize=True)
    return path


def board_ids(page) -> set[str]:
    return set(page.eval_on_selector_all("#board svg [id]", "els => els.map(e => e.id)"))


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
    assert "%" in page.inner_text("#hint-turns li .value")
    assert page.locator("#board svg .mark").count() >= 1
    screenshot(page, shots, "hint")


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
    screenshot(page, shots, "play")
    # Exports: the board as SVG and PNG (drawn on a canvas in the page), the position, the record.
    for button, name, start in (("#export-svg", "board.svg", b"<svg"), ("#export-png", "board.png", b"\x89PNG"),
                                ("#export-position", "position.json", b"{"), ("#export-record", "record.json", b"{")):
        with page.expect_download() as download:
            page.click(button)
        assert download.value.suggested_filename == name
        assert Path(download.value.path()).read_bytes().startswith(start)


def test_follow_two_reveals(page):
    page.click("#tab-load")
    page.fill("#load-text", (ROOT / "examples" / "splendor-3p-view.json").read_text())
    page.select_option("#load-mode", "follow")
    page.click("#load-position")
    page.wait_for_selector("#play-bar:not([hidden])")
    for seat, move, reveal in ((2, "reserve 1.1", True), (0, "take WGR", False), (1, "reserve 1.2", True)):
        page.wait_for_function(f"document.querySelector('#status').textContent.includes('seat {seat + 1} to move')")
        page.fill("#move-input", move)
        page.click("#move-play")
        if not reveal:
            continue
        page.wait_for_selector("#reveal-box:not([hidden])")
        page.click("#reveal-pick")
        page.wait_for_selector("#picker[open] .pick")
        free = [c for c in page.eval_on_selector_all("#picker-items .pick", "els => els.map(e => e.dataset.id)")
                if page.locator(f"#board svg [data-card='{c}']").count() == 0]
        page.click(f"#picker-items .pick[data-id='{free[0]}']")
        page.wait_for_selector("#reveal-box[hidden]", state="attached")
        slot = move.split()[1].replace(".", "\\.")
        assert page.get_attribute(f"#board svg #card-{slot}", "data-card") == free[0]
    assert page.locator("#history li.user").count() == 5  # three moves and two reveals


def test_review_a_record_with_its_graph(page, shots):
    import splendor_mcts as sm
    from splendor_mcts.play.random_game import random_record

    record = random_record(sm.load_game("splendor", players=2), seed=3)
    page.click("#tab-load")
    page.fill("#load-text", record.to_json())
    page.click("#load-record")
    page.wait_for_selector("#play-bar:not([hidden])")
    page.click("#tab-review")
    page.fill("#review-iterations", "300")  # a few seconds: long enough to see its progress
    page.click("#review-start")
    # "reviewing decision i of n" with a progress bar while it runs (one check: it ends soon after).
    page.wait_for_function("(() => { const p = document.querySelector('#review-progress');"
                           " return p && p.querySelector('progress') && p.textContent.includes('reviewing decision'); })()")
    page.wait_for_selector("#review-graph svg circle.point", timeout=60000)
    rows = page.locator("#review-table tbody tr").count()
    assert rows == page.locator("#review-graph svg circle.point").count() > 10
    assert page.locator("#review-graph svg polyline.seat-line").count() == 2
    page.locator("#review-table tbody tr").nth(4).click()
    page.wait_for_selector("#board svg .mark")
    assert page.get_attribute("#board svg .mark", "stroke")
    screenshot(page, shots, "review", whole_page=True)


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
