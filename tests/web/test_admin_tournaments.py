"""The console's tournaments in chromium (issue 33, points 2 and 8): an operator makes a template
and a schedule in the console; the schedule makes a tournament of bots at once, which starts; the
operator pauses it (the table page says so in its log and deals no new hand), announces a line
(shown in the table's log), resumes it, and it is played to the end; the event log holds every
step and the audit is clean. The part fits a 360 px screen in all four languages."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.audit import audit
from sevenstud.server.store import open_store
from tests.house import operator
from tests.spawn import running
from tests.web.conftest import LIFTED

TIMEOUT = 20_000


@pytest.fixture(scope="module")
def fast_room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    database = f"sqlite:///{tmp_path_factory.mktemp('house') / 'cardroom.sqlite3'}"
    with running(database, pause=0.05, args=LIFTED, tournament_speed=1000) as served:
        yield served.base, database


def _console(
    browser: Any, base: str, size: tuple[int, int] = (1366, 860), lang: str = "en"
) -> tuple[Any, Any, httpx.Client]:
    """A browser context signed in as a new operator, on the console's tournaments."""
    house = operator(None, base)
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=lang)
    context.add_cookies([{"name": COOKIE, "value": house.cookies[COOKIE], "url": base}])
    page = context.new_page()
    page.goto(f"{base}/admin#tournaments")
    expect(page.get_by_test_id("panel-tournaments")).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_test_id("tt-template-form")).to_be_visible(timeout=TIMEOUT)
    return context, page, house


def _row(page: Any, tid: int) -> Any:
    return page.locator(f"[data-testid=tt-tournament][data-tournament='{tid}']")


def test_a_schedule_made_in_the_console_makes_a_tournament_played_to_the_end(
    fast_room: tuple[str, str], browser: Any
) -> None:
    base, database = fast_room
    context, page, house = _console(browser, base)
    try:
        form = page.get_by_test_id("tt-template-form")
        form.get_by_test_id("tt-name").fill("Bots' turbo Razz")
        form.get_by_test_id("tt-template").select_option("sng-6")
        form.get_by_test_id("tt-game").select_option("razz")
        form.get_by_test_id("tt-bots").fill("6")
        form.get_by_test_id("tt-speed").fill("300")
        page.get_by_test_id("tt-save-template").click()
        expect(page.get_by_test_id("tt-template-row").filter(has_text="Bots' turbo Razz")).to_be_visible(
            timeout=TIMEOUT
        )
        schedule = page.get_by_test_id("tt-schedule-form")
        schedule.get_by_test_id("tt-schedule_template").select_option(label="Bots' turbo Razz")
        schedule.get_by_test_id("tt-kind").select_option("every")
        schedule.get_by_test_id("tt-every_hours").fill("6")
        page.get_by_test_id("tt-add-schedule").click()
        expect(page.get_by_test_id("tt-schedule")).to_have_count(
            2, timeout=TIMEOUT
        )  # the house's quick one too
        assert not page.get_by_test_id("tt-problem").text_content()

        # The schedule makes its tournament at once; six bots fill it and it starts.
        def made() -> int | None:
            for line in house.get("/api/admin/schedules").json():
                if line["kind"] == "every" and line["tournament"]:
                    return int(line["tournament"])
            return None

        deadline = time.monotonic() + 20
        while (tid := made()) is None:
            assert time.monotonic() < deadline, "the schedule made no tournament"
            time.sleep(0.2)
        page.get_by_test_id("tt-refresh").click()
        row = _row(page, tid)
        expect(row).to_be_visible(timeout=TIMEOUT)
        # Pause it from the console: the table page says so, and deals no new hand.
        tour = house.get(f"/api/tournaments/{tid}").json()
        table = next(t["table_id"] for t in tour["tables"] if t["table_id"])
        watcher = context.new_page()
        watcher.goto(f"{base}/table/{table}")
        expect(watcher.locator("li", has_text=f"bot{tid}-").first).to_be_visible(timeout=TIMEOUT)  # watching
        row.get_by_test_id("tt-pause").click()
        expect(_row(page, tid)).to_have_attribute("data-state", "paused", timeout=TIMEOUT)
        expect(watcher.locator("li.note", has_text="paused by the room")).to_have_count(1, timeout=TIMEOUT)
        _row(page, tid).get_by_test_id("tt-announce-text").fill("Ten minutes to the final table")
        _row(page, tid).get_by_test_id("tt-announce").click()
        expect(
            watcher.locator("li.note", has_text="From the room: Ten minutes to the final table")
        ).to_be_visible(timeout=TIMEOUT)
        assert house.get(f"/api/tournaments/{tid}").json()["state"] in ("running", "break")
        _row(page, tid).get_by_test_id("tt-resume").click()
        expect(_row(page, tid)).not_to_have_attribute("data-state", "paused", timeout=TIMEOUT)
        # Played to the end by its bots.
        deadline = time.monotonic() + 150
        while (tour := house.get(f"/api/tournaments/{tid}").json())["state"] != "finished":
            assert time.monotonic() < deadline, f"the tournament did not end: {tour['state']}"
            time.sleep(0.5)
        assert sorted(e["place"] for e in tour["entrants"]) == [1, 2, 3, 4, 5, 6]
    finally:
        context.close()
    actions = [line["action"] for line in house.get("/api/admin/events", params={"limit": 200}).json()]
    for action in (
        "template_made",
        "schedule_made",
        "tournament_scheduled",
        "tournament_paused",
        "tournament_announced",
        "tournament_resumed",
    ):
        assert action in actions, (action, actions)
    store = open_store(database)
    try:
        report = audit(store)
        assert report.ok, report.problems
    finally:
        store.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "et"])
def test_the_tournaments_part_fits_a_phone_in_every_language(
    fast_room: tuple[str, str], browser: Any, lang: str
) -> None:
    base, _database = fast_room
    context, page, _house = _console(browser, base, (360, 740), lang)
    try:
        expect(page.get_by_test_id("tt-schedule")).not_to_have_count(0, timeout=TIMEOUT)
        # The page never scrolls sideways: a wide table scrolls inside its panel.
        widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1], widths
        for testid in ("tt-save-template", "tt-add-schedule", "tt-refresh"):
            box = page.get_by_test_id(testid)
            fits = box.evaluate("b => b.scrollWidth <= b.clientWidth + 1")
            assert fits, (lang, testid)
    finally:
        context.close()
