"""Stakes are named one way on every page (issue 34, point 8): the lobby's row, the table's
title and the felt's middle, and the rules page's example all write ante/bring-in/small
bet/big bet ("1/2/5/10"); the table said "5/10". At 360x640 and 1366x660."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

TIMEOUT = 20_000


@pytest.mark.parametrize("size", [(360, 640), (1366, 660)], ids=["360x640", "1366x660"])
def test_the_lobby_the_table_and_the_rules_name_the_stakes_alike(
    server: str, browser: Any, size: tuple[int, int]
) -> None:
    made = httpx.post(f"{server}/api/guest")
    body = {"game": "stud", "stakes": [2, 5, 10, 20], "seats": 4, "bots": 2}
    table = httpx.post(f"{server}/api/tables", json=body, cookies=dict(made.cookies)).json()["id"]
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = context.new_page()
        page.goto(f"{server}/")
        row = page.locator(f"[data-testid=table-row][data-table='{table}']")
        expect(row).to_contain_text("2/5/10/20", timeout=TIMEOUT)
        page.goto(f"{server}/table/{table}?watch=1")
        expect(page.locator("#table-title")).to_contain_text("2/5/10/20", timeout=TIMEOUT)
        expect(page.locator("#middle .game")).to_contain_text("2/5/10/20", timeout=TIMEOUT)
        page.goto(f"{server}/rules/stud")
        expect(page.locator("body")).to_contain_text("1/2/5/10", timeout=TIMEOUT)
    finally:
        context.close()
