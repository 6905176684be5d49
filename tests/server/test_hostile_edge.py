"""Hostile clients, round 3 (issue 36): the edge and the text (docs/security.md).

A request's head has a size limit on the parser that runs (httptools), and connections a count
per address; a lone surrogate in any JSON body is a 422 naming the field, never a 500; the
answers of an account's own are not cached; chat and the names of tables and tournaments are
one line of plain text (chat's rule, existing names cleaned by migration 0009); names that read
as the dealer are kept; notes refuse C1 controls. Each over a real uvicorn on 127.0.0.1 with
the card room's server options; on SQLite alone where nothing depends on the database, on both
where it does.
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from sevenstud.server.app import create_app
from sevenstud.server.limits import PAGE_CONNECTIONS, Limits
from sevenstud.server.store import Store, open_store
from tests.spawn import in_thread


@pytest.fixture
def lite(tmp_path: Path) -> Iterator[Store]:
    """A migrated SQLite store (for the rules that do not depend on the database)."""
    opened = open_store(f"sqlite:///{tmp_path / 'cardroom.sqlite3'}")
    try:
        yield opened
    finally:
        opened.close()


@contextlib.contextmanager
def served(store: Store, limits: Limits | None = None, **options: Any) -> Iterator[str]:
    """A card room over ``store`` in this process: its ``host:port``."""
    limits = limits or Limits()
    with in_thread(create_app(store, pause=0.05, limits=limits, **options), limits) as address:
        yield address


def _raw(address: str, data: bytes, timeout: float = 5.0) -> bytes:
    """What the server answers ``data`` sent on a fresh connection, until it closes (or
    ``timeout``): the bytes it sent back."""
    host, port = address.split(":")
    got = b""
    with socket.create_connection((host, int(port)), timeout=timeout) as raw:
        with contextlib.suppress(OSError):  # the server may close before every byte is sent
            raw.sendall(data)
        with contextlib.suppress(OSError):
            while chunk := raw.recv(65536):
                got += chunk
    return got


def _status_and_body(answer: bytes) -> tuple[int, dict[str, Any]]:
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), json.loads(body)


# ---------------------------------------------------------------------- the head of a request


def test_a_head_past_the_limit_is_refused_431_in_the_language_and_never_read_whole(lite: Store) -> None:
    """Rule: a request whose line and headers pass ``header_bytes`` is answered 431, naming the
    limit, in the request's language, and its connection closed; one just under is answered
    as ever (httptools alone read a 16 or 60 MiB header and answered 200)."""
    limits = Limits(header_bytes=8 * 1024)
    with served(lite, limits) as address:
        start = b"GET /api/lobby?lang=ru HTTP/1.1\r\nHost: %b\r\n" % address.encode()
        fits = start + b"Connection: close\r\nX-Pad: " + b"a" * 7000 + b"\r\n\r\n"
        assert _raw(address, fits).startswith(b"HTTP/1.1 200")
        for pad in (9 * 1024, 4 * 1024 * 1024):
            flood = start + b"X-Pad: " + b"a" * pad + b"\r\n\r\n"
            status, body = _status_and_body(_raw(address, flood))
            assert status == 431, pad
            assert "8192" in body["detail"] and "байт" in body["detail"], body
        # a head of many small headers counts the same; Accept-Language read from the head
        many = b"GET /api/lobby HTTP/1.1\r\nHost: %b\r\nAccept-Language: et\r\n" % address.encode()
        many += b"".join(b"X-%d: %b\r\n" % (i, b"b" * 50) for i in range(400)) + b"\r\n"
        status, body = _status_and_body(_raw(address, many))
        assert status == 431 and "8192" in body["detail"] and "bait" in body["detail"]
        # a kept-alive connection's second request is held to the limit too
        host, port = address.split(":")
        with socket.create_connection((host, int(port)), timeout=5) as raw:
            raw.sendall(b"GET /api/lobby HTTP/1.1\r\nHost: %b\r\n\r\n" % address.encode())
            assert raw.recv(65536).startswith(b"HTTP/1.1 200")
            with contextlib.suppress(OSError):
                raw.sendall(start + b"X-Pad: " + b"a" * (64 * 1024) + b"\r\n\r\n")
            assert raw.recv(65536).startswith(b"HTTP/1.1 431")
        # the server still answers
        assert httpx.get(f"http://{address}/api/lobby").status_code == 200


def test_a_post_with_a_body_under_the_head_limit_goes_through_whatever_its_reads(lite: Store) -> None:
    """Rule: only the head is held to ``header_bytes``: a body sent with it in one write (the
    head and the body larger than the limit together) is read as ever."""
    limits = Limits(header_bytes=1024, http_body_bytes=16 * 1024)
    with served(lite, limits) as address:
        body = json.dumps({"name": "x" * 12000, "password": "correct horse"}).encode()
        request = (
            b"POST /api/login HTTP/1.1\r\nHost: %b\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n%b" % (address.encode(), len(body), body)
        )
        status, answer = _status_and_body(_raw(address, request))
        assert status == 422, answer  # the name's length refused: the body was read and judged


def test_connections_past_the_count_per_address_are_refused_429_until_one_closes(lite: Store) -> None:
    """Rule: at most ``connections_per_address`` connections are open at once from one address
    (a websocket among them; never fewer than ``sockets_per_address`` and a browser's few); one
    more is answered 429, naming the limit, in its language, and closed; once one closes a new
    one is served."""
    limits = Limits(connections_per_address=1, sockets_per_address=1)
    most = limits.most_connections_per_address()
    assert most == 1 + PAGE_CONNECTIONS
    with served(lite, limits) as address:
        host, port = address.split(":")
        held = [socket.create_connection((host, int(port)), timeout=5) for _ in range(most - 1)]
        try:
            with connect(f"ws://{address}/ws") as ws:  # the last one allowed: a websocket
                ws.ping().wait(5)
                refused = _raw(address, b"GET /api/lobby HTTP/1.1\r\nHost: x\r\nAccept-Language: uk\r\n\r\n")
                status, body = _status_and_body(refused)
                assert status == 429 and str(most) in body["detail"] and "адрес" in body["detail"], body
            time.sleep(0.3)  # the websocket's close reaches the server
            again = b"GET /api/lobby HTTP/1.1\r\nHost: %b\r\nConnection: close\r\n\r\n"
            answer = _raw(address, again % address.encode())
            assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
        finally:
            for raw in held:
                raw.close()
        time.sleep(0.3)
        with httpx.Client(base_url=f"http://{address}") as client:  # all let go: as many again
            opened = [socket.create_connection((host, int(port)), timeout=5) for _ in range(most - 1)]
            try:
                assert client.get("/api/lobby").status_code == 200
            finally:
                for raw in opened:
                    raw.close()


# ---------------------------------------------------------------------- lone surrogates


LONE = '"\\ud800"'
"""A JSON string holding a lone high surrogate, as a client escapes it."""


def test_a_lone_surrogate_in_any_json_body_is_a_422_naming_the_field_never_a_500(
    lite: Store, capfd: pytest.CaptureFixture[str]
) -> None:
    """Rule: a lone surrogate anywhere in a JSON body (a value, a nested one, a key) is refused
    422 before any route sees it, naming where it is, in the request's language; nothing is
    changed and the server logs no traceback (each of these was a 500 with one, anonymously)."""
    with served(lite) as address, httpx.Client(base_url=f"http://{address}") as client:
        client.post("/api/guest").raise_for_status()
        json_type = {"Content-Type": "application/json"}
        for path, body, loc in (
            ("/api/signup", '{"name": ' + LONE + ', "password": "correct horse"}', ["body", "name"]),
            ("/api/login", '{"name": "ann", "password": ' + LONE + "}", ["body", "password"]),
            ("/api/tables", '{"name": ' + LONE + "}", ["body", "name"]),
            ("/api/tournaments", '{"template": "sng-6", "name": "a\\udc00b"}', ["body", "name"]),
            ("/api/equity", '{"hands": ["As Ks", ' + LONE + "]}", ["body", "hands", 1]),
            ("/api/tables", "{" + LONE + ": 1}", ["body", "\\ud800"]),
        ):
            answer = client.post(path, content=body.encode(), headers=json_type)
            assert answer.status_code == 422, (path, answer.text)
            (error,) = answer.json()["detail"]
            assert error["loc"] == loc and "unpaired surrogate" in error["msg"], (path, error)
        note = client.put(
            "/api/notes/ann?lang=uk", content=('{"text": ' + LONE + "}").encode(), headers=json_type
        )
        assert note.status_code == 422 and "сурогат" in note.json()["detail"][0]["msg"]
        assert client.get("/api/notes").json() == []
        assert client.get("/api/lobby").json() == []
        # a pair of surrogates is one character: let through
        fine = client.put("/api/notes/ann", content=b'{"text": "\\ud83c\\udca1"}', headers=json_type)
        assert fine.status_code == 200 and fine.json()["text"] == "\U0001f0a1"
    assert "Traceback" not in capfd.readouterr().err


# ---------------------------------------------------------------------- caching


def test_an_accounts_own_answers_are_never_stored_by_a_cache(lite: Store) -> None:
    """Rule: every /api/ answer (an account's balance, notes, hands; a refusal) says
    ``Cache-Control: no-store``; the pages keep their own ``no-cache``."""
    with served(lite) as address, httpx.Client(base_url=f"http://{address}") as client:
        client.post("/api/guest").raise_for_status()
        for path in ("/api/me", "/api/notes", "/api/hands", "/api/history", "/api/lobby", "/api/nowhere"):
            answer = client.get(path)
            assert answer.headers.get("cache-control") == "no-store", (path, answer.headers)
        refused = client.post("/api/logout", headers={"Origin": "https://evil.example"})
        assert refused.status_code == 403 and refused.headers["cache-control"] == "no-store"
        assert client.get("/").headers["cache-control"] == "no-cache"


# ---------------------------------------------------------------------- plain text on one line

REFUSED = {
    "\u2028": "line or paragraph separators",
    "\u2029": "line or paragraph separators",
    "\u200b": "invisible format characters",
    "\U000e0041": "invisible format characters",
    "\u202e": "direction controls",
    "\x85": "control characters",
    "\u3164": "blank fillers",
    "\u2800": "blank fillers",
}
"""A character of each kind the rule refuses (the issue's among them), and how it is named."""


def test_chat_is_one_line_of_plain_text_without_separators_format_characters_or_fillers() -> None:
    """Rule: a chat line with a line or paragraph separator, a zero-width or tag character, a
    direction control, a C1 control or a blank filler is refused, naming the kind and the code
    point; an emoji written with joiners goes through."""
    from sevenstud.server.tables.chat import check_text
    from sevenstud.server.tables.keeper import RoomError

    for char, kind in REFUSED.items():
        with pytest.raises(RoomError) as refused:
            check_text(f"gg{char}wp")
        assert str(refused.value) == f"chat is plain text on one line: no {kind} (U+{ord(char):04X})"
    with pytest.raises(RoomError, match="blank fillers"):
        check_text("\u3164" * 5)
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert check_text(f"nice hand {family} \u2764\ufe0f") == f"nice hand {family} \u2764\ufe0f"


def test_a_table_or_tournament_name_is_one_line_of_plain_text_and_the_refusal_names_the_field(
    lite: Store,
) -> None:
    """Rule: a table's or a tournament's name with a character chat refuses is a 422 naming the
    field, the kind and the code point, in the request's language; nothing is opened."""
    with served(lite) as address, httpx.Client(base_url=f"http://{address}") as client:
        client.post("/api/guest").raise_for_status()
        for char, kind in REFUSED.items():
            for path, body in (
                ("/api/tables", {"name": f"Friday{char}night"}),
                ("/api/tournaments", {"template": "sng-6", "name": f"Friday{char}night"}),
            ):
                answer = client.post(path, json=body)
                assert answer.status_code == 422, (path, answer.text)
                (error,) = answer.json()["detail"]
                assert error["loc"] == ["body", "name"] and error["type"] == "plain_line"
                assert error["msg"] == f"plain text on one line: no {kind} (U+{ord(char):04X})"
        said = client.post("/api/tables?lang=ru", json={"name": "a\u202eb"}).json()["detail"][0]["msg"]
        assert said == "простой текст в одну строку: без символов направления (U+202E)"
        assert client.get("/api/lobby").json() == []
        assert client.get("/api/tournaments").json() == [] or all(
            t["name"] != "Friday night" for t in client.get("/api/tournaments").json()
        )
        assert client.post("/api/tables", json={"name": "Friday night \u2660"}).status_code == 200


def test_migration_0009_cleans_the_names_stored_before_the_rule(db_url: str) -> None:
    """Rule: a table's or tournament's name stored before the rule is made plain text on one
    line (a line break a space, the invisible and the direction controls dropped); one left
    blank gets the default name; a plain one is left as it was."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine, text

    from sevenstud.server.store import MIGRATIONS

    engine = create_engine(db_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    names = {1: "Friday\nnight\u202e game\u200b", 2: "\u3164\u3164", 3: "Ann's \u2660 table"}
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0008_tournament_servers")
        for row_id, name in names.items():
            connection.execute(
                text(
                    "INSERT INTO tables (id, name, game, settings, created_at, closed)"
                    " VALUES (:i, :n, '{}', '{}', 0, false)"
                ),
                {"i": row_id, "n": name},
            )
            connection.execute(
                text(
                    "INSERT INTO tournaments (id, name, kind, settings, state, speed, created_at, version)"
                    " VALUES (:i, :n, 'sng', '{}', 'finished', 1, 0, 0)"
                ),
                {"i": row_id, "n": name},
            )
        command.upgrade(config, "head")
        for table, blank in (("tables", "Stud table"), ("tournaments", "tournament 2")):
            found = dict(connection.execute(text(f"SELECT id, name FROM {table} ORDER BY id")).all())
            assert found == {1: "Friday night game", 2: blank, 3: "Ann's \u2660 table"}, table
    engine.dispose()


# ---------------------------------------------------------------------- the dealer's name, notes


@pytest.mark.parametrize("name", ["Dealer", "dealer", "DEALER_1", "Diiler", "de-aler", "Dealer2026"])
def test_a_name_that_reads_as_the_dealer_cannot_be_taken(lite: Store, name: str) -> None:
    """Rule: a name starting with the dealer's name in any of the pages' languages (compared
    as names are, '_' and '-' aside) is refused, naming the word, in the request's language;
    no account is made."""
    with served(lite) as address:
        answer = httpx.post(
            f"http://{address}/api/signup?lang=et", json={"name": name, "password": "correct horse"}
        )
        assert answer.status_code == 400, answer.text
        assert "on diilerile" in answer.json()["detail"], answer.text
        assert httpx.post(
            f"http://{address}/api/login", json={"name": name, "password": "correct horse"}
        ).status_code in (401, 400)
        fine = httpx.post(
            f"http://{address}/api/signup", json={"name": "Dealt7", "password": "correct horse"}
        )
        assert fine.status_code == 200, fine.text


def test_a_note_refuses_c1_controls_and_keeps_line_breaks(lite: Store) -> None:
    """Rule: a note is plain text: a C1 control (U+0080 to U+009F) is refused as C0 ones are,
    and nothing is written; line breaks and tabs are kept."""
    with served(lite) as address, httpx.Client(base_url=f"http://{address}") as client:
        client.post("/api/guest").raise_for_status()
        for char in ("\x85", "\x9b", "\x80", "\x07"):
            answer = client.put("/api/notes/ann", json={"text": f"calls{char}light"})
            assert answer.status_code == 400 and "no control characters" in answer.json()["detail"]
        assert client.get("/api/notes").json() == []
        kept = client.put("/api/notes/ann", json={"text": "calls light\n\tfolds to raises"})
        assert kept.status_code == 200 and kept.json()["text"] == "calls light\n\tfolds to raises"
