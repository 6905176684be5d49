"""The evaluator, proved against counts known from combinatorics and against a naive evaluator.

* Every five-card hand (2,598,960) is evaluated: the category counts and class counts must be the
  known ones, and every hand is compared with a naive evaluator through its canonical form (its
  sorted ranks and whether it is a flush, which is all a five-card hand's value depends on).
* Random six- and seven-card hands are compared with the best of their five-card subsets under
  the naive evaluator, by the order the two induce.
"""

from __future__ import annotations

import doctest
import functools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations, pairwise, permutations

import pytest

import sevenstud.cards as cards_module
import sevenstud.evaluate as evaluate_module
from sevenstud.cards import parse_cards
from sevenstud.evaluate import (
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    LOW_FULL_HOUSE,
    LOW_NO_PAIR,
    LOW_PAIR,
    LOW_QUADS,
    LOW_TRIPS,
    LOW_TWO_PAIR,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    board_high_key,
    board_low_key,
    high_category,
    high_name,
    high_rank,
    hilo8_ranks,
    low8_rank,
    low_cards,
    low_category,
    low_name,
    low_rank,
)

# ===============================================================================================
# A naive evaluator, written apart from the one under test: five cards at a time, values as tuples
# (greater is better), the best of n cards by trying every five-card subset.
# ===============================================================================================

# Shapes (group sizes, largest first) in the order a high hand ranks them, weakest first; a low
# hand ranks the same shapes the other way round (a pair is bad).
_SHAPE_ORDER = {
    (1, 1, 1, 1, 1): 0,
    (2, 1, 1, 1): 1,
    (2, 2, 1): 2,
    (3, 1, 1): 3,
    (3, 2): 6,  # a full house sits above straights (4) and flushes (5)
    (4, 1): 7,
}


def _groups(values: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """(shape class, values ordered by how many of them there are, then by value)."""
    counts = {v: values.count(v) for v in values}
    shape = tuple(sorted(counts.values(), reverse=True))
    ordered = tuple(sorted(counts, key=lambda v: (counts[v], v), reverse=True))
    return _SHAPE_ORDER[shape], ordered


def naive_high5(hand: Sequence[int]) -> tuple[int, ...]:
    """Categories 0 high card .. 8 straight flush, then the tie-breaking ranks."""
    assert len(hand) == 5
    ranks = sorted((c // 4 for c in hand), reverse=True)  # 0 deuce .. 12 ace
    flush = len({c % 4 for c in hand}) == 1
    top: int | None = None
    if len(set(ranks)) == 5:
        if ranks[0] - ranks[4] == 4:
            top = ranks[0]
        elif ranks == [12, 3, 2, 1, 0]:  # the wheel, five high
            top = 3
    if top is not None:
        return (8 if flush else 4, top)
    shape, ordered = _groups(ranks)
    if flush:
        return (5, *ranks)
    return (shape, *ordered)


def _ace_low(card: int) -> int:
    """Ace 1, deuce 2, ..., king 13."""
    rank = card // 4
    return 1 if rank == 12 else rank + 2


def naive_low5(hand: Sequence[int]) -> tuple[int, ...]:
    """Ace-to-five: ace low, straights and flushes ignored, pairs bad. The badness is how a high
    hand without straights and flushes would rank the ace-low cards; the value is its negation."""
    assert len(hand) == 5
    values = sorted((_ace_low(c) for c in hand), reverse=True)
    shape, ordered = _groups(values)
    return tuple(-x for x in (shape, *ordered))


def naive_qualifies8(hand: Sequence[int]) -> bool:
    values = [_ace_low(c) for c in hand]
    return len(set(values)) == 5 and max(values) <= 8


Value = tuple[int, ...]
Five = tuple[int, ...]


def naive_best(
    hand: Sequence[int],
) -> tuple[tuple[Value, Five], tuple[Value, Five], tuple[Value, Five] | None]:
    """The best high, best low and best qualifying low (or None) over every five-card subset,
    each as (naive value, the five cards that make it)."""
    subsets = list(combinations(hand, 5))
    highs = [naive_high5(s) for s in subsets]
    lows = [naive_low5(s) for s in subsets]
    high = max(highs)
    low = max(lows)
    lows8 = [(v, s) for v, s in zip(lows, subsets, strict=True) if naive_qualifies8(s)]
    return (
        (high, subsets[highs.index(high)]),
        (low, subsets[lows.index(low)]),
        max(lows8) if lows8 else None,
    )


def _sign(x: object, y: object) -> int:
    return (x > y) - (x < y)  # type: ignore[operator]


def assert_same_order(pairs: Sequence[tuple[int, tuple[int, ...]]], what: str) -> None:
    """``pairs`` holds (our rank, naive value) per hand. Ours must be a strictly increasing function
    of the naive value: equal naive values give equal ranks, and the two sort the hands alike."""
    by_naive: dict[tuple[int, ...], int] = {}
    for ours, naive in pairs:
        previous = by_naive.setdefault(naive, ours)
        assert previous == ours, f"{what}: naive {naive} has two ranks {previous} and {ours}"
    ordered = sorted(by_naive.items())
    for (n1, o1), (n2, o2) in pairwise(ordered):
        assert o1 < o2, f"{what}: naive {n1} < {n2} but ours {o1} >= {o2}"


# --- the naive evaluator checks itself on hands whose answers are known ----------------------


def test_naive_evaluator_sanity() -> None:
    h = parse_cards
    assert naive_high5(h("As Ks Qs Js Ts")) == (8, 12)
    assert naive_high5(h("5d 4d 3d 2d Ad")) == (8, 3)
    assert naive_high5(h("5d 4c 3d 2d Ad")) == (4, 3)
    assert naive_high5(h("Kc Kd Ks 3h 3c"))[0] == 6
    assert naive_high5(h("Kc Kd Ks 3h 3c")) > naive_high5(h("Ac Qc 9c 5c 3c"))
    assert naive_high5(h("Ac Qc 9c 5c 3c")) > naive_high5(h("Ac Kd Qh Js Tc"))
    assert naive_high5(h("6c 5d 4h 3s 2c")) > naive_high5(h("5c 4d 3h 2s Ac"))
    assert naive_high5(h("Ac Ad 4h 4s 9c")) > naive_high5(h("Ac Ad 3h 3s Kc"))
    assert naive_low5(h("5c 4d 3h 2s Ac")) > naive_low5(h("6c 4d 3h 2s Ac"))
    assert naive_low5(h("Kc Qd Jh 9s 8c")) > naive_low5(h("Ac Ad 2h 3s 4c"))
    assert naive_low5(h("2c 2d 3h 4s 5c")) < naive_low5(h("Ac Ad 3h 4s 5c"))
    assert naive_qualifies8(h("8c 7d 6h 5s 4c"))
    assert not naive_qualifies8(h("9c 4d 3h 2s Ac"))
    assert not naive_qualifies8(h("8c 8d 3h 2s Ac"))
    with pytest.raises(AssertionError):
        assert_same_order([(1, (0,)), (2, (0,))], "two ranks for one class")
    with pytest.raises(AssertionError):
        assert_same_order([(2, (0,)), (1, (1,))], "inverted order")


# ===============================================================================================
# Every five-card hand.
# ===============================================================================================

_RANK = [c // 4 for c in range(52)]
_SUIT = [c % 4 for c in range(52)]


@functools.cache
def all_five_card_hands() -> Counter[tuple[int, ...]]:
    """Each distinct (five ranks ascending, is a flush, high, low, low8), with how many hands."""
    rank, suit = _RANK, _SUIT

    def describe(hand: tuple[int, ...]) -> tuple[int, ...]:
        a, b, c, d, e = hand
        return (
            rank[a],
            rank[b],
            rank[c],
            rank[d],
            rank[e],
            suit[a] == suit[b] == suit[c] == suit[d] == suit[e],
            high_rank(hand),
            low_rank(hand),
            low8_rank(hand),
        )

    return Counter(map(describe, combinations(range(52), 5)))


def test_five_card_total() -> None:
    assert sum(all_five_card_hands().values()) == 2_598_960


def test_five_card_high_category_counts() -> None:
    per_category: Counter[int] = Counter()
    classes: dict[int, set[int]] = {}
    royals = 0
    for entry, n in all_five_card_hands().items():
        high = entry[6]
        category = high_category(high)
        per_category[category] += n
        classes.setdefault(category, set()).add(high)
        if category == STRAIGHT_FLUSH and entry[:5] == (8, 9, 10, 11, 12):
            royals += n
    assert dict(per_category) == {
        STRAIGHT_FLUSH: 40,
        QUADS: 624,
        FULL_HOUSE: 3_744,
        FLUSH: 5_108,
        STRAIGHT: 10_200,
        TRIPS: 54_912,
        TWO_PAIR: 123_552,
        PAIR: 1_098_240,
        HIGH_CARD: 1_302_540,
    }
    assert royals == 4
    assert {k: len(v) for k, v in classes.items()} == {
        STRAIGHT_FLUSH: 10,
        QUADS: 156,
        FULL_HOUSE: 156,
        FLUSH: 1_277,
        STRAIGHT: 10,
        TRIPS: 858,
        TWO_PAIR: 858,
        PAIR: 2_860,
        HIGH_CARD: 1_277,
    }
    assert len({entry[6] for entry in all_five_card_hands()}) == 7_462
    # categories are contiguous: every rank of a better category beats every rank of a worse one
    bounds = sorted((min(v), max(v), k) for k, v in classes.items())
    assert [k for _, _, k in bounds] == list(range(9))
    assert all(hi < lo for (_, hi, _), (lo, _, _) in pairwise(bounds))


def test_five_card_high_agrees_with_naive_on_every_hand() -> None:
    """Our high rank depends only on (ranks, flush) (one rank per such class over all hands), and
    orders the classes as the naive evaluator does; so it agrees with it on every hand."""
    canonical: dict[tuple[int, ...], int] = {}
    for entry in all_five_card_hands():
        previous = canonical.setdefault(entry[:6], entry[6])
        assert previous == entry[6], f"{entry[:6]}: ranks {previous} and {entry[6]}"
    assert len(canonical) == 6_175 + 1_287  # rank multisets, and flushes' rank sets
    pairs = []
    for (*ranks, flush), ours in canonical.items():
        suits = [0] * 5 if flush else [0, 1, 2, 3, 0] if len(set(ranks)) == 5 else None
        if suits is None:  # a paired hand: give each copy of a rank its own suit
            seen: Counter[int] = Counter()
            suits = []
            for r in ranks:
                suits.append(seen[r])
                seen[r] += 1
        hand = [r * 4 + s for r, s in zip(ranks, suits, strict=True)]
        assert len(set(hand)) == 5
        assert high_rank(hand) == ours
        pairs.append((ours, naive_high5(hand)))
    assert_same_order(pairs, "five-card high")
    assert len({naive for _, naive in pairs}) == 7_462


def test_five_card_low_counts_and_order() -> None:
    lows: dict[tuple[int, ...], int] = {}
    lows8: dict[tuple[int, ...], int] = {}
    qualifying_hands = 0
    for entry, n in all_five_card_hands().items():
        ranks, low, low8 = entry[:5], entry[7], entry[8]
        assert low > 0
        assert lows.setdefault(ranks, low) == low, "the low depends on suits"
        assert lows8.setdefault(ranks, low8) == low8, "the low8 depends on suits"
        if low8:
            qualifying_hands += n
            assert low8 == low
    assert len(lows) == 6_175
    assert len(set(lows.values())) == 6_175  # every multiset of five ranks is its own low
    assert qualifying_hands == 56 * 4**5 == 57_344
    assert len({v for v in lows8.values() if v}) == 56
    # against the naive evaluator: one hand per rank multiset
    pairs = []
    for ranks, low in lows.items():
        seen: Counter[int] = Counter()
        hand = []
        for r in ranks:
            hand.append(r * 4 + seen[r])
            seen[r] += 1
        assert low_rank(hand) == low
        pairs.append((low, naive_low5(hand)))
        assert (lows8[ranks] != 0) == naive_qualifies8(hand)
    assert_same_order(pairs, "five-card low")
    assert_same_order([(lows8[r], naive_low5(parse_r(r))) for r in lows if lows8[r]], "low8")
    # every qualifying low beats every non-qualifying one under low_rank too
    worst_qualifying = min(v for v in lows8.values() if v)
    assert all(low < worst_qualifying for r, low in lows.items() if not lows8[r])


def parse_r(ranks: Sequence[int]) -> list[int]:
    """A hand of the given (distinct) ranks in mixed suits."""
    return [r * 4 + i % 4 for i, r in enumerate(ranks)]


# ===============================================================================================
# Six and seven cards: random samples against the naive best five.
# ===============================================================================================


def _sample(rng: random.Random, deck: Sequence[int], size: int, count: int) -> list[list[int]]:
    return [rng.sample(deck, size) for _ in range(count)]


def _samples(size: int, count: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    full = list(range(52))
    hands = _sample(rng, full, size, count)
    # biased decks, so that the rare hands turn up often: two suits (flushes, straight flushes),
    # five ranks (quads, full houses), ace to nine (lows)
    for _ in range(count // 10):
        suits = rng.sample(range(4), 2)
        hands += _sample(rng, [c for c in full if c % 4 in suits], size, 1)
        ranks = rng.sample(range(13), 5)
        hands += _sample(rng, [c for c in full if c // 4 in ranks], size, 1)
        hands += _sample(rng, [c for c in full if c // 4 in (12, *range(8))], size, 1)
    for _ in range(count // 20):  # straight flushes on purpose, with junk around them
        top = rng.randrange(3, 13)
        suit = rng.randrange(4)
        run = [((top - i) % 13 if top - i >= 0 else 12) * 4 + suit for i in range(5)]
        if top == 3:
            run = [r * 4 + suit for r in (3, 2, 1, 0, 12)]
        rest = rng.sample([c for c in full if c not in run], size - 5)
        hands.append(run + rest)
        quad_rank = rng.randrange(13)  # and four of a kind
        quads = [quad_rank * 4 + s for s in range(4)]
        hands.append(quads + rng.sample([c for c in full if c not in quads], size - 4))
    return hands


@pytest.mark.parametrize(("size", "count", "seed"), [(7, 20_000, 7_777), (6, 5_000, 6_666)])
def test_many_cards_agree_with_naive_best_five(size: int, count: int, seed: int) -> None:
    hands = _samples(size, count, seed)
    highs: list[tuple[int, tuple[int, ...]]] = []
    lows: list[tuple[int, tuple[int, ...]]] = []
    lows8: list[tuple[int, tuple[int, ...]]] = []
    categories: Counter[int] = Counter()
    previous: tuple[list[int], int, int, Value, Value] | None = None
    for hand in hands:
        assert len(set(hand)) == size
        high, low, low8 = high_rank(hand), low_rank(hand), low8_rank(hand)
        (n_high, best_high), (n_low, best_low), naive8 = naive_best(hand)
        categories[high_category(high)] += 1
        assert hilo8_ranks(hand) == (high, low8)
        assert high_category(high) == n_high[0]
        # the best five chosen by the naive evaluator is worth what the whole hand is worth
        assert high_rank(best_high) == high, hand
        assert low_rank(best_low) == low, hand
        if naive8 is None:
            assert low8 == 0, hand
        else:
            n_low8, best_low8 = naive8
            assert low8 == low > 0, hand
            assert low8_rank(best_low8) == low8, hand
            lows8.append((low8, n_low8))
        # consecutive hands: our comparison is the naive comparison
        if previous is not None:
            p_hand, p_high, p_low, p_n_high, p_n_low = previous
            assert _sign(high, p_high) == _sign(n_high, p_n_high), (hand, p_hand)
            assert _sign(low, p_low) == _sign(n_low, p_n_low), (hand, p_hand)
        previous = (hand, high, low, n_high, n_low)
        highs.append((high, n_high))
        lows.append((low, n_low))
    # and over the whole sample at once
    assert_same_order(highs, f"{size}-card high")
    assert_same_order(lows, f"{size}-card low")
    assert_same_order(lows8, f"{size}-card low8")
    # the sample covers every category, and plenty of qualifying lows
    assert set(categories) == set(range(9))
    assert min(categories.values()) >= 20
    assert len(lows8) > count // 10


def test_order_of_cards_does_not_matter() -> None:
    rng = random.Random(3)
    for _ in range(300):
        hand = rng.sample(range(52), 7)
        expected = (high_rank(hand), low_rank(hand), low8_rank(hand))
        for perm in rng.sample(list(permutations(hand)), 5):
            assert (high_rank(perm), low_rank(perm), low8_rank(perm)) == expected
        assert high_rank(parse_cards(hand)) == expected[0]  # Card objects and tuples work too
        assert high_rank(tuple(hand)) == expected[0]


def test_flush_beats_what_else_seven_cards_hold() -> None:
    h = parse_cards
    assert high_category(high_rank(h("2h 7h 9h Jh Kh Kc Kd"))) == FLUSH
    assert high_category(high_rank(h("2h 3h 4h 5h 6h 6c 6d"))) == STRAIGHT_FLUSH
    assert high_category(high_rank(h("Kh Kc Kd 3h 3c 3s 9h"))) == FULL_HOUSE
    assert high_category(high_rank(h("Kh Kc Kd Ks 3h 4h 5h"))) == QUADS
    # a straight flush lower than the straight the other cards make
    hand = h("5s 6s 7s 8s 9s Tc Jd")
    assert high_name(high_rank(hand)) == "a straight flush, Five to Nine"
    # six to the flush: the best five of them
    assert high_rank(h("Ah Kh 9h 7h 5h 3h 2c")) == high_rank(h("Ah Kh 9h 7h 5h"))
    assert high_rank(h("Ah 2h 3h 4h 5h 6h Kh")) == high_rank(h("2h 3h 4h 5h 6h"))


# ===============================================================================================
# Lows.
# ===============================================================================================

SEED_LOWS = [  # weakest to strongest
    "8-7-6-5-4",
    "8-7-6-5-3",
    "8-6-4-2-A",
    "8-4-3-2-A",
    "7-6-5-4-2",
    "7-6-5-2-A",
    "7-5-4-3-2",
    "6-5-4-3-2",
    "6-4-3-2-A",
    "5-4-3-2-A",
]


def _low_hand(spec: str, suits: str = "cdhsc") -> list[int]:
    return parse_cards([r + s for r, s in zip(spec.split("-"), suits, strict=True)])


def test_seed_lows_in_order() -> None:
    for suits in ("cdhsc", "sdchh", "hhhhh"):  # mixed suits, and a flush (it does not matter)
        hands = [_low_hand(spec, suits) for spec in SEED_LOWS]
        ranks8 = [low8_rank(hand) for hand in hands]
        ranks = [low_rank(hand) for hand in hands]
        assert all(r > 0 for r in ranks8)
        assert ranks8 == ranks
        assert all(a < b for a, b in pairwise(ranks8))
        shuffled = list(range(10))
        random.Random(len(suits)).shuffle(shuffled)
        assert sorted(shuffled, key=lambda i: low8_rank(hands[i])) == list(range(10))
        assert [low_name(r) for r in ranks] == [s.replace("-", ",") for s in SEED_LOWS]


def test_seed_lows_with_extra_cards() -> None:
    for spec in SEED_LOWS:
        five = _low_hand(spec)
        used = set(five)
        extra = [c for c in parse_cards("Kc Kd Ks 9h 9c") if c not in used][:2]
        assert low8_rank(five + extra) == low8_rank(five)
        assert low_rank(five + extra) == low_rank(five)


@pytest.mark.parametrize(
    "text",
    [
        "9c 5d 4h 3s 2c",
        "9c 8d 7h 6s 5c",
        "8c 8d 4h 3s 2c",
        "Ac Ad 2h 3s 4c",
        "Kc Qd Jh Ts 9c",
        "Ac 2c 3c 4c 9c 9d Kh",
        "Ac Ad 2c 2d 3h 3s 4c",
        "8c 8d 7h 7s 6c 6d 5h",
        "Ac Ad Ah 2c 2d 2h 3c",
        "9h 9d 7h 6h 5h 4h",
        "Tc 9d 5h 4s 3c 2d",
    ],
)
def test_non_qualifying_lows(text: str) -> None:
    hand = parse_cards(text)
    assert low8_rank(hand) == 0
    assert hilo8_ranks(hand)[1] == 0
    assert low_rank(hand) > 0  # razz always has a low


def test_qualifying_lows_among_junk() -> None:
    h = parse_cards
    assert low_name(low8_rank(h("Ac 2d 3h 4s 8c 8d"))) == "8,4,3,2,A"
    assert low_name(low8_rank(h("Ks Kd 8c 6d 4h 3s 2c"))) == "8,6,4,3,2"
    assert low_name(low8_rank(h("Ac Ad 2c 2d 3h 4s 5c"))) == "5,4,3,2,A"
    assert low_name(low8_rank(h("Ac 2c 3c 4c 5c"))) == "5,4,3,2,A"  # a steel wheel is a low too
    assert low8_rank(h("9c 8d 7h 6s 5c 4d 3h")) == low8_rank(h("7h 6s 5c 4d 3h"))
    assert low8_rank(h("9c 8d 7h 6s 5c 4d 3h")) > low8_rank(h("8d 7h 6s 5c 4d"))
    assert low_name(low8_rank(h("9c 8d 7h 6s 5c 4d 3h"))) == "7,6,5,4,3"
    # the best low of seven is never worse than the best low of any five of them
    assert low8_rank(h("Ac Kd 2h 3s 8c 7d 6h")) == low8_rank(h("Ac 2h 3s 7d 6h"))


def test_razz_low_ordering() -> None:
    h = parse_cards
    assert low_rank(h("Kc Qd Jh Ts 8c")) > low_rank(h("Ac Ad 2h 3s 4c"))  # no pair beats a pair
    assert low_rank(h("Ac Ad 2h 3s 4c")) > low_rank(h("2c 2d Ah 3s 4c"))  # lower pair better
    assert low_rank(h("Ac Ad 2h 3s 4c")) > low_rank(h("Ac Ad 2h 3s 5c"))  # then the kickers
    assert low_rank(h("Kc Kd Qh Qs Jc")) > low_rank(h("Ac Ad Ah 2s 3c"))  # two pair beats trips
    assert low_rank(h("Ac Ad Ah 2s 3c")) > low_rank(h("Ac Ad Ah 2s 2c"))  # trips beat a boat
    assert low_rank(h("Kc Kd Kh Qs Qc")) > low_rank(h("Ac Ad Ah As 2c"))  # a boat beats quads
    assert low_rank(h("6c 5d 4h 3s 2c")) < low_rank(h("6c 4d 3h 2s Ac"))  # straights ignored


# ===============================================================================================
# Names.
# ===============================================================================================

HIGH_NAMES = [
    ("As Ks Qs Js Ts", "a Royal Flush", STRAIGHT_FLUSH),
    ("Ts Js Qs Ks As 2c 2d", "a Royal Flush", STRAIGHT_FLUSH),
    ("9h 8h 7h 6h 5h 2c 2d", "a straight flush, Five to Nine", STRAIGHT_FLUSH),
    ("5d 4d 3d 2d Ad Kd", "a straight flush, Ace to Five", STRAIGHT_FLUSH),
    ("Kd Qd Jd Td 9d", "a straight flush, Nine to King", STRAIGHT_FLUSH),
    ("Ac Ad Ah As 2c", "four of a kind, Aces", QUADS),
    ("2c 2d 2h 2s Kc Kd Kh", "four of a kind, Deuces", QUADS),
    ("Kc Kd 3s Ks 3h 7c 2d", "a full house, Kings full of Threes", FULL_HOUSE),
    ("3c 3d 3h Ks Kh", "a full house, Threes full of Kings", FULL_HOUSE),
    ("Qc Qd Qh 7s 7c 7d 2h", "a full house, Queens full of Sevens", FULL_HOUSE),
    ("6c 6d 6h 5s 5c Ad Ah", "a full house, Sixes full of Aces", FULL_HOUSE),
    ("Qh 9h 7h 4h 2h 3c", "a flush, Queen high", FLUSH),
    ("Ah 9h 7h 4h 2h 3h Ks", "a flush, Ace high", FLUSH),
    ("Ac 2d 3h 4s 5c Kd Qh", "a straight, Ace to Five", STRAIGHT),
    ("Tc Jd Qh Ks Ad", "a straight, Ten to Ace", STRAIGHT),
    ("6c 7d 8h 9s Tc Jd 2h", "a straight, Seven to Jack", STRAIGHT),
    ("Ac 2d 3h 4s 5c 6d", "a straight, Deuce to Six", STRAIGHT),
    ("Qc Qd Qh 7s 2c", "three of a kind, Queens", TRIPS),
    ("8c 8d 8h As Kc 3d 2h", "three of a kind, Eights", TRIPS),
    ("Ac Ad 4h 4s 9c", "two pair, Aces and Fours", TWO_PAIR),
    ("Ac Ad 4h 4s 3c 3d 9h", "two pair, Aces and Fours", TWO_PAIR),
    ("Jc Jd Th Ts 2c", "two pair, Jacks and Tens", TWO_PAIR),
    ("7c 7d Ah Ks 2c", "a pair of Sevens", PAIR),
    ("6c 6d Ah Ks 2c 3d 9h", "a pair of Sixes", PAIR),
    ("Ac Kd 9h 7s 3c 2d 4h", "high card Ace", HIGH_CARD),
    ("7c 5d 4h 3s 2c", "high card Seven", HIGH_CARD),
    ("Kc Qd 9h 7s 3c 2d", "high card King", HIGH_CARD),
]


@pytest.mark.parametrize(("text", "name", "category"), HIGH_NAMES)
def test_high_names(text: str, name: str, category: int) -> None:
    hand = parse_cards(text)
    rank = high_rank(hand)
    assert high_name(rank) == name
    assert high_category(rank) == category
    assert hilo8_ranks(hand)[0] == rank


def test_high_names_cover_every_category() -> None:
    assert {category for _, _, category in HIGH_NAMES} == set(range(9))


def test_every_high_class_has_a_distinct_name_of_its_category() -> None:
    """Names are a function of the class, and different classes only share names where the name
    leaves the kickers out."""
    words = {
        STRAIGHT_FLUSH: ("a straight flush, ", "a Royal Flush"),
        QUADS: ("four of a kind, ",),
        FULL_HOUSE: ("a full house, ",),
        FLUSH: ("a flush, ",),
        STRAIGHT: ("a straight, ",),
        TRIPS: ("three of a kind, ",),
        TWO_PAIR: ("two pair, ",),
        PAIR: ("a pair of ",),
        HIGH_CARD: ("high card ",),
    }
    names_per_category: dict[int, set[str]] = {}
    for entry in all_five_card_hands():
        rank = entry[6]
        name = high_name(rank)
        category = high_category(rank)
        assert name.startswith(words[category]), name
        names_per_category.setdefault(category, set()).add(name)
    assert {k: len(v) for k, v in names_per_category.items()} == {
        STRAIGHT_FLUSH: 10,
        QUADS: 13,
        FULL_HOUSE: 156,
        FLUSH: 8,
        STRAIGHT: 10,
        TRIPS: 13,
        TWO_PAIR: 78,
        PAIR: 13,
        HIGH_CARD: 8,  # flush/high card: Seven .. Ace high
    }


LOW_NAMES = [
    ("7c 6d 5h 4s 3c", "7,6,5,4,3", LOW_NO_PAIR),
    ("5c 4d 3h 2s Ac", "5,4,3,2,A", LOW_NO_PAIR),
    ("8c 6d 4h 3s 2c Kd Kh", "8,6,4,3,2", LOW_NO_PAIR),
    ("Kc Qd Jh 9s 8c", "K,Q,J,9,8", LOW_NO_PAIR),
    ("Tc 9d 7h 6s 2c", "T,9,7,6,2", LOW_NO_PAIR),
    ("7c 7d 5h 3s 2c", "7,7,5,3,2", LOW_PAIR),
    ("Kc Kd Qh Qs Jc Jd Tc", "J,J,K,Q,T", LOW_PAIR),
    ("Ac Ad Kh Qs Jc", "A,A,K,Q,J", LOW_PAIR),
    ("Ac Ad 2c 2d 3h", "2,2,A,A,3", LOW_TWO_PAIR),
    ("Ac Ad Ah 2c 2d 2h 3c", "2,2,A,A,3", LOW_TWO_PAIR),
    ("Kc Kd Kh 2c 3d", "K,K,K,3,2", LOW_TRIPS),
    ("Kc Kd Kh 2c 2d", "K,K,K,2,2", LOW_FULL_HOUSE),
    ("Kc Kd Kh Ks 2c", "K,K,K,K,2", LOW_QUADS),
]


@pytest.mark.parametrize(("text", "name", "category"), LOW_NAMES)
def test_low_names(text: str, name: str, category: int) -> None:
    rank = low_rank(parse_cards(text))
    assert low_name(rank) == name
    assert low_cards(rank) == name.split(",")
    assert low_category(rank) == category
    rank8 = low8_rank(parse_cards(text))
    if name in ("7,6,5,4,3", "5,4,3,2,A", "8,6,4,3,2"):
        assert rank8 == rank
        assert low_name(rank8) == name
    else:
        assert rank8 == 0


def test_every_low_name_is_distinct_and_lists_its_cards() -> None:
    names = set()
    for entry in all_five_card_hands():
        ranks, low = entry[:5], entry[7]
        cards = low_cards(low)
        assert sorted(cards) == sorted("A23456789TJQK"[(r + 1) % 13] for r in ranks)
        names.add(low_name(low))
    assert len(names) == 6_175


def test_no_low_has_no_name() -> None:
    with pytest.raises(ValueError):
        low_name(0)
    with pytest.raises(ValueError):
        low_cards(low8_rank(parse_cards("9c 5d 4h 3s 2c")))


def test_doctests_are_present_and_pass() -> None:
    for module, at_least in ((evaluate_module, 3), (cards_module, 3)):
        result = doctest.testmod(module, verbose=False, report=False)
        assert result.failed == 0, module.__name__
        assert result.attempted >= at_least, module.__name__
    assert "high_name(high_rank(" in (evaluate_module.__doc__ or "")


# ===============================================================================================
# Boards: who acts first on fourth to seventh street.
# ===============================================================================================


def _bh(text: str) -> tuple[int, ...]:
    return board_high_key(parse_cards(text))


def _bl(text: str) -> tuple[int, ...]:
    return board_low_key(parse_cards(text))


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("2c 2d", "Ac Kd"),  # a pair beats high cards
        ("3c 3d", "2c 2d"),
        ("Kc 9d", "Kh 8s"),
        ("Ac 2d", "Kc Qd"),
        ("2c 2d 5h", "Ac Kd Qh"),
        ("Kc Kd 5h", "Qc Qd Ah"),
        ("Kc Kd 5h", "Kh Ks 4c"),  # the kicker
        ("2c 2d 3h 3s", "Ac Ad Kh Qs"),  # two pair beats a pair
        ("3c 3d 2h 2s", "3h 3s 2c Ad"),
        ("Ac Ad 2h 2s", "Kc Kd Qh Qs"),
        ("3c 3d 3h 2s", "Ac Ad Kh Ks"),  # trips beat two pair
        ("2c 2d 2h", "Ac Ad Kh"),  # trips beat a pair
        ("4c 4d 4h 2s", "3c 3d 3h As"),
        ("2c 2d 2h 2s", "Ac Ad Ah Ks"),  # quads beat trips
        ("Kc 2d 3h 4s", "9h Th Jh Qh"),  # straights and flushes on board do not count
        ("2c 2d 3h 4s", "9h Th Jh Qh"),
        ("Ac Kd 7h 5s", "Kh Qh Jh Th"),
    ],
)
def test_board_high_order(better: str, worse: str) -> None:
    assert _bh(better) > _bh(worse)


def test_board_high_ties_ignore_suits() -> None:
    assert _bh("Ac Kd") == _bh("Ah Ks")
    assert _bh("9h Th Jh Qh") == _bh("9c Td Js Qh")
    assert _bh("7c 7d 2h") == _bh("7h 7s 2c")


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("3c 2d", "Ac 4d"),  # the highest card is compared first
        ("Ac 2d", "3c 2d"),
        ("Ac 2d", "Ah 3d"),
        ("Kc Qd", "Ac Ad"),  # a pair is worse than any unpaired board
        ("Kc Qd Jh Ts", "2c 2d 3h 4s"),
        ("Ac Ad", "2c 2d"),  # a lower pair is better
        ("Ac Ad 2h", "Ah As 3c"),
        ("7c 5d 4h 3s", "7h 6d 2h As"),
        ("2c 3d 4h 5s", "6h Ad 2d 3c"),  # straights and flushes do not count
        ("2h 3h 4h 5h", "6h Ad 2d 3c"),
        ("Kc Kd Qh", "Ac Ad Ah"),  # a pair is better than trips
        ("Kc Kd Qh Qs", "2c 2d 2h As"),  # two pair is better than trips
        ("Ac Ad Ah 2s", "2c 2d 2h 2s"),  # trips are better than quads
        ("6c 4d", "7c Ad"),
        ("8c 7d 6h 5s", "9c Ad 2h 3s"),
    ],
)
def test_board_low_order(better: str, worse: str) -> None:
    assert _bl(better) > _bl(worse)


def test_board_low_single_cards() -> None:
    order = [
        _bl(t)
        for t in ("Kc", "Qc", "Jc", "Tc", "9c", "8c", "7c", "6c", "5c", "4c", "3c", "2c", "Ac")
    ]
    assert all(a < b for a, b in pairwise(order))
    order_high = [
        _bh(t)
        for t in ("2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "Tc", "Jc", "Qc", "Kc", "Ac")
    ]
    assert all(a < b for a, b in pairwise(order_high))


def test_board_low_ties_ignore_suits() -> None:
    assert _bl("3c 2d") == _bl("3h 2s")
    assert _bl("2h 3h 4h 5h") == _bl("2c 3d 4s 5c")


def _naive_board(ranks: Sequence[int]) -> tuple[int, ...]:
    """A board's high value: pairs and trips and quads count, straights and flushes do not."""
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)
    category = {4: 5, 3: 4}.get(shape[0]) or (3 if shape[:2] == [2, 2] else shape[0])
    ordered = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return (category, *ordered)


def test_boards_exhaustively_by_rank() -> None:
    """Every board of one to four cards, by its ranks: ours orders them as the naive value does,
    for high (deuce low) and for low (ace low, reversed); and suits never matter."""
    rng = random.Random(5)
    for size in range(1, 5):
        highs = []
        lows = []
        for ranks in _rank_multisets(size):
            suits = [[i for i, r2 in enumerate(ranks[:j]) if r2 == r] for j, r in enumerate(ranks)]
            board = [r * 4 + len(s) for r, s in zip(ranks, suits, strict=True)]
            other = [r * 4 + (3 - len(s)) for r, s in zip(ranks, suits, strict=True)]
            rng.shuffle(other)
            assert board_high_key(board) == board_high_key(other)
            assert board_low_key(board) == board_low_key(other)
            key = _naive_board(ranks)
            highs.append((board_high_key(board), key))
            ace_low = [(r + 1) % 13 for r in ranks]  # ace 0 .. king 12
            low_value = _naive_board(ace_low)
            lows.append((board_low_key(board), tuple(-x for x in low_value)))
        for what, pairs in (("board high", highs), ("board low", lows)):
            ordered = sorted(pairs, key=lambda p: p[1])
            for (o1, n1), (o2, n2) in pairwise(ordered):
                assert _sign(o1, o2) == _sign(n1, n2), (what, size, n1, n2)


def _rank_multisets(size: int) -> list[list[int]]:
    out: list[list[int]] = []

    def extend(start: int, chosen: list[int]) -> None:
        if len(chosen) == size:
            out.append(list(chosen))
            return
        for r in range(start, 13):
            if chosen.count(r) < 4:
                chosen.append(r)
                extend(r, chosen)
                chosen.pop()

    extend(0, [])
    return out


# ===============================================================================================
# Wrong sizes.
# ===============================================================================================

EVALUATORS: list[Callable[[Sequence[int]], object]] = [high_rank, low_rank, low8_rank, hilo8_ranks]


@pytest.mark.parametrize("evaluate", EVALUATORS)
@pytest.mark.parametrize(
    "text",
    [
        "",
        "As",
        "As Kd 3c",
        "As Kd 3c 4d",
        "As Ks Qs Js",
        "As Ks Qs Js Ts 9s 8s 7s",
        "As Kd 3c 4d 5h 6s 7c 8d",
        "Ac Ad Ah As Kc Kd Kh Ks",
        "2c 3c 4c 5c 6c 7c 8c 9c",
        "As Ks Qs Js 9s 2c 3d 4h",
        "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac",
    ],
)
def test_wrong_number_of_cards(evaluate: Callable[[Sequence[int]], object], text: str) -> None:
    hand = parse_cards(text)
    with pytest.raises(ValueError, match=str(len(hand))):
        evaluate(hand)


@pytest.mark.parametrize("evaluate", EVALUATORS)
def test_random_wrong_sizes(evaluate: Callable[[Sequence[int]], object]) -> None:
    rng = random.Random(11)
    for size in (1, 2, 3, 4, 8, 9, 10):
        for _ in range(100):
            with pytest.raises(ValueError):
                evaluate(rng.sample(range(52), size))
