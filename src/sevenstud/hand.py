"""One hand of stud as a deterministic state machine.

A :class:`Hand` is made from a game, the players' stacks (seat 0 is the first seat clockwise
from the dealer, so "the lowest seat" is the one nearest the dealer's left) and a deck. It posts
the antes and deals 3rd street at once, then waits for the player to act:
:meth:`Hand.legal_actions` lists what that player may do, with amounts, and :meth:`Hand.act`
applies one of them or raises :class:`IllegalAction` with the reason, changing nothing.
Dealing, the bring-in choice, the first actor of each street, uncalled bets, the showdown and
the awards happen by themselves. Every change is recorded as an event; :meth:`Hand.view` gives
a seat exactly what it may see.

Randomness enters only through the deck, so a hand is replayed exactly from its game, stacks,
deck and actions (:meth:`Hand.replay`).

>>> from sevenstud.games import StudHiLo, Stakes
>>> from sevenstud.cards import Deck
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
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, NamedTuple

from sevenstud import evaluate
from sevenstud.cards import Card, Deck, format_cards
from sevenstud.games import SUIT_ORDER_STANDARD, Game
from sevenstud.pots import Award, Contender, Pot, build_pots, settle, split_rake

STREET_NAMES = {3: "3rd street", 4: "4th street", 5: "5th street", 6: "6th street", 7: "7th street"}
MIN_PLAYERS, MAX_PLAYERS = 2, 8


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the hand is left as it was."""


class HandError(ValueError):
    """A hand that cannot be set up as asked (stacks, players or deck)."""


class ActionKind(StrEnum):
    """What a player can do."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BRING_IN = "bring-in"
    COMPLETE = "complete"
    BET = "bet"
    RAISE = "raise"
    SHOW = "show"
    MUCK = "muck"


_AMOUNTED = (
    ActionKind.CALL,
    ActionKind.BRING_IN,
    ActionKind.COMPLETE,
    ActionKind.BET,
    ActionKind.RAISE,
)
_AGGRESSIVE = (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE)


@dataclass(frozen=True, slots=True)
class Action:
    """An action; ``amount`` is the player's total for the street after it (as PHH's ``cbr`` and
    PokerStars' "raises to" count), ``None`` when it is implied (fold, check, show, muck) or left
    for the hand to fill in from the legal actions.

    >>> Action.parse("raise to 20"), Action.parse("call")
    (Action(kind=<ActionKind.RAISE: 'raise'>, amount=20), Action(kind=<ActionKind.CALL: 'call'>, amount=None))
    """

    kind: ActionKind
    amount: int | None = None

    @classmethod
    def parse(cls, text: str) -> Action:
        """``"fold"``, ``"check"``, ``"call"``, ``"bring-in"``, ``"complete"``, ``"bet 10"``,
        ``"raise to 20"``, ``"show"``, ``"muck"``; amounts are optional."""
        words = text.strip().lower().replace("_", "-").split()
        if not words:
            raise IllegalAction("an empty action: expected e.g. 'call' or 'raise to 20'")
        aliases = {
            "bringin": "bring-in",
            "bring": "bring-in",
            "x": "check",
            "f": "fold",
            "c": "call",
        }
        name = aliases.get(words[0], words[0])
        if name == "bring-in" and words[1:2] == ["in"]:
            words = words[1:]
        try:
            kind = ActionKind(name)
        except ValueError:
            raise IllegalAction(
                f"unknown action {text!r}: expected one of "
                + ", ".join(k.value for k in ActionKind)
            ) from None
        rest = [w for w in words[1:] if w != "to"]
        if not rest:
            return cls(kind)
        if len(rest) != 1 or not rest[0].isdigit():
            raise IllegalAction(f"bad amount in {text!r}: expected a whole number of chips")
        if kind not in _AMOUNTED:
            raise IllegalAction(f"{kind.value} takes no amount ({text!r})")
        return cls(kind, int(rest[0]))

    def __str__(self) -> str:
        if self.amount is None or self.kind not in _AMOUNTED:
            return self.kind.value
        if self.kind in (ActionKind.RAISE, ActionKind.COMPLETE):
            return f"{self.kind.value} to {self.amount}"
        return f"{self.kind.value} {self.amount}"


_ACTIONS: dict[tuple[ActionKind, int], Action] = {}


def _action(kind: ActionKind, amount: int) -> Action:
    """The (shared, immutable) action of that kind and amount: legal actions are made often."""
    action = _ACTIONS.get((kind, amount))
    if action is None:
        action = _ACTIONS[kind, amount] = Action(kind, amount)
    return action


_FOLD = Action(ActionKind.FOLD)
_CHECK = Action(ActionKind.CHECK)
_SHOW = Action(ActionKind.SHOW)
_MUCK = Action(ActionKind.MUCK)


# Events: everything that happens, in order. They are named tuples (immutable, and cheap to
# make: a hand records about fifty). Down cards dealt to another seat are hidden in views.


class AntePosted(NamedTuple):
    """A seat posts its ante (all-in when that was all it had)."""

    seat: int
    amount: int
    all_in: bool


class CardDealt(NamedTuple):
    """A card to a seat; ``card`` is None in a view that may not see it."""

    seat: int
    street: int
    card: Card | None
    face_up: bool


class CommunityCardDealt(NamedTuple):
    """The deck ran out on 7th street: one card face up in the middle, everybody's seventh."""

    card: Card


class StreetStarted(NamedTuple):
    """A betting round opens: the bring-in player on 3rd street, the best board later; None
    when nobody can bet."""

    street: int
    first_to_act: int | None


class ActionTaken(NamedTuple):
    """A player's action, with its amount filled in: ``action.amount`` is the seat's street
    total after it, ``chips`` what this action put in (0 for a fold or a check), so that a
    reader needs no running count of the street's bets."""

    seat: int
    street: int
    action: Action
    all_in: bool
    chips: int


class BetReturned(NamedTuple):
    """A bet (or an ante) that nobody called goes back to its owner."""

    seat: int
    amount: int


class HandTurnedUp(NamedTuple):
    """Betting is over because at most one player can still bet: the seat's hand is turned face
    up at once (the game's ``all_in_face_up``), one event per live seat, before the rest of the
    cards are dealt; from then on every view shows that seat's cards, the ones still to come
    included. The showdown that follows is the usual one."""

    seat: int
    cards: tuple[Card, ...]


class HandShown(NamedTuple):
    """A seat shows its cards at the showdown, with the names of its high and low."""

    seat: int
    cards: tuple[Card, ...]
    high: str | None
    low: str | None


class HandMucked(NamedTuple):
    """A seat gives up its claim at the showdown without showing."""

    seat: int


class RakeTaken(NamedTuple):
    """The house's rake, taken before the pot is split."""

    amount: int


class PotAwarded(NamedTuple):
    """Chips from a pot (0 main, 1.. side pots) to a seat, whole or one half of it."""

    seat: int
    amount: int
    pot: int
    share: Literal["whole", "high", "low"]


class HandEnded(NamedTuple):
    """The hand is over: every seat's chips."""

    stacks: tuple[int, ...]


Event = (
    AntePosted
    | CardDealt
    | CommunityCardDealt
    | StreetStarted
    | ActionTaken
    | BetReturned
    | HandTurnedUp
    | HandShown
    | HandMucked
    | RakeTaken
    | PotAwarded
    | HandEnded
)


class Phase(StrEnum):
    """Where the hand stands: betting, the showdown (seats show or muck in turn), or over. (Not
    "complete", which is the action of completing the bring-in.)"""

    BETTING = "betting"
    SHOWDOWN = "showdown"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat (or a spectator, ``seat=None``) may know of the hand now."""

    seat: int | None
    game: str
    street: int
    phase: Phase
    to_act: int | None
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    """What each seat has put in on this street."""
    pot: int
    """Every chip in the middle, this street's bets included."""
    folded: tuple[bool, ...]
    cards: tuple[tuple[Card | None, ...], ...]
    """Each seat's cards in dealing order; ``None`` for a card this viewer may not see."""
    face_up: tuple[tuple[bool, ...], ...]
    community: Card | None
    legal_actions: tuple[Action, ...]
    """Filled only when the viewer is the seat to act."""
    events: tuple[Event, ...]
    """Events from ``since`` on, with hidden cards blanked."""
    version: int
    """How many events the hand has recorded; ask ``view(seat, since=version)`` for what follows."""


class Hand:
    """One hand of stud. See the module's documentation."""

    def __init__(
        self,
        game: Game,
        stacks: Sequence[int],
        deck: Deck | None = None,
        *,
        seed: int | str | None = None,
        auto_showdown: bool = True,
        rake: int | None = None,
    ) -> None:
        if rake is not None and (not isinstance(rake, int) or isinstance(rake, bool) or rake < 0):
            raise HandError(f"the rake must be a whole number of chips, not {rake!r}")
        self.fixed_rake = rake
        """Take exactly this rake when the pot is awarded (as a card room's history shows it),
        instead of the game's ``rake_percent``; ``None``: the game's rule."""
        if not MIN_PLAYERS <= len(stacks) <= MAX_PLAYERS:
            raise HandError(
                f"stud is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(stacks)}"
            )
        for seat, stack in enumerate(stacks):
            if not isinstance(stack, int) or isinstance(stack, bool) or stack <= 0:
                raise HandError(
                    f"seat {seat} needs a positive whole number of chips, not {stack!r}"
                )
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
        self._claims: dict[int, int] = {}  # showdown: pot index -> its last claimant
        self.bring_in_seat: int | None = None
        self.first_to_act: dict[int, int | None] = {}
        # The betting round.
        self._current = 0  # the highest street total
        self._level = 0  # the street total of the last full bet: the next raise adds to it
        self._bets_made = 0  # bets and raises that count toward the cap
        self._uncapped = False  # heads-up before the cap was reached, with uncapped_heads_up
        self._completed = False  # 3rd street: the bring-in has been completed
        self._bring_in_due = False
        self._double_bet = False  # 4th street in stud with an open pair: the big bet is allowed
        self._big_bet_made = False
        self._pending: set[int] = set()  # seats that still must act this round
        self._may_raise: set[int] = set()  # seats the betting is open to
        self._last_aggressor: int | None = None
        self._showdown_order: list[int] = []
        self._contenders: dict[int, Contender] = {}  # each showdown hand evaluated once
        self._showdown_pots: list[Pot] | None = None
        self._legal: list[Action] | None = None

        for seat in range(n):
            amount = min(game.stakes.ante, self.stacks[seat])
            if amount:
                self._put(seat, amount)
                self.events.append(AntePosted(seat, amount, self.stacks[seat] == 0))
        self._return_uncalled()
        self._deal_street()
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
        """The main pot and the side pots as they stand."""
        return build_pots(self.contributed, [not f for f in self.folded], self._fold_order)

    def legal_actions(self) -> list[Action]:
        """What the player to act may do, each with its amount; empty when the hand is over."""
        return list(self._legal_now())

    def _legal_now(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def can(self, action: Action | str, seat: int | None = None) -> bool:
        """Whether :meth:`act` would accept the action."""
        try:
            self.verify(action, seat)
        except IllegalAction:
            return False
        return True

    def verify(self, action: Action | str, seat: int | None = None) -> Action:
        """The legal action meant by ``action`` (amount filled in), or :class:`IllegalAction`."""
        if isinstance(action, str):
            action = Action.parse(action)
        legal = self._legal if self._legal is not None else self._legal_now()
        for candidate in legal:  # fast path: an action taken from legal_actions()
            if candidate is action:
                if seat is not None and seat != self.to_act:
                    break
                return candidate
        if self.to_act is None:
            raise IllegalAction("the hand is over: nobody is to act")
        if seat is not None and seat != self.to_act:
            raise IllegalAction(f"seat {seat} cannot act now: it is seat {self.to_act}'s turn")
        same_kind = [a for a in legal if a.kind is action.kind]
        if action.amount is None and len(same_kind) == 1:
            return same_kind[0]
        if action.amount is not None and any(a.amount == action.amount for a in same_kind):
            return Action(action.kind, action.amount)
        raise IllegalAction(self._why_illegal(action, legal, same_kind))

    def act(self, action: Action | str, seat: int | None = None) -> list[Event]:
        """Apply the action of the player to act (``seat``, if given, must be that player);
        returns the events it caused. Raises :class:`IllegalAction` and changes nothing when the
        action is not legal now."""
        legal_action = self.verify(action, seat)
        start = len(self.events)
        actor = self.to_act
        assert actor is not None
        self._legal = None
        self.actions.append((actor, legal_action))
        if self.phase is Phase.SHOWDOWN:
            self._apply_showdown(actor, legal_action)
        else:
            self._apply_bet(actor, legal_action)
        return self.events[start:]

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
        cards = list(self.cards[seat])
        if self.community is not None:
            cards.append(self.community)
        return cards

    def view(self, seat: int | None, since: int = 0) -> SeatView:
        """What ``seat`` may know (``None``: a spectator): never another seat's down cards,
        unless that seat showed them down or its hand was turned face up (:class:`HandTurnedUp`:
        from then on its cards still to come are shown too)."""
        shown = set(self.shown) | self.turned_up
        cards = tuple(
            tuple(
                c if (up or s == seat or s in shown) else None
                for c, up in zip(self.cards[s], self.face_up[s], strict=True)
            )
            for s in range(self.n)
        )
        turned, at = self.turned_up, self._turned_up_at
        events = tuple(
            CardDealt(e.seat, e.street, None, False)
            if isinstance(e, CardDealt)
            and not e.face_up
            and e.seat != seat
            and (at is None or i < at or e.seat not in turned)
            else e
            for i, e in enumerate(self.events[since:], since)
        )
        return SeatView(
            seat=seat,
            game=self.game.name,
            street=self.street,
            phase=self.phase,
            to_act=self.to_act,
            stacks=tuple(self.stacks),
            bets=tuple(self.street_bets),
            pot=self.pot,
            folded=tuple(self.folded),
            cards=cards,
            face_up=tuple(tuple(f) for f in self.face_up),
            community=self.community,
            legal_actions=tuple(self.legal_actions())
            if seat is not None and seat == self.to_act
            else (),
            events=events,
            version=len(self.events),
        )

    @classmethod
    def replay(
        cls,
        game: Game,
        stacks: Sequence[int],
        deck: Deck | Sequence[int],
        actions: Iterable[Action | str | tuple[int, Action | str]],
        *,
        auto_showdown: bool = True,
    ) -> Hand:
        """The hand played again from its deck and its actions (``(seat, action)`` pairs are
        checked against the seat to act)."""
        if not isinstance(deck, Deck):
            deck = Deck(deck)
        hand = cls(game, stacks, deck, auto_showdown=auto_showdown)
        for item in actions:
            if isinstance(item, tuple):
                hand.act(item[1], item[0])
            else:
                hand.act(item)
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

    def _increments(self) -> list[int]:
        stakes = self.game.stakes
        if self.street >= 5:
            return [stakes.big_bet]
        if self._double_bet:
            return [stakes.big_bet] if self._big_bet_made else [stakes.small_bet, stakes.big_bet]
        return [stakes.small_bet]

    def _raise_could_be_called(self, seat: int) -> bool:
        """Whether another player still in could put in more than the current bet: if nobody
        can, a bet or raise would only come back uncalled, and the rules do not allow it."""
        stacks, bets, folded, current = self.stacks, self.street_bets, self.folded, self._current
        for s in range(self.n):
            if s != seat and stacks[s] and not folded[s] and bets[s] + stacks[s] > current:
                return True
        return False

    def _capped(self) -> bool:
        # Heads-up before the cap was reached: no cap (the option); a cap once reached stays.
        return not self._uncapped and self._bets_made >= self.game.cap

    def _compute_legal(self) -> list[Action]:
        seat = self.to_act
        if seat is None:
            return []
        if self.phase is Phase.SHOWDOWN:
            return [_SHOW, _MUCK]
        stack = self.stacks[seat]
        mine = self.street_bets[seat]
        most = mine + stack
        stakes = self.game.stakes
        if self._bring_in_due:
            actions = [_action(ActionKind.BRING_IN, min(stakes.bring_in, most))]
            if most > stakes.bring_in and stakes.small_bet > stakes.bring_in:
                actions.append(_action(ActionKind.COMPLETE, min(stakes.small_bet, most)))
            return actions
        to_call = self._current - mine
        actions = []
        if to_call > 0:
            actions.append(_FOLD)
            actions.append(_action(ActionKind.CALL, mine + min(to_call, stack)))
        else:
            if self.game.fold_without_bet:
                actions.append(_FOLD)
            actions.append(_CHECK)
        if (
            stack > to_call
            and seat in self._may_raise
            and not self._capped()
            and self._raise_could_be_called(seat)
        ):
            if self.street == 3 and not self._completed:
                actions.append(_action(ActionKind.COMPLETE, min(stakes.small_bet, most)))
            else:
                # A raise adds a full bet to the last full bet, not to a short all-in above it:
                # facing bet 10 and an all-in to 14, the raise is to 20 (Robert's Rules, 6).
                kind = ActionKind.BET if self._current == 0 else ActionKind.RAISE
                increments = self._increments()
                level = self._level
                if len(increments) == 1:
                    actions.append(_action(kind, min(level + increments[0], most)))
                else:
                    targets = sorted({min(level + inc, most) for inc in increments})
                    actions.extend(_action(kind, t) for t in targets)
        return actions

    def _why_illegal(self, action: Action, legal: list[Action], same_kind: list[Action]) -> str:
        seat = self.to_act
        options = ", ".join(str(a) for a in legal)
        if self.phase is Phase.SHOWDOWN:
            return f"seat {seat} is at the showdown and may only show or muck (not {action})"
        if not same_kind:
            kind = action.kind
            if kind is ActionKind.CHECK and self._current > self.street_bets[self.to_act or 0]:
                reason = f"cannot check facing a bet of {self._current}"
            elif kind is ActionKind.FOLD and not self._bring_in_due:
                reason = "nothing to call: check instead of folding (this game's fold_without_bet is off)"
            elif kind in _AGGRESSIVE and self._capped():
                reason = f"the betting is capped ({self.game.cap} bets and raises made)"
            elif kind in _AGGRESSIVE and seat not in self._may_raise and not self._bring_in_due:
                reason = "the betting was not reopened to this seat (a short all-in raise)"
            elif self._bring_in_due:
                reason = "the bring-in must be posted or completed first"
            else:
                reason = f"{kind.value} is not possible now"
            return f"seat {seat} cannot {action}: {reason} (legal: {options})"
        if len(same_kind) > 1 and action.amount is None:
            amounts = " or ".join(str(a.amount) for a in same_kind)
            return f"seat {seat} must say how much to {action.kind.value}: {amounts} (legal: {options})"
        return f"seat {seat} cannot {action}: the amount must be {same_kind[0].amount} (legal: {options})"

    def _apply_bet(self, seat: int, action: Action) -> None:
        kind = action.kind
        amount = action.amount
        chips = 0
        if kind is ActionKind.FOLD:
            self.folded[seat] = True
            self._fold_order.append(seat)
            if (
                self.game.uncapped_heads_up
                and self.folded.count(False) == 2
                and self._bets_made < self.game.cap
            ):
                self._uncapped = True
        elif kind is ActionKind.CHECK:
            pass
        else:
            assert amount is not None
            previous = self._current
            chips = amount - self.street_bets[seat]
            self._put(seat, chips)
            if kind is ActionKind.BRING_IN:
                self._bring_in_due = False
                self._current = max(previous, amount)
                if amount >= self.game.stakes.small_bet:  # a full-bet bring-in is the completion
                    self._completed = True
                    self._bets_made += 1
                    self._level = amount
                stacks, folded = self.stacks, self.folded
                self._pending = {
                    s for s in range(self.n) if s != seat and stacks[s] > 0 and not folded[s]
                }
                self._may_raise = set(self._pending)
            elif kind in _AGGRESSIVE:
                self._raise(seat, kind, previous, amount)
        all_in = (
            self.stacks[seat] == 0 and kind is not ActionKind.FOLD and kind is not ActionKind.CHECK
        )
        self.events.append(ActionTaken(seat, self.street, action, all_in, chips))
        self._pending.discard(seat)
        self._may_raise.discard(seat)
        if kind is ActionKind.FOLD:
            if self.folded.count(False) == 1:
                self._win_by_folds()
                return
            self._stop_if_nobody_can_bet()
        elif all_in:
            self._stop_if_nobody_can_bet()
        self._advance(seat)

    def _stop_if_nobody_can_bet(self) -> None:
        """At most one player can still bet and nobody faces a bet: nobody is asked to act (a
        lone player left with chips would only bet into nobody, or fold a pot it has won)."""
        stacks, folded = self.stacks, self.folded
        if folded.count(False) - stacks.count(0) > 1:
            return  # at least two players still in have chips (the quick, common answer)
        able = None
        for s in range(self.n):
            if stacks[s] and not folded[s]:
                if able is not None:
                    return  # two can still bet
                able = s
        if able is None or self.street_bets[able] >= self._current:
            self._pending.clear()

    def _raise(self, seat: int, kind: ActionKind, previous: int, amount: int) -> None:
        """A bet, raise or completion to ``amount`` (the current bet was ``previous``).

        Robert's Rules (betting and raising, 6), on every street, 3rd street's completion
        included (its bet is the small bet, over no bet at all: the bring-in is not one). A full
        bet or raise counts toward the cap and reopens the betting to everybody. An all-in short
        of it is a bet too (it counts toward the cap, and the next raise adds a full bet to it)
        when it comes to at least ``reopen_fraction`` of a bet over the last bet that counted;
        several short all-ins count together that way. Either short kind reopens the betting
        only to the players who have not acted yet and to those who now face that much more
        than they put in; the others may only call or fold.
        """
        stakes = self.game.stakes
        if kind is ActionKind.COMPLETE or self._bring_in_due:
            increments = [stakes.small_bet]
            level = 0
        else:
            increments = self._increments()
            level = self._level
        self._bring_in_due = False
        self._current = amount
        self._last_aggressor = seat
        stacks, folded, bets = self.stacks, self.folded, self.street_bets
        others = {s for s in range(self.n) if s != seat and stacks[s] > 0 and not folded[s]}
        full = amount - level in increments
        if full:
            counts = True
            self._pending = others
            self._may_raise = set(others)
        else:
            threshold = self.game.reopen_fraction * min(increments)
            counts = amount - level >= threshold
            self._pending = {s for s in others if bets[s] < amount}
            self._may_raise = (self._may_raise & others) | {
                s for s in others if amount - bets[s] >= threshold
            }
        if counts:
            self._bets_made += 1
            if self._double_bet and amount - level >= stakes.big_bet:
                self._big_bet_made = True
            self._level = amount
            if self.street == 3:
                self._completed = True

    def _advance(self, seat: int) -> None:
        """The next seat clockwise that must act, or the end of the betting round."""
        pending = self._pending
        if pending:
            for step in range(1, self.n + 1):
                nxt = (seat + step) % self.n
                if nxt in pending:
                    self.to_act = nxt
                    return
        self.to_act = None
        self._end_round()

    def _start_betting(self) -> None:
        """Open the betting round of the current street, or deal on when nobody can bet."""
        while True:
            able = [s for s in range(self.n) if self._can_act(s)]
            self._current = 0
            self._level = 0
            self._bets_made = 0
            self._big_bet_made = False
            self._last_aggressor = None
            self.street_bets = [0] * self.n
            self._uncapped = self.game.uncapped_heads_up and self.folded.count(False) == 2
            if len(able) >= 2:
                if self.street == 3:
                    first = self._bring_in_player()
                    self.bring_in_seat = first
                    self._bring_in_due = True
                    self._completed = False
                    self._pending = {first}
                    self._may_raise = {first}
                else:
                    first = self._first_by_board()
                    self._double_bet = (
                        self.street == 4 and self.game.double_bet_on_open_pair and self._open_pair()
                    )
                    self._pending = set(able)
                    self._may_raise = set(able)
                self.first_to_act[self.street] = first
                self.events.append(StreetStarted(self.street, first))
                self.to_act = first
                return
            self.first_to_act[self.street] = None
            self.events.append(StreetStarted(self.street, None))
            self._turn_up()
            if self.street == 7:
                self._showdown()
                return
            self.street += 1
            self._deal_street()

    def _end_round(self) -> None:
        self._return_uncalled()
        self._double_bet = False
        if not self.turned_up and self.game.all_in_face_up:
            stacks, folded = self.stacks, self.folded
            if sum(1 for s in range(self.n) if stacks[s] and not folded[s]) <= 1:
                self._turn_up()
        if self.street == 7:
            self._showdown()
            return
        self.street += 1
        self._deal_street()
        self._start_betting()

    def _return_uncalled(self) -> None:
        contributed = self.contributed
        top = max(contributed)
        leaders = [s for s in range(self.n) if contributed[s] == top]
        if len(leaders) != 1:
            return
        seat = leaders[0]
        second = max(c for s, c in enumerate(contributed) if s != seat)
        excess = top - second
        if excess > 0:
            self.stacks[seat] += excess
            self.contributed[seat] -= excess
            self.street_bets[seat] = max(0, self.street_bets[seat] - excess)
            self.events.append(BetReturned(seat, excess))

    def _turn_up(self) -> None:
        """Betting is over for the hand: turn every live hand face up (``all_in_face_up``)."""
        if self.turned_up or not self.game.all_in_face_up:
            return
        live = self._live()
        if len(live) < 2:
            return
        self._turned_up_at = len(self.events)
        for seat in live:
            self.turned_up.add(seat)
            self.events.append(HandTurnedUp(seat, tuple(self.cards[seat])))

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
            self.events.append(CommunityCardDealt(self.community))
            return
        else:
            rounds = (street != 7,)
        cards, face_ups, events, deal = self.cards, self.face_up, self.events, deck.deal
        for face_up in rounds:
            for seat in live:
                card = deal()
                cards[seat].append(card)
                face_ups[seat].append(face_up)
                events.append(CardDealt(seat, street, card, face_up))

    def _door_key(self, seat: int) -> tuple[int, int]:
        door = self.cards[seat][2]
        game = self.game
        rank = door.rank if game.bring_in_by == "lowest" else (door.rank + 1) % 13
        if game.bring_in_tie_break == "seat":
            # Nearest the dealer's left (the lowest seat) wins the tie: that is, brings in.
            return (rank, -seat) if game.bring_in_by == "highest" else (rank, seat)
        return (rank, game.suit_order.index(door.suit))

    def _bring_in_player(self) -> int:
        live = self._live()
        if self.game.bring_in_by == "lowest":
            chosen = min(live, key=self._door_key)
        else:
            chosen = max(live, key=self._door_key)
        # A player all-in from the ante cannot bring in: the next player clockwise does.
        for step in range(self.n):
            seat = (chosen + step) % self.n
            if self._can_act(seat):
                return seat
        raise AssertionError("nobody can bring in")  # unreachable: two players can act

    def _board_key(self, seat: int) -> tuple[int, ...]:
        up = self.cards[seat][2:6]  # the up cards: the door card and 4th to 6th street
        if self.game.bring_in_by == "highest":
            return evaluate.board_low_key(up)
        return evaluate.board_high_key(up)

    def _first_by_board(self) -> int:
        live = self._live()
        if self.game.first_actor_all_in == "best_active":
            live = [s for s in live if self._can_act(s)]
        # Best board first; equal boards: the lowest seat (max keeps the first of equals), or the
        # suits of the cards showing (first_actor_tie_break).
        if self.game.first_actor_tie_break == "suits":
            best = max(live, key=lambda s: (self._board_key(s), self._board_suits(s)))
        else:
            best = max(live, key=self._board_key)
        for step in range(self.n):
            seat = (best + step) % self.n
            if self._can_act(seat):
                return seat
        raise AssertionError("nobody can act")  # unreachable

    def _board_suits(self, seat: int) -> tuple[tuple[int, int, int], ...]:
        """Equal boards broken by suit, as the bring-in is (seed 001): the board's cards from the
        most telling down (pairs first, then the highest card; in razz the ace is low), and the
        higher suit by ``suit_order`` is the better board; in razz, where the higher suit brings
        in, the lower suit is the better low board."""
        up = self.cards[seat][2:6]
        game = self.game
        razz = game.bring_in_by == "highest"
        counts: dict[int, int] = {}
        for card in up:
            counts[card.rank] = counts.get(card.rank, 0) + 1
        order = game.suit_order
        return tuple(
            sorted(
                (
                    (
                        counts[c.rank],
                        (c.rank + 1) % 13 if razz else c.rank,
                        -order.index(c.suit) if razz else order.index(c.suit),
                    )
                    for c in up
                ),
                reverse=True,
            )
        )

    def _open_pair(self) -> bool:
        for seat in self._live():
            up = self.up_cards(seat)
            if len({c.rank for c in up}) < len(up):
                return True
        return False

    # ------------------------------------------------------------------ showdown and awards

    def _win_by_folds(self) -> None:
        self.to_act = None
        self._return_uncalled()
        self._award({s: Contender(0, 0, 0) for s in self._live()})

    def _showdown(self) -> None:
        live = self._live()
        first = self._last_aggressor if self._last_aggressor in live else live[0]
        start = live.index(first)  # type: ignore[arg-type,unused-ignore]
        self._showdown_order = live[start:] + live[:start]
        self.phase = Phase.SHOWDOWN
        self._showdown_pots = self.pots()
        self._claim_lone_pots()
        self._next_to_show()

    def _claim_lone_pots(self) -> None:
        """A pot with one claimant left (the others folded or mucked) is that hand's at once,
        without showing: a later muck of the same hand, giving up a pot still contested, cannot
        leave this one unclaimed."""
        assert self._showdown_pots is not None
        mucked, claims = self.mucked, self._claims
        for index, pot in enumerate(self._showdown_pots):
            if index not in claims:
                claimants = [s for s in pot.eligible if s not in mucked]
                if len(claimants) == 1:
                    claims[index] = claimants[0]

    def _contested(self, seat: int) -> bool:
        """Whether another hand still claims a pot that this one may win."""
        assert self._showdown_pots is not None
        mucked, claims = self.mucked, self._claims
        return any(
            index not in claims
            and seat in pot.eligible
            and any(s != seat and s not in mucked for s in pot.eligible)
            for index, pot in enumerate(self._showdown_pots)
        )

    def _contender(self, seat: int) -> Contender:
        known = self._contenders.get(seat)
        if known is not None:
            return known
        cards = self.seven_cards(seat)
        game = self.game
        own = self._highest_card_order(self.cards[seat])
        if game.low == "eight_or_better":
            high, low = evaluate.hilo8_ranks(cards)
        elif game.low == "any":
            high, low = 0, evaluate.low_rank(cards)
        else:
            high, low = evaluate.high_rank(cards), 0
        known = self._contenders[seat] = Contender(high, low, own)
        return known

    def _could_win(self, seat: int, mine: Contender) -> bool:
        """Whether the hand can still win any part of a pot against the hands shown so far."""
        shown = {s: self._contender(s) for s in self.shown}
        assert self._showdown_pots is not None
        for pot in self._showdown_pots:
            if seat not in pot.eligible:
                continue
            rivals = [shown[s] for s in pot.eligible if s in shown]
            if not rivals:
                return True
            if self.game.has_high and mine.high >= max(r.high for r in rivals):
                return True
            if (
                self.game.low is not None
                and mine.low > 0
                and mine.low >= max(r.low for r in rivals)
            ):
                return True
        return False

    def _next_to_show(self) -> None:
        while self._showdown_order:
            seat = self._showdown_order[0]
            if not self._contested(seat):
                # Nobody else claims what this hand may win: it wins without being shown.
                self._showdown_order.pop(0)
                continue
            if not self.auto_showdown:
                self.to_act = seat
                return
            self._showdown_order.pop(0)
            if not self.shown or self._could_win(seat, self._contender(seat)):
                self._show(seat)
            else:
                self.mucked.add(seat)
                self.events.append(HandMucked(seat))
                self._claim_lone_pots()
        self.to_act = None
        contenders = {s: self._contender(s) for s in self._live() if s not in self.mucked}
        self._award(contenders)

    def _show(self, seat: int) -> None:
        mine = self._contender(seat)
        game = self.game
        high = evaluate.high_name(mine.high) if game.has_high else None
        low = evaluate.low_name(mine.low) if mine.low else None
        event = HandShown(seat, tuple(self.cards[seat]), high, low)
        self.shown[seat] = event
        self.events.append(event)

    def _apply_showdown(self, seat: int, action: Action) -> None:
        self._showdown_order.remove(seat)
        if action.kind is ActionKind.SHOW:
            self._show(seat)
        else:
            self.mucked.add(seat)
            self.events.append(HandMucked(seat))
            self.actions[-1] = (seat, action)
            self._claim_lone_pots()
        self._next_to_show()

    def _card_order(self, card: Card) -> int:
        """A card's place from lowest to highest, rank then ``suit_order``; in razz the ace is
        the lowest rank and the king the highest (as for razz's bring-in)."""
        rank = (card.rank + 1) % 13 if self.game.bring_in_by == "highest" else card.rank
        return rank * 4 + self.game.suit_order.index(card.suit)

    def _highest_card_order(self, cards: Sequence[Card]) -> int:
        game = self.game
        if game.bring_in_by == "lowest" and game.suit_order == SUIT_ORDER_STANDARD:
            return int(max(cards)) if cards else -1  # a card's int is already rank, then suit
        return max((self._card_order(c) for c in cards), default=-1)

    def _odd_chip_order(self) -> list[int]:
        if self.game.odd_chip == "lowest_seat":
            return list(range(self.n))
        # The highest card by suit (spades highest) among the seat's own cards; a king in razz.
        cards, highest = self.cards, self._highest_card_order
        return sorted(range(self.n), key=lambda s: highest(cards[s]), reverse=True)

    def _take_rake(self, pots: list[Pot]) -> list[Pot]:
        game = self.game
        total = sum(p.amount for p in pots)
        if self.fixed_rake is not None:
            rake = min(self.fixed_rake, total)
        else:
            rake = int(total * game.rake_percent / 100)
            if game.rake_cap:
                rake = min(rake, game.rake_cap)
        if not rake:
            return pots
        self.rake = rake
        self.events.append(RakeTaken(rake))
        taken = split_rake(
            [p.amount for p in pots], rake, each_pot=game.rake_from == "each_pot"
        )
        return [Pot(p.amount - t, p.eligible) for p, t in zip(pots, taken, strict=True)]

    def _award(self, contenders: dict[int, Contender]) -> None:
        pots = self._take_rake(self.pots())
        self.final_pots = pots
        game = self.game
        claims = self._claims
        if len(contenders) == 1 and all(set(contenders) <= set(p.eligible) for p in pots):
            (winner,) = contenders  # (a side pot it is not eligible for is settled below)
            awards = [Award(winner, p.amount, i, "whole") for i, p in enumerate(pots) if p.amount]
        else:
            awards = settle(
                [Pot(0, p.eligible) if i in claims else p for i, p in enumerate(pots)],
                contenders,
                high=game.has_high,
                low=game.low is not None,
                odd_chip_order=self._odd_chip_order(),
            )
            if claims:  # pots won unshown by their last claimant, in pot order with the rest
                awards += [
                    Award(claims[i], p.amount, i, "whole")
                    for i, p in enumerate(pots)
                    if i in claims and p.amount
                ]
                awards.sort(key=lambda a: a.pot)
        for award in awards:
            self.stacks[award.seat] += award.amount
            self.events.append(PotAwarded(award.seat, award.amount, award.pot, award.share))
        self.awards = awards
        self.contributed = [0] * self.n
        self.street_bets = [0] * self.n
        self.phase = Phase.OVER
        self.to_act = None
        self.events.append(HandEnded(tuple(self.stacks)))


def describe(event: Event) -> str:
    """A line of plain English for an event, for logs."""
    if isinstance(event, AntePosted):
        return f"seat {event.seat} posts the ante {event.amount}" + (
            " and is all-in" if event.all_in else ""
        )
    if isinstance(event, CardDealt):
        card = str(event.card) if event.card is not None else "a card"
        return f"seat {event.seat} is dealt {card} {'face up' if event.face_up else 'face down'}"
    if isinstance(event, CommunityCardDealt):
        return f"the deck has run out: community card {event.card}"
    if isinstance(event, StreetStarted):
        who = (
            f"seat {event.first_to_act} acts first"
            if event.first_to_act is not None
            else "no betting"
        )
        return f"{STREET_NAMES[event.street]}: {who}"
    if isinstance(event, ActionTaken):
        return f"seat {event.seat}: {event.action}" + (" and is all-in" if event.all_in else "")
    if isinstance(event, BetReturned):
        return f"uncalled {event.amount} returned to seat {event.seat}"
    if isinstance(event, HandTurnedUp):
        return f"seat {event.seat}'s hand is turned face up: [{format_cards(event.cards)}]"
    if isinstance(event, HandShown):
        names = "; ".join(
            f"{label}: {name}" for label, name in (("HI", event.high), ("LO", event.low)) if name
        )
        return f"seat {event.seat} shows [{format_cards(event.cards)}] ({names or 'no low'})"
    if isinstance(event, HandMucked):
        return f"seat {event.seat} mucks"
    if isinstance(event, RakeTaken):
        return f"rake {event.amount}"
    if isinstance(event, PotAwarded):
        pot = "the main pot" if event.pot == 0 else f"side pot {event.pot}"
        half = "" if event.share == "whole" else f" ({event.share} half)"
        return f"seat {event.seat} wins {event.amount} from {pot}{half}"
    return "the hand is over: stacks " + " ".join(str(s) for s in event.stacks)
