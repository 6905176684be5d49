"""Counterfactual regret minimisation: exact CFR (vanilla and CFR+) for games
small enough to walk whole, and external-sampling Monte Carlo CFR for any game, whose chance
nodes it samples.

Regrets and the average strategy live in plain dictionaries keyed by information set, so the
tables pickle, merge (:meth:`ExternalSampling.merge`) and save as they are.

>>> from sevenstud.cfr.kuhn import KuhnPoker, GAME_VALUE
>>> from sevenstud.cfr.best_response import exploitability, expected_returns
>>> solver = CFR(KuhnPoker(), variant="cfr+")
>>> solver.iterate(300)
>>> exploitability(KuhnPoker(), solver.average_policy()) < 0.005
True
>>> abs(expected_returns(KuhnPoker(), solver.average_policy())[0] - GAME_VALUE) < 0.005
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from sevenstud.cfr.game import CHANCE, ExtensiveGame, uniform
from sevenstud.cfr.population import SELF_PLAY, Population, maniac_action, station_action

if TYPE_CHECKING:
    from sevenstud.cfr.bot_members import BotMembers

Variant = Literal["cfr", "cfr+"]


def regret_matching(regrets: Sequence[float]) -> list[float]:
    """The current strategy: positive regrets normalised, uniform when none is positive.

    >>> regret_matching([1.0, -2.0, 3.0])
    [0.25, 0.0, 0.75]
    """
    pos = [r if r > 0 else 0.0 for r in regrets]
    total = sum(pos)
    if total <= 0:
        return uniform(len(regrets))
    return [p / total for p in pos]


def normalise(weights: Sequence[float]) -> list[float]:
    """``weights`` over their sum (uniform when they sum to zero)."""
    total = sum(weights)
    if total <= 0:
        return uniform(len(weights))
    return [w / total for w in weights]


@dataclass(slots=True)
class Tables:
    """Cumulative regrets and strategy weights by information set, and the iterations done."""

    regrets: dict[str, list[float]] = field(default_factory=dict)
    strategy: dict[str, list[float]] = field(default_factory=dict)
    iterations: int = 0

    def average_policy(self) -> dict[str, list[float]]:
        """The average strategy: each information set's weights normalised."""
        return {key: normalise(w) for key, w in self.strategy.items()}

    def add(self, other: Tables) -> None:
        """Add ``other``'s regrets, weights and iterations to these (a parallel worker's share)."""
        for mine, theirs in ((self.regrets, other.regrets), (self.strategy, other.strategy)):
            for key, values in theirs.items():
                row = mine.get(key)
                if row is None:
                    mine[key] = list(values)
                else:
                    for i, v in enumerate(values):
                        row[i] += v
        self.iterations += other.iterations


class CFR:
    """Exact CFR over the whole tree, the players updated in turn each iteration.

    ``variant``: ``"cfr"`` (vanilla, uniform averaging) or ``"cfr+"`` (regrets floored at
    zero after each player's update, linear averaging: Tammelin 2014)."""

    def __init__(self, game: ExtensiveGame[Any], variant: Variant = "cfr+") -> None:
        if variant not in ("cfr", "cfr+"):
            raise ValueError(f"unknown CFR variant {variant!r}: expected cfr or cfr+")
        self.game = game
        self.variant = variant
        self.tables = Tables()
        self._sigma: dict[str, list[float]] = {}

    def average_policy(self) -> dict[str, list[float]]:
        """The average strategy so far."""
        return self.tables.average_policy()

    def iterate(self, n: int = 1) -> None:
        """Run ``n`` more iterations."""
        for _ in range(n):
            self.tables.iterations += 1
            t = self.tables.iterations
            for player in range(self.game.num_players):
                # One strategy per information set for the whole walk: the regrets it updates
                # must not change the strategy of that set's other states in this iteration.
                self._sigma = {}
                self._walk(self.game.root(), player, [1.0] * self.game.num_players, t)
                if self.variant == "cfr+":
                    for row in self.tables.regrets.values():
                        for i, r in enumerate(row):
                            if r < 0:
                                row[i] = 0.0

    def _walk(self, state: Any, player: int, reach: list[float], t: int) -> float:
        game = self.game
        if game.is_terminal(state):
            return float(game.returns(state)[player])
        actor = game.player(state)
        if actor == CHANCE:
            return sum(
                p * self._walk(game.child(state, o), player, reach, t) for o, p in game.chance_outcomes(state)
            )
        key = game.infoset(state)
        actions = game.actions(state)
        n = len(actions)
        regrets = self.tables.regrets.setdefault(key, [0.0] * n)
        sigma = self._sigma.get(key)
        if sigma is None:
            sigma = self._sigma[key] = regret_matching(regrets)
        values = []
        for a, p in zip(actions, sigma, strict=True):
            if actor != player and p == 0.0:
                values.append(0.0)
                continue
            saved = reach[actor]
            reach[actor] = saved * p
            values.append(self._walk(game.child(state, a), player, reach, t))
            reach[actor] = saved
        node = sum(p * v for p, v in zip(sigma, values, strict=True))
        if actor == player:
            others = 1.0
            for i, r in enumerate(reach):
                if i != player:
                    others *= r
            for i in range(n):
                regrets[i] += others * (values[i] - node)
            weight = reach[player] * (t if self.variant == "cfr+" else 1.0)
            avg = self.tables.strategy.setdefault(key, [0.0] * n)
            for i in range(n):
                avg[i] += weight * sigma[i]
        return node


class ExternalSampling:
    """External-sampling MCCFR (Lanctot et al. 2009): each iteration, for each player in turn,
    chance and the other players' actions are sampled, every action of the traverser is
    explored. The average strategy is accumulated at the other players' nodes, as they are
    sampled (the "simple" averaging). ``linear`` weights iteration t by t (linear CFR's
    averaging, which converges faster in practice); the regrets are not discounted.

    A game may fix some of its information sets' strategies: when it has a method
    ``fixed_strategy(state, key)`` and that returns weights, the action there is sampled from
    them whoever acts, the traverser too, and nothing is learned there (a multiway stud hand
    whose heads-up end is played by the heads-up policy already trained: see
    :class:`~sevenstud.cfr.stud_game.StudGame`).

    ``population`` (:mod:`sevenstud.cfr.population`): for each traversal every other seat
    plays a member drawn by weight (the current strategy, one of the snapshots ``past`` of the
    average strategy, a maniac, a calling station, and in real stud the rule, tight and equity
    bots: :mod:`sevenstud.cfr.bot_members`, seeded from ``seed``), and the average strategy
    grows only where a seat plays the current strategy. Plain self-play (the default) draws
    nothing, so its random stream, and its tables, are those of the solver before
    populations."""

    def __init__(
        self,
        game: ExtensiveGame[Any],
        seed: int | str = 0,
        *,
        linear: bool = True,
        tables: Tables | None = None,
        population: Population = SELF_PLAY,
        past: Sequence[Mapping[str, Sequence[float]]] = (),
    ) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.linear = linear
        self.tables = Tables() if tables is None else tables
        self._fixed = getattr(game, "fixed_strategy", None)
        self.population = population
        self.past = list(past)
        self._seats: list[str | Mapping[str, Sequence[float]] | None] = []
        """This traversal's member in each seat: None the current strategy, a name (maniac,
        station, a bot's kind), or a past snapshot."""
        self._bots: BotMembers | None = None
        if population.bots:
            # Imported here: the bots read real cards through the engine, which the games
            # where the truth is known (and plain self-play) never need.
            from sevenstud.cfr.bot_members import BotMembers

            self._bots = BotMembers(game, population, seed)

    def average_policy(self) -> dict[str, list[float]]:
        """The average strategy so far."""
        return self.tables.average_policy()

    def iterate(self, n: int = 1) -> None:
        """Run ``n`` more iterations."""
        for _ in range(n):
            self.tables.iterations += 1
            for player in range(self.game.num_players):
                if not self.population.self_play:
                    self._seats = [
                        None if seat == player else self._member() for seat in range(self.game.num_players)
                    ]
                self._walk(self.game.root(), player)

    def _member(self) -> str | Mapping[str, Sequence[float]] | None:
        """A seat's member for one traversal, drawn from the population."""
        name = self.population.draw(self.rng)
        if name == "past":
            # No snapshot yet: the current strategy, as the first snapshot would be near it.
            return self.past[self.rng.randrange(len(self.past))] if self.past else None
        return None if name == "self" else name

    def _sample(self, weights: Sequence[float], total: float = 1.0) -> int:
        """An index drawn by ``weights``, which sum to ``total`` (the last when rounding leaves
        the draw unspent)."""
        x = self.rng.random() * total
        for i, p in enumerate(weights):
            x -= p
            if x < 0:
                return i
        return len(weights) - 1

    def _walk(self, state: Any, player: int) -> float:
        game = self.game
        if game.is_terminal(state):
            return float(game.returns(state)[player])
        actor = game.player(state)
        if actor == CHANCE:
            return self._walk(game.child(state, game.sample_chance(state, self.rng)), player)
        actions = game.actions(state)
        member = self._seats[actor] if self._seats and actor != player else None
        if isinstance(member, str):  # a fixed kind, which needs no key
            if member == "maniac":
                pick = maniac_action(actions)
            elif member == "station":
                pick = station_action(actions)
            else:
                assert self._bots is not None  # made with the population
                pick = self._bots.letter(member, state)
            return self._walk(game.child(state, pick), player)
        key = game.infoset(state)
        if self._fixed is not None:
            fixed = self._fixed(state, key)
            if fixed is not None:
                return self._walk(game.child(state, actions[self._sample(fixed, sum(fixed))]), player)
        n = len(actions)
        if member is not None:  # a past snapshot (the current strategy where it is silent)
            probs = member.get(key)
            if probs is None:
                row = self.tables.regrets.get(key)
                probs = uniform(n) if row is None else regret_matching(row)
            return self._walk(game.child(state, actions[self._sample(probs, sum(probs))]), player)
        regrets = self.tables.regrets.get(key)
        if regrets is None:
            regrets = self.tables.regrets[key] = [0.0] * n
        sigma = regret_matching(regrets)
        if actor != player:
            weight = float(self.tables.iterations) if self.linear else 1.0
            avg = self.tables.strategy.get(key)
            if avg is None:
                avg = self.tables.strategy[key] = [0.0] * n
            for i in range(n):
                avg[i] += weight * sigma[i]
            return self._walk(game.child(state, actions[self._sample(sigma)]), player)
        values = [self._walk(game.child(state, a), player) for a in actions]
        node = sum(p * v for p, v in zip(sigma, values, strict=True))
        weight = float(self.tables.iterations) if self.linear else 1.0
        for i in range(n):
            regrets[i] += weight * (values[i] - node)
        return node
