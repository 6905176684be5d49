"""The table as a player feels it (issue 16), in Debian's chromium: your cards, the bet you
face and the action bar in view at phone, laptop and desktop sizes, with the seats round a
table (no seat over another, over the bar or under the chips in front of it); bots that take a
person's time, each action shown at its seat; the page small, from the card room alone, drawn
fast; the lobby's recent hands newest first, names never broken; no error in any page's
console (no 401 signed out, no missing icon); a hand played by clicking to a showdown with a
split pot, photographed at the four sizes in the four languages
(test-artifacts/table-split-<lang>-WxH.png).

Every expected value comes from the card room (its `view` messages, its events), never written
here."""

from __future__ import annotations

import json
import re
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from tests.spawn import running
from tests.web.conftest import LIFTED

TIMEOUT = 20_000
SIZES = [(360, 640), (390, 844), (1280, 720), (1366, 660)]
"""The phone, the tall phone, the laptop and the short desktop the issue names."""
PREFERRED = ("check", "call", "bring-in", "complete", "bet", "raise", "fold")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A card room whose bots act at once (--bot-think 0, the tests' setting) and whose
    showdown stays on show 4 s, long enough to photograph it at four sizes."""
    folder = tmp_path_factory.mktemp("feel")
    with running(f"sqlite:///{folder / 'c.sqlite3'}", pause=4.0, args=LIFTED) as served:
        yield served.base


class Frames:
    """The websocket frames a page received, decoded, with when each came (monotonic s)."""

    def __init__(self, page: Any) -> None:
        self.received: list[tuple[float, dict[str, Any]]] = []
        page.on("websocket", lambda socket: socket.on("framereceived", self._keep))

    def _keep(self, payload: Any) -> None:
        text = payload if isinstance(payload, str) else bytes(payload).decode()
        self.received.append((time.monotonic(), json.loads(text)))

    def views(self) -> list[dict[str, Any]]:
        return [m for _, m in self.received if m.get("type") == "view"]

    def events(self) -> list[tuple[float, dict[str, Any]]]:
        return [(t, m["event"]) for t, m in self.received if m.get("type") == "event"]

    def entries(self) -> list[dict[str, Any]]:
        """The ``event`` messages whole (their ``at`` is the server's time of the event)."""
        return [m for _, m in self.received if m.get("type") == "event"]


def _open(
    context: Any, server: str, seats: int, bots: int, bot: str = "rule"
) -> tuple[Any, Frames, list[str]]:
    """A guest at a new table of `seats` with `bots` bots of kind `bot`, sat down by the lobby's
    Play-now address; the page, its frames and what its console said in error."""
    page = context.new_page()
    said: list[str] = []
    page.on("console", lambda m: said.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: said.append(str(e)))
    frames = Frames(page)
    assert page.request.post(f"{server}/api/guest").ok
    made = page.request.post(
        f"{server}/api/tables",
        data={
            "name": "feel",
            "game": "stud8",
            "stakes": [1, 2, 5, 10],
            "seats": seats,
            "bots": bots,
            "bot": bot,
        },
    )
    assert made.ok, made.text()
    page.goto(f"{server}/table/{made.json()['id']}?sit=1")
    expect(page.locator(".seat.you")).to_have_count(1, timeout=TIMEOUT)
    return page, frames, said


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not drawn"
    return dict(box)


def _inside(box: dict[str, float], width: int, height: int) -> bool:
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= width + 0.5
        and box["y"] + box["height"] <= height + 0.5
    )


def _meet(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def _boxes(page: Any, selector: str) -> dict[str, dict[str, float]]:
    found = page.locator(selector).evaluate_all(
        """ns => ns.map(n => { const r = n.getBoundingClientRect();
            return [n.dataset.testid, {x: r.x, y: r.y, width: r.width, height: r.height}]; })"""
    )
    return {name: box for name, box in found}


def _wait_for_turn_facing_a_bet(page: Any, frames: Frames) -> dict[str, Any]:
    """Plays (check or call first) until it is this seat's turn with a bet to call; the view."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        page.wait_for_selector("[data-testid=actions] button:not([disabled])", timeout=60_000)
        view = frames.views()[-1]
        if view["actions"] and any(a["kind"] == "call" for a in view["actions"]):
            return view
        _click(page)
    raise AssertionError("never faced a bet")


def _click(page: Any) -> str:
    bar = page.get_by_test_id("actions")
    for kind in PREFERRED:
        button = bar.locator(f"[data-testid=act-{kind}]:not([disabled])")
        if button.count():
            button.click()
            return kind
    raise AssertionError("no action button to click")


@pytest.mark.parametrize(("width", "height"), [pytest.param(w, h, id=f"{w}x{h}") for w, h in SIZES])
@pytest.mark.alone
def test_your_cards_the_bet_you_face_and_the_bar_are_in_view_round_a_table(
    browser: Any, server: str, width: int, height: int
) -> None:
    """Rule: at every size, on your turn, your cards, the bet you face (the bettor's chips and
    your call button) and the action bar lie inside the window without scrolling; the seats
    sit round the table, no two meeting, none over the bar; chips never on a seat's edge; a
    stack on one line. And at the showdown that follows (the others are calling stations: all
    seven show, the seats at their fullest, shown cards and hand names), the seats still meet
    neither one another nor the bar, and the result is in view."""
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page, frames, said = _open(context, server, seats=7, bots=6, bot="station")
        view = _wait_for_turn_facing_a_bet(page, frames)
        page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
        assert page.evaluate("window.scrollY") == 0
        you = view["you"]
        hand = view["view"]["hand"]
        bets = dict(zip(view["view"]["hand_seats"], hand["bets"], strict=True))
        bettor = max((s for s in bets if s != you), key=lambda s: bets[s])
        for what in (
            f"[data-testid=cards-{you}]",
            f"[data-testid=bet-{bettor}]",
            "[data-testid=act-call]",
            "[data-testid=actions]",
            "[data-testid=pots]",
        ):
            box = _box(page, what)
            assert _inside(box, width, height), f"{what} at {box} is out of a {width}x{height} window"
        seats = _seats_clear_of_each_other_and_the_bar(page, width, height, "on your turn")
        # A table, not a list: the others round it (left, right and top), yours the lowest.
        others = {n: b for n, b in seats.items() if n != f"seat-{you}"}
        centres = [b["x"] + b["width"] / 2 for b in others.values()]
        assert min(centres) < width * 0.35 and max(centres) > width * 0.65, centres
        mine = seats[f"seat-{you}"]
        assert max(b["y"] + b["height"] / 2 for b in others.values()) < mine["y"] + mine["height"] / 2
        # One line for a stack ("199 chips"), whatever the width.
        heights = page.locator("[data-testid^=stack-]").evaluate_all(
            "ns => ns.map(n => n.getClientRects().length)"
        )
        assert set(heights) == {1}, heights
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        _play_to_a_showdown(page, frames)
        assert page.evaluate("window.scrollY") == 0
        _seats_clear_of_each_other_and_the_bar(page, width, height, "at a showdown")
        assert _inside(_box(page, f"[data-testid=cards-{you}]"), width, height), "your cards at a showdown"
        assert _inside(_box(page, "[data-testid=middle-result]"), width, height), "the result at a showdown"
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # What you said on 7th street reads whole (beside seven cards a phone cut it to "guest-...").
        yours = page.get_by_test_id(f"said-{you}")
        expect(yours).to_be_visible()
        assert yours.evaluate("n => n.scrollWidth <= n.clientWidth + 1"), yours.text_content()
        assert not said, said
    finally:
        context.close()


@pytest.mark.alone
def test_at_200_percent_zoom_the_seats_stay_clear_and_the_page_reflows(browser: Any, server: str) -> None:
    """Rule (reflow, WCAG 1.4.10): a laptop's 1280x720 window at 200% zoom (640x360 CSS pixels,
    two device pixels each) at a showdown of seven: no two seats meet, nothing scrolls sideways,
    and scrolled down to the felt's end the page shows your cards clear of the action bar (the felt keeps its
    least height there, so the page scrolls)."""
    context = browser.new_context(viewport={"width": 640, "height": 360}, device_scale_factor=2)
    try:
        page, frames, said = _open(context, server, seats=7, bots=6, bot="station")
        _play_to_a_showdown(page, frames)
        seats = _boxes(page, ".seat")
        names = sorted(seats)
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                assert not _meet(seats[a], seats[b]), f"{a} {seats[a]} meets {b} {seats[b]}"
        assert page.evaluate("document.documentElement.scrollWidth") <= 640
        # Scrolled until the bar stands where the page puts it, just below the felt.
        page.evaluate(
            """() => { const felt = document.getElementById('table-area').getBoundingClientRect();
                       const bar = document.getElementById('action-area').getBoundingClientRect();
                       const end = window.scrollY + felt.bottom + bar.height - window.innerHeight;
                       window.scrollTo(0, end); }"""
        )
        you = frames.views()[-1]["you"]
        cards, bar = _box(page, f"[data-testid=cards-{you}]"), _box(page, "#action-area")
        assert _inside(cards, 640, 360) and not _meet(cards, bar), (cards, bar)
        assert not said, said
    finally:
        context.close()


def _seats_clear_of_each_other_and_the_bar(
    page: Any, width: int, height: int, when: str, count: int = 7
) -> dict[str, dict[str, float]]:
    """Asserts that the `count` seats lie in the window, no two meeting, none meeting the
    action bar, and that no seat's chips lie across any seat's edge; the seats' boxes."""
    seats = _boxes(page, ".seat")
    assert len(seats) == count
    names = sorted(seats)
    for i, a in enumerate(names):
        assert _inside(seats[a], width, height), f"{when}: {a} {seats[a]} is out of the window"
        for b in names[i + 1 :]:
            assert not _meet(seats[a], seats[b]), f"{when}: {a} {seats[a]} meets {b} {seats[b]}"
    bar = _box(page, "#action-area")
    for name, box in seats.items():
        assert not _meet(box, bar), f"{when}: {name} {box} covers the action bar {bar}"
    # Chips in front of a seat: never across any seat's edge (in it, or clear of it).
    for name, chips in _boxes(page, ".bet").items():
        for seat, box in seats.items():
            inside = (
                chips["x"] >= box["x"]
                and chips["y"] >= box["y"]
                and chips["x"] + chips["width"] <= box["x"] + box["width"]
                and chips["y"] + chips["height"] <= box["y"] + box["height"]
            )
            assert inside or not _meet(chips, box), f"{when}: {name} lies on the edge of {seat}"
    return seats


def _play_to_a_showdown(page: Any, frames: Frames) -> None:
    """Checks and calls until a hand this seat played ends in a showdown of two or more, and
    waits for it to be drawn (the table keeps the shown hands until the next deal)."""
    deadline = time.monotonic() + 60
    you = str(frames.views()[-1]["you"])
    while time.monotonic() < deadline:
        page.wait_for_function(
            """() => document.querySelector('[data-testid=actions] button:not([disabled])')
                || (document.querySelector('#felt.finished')
                    && document.querySelector('[data-testid=middle-result]'))""",
            timeout=60_000,
        )
        if page.locator("#felt.finished").count():
            last = frames.views()[-1]["last_hand"]
            if last and you in last["shown"] and len(last["shown"]) >= 2:
                page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
                return
            page.wait_for_function("() => !document.querySelector('#felt.finished')", timeout=TIMEOUT)
            continue
        _click(page)
    raise AssertionError("no showdown in a minute of hands")


def test_bots_take_a_persons_time_and_each_action_is_shown_at_its_seat(browser: Any, tmp_path: Path) -> None:
    """Rule: with a person at the table, a bot's action waits its thinking time (here a fixed
    0.6 s, the setting the tests may give) after its turn begins; the seat shows the log's
    words for it until the street ends."""
    with running(
        f"sqlite:///{tmp_path / 'think.sqlite3'}", pause=1.0, bot_think="0.6", args=LIFTED
    ) as served:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        try:
            page, frames, said = _open(context, served.base, seats=4, bots=3)
            page.wait_for_function("() => document.querySelectorAll('.said').length >= 2", timeout=TIMEOUT)
            for node in page.locator(".said").all():
                seat = node.evaluate("n => n.closest('.seat').dataset.seat")
                words = node.inner_text()
                doings = r"(posts the ante|brings in|completes|calls|folds|raises|bets|checks)"
                assert re.search(doings, words), words
                expect(page.get_by_test_id("log")).to_contain_text(words)
                assert seat is not None
            # The time between a turn beginning (its clock_started) and a bot's action: the
            # thinking time at least (a bot's own turn, not the person's). Not from the event
            # just before the action: another may come in the bot's turn (the guest's
            # sat_down did, 0.36 s into it). Timed by the server's clock (each event's `at`),
            # not by the frames' arrival here, which Playwright hands over in batches.
            page.wait_for_timeout(3000)
            entries = sorted(frames.entries(), key=lambda m: m["number"])
            players = {v["you"] for v in frames.views()}
            gaps: list[float] = []
            turn_began: dict[str, Any] | None = None
            for entry in entries:
                kind = entry["event"]["type"]
                if kind == "clock_started":  # a turn begins (other events may come in between)
                    turn_began = entry
                elif kind == "action_taken" and entry["event"]["seat"] not in players and turn_began:
                    if turn_began["hand"] == entry["hand"]:
                        gaps.append(entry["at"] - turn_began["at"])
                    turn_began = None
            assert len(gaps) >= 2, "the bots did not act"
            # Bots acting at once had gaps of ~0; the server's clock is the same one throughout.
            assert min(gaps) >= 0.6 - 1e-6, gaps
            assert not said, said
        finally:
            context.close()


GROSS_MS = 3000
"""A first view slower than this is broken, whatever else the machine is doing."""


def test_the_table_page_is_small_from_the_card_room_alone_and_drawn_fast(
    browser: Any, tmp_path: Path
) -> None:
    """Rule: the table page, loaded cold (a fresh browser context: nothing cached), is under
    200 KB over the wire, asks nothing of another origin, and draws its first view (the seats,
    from the server's view message) and its first paint soon after the navigation (the median
    of five cold loads, each timed by the page's own clock; 300 ms is the benchmark's target).
    The card room is this test's own (another test's tables playing on in the same process
    would be timed too)."""
    with running(f"sqlite:///{tmp_path / 'fast.sqlite3'}", pause=1.5, args=LIFTED) as served:
        _time_the_table_page(browser, served.base)


def _time_the_table_page(browser: Any, server: str) -> None:
    table = httpx_table(server)
    drawn, painted, sizes = [], [], []
    asked: list[str] = []
    for _ in range(5):
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        try:
            page = context.new_page()
            page.on("request", lambda r: asked.append(r.url))
            page.add_init_script(
                """new MutationObserver((_, o) => {
                     if (document.querySelector('#felt .seat')) {
                       window.__drawn = performance.now(); o.disconnect();
                     }
                   }).observe(document, {subtree: true, childList: true});"""
            )
            page.goto(f"{server}/table/{table}?watch=1")
            page.wait_for_function("() => window.__drawn !== undefined", timeout=TIMEOUT)
            page.wait_for_load_state("networkidle")
            drawn.append(page.evaluate("window.__drawn"))
            painted.append(
                page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 1e9")
            )
            sizes.append(
                page.evaluate(
                    """() => [performance.getEntriesByType('navigation')[0],
                              ...performance.getEntriesByType('resource')]
                             .reduce((n, e) => n + e.transferSize, 0)"""
                )
            )
        finally:
            context.close()
    foreign = [
        u for u in asked if not (u.startswith(server) or u.startswith(server.replace("http", "ws", 1)))
    ]
    assert not foreign, foreign
    print(f"table page: first view {drawn} ms, first paint {painted} ms, {sizes} bytes")
    assert min(sizes) > 10_000, f"{sizes}: not a cold load"
    assert max(sizes) < 200_000, sizes
    # The time is a benchmark's to measure (benchmarks/table_page_speed.py, the figures in the
    # docs/benchmarks.md: 300 ms is the target on a quiet machine); a test run shares its cores with the
    # other tests, so here it only guards against a page grown many times slower.
    assert statistics.median(drawn) < GROSS_MS, f"first view drawn after {drawn} ms"
    assert statistics.median(painted) < GROSS_MS, painted


def test_the_socket_opens_while_the_modules_are_still_coming(browser: Any, server: str) -> None:
    """Rule (the first view sooner): the table page opens its one websocket, and says hello in
    the page's language, before its modules have all arrived (table_early.js), and draws the
    view that came on it once they have. A module held back 0.6 s shows it: the socket is made,
    and the server's view has come, before that module's last byte."""
    table = httpx_table(server)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    context.add_init_script("localStorage.setItem('sevenstud.lang', 'uk')")
    try:
        page = context.new_page()
        sockets: list[Any] = []
        hellos: list[dict[str, Any]] = []

        def opened(socket: Any) -> None:
            sockets.append(socket)
            socket.on("framesent", lambda payload: hellos.append(json.loads(payload)))

        page.on("websocket", opened)
        page.add_init_script(
            """window.__socket = []; window.__view = [];
               const Native = window.WebSocket;
               window.WebSocket = class extends Native {
                 constructor(...args) {
                   super(...args);
                   window.__socket.push(performance.now());
                   this.addEventListener('message', (m) => {
                     if (JSON.parse(m.data).type === 'view') window.__view.push(performance.now());
                   });
                 }
               };"""
        )

        def held(route: Any) -> None:
            time.sleep(0.6)
            route.continue_()

        page.route("**/web/table_view.js", held)
        page.goto(f"{server}/table/{table}?watch=1")
        expect(page.locator("#felt .seat")).to_have_count(3, timeout=TIMEOUT)
        page.wait_for_load_state("networkidle")
        arrived = page.evaluate(
            """() => performance.getEntriesByType('resource')
                 .find(e => e.name.endsWith('/web/table_view.js')).responseEnd"""
        )
        made, views = page.evaluate("window.__socket"), page.evaluate("window.__view")
        assert len(sockets) == 1 and len(made) == 1, made
        assert made[0] < arrived and views and views[0] < arrived, (made, views, arrived)
        said = [m for m in hellos if m.get("type") == "hello"]
        assert len(said) == 1 and said[0]["lang"] == "uk" and said[0]["table"] == table, said
    finally:
        context.close()


def test_no_page_logs_an_error_signed_out_or_in(browser: Any, server: str) -> None:
    """Rule: a signed-out page asks who is logged in without a 401, and the icon is there
    (no 404): nothing in the console of the lobby, the table, the study page."""
    context = browser.new_context()
    try:
        page = context.new_page()
        said: list[str] = []
        failed: list[str] = []
        page.on("console", lambda m: said.append(m.text) if m.type == "error" else None)
        page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        made = httpx_table(server)
        for path in ("/", f"/table/{made}?watch=1", "/equity"):
            page.goto(f"{server}{path}")
            page.wait_for_load_state("networkidle")
        assert page.request.get(f"{server}/favicon.ico").ok
        page.request.post(f"{server}/api/guest")
        for path in ("/", f"/table/{made}"):
            page.goto(f"{server}{path}")
            page.wait_for_load_state("networkidle")
        assert not failed, failed
        assert not said, said
    finally:
        context.close()


def httpx_table(server: str) -> int:
    """A table opened by a guest of its own (for pages to look at)."""
    import httpx

    with httpx.Client(base_url=server) as client:
        client.post("/api/guest").raise_for_status()
        made = client.post("/api/tables", json={"seats": 3, "bots": 2})
        made.raise_for_status()
        return int(made.json()["id"])


def _split(frames: Frames, hand: int) -> bool:
    """Whether hand `hand` split a pot (a pot awarded in halves, high and low, to different
    seats): from the server's pot_awarded events."""
    halves: dict[int, dict[str, set[int]]] = {}
    started = None
    for _, e in frames.events():
        if e["type"] == "hand_started":
            started = e["hand"]
        if started == hand and e["type"] == "pot_awarded" and e["share"] != "whole":
            halves.setdefault(e["pot"], {}).setdefault(e["share"], set()).add(e["seat"])
    return any(len(set().union(*shares.values())) > 1 and len(shares) > 1 for shares in halves.values())


LANGUAGES = ("en", "uk", "ru", "et")
"""The card room's languages (src/sevenstud/web/i18n/)."""


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.alone
def test_a_hand_played_by_clicking_to_a_split_pot_photographed_at_four_sizes(
    browser: Any, server: str, artifacts: Path, axe_check: Any, lang: str
) -> None:
    """In each language, a person plays (checking and calling) until a showdown they are in
    splits a pot between a high and a low; while it is on show the table is photographed at the
    four sizes (test-artifacts/table-split-<lang>-WxH.png), and at each the result (the
    server's own sentences, in that language) is in view and no two seats meet nor cover the
    bar; axe-core finds nothing. The bots are calling stations: every hand goes to a showdown of
    five, which splits most of the time (rule bots fold so often that four minutes of hands
    once went by without a split, on a busy machine). Shots taken after the next hand was dealt
    (a busy machine) are taken again at the next split."""
    context = browser.new_context(viewport={"width": 1366, "height": 660})
    context.add_init_script(f"localStorage.setItem('sevenstud.lang', '{lang}')")
    try:
        page, frames, said = _open(context, server, seats=5, bots=4, bot="station")
        assert page.evaluate("document.documentElement.lang") == lang
        felt = page.get_by_test_id("felt")
        seen = ""
        deadline = time.monotonic() + 120
        while True:
            assert time.monotonic() < deadline, "no split pot photographed in two minutes of hands"
            page.wait_for_function(
                """seen => document.querySelector('[data-testid=actions] button:not([disabled])')
                    || (document.getElementById('felt').dataset.lastHand || '') !== seen""",
                arg=seen,
                timeout=60_000,
            )
            last = felt.get_attribute("data-last-hand") or ""
            if last == seen:
                _click(page)
                continue
            seen = last
            shown = [
                v["last_hand"]["shown"]
                for v in frames.views()
                if v["last_hand"] and v["last_hand"]["hand"] == int(last)
            ]
            mine = bool(shown) and str(frames.views()[-1]["you"]) in shown[-1]
            if not (mine and _split(frames, int(last)) and page.get_by_test_id("middle-result").count()):
                continue
            if _photograph(page, frames, artifacts, lang, int(last)):
                break
            page.set_viewport_size({"width": 1366, "height": 660})
        page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
        axe_check(page, f"the table at a split pot ({lang})")
        assert not said, said
    finally:
        context.close()


def _photograph(page: Any, frames: Frames, artifacts: Path, lang: str, hand: int) -> bool:
    """Photographs the split of hand `hand` at the four sizes, checking at each that its
    result is in view and the seats clear; False when the next hand was dealt meanwhile."""
    result = [v["last_hand"] for v in frames.views() if v["last_hand"] and v["last_hand"]["hand"] == hand][-1]
    expect(page.get_by_test_id("middle-result").locator("li")).to_have_text(result["summary"])
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
        if not page.locator("#felt.finished").count():
            return False
        page.screenshot(path=str(artifacts / f"table-split-{lang}-{width}x{height}.png"))
        box = _box(page, "[data-testid=middle-result]")
        assert _inside(box, width, height), (lang, width, height, box)
        _seats_clear_of_each_other_and_the_bar(page, width, height, f"{lang} {width}x{height}", count=5)
    # Still this hand's result on show: the shots were of the split.
    return page.locator("#felt.finished").count() > 0 and (
        page.get_by_test_id("felt").get_attribute("data-last-hand") == str(hand)
    )
