"""The house's standing tables (docs/operators.md, "The house's tables"): cash tables an
operator defines (game, stakes, seats, buy-in limits, bots and their kind, rake) that the room
keeps open, and their routes under ``/api/admin/tables`` and ``/api/admin/settings``.

A definition is a row of ``house_tables`` (migration 0014); the table dealing it is an ordinary
cash table (``tables``), served by whichever process holds its lease like any other, so it is
taken up again after a restart by the leases' first round. :class:`House` runs in every process,
a round every second or so, over the definitions and the tables this process serves:

- a definition whose table has closed (or that has none yet) gets a new one, the definition
  pointing at it (one process wins: the pointer is moved only from the table it saw);
- the table keeps the definition's number of bots, of its kind, between hands (an edit of the
  bots takes effect at the next hand);
- an edit of anything else (name, game, stakes, seats, buy-in limits, rake) takes effect at the
  next table: the table open now is closed once no person sits at it, and a new one opened;
- a definition an operator closed (``closing``) deals no further hand; once its hand in progress
  is over the table closes: every seat's chips back to its balance (the bots' to the bank), its
  pages told ``table_closed`` with ``house_closed`` (then closed 4004).

Every operator action is a line of the event log in the action's own transaction.
"""

# No `from __future__ import annotations`: FastAPI reads the routes' annotations as objects.

import asyncio
import contextlib
import dataclasses
import functools
import time
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException
from pydantic import BaseModel, ConfigDict, Field

from sevenstud.bots.registry import BotKindName
from sevenstud.games import GameCode, Stakes, StudHiLo, game_class
from sevenstud.refusals import Refusal
from sevenstud.server.cardroom import CardRoom
from sevenstud.server.lobby import Chips, buy_in_limits
from sevenstud.server.operators import log, settings
from sevenstud.server.operators.access import Access, Acting
from sevenstud.server.plaintext import PlainLine
from sevenstud.server.protocol import MAX_ID
from sevenstud.server.store import Store, house
from sevenstud.server.store.models import HouseTable, TableRow
from sevenstud.server.tables.keeper import KEPT_ENTRIES, create_table
from sevenstud.server.tables.room import Room, RoomError
from sevenstud.server.web import RowId
from sevenstud.table import TableError, TableSettings

OPEN, CLOSING, CLOSED = "open", "closing", "closed"
"""A definition's states: kept open; closing after the hand in progress; closed."""
ROUND_SECONDS = 1.0
"""How often :class:`House` looks at the definitions and the tables it serves."""

Rake = Annotated[float, Field(ge=0, lt=100)]
"""A rake in percent of each pot (0: none), at most two decimals."""


class HouseTableBody(BaseModel):
    """A standing table's definition, as an operator gives it (``POST /api/admin/tables``)."""

    model_config = ConfigDict(strict=True, extra="forbid")  # a misspelt field is named, not ignored

    name: PlainLine = Field(min_length=1, max_length=80)
    game: GameCode = StudHiLo.code
    stakes: tuple[Chips, Chips, Chips, Chips] = Field(default=(1, 2, 5, 10), strict=False)
    seats: int = Field(default=6, ge=2, le=8)
    bots: int = Field(default=0, ge=0, le=7)
    bot: BotKindName = "rule"
    min_buy_in: int | None = Field(default=None, ge=1, le=MAX_ID)
    max_buy_in: int | None = Field(default=None, ge=1, le=MAX_ID)
    rake_percent: Rake = 0
    rake_cap: int = Field(default=0, ge=0, le=MAX_ID)
    """The most rake one hand pays (0: no cap)."""


class HouseTableEdit(BaseModel):
    """An edit of a standing table: the fields given change, the others stay."""

    model_config = ConfigDict(strict=True, extra="forbid")

    name: PlainLine | None = Field(default=None, min_length=1, max_length=80)
    game: GameCode | None = None
    stakes: tuple[Chips, Chips, Chips, Chips] | None = Field(default=None, strict=False)
    seats: int | None = Field(default=None, ge=2, le=8)
    bots: int | None = Field(default=None, ge=0, le=7)
    bot: BotKindName | None = None
    min_buy_in: int | None = Field(default=None, ge=1, le=MAX_ID)
    max_buy_in: int | None = Field(default=None, ge=1, le=MAX_ID)
    rake_percent: Rake | None = None
    rake_cap: int | None = Field(default=None, ge=0, le=MAX_ID)


class CloseBody(BaseModel):
    """Why a standing table is closed (written in the event log)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    reason: str = Field(default="", max_length=500)


class SettingsBody(BaseModel):
    """The room's settings to change (:data:`sevenstud.server.operators.settings.DEFAULTS`)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    players_open_tables: bool | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Standing:
    """One definition as a round reads it: its id, state, table (and whether that has closed),
    its bots and kind, and the table settings and name it asks for."""

    id: int
    state: str
    table_id: int | None
    table_closed: bool
    bots: int
    bot_kind: str
    name: str
    settings: TableSettings


def _rake(value: float) -> str:
    """A rake in percent as stored: its decimal text, two decimals at most."""
    try:
        text = Decimal(str(value)).normalize()
    except InvalidOperation:
        raise HTTPException(400, Refusal("house_rake", given=repr(value))) from None
    exponent = text.as_tuple().exponent
    if not 0 <= value < 100 or (isinstance(exponent, int) and exponent < -2):
        raise HTTPException(400, Refusal("house_rake", given=repr(value)))
    return format(text, "f")


def table_settings(row: HouseTable) -> TableSettings:
    """The table settings a definition asks for; a :class:`ValueError` naming what is wrong."""
    game = game_class(row.game)(
        Stakes(*row.stakes), rake_percent=Fraction(row.rake_percent), rake_cap=row.rake_cap
    )
    low, high = buy_in_limits(game.stakes, row.min_buy_in, row.max_buy_in)
    return TableSettings(game, seats=row.seats, min_buy_in=low, max_buy_in=high, history=KEPT_ENTRIES)


def _limits(stakes: list[int], low: int | None, high: int | None) -> tuple[int, int]:
    """The buy-in limits asked for, the lobby's defaults for those not given (400 naming the
    bound broken)."""
    try:
        return buy_in_limits(Stakes(*stakes), low, high)
    except ValueError as error:
        raise HTTPException(400, error if isinstance(error, Refusal) else str(error)) from None


def _checked(row: HouseTable) -> None:
    """Refuse (400, naming what is wrong) a definition that makes no table."""
    try:
        table_settings(row)
    except (ValueError, TableError) as error:
        raise HTTPException(400, error if isinstance(error, Refusal) else str(error)) from None
    if row.bots >= row.seats:
        raise HTTPException(400, Refusal("bots_fill_table", bots=row.bots, seats=row.seats))


def _described(row: HouseTable) -> dict[str, Any]:
    return {
        "id": row.id,
        "name": row.name,
        "game": row.game,
        "stakes": list(row.stakes),
        "seats": row.seats,
        "min_buy_in": row.min_buy_in,
        "max_buy_in": row.max_buy_in,
        "bots": row.bots,
        "bot": row.bot_kind,
        "rake_percent": float(Decimal(row.rake_percent)),
        "rake_cap": row.rake_cap,
        "state": row.state,
        "table": row.table_id,
        "made_by": row.made_by,
        "created_at": row.created_at,
        "changed_at": row.changed_at,
    }


def _target(house_id: int) -> str:
    """How the event log names a standing table."""
    return f"house table {house_id}"


def define(store: Store, operator: str, body: HouseTableBody) -> dict[str, Any]:
    """A new standing table (the room opens its table within a round)."""
    now = time.time()
    low, high = _limits(list(body.stakes), body.min_buy_in, body.max_buy_in)
    row = HouseTable(
        name=body.name,
        game=body.game,
        stakes=list(body.stakes),
        seats=body.seats,
        min_buy_in=low,
        max_buy_in=high,
        bots=body.bots,
        bot_kind=body.bot,
        rake_percent=_rake(body.rake_percent),
        rake_cap=body.rake_cap,
        state=OPEN,
        table_id=None,
        made_by=operator,
        created_at=now,
        changed_at=now,
    )
    _checked(row)
    with store.transaction() as s:
        s.add(row)
        s.flush()
        shown = _described(row)
        log.write(s, operator, "house_table_open", _target(row.id), "", **_logged(shown))
    return shown


def _logged(shown: dict[str, Any]) -> dict[str, Any]:
    keep = (
        "name",
        "game",
        "stakes",
        "seats",
        "min_buy_in",
        "max_buy_in",
        "bots",
        "bot",
        "rake_percent",
        "rake_cap",
    )
    return {name: shown[name] for name in keep}


def edit(store: Store, operator: str, house_id: int, body: HouseTableEdit) -> dict[str, Any]:
    """Change a standing table's definition (see the module for when each change takes effect)."""
    given = body.model_dump(exclude_none=True)
    with store.transaction() as s:
        row = s.get(HouseTable, house_id)
        if row is None:
            raise HTTPException(404, Refusal("no_house_table", table=house_id))
        if row.state != OPEN:
            raise HTTPException(400, Refusal("house_table_closed", table=house_id))
        before = _logged(_described(row))
        columns = {"bot": "bot_kind"}
        for name, value in given.items():
            if name == "rake_percent":
                value = _rake(value)
            elif name == "stakes":
                value = list(value)
            setattr(row, columns.get(name, name), value)
        if "stakes" in given or "game" in given:  # the buy-in limits follow the stakes unless given
            low, high = given.get("min_buy_in"), given.get("max_buy_in")
        else:
            low, high = row.min_buy_in, row.max_buy_in
        row.min_buy_in, row.max_buy_in = _limits(row.stakes, low, high)
        _checked(row)
        after = _logged(_described(row))
        changed = {name: [before[name], after[name]] for name in after if before[name] != after[name]}
        if changed:
            row.changed_at = time.time()
            log.write(s, operator, "house_table_edit", _target(house_id), "", changed=changed)
        return _described(row)


def close(store: Store, operator: str, house_id: int, reason: str) -> dict[str, Any]:
    """Close a standing table: no further hand is dealt at it, and once its hand in progress is
    over it closes (its chips back to their balances) and is not opened again."""
    reason = reason.strip()
    if reason and not reason.isprintable():
        raise HTTPException(400, Refusal("operator_reason_form"))
    with store.transaction() as s:
        row = s.get(HouseTable, house_id)
        if row is None:
            raise HTTPException(404, Refusal("no_house_table", table=house_id))
        if row.state != OPEN:
            raise HTTPException(400, Refusal("house_table_closed", table=house_id))
        row.state = CLOSING if row.table_id is not None else CLOSED
        row.changed_at = time.time()
        log.write(s, operator, "house_table_close", _target(house_id), reason, table=row.table_id)
        return _described(row)


def listed(store: Store, room: CardRoom) -> list[dict[str, Any]]:
    """Every standing table, open ones first: its definition, who sits at its table (names,
    stacks, bots marked; never a card), the hands dealt there, whether an edit waits for the
    next table, and the address of the process serving it."""
    with store.session() as s:
        rows = house.definitions(s, OPEN)
        tables = [row.table_id for row in rows if row.table_id is not None]
        seated: dict[int, list[dict[str, Any]]] = {}
        for table_id, seat, name, stack, bot in house.seats_at(s, tables):
            seated.setdefault(table_id, []).append(
                {"seat": seat, "name": name, "stack": stack, "bot": bot is not None}
            )
        hands = house.hands_finished(s, tables)
        out = []
        for row in rows:
            shown = _described(row)
            room_here = room.rooms.get(row.table_id) if row.table_id is not None else None
            pending = False
            if room_here is not None and row.state == OPEN:
                with contextlib.suppress(ValueError, TableError):
                    pending = not _same(room_here, row.name, table_settings(row))
            shown.update(
                players=seated.get(row.table_id, []) if row.table_id is not None else [],
                hands=int(hands.get(row.table_id, 0)) if row.table_id is not None else 0,
                edit_waits=pending,
                server=room.leases.server_of(row.table_id) if row.table_id is not None else None,
            )
            out.append(shown)
        return out


def _same(room: Room, name: str, wanted: TableSettings) -> bool:
    """Whether the table ``room`` deals is what a definition asks for now."""
    return room.keeper.name == name and room.keeper.table.settings == wanted


# ------------------------------------------------------------------ the rounds


def _standing(store: Store) -> list[Standing]:
    """The definitions not closed, as a round reads them."""
    out = []
    with store.session() as s:
        for row, closed in house.not_closed(s, CLOSED):
            try:
                wanted = table_settings(row)
            except (ValueError, TableError):  # checked when written: a row edited by hand
                continue
            out.append(
                Standing(
                    row.id, row.state, row.table_id, bool(closed), row.bots, row.bot_kind, row.name, wanted
                )
            )
    return out


def _new_table(store: Store, standing: Standing) -> int | None:
    """Open the table of a definition whose table closed (or that has none): its id, or None
    when another process moved the definition on first (the table just made is closed again)."""
    table_id = create_table(store, standing.name, standing.settings)
    with store.transaction() as s:
        if house.move_on(s, standing.id, OPEN, standing.table_id, table_id):
            return table_id
        row = s.get(TableRow, table_id)
        if row is not None:
            row.closed = True
    return None


def _closed(store: Store, house_id: int) -> None:
    with store.transaction() as s:
        row = s.get(HouseTable, house_id)
        if row is not None and row.state == CLOSING:
            row.state = CLOSED
            row.changed_at = time.time()


def _keep_bots(room: Room, wanted: int, kind: str, now: float) -> object:
    """Between hands, seat bots of ``kind`` in free seats (the lowest seats last: they are the
    ones a person takes first) or stand the last ones up, until the table has ``wanted``."""
    keeper = room.keeper
    table = keeper.table
    if table.hand_in_progress:
        return None
    bots = keeper.bot_seats()
    if len(bots) > wanted:
        for seat in sorted(bots, reverse=True)[: len(bots) - wanted]:
            keeper.remove_bot(seat, now)
        return None
    taken = {table.seat_of(name) for name in keeper.occupants}
    free = [
        seat
        for seat in range(table.settings.seats, 0, -1)
        if seat not in taken and seat not in room.waiting.offers
    ]
    for seat in free[: wanted - len(bots)]:
        room.add_bot(seat, kind, now)
    return None


class House:
    """The rounds that keep the house's standing tables open in this process (see the module)."""

    def __init__(self, room: CardRoom, every: float = ROUND_SECONDS) -> None:
        self.room = room
        self.every = every
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """The first round now (the standing tables open at once), then one every so often."""
        with contextlib.suppress(Exception):
            await self.round()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop the rounds."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            with contextlib.suppress(Exception):  # a database that did not answer: next round
                await self.round()

    async def round(self) -> None:
        """One look at every definition not closed."""
        room = self.room
        for standing in await room.store.run(_standing, room.store):
            if standing.state == CLOSING:
                await self._closing(standing)
            else:
                await self._keep(standing)

    async def _closing(self, standing: Standing) -> None:
        room = self.room
        if standing.table_id is None or standing.table_closed:
            await room.store.run(_closed, room.store, standing.id)
            return
        here = room.rooms.get(standing.table_id)
        if here is None:  # another process serves it (its round closes it)
            return
        if not here.closing:  # no hand is dealt from now on; the next round sees one in progress
            here.closing = True
            return
        if here.playing:
            return
        await room.close_table(standing.table_id, "house_closed")
        await room.store.run(_closed, room.store, standing.id)

    async def _keep(self, standing: Standing) -> None:
        room = self.room
        table_id = standing.table_id
        if table_id is None or standing.table_closed:
            table_id = await room.store.run(_new_table, room.store, standing)
            if table_id is None or not room.leases.claim_new(table_id):
                return  # another process opened it, or serves it
            room.open_room(table_id, standing.settings)
        here = room.rooms.get(table_id)
        if here is None:
            return
        here.house = standing.id
        if here.closing or here.playing:
            return
        if not _same(here, standing.name, standing.settings):
            if here.taken == here.bots:  # nobody but bots sits here: the next table now
                await room.close_table(table_id)
            return
        seats = here.keeper.table.settings.seats
        if here.bots > standing.bots or (here.bots < standing.bots and here.taken < seats):
            with contextlib.suppress(RoomError, TableError):
                await here.submit(functools.partial(_keep_bots, here, standing.bots, standing.bot_kind))


def router(room: CardRoom, access: Access | None = None) -> APIRouter:
    """The house's tables and the room's settings, under ``/api/admin/``; the rounds of
    :class:`House` join the card room's services."""
    routes = APIRouter(prefix="/api/admin")
    store = room.store
    access = access or Access(room)
    room.services.append(House(room))
    reading = Annotated[Acting, Depends(access.needs("tables:read"))]
    writing = Annotated[Acting, Depends(access.needs("tables:write"))]

    @routes.get("/tables")
    def tables(who: reading) -> list[dict[str, Any]]:
        return listed(store, room)

    @routes.post("/tables")
    def table_made(who: writing, body: HouseTableBody) -> dict[str, Any]:
        return define(store, who.name, body)

    @routes.post("/tables/{house_id}")
    def table_edited(who: writing, house_id: RowId, body: HouseTableEdit) -> dict[str, Any]:
        return edit(store, who.name, house_id, body)

    @routes.post("/tables/{house_id}/close")
    def table_closed(who: writing, house_id: RowId, body: CloseBody) -> dict[str, Any]:
        return close(store, who.name, house_id, body.reason)

    @routes.get("/settings")
    def room_settings(who: reading) -> dict[str, Any]:
        return settings.read(store)

    @routes.post("/settings")
    def settings_changed(who: writing, body: SettingsBody) -> dict[str, Any]:
        return settings.change(store, who.name, body.model_dump(exclude_none=True))

    return routes


__all__ = [
    "CLOSED",
    "CLOSING",
    "OPEN",
    "House",
    "HouseTableBody",
    "HouseTableEdit",
    "router",
    "table_settings",
]
