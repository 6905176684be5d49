"""The best five cards named for the browser table (sevenstud.showdown_hands), against brute force."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from sevenstud.cards import CARDS, RANK_NAMES, RANK_PLURALS, Card, parse_cards
from sevenstud.evaluate import high_rank, low8_rank, low_rank
from sevenstud.games import Razz, Stakes, Stud, StudHiLo
from sevenstud.showdown_hands import ShowdownHandError, best_high, best_low

STAKES = Stakes(1, 2, 5, 10)


def _deals(size: int, count: int, seed: int) -> list[list[Card]]:
    rng = random.Random(seed)
    return [rng.sample(CARDS, size) for _ in range(count)]


def _low_value(card: Card) -> int:
    return (card.rank + 1) % 13


@pytest.mark.parametrize("size", [5, 6, 7])
def test_best_high_is_the_best_five_and_named_as_the_showdown_names_it(size: int) -> None:
    game = Stud(STAKES)
    for cards in _deals(size, 300, size):
        name, five = best_high(cards)
        assert len(five) == 5 and set(five) <= set(cards)
        # The five are as good as the best of every subset (the evaluator's brute-force-free rank).
        assert high_rank(five) == high_rank(cards)
        shown_high, _ = game.hand_names(*game.showdown_ranks(cards))
        assert name == shown_high


@pytest.mark.parametrize("size", [5, 6, 7])
def test_best_low_eight_or_better_against_the_five_lowest_distinct_ranks(size: int) -> None:
    game = StudHiLo(STAKES)
    for cards in _deals(size, 300, 10 + size):
        name, five = best_low(cards, "stud8")
        distinct = sorted({_low_value(c) for c in cards})[:5]
        qualifies = len(distinct) == 5 and distinct[-1] <= 7
        assert (name is not None) == qualifies
        _, shown_low = game.hand_names(*game.showdown_ranks(cards))
        assert name == shown_low
        if qualifies:
            assert sorted(_low_value(c) for c in five) == distinct and set(five) <= set(cards)
            assert low8_rank(five) == low8_rank(cards)
        else:
            assert five == []


@pytest.mark.parametrize("size", [5, 6, 7])
def test_razz_low_has_no_qualifier_and_razz_shows_no_high(size: int) -> None:
    game = Razz(STAKES)
    for cards in _deals(size, 300, 20 + size):
        name, five = best_low(cards, "razz")
        high_name, shown_low = game.hand_names(*game.showdown_ranks(cards))
        assert high_name is None  # razz names no high half
        assert name == shown_low and name is not None
        assert low_rank(five) == low_rank(cards) and set(five) <= set(cards)
        distinct = sorted({_low_value(c) for c in cards})
        if len(distinct) >= 5:
            assert sorted(_low_value(c) for c in five) == distinct[:5]


def test_stud_has_no_low() -> None:
    assert best_low(parse_cards("Ac 2d 3h 4s 5c"), "stud") == (None, [])


def _brute_name_so_far(cards: list[Card]) -> str:
    shape = sorted(Counter(c.rank for c in cards).values(), reverse=True)
    ranks_by = {n: sorted((r for r, k in Counter(c.rank for c in cards).items() if k == n), reverse=True)
                for n in (1, 2, 3, 4)}
    if shape[0] == 4:
        return f"four of a kind, {RANK_PLURALS[ranks_by[4][0]]}"
    if shape[0] == 3:
        return f"three of a kind, {RANK_PLURALS[ranks_by[3][0]]}"
    if shape[:2] == [2, 2]:
        return f"two pair, {RANK_PLURALS[ranks_by[2][0]]} and {RANK_PLURALS[ranks_by[2][1]]}"
    if shape[0] == 2:
        return f"a pair of {RANK_PLURALS[ranks_by[2][0]]}"
    return f"{RANK_NAMES[max(c.rank for c in cards)]} high"


@pytest.mark.parametrize("size", [3, 4])
def test_fewer_than_five_cards_name_what_is_there(size: int) -> None:
    for cards in _deals(size, 400, 30 + size):
        name, shown = best_high(cards)
        assert name == _brute_name_so_far(cards)
        assert sorted(shown) == sorted(cards)
        low, low_cards = best_low(cards, "stud8")
        lows = sorted({_low_value(c) for c in cards if _low_value(c) <= 7}, reverse=True)
        expected = ",".join("A23456789TJQK"[v] for v in lows) or None
        assert low == expected
        assert [_low_value(c) for c in low_cards] == lows


def test_low_so_far_examples() -> None:
    assert best_low(parse_cards("7c 4d 2s"), "stud8") == ("7,4,2", parse_cards("7c 4d 2s"))
    assert best_low(parse_cards("Kc Qd Js"), "stud8") == (None, [])
    assert best_low(parse_cards("Kc Qd Js"), "razz")[0] == "K,Q,J"
    assert best_low(parse_cards("7c 7d 2s"), "razz")[0] == "7,7,2"
    assert best_high(parse_cards("Kc Kd 9s 9h"))[0] == "two pair, Kings and Nines"


def test_a_wheel_is_listed_five_high_down_to_the_ace() -> None:
    name, five = best_high(parse_cards("As 2d 3h 4c 5s Kd Kh"))
    assert name == "a straight, Ace to Five"
    assert [c.rank_char for c in five] == ["5", "4", "3", "2", "A"]


@pytest.mark.parametrize("text", ["As Kd", "As Kd Qh Jc Ts 9d 8h 7c", "As As Kd"])
def test_bad_hands_are_refused_with_a_reason(text: str) -> None:
    with pytest.raises(ShowdownHandError):
        best_high(parse_cards(text, unique=False))


def test_unknown_game_is_refused() -> None:
    with pytest.raises(ShowdownHandError, match="unknown game"):
        best_low(parse_cards("As Kd Qh"), "holdem")
