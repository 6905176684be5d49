"""What a player can do: the kinds of action, an action with its amount, its parsing, and a
fixed, numbered action set (with a legal mask) for bots and learning.

>>> Action.parse("raise to 20"), Action.parse("call")
(Action(kind=<ActionKind.RAISE: 'raise'>, amount=20), Action(kind=<ActionKind.CALL: 'call'>, amount=None))
>>> str(Action(ActionKind.COMPLETE, 5)), str(Action(ActionKind.CALL, 3))
('complete to 5', 'call 3')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Final, Protocol, SupportsIndex

from sevenstud.chips import is_digits, is_whole, whole
from sevenstud.refusals import Refusal


class IllegalAction(Refusal, ValueError):
    """An action that the rules do not allow now; the hand is left as it was."""


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


AMOUNTED_KINDS: Final = (
    ActionKind.CALL,
    ActionKind.BRING_IN,
    ActionKind.COMPLETE,
    ActionKind.BET,
    ActionKind.RAISE,
)
"""The kinds that carry an amount (the player's total for the street after the action)."""

AGGRESSIVE_KINDS: Final = (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE)
"""The kinds that put in more than the current bet: each counts toward the cap (when full)."""

_ALIASES: Final = {"bringin": "bring-in", "bring": "bring-in", "x": "check", "f": "fold", "c": "call"}


@dataclass(frozen=True, slots=True, init=False)
class Action:
    """An action; ``amount`` is the player's total for the street after it (as PHH's ``cbr`` and
    PokerStars' "raises to" count), ``None`` when it is implied (fold, check, show, muck) or left
    for the hand to fill in from the legal actions.

    ``kind`` is an :class:`ActionKind` or its value (``"raise"``); ``amount`` a whole number of
    chips (whether it is legal is the hand's to say): anything else (``True``, ``5.0``,
    ``"5"``, an unknown kind) raises
    :class:`IllegalAction` naming it, in the compiled engine as in the pure one
    (:mod:`sevenstud.chips`)."""

    kind: ActionKind
    amount: int | None

    def __init__(self, kind: ActionKind | str, amount: SupportsIndex | None = None) -> None:
        # Its own __init__ (init=False): the one dataclasses writes hands ``amount`` straight to
        # the slot, which in the compiled engine raises TypeError for a float and makes True 1.
        if not isinstance(kind, ActionKind):
            try:
                kind = ActionKind(kind)
            except ValueError:
                raise IllegalAction(
                    f"unknown action {kind!r}: expected one of "
                    + ", ".join(k.value for k in ActionKind)
                ) from None
        if amount is not None:
            amount = whole(amount, f"the amount of a {kind.value}", IllegalAction, of="chips")
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "amount", amount)

    # An action is a value: a copy is the action itself, and a pickle calls the constructor
    # (in the compiled engine the frozen dataclass's own way, setting each slot, is refused).
    def __copy__(self) -> Action:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Action:
        return self

    def __reduce__(self) -> tuple[type[Action], tuple[ActionKind, int | None]]:
        return Action, (self.kind, self.amount)

    @classmethod
    def parse(cls, text: str) -> Action:
        """``"fold"``, ``"check"``, ``"call"``, ``"bring-in"``, ``"complete"``, ``"bet 10"``,
        ``"raise to 20"``, ``"show"``, ``"muck"``; amounts are optional and, as ``amount``, the
        street total for every kind, a call's too (``"call 5"``: to 5 in all; the terminal's
        prompt, which says a call by the chips it puts in, reads its own words:
        :func:`sevenstud.terminal_text.parse_choice`)."""
        words = text.strip().lower().replace("_", "-").split()
        if not words:
            raise IllegalAction("an empty action: expected e.g. 'call' or 'raise to 20'")
        name = _ALIASES.get(words[0], words[0])
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
        # ASCII digits only: int() reads "٥" as 5, and isdigit() takes "²" (sevenstud.chips).
        if len(rest) != 1 or not is_digits(rest[0]):
            raise IllegalAction(f"bad amount in {text!r}: expected a whole number of chips")
        if kind not in AMOUNTED_KINDS:
            raise IllegalAction(f"{kind.value} takes no amount ({text!r})")
        return cls(kind, int(rest[0]))

    def __str__(self) -> str:
        if self.amount is None or self.kind not in AMOUNTED_KINDS:
            return self.kind.value
        if self.kind in (ActionKind.RAISE, ActionKind.COMPLETE):
            return f"{self.kind.value} to {self.amount}"
        return f"{self.kind.value} {self.amount}"


# By kind, then by amount: two lookups cost less than building and hashing a (kind, amount) key.
_ACTIONS: Final[dict[ActionKind, dict[int, Action]]] = {kind: {} for kind in ActionKind}


def cached_action(kind: ActionKind, amount: int) -> Action:
    """The shared, immutable action of that kind and amount: legal actions are made at every
    decision, and the same few recur (a hand's ``verify`` knows one of them by identity)."""
    by_amount = _ACTIONS[kind]
    action = by_amount.get(amount)
    if action is None:
        action = by_amount[amount] = Action(kind, amount)
    return action


FOLD: Final = Action(ActionKind.FOLD)
CHECK: Final = Action(ActionKind.CHECK)
SHOW: Final = Action(ActionKind.SHOW)
MUCK: Final = Action(ActionKind.MUCK)


# ------------------------------------------------------------------ the numbered action set


class ActionIndex(IntEnum):
    """A fixed, numbered action set (OpenSpiel's and PettingZoo's habit), the same in every game
    and on every street. Amounts are implied: fixed limit leaves one amount per kind, except on
    4th street of stud with an open pair, where a bet or raise may be by the small bet
    (``BET``, ``RAISE``) or by the big bet (``BET_BIG``, ``RAISE_BIG``). Where only one bet or
    raise is legal, it is ``BET`` or ``RAISE``, whatever its size. ``SHOW`` and ``MUCK`` are for
    hands played without ``auto_showdown``."""

    FOLD = 0
    CHECK = 1
    CALL = 2
    BRING_IN = 3
    COMPLETE = 4
    BET = 5
    RAISE = 6
    BET_BIG = 7
    RAISE_BIG = 8
    SHOW = 9
    MUCK = 10


ACTION_COUNT: Final = len(ActionIndex)
"""How many numbered actions there are (the length of :func:`legal_mask`)."""

_INDEX_OF_KIND: Final = {
    ActionKind.FOLD: ActionIndex.FOLD,
    ActionKind.CHECK: ActionIndex.CHECK,
    ActionKind.CALL: ActionIndex.CALL,
    ActionKind.BRING_IN: ActionIndex.BRING_IN,
    ActionKind.COMPLETE: ActionIndex.COMPLETE,
    ActionKind.BET: ActionIndex.BET,
    ActionKind.RAISE: ActionIndex.RAISE,
    ActionKind.SHOW: ActionIndex.SHOW,
    ActionKind.MUCK: ActionIndex.MUCK,
}
# The second (larger) bet or raise of a kind, when the small and the big bet are both legal.
_BIG: Final = {ActionKind.BET: ActionIndex.BET_BIG, ActionKind.RAISE: ActionIndex.RAISE_BIG}


def numbered(legal: Sequence[Action]) -> dict[ActionIndex, Action]:
    """The legal actions by their number (``legal`` as :meth:`Hand.legal_actions` lists them:
    the amounts of one kind in rising order)."""
    out: dict[ActionIndex, Action] = {}
    for action in legal:
        index = _INDEX_OF_KIND[action.kind]
        if index in out and action.kind in _BIG:
            index = _BIG[action.kind]
        out[index] = action
    return out


class Turn(Protocol):
    """What the numbered actions read of a view (a :class:`sevenstud.views.SeatView` is one):
    whose view it is and what that seat may do now. A protocol, so that this module needs no
    import of views.py, which imports it."""

    @property
    def seat(self) -> int | None:
        """The viewer's seat; ``None`` for a spectator."""

    @property
    def legal_actions(self) -> tuple[Action, ...]:
        """What the viewer may do now (empty when it is not their turn)."""


def legal_mask(view: Turn) -> tuple[bool, ...]:
    """For each of the :data:`ACTION_COUNT` numbered actions, whether it is legal for the viewer
    of ``view`` now (all False when it is not that seat's turn, or for a spectator's view)."""
    legal = numbered(view.legal_actions)
    return tuple(index in legal for index in ActionIndex)


def action_for(index: SupportsIndex, view: Turn) -> Action:
    """The action numbered ``index``, with its amount, for the viewer of ``view``; raises
    :class:`IllegalAction` naming the index when it is not legal now."""
    try:
        if not is_whole(index):  # as given (SupportsIndex: compiled, True would become 1)
            raise ValueError
        number = ActionIndex(index)
    except ValueError:
        raise IllegalAction(
            f"action index {index!r} is not one of 0..{ACTION_COUNT - 1}"
        ) from None
    action = numbered(view.legal_actions).get(number)
    if action is None:
        who = "a spectator" if view.seat is None else f"seat {view.seat}"
        legal = ", ".join(f"{i.value} {i.name}" for i in numbered(view.legal_actions)) or "none"
        raise IllegalAction(
            f"action index {number.value} ({number.name}) is not legal for {who} now (legal: {legal})"
        )
    return action
