"""Batch hand evaluation with numpy: many 5-, 6- or 7-card hands at once, no Python loop per hand.

The integers are exactly those of :mod:`sevenstud.evaluate` (the tables are built from its
tables): a greater rank is a better hand, ``low8`` is 0 when no low qualifies.

How it works. As in the pure evaluator, a hand's high (flushes apart) and its lows depend only on
the multiset of its ranks, named by a base-5 key (each card adds ``5 ** rank``). Here the key is
split in two: the digits of the ranks deuce to eight (``5 ** 7`` values) and those of nine to ace
(``5 ** 6`` values). Each card's entry in :data:`PACK` holds both parts and a 4-bit counter of its
suit, so a hand's packed sum is ``k`` table look-ups and ``k - 1`` additions. The dense index of
the multiset (one of the 76,155 multisets of at most seven ranks) is then
``OFFSET[high part] + LOW_INDEX[low part]``: the multisets are laid out in blocks, one per high
part, each as long as the number of low parts that can complete it, and the low parts are numbered
smallest first, so the numbering is exact, with no hashing and no gaps. Flushes (about 3% of
seven-card hands) are found from the suit counters and take a side path through the 8,192-entry
table of 13-bit rank masks of :mod:`sevenstud.evaluate`.

>>> import numpy as np
>>> from sevenstud.cards import parse_cards
>>> hands = np.array([parse_cards("As Ks Qs Js Ts 2c 2d"), parse_cards("8c 6d 4h 3s 2c Kd Kh")])
>>> r = evaluate_batch(hands)
>>> [hex(int(v)) for v in r.high], [int(v > 0) for v in r.low8]
(['0x8c0000', '0x1b6420'], [0, 1])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from sevenstud import evaluate as _pure
from sevenstud.fast.device import Backend, backend

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]

# ----------------------------------------------------------------------------------- the layout

SPLIT = 7  # ranks 0..6 (deuce..eight) make the low part of the key, 7..12 (nine..ace) the high
LOW_PARTS = 5**SPLIT  # 78,125
HIGH_PARTS = 5 ** (13 - SPLIT)  # 15,625
LOW_SHIFT = 16  # bits 0..15: four 4-bit suit counters; 16..32: the low part; 33..46: the high
LOW_MASK = (1 << 17) - 1
HIGH_SHIFT = 33
SUIT_PROBE = 0x3333  # added once: a suit counter of five or more then sets its nibble's top bit
FLUSH_BITS = 0x8888
CARD_BITS_PER_SUIT = 13


def _pack_table() -> I64:
    pack = np.zeros(52, dtype=np.int64)
    for card in range(52):
        rank, suit = card >> 2, card & 3
        value = 1 << (4 * suit)
        if rank < SPLIT:
            value += 5**rank << LOW_SHIFT
        else:
            value += 5 ** (rank - SPLIT) << HIGH_SHIFT
        pack[card] = value
    return pack


PACK: I64 = _pack_table()
"""Per card: its suit counter, and its rank's weight in the low or the high part of the key."""
CARD_BIT: I64 = np.array([1 << (CARD_BITS_PER_SUIT * (c & 3) + (c >> 2)) for c in range(52)], dtype=np.int64)
"""Per card: one bit of a 52-bit card mask, 13 bits per suit (used on the flush path)."""


def _digit_sums(values: I64, digits: int) -> I64:
    total = np.zeros_like(values)
    rest = values.copy()
    for _ in range(digits):
        total += rest % 5
        rest //= 5
    return total


def _build_index() -> tuple[I32, I32, int]:
    low_parts = np.arange(LOW_PARTS, dtype=np.int64)
    low_size = _digit_sums(low_parts, SPLIT)
    order = np.lexsort((low_parts, low_size))
    order = order[low_size[order] <= 7]
    low_index = np.full(LOW_PARTS, -1, dtype=np.int64)
    low_index[order] = np.arange(order.size)
    up_to = np.array([(low_size <= m).sum() for m in range(8)], dtype=np.int64)
    high_parts = np.arange(HIGH_PARTS, dtype=np.int64)
    high_size = _digit_sums(high_parts, 13 - SPLIT)
    block = np.where(high_size <= 7, up_to[np.clip(7 - high_size, 0, 7)], 0)
    offset = np.cumsum(block) - block
    return offset.astype(np.int32), np.maximum(low_index, 0).astype(np.int32), int(block.sum())


OFFSET, LOW_INDEX, TABLE_SIZE = _build_index()


def dense_index(keys: npt.ArrayLike) -> I64:
    """The dense index (``0 <= i < TABLE_SIZE``) of base-5 rank keys (``sum(5 ** rank)``)."""
    k = np.asarray(keys, dtype=np.int64)
    index: I64 = OFFSET[k // LOW_PARTS].astype(np.int64) + LOW_INDEX[k % LOW_PARTS]
    return index


def _dense_table(source: dict[int, int]) -> I32:
    keys = np.fromiter(source.keys(), dtype=np.int64, count=len(source))
    values = np.fromiter(source.values(), dtype=np.int64, count=len(source))
    table = np.zeros(TABLE_SIZE, dtype=np.int32)
    table[dense_index(keys)] = values
    return table


HIGH: I32 = _dense_table(_pure._HIGH)
"""High rank by dense multiset index (not counting flushes)."""
LOW: I32 = _dense_table(_pure._LOW)
"""Ace-to-five low rank by dense multiset index."""
LOW8: I32 = _dense_table(_pure._LOW8)
"""Eight-or-better low rank by dense multiset index (0: no qualifying low)."""
FLUSH: I32 = np.array(_pure._FLUSH, dtype=np.int32)
"""High rank of a flush by the 13-bit rank mask of its suit."""

# ------------------------------------------------------------------------------ the primitives

CHUNK = 1 << 15  # rows per pass: small enough for the temporaries to stay in cache


def packed_sum(cards: npt.NDArray[Any], base: int = SUIT_PROBE) -> I64:
    """``base + sum(PACK[cards[:, t]])`` for an (N, k) array of cards."""
    h = PACK.take(cards[:, 0], mode="clip")
    h += base
    for t in range(1, cards.shape[1]):
        h += PACK.take(cards[:, t], mode="clip")
    return h


def index_of(h: I64) -> npt.NDArray[np.intp]:
    """The dense multiset index of packed sums."""
    low = h >> LOW_SHIFT
    low &= LOW_MASK
    index = OFFSET.take(h >> HIGH_SHIFT, mode="clip").astype(np.intp)
    index += LOW_INDEX.take(low, mode="clip")
    return index


def flush_suit(probe: I64) -> I64:
    """The suit (0..3) of the flush named by non-zero ``h & FLUSH_BITS`` (one suit at most: a
    hand of seven cards or fewer cannot hold two flushes)."""
    return (probe >= 0x80).astype(np.int64) + (probe >= 0x800) + (probe >= 0x8000)


def flush_high(card_mask: I64, suit: I64) -> I32:
    """The high rank of flushes from 52-bit card masks and the flush suit."""
    ranks = (card_mask >> (CARD_BITS_PER_SUIT * suit)) & 0x1FFF
    return FLUSH.take(ranks)


def high_from_packed(h: I64, index: npt.NDArray[np.intp], cards: npt.NDArray[Any]) -> I32:
    """High ranks from packed sums (made with ``base=SUIT_PROBE``), their dense indexes and the
    cards (read only for the few flushes)."""
    high = HIGH.take(index)
    probe = h & FLUSH_BITS
    rows = np.flatnonzero(probe)
    if rows.size:
        sub = cards[rows]
        mask = CARD_BIT.take(sub[:, 0])
        for t in range(1, sub.shape[1]):
            mask |= CARD_BIT.take(sub[:, t])
        high[rows] = flush_high(mask, flush_suit(probe[rows]))
    return high


# ---------------------------------------------------------------------- the tables on a device


class Tables(NamedTuple):
    """The look-up tables as arrays of one device (uploaded once per device, then cached)."""

    PACK: Any
    CARD_BIT: Any
    OFFSET: Any
    LOW_INDEX: Any
    HIGH: Any
    LOW: Any
    LOW8: Any
    FLUSH: Any
    CARD_POW2: Any


_TABLES: dict[tuple[str, int, int], Tables] = {}


def tables(be: Backend) -> Tables:
    """The tables on ``be``'s device (numpy's own arrays on the CPU)."""
    key = be.key()
    found = _TABLES.get(key)
    if found is None:
        host = (PACK, CARD_BIT, OFFSET, LOW_INDEX, HIGH, LOW, LOW8, FLUSH, CARD_POW2)
        found = Tables(*(host if not be.gpu else [be.xp.asarray(a) for a in host]))
        _TABLES[key] = found
    return found


# The device code path. The same integers as the numpy functions above, but written for a GPU:
# only functions CuPy has, no `take(mode=...)`, and the flushes folded in with `where` rather than
# picked out with `nonzero` (which would make the host wait for the device at every block).


def device_packed_sum(t: Tables, cols: Sequence[Any], base: int) -> Any:
    """``base + sum(PACK[col])`` over columns of card numbers (at least one column)."""
    h = t.PACK.take(cols[0])
    h += base
    for col in cols[1:]:
        h += t.PACK.take(col)
    return h


def device_index(t: Tables, h: Any) -> Any:
    """The dense multiset index of packed sums (as :func:`index_of`)."""
    index = t.OFFSET.take(h >> HIGH_SHIFT).astype(np.int64)
    index += t.LOW_INDEX.take((h >> LOW_SHIFT) & LOW_MASK)
    return index


def device_high(t: Tables, xp: Any, h: Any, index: Any, cols: Sequence[Any], mask_base: int = 0) -> Any:
    """High ranks from packed sums (``base=SUIT_PROBE``), dense indexes and the card columns;
    ``mask_base``: the card bits of known cards that are not in ``cols``."""
    high = t.HIGH.take(index)
    probe = h & FLUSH_BITS
    if cols:
        mask = t.CARD_BIT.take(cols[0])
        for col in cols[1:]:
            mask |= t.CARD_BIT.take(col)
        if mask_base:
            mask |= mask_base
    else:
        mask = xp.full(h.shape, mask_base, dtype=np.int64)
    suit = (probe >= 0x80).astype(np.int64) + (probe >= 0x800) + (probe >= 0x8000)
    flush = t.FLUSH.take((mask >> (CARD_BITS_PER_SUIT * suit)) & 0x1FFF)
    return xp.where(probe != 0, flush, high)


DEVICE_CHUNK = 1 << 22  # hands per pass on a GPU


def _device_check(t: Tables, xp: Any, chunk: Any, first_row: int) -> Any:
    """As :func:`check_cards`, on the device (the host learns only whether a chunk is bad)."""
    bad = chunk > 51
    if chunk.dtype.kind == "i":
        bad |= chunk < 0
    bad_rows = bad.any(axis=1)
    if bool(bad_rows.any()):
        row = int(xp.flatnonzero(bad_rows)[0])
        raise ValueError(f"hand {first_row + row}: cards must be integers 0..51, not {chunk[row].tolist()}")
    small = chunk.astype(np.uint8, copy=False)
    # Distinct powers of two: the sum equals the bitwise or; a repeated card carries.
    total = t.CARD_POW2.take(small[:, 0])
    union = total.copy()
    for c in range(1, small.shape[1]):
        bit = t.CARD_POW2.take(small[:, c])
        total += bit
        union |= bit
    repeated = total != union
    if bool(repeated.any()):
        row = int(xp.flatnonzero(repeated)[0])
        raise ValueError(f"hand {first_row + row} holds the same card twice: {small[row].tolist()}")
    return small


def _run_device(be: Backend, cards: Any, check: bool, want: tuple[bool, bool, bool]) -> list[Any]:
    xp = be.xp
    t = tables(be)
    array = _as_cards(cards, xp)
    n = array.shape[0]
    outs = [xp.empty(n if w else 0, dtype=np.int32) for w in want]
    for start in range(0, n, DEVICE_CHUNK):
        chunk = array[start : start + DEVICE_CHUNK]
        chunk = _device_check(t, xp, chunk, start) if check else chunk.astype(np.uint8, copy=False)
        cols = [chunk[:, c] for c in range(chunk.shape[1])]
        h = device_packed_sum(t, cols, SUIT_PROBE)
        index = device_index(t, h)
        stop = start + chunk.shape[0]
        if want[0]:
            outs[0][start:stop] = device_high(t, xp, h, index, cols)
        if want[1]:
            outs[1][start:stop] = t.LOW.take(index)
        if want[2]:
            outs[2][start:stop] = t.LOW8.take(index)
    return outs


# ------------------------------------------------------------------------------ the public API


class BatchRanks(NamedTuple):
    """Per hand: ``high`` rank, ace-to-five ``low`` rank, ``low8`` (0: no qualifying low)."""

    high: I32
    low: I32
    low8: I32


CARD_POW2: I64 = np.array([1 << c for c in range(52)], dtype=np.int64)


def _as_cards(cards: npt.ArrayLike, xp: Any = np) -> Any:
    """``cards`` as an (N, k) integer array of ``xp`` (numpy, or CuPy on a GPU), or a
    :class:`ValueError` naming what is wrong with its shape or type."""
    array = xp.asarray(cards)
    if array.ndim != 2 or not 5 <= array.shape[1] <= 7:
        raise ValueError(
            f"expected an (N, k) array of hands with k = 5, 6 or 7 cards, not shape {tuple(array.shape)}"
        )
    if array.dtype.kind not in "iu":
        raise ValueError(f"cards must be integers 0..51, not {array.dtype}")
    return array


def check_cards(chunk: npt.NDArray[Any], first_row: int = 0) -> npt.NDArray[Any]:
    """``chunk`` as ``uint8``, or a :class:`ValueError` naming the first hand with a card outside
    0..51 or with the same card twice."""
    if chunk.size and (int(chunk.min()) < 0 or int(chunk.max()) > 51):
        bad = int(np.flatnonzero(((chunk < 0) | (chunk > 51)).any(axis=1))[0])
        raise ValueError(f"hand {first_row + bad}: cards must be integers 0..51, not {chunk[bad].tolist()}")
    small = chunk.astype(np.uint8, copy=False)
    # k distinct powers of two add up to a number with k set bits; a repeated card carries.
    total = CARD_POW2.take(small[:, 0])
    for t in range(1, small.shape[1]):
        total += CARD_POW2.take(small[:, t])
    bad_rows = np.flatnonzero(np.bitwise_count(total) != small.shape[1])
    if bad_rows.size:
        bad = int(bad_rows[0])
        raise ValueError(f"hand {first_row + bad} holds the same card twice: {small[bad].tolist()}")
    return small


def _run(cards: npt.ArrayLike, check: bool, want: tuple[bool, bool, bool], device: str = "cpu") -> list[I32]:
    if device != "cpu":
        return _run_device(backend(device), cards, check, want)
    array = _as_cards(cards)
    n = array.shape[0]
    outs = [np.empty(n, dtype=np.int32) if w else np.empty(0, dtype=np.int32) for w in want]
    for start in range(0, n, CHUNK):
        chunk = array[start : start + CHUNK]
        chunk = check_cards(chunk, start) if check else chunk.astype(np.uint8, copy=False)
        h = packed_sum(chunk)
        index = index_of(h)
        stop = start + chunk.shape[0]
        if want[0]:
            outs[0][start:stop] = high_from_packed(h, index, chunk)
        if want[1]:
            LOW.take(index, out=outs[1][start:stop], mode="clip")
        if want[2]:
            LOW8.take(index, out=outs[2][start:stop], mode="clip")
    return outs


def evaluate_batch(cards: npt.ArrayLike, *, check: bool = True, device: str = "cpu") -> BatchRanks:
    """High, ace-to-five low and eight-or-better low ranks of an (N, k) array of hands
    (k = 5, 6 or 7 distinct cards, each ``rank * 4 + suit``), as ``int32`` arrays equal to
    :func:`sevenstud.evaluate.high_rank`, :func:`~sevenstud.evaluate.low_rank` and
    :func:`~sevenstud.evaluate.low8_rank`. ``check=False`` skips the checks that every card is
    0..51 and that no hand repeats a card (garbage in, garbage out). ``device="cuda"``: on the
    GPU with CuPy (the hands may be a numpy or a CuPy array; the ranks are CuPy arrays, on the
    device: ``.get()`` brings them back)."""
    high, low, low8 = _run(cards, check, (True, True, True), device)
    return BatchRanks(high, low, low8)


def high_ranks(cards: npt.ArrayLike, *, check: bool = True, device: str = "cpu") -> I32:
    """As :func:`sevenstud.evaluate.high_rank`, for every row of an (N, k) array."""
    return _run(cards, check, (True, False, False), device)[0]


def low_ranks(cards: npt.ArrayLike, *, check: bool = True, device: str = "cpu") -> I32:
    """As :func:`sevenstud.evaluate.low_rank` (ace-to-five, razz), for every row."""
    return _run(cards, check, (False, True, False), device)[1]


def low8_ranks(cards: npt.ArrayLike, *, check: bool = True, device: str = "cpu") -> I32:
    """As :func:`sevenstud.evaluate.low8_rank` (0: no qualifying low), for every row."""
    return _run(cards, check, (False, False, True), device)[2]


def hilo8_ranks(cards: npt.ArrayLike, *, check: bool = True, device: str = "cpu") -> tuple[I32, I32]:
    """``(high, low8)`` for every row: what a stud hi/lo showdown needs."""
    high, _, low8 = _run(cards, check, (True, False, True), device)
    return high, low8
