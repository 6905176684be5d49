"""The end of a sit-and-go at the table, in chromium (issue 34, point 1): two people play a
heads-up sit-and-go to the end, one busts and one wins, each on their own page; each is told
their place and prize with the tournament's results and where to go next, the table's page
stops reconnecting (no red "Reconnecting...", no error box, no clock counting down), and the
finished tournament's page names its winner rather than "0 of 2 players left". At three sizes,
each in another language; the screenshots are saved in test-artifacts/ to be looked at."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from tests.house import house_tournament, operator
from tests.spawn import running
from tests.web.conftest import LIFTED

TIMEOUT = 15_000
PREFERRED = ("check", "call", "bring-in", "complete", "bet", "raise", "fold")
WORDS = Path(__file__).resolve().parents[2] / "src" / "sevenstud" / "web" / "i18n"


def _words(lang: str) -> dict[str, Any]:
    return dict(json.loads((WORDS / f"{lang}.json").read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def fast_room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = tmp_path_factory.mktemp("ends") / "cardroom.sqlite3"
    with running(f"sqlite:///{database}", pause=0.05, args=LIFTED, tournament_speed=1000) as served:
        yield served.base


def _guest(server: str) -> tuple[dict[str, str], dict[str, Any]]:
    made = httpx.post(f"{server}/api/guest")
    return dict(made.cookies), made.json()


def _click_any(page: Any) -> None:
    bar = page.get_by_test_id("actions")
    for kind in PREFERRED:
        button = bar.locator(f"[data-testid=act-{kind}]:not([disabled])")
        with contextlib.suppress(Exception):
            if button.count():
                button.first.click(timeout=300)
                return


@pytest.mark.parametrize(
    ("size", "lang"),
    [((360, 640), "ru"), ((1366, 660), "et"), ((1920, 1080), "uk")],
    ids=["360x640-ru", "1366x660-et", "1920x1080-uk"],
)
def test_the_end_of_a_sit_and_go_is_said_at_the_table_to_the_winner_and_the_busted(
    fast_room: str, browser: Any, artifacts: Path, size: tuple[int, int], lang: str
) -> None:
    server = fast_room
    words = _words(lang)
    people = [_guest(server) for _ in range(2)]
    house = operator(None, server)  # public tournaments are the house's (issue 33)
    tid = house_tournament(
        house, {"template": "sng-heads-up", "speed": 400.0, "name": f"Heads-up end {lang}"}
    )["id"]
    for cookies, _ in people:
        assert httpx.post(f"{server}/api/tournaments/{tid}/register", cookies=cookies).status_code == 200
    tour = httpx.get(f"{server}/api/tournaments/{tid}").json()
    table_id = tour["tables"][0]["table_id"]
    contexts, pages, errors = [], [], []
    try:
        for cookies, _ in people:
            context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=lang)
            host = server.split("//")[1].split(":")[0]
            context.add_cookies(
                [{"name": k, "value": v, "domain": host, "path": "/"} for k, v in cookies.items()]
            )
            page = context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{server}/table/{table_id}")
            contexts.append(context)
            pages.append(page)
        deadline = time.monotonic() + 90
        while not all(p.get_by_test_id("tournament-end").count() for p in pages):
            assert time.monotonic() < deadline, "the sit-and-go did not end"
            for page in pages:
                _click_any(page)
            pages[0].wait_for_timeout(30)
        shown = httpx.get(f"{server}/api/tournaments/{tid}").json()
        assert shown["state"] == "finished"
        places = {e["name"]: e for e in shown["entrants"]}
        for page, (_, account) in zip(pages, people, strict=True):
            mine = places[account["name"]]
            headline = page.get_by_test_id("t-end-headline")
            if mine["place"] == 1:
                expect(headline).to_have_text(words["tournament.end_won"])
            else:
                expect(headline).to_have_text(
                    words["tournament.end_place"].replace("{place}", "2").replace("{entries}", "2")
                )
            said = (
                words["tournament.end_prize"].split("{prize}")[0]
                if mine["prize"]
                else words["tournament.end_no_prize"]
            )
            expect(page.get_by_test_id("t-end-prize")).to_contain_text(said)
            results = page.get_by_test_id("t-results").locator("li")
            expect(results).to_have_count(2)
            winner = next(e for e in shown["entrants"] if e["place"] == 1)
            expect(results.first).to_contain_text(winner["name"])
            expect(page.get_by_test_id("t-end-lobby")).to_be_visible()
            expect(page.get_by_test_id("t-end-lobby")).to_be_in_viewport()
            # the table closed: said so, and the page stops reconnecting
            expect(page.get_by_test_id("table-closed")).to_contain_text(
                words["table.closed_over"], timeout=TIMEOUT
            )
            page.wait_for_timeout(1500)  # a reconnection would have begun by now
            expect(page.locator("#connection")).to_have_text(words["table.closed_status"])
            expect(page.locator("#connection.down")).to_have_count(0)
            expect(page.locator("#errors")).to_be_empty()
            expect(page.get_by_test_id("t-next")).to_be_empty()
            who = "won" if mine["place"] == 1 else "busted"
            page.screenshot(path=str(artifacts / f"sng-end-{who}-{size[0]}x{size[1]}-{lang}.png"))
        # the finished tournament's page names its winner, not "0 of 2 players left"
        page = pages[0]
        page.goto(f"{server}/tournament/{tid}")
        won_by = words["tournament.won_by"]
        said = next(iter(won_by.values())) if isinstance(won_by, dict) else won_by
        expect(page.locator("#t-clock")).to_contain_text(said.split("{name}")[0].strip() or winner["name"])
        expect(page.locator("#t-clock")).to_contain_text(winner["name"])
    finally:
        for context in contexts:
            context.close()
    assert not errors, f"the page raised: {errors}"
