"""The problem every equity kernel is handed, the tallies they return, and what they share.

:class:`Deal` says what is known and what is still to come; :class:`Counts` holds integer
tallies, the pot counted as :data:`POT` units. Shared by the kernels: the combinatorics of
completions (:func:`combos`, colex numbers, :func:`incidences`), a player's known cards folded
ready for the unknown ones (:class:`Side`, on the CPU or a device), and the tallying of blocks of
outcomes (:func:`tally` on the CPU, :class:`Tallies` summed on a device). The kernels themselves
are in :mod:`sevenstud.fast.kernels`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from sevenstud.fast import evaluate as fe
from sevenstud.fast.device import CPU, Backend
from sevenstud.games import GAME_CODES, game_class

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
Progress = Callable[[float], None]

POT = 1680  # 2 * lcm(1..8): a whole pot or a half split among up to eight players is whole
HALF = POT // 2
SHARE_WHOLE: I64 = np.array([0] + [POT // k for k in range(1, 9)], dtype=np.int64)
SHARE_HALF: I64 = np.array([0] + [HALF // k for k in range(1, 9)], dtype=np.int64)

GAMES = GAME_CODES  # the codes the kernels know (defined once, in games.py)
BLOCK = 1 << 16  # outcomes per vectorised step


# ===============================================================================================
# The problem and the tallies
# ===============================================================================================


@dataclass(frozen=True)
class Deal:
    """What is known and what is still to come. ``known[i]``: player i's known cards (the
    community card included when it is known); ``unknown[i]``: how many private cards player i
    still gets (their ``??`` cards and the streets to come); ``community``: 1 when one shared card
    is still to be dealt; ``unseen``: every card not known to be somewhere, sorted."""

    game: str
    known: tuple[tuple[int, ...], ...]
    unknown: tuple[int, ...]
    community: int
    unseen: tuple[int, ...]

    @property
    def players(self) -> int:
        return len(self.known)

    def outcomes(self) -> int:
        """How many equally likely ways the unknown cards can be given out."""
        left = len(self.unseen)
        total = 1
        for u in self.unknown:
            total *= comb(left, u)
            left -= u
        return total * (left if self.community else 1)


@dataclass
class Counts:
    """Integer tallies over ``total`` outcomes (or trials). ``equity`` is in :data:`POT` units
    (``equity_sq``: the sum of squares of each outcome's units, for the standard error)."""

    players: int
    total: int = 0
    no_low: int = 0
    equity: list[int] = field(default_factory=list)
    equity_sq: list[int] = field(default_factory=list)
    scoop: list[int] = field(default_factory=list)
    high_win: list[int] = field(default_factory=list)
    high_tie: list[int] = field(default_factory=list)
    low_win: list[int] = field(default_factory=list)
    low_tie: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        for name in ("equity", "equity_sq", "scoop", "high_win", "high_tie", "low_win", "low_tie"):
            if not getattr(self, name):
                setattr(self, name, [0] * self.players)

    def add(self, other: Counts) -> None:
        self.total += other.total
        self.no_low += other.no_low
        for name in ("equity", "equity_sq", "scoop", "high_win", "high_tie", "low_win", "low_tie"):
            mine, theirs = getattr(self, name), getattr(other, name)
            for i in range(self.players):
                mine[i] += theirs[i]


def has_high(game: str) -> bool:
    """Whether ``game`` awards a high half (or the whole pot to the high)."""
    return game_class(game).has_high


def has_low(game: str) -> bool:
    """Whether ``game`` awards a low half (or the whole pot to the low)."""
    return game_class(game).has_low


# ===============================================================================================
# Combinatorics and evaluation of partly known hands
# ===============================================================================================

BINOM: I64 = np.array([[comb(n, k) for k in range(11)] for n in range(53)], dtype=np.int64)


@lru_cache(maxsize=16)
def combos(m: int, k: int) -> npt.NDArray[np.int16]:
    """Every k-subset of ``range(m)`` as a sorted row, in colex order: row ``i`` is the subset
    whose ``sum(comb(x[t], t + 1))`` is ``i``.

    >>> combos(4, 2).tolist()
    [[0, 1], [0, 2], [1, 2], [0, 3], [1, 3], [2, 3]]
    """
    if k == 0:
        return np.zeros((1, 0), dtype=np.int16)
    if k > m:
        return np.zeros((0, k), dtype=np.int16)
    # Colex order: the subsets whose largest card is `last` are those of range(last) (the first
    # comb(last, k - 1) rows of the (k - 1)-subsets of range(m - 1)), each with `last` added.
    shorter = combos(m - 1, k - 1)
    counts = [comb(last, k - 1) for last in range(k - 1, m)]
    rows = np.concatenate([np.arange(c, dtype=np.intp) for c in counts])
    out = np.empty((rows.size, k), dtype=np.int16)
    out[:, : k - 1] = shorter[rows]
    out[:, k - 1] = np.repeat(np.arange(k - 1, m, dtype=np.int16), counts)
    out.flags.writeable = False
    return out


def colex_index(rows: npt.NDArray[Any]) -> I64:
    """The colex index of sorted subsets (one per row), as :func:`combos` numbers them."""
    index = np.zeros(rows.shape[0], dtype=np.int64)
    for t in range(rows.shape[1]):
        index += BINOM[:, t + 1].take(rows[:, t])
    return index


def colex_columns(cols: Sequence[Any], binom: Any) -> Any:
    """The colex index of sorted subsets given column by column (as :func:`colex_index`)."""
    index = binom[:, 1].take(cols[0]).astype(np.int64)
    for t in range(1, len(cols)):
        index += binom[:, t + 1].take(cols[t])
    return index


def dense_classes(values: Sequence[I32], xp: Any = np) -> tuple[list[I64], int]:
    """The values renumbered 0.. in order (equal values equal numbers), and how many there are."""
    joined = xp.concatenate(values)
    uniq = xp.unique(joined)
    return [xp.searchsorted(uniq, v).astype(np.int64) for v in values], int(uniq.size)


def incidences(rows: Any, j: int, be: Backend = CPU) -> tuple[I64, I64]:
    """For every completion and every j of its cards: the colex number of those j cards (the
    group) and the completion's row."""
    xp = be.xp
    n, u = rows.shape
    which = xp.arange(n, dtype=np.int64)
    if j == 0:
        return xp.zeros(n, dtype=np.int64), which
    picks = combos(u, j)
    binom = xp.asarray(BINOM) if be.gpu else BINOM
    groups = [colex_columns([rows[:, t] for t in pick], binom) for pick in picks.tolist()]
    return xp.concatenate(groups), xp.tile(which, len(groups))


class Side:
    """One player's known cards, folded into a packed sum, ready to add the unknown cards (on the
    CPU, or on ``be``'s device)."""

    def __init__(self, known: Sequence[int], game: str, be: Backend = CPU) -> None:
        self.known = tuple(known)
        self.game = game
        self.base = fe.SUIT_PROBE + int(sum(int(fe.PACK[c]) for c in known))
        self.mask = int(sum(int(fe.CARD_BIT[c]) for c in known))
        self.be = be
        self.tables = fe.tables(be) if be.gpu else None

    def ranks(self, drawn: npt.NDArray[Any] | Sequence[npt.NDArray[Any]], count: int = 0) -> tuple[I32, I32]:
        """``(high, low)`` of the known cards plus each outcome's drawn cards: an (N, u) array of
        card numbers, or u arrays of N card numbers (one per drawn card; ``count``: N when there
        are none). ``low`` is the eight-or-better low in stud8 (0: none) and the ace-to-five low
        in razz; the rank a game does not use is an empty array."""
        if self.tables is not None:
            return self._device_ranks(self.tables, drawn, count)
        cols = [drawn[:, t] for t in range(drawn.shape[1])] if isinstance(drawn, np.ndarray) else list(drawn)
        if not cols:
            n = drawn.shape[0] if isinstance(drawn, np.ndarray) else count
            h = np.full(n, self.base, dtype=np.int64)
        else:
            h = fe.PACK.take(cols[0])
            h += self.base
            for col in cols[1:]:
                h += fe.PACK.take(col)
        index = fe.index_of(h)
        empty = np.empty(0, dtype=np.int32)
        if not game_class(self.game).has_high:
            return empty, fe.LOW.take(index)
        high = fe.HIGH.take(index)
        probe = h & fe.FLUSH_BITS
        rows = np.flatnonzero(probe)
        if rows.size:
            mask = np.full(rows.size, self.mask, dtype=np.int64)
            for col in cols:
                mask |= fe.CARD_BIT.take(col.take(rows))
            high[rows] = fe.flush_high(mask, fe.flush_suit(probe[rows]))
        return high, (fe.LOW8.take(index) if game_class(self.game).split else empty)

    def _device_ranks(self, t: fe.Tables, drawn: Any, count: int) -> tuple[Any, Any]:
        xp = self.be.xp
        listed = isinstance(drawn, list | tuple)
        cols = list(drawn) if listed else [drawn[:, c] for c in range(drawn.shape[1])]
        if cols:
            h = fe.device_packed_sum(t, cols, self.base)
        else:
            h = xp.full(count if listed else drawn.shape[0], self.base, dtype=np.int64)
        index = fe.device_index(t, h)
        empty = xp.empty(0, dtype=np.int32)
        if not game_class(self.game).has_high:
            return empty, t.LOW.take(index)
        high = fe.device_high(t, xp, h, index, cols, self.mask)
        return high, (t.LOW8.take(index) if game_class(self.game).split else empty)


# ===============================================================================================
# Tallying blocks of outcomes (any number of players)
# ===============================================================================================


STATS = ("equity", "equity_sq", "scoop", "high_win", "high_tie", "low_win", "low_tie")


def tally(high: I32 | None, low: I32 | None, game: str, players: int, squares: bool = False) -> Counts:
    """Tallies of a block of outcomes from the players' ranks, shape ``(players, N)`` each
    (``low``: 0 = no qualifying low in stud8)."""
    counts = Counts(players)
    n = (high if high is not None else low).shape[1]  # type: ignore[union-attr]
    counts.total = n
    parts = _tally_parts(np, SHARE_WHOLE, SHARE_HALF, high, low, game, squares, None)
    for name, value in parts.items():
        if name == "no_low":
            counts.no_low = int(value)
        else:
            setattr(counts, name, value.tolist())
    return counts


def _tally_parts(
    xp: Any, whole: Any, half: Any, high: Any, low: Any, game: str, squares: bool, weight: Any
) -> dict[str, Any]:
    """The sums :func:`tally` makes, as arrays of ``xp`` (per player, and ``no_low``); ``whole``
    and ``half``: :data:`SHARE_WHOLE` and :data:`SHARE_HALF` on the device; ``weight``: ``None``,
    or a boolean array that keeps only some outcomes (Monte Carlo on a device)."""
    parts: dict[str, Any] = {}

    def count(flags: Any) -> Any:
        return (flags if weight is None else flags & weight).sum(axis=-1)

    units: Any
    solo = top = None
    if high is not None:
        best = high.max(axis=0)
        top = high == best
        k = top.sum(axis=0)
        solo = top & (k == 1)
        parts["high_win"] = count(solo)
        parts["high_tie"] = count(top & (k > 1))
    if low is not None:
        lbest = low.max(axis=0)
        some = lbest > 0
        ltop = (low == lbest) & some
        lk = ltop.sum(axis=0)
        lsolo = ltop & (lk == 1)
        parts["low_win"] = count(lsolo)
        parts["low_tie"] = count(ltop & (lk > 1))
    if game_class(game).split:
        assert top is not None and solo is not None and low is not None
        none = ~some
        parts["no_low"] = count(none)
        half_high = half.take(k)
        whole_high = whole.take(k)
        units = xp.where(none, whole_high, half_high) * top + half.take(lk) * ltop
        scoop = solo & (lsolo | none)
    elif not game_class(game).has_low:
        assert top is not None and solo is not None
        units = whole.take(k) * top
        scoop = solo
    else:
        units = whole.take(lk) * ltop
        scoop = lsolo
    if weight is not None:
        units = units * weight
    parts["equity"] = units.sum(axis=1)
    if squares:
        parts["equity_sq"] = (units * units).sum(axis=1)
    parts["scoop"] = count(scoop)
    return parts


class Tallies:
    """Tallies summed on the device and brought to the host in one transfer at the end (and
    now and then on the way, before the 64-bit sums could overflow). On the CPU, each block's
    sums go straight into Python integers."""

    FLUSH_OUTCOMES = 1 << 40  # outcomes summed on the device between two transfers, at most

    def __init__(self, be: Backend, players: int, game: str) -> None:
        self.be = be
        self.players = players
        self.game = game
        self.counts = Counts(players)
        xp = be.xp
        self.whole = xp.asarray(SHARE_WHOLE)
        self.half = xp.asarray(SHARE_HALF)
        self.zeros = xp.zeros(players, dtype=np.int64)
        self.pending: Any = None
        self.pending_outcomes = 0

    def add_ranks(self, high: Any, low: Any, squares: bool, weight: Any = None) -> None:
        """Add a block of outcomes from the players' ranks (``weight``: which to keep)."""
        xp = self.be.xp
        n = (high if high is not None else low).shape[1]
        parts = _tally_parts(xp, self.whole, self.half, high, low, self.game, squares, weight)
        total = xp.asarray(n, dtype=np.int64) if weight is None else weight.sum(dtype=np.int64)
        self.add_parts(parts, total, n)

    def add_parts(self, parts: dict[str, Any], total: Any, outcomes: int) -> None:
        """Add sums (per player arrays; ``no_low`` and ``total`` as 0-d arrays); ``outcomes``: a
        bound on the outcomes they count."""
        xp = self.be.xp
        rows = [
            xp.asarray(parts.get(name, self.zeros), dtype=np.int64).reshape(self.players) for name in STATS
        ]
        extra = [xp.asarray(total, dtype=np.int64), xp.asarray(parts.get("no_low", 0), dtype=np.int64)]
        vector = xp.concatenate([*rows, xp.stack(extra)])
        self.pending = vector if self.pending is None else self.pending + vector
        self.pending_outcomes += outcomes
        if self.pending_outcomes >= self.FLUSH_OUTCOMES or not self.be.gpu:
            self.flush()

    def flush(self) -> Counts:
        """Bring the sums to the host: the tallies so far."""
        if self.pending is not None:
            values = [int(v) for v in self.be.asnumpy(self.pending).tolist()]
            n = self.players
            block = Counts(n)
            for i, name in enumerate(STATS):
                setattr(block, name, values[i * n : (i + 1) * n])
            block.total, block.no_low = values[len(STATS) * n], values[len(STATS) * n + 1]
            self.counts.add(block)
            self.pending = None
            self.pending_outcomes = 0
        return self.counts


def tally_full(
    cards: npt.NDArray[np.uint8],
    sides: Sequence[Side],
    starts: Any,
    n: int,
    community: int,
    game: str,
    squares: bool,
) -> Counts:
    """Tallies of outcomes given column by column, shape ``(r, N)``: each player's drawn cards
    (in player order), then the community card, if any."""
    highs, lows = [], []
    for i in range(n):
        cols = [cards[t] for t in range(int(starts[i]), int(starts[i + 1]))]
        if community:
            cols.append(cards[int(starts[n])])
        if not cols:
            cols = np.zeros((cards.shape[1], 0), dtype=np.uint8)  # type: ignore[assignment]
        hi, lo = sides[i].ranks(cols)
        highs.append(hi)
        lows.append(lo)
    high = np.vstack(highs) if has_high(game) else None
    low = np.vstack(lows) if has_low(game) else None
    return tally(high, low, game, n, squares)


def ranks_full(cards: Any, sides: Sequence[Side], starts: Any, community: int, game: str) -> tuple[Any, Any]:
    """The players' ranks, shape ``(players, N)``, from outcomes given column by column, shape
    ``(r, N)`` (device arrays)."""
    xp = sides[0].be.xp
    n = len(sides)
    rows = cards.shape[1]
    highs, lows = [], []
    for i in range(n):
        cols = [cards[t] for t in range(int(starts[i]), int(starts[i + 1]))]
        if community:
            cols.append(cards[int(starts[n])])
        hi, lo = sides[i].ranks(cols, rows)
        highs.append(hi)
        lows.append(lo)
    return (xp.stack(highs) if has_high(game) else None), (xp.stack(lows) if has_low(game) else None)
