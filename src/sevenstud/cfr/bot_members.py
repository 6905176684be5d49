"""The project's rule, tight and equity bots as members of a training population
(:mod:`sevenstud.cfr.population`): a seat of an MCCFR traversal drawn as ``rule``, ``tight`` or
``equity`` plays as that bot plays at a real table, from what the seat may see.

At a state of :class:`~sevenstud.cfr.stud_game.StudGame` where such a seat is to act, the hand
is rebuilt in the engine (:class:`~sevenstud.hand.Hand`): the deal's real cards in the order the
dealer deals them (:func:`dealing_order`: 3rd street to every seat, each later street to the
seats still in), the stakes the training game counts in (the matches' stakes,
:mod:`sevenstud.bots.match`) and the matches' deep stacks, and the state's actions played in
turn, each letter as the smallest legal action of its kind
(:func:`~sevenstud.cfr.abstraction.action_of`, as the learned bot plays a letter). The bot is
given that seat's :meth:`view <sevenstud.hand.Hand.view>` and its action's letter
(:func:`~sevenstud.cfr.abstraction.letter_of`) is played in the abstract game. The engine
checks every replayed action, so a state the engine would not reach is an error, never a
silent guess.

What it costs: a traversal visits each of its states once, so a decision is never asked twice
and is not kept; the rebuilt hands are (for the deal being walked): a later state's hand is the
nearest kept earlier one's :meth:`~sevenstud.hand.Hand.clone` played on, not past a fold (the
dealer skips a folded seat, so the deck's order differs from there). The equity bot's Monte
Carlo is bounded by its own samples setting (:data:`EQUITY_DRAWS` draws of the opponents'
down cards, :data:`EQUITY_TRIALS` deals each, where the card room's bot takes 8 and 40), and
it keeps its equities by position as it does at a table (its cards, the boards, how each
opponent entered), so the many decisions of a walk at one position share one estimate.

Reproducible: each kind's bot is seeded from the solver's seed and asked in the walk's order,
so the same seed gives the same decisions (the equity bot's numpy draws are seeded from its
own random stream), on a pool and on Ray alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sevenstud.bots.base import Bot
from sevenstud.bots.equity_bot import EquityBot
from sevenstud.bots.registry import new_bot
from sevenstud.cards import CARDS, Card
from sevenstud.cfr.abstraction import action_of, letter_of
from sevenstud.cfr.population import BOT_MEMBERS, Population
from sevenstud.cfr.stud_game import ANTE, BIG, BRING_IN, SMALL, StudGame, StudState
from sevenstud.deck import Deck
from sevenstud.games import GAMES, Stakes
from sevenstud.hand import Hand

EQUITY_DRAWS = 4
"""The equity member's draws of the opponents' down cards per estimate (the card room's
equity bot: 8). A draw costs most of a millisecond whatever its trials, so the draws set the
cost: on 371 decisions of heads-up hands, the card room's bot played the same action as itself
with another seed at 82% of them, this one at 82% (two draws of 80 deals: 78%) in about half
the time."""
EQUITY_TRIALS = 40
"""The deals of the cards to come per draw (the card room's too)."""
STAKES = Stakes(ANTE, BRING_IN, SMALL, BIG)
"""The stakes of the rebuilt hands: those the training game counts its chips in."""
STACK = 50 * BIG
"""Each seat's stack: the matches' fifty big bets, deeper than a capped hand can cost."""

Actions = tuple[tuple[int, int, str], ...]


def dealing_order(cards: Sequence[Sequence[Card]], actions: Sequence[tuple[int, int, str]]) -> list[Card]:
    """The 52 cards in the order the engine's dealer deals ``cards`` (each seat's seven, as
    :class:`~sevenstud.cfr.stud_game.Deal` holds them) in a hand whose actions so far are
    ``actions`` (street, seat, letter): two down and the door card to every seat, then each
    street's card to the seats that have not folded; the cards nobody is dealt follow.

    >>> from sevenstud.cards import parse_cards
    >>> rows = [parse_cards("2c 3c 4c 5c 6c 7c 8c"), parse_cards("2d 3d 4d 5d 6d 7d 8d")]
    >>> " ".join(str(c) for c in dealing_order(rows, [(3, 0, "i"), (3, 1, "c")])[:8])
    '2c 2d 3c 3d 4c 4d 5c 5d'
    >>> " ".join(str(c) for c in dealing_order(rows, [(3, 0, "i"), (3, 1, "b"), (3, 0, "f")])[6:8])
    '5d 6d'
    """
    n = len(cards)
    last_street = [7] * n
    for street, seat, letter in actions:
        if letter == "f":
            last_street[seat] = street
    order = [cards[s][k] for k in range(3) for s in range(n)]
    for street in range(4, 8):
        order += [cards[s][street - 1] for s in range(n) if last_street[s] >= street]
    dealt = set(order)
    return order + [c for c in CARDS if c not in dealt]


def member_bot(kind: str, seed: int | str, draws: int = EQUITY_DRAWS, trials: int = EQUITY_TRIALS) -> Bot:
    """The bot that plays the member ``kind`` (one of
    :data:`~sevenstud.cfr.population.BOT_MEMBERS`): the card room's bot of that kind
    (:func:`~sevenstud.bots.registry.new_bot`), the equity bot with its samples bounded
    (``draws`` and ``trials``)."""
    if kind == "equity":
        return EquityBot(seed=seed, name=kind, draws=draws, trials=trials)
    if kind not in BOT_MEMBERS:
        raise ValueError(f"unknown bot member {kind!r}: expected one of {', '.join(BOT_MEMBERS)}")
    return new_bot(kind, seed=seed, name=kind)


class BotMembers:
    """The bots that play a population's bot members in one solver's traversals of ``game``
    (a :class:`~sevenstud.cfr.stud_game.StudGame`; anything else is refused with a
    :class:`~sevenstud.cfr.population.PopulationError`), each kind's bot seeded from
    ``seed``. ``make``: a kind and a seed to its bot (:func:`member_bot`)."""

    def __init__(
        self,
        game: object,
        population: Population,
        seed: int | str = 0,
        make: Callable[[str, str], Bot] = member_bot,
    ) -> None:
        if not isinstance(game, StudGame):
            population.check_game(type(game).__name__)
            raise TypeError(f"bot members play a StudGame, not {type(game).__name__}")
        self.game = game
        self.variant = GAMES[game.kind](STAKES)
        self.bots: dict[str, Bot] = {kind: make(kind, f"{seed}-{kind}") for kind in population.bots}
        """Each bot member's bot, by kind."""
        self._deal: object = None
        self._hands: dict[Actions, Hand] = {}
        """The deal being walked's rebuilt hands, by the actions played."""

    def letter(self, kind: str, state: StudState) -> str:
        """The letter the bot of ``kind`` plays at ``state`` for its seat to act."""
        hand = self.hand(state)
        action = self.bots[kind].act(hand.view(state.actor))
        return letter_of(action, self.game.actions(state))

    def hand(self, state: StudState) -> Hand:
        """``state`` as the engine's hand (see the module): the same cards dealt, the same
        actions played, the same seat to act."""
        deal = state.deal
        if deal is None:
            raise ValueError("the hand is not dealt yet: the root has no seat to act")
        if deal is not self._deal:
            self._deal, self._hands = deal, {}
        actions = state.actions
        hand = self._hands.get(actions)
        if hand is None:
            start, base = 0, None
            for k in range(len(actions) - 1, -1, -1):
                if actions[k][2] == "f":  # no clone across a fold: the deck's order changes
                    break
                base = self._hands.get(actions[:k])
                if base is not None:
                    start = k
                    break
            if base is None:
                order = dealing_order(deal.cards, actions)
                hand = Hand(self.variant, [STACK] * self.game.num_players, Deck(order))
            else:
                hand = base.clone()
            for _, seat, letter in actions[start:]:
                action = action_of(letter, hand.legal_actions())
                if action is None:
                    raise ValueError(f"seat {seat} cannot play {letter!r} in the engine's hand")
                hand.act(action, seat)
            self._hands[actions] = hand
        if hand.to_act != state.actor:
            raise ValueError(f"the engine's hand has seat {hand.to_act} to act, the game seat {state.actor}")
        return hand
