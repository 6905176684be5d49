"""Leduc hold'em (Southey et al. 2005): six cards (J, Q, K in two suits), one private card
each, one board card after the first round; ante 1; bets of 2 in the first round and 4 in the
second, at most two bets or raises a round; a pair with the board wins, else the higher card.

The first player's equilibrium value is about -0.0856 (the figure published with OpenSpiel's
and others' CFR solutions: -0.085606).

>>> game = LeducPoker()
>>> len(game.chance_outcomes(game.root()))
30
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from sevenstud.cfr.game import CHANCE, sample_outcome

LeducState = tuple[tuple[int, ...], tuple[str, ...]]
"""(the cards dealt: the players' two, then the board; the actions of each round so far:
``f`` fold, ``c`` check or call, ``r`` bet or raise)."""

GAME_VALUE = -0.0856
"""The first player's value under an equilibrium, about (published: -0.085606)."""

_BETS = (2, 4)
_MAX_RAISES = 2


def _round_over(h: str) -> bool:
    return h.endswith("f") or h in ("cc",) or (len(h) >= 2 and h.endswith("c") and "r" in h)


@dataclass(frozen=True, slots=True)
class LeducPoker:
    """Leduc hold'em as an :class:`~sevenstud.cfr.game.ExtensiveGame`."""

    num_players: int = 2

    def root(self) -> LeducState:
        """Before the deal."""
        return ((), ("",))

    def _contributions(self, rounds: tuple[str, ...]) -> list[int]:
        put = [1, 1]
        for r, h in enumerate(rounds):
            level = 0
            mine = [0, 0]
            for i, a in enumerate(h):
                p = i % 2
                if a == "r":
                    level += _BETS[r]
                    mine[p] = level
                elif a == "c":
                    mine[p] = level
            put[0] += mine[0]
            put[1] += mine[1]
        return put

    def is_terminal(self, state: LeducState) -> bool:
        """After a fold, or after the second round's betting ends."""
        cards, rounds = state
        last = rounds[-1]
        if last.endswith("f"):
            return True
        return len(rounds) == 2 and len(cards) == 3 and _round_over(last)

    def returns(self, state: LeducState) -> Sequence[float]:
        """What each player won or lost."""
        cards, rounds = state
        put = self._contributions(rounds)
        last = rounds[-1]
        if last.endswith("f"):
            folder = (len(last) - 1) % 2
            won = put[1] if folder == 1 else -put[0]
            return (float(won), float(-won))
        board = cards[2] // 2
        ranks = [cards[0] // 2, cards[1] // 2]
        score = [(r == board, r) for r in ranks]
        if score[0] == score[1]:
            return (0.0, 0.0)
        won = put[1] if score[0] > score[1] else -put[0]
        return (float(won), float(-won))

    def player(self, state: LeducState) -> int:
        """Chance deals the private cards, then the board after the first round."""
        cards, rounds = state
        if len(cards) < 2 or (len(rounds) == 2 and len(cards) == 2):
            return CHANCE
        return len(rounds[-1]) % 2

    def chance_outcomes(self, state: LeducState) -> Sequence[tuple[object, float]]:
        """The ordered private deals (30), or the board from the four cards left."""
        cards = state[0]
        if not cards:
            deals = [(a, b) for a in range(6) for b in range(6) if a != b]
            return [(d, 1 / len(deals)) for d in deals]
        left = [c for c in range(6) if c not in cards]
        return [((c,), 1 / len(left)) for c in left]

    def sample_chance(self, state: LeducState, rng: random.Random) -> object:
        """One deal."""
        return sample_outcome(self.chance_outcomes(state), rng)

    def actions(self, state: LeducState) -> Sequence[str]:
        """Facing a bet: fold, call, raise (no raise at the cap); otherwise check or bet."""
        h = state[1][-1]
        if "r" in h:
            return ("f", "c", "r") if h.count("r") < _MAX_RAISES else ("f", "c")
        return ("c", "r")

    def child(self, state: LeducState, action: object) -> LeducState:
        """The deal, or one more action (which may end the first round)."""
        cards, rounds = state
        if self.player(state) == CHANCE:
            assert isinstance(action, tuple)
            return (cards + action, rounds)
        h = rounds[-1] + str(action)
        new = (*rounds[:-1], h)
        if len(new) == 1 and _round_over(h) and not h.endswith("f"):
            new = (h, "")
        return (cards, new)

    def infoset(self, state: LeducState) -> str:
        """The player's card, the board card once dealt, and the actions of each round."""
        cards, rounds = state
        p = len(rounds[-1]) % 2
        board = "JQK"[cards[2] // 2] if len(cards) == 3 else ""
        return "JQK"[cards[p] // 2] + board + ":" + "/".join(rounds)
