"""Exact equity for two players by inclusion-exclusion (:func:`heads_up_exact`).

Each player's final hand depends only on their own cards, so each player's completions (every
set of cards they may still get) are evaluated once; the pairs of completions are then counted by
rank order with sorting, ``bincount`` and cumulative sums, group by group, and the pairs that
would need the same card twice are taken out by inclusion-exclusion over the cards the two
completions have in common: summing ``(-1) ** |S|`` times the pairs whose completions both
contain ``S``, over every set ``S``, counts exactly the pairs that share nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from sevenstud.fast.deal import (
    HALF,
    I64,
    POT,
    Counts,
    Deal,
    Progress,
    Side,
    combos,
    dense_classes,
    has_high,
    has_low,
    incidences,
)
from sevenstud.fast.device import CPU, Backend
from sevenstud.games import game_class

BINCOUNT_CELLS = 1 << 23  # a (group x rank class) table at most this big is counted by bincount


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
    use_high, use_low = has_high(game), has_low(game)
    split = game_class(game).split  # hi/lo: a low must qualify, and the pot has two halves
    if use_high:
        (hc_a, hc_b), n_hi = dense_classes([hi_a, hi_b], xp)
    if use_low:
        (lc_a, lc_b), n_lo = dense_classes([lo_a, lo_b], xp)
        if split:
            # Class 0 must be "no low" for the no-low counts; dense_classes keeps 0 first when present.
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
                    int(((lo_b == lo_a) & (lo_a > 0)).sum()) if split else int((lo_b == lo_a).sum())
                )
            if split:
                both = (lo_a == 0) & (lo_b == 0)
                values["no_low"] = int(both.sum())
                values["nl_hi_less"] = int((both & (hi_b < hi_a)).sum())
                values["nl_hi_equal"] = int((both & (hi_b == hi_a)).sum())
                values["scoop_a"] = int(((hi_b < hi_a) & (lo_b < lo_a)).sum())
                values["scoop_b"] = int(((hi_b > hi_a) & (lo_b > lo_a)).sum())
            totals.add(sign, **values)
        else:
            ga, ia = incidences(comb_a, j, be)
            gb, ib = incidences(comb_b, j, be)
            values = {}
            if use_high:
                ra, rb = hc_a.take(ia), hc_b.take(ib)
                pairs, less, equal = grouped_compare(ga, ra, gb, rb, groups, n_hi, be)
                values.update(pairs=pairs, hi_less=less, hi_equal=equal)
            if use_low:
                la, lb = lc_a.take(ia), lc_b.take(ib)
                pairs, less, equal = grouped_compare(ga, la, gb, lb, groups, n_lo, be)
                values.update(pairs=pairs, lo_less=less)
                if split:
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
    if not game_class(game).has_low:
        hi_more = t.pairs - t.hi_less - t.hi_equal
        counts.high_win = [t.hi_less, hi_more]
        counts.high_tie = [t.hi_equal, t.hi_equal]
        counts.scoop = [t.hi_less, hi_more]
        a = POT * t.hi_less + HALF * t.hi_equal
    elif not game_class(game).has_high:
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
