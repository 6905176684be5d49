"""The server's sentences in the client's language (issue 16, point 8): hello's ``lang`` decides
the view's button words, hand names and results and the refusals, for that connection alone;
a client that names none keeps its English. Babel negotiates an HTTP request's language.

Rule: every sentence the server words for a connection is in the language its hello chose."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import httpx
import pytest
import websockets

from sevenstud.actions import Action
from sevenstud.cards import parse_cards
from sevenstud.events import AntePosted, HandShown, PotAwarded
from sevenstud.server.app import COOKIE
from sevenstud.server.i18n import negotiate, plural_category, translation
from sevenstud.server.presenter import action_label, summary
from sevenstud.server.protocol import PROTOCOL_VERSION, MessageError, parse_client

CYRILLIC = re.compile("[а-яіїєґА-ЯІЇЄҐ]")
NAMES = {1: "ann", 2: "bob", 3: "cid"}
ANTES = [AntePosted(s, 10, False) for s in NAMES]


def _shown(seat: int, cards: str, high: str | None, low: str | None) -> HandShown:
    return HandShown(seat, tuple(parse_cards(cards)), high, low)


def test_the_results_in_each_language() -> None:
    """Rule: the summary's sentences (a high half, a split low half, a scoop) in Ukrainian,
    Russian and Estonian, with the hand names said in the language and the amounts kept."""
    shows = [_shown(s, "As 2s 3s 4s 5s 9d 9h", "a straight flush, Ace to Five", "5,4,3,2,A") for s in NAMES]
    quarters = [PotAwarded(1, 16, 0, "high"), PotAwarded(2, 7, 0, "low"), PotAwarded(3, 7, 0, "low")]
    events = [*ANTES, *shows, *quarters]
    assert summary("stud8", NAMES, events, translation("uk")) == [
        "ann виграє хай-половину: основний банк (16) — стріт-флеш: туз – п’ятірка",
        "bob і cid ділять лоу-половину: основний банк (по 7)",
    ]
    assert summary("stud8", NAMES, events, translation("ru")) == [
        "ann выигрывает хай-половину: основной банк (16) — стрит-флеш: туз – пятёрка",
        "bob и cid делят лоу-половину: основной банк (по 7)",
    ]
    assert summary("stud8", NAMES, events, translation("et")) == [
        "ann võidab põhipanga kõrge poole (16) — mastirida: äss – viis",
        "bob ja cid jagavad põhipanga madala poole (igaühele 7)",
    ]
    scooped = [*ANTES, *shows, PotAwarded(1, 30, 0, "high"), PotAwarded(1, 15, 0, "low")]
    scoop = summary("stud8", NAMES, scooped, translation("uk"))
    assert scoop == [
        "ann забирає весь основний банк — скуп (45) з стріт-флеш: туз – п’ятірка і лоу 5,4,3,2,A"
    ]
    assert summary("stud8", NAMES, [*ANTES, PotAwarded(2, 30, 0, "whole")], translation("ru")) == [
        "bob выигрывает 30: все остальные спасовали"
    ]


def test_button_words_in_each_language() -> None:
    said = [action_label(Action.parse("call 5"), 2, translation(lang)) for lang in ("en", "uk", "ru", "et")]
    assert said == ["Call 3", "Кол 3", "Колл 3", "Maksa 3"]
    assert action_label(Action.parse("complete to 5"), 0, translation("et")) == "Täispanus 5-ni"


def test_hello_takes_lang_and_refuses_a_language_it_does_not_speak() -> None:
    """Rule: hello's lang is one of en, uk, ru, et (default en, so existing clients keep their
    English); another is refused naming the field."""
    hello = {"type": "hello", "version": PROTOCOL_VERSION, "table": 1}
    assert parse_client(json.dumps(hello)).lang == "en"
    assert parse_client(json.dumps({**hello, "lang": "et"})).lang == "et"
    with pytest.raises(MessageError, match="lang: expected 'en', 'uk', 'ru' or 'et', got 'de'"):
        parse_client(json.dumps({**hello, "lang": "de"}))


def test_babel_negotiates_an_accept_language_header() -> None:
    assert negotiate("uk-UA,uk;q=0.9,en;q=0.5") == "uk"
    assert negotiate("de-DE,de;q=0.9,ru;q=0.8") == "ru"
    assert negotiate("fr-FR") == "en" and negotiate(None) == "en"
    assert negotiate("ru", asked="et") == "et" and negotiate("ru", asked="xx") == "ru"
    assert [plural_category("uk", n) for n in (1, 2, 5, 11, 21)] == ["one", "few", "many", "many", "one"]


async def _session(
    address: str, cookie: str, table: int, lang: str | None, seat: int | None
) -> list[dict[str, Any]]:
    """A connection with hello's ``lang`` (None: none said): sits in ``seat`` when given, sends a
    refused message, and plays until a hand has ended; every message it got."""
    hello: dict[str, Any] = {"type": "hello", "version": PROTOCOL_VERSION, "table": table, "views": True}
    if lang is not None:
        hello["lang"] = lang
    got: list[dict[str, Any]] = []
    headers = {"Cookie": f"{COOKIE}={cookie}"}
    async with websockets.connect(f"ws://{address}/ws", additional_headers=headers) as ws:
        await ws.send(json.dumps(hello))
        if seat is not None:
            await ws.send(json.dumps({"type": "sit", "seat": seat, "buy_in": 100}))
        await ws.send(json.dumps({"type": "sit", "seat": 2, "buy_in": 100}))  # a bot's seat: refused
        for _ in range(2000):
            message = json.loads(await asyncio.wait_for(ws.recv(), 10))
            got.append(message)
            if message["type"] == "view" and message["actions"]:
                hand = message["view"]["hand"]
                choice = next(
                    (a for a in message["actions"] if a["kind"] not in ("fold",)), message["actions"][0]
                )
                act = {"type": "act", "hand": message["view"]["hand_number"], "street": hand["street"]}
                await ws.send(json.dumps({**act, "action": choice["action"]}))
            views = [m for m in got if m["type"] == "view"]
            ended = any(v["last_hand"] for v in views) and any(m["type"] == "error" for m in got)
            if ended and (seat is None or any(v["actions"] for v in views)):
                break
    return got


def test_a_connection_gets_its_words_in_its_language_and_another_keeps_english(server: str) -> None:
    """Rule: a player whose hello says "uk" gets the buttons, the hand names, the results and the
    refusals in Ukrainian, while a spectator whose hello names no language gets English."""
    player = httpx.Client(base_url=f"http://{server}", timeout=15)
    player.post("/api/guest").raise_for_status()
    table = player.post("/api/tables", json={"game": "stud8", "seats": 3, "bots": 2}).json()["id"]
    watcher = httpx.Client(base_url=f"http://{server}", timeout=15)
    watcher.post("/api/guest").raise_for_status()

    async def both() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        return await asyncio.gather(
            _session(server, player.cookies[COOKIE], table, "uk", seat=1),
            _session(server, watcher.cookies[COOKIE], table, None, seat=None),
        )

    mine, theirs = asyncio.run(both())
    labels = [a["label"] for m in mine if m["type"] == "view" for a in m["actions"]]
    assert labels and all(CYRILLIC.search(label) for label in labels), labels
    turns = [a["label"] for m in mine if m["type"] == "your_turn" for a in m["actions"]]
    assert turns and all(CYRILLIC.search(label) for label in turns), turns
    summaries = [s for m in mine if m["type"] == "view" and m["last_hand"] for s in m["last_hand"]["summary"]]
    assert summaries and all(CYRILLIC.search(s) for s in summaries), summaries
    named = [h["high"] for m in mine if m["type"] == "view" for h in m["hands"].values() if h["high"]]
    assert named and not any(re.search(r"\b(pair|high|Kings?|Aces?)\b", n) for n in named), named
    refused = [m["message"] for m in mine if m["type"] == "error"]
    assert refused and all(CYRILLIC.search(r) for r in refused), refused
    english = [m["message"] for m in theirs if m["type"] == "error"]
    assert english and not any(CYRILLIC.search(r) for r in english)
    said = [s for m in theirs if m["type"] == "view" and m["last_hand"] for s in m["last_hand"]["summary"]]
    assert said and not any(CYRILLIC.search(s) for s in said)


def test_http_refusals_follow_accept_language(server: str) -> None:
    """Rule: the card room's HTTP refusals (a log-in refused, a bad name) are said in the
    request's Accept-Language (the pages send their own language), English without one."""
    base = f"http://{server}"
    body = {"name": "nobody_here", "password": "wrong password"}
    english = httpx.post(f"{base}/api/login", json=body, timeout=15)
    assert english.status_code == 401
    assert english.json()["detail"] == "no account with that name and password"
    said = httpx.post(
        f"{base}/api/login", json=body, headers={"Accept-Language": "ru-RU,ru;q=0.9"}, timeout=15
    )
    assert said.status_code == 401
    assert said.json()["detail"] == "нет учётной записи с таким именем и паролем"
    bad = httpx.post(f"{base}/api/signup", json={"name": "x", "password": "long enough"},
                     headers={"Accept-Language": "et"}, timeout=15)  # fmt: skip
    assert bad.status_code == 400 and bad.json()["detail"] == "nimi on 3 kuni 20 tähte, numbrit, '_' või '-'"
