"""Every word the pages say, in the four languages, in Debian's chromium (issue 34, points 5, 6
and 9): every event the server can send worded by the table's log with no English word the
seeds do not keep and no catalogue key shown raw (tests/stray_words.py); what a hand of fewer
than five cards holds toward a low; the lobby's figures in the language's own way and a table
opened by "Play now" named in the reader's language; a live table at 360x640 and 1366x660 whose
words fit their boxes (the word under each down card within its card: "закрытаязакрытая" ran
together) with nothing English on it; on a phone every page's five pages reachable and on the
screen; the chat and the opponents' statistics opened from the table.

Every expected word comes from the catalogs the server serves, never written here."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from sevenstud.actions import Action, ActionKind
from sevenstud.cards import parse_cards
from sevenstud.events import (
    ActionTaken,
    AntePosted,
    BetReturned,
    CardDealt,
    CommunityCardDealt,
    HandEnded,
    HandMucked,
    HandShown,
    HandTurnedUp,
    PotAwarded,
    RakeTaken,
    StreetStarted,
)
from sevenstud.table_events import (
    ClockStarted,
    HandStarted,
    Leaving,
    SatDown,
    SatIn,
    SatOut,
    StoodUp,
    TimedOut,
    ToppedUp,
)
from sevenstud.wire import to_wire
from tests.stray_words import KEY, WORD, strays

TIMEOUT = 20_000
LANGUAGES = ("en", "uk", "ru", "et")
OTHERS = ("uk", "ru", "et")
SIZES = ((360, 640), (1366, 660))
PHONES = (360, 390)
NAMES = {1: "Ann", 2: "Bob", 3: "Cid"}
CARDS = tuple(parse_cards("Kc Kd 8s 6h 4c 3d 2s"))
HIGHS = (
    "a Royal Flush", "a straight flush, Nine to King", "four of a kind, Sixes",
    "a full house, Kings full of Threes",
    "a flush, Ace high", "a straight, Five to Nine", "three of a kind, Queens", "two pair, Aces and Deuces",
    "a pair of Jacks", "high card King", "Ten high",
)  # fmt: skip
"""A hand of every category, as the engine names it (English: the page says it again)."""


def _every_event() -> list[Any]:
    """An event of every kind the server sends a table, with each value of its coded fields
    (a sit-out's reasons, a pot's shares, every action, every street, every category of hand)."""
    actions = [
        ActionTaken(
            1, 3, Action(kind, None if kind.value in ("fold", "check", "show", "muck") else 10), all_in, 4
        )
        for kind in ActionKind
        for all_in in (False, True)
    ]
    return [
        SatDown(1, "Ann", 200), ToppedUp(1, "Ann", 50, 250),
        *(SatOut(1, "Ann", reason) for reason in ("asked", "time-outs", "cannot post the ante")),
        SatIn(1, "Ann"), Leaving(1, "Ann"), StoodUp(1, "Ann", 180),
        HandStarted(7, (1, 2, 3), ("Ann", "Bob", "Cid"), (9, 9, 9)),
        ClockStarted(1, 0.0, 30.0), TimedOut(1, "Ann", 2),
        AntePosted(1, 1, False), AntePosted(2, 1, True), CardDealt(1, 3, CARDS[0], True),
        CommunityCardDealt(CARDS[1]),
        *(StreetStarted(street, 1) for street in range(3, 8)), *actions, BetReturned(1, 5),
        HandTurnedUp(1, CARDS[:5]),
        *(HandShown(1, CARDS, high, low) for high in HIGHS for low in (None, "8,6,4,3,2")),
        HandShown(1, CARDS, None, "5,4,3,2,A"), HandMucked(2), RakeTaken(1),
        *(PotAwarded(1, 12, pot, share) for pot in (0, 1) for share in ("whole", "high", "low")),
        HandEnded((9, 9, 9)),
    ]  # fmt: skip


SILENT = {"card_dealt", "clock_started"}
"""The events a log leaves unsaid (a card dealt is seen on the felt, a clock on the seat)."""

WORDS_OF = """async (events) => {
  const { eventWords } = await import("/web/table_log.js");
  const names = { 1: "Ann", 2: "Bob", 3: "Cid" };
  return events.map((e) => eventWords(e, (seat) => names[seat] || String(seat)));
}"""


def _open(browser: Any, lang: str, width: int = 1366, height: int = 660) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(f"localStorage.setItem('sevenstud.lang', '{lang}')")
    return context


def _fail_on_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


@pytest.fixture(scope="module")
def english(server: str) -> dict[str, Any]:
    return dict(httpx.get(f"{server}/web/i18n/en.json", timeout=15).json())


@pytest.fixture(scope="module")
def said_in(browser: Any, server: str) -> dict[str, list[str | None]]:
    """Every event worded by the table's log in each language (one page a language)."""
    events = [to_wire(e) for e in _every_event()]
    words: dict[str, list[str | None]] = {}
    for lang in LANGUAGES:
        context = _open(browser, lang)
        try:
            page = context.new_page()
            errors = _fail_on_errors(page)
            page.goto(f"{server}/rules")
            expect(page.locator("html")).to_have_attribute("lang", lang, timeout=TIMEOUT)
            words[lang] = page.evaluate(WORDS_OF, events)
            assert not errors, errors
        finally:
            context.close()
    return words


def test_every_event_has_words_or_is_one_a_log_leaves_unsaid(said_in: dict[str, list[str | None]]) -> None:
    """Rule: the log words every event the server can send, but the cards dealt and clocks."""
    for event, words in zip(_every_event(), said_in["en"], strict=True):
        kind = to_wire(event)["type"]
        third = isinstance(event, StreetStarted) and event.street == 3  # the hand's start says it
        assert (words is None) == (kind in SILENT or third), (kind, words)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_and_reason_is_said_in_the_language(
    said_in: dict[str, list[str | None]], lang: str
) -> None:
    """Rule: every event, every reason a seat sits out for, every result the log says, in the
    language: no English word the seeds do not keep ("(time-outs)", "(cannot post the ante)"),
    no catalogue key and no placeholder left in it."""
    wrong = []
    for event, words, theirs in zip(_every_event(), said_in[lang], said_in["en"], strict=True):
        if words is None:
            continue
        given = ["Ann", "Bob", "Cid", "8,6,4,3,2", "5,4,3,2,A"]
        found = strays(words, lang, theirs or "", given)
        if found:
            wrong.append(f"{to_wire(event)}: {words!r}: {found}")
    assert not wrong, "\n".join(wrong)


LOW_WORDS = """async (names) => {
  const { lowWords } = await import("/web/table_view.js");
  return names.map(lowWords);
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_low_not_made_never_reads_as_one(browser: Any, server: str, lang: str) -> None:
    """Rule: beside three cards with one low card the low half says there is no low yet (a
    bare "LO: 7" read as a low made); a made low is said as it is."""
    context = _open(browser, lang)
    try:
        page = context.new_page()
        page.goto(f"{server}/rules")
        expect(page.locator("html")).to_have_attribute("lang", lang, timeout=TIMEOUT)
        catalog = httpx.get(f"{server}/web/i18n/{lang}.json", timeout=15).json()
        drawing, made, none_yet = page.evaluate(
            LOW_WORDS,
            [
                {"high": "a pair of Kings", "high_cards": ["Kc", "Kd", "7s"], "low": "7",
                 "low_cards": ["7s"]},
                {"high": "King high", "high_cards": ["Kc", "8d", "6s", "4h", "2c"], "low": "8,6,4,2,A",
                 "low_cards": ["8d", "6s", "4h", "2c", "Ac"]},
                {"high": "a pair of Kings", "high_cards": ["Kc", "Kd", "Qs"], "low": None, "low_cards": []},
            ],
        )  # fmt: skip
    finally:
        context.close()
    lo = catalog["hand.lo"]
    assert drawing == lo.replace("{hand}", catalog["hand.low_so_far"].replace("{cards}", "7"))
    assert made == lo.replace("{hand}", "8,6,4,2,A")
    assert none_yet == lo.replace("{hand}", catalog["hand.no_low_yet"])


# ---------------------------------------------------------------------- the lobby


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lobbys_figures_are_written_as_the_language_writes_them(
    browser: Any, server: str, lang: str
) -> None:
    """Rule: an average pot of 51.5 is "51,5" in Estonian, Russian and Ukrainian ("51.5" was
    the English way in every language), and a large count is grouped as the language groups."""
    context = _open(browser, lang)
    try:
        page = context.new_page()
        line = {"id": 9001, "name": "", "game": "stud8", "game_name": "Seven Card Stud Hi/Lo",
                "stakes": [1, 2, 5, 10], "seats": 6, "taken": 2, "bots": 1, "waiting": 0,
                "average_pot": 51.5, "hands_per_hour": 1250, "players": ["Ann"]}  # fmt: skip
        page.route("**/api/lobby", lambda route: route.fulfill(json=[line]))
        page.goto(f"{server}/")
        row = page.locator("[data-testid=table-row][data-table='9001']")
        expect(row).to_have_count(1, timeout=TIMEOUT)
        want = {
            "en": ("51.5", "1,250"),
            "et": ("51,5", "1250"),
            "ru": ("51,5", "1\u00a0250"),
            "uk": ("51,5", "1\u00a0250"),
        }
        pot, hands = want[lang]
        expect(row.get_by_test_id("average-pot")).to_have_text(pot)
        assert row.get_by_test_id("hands-per-hour").text_content().replace("\u202f", "\u00a0") == hands
        catalog = httpx.get(f"{server}/web/i18n/{lang}.json", timeout=15).json()
        expect(row.get_by_test_id("name")).to_have_text(catalog["lobby.table_n"].replace("{id}", "9001"))
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_play_now_names_its_table_in_each_readers_language(browser: Any, server: str, lang: str) -> None:
    """Rule: the table "Play now" opens has no name of one language ("guest-cb05423e's table"
    in all four): the lobby calls it by its number in the reader's language."""
    context = _open(browser, lang)
    try:
        page = context.new_page()
        page.goto(f"{server}/")
        expect(page.locator("body[data-ready]")).to_have_count(1, timeout=TIMEOUT)
        page.route("**/api/lobby", lambda route: route.fulfill(json=[]))  # no table to join: one opens
        page.get_by_test_id("play-now").click()
        page.wait_for_url(re.compile(r"/table/\d+"), timeout=TIMEOUT)
        table = int(re.search(r"/table/(\d+)", page.url).group(1))  # type: ignore[union-attr]
        lines = {line["id"]: line for line in httpx.get(f"{server}/api/lobby", timeout=15).json()}
        stored = lines[table]["name"]
        assert "'s" not in stored and not WORD.search(stored or ""), stored
        page.unroute("**/api/lobby")
        page.goto(f"{server}/")
        catalog = httpx.get(f"{server}/web/i18n/{lang}.json", timeout=15).json()
        row = page.locator(f"[data-testid=table-row][data-table='{table}']")
        expect(row.get_by_test_id("name")).to_have_text(
            catalog["lobby.table_n"].replace("{id}", str(table)), timeout=TIMEOUT
        )
    finally:
        context.close()


# ---------------------------------------------------------------------- a live table


FIT = """() => {
  const wrong = [];
  const width = document.documentElement.clientWidth;
  const box = (n) => n.getBoundingClientRect();
  const what = (n) => `${n.tagName.toLowerCase()}.${[...n.classList].join(".")}`
    + `[${n.dataset.testid || ""}] ${JSON.stringify(n.textContent.slice(0, 40))}`;
  const page = document.documentElement.scrollWidth;
  if (page > width + 1) wrong.push(`the page is ${page} wide in ${width}`);
  // The word under each down card, however it is drawn (an element, or a ::after's content):
  // no wider than its card, so that two side by side never run together.
  const ruler = document.createElement("canvas").getContext("2d");
  for (const card of document.querySelectorAll(".card.down")) {
    const word = card.querySelector(".down-word");
    const style = word ? getComputedStyle(word) : getComputedStyle(card, "::after");
    const text = word ? word.textContent : (style.content || "").replace(/^["']|["']$/g, "");
    if (!text || text === "none") { wrong.push(`${what(card)} has no word under it`); continue; }
    ruler.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const wide = ruler.measureText(text).width;
    const room = box(card).width;
    const said = `${JSON.stringify(text)}: ${wide.toFixed(1)} px under a card ${room.toFixed(1)} px wide`;
    if (wide > room + 1) wrong.push(said);
  }
  const words = [...document.querySelectorAll(".card .down-word")];
  for (const word of words) {
    const w = box(word), c = box(word.parentElement);
    if (word.scrollWidth > word.clientWidth + 1) wrong.push(`${what(word)} is cut`);
    if (w.left < c.left - 1 || w.right > c.right + 1) wrong.push(`${what(word)} spills out of its card`);
  }
  for (let i = 1; i < words.length; i++) {
    const a = box(words[i - 1]), b = box(words[i]);
    const meet = Math.abs(a.top - b.top) < 2 && a.right > b.left && b.right > a.left;
    if (meet) wrong.push(`${what(words[i])} runs into the word before it`);
  }
  // Words that must be whole: every button, marker, pot, clock and the table's top line.
  const whole = "button, .marker, .pots li, .clock, .stack, .table-top > *, .result-strip .result, .said,"
    + " header.site a, header.site button";
  for (const node of document.querySelectorAll(whole)) {
    if (!node.getClientRects().length || getComputedStyle(node).visibility === "hidden") continue;
    const r = box(node);
    const clips = getComputedStyle(node).overflowX !== "visible";
    if (clips && node.scrollWidth > node.clientWidth + 1) wrong.push(`${what(node)} is cut`);
    const off = r.width && (r.left < -1 || r.right > width + 1);
    if (off) wrong.push(`${what(node)} is off the screen (${r.left}..${r.right})`);
    for (const child of node.children) {
      const c = box(child);
      const out = c.width && (c.right > r.right + 1 || c.left < r.left - 1);
      if (out) wrong.push(`${what(child)} spills out of ${what(node)}`);
    }
  }
  return wrong;
}"""

SHOWN_TEXT = """() => {
  const parts = [];
  const walk = (n) => {
    if (n.nodeType === Node.TEXT_NODE) { if (n.textContent.trim()) parts.push(n.textContent); return; }
    if (n.nodeType !== Node.ELEMENT_NODE) return;
    // names, cards and the shortcut keys (F, C, R: the keyboard's letters) are nobody's words
    if (n.matches(".card, .name, .player, .who, kbd, script, style, select, option")) return;
    if (!n.getClientRects().length) return;
    for (const c of n.childNodes) walk(c);
  };
  walk(document.querySelector("header.site"));
  walk(document.querySelector("#table-main"));
  return parts.join(" | ");
}"""


def _vocabulary(catalog: dict[str, Any]) -> set[str]:
    words: set[str] = set()
    for value in catalog.values():
        for text in value.values() if isinstance(value, dict) else [value]:
            words.update(w.lower() for w in WORD.findall(re.sub(r"\{\w+\}|<[^>]+>", " ", text)))
    return words


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_table_in_play_says_its_words_whole_and_in_the_language(
    browser: Any, server: str, english: dict[str, Any], artifacts: Any, lang: str, width: int, height: int
) -> None:
    """Rule: at a table in play, at a phone's 360x640 and a desktop's 1366x660, every word
    fits its box (the word under each of your down cards within its card, never run into the
    next: "закрытаязакрытая"; every button, marker and line whole and on the screen), and what
    the table says is in the language: no English word the seeds do not keep, no key."""
    context = _open(browser, lang, width, height)
    try:
        page = context.new_page()
        errors = _fail_on_errors(page)
        assert page.request.post(f"{server}/api/guest").ok
        made = page.request.post(
            f"{server}/api/tables", data={"game": "stud8", "seats": 5, "bots": 4, "sit": True}
        )
        assert made.ok, made.text()
        page.goto(f"{server}/table/{made.json()['id']}")
        expect(page.locator(".seat.you .card.down")).to_have_count(2, timeout=TIMEOUT)
        page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
        page.screenshot(path=str(artifacts / f"words-{lang}-{width}x{height}.png"))
        wrong = page.evaluate(FIT)
        assert not wrong, f"{lang} at {width}x{height}:\n" + "\n".join(wrong)
        # a low ("8,6,4,2,A", "2,A") is said the same in every language
        text = re.sub(r"(?<=[(: ])[2-9TJQKA](?:,[2-9TJQKA])*(?=[ )]|$)", " ", page.evaluate(SHOWN_TEXT))
        players = page.evaluate(
            "() => [...document.querySelectorAll('.seat .name')].map((n) => n.textContent)"
        )
        players.append(page.request.get(f"{server}/api/session").json()["account"]["name"])
        if lang != "en":
            theirs = _vocabulary(english) - _vocabulary(
                httpx.get(f"{server}/web/i18n/{lang}.json", timeout=15).json()
            )
            found = strays(text, lang, " ".join(theirs), players)
            assert not found, f"{lang}: {found} in {text!r}"
        assert not KEY.findall(text), text
        assert not errors, errors
    finally:
        context.close()


# ---------------------------------------------------------------------- a phone's pages


def _pages(server: str) -> list[str]:
    client = httpx.Client(base_url=server, timeout=15)
    client.post("/api/guest").raise_for_status()
    table = client.post("/api/tables", json={"game": "stud8", "seats": 3, "bots": 2}).json()["id"]
    return ["/", "/tournaments", "/equity", "/history", "/rules", f"/table/{table}?watch=1"]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("width", PHONES)
def test_on_a_phone_every_pages_five_pages_are_reachable_on_the_screen(
    browser: Any, server: str, lang: str, width: int
) -> None:
    """Rule: at 360 and 390 px every page's header reaches its five pages (History among them):
    each on the screen and whole, or behind a button on the screen that shows them all on it
    (three of the five were off-screen with nothing to say so)."""
    context = _open(browser, lang, width, 740)
    catalog = httpx.get(f"{server}/web/i18n/{lang}.json", timeout=15).json()
    wanted = {"/": "header.lobby", "/tournaments": "header.tournaments", "/equity": "header.equity",
              "/history": "header.history", "/rules": "header.rules"}  # fmt: skip
    try:
        page = context.new_page()
        errors = _fail_on_errors(page)
        for address in _pages(server):
            page.goto(f"{server}{address}")
            header = page.locator("header.site")
            expect(header.locator("nav a")).to_have_count(5, timeout=TIMEOUT)
            links = header.locator("nav a")

            def on_screen(node: Any) -> bool:
                box = node.bounding_box()
                return bool(
                    box and node.is_visible() and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5
                )

            if not all(on_screen(links.nth(i)) for i in range(5)):
                toggle = header.get_by_test_id("nav-toggle")
                assert toggle.count() == 1 and on_screen(toggle), (
                    f"{address}: pages off the screen with no button"
                )
                expect(toggle).to_have_attribute("aria-expanded", "false")
                toggle.click()
                expect(toggle).to_have_attribute("aria-expanded", "true")
            for i in range(5):
                assert on_screen(links.nth(i)), (
                    f"{address} at {width}px: {links.nth(i).text_content()} off the screen"
                )
            found = {links.nth(i).get_attribute("href"): links.nth(i).text_content() for i in range(5)}
            assert found == {href: catalog[key] for href, key in wanted.items()}, found
        assert not errors, errors
    finally:
        context.close()


# ---------------------------------------------------------------------- chat and stats at the table


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_chat_and_the_opponents_stats_open_from_the_table(
    browser: Any, server: str, width: int, height: int
) -> None:
    """Rule: the table has buttons that open the chat and the players' panel (an opponent's
    statistics) where the player is, on the first screen (on a phone as a sheet over the
    table, which a button closes), not far below the table."""
    context = _open(browser, "en", width, height)
    try:
        page = context.new_page()
        errors = _fail_on_errors(page)
        assert page.request.post(f"{server}/api/guest").ok
        made = page.request.post(
            f"{server}/api/tables", data={"game": "stud8", "seats": 3, "bots": 2, "sit": True}
        )
        assert made.ok, made.text()
        page.goto(f"{server}/table/{made.json()['id']}")
        expect(page.locator(".seat.you")).to_have_count(1, timeout=TIMEOUT)

        def in_view(selector: str) -> None:
            node = page.locator(selector).first
            expect(node).to_be_visible(timeout=TIMEOUT)
            # Where it comes to rest: a panel slides in, and a loaded machine catches it on its way.
            deadline = time.monotonic() + TIMEOUT / 1000
            while True:
                box = node.bounding_box()
                assert box is not None
                inside = box["y"] >= 0 and box["y"] + box["height"] <= height + 0.5
                inside = inside and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5
                if inside or time.monotonic() > deadline:
                    break
                page.wait_for_timeout(100)
            assert box["y"] >= 0 and box["y"] + box["height"] <= height + 0.5, f"{selector} at {box}"
            assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, f"{selector} at {box}"

        for button in ("open-chat", "open-players"):
            in_view(f"[data-testid={button}]")
        page.get_by_test_id("open-chat").click()
        in_view("[data-testid=chat-text]")
        expect(page.locator("#chat-heading")).to_be_focused()
        if width < 800:
            page.get_by_test_id("chat-panel").get_by_test_id("close-sheet").click()
            expect(page.get_by_test_id("chat-panel")).to_be_hidden()
            expect(page.get_by_test_id("open-chat")).to_be_focused()
        page.get_by_test_id("open-players").click()
        bot = page.locator("[data-testid^=about-]").first
        expect(bot).to_be_visible(timeout=TIMEOUT)
        bot.click()
        in_view("[data-testid=player-detail] [data-testid=stats]")
        assert not errors, errors
    finally:
        context.close()
