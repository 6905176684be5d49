"""Exact expected returns, best responses and exploitability of a policy in a small game
(one whose chance outcomes :meth:`~sevenstud.cfr.game.ExtensiveGame.chance_outcomes` lists).

The best response is computed information set by information set: an action's value at an
information set is the sum, over its states, of the others' reach (chance and the opponents'
policy) times the value of the action there, with the responder's later choices made the same
way (perfect recall makes this well founded). An information set the policy does not name is
played uniformly.

>>> from sevenstud.cfr.kuhn import KuhnPoker
>>> round(exploitability(KuhnPoker(), {}), 4)  # uniform play
0.4583
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sevenstud.cfr.game import CHANCE, ExtensiveGame, Policy, uniform


def _probs(policy: Policy, key: str, n: int) -> Sequence[float]:
    p = policy.get(key)
    return uniform(n) if p is None or len(p) != n else p


def expected_returns(game: ExtensiveGame[Any], policy: Policy) -> list[float]:
    """Each player's expected return when every player follows ``policy``."""

    def walk(state: Any) -> list[float]:
        if game.is_terminal(state):
            return [float(x) for x in game.returns(state)]
        if game.player(state) == CHANCE:
            pairs = [(p, walk(game.child(state, o))) for o, p in game.chance_outcomes(state)]
        else:
            actions = game.actions(state)
            sigma = _probs(policy, game.infoset(state), len(actions))
            pairs = [(p, walk(game.child(state, a))) for a, p in zip(actions, sigma, strict=True) if p > 0]
        total = [0.0] * game.num_players
        for p, v in pairs:
            for i in range(game.num_players):
                total[i] += p * v[i]
        return total

    return walk(game.root())


def best_response_value(game: ExtensiveGame[Any], policy: Policy, player: int) -> float:
    """What ``player`` gets by a best response to the others playing ``policy``."""
    members: dict[str, list[tuple[Any, float]]] = {}
    actions_of: dict[str, Sequence[str]] = {}

    def collect(state: Any, reach: float) -> None:
        if game.is_terminal(state):
            return
        actor = game.player(state)
        if actor == CHANCE:
            for o, p in game.chance_outcomes(state):
                collect(game.child(state, o), reach * p)
            return
        actions = game.actions(state)
        if actor == player:
            key = game.infoset(state)
            members.setdefault(key, []).append((state, reach))
            actions_of[key] = actions
            for a in actions:
                collect(game.child(state, a), reach)
            return
        sigma = _probs(policy, game.infoset(state), len(actions))
        for a, p in zip(actions, sigma, strict=True):
            if p > 0:
                collect(game.child(state, a), reach * p)

    collect(game.root(), 1.0)
    choice: dict[str, str] = {}
    memo: dict[Any, float] = {}

    def best(key: str) -> str:
        found = choice.get(key)
        if found is None:
            scores = [sum(r * value(game.child(s, a)) for s, r in members[key]) for a in actions_of[key]]
            found = actions_of[key][max(range(len(scores)), key=scores.__getitem__)]
            choice[key] = found
        return found

    def value(state: Any) -> float:
        cached = memo.get(state)
        if cached is not None:
            return cached
        if game.is_terminal(state):
            v = float(game.returns(state)[player])
        else:
            actor = game.player(state)
            if actor == CHANCE:
                v = sum(p * value(game.child(state, o)) for o, p in game.chance_outcomes(state))
            elif actor == player:
                v = value(game.child(state, best(game.infoset(state))))
            else:
                actions = game.actions(state)
                sigma = _probs(policy, game.infoset(state), len(actions))
                v = sum(p * value(game.child(state, a)) for a, p in zip(actions, sigma, strict=True) if p > 0)
        memo[state] = v
        return v

    return value(game.root())


def nash_conv(game: ExtensiveGame[Any], policy: Policy) -> float:
    """The sum over players of what a best response gains over ``policy``'s own return."""
    values = expected_returns(game, policy)
    return sum(best_response_value(game, policy, p) - values[p] for p in range(game.num_players))


def exploitability(game: ExtensiveGame[Any], policy: Policy) -> float:
    """:func:`nash_conv` over the number of players (OpenSpiel's definition): 0 exactly at a
    Nash equilibrium."""
    return nash_conv(game, policy) / game.num_players
