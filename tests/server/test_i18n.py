"""The server's sentences in the client's language (issue 16, point 8): hello's ``lang`` decides
the view's button words, hand names and results and the refusals, for that connection alone;
a client that names none keeps its English. Babel negotiates an HTTP request's language.

Rule: every sentence the server words for a connection is in the language its hello chose."""

from __future__ import annotations

import ast
import asyncio
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from sevenstud.actions import Action
from sevenstud.cards import parse_cards
from sevenstud.events import AntePosted, HandShown, PotAwarded
from sevenstud.refusals import Refusal
from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.i18n import (
    CLOSE_REASON_BYTES,
    close_reason,
    negotiate,
    plural_category,
    say,
    translation,
)
from sevenstud.server.protocol import PROTOCOL_VERSION, MessageError, parse_client
from sevenstud.server.tables.presenter import action_label, summary

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
        "ann забирає весь основний банк — скуп (45) — стріт-флеш: туз – п’ятірка і лоу 5,4,3,2,A"
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


# ---------------------------------------------------------------------- every refusal translated

SERVER = Path(__file__).resolve().parents[2] / "src" / "sevenstud" / "server"
ENGINE = [
    SERVER.parent / name
    for name in (
        "tournament/director.py",
        "tournament/player_requests.py",
        "tournament/settings.py",
        "table.py",
        "hand.py",
        "betting.py",
        "equity.py",
    )
]
"""The engine's modules whose refusals the server passes on (a table command, an action, an
equity job's position). The card parser's errors (cards.py) reach no client: the equity
calculator reads a hand's cards itself (equity.parse_hand), the history's filter too."""
CLIENT_ERRORS = {
    *("HTTPException", "RoomError", "FilterError", "DownloadError", "MessageError", "TournamentError"),
    *("TableError", "HandError", "IllegalAction", "StructureError", "EquityError", "Refusal"),
}
"""The exceptions whose message reaches a client (an ``error``'s message or an HTTP ``detail``)."""

INTERNAL = {
    # the keeper's and the service's own consistency checks: a bug, never a client's doing
    "hand X of table X replays to a hand not over",
    "table X has a hand a crash cut off: recover() it first",
    "hand X: X chips left in the pot, but the rake was X",
    "X has X chips, not X",
    "no account X",
    "a clock's speed is positive, not X",
    "table X may not deal now",
    "table X has no hand in progress",
    "table X's stacks name X, but X sit there",
    "stacks must be whole chips, not negative",
    "table X's stacks add up to X, not X",
    # the table's and the hand's checks of their caller (the server checks a message's form
    # and the seat it sits in before it asks the table)
    "a table needs TableSettings, not X",
    "ask from a stream number >= 0, not X",
    "stream number X is ahead of the table's last, X",
    "now must be a finite number of seconds, not X",
    "the time went backwards: X is before X",
    "a player is named by a non-empty string id, not X",
    "hand X is being played: the game changes between hands",
    "hand X is still being played",
    "give the hand's deck or a seed (one of them): the table never shuffles",
    "deck must be a Deck, not X",
    "seed must be a whole number or a string, not X",
    "a hand needs two players sitting in, and X X",
    "an action is an Action or a string such as 'call', not X",
    "seat X is not to act: seat X is",
    "seat X still has time: its deadline is X, it is X",
    "not a table record but a X",
    "not a table record: X",
    "table record: X",  # a stored record that does not restore (the keeper reads it)
    "the table cannot deal X: X",
    "the hand cannot be dealt: X",
    "stud is for X to X players, not X",
    "give a deck or a seed, not both",
    "the deck has been dealt from already",
    "the hand is not over yet",
    "since must be an event number of 0 or more, not X",
    "no seat X at this hand (seats 0 to X, or None)",
    # a template's own settings (the server's templates, never a player's values)
    "unknown kind of tournament X",
    "unknown game X: expected one of X",
    "a table has 2 to 8 seats, not X",
    "the starting chips must cover the first level's ante and bring-in",
    "prize shares must add up to 100 percent",
    # the equity calculator's checks of its Python caller (the server sends it strings, one
    # trials count of at least 1, no device and no community card)
    "unknown device X: expected cpu or cuda",
    "give either exact or a number of trials, not both",
    "the number of trials must be positive, not X",
    "not a card: X",
    # protocol._say's last resort: a kind of pydantic error the protocol does not word (its
    # English msg after the field); every kind a message's fields can raise is worded above it
    "X: X",
}
"""Messages of those exceptions that only the server's own code can cause (checked, not said)."""


def _shape(node: ast.expr) -> str | None:
    """A message as the code writes it, each formatted part as X; None: not a literal."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "X" for v in node.values)
    return None


def _said_by_the_server() -> list[tuple[str, str]]:
    """Every literal sentence the server sends a client: (where, the sentence with X for parts)."""
    found: list[tuple[str, str]] = []
    for path in [*sorted(SERVER.rglob("*.py")), *ENGINE]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            message: ast.expr | None = None
            if isinstance(node, ast.Call):
                func = node.func
                name = (
                    func.id
                    if isinstance(func, ast.Name)
                    else func.attr
                    if isinstance(func, ast.Attribute)
                    else ""
                )
                args = node.args
                if (name == "HTTPException" and len(args) >= 2) or (name == "RateLimited" and len(args) >= 2):
                    message = args[1]
                elif name == "Refused" and len(args) >= 3:  # an equity job's (status, reason, detail)
                    message = args[2]
                elif name in CLIENT_ERRORS and args:
                    message = args[0]
                elif name in ("refuse", "close_session", "_answer") and args:
                    message = args[{"refuse": 0, "close_session": 2, "_answer": 2}[name]]
                elif name in ("close_reason", "say") and args:
                    message = args[0]
            elif isinstance(node, ast.Assign) and any(
                (isinstance(t, ast.Name) and t.id.endswith("_REASON"))
                or (isinstance(t, ast.Attribute) and t.attr == "error")  # an equity job's error
                for t in node.targets
            ):
                message = node.value
            elif (  # an equity worker's answer: ("error", its message)
                isinstance(node, ast.Tuple)
                and len(node.elts) == 2
                and isinstance(node.elts[0], ast.Constant)
                and node.elts[0].value == "error"
            ):
                message = node.elts[1]
            elif isinstance(node, ast.FunctionDef) and node.name in (
                "_say",
                "parse_message",
                "_cross_site",
                "_why_stopped",
            ):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Return) and inner.value is not None:
                        said = _shape(inner.value)
                        if said:
                            found.append((f"{path.name}:{inner.lineno}", said))
            if message is not None:
                said = _shape(message)
                if isinstance(message, ast.BinOp):  # "..." + f"..." across two lines
                    left, right = _shape(message.left), _shape(message.right)
                    said = left + right if left is not None and right is not None else None
                if said is not None:
                    found.append((f"{path.name}:{node.lineno}", said))
    return found


def test_every_sentence_the_server_sends_is_a_code_with_its_translations() -> None:
    """Rule: every refusal, validation error, close reason and limit's sentence the server (and
    the tournament director) words for a client is raised by its code (never as English the
    server would have to read back), and each code's sentence is translated in uk, ru and et:
    none reaches a client in English by omission."""
    from sevenstud.i18n import translation as engine_translation
    from sevenstud.refusals import SENTENCES

    said = [(where, text) for where, text in _said_by_the_server() if text not in INTERNAL]
    assert len(said) > 80  # the scan sees the server's sentences (it would pass on nothing)
    english = [(where, text) for where, text in said if not re.fullmatch(r"[a-z][a-z0-9_]*", text)]
    assert english == []
    for lang in ("uk", "ru", "et"):
        tr = engine_translation(lang)
        for where, code in said:
            assert tr.gettext(SENTENCES[code]) != SENTENCES[code], (lang, where, code)


def test_close_reasons_fit_a_close_frame_in_every_language() -> None:
    """Rule: a close reason said in the connection's language fits the 123 bytes of a close
    frame (RFC 6455), cut at a character when a translation is longer; the code stays."""
    from sevenstud.server.connection import BEHIND_REASON, GONE_REASON

    for lang in ("en", "uk", "ru", "et"):
        for reason in (
            BEHIND_REASON,
            GONE_REASON,
            Refusal("session_ended"),
            Refusal("logged_out"),
            Refusal("origin_not_allowed"),
        ):
            said = close_reason(reason, lang)
            assert len(said.encode("utf-8")) <= CLOSE_REASON_BYTES
            assert (said == str(reason)) == (lang == "en"), (lang, said)
    assert close_reason(Refusal("ж" * 100), "uk") == "ж" * 61  # 122 bytes: the 62nd letter would not fit


def test_validation_errors_keep_their_fields_and_say_their_words_in_the_language() -> None:
    """Rule: a message's validation errors (several, joined by "; ") are each translated, the
    field names and values kept as they were; an error the catalogs do not know stays English."""
    with pytest.raises(MessageError) as caught:
        parse_client(json.dumps({"type": "sit", "seat": "one", "buy_in": "100", "extra": 1}))
    refused = Refusal("malformed_message", why=caught.value)
    english = f"malformed message: {caught.value}"
    uk = say(refused, "uk")
    assert "seat" in uk and "buy_in" in uk and "extra" in uk and "sit" in uk
    assert not re.search(r"expected|missing|got|message has no such field", uk), uk
    assert say(refused, "en") == english
    assert say(Refusal("seat: something pydantic says"), "ru") == "seat: something pydantic says"


def test_http_refusals_follow_lang_then_accept_language_everywhere(server: str) -> None:
    """Rule: every HTTP refusal (a route's detail, FastAPI's validation list, a limit's 429, the
    edge's 415/413/403) is said in ?lang=, else Accept-Language, else English; the codes, the
    field names (loc), the kinds (type) and a limit's name stay as they are."""
    base = f"http://{server}"
    client = httpx.Client(base_url=base, timeout=15)
    client.post("/api/guest").raise_for_status()
    # a route's detail: ?lang= wins over Accept-Language
    found = client.get("/api/history?game=holdem&lang=uk", headers={"Accept-Language": "ru"})
    assert found.status_code == 400
    assert found.json()["detail"] == "game: одна з stud8, stud, razz, а не 'holdem'"
    assert client.get("/api/history?game=holdem", headers={"Accept-Language": "ru"}).json()["detail"] == (
        "game: одна из stud8, stud, razz, а не 'holdem'"
    )
    assert client.get("/api/history?game=holdem").json()["detail"].startswith("game: one of")
    assert client.get("/api/tournaments/999999?lang=et").json()["detail"] == "turniiri 999999 pole"
    assert client.get("/api/notes/nobody?lang=ru").json()["detail"] == "у вас нет заметки о nobody"
    # FastAPI's validation errors: loc and type kept, msg in the language
    invalid = client.get("/api/hands/9223372036854775808?lang=uk")
    assert invalid.status_code == 422
    [error] = invalid.json()["detail"]
    assert error["loc"] == ["path", "hand_id"] and error["type"] == "less_than_equal"
    assert error["msg"] == "щонайбільше 2147483647"
    # the edge's refusals
    typed = client.post(
        "/api/tables", content=b"x", headers={"Content-Type": "text/plain", "Accept-Language": "et"}
    )
    assert typed.status_code == 415 and typed.json()["detail"] == (
        "päringu sisu on JSON (Content-Type: application/json), mitte text/plain"
    )
    other = client.post("/api/guest?lang=ru", headers={"Sec-Fetch-Site": "cross-site"})
    assert other.status_code == 403 and other.json()["detail"].startswith("отказано: запрос с другого сайта")
    big = client.post("/api/tables?lang=uk", json={"name": "x" * 200_000})
    assert big.status_code == 413 and big.json()["detail"].startswith("тіло запиту має щонайбільше")


def test_websocket_refusals_before_and_after_hello_are_in_the_connections_language(server: str) -> None:
    """Rule: before its hello a socket's refusals follow the handshake (?lang=, Accept-Language);
    from hello on, hello's lang; an error's ``number`` and the message's type stay as they are."""

    async def talk() -> list[dict[str, Any]]:
        got = []
        async with websockets.connect(
            f"ws://{server}/ws?lang=et", additional_headers={"Accept-Language": "ru"}
        ) as ws:
            await ws.send(json.dumps({"type": "sit", "seat": 1, "buy_in": 100}))  # before hello
            got.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
            await ws.send(b"\x00binary")
            got.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
            await ws.send(
                json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "table": 999999, "lang": "uk"})
            )
            got.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
            await ws.send(json.dumps({"type": "act", "hand": "x"}))
            got.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
        return got

    first, binary, hello, malformed = asyncio.run(talk())
    assert first["type"] == "error" and first["message"] == "saada esmalt hello (protokolli versioon ja laud)"
    assert binary["message"] == "binaarkaader: iga sõnum on JSON-tekst ja saadetakse tekstikaadrina"
    assert hello["message"] == "немає столу 999999"  # a hello refused still chose its language
    assert malformed["message"].startswith("хибне повідомлення: ") and "hand" in malformed["message"]
    assert not re.search(r"\b(expected|missing|got)\b", malformed["message"]), malformed


# ---------------------------------------------------------------------- the equity calculator's refusals

EIGHT_ON_THIRD = ["As 2d 3c", "Qs 4h 5c", "Kd Kh 8s", "7c 7d 9h"]
EIGHT_ON_THIRD += ["Jh Td 6s", "2s 3h 4d", "5s 6h 8c", "9c Tc Jc"]
"""Eight players on 3rd street: 30,253,774,733,005,824,000,000 outcomes to enumerate."""
EQUITY_REFUSALS = {
    "en": (
        "exact counting of this position is 30,253,774,733,005,824,000,000 outcomes of work (enumeration);"
        " this server counts at most 20,000,000 exactly (max_outcomes): ask for Monte Carlo, or give more"
        " of the cards",
        "not a card: 'Xx' in 'As Xx 3s' (expected e.g. 'As 2s 3s 7h', '?? ?? 7h')",
        "the card As is given twice (player 1 and player 2)",
        "no equity job 'nope' (a job is kept 10 min after it ended)",
    ),
    "uk": (
        "точний підрахунок цієї позиції: результатів — 30,253,774,733,005,824,000,000 (enumeration); цей"
        " сервер точно рахує щонайбільше 20,000,000 (max_outcomes): оберіть Монте-Карло або вкажіть"
        " більше карт",
        "не карта: 'Xx' у 'As Xx 3s' (очікується, напр., 'As 2s 3s 7h', '?? ?? 7h')",
        "карту As вказано двічі (гравець 1 і гравець 2)",
        "немає завдання еквіті 'nope' (завдання зберігається 10 хв після завершення)",
    ),
    "ru": (
        "точный подсчёт этой позиции: исходов — 30,253,774,733,005,824,000,000 (enumeration); этот сервер"
        " точно считает не более 20,000,000 (max_outcomes): выберите Монте-Карло или укажите больше карт",
        "не карта: 'Xx' в 'As Xx 3s' (ожидается, напр., 'As 2s 3s 7h', '?? ?? 7h')",
        "карта As указана дважды (игрок 1 и игрок 2)",
        "нет задания эквити 'nope' (задание хранится 10 мин после завершения)",
    ),
    "et": (
        "selle seisu täpne loendamine: tulemusi 30,253,774,733,005,824,000,000 (enumeration); see server"
        " loendab täpselt kuni 20,000,000 (max_outcomes): vali Monte Carlo või anna rohkem kaarte",
        "pole kaart: 'Xx' kirjes 'As Xx 3s' (oodati nt 'As 2s 3s 7h', '?? ?? 7h')",
        "kaart As on antud kaks korda (mängija 1 ja mängija 2)",
        "võiduvõimaluste tööd 'nope' pole (töö hoitakse alles 10 min pärast selle lõppu)",
    ),
}
"""What ``POST /api/equity`` and ``GET /api/equity/{job}`` say in each language: a job too large
to count exactly, a bad card, a card given twice, a job there is none of."""


def test_equity_refusals_are_said_in_the_requests_language(server: str) -> None:
    """Rule: the equity calculator's refusals have their ``detail`` in ?lang=, else
    Accept-Language, else English, like every refusal of the card room; the parts for programs
    (``reason``, ``limit``, ``most``, ``asked``) and the status stay as they are."""
    client = httpx.Client(base_url=f"http://{server}", timeout=15)
    asked = {
        "too large": {"hands": EIGHT_ON_THIRD, "method": "exact"},
        "bad card": {"hands": ["As Xx 3s", "Kd Kh Kc"]},
        "twice": {"hands": ["As 2s 3s", "As Kh Kc"]},
    }
    answers: dict[str, list[httpx.Response]] = {}
    for lang in EQUITY_REFUSALS:
        query = "" if lang == "en" else f"?lang={lang}"
        said = [client.post(f"/api/equity{query}", json=body, headers={"Accept-Language": "de"})
                for body in asked.values()]  # fmt: skip
        said.append(client.get(f"/api/equity/nope{query}"))
        answers[lang] = said
        assert [answer.json()["detail"] for answer in said] == list(EQUITY_REFUSALS[lang]), lang
    for lang, said in answers.items():
        for answer, english in zip(said, answers["en"], strict=True):
            assert answer.status_code == english.status_code
            kept = {key: value for key, value in answer.json().items() if key != "detail"}
            assert kept == {key: value for key, value in english.json().items() if key != "detail"}, lang
    too_large, bad, twice, unknown = answers["uk"]
    assert too_large.status_code == 400 and too_large.json()["reason"] == "too-large"
    assert too_large.json()["limit"] == "max_outcomes" and too_large.json()["most"] == 20_000_000
    assert too_large.json()["asked"] == 30_253_774_733_005_824_000_000
    assert bad.json()["reason"] == twice.json()["reason"] == "bad-position"
    assert unknown.status_code == 404 and unknown.json()["reason"] == "unknown-job"
    # without ?lang=, Accept-Language decides
    header = client.post("/api/equity", json=asked["twice"], headers={"Accept-Language": "ru-RU,ru;q=0.9"})
    assert header.json()["detail"] == "карта As указана дважды (игрок 1 и игрок 2)"
