"""The card room's websocket protocol: every message a pydantic model (docs/protocol.md).

A client opens ``/ws``, sends :class:`Hello` (the protocol version, the table, the last number
it saw), and gets :class:`Welcome`, then either every stream entry after that number as
:class:`EventMessage` or, when those are no longer kept (or it saw none), a :class:`Snapshot`
of the table now, then the table's entries as they come, numbered per table. Every message about
a table carries ``number``: the table's stream number it reflects. An action names the hand and
the street it is for, so a late or replayed one is refused with an :class:`ErrorMessage` and
changes nothing.

The server builds its messages as plain dicts (the table's hot path); the models here say their
shape, give ``/protocol.json`` and are what the tests check every sent message against.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from sevenstud.bots.registry import BotKindName

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 4096
"""A client message longer than this is refused unread."""
RATE_PER_SECOND = 20.0
"""Messages a connection may send each second (a burst of as many)."""
GRACE_SECONDS = 1.0
"""How long after a deadline the server waits before timing a seat out: the lag of the wire."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# ---------------------------------------------------------------------- client to server


class Hello(_Message):
    """The client's first message: which protocol, which table, the last number it saw
    (0: none). Sent again, it moves the connection to another table (or resynchronises).
    ``views``: send a :class:`ViewMessage` after every batch (the browser table asks for it)."""

    type: Literal["hello"]
    version: int
    table: int = Field(ge=1)
    last: int = Field(default=0, ge=0)
    views: bool = False


class Act(_Message):
    """An action (``call``, ``raise to 10`` ...) for the hand and street named."""

    type: Literal["act"]
    hand: int = Field(ge=1)
    street: int = Field(ge=3, le=7)
    action: str = Field(min_length=1, max_length=40)


class Sit(_Message):
    """Take an empty seat with a buy-in from the balance (within the table's minimum and
    maximum)."""

    type: Literal["sit"]
    seat: int = Field(ge=1, le=8, strict=True)
    buy_in: int = Field(ge=1, strict=True)  # chips: never true, 5.0 or "5"


class Leave(_Message):
    """Stand up (at the end of the hand when dealt in); the stack goes back to the balance."""

    type: Literal["leave"]


class SitOut(_Message):
    """Not dealt in from the next hand (the seat is kept)."""

    type: Literal["sit_out"]


class SitIn(_Message):
    """Dealt in again from the next hand."""

    type: Literal["sit_in"]


class TopUp(_Message):
    """Add chips from the balance to the stack, when not dealt into the hand in progress."""

    type: Literal["top_up"]
    amount: int = Field(ge=1, strict=True)


class AddBot(_Message):
    """Seat one of the project's bots in an empty seat (its chips come from the bank):
    ``bot`` says which kind (:data:`sevenstud.bots.BOT_KINDS`: ``rule``, the default,
    ``random``, ``station``, ``tight`` or ``equity``)."""

    type: Literal["add_bot"]
    seat: int = Field(ge=1, le=8, strict=True)
    bot: BotKindName = "rule"


class RemoveBot(_Message):
    """Stand a bot up (at the end of the hand when dealt in)."""

    type: Literal["remove_bot"]
    seat: int = Field(ge=1, le=8, strict=True)


class Wait(_Message):
    """Join the table's waiting list (the table is full): seats are offered in order."""

    type: Literal["wait"]


class Unwait(_Message):
    """Leave the waiting list (an offered seat is given to the next one)."""

    type: Literal["unwait"]


ClientMessage = Annotated[
    Hello | Act | Sit | Leave | SitOut | SitIn | TopUp | AddBot | RemoveBot | Wait | Unwait,
    Field(discriminator="type"),
]
CLIENT: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


# ---------------------------------------------------------------------- server to client


class Welcome(_Message):
    """The answer to :class:`Hello`: the seat this connection sees for (None: a spectator),
    the table's number now, the server's clock and the grace it gives after a deadline."""

    type: Literal["welcome"] = "welcome"
    version: int = PROTOCOL_VERSION
    table: int
    seat: int | None
    number: int
    server_time: float
    grace: float


class EventMessage(_Message):
    """One stream entry, as this connection may see it (the engine's redaction for its seat
    or for a spectator); ``number`` counts per table, ``event`` is the wire format."""

    type: Literal["event"] = "event"
    number: int
    at: float
    hand: int | None
    seats: list[int]
    event: dict[str, Any]


class Snapshot(_Message):
    """The table now, as this connection may see it (``sevenstud.wire``'s ``table_view``):
    sent after :class:`Hello` when the entries after the client's last number are not kept
    (or it saw none); the entries that follow continue from ``number``."""

    type: Literal["snapshot"] = "snapshot"
    number: int
    view: dict[str, Any]


class Clock(_Message):
    """The seat to act and its deadlines: ``act_by`` when its action time runs out (then the
    time bank is drawn on), ``deadline`` with the bank; the server times it out ``grace``
    seconds after ``deadline``. Times are the server's (``server_time`` is its clock now)."""

    type: Literal["clock"] = "clock"
    number: int
    hand: int
    street: int
    seat: int
    act_by: float
    deadline: float
    grace: float
    server_time: float


class SeatOffered(_Message):
    """A seat is free and yours, from the waiting list: sit in it (:class:`Sit`) before
    ``until`` (server time) or it goes to the next one waiting."""

    type: Literal["seat_offered"] = "seat_offered"
    number: int
    table: int
    seat: int
    until: float


class Waiting(_Message):
    """Your place on the waiting list (1: next; None: not on it) and how many wait."""

    type: Literal["waiting"] = "waiting"
    number: int
    table: int
    position: int | None
    waiting: int


class PlayerName(_Message):
    """Who sits in a seat, as the page shows it."""

    name: str
    bot: bool


class PotLine(_Message):
    """A pot (the main pot first, then the side pots) and the table seats that may win it."""

    amount: int
    seats: list[int]


class HandNames(_Message):
    """A hand's best high and low so far, named as the dealer says them, with their cards
    (``high`` is None in razz; ``low`` None in stud, or when no low qualifies)."""

    high: str | None
    high_cards: list[str]
    low: str | None
    low_cards: list[str]


class ActionButton(_Message):
    """A legal action of the seat to act: ``action`` is what to send in :class:`Act`;
    ``label`` the button's words ("Call 2": the chips to put in); ``amount`` the street total
    after it (None for fold, check); ``chips`` what it puts in now."""

    action: str
    label: str
    kind: str
    amount: int | None
    chips: int


class LastHand(_Message):
    """The hand that ended most recently at the table: its result in sentences and the hands
    shown at its showdown, by table seat."""

    hand: int
    summary: list[str]
    shown: dict[str, HandNames]


class ViewMessage(_Message):
    """The table now for this connection, with what the page needs to draw it without deciding
    a rule: sent after every batch to a connection whose :class:`Hello` asked for ``views``.
    ``view`` is the :class:`Snapshot`'s table view; ``you`` the table seat it sees for (None:
    a spectator); ``players``, ``hands`` and the shown hands are keyed by table seat (as
    strings); ``hands`` holds the connection's own hand and every hand shown or turned up;
    ``actions`` only the legal actions of the seat to act, on its own connection."""

    type: Literal["view"] = "view"
    number: int
    view: dict[str, Any]
    game: Literal["stud8", "stud", "razz"]
    game_name: str
    has_high: bool
    has_low: bool
    stakes: list[int]
    seats: int
    min_buy_in: int
    max_buy_in: int
    you: int | None
    players: dict[str, PlayerName]
    bring_in: int | None
    pots: list[PotLine]
    hands: dict[str, HandNames]
    actions: list[ActionButton]
    last_hand: LastHand | None


class ErrorMessage(_Message):
    """A message refused: what was wrong. Nothing changed. ``number`` is the table's number
    when the connection is at one (None before :class:`Hello`)."""

    type: Literal["error"] = "error"
    number: int | None = None
    message: str


ServerMessage = Annotated[
    Welcome | EventMessage | Snapshot | Clock | SeatOffered | Waiting | ViewMessage | ErrorMessage,
    Field(discriminator="type"),
]
SERVER: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of every message each way (served at ``/protocol.json``)."""
    return {
        "version": PROTOCOL_VERSION,
        "client": CLIENT.json_schema(),
        "server": SERVER.json_schema(),
    }
