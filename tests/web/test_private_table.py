"""A home game in chromium (docs/private_games.md): the host opens a private table from the
lobby; a stranger without the link finds nothing (not in the lobby, the table page says there
is no such table); with the link they ask to join, the host lets them in from the table page,
and they sit down and play a hand. Screenshots at 360x640 and 1366x660 in test-artifacts/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

TIMEOUT = 20_000  # ms: two busy cores
PREFERRED = ("check", "call", "bring-in", "complete", "bet", "raise", "fold")
PHONE, DESKTOP = {"width": 360, "height": 640}, {"width": 1366, "height": 660}


def _shot(page: Any, artifacts: Path, name: str, size: dict[str, int]) -> None:
    page.set_viewport_size(size)
    page.wait_for_timeout(200)  # the layout settles (the felt's fit runs on resize)
    page.screenshot(
        path=str(artifacts / f"private-{name}-{size['width']}x{size['height']}.png"), full_page=True
    )


def _open_private_table(host: Any, server: str) -> int:
    host.request.post(f"{server}/api/guest")
    host.goto(server + "/")
    expect(host.get_by_test_id("create-form")).to_be_visible(timeout=TIMEOUT)
    host.get_by_test_id("create-seats").select_option("4")
    host.get_by_test_id("create-bots").select_option("1")
    host.get_by_test_id("create-private").check()
    host.get_by_test_id("create-ask").check()
    host.get_by_test_id("create").click()
    host.wait_for_url(re.compile(r".*/table/\d+$"), timeout=TIMEOUT)
    return int(host.url.rsplit("/", 1)[1])


def _play_a_hand(page: Any) -> None:
    """Act whenever the page offers an action until a hand has ended (the felt's last hand)."""
    felt = page.get_by_test_id("felt")
    for _ in range(200):
        if felt.get_attribute("data-last-hand"):
            return
        bar = page.get_by_test_id("actions")
        for kind in PREFERRED:
            button = bar.locator(f"[data-testid=act-{kind}]:not([disabled])")
            if button.count():
                button.first.click()
                break
        page.wait_for_timeout(150)
    raise AssertionError("no hand ended")


def test_a_stranger_sees_nothing_without_the_link_and_plays_once_let_in(
    browser: Any, server: str, artifacts: Path
) -> None:
    host_context = browser.new_context(viewport=DESKTOP)
    guest_context = browser.new_context(viewport=PHONE)
    errors: list[str] = []
    try:
        host = host_context.new_page()
        host.on("pageerror", lambda error: errors.append(str(error)))
        table = _open_private_table(host, server)
        panel = host.get_by_test_id("host-panel")
        expect(panel).to_be_visible(timeout=TIMEOUT)
        link = host.get_by_test_id("invite-link").input_value()
        assert re.fullmatch(rf"{re.escape(server)}/invite/[A-Za-z0-9_-]{{32}}", link), link
        expect(host.get_by_test_id("ask-to-join")).to_be_checked()

        # A stranger, signed out, without the link: no line in the lobby, and the table page
        # says what it says for a table that does not exist.
        stranger = guest_context.new_page()
        stranger.on("pageerror", lambda error: errors.append(str(error)))
        assert table not in {line["id"] for line in httpx.get(f"{server}/api/lobby").json()}
        stranger.goto(f"{server}/table/{table}")
        expect(stranger.get_by_test_id("errors")).to_contain_text(f"no table {table}", timeout=TIMEOUT)
        expect(stranger.locator("[data-testid^=seat-]")).to_have_count(0)
        expect(stranger.get_by_test_id("host-panel")).to_have_count(0)
        _shot(stranger, artifacts, "stranger", PHONE)
        _shot(stranger, artifacts, "stranger", DESKTOP)
        stranger.set_viewport_size(PHONE)

        # With the link: joins as a guest, then asks; the page waits for the host.
        stranger.goto(link)
        stranger.get_by_test_id("join-as-guest").click()
        expect(stranger.get_by_test_id("invite-status")).to_contain_text("host", timeout=TIMEOUT)
        name = stranger.request.get(f"{server}/api/me").json()["name"]
        _shot(stranger, artifacts, "asking", PHONE)
        _shot(stranger, artifacts, "asking", DESKTOP)
        stranger.set_viewport_size(PHONE)
        # Still nothing to see at the table while the host has not said yes.
        assert stranger.request.get(f"{server}/api/private/tables/{table}/pass").json()["state"] == "asking"

        # The host sees the request at the table page and lets them in.
        asking = host.get_by_test_id("host-asking").locator(f"li[data-player='{name}']")
        expect(asking).to_be_visible(timeout=TIMEOUT)
        expect(host.get_by_test_id("asking-notice")).to_contain_text("1", timeout=TIMEOUT)  # by the felt
        _shot(host, artifacts, "host-asked", PHONE)
        _shot(host, artifacts, "host-asked", DESKTOP)
        asking.get_by_test_id("approve").click()
        expect(host.get_by_test_id("host-asking").locator("li")).to_have_count(0, timeout=TIMEOUT)
        expect(host.locator(f".host-players li[data-player='{name}']")).to_be_visible(timeout=TIMEOUT)

        # The invite page goes on to the table by itself; they sit and play a hand.
        stranger.wait_for_url(re.compile(rf".*/table/{table}$"), timeout=TIMEOUT)
        # Seat 3 (at a phone's width seat 3's box lies over seat 1's button: the table's own
        # layout, not this test's business).
        expect(stranger.get_by_test_id("sit-3")).to_be_visible(timeout=TIMEOUT)
        stranger.get_by_test_id("sit-3").click()
        stranger.get_by_test_id("sit-down").click()
        expect(stranger.locator(".seat.you")).to_be_visible(timeout=TIMEOUT)
        expect(stranger.get_by_test_id("felt")).to_have_attribute("data-hand", "1", timeout=TIMEOUT)
        _shot(stranger, artifacts, "playing", PHONE)
        _shot(stranger, artifacts, "playing", DESKTOP)
        stranger.set_viewport_size(PHONE)
        _play_a_hand(stranger)
        _shot(host, artifacts, "host-playing", PHONE)
        _shot(host, artifacts, "host-playing", DESKTOP)
        # The night's ledger names them with their buy-in.
        csv = host.request.get(f"{server}/api/private/tables/{table}/ledger.csv").text()
        line = next(row for row in csv.splitlines() if row.startswith(name + ","))
        assert int(line.split(",")[1]) > 0
    finally:
        guest_context.close()
        host_context.close()
    assert not errors, f"the pages raised: {errors}"


def test_a_private_sit_and_go_from_the_tournament_lobby_with_its_link(
    browser: Any, server: str, artifacts: Path
) -> None:
    """The host starts a private heads-up sit-and-go and gets its link at its page; a stranger
    without the link finds no tournament there; with it they register, and it starts."""
    host_context = browser.new_context(viewport=DESKTOP)
    guest_context = browser.new_context(viewport=PHONE)
    errors: list[str] = []
    try:
        host = host_context.new_page()
        host.on("pageerror", lambda error: errors.append(str(error)))
        host.request.post(f"{server}/api/guest")
        host.goto(server + "/tournaments")
        host.locator("#make-template").select_option("sng-heads-up")
        host.locator("#make-bots").fill("0")
        host.get_by_test_id("make-private").check()
        host.get_by_test_id("make").click()
        host.wait_for_url(re.compile(r".*/tournament/\d+$"), timeout=TIMEOUT)
        tid = int(host.url.rsplit("/", 1)[1])
        expect(host.get_by_test_id("host-panel")).to_be_visible(timeout=TIMEOUT)
        link = host.get_by_test_id("invite-link").input_value()
        _shot(host, artifacts, "sng-host", PHONE)
        _shot(host, artifacts, "sng-host", DESKTOP)

        stranger = guest_context.new_page()
        stranger.on("pageerror", lambda error: errors.append(str(error)))
        stranger.request.post(f"{server}/api/guest")
        stranger.goto(f"{server}/tournament/{tid}")
        expect(stranger.get_by_test_id("t-error")).to_contain_text(f"no tournament {tid}", timeout=TIMEOUT)
        stranger.goto(f"{server}/tournaments")
        expect(stranger.locator("#tournament-rows")).not_to_contain_text(f"/tournament/{tid}")
        assert tid not in {t["id"] for t in stranger.request.get(f"{server}/api/tournaments").json()}

        stranger.goto(link)
        stranger.wait_for_url(re.compile(rf".*/tournament/{tid}$"), timeout=TIMEOUT)
        try:
            expect(stranger.get_by_test_id("register")).to_be_visible(timeout=TIMEOUT)
        except AssertionError as missing:  # (seen once, on a loaded CI machine: said in full)
            answer = stranger.request.get(f"{server}/api/tournaments/{tid}")
            shown = stranger.get_by_test_id("t-error").text_content()
            raise AssertionError(
                f"no register button: page error {shown!r}, the API {answer.status} {answer.text()[:300]}"
            ) from missing
        stranger.get_by_test_id("register").click()
        expect(stranger.get_by_test_id("go-to-table")).to_be_visible(timeout=TIMEOUT)  # seated: a link
        _shot(stranger, artifacts, "sng-entered", PHONE)
        _shot(stranger, artifacts, "sng-entered", DESKTOP)
    finally:
        guest_context.close()
        host_context.close()
    assert not errors, f"the pages raised: {errors}"


@pytest.mark.parametrize(
    ("tag", "lang"), [("uk-UA", "uk"), ("ru-RU", "ru"), ("et-EE", "et"), ("en-GB", "en")]
)
def test_the_host_panel_and_invite_page_fit_a_phone_in_every_language(
    browser: Any, server: str, artifacts: Path, axe_check: Any, tag: str, lang: str
) -> None:
    context = browser.new_context(viewport=PHONE, locale=tag)
    try:
        page = context.new_page()
        page.request.post(f"{server}/api/guest")
        made = page.request.post(
            f"{server}/api/tables",
            data={"game": "stud8", "seats": 4, "bots": 1, "private": True, "ask_to_join": True},
        ).json()
        page.goto(f"{server}/web/i18n/en.json")  # this origin's storage: the link, as the lobby keeps it
        page.evaluate(f"localStorage.setItem('sevenstud.invite.{made['id']}', '{made['invite']}')")
        with httpx.Client(base_url=server) as asker:
            asker.post("/api/guest")
            assert asker.post("/api/invite", json={"token": made["invite"]}).json()["state"] == "asking"
        page.goto(f"{server}/table/{made['id']}")
        panel = page.get_by_test_id("host-panel")
        expect(panel.get_by_test_id("approve")).to_be_visible(timeout=TIMEOUT)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        overflowing = panel.evaluate(
            """box => [box, ...box.querySelectorAll('*')]
                .filter(n => n.getBoundingClientRect().right > window.innerWidth + 0.5)
                .map(n => n.outerHTML.slice(0, 80))"""
        )
        assert overflowing == [], overflowing
        panel.screenshot(path=str(artifacts / f"private-host-panel-{lang}-360x640.png"))
        # The invite page, signed out, in the same language: fits, and axe-core clean.
        stranger = browser.new_context(viewport=PHONE, locale=tag)
        try:
            invite = stranger.new_page()
            invite.goto(f"{server}/invite/{made['invite']}")
            expect(invite.get_by_test_id("join-as-guest")).to_be_visible(timeout=TIMEOUT)
            assert invite.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            invite.screenshot(path=str(artifacts / f"private-invite-{lang}-360x640.png"))
            axe_check(invite, f"the invite page in {lang}")
        finally:
            stranger.close()
    finally:
        context.close()
