"""One betting round of fixed-limit stud: who still must act, who the betting is open to, the
cap, the bring-in and its completion, 4th street's double bet, and short all-in raises.

The hand (:mod:`sevenstud.hand`) owns the chips: each seat's stack, what it has put in on
this street and whether it folded, passed in as lists (indexed by seat) to the methods that
need them. A :class:`BettingRound` keeps only what the round itself knows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sevenstud.actions import (
    AGGRESSIVE_KINDS,
    CHECK,
    FOLD,
    Action,
    ActionKind,
    cached_action,
)
from sevenstud.games import Game, integer_ratio
from sevenstud.refusals import Refusal, Words


# init=False and an __init__ of its own: mypyc compiles a dataclass's generated __init__ as
# interpreted code (its default_factory fields included), and a hand makes a round (and a
# clone copies one) every time; this one is compiled. The fields, their order, equality and
# repr are the dataclass's as before.
@dataclass(slots=True, init=False)
class BettingRound:
    """The state of the current street's betting; :meth:`start` opens a new street."""

    game: Game
    street: int
    current: int
    """The highest street total."""
    level: int
    """The street total of the last full bet (or short all-in that counted): the next raise
    adds a full bet to it."""
    bets_made: int
    """Bets and raises that count toward the cap."""
    uncapped: bool
    """Heads-up before the cap was reached, with the game's ``uncapped_heads_up``."""
    completed: bool
    """3rd street: the bring-in has been completed."""
    bring_in_due: bool
    double_bet: bool
    """4th street of stud with an open pair: the big bet is allowed."""
    big_bet_made: bool
    pending: set[int]
    """Seats that still must act this round."""
    may_raise: set[int]
    """Seats the betting is open to."""
    last_aggressor: int | None
    bring_in_optional: bool
    """3rd street, the low card all-in from the ante (the game's ``low_card_all_in``
    ``"left_may_open"``): the seat to act may also fold, passing the choice on."""

    def __init__(
        self,
        game: Game,
        street: int = 3,
        current: int = 0,
        level: int = 0,
        bets_made: int = 0,
        uncapped: bool = False,
        completed: bool = False,
        bring_in_due: bool = False,
        double_bet: bool = False,
        big_bet_made: bool = False,
        pending: set[int] | None = None,
        may_raise: set[int] | None = None,
        last_aggressor: int | None = None,
        bring_in_optional: bool = False,
    ) -> None:
        self.game = game
        self.street = street
        self.current = current
        self.level = level
        self.bets_made = bets_made
        self.uncapped = uncapped
        self.completed = completed
        self.bring_in_due = bring_in_due
        self.double_bet = double_bet
        self.big_bet_made = big_bet_made
        self.pending = set() if pending is None else pending
        self.may_raise = set() if may_raise is None else may_raise
        self.last_aggressor = last_aggressor
        self.bring_in_optional = bring_in_optional

    def copy(self) -> BettingRound:
        """An independent copy (the game is shared: it is immutable)."""
        return BettingRound(
            self.game,
            self.street,
            self.current,
            self.level,
            self.bets_made,
            self.uncapped,
            self.completed,
            self.bring_in_due,
            self.double_bet,
            self.big_bet_made,
            set(self.pending),
            set(self.may_raise),
            self.last_aggressor,
            self.bring_in_optional,
        )

    def start(self, street: int, live: int) -> None:
        """A new street's round, before anybody is asked to act (``live``: the players still in
        the hand): no bet yet, and the heads-up option is looked at afresh."""
        self.street = street
        self.current = 0
        self.level = 0
        self.bets_made = 0
        self.big_bet_made = False
        self.last_aggressor = None
        self.bring_in_due = self.bring_in_optional = False  # (a bring-in passed by everyone)
        self.uncapped = self.game.uncapped_heads_up and live == 2

    def open_with_bring_in(self, seat: int, *, optional: bool = False) -> None:
        """3rd street: ``seat`` must bring in (or complete) before anybody else acts; with
        ``optional`` it may fold instead, and the next player has the same choice."""
        self.bring_in_due = True
        self.bring_in_optional = optional
        self.completed = False
        self.pending = {seat}
        self.may_raise = {seat}

    def open_to(self, able: Sequence[int], double_bet: bool) -> None:
        """4th to 7th street: every player who can still bet must act (``double_bet``: the big
        bet is allowed on this 4th street)."""
        self.double_bet = double_bet
        self.pending = set(able)
        self.may_raise = set(able)

    def increments(self) -> list[int]:
        """The sizes a bet or raise may add to :attr:`level` now."""
        stakes = self.game.stakes
        if self.street >= 5:
            return [stakes.big_bet]
        if self.double_bet:
            return [stakes.big_bet] if self.big_bet_made else [stakes.small_bet, stakes.big_bet]
        return [stakes.small_bet]

    def capped(self) -> bool:
        """Whether the cap is reached (heads-up before it was, with the option: no cap; a cap
        once reached stays)."""
        return not self.uncapped and self.bets_made >= self.game.cap

    def legal(
        self,
        seat: int,
        stacks: Sequence[int],
        bets: Sequence[int],
        folded: Sequence[bool],
    ) -> list[Action]:
        """What ``seat`` (the seat to act) may do, each action with its amount."""
        stack = stacks[seat]
        mine = bets[seat]
        most = mine + stack
        stakes = self.game.stakes
        if self.bring_in_due:
            actions = [cached_action(ActionKind.BRING_IN, min(stakes.bring_in, most))]
            if most > stakes.bring_in and stakes.small_bet > stakes.bring_in:
                actions.append(cached_action(ActionKind.COMPLETE, min(stakes.small_bet, most)))
            return [FOLD, *actions] if self.bring_in_optional else actions
        current = self.current
        to_call = current - mine
        if to_call > 0:
            actions = [FOLD, cached_action(ActionKind.CALL, mine + min(to_call, stack))]
        elif self.game.fold_without_bet:
            actions = [FOLD, CHECK]
        else:
            actions = [CHECK]
        if (
            stack > to_call
            and seat in self.may_raise
            and not self.capped()
            and _could_be_called(seat, current, stacks, bets, folded)
        ):
            if self.street == 3 and not self.completed:
                actions.append(cached_action(ActionKind.COMPLETE, min(stakes.small_bet, most)))
            else:
                # A raise adds a full bet to the last full bet, not to a short all-in above it:
                # facing bet 10 and an all-in to 14, the raise is to 20 (Robert's Rules, 6).
                kind = ActionKind.BET if current == 0 else ActionKind.RAISE
                increments = self.increments()
                level = self.level
                if len(increments) == 1:
                    actions.append(cached_action(kind, min(level + increments[0], most)))
                else:
                    targets = sorted({min(level + inc, most) for inc in increments})
                    actions.extend(cached_action(kind, t) for t in targets)
        return actions

    def why_not(self, kind: ActionKind, seat: int, bets: Sequence[int]) -> Refusal:
        """Why an action of ``kind`` is not legal for ``seat`` now (no action of the kind is)."""
        if kind is ActionKind.CHECK and self.current > bets[seat]:
            return Refusal("check_facing_bet", amount=self.current)
        if kind is ActionKind.FOLD and self.bring_in_due:
            return Refusal("bring_in_first")
        if kind is ActionKind.FOLD:
            return Refusal("fold_without_bet")
        if kind in AGGRESSIVE_KINDS and self.capped():
            return Refusal("betting_capped", cap=self.game.cap)
        if kind in AGGRESSIVE_KINDS and seat not in self.may_raise and not self.bring_in_due:
            return Refusal("betting_not_reopened")
        if self.bring_in_due:
            return Refusal("bring_in_first")
        return Refusal("kind_not_possible", kind=Words(kind.value))  # said in the language

    def folded_to(self, live: int) -> None:
        """A player folded, leaving ``live`` in the hand: heads-up before the cap was reached,
        the option lifts the cap."""
        if self.game.uncapped_heads_up and live == 2 and self.bets_made < self.game.cap:
            self.uncapped = True

    def pass_bring_in(self, seat: int, stacks: Sequence[int], folded: Sequence[bool]) -> None:
        """``seat`` folded rather than bring in (:attr:`bring_in_optional`): the next player
        clockwise who can bet has the same choice."""
        n = len(stacks)
        for step in range(1, n):
            nxt = (seat + step) % n
            if stacks[nxt] and not folded[nxt]:
                self.pending = {nxt}
                self.may_raise = {nxt}
                return
        self.pending.clear()

    def bring_in(
        self, seat: int, amount: int, stacks: Sequence[int], folded: Sequence[bool]
    ) -> None:
        """``seat`` brought in for ``amount`` (its chips already put in)."""
        self.bring_in_due = False
        self.bring_in_optional = False
        if amount > self.current:
            self.current = amount
        if amount >= self.game.stakes.small_bet:  # a full-bet bring-in is the completion
            self.completed = True
            self.bets_made += 1
            self.level = amount
        self.pending = {
            s for s in range(len(stacks)) if s != seat and stacks[s] > 0 and not folded[s]
        }
        self.may_raise = set(self.pending)

    def aggress(
        self,
        seat: int,
        kind: ActionKind,
        amount: int,
        stacks: Sequence[int],
        bets: Sequence[int],
        folded: Sequence[bool],
    ) -> None:
        """A bet, raise or completion by ``seat`` to ``amount`` (its chips already put in).

        Robert's Rules (betting and raising, 6), on every street, 3rd street's completion
        included (its bet is the small bet, over no bet at all: the bring-in is not one). A full
        bet or raise counts toward the cap and reopens the betting to everybody. An all-in short
        of it is a bet too (it counts toward the cap, and the next raise adds a full bet to it)
        when it comes to at least ``reopen_fraction`` of a bet over the last bet that counted;
        several short all-ins count together that way. One all-in that alone comes to that much
        is treated as a full bet: it reopens the betting to everybody. Short all-ins that only
        together come to it, and an all-in that does not count, reopen it only to the players
        who have not acted yet and to those who now face that much more than they put in; the
        others may only call or fold.
        """
        stakes = self.game.stakes
        if kind is ActionKind.COMPLETE or self.bring_in_due:
            increments = [stakes.small_bet]
            level = 0
        else:
            increments = self.increments()
            level = self.level
        # What this wager alone adds: over the short all-ins before it, if any, else over the
        # last bet that counted (on 3rd street the bring-in is not a bet: a completion is
        # measured from nothing).
        before = self.current
        if self.street == 3 and not self.completed and before <= stakes.bring_in:
            before = level
        self.bring_in_due = False
        self.bring_in_optional = False
        self.current = amount
        self.last_aggressor = seat
        others = {s for s in range(len(stacks)) if s != seat and stacks[s] > 0 and not folded[s]}
        if amount - level in increments:
            counts = True
            self.pending = others
            self.may_raise = set(others)
        else:
            # At least reopen_fraction of the smallest full bet, in whole numbers (no Fraction
            # arithmetic: it is interpreted Python even in the compiled engine).
            num, den = integer_ratio(self.game.reopen_fraction)
            threshold = num * min(increments)
            counts = (amount - level) * den >= threshold
            if (amount - before) * den >= threshold:
                # One all-in of half a bet or more is a full bet: everybody may fold, call or
                # make a full raise, whatever more each of them faces (RRP 6, issue 19).
                self.pending = others
                self.may_raise = set(others)
            else:
                # Short all-ins that only add up to it reopen the betting to each player they
                # leave facing that much more than it put in (RRP 6: "if the resulting wager
                # size to a player qualifies as a raise").
                self.pending = {s for s in others if bets[s] < amount}
                self.may_raise = (self.may_raise & others) | {
                    s for s in others if (amount - bets[s]) * den >= threshold
                }
        if counts:
            self.bets_made += 1
            if self.double_bet and amount - level >= stakes.big_bet:
                self.big_bet_made = True
            self.level = amount
            if self.street == 3:
                self.completed = True

    def stop_if_nobody_can_bet(
        self, stacks: Sequence[int], bets: Sequence[int], folded: Sequence[bool]
    ) -> None:
        """At most one player can still bet and nobody faces a bet: nobody is asked to act (a
        lone player left with chips would only bet into nobody, or fold a pot it has won)."""
        if folded.count(False) - stacks.count(0) > 1:
            return  # at least two players still in have chips (the quick, common answer)
        able = None
        for s in range(len(stacks)):
            if stacks[s] and not folded[s]:
                if able is not None:
                    return  # two can still bet
                able = s
        if able is None or bets[able] >= self.current:
            self.pending.clear()

    def next_to_act(self, seat: int, n: int) -> int | None:
        """After ``seat`` acted: the next seat clockwise that must act, or None when the round
        is over."""
        pending = self.pending
        pending.discard(seat)
        self.may_raise.discard(seat)
        if pending:
            for step in range(1, n + 1):
                nxt = (seat + step) % n
                if nxt in pending:
                    return nxt
        return None


def _could_be_called(
    seat: int, current: int, stacks: Sequence[int], bets: Sequence[int], folded: Sequence[bool]
) -> bool:
    """Whether another player still in could put in more than the current bet: if nobody can,
    a bet or raise would only come back uncalled, and the rules do not allow it."""
    for s in range(len(stacks)):
        if s != seat and stacks[s] and not folded[s] and bets[s] + stacks[s] > current:
            return True
    return False
