"""Issue 33, point 8's chat in Debian's chromium: a player reports another's chat line at a
table, the operator sees the report in the console and mutes the reported player from it; the
muted player's next line is refused on their page with the reason; the event log holds the
mute. Then the report form and the console's chat part at 360x640 and 1366x660 in each of the
four languages: screenshots in test-artifacts/, no text wider than its box, axe-core clean."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("websockets", reason="needs the server extra (pip install -e '.[server]')")
from playwright.sync_api import expect

from sevenstud.server.accounts.sessions import COOKIE

WEB = Path(__file__).resolve().parents[2] / "src" / "sevenstud" / "web"
TIMEOUT = 15_000
PASSWORD = "correct horse battery"
SIZES = ((360, 640), (1366, 660))
LANGUAGES = ("en", "ru", "uk", "et")

OVERFLOWING = """(root) => [...root.querySelectorAll('button, label, p, th, td, h3, li, option, q, span')]
  .filter((n) => n.offsetParent !== null && n.scrollWidth > n.clientWidth + 1
    && getComputedStyle(n).overflow === 'visible' && !['SPAN', 'Q', 'TD'].includes(n.tagName))
  .map((n) => n.tagName + ': ' + n.textContent.slice(0, 60))"""
"""The elements whose text runs past their own box (a table's cells may scroll in the panel)."""


@dataclass(slots=True)
class Room:
    """The card room of this module: its address, and a logged-in session token by name."""

    base: str
    tokens: dict[str, str]


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    import httpx

    from sevenstud.server.accounts import auth
    from sevenstud.server.app import create_app
    from sevenstud.server.limits import Limits
    from sevenstud.server.operators import accounts, log
    from sevenstud.server.store import open_store
    from tests.spawn import in_thread

    store = open_store(f"sqlite:///{tmp_path_factory.mktemp('chatmod') / 'cardroom.sqlite3'}")
    accounts.create(store, log.COMMAND_LINE, "boss", PASSWORD)
    for name in ("pat", "kim"):
        auth.sign_up(store, name, PASSWORD)
    lifted = Limits(
        guests_per_address=1000,
        tables_per_address=1000,
        tables_per_account=1000,
        sockets_per_address=1000,
        chat_reports=1000,  # the limit is tests/server/test_chat_moderation.py's
    )
    app = create_app(store, pause=0.5, limits=lifted)
    try:
        with in_thread(app) as address:
            base = f"http://{address}"
            tokens = {}
            for name in ("boss", "pat", "kim"):
                answer = httpx.post(f"{base}/api/login", json={"name": name, "password": PASSWORD})
                tokens[name] = answer.raise_for_status().cookies[COOKIE]
            yield Room(base, tokens)
    finally:
        store.close()


def _as(browser: Any, room: Room, name: str, width: int = 1366, height: int = 660, lang: str = "en") -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, locale=lang)
    context.add_cookies([{"name": COOKIE, "value": room.tokens[name], "url": room.base}])
    context.add_init_script(f"localStorage.setItem('sevenstud.lang', '{lang}')")
    return context


def _fits(page: Any, what: str, root: str = "main") -> None:
    """No text of ``root`` runs past its box, and ``root`` ends inside the screen (the table
    page's felt is table.css's to fit: here the report form is checked)."""
    box = page.locator(root).first
    inside = "(n) => n.getBoundingClientRect().right <= window.innerWidth + 1"
    assert page.evaluate(inside, box.element_handle()), f"{what}: wider than the screen"
    assert page.evaluate(OVERFLOWING, box.element_handle()) == [], what


@pytest.mark.alone
def test_a_reported_player_is_muted_from_the_console_and_their_next_line_is_refused(
    browser: Any, room: Room, artifacts: Path, axe_check: Any
) -> None:
    pat_context, kim_context, boss_context = (_as(browser, room, n) for n in ("pat", "kim", "boss"))
    try:
        opened = pat_context.request.post(
            f"{room.base}/api/tables", data={"game": "stud8", "seats": 4, "bots": 0}
        )
        table = opened.json()["id"]
        pat, kim = pat_context.new_page(), kim_context.new_page()
        for page in (pat, kim):
            page.goto(f"{room.base}/table/{table}?sit=1")
            expect(page.locator(".seat.you")).to_have_count(1, timeout=TIMEOUT)

        pat.get_by_test_id("chat-text").fill("you all play like fish")
        pat.get_by_test_id("chat-text").press("Enter")
        line = kim.get_by_test_id("chat-line").filter(has_text="you all play like fish")
        expect(line).to_have_text("pat: you all play like fish", timeout=TIMEOUT)  # the flag is no text
        expect(pat.get_by_test_id("chat-report-button")).to_be_hidden()  # never one's own line
        line.get_by_test_id("chat-report-button").click()
        expect(kim.get_by_test_id("chat-report")).to_contain_text("you all play like fish")
        kim.get_by_test_id("chat-report-reason").fill("insults every hand")
        kim.screenshot(path=str(artifacts / "chat-report-form-1366.png"))
        kim.get_by_test_id("chat-report-send").click()
        expect(kim.get_by_test_id("chat-report-status")).to_have_text(
            "Reported: the room's operators will look at it.", timeout=TIMEOUT
        )
        expect(line.get_by_test_id("chat-report-button")).to_be_disabled()

        console = boss_context.new_page()
        console.goto(f"{room.base}/admin#chat")
        report = console.get_by_test_id("admin-chat-report")
        expect(report).to_have_count(1, timeout=TIMEOUT)
        for said in ("pat", "you all play like fish", "kim", "insults every hand", str(table)):
            expect(report).to_contain_text(said)
        console.screenshot(path=str(artifacts / "admin-chat-report-1366.png"), full_page=True)
        axe_check(console, "the console's chat part")
        report.get_by_role("button", name="Mute pat").click()
        expect(console.get_by_test_id("admin-chat-mute-player")).to_have_value("pat")
        console.get_by_test_id("admin-chat-mute-reason").fill("insults at the table")
        console.get_by_test_id("admin-chat-mute").click()
        expect(console.get_by_test_id("admin-chat-mute-status")).to_contain_text(
            "pat is muted until", timeout=TIMEOUT
        )
        expect(console.get_by_test_id("admin-chat-muted")).to_contain_text("insults at the table")
        expect(console.get_by_test_id("admin-chat-reports")).to_have_text("No open reports.")
        console.get_by_test_id("admin-chat-log-table").fill(str(table))
        console.get_by_test_id("admin-chat-log-show").click()
        expect(console.get_by_test_id("admin-chat-log-line")).to_contain_text("you all play like fish")
        console.screenshot(path=str(artifacts / "admin-chat-muted-1366.png"), full_page=True)

        pat.get_by_test_id("chat-text").fill("fish, all of you")
        pat.get_by_test_id("chat-text").press("Enter")
        refused = pat.get_by_test_id("errors")
        expect(refused).to_contain_text("you are muted in chat until", timeout=TIMEOUT)
        expect(refused).to_contain_text("insults at the table")
        refused.scroll_into_view_if_needed()
        pat.screenshot(path=str(artifacts / "chat-muted-refused-1366.png"))
        assert kim.get_by_test_id("chat-line").filter(has_text="fish, all of you").count() == 0

        events = boss_context.request.get(
            f"{room.base}/api/admin/events", params={"action": "chat_mute"}
        ).json()
        assert [(e["operator"], e["target"], e["reason"]) for e in events] == [
            ("boss", "pat", "insults at the table")
        ]
        lifted = console.get_by_role("button", name="Lift the mute of pat")
        lifted.click()
        console.get_by_test_id("admin-chat-lift-reason").fill("apologised")
        console.get_by_test_id("admin-chat-lift-confirm").click()
        expect(console.get_by_test_id("admin-chat-mutes")).to_have_text("Nobody is muted.", timeout=TIMEOUT)
        pat.get_by_test_id("chat-text").fill("sorry, all")
        pat.get_by_test_id("chat-text").press("Enter")
        expect(kim.get_by_test_id("chat-line").filter(has_text="sorry, all")).to_have_count(
            1, timeout=TIMEOUT
        )
    finally:
        for context in (pat_context, kim_context, boss_context):
            context.close()


@pytest.mark.alone
def test_the_report_form_and_the_consoles_chat_part_fit_in_every_language(
    browser: Any, room: Room, artifacts: Path
) -> None:
    """Both sizes, four languages: a report waiting, a mute in force, a word refused, the
    chat log shown; every text inside its box."""
    setup = _as(browser, room, "boss")
    setup.request.post(f"{room.base}/api/admin/chat/words", data={"word": "donkey"})
    setup.request.post(f"{room.base}/api/admin/chat/mutes/kim", data={"hours": 24, "reason": "spam"})
    table = setup.request.post(
        f"{room.base}/api/tables", data={"game": "stud8", "seats": 4, "bots": 0}
    ).json()["id"]
    setup.close()
    for name in ("pat", "kim"):  # seated once: every page below finds them at the table
        seated = _as(browser, room, name)
        page = seated.new_page()
        page.goto(f"{room.base}/table/{table}?sit=1")
        expect(page.locator(".seat.you")).to_have_count(1, timeout=TIMEOUT)
        seated.close()
    for width, height in SIZES:
        for lang in LANGUAGES:
            pat_context = _as(browser, room, "pat", width, height, lang)
            kim_context = _as(browser, room, "kim", width, height, lang)
            boss_context = _as(browser, room, "boss", width, height, lang)
            try:
                pat, kim = pat_context.new_page(), kim_context.new_page()
                for page in (pat, kim):
                    page.goto(f"{room.base}/table/{table}")
                    expect(page.locator(".seat.you")).to_have_count(1, timeout=TIMEOUT)
                    # the chat opens from the table's button (a sheet over the table on a phone)
                    page.get_by_test_id("open-chat").click()
                text = f"a long line to report, in {lang}, at {width} pixels wide"
                pat.get_by_test_id("chat-text").fill(text)
                pat.get_by_test_id("chat-text").press("Enter")
                line = kim.get_by_test_id("chat-line").filter(has_text=text)
                line.get_by_test_id("chat-report-button").click()
                kim.get_by_test_id("chat-report").scroll_into_view_if_needed()
                kim.screenshot(path=str(artifacts / f"chat-report-form-{lang}-{width}.png"))
                _fits(kim, f"the report form in {lang} at {width}", ".chat-panel")
                kim.get_by_test_id("chat-report-send").click()
                said = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))[
                    "chat.reported"
                ]
                expect(kim.get_by_test_id("chat-report-status")).to_have_text(said, timeout=TIMEOUT)
                _fits(kim, f"the report sent in {lang} at {width}", ".chat-panel")

                console = boss_context.new_page()
                console.goto(f"{room.base}/admin#chat")
                expect(console.get_by_test_id("admin-chat-report")).to_have_count(1, timeout=TIMEOUT)
                expect(console.get_by_test_id("admin-chat-muted")).to_have_count(1)
                console.get_by_test_id("admin-chat-log-table").fill(str(table))
                console.get_by_test_id("admin-chat-log-show").click()
                expect(console.get_by_test_id("admin-chat-log-line").filter(has_text=text)).to_have_count(
                    1, timeout=TIMEOUT
                )
                console.screenshot(path=str(artifacts / f"admin-chat-{lang}-{width}.png"), full_page=True)
                _fits(console, f"the console's chat part in {lang} at {width}")
                console.get_by_test_id("admin-chat-report").get_by_role("button").last.click()  # dismissed
                expect(console.get_by_test_id("admin-chat-report")).to_have_count(0, timeout=TIMEOUT)
            finally:
                for context in (pat_context, kim_context, boss_context):
                    context.close()
