"""Who a text hand history writes at each seat, and whose down cards it writes: shared by the
PokerStars, Full Tilt and Americas Cardroom writers, which take the same arguments for it."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Literal, NamedTuple

from sevenstud.cards import CARDS, Card
from sevenstud.hand import Hand


class WrittenSeats(NamedTuple):
    """The players' names and seat numbers, by seat index, the seats whose down cards are
    written (``full``) and the cards nobody saw (``hidden``)."""

    names: list[str]
    numbers: list[int]
    full: set[int]
    hidden: set[Card]


def written_seats(
    hand: Hand,
    players: Sequence[str] | None,
    seat_numbers: Sequence[int] | None,
    hero: int | None,
    reveal: Iterable[int] | Literal["all"],
    unknown: Collection[int],
) -> WrittenSeats:
    """Names (``Player1``... by default) and seat numbers (1... by default), refused with a
    ``ValueError`` unless there is one different name and one number per seat; the down cards
    written are the ``hero``'s and those of the seats in ``reveal`` (``"all"``: every seat), but
    never a seat's that holds a card in ``unknown`` (cards nobody saw, made up to replay a file)."""
    n = hand.n
    names = list(players) if players is not None else [f"Player{i + 1}" for i in range(n)]
    numbers = list(seat_numbers) if seat_numbers is not None else list(range(1, n + 1))
    if len(names) != n or len(numbers) != n or len(set(names)) != n:
        raise ValueError(f"need {n} different player names and seat numbers")
    hidden = {CARDS[c] for c in unknown}
    full = set(range(n)) if reveal == "all" else set(reveal)
    if hero is not None:
        full.add(hero)
    full = {s for s in full if not hidden.intersection(hand.cards[s])}
    return WrittenSeats(names, numbers, full, hidden)
