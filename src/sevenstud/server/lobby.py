"""The lobby's HTTP routes: the games the room deals, its cash tables, and a new table.

A new table is opened by a logged-in player within the limits (tables per account, new tables
per address: docs/security.md); its lease is this process's unless another process's round
took it first, and then the answer names the server that deals it.
"""

# No `from __future__ import annotations`: FastAPI reads the routes' dependencies (the local
# `current` alias) from the annotations as objects, at definition.

import functools
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from sevenstud.bots.registry import BotKindName
from sevenstud.games import GAMES, GameCode, Stakes, StudHiLo, game_class, game_facts
from sevenstud.refusals import Refusal
from sevenstud.server.accounts.routes import address_of
from sevenstud.server.cardroom import CardRoom
from sevenstud.server.limits import RateLimited
from sevenstud.server.operators import settings as room_settings
from sevenstud.server.operators.accounts import OPERATOR
from sevenstud.server.plaintext import PlainLine
from sevenstud.server.protocol import MAX_ID
from sevenstud.server.store import Store, private
from sevenstud.server.store import tables as table_rows
from sevenstud.server.store.models import Player
from sevenstud.server.tables.keeper import KEPT_ENTRIES
from sevenstud.server.tables.room import create_table
from sevenstud.table import TableSettings

Chips = Annotated[int, Field(strict=True, ge=0, le=MAX_ID)]
"""A number of chips in a request body (the database's integers bound it)."""
BUY_IN_BIG_BETS = (4, 20)
"""A new table's buy-in limits when its opener names none: 4 to 20 big bets (40-200 at 5/10)."""
BUY_IN_BOUNDS = (2, 100)
"""The limits an opener may choose, in big bets: a minimum of at least 2, a maximum of at most 100."""


def buy_in_limits(stakes: Stakes, low: int | None, high: int | None) -> tuple[int, int]:
    """A table's (min_buy_in, max_buy_in) in chips: those asked for, else the defaults
    (:data:`BUY_IN_BIG_BETS`), within the room's bounds (:data:`BUY_IN_BOUNDS`); a
    :class:`ValueError` naming the bound otherwise."""
    big = stakes.big_bet
    low = BUY_IN_BIG_BETS[0] * big if low is None else low
    high = max(BUY_IN_BIG_BETS[1] * big, low) if high is None else high
    floor, ceiling = max(BUY_IN_BOUNDS[0] * big, stakes.ante, 1), BUY_IN_BOUNDS[1] * big
    if low < floor:
        why = f"the ante of {floor}" if floor == stakes.ante else f"{BUY_IN_BOUNDS[0]} big bets of {big}"
        raise ValueError(f"min_buy_in {low} is below {floor} ({why})")
    if low > ceiling:  # named before max_buy_in, whose default follows it
        raise ValueError(f"min_buy_in {low} is above {ceiling} ({BUY_IN_BOUNDS[1]} big bets of {big})")
    if high > ceiling:
        raise ValueError(f"max_buy_in {high} is above {ceiling} ({BUY_IN_BOUNDS[1]} big bets of {big})")
    if low > high:
        raise ValueError(f"min_buy_in {low} is above max_buy_in {high}")
    return low, high


class NewTable(BaseModel):
    """A table to open: game, stakes (ante, bring-in, small bet, big bet), seats, bots, and
    the buy-in limits in chips (None: :func:`buy_in_limits`'s defaults)."""

    model_config = ConfigDict(strict=True, extra="forbid")  # a misspelt field is named, not ignored

    name: PlainLine = Field(default="", max_length=80)  # plain text, one line
    """The opener's name for the table; none (the lobby's "Play now"): the pages call it by its
    number in each reader's language ("Table 12", "Стол 12"), never one language's words."""
    game: GameCode = StudHiLo.code
    # Not strict as a whole: a JSON body's array reaches the model as a list, not a tuple (each
    # number is strict all the same).
    stakes: tuple[Chips, Chips, Chips, Chips] = Field(default=(1, 2, 5, 10), strict=False)
    seats: int = Field(default=6, ge=2, le=8)
    bots: int = Field(default=0, ge=0, le=7)
    bot: BotKindName = "rule"
    """Which kind of bot fills the ``bots`` seats (:data:`sevenstud.bots.BOT_KINDS`)."""
    min_buy_in: int | None = Field(default=None, ge=1, le=MAX_ID)
    max_buy_in: int | None = Field(default=None, ge=1, le=MAX_ID)
    sit: bool = False
    """Seat the opener in seat 1, with the largest buy-in the balance allows, before the bots
    sit and before the first deal (the lobby's "Play now": the first hand is the player's)."""
    private: bool = False
    """A home game: not in the lobby, only the invited come (server/tables/private.py); the
    answer carries the invite link's token."""
    ask_to_join: bool = False
    """At a private table: each newcomer with the link waits for the host's yes."""


def open_tables_of(store: Store, player_id: int) -> int:
    """How many tables ``player_id`` opened that are still open."""
    with store.session() as s:
        return table_rows.open_tables_of(s, player_id)


def router(room: CardRoom) -> APIRouter:
    """The lobby's routes over the card room ``room``."""
    routes = APIRouter()
    store, limits, leases = room.store, room.limits, room.leases
    current = Annotated[Player, Depends(room.sessions.player)]

    @routes.get("/api/games")
    async def games() -> dict[str, Any]:
        """The games the room deals and what each has (``sevenstud.games.game_facts``)."""
        return {"games": [game_facts(cls) for cls in GAMES.values()]}

    @routes.get("/api/room")
    async def room_facts() -> dict[str, Any]:
        """What this room lets its players do, as its operators set it (docs/operators.md)."""
        return {"players_open_tables": await store.run(room_settings.players_open_tables, store)}

    @routes.get("/api/lobby")
    def lobby() -> list[dict[str, Any]]:
        tables = room.lobby()
        hidden = private.hidden_tables(store, [t["id"] for t in tables])
        return [t for t in tables if t["id"] not in hidden]  # private tables: never listed

    @routes.post("/api/tables")
    async def new_table(body: NewTable, request: Request, player: current) -> dict[str, Any]:
        try:
            game = game_class(body.game)(Stakes(*body.stakes))
            low, high = buy_in_limits(game.stakes, body.min_buy_in, body.max_buy_in)
            settings = TableSettings(
                game, seats=body.seats, min_buy_in=low, max_buy_in=high, history=KEPT_ENTRIES
            )
        except ValueError as error:
            raise HTTPException(400, error if isinstance(error, Refusal) else str(error)) from None
        if body.bots >= body.seats:
            raise HTTPException(400, Refusal("bots_fill_table", bots=body.bots, seats=body.seats))
        # The room's setting (docs/operators.md): when off, only the house's tables deal cash games.
        if player.role != OPERATOR and not await store.run(room_settings.players_open_tables, store):
            raise HTTPException(403, Refusal("player_tables_off"))
        buy_in = min(high, player.balance)
        if body.sit and buy_in < low:
            balance, amount = player.balance, low
            raise HTTPException(400, Refusal("balance_below_buy_in", balance=balance, amount=amount))
        async with room.new_tables:
            if await store.run(open_tables_of, store, player.id) >= limits.tables_per_account:
                raise RateLimited(
                    "tables_per_account",
                    "tables_open",
                    retry_after=limits.idle_table_seconds,
                    count=limits.tables_per_account,
                )
            room.tables_made.take(address_of(request))
            token = None
            if body.private:
                made = private.create_private_table, store, body.name, settings, player.id, body.ask_to_join
                table_id, token = await store.run(*made)
            else:
                table_id = await store.run(create_table, store, body.name, settings, player.id)
        invite = {"invite": token} if token is not None else {}
        if not leases.claim_new(table_id):  # another process's round took it first: it serves it
            return {"id": table_id, "server": leases.server_of(table_id), **invite}
        opened = room.open_room(table_id, settings, player.id)
        # One command: the opener (when sitting) and every bot are seated before the clock can
        # deal, so that the first hand is dealt to the whole table, the opener in it (a bot per
        # command dealt a hand of two bots while the others and the opener were still coming).
        opener = (player.name, player.id, buy_in) if body.sit else None
        refused = await opened.submit(
            functools.partial(opened.fill, opener, range(2, 2 + body.bots), body.bot)
        )
        if not body.sit:
            return {"id": table_id, **invite}
        # Refused (the balance moved since it was read): the table is open all the same.
        if refused:
            return {"id": table_id, "seat": None, "refused": refused, **invite}
        return {"id": table_id, "seat": 1, **invite}

    return routes
