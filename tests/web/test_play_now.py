"""A new user's one click: the lobby's "Play now" makes a guest, opens a Stud Hi/Lo table with
four bots (or takes a table of bots with a free seat), sits down with the largest buy-in the
balance allows and is dealt in, all checked against the card room's own answers."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

TIMEOUT = 20_000  # ms: two busy cores in CI


def _cookies(context: Any) -> dict[str, str]:
    return {c["name"]: c["value"] for c in context.cookies()}


def test_play_now_is_one_click_from_the_lobby_to_a_seat_dealt_in(
    server: str, page: Any, context: Any
) -> None:
    page.goto(server + "/")
    page.get_by_test_id("play-now").click()
    page.wait_for_url(re.compile(r"/table/\d+$"), timeout=TIMEOUT)  # ?sit=1 is gone once used
    table = int(page.url.rsplit("/", 1)[1])
    account = httpx.get(f"{server}/api/me", cookies=_cookies(context)).json()
    assert account["guest"] is True
    line = next(t for t in httpx.get(f"{server}/api/lobby").json() if t["id"] == table)
    assert line["game"] == "stud8" and line["bots"] == 4 and line["seats"] == 6
    # Seated: the player's name on a seat, then their own cards dealt face up to them.
    seat = page.locator("[data-testid^=seat-]", has_text=account["name"]).first
    expect(seat).to_be_visible(timeout=TIMEOUT)
    expect(seat.locator(".card.down").first).to_be_visible(timeout=TIMEOUT)
    after = httpx.get(f"{server}/api/me", cookies=_cookies(context)).json()
    start = httpx.post(f"{server}/api/guest").json()["balance"]  # what every new guest is given
    assert after["balance"] == start - min(line["max_buy_in"], start)
    players = next(t for t in httpx.get(f"{server}/api/lobby").json() if t["id"] == table)["players"]
    assert account["name"] in players


def test_play_now_again_takes_the_free_seat_at_a_bots_table(server: str, browser: Any) -> None:
    """A second newcomer joins a table of bots with a seat free rather than opening another."""
    made = httpx.post(f"{server}/api/guest")
    host = {c: made.cookies[c] for c in made.cookies}
    opened = httpx.post(
        f"{server}/api/tables", json={"game": "stud8", "seats": 4, "bots": 2}, cookies=host
    ).json()["id"]
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server + "/")
        expect(page.get_by_test_id("play-now")).to_be_enabled(timeout=TIMEOUT)
        # the lobby has read the tables (the bots' table is listed) before the click
        expect(page.locator(f"[data-testid=table-row][data-table='{opened}']")).to_be_visible(timeout=TIMEOUT)
        page.get_by_test_id("play-now").click()
        page.wait_for_url(re.compile(r"/table/\d+$"), timeout=TIMEOUT)
        taken = int(page.url.rsplit("/", 1)[1])
        # the only table of bots alone with a seat free is the one opened here (the other
        # test's table has a person at it)
        assert taken == opened
        me = httpx.get(f"{server}/api/me", cookies=_cookies(context)).json()
        players = next(t for t in httpx.get(f"{server}/api/lobby").json() if t["id"] == taken)["players"]
        expect(page.locator("[data-testid^=seat-]", has_text=me["name"]).first).to_be_visible(timeout=TIMEOUT)
        assert me["name"] in players or me["name"] in next(
            t for t in httpx.get(f"{server}/api/lobby").json() if t["id"] == taken
        )["players"]
    finally:
        context.close()
