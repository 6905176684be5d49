"""Duplicate matches between bots: every deck is played once for each rotation of the seats,
so each bot gets each seat's cards once and the luck of the deal cancels out.

Each hand starts every seat with the same stack (``stack_bets`` big bets, deep enough that
stacks rarely run out) and is played to its end; a bot's result is what it won or lost,
counted in milli-small-bets per hand (mSB/hand: a thousandth of the game's small bet). The 95%
confidence interval is over decks: the rotations of one deck are one sample (their sum is what
duplicate play cancels the luck in), so the interval is honest about the remaining variance.

>>> result = duplicate_match(["tight", "station"], game="stud8", deals=4, seed=1)
>>> result.hands, [r.name for r in result.results]
(8, ['tight', 'station'])
>>> abs(sum(r.msb_per_hand for r in result.results)) < 1e-9  # no rake: a zero-sum game
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sevenstud.bots.base import Bot
from sevenstud.bots.registry import new_bot
from sevenstud.deck import Deck
from sevenstud.games import GAMES, Stakes
from sevenstud.hand import Hand

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""
DEFAULT_STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)

BotFactory = Callable[[int], Bot]
"""Makes a fresh bot from a seed (a bot kind's name is taken too: see :func:`duplicate_match`)."""


@dataclass(frozen=True, slots=True)
class BotResult:
    """One bot's result: mean milli-small-bets per hand and the 95% interval's half-width."""

    name: str
    msb_per_hand: float
    ci95: float
    """Half-width of the 95% confidence interval: the true rate is within ``msb_per_hand ±
    ci95`` at 95% confidence."""

    @property
    def low(self) -> float:
        """The interval's lower end."""
        return self.msb_per_hand - self.ci95

    @property
    def high(self) -> float:
        """The interval's upper end."""
        return self.msb_per_hand + self.ci95

    def __str__(self) -> str:
        return f"{self.name}: {self.msb_per_hand:+.0f} ± {self.ci95:.0f} mSB/hand"


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A match's figures: ``deals`` decks, each played in every rotation (``hands`` in all)."""

    game: str
    deals: int
    hands: int
    results: tuple[BotResult, ...]

    def __str__(self) -> str:
        head = f"{self.game}, {self.deals} deals x {len(self.results)} rotations = {self.hands} hands"
        return "\n".join([head, *(f"  {r}" for r in self.results)])


def play_hand(hand: Hand, bots: Sequence[Bot]) -> None:
    """Play ``hand`` to its end, each seat's bot given only its own seat's view."""
    while not hand.is_over:
        seat = hand.to_act
        if seat is None:  # pragma: no cover - a hand not over always has a seat to act
            raise RuntimeError("a hand with nobody to act is not over")
        hand.act(bots[seat].act(hand.view(seat)), seat)


def duplicate_match(
    players: Sequence[str | BotFactory],
    *,
    game: str = "stud8",
    deals: int = 1000,
    seed: int = 0,
    stakes: Stakes = DEFAULT_STAKES,
    stack_bets: int = 50,
    names: Sequence[str] | None = None,
) -> MatchResult:
    """Play ``deals`` decks, each once for every rotation of the seats, between ``players``
    (bot kind names of :data:`~sevenstud.bots.registry.MATCH_KINDS`, or factories taking a seed).
    The same arguments always give the same figures (the decks come from ``seed``, the bots'
    seeds from the deal and the rotation)."""
    n = len(players)
    if not 2 <= n <= 8:
        raise ValueError(f"a match is for 2 to 8 bots, not {n}")
    if deals < 2:
        raise ValueError(f"a match needs at least 2 deals for an interval, not {deals}")
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}: expected one of {', '.join(GAMES)}")
    variant = GAMES[game](stakes)
    labels = (
        list(names)
        if names is not None
        else [p if isinstance(p, str) else f"bot {i + 1}" for i, p in enumerate(players)]
    )
    factories: list[BotFactory] = [_factory(p, labels[i]) for i, p in enumerate(players)]
    stack = stakes.big_bet * stack_bets
    per_deal: list[list[float]] = [[] for _ in range(n)]
    for d in range(deals):
        totals = [0] * n
        for rotation in range(n):
            # Bot i sits in seat (i + rotation) % n: over the rotations it holds every seat.
            order = [(seat - rotation) % n for seat in range(n)]
            bots = [factories[i](seed * 1_000_003 + d * 16 + rotation) for i in order]
            hand = Hand(variant, [stack] * n, Deck.seeded(f"match-{seed}-{d}"))
            play_hand(hand, bots)
            for seat, i in enumerate(order):
                totals[i] += hand.stacks[seat] - stack
        for i in range(n):
            per_deal[i].append(1000 * totals[i] / (n * stakes.small_bet))
    results = []
    for i in range(n):
        xs = per_deal[i]
        mean = sum(xs) / deals
        var = sum((x - mean) ** 2 for x in xs) / (deals - 1)
        results.append(BotResult(labels[i], mean, Z95 * math.sqrt(var / deals)))
    return MatchResult(game, deals, deals * n, tuple(results))


def _factory(player: str | BotFactory, label: str) -> BotFactory:
    if isinstance(player, str):
        new_bot(player)  # an unknown kind is refused before any hand is dealt

        def make(seed: int) -> Bot:
            return new_bot(player, seed=seed, name=label)

        return make
    return player
