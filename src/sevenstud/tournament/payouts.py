"""Prizes: the payout table by the size of the field, tied places, and ICM (Malmuth-Harville).

Every amount is whole chips of play money; a table always pays out exactly its prize pool.

>>> payout_table(6, 600)
(390, 210)
>>> sum(payout_table(100, 10_000)) == 10_000 and len(payout_table(100, 10_000))
15
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache

# Sit-and-gos pay the top two or three: the shares the large rooms use for one table.
_SIT_AND_GO_SHARES: dict[int, tuple[int, ...]] = {
    1: (100,),
    2: (65, 35),
    3: (50, 30, 20),
}
MTT_FRACTION = Fraction(15, 100)
"""About the top 15% of a multi-table field is paid."""
MIN_CASH = Fraction(3, 2)
"""The smallest prize of a multi-table tournament is about one and a half buy-ins."""


def paid_places(entries: int, *, single_table: bool | None = None) -> int:
    """How many places are paid: a sit-and-go (one table, ``entries`` up to 10) pays one place
    heads-up, two up to 6 players, three up to 10; a multi-table field pays about 15%."""
    if entries < 1:
        return 0
    one_table = entries <= 10 if single_table is None else single_table
    if one_table:
        return 1 if entries <= 3 else 2 if entries <= 6 else 3
    return max(3, int(entries * MTT_FRACTION + Fraction(1, 2)))


def split_exactly(total: int, weights: Sequence[Fraction | int]) -> tuple[int, ...]:
    """``total`` chips split in proportion to ``weights`` (largest remainder; a remainder goes
    to the earlier share on a tie), summing to ``total`` exactly."""
    whole = sum(Fraction(w) for w in weights)
    if whole <= 0:
        raise ValueError("the weights must add up to more than zero")
    exact = [Fraction(w) * total / whole for w in weights]
    shares = [int(x) for x in exact]
    left = total - sum(shares)
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - shares[i]), i))
    for i in order[:left]:
        shares[i] += 1
    return tuple(shares)


def payout_table(entries: int, pool: int, *, single_table: bool | None = None) -> tuple[int, ...]:
    """The prize of each paid place, first place first, summing to ``pool``.

    A multi-table field's prizes fall as a power of the place, ``1 / place ** a``, with ``a``
    chosen so that the last paid place wins about :data:`MIN_CASH` buy-ins: a steep top and a
    flat bottom, the shape of the large rooms' tables."""
    places = paid_places(entries, single_table=single_table)
    if places == 0 or pool <= 0:
        return ()
    if places in _SIT_AND_GO_SHARES and (single_table or (single_table is None and entries <= 10)):
        return split_exactly(pool, _SIT_AND_GO_SHARES[places])
    return _mtt_table(entries, pool, places)


@cache
def _mtt_table(entries: int, pool: int, places: int) -> tuple[int, ...]:
    # Cached: a director asks for its table after every hand, and a field of thousands pays
    # hundreds of places, each bisection step summing them. The sums are exact (the weights are
    # floats, so dyadic rationals: whole numbers over one power of two) without Fraction's
    # gcd at every addition, which made a 10,000-entrant table take minutes.
    target = Fraction(pool, entries) * MIN_CASH  # the smallest prize we aim at
    low, high = 0.0, 4.0
    for _ in range(60):  # bisection on the exponent: a larger one gives the last place less
        middle = (low + high) / 2
        numerators = _dyadic([1 / (place**middle) for place in range(1, places + 1)])
        # last = weights[-1] / sum(weights) * pool, compared with target exactly
        total = sum(numerators)
        last_beats_target = numerators[-1] * pool * target.denominator > target.numerator * total
        low, high = (middle, high) if last_beats_target else (low, middle)
    weights = [Fraction(1 / (place**low)) for place in range(1, places + 1)]
    return _non_increasing(split_exactly(pool, weights))


def _dyadic(values: Sequence[float]) -> list[int]:
    """Positive floats as whole numerators over one common power of two (their exact ratios)."""
    ratios = [v.as_integer_ratio() for v in values]  # each denominator a power of two
    shift = max(d.bit_length() - 1 for _, d in ratios)
    return [n << (shift - (d.bit_length() - 1)) for n, d in ratios]


def _non_increasing(prizes: tuple[int, ...]) -> tuple[int, ...]:
    # Rounding can leave a lower place one chip above a higher one; the chip moves up.
    fixed = list(prizes)
    for i in range(1, len(fixed)):
        if fixed[i] > fixed[i - 1]:
            fixed[i - 1], fixed[i] = fixed[i], fixed[i - 1]
    return tuple(fixed)


def shared_prizes(prizes: Sequence[int], first_place: int, players: Sequence[str]) -> dict[str, int]:
    """Players tied for the places ``first_place``, ``first_place + 1``, ... share the prizes of
    those places equally; an odd chip goes to the players in the order given."""
    total = sum(
        prizes[place - 1] for place in range(first_place, first_place + len(players)) if place <= len(prizes)
    )
    return dict(zip(players, split_exactly(total, [1] * len(players)), strict=True))


def icm(stacks: Sequence[int], prizes: Sequence[int]) -> tuple[Fraction, ...]:
    """Each stack's expected prize by the Independent Chip Model (Malmuth-Harville): a player
    finishes first with the share of the chips they hold, then the same among the rest.

    Exact fractions; exponential in the number of players (final tables: up to about 12).

    >>> icm([50, 50], [70, 30])
    (Fraction(50, 1), Fraction(50, 1))
    """
    n = len(stacks)
    if any(s < 0 for s in stacks) or sum(stacks) <= 0:
        raise ValueError("ICM needs stacks that are not negative and add up to more than zero")
    if n > 16:
        raise ValueError(f"ICM of {n} players is too large to compute exactly (16 at most)")
    paid = list(prizes[:n]) + [0] * max(0, n - len(prizes))

    @cache
    def values(remaining: int) -> tuple[Fraction, ...]:
        # values(mask)[i]: player i's expected prize from the places still to be given, where
        # `mask` holds the players left; the next place given is n - popcount(mask) + 1.
        alive = [i for i in range(n) if remaining >> i & 1]
        place = n - len(alive)
        result = [Fraction(0)] * n
        chips = sum(stacks[i] for i in alive)
        if chips == 0:  # only empty stacks left: they share what is left equally
            share = Fraction(sum(paid[place:]), len(alive))
            for i in alive:
                result[i] = share
            return tuple(result)
        for i in alive:
            if stacks[i] == 0:
                continue
            chance = Fraction(stacks[i], chips)
            result[i] += chance * paid[place]
            rest = remaining & ~(1 << i)
            if rest:
                for j, value in enumerate(values(rest)):
                    result[j] += chance * value
        return tuple(result)

    return values((1 << n) - 1)


def icm_deal(stacks: Mapping[str, int], prizes_left: Sequence[int]) -> dict[str, int]:
    """The remaining prizes split by ICM in whole chips (largest remainder), summing exactly to
    the prizes left: what each player takes in a deal."""
    names = list(stacks)
    values = icm([stacks[name] for name in names], prizes_left)
    total = sum(prizes_left[: len(names)])
    return dict(zip(names, split_exactly(total, list(values)), strict=True))
