"""A reduced stud game small enough for an exact best response: two players, a short deck,
two streets instead of five.

What is kept of the real game (:mod:`sevenstud.hand`, docs/rules.md): each player antes; 3rd
street deals one card down and one up (the door card); the lowest door card brings in
(:meth:`Game.bring_in_seat <sevenstud.games.Game.bring_in_seat>` of the real :class:`Stud`, suits
breaking ties), for the bring-in or a completion to the small bet; the betting is fixed-limit
with a cap (a completion counts toward it); a bring-in only called ends the round; 4th street
deals one more card up, the best board showing acts first (the real game's ``board_key``, equal
boards the lower seat) and the bets are big bets. What is cut: the deck (``ranks`` x ``suits``
of the real cards), the streets (two: 3rd and 4th, three cards each) and so the hands: the best
of three cards, trips over a pair over high cards, then the ranks (no straights or flushes of
three). Chips: ante 1, bring-in 1, small bet 2, big bet 4 (the real game's 1:2 of the bets).

>>> game = MiniStud()
>>> state = game.child(game.root(), game.chance_outcomes(game.root())[0][0])
>>> game.actions(state)
('i', 'b')
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from sevenstud.cards import RANK_CHARS, Card
from sevenstud.cfr.game import CHANCE
from sevenstud.games import Stakes, Stud

MiniState = tuple[tuple[int, ...], tuple[str, ...]]
"""(the cards dealt: down 0, down 1, door 0, door 1, then 4th street's up 0, up 1; each street's
actions: ``i`` bring-in, ``b`` complete or bet, ``r`` raise, ``c`` call, ``k`` check, ``f`` fold)."""

ANTE, BRING_IN = 1, 1
BETS = (2, 4)
"""The small bet (3rd street) and the big bet (4th)."""


def three_card_key(cards: Sequence[int]) -> tuple[int, ...]:
    """A three-card high hand's strength, greater is better: (trips 2, pair 1, none 0, then the
    ranks by group size and rank).

    >>> from sevenstud.cards import parse_cards
    >>> three_card_key(parse_cards("Ks Kc 2d")) > three_card_key(parse_cards("As Qc Jd"))
    True
    """
    counts = Counter(c >> 2 for c in cards)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    size = groups[0][1]
    return (size - 1, *(r for r, _ in groups))


@dataclass(frozen=True, slots=True)
class MiniStud:
    """The reduced stud game (see the module) as an :class:`~sevenstud.cfr.game.ExtensiveGame`."""

    ranks: Sequence[int] = (10, 11, 12)
    """The real ranks in the deck (10 queen, 11 king, 12 ace)."""
    suits: Sequence[int] = (0, 3)
    """The real suits in the deck (0 clubs ... 3 spades)."""
    cap: int = 2
    """Bets and raises a street allows (a completion counts)."""
    num_players: int = 2
    deck: tuple[int, ...] = field(init=False)
    _rules: Stud = field(init=False)

    def __post_init__(self) -> None:
        deck = tuple(Card(r * 4 + s) for r in self.ranks for s in self.suits)
        if len(deck) < 6:
            raise ValueError(f"a reduced stud deck needs at least six cards, not {len(deck)}")
        if self.cap < 1:
            raise ValueError(f"the cap must allow a bet, not {self.cap}")
        object.__setattr__(self, "deck", deck)
        object.__setattr__(self, "_rules", Stud(Stakes(ANTE, BRING_IN, BETS[0], BETS[1])))

    def root(self) -> MiniState:
        """Before the deal."""
        return ((), ())

    # ------------------------------------------------------------------ the betting

    def _first(self, cards: tuple[int, ...], street: int) -> int:
        if street == 0:
            return self._rules.bring_in_seat({0: Card(cards[2]), 1: Card(cards[3])})
        boards = [self._rules.board_key([cards[2 + s], cards[4 + s]]) for s in (0, 1)]
        return 0 if boards[0] >= boards[1] else 1

    def _street(self, cards: tuple[int, ...], street: int, h: str) -> tuple[bool, int, list[int], int]:
        """(the round is over, the player to act, what each put in this round, bets made)."""
        first = self._first(cards, street)
        put = [0, 0]
        acted = [False, False]
        level = bets = 0
        actor = first
        for a in h:
            if a == "f":
                return True, actor, put, bets
            if a == "i":
                level = BRING_IN
            elif a in "br":
                level = (BETS[0] if street == 0 and a == "b" and level == BRING_IN else level) or 0
                level = level + BETS[street] if a == "r" or level == 0 else BETS[0]
                bets += 1
            put[actor] = level
            acted[actor] = True
            actor = 1 - actor
        over = acted[0] and acted[1] and put[0] == put[1]
        return over, actor, put, bets

    def _rounds(self, state: MiniState) -> list[tuple[bool, int, list[int], int]]:
        cards, rounds = state
        return [self._street(cards, s, h) for s, h in enumerate(rounds)]

    def is_terminal(self, state: MiniState) -> bool:
        """After a fold, or when 4th street's betting is over."""
        _, rounds = state
        if not rounds:
            return False
        if rounds[-1].endswith("f"):
            return True
        return len(rounds) == 2 and self._rounds(state)[-1][0]

    def returns(self, state: MiniState) -> Sequence[float]:
        """What each player won or lost."""
        cards, rounds = state
        put = [ANTE, ANTE]
        for _, _, street_put, _ in self._rounds(state):
            put[0] += street_put[0]
            put[1] += street_put[1]
        if rounds[-1].endswith("f"):
            folder = self._street(cards, len(rounds) - 1, rounds[-1][:-1])[1]
        else:
            keys = [three_card_key([cards[s], cards[2 + s], cards[4 + s]]) for s in (0, 1)]
            if keys[0] == keys[1]:
                return (0.0, 0.0)
            folder = 1 if keys[0] > keys[1] else 0
        won = float(put[1] if folder == 1 else -put[0])
        return (won, -won)

    def player(self, state: MiniState) -> int:
        """Chance deals 3rd street, then 4th street once 3rd street's betting is over."""
        cards, rounds = state
        if len(cards) < 4 or (len(cards) == 4 and self._rounds(state)[-1][0]):
            return CHANCE
        return self._street(cards, len(rounds) - 1, rounds[-1])[1]

    def chance_outcomes(self, state: MiniState) -> Sequence[tuple[object, float]]:
        """3rd street: every ordered deal of four cards; 4th: of two cards from those left."""
        cards = state[0]
        left = [c for c in self.deck if c not in cards]
        n = 4 if not cards else 2
        deals = list(itertools.permutations(left, n))
        return [(d, 1 / len(deals)) for d in deals]

    def sample_chance(self, state: MiniState, rng: random.Random) -> object:
        """One deal, drawn without listing them all."""
        cards = state[0]
        left = [c for c in self.deck if c not in cards]
        return tuple(rng.sample(left, 4 if not cards else 2))

    def actions(self, state: MiniState) -> Sequence[str]:
        """The bring-in or a completion; check or bet; fold, call or raise (none at the cap)."""
        cards, rounds = state
        s = len(rounds) - 1
        h = rounds[-1]
        if s == 0 and not h:
            return ("i", "b")
        _, actor, put, bets = self._street(cards, s, h)
        if put[actor] == max(put) and (s > 0 or h != "i"):
            return ("k", "b")
        if h == "i":  # the bring-in to face: call it or complete
            return ("f", "c", "b")
        return ("f", "c", "r") if bets < self.cap else ("f", "c")

    def child(self, state: MiniState, action: object) -> MiniState:
        """A deal (which opens a street), or one more action."""
        cards, rounds = state
        if self.player(state) == CHANCE:
            assert isinstance(action, tuple)
            return (cards + action, (*rounds, ""))
        return (cards, (*rounds[:-1], rounds[-1] + str(action)))

    def infoset(self, state: MiniState) -> str:
        """The player's seat, the ranks of its down card and of the up cards, and the actions
        of each street. The suits are left out: they only break a tie for the bring-in, and
        who brought in is already told by the seat and the actions (who acted first)."""
        cards, rounds = state
        seat = self.player(state)
        ups = [cards[2], cards[3]] + ([cards[4], cards[5]] if len(cards) == 6 else [])
        ranks = "".join(RANK_CHARS[c >> 2] for c in ups)
        return f"{seat}{RANK_CHARS[cards[seat] >> 2]}|{ranks}|{'/'.join(rounds)}"
