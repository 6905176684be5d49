"""docs/protocol.md is complete: a third party writes a client from it alone, so every route the
card room answers and every message type either way (as /protocol.json gives them) is named in
it. A route or a message added without its documentation fails here."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute, APIWebSocketRoute
from starlette.routing import Mount, WebSocketRoute

from sevenstud.server.app import create_app
from sevenstud.server.protocol import json_schema
from sevenstud.server.store import Store, open_store

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"

# FastAPI's own pages, served only with --api-docs (the HTTP section says so by name).
_FASTAPI_OWN = {"/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc"}


@pytest.fixture(scope="module")
def sqlite_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    store = open_store(f"sqlite:///{tmp_path_factory.mktemp('doc') / 'doc.sqlite3'}")
    try:
        yield store
    finally:
        store.close()


def _doc() -> str:
    return DOC.read_text(encoding="utf-8")


def _routes(routes: Any, prefix: str = "") -> list[tuple[str, str]]:
    """(method or "WS", path) for every route the app answers, ``{name}`` for a parameter."""
    found: list[tuple[str, str]] = []
    for route in routes:
        included = getattr(route, "original_router", None)  # an included router (FastAPI 0.12x)
        if included is not None:
            context = getattr(route, "include_context", None)
            found += _routes(included.routes, prefix + (getattr(context, "prefix", "") or ""))
            continue
        if isinstance(route, APIRoute):
            found += [(method, prefix + route.path) for method in sorted((route.methods or set()) - {"HEAD"})]
        elif isinstance(route, WebSocketRoute | APIWebSocketRoute):
            found.append(("WS", prefix + route.path))
        elif isinstance(route, Mount):
            found.append(("GET", prefix + route.path.rstrip("/") + "/..."))
    return found


def _documented(path: str, doc: str) -> bool:
    """Whether ``path`` is named in the doc: as written, with its parameters named otherwise
    (``/api/hands/{id}`` for ``/api/hands/{hand_id}``), or with a parameter's values written
    out (``.../deal/propose`` for ``.../deal/{answer}``)."""
    if path in doc:
        return True
    pattern = re.escape(path)
    pattern = re.sub(r"\\\{[^}]*\\\}", r"(?:\\{[^}]+\\}|[\\w-]+)", pattern)
    return re.search(pattern, doc) is not None


def test_every_route_is_in_the_protocol_doc(sqlite_store: Store) -> None:
    """Rule: every HTTP route and the websocket the card room answers appear in docs/protocol.md
    (its path, parameters by any name)."""
    app = create_app(sqlite_store)
    doc = _doc()
    routes = [(m, p) for m, p in _routes(app.routes) if p not in _FASTAPI_OWN]
    assert len(routes) > 30, routes  # the card room's routes were found at all
    missing = [f"{m} {p}" for m, p in routes if not _documented(p, doc)]
    assert not missing, f"routes not in docs/protocol.md: {missing}"


def _message_types(schema: dict[str, Any]) -> set[str]:
    """Every message ``type`` a side of /protocol.json allows (its ``const``s)."""
    types: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            fields = node.get("properties")
            kind = fields.get("type") if isinstance(fields, dict) else None
            if isinstance(kind, dict):
                if "const" in kind:
                    types.add(kind["const"])
                types.update(v for v in kind.get("enum", ()) if isinstance(v, str))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return types


@pytest.mark.parametrize("side", ["client", "server"])
def test_every_message_type_is_in_the_protocol_doc(side: str) -> None:
    """Rule: every message type /protocol.json allows, either way, is named in docs/protocol.md
    as `type` (in backquotes, as the doc writes a message's type)."""
    doc = _doc()
    types = _message_types(json_schema()[side])
    assert {"client": {"hello", "act", "sit"}, "server": {"welcome", "event", "error"}}[side] <= types
    missing = sorted(t for t in types if f"`{t}`" not in doc and f'"type": "{t}"' not in doc)
    assert not missing, f"{side} message types not in docs/protocol.md: {missing}"


@pytest.mark.parametrize("side", ["client", "server"])
def test_every_field_of_every_message_is_in_the_protocol_doc(side: str) -> None:
    """Rule: every field of every message /protocol.json gives, either way, is named in
    docs/protocol.md (as `field` or "field")."""
    doc = _doc()
    definitions = json_schema()[side].get("$defs", {})
    assert len(definitions) > 5
    missing = [
        f"{name}.{field}"
        for name, definition in definitions.items()
        for field in definition.get("properties", {})
        if field != "type" and f"`{field}`" not in doc and f'"{field}"' not in doc
    ]
    assert not missing, f"{side} message fields not in docs/protocol.md: {missing}"
