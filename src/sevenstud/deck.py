"""The deck: the order in which the dealer will deal, and its secure shuffle.

Apart from cards.py so that mypyc can compile it (tools/build_compiled.py): :class:`Card`
subclasses ``int`` and stays interpreted, while a hand deals from its deck about 20 times.
``from sevenstud import Deck`` is the same class (cards.py does not import it: deck.py imports cards).

>>> deck = Deck.ordered("As Kd")
>>> deck.deal(), deck.deal(), deck.remaining()
(As, Kd, 50)
"""

from __future__ import annotations

import math
import random
import secrets
from collections.abc import Iterable, Sequence
from typing import Final, SupportsIndex

from sevenstud.cards import CARDS, Card, CardError, check_unique, format_cards, parse_cards
from sevenstud.chips import whole

__all__ = ["Deck"]

_ORDERINGS: Final = math.factorial(52)


def _blocks() -> tuple[tuple[int, int], ...]:
    """The shuffle's radices 52, 51, ..., 2 grouped so that each group's product stays a small
    int: ``(product, how many radices)``. Dividing the one big draw by a group's product and
    then the small remainder by each radix gives the very digits one big division per radix
    would, with a tenth of the big-number work."""
    blocks: list[tuple[int, int]] = []
    product, size = 1, 0
    for radix in range(52, 1, -1):
        if product * radix >= 1 << 62:  # mypyc's and CPython's fast ints: 62 bits is safe
            blocks.append((product, size))
            product, size = 1, 0
        product, size = product * radix, size + 1
    blocks.append((product, size))
    return tuple(blocks)


_BLOCKS: Final = _blocks()


class Deck:
    """The order in which the dealer will deal: the next card is ``cards[position]``.

    Make one with :meth:`shuffled` (a secure shuffle), :meth:`seeded` (repeatable) or
    :meth:`ordered` (an explicit order, for replaying a hand; the cards not named follow in a
    fixed order so that the deck is always 52 cards).
    """

    __slots__ = ("_cards", "_position")

    def __init__(self, cards: Sequence[int], *, _unchecked: bool = False) -> None:
        # _unchecked: the deck's own constructors, whose list already holds the 52 cards once
        # each, skip the checks (a shuffled deck per hand is the hot path).
        if _unchecked and isinstance(cards, list):
            self._cards: list[Card] = cards
            self._position = 0
            return
        # Each card as given (Sequence[object]: compiled, an int item would be converted first).
        given: Sequence[object] = cards
        for i, card in enumerate(given):
            if not 0 <= whole(card, f"the deck's card {i} (a card number)", CardError) < 52:
                raise CardError(f"the deck's card {i} is {card!r}, not a card number 0 to 51")
        check_unique(cards)
        if len(cards) != 52:
            missing = [c for c in CARDS if c not in set(cards)]
            raise CardError(
                f"a deck has 52 cards, this one has {len(cards)} (missing {format_cards(missing[:5])}...)"
            )
        self._cards = [CARDS[c] for c in cards]
        self._position = 0

    @classmethod
    def shuffled(cls) -> Deck:
        """A deck shuffled with the operating system's secure randomness.

        One uniform draw from the 52! orders (``secrets.randbelow``, a single read of the
        system's randomness) is unranked into a Fisher-Yates shuffle: as secure as
        ``SystemRandom().shuffle`` and many times faster.
        """
        code = secrets.randbelow(_ORDERINGS)
        cards = list(CARDS)
        top = 51
        for block, size in _BLOCKS:
            # % and // rather than divmod: compiled, they stay machine arithmetic on small ints.
            digits: int = code % block
            code //= block
            for i in range(top, top - size, -1):
                j = digits % (i + 1)
                digits //= i + 1
                cards[i], cards[j] = cards[j], cards[i]
            top -= size
        return cls._trusted(cards)

    @classmethod
    def _trusted(cls, cards: list[Card]) -> Deck:
        """A deck from a list known to hold the 52 cards once each (skips the checks)."""
        return cls(cards, _unchecked=True)

    @classmethod
    def seeded(cls, seed: SupportsIndex | str | bytes) -> Deck:
        """A deck shuffled from a seed (a whole number, a string or bytes; not a bool or a
        float): the same seed always gives the same order."""
        if not isinstance(seed, str | bytes):
            seed = whole(seed, "the seed", CardError)
        cards = list(CARDS)
        random.Random(seed).shuffle(cards)
        return cls._trusted(cards)

    @classmethod
    def ordered(cls, first: str | Iterable[str | int]) -> Deck:
        """A deck whose first cards are ``first`` (e.g. ``"As Kd 7h ..."``), the rest in card order."""
        head = parse_cards(first)
        used = set(head)
        return cls(head + [c for c in CARDS if c not in used])

    @property
    def cards(self) -> tuple[Card, ...]:
        """All 52 cards in dealing order."""
        return tuple(self._cards)

    @property
    def position(self) -> int:
        """How many cards have been dealt."""
        return self._position

    def remaining(self) -> int:
        """How many cards are left to deal."""
        return 52 - self._position

    def deal(self) -> Card:
        """The next card; raises :class:`CardError` when the deck is empty."""
        if self._position >= 52:
            raise CardError("the deck is empty")
        card = self._cards[self._position]
        self._position += 1
        return card

    def __repr__(self) -> str:
        return f"Deck({format_cards(self._cards[self._position :])!r} left)"
