"""The operator's console in chromium (issue 33, points 2 and 8): an operator made by
``sevenstud admin create`` signs in, opens /admin, finds a player seated at a table in another
browser, and suspends them with a reason: the player's table page is closed saying why, their
seat's chips go back to their balance when the hand ends, the audit stays clean, and the
console's event log shows the suspension. A stale operator's sign-in asks for the password
again; a player sees the operators-only sentence and no tabs. The accounts, event log and
tokens parts at 360x640 and 1366x660 in the four languages, their text inside the page."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect
from sqlalchemy import select, update

from sevenstud.server.audit import audit
from sevenstud.server.operators.command import admin_command
from sevenstud.server.store import Store, open_store
from sevenstud.server.store.models import LoginSession, Player, Sitting
from tests.web.conftest import card_room

TIMEOUT = 20_000
PASSWORD = "correct horse battery"
WORDS = Path(__file__).resolve().parents[2] / "src" / "sevenstud" / "web" / "i18n"


def _words(lang: str) -> dict[str, Any]:
    return json.loads((WORDS / f"{lang}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Store]]:
    """A card room of this module's own, with the operator ``boss`` made by ``sevenstud admin
    create``, and its database open here (to look behind the pages)."""
    folder = tmp_path_factory.mktemp("console")
    database = folder / "cardroom.sqlite3"
    with card_room(database, pause=0.3) as base:
        password = folder / "password"
        password.write_text(PASSWORD + "\n")
        made = argparse.Namespace(
            admin="create", name="boss", password_file=password, database=f"sqlite:///{database}"
        )
        assert admin_command(made) == 0
        store = open_store(f"sqlite:///{database}", migrate=False)
        try:
            yield base, store
        finally:
            store.close()


def _signed_in(
    browser: Any, base: str, name: str, size: tuple[int, int] = (1280, 860), lang: str = "en"
) -> Any:
    """A browser context of its own, signed in as ``name`` (the log-in the lobby makes)."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=lang)
    answer = context.request.post(f"{base}/api/login", data={"name": name, "password": PASSWORD})
    assert answer.ok, answer.text()
    return context


def _sign_up(base: str, name: str) -> None:
    httpx.post(f"{base}/api/signup", json={"name": name, "password": PASSWORD}).raise_for_status()


def _fails_on_script_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def test_an_operator_suspends_a_seated_player_whose_page_closes_saying_why(
    room: tuple[str, Store], browser: Any
) -> None:
    base, store = room
    _sign_up(base, "pat")
    player = _signed_in(browser, base, "pat")
    operator = _signed_in(browser, base, "boss")
    try:
        body = {"game": "stud", "seats": 2, "bots": 1, "sit": True}
        made = player.request.post(f"{base}/api/tables", data=body)
        assert made.ok, made.text()
        table = made.json()["id"]
        table_page = player.new_page()
        table_errors = _fails_on_script_errors(table_page)
        table_page.goto(f"{base}/table/{table}")
        deadline = time.monotonic() + 30
        while not _open_seat(store, "pat"):
            assert time.monotonic() < deadline, "pat never sat down"
            time.sleep(0.1)

        console = operator.new_page()
        errors = _fails_on_script_errors(console)
        console.goto(f"{base}/admin")
        console.get_by_test_id("accounts-query").fill("pa")
        console.get_by_test_id("accounts-find").click()
        console.get_by_test_id("account-open").filter(has_text="pat").click()
        expect(console.get_by_test_id("account-name")).to_have_text("pat")
        expect(console.get_by_test_id("account-seats")).to_contain_text(str(table))
        # A chip move with its reason: a ledger transfer, shown in the player's own history.
        console.get_by_test_id("account-reason").fill("league prize")
        console.get_by_test_id("chips-amount").fill("250")
        console.get_by_test_id("chips-move").click()
        expect(console.get_by_test_id("accounts-said")).to_contain_text("pat")
        history = player.new_page()
        history.goto(f"{base}/history")
        expect(history.get_by_test_id("chip-move").first).to_contain_text("league prize", timeout=TIMEOUT)
        expect(history.get_by_test_id("chip-move").first).to_contain_text("+250")
        history.close()
        console.get_by_test_id("account-reason").fill("abuse in chat")
        console.get_by_test_id("suspend-days").fill("2")
        console.get_by_test_id("account-suspend").click()
        expect(console.get_by_test_id("accounts-said")).to_contain_text("pat")
        expect(console.get_by_test_id("account-why")).to_have_text("abuse in chat")

        # The player's page: closed at once, saying the account is suspended; not reconnecting.
        closed = table_page.get_by_test_id("table-closed")
        expect(closed).to_contain_text("suspended", timeout=TIMEOUT)
        expect(table_page.get_by_test_id("end-lobby")).to_be_visible()

        # Their seat's chips go back to their balance when the hand in progress ends.
        deadline = time.monotonic() + 90
        while _open_seat(store, "pat"):
            assert time.monotonic() < deadline, "pat's seat was never given back"
            time.sleep(0.2)
        report = audit(store)
        assert report.ok, str(report)

        console.get_by_test_id("tab-events").click()
        line = console.locator("[data-testid=event-line][data-action=suspend]")
        expect(line).to_have_count(1, timeout=TIMEOUT)
        expect(line).to_contain_text("abuse in chat")
        expect(line).to_contain_text("boss")
        console.get_by_test_id("events-target").fill("pat")
        console.get_by_test_id("events-show").click()
        expect(console.get_by_test_id("event-line")).to_have_count(2)  # the chips and the suspension
        assert not errors and not table_errors, errors + table_errors
    finally:
        player.close()
        operator.close()


def _open_seat(store: Store, name: str) -> bool:
    with store.session() as s:
        found = s.scalar(
            select(Sitting.id)
            .join(Player, Player.id == Sitting.player_id)
            .where(Player.name == name, Sitting.open)
        )
        return found is not None


def test_a_stale_operator_sign_in_asks_for_the_password_and_goes_on(
    room: tuple[str, Store], browser: Any
) -> None:
    base, store = room
    operator = _signed_in(browser, base, "boss")
    try:
        console = operator.new_page()
        errors = _fails_on_script_errors(console)
        console.goto(f"{base}/admin#events")
        expect(console.get_by_test_id("event-line").first).to_be_visible(timeout=TIMEOUT)
        with store.transaction() as s:  # signed in an hour ago: older than FRESH_SECONDS
            s.execute(update(LoginSession).values(created_at=LoginSession.created_at - 3600))
        console.get_by_test_id("tab-accounts").click()
        console.get_by_test_id("accounts-query").fill("boss")
        console.get_by_test_id("accounts-find").click()
        again = console.get_by_test_id("sign-in-again")
        expect(again).to_be_visible(timeout=TIMEOUT)
        console.get_by_test_id("again-password").fill("not the password")
        console.get_by_test_id("again-submit").click()
        expect(again).to_be_visible()
        console.get_by_test_id("again-password").fill(PASSWORD)
        console.get_by_test_id("again-submit").click()
        expect(again).to_be_hidden(timeout=TIMEOUT)
        expect(console.get_by_test_id("account-open")).to_have_text("boss")  # the call went on
        assert not errors, errors
    finally:
        operator.close()


def test_a_player_opening_the_console_is_told_it_is_for_operators(
    room: tuple[str, Store], browser: Any
) -> None:
    base, _store = room
    _sign_up(base, "sam")
    player = _signed_in(browser, base, "sam")
    try:
        page = player.new_page()
        page.goto(f"{base}/admin")
        expect(page.get_by_test_id("admin-error")).to_have_text(_words("en")["admin.operators_only"])
        expect(page.get_by_role("tab")).to_have_count(0)
        expect(page.get_by_test_id("admin-parts")).to_be_hidden()
    finally:
        player.close()


@pytest.mark.parametrize(
    ("size", "lang"),
    [((360, 640), "ru"), ((1366, 660), "et"), ((360, 640), "uk"), ((1366, 660), "en"), ((360, 640), "et")],
    ids=["360x640-ru", "1366x660-et", "360x640-uk", "1366x660-en", "360x640-et"],
)
def test_the_accounts_events_and_tokens_parts_fit_the_screen(
    room: tuple[str, Store],
    browser: Any,
    artifacts: Path,
    axe_check: Callable[[Any, str], None],
    size: tuple[int, int],
    lang: str,
) -> None:
    base, _store = room
    words = _words(lang)
    operator = _signed_in(browser, base, "boss", size, lang)
    try:
        console = operator.new_page()
        errors = _fails_on_script_errors(console)
        console.goto(f"{base}/admin#accounts")
        console.get_by_test_id("accounts-query").fill("boss")
        console.get_by_test_id("accounts-find").click()
        console.get_by_test_id("account-open").first.click()
        expect(console.get_by_test_id("account-name")).to_have_text("boss")
        expect(console.get_by_test_id("account-suspend")).to_have_text(words["admin.accounts.suspend"])
        _fits(console, "accounts")
        axe_check(console, f"the console's accounts ({lang})")
        console.screenshot(
            path=str(artifacts / f"console-accounts-{size[0]}x{size[1]}-{lang}.png"), full_page=True
        )

        console.get_by_test_id("tab-events").click()
        expect(console.get_by_test_id("event-line").first).to_be_visible(timeout=TIMEOUT)
        _fits(console, "events")
        axe_check(console, f"the console's event log ({lang})")
        console.screenshot(
            path=str(artifacts / f"console-events-{size[0]}x{size[1]}-{lang}.png"), full_page=True
        )

        console.get_by_test_id("tab-tokens").click()
        console.get_by_test_id("token-label").fill(f"site {lang} {size[0]}")
        console.get_by_test_id("scope-events:read").check()
        console.get_by_test_id("token-make").click()
        shown = console.get_by_test_id("token-shown")
        expect(shown).to_be_visible(timeout=TIMEOUT)
        assert shown.input_value().startswith("ssk_")
        expect(console.get_by_test_id("tokens-said")).to_have_text(words["admin.tokens.shown_once"])
        _fits(console, "tokens")
        axe_check(console, f"the console's tokens ({lang})")
        console.screenshot(
            path=str(artifacts / f"console-tokens-{size[0]}x{size[1]}-{lang}.png"), full_page=True
        )
        mine = console.get_by_test_id("token-line").filter(has_text=f"site {lang} {size[0]}")
        mine.get_by_test_id("token-revoke").click()
        expect(mine.get_by_test_id("token-revoke")).to_have_count(0, timeout=TIMEOUT)
        assert not errors, errors
    finally:
        operator.close()


def _fits(page: Any, part: str) -> None:
    """The page does not scroll sideways, and no label, button or heading of the part spills
    out of its box (tables scroll inside their own box, by design)."""
    overflow = page.evaluate(
        """(part) => {
          const wide = document.documentElement.scrollWidth - window.innerWidth;
          const panel = document.getElementById(`panel-${part}`);
          const spilled = [...panel.querySelectorAll("label, button, h3, h4, p, legend, dt, dd")]
            .filter((n) => n.offsetParent !== null && n.closest(".scroll") === null)
            .filter((n) => n.scrollWidth > n.clientWidth + 1)
            .map((n) => n.textContent.slice(0, 40));
          return { wide, spilled };
        }""",
        part,
    )
    assert overflow["wide"] <= 0, f"{part}: the page scrolls sideways by {overflow['wide']} px"
    assert not overflow["spilled"], f"{part}: text spills out of its box: {overflow['spilled']}"


def test_a_reset_link_made_in_the_console_sets_a_new_password(room: tuple[str, Store], browser: Any) -> None:
    base, _store = room
    _sign_up(base, "lou")
    operator = _signed_in(browser, base, "boss")
    stranger = browser.new_context(locale="uk")
    try:
        console = operator.new_page()
        console.goto(f"{base}/admin")
        console.get_by_test_id("accounts-query").fill("lou")
        console.get_by_test_id("accounts-find").click()
        console.get_by_test_id("account-open").click()
        console.get_by_test_id("account-reason").fill("lost the password, asked in person")
        console.get_by_test_id("account-reset").click()
        link = console.get_by_test_id("reset-link")
        expect(link).to_be_visible(timeout=TIMEOUT)
        address = link.input_value()
        assert address.startswith(f"{base}/reset/")

        page = stranger.new_page()
        errors = _fails_on_script_errors(page)
        page.goto(address)
        words = _words("uk")
        expect(page.get_by_test_id("reset-whose")).to_have_text(words["reset.whose"].replace("{name}", "lou"))
        page.get_by_test_id("reset-password").fill("a brand new one")
        page.get_by_test_id("reset-again").fill("a brand new one")
        page.get_by_test_id("reset-submit").click()
        expect(page.get_by_test_id("reset-done")).to_contain_text("lou", timeout=TIMEOUT)
        page.reload()  # used once: the link is dead now
        expect(page.get_by_test_id("reset-problem")).not_to_be_empty()
        expect(page.get_by_test_id("reset-form")).to_be_hidden()
        signed = httpx.post(f"{base}/api/login", json={"name": "lou", "password": "a brand new one"})
        assert signed.status_code == 200
        assert not errors, errors
    finally:
        operator.close()
        stranger.close()
