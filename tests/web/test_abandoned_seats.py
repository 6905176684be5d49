"""Abandoned seats free themselves (issue 34, point 4): a guest plays now, sits out and closes
the tab; after ``sit_out_seconds`` the seat is stood up with its chips back on the balance, and
the table, nobody but bots and nobody watching, stops dealing and closes. While a person plays
at a table with a seat free, "Play now" sits a newcomer there rather than opening another.
The limits are shortened here (seconds, not the default minutes)."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from tests.spawn import running
from tests.web.conftest import LIFTED

TIMEOUT = 20_000
SHORT = ("--limit=sit_out_seconds=2", "--limit=idle_table_seconds=2", "--limit=sweep_seconds=1")


@pytest.fixture(scope="module")
def quick_room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = tmp_path_factory.mktemp("abandoned") / "cardroom.sqlite3"
    with running(f"sqlite:///{database}", pause=0.5, args=(*LIFTED, *SHORT)) as served:
        yield served.base


def _cookies(context: Any) -> dict[str, str]:
    return {c["name"]: c["value"] for c in context.cookies()}


def _play_now(server: str, context: Any) -> tuple[Any, int]:
    page = context.new_page()
    page.goto(server + "/")
    expect(page.get_by_test_id("play-now")).to_be_enabled(timeout=TIMEOUT)
    expect(page.locator("body[data-ready]")).to_have_count(1, timeout=TIMEOUT)
    page.get_by_test_id("play-now").click()
    page.wait_for_url(re.compile(r"/table/\d+$"), timeout=TIMEOUT)
    return page, int(page.url.rsplit("/", 1)[1])


@pytest.mark.parametrize("size", [(360, 640), (1366, 660)], ids=["360x640", "1366x660"])
def test_a_seat_sat_out_and_left_is_stood_up_and_its_table_closes(
    quick_room: str, browser: Any, size: tuple[int, int]
) -> None:
    server = quick_room
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page, table = _play_now(server, context)
        cookies = _cookies(context)
        me = httpx.get(f"{server}/api/me", cookies=cookies).json()
        seat = page.locator("[data-testid^=seat-]", has_text=me["name"]).first
        expect(seat).to_be_visible(timeout=TIMEOUT)
        page.get_by_test_id("sit-out").click(timeout=TIMEOUT)
        expect(page.get_by_test_id("sit-in")).to_be_visible(timeout=TIMEOUT)
        # the hand dealt to the seat is played out (folded) before the tab closes
        deadline = time.monotonic() + 60
        while not next(t for t in httpx.get(f"{server}/api/lobby").json() if t["id"] == table)["hands"]:
            assert time.monotonic() < deadline, "the first hand did not end"
            for kind in ("fold", "bring-in", "check"):
                button = page.locator(f"[data-testid=act-{kind}]:not([disabled])")
                if button.count():
                    with contextlib.suppress(Exception):
                        button.first.click(timeout=300)
                    break
            page.wait_for_timeout(100)
    finally:
        context.close()  # the tab closed: nobody comes back to the seat
    deadline = time.monotonic() + 40
    while True:
        lines = {t["id"]: t for t in httpx.get(f"{server}/api/lobby").json()}
        account = httpx.get(f"{server}/api/me", cookies=cookies).json()
        if table not in lines and me["name"] not in str(lines):
            break
        assert time.monotonic() < deadline, f"still open after 40 s: {lines.get(table)}"
        time.sleep(0.5)
    # the chips came back: nothing of the balance is left on a table
    assert account["balance"] > me["balance"]
    # the closed table's page says so and where to go, and does not try to reconnect
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = context.new_page()
        page.goto(f"{server}/table/{table}")
        expect(page.get_by_test_id("table-closed")).to_contain_text("nobody played at it", timeout=TIMEOUT)
        expect(page.get_by_test_id("end-lobby")).to_be_in_viewport()
        page.wait_for_timeout(1500)
        expect(page.locator("#connection.down")).to_have_count(0)
        expect(page.locator("#errors")).to_be_empty()
    finally:
        context.close()


def test_play_now_sits_a_newcomer_at_a_persons_table_with_a_free_seat(quick_room: str, browser: Any) -> None:
    server = quick_room
    first, second = browser.new_context(), browser.new_context()
    try:
        _, table = _play_now(server, first)
        page, taken = _play_now(server, second)
        assert taken == table
        me = httpx.get(f"{server}/api/me", cookies=_cookies(second)).json()
        expect(page.locator("[data-testid^=seat-]", has_text=me["name"]).first).to_be_visible(timeout=TIMEOUT)
    finally:
        first.close()
        second.close()
