"""Cards, parsing and printing (``"As Td 2c"``), and the deck.

A card is a plain ``int`` from 0 to 51 (``rank * 4 + suit``), wrapped in :class:`Card` so that it
prints as a card room prints it. Ranks run 0 (deuce) to 12 (ace); suits run clubs, diamonds,
hearts, spades, which is also the suit order that breaks bring-in ties. Because a card is an int,
comparing two cards compares rank first and suit second, and the evaluator's tables index by it.

>>> parse_cards("As Td 2c")
[As, Td, 2c]
>>> format_cards(parse_cards("AsTd2c"))
'As Td 2c'
>>> Card.parse("Kh").rank_char, Card.parse("Kh").suit_char
('K', 'h')
"""

from __future__ import annotations

import math
import random
import re
import secrets
from collections.abc import Iterable, Sequence

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
RANK_NAMES = (
    "Deuce",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)
RANK_PLURALS = (
    "Deuces",
    "Threes",
    "Fours",
    "Fives",
    "Sixes",
    "Sevens",
    "Eights",
    "Nines",
    "Tens",
    "Jacks",
    "Queens",
    "Kings",
    "Aces",
)

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
DEUCE, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(13)


class CardError(ValueError):
    """A card that is malformed or cannot be where it is."""


class MalformedCardError(CardError):
    """Text that does not spell a card, such as ``"1x"`` or ``"A"``."""


class DuplicateCardError(CardError):
    """The same card twice where every card must be different."""


class Card(int):
    """One playing card: an ``int`` 0..51 that prints as ``As``."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        """0 for a deuce up to 12 for an ace."""
        return int(self) >> 2

    @property
    def suit(self) -> int:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return int(self) & 3

    @property
    def rank_char(self) -> str:
        """``"2"``..``"9"``, ``"T"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``."""
        return RANK_CHARS[int(self) >> 2]

    @property
    def suit_char(self) -> str:
        """``"c"``, ``"d"``, ``"h"`` or ``"s"``."""
        return SUIT_CHARS[int(self) & 3]

    @staticmethod
    def of(rank: int, suit: int) -> Card:
        """The card of a rank (0 deuce .. 12 ace) and a suit (0 clubs .. 3 spades)."""
        if not (0 <= rank < 13 and 0 <= suit < 4):
            raise MalformedCardError(f"no card has rank {rank!r} and suit {suit!r}")
        return CARDS[rank * 4 + suit]

    @staticmethod
    def parse(text: str) -> Card:
        """The card written as two characters, rank then suit: ``"As"``, ``"Td"``, ``"2c"``.

        The rank may also be written ``10``; case is forgiven for the suit.
        """
        card = _BY_TEXT.get(text.strip())
        if card is None:
            raise MalformedCardError(
                f"not a card: {text!r} (expected a rank 2-9TJQKA and a suit cdhs)"
            )
        return card

    def __str__(self) -> str:
        return _TEXT[self]

    __repr__ = __str__

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
_TEXT: tuple[str, ...] = tuple(RANK_CHARS[i >> 2] + SUIT_CHARS[i & 3] for i in range(52))
_BY_TEXT: dict[str, Card] = {}
for _i, _t in enumerate(_TEXT):
    for _r in {_t[0], _t[0].lower()} | ({"10"} if _t[0] == "T" else set()):
        for _s in (_t[1], _t[1].upper()):
            _BY_TEXT[_r + _s] = CARDS[_i]

_ORDERINGS = math.factorial(52)

_TOKEN = re.compile(r"(10|[2-9TJQKAtjqka])([cdhsCDHS])")


def parse_cards(text: str | Iterable[str | int], *, unique: bool = True) -> list[Card]:
    """Cards from ``"As Td 2c"``, ``"AsTd2c"``, ``"As,Td,2c"`` or a list of such strings or ints.

    Raises :class:`MalformedCardError` naming the bad text, and (unless ``unique=False``)
    :class:`DuplicateCardError` naming a card given twice.
    """
    cards: list[Card] = []
    if isinstance(text, str):
        pos = 0
        stripped = text.strip()
        while pos < len(stripped):
            if stripped[pos] in " ,\t\n[]":
                pos += 1
                continue
            m = _TOKEN.match(stripped, pos)
            if m is None:
                bad = stripped[pos:].split()[0] if stripped[pos:].split() else stripped[pos:]
                raise MalformedCardError(
                    f"not a card: {bad[:8]!r} in {text!r} (expected e.g. 'As Td 2c')"
                )
            cards.append(Card.parse(m.group(0)))
            pos = m.end()
    else:
        for item in text:
            if isinstance(item, int):
                if not 0 <= int(item) < 52 or isinstance(item, bool):
                    raise MalformedCardError(f"not a card number: {item!r} (expected 0..51)")
                cards.append(CARDS[int(item)])
            else:
                cards.append(Card.parse(item))
    if unique:
        check_unique(cards)
    return cards


def check_unique(cards: Iterable[int]) -> None:
    """Raise :class:`DuplicateCardError` naming the first card that appears twice."""
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise DuplicateCardError(f"duplicate card: {CARDS[card]}")
        seen.add(card)


def format_cards(cards: Iterable[int]) -> str:
    """``"As Td 2c"``: cards separated by single spaces, as the card rooms print them."""
    return " ".join(_TEXT[c] for c in cards)


class Deck:
    """The order in which the dealer will deal: the next card is ``cards[position]``.

    Make one with :meth:`shuffled` (a secure shuffle), :meth:`seeded` (repeatable) or
    :meth:`ordered` (an explicit order, for replaying a hand; the cards not named follow in a
    fixed order so that the deck is always 52 cards).
    """

    __slots__ = ("_cards", "_position")

    def __init__(self, cards: Sequence[int]) -> None:
        check_unique(cards)
        if len(cards) != 52:
            missing = [c for c in CARDS if c not in set(cards)]
            raise CardError(
                f"a deck has 52 cards, this one has {len(cards)} (missing {format_cards(missing[:5])}...)"
            )
        self._cards: list[Card] = [CARDS[c] for c in cards]
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
        for i in range(51, 0, -1):
            code, j = divmod(code, i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cls._trusted(cards)

    @classmethod
    def _trusted(cls, cards: list[Card]) -> Deck:
        """A deck from a list known to hold the 52 cards once each (skips the checks)."""
        deck = cls.__new__(cls)
        deck._cards = cards
        deck._position = 0
        return deck

    @classmethod
    def seeded(cls, seed: int | str | bytes) -> Deck:
        """A deck shuffled from a seed: the same seed always gives the same order."""
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
