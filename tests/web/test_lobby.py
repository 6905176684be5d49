"""The lobby page (`/`) in Debian's chromium: guest in one click, sign up / log out / log in, the
server's refusals shown beside their forms, opening a table with bots, the table filters, the
recent hands' links, keyboard use, axe-core, and the desktop and phone screenshots.

Every expected value comes from the card room itself (its API answers), never written here."""

from __future__ import annotations

import json
import re
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from sevenstud.server.protocol import PROTOCOL_VERSION

TIMEOUT = 15_000  # ms: the card room runs on 2 busy cores in CI


def _chips(n: int) -> str:
    return f"{n} chip{'' if n == 1 else 's'}"


def _open_lobby(page: Any, server: str) -> None:
    page.goto(f"{server}/")
    expect(page.locator("body[data-ready]")).to_have_count(1, timeout=TIMEOUT)


def _as_guest(page: Any, server: str) -> None:
    _open_lobby(page, server)
    page.get_by_test_id("guest").click()
    expect(page.get_by_test_id("signed-in")).to_be_visible(timeout=TIMEOUT)


def _guest_client(server: str) -> httpx.Client:
    """An HTTP client logged in as a new guest (its session cookie kept)."""
    client = httpx.Client(base_url=server, timeout=15)
    client.post("/api/guest").raise_for_status()
    return client


def _lobby_line(server: str, table_id: int) -> dict[str, Any]:
    lines = httpx.get(f"{server}/api/lobby", timeout=15).json()
    found = [line for line in lines if line["id"] == table_id]
    assert found, f"table {table_id} is not in the lobby: {lines}"
    return dict(found[0])


@pytest.fixture
def blank_table_page(page: Any) -> Any:
    """`/table/N` answered with an empty page: these tests check where the lobby goes, not the
    table page (another file's tests)."""
    page.route(
        re.compile(r".*/table/\d+(\?.*)?$"),
        lambda route: route.fulfill(
            body='<!doctype html><html lang="en"><title>table</title><main></main></html>',
            content_type="text/html",
        ),
    )
    return page


def test_guest_in_one_click_shows_the_balance_of_api_me(page: Any, server: str) -> None:
    _as_guest(page, server)
    account = page.request.get(f"{server}/api/me").json()
    expect(page.get_by_test_id("account-balance")).to_have_text(_chips(account["balance"]))
    expect(page.locator("header [data-testid=balance]")).to_have_text(_chips(account["balance"]))
    expect(page.get_by_test_id("account-name")).to_contain_text(account["name"])
    # A full balance needs no refill: the button is for a player who is short.
    expect(page.get_by_test_id("refill")).to_be_hidden()


def test_sign_up_then_log_out_then_log_in(page: Any, server: str) -> None:
    name, password = f"ann{secrets.token_hex(3)}", "a long enough password"
    _open_lobby(page, server)
    page.locator("#signup-name").fill(name)
    page.locator("#signup-password").fill(password)
    page.get_by_test_id("signup").click()
    expect(page.get_by_test_id("signed-in")).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_test_id("account-name")).to_have_text(name)

    page.get_by_test_id("logout").click()
    expect(page.get_by_test_id("signed-out")).to_be_visible()
    assert page.request.get(f"{server}/api/me").status == 401
    expect(page.get_by_test_id("create-form")).to_be_hidden()

    page.locator("#login-name").fill(name)
    page.locator("#login-password").fill(password)
    page.get_by_test_id("login").click()
    expect(page.get_by_test_id("signed-in")).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_test_id("account-name")).to_have_text(name)
    assert page.request.get(f"{server}/api/me").json()["name"] == name


def test_a_bad_sign_up_shows_the_servers_reason_and_changes_nothing(page: Any, server: str) -> None:
    body = {"name": "ab", "password": "a long enough password"}
    refused = httpx.post(f"{server}/api/signup", json=body, timeout=15)
    assert refused.status_code == 400
    _open_lobby(page, server)
    page.locator("#signup-name").fill(body["name"])
    page.locator("#signup-password").fill(body["password"])
    page.get_by_test_id("signup").click()
    error = page.get_by_test_id("signup-error")
    expect(error).to_have_text(refused.json()["detail"], timeout=TIMEOUT)
    assert error.get_attribute("role") == "alert"
    expect(page.get_by_test_id("signed-out")).to_be_visible()
    assert page.request.get(f"{server}/api/me").status == 401


def test_a_wrong_password_shows_the_servers_reason(page: Any, server: str) -> None:
    body = {"name": f"nobody{secrets.token_hex(3)}", "password": "not the password"}
    refused = httpx.post(f"{server}/api/login", json=body, timeout=15)
    _open_lobby(page, server)
    page.locator("#login-name").fill(body["name"])
    page.locator("#login-password").fill(body["password"])
    page.get_by_test_id("login").click()
    expect(page.get_by_test_id("login-error")).to_have_text(refused.json()["detail"], timeout=TIMEOUT)


def test_a_refused_refill_shows_the_servers_reason(page: Any, server: str) -> None:
    _as_guest(page, server)
    account = page.request.get(f"{server}/api/me").json()
    # The page is told the player is short (the server itself is not), so that it offers the
    # refill; the server then refuses it, and the page must say the server's reason.
    page.route(
        "**/api/session",
        lambda route: route.fulfill(json={"account": {**account, "balance": 3}}),
    )
    _open_lobby(page, server)
    # the button says the server's terms
    expect(page.get_by_test_id("refill")).to_have_text(f"Refill to {account['refill_to']}")
    page.get_by_test_id("refill").click()
    page.unroute("**/api/session")
    reason = page.request.post(f"{server}/api/refill")
    assert reason.status == 400
    expect(page.get_by_test_id("refill-error")).to_have_text(reason.json()["detail"], timeout=TIMEOUT)


def test_open_a_table_with_two_bots_lands_on_it_and_the_lobby_lists_it(
    blank_table_page: Any, server: str
) -> None:
    page = blank_table_page
    _as_guest(page, server)
    page.get_by_test_id("create-seats").select_option("4")
    page.get_by_test_id("create-bots").select_option("2")
    page.get_by_test_id("create-bot").select_option("random")
    page.get_by_test_id("create-game").select_option("razz")
    page.get_by_test_id("create").click()
    page.wait_for_url(re.compile(r".*/table/\d+$"), timeout=TIMEOUT)
    table_id = int(page.url.rsplit("/", 1)[1])
    line = _lobby_line(server, table_id)
    assert line["seats"] == 4
    assert line["bots"] == 2
    assert line["taken"] == 2
    assert len(line["players"]) == 2


def test_the_bots_offered_leave_a_seat_free(page: Any, server: str) -> None:
    _as_guest(page, server)
    page.get_by_test_id("create-seats").select_option("3")
    offered = page.get_by_test_id("create-bots").locator("option").all_inner_texts()
    assert offered == ["0", "1", "2"]


@pytest.fixture(scope="module")
def two_tables(server: str) -> Iterator[tuple[int, int]]:
    """A full Razz table at 5/10/25/50 (a bot and a guest at two seats) and a Stud table at
    2/5/10/20 with free seats, opened through the API."""
    import websockets.sync.client

    client = _guest_client(server)
    full = client.post(
        "/api/tables",
        json={"name": "Full razz", "game": "razz", "stakes": [5, 10, 25, 50], "seats": 2, "bots": 1},
    ).json()["id"]
    free = client.post(
        "/api/tables",
        json={"name": "Free stud", "game": "stud", "stakes": [2, 5, 10, 20], "seats": 4, "bots": 0},
    ).json()["id"]
    line = _lobby_line(server, full)
    cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    with websockets.sync.client.connect(
        server.replace("http", "ws", 1) + "/ws",
        additional_headers={"Cookie": cookie},
        max_queue=None,  # never read here: an unbounded buffer lets the close handshake through
    ) as ws:
        ws.send(json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "table": full}))
        ws.send(json.dumps({"type": "sit", "seat": 1, "buy_in": line["min_buy_in"]}))
        deadline = time.monotonic() + 15
        while _lobby_line(server, full)["taken"] < 2 and time.monotonic() < deadline:
            time.sleep(0.1)  # the lobby line is the actor's copy, made after its next step
        assert _lobby_line(server, full)["taken"] == 2
        yield full, free
    client.close()


def test_filters_hide_and_show_rows(page: Any, server: str, two_tables: tuple[int, int]) -> None:
    full, free = two_tables
    _open_lobby(page, server)
    full_row = page.locator(f"[data-testid=table-row][data-table='{full}']")
    free_row = page.locator(f"[data-testid=table-row][data-table='{free}']")
    expect(full_row).to_be_visible(timeout=TIMEOUT)
    expect(free_row).to_be_visible()

    page.get_by_test_id("filter-game").select_option(label="Razz")
    expect(full_row).to_be_visible()
    expect(free_row).to_be_hidden()
    page.get_by_test_id("filter-game").select_option("")

    page.get_by_test_id("filter-stakes").select_option("2/5/10/20")
    expect(free_row).to_be_visible()
    expect(full_row).to_be_hidden()
    page.get_by_test_id("filter-stakes").select_option("")

    page.get_by_test_id("filter-free").check()
    expect(free_row).to_be_visible()
    expect(full_row).to_be_hidden()
    page.get_by_test_id("filter-free").uncheck()
    expect(full_row).to_be_visible()
    expect(free_row).to_be_visible()

    # Each row says what the lobby line says, and links to its table.
    line = _lobby_line(server, full)
    expect(full_row.get_by_test_id("stakes")).to_have_text("/".join(map(str, line["stakes"])))
    expect(full_row.get_by_test_id("seats")).to_have_text(f"{line['taken']} of {line['seats']}")
    assert full_row.get_by_test_id("join").get_attribute("href") == f"/table/{full}"
    assert full_row.get_by_test_id("watch").get_attribute("href") == f"/table/{full}?watch=1"


def _play_one_hand(server: str, client: httpx.Client, table: int) -> None:
    """The client's guest sits at seat 1, folds (or brings in, checks or calls, whichever the
    server takes) at each turn of the first hand it is dealt into, and leaves when it ends."""
    import websockets.sync.client

    cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    tries = ("fold", "bring-in", "check", "call")
    deadline = time.monotonic() + 60
    with websockets.sync.client.connect(
        server.replace("http", "ws", 1) + "/ws", additional_headers={"Cookie": cookie}, max_queue=None
    ) as ws:
        ws.send(json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "table": table}))
        ws.send(json.dumps({"type": "sit", "seat": 1, "buy_in": _lobby_line(server, table)["min_buy_in"]}))
        mine, turn, tried = None, None, 0
        while time.monotonic() < deadline:
            message = json.loads(ws.recv(timeout=30))
            kind = message["type"]
            if kind == "event":
                event = message["event"]
                if event["type"] == "hand_started" and 1 in event["seats"] and mine is None:
                    mine = event["hand"]
                if event["type"] == "hand_ended" and message.get("hand") == mine:
                    ws.send(json.dumps({"type": "leave"}))
                    return
            elif kind == "clock" and message.get("seat") == 1 and message.get("hand") == mine:
                turn, tried = message, 0
            elif kind == "error" and turn is not None:
                tried += 1  # refused: the next try for the same turn
            else:
                continue
            if turn is not None and kind in ("clock", "error") and tried < len(tries):
                act = {"type": "act", "hand": turn["hand"], "street": turn["street"], "action": tries[tried]}
                ws.send(json.dumps(act))
    pytest.fail(f"the guest's hand at table {table} did not end within a minute")


def test_recent_hands_link_to_the_replayer_and_the_downloads(context: Any, page: Any, server: str) -> None:
    client = _guest_client(server)
    try:
        table = client.post("/api/tables", json={"game": "stud8", "seats": 3, "bots": 2}).json()["id"]
        context.add_cookies([{"name": k, "value": v, "url": server} for k, v in client.cookies.items()])
        _open_lobby(page, server)
        expect(page.get_by_test_id("hands-empty")).to_be_visible()
        expect(page.get_by_test_id("download-all")).to_be_hidden()
        _play_one_hand(server, client, table)
        hands = client.get("/api/hands").json()
    finally:
        client.close()
    assert len(hands) == 1, hands
    hand = hands[0]
    _open_lobby(page, server)
    row = page.get_by_test_id("hand")
    expect(row).to_have_count(1, timeout=TIMEOUT)
    expect(row).to_contain_text(f"Table {hand['table']}, hand #{hand['number']}")
    hrefs = [a.get_attribute("href") for a in row.locator("a").all()]
    assert hrefs == [
        f"/hands/{hand['id']}",
        f"/api/hands/{hand['id']}?format=pokerstars",
        f"/api/hands/{hand['id']}?format=phh",
    ]
    expect(page.get_by_test_id("hands-empty")).to_be_hidden()
    expect(page.get_by_test_id("download-all")).to_be_visible()
    every = [page.get_by_test_id(f"download-all-{f}").get_attribute("href") for f in ("pokerstars", "phh")]
    assert every == ["/api/hands/download?format=pokerstars", "/api/hands/download?format=phh"]
    # Each download answers with the hand (the page's own session): a file, not an error.
    for link in hrefs[1:] + every:
        answer = page.request.get(f"{server}{link}")
        assert answer.status == 200 and answer.text().strip(), (link, answer.status)
        assert "attachment" in answer.headers.get("content-disposition", ""), link


def test_play_as_a_guest_by_keyboard_alone(page: Any, server: str) -> None:
    _open_lobby(page, server)
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement && document.activeElement.id") == "guest":
            break
    else:
        pytest.fail("Tab never reached 'Play now as a guest'")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("signed-in")).to_be_visible(timeout=TIMEOUT)


def test_a_refresh_of_the_tables_leaves_the_keyboard_focus_where_it_was(
    page: Any, server: str, two_tables: tuple[int, int]
) -> None:
    full, _ = two_tables
    _open_lobby(page, server)
    join = page.locator(f"[data-testid=table-row][data-table='{full}'] [data-testid=join]")
    join.focus()
    done = page.locator("body").get_attribute("data-refreshes")
    expect(page.locator("body")).not_to_have_attribute("data-refreshes", str(done), timeout=TIMEOUT)
    assert join.evaluate("node => node === document.activeElement")


def test_axe_on_the_lobby_logged_out_and_logged_in(
    page: Any, server: str, axe_check: Any, two_tables: tuple[int, int]
) -> None:
    _open_lobby(page, server)
    axe_check(page, "the lobby, logged out")
    page.get_by_test_id("guest").click()
    expect(page.get_by_test_id("signed-in")).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_test_id("table-row").first).to_be_visible(timeout=TIMEOUT)
    axe_check(page, "the lobby, logged in")


def test_screenshots_desktop_and_phone(
    browser: Any, context: Any, server: str, artifacts: Path, two_tables: tuple[int, int]
) -> None:
    desktop = context.new_page()
    _as_guest(desktop, server)
    expect(desktop.get_by_test_id("table-row").first).to_be_visible(timeout=TIMEOUT)
    desktop.screenshot(path=str(artifacts / "lobby.png"), full_page=True)

    phone_context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True)
    try:
        phone = phone_context.new_page()
        _as_guest(phone, server)
        expect(phone.get_by_test_id("table-row").first).to_be_visible(timeout=TIMEOUT)
        # Nothing wider than the phone: no sideways scrolling.
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"the lobby is {width}px wide on a 375px phone"
        phone.screenshot(path=str(artifacts / "lobby-phone.png"), full_page=True)
        # 200% zoom of a 1280x860 desktop is a 640x430 page: it must reflow, not scroll sideways.
        phone.set_viewport_size({"width": 640, "height": 430})
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 640, f"the lobby is {width}px wide at 200% zoom"
    finally:
        phone_context.close()
