"""A stud player's statistics, counted from the events of finished hands (docs/stats.md).

:func:`hand_facts` reads one hand's events for one seat and says what that seat did in it
(whether it put chips in voluntarily on 3rd street, had the chance to complete and took it,
stole the bring-in or defended it, how often it bet and called on each street, whether it went
to the showdown, won there, scooped); :class:`PlayerStats` adds hands up and gives each
statistic as a count, the chances it was out of, and their ratio.

Only public events are read: actions, the showdown (hands shown, mucked), the pots awarded and
which streets a seat was dealt. No down card is ever read, so the same counts made from an
opponent's side of the table (the events as the viewer saw them, redacted) say nothing that was
not shown to the viewer. The engine only: the standard library, no server.

>>> from sevenstud.actions import Action, ActionKind
>>> from sevenstud.events import ActionTaken, StreetStarted
>>> events = [
...     StreetStarted(3, 0),
...     ActionTaken(0, 3, Action(ActionKind.BRING_IN, 2), False, 2),
...     ActionTaken(1, 3, Action(ActionKind.COMPLETE, 5), False, 5),
...     ActionTaken(0, 3, Action(ActionKind.FOLD), False, 0),
... ]
>>> stealer, blind = hand_facts(events, 1, split=False), hand_facts(events, 0, split=False)
>>> stealer.vpip, stealer.completed, stealer.stole, blind.defend_chance, blind.defended
(True, True, True, True, False)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any, Final

from sevenstud.actions import ActionKind
from sevenstud.events import (
    ActionTaken,
    CardDealt,
    CommunityCardDealt,
    Event,
    HandEnded,
    PotAwarded,
)

STREETS: Final = (3, 4, 5, 6, 7)
"""The betting streets, 3rd to 7th."""

_AGGRESSIVE: Final = frozenset({ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE})
_VOLUNTARY: Final = _AGGRESSIVE | {ActionKind.CALL}


@dataclasses.dataclass(slots=True)
class HandFacts:
    """What one seat did in one hand (docs/stats.md defines each field)."""

    vpip: bool = False
    """Put chips in voluntarily on 3rd street: called, completed or raised (the ante and the
    bring-in are forced, so neither counts)."""
    complete_chance: bool = False
    """Acted on 3rd street while the bet was still the bring-in (nobody had completed)."""
    completed: bool = False
    """Completed at that chance."""
    steal_chance: bool = False
    """That chance came with everybody before folded: only the bring-in was in (and the seat
    was not the bring-in)."""
    stole: bool = False
    """Completed at the steal chance."""
    brought_in: bool = False
    """Posted the bring-in."""
    defend_chance: bool = False
    """Brought in and faced a steal (a completion at a steal chance), nobody else calling or
    raising before the bring-in's answer."""
    defended: bool = False
    """Called or raised at the defend chance."""
    aggressive: dict[int, int] = dataclasses.field(default_factory=dict)
    """Bets, completions and raises, by street."""
    calls: dict[int, int] = dataclasses.field(default_factory=dict)
    """Calls, by street (the bring-in is no call)."""
    street_reached: int = 3
    """The last street this seat was dealt a card on (the community card counts for 7th)."""
    saw_fourth: bool = False
    """Still in when 4th street was dealt."""
    showdown: bool = False
    """Still in at the end of a hand that two or more players were still in (a showdown,
    hands turned up when all-in included)."""
    won: bool = False
    """Won chips from a pot (an uncalled bet returned is not a win)."""
    won_at_showdown: bool = False
    """Went to the showdown and won chips there."""
    split_game: bool = False
    """The hand was hi/lo (its pots split between a high and a low)."""
    scooped: bool = False
    """Hi/lo only: won the whole main pot at a showdown, both halves (or all of it when no low
    qualified)."""
    final_stack: int | None = None
    """The seat's chips when the hand ended (None: the events stop before the end)."""


def hand_facts(events: Sequence[Event], seat: int, *, split: bool) -> HandFacts:
    """What ``seat`` (an index of the hand, 0 the first dealt in) did in the hand of
    ``events`` (the engine's events, redacted or not: no down card is read); ``split``: the
    game splits its pots high and low (hi/lo)."""
    facts = HandFacts(split_game=split)
    folded: set[int] = set()
    seats: set[int] = set()
    completed_by: int | None = None  # the seat that completed 3rd street first
    steal_by: int | None = None  # that completion, when it was a steal
    entered: set[int] = set()  # seats that called, completed or raised on 3rd street
    bring_in: int | None = None
    first_decision = True
    answered_steal = False
    main_winners: set[int] = set()
    for event in events:
        kind = type(event)
        if kind is CardDealt:
            assert isinstance(event, CardDealt)
            seats.add(event.seat)
            if event.seat == seat:
                facts.street_reached = max(facts.street_reached, event.street)
                if event.street == 4:
                    facts.saw_fourth = True
        elif kind is CommunityCardDealt:
            if seat not in folded:
                facts.street_reached = 7
        elif kind is ActionTaken:
            assert isinstance(event, ActionTaken)
            who, street, action = event.seat, event.street, event.action.kind
            seats.add(who)
            if action is ActionKind.FOLD:
                folded.add(who)
            if street == 3:
                if action is ActionKind.BRING_IN:
                    bring_in = who
                    if who == seat:
                        facts.brought_in = True
                    continue
                if who == seat and first_decision:
                    first_decision = False
                    if completed_by is None:
                        facts.complete_chance = True
                        facts.completed = action is ActionKind.COMPLETE
                        if who != bring_in and not entered:
                            facts.steal_chance = True
                            facts.stole = facts.completed
                if who == seat and not answered_steal and steal_by is not None and bring_in == seat:
                    answered_steal = True
                    if entered == {steal_by}:
                        facts.defend_chance = True
                        facts.defended = action in (ActionKind.CALL, ActionKind.RAISE)
                if action is ActionKind.COMPLETE and completed_by is None:
                    completed_by = who
                    if not entered and who != bring_in:
                        steal_by = who
                if action in _VOLUNTARY:
                    entered.add(who)
                    if who == seat:
                        facts.vpip = True
            if who == seat:
                if action in _AGGRESSIVE:
                    facts.aggressive[street] = facts.aggressive.get(street, 0) + 1
                elif action is ActionKind.CALL:
                    facts.calls[street] = facts.calls.get(street, 0) + 1
        elif kind is PotAwarded:
            assert isinstance(event, PotAwarded)
            if event.amount > 0:
                if event.seat == seat:
                    facts.won = True
                if event.pot == 0:
                    main_winners.add(event.seat)
        elif kind is HandEnded:
            assert isinstance(event, HandEnded)
            if 0 <= seat < len(event.stacks):
                facts.final_stack = event.stacks[seat]
                seats.update(range(len(event.stacks)))
    live = seats - folded
    facts.showdown = seat in live and len(live) >= 2
    facts.won_at_showdown = facts.showdown and facts.won
    facts.scooped = split and facts.showdown and main_winners == {seat}
    return facts


@dataclasses.dataclass(slots=True, frozen=True)
class Ratio:
    """A statistic: ``count`` times out of ``of`` chances (``rate`` None when there were none)."""

    count: int
    of: int

    @property
    def rate(self) -> float | None:
        """``count / of``, None with no chance."""
        return self.count / self.of if self.of else None

    def to_json(self) -> dict[str, Any]:
        """``{"count", "of", "rate"}`` (the rate rounded to four places)."""
        rate = self.rate
        return {"count": self.count, "of": self.of, "rate": None if rate is None else round(rate, 4)}


@dataclasses.dataclass(slots=True)
class PlayerStats:
    """A player's statistics over many hands: :meth:`add` each hand's :class:`HandFacts`."""

    hands: int = 0
    vpip: int = 0
    complete_chances: int = 0
    completed: int = 0
    steal_chances: int = 0
    stole: int = 0
    defend_chances: int = 0
    defended: int = 0
    aggressive: dict[int, int] = dataclasses.field(default_factory=lambda: dict.fromkeys(STREETS, 0))
    calls: dict[int, int] = dataclasses.field(default_factory=lambda: dict.fromkeys(STREETS, 0))
    saw_fourth: int = 0
    showdowns: int = 0
    won_at_showdown: int = 0
    split_showdowns_won: int = 0
    scooped: int = 0

    def add(self, facts: HandFacts) -> None:
        """Count one more hand."""
        self.hands += 1
        self.vpip += facts.vpip
        self.complete_chances += facts.complete_chance
        self.completed += facts.completed
        self.steal_chances += facts.steal_chance
        self.stole += facts.stole
        self.defend_chances += facts.defend_chance
        self.defended += facts.defended
        for street, n in facts.aggressive.items():
            self.aggressive[street] = self.aggressive.get(street, 0) + n
        for street, n in facts.calls.items():
            self.calls[street] = self.calls.get(street, 0) + n
        self.saw_fourth += facts.saw_fourth
        self.showdowns += facts.showdown
        self.won_at_showdown += facts.won_at_showdown
        if facts.split_game and facts.won_at_showdown:
            self.split_showdowns_won += 1
            self.scooped += facts.scooped

    def to_json(self) -> dict[str, Any]:
        """Every statistic as docs/stats.md and docs/protocol.md name them."""
        aggression = {}
        for street in STREETS:
            bets, calls = self.aggressive.get(street, 0), self.calls.get(street, 0)
            aggression[str(street)] = {
                "bets": bets,
                "calls": calls,
                "factor": None if calls == 0 else round(bets / calls, 2),
            }
        return {
            "hands": self.hands,
            "vpip": Ratio(self.vpip, self.hands).to_json(),
            "complete": Ratio(self.completed, self.complete_chances).to_json(),
            "steal": Ratio(self.stole, self.steal_chances).to_json(),
            "defend": Ratio(self.defended, self.defend_chances).to_json(),
            "aggression": aggression,
            "went_to_showdown": Ratio(self.showdowns, self.saw_fourth).to_json(),
            "won_at_showdown": Ratio(self.won_at_showdown, self.showdowns).to_json(),
            "scoop": Ratio(self.scooped, self.split_showdowns_won).to_json(),
        }


def player_stats(hands: Iterable[tuple[Sequence[Event], int, bool]]) -> PlayerStats:
    """The statistics of one player over ``hands``: each the hand's events, the player's seat
    in it (a hand index) and whether the game splits its pots (hi/lo)."""
    stats = PlayerStats()
    for events, seat, split in hands:
        stats.add(hand_facts(events, seat, split=split))
    return stats


__all__ = ["STREETS", "HandFacts", "PlayerStats", "Ratio", "hand_facts", "player_stats"]
