"""A local best response (LBR): a seat that, at every decision, takes the action worth most
against the fixed bots it faces, each action's worth estimated by rollouts.

What exactly it does, at each decision with more than one legal action (a showdown's show is
taken at once):

1. It draws ``rollouts`` *worlds* from the bots' ranges: the cards its seat cannot see (the
   other seats' down cards and the undealt deck) are dealt at random from the cards it has not
   seen, and the world is kept only if fresh bots of the kinds it faces, dealt those cards,
   would have taken every action they took this hand (rejection sampling: this weights each
   world by how likely the bots' strategies make their actions, as Lisý and Bowling's LBR,
   "Equilibrium approximation quality of current no-limit poker bots", 2017, weights the
   opponent's hands by its strategy). It knows the bots' strategies (their kinds), never their
   cards nor their seeds. After :data:`ATTEMPTS` draws a world wanted it makes do with the
   worlds kept, and with uniform worlds when none was.
2. In each world the hand is replayed from the start to this decision (the same actions: the
   betting never depends on a hidden card), the action is taken, and the hand is played to its
   end by fresh bots of the kinds sitting in the other seats and, in its own seat, by a calling
   station (check and call to the end: LBR's usual rollout policy).
3. An action's worth is the mean of its chips at the end over the worlds (the same worlds for
   every action, common random numbers, so that the comparison is sharper than each mean);
   the best is taken, the more passive one on a tie.

Its result against a bot in a duplicate match (:mod:`sevenstud.sim.core`, ``"lbr"`` in a seat)
is then a lower bound of how much that bot can be beaten by, in the game and seating played;
nothing here searches more than one decision ahead.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from sevenstud.actions import AGGRESSIVE_KINDS
from sevenstud.bots.base import Bot
from sevenstud.bots.registry import new_bot
from sevenstud.bots.simple import CallingStation
from sevenstud.cards import CARDS, Card
from sevenstud.deck import Deck
from sevenstud.events import ActionTaken, CardDealt, CommunityCardDealt
from sevenstud.games import Game
from sevenstud.hand import Action, ActionKind, Hand, SeatView

ATTEMPTS = 16
"""Draws per world wanted when sampling the bots' ranges (see :meth:`LocalBestResponse._worlds`)."""

_PASSIVE_FIRST = {
    ActionKind.FOLD: 0,
    ActionKind.CHECK: 1,
    ActionKind.BRING_IN: 2,
    ActionKind.CALL: 3,
}


class LocalBestResponse:
    """The local best response (see the module) for one hand: it is told the game, the
    starting stacks and which bot kind sits in each seat (its own seat's entry is ignored)."""

    def __init__(
        self,
        seat_kinds: Sequence[str],
        game: Game,
        stacks: Sequence[int],
        *,
        seed: int = 0,
        name: str = "LBR",
        rollouts: int = 12,
    ) -> None:
        self.name = name
        self.seat_kinds = tuple(seat_kinds)
        self.game = game
        self.stacks = tuple(stacks)
        self.rollouts = rollouts
        self._rng = random.Random(seed)
        self.last_values: dict[Action, float] = {}
        """Each action's estimated worth (chips at the end) at the last decision."""
        self.last_kept = 0
        """How many worlds of the bots' ranges the last decision found (0: it used uniform ones)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    def act(self, view: SeatView) -> Action:
        """The action worth most by rollouts (see the module)."""
        seat = view.seat
        legal = view.legal_actions
        if seat is None or not legal:
            raise ValueError("the local best response was asked to act without a seat to act for")
        for action in legal:
            if action.kind is ActionKind.SHOW:
                return action
        if len(legal) == 1:
            return legal[0]
        history = [(e.seat, e.action) for e in view.events if isinstance(e, ActionTaken)]
        worlds = self._worlds(view, history, seat)
        seeds = [self._rng.getrandbits(32) for _ in worlds]
        values: dict[Action, float] = {}
        for action in legal:
            total = 0
            for deck, seed in zip(worlds, seeds, strict=True):
                total += self._rollout(deck, history, seat, action, seed)
            values[action] = total / len(worlds)
        self.last_values = values

        def order(a: Action) -> tuple[float, int, int]:
            passive = _PASSIVE_FIRST.get(a.kind, 4 if a.kind in AGGRESSIVE_KINDS else 5)
            return (-values[a], passive, a.amount or 0)

        return min(legal, key=order)

    def _worlds(self, view: SeatView, history: Sequence[tuple[int, Action]], me: int) -> list[list[int]]:
        """``rollouts`` worlds drawn from the bots' ranges: a world is kept only when fresh bots
        of the kinds at the table, dealt its cards, would have played every action the hand has
        seen (rejection sampling: a bot that chooses at random keeps a world as often as it
        would have chosen so). At most :data:`ATTEMPTS` draws a world wanted; when none is
        kept, uniform worlds."""
        kept: list[list[int]] = []
        uniform: list[list[int]] = []
        for _ in range(ATTEMPTS * self.rollouts):
            world = self._world(view)
            if len(uniform) < self.rollouts:
                uniform.append(world)
            if self._consistent(world, history, me):
                kept.append(world)
                if len(kept) == self.rollouts:
                    break
        self.last_kept = len(kept)
        return kept or uniform

    def _consistent(self, deck: list[int], history: Sequence[tuple[int, Action]], me: int) -> bool:
        """Whether the bots, dealt ``deck``, would have taken the other seats' actions."""
        hand = Hand(self.game, list(self.stacks), Deck(deck))
        seed = self._rng.getrandbits(32)
        bots: dict[int, Bot] = {}
        for seat, taken in history:
            if seat != me:
                bot = bots.get(seat)
                if bot is None:
                    bot = bots[seat] = new_bot(self.seat_kinds[seat], seed=seed * 16 + seat, name="range")
                if bot.act(hand.view(seat)) != taken:
                    return False
            hand.act(taken, seat)
        return True

    def _world(self, view: SeatView) -> list[int]:
        """A deck that agrees with everything the seat has seen: the cards dealt so far in the
        order the view's events dealt them, each hidden one and the rest of the deck drawn at
        random from the cards the seat has not seen."""
        dealt: list[Card | None] = []
        for event in view.events:
            if isinstance(event, (CardDealt, CommunityCardDealt)):
                dealt.append(event.card)
        seen = {c for c in dealt if c is not None}
        unseen = [c for c in CARDS if c not in seen]
        self._rng.shuffle(unseen)
        fill = iter(unseen)
        order = [int(c) if c is not None else int(next(fill)) for c in dealt]
        order += [int(c) for c in fill]
        return order

    def _rollout(
        self,
        deck: list[int],
        history: Sequence[tuple[int, Action]],
        me: int,
        action: Action,
        seed: int,
    ) -> int:
        hand = Hand(self.game, list(self.stacks), Deck(deck))
        for seat, taken in history:
            hand.act(taken, seat)
        hand.act(action, me)
        bots: list[Bot] = [
            CallingStation(name=self.name) if s == me else new_bot(kind, seed=seed * 16 + s, name=kind)
            for s, kind in enumerate(self.seat_kinds)
        ]
        while not hand.is_over:
            turn = hand.to_act
            assert turn is not None  # a hand not over always has a seat to act
            hand.act(bots[turn].act(hand.view(turn)), turn)
        return hand.stacks[me] - self.stacks[me]
