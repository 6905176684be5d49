"""The tensor a seat observes: the cards it has seen and the betting so far (docs/rl.md).

Every environment in :mod:`sevenstud.rl` builds its observation here, from the seat's own
:class:`~sevenstud.views.SeatView` (:meth:`Hand.view <sevenstud.hand.Hand.view>`, already
redacted by the engine) and from the public :class:`~sevenstud.events.ActionTaken` events: an
observation can hold no card the seat may not see, because the view it is made from has none.

Seats are counted from the observer: row 0 is the observer's own seat, row 1 the next seat
clockwise, and so on, so that one policy serves every seat. The layout, for ``n`` seats
(:class:`Layout` gives each block's offset):

- ``cards``: ``n x 7 x 52``, 1 where the observer sees card ``c`` as the ``k``-th card dealt to
  seat ``r`` (its own down cards included, another seat's only once shown or turned face up);
- ``hidden``: ``n x 7``, 1 where a card was dealt that the observer cannot see;
- ``community``: ``52``, the community card of an eight-handed 7th street;
- ``betting``: ``5 streets x n x 5``: on each street, for each seat, whether it brought in, how
  many times it completed, bet or raised, how many times it called, how many times it checked,
  and the chips it put in (in big bets);
- ``folded``, ``all_in``, ``stack`` (chips left over all chips at the table), ``seat`` (the
  observer's own seat number, one-hot), ``bring_in`` (who brought in, relative), ``n`` each;
- ``street``: 5 (one-hot, 3rd to 7th), then ``to_act`` (1 when the observer is to act), ``pot``
  (over all chips at the table) and ``over`` (1 once the hand is over).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from sevenstud.actions import ACTION_COUNT, ActionIndex, ActionKind, legal_mask
from sevenstud.events import ActionTaken
from sevenstud.views import Phase, SeatView

STREETS = 5
"""3rd to 7th street."""
SLOTS = 7
"""The most cards a seat is dealt."""
BET_FEATURES = 5
"""Per street and seat: brought in, aggressive actions, calls, checks, chips in big bets."""
_AGGRESSIVE = (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE)

ObsArray = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each block of the observation lies, for ``n`` seats."""

    n: int
    cards: int = field(init=False)
    hidden: int = field(init=False)
    community: int = field(init=False)
    betting: int = field(init=False)
    folded: int = field(init=False)
    all_in: int = field(init=False)
    stack: int = field(init=False)
    seat: int = field(init=False)
    bring_in: int = field(init=False)
    street: int = field(init=False)
    to_act: int = field(init=False)
    pot: int = field(init=False)
    over: int = field(init=False)
    size: int = field(init=False)

    def __post_init__(self) -> None:
        n = self.n
        offset = 0
        sizes = (
            ("cards", n * SLOTS * 52),
            ("hidden", n * SLOTS),
            ("community", 52),
            ("betting", STREETS * n * BET_FEATURES),
            ("folded", n),
            ("all_in", n),
            ("stack", n),
            ("seat", n),
            ("bring_in", n),
            ("street", STREETS),
            ("to_act", 1),
            ("pot", 1),
            ("over", 1),
        )
        for name, size in sizes:
            object.__setattr__(self, name, offset)
            offset += size
        object.__setattr__(self, "size", offset)

    def high(self) -> ObsArray:
        """The largest value each entry can take (for a ``Box`` space): 1, except the betting
        counts (at most ``7`` actions of one kind a street per seat is far above any cap) and
        the chips (in big bets, bounded by the table's chips, given as a generous 1e6)."""
        high = np.ones(self.size, np.float32)
        block = high[self.betting : self.folded].reshape(STREETS, self.n, BET_FEATURES)
        block[:, :, 1:4] = 64.0
        block[:, :, 4] = 1e6
        return high


class BettingLog:
    """The betting so far, by street and seat (absolute seats), kept up to date from the public
    :class:`ActionTaken` events: one per hand, shared by every observer (it is public). It also
    keeps, for each observer, the card entries of its last observation while the view's card
    table is the same object (the engine makes a new one whenever a card is dealt, shown or
    turned up): the cards are most of an observation and change only then."""

    __slots__ = ("big_bet", "cards_seen", "n", "table")

    def __init__(self, n: int, big_bet: int) -> None:
        self.n = n
        self.big_bet = float(big_bet)
        self.table: npt.NDArray[np.float32] = np.zeros((STREETS, n, BET_FEATURES), np.float32)
        self.cards_seen: dict[int, tuple[object, list[int]]] = {}

    def reset(self) -> None:
        """A new hand."""
        self.table.fill(0.0)
        self.cards_seen.clear()

    def record(self, events: Iterable[object]) -> None:
        """Count the actions among ``events`` (any other event is passed over)."""
        table = self.table
        for event in events:
            if type(event) is not ActionTaken:
                continue
            kind = event.action.kind
            row = table[event.street - 3, event.seat]
            if kind is ActionKind.BRING_IN:
                row[0] = 1.0
            elif kind in _AGGRESSIVE:
                row[1] += 1.0
            elif kind is ActionKind.CALL:
                row[2] += 1.0
            elif kind is ActionKind.CHECK:
                row[3] += 1.0
            if event.chips:
                row[4] += event.chips / self.big_bet


def encode(
    view: SeatView,
    betting: BettingLog,
    layout: Layout,
    total_chips: int,
    bring_in_seat: int | None,
    out: ObsArray | None = None,
) -> ObsArray:
    """The observation of ``view``'s seat (see the module's documentation), written into
    ``out`` (a zeroed array is made when it is None; ``out`` is cleared first)."""
    seat = view.seat
    if seat is None:
        raise ValueError("an observation is a seat's: a spectator's view has no seat")
    n = layout.n
    if out is None:
        out = np.zeros(layout.size, np.float32)
    else:
        out.fill(0.0)
    known = betting.cards_seen.get(seat)
    if known is not None and known[0] is view.cards:
        ones = known[1][:]
    else:
        ones = []
        cards_at, hidden_at = layout.cards, layout.hidden
        for seat_cards, r in _by_relative_seat(view.cards, seat, n):
            for k, card in enumerate(seat_cards):
                if card is None:
                    ones.append(hidden_at + r * SLOTS + k)
                else:
                    ones.append(cards_at + (r * SLOTS + k) * 52 + card)
        betting.cards_seen[seat] = (view.cards, ones[:])
    if view.community is not None:
        ones.append(layout.community + view.community)
    for s in range(n):
        r = (s - seat) % n
        if view.folded[s]:
            ones.append(layout.folded + r)
        elif view.stacks[s] == 0:
            ones.append(layout.all_in + r)
    ones.append(layout.seat + seat)
    if bring_in_seat is not None:
        ones.append(layout.bring_in + (bring_in_seat - seat) % n)
    ones.append(layout.street + view.street - 3)
    if view.to_act == seat:
        ones.append(layout.to_act)
    if view.phase is Phase.OVER:
        ones.append(layout.over)
    out[ones] = 1.0
    # Rows rotated so that the observer's seat comes first (two slices: np.roll costs more).
    block = out[layout.betting : layout.folded].reshape(STREETS, n, BET_FEATURES)
    table = betting.table
    block[:, : n - seat] = table[:, seat:]
    if seat:
        block[:, n - seat :] = table[:, :seat]
    stacks = view.stacks
    out[layout.stack : layout.stack + n] = stacks[seat:] + stacks[:seat]
    out[layout.stack : layout.stack + n] /= total_chips
    out[layout.pot] = view.pot / total_chips
    return out


def _by_relative_seat(
    cards: tuple[tuple[object, ...], ...], seat: int, n: int
) -> Iterable[tuple[tuple[int | None, ...], int]]:
    for s, row in enumerate(cards):
        yield row, (s - seat) % n  # type: ignore[misc]


def mask_of(view: SeatView) -> npt.NDArray[np.int8]:
    """The legal actions of ``view``'s seat as an ``int8`` mask over the numbered action set
    (:class:`~sevenstud.actions.ActionIndex`; all zero when it is not the seat's turn)."""
    return np.fromiter(legal_mask(view), np.int8, count=ACTION_COUNT)


def decode_cards(observation: ObsArray, layout: Layout) -> dict[int, list[int | None]]:
    """The cards an observation says its seat sees, by relative seat and dealing slot (None:
    dealt but hidden), for tests and for reading an observation by eye."""
    cards = observation[layout.cards : layout.hidden].reshape(layout.n, SLOTS, 52)
    hidden = observation[layout.hidden : layout.community].reshape(layout.n, SLOTS)
    out: dict[int, list[int | None]] = {}
    for r in range(layout.n):
        row: list[int | None] = []
        for k in range(SLOTS):
            seen = np.flatnonzero(cards[r, k])
            if len(seen) > 1:
                raise ValueError(f"relative seat {r}, card {k}: {len(seen)} cards at once")
            if len(seen):
                row.append(int(seen[0]))
            elif hidden[r, k]:
                row.append(None)
        out[r] = row
    return out


ACTION_NAMES: tuple[str, ...] = tuple(i.name.lower().replace("_", "-") for i in ActionIndex)
"""The numbered actions' names, by index (``fold``, ``check``, ``call``, ``bring-in``, ...)."""
