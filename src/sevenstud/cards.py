"""Cards, parsing and printing (``"As Td 2c"``); the deck is :class:`sevenstud.deck.Deck`.

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

import re
from collections.abc import Iterable

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
