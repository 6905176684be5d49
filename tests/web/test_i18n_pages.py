"""The pages in four languages (issue 16, points 8 and 9) in Debian's chromium: the language
chosen from the browser's languages, switched from the menu on every page and remembered, the
<html lang> set, the table's hello carrying it, the "How to play" pages of each game with their
pictures of cards, and axe-core clean in each language. Every expected word is read from the
catalogs the server serves (/web/i18n/<lang>.json), never written here."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
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
