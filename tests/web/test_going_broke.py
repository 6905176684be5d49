"""Going broke at a cash table is said, with the top-up offered (issue 34, point 7): two people
heads-up at Seven Card Stud with the smallest stacks bet and raise every street until one has
no chip left; that one's page says what happened and offers the top-up, whose one click deals
them in again. At 360x640 and 1366x660, in the four languages."""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

TIMEOUT = 20_000
EAGER = ("raise", "bet", "complete", "call", "bring-in", "check")
WORDS = Path(__file__).resolve().parents[2] / "src" / "sevenstud" / "web" / "i18n"


def _guest(server: str) -> dict[str, str]:
    return dict(httpx.post(f"{server}/api/guest").cookies)


@pytest.mark.parametrize(
    ("size", "lang"),
    [((360, 640), "ru"), ((1366, 660), "et"), ((360, 640), "uk"), ((1366, 660), "en")],
    ids=["360x640-ru", "1366x660-et", "360x640-uk", "1366x660-en"],
)
def test_the_player_who_goes_broke_is_told_so_and_tops_up_in_one_click(
    server: str, browser: Any, size: tuple[int, int], lang: str
) -> None:
    words = json.loads((WORDS / f"{lang}.json").read_text(encoding="utf-8"))
    people = [_guest(server), _guest(server)]
    body = {"game": "stud", "seats": 2, "bots": 0, "min_buy_in": 20, "max_buy_in": 20, "sit": True}
    table = httpx.post(f"{server}/api/tables", json=body, cookies=people[0]).json()["id"]
    host = server.split("//")[1].split(":")[0]
    contexts, pages = [], []
    try:
        for n, cookies in enumerate(people):
            context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=lang)
            context.add_cookies(
                [{"name": k, "value": v, "domain": host, "path": "/"} for k, v in cookies.items()]
            )
            page = context.new_page()
            page.goto(f"{server}/table/{table}" + ("?sit=1" if n else ""))
            contexts.append(context)
            pages.append(page)
        deadline = time.monotonic() + 120
        while not any(p.get_by_test_id("broke").count() for p in pages):
            assert time.monotonic() < deadline, "nobody went broke"
            for page in pages:
                bar = page.get_by_test_id("actions")
                for kind in EAGER:
                    button = bar.locator(f"[data-testid=act-{kind}]:not([disabled])")
                    with contextlib.suppress(Exception):
                        if button.count():
                            button.first.click(timeout=300)
                            break
            pages[0].wait_for_timeout(50)
        page = next(p for p in pages if p.get_by_test_id("broke").count())
        broke = page.get_by_test_id("broke")
        expect(broke).to_contain_text(words["table.broke"])
        top_up = page.get_by_test_id("top-up-back")
        expect(top_up).to_contain_text(words["actions.top_up_back"].split("{amount}")[0].strip())
        expect(top_up).to_be_in_viewport()
        top_up.click()
        # dealt in again: the seat has chips and sits in (the sit-out button is back)
        expect(broke).to_have_count(0, timeout=TIMEOUT)
        expect(page.get_by_test_id("sit-out")).to_be_visible(timeout=TIMEOUT)
    finally:
        for context in contexts:
            context.close()
