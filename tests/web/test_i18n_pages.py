"""The pages in four languages (issue 16, points 8 and 9) in Debian's chromium: the language
chosen from the browser's languages, switched from the menu on every page and remembered, the
<html lang> set, the table's hello carrying it, the "How to play" pages of each game with their
pictures of cards, and axe-core clean in each language. Every expected word is read from the
catalogs the server serves (/web/i18n/<lang>.json), never written here."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

TIMEOUT = 15_000
LANGUAGES = ("en", "uk", "ru", "et")
GAMES = ("stud8", "stud", "razz")


@pytest.fixture(scope="module")
def catalogs(server: str) -> dict[str, dict[str, Any]]:
    return {lang: httpx.get(f"{server}/web/i18n/{lang}.json", timeout=15).json() for lang in LANGUAGES}


@pytest.fixture
def in_language(browser: Any) -> Iterator[Any]:
    """``in_language(tag)``: a page in a fresh context whose browser languages are ``tag``
    (navigator.languages); a script error on any of them fails the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_page(tag: str) -> Any:
        context = browser.new_context(locale=tag, viewport={"width": 1280, "height": 860})
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert not errors, f"a page raised: {errors}"


def _table(server: str) -> int:
    client = httpx.Client(base_url=server, timeout=15)
    client.post("/api/guest").raise_for_status()
    made = client.post("/api/tables", json={"game": "stud8", "seats": 3, "bots": 2})
    made.raise_for_status()
    return int(made.json()["id"])


@pytest.mark.parametrize(
    ("tag", "lang"), [("uk-UA", "uk"), ("ru-RU", "ru"), ("et-EE", "et"), ("de-DE", "en")]
)
def test_the_lobby_speaks_the_browsers_language(
    in_language: Any, server: str, catalogs: dict[str, Any], axe_check: Any, tag: str, lang: str
) -> None:
    """Rule: with no choice kept, the page speaks the first of the browser's languages the card
    room speaks (German: English), says so in <html lang>, and is axe-core clean in it."""
    page = in_language(tag)
    page.goto(f"{server}/")
    expect(page.locator("body[data-ready]")).to_have_count(1, timeout=TIMEOUT)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    words = catalogs[lang]
    expect(page.locator("#play-now-title")).to_have_text(words["lobby.play_now"])
    expect(page.get_by_test_id("play-now")).to_have_text(words["lobby.play_now_button"])
    expect(page.locator("#create-game option[value=razz]")).to_have_text(words["game.razz"])
    expect(page.get_by_test_id("language")).to_have_value(lang)
    axe_check(page, f"the lobby in {lang}")


def test_the_language_menu_switches_every_page_and_is_remembered(
    in_language: Any, server: str, catalogs: dict[str, Any]
) -> None:
    """Rule: choosing a language in any page's menu shows the page in it at once, and every page
    opened afterwards in this browser keeps it (localStorage), whatever the browser's languages."""
    page = in_language("en-US")
    page.goto(f"{server}/rules/stud")
    expect(page.locator("body[data-ready]")).to_have_count(1, timeout=TIMEOUT)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    with page.expect_navigation():
        page.get_by_test_id("language").select_option("et")
    expect(page.locator("body[data-ready]")).to_have_count(1, timeout=TIMEOUT)
    expect(page.locator("html")).to_have_attribute("lang", "et")
    title = catalogs["et"]["rules.title"].replace("{game}", catalogs["et"]["game.stud"])
    expect(page.get_by_test_id("rules-title")).to_have_text(title)
    page.goto(f"{server}/")
    expect(page.locator("body[data-ready]")).to_have_count(1, timeout=TIMEOUT)
    expect(page.locator("html")).to_have_attribute("lang", "et")
    expect(page.locator("#tables-title")).to_have_text(catalogs["et"]["lobby.tables"])
    with page.expect_navigation():
        page.get_by_test_id("language").select_option("ru")
    expect(page.locator("body[data-ready]")).to_have_count(1, timeout=TIMEOUT)
    expect(page.locator("html")).to_have_attribute("lang", "ru")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_how_to_play_pages_in_each_language(
    in_language: Any, server: str, catalogs: dict[str, Any], axe_check: Any, lang: str
) -> None:
    """Rule (point 9): each game has a "How to play" page in each language, its sections from
    the catalog, with small pictures of cards for the bring-in, the first actor, the pot at the
    showdown (the hi/lo split in hi/lo) and the community card; each is axe-core clean."""
    page = in_language(lang)
    words = catalogs[lang]
    for game in GAMES:
        page.goto(f"{server}/rules/{game}")
        expect(page.locator("body[data-ready]")).to_have_count(1, timeout=TIMEOUT)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.get_by_test_id("rules-title")).to_have_text(
            words["rules.title"].replace("{game}", words[f"game.{game}"])
        )
        for key in ("goal", "bring_in", "first", "showdown"):
            expect(page.get_by_test_id("rules-body")).to_contain_text(words[f"rules.{game}.{key}"])
        for picture, least in (("bring-in", 3), ("first", 6), ("showdown", 14), ("community", 13)):
            figure = page.get_by_test_id(f"picture-{picture}")
            expect(figure).to_be_visible()
            assert figure.locator(".card").count() >= least, (game, picture)
        caption = page.get_by_test_id("picture-showdown").locator("figcaption")
        expect(caption).to_have_text(words[f"rules.{game}.pic_showdown"])
        # the cards are named in the language for a screen reader
        first_card = page.get_by_test_id("picture-bring-in").locator(".card").first
        assert first_card.get_attribute("aria-label") != "Nine of hearts" or lang == "en"
        expect(page.get_by_test_id(f"rules-link-{game}")).to_have_attribute("aria-current", "page")
        axe_check(page, f"how to play {game} in {lang}")
    assert httpx.get(f"{server}/rules/holdem", timeout=15).status_code == 404


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_in_each_language_says_hello_with_it_and_links_its_rules(
    in_language: Any, server: str, catalogs: dict[str, Any], axe_check: Any, lang: str
) -> None:
    """Rule: the table page speaks the chosen language, tells the server in hello (so the
    server's words follow it), links the game's "How to play" page and is axe-core clean."""
    table = _table(server)
    page = in_language(lang)
    hellos: list[dict[str, Any]] = []

    def watch(socket: Any) -> None:
        def sent(payload: Any) -> None:
            try:
                message = json.loads(payload)
            except (TypeError, ValueError):
                return
            if message.get("type") == "hello":
                hellos.append(message)

        socket.on("framesent", sent)

    page.on("websocket", watch)
    page.goto(f"{server}/table/{table}?watch=1")
    expect(page.get_by_test_id("felt")).to_have_attribute("data-number", re.compile(r"\d+"), timeout=TIMEOUT)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    words = catalogs[lang]
    expect(page.get_by_test_id("connection")).to_have_text(words["table.connected_watching"], timeout=TIMEOUT)
    expect(page.get_by_test_id("table-title")).to_contain_text(words["game.stud8"])
    expect(page.get_by_test_id("rules-link")).to_have_attribute("href", "/rules/stud8")
    expect(page.get_by_test_id("rules-link")).to_have_text(words["rules.link"])
    assert hellos and all(h.get("lang") == lang for h in hellos), hellos
    axe_check(page, f"the table in {lang}")


@pytest.mark.parametrize("lang", ("uk", "ru", "et"))
def test_the_study_page_in_each_language(
    in_language: Any, server: str, catalogs: dict[str, Any], axe_check: Any, lang: str
) -> None:
    """Rule: the equity page's words (its form, its players, the grid's suits) are the
    language's, and the page is axe-core clean in it."""
    page = in_language(lang)
    page.goto(f"{server}/equity")
    words = catalogs[lang]
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("h1").last).to_have_text(words["equity.heading"], timeout=TIMEOUT)
    expect(page.get_by_test_id("run")).to_have_text(words["equity.run"])
    expect(page.locator(".grid-row").first).to_have_attribute("aria-label", words["equity.suit_s"])
    axe_check(page, f"the study page in {lang}")


# ---------------------------------------------------------------------- history, chat, tournaments

PIECE_EDGES = " .,:;()!?-–/+…"
VISIBLE_WORDS = """() => {
  const parts = [document.title, document.body.innerText];
  for (const node of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
    for (const attr of ["aria-label", "title", "placeholder"]) parts.push(node.getAttribute(attr) || "");
  }
  for (const option of document.querySelectorAll("option")) parts.push(option.textContent);
  return parts.join("\\n");
}"""


def _forms(entry: Any) -> list[str]:
    return list(entry.values()) if isinstance(entry, dict) else [entry]


def english_left(page: Any, catalogs: dict[str, dict[str, Any]], lang: str) -> list[tuple[str, str, str]]:
    """The English catalog's words a page in ``lang`` still shows (its text, title, options,
    aria-labels, titles and placeholders): each fixed piece of an English entry (the parts
    between its ``{placeholders}``, 4 characters or more) found whole on the page, where the
    language's entry says it otherwise (a piece the language keeps, such as "VPIP", or a whole
    entry it says in English, such as Estonian's "Seven Card Stud", is no English left over)."""
    shown = page.evaluate(VISIBLE_WORDS)
    for entry in catalogs[lang].values():  # the language's own words, English ones included
        for form in _forms(entry):
            if "{" not in form and len(form) >= 4:
                shown = shown.replace(form, " ")
    found = []
    for key, english in catalogs["en"].items():
        theirs = " ".join(_forms(catalogs[lang][key]))
        for form in _forms(english):
            for piece in re.split(r"\{\w+\}|<[^>]+>", form):
                piece = piece.strip(PIECE_EDGES)
                if len(piece) < 4 or not re.search(r"[A-Za-z]{3}", piece) or piece in theirs:
                    continue
                where = re.search(rf"(?<![\w-]){re.escape(piece)}(?![\w-])", shown)
                if where:
                    found.append((key, piece, shown[max(0, where.start() - 40) : where.end() + 40]))
    return found


@pytest.fixture(scope="module")
def player(server: str) -> dict[str, Any]:
    """A guest who has played a hand at a table with two bots (so that the history has a row
    and the bots have statistics), a registering sit-and-go, and the guest's session cookie."""
    from sevenstud.server.accounts.sessions import COOKIE
    from tests.house import house_tournament, operator
    from tests.web.test_social import _play_hands

    client = httpx.Client(base_url=server, timeout=15)
    name = client.post("/api/guest").raise_for_status().json()["name"]
    # Named by the test: a name is the player's words, not the page's (the default is English)
    made_table = client.post("/api/tables", json={"name": "Tallinn", "game": "stud8", "seats": 3, "bots": 2})
    table = made_table.json()["id"]
    token = client.cookies[COOKIE]
    with ThreadPoolExecutor(1) as thread:  # Playwright's sync API holds this thread's loop
        thread.submit(asyncio.run, asyncio.wait_for(_play_hands(server, token, table, 1), 90)).result()
    house = operator(None, server)  # public tournaments are the house's (issue 33)
    made = house_tournament(house, {"template": "sng-6", "bots": 0, "name": "Friday"})
    # A sit-and-go of the guest and five bots, under way: its table shows the tournament bar.
    running = house_tournament(house, {"template": "sng-6", "bots": 5, "name": "Tartu"})
    client.post(f"/api/tournaments/{running['id']}/register").raise_for_status()
    seated = next(t for t in client.get("/api/lobby").json() if t["id"] == table)["players"]
    return {
        "name": name,
        "table": table,
        "token": token,
        "tournament": made["id"],
        "running": running["id"],
        "bots": [p for p in seated if p != name],
        "cookie": COOKIE,
    }


def _signed_in(browser: Any, server: str, player: dict[str, Any], tag: str) -> Any:
    context = browser.new_context(locale=tag, viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": player["cookie"], "value": player["token"], "url": server}])
    return context


@pytest.mark.parametrize("lang", ("uk", "ru", "et"))
def test_history_chat_and_tournament_pages_leave_no_english_and_are_axe_clean(
    browser: Any, server: str, player: dict[str, Any], catalogs: dict[str, Any], axe_check: Any, lang: str
) -> None:
    """Rule (points 8 and 13): the history page (its filters, rows and statistics), the table's
    chat and players panels (a player's statistics and note), the tournament lobby, a
    tournament's page and the bar of its table, in Ukrainian and in Estonian, show none of the
    English catalog's words where the language has its own, and are axe-core clean."""
    context = _signed_in(browser, server, player, lang)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        words = catalogs[lang]

        page.goto(f"{server}/history")
        expect(page.get_by_test_id("hand-row").first).to_be_visible(timeout=TIMEOUT)
        expect(page.get_by_test_id("my-stats").locator("th").first).to_have_text(words["stats.hands"])
        expect(page.locator("html")).to_have_attribute("lang", lang)
        # A tournament table's name ("Tartu - table 1", stored with the table) is a name, not the
        # page's words: its hands are listed once one has ended there (a matter of timing).
        assert [p for p in english_left(page, catalogs, lang) if " - table " not in p[2]] == []
        axe_check(page, f"the history page in {lang}")
        page.get_by_test_id("f-cards").fill("Zz")
        page.get_by_test_id("search").click()
        refused = page.get_by_test_id("history-error")
        expect(refused).not_to_have_text("", timeout=TIMEOUT)
        assert "neither a card" not in refused.inner_text()  # the server's refusal in the language

        page.goto(f"{server}/table/{player['table']}?watch=1")
        expect(page.get_by_test_id("chat-note")).to_have_text(
            words["chat.sit_down_to_write"], timeout=TIMEOUT
        )
        bot = player["bots"][0]
        page.get_by_test_id(f"about-{bot}").click(timeout=TIMEOUT)
        detail = page.get_by_test_id("player-detail")
        expect(detail.get_by_test_id("stats").locator("caption")).to_have_text(
            words["chat.stats_caption"].replace("{name}", bot), timeout=TIMEOUT
        )
        expect(page.get_by_test_id(f"mute-{bot}")).to_have_text(words["chat.mute"])
        assert [
            piece for piece in english_left(page, catalogs, lang) if not piece[0].startswith("table.")
        ] == []
        axe_check(page, f"the table's chat and players in {lang}")

        page.goto(f"{server}/tournaments")
        row = page.locator(f"[data-testid=tournament-row][data-tournament='{player['tournament']}']")
        expect(row).to_be_visible(timeout=TIMEOUT)
        expect(row.get_by_test_id("register")).to_have_text(words["tournaments.register"])
        assert english_left(page, catalogs, lang) == []
        axe_check(page, f"the tournament lobby in {lang}")

        page.goto(f"{server}/tournament/{player['tournament']}")
        expect(page.get_by_test_id("t-structure").locator("td").first).to_be_visible(timeout=TIMEOUT)
        expect(page.get_by_test_id("t-clock")).to_contain_text(words["tournaments.state_registering"])
        assert english_left(page, catalogs, lang) == []
        axe_check(page, f"a tournament's page in {lang}")

        page.goto(f"{server}/tournament/{player['running']}")
        go = page.get_by_test_id("go-to-table")
        expect(go).to_have_text(words["tournament.go_to_table"], timeout=TIMEOUT)
        go.click()
        level = words["tournament.bar_level"].split("{")[0]
        expect(page.get_by_test_id("t-level")).to_contain_text(level, timeout=TIMEOUT)
        expect(page.get_by_test_id("tournament-bar").get_by_role("link")).to_have_text(
            words["tournament.bar_link"]
        )
        assert english_left(page, catalogs, lang) == []
        axe_check(page, f"a tournament's table and its bar in {lang}")
    finally:
        context.close()
    assert not errors, f"a page raised: {errors}"


def test_a_pages_address_may_name_its_language_for_that_view(
    in_language: Any, server: str, catalogs: dict[str, Any]
) -> None:
    """Rule: ?lang= in a page's address speaks that language for that view (a link to a page
    in a language), ahead of the browser's; it is not remembered: the next page is the browser's."""
    page = in_language("en-US")
    page.goto(f"{server}/tournaments?lang=ru")
    expect(page.locator("html")).to_have_attribute("lang", "ru", timeout=TIMEOUT)
    expect(page.locator("#tournaments-title")).to_have_text(catalogs["ru"]["tournaments.heading"])
    page.goto(f"{server}/history")
    expect(page.locator("html")).to_have_attribute("lang", "en", timeout=TIMEOUT)
    expect(page.locator("#heading")).to_have_text(catalogs["en"]["history.heading"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refusal_on_a_phone_keeps_the_sit_and_go_form_on_the_screen(
    browser: Any, server: str, lang: str
) -> None:
    """Rule: on a phone, a refusal under the sit-and-go form (bots in every seat, none left
    for the starter) wraps in the form's width in every language; the fields stay on the
    screen (a long Russian one had widened the labels' column and pushed them off). (A visitor
    not yet a guest is made one now: that refusal is gone.)"""
    context = browser.new_context(locale=lang, viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(f"{server}/tournaments", wait_until="networkidle")  # (its script's handlers on)
        expect(page.locator("html")).to_have_attribute("lang", lang, timeout=TIMEOUT)
        page.locator("#make-bots").evaluate("(input) => input.removeAttribute('max')")
        page.locator("#make-bots").fill("6")
        page.get_by_test_id("make").click()
        expect(page.get_by_test_id("make-error")).not_to_be_empty(timeout=TIMEOUT)
        for selector in ("#make-template", "#make-game", "#make-bots", "#make-error", "[data-testid=make]"):
            box = page.locator(selector).bounding_box()
            assert box is not None, f"{selector} is not drawn in {lang}"
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390.5, (
                f"{selector} off the screen in {lang}: {box}"
            )
    finally:
        context.close()
