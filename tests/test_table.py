"""The table (sevenstud.table): seats and sessions hand after hand, the clock, the numbered stream.

One test per house rule of docs/table.md, then a hypothesis state machine of joins, leaves,
top-ups, sit-outs, actions, time-outs, new hands and restarts from the saved record that checks
that chips are conserved and that no viewer's stream ever shows another seat's down card.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from sevenstud.dealing import deck_for
from sevenstud.deck import Deck
from sevenstud.games import Stakes, Stud, StudHiLo
from sevenstud.hand import ActionKind, ActionTaken, AntePosted, CardDealt, Hand, StreetStarted
from sevenstud.table import (
    ClockStarted,
    Entry,
    HandStarted,
    Leaving,
    SatDown,
    SatIn,
    SatOut,
    StoodUp,
    StreamGap,
    Table,
    TableError,
    TableSettings,
    TimedOut,
    ToppedUp,
)

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)


def make_settings(**changes: Any) -> TableSettings:
    options: dict[str, Any] = {
        "game": StudHiLo(STAKES),
        "seats": 8,
        "min_buy_in": 20,
        "max_buy_in": 200,
        "action_time": 10.0,
        "time_bank_start": 20.0,
        "time_bank_max": 30.0,
        "time_bank_refill": 5.0,
        "time_outs_to_sit_out": 2,
    }
    options.update(changes)
    return TableSettings(**options)


def make_table(players: dict[int, int] | None = None, **changes: Any) -> Table:
    """A table with players ``p<seat>`` seated as given (seat -> buy-in) at time 0."""
    table = Table(make_settings(**changes))
    for seat, buy_in in (players or {}).items():
        table.sit_down(f"p{seat}", seat, buy_in, now=0)
    return table


def stud_deck(*hands: str) -> Deck:
    """The deck that deals each hand seat its cards in dealing order (two down, the door card,
    then 4th to 7th street), one card at a time in seat order."""
    return deck_for(hands)


def snapshot(table: Table) -> tuple[object, ...]:
    """Everything a client could learn from the table, to check that an error changed nothing."""
    return (
        table.number,
        table.view(None),
        tuple(table.view(s) for s in range(1, table.settings.seats + 1)),
        table.events_since(0, None),
        table.chips_at_table(),
    )


def refused(table: Table, command: Any, *args: Any, match: str, **kwargs: Any) -> None:
    """The command raises a TableError whose message matches, and the table is unchanged."""
    before = snapshot(table)
    with pytest.raises(TableError, match=match):
        command(*args, **kwargs)
    assert snapshot(table) == before


def to_act(table: Table) -> int:
    seat = table.to_act
    assert seat is not None, "nobody is to act"
    return seat


def deadline(table: Table) -> float:
    when = table.deadline
    assert when is not None, "no clock runs"
    return when


def events(entries: tuple[Entry, ...] | list[Entry], kind: type) -> list[Any]:
    return [e.event for e in entries if isinstance(e.event, kind)]


# ---------------------------------------------------------------------- settings


@pytest.mark.parametrize(
    ("changes", "match"),
    [
        ({"seats": 1}, "2 to 8 seats"),
        ({"seats": 9}, "2 to 8 seats"),
        ({"seats": True}, "2 to 8 seats"),
        ({"min_buy_in": 0}, "must cover the ante"),
        ({"min_buy_in": 50, "max_buy_in": 40}, "max_buy_in .* below min_buy_in"),
        ({"min_buy_in": 2.5}, "min_buy_in must be a whole number"),
        ({"action_time": 0}, "action_time must be more than 0"),
        ({"time_bank_start": -1}, "time_bank_start must be"),
        ({"time_bank_refill": math.nan}, "time_bank_refill must be"),
        ({"time_bank_max": 10.0}, "time_bank_max .* below time_bank_start"),
        ({"time_outs_to_sit_out": 0}, "time_outs_to_sit_out must be at least 1"),
        ({"history": 0}, "history must keep"),
        ({"game": "stud8"}, "game must be a Game"),
    ],
)
def test_settings_that_make_no_sense_are_refused(changes: dict[str, Any], match: str) -> None:
    with pytest.raises(TableError, match=match):
        make_settings(**changes)


def test_min_buy_in_must_cover_the_ante() -> None:
    with pytest.raises(TableError, match="at least 5 chips"):
        make_settings(game=Stud(Stakes(5, 5, 10, 20)), min_buy_in=4)


# ---------------------------------------------------------------------- sitting down


def test_sit_down_in_a_taken_seat_is_refused() -> None:
    table = make_table({3: 100})
    refused(table, table.sit_down, "ann", 3, 100, now=1, match="seat 3 is taken")


def test_a_player_sits_at_one_seat_only() -> None:
    table = make_table({3: 100})
    refused(table, table.sit_down, "p3", 4, 100, now=1, match="already sits in seat 3")


@pytest.mark.parametrize("seat", [0, 9, -1, "1", None, 2.0])
def test_seats_are_numbered_1_to_seats(seat: Any) -> None:
    table = make_table()
    refused(table, table.sit_down, "ann", seat, 100, now=1, match="numbered 1 to 8")


def test_seats_beyond_a_short_table_do_not_exist() -> None:
    table = make_table(seats=4)
    refused(table, table.sit_down, "ann", 5, 100, now=1, match="numbered 1 to 4")


@pytest.mark.parametrize("buy_in", [19, 201])
def test_buy_in_outside_the_limits_is_refused(buy_in: int) -> None:
    table = make_table()
    refused(table, table.sit_down, "ann", 1, buy_in, now=1, match="between 20 and 200")


@pytest.mark.parametrize("buy_in", [0, -5, 50.0, True])
def test_buy_in_must_be_positive_whole_chips(buy_in: Any) -> None:
    table = make_table()
    refused(table, table.sit_down, "ann", 1, buy_in, now=1, match="positive whole number")


@pytest.mark.parametrize("player", ["", "  ", 7, None])
def test_players_are_named_by_a_string_id(player: Any) -> None:
    table = make_table()
    refused(table, table.sit_down, player, 1, 100, now=1, match="non-empty string id")


@pytest.mark.parametrize("now", [math.nan, math.inf, "5", None, True])
def test_now_must_be_a_finite_number(now: Any) -> None:
    table = make_table()
    refused(table, table.sit_down, "ann", 1, 100, now=now, match="now must be a finite number")


def test_the_time_never_goes_backwards() -> None:
    table = make_table()
    table.sit_down("ann", 1, 100, now=10)
    refused(table, table.sit_down, "bob", 2, 100, now=9.5, match="the time went backwards")


def test_a_player_who_sits_down_during_a_hand_is_dealt_in_from_the_next() -> None:
    table = make_table({1: 100, 2: 100})
    table.start_hand(now=1, seed=1)
    table.sit_down("late", 5, 100, now=2)
    assert not next(s for s in table.view(None).seats if s.seat == 5).in_hand
    while table.hand_in_progress:
        table.act(to_act(table), table.legal_actions()[0], now=3)
    started = events(table.start_hand(now=4, seed=2), HandStarted)
    assert started[0].seats == (1, 2, 5)
    assert started[0].players == ("p1", "p2", "late")


# ---------------------------------------------------------------------- hands


def test_a_hand_needs_two_players_sitting_in() -> None:
    table = make_table({4: 100})
    assert not table.can_start_hand()
    refused(table, table.start_hand, now=1, seed=1, match="two players sitting in, and 1 is")
    table.sit_down("bob", 6, 100, now=1)
    table.sit_out("bob", now=1)
    refused(table, table.start_hand, now=1, seed=1, match="and 1 is")
    table.sit_in("bob", now=2)
    assert table.can_start_hand()
    table.start_hand(now=2, seed=1)
    assert table.hand_in_progress


def test_only_one_hand_at_a_time() -> None:
    table = make_table({1: 100, 2: 100})
    table.start_hand(now=1, seed=1)
    refused(table, table.start_hand, now=2, seed=2, match="hand 1 is still being played")


def test_the_caller_gives_the_deck_or_a_seed() -> None:
    table = make_table({1: 100, 2: 100})
    refused(table, table.start_hand, now=1, match="the table never shuffles")
    refused(table, table.start_hand, 1, Deck.seeded(1), seed=1, match="one of them")
    refused(table, table.start_hand, 1, [1, 2, 3], match="deck must be a Deck")
    refused(table, table.start_hand, 1, seed=[1], match="seed must be a whole number or a string")
    refused(table, table.start_hand, 1, seed=True, match="seed must be")
    used = Deck.seeded(1)
    used.deal()
    refused(table, table.start_hand, 1, used, match="cannot be dealt: the deck has been dealt from")


def test_hand_seats_are_the_players_sitting_in_in_seat_order() -> None:
    table = make_table({7: 100, 2: 90, 5: 80, 3: 70})
    table.sit_out("p3", now=0)
    entries = table.start_hand(now=1, seed=5)
    (started,) = events(entries, HandStarted)
    assert started.seats == (2, 5, 7)
    assert started.players == ("p2", "p5", "p7")
    assert started.stacks == (90, 80, 100)
    assert table.hand_seats == (2, 5, 7)


def test_the_same_deck_plays_the_same_hand_as_the_engine() -> None:
    """Table seats 2, 5, 7 are the hand's seats 0, 1, 2: the table's hand is the engine's."""
    table = make_table({7: 100, 2: 90, 5: 80})
    bare = Hand(table.settings.game, [90, 80, 100], Deck.seeded(11))
    table.start_hand(now=1, deck=Deck.seeded(11))
    while table.hand_in_progress:
        assert bare.to_act is not None
        assert table.to_act == (2, 5, 7)[bare.to_act]
        action = table.legal_actions()[-1]
        bare.act(action)
        table.act(table.to_act, action, now=1)
    stacks = {s.seat: s.stack for s in table.view(None).seats}
    assert (stacks[2], stacks[5], stacks[7]) == bare.finishing_stacks


def test_antes_only_from_players_dealt_in() -> None:
    table = make_table({1: 100, 2: 100, 3: 100})
    table.sit_out("p2", now=0)
    entries = table.start_hand(now=1, seed=3)
    assert sorted(e.seat for e in events(entries, AntePosted)) == [1, 3]
    assert next(s for s in table.view(None).seats if s.seat == 2).stack == 100


def test_a_player_who_cannot_post_the_ante_is_sat_out() -> None:
    game = StudHiLo(Stakes(ante=2, bring_in=2, small_bet=4, big_bet=8))
    table = make_table({1: 3, 2: 50}, game=game, min_buy_in=2)
    # Seat 2's door card (2c) is the lowest: it brings in; seat 1 folds and keeps 1 chip.
    table.start_hand(now=1, deck=stud_deck("Ks Kh Kd", "3c 4c 2c"))
    table.act(2, "bring-in", now=2)
    entries = table.act(1, "fold", now=3)
    assert SatOut(1, "p1", "cannot post the ante") in events(entries, SatOut)
    assert not table.can_start_hand()
    refused(table, table.sit_in, "p1", now=4, match="cannot post the ante: top up first")
    start = table.number
    table.top_up("p1", 1, now=5)  # the stack covers the ante: dealt in again (issue 19)
    assert events(table.events_since(start, None), SatIn) == [SatIn(1, "p1")]
    assert table.can_start_hand()


def test_a_player_with_no_chips_left_is_sat_out() -> None:
    table = make_table({1: 1, 2: 100}, min_buy_in=1)
    # Seat 1 is all-in on the ante; seat 2's four aces win.
    table.start_hand(now=1, deck=stud_deck("2c 7d 9h 3s 4s Jc Qd", "As Ad Ah Ac Kd Kh Ks"))
    assert not table.hand_in_progress
    seat1 = next(s for s in table.view(None).seats if s.seat == 1)
    assert (seat1.stack, seat1.sitting_out) == (0, True)
    assert SatOut(1, "p1", "cannot post the ante") in events(table.events_since(0, None), SatOut)


# ---------------------------------------------------------------------- sessions


def test_sit_out_and_come_back() -> None:
    table = make_table({1: 100, 2: 100, 3: 100})
    table.sit_out("p2", now=1)
    refused(table, table.sit_out, "p2", now=1, match="sitting out already")
    assert events(table.start_hand(now=2, seed=1), HandStarted)[0].seats == (1, 3)
    while table.hand_in_progress:
        table.act(to_act(table), table.legal_actions()[0], now=3)
    table.sit_in("p2", now=4)
    refused(table, table.sit_in, "p2", now=4, match="sitting in already")
    assert events(table.start_hand(now=5, seed=2), HandStarted)[0].seats == (1, 2, 3)


def test_sitting_out_during_a_hand_plays_that_hand_on() -> None:
    table = make_table({1: 100, 2: 100})
    table.start_hand(now=1, deck=stud_deck("Ks Kh Kd", "3c 4c 2c"))
    table.sit_out("p1", now=2)
    assert table.to_act == 2
    table.act(2, "bring-in", now=3)
    assert table.to_act == 1  # p1 still plays this hand, on the clock
    table.act(1, "call", now=4)
    assert table.hand_in_progress


def test_sessions_of_unknown_players_are_refused() -> None:
    table = make_table({1: 100})
    for command in (table.sit_out, table.sit_in, table.leave):
        refused(table, command, "nobody", now=1, match="'nobody' is not seated")
    refused(table, table.top_up, "nobody", 5, now=1, match="'nobody' is not seated")


def test_leaving_between_hands_takes_the_stack_away() -> None:
    table = make_table({1: 100, 2: 120})
    entry = table.leave("p2", now=1)
    assert entry.event == StoodUp(2, "p2", 120)
    assert table.player_at(2) is None
    refused(table, table.leave, "p2", now=2, match="'p2' is not seated")


def test_leaving_during_a_hand_folds_when_the_turn_comes_and_the_stack_goes_at_the_end() -> None:
    table = make_table({1: 100, 2: 100, 3: 100})
    # Seat 2 (door 2c) brings in; seat 3 acts next, then seat 1.
    table.start_hand(now=1, deck=stud_deck("Ks Kh Kd", "3c 4c 2c", "Qs Qh Qd"))
    table.leave("p1", now=2)
    refused(table, table.leave, "p1", now=2, match="leaving already")
    refused(table, table.sit_out, "p1", now=2, match="leaving the table already")
    assert table.to_act == 2  # the clock of the seat to act is untouched
    table.act(2, "bring-in", now=3)
    entries = table.act(3, "complete", now=4)
    folds = [e for e in events(entries, ActionTaken) if e.seat == 1]
    assert [e.action.kind for e in folds] == [ActionKind.FOLD]
    assert table.player_at(1) == "p1"  # still seated until the hand ends
    assert table.to_act == 2
    entries = table.act(2, "fold", now=5)
    assert StoodUp(1, "p1", 99) in events(entries, StoodUp)
    assert table.player_at(1) is None


def test_leaving_on_ones_turn_folds_at_once() -> None:
    table = make_table({1: 100, 2: 100, 3: 100})
    table.start_hand(now=1, deck=stud_deck("Ks Kh Kd", "3c 4c 2c", "Qs Qh Qd"))
    table.act(2, "bring-in", now=2)
    table.leave("p3", now=3)
    new = table.events_since(0, None)
    assert any(
        isinstance(e, ActionTaken) and e.seat == 3 and e.action.kind is ActionKind.FOLD
        for e in (x.event for x in new)
    )
    assert table.to_act == 1
    assert events(new, Leaving) == [Leaving(3, "p3")]


def test_a_leaving_bring_in_is_posted_not_folded() -> None:
    """The bring-in is forced (it cannot be folded): a player who leaves posts it, then folds."""
    table = make_table({1: 100, 2: 100})
    table.start_hand(now=1, deck=stud_deck("Ks Kh Kd", "3c 4c 2c"))
    table.leave("p2", now=2)
    taken = events(table.events_since(0, None), ActionTaken)
    assert [(e.seat, e.action.kind) for e in taken] == [(2, ActionKind.BRING_IN)]
    table.act(1, "complete", now=3)
    assert not table.hand_in_progress
    assert StoodUp(2, "p2", 97) in events(table.events_since(0, None), StoodUp)


def test_an_all_in_player_who_leaves_is_paid_at_the_end() -> None:
    table = make_table({1: 1, 2: 100, 3: 100}, min_buy_in=1)
    deck = stud_deck("As Ad Ah Ac Kd Kh Ks", "3c 4c 2c 9d 9s Jh Td", "Qs Qh Qd 8c 7c 6h 5d")
    table.start_hand(now=1, deck=deck)  # seat 1 is all-in on the ante with four aces
    table.leave("p1", now=2)
    while table.hand_in_progress:
        legal = table.legal_actions()
        check = [a for a in legal if a.kind in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN)]
        table.act(to_act(table), check[0], now=3)
    (stood,) = events(table.events_since(0, None), StoodUp)
    assert stood.seat == 1 and stood.stack == 3  # its ante back, and one from each of the others


def test_top_up_between_hands_up_to_the_maximum() -> None:
    table = make_table({1: 150})
    entry = table.top_up("p1", 50, now=1)
    assert entry.event == ToppedUp(1, "p1", 50, 200)
    refused(table, table.top_up, "p1", 1, now=2, match="above the maximum of 200 .at most 0 more")
    refused(table, table.top_up, "p1", 0, now=2, match="positive whole number")


def test_no_top_up_during_a_hand_one_is_dealt_into() -> None:
    table = make_table({1: 100, 2: 100, 3: 100})
    table.sit_out("p3", now=0)
    table.start_hand(now=1, seed=1)
    refused(table, table.top_up, "p1", 10, now=2, match="only between hands")
    table.top_up("p3", 10, now=2)  # not dealt in: table stakes do not bind
    assert next(s for s in table.view(None).seats if s.seat == 3).stack == 110


def test_the_rake_is_counted_as_the_houses() -> None:
    table = make_table({1: 100, 2: 100}, game=StudHiLo(STAKES, rake_percent=Fraction(10), rake_cap=3))
    table.start_hand(now=1, deck=stud_deck("Ks Kh Kd", "3c 4c 2c"))
    table.act(2, "complete", now=2)
    table.act(1, "call", now=3)
    while table.hand_in_progress:
        table.act(to_act(table), "check", now=4)
    assert table.raked == 1  # 10% of a pot of 12
    assert table.chips_at_table() + table.raked == 200


# ---------------------------------------------------------------------- acting


def test_acting_out_of_turn_is_refused() -> None:
    table = make_table({1: 100, 2: 100, 4: 100})
    table.start_hand(now=1, deck=stud_deck("Ks Kh Kd", "3c 4c 2c", "Qs Qh Qd"))
    refused(table, table.act, 1, "fold", now=2, match="seat 1 cannot act now: it is seat 2's turn")
    refused(table, table.act, 3, "fold", now=2, match="seat 3 is not in hand 1")
    refused(table, table.act, 9, "fold", now=2, match="numbered 1 to 8")
    refused(table, table.act, 2, "check", now=2, match=r"seat 2 \(seat 1 of the hand\)")
    refused(table, table.act, 2, "dance", now=2, match="unknown action")
    refused(table, table.act, 2, 5, now=2, match="an action is an Action or a string")


def test_acting_with_no_hand_is_refused() -> None:
    table = make_table({1: 100, 2: 100})
    refused(table, table.act, 1, "fold", now=1, match="no hand is being played")
    refused(table, table.time_out, 1, now=1, match="no hand is being played")


# ---------------------------------------------------------------------- the clock


def test_the_deadline_is_the_action_time_plus_the_time_bank() -> None:
    table = make_table({1: 100, 2: 100})
    entries = table.start_hand(now=100, deck=stud_deck("Ks Kh Kd", "3c 4c 2c"))
    # 20 s of bank to start, 5 s refilled for the hand dealt in.
    assert events(entries, ClockStarted) == [ClockStarted(2, 100 + 10 + 25, 25)]
    assert table.deadline == 135
    assert table.view(1).deadline == 135


def test_time_beyond_the_action_time_is_drawn_from_the_bank() -> None:
    table = make_table({1: 100, 2: 100})
    table.start_hand(now=100, deck=stud_deck("Ks Kh Kd", "3c 4c 2c"))
    entries = table.act(2, "bring-in", now=113)  # 3 s beyond the 10 s action time
    assert events(entries, ClockStarted) == [ClockStarted(1, 113 + 10 + 25, 25)]
    assert next(s for s in table.view(None).seats if s.seat == 2).time_bank == 22
    table.act(1, "complete", now=118)  # within the action time: the bank is untouched
    assert next(s for s in table.view(None).seats if s.seat == 1).time_bank == 25


def test_the_time_bank_refills_with_each_hand_up_to_its_maximum() -> None:
    table = make_table({1: 100, 2: 100})
    banks = []
    for number in range(3):
        table.start_hand(now=number * 10, seed=number)
        banks.append(next(s for s in table.view(None).seats if s.seat == 1).time_bank)
        while table.hand_in_progress:
            table.act(to_act(table), table.legal_actions()[0], now=number * 10)
    assert banks == [25, 30, 30]


def test_an_action_after_the_deadline_is_refused() -> None:
    table = make_table({1: 100, 2: 100})
    table.start_hand(now=0, deck=stud_deck("Ks Kh Kd", "3c 4c 2c"))
    refused(table, table.act, 2, "bring-in", now=35.5, match="time ran out at 35.0")
    table.act(2, "bring-in", now=35)  # at the deadline itself: in time


def test_a_time_out_waits_for_the_deadline() -> None:
    table = make_table({1: 100, 2: 100})
    table.start_hand(now=0, deck=stud_deck("Ks Kh Kd", "3c 4c 2c"))
    refused(table, table.time_out, 2, now=34, match="still has time: its deadline is 35.0")
    refused(table, table.time_out, 1, now=40, match="seat 1 is not to act: seat 2 is")


def test_a_time_out_checks_if_it_may_else_folds_and_posts_a_bring_in() -> None:
    table = make_table({1: 100, 2: 100, 3: 100}, time_outs_to_sit_out=5)
    table.start_hand(now=0, deck=stud_deck("Ks Kh Kd 5h", "3c 4c 2c 6s", "Qs Qh Qd 7d"))
    entries = table.time_out(2, now=35)
    assert events(entries, TimedOut) == [TimedOut(2, "p2", 1)]
    assert [(e.seat, e.action.kind) for e in events(entries, ActionTaken)] == [(2, ActionKind.BRING_IN)]
    table.act(3, "complete", now=36)
    entries = table.time_out(1, now=deadline(table))
    assert [(e.seat, e.action.kind) for e in events(entries, ActionTaken)] == [(1, ActionKind.FOLD)]
    table.act(2, "call", now=72)
    # 4th street: seat 3 (Qd 7d) is high and may check.
    assert table.to_act == 3
    entries = table.time_out(3, now=deadline(table))
    assert [(e.seat, e.action.kind) for e in events(entries, ActionTaken)] == [(3, ActionKind.CHECK)]


def test_repeated_time_outs_sit_the_player_out_and_the_table_plays_their_hand() -> None:
    table = make_table({1: 100, 2: 100, 3: 100})
    table.start_hand(now=0, deck=stud_deck("Ks Kh Kd 5h 9c", "3c 4c 2c 6s 8h", "Qs Qh Qd 7d 9d"))
    table.time_out(2, now=35)  # the bring-in, posted
    table.act(3, "call", now=36)
    table.act(1, "call", now=37)
    # 4th street: seat 1 (Kd 5h) first; seat 2 times out a second time and is sat out.
    table.act(1, "check", now=38)
    entries = table.time_out(2, now=deadline(table))
    assert SatOut(2, "p2", "time-outs") in events(entries, SatOut)
    now = deadline(table)
    table.act(3, "check", now=now)
    # 5th street: seat 1 (Kd 5h 9c) bets; seat 2's turn is played at once (a fold), unclocked.
    entries = table.act(1, "bet", now=now)
    assert [(e.seat, e.action.kind) for e in events(entries, ActionTaken)] == [
        (1, ActionKind.BET),
        (2, ActionKind.FOLD),
    ]
    assert [e.seat for e in events(entries, ClockStarted)] == [3]
    table.act(3, "fold", now=now)
    started = events(table.start_hand(now=now, seed=9), HandStarted)
    assert started[0].seats == (1, 3)


def test_acting_oneself_resets_the_count_of_time_outs() -> None:
    table = make_table({1: 100, 2: 100, 3: 100})
    table.start_hand(now=0, deck=stud_deck("Ks Kh Kd 5h", "3c 4c 2c 6s", "Qs Qh Qd 7d"))
    table.time_out(2, now=35)
    table.act(3, "call", now=36)
    table.act(1, "call", now=37)
    table.act(1, "check", now=38)
    table.act(2, "check", now=40)  # p2 is back: the count starts again
    assert next(s for s in table.view(None).seats if s.seat == 2).time_outs == 0


def test_sitting_in_after_time_outs_gives_the_turns_back() -> None:
    table = make_table({1: 100, 2: 100}, time_outs_to_sit_out=1)
    table.start_hand(now=0, deck=stud_deck("Ks Kh Kd 5h", "3c 4c 2c 6s"))
    entries = table.time_out(2, now=35)
    assert SatOut(2, "p2", "time-outs") in events(entries, SatOut)
    table.sit_in("p2", now=36)
    table.act(1, "call", now=37)
    # 4th street: seat 1 (Kd 5h) is high; then seat 2 plays its own turn again.
    table.act(1, "check", now=38)
    assert table.to_act == 2


# ---------------------------------------------------------------------- the stream


def test_the_stream_is_numbered_1_2_3() -> None:
    table = make_table({1: 100, 2: 100})
    table.start_hand(now=1, seed=4)
    everything = table.events_since(0, None)
    assert [e.number for e in everything] == list(range(1, table.number + 1))
    assert table.events_since(5, None) == everything[5:]
    assert table.events_since(table.number, 1) == ()
    assert table.view(2).number == table.number


@pytest.mark.parametrize(("number", "match"), [(-1, ">= 0"), (1.5, ">= 0"), (99, "ahead of")])
def test_events_since_refuses_bad_numbers(number: Any, match: str) -> None:
    table = make_table({1: 100, 2: 100})
    refused(table, table.events_since, number, None, match=match)


def test_events_since_refuses_bad_viewers() -> None:
    table = make_table({1: 100, 2: 100})
    refused(table, table.events_since, 0, 0, match="numbered 1 to 8")
    refused(table, table.view, 9, match="numbered 1 to 8")


def test_table_events_are_in_the_stream() -> None:
    table = make_table({1: 100, 2: 100})
    table.sit_out("p2", now=1)
    table.sit_in("p2", now=2)
    table.top_up("p2", 10, now=3)
    table.leave("p1", now=4)
    kinds = [type(e.event) for e in table.events_since(0, None)]
    assert kinds == [SatDown, SatDown, SatOut, SatIn, ToppedUp, StoodUp]
    assert [e.at for e in table.events_since(0, None)] == [0, 0, 1, 2, 3, 4]


def test_hand_events_say_table_seats() -> None:
    table = make_table({3: 100, 6: 100})
    table.start_hand(now=1, seed=8)
    stream = table.events_since(0, None)
    dealt = events(stream, CardDealt)
    assert {e.seat for e in dealt} == {3, 6}
    (street,) = events(stream, StreetStarted)
    assert street.first_to_act == table.to_act
    hand_entries = [e for e in stream if isinstance(e.event, tuple)]  # the engine's events
    assert hand_entries and all(e.seats == (3, 6) and e.hand == 1 for e in hand_entries)


def test_a_seat_sees_its_own_down_cards_and_no_one_elses() -> None:
    table = make_table({1: 100, 2: 100, 3: 100})
    table.start_hand(now=1, deck=stud_deck("Ks Kh Kd", "3c 4c 2c", "Qs Qh Qd"))
    for viewer in (None, 1, 2, 3, 4):
        for e in events(table.events_since(0, viewer), CardDealt):
            assert (e.card is not None) == (e.face_up or e.seat == viewer)
    mine = [str(e.card) for e in events(table.events_since(0, 2), CardDealt) if e.seat == 2]
    assert mine == ["3c", "4c", "2c"]


def test_a_seat_taken_later_does_not_see_the_down_cards_of_earlier_hands() -> None:
    table = make_table({1: 100, 2: 100})
    table.start_hand(now=1, deck=stud_deck("Ks Kh Kd", "3c 4c 2c"))
    table.act(2, "bring-in", now=2)
    table.act(1, "fold", now=3)
    table.leave("p2", now=4)
    before = [e.card for e in events(table.events_since(0, 2), CardDealt) if e.seat == 2]
    assert None in before  # an empty seat is a spectator
    table.sit_down("newcomer", 2, 100, now=5)
    later = events(table.events_since(0, 2), CardDealt)
    assert all(e.card is None for e in later if not e.face_up)


@pytest.mark.parametrize("seat", [2, 5])
def test_a_player_who_sits_down_again_starts_afresh(seat: int) -> None:
    """A new sitting, in the same seat or another, sees no down cards of hands before it."""
    table = make_table({1: 100, 2: 100})
    table.start_hand(now=1, deck=stud_deck("Ks Kh Kd", "3c 4c 2c"))
    table.act(2, "bring-in", now=2)
    mine = [str(e.card) for e in events(table.events_since(0, 2), CardDealt) if e.seat == 2]
    assert mine == ["3c", "4c", "2c"]
    table.act(1, "fold", now=3)
    table.leave("p2", now=4)
    table.sit_down("p2", seat, 100, now=5)
    later = events(table.events_since(0, seat), CardDealt)
    assert all(e.card is None for e in later if not e.face_up)


def test_the_stream_is_bounded() -> None:
    table = make_table({1: 100, 2: 100}, history=30)
    for number in range(3):
        table.start_hand(now=number, seed=number)
        while table.hand_in_progress:
            table.act(to_act(table), table.legal_actions()[0], now=number)
    assert table.number > 30
    kept = table.events_since(table.number - 30, None)
    assert [e.number for e in kept] == list(range(table.number - 29, table.number + 1))
    with pytest.raises(StreamGap, match="no longer kept"):
        table.events_since(table.number - 31, None)
    assert issubclass(StreamGap, TableError)


def test_the_view_of_a_seat() -> None:
    table = make_table({1: 100, 4: 100})
    table.sit_down("idle", 6, 50, now=0)
    table.sit_out("idle", now=0)
    table.start_hand(now=1, deck=stud_deck("Ks Kh Kd", "3c 4c 2c"))
    view = table.view(4)
    assert view.hand is not None
    assert view.hand_seats == (1, 4)
    assert view.to_act == 4 and view.deadline == 36
    assert [str(c) for c in view.hand.cards[1]] == ["3c", "4c", "2c"]
    assert view.hand.cards[0][:2] == (None, None)
    assert [(s.seat, s.stack, s.sitting_out, s.in_hand) for s in view.seats] == [
        (1, 99, False, True),
        (4, 99, False, True),
        (6, 50, True, False),
    ]
    spectator = table.view(None)
    assert spectator.hand is not None and spectator.hand.cards[1][:2] == (None, None)


# ---------------------------------------------------------------------- the state machine


PLAYERS = ("ann", "bob", "cy", "dee", "eve")
TableEvents = (HandStarted, Leaving, SatOut, SatIn, StoodUp, TimedOut, ToppedUp)


class TableMachine(RuleBasedStateMachine):
    """Random sessions and hands: chips are conserved and no stream leaks a down card."""

    def __init__(self) -> None:
        super().__init__()
        game = StudHiLo(STAKES, rake_percent=Fraction(5), rake_cap=2)  # chips also go to the house
        self.table = Table(
            make_settings(game=game, seats=4, min_buy_in=5, max_buy_in=60, time_outs_to_sit_out=2)
        )
        self.now = 0.0
        self.bought_in = 0
        self.read = 0  # how far the stream has been read for the chips taken away
        self.taken_away = 0
        self.hands: dict[int, dict[int, str]] = {}  # hand -> table seat -> player dealt in
        self.first_hand: dict[int, int] = {}  # seat -> the first hand its present sitting may see
        self.oldest = 0  # the stream is kept from here (a restart without it starts afresh)
        self.shown_before: set[tuple[int, int]] = set()  # hands shown before that: (hand, seat)

    def attempt(self, command: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a command; on a TableError the table must be exactly as it was."""
        before = (self.table.number, self.table.view(None), self.table.chips_at_table())
        try:
            return command(*args, **kwargs)
        except TableError:
            assert (self.table.number, self.table.view(None), self.table.chips_at_table()) == before
            return None

    @initialize(buy_ins=st.lists(st.integers(5, 60), min_size=2, max_size=3))
    def first_players(self, buy_ins: list[int]) -> None:
        for seat, buy_in in enumerate(buy_ins, 1):
            self.sit_down(PLAYERS[seat - 1], seat, buy_in)

    @rule(player=st.sampled_from(PLAYERS), seat=st.integers(0, 5), buy_in=st.integers(3, 62))
    def sit_down(self, player: str, seat: int, buy_in: int) -> None:
        if self.attempt(self.table.sit_down, player, seat, buy_in, now=self.now) is not None:
            self.bought_in += buy_in
            self.catch_up()
            self.first_hand[seat] = max(self.hands, default=0) + 1

    @rule(player=st.sampled_from(PLAYERS), amount=st.integers(0, 60))
    def top_up(self, player: str, amount: int) -> None:
        if self.attempt(self.table.top_up, player, amount, now=self.now) is not None:
            self.bought_in += amount

    @rule(player=st.sampled_from(PLAYERS))
    def leave(self, player: str) -> None:
        self.attempt(self.table.leave, player, now=self.now)

    @rule(player=st.sampled_from(PLAYERS), out=st.booleans())
    def sit_out_or_in(self, player: str, out: bool) -> None:
        self.attempt(self.table.sit_out if out else self.table.sit_in, player, now=self.now)

    @rule(seed=st.integers(0, 10**6), wait=st.floats(0, 5))
    def start_hand(self, seed: int, wait: float) -> None:
        self.now += wait
        self.attempt(self.table.start_hand, self.now, seed=seed)

    @precondition(lambda self: self.table.hand_in_progress)
    @rule(choice=st.integers(0, 7), wait=st.floats(0, 50), seat=st.integers(1, 4))
    def act(self, choice: int, wait: float, seat: int) -> None:
        self.now += wait
        legal = self.table.legal_actions()
        self.attempt(self.table.act, seat, legal[choice % len(legal)], now=self.now)

    @precondition(lambda self: self.table.hand_in_progress)
    @rule(choice=st.integers(0, 7), steps=st.integers(1, 12))
    def play_in_time(self, choice: int, steps: int) -> None:
        table = self.table
        for step in range(steps):
            if not table.hand_in_progress:
                return
            seat, deadline = table.to_act, table.deadline
            assert seat is not None and deadline is not None
            if self.now > deadline:  # a late action was refused: the clock has run out
                table.time_out(seat, now=self.now)
                continue
            self.now = min(self.now + 1, deadline)
            legal = table.legal_actions()
            table.act(seat, legal[(choice + step) % len(legal)], now=self.now)

    @precondition(lambda self: self.table.hand_in_progress)
    @rule(late=st.booleans())
    def time_out(self, late: bool) -> None:
        deadline = self.table.deadline
        assert deadline is not None
        if late:
            self.now = max(self.now, deadline)
        self.attempt(self.table.time_out, self.table.to_act, now=self.now)

    @rule(stream=st.booleans())
    def restart(self, stream: bool) -> None:
        """The server restarts from the table's record (through JSON): the table goes on as it was."""
        event("restart " + ("with the stream" if stream else "without the stream"))
        record = json.loads(json.dumps(self.table.to_record(stream=stream)))
        copy = Table.from_record(record)
        assert copy.to_record(stream=stream) == record and copy.view(None) == self.table.view(None)
        if stream:
            for viewer in (None, 1, 2, 3, 4):
                kept = self.table.events_since(self.oldest, viewer)
                assert copy.events_since(self.oldest, viewer) == kept
        else:  # what the restarted table no longer keeps is read now
            self.catch_up()
            for entry in self.table.events_since(self.oldest, None):
                if entry.hand is not None and hasattr(entry.event, "cards"):
                    self.shown_before.add((entry.hand, getattr(entry.event, "seat")))  # noqa: B009
            self.oldest = copy.number
        self.table = copy

    def catch_up(self) -> None:
        """Read the new entries: the chips taken away and who was dealt into each hand."""
        for entry in self.table.events_since(self.read, None):
            if isinstance(entry.event, TableEvents):
                event(type(entry.event).__name__)  # which sessions happened (statistics)
            if isinstance(entry.event, StoodUp):
                self.taken_away += entry.event.stack
            elif isinstance(entry.event, HandStarted):
                started = entry.event
                self.hands[started.hand] = dict(zip(started.seats, started.players, strict=True))
        self.read = self.table.number

    @invariant()
    def chips_are_conserved(self) -> None:
        self.catch_up()
        view = self.table.view(None)
        at_table = sum(s.stack for s in view.seats) + (view.hand.pot if view.hand else 0)
        assert at_table == self.table.chips_at_table()
        assert self.bought_in == at_table + self.taken_away + self.table.raked
        assert all(s.stack >= 0 for s in view.seats)

    @invariant()
    def no_stream_shows_another_seats_down_card(self) -> None:
        """A down card shows only to the player dealt it, or once that seat's hand is shown (any
        event with the seat's ``cards``: shown down, or turned face up when the betting is over)."""
        self.catch_up()
        for viewer in (None, 1, 2, 3, 4):
            occupant = self.table.player_at(viewer) if viewer is not None else None
            shown = set(self.shown_before)  # (hand, table seat)
            for entry in self.table.events_since(self.oldest, viewer):
                event = entry.event
                if entry.hand is not None and hasattr(event, "cards") and hasattr(event, "seat"):
                    shown.add((entry.hand, getattr(event, "seat")))  # noqa: B009 (a union of events)
                if isinstance(event, CardDealt) and not event.face_up and event.card is not None:
                    assert entry.hand is not None
                    if (entry.hand, event.seat) not in shown:
                        assert viewer is not None and event.seat == viewer
                        assert self.hands[entry.hand][event.seat] == occupant
                        assert entry.hand >= self.first_hand[viewer]

    @invariant()
    def players_sitting_in_between_hands_can_post_the_ante(self) -> None:
        if not self.table.hand_in_progress:
            for seat in self.table.view(None).seats:
                assert seat.sitting_out or seat.stack >= 1


TableMachine.TestCase.settings = settings(max_examples=40, stateful_step_count=50, deadline=None)
test_table_state_machine = TableMachine.TestCase
