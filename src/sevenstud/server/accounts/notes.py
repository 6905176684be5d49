"""Private notes on other players: each account's own, seen by nobody else (docs/protocol.md, "Notes").

``GET /api/notes`` lists the notes of the account logged in; ``GET /api/notes/{name}`` is its
note on one player (404 when it has none); ``PUT /api/notes/{name} {"text": ...}`` writes it
(an empty text deletes it); ``DELETE /api/notes/{name}`` deletes it. A note is found by the
player's name as names are compared (``auth.name_key``: ``Ann`` and ``ann`` are one player), so
it follows the player from table to table. Every route is the author's alone: another account's
notes are never read or written here, and there is no route that names an author.
"""

from __future__ import annotations

import time
import unicodedata
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field

from sevenstud.refusals import Refusal
from sevenstud.server.accounts import auth
from sevenstud.server.accounts.sessions import Sessions
from sevenstud.server.store import notes
from sevenstud.server.store.models import PlayerNote

NOTE_CHARS = 2000
"""The longest note, in characters."""
NOTES_PER_ACCOUNT = 1000
"""The most notes one account keeps (a further new one is refused; editing one is not)."""

Name = Annotated[str, PathParam(min_length=1, max_length=40)]
"""A player's name in a path (URL-encoded), as the table shows it."""


class NoteBody(BaseModel):
    """A note's text (strict: a string; at most :data:`NOTE_CHARS` characters)."""

    model_config = ConfigDict(strict=True, extra="forbid")

    text: str = Field(max_length=NOTE_CHARS)


def _line(note: PlayerNote) -> dict[str, Any]:
    return {"player": note.subject, "text": note.text, "updated_at": note.updated_at}


def router(sessions: Sessions) -> APIRouter:
    """The note routes, for the account logged in (:class:`Sessions`)."""
    routes = APIRouter()
    store = sessions.store
    author = sessions.player

    def key(name: str) -> str:
        # A name's compared form may be longer than the name (NFKC expands some characters):
        # past the column's 64 it is no player's name (names are at most 40 once compared).
        found = auth.name_key(name)
        if len(found) > 64:
            raise HTTPException(400, Refusal("name_too_long_compared"))
        return found

    def find(s: Any, author_id: int, name: str) -> PlayerNote | None:
        return notes.note_of(s, author_id, key(name))

    @routes.get("/api/notes")
    def list_notes(request: Request) -> list[dict[str, Any]]:
        who = author(request)
        with store.session() as s:
            return [_line(row) for row in notes.notes_of(s, who.id)]

    @routes.get("/api/notes/{name}")
    def one_note(request: Request, name: Name) -> dict[str, Any]:
        who = author(request)
        with store.session() as s:
            note = find(s, who.id, name)
            if note is None:
                raise HTTPException(404, Refusal("no_note", name=name))
            return _line(note)

    @routes.put("/api/notes/{name}")
    def write_note(request: Request, name: Name, body: NoteBody) -> dict[str, Any]:
        who = author(request)
        text = body.text.strip()
        # every control character (C0, DEL and the C1 block) but the line breaks and tabs
        if any(unicodedata.category(c) == "Cc" and c not in "\n\t" for c in text):
            raise HTTPException(400, Refusal("note_control"))
        with store.transaction() as s:
            note = find(s, who.id, name)
            if not text:
                if note is not None:
                    s.delete(note)
                return {"player": name, "text": "", "updated_at": None}
            if note is None:
                if notes.count_of(s, who.id) >= NOTES_PER_ACCOUNT:
                    full = Refusal("notes_full", count=NOTES_PER_ACCOUNT)
                    raise HTTPException(400, full)
                note = PlayerNote(author_id=who.id, subject_key=key(name), subject=name, text=text)
                s.add(note)
            note.text, note.subject, note.updated_at = text, name, time.time()
            s.flush()
            return _line(note)

    @routes.delete("/api/notes/{name}")
    def delete_note(request: Request, name: Name) -> dict[str, Any]:
        who = author(request)
        with store.transaction() as s:
            notes.forget(s, who.id, key(name))
        return {"player": name, "deleted": True}

    return routes


__all__ = ["NOTES_PER_ACCOUNT", "NOTE_CHARS", "NoteBody", "router"]
