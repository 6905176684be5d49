"""Every message the server sends is defined once: by its model in protocol.py, which builds what
is sent, gives /protocol.json, and is written by the one encoder (connection.encode). A message
written as a dict somewhere else, or a model missing from /protocol.json, fails here."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from sevenstud.server import protocol
from sevenstud.server.connection import encode
from sevenstud.server.protocol import CLIENT, SERVER, ErrorMessage, Outgoing, json_schema

SERVER_SOURCES = Path(protocol.__file__).resolve().parent
DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
# The calls that send, queue or encode what a client is sent.
_SENDING = {"put", "encode", "send_text", "send_json", "Encoded"}


def _server_types() -> set[str]:
    """Every message ``type`` the server side of /protocol.json allows."""
    definitions = json_schema()["server"]["$defs"]
    return {
        d["properties"]["type"]["const"]
        for d in definitions.values()
        if "const" in d.get("properties", {}).get("type", {})
    }


def _outgoing() -> list[type[Outgoing]]:
    """Every model of a server message (the subclasses of Outgoing, at any depth)."""
    found: list[type[Outgoing]] = []
    todo = list(Outgoing.__subclasses__())
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo += cls.__subclasses__()
    return found


def _type_key(node: ast.AST) -> ast.expr | None:
    """The value of a dict's ``"type"`` key, when ``node`` is a dict literal or ``dict(type=...)``."""
    if isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values, strict=True):
            if isinstance(key, ast.Constant) and key.value == "type":
                return value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
        for keyword in node.keywords:
            if keyword.arg == "type":
                return keyword.value
    return None


def _call_name(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _dict_messages(source: str, types: set[str]) -> list[tuple[int, str]]:
    """(line, why) for every message written as a dict in ``source``: a dict whose ``type`` names
    a server message, or any dict with a ``type`` in what is handed to a call that sends, queues
    or encodes (``put``, ``encode``, ``send_text`` ...)."""
    tree = ast.parse(source)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        kind = _type_key(node)
        if isinstance(kind, ast.Constant) and kind.value in types:
            assert isinstance(node, ast.expr)
            found.append((node.lineno, f"a {kind.value!r} message written as a dict"))
        if isinstance(node, ast.Call) and _call_name(node) in _SENDING:
            for argument in [*node.args, *(k.value for k in node.keywords)]:
                if any(_type_key(inner) is not None for inner in ast.walk(argument)):
                    found.append((node.lineno, f"a dict with a type handed to {_call_name(node)}()"))
    return found


def test_no_message_is_written_as_a_dict_outside_the_protocol() -> None:
    """Rule: outside protocol.py, no server code writes a message as a dict literal (the
    protocol's models build every one): an AST check over src/sevenstud/server."""
    types = _server_types()
    assert {"welcome", "event", "clock", "error", "chat", "view"} <= types
    files = sorted(p for p in SERVER_SOURCES.rglob("*.py") if p != SERVER_SOURCES / "protocol.py")
    assert len(files) > 40  # the server's sources were found at all
    found = [
        f"{path.relative_to(SERVER_SOURCES)}:{line}: {why}"
        for path in files
        for line, why in _dict_messages(path.read_text(encoding="utf-8"), types)
    ]
    assert not found, "messages not built by their model in protocol.py:\n" + "\n".join(found)


def test_the_check_finds_a_message_written_as_a_dict() -> None:
    """The check above can fail: each way of writing a message as a dict is found."""
    types = {"welcome", "error"}
    source = (
        "w = {'type': 'welcome', 'table': 1}\n"
        "e = dict(type='error', message='no')\n"
        "connection.put({'type': kind, 'number': 1})\n"
        "ws.send_text(json.dumps({'type': 'something_new'}))\n"
        "asgi = {'type': 'http.response.start'}\n"  # not a message: never sent to a client
        "seats.append({'type': 'seat_record'})\n"
    )
    assert [line for line, _ in _dict_messages(source, types)] == [1, 2, 3, 4]


def test_protocol_json_lists_every_message_the_server_sends() -> None:
    """Rule: every model the server builds a message from (every Outgoing) is in the server side
    of /protocol.json under its own type, and every type there has its model: what is sent and
    what is published are the same list."""
    models = _outgoing()
    sent = {cls.model_fields["type"].default for cls in models}
    assert len(sent) == len(models) >= 19  # each model its own type
    assert sent == _server_types()
    members = {cls for cls in models if SERVER.validate_python(_example(cls)).__class__ is cls}
    assert members == set(models)


# A value of each plain JSON Schema type, for a message's example.
_PLAIN: dict[Any, Any] = {
    "object": {},
    "array": [],
    "string": "x",
    "integer": 1,
    "number": 1.5,
    "boolean": True,
}


def _example(cls: type[Outgoing]) -> Any:
    """The smallest valid message of ``cls`` that /protocol.json's schema describes, from its own
    JSON Schema (enough to see the published union take it)."""
    schema = cls.model_json_schema()
    defs = schema.get("$defs", {})

    def value(node: dict[str, Any]) -> Any:
        if "$ref" in node:
            return value(defs[node["$ref"].rsplit("/", 1)[1]])
        if "const" in node:
            return node["const"]
        if "enum" in node:
            return node["enum"][0]
        if "anyOf" in node:
            return value(node["anyOf"][0])
        kind = node.get("type")
        if kind == "object" and "properties" in node:
            return {name: value(field) for name, field in node["properties"].items()}
        return _PLAIN[kind]

    return value(schema)


def test_the_encoder_writes_a_model_as_json_dumps_wrote_its_dict() -> None:
    """The one encoder writes a model's fields in their declared order, nested models too, as
    json.dumps writes a dict (ASCII only: the outbox counts bytes as characters)."""
    view = SERVER.validate_python(
        {
            "type": "your_turn",
            "number": 9,
            "hand": 2,
            "street": 3,
            "seat": 1,
            "act_by": 10.5,
            "deadline": 40.5,
            "actions": [{"action": "fold", "label": "Сбросить", "kind": "fold", "amount": None, "chips": 0}],
        }
    )
    assert encode(view) == json.dumps(view.model_dump(mode="json"))
    assert encode(view).isascii()
    said = encode(ErrorMessage(number=None, message="no"))
    assert said == '{"type": "error", "number": null, "message": "no"}'


def test_a_message_of_the_wrong_shape_is_the_servers_error_where_it_is_built() -> None:
    """A model validates what the server builds: a field of the wrong kind fails at the sender,
    not at a client."""
    with pytest.raises(ValidationError):
        ErrorMessage(number="three", message="no")  # type: ignore[arg-type]


def _doc_examples() -> list[str]:
    """Every one-line JSON object in docs/protocol.md's examples that is a server message."""
    lines: list[str] = []
    for block in re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S):
        for line in block.strip().splitlines():
            try:
                value = json.loads(line)
            except ValueError:
                continue  # an example over several lines, or abridged
            if isinstance(value, dict) and value.get("type") in _server_types():
                try:
                    CLIENT.validate_python(value)
                except ValidationError:
                    lines.append(line)
    return lines


def test_the_protocol_docs_examples_are_what_the_encoder_writes() -> None:
    """Rule: every one-line server message in docs/protocol.md (what third-party clients are
    written from) is a valid message, and its model, encoded, is the example to the byte."""
    examples = _doc_examples()
    assert len(examples) >= 8, examples
    for line in examples:
        assert encode(SERVER.validate_python(json.loads(line))) == line
