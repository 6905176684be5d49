"""Stud's dealing order: each seat's cards turned into the order the dealer deals them.

The dealer gives two down cards and the door card to everyone, one card at a time clockwise
from seat 0, then one card a street to the players still in; when the deck cannot give every
player still in a 7th-street card, one community card is turned up in its place. A replayer, a
test that sets up a hand, or a table that deals a chosen hand writes each seat's cards in the
order that seat got them and lets :func:`dealing_order` (or :func:`deck_for`) put them in the
deck's order; a seat that folded simply has fewer cards.

>>> deck = deck_for(["As Kd 7h 2c", "Qs Qd 3h"])
>>> [str(c) for c in deck.cards[:7]]
['As', 'Qs', 'Kd', 'Qd', '7h', '3h', '2c']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from sevenstud.cards import Card, CardError, parse_cards
from sevenstud.deck import Deck

T = TypeVar("T")

COMMUNITY: None = None
"""The seat of the community card in :func:`deal_slots` (it is nobody's)."""


class DealingError(ValueError):
    """Cards per seat that stud cannot deal (more than seven, or a 7th card and a community card)."""


def deal_slots(counts: Sequence[int], community: bool = False) -> list[tuple[int | None, int]]:
    """Each card's (seat, place in that seat's hand) in dealing order, for seats holding
    ``counts[seat]`` cards: rounds one card a seat in seat order, the community card (seat
    :data:`COMMUNITY`, place 6) instead of the 7th round when ``community``."""
    for seat, count in enumerate(counts):
        if not 0 <= count <= 7:
            raise DealingError(f"seat {seat} cannot be dealt {count} cards (stud deals 0 to 7)")
        if community and count == 7:
            raise DealingError(
                f"seat {seat} has a 7th card and there is a community card (it is dealt "
                "instead of the 7th-street cards)"
            )
    slots: list[tuple[int | None, int]] = []
    for place in range(7):
        if place == 6 and community:
            slots.append((COMMUNITY, 6))
            continue
        slots.extend((seat, place) for seat, count in enumerate(counts) if count > place)
    return slots


def dealing_order(hands: Sequence[Sequence[T]], community: T | None = None) -> list[T]:
    """The cards of ``hands`` (per seat, in the order that seat got them) and the
    ``community`` card, in the order the dealer deals them (see :func:`deal_slots`)."""
    slots = deal_slots([len(h) for h in hands], community is not None)
    order: list[T] = []
    for seat, place in slots:
        if seat is None:
            assert community is not None  # deal_slots gives the community slot only then
            order.append(community)
        else:
            order.append(hands[seat][place])
    return order


def deck_for(
    hands: Sequence[str | Iterable[str | int]], community: str | int | None = None
) -> Deck:
    """The deck that deals ``hands`` (per seat, its cards in dealing order, as text such as
    ``"As Kd 7h"`` or cards) and then the ``community`` card; the other cards follow in card
    order. A card twice is a :class:`~sevenstud.cards.CardError`."""
    cards: list[list[Card]] = [parse_cards(h) for h in hands]
    shared: Card | None = None
    if community is not None:
        parsed = parse_cards([community] if isinstance(community, int) else community)
        if len(parsed) != 1:
            raise CardError(f"one community card, not {len(parsed)} ({community!r})")
        shared = parsed[0]
    return Deck.ordered(dealing_order(cards, shared))
