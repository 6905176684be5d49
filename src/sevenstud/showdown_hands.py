"""The best five cards of a stud hand so far, named as the dealer says them: for the browser
table's "your hand" and its showdown highlights.

:func:`best_high` and :func:`best_low` take 3 to 7 cards. From five cards on they name the hand
exactly as the hand's :class:`~sevenstud.events.HandShown` event does
(:func:`sevenstud.evaluate.high_name` / :func:`~sevenstud.evaluate.low_name`) and give the five
cards that make it; with fewer, they name what is there so far ("a pair of Kings", "King high",
a low "7,4,2") and give those cards.

>>> from sevenstud.cards import parse_cards
>>> best_high(parse_cards("Kd 9h Ks 2d 5c 3h Jc"))
('a pair of Kings', [Ks, Kd, Jc, 9h, 5c])
>>> best_high(parse_cards("Kd 9h 2c"))
('King high', [Kd, 9h, 2c])
>>> best_low(parse_cards("8c 5d Ks 4h 2s Ah Kd"), "stud8")
('8,5,4,2,A', [8c, 5d, 4h, 2s, Ah])
>>> best_low(parse_cards("9c Td Ks 4h 2s Qh Kd"), "stud8")
(None, [])
>>> best_low(parse_cards("7c 4d 2s Kh"), "stud8")
('7,4,2', [7c, 4d, 2s])
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

from sevenstud.cards import RANK_NAMES, RANK_PLURALS, Card
from sevenstud.evaluate import high_name, high_rank, low8_rank, low_cards, low_name, low_rank
from sevenstud.games import Game, GameError, game_class

__all__ = ["ShowdownHandError", "best_high", "best_low"]

_LOW_ORDER = "A23456789TJQK"


class ShowdownHandError(ValueError):
    """Cards that are not a stud hand so far: fewer than 3 or more than 7, or a card twice."""


def _check(cards: Sequence[Card]) -> list[Card]:
    if not 3 <= len(cards) <= 7:
        raise ShowdownHandError(f"a stud hand so far has 3 to 7 cards, not {len(cards)}")
    if len(set(cards)) != len(cards):
        raise ShowdownHandError("the same card twice in one hand")
    return [Card(c) for c in cards]


def _by_groups(cards: Sequence[Card]) -> list[Card]:
    """Pairs (and bigger groups) first, bigger groups before smaller, higher ranks before lower."""
    count = Counter(c.rank for c in cards)
    return sorted(cards, key=lambda c: (count[c.rank], c.rank, c.suit), reverse=True)


def _name_so_far(cards: Sequence[Card]) -> str:
    """The high of fewer than five cards: only groups and high cards can be made."""
    count = Counter(c.rank for c in cards)
    groups = sorted(((n, r) for r, n in count.items()), reverse=True)
    n, top = groups[0]
    if n == 4:
        return f"four of a kind, {RANK_PLURALS[top]}"
    if n == 3:
        return f"three of a kind, {RANK_PLURALS[top]}"
    if n == 2 and len(groups) > 1 and groups[1][0] == 2:
        return f"two pair, {RANK_PLURALS[top]} and {RANK_PLURALS[groups[1][1]]}"
    if n == 2:
        return f"a pair of {RANK_PLURALS[top]}"
    return f"{RANK_NAMES[top]} high"


def _straight_order(five: list[Card]) -> list[Card]:
    """A straight's cards from its top card down (the wheel's ace last)."""
    ranks = {c.rank for c in five}
    wheel = ranks == {12, 0, 1, 2, 3}
    return sorted(five, key=lambda c: -1 if wheel and c.rank == 12 else c.rank, reverse=True)


def best_high(cards: Sequence[Card]) -> tuple[str, list[Card]]:
    """The best high hand of 3 to 7 cards: its name and its cards (five of them from five
    cards on, pairs first; every card with fewer)."""
    hand = _check(cards)
    if len(hand) < 5:
        return _name_so_far(hand), _by_groups(hand)
    # At most 21 subsets: the one whose rank is the whole hand's is the best five.
    best = max(itertools.combinations(hand, 5), key=high_rank)
    five = list(best)
    rank = high_rank(five)
    # A straight (category 4) or a straight flush (8) is listed in sequence.
    five = _straight_order(five) if rank >> 20 in (4, 8) else _by_groups(five)
    return high_name(rank), five


def _low_value(card: Card) -> int:
    """0 for an ace up to 12 for a king: the rank ace-to-five lows count by."""
    return (card.rank + 1) % 13


def _low_so_far(hand: list[Card], qualified: bool) -> tuple[str | None, list[Card]]:
    """The low of fewer than five cards: one card of each rank (eight or lower when qualified),
    highest first; in razz, paired cards follow (they count, badly)."""
    chosen: dict[int, Card] = {}
    rest: list[Card] = []
    for card in sorted(hand, key=_low_value):
        value = _low_value(card)
        if qualified and value > 7:
            continue
        if value in chosen:
            rest.append(card)
        else:
            chosen[value] = card
    if not chosen:
        return None, []
    cards = sorted(chosen.values(), key=_low_value, reverse=True)
    if not qualified:
        cards = _razz_order(cards + rest)
    return ",".join(_LOW_ORDER[_low_value(c)] for c in cards), cards


def _razz_order(cards: list[Card]) -> list[Card]:
    """Pairs first (as the low's name lists them), then the single cards, highest first."""
    count = Counter(_low_value(c) for c in cards)
    return sorted(cards, key=lambda c: (count[_low_value(c)], _low_value(c)), reverse=True)


def best_low(cards: Sequence[Card], game: Game | type[Game] | str) -> tuple[str | None, list[Card]]:
    """The best low of 3 to 7 cards in ``game`` (a game, its class or its code): in hi/lo eight
    or better (None when no low qualifies), in razz ace-to-five with no qualifier (always a
    low), in stud none (always ``(None, [])``). Returns the low's name and its cards, highest
    first."""
    hand = _check(cards)
    if isinstance(game, str):
        try:
            game = game_class(game)
        except GameError as error:
            raise ShowdownHandError(str(error)) from None
    if not game.has_low:
        return None, []
    qualified = game.low_must_qualify
    if len(hand) < 5:
        return _low_so_far(hand, qualified)
    rank_of = low8_rank if qualified else low_rank
    best = max(itertools.combinations(hand, 5), key=rank_of)
    rank = rank_of(best)
    if not rank:
        return None, []
    # The cards in the order the name lists their ranks (pairs first in a paired razz low).
    pool = list(best)
    five = []
    for char in low_cards(rank):
        card = next(c for c in pool if _LOW_ORDER[_low_value(c)] == char)
        pool.remove(card)
        five.append(card)
    return low_name(rank), five
