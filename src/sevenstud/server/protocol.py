"""The card room's websocket protocol: every message a pydantic model (docs/protocol.md).

A client opens ``/ws``, sends :class:`Hello` (the protocol version, the table, the last number
it saw), and gets :class:`Welcome` then every stream entry after that number as
:class:`EventMessage`, numbered per table. An action names the hand and the street it is for, so
a late or replayed one is refused with an :class:`ErrorMessage` and changes nothing.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 4096
"""A client message longer than this is refused unread."""
RATE_PER_SECOND = 20.0
"""Messages a connection may send each second (a burst of as many)."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Hello(_Message):
    """The client's first message: which protocol, which table, the last number it saw."""

    type: Literal["hello"]
    version: int
    table: int = Field(ge=1)
    last: int = Field(default=0, ge=0)


class Act(_Message):
    """An action (``call``, ``raise to 10`` ...) for the hand and street named."""

    type: Literal["act"]
    hand: int = Field(ge=1)
    street: int = Field(ge=3, le=7)
    action: str = Field(min_length=1, max_length=40)


class Sit(_Message):
    """Take a seat with a buy-in from the balance."""

    type: Literal["sit"]
    seat: int = Field(ge=1, le=8)
    buy_in: int = Field(ge=1)


class Leave(_Message):
    """Stand up (at the end of the hand when dealt in)."""

    type: Literal["leave"]


ClientMessage = Annotated[Hello | Act | Sit | Leave, Field(discriminator="type")]
CLIENT = TypeAdapter(ClientMessage)


class Welcome(_Message):
    """The server's answer to :class:`Hello`: the seat this connection sees for."""

    type: Literal["welcome"] = "welcome"
    version: int = PROTOCOL_VERSION
    table: int
    seat: int | None
    number: int


class EventMessage(_Message):
    """One stream entry, as this connection may see it; ``number`` counts per table."""

    type: Literal["event"] = "event"
    number: int
    at: float
    hand: int | None
    seats: list[int]
    event: dict[str, Any]


class ErrorMessage(_Message):
    """A message refused: what was wrong. Nothing changed."""

    type: Literal["error"] = "error"
    message: str


ServerMessage = Annotated[Welcome | EventMessage | ErrorMessage, Field(discriminator="type")]


def json_schema() -> dict[str, Any]:
    """The JSON Schema of every message each way (served at ``/protocol.json``)."""
    return {
        "version": PROTOCOL_VERSION,
        "client": TypeAdapter(ClientMessage).json_schema(),
        "server": TypeAdapter(ServerMessage).json_schema(),
    }
