"""Prizes: the payout table by the size of the field, tied places, and ICM (Malmuth-Harville).

Every amount is whole chips of play money; a table always pays out exactly its prize pool.

>>> payout_table(6, 600)
(390, 210)
>>> sum(payout_table(100, 10_000)) == 10_000 and len(payout_table(100, 10_000))
15
>>> payout_table(20, 2000), payout_table(21, 2100)
((962, 607, 431), (1008, 638, 454))
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from functools import cache, lru_cache
from itertools import accumulate

# A sit-and-go's shares by the size of its field: the winner takes all up to 3 players, 65/35
# for 5 and 6, 50/30/20 from 8 to 10, the shares every large room uses for one table. Only the
# sizes where those would cut a prize when one more player enters differ: 4 players pay 75/25
# (first keeps the 3 buy-ins it won of 3), 7 pay 39/21/10 (first and second keep theirs of 6).
_SIT_AND_GO_PRIZES: dict[int, tuple[int, ...]] = {
    1: (1,),
    2: (1,),
    3: (1,),
    4: (3, 1),
    5: (65, 35),
    6: (65, 35),
    7: (39, 21, 10),
    8: (50, 30, 20),
    9: (50, 30, 20),
    10: (50, 30, 20),
}
MTT_FRACTION = Fraction(15, 100)
"""About the top 15% of a multi-table field is paid."""
_MTT_BASE = (5.0, 3.0, 2.0)
"""A multi-table field of 10 or fewer pays three places, 50/30/20 (the prizes in buy-ins at 10)."""


def paid_places(entries: int, *, single_table: bool | None = None) -> int:
    """How many places are paid: a sit-and-go (one table, ``entries`` up to 10) pays one place
    up to 3 players, two up to 6, three up to 10; a multi-table field pays about 15% (at least 3)."""
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

    A sit-and-go pays by :data:`_SIT_AND_GO_PRIZES`; a multi-table field by :func:`mtt_buy_ins`
    (docs/tournaments.md, "Prizes"). Either way each place pays at least the next, first
    place's share never grows with the field, and with the pool growing by one buy-in an
    entrant no place's prize falls (but for a chip of rounding)."""
    places = paid_places(entries, single_table=single_table)
    if places == 0 or pool <= 0:
        return ()
    one_table = entries <= 10 if single_table is None else single_table
    if one_table:
        return split_exactly(pool, _SIT_AND_GO_PRIZES[min(entries, 10)])  # (its places: paid_places)
    return _mtt_table(entries, pool)


@lru_cache(maxsize=64)
def _mtt_table(entries: int, pool: int) -> tuple[int, ...]:
    # Cached: a director asks for its table after every hand (a few tables: a field of 10,000
    # pays 1,500 places).
    return _non_increasing(_split_floats(pool, _buy_ins(entries), entries))


def mtt_buy_ins(entries: int) -> list[float]:
    """The prize of each paid place of a multi-table field of ``entries``, in buy-ins (they add
    up to ``entries``), first place first.

    Up to 10 entrants: three places, 50/30/20. From there each entrant's buy-in either pays a
    new place (when the paid places, about 15% of the field, grow by one: that place then wins
    its buy-in back) or is spread over the places already paid in proportion to ``1 / (place +
    1)``. So no prize ever falls as the field grows, a place above never wins less than one
    below, and first place, taking less than its share of each new buy-in, takes a smaller
    share of a larger field: about 48% of 20 entrants, 29% of 100, 13% of 1,000."""
    return list(_buy_ins(entries))


def _buy_ins(entries: int) -> Iterator[float]:
    if entries <= 10:
        return iter([entries * share / 10 for share in _MTT_BASE])
    ladder = _ladder(entries)
    places = paid_places(entries, single_table=False)
    # place k: its prize when first paid + (spread now - spread then) / (k + 1), as the
    # constant part and the weight (C-level maps: a field of 10,000 pays 1,500 places).
    grown = map(ladder.spread[entries].__mul__, ladder.weight[1 : places + 1])
    return map(operator.add, ladder.offset[1 : places + 1], grown)


class _Ladder:
    """:func:`mtt_buy_ins`' running sums, field by field from 10 entrants up (grown on demand:
    a field of 10,000 is 10,000 additions, once)."""

    def __init__(self) -> None:
        self.spread = [0.0] * 11
        """``spread[n]``: the sum, over the entrants 11 to n whose buy-in was spread, of the
        buy-in over the weights then paid (place ``k``'s share of it is ``1 / (k + 1)``)."""
        self.first_paid = [10, 10, 10, 10]
        """``first_paid[k]``: the field at which place ``k`` was first paid (1 to 3: 10)."""
        self.total = 1 / 2 + 1 / 3 + 1 / 4
        """The weights of the places paid, ``1 / (place + 1)`` each, added up."""
        self.weight = [0.0, 1 / 2, 1 / 3, 1 / 4]
        """``weight[k]``: ``1 / (k + 1)``, place ``k``'s part of a buy-in spread (index 0 unused)."""
        self.offset = [0.0, *_MTT_BASE]
        """``offset[k]``: place ``k``'s prize when first paid less its weight times the spread
        then (its prize at ``n`` entrants is ``offset[k] + weight[k] * spread[n]``)."""

    def grow(self, entries: int) -> None:
        spread = self.spread
        for n in range(len(spread), entries + 1):
            places = paid_places(n, single_table=False)
            if places > paid_places(n - 1, single_table=False):
                self.first_paid.append(n)  # this entrant's buy-in is the new place's prize
                weight = 1 / (places + 1)
                self.total += weight
                self.weight.append(weight)
                self.offset.append(1.0 - weight * spread[-1])
                spread.append(spread[-1])
            else:
                spread.append(spread[-1] + 1 / self.total)


_LADDER = _Ladder()


def _ladder(entries: int) -> _Ladder:
    if len(_LADDER.spread) <= entries:
        _LADDER.grow(entries)
    return _LADDER


def _split_floats(total: int, values: Iterable[float], whole: float) -> tuple[int, ...]:
    """``total`` chips split in proportion to ``values`` (which add up to ``whole``), summing to
    ``total`` exactly: each place's running total is rounded (each prize then within a chip of
    its exact share)."""
    rounded = list(map(round, accumulate(map((total / whole).__mul__, values))))
    rounded[-1] = total
    return tuple(map(operator.sub, rounded, [0, *rounded[:-1]]))


def _non_increasing(prizes: tuple[int, ...]) -> tuple[int, ...]:
    # Rounding can leave a lower place a chip above a higher one: the chips are given in order
    # (the same chips, each place within a chip of its exact share still).
    if all(map(operator.ge, prizes, prizes[1:])):
        return prizes
    return tuple(sorted(prizes, reverse=True))


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
