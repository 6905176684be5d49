"""Seats at a tournament's tables: the random draw, balancing by position as stud does, and
breaking tables into open seats. Pure functions over the director's table state.

docs/tournaments.md says why each choice is the one a stud tournament makes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass(slots=True)
class TableSeats:
    """One tournament table as the director sees it: who sits where, whether a hand is being
    played, and the order its seats opened (the last one opened is the next one filled)."""

    number: int
    seats: int
    players: dict[int, str] = field(default_factory=dict)
    in_hand: bool = False
    opened: list[int] = field(default_factory=list)
    hands_in_level: int = 0
    round_played: int = -1
    """The hand-for-hand round this table last dealt in."""

    def free_seats(self) -> list[int]:
        """The empty seats, lowest first."""
        return [s for s in range(1, self.seats + 1) if s not in self.players]

    def seat_of(self, player: str) -> int:
        """Where ``player`` sits here (KeyError if not here)."""
        for seat, name in self.players.items():
            if name == player:
                return seat
        raise KeyError(player)

    def take(self, seat: int, player: str) -> None:
        """``player`` sits down in ``seat``."""
        assert seat not in self.players and 1 <= seat <= self.seats
        self.players[seat] = player
        if seat in self.opened:
            self.opened.remove(seat)

    def vacate(self, player: str) -> int:
        """``player`` leaves; their seat is the latest one opened."""
        seat = self.seat_of(player)
        del self.players[seat]
        self.opened.append(seat)
        return seat

    def seat_to_fill(self) -> int:
        """The seat a player moved here takes: the last one to open (stud: "players move by
        position; the last seat open at the short table is the seat filled"), else the lowest
        free one."""
        for seat in reversed(self.opened):
            if seat not in self.players:
                return seat
        return self.free_seats()[0]

    def player_for(self, seat: int) -> str:
        """The player a long table gives up to fill ``seat`` elsewhere: the one in the same seat
        number, else the next occupied seat clockwise (higher numbers, wrapping round)."""
        for step in range(self.seats):
            candidate = (seat - 1 + step) % self.seats + 1
            if candidate in self.players:
                return self.players[candidate]
        raise ValueError(f"table {self.number} has nobody to move")


def draw_seats(players: list[str], seats: int, rng: random.Random, first_table: int = 1) -> list[TableSeats]:
    """The opening draw: as few tables as hold everyone, their sizes within one of each other,
    every player at a random table and a random seat."""
    order = list(players)
    rng.shuffle(order)
    count = max(1, -(-len(order) // seats))
    tables = [TableSeats(first_table + i, seats) for i in range(count)]
    for index, player in enumerate(order):
        table = tables[index % count]
        seat = rng.choice(table.free_seats())
        table.take(seat, player)
    for table in tables:
        table.opened.clear()
    return tables


def random_open_seat(tables: list[TableSeats], rng: random.Random) -> tuple[TableSeats, int]:
    """A random seat for a player coming from a broken table, a late entry or a re-entry: a
    random table among the shortest ones with a seat free, then a random seat there (the
    two-step random draw), so that the tables stay balanced."""
    open_tables = [t for t in tables if len(t.players) < t.seats]
    if not open_tables:
        raise ValueError("no open seat at any table")
    fewest = min(len(t.players) for t in open_tables)
    table = rng.choice([t for t in open_tables if len(t.players) == fewest])
    return table, rng.choice(table.free_seats())


@dataclass(slots=True)
class TableIndex:
    """The tables' sizes counted by size (0 to 8 players), so that the director's questions
    asked after every hand are answered in constant time, whatever the number of tables: how
    many players are seated, how many tables have players, how many deal a hand now, and
    whether balancing has anything to do (the shortest open table against the longest one
    between hands). The director calls :meth:`update` after each change to a table and
    :meth:`rebuild` after changing many; :meth:`check` recounts (for the tests)."""

    seats: int
    _kept: dict[int, tuple[int, bool, bool]] = field(default_factory=dict)
    """Table number -> (players, open: not being broken, idle: between hands)."""
    all_sizes: list[int] = field(init=False)
    open_sizes: list[int] = field(init=False)
    open_idle_sizes: list[int] = field(init=False)
    seated: int = 0
    in_hand: int = 0

    def __post_init__(self) -> None:
        self.all_sizes = [0] * (self.seats + 1)
        self.open_sizes = [0] * (self.seats + 1)
        self.open_idle_sizes = [0] * (self.seats + 1)

    def _count(self, state: tuple[int, bool, bool], step: int) -> None:
        size, is_open, idle = state
        self.all_sizes[size] += step
        self.seated += step * size
        self.in_hand += step * (not idle)
        if is_open:
            self.open_sizes[size] += step
            if idle:
                self.open_idle_sizes[size] += step

    def update(self, table: TableSeats, breaking: set[int]) -> None:
        """Table ``table`` changed (its players, its hand, whether it is being broken)."""
        old = self._kept.get(table.number)
        if old is not None:
            self._count(old, -1)
        new = (len(table.players), table.number not in breaking, not table.in_hand)
        self._kept[table.number] = new
        self._count(new, 1)

    def remove(self, number: int) -> None:
        """Table ``number`` is closed."""
        old = self._kept.pop(number, None)
        if old is not None:
            self._count(old, -1)

    def rebuild(self, tables: dict[int, TableSeats], breaking: set[int]) -> None:
        """Count every table afresh."""
        self._kept.clear()
        self.__post_init__()
        self.seated = self.in_hand = 0
        for table in tables.values():
            self.update(table, breaking)

    @property
    def with_players(self) -> int:
        """How many tables have someone seated."""
        return len(self._kept) - self.all_sizes[0]

    def may_need_balancing(self) -> bool:
        """Whether an open table between hands has two or more players more than the shortest
        open table (then the director looks for which)."""
        shortest = next((s for s, n in enumerate(self.open_sizes) if n), None)
        longest = next((s for s in range(self.seats, -1, -1) if self.open_idle_sizes[s]), None)
        return shortest is not None and longest is not None and longest >= shortest + 2

    def check(self, tables: dict[int, TableSeats], breaking: set[int]) -> None:
        """Assert the counts are those of ``tables`` (the tests call it after every step)."""
        fresh = TableIndex(self.seats)
        fresh.rebuild(tables, breaking)
        assert self._kept == fresh._kept, (self._kept, fresh._kept)
        assert (self.all_sizes, self.open_sizes, self.open_idle_sizes) == (
            fresh.all_sizes,
            fresh.open_sizes,
            fresh.open_idle_sizes,
        )
        assert (self.seated, self.in_hand) == (fresh.seated, fresh.in_hand)
