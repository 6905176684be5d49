"""A table restored from its record behaves exactly as the old one (docs/table.md, "Saving and
restoring"; issue 19): a hypothesis state machine drives a table and its copy, restored again
and again from its own record through JSON (with the stream kept or not), with the same random
commands, and checks after each that every answer, every error and every view is the same."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from sevenstud.games import Stakes, Stud, StudHiLo
from sevenstud.table import Table, TableError, TableSettings
from sevenstud.wire import hand_to_record

PLAYERS = ("ann", "bob", "cy", "dee")
SEATS = 4


def outcome(table: Table, command: str, *args: Any, **kwargs: Any) -> tuple[str, Any]:
    """What a command answered: its value, or its error's type and message."""
    try:
        return "ok", getattr(table, command)(*args, **kwargs)
    except TableError as error:
        return type(error).__name__, str(error)


class TwinTables(RuleBasedStateMachine):
    """The same commands to a table and to its restored copy: the same answers throughout."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0
        self.old: Table
        self.copy: Table
        self.kept_from = 0  # the copy keeps its stream from here (a restart without it: afresh)

    @initialize(
        hilo=st.booleans(),
        fold_without_bet=st.booleans(),
        rake_third_street=st.booleans(),
        ante=st.integers(1, 3),
    )
    def open_table(self, hilo: bool, fold_without_bet: bool, rake_third_street: bool, ante: int) -> None:
        kind = StudHiLo if hilo else Stud
        game = kind(
            Stakes(ante, 2, 4, 8),
            fold_without_bet=fold_without_bet,
            rake_percent=Fraction(10),
            rake_third_street=rake_third_street,
        )
        settings_ = TableSettings(game, seats=SEATS, min_buy_in=ante, max_buy_in=40, history=300)
        self.old, self.copy = Table(settings_), Table(settings_)

    def both(self, command: str, *args: Any, **kwargs: Any) -> None:
        """Run the command on both tables: the same value or the same error."""
        got = [outcome(t, command, *args, **kwargs) for t in (self.old, self.copy)]
        assert got[0] == got[1], (command, args, got)
        event(f"{command}: {got[0][0]}")

    @rule(player=st.sampled_from(PLAYERS), seat=st.integers(1, SEATS), buy_in=st.integers(1, 40))
    def sit_down(self, player: str, seat: int, buy_in: int) -> None:
        self.both("sit_down", player, seat, buy_in, now=self.now)

    @rule(player=st.sampled_from(PLAYERS), amount=st.integers(1, 30))
    def top_up(self, player: str, amount: int) -> None:
        self.both("top_up", player, amount, now=self.now)

    @rule(player=st.sampled_from(PLAYERS), command=st.sampled_from(["leave", "sit_out", "sit_in"]))
    def session(self, player: str, command: str) -> None:
        self.both(command, player, now=self.now)

    @rule(seed=st.integers(0, 10**6), wait=st.floats(0, 3))
    def start_hand(self, seed: int, wait: float) -> None:
        self.now += wait
        self.both("start_hand", self.now, seed=seed)

    @precondition(lambda self: self.old.hand_in_progress)
    @rule(choice=st.integers(0, 7), steps=st.integers(1, 8))
    def play(self, choice: int, steps: int) -> None:
        for step in range(steps):
            seat, deadline = self.old.to_act, self.old.deadline
            if seat is None or deadline is None:
                return
            self.now = min(self.now + 1, deadline)
            legal = self.old.legal_actions()
            self.both("act", seat, legal[(choice + step) % len(legal)], now=self.now)

    @precondition(lambda self: self.old.hand_in_progress)
    @rule()
    def time_out(self) -> None:
        deadline = self.old.deadline
        assert deadline is not None
        self.now = max(self.now, deadline)
        self.both("time_out", self.old.to_act, now=self.now)

    @rule(stream=st.booleans())
    def restart(self, stream: bool) -> None:
        """The copy is restored from its own record: whatever a record loses, the copy loses."""
        event("restart " + ("with the stream" if stream else "without the stream"))
        record = json.loads(json.dumps(self.copy.to_record(stream=stream)))
        self.copy = Table.from_record(record)
        if not stream:
            self.kept_from = self.copy.number

    @invariant()
    def the_same_table(self) -> None:
        if not hasattr(self, "old"):
            return
        old, copy = self.old, self.copy
        assert copy.to_record(stream=False) == old.to_record(stream=False)
        for name in ("number", "hand_in_progress", "hand_seats", "to_act", "deadline", "raked"):
            assert getattr(copy, name) == getattr(old, name), name
        assert copy.legal_actions() == old.legal_actions()
        assert copy.can_start_hand() == old.can_start_hand()
        assert copy.chips_at_table() == old.chips_at_table()
        for viewer in (None, *range(1, SEATS + 1)):
            assert copy.view(viewer) == old.view(viewer)
            assert copy.events_since(self.kept_from, viewer) == old.events_since(self.kept_from, viewer)
        for seat in range(1, SEATS + 1):
            assert copy.player_at(seat) == old.player_at(seat)
        for number in range(old.to_record(stream=False)["hands"] + 2):
            a, b = old.dealt_hand(number), copy.dealt_hand(number)
            assert (a is None) == (b is None), number
            if a is not None and b is not None:
                assert b.events == a.events and hand_to_record(b) == hand_to_record(a)


TwinTables.TestCase.settings = settings(max_examples=30, stateful_step_count=40, deadline=None)
test_a_restored_table_behaves_as_the_old_one = TwinTables.TestCase
