"""A best response found by sampling, for games too big for :mod:`~sevenstud.cfr.best_response`:
how much a player who knows the policy can win against it, inside the abstraction.

The policy is fixed for every seat but one, the *responder*. The responder learns by external
sampling, as Monte Carlo CFR does, played for it alone (:meth:`SampledBestResponse.iterate`):
each iteration deals a hand, samples the others' actions from the fixed policy and explores
every action of the responder, summing at each of its information sets each action's regret
against the policy: its sampled counterfactual value less the policy's mixture of the same
values. The responder starts as the policy and leaves it, at a key, for the action of the
largest regret once that regret is above zero by ``confidence`` standard errors over at least
``least_samples`` samples (:meth:`SampledBestResponse.best_actions`): thousands of keys are
tested at once, and a best response that chased the noise of a few visits would play worse than
the policy. Against a fixed opponent this is one player's learning problem, policy improvement
by sampled regrets; with enough deals it reaches a best response (checked against the exact one
on the reduced stud game: ``tests/cfr/test_sampled_best_response.py``).

The abstraction forgets (a key holds hands the responder reached by different lines of its own,
and different cards): each visit's regret is weighted by the responder's own reach, how often it
plays the line that led there (with a tenth of each weight spread over every action, so that a
line not played yet still learns its continuation), not counted once per line as in a game of
perfect recall.

That pure strategy (the policy where it found nothing) is then played back on fresh deals
(:func:`evaluate`): the responder against the fixed policy, and the policy in the responder's
seat against the same, on the same deals, each deal's action draws seeded alike (common random
numbers), so the difference of the two (the *gain*, exploitability in that seat) has a tighter
interval than either value. A best
response found by sampling is at best the best one, so the gain measured on fresh deals is an
unbiased estimate of a **lower bound** of the policy's exploitability in the abstract game (the
learned strategy is evaluated on deals it never saw: its own noise cannot inflate the figure).

Where the fixed policy has no entry for a key (the shipped tables keep only keys self-play
reached often; at the table the fallback bot plays there), the fixed seats play uniformly, as
:mod:`~sevenstud.cfr.best_response` does; :class:`Evaluation` counts how often that happened.

Which lines are exploited: :meth:`SampledBestResponse.exploited_lines` ranks the responder's
information sets by what deviating there alone is worth per hand: the gain per visit (the best
action's mean sampled counterfactual value less the policy's own mixture of the same values)
times the visits per hand (as the best response plays, counted while it is evaluated).

>>> from sevenstud.cfr.kuhn import KuhnPoker
>>> always_bet = {card + seen: [0.0, 1.0] for card in "JQK" for seen in ("", "p", "b", "pb")}
>>> br = SampledBestResponse(KuhnPoker(), always_bet, responder=1, seed=1)
>>> br.iterate(2000)
>>> br.best_actions()  # where it leaves the policy: it folds a jack to the bet
{'Jb': 'p'}
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sevenstud.cfr.game import CHANCE, ExtensiveGame, uniform

EXPLORE = 0.1
"""The share of the responder's weights below a key spread evenly over its actions."""

Lookup = Callable[[Any, str], Sequence[float] | None]
"""The fixed policy at a state: ``(state, key)`` to the weights of the actions there (they need
not sum to one), or None where the policy has no entry (then uniform play)."""


def table_lookup(*tables: Mapping[str, Sequence[float]]) -> Lookup:
    """A :data:`Lookup` that asks ``tables`` in turn for the key (a multiway table, then the
    heads-up table for the heads-up ends of a multiway hand)."""

    def lookup(state: Any, key: str) -> Sequence[float] | None:
        for table in tables:
            found = table.get(key)
            if found is not None:
                return found
        return None

    return lookup


def _weights(found: Sequence[float] | None, n: int) -> Sequence[float]:
    if found is None or len(found) != n or sum(found) <= 0:
        return uniform(n)
    return found


def _draw(weights: Sequence[float], rng: random.Random) -> int:
    x = rng.random() * sum(weights)
    for i, p in enumerate(weights):
        x -= p
        if x < 0:
            return i
    return len(weights) - 1


@dataclass(slots=True)
class KeyStats:
    """What the responder learned at one information set."""

    actions: tuple[str, ...]
    regrets: list[float]
    """Each action's sampled counterfactual value less the policy's mixture of them, summed
    over the visits, each weighted by the responder's own reach."""
    squares: list[float]
    """The squares of the same, summed with the same weights (for the standard errors)."""
    weight: float = 0.0
    """The sum of the weights."""
    weight_squares: float = 0.0
    """The sum of their squares (for the effective number of samples)."""
    visits: int = 0
    policy: tuple[float, ...] = ()
    """The fixed policy's probabilities here (what the responder's seat would play)."""
    known: bool = True
    """Whether the fixed policy has an entry for the key."""


@dataclass(frozen=True, slots=True)
class ExploitedLine:
    """An information set where the best response gains over the policy."""

    key: str
    best: str
    """The best response's action."""
    policy: tuple[float, ...]
    """The policy's probabilities of the actions there."""
    actions: tuple[str, ...]
    reach: float
    """Visits per hand (see :meth:`SampledBestResponse.exploited_lines`)."""
    gain: float
    """What deviating here gains per visit, in the game's units."""
    known: bool

    @property
    def weight(self) -> float:
        """Reach times gain: what deviating here alone adds to the responder's value per hand."""
        return self.reach * self.gain


class SampledBestResponse:
    """External-sampling MCCFR for ``responder`` alone against the fixed ``policy`` (a mapping
    of keys to weights, or a :data:`Lookup`) in ``game``; see the module.

    A game's own ``fixed_strategy`` (the heads-up ends a multiway training game plays by the
    heads-up table) is ignored: the responder is free everywhere, and the fixed seats play
    by ``policy`` alone."""

    def __init__(
        self,
        game: ExtensiveGame[Any],
        policy: Mapping[str, Sequence[float]] | Lookup,
        responder: int,
        seed: int | str = 0,
        confidence: float = 2.0,
        least_samples: float = 30.0,
    ) -> None:
        if confidence < 0:
            raise ValueError(f"the confidence is a number of standard errors, 0 or more, not {confidence}")
        if not 0 <= responder < game.num_players:
            raise ValueError(f"the responder must be a seat 0 to {game.num_players - 1}, not {responder}")
        self.game = game
        self.lookup: Lookup = policy if callable(policy) else table_lookup(policy)
        self.responder = responder
        self.confidence = confidence
        self.least_samples = least_samples
        self.rng = random.Random(seed)
        self.stats: dict[str, KeyStats] = {}
        self.iterations = 0

    def iterate(self, n: int = 1) -> None:
        """Run ``n`` more iterations (one sampled deal each)."""
        for _ in range(n):
            self.iterations += 1
            self._walk(self.game.root(), 1.0)

    def _walk(self, state: Any, reach: float) -> float:
        game = self.game
        if game.is_terminal(state):
            return float(game.returns(state)[self.responder])
        actor = game.player(state)
        if actor == CHANCE:
            return self._walk(game.child(state, game.sample_chance(state, self.rng)), reach)
        key = game.infoset(state)
        actions = game.actions(state)
        if actor != self.responder:
            weights = _weights(self.lookup(state, key), len(actions))
            return self._walk(game.child(state, actions[_draw(weights, self.rng)]), reach)
        stats = self.stats.get(key)
        n = len(actions)
        if stats is None:
            found = self.lookup(state, key)
            w = _weights(found, n)
            total = sum(w)
            stats = self.stats[key] = KeyStats(
                tuple(actions),
                [0.0] * n,
                [0.0] * n,
                policy=tuple(p / total for p in w),
                known=found is not None,
            )
        # What the responder plays now: its deviation where it has one, the policy's own
        # mixture elsewhere (so an untried key costs nothing above the policy).
        chosen = self._deviation(stats)
        play = stats.policy if chosen is None else [float(i == chosen) for i in range(n)]
        # The weights below the key keep every action a little (EXPLORE): a line the responder
        # does not play yet must still learn its continuation, or it could never be chosen.
        values = [
            self._walk(game.child(state, a), reach * ((1 - EXPLORE) * p + EXPLORE / n))
            for a, p in zip(actions, play, strict=True)
        ]
        mixed = sum(p * v for p, v in zip(stats.policy, values, strict=True))
        # A key of the abstraction forgets: several of the responder's own lines lead to it, and
        # each counts by how often the responder plays it (its own reach), not once each, as it
        # would in a game of perfect recall (where the weight is the same for every visit).
        if reach > 0:
            for i in range(n):
                d = values[i] - mixed
                stats.regrets[i] += reach * d
                stats.squares[i] += reach * d * d
            stats.weight += reach
            stats.weight_squares += reach * reach
        stats.visits += 1
        return sum(p * v for p, v in zip(play, values, strict=True))

    def _deviation(self, stats: KeyStats) -> int | None:
        """The action the responder plays instead of the policy at a key, or None: the action of
        the largest regret, when that is above zero by :attr:`confidence` standard errors over
        at least :attr:`least_samples` (effective) samples: a best response found by sampling
        must not chase the noise of a few visits (thousands of keys are tested at once)."""
        w = stats.weight
        if w <= 0:
            return None
        n = w * w / stats.weight_squares  # the effective number of samples
        if n < max(self.least_samples, 2):
            return None
        best = max(range(len(stats.regrets)), key=stats.regrets.__getitem__)
        mean = stats.regrets[best] / w
        if mean <= 0:
            return None
        if self.confidence > 0:
            variance = max(stats.squares[best] / w - mean * mean, 0.0) * n / (n - 1)
            if mean <= self.confidence * math.sqrt(variance / n):
                return None
        return best

    def best_actions(self) -> dict[str, str]:
        """The pure best response where it leaves the policy: at each key where an action's
        regret against the policy is confidently above zero (:meth:`_deviation`), that action;
        elsewhere (not in the mapping) the responder plays the policy."""
        out = {}
        for key, s in self.stats.items():
            chosen = self._deviation(s)
            if chosen is not None:
                out[key] = s.actions[chosen]
        return out

    def best_policy(self) -> dict[str, list[float]]:
        """:meth:`best_actions` as a policy (probability one on the best action)."""
        out = {key: list(s.policy) for key, s in self.stats.items()}
        for key, best in self.best_actions().items():
            out[key] = [1.0 if a == best else 0.0 for a in self.stats[key].actions]
        return out

    def exploited_lines(self, top: int = 10, reach: Mapping[str, float] | None = None) -> list[ExploitedLine]:
        """The ``top`` information sets where deviating from the policy to the best action gains
        most per hand: reach times gain per visit (see the module). ``reach``: visits per hand
        of each key when the best response plays (:attr:`Evaluation.reach`); without it, the
        visits per hand while learning, when the responder tried every action (the
        abstraction forgets, so several of its lines may reach one key in one hand, and lines
        the best response never plays count too). Each key counts its deviation alone, the
        later play the responder's: a line exploited early makes later ones moot, so the
        weights do not add up to the whole gain."""
        lines = []
        for key, s in self.stats.items():
            chosen = self._deviation(s)
            if chosen is None:
                continue
            gain = s.regrets[chosen] / s.weight
            seen = s.visits / max(self.iterations, 1) if reach is None else reach.get(key, 0.0)
            lines.append(ExploitedLine(key, s.actions[chosen], s.policy, s.actions, seen, gain, s.known))
        lines.sort(key=lambda line: line.weight, reverse=True)
        return lines[:top]


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean over deals with its 95% interval's half-width."""

    mean: float
    half_width: float

    @classmethod
    def of(cls, samples: Sequence[float]) -> Estimate:
        """The mean of ``samples`` and 1.96 standard errors."""
        n = len(samples)
        if n == 0:
            raise ValueError("an estimate needs at least one sample")
        mean = sum(samples) / n
        if n == 1:
            return cls(mean, math.inf)
        var = sum((x - mean) ** 2 for x in samples) / (n - 1)
        return cls(mean, 1.96 * math.sqrt(var / n))


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The best response and the policy itself in the responder's seat, on the same deals."""

    best_response: Estimate
    policy: Estimate
    gain: Estimate
    """Best response minus policy, deal by deal: the policy's exploitability in that seat (a
    lower bound: see the module)."""
    deals: int
    unknown_share: float = 0.0
    """The share of the fixed seats' decisions (in the best response's games) where the policy
    had no entry and played uniformly."""
    deviation_share: float = 0.0
    """The share of the responder's decisions where it left the policy (elsewhere it played
    the policy)."""
    reach: dict[str, float] = field(default_factory=dict)
    """The responder's visits per hand of each of its keys, as the best response played."""


@dataclass(slots=True)
class _Counts:
    fixed: int = 0
    unknown: int = 0
    responder: int = 0
    deviations: int = 0
    keys: dict[str, int] = field(default_factory=dict)


def play(
    game: ExtensiveGame[Any],
    lookup: Lookup,
    responder: int,
    best: Mapping[str, str] | None,
    deal: object,
    rng: random.Random,
    counts: _Counts | None = None,
) -> float:
    """One hand from ``deal`` (the root's chance outcome), every seat by ``lookup`` but the
    ``responder``, who plays ``best`` where it has the key (the policy elsewhere); its return."""
    state = game.child(game.root(), deal)
    while not game.is_terminal(state):
        actor = game.player(state)
        if actor == CHANCE:
            state = game.child(state, game.sample_chance(state, rng))
            continue
        key = game.infoset(state)
        actions = game.actions(state)
        if actor == responder and best is not None:
            if counts is not None:
                counts.responder += 1
                counts.keys[key] = counts.keys.get(key, 0) + 1
            chosen = best.get(key)
            if chosen is not None:
                if counts is not None:
                    counts.deviations += 1
                state = game.child(state, chosen)
                continue
        found = lookup(state, key)
        if counts is not None and actor != responder:
            counts.fixed += 1
            counts.unknown += found is None
        state = game.child(state, actions[_draw(_weights(found, len(actions)), rng)])
    return float(game.returns(state)[responder])


def evaluate(
    game: ExtensiveGame[Any],
    policy: Mapping[str, Sequence[float]] | Lookup,
    responder: int,
    best: Mapping[str, str],
    deals: int,
    seed: int | str = 0,
) -> Evaluation:
    """Play ``best`` (the responder's pure strategy, the policy where it has no key) and the
    policy itself in the ``responder`` seat against ``policy`` on the same ``deals`` sampled
    deals (seeded by ``seed``); both values and their difference, with 95% intervals."""
    if deals < 2:
        raise ValueError(f"an evaluation needs at least two deals, not {deals}")
    lookup: Lookup = policy if callable(policy) else table_lookup(policy)
    dealer = random.Random(f"deals-{seed}")
    counts = _Counts()
    br_values, own_values = [], []
    for i in range(deals):
        deal = game.sample_chance(game.root(), dealer)
        # The same draws for both hands while their histories agree: the difference is the
        # responder's choices, not the others' luck.
        br = play(game, lookup, responder, best, deal, random.Random(f"{seed}-{i}"), counts)
        own = play(game, lookup, responder, None, deal, random.Random(f"{seed}-{i}"))
        br_values.append(br)
        own_values.append(own)
    return Evaluation(
        Estimate.of(br_values),
        Estimate.of(own_values),
        Estimate.of([b - o for b, o in zip(br_values, own_values, strict=True)]),
        deals,
        counts.unknown / max(counts.fixed, 1),
        counts.deviations / max(counts.responder, 1),
        {key: n / deals for key, n in counts.keys.items()},
    )


@dataclass(slots=True)
class SeatResult:
    """A responder seat's learned best response and its evaluation."""

    seat: int
    evaluation: Evaluation
    lines: list[ExploitedLine] = field(default_factory=list)
    infosets: int = 0


def sampled_exploitability(
    game: ExtensiveGame[Any],
    policy: Mapping[str, Sequence[float]] | Lookup,
    iterations: int,
    deals: int,
    seed: int | str = 0,
    seats: Sequence[int] | None = None,
    top: int = 10,
    confidence: float = 2.0,
    least_samples: float = 30.0,
) -> list[SeatResult]:
    """For each of ``seats`` (every seat by default): a best response learned over
    ``iterations`` sampled deals, played back over ``deals`` fresh ones (:func:`evaluate`)."""
    results = []
    for seat in range(game.num_players) if seats is None else seats:
        br = SampledBestResponse(
            game,
            policy,
            seat,
            seed=f"learn-{seed}-{seat}",
            confidence=confidence,
            least_samples=least_samples,
        )
        br.iterate(iterations)
        evaluation = evaluate(game, policy, seat, br.best_actions(), deals, seed=f"{seed}-{seat}")
        results.append(SeatResult(seat, evaluation, br.exploited_lines(top, evaluation.reach), len(br.stats)))
    return results
