"""Exact equity for three players or more, no community card (:func:`last_player_exact`).

Every deal of all players but one is gone through, in vectorised blocks; the last player's
completions are counted against each deal by inclusion-exclusion over the cards they share with
it, with tables of that player's completions sorted by rank class (see the function). Four players
on 5th street, 26.5 billion deals, are 81.6 million outer deals and 22 look-ups each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np

from sevenstud.fast import enumeration
from sevenstud.fast.deal import (
    BINOM,
    HALF,
    I64,
    POT,
    SHARE_HALF,
    SHARE_WHOLE,
    STATS,
    Counts,
    Deal,
    Progress,
    Side,
    Tallies,
    colex_columns,
    combos,
    dense_classes,
    has_high,
    has_low,
    incidences,
)
from sevenstud.fast.device import CPU, Backend
from sevenstud.fast.enumeration import position_blocks
from sevenstud.games import game_class

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
    if game_class(deal.game).split:
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
    use_high, use_low = has_high(game), has_low(game)
    both = game_class(game).split
    # Every player's completions, ranked once (on the CPU: tables, built once).
    rows = [combos(m, deal.unknown[i]) for i in range(n)]
    ranks = [Side(deal.known[i], game).ranks(unseen[rows[i]]) for i in range(n)]
    hc: list[I64] = []
    lc: list[I64] = []
    n_lo = 0
    if use_high:
        hc, n_hi = dense_classes([r[0] for r in ranks])
    if use_low:
        lc, n_lo = dense_classes([r[1] for r in ranks])
        if both and not any(bool((r[1] == 0).any()) for r in ranks):
            lc, n_lo = [c + 1 for c in lc], n_lo + 1  # class 0: no low
    cls_last, classes = (hc[last], n_hi) if use_high else (lc[last], n_lo)
    width = n_lo + 1
    levels = []
    for j in range(u):
        g, which = incidences(rows[last], j)
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
    # The block sizes are read from enumeration's module at call time: one setting for every
    # kernel that goes through position blocks (the tests shrink them there).
    block_rows = enumeration.DEVICE_BLOCK if be.gpu else LAST_PLAYER_BLOCK
    pattern_rows = enumeration.DEVICE_PATTERN_ROWS if be.gpu else enumeration.PATTERN_ROWS
    for columns, done in position_blocks(m, sizes, be, block_rows, pattern_rows):
        rows_n = columns.shape[1]
        cols = [columns[c] for c in range(s)]
        zeros = xp.zeros(rows_n, dtype=np.int64)
        # The outer players' classes, by the colex number of their completions.
        hs, ls = [], []
        for k, i in enumerate(outer):
            part = cols[int(starts[k]) : int(starts[k + 1])]
            number = colex_columns(part, binom) if part else zeros
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
                g = colex_columns([union[t] for t in pick], binom) if pick else zeros
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
    if game_class(game).split:
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
        top, k_top = (top_h, k_h) if not game_class(game).has_low else (top_l, k_l)
        win, tie = ("high_win", "high_tie") if not game_class(game).has_low else ("low_win", "low_tie")
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
