"""The table page (`/table/{id}`) in Debian's chromium: two hands played by clicking the action
buttons, the showdown, the stacks and the pots checked against the server's own `view` messages
and the balance against /api/me; two people at one table, neither of whom ever holds the other's
down cards (DOM, websocket frames, storage) before the showdown; a cut connection (offline, and a
socket closed under the page) that the page mends by itself; shortcut keys and the advance boxes;
the countdown on a computer whose clock is wrong; the log's words; keyboard focus across views;
axe-core mid-hand and at the showdown; the hand, showdown and phone screenshots.

Every expected value comes from the card room (its `view` messages as the page received them,
its API answers), never written here, but for the log's words, which are the page's own."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from tests.server.watch import watching
from tests.web.conftest import card_room

TIMEOUT = 15_000  # ms: the card room runs on 2 busy cores in CI
# The order the test clicks in when it may: checking and calling take hands to the showdown.
PREFERRED = ("check", "call", "bring-in", "complete", "bet", "raise", "fold")
CARD = re.compile(r"^[2-9TJQKA][shdc]$")
RANKS = {
    "A": "Ace",
    "K": "King",
    "Q": "Queen",
    "J": "Jack",
    "T": "Ten",
    "9": "Nine",
    "8": "Eight",
    "7": "Seven",
    "6": "Six",
    "5": "Five",
    "4": "Four",
    "3": "Three",
    "2": "Two",
}
SUITS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """This module's card room, with a longer pause between hands (2.5 s) so that the showdown
    is still on the page when the test reads it on a busy machine."""
    folder = tmp_path_factory.mktemp("tableroom")
    with card_room(folder / "cardroom.sqlite3", pause=2.5) as base:
        yield base


def _chips(n: int) -> str:
    return f"{n} chip{'' if n == 1 else 's'}"


class Frames:
    """Every websocket frame a page sent and received, as JSON."""

    def __init__(self, page: Any) -> None:
        self.received: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []
        self.raw: list[str] = []
        page.on("websocket", self._socket)

    def _socket(self, socket: Any) -> None:
        socket.on("framereceived", lambda payload: self._keep(payload, self.received))
        socket.on("framesent", lambda payload: self._keep(payload, self.sent))

    def _keep(self, payload: Any, into: list[dict[str, Any]]) -> None:
        text = payload if isinstance(payload, str) else bytes(payload).decode()
        self.raw.append(text)
        into.append(json.loads(text))

    def views(self) -> list[dict[str, Any]]:
        return [m for m in self.received if m.get("type") == "view"]

    def last_hand(self, number: int) -> dict[str, Any]:
        found = [v["last_hand"] for v in self.views() if v["last_hand"] and v["last_hand"]["hand"] == number]
        assert found, f"no view carried hand {number}'s result"
        return dict(found[-1])


def _guest_in_lobby(page: Any, server: str) -> None:
    page.goto(f"{server}/")
    expect(page.locator("body[data-ready]")).to_have_count(1, timeout=TIMEOUT)
    page.get_by_test_id("guest").click()
    expect(page.get_by_test_id("signed-in")).to_be_visible(timeout=TIMEOUT)


def _open_in_lobby(page: Any, seats: int, bots: int) -> int:
    page.get_by_test_id("create-seats").select_option(str(seats))
    page.get_by_test_id("create-bots").select_option(str(bots))
    page.get_by_test_id("create-game").select_option("stud8")
    page.get_by_test_id("create").click()
    page.wait_for_url(re.compile(r".*/table/\d+$"), timeout=TIMEOUT)
    return int(page.url.rsplit("/", 1)[1])


def _sit_down(page: Any) -> int:
    """Clicks "Sit here" on the first empty seat and sits with the buy-in offered; the seat."""
    expect(page.locator(".seat.empty button").first).to_be_visible(timeout=TIMEOUT)
    empty = page.locator(".seat.empty").first
    seat = int(empty.get_attribute("data-testid").split("-")[1])
    empty.locator("button").click()
    page.get_by_test_id("sit-down").click()
    expect(page.locator(f"[data-testid=seat-{seat}].you")).to_be_visible(timeout=TIMEOUT)
    return seat


def _click_an_action(page: Any) -> str:
    """Clicks one of the action buttons the page shows, preferring to see the hand through."""
    bar = page.get_by_test_id("actions")
    for kind in PREFERRED:
        button = bar.locator(f"[data-testid=act-{kind}]:not([disabled])")
        if button.count():
            button.click()
            return kind
    raise AssertionError("no action button to click")


def _own_down_cards(page: Any, seat: int) -> list[str]:
    cards = page.locator(f"[data-testid=cards-{seat}] .card.down").evaluate_all(
        "nodes => nodes.map(n => n.dataset.card)"
    )
    return [str(c) for c in cards]


def _low_words(names: dict[str, Any]) -> str:
    """The low half's line for a hand's names: a low of fewer than five cards is no low yet
    (issue 34: "LO: 7" beside three cards read as a low made)."""
    if names["low"] and len(names["low_cards"]) >= 5:
        return f"LO: {names['low']}"
    if names["low"]:
        return f"LO: no low yet ({names['low']} toward one)"
    early = len(names["high_cards"]) < 5 and len(names["low_cards"]) < 5
    return "LO: no low yet" if early else "LO: no low"


def _check_showdown(page: Any, result: dict[str, Any]) -> None:
    """The showdown panel says what the server's `last_hand` says, cards highlighted."""
    expect(page.get_by_test_id("showdown")).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_test_id("summary").locator("li")).to_have_text(result["summary"], timeout=TIMEOUT)
    for seat, names in result["shown"].items():
        shown = page.get_by_test_id(f"shown-{seat}")
        if names["high"]:
            expect(shown.get_by_test_id("half-hi")).to_have_text(f"HI: {names['high']}")
            lit = shown.locator(".half.hi .card.highlight").evaluate_all("ns => ns.map(n => n.dataset.card)")
            assert lit == names["high_cards"]
        expect(shown.get_by_test_id("half-lo")).to_have_text(_low_words(names))
        if names["low"]:
            lit = shown.locator(".half.lo .card.highlight").evaluate_all("ns => ns.map(n => n.dataset.card)")
            assert lit == names["low_cards"]


def _check_the_middle_and_markers(page: Any, view: dict[str, Any], seat: int) -> None:
    """Mid-hand: the pots, the bring-in marker and your hand's names are the view's."""
    pots = view["pots"]
    expect(page.get_by_test_id("pots").locator("li")).to_have_count(len(pots))
    for i, pot in enumerate(pots):
        expect(page.get_by_test_id(f"pot-{i}")).to_contain_text(_chips(pot["amount"]))
    if view["bring_in"] is not None:
        expect(page.get_by_test_id(f"seat-{view['bring_in']}").get_by_test_id("bring-in")).to_be_visible()
    expect(page.get_by_test_id("bring-in")).to_have_count(1 if view["bring_in"] is not None else 0)
    mine = view["hands"][str(seat)]
    names = page.get_by_test_id("your-hand")
    if mine["high"]:
        expect(names).to_contain_text(f"HI: {mine['high']}")
    expect(names).to_contain_text(_low_words(mine))


def _settled(page: Any) -> None:
    """Waits for the deal and chip animations (a quarter second) to end: axe-core judges the
    colours as drawn, and a card fading in is not yet its own colour."""
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")


def _check_yours_is_at_the_bottom(page: Any, seat: int) -> None:
    """Round the oval, your seat is the lowest on the screen."""
    tops = page.locator(".seat").evaluate_all(
        "ns => ns.map(n => [n.dataset.testid, n.getBoundingClientRect().top])"
    )
    lowest = max(tops, key=lambda pair: pair[1])[0]
    assert lowest == f"seat-{seat}", tops


def _check_stacks(page: Any, frames: Frames) -> None:
    """Every seat's stack on the page is the one of the latest view the page was sent (the
    page may draw a frame a moment after Playwright saw it, and views keep coming: compared
    again until they agree, for a few seconds at most)."""
    deadline = time.monotonic() + 5
    while True:
        table = frames.views()[-1]["view"]
        hand = table["hand"]
        expected = {s["seat"]: s["stack"] for s in table["seats"]}
        if hand:
            for index, seat in enumerate(table["hand_seats"]):
                expected[seat] = hand["stacks"][index]
        want = {seat: _chips(n) for seat, n in expected.items()}
        shown = {seat: page.get_by_test_id(f"stack-{seat}").inner_text() for seat in expected}
        if shown == want:
            return
        assert time.monotonic() < deadline, f"stacks on the page {shown}, in the view {want}"
        page.wait_for_timeout(100)


def test_two_hands_played_by_clicking_match_the_servers_showdown_stacks_and_balance(
    page: Any, server: str, artifacts: Path, axe_check: Any
) -> None:
    frames = Frames(page)
    _guest_in_lobby(page, server)
    account = page.request.get(f"{server}/api/me").json()
    before = account["balance"]
    _open_in_lobby(page, seats=3, bots=2)
    seat = _sit_down(page)
    sat = next(
        m["event"]
        for m in frames.received
        if m.get("type") == "event"
        and m["event"]["type"] == "sat_down"
        and m["event"]["player"] == account["name"]
    )
    assert sat["seat"] == seat
    after_sitting = page.request.get(f"{server}/api/me").json()["balance"]
    assert after_sitting == before - sat["buy_in"]
    expect(page.locator("header.site [data-testid=balance]")).to_have_text(
        _chips(after_sitting), timeout=TIMEOUT
    )

    felt = page.get_by_test_id("felt")
    finished: list[int] = []
    clicked: list[str] = []
    photographed = False
    deadline = time.monotonic() + 150
    seen_last = felt.get_attribute("data-last-hand") or ""
    while len(finished) < 2:
        assert time.monotonic() < deadline, f"two hands did not finish; clicked {clicked}"
        page.wait_for_function(
            """seen => document.querySelector('[data-testid=actions] button:not([disabled])')
                || (document.getElementById('felt').dataset.lastHand || '') !== seen""",
            arg=seen_last,
            timeout=60_000,
        )
        last = felt.get_attribute("data-last-hand") or ""
        if last != seen_last:
            seen_last = last
            result = frames.last_hand(int(last))
            dealt = [
                m
                for m in frames.received
                if m.get("type") == "event"
                and m["event"]["type"] == "hand_started"
                and m["event"]["hand"] == int(last)
            ]
            if dealt and seat in dealt[0]["event"]["seats"]:
                _check_showdown(page, result)
                if result["shown"] and not photographed:
                    page.screenshot(path=str(artifacts / "table-showdown.png"), full_page=True)
                    photographed = True
                    _settled(page)
                    axe_check(page, "the table at the showdown")
                finished.append(int(last))
                _check_stacks(page, frames)
            continue
        if not clicked:
            # The first turn: mid-hand, the page is checked and photographed.
            expect(page.locator(f"[data-testid=seat-{seat}].to-act")).to_be_visible()
            expect(page.get_by_test_id("clock")).to_contain_text(re.compile(r"\d:\d\d"))
            # Your turn, and the sound setting on (the default): the title says so.
            assert page.title().startswith("Your turn - ")
            _check_the_middle_and_markers(page, frames.views()[-1], seat)
            _check_yours_is_at_the_bottom(page, seat)
            _settled(page)
            axe_check(page, "the table mid-hand")
            page.screenshot(path=str(artifacts / "table-hand.png"), full_page=True)
        clicked.append(_click_an_action(page))
    if not photographed:  # both hands were won without a showdown: the result is on show all the same
        page.screenshot(path=str(artifacts / "table-showdown.png"), full_page=True)
    # Every action went out as the server's own words for the hand and street on the page.
    acts = [m for m in frames.sent if m["type"] == "act"]
    assert len(acts) == len(clicked)
    offered = {a["action"] for v in frames.views() for a in v["actions"]}
    assert {a["action"] for a in acts} <= offered
    # The log words the actions ("... calls 2", "... checks").
    expect(page.get_by_test_id("log")).to_contain_text(re.compile(r"(checks|calls \d+|brings in for \d+)"))

    # Leave: the stack goes back to the balance, as /api/me and the header say.
    page.get_by_test_id("leave").click()
    page.wait_for_function("() => !document.querySelector('.seat.you')", timeout=60_000)
    stood = [
        m["event"] for m in frames.received if m.get("type") == "event" and m["event"]["type"] == "stood_up"
    ]
    assert stood and stood[-1]["seat"] == seat
    balance = page.request.get(f"{server}/api/me").json()["balance"]
    assert balance == after_sitting + stood[-1]["stack"]
    expect(page.locator("header.site [data-testid=balance]")).to_have_text(_chips(balance), timeout=TIMEOUT)
    history = page.get_by_test_id("history")
    expect(history.locator("a[href^='/hands/']").first).to_be_visible(timeout=TIMEOUT)
    assert history.locator("a[href*='format=phh']").count() >= 2
    # A buy-in over the table's limit: the server refuses it and the page says its reason.
    page.locator(".seat.empty button").first.click()
    page.get_by_test_id("buy-in").fill("100000")
    # The bots play on: the views that come meanwhile leave the number being typed alone.
    views = len(frames.views())
    deadline = time.monotonic() + 20
    while len(frames.views()) < views + 2:
        assert time.monotonic() < deadline, "no views came while the buy-in was typed"
        page.wait_for_timeout(100)
    expect(page.get_by_test_id("buy-in")).to_have_value("100000")
    expect(page.get_by_test_id("buy-in")).to_be_focused()
    page.get_by_test_id("sit-down").click()
    refusal = page.get_by_role("alert")
    expect(refusal).to_contain_text("100000", timeout=TIMEOUT)
    refused = [m for m in frames.received if m.get("type") == "error"]
    assert refused and refused[-1]["message"] in refusal.inner_text()


def _storage(page: Any) -> str:
    return str(page.evaluate("() => JSON.stringify([{...localStorage}, {...sessionStorage}])"))


def _leaks(page: Any, frames: Frames, cards: list[str]) -> list[str]:
    """Where any of `cards` shows up in the page's DOM, websocket frames or storage."""
    html = page.content()
    found = []
    for card in cards:
        assert CARD.match(card), card
        name = f"{RANKS[card[0]]} of {SUITS[card[1]]}"
        if f'data-card="{card}"' in html or name in html:
            found.append(f"{card} in the DOM")
        if any(f'"{card}"' in raw for raw in frames.raw):
            found.append(f"{card} in a websocket frame")
        if card in _storage(page):
            found.append(f"{card} in storage")
    return found


def test_two_people_at_one_table_never_hold_each_others_down_cards(
    page: Any, browser: Any, server: str, artifacts: Path
) -> None:
    frames_a = Frames(page)
    assert page.request.post(f"{server}/api/guest").ok
    made = page.request.post(
        f"{server}/api/tables",
        data={
            "name": "Two people",
            "game": "stud8",
            "stakes": [1, 2, 5, 10],
            "seats": 3,
            "bots": 0,
        },
    )
    assert made.ok, made.text()
    table = made.json()["id"]
    phone = browser.new_context(viewport={"width": 375, "height": 740})
    try:
        other = phone.new_page()
        errors: list[str] = []
        other.on("pageerror", lambda error: errors.append(str(error)))
        frames_b = Frames(other)
        assert other.request.post(f"{server}/api/guest").ok
        page.goto(f"{server}/table/{table}")
        seat_a = _sit_down(page)
        other.goto(f"{server}/table/{table}")
        seat_b = _sit_down(other)
        # No bots: the first hand is dealt when the second person sits, to both of them. Each
        # sees its own two down cards face up, the other's as backs.
        for viewer, own, them in ((page, seat_a, seat_b), (other, seat_b, seat_a)):
            expect(viewer.locator(f"[data-testid=cards-{own}] .card.down")).to_have_count(2, timeout=60_000)
            expect(viewer.locator(f"[data-testid=cards-{them}] .card.back")).to_have_count(2)
            label = viewer.locator(f"[data-testid=cards-{own}] .card.down").first.get_attribute("aria-label")
            assert label and label.endswith(", face down")
        other.screenshot(path=str(artifacts / "table-phone.png"), full_page=True)
        assert other.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (
            "wider than a phone"
        )
        # The server's truth: the cards each page shows as its own, from the view it was sent.
        cards_a, cards_b = _own_down_cards(page, seat_a), _own_down_cards(other, seat_b)
        view_b = [v for v in frames_b.views() if v["view"]["hand"]][-1]
        index_b = view_b["view"]["hand_seats"].index(seat_b)
        assert cards_b == [
            c
            for c, up in zip(
                view_b["view"]["hand"]["cards"][index_b],
                view_b["view"]["hand"]["face_up"][index_b],
                strict=True,
            )
            if not up
        ]
        assert _leaks(page, frames_a, cards_b) == []
        assert _leaks(other, frames_b, cards_a) == []
        # A spectator (a browser of its own, no account) sees neither.
        watching = browser.new_context()
        watcher = watching.new_page()
        frames_w = Frames(watcher)
        watcher.goto(f"{server}/table/{table}?watch=1")
        expect(watcher.get_by_test_id(f"cards-{seat_a}").locator(".card")).not_to_have_count(
            0, timeout=TIMEOUT
        )
        assert _leaks(watcher, frames_w, cards_a + cards_b) == []
        watching.close()
        # The third seat: "Add bot" seats the server's bot there, on both pages, by keyboard:
        # the button keeps the focus while a view comes in (the other sits out), Enter presses it.
        empty = page.locator(".seat.empty").first
        bot_seat = int((empty.get_attribute("data-testid") or "").split("-")[1])
        empty.get_by_text("Add bot").focus()
        other.get_by_test_id("sit-out").click()
        expect(other.get_by_test_id("sit-in")).to_be_visible(timeout=TIMEOUT)
        expect(page.get_by_test_id(f"seat-{seat_b}")).to_contain_text("Sitting out", timeout=TIMEOUT)
        expect(page.get_by_test_id(f"add-bot-{bot_seat}")).to_be_focused()
        page.keyboard.press("Enter")
        for viewer in (page, other):
            expect(viewer.get_by_test_id(f"name-{bot_seat}")).to_contain_text("(bot)", timeout=TIMEOUT)
        assert {"type": "add_bot", "seat": bot_seat} in frames_a.sent
        # Sitting in again: the buttons follow the server's word for the seat.
        other.get_by_test_id("sit-in").click()
        expect(other.get_by_test_id("sit-out")).to_be_visible(timeout=TIMEOUT)
        assert not errors, f"the second page raised: {errors}"
    finally:
        phone.close()


def test_a_cut_connection_says_reconnecting_then_shows_the_table_now(page: Any, server: str) -> None:
    client = httpx.Client(base_url=server, timeout=15)
    client.post("/api/guest").raise_for_status()
    table = client.post(
        "/api/tables",
        json={
            "name": "Bots only",
            "game": "stud8",
            "stakes": [1, 2, 5, 10],
            "seats": 3,
            "bots": 2,
        },
    ).json()["id"]
    cut = {"on": False}
    sockets: list[Any] = []

    def route(socket: Any) -> None:
        if cut["on"]:
            socket.close()
            return
        socket.connect_to_server()
        sockets.append(socket)

    page.route_web_socket(re.compile(r".*/ws$"), route)
    frames = Frames(page)
    # 640 x 430 CSS pixels: a 1280 x 860 desktop at 200% zoom.
    page.set_viewport_size({"width": 640, "height": 430})
    page.goto(f"{server}/table/{table}?watch=1")
    status = page.get_by_test_id("connection")
    expect(status).to_contain_text("Connected", timeout=TIMEOUT)
    expect(page.get_by_test_id("felt")).to_have_attribute("data-number", re.compile(r"\d+"), timeout=TIMEOUT)

    def hands() -> int:
        lines = client.get("/api/lobby").json()
        return int(next(line["hands"] for line in lines if line["id"] == table))

    def drop_and_mend(drop: Any, mend: Any) -> None:
        """Drops the connection, waits until the bots dealt a hand the page missed, mends it:
        the page says "Reconnecting", then asks from the last number it saw and shows now."""
        cut["on"] = True  # no new socket gets through while the network is down
        drop()
        expect(status).to_contain_text("Reconnecting", timeout=TIMEOUT)
        seen = int(page.get_by_test_id("felt").get_attribute("data-number") or 0)
        dealt = hands()
        deadline = time.monotonic() + 30
        # Another spectator meanwhile: a table of bots alone deals only while somebody watches.
        with watching(server.removeprefix("http://"), table):
            while hands() <= dealt:
                assert time.monotonic() < deadline, "the bots dealt no hand in 30 s"
                page.wait_for_timeout(200)
        cut["on"] = False
        mend()
        expect(status).to_contain_text("Connected", timeout=TIMEOUT)
        hellos = [m for m in frames.sent if m["type"] == "hello"]
        assert hellos[-1]["last"] >= seen > 0, "the page did not say the last number it saw"
        # The hands dealt while away are over on the page too: its last hand is the server's
        # count of hands finished here (or the next ones, the bots playing on).
        now = hands()
        expect(page.get_by_test_id("felt")).to_have_attribute(
            "data-last-hand",
            re.compile("^(" + "|".join(str(n) for n in range(now, now + 3)) + ")$"),
            timeout=TIMEOUT,
        )
        assert frames.views()[-1]["number"] > seen

    # The browser goes offline (its socket stays open but silent: the page drops it itself) ...
    drop_and_mend(lambda: page.context.set_offline(True), lambda: page.context.set_offline(False))
    # ... and the socket is closed under the page while the browser thinks it is online.
    drop_and_mend(lambda: sockets[-1].close(), lambda: None)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "wider than 200% zoom"
    # Watching: no seat to take and no action bar.
    expect(page.locator(".seat.empty button")).to_have_count(0)
    expect(page.get_by_test_id("actions")).to_have_count(0)


def _to_act(pages: list[Any]) -> int:
    """Which of `pages` shows the action buttons (waits for one to)."""
    deadline = time.monotonic() + TIMEOUT / 1000
    while time.monotonic() < deadline:
        for i, p in enumerate(pages):
            if p.locator("[data-testid=actions] button:not([disabled])").count():
                return i
        pages[0].wait_for_timeout(100)
    raise AssertionError("nobody's turn came")


def test_shortcut_keys_and_advance_boxes_choose_among_the_servers_actions(
    page: Any, browser: Any, server: str
) -> None:
    muted = "localStorage.setItem('sevenstud.sound', 'false')"
    page.context.add_init_script(muted)
    # The first person's computer clock is an hour fast: the countdown goes by the server's.
    page.clock.set_system_time(time.time() + 3600)
    assert page.request.post(f"{server}/api/guest").ok
    table = page.request.post(
        f"{server}/api/tables",
        data={
            "name": "Heads up",
            "game": "stud8",
            "stakes": [1, 2, 5, 10],
            "seats": 2,
            "bots": 0,
        },
    ).json()["id"]
    second = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        second.add_init_script(muted)
        other = second.new_page()
        errors: list[str] = []
        other.on("pageerror", lambda error: errors.append(str(error)))
        assert other.request.post(f"{server}/api/guest").ok
        pages = [page, other]
        frames = [Frames(page), Frames(other)]
        page.goto(f"{server}/table/{table}")
        _sit_down(page)
        other.goto(f"{server}/table/{table}")
        _sit_down(other)
        first = _to_act(pages)
        y, x = pages[first], pages[1 - first]
        clock = [m for m in frames[0].received if m["type"] == "clock"][-1]
        allowed = clock["act_by"] - clock["server_time"]
        shown = page.get_by_test_id("clock").inner_text()
        found = re.fullmatch(r"(\d+):(\d\d) to act", shown)
        assert found, f"the countdown reads {shown!r}"
        left = int(found[1]) * 60 + int(found[2])
        assert allowed - 5 <= left <= allowed + 1, f"{shown!r} for {allowed:.1f} s to act"
        # The sound setting off: no title alert on your turn.
        assert not y.title().startswith("Your turn")
        # X ticks "Call any"; Y brings in by its key (B): the bet X faces changed, so X's box
        # is cleared and X's turn waits for X.
        x.get_by_test_id("advance-call-any").check()
        bring_in = y.locator("[data-testid=actions] [data-key=B]")
        expect(bring_in).to_have_attribute("aria-keyshortcuts", "B")
        action = bring_in.get_attribute("data-action")
        y.keyboard.press("b")
        expect(x.locator("[data-testid=actions] button:not([disabled])").first).to_be_visible(timeout=TIMEOUT)
        assert [m["action"] for m in frames[first].sent if m["type"] == "act"] == [action]
        assert [m for m in frames[1 - first].sent if m["type"] == "act"] == []
        call = x.locator("[data-testid=actions] [data-key=C]")
        called = call.get_attribute("data-action")
        assert called and called.startswith("call")
        x.keyboard.press("c")
        # Fourth street: whoever is second ticks "Check/Fold"; the first checks by a click, and
        # the box checks for the second when its turn comes, without a click.
        expect(x.get_by_test_id("felt")).to_have_attribute("data-street", "4", timeout=TIMEOUT)
        now = _to_act(pages)
        z, w = pages[now], pages[1 - now]
        w.get_by_test_id("advance-check-fold").check()
        z.get_by_test_id("act-check").click()
        expect(z.get_by_test_id("felt")).to_have_attribute("data-street", "5", timeout=TIMEOUT)
        acts = [m for m in frames[1 - now].sent if m["type"] == "act"]
        assert acts[-1]["action"] == "check" and acts[-1]["street"] == 4
        assert not errors, f"the second page raised: {errors}"
    finally:
        second.close()
    # The boxes' choices among actions the server offered (no action is ever made up).
    choices = page.evaluate("""async () => {
        const { advanceChoice } = await import('/web/table_actions.js');
        const a = (kind, action) => ({ kind, action, label: action });
        const pick = (box, list) => (advanceChoice(box, list) || { action: null }).action;
        return [
            pick('check-fold', [a('check', 'check'), a('bet', 'bet 5')]),
            pick('check-fold', [a('fold', 'fold'), a('call', 'call 5'), a('raise', 'raise to 10')]),
            pick('call-any', [a('fold', 'fold'), a('call', 'call 5')]),
            pick('call-any', [a('check', 'check'), a('bet', 'bet 5')]),
            pick('fold-any', [a('fold', 'fold'), a('call', 'call 5')]),
            pick('fold-any', [a('check', 'check'), a('bet', 'bet 5')]),
            pick('call-any', [a('bring-in', 'bring-in 2'), a('complete', 'complete to 5')]),
        ];
    }""")
    assert choices == ["check", "fold", "call 5", "check", "fold", None, None]


def test_the_log_words_the_servers_events_as_a_dealer_says_them(page: Any, server: str) -> None:
    page.goto(f"{server}/")
    words = page.evaluate("""async () => {
        const { eventWords } = await import('/web/table_log.js');
        const names = { 1: 'Ann', 2: 'Bob', 3: 'Cid' };
        const name = (seat) => names[seat];
        const act = (seat, kind, amount, chips) => ({ type: 'action_taken', seat, street: 3,
            action: { type: 'action', kind, amount }, all_in: false, chips });
        return [
            act(1, 'bring-in', 1, 1), act(2, 'complete', 2, 2), act(3, 'call', 2, 2), act(1, 'fold', null, 0),
            act(2, 'raise', 4, 2), act(3, 'check', null, 0),
            { type: 'pot_awarded', seat: 1, amount: 12, pot: 0, share: 'whole' },
            { type: 'pot_awarded', seat: 2, amount: 5, pot: 1, share: 'low' },
            { type: 'hand_shown', seat: 2, cards: ['As', '2d'], high: 'Ace high', low: null },
            { type: 'card_dealt', seat: 1, street: 3, card: null, face_up: false },
        ].map((e) => eventWords(e, name));
    }""")
    assert words == [
        "Ann brings in for 1",
        "Bob completes to 2",
        "Cid calls 2",
        "Ann folds",
        "Bob raises to 4",
        "Cid checks",
        "Ann wins 12 from the main pot",
        "Bob wins 5 from side pot 1 (the low half)",
        "Bob shows Ace of spades, Two of diamonds (Ace high)",
        None,
    ]
