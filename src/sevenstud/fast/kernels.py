"""Equity kernels: exact counting and Monte Carlo over the cards still to come (numpy).

The problem handed to every kernel (:class:`Deal`): the unseen cards ``unseen`` (sorted), and per
player the cards already known and how many private cards are still unknown; ``community`` is 1
when the deck runs out on 7th street and one shared card is dealt face up for everybody. Every way
of giving the unknown cards out is one equally likely *outcome*.

Four ways of counting:

* :func:`heads_up_exact` (two players): each player's final hand depends only on their own cards,
  so each player's completions (every set of cards they may still get) are evaluated once; the
  pairs of completions are then counted by rank order with sorting, ``bincount`` and cumulative
  sums, group by group, and the pairs that would need the same card twice are taken out by
  inclusion-exclusion over the cards the two completions have in common: summing
  ``(-1) ** |S|`` times the pairs whose completions both contain ``S``, over every set ``S``,
  counts exactly the pairs that share nothing.
* :func:`last_player_exact` (three players or more, no community card): every deal of all
  players but one, in vectorised blocks; the last player's completions are counted against each
  deal the same way, by inclusion-exclusion over the cards they share with it, with tables of
  that player's completions sorted by rank class (see the function). Four players on 5th street,
  26.5 billion deals, are 81.6 million outer deals and 22 look-ups each.
* :func:`enumerate_exact` (any number of players): every outcome, in vectorised blocks.
* :func:`monte_carlo`: random outcomes from a seeded generator. When every player's completions
  fit in a table and the players rarely collide, outcomes are drawn as independent completion
  numbers and the draws that share a card are rejected (what is kept is exactly uniform);
  otherwise each outcome is a partial Fisher-Yates shuffle of the unseen cards.

Every kernel returns :class:`Counts`: integer tallies, the pot counted as ``POT`` units so that
any split (a half among up to eight players) stays an integer.

Every kernel takes a :class:`~sevenstud.fast.device.Backend` (default: numpy on the CPU). On a
GPU (CuPy) the same counts are made with the device's arrays, in bigger blocks, with the tallies
summed on the device and brought back once; exact counts are identical to the CPU's.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from math import comb, prod
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


def _has_high(game: str) -> bool:
    return game_class(game).has_high


def _has_low(game: str) -> bool:
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
        if self.game == "razz":
            return empty, fe.LOW.take(index)
        high = fe.HIGH.take(index)
        probe = h & fe.FLUSH_BITS
        rows = np.flatnonzero(probe)
        if rows.size:
            mask = np.full(rows.size, self.mask, dtype=np.int64)
            for col in cols:
                mask |= fe.CARD_BIT.take(col.take(rows))
            high[rows] = fe.flush_high(mask, fe.flush_suit(probe[rows]))
        return high, (fe.LOW8.take(index) if self.game == "stud8" else empty)

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
        if self.game == "razz":
            return empty, t.LOW.take(index)
        high = fe.device_high(t, xp, h, index, cols, self.mask)
        return high, (t.LOW8.take(index) if self.game == "stud8" else empty)


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
    if game == "stud8":
        assert top is not None and solo is not None and low is not None
        none = ~some
        parts["no_low"] = count(none)
        half_high = half.take(k)
        whole_high = whole.take(k)
        units = xp.where(none, whole_high, half_high) * top + half.take(lk) * ltop
        scoop = solo & (lsolo | none)
    elif game == "stud":
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


# ===============================================================================================
# Exact: heads-up by inclusion-exclusion
# ===============================================================================================

BINCOUNT_CELLS = 1 << 23  # a (group x rank class) table at most this big is counted by bincount


def _dense(values: Sequence[I32], xp: Any = np) -> tuple[list[I64], int]:
    """The values renumbered 0.. in order (equal values equal numbers), and how many there are."""
    joined = xp.concatenate(values)
    uniq = xp.unique(joined)
    return [xp.searchsorted(uniq, v).astype(np.int64) for v in values], int(uniq.size)


def _bincount(xp: Any, x: Any, length: int) -> Any:
    """``bincount(x, minlength=length)``, also for an empty ``x`` (which CuPy before 14 refuses)."""
    return xp.bincount(x, minlength=length) if x.size else xp.zeros(length, dtype=np.int64)


def _dot(be: Backend, a: Any, b: Any) -> int:
    """The dot product of two integer vectors, as a Python integer."""
    return int(a @ b) if not be.gpu else int((a * b).sum())


def grouped_compare(
    ga: npt.NDArray[Any],
    ra: npt.NDArray[Any],
    gb: npt.NDArray[Any],
    rb: npt.NDArray[Any],
    groups: int,
    classes: int,
    be: Backend = CPU,
) -> tuple[int, int, int]:
    """Over the pairs (a, b) in the same group: ``(pairs, less, equal)`` where ``less`` counts
    ``rb < ra`` and ``equal`` counts ``rb == ra``. ``g*`` are group numbers below ``groups``,
    ``r*`` rank classes below ``classes`` (integer arrays)."""
    if ga.size == 0 or gb.size == 0:
        return 0, 0, 0
    xp = be.xp
    na = xp.bincount(ga, minlength=groups)
    nb = xp.bincount(gb, minlength=groups)
    pairs = _dot(be, na, nb)
    cells = groups * classes
    if cells <= min(BINCOUNT_CELLS, ga.size + gb.size + (1 << 16)):
        ha = xp.bincount(ga * classes + ra, minlength=cells).reshape(groups, classes)
        hb = xp.bincount(gb * classes + rb, minlength=cells).reshape(groups, classes)
        below = xp.cumsum(hb, axis=1)
        below -= hb
        if be.gpu:
            return pairs, int((ha * below).sum()), int((ha * hb).sum())
        return pairs, int(np.vdot(ha, below)), int(np.vdot(ha, hb))
    # Sort A and B together, B first among equal keys. For an A: the running count of B is the B
    # with a key no greater (its group's up to its rank, and every earlier group's); the running
    # count where its run of equal keys starts is the B with a smaller key.
    small = cells * 2 < 1 << 31 and ga.size + gb.size < 1 << 31
    dtype: Any = np.int32 if small else np.int64
    s: Any = xp.concatenate([gb, ga]).astype(dtype)
    s *= classes
    s[: gb.size] += rb
    s[gb.size :] += ra
    s *= 2
    s[gb.size :] += 1
    s.sort()
    is_b = (s & 1) == 0
    is_a = ~is_b
    running = xp.cumsum(is_b, dtype=dtype)
    key = s >> 1
    start = xp.empty(s.size, dtype=bool)
    start[0] = True
    xp.not_equal(key[1:], key[:-1], out=start[1:])
    if be.gpu:
        # No maximum.accumulate in CuPy: each element takes the value at the start of its run.
        at_start = (running - is_b).take(xp.flatnonzero(start))
        base = at_start.take(xp.cumsum(start, dtype=dtype) - 1)
    else:
        base = np.where(start, running - is_b, 0).astype(dtype, copy=False)
        np.maximum.accumulate(base, out=base)
    no_greater = int((running * is_a).sum(dtype=np.int64))
    smaller = int((base * is_a).sum(dtype=np.int64))
    earlier = _dot(be, na, xp.cumsum(nb) - nb)
    return pairs, smaller - earlier, no_greater - smaller


@dataclass
class _PairTotals:
    pairs: int = 0
    hi_less: int = 0  # B's high below A's: A wins the high
    hi_equal: int = 0
    lo_less: int = 0  # B's low below A's (0 = none): A wins the low
    lo_equal_some: int = 0  # equal qualifying lows
    no_low: int = 0
    nl_hi_less: int = 0
    nl_hi_equal: int = 0
    scoop_a: int = 0  # A's high and low both above B's
    scoop_b: int = 0

    def add(self, sign: int, **values: int) -> None:
        for name, value in values.items():
            setattr(self, name, getattr(self, name) + sign * value)


def heads_up_work(deal: Deal) -> int:
    """How many (completion, shared set) incidences :func:`heads_up_exact` builds."""
    m = len(deal.unseen)
    ua, ub = deal.unknown
    top = min(ua, ub)
    return sum(comb(m, u) * sum(comb(u, j) for j in range(top + 1)) for u in (ua, ub))


def heads_up_exact(deal: Deal, progress: Progress | None = None, be: Backend = CPU) -> Counts:
    """Exact tallies for two players (no community card) by inclusion-exclusion over the cards
    their completions share. See the module's documentation."""
    assert deal.players == 2 and deal.community == 0
    xp = be.xp
    game = deal.game
    unseen = xp.asarray(np.array(deal.unseen, dtype=np.uint8))
    m = len(deal.unseen)
    ua, ub = deal.unknown
    comb_a, comb_b = xp.asarray(combos(m, ua)), xp.asarray(combos(m, ub))
    side_a, side_b = Side(deal.known[0], game, be), Side(deal.known[1], game, be)
    hi_a, lo_a = side_a.ranks(unseen.take(comb_a))
    hi_b, lo_b = side_b.ranks(unseen.take(comb_b))
    use_high, use_low = _has_high(game), _has_low(game)
    if use_high:
        (hc_a, hc_b), n_hi = _dense([hi_a, hi_b], xp)
    if use_low:
        (lc_a, lc_b), n_lo = _dense([lo_a, lo_b], xp)
        if game == "stud8":
            # Class 0 must be "no low" for the no-low counts; _dense keeps 0 first when present.
            zero_a, zero_b = lo_a == 0, lo_b == 0
            if not (bool(zero_a.any()) or bool(zero_b.any())):
                lc_a, lc_b, n_lo = lc_a + 1, lc_b + 1, n_lo + 1
    totals = _PairTotals()
    top = min(ua, ub)
    steps = top + 1
    for j in range(top + 1):
        sign = -1 if j & 1 else 1
        groups = comb(m, j)
        if j == ua == ub:
            # Each group is one set of cards that both players would get: compare in place.
            values: dict[str, int] = {"pairs": int(comb_a.shape[0])}
            if use_high:
                values["hi_less"] = int((hi_b < hi_a).sum())
                values["hi_equal"] = int((hi_b == hi_a).sum())
            if use_low:
                values["lo_less"] = int((lo_b < lo_a).sum())
                values["lo_equal_some"] = (
                    int(((lo_b == lo_a) & (lo_a > 0)).sum()) if game == "stud8" else int((lo_b == lo_a).sum())
                )
            if game == "stud8":
                both = (lo_a == 0) & (lo_b == 0)
                values["no_low"] = int(both.sum())
                values["nl_hi_less"] = int((both & (hi_b < hi_a)).sum())
                values["nl_hi_equal"] = int((both & (hi_b == hi_a)).sum())
                values["scoop_a"] = int(((hi_b < hi_a) & (lo_b < lo_a)).sum())
                values["scoop_b"] = int(((hi_b > hi_a) & (lo_b > lo_a)).sum())
            totals.add(sign, **values)
        else:
            ga, ia = _incidences(comb_a, j, be)
            gb, ib = _incidences(comb_b, j, be)
            values = {}
            if use_high:
                ra, rb = hc_a.take(ia), hc_b.take(ib)
                pairs, less, equal = grouped_compare(ga, ra, gb, rb, groups, n_hi, be)
                values.update(pairs=pairs, hi_less=less, hi_equal=equal)
            if use_low:
                la, lb = lc_a.take(ia), lc_b.take(ib)
                pairs, less, equal = grouped_compare(ga, la, gb, lb, groups, n_lo, be)
                values.update(pairs=pairs, lo_less=less)
                if game == "stud8":
                    # Equal lows count only when they qualify: take out the pairs with none.
                    za, zb = la == 0, lb == 0
                    na0 = _bincount(xp, ga[za], groups)
                    nb0 = _bincount(xp, gb[zb], groups)
                    none = _dot(be, na0, nb0)
                    values.update(lo_equal_some=equal - none, no_low=none)
                    _, nl_less, nl_equal = grouped_compare(ga[za], ra[za], gb[zb], rb[zb], groups, n_hi, be)
                    values.update(nl_hi_less=nl_less, nl_hi_equal=nl_equal)
                    sa, sb = _dominance(ga, ra, la, gb, rb, lb, groups, n_hi, n_lo, be)
                    values.update(scoop_a=sa, scoop_b=sb)
                else:
                    values.update(lo_equal_some=equal)
            totals.add(sign, **values)
        if progress is not None:
            progress((j + 1) / steps)
    return _heads_up_counts(totals, game)


def _incidences(rows: Any, j: int, be: Backend = CPU) -> tuple[I64, I64]:
    """For every completion and every j of its cards: the colex number of those j cards (the
    group) and the completion's row."""
    xp = be.xp
    n, u = rows.shape
    which = xp.arange(n, dtype=np.int64)
    if j == 0:
        return xp.zeros(n, dtype=np.int64), which
    picks = combos(u, j)
    binom = xp.asarray(BINOM) if be.gpu else BINOM
    groups = [_colex_columns([rows[:, t] for t in pick], binom) for pick in picks.tolist()]
    return xp.concatenate(groups), xp.tile(which, len(groups))


def _colex_columns(cols: Sequence[Any], binom: Any) -> Any:
    """The colex index of sorted subsets given column by column (as :func:`colex_index`)."""
    index = binom[:, 1].take(cols[0]).astype(np.int64)
    for t in range(1, len(cols)):
        index += binom[:, t + 1].take(cols[t])
    return index


def _dominance(
    ga: I64,
    ha: I64,
    la: I64,
    gb: I64,
    hb: I64,
    lb: I64,
    groups: int,
    n_hi: int,
    n_lo: int,
    be: Backend = CPU,
) -> tuple[int, int]:
    """Pairs in the same group with A above B in both high and low, and with B above A in both
    (low class 0 is "no low", below every qualifying low).

    A low above "no low" is a one-dimensional count of highs. Between two qualifying lows the
    classes are split bit by bit: A's low is above B's exactly when, at the highest bit where they
    differ, A has a 1; each bit is then a one-dimensional count of highs within (group, the low
    bits above it), done for both directions with one sort."""
    xp = be.xp
    za, zb = la == 0, lb == 0
    qa, qb = ~za, ~zb
    _, above_a, _ = grouped_compare(ga[qa], ha[qa], gb[zb], hb[zb], groups, n_hi, be)
    _, above_b, _ = grouped_compare(gb[qb], hb[qb], ga[za], ha[za], groups, n_hi, be)
    ga, ha, la = ga[qa], ha[qa], la[qa] - 1
    gb, hb, lb = gb[qb], hb[qb], lb[qb] - 1
    if ga.size == 0 or gb.size == 0:
        return above_a, above_b
    bits = max(1, int(n_lo - 2).bit_length())
    dtype: Any = np.int32 if groups * (1 << bits) * n_hi * 4 < 1 << 31 else np.int64
    g: Any = xp.concatenate([ga, gb]).astype(dtype)
    h: Any = xp.concatenate([ha, hb]).astype(dtype)
    lo: Any = xp.concatenate([la, lb]).astype(dtype)
    side: Any = xp.zeros(g.size, dtype=dtype)
    side[ga.size :] = 1
    # What each kind adds to the running counts: B with 0 in the low word, A with 0 in the high.
    adds = xp.asarray(np.array([0, 0, 1 << 32, 1], dtype=np.int64))
    for t in range(bits):
        width = 1 << (bits - t - 1)
        sub = g * width
        sub += lo >> (t + 1)
        bit = (lo >> t) & 1
        # Within equal (sub-group, high) the askers (bit 1) sort before the counted (bit 0):
        # code 0 = A with 1, 1 = B with 1, 2 = A with 0, 3 = B with 0.
        code = side + 2
        code -= 2 * bit
        key = sub * n_hi
        key += h
        key *= 4
        key += code
        key.sort()
        c = key & 3
        running = adds.take(c)
        xp.cumsum(running, out=running)
        raw_a = int(((running & 0xFFFFFFFF) * (c == 0)).sum())
        raw_b = int(((running >> 32) * (c == 1)).sum())
        # Take out the counted ones of earlier sub-groups.
        subs = groups * width
        n_sub = xp.bincount(sub * 4 + code, minlength=subs * 4).reshape(subs, 4)
        before_b0 = xp.cumsum(n_sub[:, 3]) - n_sub[:, 3]
        before_a0 = xp.cumsum(n_sub[:, 2]) - n_sub[:, 2]
        above_a += raw_a - _dot(be, n_sub[:, 0], before_b0)
        above_b += raw_b - _dot(be, n_sub[:, 1], before_a0)
    return above_a, above_b


def _heads_up_counts(t: _PairTotals, game: str) -> Counts:
    counts = Counts(2)
    counts.total = t.pairs
    if game == "stud":
        hi_more = t.pairs - t.hi_less - t.hi_equal
        counts.high_win = [t.hi_less, hi_more]
        counts.high_tie = [t.hi_equal, t.hi_equal]
        counts.scoop = [t.hi_less, hi_more]
        a = POT * t.hi_less + HALF * t.hi_equal
    elif game == "razz":
        lo_more = t.pairs - t.lo_less - t.lo_equal_some
        counts.low_win = [t.lo_less, lo_more]
        counts.low_tie = [t.lo_equal_some, t.lo_equal_some]
        counts.scoop = [t.lo_less, lo_more]
        a = POT * t.lo_less + HALF * t.lo_equal_some
    else:
        hi_more = t.pairs - t.hi_less - t.hi_equal
        lo_more = t.pairs - t.lo_less - t.lo_equal_some - t.no_low
        nl_hi_more = t.no_low - t.nl_hi_less - t.nl_hi_equal
        counts.high_win = [t.hi_less, hi_more]
        counts.high_tie = [t.hi_equal, t.hi_equal]
        counts.low_win = [t.lo_less, lo_more]
        counts.low_tie = [t.lo_equal_some, t.lo_equal_some]
        counts.no_low = t.no_low
        counts.scoop = [t.scoop_a + t.nl_hi_less, t.scoop_b + nl_hi_more]
        # Half the pot to the high, half to the low; no low: the high takes the other half too.
        a = HALF * t.hi_less + (HALF // 2) * t.hi_equal + HALF * t.lo_less + (HALF // 2) * t.lo_equal_some
        a += HALF * t.nl_hi_less + (HALF // 2) * t.nl_hi_equal
    counts.equity = [a, POT * t.pairs - a]
    return counts


# ===============================================================================================
# Exact: every outcome, in blocks
# ===============================================================================================

PATTERN_ROWS = 1 << 21  # the largest table of inner deals built at once


def deal_pattern(left: int, sizes: Sequence[int]) -> npt.NDArray[np.int16]:
    """Every way of giving ``sizes[0]`` cards, then ``sizes[1]`` of the rest, ... out of
    ``range(left)``: one row per way, the positions of each part sorted, parts side by side."""
    if not sizes:
        return np.zeros((1, 0), dtype=np.int16)
    first = combos(left, sizes[0])
    if len(sizes) == 1:
        return first
    rest = deal_pattern(left - sizes[0], sizes[1:])
    # The positions left after each first part, in order.
    keep = np.ones((first.shape[0], left), dtype=bool)
    np.put_along_axis(keep, first.astype(np.intp), False, axis=1)
    remaining = np.nonzero(keep)[1].reshape(first.shape[0], left - sizes[0]).astype(np.int16)
    n1, n2 = first.shape[0], rest.shape[0]
    head = np.repeat(first, n2, axis=0)
    tail = np.take_along_axis(
        np.repeat(remaining, n2, axis=0), np.tile(rest, (n1, 1)).astype(np.intp), axis=1
    )
    return np.hstack([head, tail])


def enumerate_exact(deal: Deal, progress: Progress | None = None, be: Backend = CPU) -> Counts:
    """Exact tallies by going through every outcome (any number of players)."""
    if be.gpu:
        return _enumerate_device(deal, progress, be)
    game, n = deal.game, deal.players
    sizes = list(deal.unknown) + ([1] if deal.community else [])
    left = len(deal.unseen)
    # Players whose cards are enumerated outside (a Python loop), the rest inside one pattern.
    inner_from = _split_parts(left, sizes, PATTERN_ROWS)
    outer_sizes, inner_sizes = sizes[:inner_from], sizes[inner_from:]
    inner_left = left - sum(outer_sizes)
    pattern = deal_pattern(inner_left, inner_sizes).astype(np.intp)
    sides = [Side(deal.known[i], game) for i in range(n)]
    total = Counts(n)
    unseen = list(deal.unseen)
    outer = _outer_deals(unseen, outer_sizes)
    outer_total = max(1, deal.outcomes() // max(1, pattern.shape[0]))
    # The columns of each part in a full row (outer parts first, then the inner pattern).
    starts = np.cumsum([0, *sizes])
    for done, (outer_cards, remaining) in enumerate(outer, start=1):
        rem = np.array(remaining, dtype=np.uint8)
        for lo in range(0, pattern.shape[0], BLOCK):
            inner = rem[pattern[lo : lo + BLOCK]]
            count = inner.shape[0]
            head = np.broadcast_to(np.array(outer_cards, dtype=np.uint8)[:, None], (len(outer_cards), count))
            full = np.vstack([head, inner.T])
            total.add(_tally_full(full, sides, starts, n, deal.community, game, squares=False))
        if progress is not None and done % 16 == 0:
            progress(min(1.0, done / outer_total))
    return total


def _outer_deals(unseen: list[int], sizes: Sequence[int]) -> Any:
    """Every way of giving out the outer parts: ``(cards in part order, cards left)``."""
    from itertools import combinations

    if not sizes:
        yield [], unseen
        return
    for first in combinations(unseen, sizes[0]):
        taken = set(first)
        rest = [c for c in unseen if c not in taken]
        for more, left in _outer_deals(rest, sizes[1:]):
            yield [*first, *more], left


def _tally_full(
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
    high = np.vstack(highs) if _has_high(game) else None
    low = np.vstack(lows) if _has_low(game) else None
    return tally(high, low, game, n, squares)


# ===============================================================================================
# Blocks of positions (the device code path, and the last player's count)
# ===============================================================================================

DEVICE_BLOCK = 1 << 23  # outcomes (or outer deals) per vectorised step on a GPU
DEVICE_PATTERN_ROWS = 1 << 22  # the largest table of inner deals built at once for a GPU


def _split_parts(left: int, sizes: Sequence[int], pattern_rows: int) -> int:
    """How many of the parts are dealt outside (a Python loop); the rest make one pattern."""
    inner_from = len(sizes)
    rows = 1
    while inner_from > 0:
        ahead = left - sum(sizes[: inner_from - 1])
        more = rows * comb(ahead, sizes[inner_from - 1])
        if more > pattern_rows and inner_from < len(sizes):
            break
        rows, inner_from = more, inner_from - 1
    return inner_from


def position_blocks(m: int, sizes: Sequence[int], be: Backend, block_rows: int, pattern_rows: int) -> Any:
    """Every way of giving ``sizes[0]`` of ``range(m)``, then ``sizes[1]`` of the rest, ...: yields
    ``(columns, done)``, ``columns`` an array of ``be``'s device, shape ``(sum(sizes), N)`` with
    N at most about ``block_rows`` (each part's positions sorted, parts one after another), and
    ``done`` the fraction of all the ways given so far.

    The first parts are dealt in a Python loop, the last ones by a pattern (as in
    :func:`enumerate_exact`); several outer deals go into one block when the pattern is short."""
    xp = be.xp
    sizes = list(sizes)
    inner_from = _split_parts(m, sizes, pattern_rows)
    outer_sizes, inner_sizes = sizes[:inner_from], sizes[inner_from:]
    co, ci = sum(outer_sizes), sum(inner_sizes)
    inner_left = m - co
    pattern = deal_pattern(inner_left, inner_sizes)
    p_rows = pattern.shape[0]
    pattern_d = xp.asarray(pattern.T.astype(np.int32))  # (ci, P)
    outer_total = 1
    left = m
    for size in outer_sizes:
        outer_total *= comb(left, size)
        left -= size
    per_block = max(1, block_rows // max(1, p_rows))
    done = 0
    batch: list[tuple[list[int], list[int]]] = []

    def emit(batch: list[tuple[list[int], list[int]]]) -> Any:
        k = len(batch)
        heads = xp.asarray(np.array([o for o, _ in batch], dtype=np.int16).reshape(k, co).T)  # (co, k)
        rems = xp.asarray(np.array([r for _, r in batch], dtype=np.int32).reshape(k * inner_left))
        offsets = (xp.arange(k, dtype=np.int32) * inner_left).reshape(1, k, 1)
        for lo in range(0, p_rows, block_rows):
            part = pattern_d[:, lo : lo + block_rows]
            width = part.shape[1]
            block = xp.empty((co + ci, k, width), dtype=np.int16)
            block[:co] = heads.reshape(co, k, 1)
            block[co:] = rems.take(part.reshape(ci, 1, width) + offsets)
            yield block.reshape(co + ci, k * width)

    for deal in _outer_deals(list(range(m)), outer_sizes):
        batch.append(deal)
        if len(batch) == per_block:
            done += len(batch)
            for columns in emit(batch):
                yield columns, done / outer_total
            batch = []
    if batch:
        done += len(batch)
        for columns in emit(batch):
            yield columns, done / outer_total


def _ranks_full(cards: Any, sides: Sequence[Side], starts: Any, community: int, game: str) -> tuple[Any, Any]:
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
    return (xp.stack(highs) if _has_high(game) else None), (xp.stack(lows) if _has_low(game) else None)


def _enumerate_device(deal: Deal, progress: Progress | None, be: Backend) -> Counts:
    xp = be.xp
    game, n = deal.game, deal.players
    sizes = list(deal.unknown) + ([1] if deal.community else [])
    unseen = xp.asarray(np.array(deal.unseen, dtype=np.uint8))
    sides = [Side(deal.known[i], game, be) for i in range(n)]
    starts = np.cumsum([0, *sizes])
    tallies = Tallies(be, n, game)
    for columns, done in position_blocks(len(deal.unseen), sizes, be, DEVICE_BLOCK, DEVICE_PATTERN_ROWS):
        high, low = _ranks_full(unseen.take(columns), sides, starts, deal.community, game)
        tallies.add_ranks(high, low, squares=False)
        if progress is not None:
            progress(min(1.0, done))
    return tallies.flush()


# ===============================================================================================
# Exact: every deal of all players but one, the last by inclusion-exclusion
# ===============================================================================================

LAST_PLAYER_TABLE_LIMIT = 1 << 26  # cells of the last player's count tables, at most
LAST_PLAYER_BLOCK = 1 << 15  # outer deals per vectorised step on the CPU
HIGH_CLASSES = 1 << 13  # more than the distinct ranks a game can have (7,462 high, 6,175 low)


@dataclass(frozen=True)
class LastPlan:
    """How :func:`last_player_exact` would count a deal: ``last`` is the player counted by
    inclusion-exclusion, ``outer`` the others (every deal of their cards is gone through),
    ``outer_deals`` how many deals that is, ``subsets`` the sets of their cards that the last
    player's completions are counted for, per outer deal; ``cells``: a bound on the tables."""

    last: int
    outer: tuple[int, ...]
    outer_deals: int
    subsets: int
    cells: int

    @property
    def work(self) -> int:
        return self.outer_deals * self.subsets


def last_player_plan(deal: Deal) -> LastPlan | None:
    """The plan of :func:`last_player_exact` for ``deal``, or ``None`` where it does not apply
    (fewer than three players, a community card, count tables beyond the limit)."""
    n = deal.players
    if deal.community or n < 3:
        return None
    m = len(deal.unseen)
    completions = [comb(m, u) for u in deal.unknown]
    last = max(range(n), key=lambda i: (completions[i], i))
    outer = tuple(i for i in range(n) if i != last)
    left, outer_deals = m, 1
    for i in outer:
        outer_deals *= comb(left, deal.unknown[i])
        left -= deal.unknown[i]
    s = sum(deal.unknown[i] for i in outer)
    u = deal.unknown[last]
    subsets = sum(comb(s, j) for j in range(min(u, s) + 1))
    classes = min(sum(completions), HIGH_CLASSES) + 1
    cells = sum(comb(m, j) * classes for j in range(u))
    if deal.game == "stud8":
        cells += sum((completions[last] * comb(u, j) + 1) * 58 for j in range(u))
    if cells > LAST_PLAYER_TABLE_LIMIT:
        return None
    return LastPlan(last, outer, outer_deals, subsets, cells)


def _sort_columns(xp: Any, cols: Sequence[Any]) -> list[Any]:
    """The columns sorted row by row (odd-even transposition: only minimum and maximum)."""
    out = list(cols)
    for r in range(len(out)):
        for p in range(r % 2, len(out) - 1, 2):
            a, b = out[p], out[p + 1]
            out[p], out[p + 1] = xp.minimum(a, b), xp.maximum(a, b)
    return out


def last_player_exact(deal: Deal, progress: Progress | None = None, be: Backend = CPU) -> Counts:
    """Exact tallies for three players or more (no community card): every deal of the others'
    cards is gone through, and the last player's completions are counted against each, without
    listing them, by inclusion-exclusion over the cards they share with that deal.

    For an outer deal (the others' cards, the set ``U``) with best high class ``H`` and best low
    class ``L``, what every player gets depends only on where the last player's final hand falls:
    its high below, equal to or above ``H``, and (stud8) its low below, equal to or above ``L``:
    three or nine bins. The completions that share no card with ``U`` are counted in each bin by
    summing ``(-1) ** |S|`` times the completions that contain ``S``, over every set ``S`` of
    cards of ``U``. Those that contain ``S`` make one group; each group's completions are sorted
    by class once, and a table of positions turns each count into a few look-ups."""
    plan = last_player_plan(deal)
    assert plan is not None
    xp = be.xp
    game, n = deal.game, deal.players
    m = len(deal.unseen)
    unseen = np.array(deal.unseen, dtype=np.uint8)
    last, outer = plan.last, plan.outer
    u = deal.unknown[last]
    use_high, use_low = _has_high(game), _has_low(game)
    both = game == "stud8"
    # Every player's completions, ranked once (on the CPU: tables, built once).
    rows = [combos(m, deal.unknown[i]) for i in range(n)]
    ranks = [Side(deal.known[i], game).ranks(unseen[rows[i]]) for i in range(n)]
    hc: list[I64] = []
    lc: list[I64] = []
    n_lo = 0
    if use_high:
        hc, n_hi = _dense([r[0] for r in ranks])
    if use_low:
        lc, n_lo = _dense([r[1] for r in ranks])
        if both and not any(bool((r[1] == 0).any()) for r in ranks):
            lc, n_lo = [c + 1 for c in lc], n_lo + 1  # class 0: no low
    cls_last, classes = (hc[last], n_hi) if use_high else (lc[last], n_lo)
    width = n_lo + 1
    levels = []
    for j in range(u):
        g, which = _incidences(rows[last], j)
        key = g * (classes + 1) + cls_last.take(which)
        order = np.argsort(key, kind="stable")
        groups = comb(m, j)
        probes = np.arange(groups, dtype=np.int64)[:, None] * (classes + 1) + np.arange(classes + 1)
        # dense[g * (classes + 1) + c]: where group g's completions of class c or more begin.
        dense = np.searchsorted(key[order], probes.ravel()).astype(np.int32)
        level: dict[str, Any] = {"dense": xp.asarray(dense)}
        if both:
            # table[i * width + c]: how many of the first i (in that order) have a low below c.
            lows = lc[last].take(which.take(order))
            below = lows[:, None] < np.arange(width)
            table = np.zeros((lows.size + 1, width), dtype=np.int32)
            np.cumsum(below, axis=0, dtype=np.int32, out=table[1:])
            level["table"] = xp.asarray(table.ravel())
        levels.append(level)
    on = [xp.asarray(c.astype(np.int32)) for c in hc], [xp.asarray(c.astype(np.int32)) for c in lc]
    hc_d, lc_d = on
    binom = xp.asarray(BINOM)
    whole, half = xp.asarray(SHARE_WHOLE), xp.asarray(SHARE_HALF)
    sizes = [deal.unknown[i] for i in outer]
    s = sum(sizes)
    starts = np.cumsum([0, *sizes])
    picks = [combos(s, j).tolist() for j in range(min(u, s) + 1)]
    tallies = Tallies(be, n, game)
    completions = comb(m, u)
    block_rows = DEVICE_BLOCK if be.gpu else LAST_PLAYER_BLOCK
    pattern_rows = DEVICE_PATTERN_ROWS if be.gpu else PATTERN_ROWS
    for columns, done in position_blocks(m, sizes, be, block_rows, pattern_rows):
        rows_n = columns.shape[1]
        cols = [columns[c] for c in range(s)]
        zeros = xp.zeros(rows_n, dtype=np.int64)
        # The outer players' classes, by the colex number of their completions.
        hs, ls = [], []
        for k, i in enumerate(outer):
            part = cols[int(starts[k]) : int(starts[k + 1])]
            number = _colex_columns(part, binom) if part else zeros
            if use_high:
                hs.append(hc_d[i].take(number))
            if use_low:
                ls.append(lc_d[i].take(number))
        best_h = best_l = top_h = top_l = k_h = k_l = None
        if use_high:
            best_h = hs[0]
            for h in hs[1:]:
                best_h = xp.maximum(best_h, h)
            top_h = [h == best_h for h in hs]
            k_h = sum(t.astype(np.int64) for t in top_h)
        if use_low:
            best_l = ls[0]
            for lo in ls[1:]:
                best_l = xp.maximum(best_l, lo)
            qualify = best_l > 0
            top_l = [(lo == best_l) & qualify for lo in ls] if both else [lo == best_l for lo in ls]
            k_l = sum(t.astype(np.int64) for t in top_l)
        probe = best_h if use_high else best_l
        union = _sort_columns(xp, cols)
        bins = [zeros.copy() for _ in range(9 if both else 3)]
        for j, level_picks in enumerate(picks):
            for pick in level_picks:
                g = _colex_columns([union[t] for t in pick], binom) if pick else zeros
                if j < u:
                    found = _count_group(levels[j], g, probe, best_l, classes, width, completions, both)
                else:
                    found = _compare_one(
                        hc_d[last] if use_high else None,
                        lc_d[last] if use_low else None,
                        g,
                        best_h,
                        best_l,
                        both,
                    )
                for b, value in enumerate(found):
                    if j & 1:
                        bins[b] -= value
                    else:
                        bins[b] += value
        parts, total = _last_parts(
            xp, bins, game, outer, last, n, top_h, top_l, k_h, k_l, best_l, whole, half
        )
        tallies.add_parts(parts, total, rows_n * completions)
        if progress is not None:
            progress(min(1.0, done))
    return tallies.flush()


def _count_group(
    level: dict[str, Any],
    g: Any,
    probe: Any,
    best_l: Any,
    classes: int,
    width: int,
    completions: int,
    both: bool,
) -> list[Any]:
    """The completions of groups ``g`` (one per outer deal) by bin: high (or razz's low) class
    below, equal to, above ``probe``; in stud8, each split by low class below, equal to, above
    ``best_l``."""
    dense = level["dense"]
    row = g * (classes + 1)
    p0 = dense.take(row)
    p1 = dense.take(row + classes)
    at = row + probe
    pa = dense.take(at)
    pb = dense.take(at + 1)
    if not both:
        return [pa - p0, pb - pa, p1 - pb]
    table = level["table"]
    edges = [p0, pa, pb, p1]
    below = [table.take(x.astype(np.int64) * width + best_l) for x in edges]
    upto = [table.take(x.astype(np.int64) * width + best_l + 1) for x in edges]
    out = []
    for x in range(3):
        less = below[x + 1] - below[x]
        no_more = upto[x + 1] - upto[x]
        out += [less, no_more - less, (edges[x + 1] - edges[x]) - no_more]
    return out


def _compare_one(hc: Any, lc: Any, g: Any, best_h: Any, best_l: Any, both: bool) -> list[Any]:
    """The bins of single completions (colex numbers ``g``): 0 or 1 in each."""
    if hc is not None:
        h = hc.take(g)
        high = [h < best_h, h == best_h, h > best_h]
        if not both:
            return high
        lo = lc.take(g)
        low = [lo < best_l, lo == best_l, lo > best_l]
        return [a & b for a in high for b in low]
    lo = lc.take(g)
    return [lo < best_l, lo == best_l, lo > best_l]


def _last_parts(
    xp: Any,
    bins: list[Any],
    game: str,
    outer: Sequence[int],
    last: int,
    n: int,
    top_h: Any,
    top_l: Any,
    k_h: Any,
    k_l: Any,
    best_l: Any,
    whole: Any,
    half: Any,
) -> tuple[dict[str, Any], Any]:
    """The tallies of a block of outer deals from the last player's bins (see
    :func:`last_player_exact`): per player sums in player order, and the outcomes."""
    stats: dict[str, list[Any]] = {name: [None] * n for name in STATS if name != "equity_sq"}
    no_low: Any = 0
    if game == "stud8":
        c = [bins[0:3], bins[3:6], bins[6:9]]  # c[high bin][low bin]
        ch = [c[h][0] + c[h][1] + c[h][2] for h in range(3)]
        cl = [c[0][b] + c[1][b] + c[2][b] for b in range(3)]
        none = best_l == 0  # no outer low: with the last one's "equal", nobody has one
        some = ~none
        hi_less = ch[0] + none * c[0][1]  # the high takes the whole pot when nobody has a low
        hi_equal = ch[1] + none * c[1][1]
        top_high = half.take(k_h) * hi_less + half.take(k_h + 1) * hi_equal
        top_low = half.take(k_l) * cl[0] + half.take(k_l + 1) * cl[1]
        for k, i in enumerate(outer):
            solo_h = top_h[k] & (k_h == 1)
            solo_l = top_l[k] & (k_l == 1)
            stats["equity"][i] = (top_h[k] * top_high + top_l[k] * top_low).sum()
            stats["scoop"][i] = (solo_h * (solo_l * c[0][0] + none * c[0][1])).sum()
            stats["high_win"][i] = (solo_h * ch[0]).sum()
            stats["high_tie"][i] = (top_h[k] * ((k_h > 1) * ch[0] + ch[1])).sum()
            stats["low_win"][i] = (solo_l * cl[0]).sum()
            stats["low_tie"][i] = (top_l[k] * ((k_l > 1) * cl[0] + cl[1])).sum()
        last_units = half.take(k_h + 1) * hi_equal + HALF * (ch[2] + none * c[2][1])
        last_units += half.take(k_l + 1) * cl[1] * some + HALF * cl[2]
        stats["equity"][last] = last_units.sum()
        stats["scoop"][last] = (c[2][2] + none * c[2][1]).sum()
        stats["high_win"][last] = ch[2].sum()
        stats["high_tie"][last] = ch[1].sum()
        stats["low_win"][last] = cl[2].sum()
        stats["low_tie"][last] = (some * cl[1]).sum()
        no_low = (none * cl[1]).sum()
        total = (ch[0] + ch[1] + ch[2]).sum()
    else:
        less, equal, more = bins
        top, k_top = (top_h, k_h) if game == "stud" else (top_l, k_l)
        win, tie = ("high_win", "high_tie") if game == "stud" else ("low_win", "low_tie")
        top_units = whole.take(k_top) * less + whole.take(k_top + 1) * equal
        for k, i in enumerate(outer):
            solo = top[k] & (k_top == 1)
            stats["equity"][i] = (top[k] * top_units).sum()
            stats["scoop"][i] = stats[win][i] = (solo * less).sum()
            stats[tie][i] = (top[k] * ((k_top > 1) * less + equal)).sum()
        stats["equity"][last] = (whole.take(k_top + 1) * equal + POT * more).sum()
        stats["scoop"][last] = stats[win][last] = more.sum()
        stats[tie][last] = equal.sum()
        total = (less + equal + more).sum()
    parts: dict[str, Any] = {"no_low": no_low}
    for name, values in stats.items():
        if values[0] is not None:
            parts[name] = xp.stack([xp.asarray(v, dtype=np.int64) for v in values])
    return parts, total


# ===============================================================================================
# Monte Carlo
# ===============================================================================================

TABLE_LIMIT = 1 << 20  # completions per player kept in a table for rejection sampling
MIN_ACCEPT = 0.2  # below this acceptance rate, shuffle instead
SHUFFLE_BLOCK = 1 << 15  # shuffled deals per vectorised step (the shuffle's arrays stay in cache)


def monte_carlo(
    deal: Deal, trials: int, seed: int | None, progress: Progress | None = None, be: Backend = CPU
) -> Counts:
    """Tallies of ``trials`` random outcomes (``equity_sq`` filled for the standard error). On a
    GPU the random numbers come from the device's own generator, seeded with ``seed``: the same
    distribution as the CPU's, not the same draws."""
    left = len(deal.unseen)
    tables = [comb(left, u) for u in deal.unknown]
    accept = deal.outcomes() / prod(tables) if not deal.community else 0.0
    use_tables = not deal.community and max(tables) <= TABLE_LIMIT and accept >= MIN_ACCEPT
    if be.gpu:
        device_rng = be.xp.random.default_rng(seed)
        if use_tables:
            return _mc_tables_device(deal, trials, device_rng, accept, progress, be)
        return _mc_shuffle_device(deal, trials, device_rng, progress, be)
    rng = np.random.default_rng(seed)
    if use_tables:
        return _mc_tables(deal, trials, rng, progress)
    return _mc_shuffle(deal, trials, rng, progress)


def _completion_tables(deal: Deal, be: Backend) -> tuple[list[Any], list[Any], list[Any]]:
    """Per player, every completion of their hand from the unseen cards: the cards it uses (a
    bit per unseen card) and its high and low ranks, as arrays of ``be``'s device."""
    xp = be.xp
    unseen = xp.asarray(np.array(deal.unseen, dtype=np.uint8))
    m = len(deal.unseen)
    bit = np.left_shift(np.uint64(1), np.arange(m, dtype=np.uint64))
    masks, highs, lows = [], [], []
    for i in range(deal.players):
        rows = combos(m, deal.unknown[i])
        mask = np.zeros(rows.shape[0], dtype=np.uint64)
        for t in range(rows.shape[1]):
            mask |= bit.take(rows[:, t])
        hi, lo = Side(deal.known[i], deal.game, be).ranks(unseen.take(xp.asarray(rows)), rows.shape[0])
        masks.append(xp.asarray(mask))
        highs.append(hi)
        lows.append(lo)
    return masks, highs, lows


def _mc_tables(deal: Deal, trials: int, rng: np.random.Generator, progress: Progress | None) -> Counts:
    game, n = deal.game, deal.players
    masks, highs, lows = _completion_tables(deal, CPU)
    total = Counts(n)
    size = BLOCK * 2
    while total.total < trials:
        want = trials - total.total
        picks = [rng.integers(0, masks[i].size, size=size) for i in range(n)]
        used = masks[0].take(picks[0])
        ok = np.ones(size, dtype=bool)
        for i in range(1, n):
            mi = masks[i].take(picks[i])
            ok &= (used & mi) == 0
            used |= mi
        keep = np.flatnonzero(ok)[:want]
        high = np.vstack([highs[i].take(picks[i][keep]) for i in range(n)]) if _has_high(game) else None
        low = np.vstack([lows[i].take(picks[i][keep]) for i in range(n)]) if _has_low(game) else None
        total.add(tally(high, low, game, n, squares=True))
        if progress is not None:
            progress(total.total / trials)
    return total


def shuffled_prefix(rng: np.random.Generator, rows: int, m: int, r: int) -> npt.NDArray[np.int8]:
    """``rows`` independent uniformly random ordered draws of ``r`` of ``range(m)`` without
    replacement (a partial Fisher-Yates shuffle of each), column by column: shape ``(r, rows)``,
    entry ``[t, i]`` the t-th card drawn in draw ``i``."""
    a = np.repeat(np.arange(m, dtype=np.int8), rows)  # a[t * rows + i]: place t of draw i
    grid = a.reshape(m, rows)
    column = np.arange(rows, dtype=np.int64)
    # 32 random bits per swap, two to each of the generator's 64-bit words (its cheapest output).
    bits = rng.bit_generator.random_raw((r + 1) // 2 * rows).view(np.uint32).reshape(-1, rows)
    j = np.empty(rows, dtype=np.int64)
    for t in range(r):
        # Step t swaps place t with place t + (bits * (m - t) >> 32), on t .. m - 1 and uniform
        # to within (m - t) / 2**32 (under 2e-8) of each chance: flat index (t + that) * rows + i.
        np.multiply(bits[t], m - t, out=j, dtype=np.int64)
        j >>= 32
        j += t
        j *= rows
        j += column
        x = a.take(j)
        a[j] = grid[t]
        grid[t] = x
    return grid[:r]


def _mc_shuffle(deal: Deal, trials: int, rng: np.random.Generator, progress: Progress | None) -> Counts:
    game, n = deal.game, deal.players
    sizes = list(deal.unknown) + ([1] if deal.community else [])
    r = sum(sizes)
    unseen = np.array(deal.unseen, dtype=np.uint8)
    sides = [Side(deal.known[i], game) for i in range(n)]
    starts = np.cumsum([0, *sizes])
    total = Counts(n)
    while total.total < trials:
        rows = min(SHUFFLE_BLOCK, trials - total.total)
        cards = unseen.take(shuffled_prefix(rng, rows, unseen.size, r))
        total.add(_tally_full(cards, sides, starts, n, deal.community, game, squares=True))
        if progress is not None:
            progress(total.total / trials)
    return total


# The device code path of Monte Carlo. Blocks are bigger, the host never waits for the device
# inside a block, and rejection sampling keeps exactly the first `trials` accepted draws with a
# running count on the device (the host reads it once per round of blocks, to know whether to go
# on) and weights instead of compaction.

DEVICE_MC_ROWS = 1 << 23  # draws per block on a GPU


def _mc_tables_device(
    deal: Deal, trials: int, rng: Any, accept: float, progress: Progress | None, be: Backend
) -> Counts:
    xp = be.xp
    game, n = deal.game, deal.players
    masks, highs, lows = _completion_tables(deal, be)
    sizes = [int(mask.size) for mask in masks]
    tallies = Tallies(be, n, game)
    needed = math.ceil(trials / accept * 1.05) + 1024  # proposals, about
    block = min(DEVICE_MC_ROWS, 1 << needed.bit_length())
    running = xp.zeros((), dtype=np.int64)  # accepted draws so far, on the device
    accepted = 0
    while accepted < trials:
        rounds = max(1, math.ceil((trials - accepted) * 1.002 / (block * accept)))
        for _ in range(rounds):
            picks = [rng.integers(0, sizes[i], size=block, dtype=np.int32) for i in range(n)]
            used = masks[0].take(picks[0])
            ok = xp.ones(block, dtype=bool)
            for i in range(1, n):
                mi = masks[i].take(picks[i])
                ok &= (used & mi) == 0
                used |= mi
            place = xp.cumsum(ok, dtype=np.int64)
            place += running
            keep = ok & (place <= trials)
            running = place[-1]
            high = xp.stack([highs[i].take(picks[i]) for i in range(n)]) if _has_high(game) else None
            low = xp.stack([lows[i].take(picks[i]) for i in range(n)]) if _has_low(game) else None
            tallies.add_ranks(high, low, squares=True, weight=keep)
        accepted = int(running)
        if progress is not None:
            progress(min(1.0, accepted / trials))
    return tallies.flush()


def device_shuffled_prefix(xp: Any, rng: Any, rows: int, m: int, r: int) -> Any:
    """As :func:`shuffled_prefix`, on a device: shape ``(r, rows)``, each column the first r
    cards of an independent uniformly random shuffle of ``range(m)`` (the swaps drawn as exact
    uniform integers)."""
    a = xp.repeat(xp.arange(m, dtype=np.int8), rows)  # a[t * rows + i]: place t of draw i
    grid = a.reshape(m, rows)
    index: Any = np.int32 if m * rows < 1 << 31 else np.int64
    column = xp.arange(rows, dtype=index)
    for t in range(r):
        j = rng.integers(t, m, size=rows, dtype=index)  # uniform on t .. m - 1
        j *= rows
        j += column
        x = a.take(j)
        a[j] = grid[t]
        grid[t] = x
    return grid[:r]


def _mc_shuffle_device(deal: Deal, trials: int, rng: Any, progress: Progress | None, be: Backend) -> Counts:
    xp = be.xp
    game, n = deal.game, deal.players
    sizes = list(deal.unknown) + ([1] if deal.community else [])
    r = sum(sizes)
    unseen = xp.asarray(np.array(deal.unseen, dtype=np.uint8))
    m = len(deal.unseen)
    sides = [Side(deal.known[i], game, be) for i in range(n)]
    starts = np.cumsum([0, *sizes])
    tallies = Tallies(be, n, game)
    block = DEVICE_MC_ROWS
    done = 0
    while done < trials:
        rows = min(block, trials - done)
        cards = unseen.take(device_shuffled_prefix(xp, rng, rows, m, r))
        high, low = _ranks_full(cards, sides, starts, deal.community, game)
        tallies.add_ranks(high, low, squares=True)
        done += rows
        if progress is not None:
            progress(done / trials)
    return tallies.flush()
