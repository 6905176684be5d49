"""Hand evaluation: the best five of five to seven cards, for high, for ace-to-five low, and for
the eight-or-better qualified low. Table driven: no five-card subsets are tried at run time.

Every rank here is an ``int`` and **a greater rank is always the better hand**, for high and low
alike, so a showdown is a ``max``. ``low8_rank`` is 0 when no low qualifies.

How it is fast: a hand's high (apart from flushes) and its lows depend only on the multiset of
its ranks. Each card adds ``5 ** rank`` to a key (counts in base 5, so the key names the multiset
exactly) and ``1 << (32 + 4 * suit)`` to a suit counter in the high bits; one ``sum`` over the
cards and one dictionary look-up give the rank. The tables hold every multiset of 5, 6 and 7
ranks (73,775 of them) and are built once at import, the 6- and 7-card ones from the 5-card ones
by dropping one card at a time. Flushes are rare (3% of seven-card hands) and take a side path
through a 8,192-entry table of suit masks.

>>> from sevenstud.cards import parse_cards
>>> high_name(high_rank(parse_cards("Kc Kd 3s Ks 3h 7c 2d")))
'a full house, Kings full of Threes'
>>> low_name(low8_rank(parse_cards("8c 6d 4h 3s 2c Kd Kh")))
'8,6,4,3,2'
>>> low8_rank(parse_cards("9c 6d 4h 3s 2c Kd Kh"))
0
"""

from __future__ import annotations

from collections.abc import Sequence

from sevenstud.cards import RANK_CHARS, RANK_NAMES, RANK_PLURALS

# Categories of a high hand, weakest first.
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = (
    "high card",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
# Categories of an ace-to-five low, best first (the rank is built so that greater is better).
LOW_NO_PAIR, LOW_PAIR, LOW_TWO_PAIR, LOW_TRIPS, LOW_FULL_HOUSE, LOW_QUADS = range(6)
_LOW_TOP = 6 << 20  # goodness = _LOW_TOP - badness, always positive

_SUIT_SHIFT = 32
_KEY_MASK = (1 << _SUIT_SHIFT) - 1
_FLUSH_PROBE = (
    0x3333  # added to the four 4-bit suit counts, a count of 5+ sets that nibble's top bit
)
_FLUSH_BITS = 0x8888
_FLUSH_SUIT = {0x8: 0, 0x80: 1, 0x800: 2, 0x8000: 3}

_W = tuple(5**r for r in range(13))
# Per card (rank * 4 + suit): its rank weight and its suit counter, added together.
_PACK: tuple[int, ...] = tuple(_W[c >> 2] + (1 << (_SUIT_SHIFT + 4 * (c & 3))) for c in range(52))
_pack = _PACK.__getitem__

# The ten straights as 13-bit rank masks, best first; the wheel's top card is the five (rank 3).
_STRAIGHTS = (*((0x1F << low, low + 4) for low in range(8, -1, -1)), (0x100F, 3))


def _pack_ranks(category: int, ranks: Sequence[int]) -> int:
    value = category
    for i in range(5):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return value


def _grouped(counts: dict[int, int]) -> tuple[list[int], list[int]]:
    """Ranks ordered by (count, rank) descending, and their counts."""
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return order, [counts[r] for r in order]


def _high5(counts: dict[int, int]) -> int:
    """High rank of five cards of distinct suits-or-not (flushes are handled apart)."""
    order, shape = _grouped(counts)
    if len(order) == 5:
        mask = sum(1 << r for r in order)
        for straight_mask, top in _STRAIGHTS:
            if mask == straight_mask:
                return _pack_ranks(STRAIGHT, (top,))
        return _pack_ranks(HIGH_CARD, order)
    category = {
        (4, 1): QUADS,
        (3, 2): FULL_HOUSE,
        (3, 1, 1): TRIPS,
        (2, 2, 1): TWO_PAIR,
        (2, 1, 1, 1): PAIR,
    }[tuple(shape)]
    return _pack_ranks(category, order)


def _low5(counts: dict[int, int]) -> int:
    """Ace-to-five goodness of five cards (ace low; straights and flushes do not count)."""
    low_counts = {(r + 1) % 13: n for r, n in counts.items()}  # ace 0, deuce 1, ..., king 12
    order, shape = _grouped(low_counts)
    category = {
        (1, 1, 1, 1, 1): LOW_NO_PAIR,
        (2, 1, 1, 1): LOW_PAIR,
        (2, 2, 1): LOW_TWO_PAIR,
        (3, 1, 1): LOW_TRIPS,
        (3, 2): LOW_FULL_HOUSE,
        (4, 1): LOW_QUADS,
    }[tuple(shape)]
    return _LOW_TOP - _pack_ranks(category, order)


_EIGHT_LOW_LIMIT = _LOW_TOP - _pack_ranks(
    LOW_NO_PAIR, (7, 15, 15, 15, 15)
)  # 8 high (8 is 7, ace low)


def _build_tables() -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    high: dict[int, int] = {}
    low: dict[int, int] = {}
    low8: dict[int, int] = {}
    # Every multiset of exactly five ranks, at most four of each.
    layer: list[tuple[int, dict[int, int]]] = []

    def extend(rank: int, left: int, counts: dict[int, int], key: int) -> None:
        if left == 0:
            layer.append((key, dict(counts)))
            return
        if rank == 13:
            return
        for n in range(min(4, left), -1, -1):
            if n:
                counts[rank] = n
            extend(rank + 1, left - n, counts, key + n * _W[rank])
            counts.pop(rank, None)

    extend(0, 5, {}, 0)
    for key, counts in layer:
        high[key] = _high5(counts)
        lo = _low5(counts)
        low[key] = lo
        low8[key] = lo if lo >= _EIGHT_LOW_LIMIT else 0
    # Six and seven ranks: the best over dropping one card, pushed up from every smaller
    # multiset to each one it grows into by one card (at most four of a rank).
    previous = [key for key, _ in layer]
    for _size in (6, 7):
        grown_high: dict[int, int] = {}
        grown_low: dict[int, int] = {}
        grown_low8: dict[int, int] = {}
        for key in previous:
            hi, lo, lo8 = high[key], low[key], low8[key]
            rest = key
            for weight in _W:
                rest, count = divmod(rest, 5)
                if count == 4:
                    continue
                up = key + weight
                best = grown_high.get(up)
                if best is None:
                    grown_high[up], grown_low[up], grown_low8[up] = hi, lo, lo8
                    continue
                if hi > best:
                    grown_high[up] = hi
                if lo > grown_low[up]:
                    grown_low[up] = lo
                if lo8 > grown_low8[up]:
                    grown_low8[up] = lo8
        high.update(grown_high)
        low.update(grown_low)
        low8.update(grown_low8)
        previous = list(grown_high)
    return high, low, low8


def _build_flush_table() -> list[int]:
    table = [0] * 8192
    for mask in range(8192):
        if mask.bit_count() < 5:
            continue
        for straight_mask, top in _STRAIGHTS:
            if mask & straight_mask == straight_mask:
                table[mask] = _pack_ranks(STRAIGHT_FLUSH, (top,))
                break
        else:
            top5 = [r for r in range(12, -1, -1) if mask >> r & 1][:5]
            table[mask] = _pack_ranks(FLUSH, top5)
    return table


_HIGH, _LOW, _LOW8 = _build_tables()
_FLUSH = _build_flush_table()


def _flush_high(cards: Sequence[int], probe: int) -> int:
    _check_size(cards)  # five+ of a suit among 8+ cards would otherwise pass unnoticed
    suit = _FLUSH_SUIT[probe]
    mask = 0
    for c in cards:
        if c & 3 == suit:
            mask |= 1 << (c >> 2)
    return _FLUSH[mask]


def _check_size(cards: Sequence[int]) -> None:
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"a hand to evaluate has 5 to 7 cards, not {len(cards)}")


def high_rank(cards: Sequence[int]) -> int:
    """The high rank of the best five of ``cards`` (5 to 7 distinct cards); greater is better."""
    h = sum(map(_pack, cards))
    probe = ((h >> _SUIT_SHIFT) + _FLUSH_PROBE) & _FLUSH_BITS
    if probe:
        return _flush_high(cards, probe)
    try:
        return _HIGH[h & _KEY_MASK]
    except KeyError:
        _check_size(cards)
        raise


def low_rank(cards: Sequence[int]) -> int:
    """The ace-to-five low rank (razz: pairs bad, no qualifier); greater is better, never 0."""
    try:
        return _LOW[sum(map(_pack, cards)) & _KEY_MASK]
    except KeyError:
        _check_size(cards)
        raise


def low8_rank(cards: Sequence[int]) -> int:
    """The eight-or-better low rank: as :func:`low_rank` when five unpaired cards 8 or lower
    can be chosen, otherwise 0 (no qualifying low)."""
    try:
        return _LOW8[sum(map(_pack, cards)) & _KEY_MASK]
    except KeyError:
        _check_size(cards)
        raise


def hilo8_ranks(cards: Sequence[int]) -> tuple[int, int]:
    """``(high_rank, low8_rank)`` at once: what a stud hi/lo showdown needs."""
    h = sum(map(_pack, cards))
    key = h & _KEY_MASK
    probe = ((h >> _SUIT_SHIFT) + _FLUSH_PROBE) & _FLUSH_BITS
    try:
        if probe:
            return _flush_high(cards, probe), _LOW8[key]
        return _HIGH[key], _LOW8[key]
    except KeyError:
        _check_size(cards)
        raise


def high_category(rank: int) -> int:
    """The category of a high rank: :data:`HIGH_CARD` .. :data:`STRAIGHT_FLUSH`."""
    return rank >> 20


def _nibbles(value: int) -> list[int]:
    return [(value >> shift) & 15 for shift in (16, 12, 8, 4, 0)]


def high_name(rank: int) -> str:
    """The card rooms' name of a high rank, e.g. ``'a full house, Kings full of Threes'``."""
    category = rank >> 20
    r = _nibbles(rank)
    if category == STRAIGHT_FLUSH:
        if r[0] == 12:
            return "a Royal Flush"
        return f"a straight flush, {RANK_NAMES[r[0] - 4 if r[0] > 3 else 12]} to {RANK_NAMES[r[0]]}"
    if category == QUADS:
        return f"four of a kind, {RANK_PLURALS[r[0]]}"
    if category == FULL_HOUSE:
        return f"a full house, {RANK_PLURALS[r[0]]} full of {RANK_PLURALS[r[1]]}"
    if category == FLUSH:
        return f"a flush, {RANK_NAMES[r[0]]} high"
    if category == STRAIGHT:
        return f"a straight, {RANK_NAMES[r[0] - 4 if r[0] > 3 else 12]} to {RANK_NAMES[r[0]]}"
    if category == TRIPS:
        return f"three of a kind, {RANK_PLURALS[r[0]]}"
    if category == TWO_PAIR:
        return f"two pair, {RANK_PLURALS[r[0]]} and {RANK_PLURALS[r[1]]}"
    if category == PAIR:
        return f"a pair of {RANK_PLURALS[r[0]]}"
    return f"high card {RANK_NAMES[r[0]]}"


_LOW_CHARS = "A" + RANK_CHARS[:-1]  # ace-low index 0..12 -> "A23456789TJQK"
_LOW_SHAPES = ((1, 1, 1, 1, 1), (2, 1, 1, 1), (2, 2, 1), (3, 1, 1), (3, 2), (4, 1))


def low_cards(rank: int) -> list[str]:
    """The five cards of a low (ace-to-five) rank as rank characters, as the card room lists them:
    unpaired lows from the highest card down (``['8', '6', '4', '3', '2']``); paired ones with the
    pairs first."""
    if rank <= 0:
        raise ValueError("no low: there is nothing to name")
    badness = _LOW_TOP - rank
    category = badness >> 20
    ranks = _nibbles(badness)
    cards: list[str] = []
    for r, n in zip(ranks, _LOW_SHAPES[category], strict=False):
        cards.extend([_LOW_CHARS[r]] * n)
    return cards


def low_name(rank: int) -> str:
    """The card rooms' name of a low rank: ``'8,6,4,3,2'``, ``'5,4,3,2,A'``."""
    return ",".join(low_cards(rank))


def low_category(rank: int) -> int:
    """:data:`LOW_NO_PAIR` .. :data:`LOW_QUADS` of a low rank."""
    return (_LOW_TOP - rank) >> 20


def _board_groups(ranks: list[int]) -> tuple[int, ...]:
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    order, shape = _grouped(counts)
    # quads, trips (with or without a pair: four cards cannot hold a full house), two pair,
    # pair, high cards: the shape decides first, then the ranks in group order.
    strength = {4: 4, 3: 3}.get(shape[0], 0) or (2 if shape[:2] == [2, 2] else shape[0] - 1)
    return (strength, *order)


# Board keys by the board's ranks as a multiset: four bits a rank (how many cards of it), so
# that the lookup needs no sorting and no tuple (this runs for every live seat on every street
# from 4th on). Boards of more than 15 cards, which no stud hand has, are not remembered.
_BOARD_HIGH: dict[int, tuple[int, ...]] = {}
_BOARD_LOW: dict[int, tuple[int, ...]] = {}


def _rank_multiset(up_cards: Sequence[int]) -> int:
    code = 0
    for card in up_cards:
        code += 1 << 4 * (card >> 2)  # card >> 2: its rank (cards.py)
    return code if len(up_cards) <= 15 else -1


def board_high_key(up_cards: Sequence[int]) -> tuple[int, ...]:
    """How good an open stud board is for deciding who acts first: quads, trips, two pair, a
    pair, then high cards; straights and flushes never count. Greater is better; suits never
    matter."""
    code = _rank_multiset(up_cards)
    key = _BOARD_HIGH.get(code)
    if key is None:  # at most 2,379 boards of 1 to 4 cards: remember each
        key = _board_groups(sorted([c >> 2 for c in up_cards]))
        if code >= 0:
            _BOARD_HIGH[code] = key
    return key


def board_low_key(up_cards: Sequence[int]) -> tuple[int, ...]:
    """As :func:`board_high_key` for razz: the best ace-to-five low board is greatest (pairs are
    bad, the highest card compared first)."""
    code = _rank_multiset(up_cards)
    key = _BOARD_LOW.get(code)
    if key is None:
        strength, *order = _board_groups(sorted([((c >> 2) + 1) % 13 for c in up_cards]))
        key = (-strength, *(-r for r in order))
        if code >= 0:
            _BOARD_LOW[code] = key
    return key
