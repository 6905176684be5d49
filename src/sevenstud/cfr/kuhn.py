"""Kuhn poker: three cards (J, Q, K), one each, ante 1, one bet of 1, two players.

The game value for the first player is -1/18 (Kuhn 1950); every Nash equilibrium gives it.

>>> game = KuhnPoker()
>>> len(game.chance_outcomes(game.root()))
6
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from sevenstud.cfr.game import CHANCE, sample_outcome

KuhnState = tuple[tuple[int, int] | None, str]
"""(the cards dealt, or None before the deal; the actions so far: ``p`` pass, ``b`` bet)."""

GAME_VALUE = -1 / 18
"""The first player's value under any equilibrium."""

_DEALS = tuple((a, b) for a in range(3) for b in range(3) if a != b)
_ENDS = ("pp", "bp", "bb", "pbp", "pbb")


@dataclass(frozen=True, slots=True)
class KuhnPoker:
    """Kuhn poker as an :class:`~sevenstud.cfr.game.ExtensiveGame`."""

    num_players: int = 2

    def root(self) -> KuhnState:
        """Before the deal."""
        return (None, "")

    def is_terminal(self, state: KuhnState) -> bool:
        """After a fold, or two passes, or a call."""
        return state[1] in _ENDS

    def returns(self, state: KuhnState) -> Sequence[float]:
        """The first player's win or loss and its negative."""
        cards, h = state
        assert cards is not None
        if h == "bp":
            won = 1.0
        elif h == "pbp":
            won = -1.0
        else:
            stake = 2.0 if h.endswith("bb") else 1.0
            won = stake if cards[0] > cards[1] else -stake
        return (won, -won)

    def player(self, state: KuhnState) -> int:
        """Chance deals first, then the players alternate."""
        return CHANCE if state[0] is None else len(state[1]) % 2

    def chance_outcomes(self, state: KuhnState) -> Sequence[tuple[object, float]]:
        """The six deals, equally likely."""
        return [(d, 1 / 6) for d in _DEALS]

    def sample_chance(self, state: KuhnState, rng: random.Random) -> object:
        """One deal."""
        return sample_outcome(self.chance_outcomes(state), rng)

    def actions(self, state: KuhnState) -> Sequence[str]:
        """Pass or bet (facing a bet: fold or call)."""
        return ("p", "b")

    def child(self, state: KuhnState, action: object) -> KuhnState:
        """The deal, or one more action."""
        if state[0] is None:
            assert isinstance(action, tuple)
            return (action, "")
        return (state[0], state[1] + str(action))

    def infoset(self, state: KuhnState) -> str:
        """The player's card and the actions so far."""
        cards, h = state
        assert cards is not None
        return "JQK"[cards[len(h) % 2]] + h
