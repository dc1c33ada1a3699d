"""Latency of the web board (``splendor-mcts serve``) measured in the browser.

Starts ``splendor-mcts serve`` on a free port, drives the system's Chromium with Playwright
(headless) and times, inside the page (``performance.now()``):

* page usable: from the start of navigation to the page being ready (its games loaded,
  every control wired);
* first hint update: from clicking Hint to the first live report shown;
* a move applied: from clicking Play to the new board drawn; and where its time goes: the
  server's handling (its ``Server-Timing``), the rest of the request (network, the server's
  queue, reading the answer), and the page drawing it.

    python bench/board_latency.py [--runs 10] [--chromium /usr/bin/chromium] [--settle MS]

Prints the median and the worst of each, in milliseconds (the move's parts at its worst run).
"""
from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "splendor-3p-view.json"

UNTIL_HINT = """() => new Promise((resolve) => {
  const head = document.querySelector('#hint-head');
  const t0 = performance.now();
  const watch = new MutationObserver(() => {
    if (head.dataset.updates) { watch.disconnect(); resolve(performance.now() - t0); }
  });
  watch.observe(head, { attributes: true });
  document.querySelector('#hint-start').click();
})"""

# A move's time in three parts: the server's handling (its Server-Timing header), the rest of
# the request (the network, the server's queue, the answer read) and the page drawing it.
UNTIL_BOARD = """() => new Promise((resolve) => {
  const board = document.querySelector('#board');
  performance.clearResourceTimings();
  const t0 = performance.now();
  const watch = new MutationObserver(() => {
    watch.disconnect();
    const total = performance.now() - t0;
    const entry = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/move'));
    const server = entry && entry.serverTiming.length ? entry.serverTiming[0].duration : NaN;
    const fetched = entry ? entry.responseEnd - t0 : NaN;
    resolve({ total, server, request: fetched - server, page: total - fetched });
  });
  watch.observe(board, { childList: true });
  document.querySelector('#legal-play').click();
})"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(url: str, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            urllib.request.urlopen(url + "api/games", timeout=1).read()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--chromium", default="/usr/bin/chromium")
    p.add_argument("--settle", type=float, default=0, metavar="MS",
                   help="wait this long between stopping the hint and the move (default 0: at once)")
    args = p.parse_args()
    from playwright.sync_api import sync_playwright

    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    server = subprocess.Popen([sys.executable, "-m", "splendor_mcts.cli", "serve", "--port", str(port)],
                              stderr=subprocess.DEVNULL)
    usable, hint, move = [], [], []
    try:
        wait_for(url)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=args.chromium, headless=True,
                                                 args=["--no-sandbox", "--disable-gpu"])
            for _ in range(args.runs):
                page = browser.new_context(viewport={"width": 1440, "height": 1000}).new_page()
                page.goto(url)
                page.wait_for_selector("body[data-ready=true]")
                usable.append(page.evaluate("performance.now()"))  # navigation started at 0
                page.click("#tab-load")
                page.fill("#load-text", EXAMPLE.read_text())
                page.click("#load-position")
                page.wait_for_selector("#play-bar:not([hidden])")
                page.fill("#hint-seconds", "1")
                hint.append(page.evaluate(UNTIL_HINT))
                # Stop the hint if it still runs (a click could land on the panel as it grows).
                page.evaluate("() => { const stop = document.querySelector('#hint-stop'); if (!stop.disabled) stop.click(); }")
                page.wait_for_function("document.querySelectorAll('#legal-moves option').length > 0")
                page.wait_for_timeout(args.settle)
                move.append(page.evaluate(UNTIL_BOARD))
                page.context.close()
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    totals = [m["total"] for m in move]
    report = {name: {"median_ms": round(statistics.median(values), 1), "max_ms": round(max(values), 1)}
              for name, values in (("page usable", usable), ("first hint update", hint), ("move applied", totals))}
    report["move applied"]["parts_ms"] = {part: {"median": round(statistics.median(m[part] for m in move), 1),
                                                 "at_worst": round(max(move, key=lambda m: m["total"])[part], 1)}
                                          for part in ("server", "request", "page")}
    print(json.dumps({"runs": args.runs, **report}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
