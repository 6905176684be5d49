"""Equity kernels: exact counting and Monte Carlo over the cards still to come (numpy).

The problem handed to every kernel (:class:`Deal`): the unseen cards ``unseen`` (sorted), and per
player the cards already known and how many private cards are still unknown; ``community`` is 1
when the deck runs out on 7th street and one shared card is dealt face up for everybody. Every way
of giving the unknown cards out is one equally likely *outcome*.

Four ways of counting, each in its module:

* :func:`heads_up_exact` (two players; :mod:`~sevenstud.fast.heads_up`): each player's final
  hand depends only on their own cards, so each player's completions (every set of cards they may
  still get) are evaluated once; the pairs of completions are then counted by rank order with
  sorting, ``bincount`` and cumulative sums, group by group, and the pairs that would need the
  same card twice are taken out by inclusion-exclusion over the cards the two completions have in
  common: summing ``(-1) ** |S|`` times the pairs whose completions both contain ``S``, over
  every set ``S``, counts exactly the pairs that share nothing.
* :func:`last_player_exact` (three players or more, no community card;
  :mod:`~sevenstud.fast.last_player`): every deal of all players but one, in vectorised blocks;
  the last player's completions are counted against each deal the same way, by
  inclusion-exclusion over the cards they share with it, with tables of that player's
  completions sorted by rank class (see the function). Four players on 5th street, 26.5 billion
  deals, are 81.6 million outer deals and 22 look-ups each.
* :func:`enumerate_exact` (any number of players; :mod:`~sevenstud.fast.enumeration`): every
  outcome, in vectorised blocks.
* :func:`monte_carlo` (:mod:`~sevenstud.fast.monte_carlo`): random outcomes from a seeded
  generator. When every player's completions fit in a table and the players rarely collide,
  outcomes are drawn as independent completion numbers and the draws that share a card are
  rejected (what is kept is exactly uniform); otherwise each outcome is a partial Fisher-Yates
  shuffle of the unseen cards.

Every kernel returns :class:`Counts`: integer tallies, the pot counted as ``POT`` units so that
any split (a half among up to eight players) stays an integer.

Every kernel takes a :class:`~sevenstud.fast.device.Backend` (default: numpy on the CPU). On a
GPU (CuPy) the same counts are made with the device's arrays, in bigger blocks, with the tallies
summed on the device and brought back once; exact counts are identical to the CPU's.

Where things are: :mod:`sevenstud.fast.deal` holds the problem, the tallies and what every kernel
shares (combinatorics, :class:`Side`, :class:`Tallies`); each way of counting has its module, as
named above. This module gathers the names the rest of the project uses. The block sizes
(``DEVICE_BLOCK``, ``DEVICE_PATTERN_ROWS`` in :mod:`~sevenstud.fast.enumeration`,
``DEVICE_MC_ROWS`` in :mod:`~sevenstud.fast.monte_carlo`, ...) are read where they are defined,
so they are not repeated here: a copy set here would change nothing.
"""

from __future__ import annotations

from sevenstud.fast.deal import (
    BINOM,
    BLOCK,
    GAMES,
    HALF,
    I32,
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
    colex_index,
    combos,
    tally,
)
from sevenstud.fast.enumeration import PATTERN_ROWS, deal_pattern, enumerate_exact, position_blocks
from sevenstud.fast.heads_up import grouped_compare, heads_up_exact, heads_up_work
from sevenstud.fast.last_player import LastPlan, last_player_exact, last_player_plan
from sevenstud.fast.monte_carlo import device_shuffled_prefix, monte_carlo, shuffled_prefix

__all__ = [
    "BINOM",
    "BLOCK",
    "GAMES",
    "HALF",
    "I32",
    "I64",
    "PATTERN_ROWS",
    "POT",
    "SHARE_HALF",
    "SHARE_WHOLE",
    "STATS",
    "Counts",
    "Deal",
    "LastPlan",
    "Progress",
    "Side",
    "Tallies",
    "colex_index",
    "combos",
    "deal_pattern",
    "device_shuffled_prefix",
    "enumerate_exact",
    "grouped_compare",
    "heads_up_exact",
    "heads_up_work",
    "last_player_exact",
    "last_player_plan",
    "monte_carlo",
    "position_blocks",
    "shuffled_prefix",
    "tally",
]
