"""A sit-and-go of one person and five bots played to the end in chromium (issue 15, points 7
and 12): the person registers on the tournament's page, goes to the table, plays every turn by
clicking, sees the level, the next level and their rank in the tournament bar, and is told
their place and prize; the pages are axe-core clean. The tournament's clock runs 400 times the
wall's (tests/spawn.py's ``tournament_speed``), so that the antes rise and the field busts in seconds."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Iterator
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


@pytest.fixture(scope="module")
def fast_room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = tmp_path_factory.mktemp("tourney") / "cardroom.sqlite3"
    with running(f"sqlite:///{database}", pause=0.05, args=LIFTED, tournament_speed=1000) as served:
        yield served.base


def _cookies(context: Any) -> dict[str, str]:
    return {c["name"]: c["value"] for c in context.cookies()}


def test_a_person_and_five_bots_play_a_sit_and_go_to_the_end_in_the_browser(
    fast_room: str, page: Any, context: Any, axe_check: Callable[[Any, str], None]
) -> None:
    server = fast_room
    page.goto(f"{server}/")
    expect(page.locator("body[data-ready]")).to_have_count(1, timeout=TIMEOUT)
    page.get_by_test_id("guest").click()
    expect(page.get_by_test_id("signed-in")).to_be_visible(timeout=TIMEOUT)
    cookies = _cookies(context)
    account = httpx.get(f"{server}/api/me", cookies=cookies).json()
    house = operator(None, server)  # public tournaments are the house's (issue 33)
    made = house_tournament(
        house, {"template": "sng-6", "bots": 5, "speed": 400.0, "name": "Browser sit-and-go"}
    )
    tid = made["id"]
    page.goto(f"{server}/tournaments")
    row = page.locator(f"[data-testid=tournament-row][data-tournament='{tid}']")
    expect(row).to_be_visible(timeout=TIMEOUT)
    axe_check(page, "the tournament lobby")
    page.goto(f"{server}/tournament/{tid}")
    expect(page.get_by_test_id("register")).to_be_visible(timeout=TIMEOUT)
    axe_check(page, "a tournament's page")
    page.get_by_test_id("register").click()
    go = page.get_by_test_id("go-to-table")
    expect(go).to_be_visible(timeout=TIMEOUT)
    go.click()
    page.wait_for_url(re.compile(r".*/table/\d+$"), timeout=TIMEOUT)
    expect(page.get_by_test_id("tournament-bar")).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_test_id("t-level")).to_contain_text("Level", timeout=TIMEOUT)
    expect(page.get_by_test_id("t-rank")).to_contain_text("rank", timeout=TIMEOUT)
    deadline = time.monotonic() + 60
    clicks = 0
    while not page.get_by_test_id("t-finished").count():
        assert time.monotonic() < deadline, f"the sit-and-go did not end ({clicks} clicks)"
        bar = page.get_by_test_id("actions")
        for kind in PREFERRED:
            button = bar.locator(f"[data-testid=act-{kind}]:not([disabled])")
            with contextlib.suppress(Exception):
                if button.count():
                    button.first.click(timeout=500)
                    clicks += 1
                    break
        page.wait_for_timeout(50)
    finished = page.get_by_test_id("t-finished").inner_text()
    shown = httpx.get(f"{server}/api/tournaments/{tid}", cookies=cookies).json()
    mine = next(e for e in shown["entrants"] if e["name"] == account["name"])
    assert f"place {mine['place']}" in finished
    deadline = time.monotonic() + 30
    while httpx.get(f"{server}/api/tournaments/{tid}").json()["state"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish it"
        time.sleep(0.2)
    shown = httpx.get(f"{server}/api/tournaments/{tid}", cookies=cookies).json()
    assert sorted(e["place"] for e in shown["entrants"]) == [1, 2, 3, 4, 5, 6]
    assert sum(e["prize"] for e in shown["entrants"]) == shown["prize_pool"] == 600
    balance = httpx.get(f"{server}/api/me", cookies=cookies).json()["balance"]
    assert balance == account["balance"] - 110 + mine["prize"]


@pytest.fixture
def deal_room(tmp_path: Any) -> Iterator[tuple[str, Any]]:
    """The card room in this process (so that a test can make a tournament of a template the
    lobby does not offer: three seats, three prizes) and its tournament service."""
    from sevenstud.server.app import create_app
    from sevenstud.server.limits import Limits
    from sevenstud.server.store import open_store
    from tests.spawn import in_thread

    store = open_store(f"sqlite:///{tmp_path / 'cardroom.sqlite3'}")
    lifted = Limits(guests_per_address=100000, sockets_per_address=100000)
    app = create_app(store, pause=0.05, limits=lifted)
    try:
        with in_thread(app, lifted) as address:
            yield f"http://{address}", app.state.tournaments
    finally:
        store.close()


@pytest.mark.alone
def test_the_icm_deal_is_proposed_and_accepted_from_the_tournament_bar(
    deal_room: tuple[str, Any], page: Any, context: Any, axe_check: Callable[[Any, str], None]
) -> None:
    """Issue 15, point 5's deal in the browser: at a final table where everyone is in the money
    the tournament page shows each player's ICM share; at the table the bar offers the deal,
    the person proposes it (the bots agree), plays out the hand in progress, accepts, and is
    told their place and prize: the share the page showed."""
    import asyncio

    from sevenstud.tournament import TURBO, TournamentSettings

    server, service = deal_room
    settings = TournamentSettings(
        kind="sit_and_go", seats=3, max_entries=3, structure=TURBO, paid_places_override=(50, 30, 20)
    )

    async def make() -> int:
        tid = int(service.create("Deal at the final table", settings, speed=1.0))
        for n in range(2):
            service.register(tid, None, f"bot{tid}-{n}", "rule")
        return tid

    assert service._loop is not None
    tid = asyncio.run_coroutine_threadsafe(make(), service._loop).result(10)
    page.goto(f"{server}/")
    expect(page.locator("body[data-ready]")).to_have_count(1, timeout=TIMEOUT)
    page.get_by_test_id("guest").click()
    expect(page.get_by_test_id("signed-in")).to_be_visible(timeout=TIMEOUT)
    cookies = _cookies(context)
    account = httpx.get(f"{server}/api/me", cookies=cookies).json()
    page.goto(f"{server}/tournament/{tid}")
    expect(page.get_by_test_id("register")).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_test_id("deal-propose")).to_have_count(0)  # not in it yet: no button
    page.get_by_test_id("register").click()
    shares = page.get_by_test_id("icm-shares")
    expect(shares.locator("tbody tr")).to_have_count(3, timeout=TIMEOUT)
    expect(page.get_by_test_id("deal-propose")).to_be_visible(timeout=TIMEOUT)
    axe_check(page, "a tournament's page with the ICM shares")
    page.get_by_test_id("go-to-table").click()
    page.wait_for_url(re.compile(r".*/table/\d+$"), timeout=TIMEOUT)
    propose = page.get_by_test_id("tournament-bar").get_by_test_id("deal-propose")
    expect(propose).to_be_visible(timeout=TIMEOUT)
    propose.click()
    accept = page.get_by_test_id("tournament-bar").get_by_test_id("deal-accept")
    deadline = time.monotonic() + 60
    while not accept.count():  # the hand in progress is played out first
        assert time.monotonic() < deadline, "the hand in progress never ended"
        bar = page.get_by_test_id("actions")
        for kind in PREFERRED:
            button = bar.locator(f"[data-testid=act-{kind}]:not([disabled])")
            with contextlib.suppress(Exception):
                if button.count():
                    button.first.click(timeout=500)
                    break
        page.wait_for_timeout(100)
    shown = httpx.get(f"{server}/api/tournaments/{tid}", cookies=cookies).json()
    assert shown["deal"]["waiting_for"] == [account["name"]] and not shown["deal"]["hand_in_progress"]
    offer = shown["icm"]
    accept.click()
    finished = page.get_by_test_id("t-finished")
    expect(finished).to_be_visible(timeout=TIMEOUT)
    shown = httpx.get(f"{server}/api/tournaments/{tid}", cookies=cookies).json()
    assert shown["state"] == "finished"
    mine = next(e for e in shown["entrants"] if e["name"] == account["name"])
    assert mine["prize"] == offer[account["name"]] and f"place {mine['place']}" in finished.inner_text()
    assert {e["name"]: e["prize"] for e in shown["entrants"]} == offer
    balance = httpx.get(f"{server}/api/me", cookies=cookies).json()["balance"]
    assert balance == account["balance"] - 110 + mine["prize"]
