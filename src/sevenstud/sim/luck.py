"""The luck correction of a simulated hand: AIVAT's chance terms with an equity value function.

A hand's dealt result is what the bots' play earned plus the luck of the cards. At every deal of
cards (each street's deal is one chance event; several streets dealt at once, after everybody
is all-in, are one) the simulator, which sees every card, credits each live seat the change the
cards made to its *value*, ``V_i = pot * share_i``: the chips in the middle times seat ``i``'s
share of the pot over the cards still to come, the live players' cards all known. The corrected
result is the dealt one less those changes::

    corrected_i = dealt_i - sum over deals k of pot_k * (share_i(after k) - share_i(before k))

Each term has expectation zero whatever the bots do: given everything before a deal, the share
before it *is* the mean of the share after it over the cards the deck can give (the remaining
deck is uniform), and the pot does not change while cards are dealt. So the correction removes
no skill and adds no bias (Burch, Schmid, Moravcik, Morrill and Bowling, "AIVAT: a new variance
reduction technique for agent evaluation in imperfect information games", AAAI 2018: its chance
terms, with a value function of our choosing; the action terms, which need the bots' action
probabilities, are not used). It takes the all-in adjustment as a special case: once nobody can
bet, the pot stops changing and the terms add up to crediting the seat its equity when the
betting ended instead of the cards it got.

The shares are exact where that is cheap (heads-up from 5th street on, and any position with at
most :data:`EXACT_OUTCOMES` ways for the cards to fall: 7th street is always one) and otherwise
a Monte Carlo estimate over :data:`TRIALS` deals from a seed of its own. An unbiased estimate
keeps the correction unbiased: its sampling noise is independent of the deck (its generator is
seeded from the deal and the seat rotation, never from the cards to come). The value is one pot
shared by every live seat; with side pots it is a coarser control (still unbiased).

numpy is needed (the equity kernels): the ``fast`` extra.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sevenstud.hand import Hand

TRIALS = 400
"""Monte Carlo deals behind one share estimate (a few tenths of a millisecond)."""
EXACT_OUTCOMES = 2000
"""Count the outcomes exactly when there are at most this many."""


@dataclass(slots=True)
class LuckMeter:
    """Follows one hand deal by deal and adds up each seat's luck (chips, a float).

    Call :meth:`start` once the hand is dealt and :meth:`after` after every action: when the
    action made the dealer deal, the luck of the cards dealt is added to :attr:`luck`.
    """

    game: str
    seats: int
    seed: int
    """Seeds the Monte Carlo estimates (from the deal and the rotation: see the module)."""
    luck: list[float] = field(default_factory=list)
    """Each seat's luck so far, in chips: its dealt result less this is the corrected result."""
    estimates: int = 0
    """How many shares were worked out (exact or sampled)."""
    _held: int = 0
    _community: int | None = None

    def __post_init__(self) -> None:
        self.luck = [0.0] * self.seats

    def start(self, hand: Hand) -> None:
        """The 3rd-street deal: before it every seat's share is ``1/n`` (nothing is dealt, every
        seat is alike), after it the shares of the cards dealt."""
        live = [s for s in range(self.seats) if not hand.folded[s]]
        self._held = len(hand.cards[live[0]])
        after = self._shares(hand, None, self._held)
        for k, s in enumerate(live):
            self.luck[s] += hand.pot * (after[k] - 1 / len(live))

    def after(self, hand: Hand) -> None:
        """After an action: when cards were dealt, add their luck. The shares before are the live
        seats' hands cut back to what they held before the action, over the seats live now (a
        fold that ended a street came before the deal); the pot is the pot now (no chip moves
        between the end of a street's betting and the next deal)."""
        live = [s for s in range(self.seats) if not hand.folded[s]]
        if len(live) < 2:
            return
        held, community = len(hand.cards[live[0]]), hand.community
        if held == self._held and community == self._community:
            return
        before = self._shares(hand, self._community, self._held)
        after = self._shares(hand, community, held)
        pot = hand.pot
        for k, s in enumerate(live):
            self.luck[s] += pot * (after[k] - before[k])
        self._held, self._community = held, community

    def _shares(self, hand: Hand, community: int | None, held: int) -> list[float]:
        """The live seats' shares of one pot with each holding its first ``held`` cards; the
        folded seats' cards (all of them: the simulator knows them) are out of the deck."""
        from sevenstud.equity import position

        folded, cards = hand.folded, hand.cards
        hands = [[int(c) for c in cards[s][:held]] for s in range(self.seats) if not folded[s]]
        dead = [int(c) for s in range(self.seats) if folded[s] for c in cards[s]]
        pos = position(hands, game=self.game, dead=dead, community=community)
        self.estimates += 1
        return _estimate(pos, self.seed * 1024 + self.estimates)


def _estimate(pos: Any, seed: int) -> list[float]:
    """Each player's share of the pot in ``pos`` (a :class:`sevenstud.equity.Position`)."""
    import numpy as np

    from sevenstud.equity import outcome_count
    from sevenstud.fast.kernels import POT, Deal
    from sevenstud.fast.monte_carlo import shuffle_counts

    deal = Deal(pos.game, pos.known, pos.unknown, pos.community, pos.unseen)
    if len(pos.known) == 2 and not pos.community and pos.street >= 5:
        from sevenstud.fast.heads_up import heads_up_exact

        counts = heads_up_exact(deal)
    elif outcome_count(pos) <= EXACT_OUTCOMES:
        from sevenstud.fast.enumeration import enumerate_exact

        counts = enumerate_exact(deal)
    else:
        counts = shuffle_counts(deal, TRIALS, np.random.default_rng(seed), None, _never)
    total = int(counts.total) * POT
    return [int(x) / total for x in counts.equity]


def _never() -> bool:
    return False
