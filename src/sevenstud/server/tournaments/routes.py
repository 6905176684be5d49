"""The tournament lobby's HTTP API (docs/protocol.md, "Tournaments"): the list with state
filters, one tournament's page, making one from a template, registering and unregistering
(the balance checked), and adding bots to a sit-and-go.

Every answer is public (what the lobby shows: names, chips, places, prizes) and holds no card.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import time
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field

from sevenstud.history.pokerstars.summary import tournament_summary
from sevenstud.refusals import Refusal
from sevenstud.server.accounts.routes import address_of
from sevenstud.server.accounts.sessions import Sessions
from sevenstud.server.plaintext import PlainLine
from sevenstud.server.store import (
    Store,
    leases,
    private,
    tournament_entries,
    tournament_list,
    tournament_tables,
)
from sevenstud.server.store.models import TournamentRow, TournamentTable
from sevenstud.server.tables import private_routes
from sevenstud.server.tables.keeper import RoomError
from sevenstud.server.tournaments.cashier import director_of
from sevenstud.server.tournaments.service import TournamentService
from sevenstud.server.tournaments.views import STATES, describe_director, describe_you
from sevenstud.server.web import RowId
from sevenstud.tournament import (
    HEADS_UP,
    STANDARD,
    TURBO,
    StructureError,
    TournamentError,
    TournamentSettings,
)

TEMPLATES: dict[str, TournamentSettings] = {
    "sng-heads-up": TournamentSettings(kind="sit_and_go", seats=2, max_entries=2, structure=HEADS_UP),
    "sng-6": TournamentSettings(kind="sit_and_go", seats=6, max_entries=6, structure=TURBO),
    "sng-8": TournamentSettings(kind="sit_and_go", seats=8, max_entries=8, structure=TURBO),
    "mtt-standard": TournamentSettings(
        kind="scheduled",
        seats=8,
        max_entries=1000,
        structure=STANDARD,
        start_at=0.0,
        min_field=9,
        late_registration_levels=3,
    ),
    "mtt-turbo": TournamentSettings(
        kind="scheduled",
        seats=8,
        max_entries=1000,
        structure=TURBO,
        start_at=0.0,
        min_field=9,
        late_registration_levels=2,
    ),
}
"""The templates a player may make a tournament from (docs/tournaments.md, "The template")."""

REBUY_SECONDS = 20.0
"""Seconds of the wall a busted player has to rebuy (however fast the tournament's clock)."""

Template = Literal["sng-heads-up", "sng-6", "sng-8", "mtt-standard", "mtt-turbo"]
TITLES = {
    "sng-heads-up": "heads-up sit-and-go",
    "sng-6": "6-player sit-and-go",
    "sng-8": "8-player sit-and-go",
    "mtt-standard": "tournament",
    "mtt-turbo": "turbo tournament",
}
"""What a tournament made from a template is called when its maker names it not (with its
game's name before and its number among its namesakes after: "Stud Hi/Lo 6-player sit-and-go 3")."""
GAME_TITLES = {"stud8": "Stud Hi/Lo", "stud": "Stud", "razz": "Razz"}
GameName = Literal["stud8", "stud", "razz"]


class NewTournament(BaseModel):
    """``POST /api/tournaments``: a tournament from one of :data:`TEMPLATES`."""

    model_config = ConfigDict(extra="forbid", strict=True)
    template: Template
    name: PlainLine = Field(default="", max_length=60)  # plain text on one line (plaintext.py)
    game: GameName = "stud8"
    buy_in: int = Field(default=100, ge=0, le=100_000)
    fee: int = Field(default=10, ge=0, le=10_000)
    starting_chips: int = Field(default=1500, ge=100, le=1_000_000)
    start_in: float = Field(default=600.0, ge=10.0, le=7 * 86400.0)
    """A scheduled tournament's start, in seconds from now."""
    min_field: int | None = Field(default=None, ge=2, le=1000)
    max_entries: int | None = Field(default=None, ge=2, le=10_000)
    bots: int = Field(default=0, ge=0, le=10_000)
    """This many bots registered at once (the bank pays their entries): a sit-and-go, leaving a
    seat for a person; any tournament, to its last seat, where the room allows fields of bots
    (:attr:`~sevenstud.server.tournaments.service.TournamentService.bot_fields`)."""
    bot: Literal["rule", "random", "station", "tight", "equity"] = "rule"
    speed: float = Field(default=1.0, gt=0, le=1000.0)
    """How much faster than the wall its clock runs: only up to the server's ``max_speed``
    (1 unless the server was started for tests or benchmarks)."""
    late_registration_levels: int | None = Field(default=None, ge=0, le=30)
    """Late registration until the end of this level (a scheduled tournament; None: the
    template's)."""
    re_entries: int = Field(default=0, ge=0, le=10)
    rebuy_levels: int = Field(default=0, ge=0, le=30)
    rebuy_limit: int = Field(default=0, ge=0, le=100)
    rebuy_chips: int = Field(default=0, ge=0, le=1_000_000)
    add_on_chips: int = Field(default=0, ge=0, le=1_000_000)
    add_on_price: int = Field(default=0, ge=0, le=100_000)
    private: bool = False
    """A private sit-and-go for a home game (docs/private_games.md): not listed, nobody sees
    or enters it without its invite link; the answer carries the link's token."""
    ask_to_join: bool = False
    """A private sit-and-go's newcomers wait for the host's yes before they may register."""


def router(service: TournamentService, sessions: Sessions) -> APIRouter:
    """The tournament lobby's routes over ``service``, for the player logged in."""
    # A private sit-and-go is no tournament to a stranger (server/tables/private_routes.py).
    routes = APIRouter(dependencies=[Depends(private_routes.tournament_guard(sessions))])
    store = sessions.store
    player = sessions.player
    making = asyncio.Lock()

    def refused(error: Exception) -> HTTPException:
        return HTTPException(409, error if isinstance(error, Refusal) else str(error))

    @routes.get("/api/tournaments")
    def lobby(
        request: Request, state: Annotated[str | None, Query(max_length=80)] = None
    ) -> list[dict[str, Any]]:
        """Every tournament (newest first), or those in the states named (comma-separated);
        for a signed-in player, whether they are registered in each."""
        wanted = STATES if not state else tuple(w.strip() for w in state.split(","))
        unknown = [w for w in wanted if w not in STATES]
        if unknown:
            raise HTTPException(
                422, Refusal("unknown_state", state=repr(unknown[0]), states=", ".join(STATES))
            )
        with store.session() as s:
            counts = tournament_list.registered_counts(s)
            servers = leases.tournament_directors(s)
            found = sessions.maybe(request)
            hidden = private.hidden_tournaments(store, found.id if found is not None else None)
            yours = tournament_entries.registered_in(s, found.id) if found is not None else set()
            rows = tournament_list.newest(s, wanted, 200)
            return [
                {
                    "id": row.id,
                    "name": row.name,
                    "kind": row.kind,
                    "state": row.state,
                    "game": row.settings.get("game"),
                    "buy_in": row.settings.get("buy_in"),
                    "fee": row.settings.get("fee"),
                    "seats": row.settings.get("seats"),
                    "max_entries": row.settings.get("max_entries"),
                    "registered": int(counts.get(row.id, 0)),
                    "you_registered": row.id in yours,
                    "start_at": row.start_at,
                    "server": servers.get(row.id),
                }
                for row in rows
                if row.id not in hidden
            ]

    def page(tid: RowId, request: Request) -> dict[str, Any]:
        running = service.running.get(tid)
        with store.session() as s:
            row = s.get(TournamentRow, tid)
            if row is None or row.director is None:
                raise HTTPException(404, Refusal("no_tournament", tournament=tid))
            found = sessions.maybe(request)
            asks: dict[str, bool] = {}
            # Its tables as stored, so that the page names every one from any process: one
            # another process opened is known here only from its next stored director on (a
            # table's number is never used twice in a tournament).
            tables = tournament_tables.tables_of(s, tid)
            if running is not None:
                with running.lock:
                    tables.update(running.tables)
                    shown = describe_director(running.director, running.now(), tables)
                    if found is not None:
                        asks = describe_you(running.director, found.name)
            else:
                # Directed and served elsewhere (another process on the database).
                d = director_of(s, tid, row.director, float(row.director["saved_at"]))
                shown = describe_director(d, float(row.director["saved_at"]), tables)
                if found is not None:
                    asks = describe_you(d, found.name)
            you = None
            if found is not None:
                mine = next((e for e in shown["entrants"] if e["name"] == found.name), None)
                if mine is not None:
                    ranked = sorted(shown["entrants"], key=lambda e: (e["place"] or 0, -e["chips"]))
                    alive = [e for e in ranked if e["place"] is None]
                    rank = alive.index(mine) + 1 if mine in alive else mine["place"]
                    you = {**mine, "rank": rank, **asks}
            return {"id": row.id, "name": row.name, "start_at": row.start_at, **shown, "you": you}

    @routes.get("/api/tournaments/table/{table_id}")
    def of_table(table_id: RowId, request: Request) -> dict[str, Any]:
        """The tournament a card-room table belongs to (the table page asks, for every table):
        ``{"tournament": null, "number": null}`` for a cash table, a 200 like any answer (a 404
        here was an error in every cash table's console)."""
        with store.session() as s:
            found = s.get(TournamentTable, table_id)
            who = sessions.maybe(request)
            if found is None or not private.tournament_admits(
                store, found.tournament_id, who.id if who is not None else None
            ):
                return {"tournament": None, "number": None}
            return {"tournament": found.tournament_id, "number": found.number}

    @routes.get("/api/tournaments/{tid}/summary")
    def summary(tid: RowId, request: Request) -> PlainTextResponse:
        """The tournament's summary as PokerStars writes it (once it is over), for the
        logged-in player (its last line their own place)."""
        who = player(request)
        with store.session() as s:
            row = s.get(TournamentRow, tid)
            if row is None or row.state != "finished":
                raise HTTPException(404, Refusal("no_finished_tournament", tournament=tid))
            entries = tournament_entries.registered_entries(s, tid)
            places = [(e.name, e.place or 0, e.prize) for e in entries]

            def when(at: float | None) -> str:
                moment = datetime.datetime.fromtimestamp(at or row.created_at, datetime.UTC)
                return moment.strftime("%Y/%m/%d %H:%M:%S UTC")

            text = tournament_summary(
                tid,
                row.settings["game"],
                int(row.settings["buy_in"]),
                int(row.settings["fee"]),
                places,
                started=when(row.started_at),
                finished=when(row.ended_at),
                you=who.name,
                pool=sum(p for _, _, p in places),
            )
        return PlainTextResponse(
            text, headers={"Content-Disposition": f'attachment; filename="tournament-{tid}.txt"'}
        )

    @routes.get("/api/tournaments/{tid}", response_class=JSONResponse)
    def details(tid: RowId, request: Request) -> JSONResponse:
        """One tournament's page: structure, entrants, pool and payouts, tables, the clock."""
        # Plain JSON already, so written as it is: FastAPI's generic encoder took 35 ms over a
        # 1,000-entrant page (json 3 ms), and every player at its tables reads it each second
        # or two, in a thread that holds the interpreter from the tables' loop meanwhile.
        return JSONResponse(page(tid, request))

    @routes.post("/api/tournaments")
    async def make(body: NewTournament, request: Request) -> dict[str, Any]:
        """A player's tournament: a private sit-and-go for a home game (``private``,
        docs/private_games.md), within the limits on tournaments per account and per address
        (429 and ``Retry-After`` past them); public tournaments are the house's (``POST
        /api/admin/tournaments``, server/operators/tournaments.py): refused 403."""
        maker = player(request)
        if not body.private:
            raise HTTPException(403, Refusal("public_tournaments_house"))
        if TEMPLATES[body.template].kind != "sit_and_go":
            raise HTTPException(422, Refusal("private_sit_and_go", template=body.template))
        invite, also = private.private_tournament(maker.id, body.ask_to_join)
        async with making:  # an account's count of open tournaments is read and raised in turn
            await store.run(service.may_make, maker.id, address_of(request))
            made = await create_tournament(service, store, body, also=also, owner=maker.id)
        return {**made, "invite": invite}

    async def as_entrant(
        tid: int, request: Request, act: Callable[[int, int, str], dict[str, Any]], limited: bool = False
    ) -> dict[str, Any]:
        """The logged-in player enters, rebuys or adds on through ``act`` (a service method
        taking the tournament, the player's account and name); a refusal is a 409. A
        registration (``limited``) counts against the account's allowance and is written off
        the event loop: the room's tables do not wait for it."""
        who = player(request)
        try:
            if limited:
                service.may_enter(who.id)
                return await asyncio.to_thread(act, tid, who.id, who.name)
            return await store.run(act, tid, who.id, who.name)
        except (TournamentError, RoomError) as error:
            raise refused(error) from None

    @routes.post("/api/tournaments/{tid}/register")
    async def register(tid: RowId, request: Request) -> dict[str, Any]:
        """Register the logged-in player: the buy-in and fee from their balance."""
        return await as_entrant(tid, request, service.register, limited=True)

    @routes.post("/api/tournaments/{tid}/reenter")
    async def reenter(tid: RowId, request: Request) -> dict[str, Any]:
        """Enter again after busting (a re-entry): the buy-in and fee from the balance."""
        return await as_entrant(tid, request, service.reenter, limited=True)

    @routes.post("/api/tournaments/{tid}/rebuy")
    async def rebuy(tid: RowId, request: Request) -> dict[str, Any]:
        """A rebuy: the buy-in from the balance into the prize pool, the rebuy's chips."""
        return await as_entrant(tid, request, service.rebuy)

    @routes.post("/api/tournaments/{tid}/addon")
    async def add_on(tid: RowId, request: Request) -> dict[str, Any]:
        """The add-on: its price from the balance into the prize pool, its chips."""
        return await as_entrant(tid, request, service.add_on)

    @routes.post("/api/tournaments/{tid}/deal/{answer}")
    async def deal(tid: RowId, answer: str, request: Request) -> dict[str, Any]:
        """The ICM deal at the final table: ``propose``, ``accept`` or ``decline``."""
        who = player(request)
        if answer not in ("propose", "accept", "decline"):
            raise HTTPException(404, Refusal("no_deal_answer", answer=repr(answer)))
        try:
            return await store.run(service.deal, tid, who.name, answer)
        except (TournamentError, RoomError) as error:
            raise refused(error) from None

    @routes.post("/api/tournaments/{tid}/unregister")
    async def unregister(tid: RowId, request: Request) -> dict[str, Any]:
        """Unregister before the start: the buy-in and fee back to the balance (counted
        against the account's allowance of registrations, and written off the event loop)."""
        who = player(request)
        service.may_enter(who.id)
        try:
            return await asyncio.to_thread(service.unregister, tid, who.name)
        except (TournamentError, RoomError) as error:
            raise refused(error) from None

    return routes


async def create_tournament(
    service: TournamentService,
    store: Store,
    body: NewTournament,
    also: Callable[[Any, int], None] | None = None,
    owner: int | None = None,
) -> dict[str, Any]:
    """Make a tournament of ``body`` (the house's: an operator's, a schedule's; a player's
    private one), its bots registered (the bank pays them); ``also``: stored with it in its
    transaction (``TournamentService.create``'s); ``owner``: the player who made it (counted in
    the limits on open tournaments). ``{"id", "name"}``, or an HTTPException
    saying what was wrong with ``body``."""
    if body.speed > service.max_speed:
        raise HTTPException(422, Refusal("clock_too_fast", speed=service.max_speed))
    template = TEMPLATES[body.template]
    values: dict[str, Any] = {
        "game": body.game,
        "buy_in": body.buy_in,
        "fee": body.fee,
        "starting_chips": body.starting_chips,
        "re_entries": body.re_entries,
        "rebuy_levels": body.rebuy_levels,
        "rebuy_limit": body.rebuy_limit,
        "rebuy_chips": body.rebuy_chips,
        "add_on_chips": body.add_on_chips,
        "add_on_price": body.add_on_price,
        # A busted person's time to rebuy is the wall's, however fast the levels run.
        "rebuy_seconds": REBUY_SECONDS * body.speed,
    }
    if body.late_registration_levels is not None:
        if template.kind != "scheduled":
            raise HTTPException(422, Refusal("late_registration_scheduled"))
        values["late_registration_levels"] = body.late_registration_levels
    if body.re_entries and template.kind != "scheduled":
        raise HTTPException(422, Refusal("re_entry_needs_late_registration"))
    if template.kind == "scheduled":
        values["start_at"] = time.time() + body.start_in
        if body.min_field is not None:
            values["min_field"] = body.min_field
        if body.max_entries is not None:
            values["max_entries"] = body.max_entries
    try:
        settings = dataclasses.replace(template, **values)
    except StructureError as error:
        raise HTTPException(422, error) from None
    leaves_a_seat = settings.kind == "sit_and_go" and body.bots < settings.max_entries
    if body.bots > settings.max_entries or (body.bots and not service.bot_fields and not leaves_a_seat):
        raise HTTPException(422, Refusal("bots_fill_sit_and_go"))
    name = body.name.strip() or await store.run(_default_name, store, body.template, body.game)
    tid = service.create(name, settings, speed=body.speed, owner=owner, also=also)
    for n in range(body.bots):
        await store.run(service.register, tid, None, f"bot{tid}-{n + 1}", body.bot)
        await asyncio.sleep(0)  # (on SQLite the writes run on the loop: let it breathe)
    return {"id": tid, "name": name}


def _default_name(store: Store, template: str, game: str) -> str:
    """A new tournament's name when its maker gave none: a player's words, numbered among its
    namesakes so that two are never alike (``sng-heads-up stud8`` twice said nothing)."""
    base = f"{GAME_TITLES[game]} {TITLES[template]}"
    with store.session() as s:
        taken = tournament_list.namesakes(s, base)
    return f"{base} {taken + 1}"
