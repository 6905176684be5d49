"""A table's waiting list and the seats offered from it.

A player may join the list only when no seat is free; a seat that comes free is offered to the
first in line who holds no offer, for :data:`OFFER_SECONDS`; an offer that lapses goes to the
next, and its player off the list (they missed the call). The list is stored by the keeper (the
same after a restart); the offers are the room's alone. It runs on the table's actor
(:class:`sevenstud.server.tables.room.Room`), which tells each player what concerns them.
"""

from __future__ import annotations

from collections.abc import Callable

from sevenstud.server.protocol import Outgoing, SeatOffered, Waiting
from sevenstud.server.tables.keeper import RoomError, TableKeeper

OFFER_SECONDS = 30.0
"""How long a seat offered from the waiting list is kept for the one it is offered to."""


class WaitingList:
    """One table's waiting list, first in line first, and the seats offered from it.
    ``tell(player, message)`` gives a player's connections a message after the entries of the
    step (see :meth:`sevenstud.server.tables.room.Room._tell`)."""

    def __init__(
        self,
        keeper: TableKeeper,
        tell: Callable[[str, Outgoing], None],
        offer_seconds: float = OFFER_SECONDS,
    ) -> None:
        self.keeper = keeper
        self.tell = tell
        self.offer_seconds = offer_seconds
        self.players: list[str] = keeper.waiting_list()
        """The waiting list, first in line first (stored: the same after a restart)."""
        self.offers: dict[int, tuple[str, float]] = {}
        """Seats offered from the waiting list: to whom, until when."""

    def free_seats(self) -> list[int]:
        """The empty seats nobody has been offered."""
        table = self.keeper.table
        return [
            n
            for n in range(1, table.settings.seats + 1)
            if table.player_at(n) is None and n not in self.offers
        ]

    def check_seat(self, player: str, seat: int) -> None:
        """Refuse a seat offered to someone else from the waiting list."""
        offer = self.offers.get(seat)
        if offer is not None and offer[0] != player:
            raise RoomError("seat_offered_until", seat=seat, until=f"{offer[1]:.0f}")

    def seated(self, player: str, seat: int) -> None:
        """A player took a seat: off the waiting list, the offer used."""
        if self.offers.get(seat, ("", 0.0))[0] == player:
            del self.offers[seat]
        if player in self.players:
            self._drop(player)  # the sit-down's own write took them off the stored list

    def join(self, player: str, now: float) -> int:
        """Put a player on the waiting list (only when no seat is free); returns the place."""
        if player in self.keeper.occupants:
            raise RoomError("seated_already")
        if player in self.players:
            raise RoomError("waiting_already", number=self.players.index(player) + 1)
        free = self.free_seats()
        if free:
            raise RoomError("seat_free_sit", seat=free[0])
        self.keeper.wait(player, now)
        self.players.append(player)
        self.tell(player, self.place(player))
        return len(self.players)

    def leave(self, player: str, now: float) -> None:
        """Take a player off the waiting list (a seat offered to them goes to the next)."""
        if player not in self.players:
            raise RoomError("not_waiting")
        self.keeper.stop_waiting(player)
        self._drop(player)
        self.tell(player, self.place(player))

    def _drop(self, player: str) -> None:
        """Off the list as this room holds it (the stored list is the caller's to change)."""
        self.players.remove(player)
        for seat in [n for n, (whom, _) in self.offers.items() if whom == player]:
            del self.offers[seat]
        for other in self.players:
            self.tell(other, self.place(other))

    def place(self, player: str | None) -> Waiting:
        """The ``waiting`` message: the player's place on the list (None: not on it) and its length."""
        waiting = self.players
        place = waiting.index(player) + 1 if player is not None and player in waiting else None
        return Waiting(
            number=self.keeper.number, table=self.keeper.table_id, position=place, waiting=len(waiting)
        )

    def offer(self, seat: int, until: float) -> SeatOffered:
        """The ``seat_offered`` message: ``seat`` is kept for its player until ``until``."""
        return SeatOffered(number=self.keeper.number, table=self.keeper.table_id, seat=seat, until=until)

    def offers_to(self, player: str | None) -> list[SeatOffered]:
        """The ``seat_offered`` messages of the seats offered to ``player`` now."""
        return [
            self.offer(seat, until)
            for seat, (whom, until) in self.offers.items()
            if whom is not None and whom == player
        ]

    def offer_seats(self, now: float) -> None:
        """Lapsed offers go (and their player off the list: they missed the call); every free
        seat is offered, in order, to the first waiting who holds no offer."""
        for seat, (whom, until) in list(self.offers.items()):
            if until <= now or self.keeper.table.player_at(seat) is not None:
                del self.offers[seat]
                if until <= now and whom in self.players:
                    self.keeper.stop_waiting(whom)
                    self._drop(whom)
                    self.tell(whom, self.place(whom))
        holding = {whom for whom, _ in self.offers.values()}
        line = [p for p in self.players if p not in holding]
        for seat in self.free_seats():
            if not line:
                break
            whom = line.pop(0)
            until = now + self.offer_seconds
            self.offers[seat] = (whom, until)
            self.tell(whom, self.offer(seat, until))
