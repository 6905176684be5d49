"""The operators' tournaments (docs/operators.md, "Tournaments"): templates, the schedule, the
house's tournaments made at once, and a running one paused, resumed, cancelled (every entry
refunded) or told something; and the lobby's one click to the house's sit-and-go.

Routes under ``/api/admin/`` (scopes ``tournaments:read`` and ``tournaments:write``); every
change is written in the event log by the operator's name or the token's. The schedule's logic
is :mod:`.schedule`'s; the director's side of a pause and a cancel is the tournament service's
(:meth:`~sevenstud.server.tournaments.service.TournamentService.hold` and ``cancel``).
"""

# No `from __future__ import annotations`: FastAPI reads the routes' annotations as objects.

import asyncio
import contextlib
import functools
import time
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from sevenstud.refusals import Refusal, Words
from sevenstud.server.cardroom import CardRoom
from sevenstud.server.connection import Encoded, encode
from sevenstud.server.operators import log, schedule
from sevenstud.server.operators.access import Access, Acting
from sevenstud.server.plaintext import PlainLine
from sevenstud.server.protocol import Outgoing, TournamentAnnouncement, TournamentPaused
from sevenstud.server.store import Connection, ledger, tournament_list
from sevenstud.server.tables.keeper import RoomError
from sevenstud.server.tables.room import Room
from sevenstud.server.tournaments.routes import NewTournament, create_tournament
from sevenstud.server.tournaments.service import TournamentService
from sevenstud.server.tournaments.sharing import Shared, SharedCashier
from sevenstud.server.web import RowId
from sevenstud.tournament import TournamentError

T = TypeVar("T")

ANSWER_WAIT_SECONDS = 5.0
"""How long a cancel's answer waits for the hands in progress at the tournament's tables to be
played out (it has paused the tournament: no new hand starts) before it says ``cancelling``."""
CLOSE_WAIT_SECONDS = 10.0
"""How long a cancel waits for the tables to stand everybody up and close before it answers."""


class Template(BaseModel):
    """A template: its name and the body its tournaments are made from."""

    model_config = ConfigDict(strict=True, extra="forbid")
    name: PlainLine = Field(min_length=1, max_length=60)
    settings: NewTournament


class ScheduleBody(BaseModel):
    """A schedule: its template and when (``daily`` at ``at_time`` in ``zone``, ``every``
    ``every_hours``, or ``always`` one registering)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    template: int = Field(ge=1)
    kind: Literal["daily", "every", "always"]
    at_time: str | None = Field(default=None, max_length=5)
    zone: str | None = Field(default=None, max_length=60)
    every_hours: float | None = Field(default=None)
    enabled: bool = True


class Why(BaseModel):
    """Why (a pause, a resume, a cancel)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    reason: str = Field(default="", max_length=500)


class Announcement(BaseModel):
    """A line to a tournament's tables."""

    model_config = ConfigDict(strict=True, extra="forbid")
    text: PlainLine = Field(min_length=1, max_length=300)


def refund_everything(cashier: SharedCashier, c: Connection, running: Shared) -> None:
    """Every entry of a cancelled tournament refunded (docs/tournaments.md, "Rulings"): each
    entrant gets back what they paid, entries and re-entries (buy-in and fee), rebuys and the
    add-on, to their balance (a bot's to the bank), and every chip issued goes back to its chip
    bank; refused once a prize has been paid. In the cancel's transaction."""
    tid, d = running.id, running.director
    st = d.settings
    paid = tournament_list.prizes_paid(c, tid)
    if paid or any(e.prize for e in d.entrants.values()):
        raise TournamentError("tournament_in_the_money", tournament=tid)
    pool, fees = ledger.account(c, ledger.TPOOL, tid), ledger.account(c, ledger.TFEE, tid)
    moves: list[ledger.Move] = []
    for entrant in d.entrants.values():
        back = (entrant.entries + entrant.rebuys) * st.buy_in
        if entrant.add_on:
            back += st.add_on_price or st.buy_in
        fee = entrant.entries * st.fee
        if not back + fee:
            continue
        target = cashier.pay(c, running.people.get(entrant.name), back + fee, tid)
        if back:
            moves.append(ledger.Move(pool, target, back, "refund"))
        if fee:
            moves.append(ledger.Move(fees, target, fee, "refund fee"))
    if d.chips_issued:
        # The chips at the seats come back to the box as the tables stand everybody up.
        bank, box = ledger.account(c, ledger.TCHIPS, tid), ledger.account(c, ledger.TBOX, tid)
        moves.append(ledger.Move(box, bank, d.chips_issued, "unissue"))
    ledger.write_moves(c, moves)


async def tell_tables(running: Shared, message: Outgoing) -> None:
    """``message`` to every connection at ``running``'s tables served here, encoded once."""
    encoded = Encoded(encode(message))

    def put(room: Room, _now: float) -> None:
        for watcher in room.watchers.values():
            watcher.pending.append(encoded)

    for room in list(running.rooms.values()):
        with contextlib.suppress(RoomError):
            await room.submit(functools.partial(put, room))


async def hands_playing(running: Shared) -> int:
    """How many of ``running``'s tables served here are in a hand (asked on each table's actor:
    a hand its gate let start a moment ago is counted)."""
    busy = 0
    for room in list(running.rooms.values()):
        with contextlib.suppress(RoomError):
            busy += bool(await room.submit(functools.partial(_in_a_hand, room)))
    return busy


def _in_a_hand(room: Room, _now: float) -> bool:
    return bool(room.keeper.table.hand_in_progress)


def router(room: CardRoom, keeper: schedule.Keeper) -> APIRouter:
    """The operators' tournament routes over the card room ``room`` (its schedule's ``keeper``),
    and the lobby's ``POST /api/tournaments/quick``."""
    routes = APIRouter()
    store = room.store
    service: TournamentService = room.tournaments
    access = Access(room)
    reading = Annotated[Acting, Depends(access.needs("tournaments:read"))]
    writing = Annotated[Acting, Depends(access.needs("tournaments:write"))]

    async def run(call: Callable[..., T], *args: Any) -> T:
        try:
            return await store.run(call, *args)
        except schedule.ScheduleError as error:
            raise HTTPException(error.status, error.refusal) from None

    # -------------------------------------------------------------- templates

    @routes.get("/api/admin/templates")
    async def list_templates(who: reading) -> list[dict[str, Any]]:
        """Every tournament template."""
        return await run(schedule.templates, store)

    @routes.post("/api/admin/templates")
    async def make_template(body: Template, who: writing) -> dict[str, Any]:
        """A new template (in the event log)."""
        return await run(schedule.save_template, store, who.name, body.name, body.settings)

    @routes.put("/api/admin/templates/{template_id}")
    async def change_template(template_id: RowId, body: Template, who: writing) -> dict[str, Any]:
        """A template changed (its schedules' next tournaments are made of it as it is now)."""
        answer = await run(schedule.save_template, store, who.name, body.name, body.settings, template_id)
        keeper.wake.set()
        return answer

    @routes.delete("/api/admin/templates/{template_id}")
    async def remove_template(template_id: RowId, who: writing) -> dict[str, Any]:
        """A template no schedule uses removed."""
        return await run(schedule.remove_template, store, who.name, template_id)

    # -------------------------------------------------------------- schedules

    @routes.get("/api/admin/schedules")
    async def list_schedules(who: reading) -> list[dict[str, Any]]:
        """Every schedule, with its next time and the tournament it made last."""
        return await run(schedule.schedules, store)

    @routes.post("/api/admin/schedules")
    async def make_schedule(body: ScheduleBody, who: writing) -> dict[str, Any]:
        """A new schedule (in the event log); the keeper makes what is due at once."""
        answer = await run(schedule.save_schedule, store, who.name, body.model_dump())
        keeper.wake.set()
        return answer

    @routes.put("/api/admin/schedules/{schedule_id}")
    async def change_schedule(schedule_id: RowId, body: ScheduleBody, who: writing) -> dict[str, Any]:
        """A schedule changed (its next time counted again from now)."""
        answer = await run(schedule.save_schedule, store, who.name, body.model_dump(), schedule_id)
        keeper.wake.set()
        return answer

    @routes.delete("/api/admin/schedules/{schedule_id}")
    async def remove_schedule(schedule_id: RowId, who: writing) -> dict[str, Any]:
        """A schedule removed (the tournaments it made play on)."""
        return await run(schedule.remove_schedule, store, who.name, schedule_id)

    # -------------------------------------------------------------- tournaments

    @routes.get("/api/admin/tournaments")
    async def list_tournaments(
        who: reading, state: Annotated[str | None, Query(max_length=80)] = None
    ) -> list[dict[str, Any]]:
        """The newest 200 tournaments (or those in the states named, comma-separated), each
        with whether it is paused and the schedule that made it."""
        wanted = [w.strip() for w in state.split(",")] if state else None
        return await store.run(_tournaments, store, wanted)

    @routes.post("/api/admin/tournaments")
    async def make_tournament(body: NewTournament, who: writing) -> dict[str, Any]:
        """A public tournament of the house's, made at once (in the event log)."""
        if body.private:
            raise HTTPException(422, Refusal("house_tournaments_public"))
        made = await create_tournament(service, store, body)
        await store.run(_logged, store, who.name, "tournament_made", made["id"], "", made)
        return made

    def directed(tid: int) -> Shared:
        try:
            return service._running(tid)
        except TournamentError as error:
            raise HTTPException(409, error) from None

    async def hold(tid: int, paused: bool, why: Why, who: Acting) -> dict[str, Any]:
        running = directed(tid)
        try:
            answer = await store.run(service.hold, tid, paused)
        except TournamentError as error:
            raise HTTPException(409, error) from None
        await store.run(
            _logged,
            store,
            who.name,
            "tournament_paused" if paused else "tournament_resumed",
            tid,
            why.reason,
            {},
        )
        await tell_tables(running, TournamentPaused(tournament=tid, paused=paused))
        return dict(answer)

    @routes.post("/api/admin/tournaments/{tid}/pause")
    async def pause(tid: RowId, body: Why, who: writing) -> dict[str, Any]:
        """Pause a running tournament: its level clock held, no new hand dealt (a hand in
        progress is played out); its tables told."""
        return await hold(tid, True, body, who)

    @routes.post("/api/admin/tournaments/{tid}/resume")
    async def resume(tid: RowId, body: Why, who: writing) -> dict[str, Any]:
        """Resume a paused tournament: its clock runs on from where it stood."""
        return await hold(tid, False, body, who)

    @routes.post("/api/admin/tournaments/{tid}/cancel")
    async def cancel(tid: RowId, body: Why, who: writing) -> dict[str, Any]:
        """Cancel a tournament, every entry refunded (in the event log): paused at once, then,
        once the hands in progress at its tables are played out, cancelled; everybody stands
        up and its tables close. ``state``: ``cancelled``, or ``cancelling`` while hands are
        still played."""
        running = directed(tid)
        with running.lock:
            state, paused = running.director.state, running.director.paused
        if state in ("finished", "cancelled"):
            raise HTTPException(409, Refusal("tournament_over", tournament=tid, state=Words(state)))
        if await store.run(_prizes_paid, store, tid):
            raise HTTPException(409, Refusal("tournament_in_the_money", tournament=tid))
        if state in ("running", "break") and not paused:
            with contextlib.suppress(TournamentError):
                await store.run(service.hold, tid, True)
                await tell_tables(running, TournamentPaused(tournament=tid, paused=True))
        await store.run(_logged, store, who.name, "tournament_cancelled", tid, body.reason, {})
        finishing = asyncio.get_running_loop().create_task(_cancel_when_dealt_out(running))
        cancelling.add(finishing)
        finishing.add_done_callback(cancelling.discard)
        # Answered once cancelled and the tables have stood everybody up (the box empty, the
        # audit clean), or, with hands still played, at once: it goes on by itself.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(finishing), ANSWER_WAIT_SECONDS)
        return {"tournament": tid, "state": "cancelled" if finishing.done() else "cancelling"}

    cancelling: set[asyncio.Task[None]] = set()

    async def _cancel_when_dealt_out(running: Shared) -> None:
        tid = running.id
        while await hands_playing(running):
            await asyncio.sleep(0.1)
        try:
            await store.run(service.cancel, tid, functools.partial(refund_everything, service.cashier))
        except TournamentError as error:
            # (A prize paid by a hand that ended meanwhile: it stays paused.)
            await store.run(_logged, store, "house", "tournament_cancel_refused", tid, str(error), {})
            return
        until = time.monotonic() + CLOSE_WAIT_SECONDS
        while tid in service.running and time.monotonic() < until:
            await asyncio.sleep(0.05)

    @routes.post("/api/admin/tournaments/{tid}/announce")
    async def announce(tid: RowId, body: Announcement, who: writing) -> dict[str, Any]:
        """A line to every table of a tournament (shown in each table's log)."""
        running = directed(tid)
        text = body.text.strip()
        await store.run(_logged, store, who.name, "tournament_announced", tid, "", {"text": text})
        await tell_tables(running, TournamentAnnouncement(tournament=tid, text=text))
        return {"tournament": tid, "tables": len(running.rooms)}

    # -------------------------------------------------------------- the lobby's one click

    @routes.post("/api/tournaments/quick")
    async def quick(request: Request) -> dict[str, Any]:
        """The logged-in player entered in the house's sit-and-go always registering (the
        lobby's one click): the one open now, or the next one opened for them."""
        player = room.sessions.player(request)
        schedule_id = await store.run(schedule.quick_schedule, store)
        if schedule_id is None:
            raise HTTPException(409, Refusal("no_quick_sit_and_go"))
        last: Exception | None = None
        for _ in range(3):  # filled and started by somebody else in between: the next one
            tid = await store.run(schedule.current_of, store, schedule_id)
            if tid is None:
                tid = await keeper.make_next(schedule_id)
            if tid is None:
                continue
            held = service.running.get(tid)
            if held is not None and player.name in held.director.entrants:
                return {"id": tid}  # clicked twice: already in it
            try:
                await store.run(service.register, tid, player.id, player.name)
            except (TournamentError, RoomError) as error:
                last = error
                if await store.run(schedule.current_of, store, schedule_id) == tid:
                    break  # still open: refused for the player's own reason (their balance, say)
                continue
            return {"id": tid}
        raise HTTPException(409, last if last is not None else Refusal("no_quick_sit_and_go"))

    return routes


def _logged(store: Any, operator: str, action: str, tid: int, reason: str, detail: dict[str, Any]) -> None:
    with store.transaction() as s:
        log.write(s, operator, action, f"tournament {tid}", reason, **detail)


def _prizes_paid(store: Any, tid: int) -> bool:
    with store.session() as s:
        return bool(tournament_list.prizes_paid(s, tid))


def _tournaments(store: Any, wanted: list[str] | None) -> list[dict[str, Any]]:
    with store.session() as s:
        rows = tournament_list.newest(s, wanted, 200)
        counts = tournament_list.registered_counts(s)
        made_by = tournament_list.made_by_schedule(s)
        return [
            {
                "id": row.id,
                "name": row.name,
                "kind": row.kind,
                "state": row.state,
                "paused": bool((row.director or {}).get("paused")),
                "game": row.settings.get("game"),
                "buy_in": row.settings.get("buy_in"),
                "fee": row.settings.get("fee"),
                "registered": int(counts.get(row.id, 0)),
                "start_at": row.start_at,
                "created_at": row.created_at,
                "schedule": made_by.get(row.id),
            }
            for row in rows
        ]
