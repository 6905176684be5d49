"""The fixed-limit stakes that the card rooms' ring games (cash tables) were dealt at, as data.

A hand history of a ring game at stakes a card room never had is not one of its histories: a
tracker reading PokerStars or Full Tilt text looks a ring game's big bet up in the card room's
list of limits and rejects the hand when it is not there (fpdb's PokerStars and Full Tilt
parsers do: "Lim_Blinds has no lookup for '400000'"). So ``sevenstud convert`` writes a ring
game only at these stakes, unless told to (``--ring``), and tournament hands as tournaments.

Each list holds the small bet/big bet pairs, in cents (or in chips for play money, which the
card rooms' play-money tables dealt at the same ladder of limits), from the limits those rooms
dealt fixed-limit games at: PokerStars' ladder from $0.02/$0.04 to $1,000/$2,000 (its stud
tables: $0.04/$0.08 in the shared hand histories), Full Tilt's from $0.02/$0.04 to
$2,000/$4,000, with its own rungs ($2.50/$5, $6/$12, $12/$24, $25/$50, ...; its stud tables:
$2/$4 and $2.50/$5 in the shared hand histories). These are the big bets the trackers know for
each room (their lists cover the rooms' limit games), paired with the small bet, half of it.
"""

from __future__ import annotations

from typing import Literal

Site = Literal["pokerstars", "fulltilt"]

# The big bets, in cents; every ring game's small bet is half its big bet.
_POKERSTARS_BIG_BETS = (
    4, 8, 10, 20, 40, 50, 100, 200, 400, 600, 800, 1000, 1600, 2000, 3000, 4000, 6000, 8000,
    10000, 15000, 20000, 40000, 60000, 80000, 100000, 200000,
)  # fmt: skip
_FULLTILT_BIG_BETS = (
    4, 10, 20, 40, 50, 100, 200, 400, 500, 600, 800, 1000, 1600, 2000, 2400, 3000, 4000, 5000,
    6000, 8000, 10000, 12000, 20000, 30000, 40000, 50000, 60000, 80000, 100000, 200000, 300000,
    400000,
)  # fmt: skip

RING_STAKES: dict[Site, frozenset[tuple[int, int]]] = {
    "pokerstars": frozenset((big // 2, big) for big in _POKERSTARS_BIG_BETS),
    "fulltilt": frozenset((big // 2, big) for big in _FULLTILT_BIG_BETS),
}
"""Each card room's ring-game limits: (small bet, big bet) in cents."""

SITE_NAMES: dict[Site, str] = {"pokerstars": "PokerStars", "fulltilt": "Full Tilt"}


def is_ring_stake(site: Site, small_bet: int, big_bet: int, *, money: bool) -> bool:
    """Whether the card room dealt ring games at these limits (``money``: amounts in cents;
    else play chips, which count as whole units of the same ladder).

    >>> is_ring_stake("pokerstars", 4, 8, money=True)   # $0.04/$0.08
    True
    >>> is_ring_stake("pokerstars", 200_000, 400_000, money=False)
    False
    """
    scale = 1 if money else 100
    return (small_bet * scale, big_bet * scale) in RING_STAKES[site]


def ring_stakes_text(site: Site) -> str:
    """The room's ring limits as its histories write them: ``$0.02/$0.04, ..., $1000/$2000``."""

    def dollars(cents: int) -> str:
        return f"${cents // 100}" if cents % 100 == 0 else f"${cents / 100:.2f}"

    return ", ".join(f"{dollars(s)}/{dollars(b)}" for s, b in sorted(RING_STAKES[site]))


__all__ = ["RING_STAKES", "SITE_NAMES", "Site", "is_ring_stake", "ring_stakes_text"]
