"""Real stud, abstracted, as an :class:`~sevenstud.cfr.game.ExtensiveGame` for Monte Carlo CFR.

The cards are real: the root's chance node deals a whole deck (each seat's seven cards in the
engine's order: two down, four up, one down), and the information sets are the abstraction's
keys (:mod:`sevenstud.cfr.abstraction`), computed from what the seat to act may see. The
betting follows the engine's rules for a fixed-limit hand between deep stacks: antes, the
bring-in by the door cards (:meth:`Game.bring_in_seat <sevenstud.games.Game.bring_in_seat>`),
who may bring in or complete; a bring-in only called ends 3rd street; a cap of
:attr:`Game.cap <sevenstud.games.Game.cap>` bets and raises a street (the completion counts);
the best board acts first from 4th street (:meth:`Game.board_key`, equal boards the lower
seat); small bets on 3rd and 4th, big bets after; the showdown by :meth:`Game.showdown_ranks`,
hi/lo split with the low qualifying. What is left out, all rare at the tables the bot plays:
all-ins and side pots (stacks are deep), the optional 4th-street big bet on an open pair (the
bot bets the small one), a fold when nothing is to be called, and the community card (at most
seven seats are dealt here). Returns are in small bets.

>>> import random
>>> game = StudGame("stud8", players=2)
>>> state = game.child(game.root(), game.sample_chance(game.root(), random.Random(1)))
>>> game.actions(state)
('i', 'b')
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from sevenstud.cards import CARDS, Card
from sevenstud.cfr.abstraction import RULES, key_of, street_key, strength
from sevenstud.cfr.game import CHANCE
from sevenstud.games import GameCode

ANTE, BRING_IN, SMALL, BIG = 1, 2, 5, 10
"""The chips of the stakes trained at (the matches' stakes: :mod:`sevenstud.bots.match`)."""


@dataclass(slots=True)
class Deal:
    """One deal: each seat's seven cards, and the features computed for it so far."""

    cards: list[list[Card]]
    features: dict[tuple[int, int, tuple[int, ...], tuple[int, ...]], tuple[int, int, int]] = field(
        default_factory=dict
    )


@dataclass(slots=True)
class StudState:
    """A state of the abstracted hand (a new one for every action: states are never changed)."""

    deal: Deal | None
    street: int = 3
    folded: tuple[bool, ...] = ()
    put: tuple[int, ...] = ()
    """What each seat has put in, antes included."""
    street_put: tuple[int, ...] = ()
    level: int = 0
    bets: int = 0
    completed: bool = False
    pending: frozenset[int] = frozenset()
    actor: int = -1
    actions: tuple[tuple[int, int, str], ...] = ()
    """(street, seat, letter) of every action so far."""
    over: bool = False


class StudGame:
    """Abstracted real stud (see the module) between ``players`` seats, 2 to 7.

    ``heads_up``: a heads-up policy table (keys to weights, :mod:`sevenstud.cfr.policy`) that
    plays every information set it knows once two players are left in a multiway hand
    (:meth:`fixed_strategy`), as the learned bot plays at the table: the multiway table is
    then learned for the multiway streets alone, and what follows them is sampled, not
    explored."""

    def __init__(
        self, game: GameCode, players: int = 2, heads_up: Mapping[str, Sequence[int]] | None = None
    ) -> None:
        if game not in RULES:
            raise ValueError(f"unknown game {game!r}: expected one of {', '.join(RULES)}")
        if not 2 <= players <= 7:
            raise ValueError(f"the training game is for 2 to 7 players, not {players}")
        self.kind: GameCode = game
        self.rules = RULES[game]
        self.num_players = players
        self.cap = self.rules.cap
        self.heads_up = heads_up if players > 2 else None

    def root(self) -> StudState:
        """Before the deal."""
        return StudState(None)

    def is_terminal(self, state: StudState) -> bool:
        """Everybody but one folded, or 7th street's betting is over."""
        return state.over

    def player(self, state: StudState) -> int:
        """Chance deals the whole deck at the root; then the seat to act."""
        return CHANCE if state.deal is None else state.actor

    def chance_outcomes(self, state: StudState) -> Sequence[tuple[object, float]]:
        """Not listed: a deck has too many orders (sample them)."""
        raise NotImplementedError("real stud's deals are sampled, never listed")

    def sample_chance(self, state: StudState, rng: random.Random) -> object:
        """A shuffled deck."""
        deck = list(CARDS)
        rng.shuffle(deck)
        return deck

    # ------------------------------------------------------------------ dealing and betting

    def child(self, state: StudState, action: object) -> StudState:
        """The deal, or one more action."""
        if state.deal is None:
            assert isinstance(action, list)
            n = self.num_players
            cards = [[action[k * n + s] for k in range(7)] for s in range(n)]
            return self._open(StudState(Deal(cards), folded=(False,) * n, put=(ANTE,) * n), 3)
        assert isinstance(action, str)
        return self._act(state, action)

    def _open(self, state: StudState, street: int) -> StudState:
        assert state.deal is not None
        n = self.num_players
        live = [s for s in range(n) if not state.folded[s]]
        cards = state.deal.cards
        if street == 3:
            first = self.rules.bring_in_seat({s: cards[s][2] for s in live})
        else:
            ups = min(street, 6) - 2
            key = self.rules.board_key
            first = max(live, key=lambda s: key(cards[s][2 : 2 + ups]))  # max keeps the lowest seat
        state.street = street
        state.street_put = (0,) * n
        state.level = 0
        state.bets = 0
        state.completed = False
        state.pending = frozenset(live)
        state.actor = first
        return state

    def _bet_size(self, street: int) -> int:
        return SMALL if street <= 4 else BIG

    def actions(self, state: StudState) -> Sequence[str]:
        """The letters the seat to act may play: the bring-in or a completion; check or bet;
        fold, call, or complete or raise (none at the cap)."""
        me = state.actor
        if not state.actions:
            return ("i", "b")
        if state.street_put[me] == state.level:
            return ("k", "b") if state.bets < self.cap else ("k",)
        if state.street == 3 and not state.completed:
            return ("f", "c", "b")
        return ("f", "c", "r") if state.bets < self.cap else ("f", "c")

    def _act(self, state: StudState, a: str) -> StudState:
        me = state.actor
        n = self.num_players
        folded = state.folded
        street_put = list(state.street_put)
        level = state.level
        bets = state.bets
        completed = state.completed
        pending = set(state.pending)
        pending.discard(me)
        if a == "f":
            folded = tuple(f or s == me for s, f in enumerate(folded))
        elif a == "i":
            level = BRING_IN
        elif a in ("b", "r"):
            if state.street == 3 and not completed:
                level = SMALL
                completed = True
            else:
                level += self._bet_size(state.street)
            bets += 1
            pending = {s for s in range(n) if not folded[s] and s != me}
        put = list(state.put)
        if a in ("i", "c", "b", "r"):
            put[me] += level - street_put[me]
            street_put[me] = level
        new = StudState(
            state.deal,
            state.street,
            folded,
            tuple(put),
            tuple(street_put),
            level,
            bets,
            completed,
            frozenset(pending),
            me,
            (*state.actions, (state.street, me, a)),
        )
        live = [s for s in range(n) if not folded[s]]
        if len(live) == 1:
            new.over = True
            return new
        if not pending:
            if state.street == 7:
                new.over = True
                return new
            return self._open(new, state.street + 1)
        nxt = (me + 1) % n
        while nxt not in pending:
            nxt = (nxt + 1) % n
        new.actor = nxt
        return new

    def returns(self, state: StudState) -> Sequence[float]:
        """Each seat's win or loss in small bets."""
        assert state.deal is not None
        n = self.num_players
        live = [s for s in range(n) if not state.folded[s]]
        pot = sum(state.put)
        won = [0.0] * n
        if len(live) == 1:
            won[live[0]] = pot
        else:
            ranks = {s: self.rules.showdown_ranks(state.deal.cards[s]) for s in live}
            halves: list[tuple[float, int]] = []
            if self.rules.split and max(r[1] for r in ranks.values()) > 0:
                halves = [(pot / 2, 0), (pot / 2, 1)]
            else:
                halves = [(pot, 0 if self.rules.has_high else 1)]
            for amount, half in halves:
                best = max(ranks[s][half] for s in live)
                winners = [s for s in live if ranks[s][half] == best]
                for s in winners:
                    won[s] += amount / len(winners)
        return [(won[s] - state.put[s]) / SMALL for s in range(n)]

    def fixed_strategy(self, state: StudState, key: str) -> Sequence[int] | None:
        """The heads-up table's weights at ``key`` when two players are left and it knows the
        key; None elsewhere (learned there)."""
        if self.heads_up is None or sum(not f for f in state.folded) != 2:
            return None
        return self.heads_up.get(key)

    def infoset(self, state: StudState) -> str:
        """The abstraction's key for the seat to act (:mod:`sevenstud.cfr.abstraction`)."""
        assert state.deal is not None
        me = state.actor
        street = state.street
        live = tuple(s for s in range(self.num_players) if not state.folded[s])
        # A folded seat's up cards are those it had when it folded: no card is dealt to it after.
        until = [street] * self.num_players
        for s, who, token in state.actions:
            if token == "f":
                until[who] = s
        cache_key = (me, street, live, tuple(until))
        cards = state.deal.cards
        buckets = state.deal.features.get(cache_key)
        ups = min(street, 6) - 2
        if buckets is None:
            mine = cards[me][:street]
            dead = [c for s in range(self.num_players) if s != me for c in cards[s][2 : min(until[s], 6)]]
            opponents = [cards[s][2 : 2 + ups] for s in live if s != me]
            buckets = strength(self.rules, mine, cards[me][2 : 2 + ups], dead, opponents)
            state.deal.features[cache_key] = buckets
        earlier, last, now = street_key(me, street, len(live) - 1, state.actions)
        # The letters the seat may play end the key: the cap, the bring-in and a history cut
        # short by HISTORY_LENGTH must never give one key two sets of actions.
        letters = "".join(self.actions(state))
        return key_of(street, buckets, len(live) - 1, earlier, last, now) + ":" + letters
