"""One hand of stud as a deterministic state machine.

A :class:`Hand` is made from a game, the players' stacks (seat 0 is the first seat clockwise
from the dealer, so "the lowest seat" is the one nearest the dealer's left) and a deck. It posts
the antes and deals 3rd street at once, then waits for the player to act:
:meth:`Hand.legal_actions` lists what that player may do, with amounts, and :meth:`Hand.act`
applies one of them or raises :class:`IllegalAction` with the reason, changing nothing.
Dealing, the bring-in choice, the first actor of each street, uncalled bets, the showdown and
the awards happen by themselves. Every change is recorded as an event.

What a player, a bot or a client may learn comes from :meth:`Hand.view` and what
:meth:`Hand.act` returns, both through :func:`sevenstud.events.redact`: never another seat's
down card before it is shown or turned up. ``hand.events``, ``hand.cards`` and ``hand.deck``
are the engine's full state, every card included, for storage and history writers (as is
:func:`sevenstud.wire.hand_to_record`); never hand them to a player.

Randomness enters only through the deck, so a hand is replayed exactly from its game, stacks,
deck and actions (:meth:`Hand.replay`).

The pieces live in their own modules and are re-exported here: :mod:`sevenstud.actions` (what
a player can do), :mod:`sevenstud.events` (what happens, and who may see it),
:mod:`sevenstud.betting` (one betting round) and :mod:`sevenstud.views` (what a seat sees);
:mod:`sevenstud.showdown` is the showdown's (who shows, the pots still claimed, the rake).

>>> from sevenstud.games import StudHiLo, Stakes
>>> from sevenstud.deck import Deck
>>> hand = Hand(StudHiLo(Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)), [100, 100],
...             Deck.seeded(7))
>>> hand.to_act, [str(a) for a in hand.legal_actions()]
(1, ['bring-in 2', 'complete to 5'])
>>> _ = hand.act("bring-in"); _ = hand.act("fold")
>>> hand.is_over, hand.stacks
(True, [99, 101])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, SupportsIndex

from sevenstud.actions import (
    AGGRESSIVE_KINDS,
    FOLD,
    MUCK,
    SHOW,
    Action,
    ActionKind,
    IllegalAction,
)
from sevenstud.betting import BettingRound
from sevenstud.cards import Card
from sevenstud.chips import is_whole, whole
from sevenstud.deck import Deck
from sevenstud.events import (
    ActionTaken,
    AntePosted,
    BetReturned,
    CardDealt,
    CommunityCardDealt,
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    HandTurnedUp,
    PotAwarded,
    RakeTaken,
    StreetStarted,
    card_dealt,
    describe,
    make_event,
    redact_all,
    turned_up_before,
)
from sevenstud.games import STREET_NAMES, Game
from sevenstud.pots import (
    Award,
    Contender,
    Pot,
    award_showdown,
    build_pots,
    contender,
    pots_as_they_stand,
)
from sevenstud.refusals import Refusal
from sevenstud.showdown import Showdown, showdown_order, take_rake
from sevenstud.views import CardTable, Phase, SeatView, ViewCache, with_community

__all__ = [  # the names other modules import from here, these modules' own included
    "AGGRESSIVE_KINDS", "MAX_PLAYERS", "MIN_PLAYERS", "STREET_NAMES", "Action", "ActionKind",
    "ActionTaken", "AntePosted", "BetReturned", "CardDealt", "CommunityCardDealt", "Event",
    "Hand", "HandEnded", "HandError", "HandMucked", "HandShown", "HandTurnedUp",
    "IllegalAction", "Phase", "Pot", "PotAwarded", "RakeTaken", "SeatView", "StreetStarted",
    "describe",
]

MIN_PLAYERS, MAX_PLAYERS = 2, 8


class HandError(Refusal, ValueError):
    """A hand that cannot be set up as asked (stacks, players or deck)."""


def _same_deck(deck: Deck) -> Deck:
    """A deck at the same position in the same order, dealing on independently. Its list of
    cards is shared: a deck never changes its list, only its position."""
    twin = Deck._trusted(deck._cards)
    for _ in range(deck.position):
        twin.deal()
    return twin


class Hand:
    """One hand of stud. See the module's documentation."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Hand:
        # A blank hand for clone() and copy: in the compiled engine the class's own allocator
        # would run __init__, which needs the game and the stacks.
        return object.__new__(cls)

    def __init__(
        self,
        game: Game,
        stacks: Sequence[int],
        deck: Deck | None = None,
        *,
        seed: SupportsIndex | str | None = None,
        auto_showdown: bool = True,
        rake: SupportsIndex | None = None,
        dead: Iterable[SupportsIndex] = (),
    ) -> None:
        # Amounts are checked as given (sevenstud.chips): SupportsIndex, not int, so that the
        # compiled engine does not turn True into 1 or refuse 5.0 with a TypeError first.
        self.fixed_rake = None if rake is None else whole(rake, "the rake", HandError, least=0, of="chips")
        """Take exactly this rake when the pot is awarded (as a card room's history shows it),
        instead of the game's ``rake_percent``; ``None``: the game's rule."""
        if not MIN_PLAYERS <= len(stacks) <= MAX_PLAYERS:
            raise HandError("player_count", low=MIN_PLAYERS, high=MAX_PLAYERS, count=len(stacks))
        given: Sequence[object] = stacks  # each stack as given, not yet made an int
        stacks = [
            whole(stack, f"seat {seat}'s stack", HandError, least=1, of="chips")
            for seat, stack in enumerate(given)
        ]
        dead_seats: set[int] = set()
        for seat in dead:
            number = whole(seat, "a dead seat", HandError)
            if not 0 <= number < len(stacks):
                raise HandError("no_dead_seat", seat=repr(seat), last=len(stacks) - 1)
            dead_seats.add(number)
        self.dead: frozenset[int] = frozenset(dead_seats)
        """Seats whose hands are dead from the deal: players away (a tournament's TDA 30, RP-10-C).
        Each posts its ante and is dealt 3rd street; the low card posts the bring-in (nothing
        else) and is then folded, any other at once; no card is dealt to a dead hand after."""
        if deck is not None and seed is not None:
            raise HandError("give a deck or a seed, not both")
        if deck is None:
            deck = Deck.seeded(seed) if seed is not None else Deck.shuffled()
        elif deck.position:
            raise HandError("the deck has been dealt from already")
        self.game = game
        self.deck = deck
        self.auto_showdown = auto_showdown
        n = len(stacks)
        self.n = n
        self.starting_stacks: tuple[int, ...] = tuple(stacks)
        self.stacks: list[int] = list(stacks)
        self.contributed = [0] * n
        self.street_bets = [0] * n
        self.folded = [False] * n
        self.cards: list[list[Card]] = [[] for _ in range(n)]
        self.face_up: list[list[bool]] = [[] for _ in range(n)]
        self.community: Card | None = None
        self.street = 3
        self.phase = Phase.BETTING
        self.to_act: int | None = None
        self.events: list[Event] = []
        self.actions: list[tuple[int, Action]] = []
        self.awards: list[Award] = []
        self.final_pots: list[Pot] = []
        """The pots as they were awarded (after the rake), main pot first."""
        self.rake = 0
        self.shown: dict[int, HandShown] = {}
        self.mucked: set[int] = set()
        self.turned_up: set[int] = set()
        """Seats whose hands were turned face up once at most one player could still bet."""
        self._turned_up_at: int | None = None  # the index of the first HandTurnedUp event
        self._fold_order: list[int] = []
        self.bring_in_seat: int | None = None
        self.first_to_act: dict[int, int | None] = {}
        self.betting = BettingRound(game)
        """The current street's betting round."""
        self._showdown: Showdown | None = None
        """The showdown, once the betting is over and two hands or more are left."""
        self._legal: list[Action] | None = None
        self._views = ViewCache()

        for seat in range(n):
            amount = min(game.stakes.ante, self.stacks[seat])
            if amount:
                self._put(seat, amount)
                self.events.append(
                    make_event(AntePosted, (seat, amount, self.stacks[seat] == 0))
                )
        self._return_uncalled()
        self._deal_street()
        cards = self.cards
        self._low_card = game.bring_in_seat({s: cards[s][2] for s in range(n)})
        """The seat whose door card brings in (dead or all-in from the ante as it may be)."""
        low = self._low_card
        # (Every hand dead, as when everybody is away: the last one left takes the antes.)
        for seat in sorted(self.dead, key=lambda s: s == low):
            if self.folded.count(False) == 1:
                break
            if seat != low or not self._can_act(seat) or sum(map(self._can_act, range(n))) < 2:
                # The low card posts the bring-in first: where it can, and somebody can call it.
                self._kill(seat)
        if self.folded.count(False) == 1:
            self._win_by_folds()
            return
        self._start_betting()

    # ------------------------------------------------------------------ public surface

    @property
    def is_over(self) -> bool:
        """True once the pot has been awarded."""
        return self.phase is Phase.OVER

    @property
    def pot(self) -> int:
        """Every chip in the middle (this street's bets included)."""
        return sum(self.contributed)

    def pots(self) -> list[Pot]:
        """The main pot and the side pots by every level put in (:func:`~sevenstud.pots.build_pots`):
        the pots a showdown splits once the betting is over (mid-street a bet not yet called is
        a level of its own here; :meth:`pots_now` is what a table shows)."""
        return build_pots(self.contributed, [not f for f in self.folded], self._fold_order)

    def pots_now(self) -> list[Pot]:
        """The pots as a table shows them now: while betting, a side pot only where a live
        player is all-in (:func:`~sevenstud.pots.pots_as_they_stand`); at the showdown the
        pots it splits; once the hand is over, the pots as they were awarded (after the rake)."""
        if self.phase is Phase.OVER:
            return self.final_pots[:]
        if self._showdown is not None:
            return self._showdown.pots[:]
        live = [not f for f in self.folded]
        return pots_as_they_stand(self.contributed, live, self.stacks, self._fold_order)

    def legal_actions(self) -> list[Action]:
        """What the player to act may do, each with its amount; empty when the hand is over."""
        legal = self._legal  # (the cache checked here, not by a call: this is the hot path)
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def _legal_now(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def can(self, action: Action | str, seat: SupportsIndex | None = None) -> bool:
        """Whether :meth:`act` would accept the action."""
        try:
            self.verify(action, seat)
        except IllegalAction:
            return False
        return True

    def verify(self, action: Action | str, seat: SupportsIndex | None = None) -> Action:
        """The legal action meant by ``action`` (amount filled in), or :class:`IllegalAction`."""
        if seat is not None:
            seat = whole(seat, "the seat", IllegalAction)  # True is not seat 1
        if isinstance(action, str):
            action = Action.parse(action)
        legal = self._legal if self._legal is not None else self._legal_now()
        for candidate in legal:  # fast path: an action taken from legal_actions()
            if candidate is action:
                if seat is not None and seat != self.to_act:
                    break
                return candidate
        if self.to_act is None:
            raise IllegalAction("hand_over")
        if seat is not None and seat != self.to_act:
            raise IllegalAction("not_your_turn", seat=seat, other=self.to_act)
        same_kind = [a for a in legal if a.kind is action.kind]
        if action.amount is None and len(same_kind) == 1:
            return same_kind[0]
        for candidate in same_kind:
            if action.amount is not None and candidate.amount == action.amount:
                return candidate
        raise self._why_illegal(action, legal, same_kind)

    def act(self, action: Action | str, seat: SupportsIndex | None = None) -> list[Event]:
        """Apply the action of the player to act (``seat``, if given, must be that player);
        returns the events it caused as a spectator sees them (no down card dealt to anyone,
        unless its hand was turned face up: :func:`sevenstud.events.redact`); the full events
        are in :attr:`events`. Raises :class:`IllegalAction` and changes nothing when the action
        is not legal now."""
        legal_action = self.verify(action, seat)
        actor = self.to_act
        assert actor is not None
        return self._perform(actor, legal_action)

    def fold_out(self, seat: int | None = None) -> list[Event]:
        """The player to act is out of the hand: its hand is folded even with nothing to call,
        where the game's ``fold_without_bet`` is off (a player who left the table: leaving is
        not a betting action, docs/table.md). A bring-in is still posted first, and at the
        showdown a hand is shown or mucked: :class:`IllegalAction` then, as for a seat that is
        not to act. Returns what :meth:`act` returns."""
        legal = self._legal_now()
        if FOLD in legal or self.to_act is None or self.phase is Phase.SHOWDOWN:
            return self.act(FOLD, seat)  # an ordinary fold, or act()'s own refusal
        if seat is not None and seat != self.to_act:
            raise IllegalAction("not_your_turn", seat=seat, other=self.to_act)
        if self.betting.bring_in_due:
            raise IllegalAction("fold_before_bring_in", seat=self.to_act)
        return self._perform(self.to_act, FOLD)

    def act_recorded(self, action: Action | str, seat: int | None = None) -> list[Event]:
        """One action of a stored hand (a record, a replay): :meth:`act`, except that a fold
        where the game allows only a check is a player folded out of the hand
        (:meth:`fold_out`), as the table records a leaver's hand."""
        try:
            return self.act(action, seat)
        except IllegalAction:
            kind = Action.parse(action).kind if isinstance(action, str) else action.kind
            if kind is not ActionKind.FOLD:
                raise
            return self.fold_out(seat)

    def _perform(self, actor: int, legal_action: Action) -> list[Event]:
        """Apply an action already checked for ``actor``, the seat to act."""
        events = self.events
        start = len(events)
        self._legal = None
        self.actions.append((actor, legal_action))
        if self.phase is Phase.SHOWDOWN:
            self._apply_showdown(actor, legal_action)
        else:
            self._apply_bet(actor, legal_action)
        if len(events) == start + 1:
            return [events[start]]  # one event, the action itself: public
        opened = turned_up_before(events, start, self._turned_up_at)
        return redact_all(events[start:], None, opened)

    # Shorthands for people at a prompt and for tests.
    def fold(self) -> list[Event]:
        return self.act(Action(ActionKind.FOLD))

    def check(self) -> list[Event]:
        return self.act(Action(ActionKind.CHECK))

    def call(self) -> list[Event]:
        return self.act(Action(ActionKind.CALL))

    def post_bring_in(self) -> list[Event]:
        return self.act(Action(ActionKind.BRING_IN))

    def complete(self) -> list[Event]:
        return self.act(Action(ActionKind.COMPLETE))

    def bet(self, amount: int | None = None) -> list[Event]:
        return self.act(Action(ActionKind.BET, amount))

    def raise_to(self, amount: int | None = None) -> list[Event]:
        return self.act(Action(ActionKind.RAISE, amount))

    @property
    def finishing_stacks(self) -> tuple[int, ...]:
        """Each seat's chips after the hand (only once it is over)."""
        if not self.is_over:
            raise HandError("the hand is not over yet")
        return tuple(self.stacks)

    def up_cards(self, seat: int) -> list[Card]:
        """The seat's face-up cards, in dealing order (its board)."""
        return [c for c, up in zip(self.cards[seat], self.face_up[seat], strict=True) if up]

    def seven_cards(self, seat: int) -> list[Card]:
        """The seat's cards for the showdown: its own plus the community card, if any."""
        return with_community(self.cards[seat], self.community)

    def view(self, seat: SupportsIndex | None, since: SupportsIndex = 0) -> SeatView:
        """What ``seat`` may know (``None``: a spectator): never another seat's down cards,
        unless that seat showed them down or its hand was turned face up (:class:`HandTurnedUp`:
        from then on its cards still to come are shown too). ``events`` are those from
        ``since`` on, as :func:`sevenstud.events.redact` lets this viewer see them."""
        events = self.events_seen(seat, since)  # the seat and since checked there
        viewer = None if seat is None else int(seat)
        cards, face_up = self._card_table(viewer)
        return SeatView(
            seat=viewer,
            game=self.game.name,
            street=self.street,
            phase=self.phase,
            to_act=self.to_act,
            stacks=tuple(self.stacks),
            bets=tuple(self.street_bets),
            pot=sum(self.contributed),
            pots=tuple(self.pots_now()),
            folded=tuple(self.folded),
            cards=cards,
            face_up=face_up,
            community=self.community,
            legal_actions=tuple(self._legal_now())
            if viewer is not None and viewer == self.to_act
            else (),
            events=events,
            version=len(self.events),
        )

    def card_table(self, seat: SupportsIndex | None) -> CardTable:
        """:meth:`view`'s ``cards`` and ``face_up`` alone, without the rest of the view (a
        learning environment's observation reads them for every seat after every action): the
        same tuples, redacted the same way, rebuilt only when a card is dealt, shown or turned
        face up."""
        if seat is not None and (not is_whole(seat) or not 0 <= seat < self.n):
            raise HandError(f"no seat {seat!r} at this hand (seats 0 to {self.n - 1}, or None)")
        return self._card_table(None if seat is None else int(seat))

    def _card_table(self, viewer: int | None) -> CardTable:
        known = self._views.tables.get(viewer)  # (made once per change of the cards)
        if known is not None:
            return known
        return self._views.table_for(
            viewer, self.cards, self.face_up, self.turned_up.union(self.shown)
        )

    def events_seen(self, seat: SupportsIndex | None, since: SupportsIndex = 0) -> tuple[Event, ...]:
        """The events from ``since`` on as ``seat`` may see them: :meth:`view`'s ``events``
        alone, without the rest of the view (a card room reads them for every watcher after
        every action)."""
        # As given (SupportsIndex: compiled, an int argument would be converted first).
        if not is_whole(since) or since < 0:
            raise HandError(f"since must be an event number of 0 or more, not {since!r}")
        if seat is not None and (not is_whole(seat) or not 0 <= seat < self.n):
            raise HandError(f"no seat {seat!r} at this hand (seats 0 to {self.n - 1}, or None)")
        viewer = None if seat is None else int(seat)
        return self._views.events_for(viewer, self.events, int(since), self._turned_up_at)

    def clone(self) -> Hand:
        """An independent copy of the hand, to play on apart from this one (a search, a
        simulation): far cheaper than ``copy.deepcopy``. The lists and sets are copied; the
        cards, actions, events and the game (all immutable) and the deck's order are shared."""
        new = Hand.__new__(Hand)
        new.fixed_rake = self.fixed_rake
        new.dead = self.dead
        new._low_card = self._low_card
        new.game = self.game
        new.deck = _same_deck(self.deck)
        new.auto_showdown = self.auto_showdown
        new.n = self.n
        new.starting_stacks = self.starting_stacks
        new.stacks = self.stacks[:]
        new.contributed = self.contributed[:]
        new.street_bets = self.street_bets[:]
        new.folded = self.folded[:]
        new.cards = [c[:] for c in self.cards]
        new.face_up = [f[:] for f in self.face_up]
        new.community = self.community
        new.street = self.street
        new.phase = self.phase
        new.to_act = self.to_act
        new.events = self.events[:]
        new.actions = self.actions[:]
        new.awards = self.awards[:]
        new.final_pots = self.final_pots[:]
        new.rake = self.rake
        new.shown = dict(self.shown)
        new.mucked = set(self.mucked)
        new.turned_up = set(self.turned_up)
        new._turned_up_at = self._turned_up_at
        new._fold_order = self._fold_order[:]
        new.bring_in_seat = self.bring_in_seat
        new.first_to_act = dict(self.first_to_act)
        new.betting = self.betting.copy()
        new._showdown = self._showdown.copy() if self._showdown is not None else None
        new._legal = self._legal  # never changed in place: act() drops it for a new one
        new._views = self._views.copy()
        return new

    def __deepcopy__(self, memo: dict[int, object]) -> Hand:
        # A deep copy is a clone: what they share is immutable. (copy's own way rebuilds an
        # object from its __dict__, which the compiled engine's Hand does not have.)
        return self.clone()

    @classmethod
    def replay(
        cls,
        game: Game,
        stacks: Sequence[int],
        deck: Deck | Sequence[int],
        actions: Iterable[Action | str | tuple[int, Action | str]],
        *,
        auto_showdown: bool = True,
        dead: Iterable[int] = (),
    ) -> Hand:
        """The hand played again from its deck and its actions (``(seat, action)`` pairs are
        checked against the seat to act) and its dead seats."""
        if not isinstance(deck, Deck):
            deck = Deck(deck)
        hand = cls(game, stacks, deck, auto_showdown=auto_showdown, dead=dead)
        for item in actions:
            if isinstance(item, tuple):
                hand.act_recorded(item[1], item[0])
            else:
                hand.act_recorded(item)
        return hand

    def __repr__(self) -> str:
        state = (
            "over" if self.is_over else f"{STREET_NAMES[self.street]}, seat {self.to_act} to act"
        )
        return f"<Hand {self.game.name} {self.n} players, pot {self.pot}, {state}>"

    # ------------------------------------------------------------------ betting

    def _can_act(self, seat: int) -> bool:
        return not self.folded[seat] and self.stacks[seat] > 0

    def _live(self) -> list[int]:
        return [s for s in range(self.n) if not self.folded[s]]

    def _put(self, seat: int, amount: int) -> None:
        self.stacks[seat] -= amount
        self.contributed[seat] += amount
        self.street_bets[seat] += amount

    def _compute_legal(self) -> list[Action]:
        seat = self.to_act
        if seat is None:
            return []
        if self.phase is Phase.SHOWDOWN:
            return [SHOW, MUCK]
        legal = self.betting.legal(seat, self.stacks, self.street_bets, self.folded)
        if seat in self.dead:  # a dead hand posts the bring-in, and nothing else
            return [a for a in legal if a.kind is ActionKind.BRING_IN]
        return legal

    def _why_illegal(self, action: Action, legal: list[Action], same_kind: list[Action]) -> IllegalAction:
        seat = self.to_act
        options = ", ".join(str(a) for a in legal)
        if self.phase is Phase.SHOWDOWN:
            return IllegalAction("showdown_show_or_muck", seat=seat, action=action)
        if not same_kind:
            reason = self.betting.why_not(action.kind, seat or 0, self.street_bets)
            return IllegalAction("action_not_legal", seat=seat, action=action, reason=reason, options=options)
        if len(same_kind) > 1 and action.amount is None:
            amounts = " or ".join(str(a.amount) for a in same_kind)
            return IllegalAction(
                "amount_needed", seat=seat, kind=action.kind.value, amounts=amounts, options=options
            )
        return IllegalAction(
            "amount_must_be", seat=seat, action=action, amount=same_kind[0].amount, options=options
        )

    def _apply_bet(self, seat: int, action: Action) -> None:
        kind = action.kind
        betting = self.betting
        stacks, folded = self.stacks, self.folded
        chips = 0
        all_in = False
        if kind is ActionKind.FOLD:
            folded[seat] = True
            self._fold_order.append(seat)
            betting.folded_to(folded.count(False))
            if betting.bring_in_due:  # the low card all-in from the ante: the next may open
                betting.pass_bring_in(seat, stacks, folded)
        elif kind is not ActionKind.CHECK:
            amount = action.amount
            assert amount is not None
            chips = amount - self.street_bets[seat]
            self._put(seat, chips)
            all_in = stacks[seat] == 0
            if kind is ActionKind.BRING_IN:
                betting.bring_in(seat, amount, stacks, folded)
            elif kind in AGGRESSIVE_KINDS:
                betting.aggress(seat, kind, amount, stacks, self.street_bets, folded)
        self.events.append(make_event(ActionTaken, (seat, self.street, action, all_in, chips)))
        if seat in self.dead and not folded[seat]:  # its bring-in posted, the dead hand is out
            self._kill(seat)
            kind = ActionKind.FOLD
        if kind is ActionKind.FOLD:
            if folded.count(False) == 1:
                betting.pending.clear()
                self._win_by_folds()
                return
            betting.stop_if_nobody_can_bet(stacks, self.street_bets, folded)
        elif all_in:
            betting.stop_if_nobody_can_bet(stacks, self.street_bets, folded)
        self.to_act = betting.next_to_act(seat, self.n)
        if self.to_act is None:
            self._end_round()

    def _start_betting(self) -> None:
        """Open the betting round of the current street, or deal on when nobody can bet."""
        betting = self.betting
        while True:
            able = [s for s in range(self.n) if self._can_act(s)]
            self.street_bets = [0] * self.n
            betting.start(self.street, self.folded.count(False))
            if len(able) >= 2:
                if self.street == 3:
                    first = self._bring_in_player()
                    self.bring_in_seat = first
                    # The low card all-in from the ante (TDA RP-10-E): the one to its left may
                    # bring in, complete or fold.
                    optional = first != self._low_card and self.game.low_card_all_in == "left_may_open"
                    betting.open_with_bring_in(first, optional=optional)
                else:
                    first = self._first_by_board()
                    betting.open_to(
                        able,
                        self.street == 4 and self.game.double_bet_on_open_pair and self._open_pair(),
                    )
                self.first_to_act[self.street] = first
                self.events.append(make_event(StreetStarted, (self.street, first)))
                self.to_act = first
                return
            self.first_to_act[self.street] = None
            self.events.append(make_event(StreetStarted, (self.street, None)))
            self._turn_up()
            if self.street == 7:
                self._start_showdown()
                return
            self.street += 1
            self._deal_street()

    def _end_round(self) -> None:
        self._return_uncalled()
        self.betting.double_bet = False
        if not self.turned_up and self.game.all_in_face_up:
            stacks, folded = self.stacks, self.folded
            if sum(1 for s in range(self.n) if stacks[s] and not folded[s]) <= 1:
                self._turn_up()
        if self.street == 7:
            self._start_showdown()
            return
        self.street += 1
        self._deal_street()
        self._start_betting()

    def _return_uncalled(self) -> None:
        # One pass for the top contribution, its seat and the next highest (equal to the top
        # when two seats share it: then nothing is uncalled).
        contributed = self.contributed
        top = second = -1
        seat = 0
        for s in range(self.n):
            chips = contributed[s]
            if chips > top:
                second, top, seat = top, chips, s
            elif chips > second:
                second = chips
        excess = top - second
        if excess > 0 and not self.folded[seat]:  # a dead hand's bring-in is dead money
            self.stacks[seat] += excess
            self.contributed[seat] -= excess
            self.street_bets[seat] = max(0, self.street_bets[seat] - excess)
            self.events.append(make_event(BetReturned, (seat, excess)))

    def _turn_up(self) -> None:
        """Betting is over for the hand: turn every live hand face up (``all_in_face_up``)."""
        if self.turned_up or not self.game.all_in_face_up:
            return
        live = self._live()
        if len(live) < 2:
            return
        self._turned_up_at = len(self.events)
        self._views.cards_changed()
        for seat in live:
            self.turned_up.add(seat)
            self.events.append(make_event(HandTurnedUp, (seat, tuple(self.cards[seat]))))

    # ------------------------------------------------------------------ dealing and boards

    def _deal_street(self) -> None:
        live = self._live()
        deck = self.deck
        street = self.street
        if street == 3:
            rounds: tuple[bool, ...] = (False, False, True)  # two down, then the door card
        elif deck.remaining() < len(live):
            # Not enough cards for everybody (eight players): one community card for all.
            self.community = deck.deal()
            self.events.append(make_event(CommunityCardDealt, (self.community,)))
            return
        else:
            rounds = (street != 7,)
        self._views.cards_changed()
        cards, face_ups, events, deal = self.cards, self.face_up, self.events, deck.deal
        for face_up in rounds:
            for seat in live:
                card = deal()
                cards[seat].append(card)
                face_ups[seat].append(face_up)
                events.append(card_dealt(seat, street, card, face_up))

    def _kill(self, seat: int) -> None:
        """A dead hand (:attr:`dead`) is folded out of turn: no card is dealt to it again, and
        it never wins a pot."""
        self.folded[seat] = True  # (not in _fold_order: its chips are dead money, pots.build_pots)
        self.betting.folded_to(self.folded.count(False))
        self.betting.pending.discard(seat)
        self.betting.may_raise.discard(seat)
        self.events.append(make_event(ActionTaken, (seat, self.street, FOLD, False, 0)))

    def _bring_in_player(self) -> int:
        chosen = self._low_card
        # A player all-in from the ante cannot bring in: the next player clockwise does (or, the
        # game's low_card_all_in "left_may_open", may).
        for step in range(self.n):
            seat = (chosen + step) % self.n
            if self._can_act(seat):
                return seat
        raise AssertionError("nobody can bring in")  # unreachable: two players can act

    def _first_by_board(self) -> int:
        live = self._live()
        if self.game.first_actor_all_in == "best_active":
            live = [s for s in live if self._can_act(s)]
        cards = self.cards
        # The up cards: the door card and 4th to 6th street.
        best = self.game.best_board_seat({s: cards[s][2:6] for s in live})
        for step in range(self.n):
            seat = (best + step) % self.n
            if self._can_act(seat):
                return seat
        raise AssertionError("nobody can act")  # unreachable

    def _open_pair(self) -> bool:
        for seat in self._live():
            up = self.up_cards(seat)
            if len({c >> 2 for c in up}) < len(up):  # c >> 2: its rank (cards.py)
                return True
        return False

    # ------------------------------------------------------------------ showdown and awards

    def _win_by_folds(self) -> None:
        self.to_act = None
        self._return_uncalled()
        self._award({s: contender(0, 0, 0) for s in self._live()})

    def _first_to_show(self) -> int:
        """Who shows first: the last aggressor on 7th street, else the player who would act
        first there (TDA 17-A, Robert's Rules), the best board where nobody could bet."""
        live = self._live()
        aggressor = self.betting.last_aggressor
        if aggressor is not None and aggressor in live:
            return aggressor
        first = self.first_to_act.get(self.street)
        if first is not None and first in live:
            return first
        cards = self.cards
        return self.game.best_board_seat({s: cards[s][2:6] for s in live})

    def _start_showdown(self) -> None:
        self.phase = Phase.SHOWDOWN
        order = showdown_order(self._live(), self._first_to_show())
        self._showdown = Showdown(self.game, self.pots(), order, self.cards, self.community)
        self._next_to_show()

    def _next_to_show(self) -> None:
        showdown = self._showdown
        assert showdown is not None
        while (seat := showdown.next_to_show(self.mucked)) is not None:
            if not self.auto_showdown:
                self.to_act = seat
                return
            showdown.order.pop(0)
            if not self.shown or showdown.could_win(seat, self.shown):
                self._show(seat)
            else:
                self.mucked.add(seat)
                self.events.append(make_event(HandMucked, (seat,)))
                showdown.claim_lone_pots(self.mucked)
        self.to_act = None
        self._award(showdown.award_contenders(self._live(), self.shown, self.mucked))

    def _show(self, seat: int) -> None:
        assert self._showdown is not None
        high, low = self._showdown.hand_names(seat)
        event: HandShown = make_event(HandShown, (seat, tuple(self.cards[seat]), high, low))
        self._views.cards_changed()
        self.shown[seat] = event
        self.events.append(event)

    def _apply_showdown(self, seat: int, action: Action) -> None:
        showdown = self._showdown
        assert showdown is not None
        showdown.order.remove(seat)
        if action.kind is ActionKind.SHOW:
            self._show(seat)
        else:
            self.mucked.add(seat)
            self.events.append(make_event(HandMucked, (seat,)))
            self.actions[-1] = (seat, action)
            showdown.claim_lone_pots(self.mucked)
        self._next_to_show()

    def _odd_chip_in_hand(self) -> tuple[list[int], list[int] | None]:
        """The seats in the order an odd chip goes to them by the five cards each shown hand
        plays (TDA 20-B): for the high hands, and for the low hands where the game has them."""
        game = self.game
        shown = [s for s in range(self.n) if s in self.shown]
        seven = {s: with_community(self.cards[s], self.community) for s in shown}

        def order(low: bool) -> list[int]:
            keys = {s: game.five_card_order(seven[s], low=low) for s in shown}
            return sorted(range(self.n), key=lambda s: keys.get(s, ()), reverse=True)

        return order(not game.has_high), order(True) if game.has_low else None

    def _award(self, contenders: dict[int, Contender]) -> None:
        # At a showdown the pots are those built when it began: no chip moves after betting.
        showdown = self._showdown
        game = self.game
        rake, pots = take_rake(
            game, list(showdown.pots) if showdown is not None else self.pots(), self.street, self.fixed_rake
        )
        if rake:
            self.rake = rake
            self.events.append(make_event(RakeTaken, (rake,)))
        self.final_pots = pots
        order = game.odd_chip_order(self.cards)
        low_order = None
        if game.odd_chip == "high_card_in_hand" and showdown is not None:
            order, low_order = self._odd_chip_in_hand()
        awards = award_showdown(
            pots,
            contenders,
            showdown.claims if showdown is not None else {},
            high=game.has_high,
            low=game.has_low,
            odd_chip_order=order,
            low_odd_chip_order=low_order,
        )
        for award in awards:
            self.stacks[award.seat] += award.amount
            self.events.append(
                make_event(PotAwarded, (award.seat, award.amount, award.pot, award.share))
            )
        self.awards = awards
        self.contributed = [0] * self.n
        self.street_bets = [0] * self.n
        self.phase = Phase.OVER
        self.to_act = None
        self.events.append(make_event(HandEnded, (tuple(self.stacks),)))
