"""Equity from random outcomes of a seeded generator (:func:`monte_carlo`).

When every player's completions fit in a table and the players rarely collide, outcomes are drawn
as independent completion numbers and the draws that share a card are rejected (what is kept is
exactly uniform); otherwise each outcome is a partial Fisher-Yates shuffle of the unseen cards.
On a GPU the same ways of drawing run with the device's own generator, in bigger blocks.

``stop`` (a callable) is asked between blocks: when it says yes, the draws so far are the
sample. The moment of stopping does not depend on the cards drawn, so what was drawn is still a
uniform sample, only a smaller one (its standard errors say so). Asking costs one call a block
(a block is tens of thousands of draws, milliseconds of work).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from math import comb, prod
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
    has_high,
    has_low,
    ranks_full,
    tally,
    tally_full,
)
from sevenstud.fast.device import CPU, Backend

TABLE_LIMIT = 1 << 20  # completions per player kept in a table for rejection sampling
MIN_ACCEPT = 0.2  # below this acceptance rate, shuffle instead
SHUFFLE_BLOCK = 1 << 15  # shuffled deals per vectorised step (the shuffle's arrays stay in cache)

Stop = Callable[[], bool]
"""Asked between blocks: True ends the sampling with the draws made so far."""


def _never() -> bool:
    return False


def monte_carlo(
    deal: Deal,
    trials: int,
    seed: int | None,
    progress: Progress | None = None,
    be: Backend = CPU,
    stop: Stop | None = None,
) -> Counts:
    """Tallies of ``trials`` random outcomes (``equity_sq`` filled for the standard error); fewer
    when ``stop`` said so between blocks (``total`` says how many). On a GPU the random numbers
    come from the device's own generator, seeded with ``seed``: the same distribution as the
    CPU's, not the same draws."""
    stop = stop or _never
    left = len(deal.unseen)
    tables = [comb(left, u) for u in deal.unknown]
    accept = deal.outcomes() / prod(tables) if not deal.community else 0.0
    use_tables = not deal.community and max(tables) <= TABLE_LIMIT and accept >= MIN_ACCEPT
    if be.gpu:
        device_rng = be.xp.random.default_rng(seed)
        if use_tables:
            return _mc_tables_device(deal, trials, device_rng, accept, progress, be, stop)
        return _mc_shuffle_device(deal, trials, device_rng, progress, be, stop)
    rng = np.random.default_rng(seed)
    if use_tables:
        return _mc_tables(deal, trials, rng, progress, stop)
    return shuffle_counts(deal, trials, rng, progress, stop)


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


def _mc_tables(
    deal: Deal, trials: int, rng: np.random.Generator, progress: Progress | None, stop: Stop
) -> Counts:
    """Win counts over ``trials`` random runs of the unseen cards (numpy, on the CPU), told
    to ``progress`` as they go and ended early when ``stop()`` says so."""
    game, n = deal.game, deal.players
    masks, highs, lows = _completion_tables(deal, CPU)
    total = Counts(n)
    size = BLOCK * 2
    while total.total < trials and not stop():
        want = trials - total.total
        picks = [rng.integers(0, masks[i].size, size=size) for i in range(n)]
        used = masks[0].take(picks[0])
        ok = np.ones(size, dtype=bool)
        for i in range(1, n):
            mi = masks[i].take(picks[i])
            ok &= (used & mi) == 0
            used |= mi
        keep = np.flatnonzero(ok)[:want]
        high = np.vstack([highs[i].take(picks[i][keep]) for i in range(n)]) if has_high(game) else None
        low = np.vstack([lows[i].take(picks[i][keep]) for i in range(n)]) if has_low(game) else None
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


def shuffle_counts(
    deal: Deal, trials: int, rng: np.random.Generator, progress: Progress | None, stop: Stop
) -> Counts:
    game, n = deal.game, deal.players
    sizes = list(deal.unknown) + ([1] if deal.community else [])
    r = sum(sizes)
    unseen = np.array(deal.unseen, dtype=np.uint8)
    sides = [Side(deal.known[i], game) for i in range(n)]
    starts = np.cumsum([0, *sizes])
    total = Counts(n)
    while total.total < trials and not stop():
        rows = min(SHUFFLE_BLOCK, trials - total.total)
        cards = unseen.take(shuffled_prefix(rng, rows, unseen.size, r))
        total.add(tally_full(cards, sides, starts, n, deal.community, game, squares=True))
        if progress is not None:
            progress(total.total / trials)
    return total


# The device code path of Monte Carlo. Blocks are bigger, the host never waits for the device
# inside a block, and rejection sampling keeps exactly the first `trials` accepted draws with a
# running count on the device (the host reads it once per round of blocks, to know whether to go
# on) and weights instead of compaction.

DEVICE_MC_ROWS = 1 << 23  # draws per block on a GPU


def _mc_tables_device(
    deal: Deal, trials: int, rng: Any, accept: float, progress: Progress | None, be: Backend, stop: Stop
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
    while accepted < trials and not stop():
        rounds = max(1, math.ceil((trials - accepted) * 1.002 / (block * accept)))
        for round_ in range(rounds):
            if round_ and stop():  # between blocks: what was accepted so far is the sample
                break
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
            high = xp.stack([highs[i].take(picks[i]) for i in range(n)]) if has_high(game) else None
            low = xp.stack([lows[i].take(picks[i]) for i in range(n)]) if has_low(game) else None
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


def _mc_shuffle_device(
    deal: Deal, trials: int, rng: Any, progress: Progress | None, be: Backend, stop: Stop
) -> Counts:
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
    while done < trials and not stop():
        rows = min(block, trials - done)
        cards = unseen.take(device_shuffled_prefix(xp, rng, rows, m, r))
        high, low = ranks_full(cards, sides, starts, deal.community, game)
        tallies.add_ranks(high, low, squares=True)
        done += rows
        if progress is not None:
            progress(done / trials)
    return tallies.flush()
