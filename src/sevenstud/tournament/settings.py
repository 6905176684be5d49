"""A tournament's template: its kind, game, buy-in, chips, seats and structure, and what the
director tells the tables (its commands).

The rulings are in docs/tournaments.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from sevenstud.games import GAMES, Game, GameCode
from sevenstud.tournament.structure import STANDARD, Level, Structure, StructureError, _whole

Kind = Literal["sit_and_go", "scheduled"]


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """A tournament's template. Chips and prices are whole play chips.

    A ``sit_and_go`` starts the moment its ``seats`` are full (one table: 2, 6 or 8 seats, or
    any of 2 to 8); a ``scheduled`` tournament starts at ``start_at`` if ``min_field`` have
    registered, and is cancelled and refunded otherwise."""

    kind: Kind = "sit_and_go"
    game: GameCode = "stud8"
    rotation: tuple[GameCode, ...] = ()
    """Games dealt in turn, one a level (empty: ``game`` throughout); a level's own ``game`` wins."""
    buy_in: int = 100
    """What goes into the prize pool for an entry."""
    fee: int = 10
    """The house's fee for an entry, on top of the buy-in; never in the prize pool."""
    starting_chips: int = 1500
    seats: int = 8
    """Seats per table (2 to 8)."""
    max_entries: int = 8
    """A sit-and-go's field; the most entries a scheduled tournament takes."""
    structure: Structure = STANDARD
    start_at: float | None = None
    """A scheduled tournament's start, in the caller's time."""
    min_field: int = 2
    late_registration_levels: int = 0
    """Registration stays open until the end of this level (0: closes at the start)."""
    re_entries: int = 0
    """How many more times a busted player may buy in again during late registration."""
    rebuy_levels: int = 0
    """Rebuys are on until the end of this level (0: no rebuys)."""
    rebuy_limit: int = 0
    """The most rebuys one player may make (0 with ``rebuy_levels``: as many as they like)."""
    rebuy_chips: int = 0
    """Chips a rebuy buys (0: the starting chips)."""
    rebuy_seconds: float = 20.0
    """How long a busted player has to rebuy before they are out."""
    add_on_chips: int = 0
    """Chips of the one add-on each player may take once rebuys are over (0: no add-on)."""
    add_on_price: int = 0
    """Its price, into the prize pool (0: the buy-in)."""
    paid_places_override: tuple[int, ...] = field(default=())
    """Prize shares in percent, first place first, instead of the payout table by field size."""

    def __post_init__(self) -> None:
        if self.kind not in ("sit_and_go", "scheduled"):
            raise StructureError(f"unknown kind of tournament {self.kind!r}")
        for code in (self.game, *self.rotation):
            if code not in GAMES:
                raise StructureError("unknown_game", game=repr(code), games=", ".join(GAMES))
        for name in ("buy_in", "fee", "re_entries", "rebuy_levels", "rebuy_limit", "rebuy_chips"):
            _whole(name, getattr(self, name))
        for name in ("add_on_chips", "add_on_price", "late_registration_levels"):
            _whole(name, getattr(self, name))
        _whole("starting_chips", self.starting_chips, 1)
        if not 2 <= _whole("seats", self.seats) <= 8:
            raise StructureError(f"a table has 2 to 8 seats, not {self.seats}")
        _whole("max_entries", self.max_entries, 2)
        _whole("min_field", self.min_field, 2)
        if self.kind == "sit_and_go" and self.max_entries > self.seats:
            raise StructureError("sit_and_go_entries")
        if self.kind == "scheduled" and self.start_at is None:
            raise StructureError("scheduled_needs_start")
        if self.structure.level(0).ante + self.structure.level(0).bring_in > self.starting_chips:
            raise StructureError("the starting chips must cover the first level's ante and bring-in")
        if self.paid_places_override and sum(self.paid_places_override) != 100:
            raise StructureError("prize shares must add up to 100 percent")

    @property
    def entry_price(self) -> int:
        """What an entry costs a player: buy-in plus fee."""
        return self.buy_in + self.fee

    def level(self, index: int) -> Level:
        """The level at ``index`` (the structure's last one past its end)."""
        return self.structure.level(index)

    def game_at(self, index: int) -> GameCode:
        """The game dealt at level ``index``: the level's own, else the rotation's, else ``game``."""
        own = self.structure.level(index).game
        if own is not None:
            return own
        if self.rotation:
            return self.rotation[index % len(self.rotation)]
        return self.game

    def game_of(self, index: int) -> Game:
        """The game dealt at level ``index``, with its stakes and the TDA's stud rulings
        (:func:`~sevenstud.games.tournament_game`): the one game every table of the
        tournament deals at that level."""
        return self.structure.game_of(index, self.game_at(index))


# What the director tells the card room. Each is a plain value; the caller carries it out
# (seats a player at a Table, pays a prize through the ledger ...) in the same step.


@dataclass(frozen=True, slots=True)
class Seat:
    """Seat ``player`` at ``table`` in ``seat`` with ``chips`` (at the start, a late entry, a
    re-entry, or a move: then ``from_table`` says where they came from)."""

    player: str
    table: int
    seat: int
    chips: int
    from_table: int | None = None


@dataclass(frozen=True, slots=True)
class AddChips:
    """A rebuy or an add-on: ``chips`` more for ``player``, who paid ``price`` into the pool."""

    player: str
    chips: int
    price: int
    kind: Literal["rebuy", "add_on"]


@dataclass(frozen=True, slots=True)
class CloseTable:
    """Table ``table`` is broken: its players have been seated elsewhere."""

    table: int


@dataclass(frozen=True, slots=True)
class NewLevel:
    """Level ``index`` (0 is the first) from the next hand dealt on every table."""

    index: int
    level: Level
    game: GameCode


@dataclass(frozen=True, slots=True)
class Break:
    """A break for every table, from ``start`` to ``end`` (hands in progress end first)."""

    start: float
    end: float


@dataclass(frozen=True, slots=True)
class HandForHand:
    """Hand-for-hand play starts (``on``) or ends: each table deals one hand, then waits for all."""

    on: bool


@dataclass(frozen=True, slots=True)
class Finish:
    """``player`` finished in ``place`` (shared with ``tied`` others) and wins ``prize`` chips."""

    player: str
    place: int
    prize: int
    tied: int = 1


@dataclass(frozen=True, slots=True)
class Deal:
    """The ICM deal: ``proposed`` by ``player``, ``accepted`` by ``player``, ``off`` (declined by
    ``player``, or with ``player`` empty: not agreed in time, or no deal left to make), or
    ``done`` (every player left agreed: their ``Finish`` commands come with it)."""

    state: Literal["proposed", "accepted", "off", "done"]
    player: str


@dataclass(frozen=True, slots=True)
class Refund:
    """``player`` gets ``amount`` back (unregistering, or a cancelled tournament)."""

    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class Status:
    """The tournament's state changed: ``registering``, ``running``, ``break``, ``finished``
    or ``cancelled``."""

    state: str


Command = Seat | AddChips | CloseTable | NewLevel | Break | HandForHand | Finish | Deal | Refund | Status
"""Everything the director may answer."""


def game_of(settings: TournamentSettings, index: int) -> Game:
    """The game (with its stakes and the TDA's rulings) dealt at level ``index`` of a
    tournament: :meth:`TournamentSettings.game_of`, for the card room's tournaments."""
    return settings.game_of(index)
