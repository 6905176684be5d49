"""Exact equity by going through every outcome (:func:`enumerate_exact`, any number of players),
and the blocks of deals that the device code path and :mod:`sevenstud.fast.last_player` go
through (:func:`position_blocks`).

The first players' cards are dealt in a Python loop, the last ones' by one table of every way of
dealing them (:func:`deal_pattern`), so that each vectorised step is a big block of outcomes.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from sevenstud.fast.deal import (
    BLOCK,
    Counts,
    Deal,
    Progress,
    Side,
    Tallies,
    combos,
    ranks_full,
    tally_full,
)
from sevenstud.fast.device import CPU, Backend

PATTERN_ROWS = 1 << 21  # the largest table of inner deals built at once
DEVICE_BLOCK = 1 << 23  # outcomes (or outer deals) per vectorised step on a GPU
DEVICE_PATTERN_ROWS = 1 << 22  # the largest table of inner deals built at once for a GPU


# ===============================================================================================
# Exact: every outcome, in blocks
# ===============================================================================================


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
            total.add(tally_full(full, sides, starts, n, deal.community, game, squares=False))
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


# ===============================================================================================
# Blocks of positions (the device code path, and the last player's count)
# ===============================================================================================


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


def _enumerate_device(deal: Deal, progress: Progress | None, be: Backend) -> Counts:
    xp = be.xp
    game, n = deal.game, deal.players
    sizes = list(deal.unknown) + ([1] if deal.community else [])
    unseen = xp.asarray(np.array(deal.unseen, dtype=np.uint8))
    sides = [Side(deal.known[i], game, be) for i in range(n)]
    starts = np.cumsum([0, *sizes])
    tallies = Tallies(be, n, game)
    for columns, done in position_blocks(len(deal.unseen), sizes, be, DEVICE_BLOCK, DEVICE_PATTERN_ROWS):
        high, low = ranks_full(unseen.take(columns), sides, starts, deal.community, game)
        tallies.add_ranks(high, low, squares=False)
        if progress is not None:
            progress(min(1.0, done))
    return tallies.flush()
