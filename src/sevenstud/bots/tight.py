""":class:`TightBot`: :class:`~sevenstud.bots.simple.RuleBot`'s hand reading, played tighter
and with a hi/lo player's eye for the boards.

What it adds to RuleBot:

* 3rd street: a marginal start (a hand RuleBot would "call one bet" with) is played only
  against the bring-in; facing a completion it folds.
* Stud hi/lo, 4th street on: a *scoop draw* (a live low draw together with a high hand or draw
  worth a call) is played as a call at least, and bet when either half is worth a bet; a hand
  that is only a low (made or drawing) is folded, or played one level lower when made, as
  soon as a live opponent's up cards already show a better low than its own best cards of as
  many.
* Razz keeps RuleBot's reading (which already weighs the boards' lows); stud keeps RuleBot's
  high reading, with the tighter 3rd street.

Like every bot here it decides from its seat's :class:`~sevenstud.hand.SeatView` alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from sevenstud.bots.simple import (  # the private ones: RuleBot's readings, shared
    BET,
    CALL,
    CALL_ONE,
    FOLD,
    RAISE,
    RuleBot,
    bets_this_street,
    high_later,
    low8_later,
    low_value,
    seat_to_act,
    seen_cards,
    start_level,
)
from sevenstud.cards import Card
from sevenstud.hand import Action, ActionKind, SeatView


def better_low_showing(mine: Sequence[Card], opponents: Sequence[Sequence[Card]]) -> bool:
    """Whether a live opponent's up cards (at least two distinct cards eight or lower) beat the
    best of ``mine`` taken as many: their low so far is better than ours can be of as many cards.

    >>> from sevenstud.cards import parse_cards
    >>> better_low_showing(parse_cards("Ks 7d 6c 5h"), [parse_cards("4c 2d 9s")])
    True
    >>> better_low_showing(parse_cards("As 2d 6c 5h"), [parse_cards("4c 3d")])
    False
    """
    ours = sorted({low_value(c) for c in mine if low_value(c) <= 7})
    for up in opponents:
        theirs = sorted({low_value(c) for c in up if low_value(c) <= 7})
        if len(theirs) < 2:
            continue
        k = len(theirs)
        if len(ours) < k:
            return True  # they have more low cards showing than we hold at all
        if sorted(theirs, reverse=True) < sorted(ours[:k], reverse=True):
            return True
    return False


class TightBot:
    """A tight rule-based hi/lo player: three-card starting hands with the live cards counted
    from the boards, scoop draws, and folding when the boards show a better low."""

    # It plays its levels through a RuleBot rather than subclassing it: in the compiled engine
    # RuleBot is a native class, which an interpreted class may not inherit from.
    def __init__(self, seed: int | str | None = 0, name: str = "TightBot") -> None:
        self.name = name
        self._rules = RuleBot(seed=seed, name=name)
        self.last_reason = ""
        """Why it made its last decision, in a few words (for logs and tests)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    def act(self, view: SeatView) -> Action:
        seat_to_act(view)
        show = [a for a in view.legal_actions if a.kind is ActionKind.SHOW]
        if show:
            self.last_reason = "showdown"
            return show[0]
        level, reason = self.assess(view)
        self.last_reason = reason
        return self._rules.choose(view, level)

    def assess(self, view: SeatView) -> tuple[int, str]:
        """The level (0 fold .. 4 raise) of the bot's hand now, and why."""
        kind, mine, dead, opponents = seen_cards(view)
        if len(mine) <= 3:
            level, why = start_level(kind, mine, dead, opponents)
            if level == CALL_ONE and bets_this_street(view) >= 1:
                return FOLD, why + ", not worth a completion"
            return level, why
        if not kind.split:  # its own reading is hi/lo's; stud and razz are the rule bot's
            return self._rules.assess(view)
        to_come = max(0, 7 - len(mine))
        hi, hi_why = high_later(mine, to_come, dead, opponents, kind)
        lo, lo_why = low8_later(mine, to_come, dead)
        if lo > FOLD and hi < CALL and better_low_showing(mine, opponents):
            made = len(mine) >= 5 and lo_why.endswith(" low") and "to a low" not in lo_why
            lo = max(FOLD, lo - 1) if made and lo >= BET else FOLD
            lo_why += ", a better low showing"
        if hi >= CALL_ONE and lo >= CALL_ONE and to_come:
            # A scoop draw: both halves live. Worth at least a call, a bet when either is.
            level = max(CALL, hi, lo)
            if hi >= CALL and lo >= CALL:
                level = min(RAISE, level + 1)
            return level, f"two-way: {hi_why} and {lo_why}"
        if hi >= CALL and lo >= CALL:
            return min(RAISE, max(hi, lo) + 1), f"two-way: {hi_why} and {lo_why}"
        # A tie goes to the low's reason: it says why a low hand was let go.
        return (hi, hi_why) if hi > lo else (lo, lo_why)
