"""The card room's websocket protocol: every message a pydantic model (docs/protocol.md).

A client opens ``/ws``, sends :class:`Hello` (the protocol version, the table, the last number
it saw), and gets :class:`Welcome`, then either every stream entry after that number as
:class:`EventMessage` or, when those are no longer kept (or it saw none), a :class:`Snapshot`
of the table now, then the table's entries as they come, numbered per table. Every message about
a table carries ``number``: the table's stream number it reflects. An action names the hand and
the street it is for, so a late or replayed one is refused with an :class:`ErrorMessage` and
changes nothing.

Every message is defined once, here: the server builds each one it sends with its model
(:class:`Outgoing`; an ``event`` from a stream entry by :func:`event_message`), the one encoder
(:func:`sevenstud.server.connection.encode`) writes it, ``/protocol.json`` is generated from the
same models (:func:`json_schema`), and the tests check every message received against them. No
message is written as a dict anywhere else (tests/server/test_protocol_doc.py holds to it).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from sevenstud.bots.registry import BotKindName
from sevenstud.games import GameCode
from sevenstud.i18n import Translations
from sevenstud.refusals import Refusal, Words
from sevenstud.table import Entry
from sevenstud.wire import json_schema as wire_schema
from sevenstud.wire import to_wire

PROTOCOL_VERSION = 1
MAX_ID = 2**31 - 1
"""The largest table, hand or stream number a client may name (the database's integers):
a larger one is a malformed message, never an overflow inside the server."""
MAX_MESSAGE_BYTES = 4096
"""A client message longer than this is refused unread."""
GRACE_SECONDS = 1.0
"""How long after a deadline the server waits before timing a seat out: the lag of the wire."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _ClientMessage(_Message):
    # Strict: an integer field takes a JSON integer only (not "100", true or 5.0), a boolean
    # true or false only, a string a string only: what /protocol.json says, and nothing more.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


# ---------------------------------------------------------------------- client to server


class Hello(_ClientMessage):
    """The client's first message: which protocol, which table, the last number it saw
    (0: none). Sent again, it moves the connection to another table (or resynchronises).
    ``views``: send a :class:`ViewMessage` after every batch (the browser table asks for it).
    ``lang``: the language of every sentence the server sends this connection (the view's
    words and results, refusals): ``en`` (the default), ``uk``, ``ru`` or ``et``."""

    type: Literal["hello"]
    version: int = Field(ge=0, le=MAX_ID)
    table: int = Field(ge=1, le=MAX_ID)
    last: int = Field(default=0, ge=0, le=MAX_ID)
    views: bool = False
    lang: Literal["en", "uk", "ru", "et"] = "en"


class Act(_ClientMessage):
    """An action (``call``, ``raise to 10`` ...) for the hand and street named."""

    type: Literal["act"]
    hand: int = Field(ge=1, le=MAX_ID)
    street: int = Field(ge=3, le=7)
    action: str = Field(min_length=1, max_length=40)


class Sit(_ClientMessage):
    """Take an empty seat with a buy-in from the balance (within the table's minimum and
    maximum)."""

    type: Literal["sit"]
    seat: int = Field(ge=1, le=8, strict=True)
    buy_in: int = Field(ge=1, le=MAX_ID, strict=True)  # chips: never true, 5.0 or "5"


class Leave(_ClientMessage):
    """Stand up (at the end of the hand when dealt in); the stack goes back to the balance."""

    type: Literal["leave"]


class SitOut(_ClientMessage):
    """Not dealt in from the next hand (the seat is kept)."""

    type: Literal["sit_out"]


class SitIn(_ClientMessage):
    """Dealt in again from the next hand."""

    type: Literal["sit_in"]


class TopUp(_ClientMessage):
    """Add chips from the balance to the stack, when not dealt into the hand in progress."""

    type: Literal["top_up"]
    amount: int = Field(ge=1, le=MAX_ID, strict=True)


class AddBot(_ClientMessage):
    """Seat one of the project's bots in an empty seat (its chips come from the bank):
    ``bot`` says which kind (:data:`sevenstud.bots.BOT_KINDS`: ``rule``, the default,
    ``random``, ``station``, ``tight``, ``equity`` or ``learned``)."""

    type: Literal["add_bot"]
    seat: int = Field(ge=1, le=8, strict=True)
    bot: BotKindName = "rule"


class RemoveBot(_ClientMessage):
    """Stand a bot up (at the end of the hand when dealt in)."""

    type: Literal["remove_bot"]
    seat: int = Field(ge=1, le=8, strict=True)


class Wait(_ClientMessage):
    """Join the table's waiting list (the table is full): seats are offered in order."""

    type: Literal["wait"]


class Unwait(_ClientMessage):
    """Leave the waiting list (an offered seat is given to the next one)."""

    type: Literal["unwait"]


CHAT_MAX_CHARS = 200
"""The longest chat message, in characters (docs/protocol.md, "Chat")."""


class Chat(_ClientMessage):
    """A line of table chat: plain text, 1 to :data:`CHAT_MAX_CHARS` characters (seated
    players only; at most so many a player per window: docs/protocol.md, "Chat")."""

    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=CHAT_MAX_CHARS)


ClientMessage = Annotated[
    Hello | Act | Sit | Leave | SitOut | SitIn | TopUp | AddBot | RemoveBot | Wait | Unwait | Chat,
    Field(discriminator="type"),
]
CLIENT: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


class MessageError(Refusal, ValueError):
    """A client message refused before it reached a table: ``reasons`` say which fields and
    what was wrong with each (the first three, joined by ``"; "``; ``more``: how many others),
    the ``error`` message's text after ``malformed message: ``."""

    def __init__(self, *reasons: Refusal, more: int = 0) -> None:
        first = reasons[0]
        super().__init__(first.code or str(first), **first.params)
        self.reasons, self.more = reasons, more
        self.args = (self._joined(None),)

    def _joined(self, tr: Translations | None) -> str:
        said = "; ".join(str(r) if tr is None else r.said(tr) for r in self.reasons)
        if not self.more:
            return said
        others = Refusal("and_more", said=said, count=self.more)
        return str(others) if tr is None else others.said(tr)

    def said(self, tr: Translations) -> str:
        """Each reason in the language of ``tr``, joined."""
        return self._joined(tr)


def _json_type(value: object) -> Words | str:
    if isinstance(value, bool):
        return Words("a boolean")
    if isinstance(value, int):
        return Words("an integer")
    if isinstance(value, float):
        return f"a number with a fraction ({value!r})"
    if isinstance(value, str):
        return Words("a string")
    if value is None:
        return Words("null")
    if isinstance(value, list):
        return Words("an array")
    if isinstance(value, dict):
        return Words("an object")
    return type(value).__name__  # pragma: no cover - JSON has no other kind


_EXPECTED = {
    "int_type": "an integer",
    "int_parsing": "an integer",
    "bool_type": "true or false",
    "string_type": "a string",
}


def _say(error: Any) -> Refusal:
    """One pydantic error as the protocol says it: ``field: what was wrong``."""
    kind, loc, value, ctx = error["type"], error["loc"], error.get("input"), error.get("ctx") or {}
    tag, *rest = loc if loc else ("",)
    field = ".".join(str(part) for part in rest) or "message"
    if kind == "union_tag_not_found":
        return Refusal("type_missing")
    if kind == "union_tag_invalid":
        found = value.get("type") if isinstance(value, dict) else None
        if not isinstance(found, str):
            return Refusal("type_not_string", got=_json_type(found))
        return Refusal("type_unknown", name=repr(found), tags=ctx.get("expected_tags", ""))
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return Refusal("message_not_object", got=_json_type(value))
    if kind == "missing":
        return Refusal("field_missing", field=field, tag=tag)
    if kind == "extra_forbidden":
        return Refusal("field_unknown", field=field, tag=tag)
    if kind in _EXPECTED:
        return Refusal("field_type", field=field, what=Words(_EXPECTED[kind]), got=_json_type(value))
    if kind == "literal_error":
        expected = ctx.get("expected", "one of the values listed")
        return Refusal("field_type", field=field, what=expected, got=repr(value))
    if kind == "greater_than_equal":
        return Refusal("field_too_small", field=field, least=ctx.get("ge"), value=repr(value))
    if kind == "less_than_equal":
        return Refusal("field_too_large", field=field, most=ctx.get("le"), value=repr(value))
    if kind == "string_too_short":
        return Refusal("field_too_short", field=field, count=ctx.get("min_length"))
    if kind == "string_too_long":
        return Refusal("field_too_long", field=field, count=ctx.get("max_length"))
    return Refusal(f"{field}: {error['msg']}")  # pydantic's own words: English alone


def describe(error: ValidationError) -> MessageError:
    """A client message's validation errors in the protocol's words (the first three).

    >>> try:
    ...     CLIENT.validate_json('{"type": "sit", "seat": 1, "buy_in": "100"}')
    ... except ValidationError as error:
    ...     print(describe(error))
    buy_in: expected an integer, got a string
    """
    said = [_say(e) for e in error.errors()]
    return MessageError(*said[:3], more=max(0, len(said) - 3))


def _surrogate_at(value: object, path: str = "") -> str | None:
    """Where the first string (a key or a value) with an unpaired surrogate is, or None."""
    if isinstance(value, str):
        return path or "message" if any(0xD800 <= ord(c) <= 0xDFFF for c in value) else None
    if isinstance(value, list):
        for i, item in enumerate(value):
            found = _surrogate_at(item, f"{path}[{i}]")
            if found is not None:
                return found
    if isinstance(value, dict):
        for key, item in value.items():
            if _surrogate_at(key) is not None:
                shown = key.encode("utf-8", "backslashreplace").decode()
                return f"{path + '.' if path else ''}{shown} (the key)"
            found = _surrogate_at(item, f"{path + '.' if path else ''}{key}")
            if found is not None:
                return found
    return None


def parse_client(text: str) -> ClientMessage:
    """A client's text frame as a message, or :class:`MessageError` naming the field and what
    was wrong. JSON may escape a lone UTF-16 surrogate (``"\\ud800"``) that is no Unicode
    text: such a message is refused, naming the field it is in."""
    try:
        return CLIENT.validate_json(text)
    except ValidationError as error:
        first = error.errors()[0]
        if first["type"] != "json_invalid":
            raise describe(error) from None
        why = str(first.get("ctx", {}).get("error", first["msg"]))
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError):
        raise MessageError(Refusal("invalid_json", why=why)) from None
    where = _surrogate_at(parsed)
    if where is not None:
        raise MessageError(Refusal("field_surrogate", field=where))
    raise MessageError(Refusal("invalid_json", why=why))


# ---------------------------------------------------------------------- server to client


class Outgoing(_Message):
    """A message the server sends a client: every one is built from its model below (its
    ``type`` a default, never repeated at the sender) and written by the one encoder,
    :func:`sevenstud.server.connection.encode`. Validated as it is built: a field of the
    wrong kind is the server's error, found where the message is made."""



class Welcome(Outgoing):
    """The answer to :class:`Hello`: the seat this connection sees for (None: a spectator),
    the table's number now, the server's clock and the grace it gives after a deadline."""

    type: Literal["welcome"] = "welcome"
    version: int = PROTOCOL_VERSION
    table: int
    seat: int | None
    number: int
    server_time: float
    grace: float


class EventMessage(Outgoing):
    """One stream entry, as this connection may see it (the engine's redaction for its seat
    or for a spectator); ``number`` counts per table, ``event`` is the wire format."""

    type: Literal["event"] = "event"
    number: int
    at: float
    hand: int | None
    seats: list[int]
    event: dict[str, Any]


def event_message(entry: Entry) -> EventMessage:
    """The ``event`` message of a stream entry (already redacted for the connections it goes
    to): the wire format's entry (:func:`sevenstud.wire.to_wire`, the one record of an entry,
    as it is stored too) under the protocol's tag. The same entry's message is built and
    encoded once for every connection that sees it alike."""
    wired = to_wire(entry)
    return EventMessage(
        number=wired["number"], at=wired["at"], hand=wired["hand"], seats=wired["seats"], event=wired["event"]
    )


class Snapshot(Outgoing):
    """The table now, as this connection may see it (``sevenstud.wire``'s ``table_view``):
    sent after :class:`Hello` when the entries after the client's last number are not kept
    (or it saw none); the entries that follow continue from ``number``."""

    type: Literal["snapshot"] = "snapshot"
    number: int
    view: dict[str, Any]


class Clock(Outgoing):
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


class SeatOffered(Outgoing):
    """A seat is free and yours, from the waiting list: sit in it (:class:`Sit`) before
    ``until`` (server time) or it goes to the next one waiting."""

    type: Literal["seat_offered"] = "seat_offered"
    number: int
    table: int
    seat: int
    until: float


class Waiting(Outgoing):
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


class ViewMessage(Outgoing):
    """The table now for this connection, with what the page needs to draw it without deciding
    a rule: sent after every batch to a connection whose :class:`Hello` asked for ``views``.
    ``view`` is the :class:`Snapshot`'s table view; ``you`` the table seat it sees for (None:
    a spectator); ``players``, ``hands`` and the shown hands are keyed by table seat (as
    strings); ``hands`` holds the connection's own hand and every hand shown or turned up;
    ``actions`` only the legal actions of the seat to act, on its own connection;
    ``may_seat_bots`` whether this connection's player may seat a bot in an empty seat."""

    type: Literal["view"] = "view"
    number: int
    view: dict[str, Any]
    game: GameCode
    game_name: str
    has_high: bool
    has_low: bool
    stakes: list[int]
    seats: int
    min_buy_in: int
    max_buy_in: int
    tournament: bool
    you: int | None
    may_seat_bots: bool = False
    players: dict[str, PlayerName]
    bring_in: int | None
    pots: list[PotLine]
    hands: dict[str, HandNames]
    actions: list[ActionButton]
    last_hand: LastHand | None


class YourTurn(Outgoing):
    """Sent to the connections of the player to act only, once a turn (again after a
    ``hello``): the turn's hand, street and seat, its deadlines (as :class:`Clock` says them)
    and every legal action with its amounts (as :class:`ViewMessage`'s ``actions``)."""

    type: Literal["your_turn"] = "your_turn"
    number: int
    hand: int
    street: int
    seat: int
    act_by: float
    deadline: float
    actions: list[ActionButton]


class Refund(_Message):
    """What a cancelled hand gave back to one seat: every chip that seat had put in."""

    seat: int
    player: str
    amount: int


class HandCancelled(Outgoing):
    """A hand this connection saw in progress was cut off by a server restart: it was
    cancelled and every chip put into it went back to its seat (``refunds``, by table seat).
    Sent after :class:`Welcome` to a client whose ``last`` was inside that hand."""

    type: Literal["hand_cancelled"] = "hand_cancelled"
    number: int
    table: int
    hand: int
    refunds: list[Refund]


ClosedWhy = Literal["closed", "broken", "tournament_over", "house_closed"]
"""Why a table closed for good, as :class:`TableClosed` says it."""


class TableClosed(Outgoing):
    """The table has closed for good, sent to every connection at it as it closes (then the
    socket closes with 4004), and as the answer to a :class:`Hello` for a closed table:
    ``reason`` why (``closed``: a cash table the card room closed; ``broken``: a tournament
    table broken up; ``tournament_over``; ``house_closed``: one of the house's standing tables
    an operator closed, after its hand in progress, every seat's chips back in its balance),
    ``tournament`` its tournament (None: a cash table),
    ``number`` the table's last."""

    type: Literal["table_closed"] = "table_closed"
    table: int
    reason: ClosedWhy
    tournament: int | None
    number: int


class TablePaused(Outgoing):
    """A private table's host paused it (``paused`` true: the hand in progress finishes, no new
    hand is dealt) or resumed it (false): sent to every connection at the table, and after the
    welcome to one that comes while it is paused."""

    type: Literal["table_paused"] = "table_paused"
    table: int
    number: int
    paused: bool


class Removed(Outgoing):
    """To a player the host of a private table removed (between hands; their stack went back to
    their balance): the connection no longer watches the table, and a hello for it is refused
    until the host lets them in again. ``reason``: the host's words (plain text, may be empty)."""

    type: Literal["removed"] = "removed"
    table: int
    number: int
    reason: str


class TournamentLevelInfo(_Message):
    """A tournament level's stakes and game."""

    index: int
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    game: Literal["stud8", "stud", "razz"]


TournamentStatus = Literal["registering", "running", "break", "finished", "cancelled"]
"""A tournament's state, as :class:`TournamentState` says it."""


class TournamentState(Outgoing):
    """Sent to every connection at a tournament's tables: the tournament is now ``state``
    (``running``, ``break``, ``finished``, ``cancelled``)."""

    type: Literal["tournament_state"] = "tournament_state"
    tournament: int
    state: TournamentStatus


class TournamentLevel(Outgoing):
    """Sent to every connection at a tournament's tables: ``level`` from the next hand dealt."""

    type: Literal["tournament_level"] = "tournament_level"
    tournament: int
    level: TournamentLevelInfo


class TournamentBreak(Outgoing):
    """Sent to every connection at a tournament's tables: every table is on a break of
    ``seconds`` (the wall's), from now."""

    type: Literal["tournament_break"] = "tournament_break"
    tournament: int
    seconds: float


class HandForHand(Outgoing):
    """Sent to every connection at a tournament's tables: hand-for-hand play starts (``on``)
    or ends."""

    type: Literal["hand_for_hand"] = "hand_for_hand"
    tournament: int
    on: bool


class TournamentMoved(Outgoing):
    """Sent to the moved player's own connections only: they now sit at card-room table
    ``table`` (its id: say ``hello`` there), seat ``seat``, with ``chips``."""

    type: Literal["tournament_moved"] = "tournament_moved"
    tournament: int
    player: str
    table: int
    seat: int
    chips: int


class TournamentSeated(Outgoing):
    """Sent to every connection of a registered player on the server, theirs alone (whatever
    table it watches, or none: a logged-in socket that said no ``hello`` yet), when the
    tournament seats them without a move: it has started (``started`` true), or a late entry
    or a re-entry is seated. They sit at card-room table ``table`` (its id: say ``hello``
    there), seat ``seat``, with ``chips``."""

    type: Literal["tournament_seated"] = "tournament_seated"
    tournament: int
    player: str
    table: int
    seat: int
    chips: int
    started: bool


class TournamentFinish(Outgoing):
    """Sent to every connection at a tournament's tables: ``player`` finished in ``place``
    (shared with ``tied`` players in all) and won ``prize`` play chips."""

    type: Literal["tournament_finish"] = "tournament_finish"
    tournament: int
    player: str
    place: int
    prize: int
    tied: int


class TournamentDeal(Outgoing):
    """Sent to every connection at a tournament's tables: the ICM deal was ``proposed`` by
    ``player``, ``accepted`` by ``player``, is ``off`` (declined by ``player``, or with ``player``
    empty: not agreed in time) or ``done`` (the prizes left paid by it: the finishes follow).
    The offer itself is on the tournament's page (``icm`` and ``deal``)."""

    type: Literal["tournament_deal"] = "tournament_deal"
    tournament: int
    state: Literal["proposed", "accepted", "off", "done"]
    player: str


class TournamentChips(Outgoing):
    """Sent to every connection at a tournament's tables: ``player`` bought ``chips`` more
    (``kind`` ``rebuy`` or ``add_on``), paying ``price`` into the prize pool."""

    type: Literal["tournament_chips"] = "tournament_chips"
    tournament: int
    player: str
    kind: Literal["rebuy", "add_on"]
    chips: int
    price: int


class TournamentPaused(Outgoing):
    """Sent to every connection at a tournament's tables: the room's operators ``paused`` it
    (no new hand is dealt, the level clock stands still; a hand in progress is played out) or
    resumed it (``paused`` false)."""

    type: Literal["tournament_paused"] = "tournament_paused"
    tournament: int
    paused: bool


class TournamentAnnouncement(Outgoing):
    """Sent to every connection at a tournament's tables: a line from the room's operators
    (plain text, shown as text in the table's log)."""

    type: Literal["tournament_announcement"] = "tournament_announcement"
    tournament: int
    text: str


class ErrorMessage(Outgoing):
    """A message refused: what was wrong. Nothing changed. ``number`` is the table's number
    when the connection is at one (None before :class:`Hello`)."""

    type: Literal["error"] = "error"
    number: int | None = None
    message: str


class ChatLine(Outgoing):
    """A line of table chat as every connection at the table gets it: ``id`` names it (a line
    sent again after a reconnect has the same), who said it (their name and the seat they held
    then), the table's number then, when (server time), and the text as sent (trimmed): plain
    text, which a page shows as text, never as HTML."""

    type: Literal["chat"] = "chat"
    id: str
    number: int
    table: int
    player: str
    seat: int
    at: float
    text: str


ServerMessage = Annotated[
    Welcome
    | ChatLine
    | EventMessage
    | Snapshot
    | Clock
    | SeatOffered
    | Waiting
    | ViewMessage
    | YourTurn
    | HandCancelled
    | TableClosed
    | TablePaused
    | Removed
    | TournamentState
    | TournamentLevel
    | TournamentBreak
    | HandForHand
    | TournamentMoved
    | TournamentSeated
    | TournamentFinish
    | TournamentDeal
    | TournamentChips
    | TournamentPaused
    | TournamentAnnouncement
    | ErrorMessage,
    Field(discriminator="type"),
]
SERVER: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)


__all__ = [
    "CHAT_MAX_CHARS",
    "CLIENT",
    "GRACE_SECONDS",
    "MAX_ID",
    "MAX_MESSAGE_BYTES",
    "PROTOCOL_VERSION",
    "SERVER",
    "ClientMessage",
    "ClosedWhy",
    "MessageError",
    "Outgoing",
    "ServerMessage",
    "TournamentStatus",
    "describe",
    "event_message",
    "json_schema",
    "parse_client",
]


def json_schema() -> dict[str, Any]:
    """The JSON Schema of every message each way (served at ``/protocol.json``), and the wire
    format's (``wire``: :func:`sevenstud.wire.json_schema`), which an ``event``'s ``event``, a
    ``snapshot``'s ``view`` and a ``view``'s ``view`` follow (their ``$defs``: the events,
    ``table_view``). Every message's ``type`` is required: the models give it as a default
    only so that the server need not repeat it."""
    both = {"client": CLIENT.json_schema(), "server": SERVER.json_schema()}
    for schema in both.values():
        for model in schema.get("$defs", {}).values():
            if "type" in model.get("properties", {}) and "type" not in model.get("required", ()):
                model["required"] = ["type", *model.get("required", ())]
    return {"version": PROTOCOL_VERSION, **both, "wire": wire_schema()}
