"""Side pots and awards: who is eligible for which pot, the hi/lo split with the eight-or-better
qualifier, ties, quartered lows and odd chips.

>>> build_pots([10, 30, 30], [True, True, True])
[Pot(amount=30, eligible=(0, 1, 2)), Pot(amount=40, eligible=(1, 2))]
>>> split_evenly(7, [2, 5], [5, 2])  # 7 chips between seats 2 and 5; seat 5 holds the higher card
[(5, 4), (2, 3)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, Literal, NamedTuple

Share = Literal["whole", "high", "low"]


class Pot(NamedTuple):
    """A pot and the seats that may win it (those who put in its level and did not fold).

    Immutable, like every result of a hand: a named tuple rather than a frozen dataclass,
    whose ``__init__`` is interpreted code even in the compiled engine (tools/build_compiled.py),
    and a hand builds several a showdown. :func:`new_pot` builds one faster still."""

    amount: int
    eligible: tuple[int, ...]


class Award(NamedTuple):
    """Chips from one pot to one seat: ``pot`` 0 is the main pot, 1 the first side pot, ...;
    ``share`` is ``"whole"`` for an undivided pot, else the ``"high"`` or ``"low"`` half.
    A named tuple, as :class:`Pot` is; :func:`new_award` builds one faster."""

    seat: int
    amount: int
    pot: int
    share: Share


class Contender(NamedTuple):
    """What the showdown needs of one shown hand: its ranks (greater is better; ``low`` is 0 with
    no qualifying low, unused in a high-only game) and the key that decides odd chips.
    :func:`contender` builds one fast."""

    high: int
    low: int
    odd_chip_key: int


_new_tuple: Final = tuple.__new__


def contender(high: int, low: int, odd_chip_key: int) -> Contender:
    """``Contender(high, low, odd_chip_key)`` without the named tuple's interpreted ``__new__``."""
    return _new_tuple(Contender, (high, low, odd_chip_key))


def new_pot(amount: int, eligible: tuple[int, ...]) -> Pot:
    """``Pot(amount, eligible)`` without the named tuple's interpreted ``__new__``."""
    return _new_tuple(Pot, (amount, eligible))


def new_award(seat: int, amount: int, pot: int, share: Share) -> Award:
    """``Award(seat, amount, pot, share)`` without the named tuple's interpreted ``__new__``."""
    return _new_tuple(Award, (seat, amount, pot, share))


def won_alone(seat: int, amount: int, pot: int, *, both_halves: bool) -> list[Award]:
    """The awards of pot number ``pot`` (``amount`` chips) to the one hand still claiming it.

    ``both_halves`` (hi/lo only: the hand was shown with a qualifying low): the hand wins the
    high half and the low half, two awards to the same seat, the odd chip to the high, exactly
    as when it beats other hands both ways (a scoop), so every history names the low it won.
    Otherwise one ``"whole"`` award: a hand nobody saw claims no low.

    >>> won_alone(2, 7, 0, both_halves=True)
    [Award(seat=2, amount=4, pot=0, share='high'), Award(seat=2, amount=3, pot=0, share='low')]
    >>> won_alone(2, 7, 0, both_halves=False)
    [Award(seat=2, amount=7, pot=0, share='whole')]
    """
    if not both_halves:
        return [new_award(seat, amount, pot, "whole")]
    low = amount // 2
    awards = [new_award(seat, amount - low, pot, "high")]
    if low:
        awards.append(new_award(seat, low, pot, "low"))
    return awards


def build_pots(
    contributions: Sequence[int], live: Sequence[bool], fold_order: Sequence[int] = ()
) -> list[Pot]:
    """The main pot and the side pots, from what every seat put in (antes included) and whether
    it is still in the hand. A pot's level is a live seat's total.

    Chips of folded seats above the last live level were matched by nobody still in the hand, so
    nobody still in may win them (docs/rules.md, "Nobody wins chips they did not match"): each
    level of them is a pot of its own for the seat that folded last among those who put chips in
    it (``fold_order``: the folded seats in the order they folded), the last one claiming it.
    Without ``fold_order`` they go to the last live pot, as a dead seat's chips do; so does a
    level that only seats left out of ``fold_order`` put chips in (a dead hand's bring-in, TDA
    30: dead money).

    >>> build_pots([6, 3, 6], [False, True, False], fold_order=[0, 2])
    [Pot(amount=9, eligible=(1,)), Pot(amount=6, eligible=(2,))]
    """
    levels = sorted({c for c, alive in zip(contributions, live, strict=True) if alive and c > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributions)
        eligible = tuple(seat for seat, c in enumerate(contributions) if live[seat] and c >= level)
        if amount:
            pots.append(new_pot(amount, eligible))
        previous = level
    leftover = sum(contributions) - sum(p.amount for p in pots)
    if not leftover:
        return pots
    if fold_order:
        last = {seat: i for i, seat in enumerate(fold_order)}
        top = len(pots) - 1  # the last live pot
        for level in sorted({c for c in contributions if c > previous}):
            amount = sum(min(c, level) - min(c, previous) for c in contributions)
            claimants = [s for s, c in enumerate(contributions) if c >= level and s in last]
            previous = level
            if not claimants and top >= 0:  # dead money: the live hands play for it
                pots[top] = new_pot(pots[top].amount + amount, pots[top].eligible)
                continue
            claimant = max(
                claimants or [s for s, c in enumerate(contributions) if c >= level],
                key=lambda s: last.get(s, -1),
            )
            if pots and pots[-1].eligible == (claimant,):
                pots[-1] = new_pot(pots[-1].amount + amount, (claimant,))
            else:
                pots.append(new_pot(amount, (claimant,)))
    elif not pots:
        alive = tuple(seat for seat, a in enumerate(live) if a)
        pots.append(new_pot(leftover, alive))
    else:
        pots[-1] = new_pot(pots[-1].amount + leftover, pots[-1].eligible)
    return pots


def pots_as_they_stand(
    contributions: Sequence[int],
    live: Sequence[bool],
    stacks: Sequence[int],
    fold_order: Sequence[int] = (),
) -> list[Pot]:
    """The pots as the table shows them while the hand is played: a side pot starts only where
    a live player is all-in, and the chips above every all-in level (a bet not yet called
    among them) are in the one pot still open, claimed by every live seat in it or still able
    to call into it. Once no live seat has chips left to bet, these are :func:`build_pots`'.

    >>> pots_as_they_stand([3, 6, 1], [True, True, True], [0, 94, 99])  # all-in for 3, a completion to 6
    [Pot(amount=7, eligible=(0, 1, 2)), Pot(amount=3, eligible=(1, 2))]
    >>> pots_as_they_stand([3, 1, 1], [True, True, True], [97, 99, 99])  # a bring-in not yet called
    [Pot(amount=5, eligible=(0, 1, 2))]
    """
    n = len(contributions)
    if not any(live[i] and stacks[i] > 0 for i in range(n)):
        return build_pots(contributions, live, fold_order)
    all_in = (i for i in range(n) if live[i] and stacks[i] == 0 and contributions[i] > 0)
    levels = sorted({contributions[i] for i in all_in})

    def claims(seat: int, level: int) -> bool:  # in it already, or may still call into it
        return live[seat] and (contributions[seat] >= level or stacks[seat] > 0)

    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributions)
        if amount:
            pots.append(new_pot(amount, tuple(s for s in range(n) if claims(s, level))))
        previous = level
    rest = sum(contributions) - sum(p.amount for p in pots)
    if rest:  # a live seat with chips claims it: it may still call (or has bet) past every level
        pots.append(new_pot(rest, tuple(s for s in range(n) if claims(s, previous + 1))))
    return pots


def split_rake(amounts: Sequence[int], rake: int, *, each_pot: bool = True) -> list[int]:
    """How much of ``rake`` each pot gives (docs/rules.md, "Rake"): in proportion to the pots'
    sizes, rounded by the largest remainder (equal remainders: the main pot first), as the card
    room's own histories show it; or, with ``each_pot=False``, from the main pot first.

    >>> split_rake([44, 64], 5), split_rake([44, 64], 5, each_pot=False)
    ([2, 3], [5, 0])
    """
    total = sum(amounts)
    rake = min(rake, total)
    if not each_pot or not total:
        out = []
        for amount in amounts:
            taken = min(rake, amount)
            rake -= taken
            out.append(taken)
        return out
    shares = [rake * amount // total for amount in amounts]
    short = rake - sum(shares)
    by_remainder = sorted(
        range(len(amounts)), key=lambda i: (-(rake * amounts[i] % total), i)
    )
    for i in by_remainder[:short]:
        shares[i] += 1
    return shares


def split_evenly(
    amount: int, winners: Sequence[int], odd_chip_order: Sequence[int]
) -> list[tuple[int, int]]:
    """Divide ``amount`` equally among ``winners``; the odd chips go one each to the winners that
    come first in ``odd_chip_order`` (a list of seats, best claim first)."""
    share, odd = divmod(amount, len(winners))
    ranked = sorted(winners, key=odd_chip_order.index)
    return [(seat, share + (1 if i < odd else 0)) for i, seat in enumerate(ranked)]


def _best(seats: Sequence[int], rank_of: Mapping[int, int]) -> list[int]:
    top = max(rank_of[s] for s in seats)
    return [s for s in seats if rank_of[s] == top]


def settle(
    pots: Sequence[Pot],
    contenders: Mapping[int, Contender],
    *,
    high: bool,
    low: bool,
    odd_chip_order: Sequence[int],
    low_odd_chip_order: Sequence[int] | None = None,
) -> list[Award]:
    """Awards for every pot among the contenders eligible for it (seats that showed down, or the
    last seat standing). A pot with one eligible seat is that seat's, contender or not (the last
    hand claiming a pot wins it without showing; :func:`won_alone`: in hi/lo both halves when
    its contender has a qualifying low, so a contender the table never saw is given ``low`` 0);
    a pot that several seats may win but none of them contests is refused with a
    ``ValueError`` (a pot goes only to a hand still claiming it).

    ``high`` and ``low`` say which halves the game has: high only (stud), low only (razz: a
    low is always there) or both (hi/lo: the low must qualify, ``Contender.low > 0``; when no
    eligible hand qualifies, the high takes the whole pot; an odd chip between the halves goes
    to the high). ``low_odd_chip_order``, where given, orders the seats for the odd chip of
    a low half or of razz's pot (the low hands' cards), ``odd_chip_order`` the others.
    """
    awards: list[Award] = []
    highs = {s: c.high for s, c in contenders.items()}
    lows = {s: c.low for s, c in contenders.items()}
    for index, pot in enumerate(pots):
        if not pot.amount:  # e.g. taken whole by the rake: nothing to award
            continue
        seats = [s for s in pot.eligible if s in contenders]
        if not seats:
            if len(pot.eligible) != 1:
                raise ValueError(f"pot {index} ({pot.amount}) has no hand claiming it")
            seats = list(pot.eligible)
        if len(seats) == 1:
            alone = seats[0]
            awards += won_alone(
                alone, pot.amount, index, both_halves=high and low and lows.get(alone, 0) > 0
            )
            continue
        if high and low:
            low_seats = [s for s in seats if lows[s] > 0]
            if low_seats:
                low_half = pot.amount // 2
                halves: list[tuple[Share, int, list[int]]] = [
                    ("high", pot.amount - low_half, _best(seats, highs)),
                    ("low", low_half, _best(low_seats, lows)),
                ]
            else:
                halves = [("whole", pot.amount, _best(seats, highs))]
        elif high:
            halves = [("whole", pot.amount, _best(seats, highs))]
        else:
            halves = [("whole", pot.amount, _best(seats, lows))]
        for share, amount, winners in halves:
            lowish = share == "low" or not high
            order = low_odd_chip_order if lowish and low_odd_chip_order is not None else odd_chip_order
            for seat, chips in split_evenly(amount, winners, order):
                if chips:
                    awards.append(new_award(seat, chips, index, share))
    return awards


def award_showdown(
    pots: Sequence[Pot],
    contenders: Mapping[int, Contender],
    claims: Mapping[int, int],
    *,
    high: bool,
    low: bool,
    odd_chip_order: Sequence[int],
    low_odd_chip_order: Sequence[int] | None = None,
) -> list[Award]:
    """A hand's awards, in pot order: the pots after the rake, the hands still in
    (``contenders``: a hand that wins unshown has ``low`` 0, nobody saw it) and ``claims``, the
    pots already won by their last claimant (pot index to seat: the others folded or mucked).

    One contender eligible for every pot takes them all (:func:`won_alone`; in hi/lo both halves
    when its hand, shown, has a qualifying low); otherwise the contested pots are :func:`settle`'s
    and each claimed pot goes whole to its claimant (both halves, as above).
    """
    split = high and low
    if len(contenders) == 1 and all(set(contenders) <= set(p.eligible) for p in pots):
        (winner,) = contenders  # (a side pot it is not eligible for is settled below)
        scoop = split and contenders[winner].low > 0
        return [
            award
            for i, p in enumerate(pots)
            if p.amount
            for award in won_alone(winner, p.amount, i, both_halves=scoop)
        ]
    awards = settle(
        [new_pot(0, p.eligible) if i in claims else p for i, p in enumerate(pots)],
        contenders,
        high=high,
        low=low,
        odd_chip_order=odd_chip_order,
        low_odd_chip_order=low_odd_chip_order,
    )
    if claims:  # pots won by their last claimant, in pot order with the rest
        # (a claimant that mucked later, giving up only contested pots, showed nothing)
        lows = {s: c.low for s, c in contenders.items()}
        awards += [
            award
            for i, p in enumerate(pots)
            if i in claims and p.amount
            for award in won_alone(
                claims[i], p.amount, i, both_halves=split and lows.get(claims[i], 0) > 0
            )
        ]
        awards.sort(key=lambda a: a.pot)
    return awards
