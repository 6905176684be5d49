"""What a table says, built from its keeper: the messages a connection is sent (``welcome``,
``snapshot``, ``clock``, ``your_turn``, ``view``, ``hand_cancelled``, ``table_closed``) and the
lobby's copy of the table (:class:`LobbyCopy`).

Nothing here decides or sends: the table's actor (:class:`~sevenstud.server.tables.room.Room`)
decides, its fan-out (:class:`~sevenstud.server.tables.fanout.FanOut`) sends what this builds,
each connection's copy redacted for the seat it sees for at that send.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from sevenstud.server.i18n import translation
from sevenstud.server.protocol import (
    Clock,
    ClosedWhy,
    HandCancelled,
    Refund,
    Snapshot,
    TableClosed,
    ViewMessage,
    Welcome,
    YourTurn,
)
from sevenstud.server.tables.keeper import CancelledHand, TableKeeper
from sevenstud.server.tables.presenter import Presenter, action_choices
from sevenstud.wire import to_wire

CLOSED_WHY = ("closed", "broken", "tournament_over", "house_closed")
"""Why a table closed for good (``table_closed``'s ``reason``): a cash table the card room
closed (nobody played at it for a while), a tournament table broken up (its players moved to
the others), a tournament table closed as its tournament ended, one of the house's standing
tables an operator closed (after its hand in progress)."""


def table_closed(
    table_id: int, reason: ClosedWhy, tournament: int | None = None, number: int = 0
) -> TableClosed:
    """The ``table_closed`` message: the table has closed for good, why (:data:`CLOSED_WHY`),
    and its tournament (None: a cash table); ``number`` the table's last (:meth:`Room.stop
    <sevenstud.server.tables.room.Room.stop>` gives it the table's as it is sent)."""
    return TableClosed(table=table_id, reason=reason, tournament=tournament, number=number)


def turn_number(keeper: TableKeeper) -> int | None:
    """The stream number of the turn running now (None: nobody is on the clock)."""
    return keeper.turn.number if keeper.turn is not None else None


class TableMessages:
    """The messages of one table, built from its keeper as it is at the moment asked.
    ``clock`` is the server's clock (a ``clock`` message's ``server_time``), ``now`` the time
    as the table is told it (never going backwards), ``grace`` the seconds a turn's deadline is
    stretched by."""

    def __init__(
        self, keeper: TableKeeper, *, clock: Callable[[], float], now: Callable[[], float], grace: float
    ) -> None:
        self.keeper = keeper
        self.clock = clock
        self.now = now
        self.grace = grace
        self.presenter = Presenter(keeper.table)

    def welcome(self, seat: int | None) -> Welcome:
        """The ``welcome`` message for a connection seeing for ``seat`` (None: a spectator)."""
        return Welcome(
            table=self.keeper.table_id,
            seat=seat,
            number=self.keeper.table.number,
            server_time=self.now(),
            grace=self.grace,
        )

    def cancelled(self, cancelled: CancelledHand) -> HandCancelled:
        """The ``hand_cancelled`` message: a hand a restart cut off, cancelled and refunded."""
        return HandCancelled(
            number=self.keeper.number,
            table=self.keeper.table_id,
            hand=cancelled.hand,
            refunds=[Refund(seat=seat, player=who, amount=amount) for seat, who, amount in cancelled.refunds],
        )

    def snapshot(self, seat: int | None) -> Snapshot:
        """The ``snapshot`` message: the table now, as ``seat`` (None: a spectator) may see it."""
        # Its ``now`` the server's clock as it is sent, not the table's last command (a quiet
        # table's, or a table just restarted, none): a client takes the time left from it.
        view = dataclasses.replace(self.keeper.table.view(seat), now=self.now())
        return Snapshot(number=view.number, view=to_wire(view))

    def view(
        self, seat: int | None, player: str | None, lang: str, may_seat_bots: bool = False
    ) -> ViewMessage:
        """The ``view`` message for a connection of ``player`` seeing for ``seat`` now, in
        ``lang`` (see :mod:`sevenstud.server.tables.presenter`)."""
        bots = [name for name, o in self.keeper.occupants.items() if o.bot is not None]
        return self.presenter.message(self.keeper.table, seat, player, bots, lang, may_seat_bots)

    def clock_message(self) -> Clock | None:
        """The ``clock`` message of the turn running now (None: nobody is on the clock)."""
        turn = self.keeper.turn
        if turn is None:
            return None
        return Clock(
            number=turn.number,
            hand=turn.hand,
            street=turn.street,
            seat=turn.seat,
            act_by=turn.act_by,
            deadline=turn.deadline,
            grace=self.grace,
            server_time=self.clock(),
        )

    def your_turn(self, seat: int, lang: str = "en") -> YourTurn | None:
        """The ``your_turn`` message for the connections of the player in ``seat``, when that
        seat is to act: the turn's deadlines and every legal action with its amounts."""
        turn, table = self.keeper.turn, self.keeper.table
        if turn is None or table.to_act != seat or turn.seat != seat:
            return None
        return YourTurn(
            number=turn.number,
            hand=turn.hand,
            street=turn.street,
            seat=seat,
            act_by=turn.act_by,
            deadline=turn.deadline,
            actions=action_choices(table.legal_actions(), table.street_bet(seat), translation(lang)),
        )


@dataclasses.dataclass(slots=True)
class LobbyCopy:
    """What the lobby shows of a table, copied out on its actor after each step (:meth:`copy`)
    so that it is read elsewhere without asking the actor."""

    opened_at: float
    playing: bool = False
    """Whether a hand is in progress."""
    taken: int = 0
    seated_names: tuple[str, ...] = ()
    """Who sits at the table (bots too)."""
    bots: int = 0
    """How many bots sit at the table."""
    recent: tuple[tuple[float, int], ...] = ()
    """The last hands' (end, pot)."""

    def copy(self, keeper: TableKeeper) -> None:
        """Copy the table as it is now (on the actor)."""
        self.playing = keeper.table.hand_in_progress
        self.taken = len(keeper.occupants)
        self.seated_names = keeper.table.players
        self.bots = sum(1 for o in keeper.occupants.values() if o.bot is not None)

    def line(self, now: float, waiting: int, watchers: int) -> dict[str, Any]:
        """The table's line in the lobby: seats taken, waiting list (``waiting`` people),
        ``watchers``, average pot (of its last hands) and hands per hour (over the last hour,
        or since it opened when younger)."""
        recent = self.recent
        window = max(60.0, min(3600.0, now - self.opened_at))
        last_hour = sum(1 for ended, _ in recent if ended >= now - window)
        return {
            "taken": self.taken,
            "bots": self.bots,
            "players": list(self.seated_names),
            "waiting": waiting,
            "watchers": watchers,
            "average_pot": round(sum(pot for _, pot in recent) / len(recent), 1) if recent else 0.0,
            "hands_per_hour": round(last_hour * 3600.0 / window, 1),
        }


__all__ = ["CLOSED_WHY", "LobbyCopy", "TableMessages", "table_closed", "turn_number"]
