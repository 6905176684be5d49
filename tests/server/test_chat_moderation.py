"""Keeping the chat civil (issue 33, point 2's "Chat"): a player reports a chat line, the
operator reads the reports and the table's chat log, dismisses a report, mutes a player (their
chat refused until the mute ends, saying so in their language; the rest of their play goes on)
and lifts it, and keeps a list of refused words; every action in the event log, none of it
open to a player."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import websockets

from sevenstud.server.accounts import auth
from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.app import create_app
from sevenstud.server.audit import audit
from sevenstud.server.limits import Limits
from sevenstud.server.operators import accounts, log
from sevenstud.server.operators.chat_words import Matcher, entry
from sevenstud.server.protocol import PROTOCOL_VERSION
from sevenstud.server.store import Store
from sevenstud.server.store.models import ChatLineRow
from tests.spawn import in_thread

PASSWORD = "correct horse battery"


def _client(address: str, name: str | None = None) -> httpx.Client:
    """A client logged in as ``name`` (None: a new guest)."""
    client = httpx.Client(base_url=f"http://{address}", timeout=10)
    if name is None:
        client.post("/api/guest").raise_for_status()
    else:
        client.post("/api/login", json={"name": name, "password": PASSWORD}).raise_for_status()
    return client


class Seat:
    """A player's websocket at a table, seated: :meth:`say` a line, :meth:`heard` the next
    ``chat`` or ``error`` message."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws

    @classmethod
    async def taken(cls, address: str, client: httpx.Client, table: int, seat: int, lang: str = "en") -> Seat:
        headers = {"Cookie": f"{COOKIE}={client.cookies[COOKIE]}"}
        ws = await websockets.connect(f"ws://{address}/ws", additional_headers=headers)
        hello = {"type": "hello", "version": PROTOCOL_VERSION, "table": table, "last": 0, "lang": lang}
        await ws.send(json.dumps(hello))
        await ws.send(json.dumps({"type": "sit", "seat": seat, "buy_in": 100}))
        return cls(ws)

    async def say(self, text: str) -> dict[str, Any]:
        """Send a chat line: the server's answer to it (the ``chat`` line, or ``error``)."""
        await self.ws.send(json.dumps({"type": "chat", "text": text}))
        return await self.heard(text)

    async def heard(self, text: str | None = None) -> dict[str, Any]:
        """The next ``error``, or ``chat`` line (saying ``text``, when given)."""
        while True:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
            if message["type"] == "error":
                return dict(message)
            if message["type"] == "chat" and (text is None or message["text"] == text):
                return dict(message)


def test_the_refused_words_match_whole_words_through_simple_disguises() -> None:
    """Case, accents, look-alike letters, digits for letters, letters repeated or spread apart
    are seen through; a word inside another word, or with fewer letters, is not the word."""
    matcher = Matcher.of([w for w in map(entry, ["ass", "Bad", "go away", "сука"]) if w])
    for text in (
        "ASS",
        "a s s",
        "a.s.s",
        "4$$",
        "aaassss",
        "bád",
        "bаd",
        "ｂａｄ",
        "b_a_d",
        "baaaad",
        "BAD!",
    ):
        assert matcher.find(text) is not None, text
    assert matcher.find("go - away") == "go away" and matcher.find("СУКА") == matcher.find("cyka") == "сука"
    for text in ("class", "passage", "as", "sass", "abad", "badge", "goaway", "nice hand, was sad"):
        assert matcher.find(text) is None, text
    assert [entry(w) for w in ("  Go   AWAY ", "123", "", "x" * 41, "a<b>")] == [
        "go away",
        None,
        None,
        None,
        None,
    ]


def test_a_player_reports_a_line_the_operator_mutes_them_lifts_it_and_keeps_refused_words(
    store: Store,
) -> None:
    accounts.create(store, log.COMMAND_LINE, "boss", PASSWORD)
    for name in ("pat", "kim", "lee"):
        auth.sign_up(store, name, PASSWORD)
    limits = Limits(chat_reports=2, chat_messages=50)
    app = create_app(store, pause=0.05, limits=limits)
    with in_thread(app) as address:
        boss, pat, kim, lee, guest = (_client(address, n) for n in ("boss", "pat", "kim", "lee", None))
        table = pat.post("/api/tables", json={"game": "stud8", "seats": 4, "bots": 0}).json()["id"]

        async def played() -> None:
            pat_seat = await Seat.taken(address, pat, table, 1, lang="ru")
            kim_seat = await Seat.taken(address, kim, table, 2)
            first = await pat_seat.say("you all play like fish")
            line = (await kim_seat.heard(first["text"]))["id"]
            assert line == first["id"]
            with store.session() as s:  # the chat log keeps the line by the id the players see
                kept = s.get(ChatLineRow, line)
                assert kept is not None and kept.text == "you all play like fish" and kept.table_id == table

            # A player reports a line once, never their own; a guest may report; an unknown
            # line is no line; past the allowance, 429.
            own = pat.post("/api/chat/reports", json={"line": line})
            assert own.status_code == 400 and "own line" in own.json()["detail"]
            answer = kim.post("/api/chat/reports", json={"line": line, "reason": "insults"})
            assert answer.status_code == 200, answer.text
            again = kim.post("/api/chat/reports", json={"line": line})
            assert again.status_code == 400 and "already" in again.json()["detail"]
            assert guest.post("/api/chat/reports", json={"line": line}).status_code == 200
            unknown = lee.post("/api/chat/reports", json={"line": "0123456789abcdef"})
            assert unknown.status_code == 404
            flood = lee.post("/api/chat/reports", json={"line": line})
            assert flood.status_code == 200  # lee's second of two
            refused = lee.post("/api/chat/reports", json={"line": line})
            assert refused.status_code == 429 and "chat reports" in refused.json()["detail"]
            assert httpx.post(f"http://{address}/api/chat/reports", json={"line": line}).status_code == 401

            # The operator reads the open reports and the table's chat log; a player may not.
            assert kim.get("/api/admin/chat/reports").status_code == 403
            reports = boss.get("/api/admin/chat/reports").json()
            assert {r["reporter"] for r in reports} == {"kim", "lee", guest.get("/api/me").json()["name"]}
            assert {(r["player"], r["text"], r["table"]) for r in reports} == {
                ("pat", "you all play like fish", table)
            }
            assert next(r for r in reports if r["reporter"] == "kim")["reason"] == "insults"
            chat_log = boss.get("/api/admin/chat/lines", params={"table": table}).json()
            assert [(c["player"], c["text"]) for c in chat_log] == [("pat", "you all play like fish")]
            assert boss.get("/api/admin/chat/lines", params={"table": table + 1}).json() == []
            dismissed = boss.post(
                f"/api/admin/chat/reports/{reports[-1]['id']}/dismiss", json={"reason": "banter"}
            )
            assert dismissed.status_code == 200
            assert len(boss.get("/api/admin/chat/reports").json()) == 2

            # Muted: pat's chat is refused, in pat's language, saying until when and why; pat
            # plays on (sits out and in); the open reports are resolved with the mute.
            muted = boss.post("/api/admin/chat/mutes/pat", json={"hours": 1, "reason": "insults at table"})
            assert muted.status_code == 200, muted.text
            error = await pat_seat.say("fish!")
            assert error["type"] == "error" and "запрещено писать в чат до" in error["message"]
            assert "insults at table" in error["message"]
            await pat_seat.ws.send(json.dumps({"type": "wait"}))  # another command: not a chat one
            assert "чат" not in (await pat_seat.heard())["message"]
            assert boss.get("/api/admin/chat/reports").json() == []
            assert [m["player"] for m in boss.get("/api/admin/chat/mutes").json()] == ["pat"]
            assert (await kim_seat.say("quiet now")).get("type") == "chat"  # kim is not muted
            lifted = boss.post("/api/admin/chat/mutes/pat/lift", json={"reason": "apologised"})
            assert lifted.status_code == 200
            assert (await pat_seat.say("sorry all"))["type"] == "chat"
            not_muted = boss.post("/api/admin/chat/mutes/pat/lift", json={"reason": "again"})
            assert not_muted.status_code == 400 and "not muted" in not_muted.json()["detail"]

            # A mute ends by itself at its time.
            short = boss.post("/api/admin/chat/mutes/pat", json={"hours": 1 / 3600, "reason": "cool off"})
            assert short.status_code == 200
            assert (await pat_seat.say("still here"))["type"] == "error"
            await asyncio.sleep(max(0.0, short.json()["until"] - time.time()) + 0.2)
            assert (await pat_seat.say("still here"))["type"] == "chat"

            # The refused words: a line holding one is refused with a clear sentence.
            added = boss.post("/api/admin/chat/words", json={"word": "Donkey", "reason": "insult"})
            assert added.json() == {"word": "donkey"}
            assert boss.post("/api/admin/chat/words", json={"word": "donkey"}).status_code == 400
            assert boss.post("/api/admin/chat/words", json={"word": "<b>"}).status_code == 400
            error = await kim_seat.say("what a D.0.N.K.E.Y call")
            assert (
                error["message"]
                == 'that line was not sent: the room does not allow the word "donkey" in chat'
            )
            assert (await kim_seat.say("what a donkeyish call"))["type"] == "chat"  # not the word
            assert [w["word"] for w in boss.get("/api/admin/chat/words").json()] == ["donkey"]
            removed = boss.post("/api/admin/chat/words/remove", json={"word": "DONKEY"})
            assert removed.json() == {"removed": "donkey"}
            assert (await kim_seat.say("what a donkey call"))["type"] == "chat"
            await pat_seat.ws.close()
            await kim_seat.ws.close()

        asyncio.run(played())
        events = boss.get("/api/admin/events").json()
        actions = [e["action"] for e in events if e["action"].startswith("chat_")]
        assert actions == [
            "chat_word_remove",
            "chat_word_add",
            "chat_mute",
            "chat_unmute",
            "chat_mute",
            "chat_dismiss",
        ]
        mute = next(e for e in events if e["action"] == "chat_mute" and e["reason"] == "insults at table")
        assert mute["operator"] == "boss" and mute["target"] == "pat" and len(mute["detail"]["reports"]) == 2
    report = audit(store)
    assert report.ok, str(report)


def test_a_token_reads_chat_with_chat_read_and_acts_only_with_chat_write(store: Store) -> None:
    accounts.create(store, log.COMMAND_LINE, "boss", PASSWORD)
    app = create_app(store, pause=0.05)
    with in_thread(app) as address:
        boss = _client(address, "boss")
        reader = boss.post("/api/admin/tokens", json={"label": "reader", "scopes": ["chat:read"]}).json()[
            "token"
        ]
        headers = {"Authorization": f"Bearer {reader}"}
        for path in ("/api/admin/chat/reports", "/api/admin/chat/lines", "/api/admin/chat/words"):
            assert httpx.get(f"http://{address}{path}", headers=headers).status_code == 200
        word = httpx.post(f"http://{address}/api/admin/chat/words", headers=headers, json={"word": "donkey"})
        assert word.status_code == 403 and "chat:write" in word.json()["detail"]
