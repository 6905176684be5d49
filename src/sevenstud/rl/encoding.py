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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from sevenstud.actions import ACTION_COUNT, ActionIndex, ActionKind, legal_mask
from sevenstud.cards import Card
from sevenstud.events import ActionTaken
from sevenstud.views import Phase, SeatView

if TYPE_CHECKING:
    from sevenstud.hand import Hand

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
        self.cards_seen: dict[int, tuple[object, npt.NDArray[np.float32]]] = {}

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
    ``out`` (a new array is made when it is None; whatever ``out`` held is overwritten)."""
    seat = view.seat
    if seat is None:
        raise ValueError("an observation is a seat's: a spectator's view has no seat")
    return _encode(
        seat, view.cards, view.community, view.folded, view.stacks, view.street,
        view.to_act == seat, view.phase is Phase.OVER, view.pot, betting, layout, total_chips,
        bring_in_seat, out,
    )  # fmt: skip


def encode_hand(
    hand: Hand,
    seat: int,
    betting: BettingLog,
    layout: Layout,
    total_chips: int,
    out: ObsArray | None = None,
) -> ObsArray:
    """:func:`encode` of ``hand.view(seat)``, the same array, without building the whole view:
    the cards come from :meth:`Hand.card_table <sevenstud.hand.Hand.card_table>` (the view's
    own redacted card table), the rest is public (stacks, pot, folds, the street, who acts)."""
    return _encode(
        seat, hand.card_table(seat)[0], hand.community, hand.folded, hand.stacks, hand.street,
        hand.to_act == seat, hand.phase is Phase.OVER, sum(hand.contributed), betting, layout,
        total_chips, hand.bring_in_seat, out,
    )  # fmt: skip


def _encode(
    seat: int,
    cards: tuple[tuple[Card | None, ...], ...],
    community: Card | None,
    folded: Sequence[bool],
    stacks: Sequence[int],
    street: int,
    to_act: bool,
    over: bool,
    pot: int,
    betting: BettingLog,
    layout: Layout,
    total_chips: int,
    bring_in_seat: int | None,
    out: ObsArray | None,
) -> ObsArray:
    n = layout.n
    # The card entries change only when the card table does (the engine makes a new one
    # whenever a card is dealt, shown or turned up): kept per observer, with the rest zero.
    known = betting.cards_seen.get(seat)
    if known is not None and known[0] is cards:
        base = known[1]
    else:
        # A new street only adds cards at the end of each row: then only those are written,
        # into a copy of the last array (a card shown or turned up changes a row: all again).
        old = None if known is None else known[0]
        ones = []
        cards_at, hidden_at = layout.cards, layout.hidden
        for s, seat_cards in enumerate(cards):
            r = (s - seat) % n
            start = 0
            if old is not None:
                was = old[s]  # type: ignore[index]
                start = len(was)
                if seat_cards[:start] != was:
                    old = None
                    break
            for k in range(start, len(seat_cards)):
                card = seat_cards[k]
                if card is None:
                    ones.append(hidden_at + r * SLOTS + k)
                else:
                    ones.append(cards_at + (r * SLOTS + k) * 52 + card)
        if old is None:
            ones = []
            for s, seat_cards in enumerate(cards):
                r = (s - seat) % n
                for k, card in enumerate(seat_cards):
                    if card is None:
                        ones.append(hidden_at + r * SLOTS + k)
                    else:
                        ones.append(cards_at + (r * SLOTS + k) * 52 + card)
            base = np.zeros(layout.size, np.float32)
        else:
            assert known is not None
            base = known[1].copy()
        base[ones] = 1.0
        betting.cards_seen[seat] = (cards, base)
    if out is None:
        out = base.copy()
    else:
        out[:] = base
    if community is not None:
        out[layout.community + community] = 1.0
    # Rows rotated so that the observer's seat comes first (two slices: np.roll costs more).
    table = betting.table
    if seat:
        block = out[layout.betting : layout.folded].reshape(STREETS, n, BET_FEATURES)
        block[:, : n - seat] = table[:, seat:]
        block[:, n - seat :] = table[:, :seat]
    else:
        out[layout.betting : layout.folded] = table.reshape(-1)
    # Everything after the betting, in one list: folded, all_in, stack, seat, bring_in (n
    # each), street (5), to_act, pot, over.
    tail = [0.0] * (layout.size - layout.folded)
    for r in range(n):
        s = seat + r
        if s >= n:
            s -= n
        if folded[s]:
            tail[r] = 1.0
        elif not stacks[s]:
            tail[n + r] = 1.0
        tail[2 * n + r] = stacks[s] / total_chips
    tail[3 * n + seat] = 1.0
    if bring_in_seat is not None:
        tail[4 * n + (bring_in_seat - seat) % n] = 1.0
    tail[5 * n + street - 3] = 1.0
    if to_act:
        tail[5 * n + STREETS] = 1.0
    tail[5 * n + STREETS + 1] = pot / total_chips
    if over:
        tail[5 * n + STREETS + 2] = 1.0
    out[layout.folded :] = tail
    return out


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
