"""The routes of home games (docs/protocol.md, "Private games"): a player opening an invite
link, asking whether the host has said yes, and the host's controls at the table page.

Every route about a private table answers a stranger (and anybody, for a table that does not
exist) the same 404, "no such table, or no invitation to it"; the host's routes answer it to
everybody but the host. What the host changes at a live table (a pause, a removal) is done on
the table's actor (:meth:`~sevenstud.server.tables.room.Room.submit`), so it happens between
two steps of the table, never in the middle of one.
"""

# No `from __future__ import annotations`: FastAPI reads the routes' dependencies (the local
# `current` alias) from the annotations as objects, at definition.

import functools
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from sevenstud.refusals import Refusal
from sevenstud.server.accounts.sessions import Sessions
from sevenstud.server.cardroom import CardRoom
from sevenstud.server.plaintext import PlainLine
from sevenstud.server.protocol import MAX_ID, Removed, TablePaused
from sevenstud.server.store import private
from sevenstud.server.store.models import Player
from sevenstud.server.tables.keeper import RoomError
from sevenstud.server.tables.private import ledger_csv
from sevenstud.server.tables.room import Room
from sevenstud.server.web import RowId

TableId = Annotated[int, Field(ge=1, le=MAX_ID)]


class InviteBody(BaseModel):
    """An invite link's token, as the invite page read it from its address."""

    model_config = ConfigDict(strict=True, extra="forbid")
    token: str = Field(min_length=1, max_length=100)


class AskBody(BaseModel):
    """Whether each newcomer with the link asks the host first."""

    model_config = ConfigDict(strict=True, extra="forbid")
    ask_to_join: bool


class DecideBody(BaseModel):
    """The host's answer to a player's request (or letting a denied or removed one back in)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    player: str = Field(min_length=1, max_length=40)
    approve: bool


class PauseBody(BaseModel):
    """Pause (true) or resume (false) the table."""

    model_config = ConfigDict(strict=True, extra="forbid")
    paused: bool


class RemoveBody(BaseModel):
    """A player to remove between hands, and why (told to them; plain text, one line)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    player: str = Field(min_length=1, max_length=40)
    reason: PlainLine = Field(default="", max_length=private.REASON_CHARS)


def _refused(error: Refusal) -> HTTPException:
    """A refusal as its answer: a stranger's 404, anything else a 400."""
    return HTTPException(404 if error.code == "no_invitation" else 400, error)


async def hold(room: Room, paused: bool) -> None:
    """Pause or resume a live table, on its actor: every connection there is told."""

    def command(_now: float) -> None:
        room.held = paused
        said = TablePaused(table=room.keeper.table_id, number=room.keeper.number, paused=paused)
        for watcher in room.watchers.values():
            watcher.after.append(said)

    await room.submit(command)


def _remove(room: Room, store: Any, host_id: int, name: str, reason: str, now: float) -> None:
    """On the actor: stand ``name`` up (their stack back to their balance, by the keeper's
    ledger rows), mark their pass removed, and tell their connections why (after their
    stand-up: the step's send gives both)."""
    keeper = room.keeper
    if name in keeper.occupants and keeper.table.hand_in_progress:
        raise RoomError("remove_after_hand", player=name)
    try:
        private.mark_removed(store, keeper.table_id, host_id, name, reason)
    except Refusal as error:  # a refusal of the room's kind: the table goes on
        raise RoomError(error.code or "no_pass", **error.params) from None
    if name in keeper.occupants:
        keeper.leave(name, now)
    said = Removed(table=keeper.table_id, number=keeper.number, reason=reason)
    for watcher in room.watchers.values():
        if watcher.player == name:
            watcher.after.append(said)  # after their stand-up, at this step's send


def _stop_watching(room: Room, name: str) -> None:
    """After the removal's step was sent: the removed player's connections watch no more."""
    for key, watcher in list(room.watchers.items()):
        if watcher.player == name:
            room.unwatch(key)


def router(cardroom: CardRoom) -> APIRouter:
    """The home games' routes over the card room ``cardroom``."""
    routes = APIRouter()
    store = cardroom.store
    current = Annotated[Player, Depends(cardroom.sessions.player)]

    async def run(call: Any, *args: Any) -> Any:
        try:
            return await store.run(call, store, *args)
        except Refusal as error:
            raise _refused(error) from None

    @routes.post("/api/invite")
    async def use_link(body: InviteBody, player: current) -> dict[str, Any]:
        """Open an invite link: the player's standing (``in``, ``asking`` or ``denied``)."""
        standing: private.Standing = await run(private.use_link, body.token, player.id)
        return standing.answer()

    @routes.get("/api/private/tables/{table_id}/pass")
    async def my_pass(table_id: RowId, player: current) -> dict[str, Any]:
        """The player's standing at a private table (has the host said yes?)."""
        where = private.Where("table", _checked(table_id))
        standing: private.Standing = await run(private.standing_at, where, player.id)
        return standing.answer()

    async def host_or_not(where: private.Where, request: Request) -> dict[str, Any]:
        # The table page asks at every table, signed in or out: anybody but the host is told
        # {"host": false}, the same for every table (private, public or none), so the answer
        # says nothing to a stranger and no page logs a failed request.
        player = cardroom.sessions.maybe(request)
        if player is None:
            return {"host": False}
        try:
            answer: dict[str, Any] = await store.run(private.host_view, store, where, player.id)
        except private.NoInvitation:
            return {"host": False}
        return {"host": True, **answer}

    @routes.get("/api/private/tables/{table_id}")
    async def host_view(table_id: RowId, request: Request) -> dict[str, Any]:
        """The host's panel: settings, requests, who is in (``{"host": false}`` to anybody
        else)."""
        return await host_or_not(private.Where("table", table_id), request)

    @routes.post("/api/private/tables/{table_id}/link")
    async def renew(table_id: RowId, player: current) -> dict[str, Any]:
        """A new invite link (the old one lets nobody else in)."""
        token: str = await run(private.renew_link, _checked(table_id), player.id)
        return {"table": table_id, "token": token, "path": f"/invite/{token}"}

    @routes.post("/api/private/tables/{table_id}/ask")
    async def ask(table_id: RowId, body: AskBody, player: current) -> dict[str, Any]:
        await run(private.set_ask_to_join, _checked(table_id), player.id, body.ask_to_join)
        return {"table": table_id, "ask_to_join": body.ask_to_join}

    @routes.post("/api/private/tables/{table_id}/decide")
    async def decide(table_id: RowId, body: DecideBody, player: current) -> dict[str, Any]:
        state: str = await run(private.decide, _checked(table_id), player.id, body.player, body.approve)
        return {"table": table_id, "player": body.player, "state": state}

    @routes.post("/api/private/tables/{table_id}/pause")
    async def pause(table_id: RowId, body: PauseBody, player: current) -> dict[str, Any]:
        await run(private.set_paused, _checked(table_id), player.id, body.paused)
        live = cardroom.rooms.get(table_id)
        if live is not None:
            await hold(live, body.paused)
        return {"table": table_id, "paused": body.paused}

    @routes.post("/api/private/tables/{table_id}/remove")
    async def remove(table_id: RowId, body: RemoveBody, player: current) -> dict[str, Any]:
        await run(private.host_view, _checked(table_id), player.id)  # the host's, or a 404
        live = cardroom.rooms.get(table_id)
        try:
            if live is None:
                await run(private.mark_removed, table_id, player.id, body.player, body.reason)
            else:
                await live.submit(
                    functools.partial(_remove, live, store, player.id, body.player, body.reason)
                )
                _stop_watching(live, body.player)
        except RoomError as error:
            raise _refused(error) from None
        return {"table": table_id, "player": body.player, "state": private.REMOVED}

    @routes.get("/api/private/tables/{table_id}/ledger.csv")
    async def ledger(table_id: RowId, player: current) -> Response:
        """The night's ledger as CSV (docs/private_games.md, "The night's ledger")."""
        lines = await run(private.night_ledger, _checked(table_id), player.id)
        return Response(
            ledger_csv(lines),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="table-{table_id}-ledger.csv"'},
        )

    # A private sit-and-go: the same pass, link and answers, at the tournament's page.

    @routes.get("/api/private/tournaments/{tid}/pass")
    async def my_entry_pass(tid: RowId, player: current) -> dict[str, Any]:
        """The player's standing at a private sit-and-go (may they register?)."""
        where = private.Where("tournament", _checked(tid))
        standing: private.Standing = await run(private.standing_at, where, player.id)
        return standing.answer()

    @routes.get("/api/private/tournaments/{tid}")
    async def tournament_host_view(tid: RowId, request: Request) -> dict[str, Any]:
        """A private sit-and-go's host panel (``{"host": false}`` to anybody else)."""
        return await host_or_not(private.Where("tournament", tid), request)

    @routes.post("/api/private/tournaments/{tid}/link")
    async def tournament_renew(tid: RowId, player: current) -> dict[str, Any]:
        token: str = await run(private.renew_link, private.Where("tournament", _checked(tid)), player.id)
        return {"tournament": tid, "token": token, "path": f"/invite/{token}"}

    @routes.post("/api/private/tournaments/{tid}/ask")
    async def tournament_ask(tid: RowId, body: AskBody, player: current) -> dict[str, Any]:
        where = private.Where("tournament", _checked(tid))
        await run(private.set_ask_to_join, where, player.id, body.ask_to_join)
        return {"tournament": tid, "ask_to_join": body.ask_to_join}

    @routes.post("/api/private/tournaments/{tid}/decide")
    async def tournament_decide(tid: RowId, body: DecideBody, player: current) -> dict[str, Any]:
        where = private.Where("tournament", _checked(tid))
        state: str = await run(private.decide, where, player.id, body.player, body.approve)
        return {"tournament": tid, "player": body.player, "state": state}

    return routes


def tournament_guard(sessions: Sessions) -> Callable[[Request], None]:
    """A dependency of the tournament routes (server/tournaments/routes.py): a private
    sit-and-go is, to a player without a pass, what a tournament that does not exist is (the
    same answer, word for word); signed out, the routes that need a login say so first."""
    store = sessions.store

    def guard(request: Request) -> None:
        given = request.path_params.get("tid")
        if given is None or not str(given).isdigit() or not 1 <= int(given) <= MAX_ID:
            return
        tid = int(given)
        found = sessions.maybe(request)
        if private.tournament_admits(store, tid, found.id if found is not None else None):
            return
        path = request.url.path
        if request.method == "GET" and path == f"/api/tournaments/{tid}":
            raise HTTPException(404, Refusal("no_tournament", tournament=tid))
        if found is None:
            return  # the route's own 401 comes first, as for any tournament
        if path.endswith("/summary"):
            raise HTTPException(404, Refusal("no_finished_tournament", tournament=tid))
        if path.startswith(f"/api/tournaments/{tid}/deal/") and path.rsplit("/", 1)[1] not in (
            "propose",
            "accept",
            "decline",
        ):
            return  # the route's own 404 for an answer that is none
        raise HTTPException(409, Refusal("no_tournament", tournament=tid))

    return guard


def _checked(table_id: int) -> int:
    """A table id in a path: out of range is no table (the same 404 as any stranger's)."""
    if not 1 <= table_id <= MAX_ID:
        raise HTTPException(404, private.NoInvitation())
    return table_id
