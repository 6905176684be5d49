"""The showdown and the awards of one hand: the order its hands are shown in, the pots it
splits and who still claims each, each hand's ranks (evaluated once), and the rake.

:class:`Showdown` is the showdown's state, as :class:`~sevenstud.betting.BettingRound` is a
betting round's: :class:`~sevenstud.hand.Hand` holds one from the end of the betting on and
asks it who must show, whether a hand may be mucked unshown and whether it can still win; the
hand records the events and awards the pots. ``shown`` and ``mucked`` stay the hand's (its
views and records read them): they are passed in.
"""

from __future__ import annotations

from collections.abc import Collection

from sevenstud.cards import Card
from sevenstud.games import Game
from sevenstud.pots import Contender, Pot, contender, new_pot, split_rake
from sevenstud.views import with_community


def showdown_order(live: list[int], first: int | None) -> list[int]:
    """The order the hands still in are shown in, from ``first`` (the hand's: the last aggressor
    on 7th street, else the player who would act first there) in turn; from the lowest seat
    still in when ``first`` is not one of them."""
    first = first if first in live else live[0]
    start = live.index(first)  # type: ignore[arg-type,unused-ignore]
    return live[start:] + live[:start]


def take_rake(game: Game, pots: list[Pot], street: int, fixed: int | None) -> tuple[int, list[Pot]]:
    """The rake on the pots being awarded (the hand ended on ``street``), and the pots after it:
    ``fixed`` exactly (as a card room's history shows it), else the game's rule."""
    total = sum(p.amount for p in pots)
    rake = min(fixed, total) if fixed is not None else game.rake_on(total, street)
    if not rake:
        return 0, pots
    taken = split_rake([p.amount for p in pots], rake, each_pot=game.rake_from == "each_pot")
    return rake, [new_pot(p.amount - t, p.eligible) for p, t in zip(pots, taken, strict=True)]


class Showdown:
    """One hand's showdown: see the module's documentation."""

    def __init__(
        self, game: Game, pots: list[Pot], order: list[int], cards: list[list[Card]], community: Card | None
    ) -> None:
        self.game = game
        self.pots = pots
        """The pots it splits, built when it began: no chip moves after betting (never changed:
        a clone shares the list)."""
        self.order = order
        """The seats still to show or muck, the next first."""
        self.cards = cards
        """Each seat's cards (the hand's lists: no card is dealt after the betting)."""
        self.community = community
        self.claims: dict[int, int] = {}  # pot index -> its last claimant
        self.contenders: dict[int, Contender] = {}  # each showdown hand evaluated once
        self.claim_lone_pots(set())  # a pot the others folded from: nobody has mucked yet

    def copy(self) -> Showdown:
        """An independent copy, for :meth:`Hand.clone <sevenstud.hand.Hand.clone>`."""
        new = Showdown(self.game, self.pots, self.order[:], self.cards, self.community)
        new.claims = dict(self.claims)
        new.contenders = dict(self.contenders)
        return new

    def claim_lone_pots(self, mucked: set[int]) -> None:
        """A pot with one claimant left (the others folded or mucked) is that hand's at once,
        without showing: a later muck of the same hand, giving up a pot still contested, cannot
        leave this one unclaimed."""
        claims = self.claims
        for index, pot in enumerate(self.pots):
            if index not in claims:
                claimants = [s for s in pot.eligible if s not in mucked]
                if len(claimants) == 1:
                    claims[index] = claimants[0]

    def contested(self, seat: int, mucked: set[int]) -> bool:
        """Whether another hand still claims a pot that this one may win."""
        claims = self.claims
        return any(
            index not in claims
            and seat in pot.eligible
            and any(s != seat and s not in mucked for s in pot.eligible)
            for index, pot in enumerate(self.pots)
        )

    def next_to_show(self, mucked: set[int]) -> int | None:
        """The next seat to show or muck (still first in :attr:`order`), or None when none is
        left; a hand nobody else contests is passed over: it wins without being shown."""
        order = self.order
        while order:
            seat = order[0]
            if self.contested(seat, mucked):
                return seat
            order.pop(0)
        return None

    def contender(self, seat: int) -> Contender:
        """The seat's hand as the award compares it, evaluated once."""
        known = self.contenders.get(seat)
        if known is not None:
            return known
        game = self.game
        cards = self.cards[seat]
        high, low = game.showdown_ranks(with_community(cards, self.community))
        own = game.highest_card_order(cards)
        known = self.contenders[seat] = contender(high, low, own)
        return known

    def hand_names(self, seat: int) -> tuple[str | None, str | None]:
        """The names the seat's hand is announced by when shown (:meth:`Game.hand_names
        <sevenstud.games.Game.hand_names>`)."""
        mine = self.contender(seat)
        return self.game.hand_names(mine.high, mine.low)

    def could_win(self, seat: int, shown: Collection[int]) -> bool:
        """Whether the hand can still win any part of a pot against the hands shown so far."""
        mine = self.contender(seat)
        for pot in self.pots:
            if seat not in pot.eligible:
                continue
            rivals = [self.contender(s) for s in pot.eligible if s in shown]
            if not rivals:
                return True
            if self.game.has_high and mine.high >= max(r.high for r in rivals):
                return True
            if self.game.has_low and mine.low > 0 and mine.low >= max(r.low for r in rivals):
                return True
        return False

    def award_contenders(
        self, live: list[int], shown: Collection[int], mucked: set[int]
    ) -> dict[int, Contender]:
        """The hands the pots are awarded among once every hand has been shown or mucked."""
        # A hand that wins unshown (nobody else claimed its pots) claims no low: nobody saw it.
        return {s: self.contender(s) if s in shown else contender(0, 0, 0) for s in live if s not in mucked}
