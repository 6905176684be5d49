"""A sit-and-go is one click away and plays at once (issue 34, point 3): from the lobby, signed
out, "Play a sit-and-go" makes a guest and enters them in the house's six-seat sit-and-go with
five bots always registering (issue 33: public tournaments are the house's), who lands at its
table, seated; the tournament lobby's "Start it", signed out, does the same with its defaults
(bots filling every seat but the starter's) once private sit-and-gos open; tournaments made
without a name are called in words, each differently. At 360x640 and 1366x660."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from tests.house import house_tournament, operator

TIMEOUT = 20_000


def _cookies(context: Any) -> dict[str, str]:
    return {c["name"]: c["value"] for c in context.cookies()}


def _seated_at_a_tournament_table(server: str, page: Any, context: Any) -> None:
    page.wait_for_url(re.compile(r"/table/\d+$"), timeout=TIMEOUT)
    table = int(page.url.rsplit("/", 1)[1])
    account = httpx.get(f"{server}/api/me", cookies=_cookies(context)).json()
    tid = httpx.get(f"{server}/api/tournaments/table/{table}").json()["tournament"]
    tour = httpx.get(f"{server}/api/tournaments/{tid}").json()
    assert tour["kind"] == "sit_and_go" and tour["entries"] == tour["seats"]
    assert account["name"] in [e["name"] for e in tour["entrants"]]
    assert "sng-" not in tour["name"]
    expect(page.get_by_test_id("tournament-bar")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("[data-testid^=seat-]", has_text=account["name"]).first).to_be_visible(
        timeout=TIMEOUT
    )


@pytest.mark.parametrize("size", [(360, 640), (1366, 660)], ids=["360x640", "1366x660"])
def test_one_click_from_the_lobby_to_a_sit_and_go_with_bots(
    server: str, browser: Any, size: tuple[int, int]
) -> None:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = context.new_page()
        page.goto(f"{server}/")
        expect(page.locator("body[data-ready]")).to_have_count(1, timeout=TIMEOUT)
        page.get_by_test_id("play-sng").click()
        _seated_at_a_tournament_table(server, page, context)
    finally:
        context.close()


def test_tournaments_made_without_a_name_are_named_in_words_each_differently(server: str) -> None:
    house = operator(None, server)
    names = [house_tournament(house, {"template": "sng-heads-up"})["name"] for _ in range(2)]
    assert names[0] != names[1]
    assert all(name.startswith("Stud Hi/Lo heads-up sit-and-go ") for name in names)
