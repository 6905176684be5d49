"""Client messages at the edge (docs/protocol.md): strict types as /protocol.json says them,
refusals that name the field and what was wrong, binary frames and unpaired surrogates
answered with an error (the socket stays open), never a traceback."""

from __future__ import annotations

import json

import httpx
import pytest
from sqlalchemy import select
from websockets.sync.client import connect

from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.app import create_app
from sevenstud.server.protocol import PROTOCOL_VERSION, MessageError, Sit, TopUp, parse_client
from sevenstud.server.store import Store
from sevenstud.server.store.models import Sitting
from tests.spawn import in_thread


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"type": "sit", "seat": 1, "buy_in": "100"}', "buy_in: expected an integer, got a string"),
        ('{"type": "sit", "seat": true, "buy_in": 100}', "seat: expected an integer, got a boolean"),
        (
            '{"type": "sit", "seat": 1.0, "buy_in": 100}',
            "seat: expected an integer, got a number with a fraction",
        ),
        ('{"type": "top_up", "amount": "50"}', "amount: expected an integer, got a string"),
        ('{"type": "top_up", "amount": true}', "amount: expected an integer, got a boolean"),
        (
            '{"type": "hello", "version": 1, "table": 1, "views": 1}',
            "views: expected true or false, got an integer",
        ),
        ('{"type": "act", "hand": 1, "street": 3}', "action: missing (the act message needs it)"),
        ('{"type": "leave", "seat": 1}', "seat: the leave message has no such field"),
        ('{"type": "sit", "seat": 9, "buy_in": 100}', "seat: at most 8, got 9"),
        ('{"type": "deal"}', "type: no message is called 'deal'"),
        ('{"type": 5}', "type: expected a string naming the message, got an integer"),
        ('{"seat": 1}', "type: missing"),
        ("[1, 2]", "a message is a JSON object, got an array"),
        ("{not json", "invalid JSON: "),
        (
            '{"type": "act", "hand": 1, "street": 3, "action": "\\ud800"}',
            "action: text with an unpaired surrogate",
        ),
        (
            '{"type": "hello", "version": 1, "table": 1, "\\udc00": 1}',
            "(the key): text with an unpaired surrogate",
        ),
    ],
)
def test_a_malformed_message_is_refused_naming_the_field_and_what_was_wrong(text: str, said: str) -> None:
    """Rule: strict types (an integer is a JSON integer: not "100", true or 1.0), and every
    refusal says which field and what was wrong; a lone UTF-16 surrogate escape (valid JSON, no
    Unicode text) is refused naming where it is."""
    with pytest.raises(MessageError) as refused:
        parse_client(text)
    assert said in str(refused.value)


def test_well_typed_messages_are_taken() -> None:
    assert parse_client('{"type": "sit", "seat": 2, "buy_in": 100}') == Sit(type="sit", seat=2, buy_in=100)
    assert parse_client('{"type": "top_up", "amount": 50}') == TopUp(type="top_up", amount=50)
    assert (
        parse_client('{"type": "act", "hand": 1, "street": 3, "action": "bring-in é"}').action == "bring-in é"
    )


def test_a_binary_frame_or_a_mistyped_field_gets_an_error_and_the_socket_stays(store: Store) -> None:
    """Rule: a binary frame is answered with an error naming it (no traceback, no 1006), a
    sit with a buy-in as a string is refused naming ``buy_in`` and seats nobody, and the
    socket goes on serving."""
    with in_thread(create_app(store, pause=0.05)) as address:
        with httpx.Client(base_url=f"http://{address}") as client:
            client.post("/api/guest").raise_for_status()
            table = client.post("/api/tables", json={"game": "stud", "seats": 4}).json()["id"]
            cookie = {"Cookie": f"{COOKIE}={client.cookies[COOKIE]}"}
        with connect(f"ws://{address}/ws", additional_headers=cookie) as ws:
            ws.send(b'{"type": "hello"}')
            error = json.loads(ws.recv(timeout=5))
            assert error["type"] == "error" and "binary frame" in error["message"]
            ws.send(json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "table": table}))
            assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
            ws.send(json.dumps({"type": "sit", "seat": 1, "buy_in": "100"}))
            while (message := json.loads(ws.recv(timeout=5)))["type"] != "error":
                pass
            assert message["message"] == "malformed message: buy_in: expected an integer, got a string"
    with store.session() as s:
        assert s.scalars(select(Sitting).where(Sitting.table_id == table)).all() == []


def test_http_bodies_are_strict_too_and_stakes_are_a_json_array(store: Store) -> None:
    """Rule: a body's numbers are JSON integers (``"6"`` and ``true`` refused 422, naming the
    field), and the stakes an array of four of them."""
    with (
        in_thread(create_app(store, pause=0.05)) as address,
        httpx.Client(base_url=f"http://{address}") as client,
    ):
        client.post("/api/guest").raise_for_status()
        made = client.post("/api/tables", json={"game": "stud", "seats": 4, "stakes": [1, 2, 5, 10]})
        assert made.status_code == 200, made.text
        for wrong, field in (
            ({"seats": "6"}, "seats"),
            ({"bots": True}, "bots"),
            ({"stakes": [1, 2, "5", 10]}, "stakes"),
        ):
            refused = client.post("/api/tables", json={"game": "stud", **wrong})
            assert refused.status_code == 422 and field in json.dumps(refused.json()["detail"]), refused.text
        # Every body, not only the table's: the equity job's trials, and buy-in limits past
        # the database's integers (named, not mistaken for the other limit).
        hands = ["As Ks Qs", "2h 3h 4h"]
        for body, field in (
            ({"hands": hands, "trials": "5"}, "trials"),
            ({"hands": hands, "trials": 5.0}, "trials"),
            ({"hands": "As Ks Qs", "trials": 5}, "hands"),
        ):
            refused = client.post("/api/equity", json=body)
            assert refused.status_code == 422 and field in json.dumps(refused.json()["detail"]), refused.text
        for limits, status, said in (
            ({"min_buy_in": 2**63}, 422, "min_buy_in"),
            ({"max_buy_in": 2**31}, 422, "max_buy_in"),
            ({"min_buy_in": 10**6}, 400, "min_buy_in 1000000 is above"),
            ({"stakes": [30, 2, 5, 10], "min_buy_in": 20}, 400, "min_buy_in 20 is below 30 (the ante of 30)"),
            ({"seets": 4}, 422, "seets"),  # misspelt: named, not ignored
        ):
            refused = client.post("/api/tables", json={"game": "stud", **limits})
            assert refused.status_code == status and said in refused.text, refused.text
