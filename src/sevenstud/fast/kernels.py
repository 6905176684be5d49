"""Equity kernels: exact counting and Monte Carlo over the cards still to come (numpy).

The problem handed to every kernel (:class:`Deal`): the unseen cards ``unseen`` (sorted), and per
player the cards already known and how many private cards are still unknown; ``community`` is 1
when the deck runs out on 7th street and one shared card is dealt face up for everybody. Every way
of giving the unknown cards out is one equally likely *outcome*.

Three ways of counting:

* :func:`heads_up_exact` (two players): each player's final hand depends only on their own cards,
  so each player's completions (every set of cards they may still get) are evaluated once; the
  pairs of completions are then counted by rank order with sorting, ``bincount`` and cumulative
  sums, group by group, and the pairs that would need the same card twice are taken out by
  inclusion-exclusion over the cards the two completions have in common: summing
  ``(-1) ** |S|`` times the pairs whose completions both contain ``S``, over every set ``S``,
  counts exactly the pairs that share nothing.
* :func:`enumerate_exact` (any number of players): every outcome, in vectorised blocks.
* :func:`monte_carlo`: random outcomes from a seeded generator. When every player's completions
  fit in a table and the players rarely collide, outcomes are drawn as independent completion
  numbers and the draws that share a card are rejected (what is kept is exactly uniform);
  otherwise each outcome is a partial Fisher-Yates shuffle of the unseen cards.

Every kernel returns :class:`Counts`: integer tallies, the pot counted as ``POT`` units so that
any split (a half among up to eight players) stays an integer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from math import comb, prod
from typing import Any

import numpy as np
import numpy.typing as npt

from sevenstud.fast import evaluate as fe

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
Progress = Callable[[float], None]

POT = 1680  # 2 * lcm(1..8): a whole pot or a half split among up to eight players is whole
HALF = POT // 2
SHARE_WHOLE: I64 = np.array([0] + [POT // k for k in range(1, 9)], dtype=np.int64)
SHARE_HALF: I64 = np.array([0] + [HALF // k for k in range(1, 9)], dtype=np.int64)

GAMES = ("stud8", "stud", "razz")
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
    return game != "razz"


def _has_low(game: str) -> bool:
    return game != "stud"


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
    """One player's known cards, folded into a packed sum, ready to add the unknown cards."""

    def __init__(self, known: Sequence[int], game: str) -> None:
        self.known = tuple(known)
        self.game = game
        self.base = fe.SUIT_PROBE + int(sum(int(fe.PACK[c]) for c in known))
        self.mask = int(sum(int(fe.CARD_BIT[c]) for c in known))

    def ranks(self, drawn: npt.NDArray[Any] | Sequence[npt.NDArray[Any]]) -> tuple[I32, I32]:
        """``(high, low)`` of the known cards plus each outcome's drawn cards: an (N, u) array of
        card numbers, or u arrays of N card numbers (one per drawn card). ``low`` is the
        eight-or-better low in stud8 (0: none) and the ace-to-five low in razz; the rank a game
        does not use is an empty array."""
        cols = [drawn[:, t] for t in range(drawn.shape[1])] if isinstance(drawn, np.ndarray) else list(drawn)
        if not cols:
            n = drawn.shape[0] if isinstance(drawn, np.ndarray) else 0
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


# ===============================================================================================
# Tallying blocks of outcomes (any number of players)
# ===============================================================================================


def tally(high: I32 | None, low: I32 | None, game: str, players: int, squares: bool = False) -> Counts:
    """Tallies of a block of outcomes from the players' ranks, shape ``(players, N)`` each
    (``low``: 0 = no qualifying low in stud8)."""
    counts = Counts(players)
    n = (high if high is not None else low).shape[1]  # type: ignore[union-attr]
    counts.total = n
    units: I64
    solo = top = None
    if high is not None:
        best = high.max(axis=0)
        top = high == best
        k = top.sum(axis=0)
        solo = top & (k == 1)
        counts.high_win = solo.sum(axis=1).tolist()
        counts.high_tie = (top & (k > 1)).sum(axis=1).tolist()
    if low is not None:
        lbest = low.max(axis=0)
        some = lbest > 0
        ltop = (low == lbest) & some
        lk = ltop.sum(axis=0)
        lsolo = ltop & (lk == 1)
        counts.low_win = lsolo.sum(axis=1).tolist()
        counts.low_tie = (ltop & (lk > 1)).sum(axis=1).tolist()
    if game == "stud8":
        assert top is not None and solo is not None and low is not None
        none = ~some
        counts.no_low = int(none.sum())
        half_high = SHARE_HALF.take(k)
        whole_high = SHARE_WHOLE.take(k)
        units = np.where(none, whole_high, half_high) * top + SHARE_HALF.take(lk) * ltop
        scoop = solo & (lsolo | none)
    elif game == "stud":
        assert top is not None and solo is not None
        units = SHARE_WHOLE.take(k) * top
        scoop = solo
    else:
        units = SHARE_WHOLE.take(lk) * ltop
        scoop = lsolo
    counts.equity = units.sum(axis=1).tolist()
    if squares:
        counts.equity_sq = (units * units).sum(axis=1).tolist()
    counts.scoop = scoop.sum(axis=1).tolist()
    return counts


# ===============================================================================================
# Exact: heads-up by inclusion-exclusion
# ===============================================================================================

BINCOUNT_CELLS = 1 << 23  # a (group x rank class) table at most this big is counted by bincount


def _dense(values: Sequence[I32]) -> tuple[list[I64], int]:
    """The values renumbered 0.. in order (equal values equal numbers), and how many there are."""
    joined = np.concatenate(values)
    uniq = np.unique(joined)
    return [np.searchsorted(uniq, v).astype(np.int64) for v in values], int(uniq.size)


def grouped_compare(
    ga: npt.NDArray[Any],
    ra: npt.NDArray[Any],
    gb: npt.NDArray[Any],
    rb: npt.NDArray[Any],
    groups: int,
    classes: int,
) -> tuple[int, int, int]:
    """Over the pairs (a, b) in the same group: ``(pairs, less, equal)`` where ``less`` counts
    ``rb < ra`` and ``equal`` counts ``rb == ra``. ``g*`` are group numbers below ``groups``,
    ``r*`` rank classes below ``classes`` (integer arrays)."""
    if ga.size == 0 or gb.size == 0:
        return 0, 0, 0
    na = np.bincount(ga, minlength=groups)
    nb = np.bincount(gb, minlength=groups)
    pairs = int(na @ nb)
    cells = groups * classes
    if cells <= min(BINCOUNT_CELLS, ga.size + gb.size + (1 << 16)):
        ha = np.bincount(ga * classes + ra, minlength=cells).reshape(groups, classes)
        hb = np.bincount(gb * classes + rb, minlength=cells).reshape(groups, classes)
        below = np.cumsum(hb, axis=1)
        below -= hb
        return pairs, int(np.vdot(ha, below)), int(np.vdot(ha, hb))
    # Sort A and B together, B first among equal keys. For an A: the running count of B is the B
    # with a key no greater (its group's up to its rank, and every earlier group's); the running
    # count where its run of equal keys starts is the B with a smaller key.
    small = cells * 2 < 1 << 31 and ga.size + gb.size < 1 << 31
    dtype: Any = np.int32 if small else np.int64
    s: Any = np.concatenate([gb, ga]).astype(dtype)
    s *= classes
    s[: gb.size] += rb
    s[gb.size :] += ra
    s *= 2
    s[gb.size :] += 1
    s.sort()
    is_b = (s & 1) == 0
    is_a = ~is_b
    running = np.cumsum(is_b, dtype=dtype)
    key = s >> 1
    start = np.empty(s.size, dtype=bool)
    start[0] = True
    np.not_equal(key[1:], key[:-1], out=start[1:])
    base = np.where(start, running - is_b, 0).astype(dtype, copy=False)
    np.maximum.accumulate(base, out=base)
    no_greater = int((running * is_a).sum(dtype=np.int64))
    smaller = int((base * is_a).sum(dtype=np.int64))
    earlier = int(na @ (np.cumsum(nb) - nb))
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


def heads_up_exact(deal: Deal, progress: Progress | None = None) -> Counts:
    """Exact tallies for two players (no community card) by inclusion-exclusion over the cards
    their completions share. See the module's documentation."""
    assert deal.players == 2 and deal.community == 0
    game = deal.game
    unseen = np.array(deal.unseen, dtype=np.uint8)
    m = unseen.size
    ua, ub = deal.unknown
    comb_a, comb_b = combos(m, ua), combos(m, ub)
    side_a, side_b = Side(deal.known[0], game), Side(deal.known[1], game)
    hi_a, lo_a = side_a.ranks(unseen[comb_a])
    hi_b, lo_b = side_b.ranks(unseen[comb_b])
    use_high, use_low = _has_high(game), _has_low(game)
    if use_high:
        (hc_a, hc_b), n_hi = _dense([hi_a, hi_b])
    if use_low:
        (lc_a, lc_b), n_lo = _dense([lo_a, lo_b])
        if game == "stud8":
            # Class 0 must be "no low" for the no-low counts; _dense keeps 0 first when present.
            zero_a, zero_b = lo_a == 0, lo_b == 0
            if not (zero_a.any() or zero_b.any()):
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
            ga, ia = _incidences(comb_a, j)
            gb, ib = _incidences(comb_b, j)
            values = {}
            if use_high:
                ra, rb = hc_a.take(ia), hc_b.take(ib)
                pairs, less, equal = grouped_compare(ga, ra, gb, rb, groups, n_hi)
                values.update(pairs=pairs, hi_less=less, hi_equal=equal)
            if use_low:
                la, lb = lc_a.take(ia), lc_b.take(ib)
                pairs, less, equal = grouped_compare(ga, la, gb, lb, groups, n_lo)
                values.update(pairs=pairs, lo_less=less)
                if game == "stud8":
                    # Equal lows count only when they qualify: take out the pairs with none.
                    za, zb = la == 0, lb == 0
                    na0 = np.bincount(ga[za], minlength=groups)
                    nb0 = np.bincount(gb[zb], minlength=groups)
                    none = int(na0 @ nb0)
                    values.update(lo_equal_some=equal - none, no_low=none)
                    _, nl_less, nl_equal = grouped_compare(ga[za], ra[za], gb[zb], rb[zb], groups, n_hi)
                    values.update(nl_hi_less=nl_less, nl_hi_equal=nl_equal)
                    sa, sb = _dominance(ga, ra, la, gb, rb, lb, groups, n_hi, n_lo)
                    values.update(scoop_a=sa, scoop_b=sb)
                else:
                    values.update(lo_equal_some=equal)
            totals.add(sign, **values)
        if progress is not None:
            progress((j + 1) / steps)
    return _heads_up_counts(totals, game)


def _incidences(rows: npt.NDArray[np.int16], j: int) -> tuple[I64, I64]:
    """For every completion and every j of its cards: the colex number of those j cards (the
    group) and the completion's row."""
    n, u = rows.shape
    which = np.arange(n, dtype=np.int64)
    if j == 0:
        return np.zeros(n, dtype=np.int64), which
    picks = combos(u, j)
    groups = [colex_index(rows[:, pick]) for pick in picks.tolist()]
    return np.concatenate(groups), np.tile(which, len(groups))


def _dominance(
    ga: I64, ha: I64, la: I64, gb: I64, hb: I64, lb: I64, groups: int, n_hi: int, n_lo: int
) -> tuple[int, int]:
    """Pairs in the same group with A above B in both high and low, and with B above A in both
    (low class 0 is "no low", below every qualifying low).

    A low above "no low" is a one-dimensional count of highs. Between two qualifying lows the
    classes are split bit by bit: A's low is above B's exactly when, at the highest bit where they
    differ, A has a 1; each bit is then a one-dimensional count of highs within (group, the low
    bits above it), done for both directions with one sort."""
    za, zb = la == 0, lb == 0
    qa, qb = ~za, ~zb
    _, above_a, _ = grouped_compare(ga[qa], ha[qa], gb[zb], hb[zb], groups, n_hi)
    _, above_b, _ = grouped_compare(gb[qb], hb[qb], ga[za], ha[za], groups, n_hi)
    ga, ha, la = ga[qa], ha[qa], la[qa] - 1
    gb, hb, lb = gb[qb], hb[qb], lb[qb] - 1
    if ga.size == 0 or gb.size == 0:
        return above_a, above_b
    bits = max(1, int(n_lo - 2).bit_length())
    dtype: Any = np.int32 if groups * (1 << bits) * n_hi * 4 < 1 << 31 else np.int64
    g: Any = np.concatenate([ga, gb]).astype(dtype)
    h: Any = np.concatenate([ha, hb]).astype(dtype)
    lo: Any = np.concatenate([la, lb]).astype(dtype)
    side: Any = np.zeros(g.size, dtype=dtype)
    side[ga.size :] = 1
    # What each kind adds to the running counts: B with 0 in the low word, A with 0 in the high.
    adds = np.array([0, 0, 1 << 32, 1], dtype=np.int64)
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
        np.cumsum(running, out=running)
        raw_a = int(((running & 0xFFFFFFFF) * (c == 0)).sum())
        raw_b = int(((running >> 32) * (c == 1)).sum())
        # Take out the counted ones of earlier sub-groups.
        subs = groups * width
        n_sub = np.bincount(sub * 4 + code, minlength=subs * 4).reshape(subs, 4)
        before_b0 = np.cumsum(n_sub[:, 3]) - n_sub[:, 3]
        before_a0 = np.cumsum(n_sub[:, 2]) - n_sub[:, 2]
        above_a += raw_a - int(n_sub[:, 0] @ before_b0)
        above_b += raw_b - int(n_sub[:, 1] @ before_a0)
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


def enumerate_exact(deal: Deal, progress: Progress | None = None) -> Counts:
    """Exact tallies by going through every outcome (any number of players)."""
    game, n = deal.game, deal.players
    sizes = list(deal.unknown) + ([1] if deal.community else [])
    left = len(deal.unseen)
    # Players whose cards are enumerated outside (a Python loop), the rest inside one pattern.
    inner_from = len(sizes)
    rows = 1
    while inner_from > 0:
        ahead = left - sum(sizes[: inner_from - 1])
        more = rows * comb(ahead, sizes[inner_from - 1])
        if more > PATTERN_ROWS and inner_from < len(sizes):
            break
        rows, inner_from = more, inner_from - 1
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
# Monte Carlo
# ===============================================================================================

TABLE_LIMIT = 1 << 20  # completions per player kept in a table for rejection sampling
MIN_ACCEPT = 0.2  # below this acceptance rate, shuffle instead
SHUFFLE_BLOCK = 1 << 15  # shuffled deals per vectorised step (the shuffle's arrays stay in cache)


def monte_carlo(deal: Deal, trials: int, seed: int | None, progress: Progress | None = None) -> Counts:
    """Tallies of ``trials`` random outcomes (``equity_sq`` filled for the standard error)."""
    rng = np.random.default_rng(seed)
    left = len(deal.unseen)
    tables = [comb(left, u) for u in deal.unknown]
    accept = deal.outcomes() / prod(tables) if not deal.community else 0.0
    if not deal.community and max(tables) <= TABLE_LIMIT and accept >= MIN_ACCEPT:
        return _mc_tables(deal, trials, rng, progress)
    return _mc_shuffle(deal, trials, rng, progress)


def _mc_tables(deal: Deal, trials: int, rng: np.random.Generator, progress: Progress | None) -> Counts:
    game, n = deal.game, deal.players
    unseen = np.array(deal.unseen, dtype=np.uint8)
    m = unseen.size
    bit = np.left_shift(np.uint64(1), np.arange(m, dtype=np.uint64))
    masks, highs, lows = [], [], []
    for i in range(n):
        rows = combos(m, deal.unknown[i])
        mask = np.zeros(rows.shape[0], dtype=np.uint64)
        for t in range(rows.shape[1]):
            mask |= bit.take(rows[:, t])
        hi, lo = Side(deal.known[i], game).ranks(unseen[rows])
        masks.append(mask)
        highs.append(hi)
        lows.append(lo)
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
    column = np.arange(rows, dtype=np.intp)
    u = rng.random((r, rows))
    j = np.empty(rows, dtype=np.intp)
    for t in range(r):
        # Step t swaps place t with place t + floor(u * (m - t)), uniform on t .. m - 1 (a float
        # below 1 times m - t stays below it): flat index (t + j) * rows + i.
        np.multiply(u[t], m - t, out=u[t])
        j[...] = u[t]
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
