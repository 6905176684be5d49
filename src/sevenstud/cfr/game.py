"""The extensive-form game interface the solvers and the best response work on.

A game is a set of pure functions over immutable-enough states: who is to act (a player, or
chance), the actions there, the state an action leads to, the returns at the end and the key of
the information set of the player to act. Small games (Kuhn, Leduc, the reduced stud game)
enumerate their chance outcomes, so exact CFR and an exact best response can walk the whole
tree; a big game (the real-stud abstraction) only samples chance, which is all Monte Carlo CFR
needs.

A *policy* is a mapping from an information-set key to the probabilities of the actions there,
in the order :meth:`ExtensiveGame.actions` gives them (that order is the same at every state of
an information set: it depends only on what the player to act knows).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Generic, Protocol, TypeVar

CHANCE = -1
"""The player number of a chance node."""

S = TypeVar("S")

Policy = Mapping[str, Sequence[float]]
"""Information-set key to action probabilities (in the order of the state's actions)."""


class ExtensiveGame(Protocol, Generic[S]):
    """An extensive-form game with perfect recall: the interface of :mod:`sevenstud.cfr`."""

    num_players: int

    def root(self) -> S:
        """The state before anything happens."""
        ...

    def is_terminal(self, state: S) -> bool:
        """Whether the game is over at ``state``."""
        ...

    def returns(self, state: S) -> Sequence[float]:
        """Each player's payoff at a terminal state."""
        ...

    def player(self, state: S) -> int:
        """The player to act at a non-terminal state, or :data:`CHANCE`."""
        ...

    def chance_outcomes(self, state: S) -> Sequence[tuple[object, float]]:
        """The outcomes of a chance node with their probabilities (exact games only)."""
        ...

    def sample_chance(self, state: S, rng: random.Random) -> object:
        """One outcome of a chance node, drawn by its probability."""
        ...

    def actions(self, state: S) -> Sequence[str]:
        """The actions of the player to act, in a fixed order per information set."""
        ...

    def child(self, state: S, action: object) -> S:
        """The state after ``action`` (a player's action or a chance outcome)."""
        ...

    def infoset(self, state: S) -> str:
        """The information-set key of the player to act."""
        ...


def sample_outcome(outcomes: Sequence[tuple[object, float]], rng: random.Random) -> object:
    """One of ``outcomes`` drawn by its probability (for a game's :meth:`sample_chance`)."""
    x = rng.random()
    for outcome, p in outcomes:
        x -= p
        if x < 0:
            return outcome
    return outcomes[-1][0]


def uniform(n: int) -> list[float]:
    """``n`` equal probabilities."""
    return [1.0 / n] * n
