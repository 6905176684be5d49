"""What a seat (or a spectator) may know of a hand: :class:`SeatView`, and the hand's
:class:`Phase`. A view is built by :meth:`Hand.view <sevenstud.hand.Hand.view>`, its cards and
events through :func:`sevenstud.events.redact`."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from sevenstud.actions import Action
from sevenstud.cards import Card
from sevenstud.events import Event, may_see, redact_all, turned_up_before
from sevenstud.pots import Pot

CardTable = tuple[tuple[tuple[Card | None, ...], ...], tuple[tuple[bool, ...], ...]]
"""Each seat's cards as a viewer sees them (None: hidden), and which of them are face up."""


class Phase(StrEnum):
    """Where the hand stands: betting, the showdown (seats show or muck in turn), or over. (Not
    "complete", which is the action of completing the bring-in.)"""

    BETTING = "betting"
    SHOWDOWN = "showdown"
    OVER = "over"


def with_community(cards: Sequence[Card], community: Card | None) -> list[Card]:
    """A seat's cards for naming or showing down: its own, and the community card once the deck
    ran short and it was dealt (it joins every hand still in: docs/rules.md, "Dealing and the streets", 8)."""
    return [*cards, community] if community is not None else list(cards)


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat (or a spectator, ``seat=None``) may know of the hand now."""

    seat: int | None
    game: str
    street: int
    phase: Phase
    to_act: int | None
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    """What each seat has put in on this street."""
    pot: int
    """Every chip in the middle, this street's bets included."""
    pots: tuple[Pot, ...]
    """The main pot and the side pots as they stand (:meth:`sevenstud.hand.Hand.pots_now`):
    while betting, a side pot only where a live player is all-in; at the showdown the pots it
    splits; once the hand is over, the pots as they were awarded (after the rake)."""
    folded: tuple[bool, ...]
    cards: tuple[tuple[Card | None, ...], ...]
    """Each seat's cards in dealing order; ``None`` for a card this viewer may not see."""
    face_up: tuple[tuple[bool, ...], ...]
    community: Card | None
    legal_actions: tuple[Action, ...]
    """Filled only when the viewer is the seat to act."""
    events: tuple[Event, ...]
    """Events from ``since`` on, with hidden cards blanked."""
    version: int
    """How many events the hand has recorded; ask ``view(seat, since=version)`` for what follows."""

    # A view is a value: a copy is the view itself, and a pickle calls the constructor (in the
    # compiled engine the frozen dataclass's own way, setting each slot, is refused).
    def __copy__(self) -> SeatView:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> SeatView:
        return self

    def __reduce__(self) -> tuple[type[SeatView], tuple[object, ...]]:
        return SeatView, tuple(getattr(self, f.name) for f in dataclasses.fields(self))


@dataclass(slots=True, init=False)
class ViewCache:
    """What a hand's views keep from one call to the next, so that a view costs less than an
    action: each viewer's redacted log (a tuple, extended as events come: a redacted event never
    changes, it says what was known when it happened) and each viewer's card table (dropped
    whenever a card is dealt, shown or turned up: :meth:`cards_changed`)."""

    seen: dict[int | None, tuple[Event, ...]]
    tables: dict[int | None, CardTable]

    def __init__(
        self,
        seen: dict[int | None, tuple[Event, ...]] | None = None,
        tables: dict[int | None, CardTable] | None = None,
    ) -> None:
        # Its own __init__ (init=False): mypyc compiles a dataclass's generated one as
        # interpreted code, and every hand makes a cache.
        self.seen = {} if seen is None else seen
        self.tables = {} if tables is None else tables

    def copy(self) -> ViewCache:
        """An independent copy (the tuples are shared: they are immutable)."""
        return ViewCache(dict(self.seen), dict(self.tables))

    def cards_changed(self) -> None:
        """A card was dealt, or a hand shown or turned face up: the card tables are stale."""
        self.tables.clear()

    def events_for(
        self, viewer: int | None, events: Sequence[Event], since: int, turned_up_at: int | None
    ) -> tuple[Event, ...]:
        """The log as ``viewer`` sees it, from ``since`` on (``turned_up_at``: the index of the
        hand's first :class:`~sevenstud.events.HandTurnedUp`, if any)."""
        seen = self.seen.get(viewer, ())
        done = len(seen)
        if done < len(events):
            opened = turned_up_before(events, done, turned_up_at)
            seen += tuple(redact_all(events[done:], viewer, opened))
            self.seen[viewer] = seen
        return seen[since:] if since else seen

    def table_for(
        self,
        viewer: int | None,
        cards: Sequence[Sequence[Card]],
        face_up: Sequence[Sequence[bool]],
        opened: set[int],
    ) -> CardTable:
        """Each seat's cards as ``viewer`` may see them (``opened``: the seats whose hands were
        shown or turned face up), and which are face up."""
        known = self.tables.get(viewer)
        if known is not None:
            return known
        public = self.tables.get(None)
        if public is None:
            rows = tuple(
                tuple(
                    c if may_see(s, None, up, opened) else None
                    for c, up in zip(cards[s], face_up[s], strict=True)
                )
                for s in range(len(cards))
            )
            public = self.tables[None] = (rows, tuple(tuple(f) for f in face_up))
        if viewer is None:
            return public
        # A seat sees what a spectator sees, and all of its own cards (may_see's owner clause):
        # one row differs, so a seat's table costs a tuple, not a pass over every card.
        rows = public[0]
        known = ((*rows[:viewer], tuple(cards[viewer]), *rows[viewer + 1 :]), public[1])
        self.tables[viewer] = known
        return known
