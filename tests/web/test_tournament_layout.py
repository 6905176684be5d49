"""The tournament pages with the cash table's care (issue 15, point 7), in Debian's chromium: the
lobby (/tournaments), a running multi-table tournament's page (its entrants, tables, prizes and
level clock), a final table's page with the ICM deal, and a tournament table with its bar, each
at a phone's 360x640 and 390x844 and at a 1280x720 laptop's 200% zoom (640x360 CSS pixels, two
device pixels each). At every size nothing is cut off sideways (no element, the page included,
scrolls sideways), every control (register and unregister, the rebuy and the deal, the link
to the table) lies in the window once scrolled to, has a name a screen reader says, is reached
by Tab and kept focused while the page reads the tournament again, Enter registers and
unregisters, and axe-core finds nothing. Photographed into test-artifacts/tournament-*.png.

The card room runs in this process so that a test can make tournaments of templates the lobby
does not offer (a rebuy, three seats and three prizes); every expected value comes from its
API."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

TIMEOUT = 20_000
SIZES = [(360, 640, 1), (390, 844, 1), (640, 360, 2)]
"""Two phones, and a 1280x720 window at 200% zoom (half the CSS pixels, twice the density)."""


@dataclass
class Room:
    base: str
    service: Any

    def on_loop(self, make: Callable[[], int]) -> int:
        """``make()`` on the service's event loop (where a tournament's tasks are made)."""

        async def run() -> int:
            return make()

        assert self.service._loop is not None
        return int(asyncio.run_coroutine_threadsafe(run(), self.service._loop).result(10))


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    from sevenstud.server.app import create_app
    from sevenstud.server.limits import Limits
    from sevenstud.server.store import open_store
    from tests.spawn import in_thread

    store = open_store(f"sqlite:///{tmp_path_factory.mktemp('tlayout') / 'cardroom.sqlite3'}")
    lifted = Limits(guests_per_address=100000, sockets_per_address=100000)
    app = create_app(store, pause=0.5, limits=lifted)
    try:
        with in_thread(app, lifted) as address:
            yield Room(f"http://{address}", app.state.tournaments)
    finally:
        store.close()


@dataclass
class Field:
    """The tournaments one guest sees: one registering (nobody in it), a running multi-table
    one the guest plays in (rebuys on), and a final table of three, all in the money."""

    guest: str
    cookies: dict[str, str]
    registering: int
    running: int
    final: int


def _field(room: Room, page: Any) -> Field:
    from sevenstud.tournament import STANDARD, TURBO, TournamentSettings

    assert page.request.post(f"{room.base}/api/guest").ok
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    guest = httpx.get(f"{room.base}/api/me", cookies=cookies).json()["name"]
    service = room.service
    sng = TournamentSettings(kind="sit_and_go", seats=6, max_entries=6, structure=TURBO)
    registering = room.on_loop(lambda: service.create("Open six-seat turbo for the phone", sng))
    multi = TournamentSettings(
        kind="scheduled",
        start_at=time.time() + 1.0,
        min_field=2,
        seats=6,
        max_entries=30,
        structure=STANDARD,
        rebuy_levels=3,
        late_registration_levels=2,
    )

    def make_multi() -> int:
        tid = int(service.create("Evening Stud Hi/Lo multi-table", multi, seed=4))
        for n in range(11):
            service.register(tid, None, f"bot{tid}-{n}", "rule")
        return tid

    running = room.on_loop(make_multi)
    final_settings = TournamentSettings(
        kind="sit_and_go", seats=3, max_entries=3, structure=TURBO, paid_places_override=(50, 30, 20)
    )

    def make_final() -> int:
        tid = int(service.create("Final table of three", final_settings, seed=6))
        for n in range(2):
            service.register(tid, None, f"bot{tid}-{n}", "rule")
        return tid

    final = room.on_loop(make_final)
    for tid in (running, final):
        answer = httpx.post(f"{room.base}/api/tournaments/{tid}/register", cookies=cookies)
        assert answer.status_code == 200, answer.text
    deadline = time.monotonic() + 20
    while httpx.get(f"{room.base}/api/tournaments/{running}").json()["state"] != "running":
        assert time.monotonic() < deadline, "the multi-table tournament did not start"
        time.sleep(0.1)
    return Field(guest, cookies, registering, running, final)


def _shown(room: Room, field: Field, tid: int) -> dict[str, Any]:
    return dict(httpx.get(f"{room.base}/api/tournaments/{tid}", cookies=field.cookies).json())


_SIDEWAYS = """() => {
  const found = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) found.push(`the page: ${root.scrollWidth} > ${root.clientWidth}`);
  for (const el of document.querySelectorAll('body *')) {
    if (el.matches('header.site nav')) continue;
    const style = getComputedStyle(el);
    if (style.display === 'none') continue;
    if (!['auto', 'scroll', 'hidden', 'clip'].includes(style.overflowX)) continue;
    // (clientWidth 1: the screen-reader-only text, clipped on purpose)
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 1) {
      const what = `${el.tagName.toLowerCase()}#${el.id}.${el.className}`;
      found.push(`${what}: ${el.scrollWidth} > ${el.clientWidth}`);
    }
  }
  return found;
}"""
"""Whatever scrolls sideways on the page: the page itself, or any element that clips or
scrolls its overflow."""


def _nothing_sideways(page: Any, what: str) -> None:
    """No element scrolls sideways (the page's own scrollWidth included): nothing is cut off.
    The site header's line of pages is the one exception, every page's (common.css: on a phone
    it scrolls sideways by design, to keep the header to two short lines)."""
    wide = page.evaluate(_SIDEWAYS)
    assert not wide, f"{what} scrolls sideways: {wide}"


def _in_view(page: Any, control: Any, what: str) -> None:
    """Scrolled to, ``control`` lies inside the window, with a name a screen reader says."""
    control.scroll_into_view_if_needed()
    box = control.bounding_box()
    size = page.viewport_size
    assert box is not None, f"{what} is not drawn"
    right, bottom = box["x"] + box["width"], box["y"] + box["height"]
    assert box["x"] >= 0 and right <= size["width"] + 0.5, f"{what} at {box}: cut off sideways"
    assert box["y"] >= 0 and bottom <= size["height"] + 0.5, f"{what} at {box}: out of the window"
    expect(control).to_have_accessible_name(re.compile(r"\w"))


def _tab_to(page: Any, control: Any, what: str, most: int = 200) -> None:
    """Tab from the top of the page until ``control`` has the focus."""
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    for _ in range(most):
        page.keyboard.press("Tab")
        if control.evaluate("el => el === document.activeElement"):
            return
    raise AssertionError(f"Tab never reached {what} ({most} presses)")


def _kept_focused(page: Any, control: Any, path: str, what: str) -> None:
    """The page reads ``path`` again (its refresh) and ``control`` keeps the keyboard's focus."""
    with page.expect_response(lambda r: r.url.split("?")[0].endswith(path), timeout=TIMEOUT):
        pass
    page.wait_for_timeout(100)  # what the answer redraws
    assert control.evaluate("el => el === document.activeElement"), f"{what} lost the focus on a refresh"


def _seats_apart(page: Any, what: str) -> None:
    """The bar above the felt leaves the seats round it apart (no two meet)."""
    boxes = page.locator(".seat").evaluate_all(
        "ns => ns.map(n => { const r = n.getBoundingClientRect(); "
        "return [r.left, r.top, r.right, r.bottom]; })"
    )
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, f"{what}: two seats meet ({a}, {b})"


def _photograph(page: Any, artifacts: Path, name: str) -> None:
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    page.screenshot(path=str(artifacts / f"tournament-{name}-{width}x{height}.png"), full_page=True)


@pytest.fixture(params=[pytest.param(s, id=f"{s[0]}x{s[1]}@{s[2]}x") for s in SIZES])
def sized(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    width, height, scale = request.param
    context = browser.new_context(
        viewport={"width": width, "height": height}, device_scale_factor=scale, is_mobile=scale == 1
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield page
        assert not errors, f"the page raised: {errors}"
    finally:
        context.close()


def test_the_tournament_lobby_fits_is_named_and_registers_by_keyboard(
    room: Room, sized: Any, artifacts: Path, axe_check: Callable[[Any, str], None]
) -> None:
    page = sized
    field = _field(room, page)
    page.goto(f"{room.base}/tournaments")
    row = page.locator(f"[data-testid=tournament-row][data-tournament='{field.registering}']")
    expect(row).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(f"[data-testid=tournament-row][data-tournament='{field.running}']")).to_be_visible()
    _photograph(page, artifacts, "lobby")
    _nothing_sideways(page, "the tournament lobby")
    register, unregister = row.get_by_test_id("register"), row.get_by_test_id("unregister")
    name = "Open six-seat turbo for the phone"
    expect(register).to_have_accessible_name(f"Register for {name}")
    expect(unregister).to_have_count(0)  # not in it: nothing to unregister from
    for what, control in (
        ("register", register),
        ("the tournament's link", row.get_by_test_id("open-tournament")),
        ("the state filter", page.get_by_test_id("state-filter")),
        ("start a sit-and-go", page.get_by_test_id("make")),
    ):
        _in_view(page, control, f"the lobby's {what}")
    axe_check(page, "the tournament lobby")
    # By keyboard: Tab to Register, kept through a refresh of the list, Enter registers.
    _tab_to(page, register, "the lobby's register button")
    _kept_focused(page, register, "/api/tournaments", "the lobby's register button")
    page.keyboard.press("Enter")
    deadline = time.monotonic() + 10
    while field.guest not in [e["name"] for e in _shown(room, field, field.registering)["entrants"]]:
        assert time.monotonic() < deadline, "Enter on Register did not register"
        time.sleep(0.1)
    expect(row).to_contain_text("1 of 6", timeout=TIMEOUT)
    # In it now: Unregister stands where Register stood, with the keyboard's focus on it.
    expect(unregister).to_have_accessible_name(f"Unregister from {name}", timeout=TIMEOUT)
    expect(register).to_have_count(0)
    expect(unregister).to_be_focused()
    _in_view(page, unregister, "the lobby's unregister")
    page.keyboard.press("Enter")
    expect(row).to_contain_text("0 of 6", timeout=TIMEOUT)
    expect(register).to_be_focused(timeout=TIMEOUT)
    assert _shown(room, field, field.registering)["entrants"] == []
    _nothing_sideways(page, "the tournament lobby after registering")


def test_a_running_tournaments_page_fits_is_named_and_reached_by_keyboard(
    room: Room, sized: Any, artifacts: Path, axe_check: Callable[[Any, str], None]
) -> None:
    page = sized
    field = _field(room, page)
    shown = _shown(room, field, field.running)
    assert len(shown["tables"]) == 2 and len(shown["entrants"]) == 12 and shown["you"]["may_rebuy"]
    page.goto(f"{room.base}/tournament/{field.running}")
    expect(page.get_by_test_id("t-entrants").locator("tbody tr")).to_have_count(12, timeout=TIMEOUT)
    expect(page.get_by_test_id("t-tables").locator("tbody tr")).to_have_count(2)
    expect(page.get_by_test_id("t-clock")).to_contain_text("Level 1", timeout=TIMEOUT)
    expect(page.get_by_test_id("t-clock")).to_contain_text(re.compile(r"\d+:\d\d"))
    expect(page.get_by_test_id("t-you")).to_contain_text("rank")
    rebuy, go = page.get_by_test_id("t-asks").get_by_test_id("rebuy"), page.get_by_test_id("go-to-table")
    expect(rebuy).to_be_visible(timeout=TIMEOUT)
    _photograph(page, artifacts, "running")
    _nothing_sideways(page, "a running tournament's page")
    for what, control in (("the rebuy", rebuy), ("the link to your table", go)):
        _in_view(page, control, f"the tournament page's {what}")
    axe_check(page, "a running tournament's page")
    _tab_to(page, rebuy, "the tournament page's rebuy")
    _tab_to(page, go, "the tournament page's link to your table")
    _kept_focused(page, go, f"/api/tournaments/{field.running}", "the link to your table")
    # A final table: the ICM shares and the deal to propose.
    page.goto(f"{room.base}/tournament/{field.final}")
    propose = page.get_by_test_id("t-asks").get_by_test_id("deal-propose")
    expect(propose).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_test_id("icm-shares").locator("tbody tr")).to_have_count(3)
    _photograph(page, artifacts, "final")
    _nothing_sideways(page, "a final table's page")
    _in_view(page, propose, "the tournament page's deal")
    _tab_to(page, propose, "the tournament page's deal")
    _kept_focused(page, propose, f"/api/tournaments/{field.final}", "the deal button")
    axe_check(page, "a final table's tournament page")


def test_registering_on_a_tournaments_page_by_keyboard(
    room: Room, sized: Any, axe_check: Callable[[Any, str], None]
) -> None:
    page = sized
    field = _field(room, page)
    page.goto(f"{room.base}/tournament/{field.registering}")
    register = page.get_by_test_id("register")
    expect(register).to_be_visible(timeout=TIMEOUT)
    # Nobody in it and no table yet: each list says so rather than showing its headings alone.
    expect(page.get_by_test_id("t-entrants-none")).to_have_text("Nobody has registered yet.")
    expect(page.get_by_test_id("t-tables-none")).to_have_text(
        "The tables are drawn when the tournament starts."
    )
    assert page.get_by_test_id("t-tables").locator("table").count() == 0
    _nothing_sideways(page, "a registering tournament's page")
    _in_view(page, register, "the tournament page's register")
    expect(register).to_have_accessible_name(re.compile(r"^Register"))
    _tab_to(page, register, "the tournament page's register")
    _kept_focused(page, register, f"/api/tournaments/{field.registering}", "the register button")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("t-you")).to_contain_text("rank", timeout=TIMEOUT)
    assert field.guest in [e["name"] for e in _shown(room, field, field.registering)["entrants"]]
    expect(page.get_by_test_id("t-entrants").locator("tbody tr")).to_have_count(1)
    unregister = page.get_by_test_id("unregister")
    _in_view(page, unregister, "the tournament page's unregister")
    _tab_to(page, unregister, "the tournament page's unregister")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("t-you")).to_have_text("", timeout=TIMEOUT)
    assert _shown(room, field, field.registering)["entrants"] == []
    expect(page.get_by_test_id("t-entrants-none")).to_be_visible(timeout=TIMEOUT)
    axe_check(page, "a registering tournament's page")


def test_a_tournament_table_and_its_bar_fit_and_its_asks_are_reached_by_keyboard(
    room: Room, sized: Any, artifacts: Path, axe_check: Callable[[Any, str], None]
) -> None:
    page = sized
    field = _field(room, page)
    tables = ((field.running, "rebuy", "table-bar"), (field.final, "deal-propose", "final-table-bar"))
    for tid, ask, name in tables:
        shown = _shown(room, field, tid)
        table = next(x["table_id"] for x in shown["tables"] if x["number"] == shown["you"]["table"])
        page.goto(f"{room.base}/table/{table}")
        bar = page.get_by_test_id("tournament-bar")
        expect(bar.get_by_test_id("t-level")).to_contain_text("Level 1", timeout=TIMEOUT)
        expect(bar.get_by_test_id("t-rank")).to_contain_text("rank", timeout=TIMEOUT)
        expect(bar.get_by_test_id("t-next")).to_contain_text(re.compile(r"\d+:\d\d"))
        button = bar.get_by_test_id(ask)
        expect(button).to_be_visible(timeout=TIMEOUT)
        expect(page.locator(".seat.you")).to_have_count(1, timeout=TIMEOUT)
        # Its seats are the tournament's: sitting out offered, no seat to take, no bot to add,
        # no leave and no top-up (the server refuses each there).
        expect(page.locator("[data-testid=sit-out], [data-testid=sit-in]")).to_have_count(1, timeout=TIMEOUT)
        for refused in ("[data-testid=leave]", "[data-testid=top-up]", "[data-testid^=add-bot-]"):
            expect(page.locator(refused)).to_have_count(0)
        expect(page.locator(".seat.empty button")).to_have_count(0)
        _photograph(page, artifacts, name)
        _nothing_sideways(page, f"a tournament {name}")
        _seats_apart(page, f"a tournament {name}")
        expect(bar).to_have_accessible_name(re.compile(r"\w"))
        for what, control in ((ask, button), ("the tournament's link", bar.get_by_role("link"))):
            _in_view(page, control, f"the bar's {what}")
        _tab_to(page, button, f"the bar's {ask}")
        _kept_focused(page, button, f"/api/tournaments/{tid}", f"the bar's {ask}")
        page.evaluate("() => window.scrollTo(0, 0)")
        axe_check(page, f"a tournament {name}")


def test_late_registration_is_reached_from_a_running_tournaments_page(room: Room, sized: Any) -> None:
    """Rule (issue 15, point 1): a tournament that has started takes new entries while its late
    registration is open, and its page offers them: a newcomer sees Register (and no
    Unregister), in view and named, and pressing it seats them at once; a player already in
    it sees neither."""
    page = sized
    field = _field(room, page)
    page.goto(f"{room.base}/tournament/{field.running}")
    expect(page.get_by_test_id("t-you")).to_contain_text("rank", timeout=TIMEOUT)
    expect(page.get_by_test_id("register")).to_have_count(0)
    expect(page.get_by_test_id("unregister")).to_have_count(0)
    page.context.clear_cookies()  # a newcomer
    assert page.request.post(f"{room.base}/api/guest").ok
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    newcomer = httpx.get(f"{room.base}/api/me", cookies=cookies).json()["name"]
    shown = httpx.get(f"{room.base}/api/tournaments/{field.running}", cookies=cookies).json()
    assert shown["state"] in ("running", "break")
    assert shown["late_registration"] == {"levels": 2, "open": True}
    page.goto(f"{room.base}/tournament/{field.running}")
    register = page.get_by_test_id("register")
    expect(register).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_test_id("unregister")).to_have_count(0)
    _in_view(page, register, "the late registration's register")
    register.click()
    expect(page.get_by_test_id("t-you")).to_contain_text("rank", timeout=TIMEOUT)
    shown = httpx.get(f"{room.base}/api/tournaments/{field.running}", cookies=cookies).json()
    mine = next(e for e in shown["entrants"] if e["name"] == newcomer)
    assert mine["table"] is not None and mine["chips"] > 0, mine
    expect(page.get_by_test_id("register")).to_have_count(0)
