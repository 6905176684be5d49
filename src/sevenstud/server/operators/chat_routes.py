"""The chat's moderation over HTTP (docs/operators.md, "Chat"; docs/protocol.md, "Chat"): a
player's report of a line, ``POST /api/chat/reports``, and the operators' side under
``/api/admin/chat/``: the reports, each table's chat log, mutes and the refused words.

Reading needs the scope ``chat:read``, acting ``chat:write`` (:mod:`.access`); every action is
written in the event log (:mod:`.chat`). A player's reports are limited per account
(``Limits.chat_reports`` per ``chat_report_window``).
"""

# No `from __future__ import annotations`: FastAPI reads the routes' annotations as objects.

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from sevenstud.server.cardroom import CardRoom
from sevenstud.server.operators import chat
from sevenstud.server.operators.access import Access, Acting
from sevenstud.server.operators.accounts import OperatorError
from sevenstud.server.operators.chat_words import WORD_MAX
from sevenstud.server.web import RowId


class Report(BaseModel):
    """A player's report: the chat line's ``id`` (the ``chat`` message's) and why (may be
    blank)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    line: str = Field(min_length=1, max_length=32)
    reason: str = Field(default="", max_length=chat.REASON_MAX)


class Dismissal(BaseModel):
    """Why a report is dismissed (may be blank)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    reason: str = Field(default="", max_length=500)


class Mute(BaseModel):
    """A mute for ``hours`` (at most a year), and why."""

    model_config = ConfigDict(strict=True, extra="forbid")
    hours: float = Field(gt=0, le=24 * 366)
    reason: str = Field(max_length=500)


class Lift(BaseModel):
    """Why a mute is lifted."""

    model_config = ConfigDict(strict=True, extra="forbid")
    reason: str = Field(max_length=500)


class Word(BaseModel):
    """A word for the refused list (or to take off it), and why (may be blank)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    word: str = Field(min_length=1, max_length=WORD_MAX * 2)
    reason: str = Field(default="", max_length=500)


def router(room: CardRoom) -> APIRouter:
    """The chat's moderation routes over the card room ``room``."""
    routes = APIRouter()
    store = room.store
    desk = room.chat_desk
    access = Access(room)
    reading = Annotated[Acting, Depends(access.needs("chat:read"))]
    writing = Annotated[Acting, Depends(access.needs("chat:write"))]

    def refused(error: OperatorError, status: int = 400) -> HTTPException:
        return HTTPException(status, error)

    @routes.post("/api/chat/reports")
    def reported(request: Request, body: Report) -> dict[str, Any]:
        reporter = room.sessions.player(request)  # 401 without a session; a guest may report
        desk.reports.take(str(reporter.id))  # 429 past the allowance
        try:
            return {"report": chat.report(store, reporter, body.line, body.reason)}
        except OperatorError as error:
            raise refused(error, 404 if error.code == "chat_line_unknown" else 400) from None

    @routes.get("/api/admin/chat/reports")
    def report_list(
        who: reading, state: Annotated[str, Query(pattern="^(open|dismissed|muted|all)$")] = "open"
    ) -> list[dict[str, Any]]:
        return chat.reports(store, None if state == "all" else state)

    @routes.post("/api/admin/chat/reports/{report_id}/dismiss")
    def dismissed(who: writing, report_id: RowId, body: Dismissal) -> dict[str, Any]:
        try:
            chat.dismiss(store, who.name, report_id, body.reason)
        except OperatorError as error:
            raise refused(error) from None
        return {"dismissed": report_id}

    @routes.get("/api/admin/chat/lines")
    def chat_log(
        who: reading,
        table: Annotated[int | None, Query(ge=1, le=2**31 - 1)] = None,
        player: Annotated[str | None, Query(max_length=40)] = None,
        limit: Annotated[int, Query(ge=1, le=chat.LISTED_AT_MOST)] = 100,
    ) -> list[dict[str, Any]]:
        try:
            return chat.lines(store, table, player or None, limit)
        except OperatorError as error:
            raise refused(error, 404) from None

    @routes.get("/api/admin/chat/mutes")
    def mute_list(who: reading) -> list[dict[str, Any]]:
        return chat.mutes(store)

    @routes.post("/api/admin/chat/mutes/{name}")
    def muted(who: writing, name: str, body: Mute) -> dict[str, Any]:
        try:
            until = chat.mute(store, who.name, name, body.hours, body.reason)
        except OperatorError as error:
            raise refused(error) from None
        return {"muted": name, "until": until}

    @routes.post("/api/admin/chat/mutes/{name}/lift")
    def lifted(who: writing, name: str, body: Lift) -> dict[str, Any]:
        try:
            chat.lift(store, who.name, name, body.reason)
        except OperatorError as error:
            raise refused(error) from None
        return {"muted": None}

    @routes.get("/api/admin/chat/words")
    def word_list(who: reading) -> list[dict[str, Any]]:
        return chat.words(store)

    @routes.post("/api/admin/chat/words")
    def word_added(who: writing, body: Word) -> dict[str, Any]:
        try:
            word = chat.add_word(store, who.name, body.word, body.reason)
        except OperatorError as error:
            raise refused(error) from None
        if desk.moderation is not None:
            desk.moderation.forget_words()  # this process refuses it from the next line on
        return {"word": word}

    @routes.post("/api/admin/chat/words/remove")
    def word_removed(who: writing, body: Word) -> dict[str, Any]:
        try:
            word = chat.remove_word(store, who.name, body.word, body.reason)
        except OperatorError as error:
            raise refused(error) from None
        if desk.moderation is not None:
            desk.moderation.forget_words()
        return {"removed": word}

    return routes


__all__ = ["router"]
