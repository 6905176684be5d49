"""How fast the table page draws its first view, cold, in Debian's chromium (issue 16, point 12:
under 200 KB over the wire, nothing from another origin, the first view within 300 ms).

A real ``sevenstud serve`` on loopback (SQLite), a table of bots to watch; each run is a fresh
browser context (nothing cached), timed by the page's own clock: the first view is the moment
the seats are drawn from the server's view message, the first paint chromium's own. Prints each
run and the median; run it on a quiet machine (a test run shares its cores, so the suite only
guards against a page grown many times slower: tests/web/test_table_feel.py).

    python benchmarks/table_page_speed.py [--loads 9] [--breakdown]

``--breakdown`` prints where the time of the last load went: each file's request, first byte
and last byte, the socket's creation and open, its first messages, the DOM ready, the first
paint and the first view (all ms from the navigation, by the page's clock).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' harness: tests/spawn.py
from tests.spawn import running

LIFTED = [f"--limit={n}=100000" for n in ("guests_per_address", "tables_per_account", "tables_per_address")]
DRAWN = """new MutationObserver((_, o) => {
  if (document.querySelector('#felt .seat')) { window.__drawn = performance.now(); o.disconnect(); }
}).observe(document, {subtree: true, childList: true});"""
TIMELINE = """
window.__t = {};
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    window.__t.socket = performance.now();
    this.addEventListener("open", () => { window.__t.open = performance.now(); });
    this.addEventListener("message", (m) => {
      const seen = (window.__t.messages ||= []);
      if (seen.length < 5) seen.push([performance.now(), JSON.parse(m.data).type]);
    });
  }
};
document.addEventListener("DOMContentLoaded", () => { window.__t.ready = performance.now(); });"""
FILES = """() => [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]
  .map(e => [e.name.replace(location.origin, ''), e.startTime, e.responseStart, e.responseEnd,
              e.transferSize])"""
BYTES = """() => [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]
  .reduce((n, e) => n + e.transferSize, 0)"""


def main(argv: list[str] | None = None) -> int:
    """The command line: see the module."""
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--loads", type=int, default=9, help="cold loads to time")
    parser.add_argument("--breakdown", action="store_true", help="where the last load's time went")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("SEVENSTUD_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    with tempfile.TemporaryDirectory() as folder, running(
        f"sqlite:///{Path(folder) / 'page.sqlite3'}", pause=1.5, args=tuple(LIFTED)
    ) as served, sync_playwright() as playwright:
        with httpx.Client(base_url=served.base) as client:
            client.post("/api/guest").raise_for_status()
            table = client.post("/api/tables", json={"seats": 3, "bots": 2}).json()["id"]
        browser = playwright.chromium.launch(
            executable_path=chromium, headless=True, args=["--disable-dev-shm-usage"]
        )
        drawn, painted, sizes = [], [], []
        for _ in range(args.loads):
            context = browser.new_context(viewport={"width": 1280, "height": 720})
            page = context.new_page()
            page.add_init_script(DRAWN)
            if args.breakdown:
                page.add_init_script(TIMELINE)
            page.goto(f"{served.base}/table/{table}?watch=1")
            page.wait_for_function("() => window.__drawn !== undefined", timeout=30_000)
            page.wait_for_load_state("networkidle")
            drawn.append(page.evaluate("window.__drawn"))
            painted.append(page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime"))
            sizes.append(page.evaluate(BYTES))
            if args.breakdown:
                timeline = (page.evaluate("window.__t"), page.evaluate(FILES))
            context.close()
        browser.close()
    for what, times in (("first view", drawn), ("first paint", painted)):
        print(f"{what} (ms): {', '.join(f'{x:.0f}' for x in times)}; median {statistics.median(times):.0f}")
    print(f"over the wire: {min(sizes):,}-{max(sizes):,} bytes; load average {os.getloadavg()[0]:.1f}")
    if args.breakdown:
        _print_breakdown(*timeline, painted[-1], drawn[-1])
    return 0


def _print_breakdown(marks: dict[str, Any], files: list[list[Any]], painted: float, drawn: float) -> None:
    """The last load's timeline, in the order things happened."""
    print("the last load (ms from the navigation): asked, first byte, last byte, bytes")
    for name, asked, first, last, size in files:
        print(f"  {asked:5.0f} {first:5.0f} {last:5.0f} {size:7,}  {name}")
    events = [(marks.get("socket"), "socket made"), (marks.get("open"), "socket open")]
    events += [(at, f"message {kind}") for at, kind in marks.get("messages", [])]
    events += [(marks.get("ready"), "DOM ready"), (painted, "first paint"), (drawn, "first view")]
    for at, what in sorted((e for e in events if e[0] is not None), key=lambda e: e[0]):
        print(f"  {at:5.0f} {what}")


if __name__ == "__main__":
    sys.exit(main())
