"""The tournament table (docs/table.md, "Tournament tables"): a Table with
``TableSettings(tournament=True)`` seats any stack, deals in a player who is away and folds
their hand at their turn (TDA: absent players are dealt in and anted away), never deals to a
player without chips, and changes its game between hands (a new level) through its record."""

from __future__ import annotations

import json

import pytest

from sevenstud.deck import Deck
from sevenstud.games import Razz, Stakes, StudHiLo, tournament_rules
from sevenstud.hand import ActionKind, ActionTaken, AntePosted
from sevenstud.table import HandStarted, SatOut, Table, TableError, TableSettings

LEVEL_1 = StudHiLo(Stakes(2, 5, 20, 40))


def _table(**options: object) -> Table:
    return Table(TableSettings(LEVEL_1, seats=6, tournament=True, **options))  # type: ignore[arg-type]


def _hand_events(table: Table, number: int) -> list[object]:
    return [e.event for e in table.events_since(0, None) if e.hand == number]


def test_a_tournament_seat_takes_any_positive_stack_and_any_add_on() -> None:
    table = _table()
    table.sit_down("ann", 1, 1, now=0)  # below the ante: all in on it
    table.sit_down("bob", 2, 250_000, now=0)  # far above a cash table's max_buy_in
    table.top_up("ann", 100_000, now=1)  # a rebuy or an add-on, as the director says
    assert [s.stack for s in table.view(None).seats] == [100_001, 250_000]
    with pytest.raises(TableError, match="positive"):
        table.sit_down("cy", 3, -1, now=1)
    table.sit_down("cy", 3, 0, now=1)  # moved while waiting to rebuy or to be placed: not dealt in
    table.start_hand(now=2, seed=1)
    assert 3 not in table.hand_seats
    cash = Table(TableSettings(LEVEL_1, seats=6, min_buy_in=40, max_buy_in=200))
    with pytest.raises(TableError, match="between 40 and 200"):
        cash.sit_down("bob", 2, 250_000, now=0)


def test_the_buy_in_limits_need_not_cover_the_ante_on_a_tournament_table() -> None:
    TableSettings(LEVEL_1, min_buy_in=1, max_buy_in=1, tournament=True)
    with pytest.raises(TableError, match="cover the ante"):
        TableSettings(LEVEL_1, min_buy_in=1, max_buy_in=1)


def test_a_player_away_is_dealt_in_anted_and_folded_at_their_turn_even_with_a_check_open() -> None:
    table = _table()
    for seat, name in enumerate(["ann", "bob", "cy"], start=1):
        table.sit_down(name, seat, 1500, now=0)
    table.sit_out("cy", now=0)
    table.start_hand(now=1, seed=11)
    assert table.hand_seats == (1, 2, 3), "the player away is dealt in"
    events = _hand_events(table, 1)
    assert sum(isinstance(e, AntePosted) for e in events) == 3, "and posts the ante"
    # play the two present players passively (call / check) until the hand is over
    now = 2.0
    while table.hand_in_progress:
        assert table.to_act != 3, "the table plays seat 3's turns: it never waits for them"
        legal = table.legal_actions()
        order = (ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.CALL, ActionKind.SHOW)
        action = next(a for k in order for a in legal if a.kind is k)
        table.act(table.to_act, action, now=now)  # type: ignore[arg-type]
        now += 1
    taken = [e for e in _hand_events(table, 1) if isinstance(e, ActionTaken) and e.seat == 3]
    assert taken, "seat 3 had a turn"
    kinds = {e.action.kind for e in taken}
    assert kinds <= {ActionKind.FOLD, ActionKind.BRING_IN}, kinds
    assert ActionKind.FOLD in kinds, "the hand of the player away is folded, never checked"
    assert not any(
        isinstance(e, SatOut) and e.reason == "cannot post the ante" for e in _hand_events(table, 1)
    )
    table.sit_in("cy", now=now)
    table.start_hand(now=now + 1, seed=12)
    assert table.hand_seats == (1, 2, 3)


def test_every_player_away_still_finishes_the_hand() -> None:
    table = _table()
    for seat, name in enumerate(["ann", "bob", "cy"], start=1):
        table.sit_down(name, seat, 1500, now=0)
        table.sit_out(name, now=0)
    table.start_hand(now=1, seed=3)
    assert not table.hand_in_progress, "every turn was played by the table at once"
    assert table.chips_at_table() == 4500


def test_a_player_without_chips_is_not_dealt_in_and_is_not_sat_out() -> None:
    table = _table()
    table.sit_down("ann", 1, 3, now=0)  # the ante and a little: likely to bust
    table.sit_down("bob", 2, 1500, now=0)
    table.sit_down("cy", 3, 1500, now=0)
    now, hands = 1.0, 0
    while table.view(None).seats[0].stack > 0 and hands < 50:
        table.start_hand(now=now, seed=hands)
        hands += 1
        while table.hand_in_progress:
            legal = table.legal_actions()
            pick = [a for a in legal if a.kind in (ActionKind.CALL, ActionKind.BRING_IN, ActionKind.CHECK)]
            table.act(table.to_act, (pick or legal)[0], now=now)  # type: ignore[arg-type]
            now += 1
    ann = table.view(None).seats[0]
    assert ann.stack == 0 and not ann.sitting_out, "busted, still seated, not sat out"
    assert not any(isinstance(e.event, SatOut) for e in table.events_since(0, None))
    table.start_hand(now=now, seed=99)
    assert table.hand_seats == (2, 3), "a player without chips is not dealt in"


def test_a_short_stack_is_dealt_in_all_in_on_the_ante() -> None:
    table = _table()
    table.sit_down("ann", 1, 1, now=0)
    table.sit_down("bob", 2, 1500, now=0)
    table.start_hand(now=1, seed=5)
    started = [e.event for e in table.events_since(0, None) if isinstance(e.event, HandStarted)]
    assert started[0].seats == (1, 2) and started[0].stacks == (1, 1500)
    assert table.chips_at_table() == 1501


def test_set_game_changes_the_stakes_from_the_next_hand_only() -> None:
    table = _table()
    table.sit_down("ann", 1, 1500, now=0)
    table.sit_down("bob", 2, 1500, now=0)
    table.start_hand(now=1, deck=Deck.seeded(1))
    level_2 = Razz(Stakes(3, 6, 25, 50))
    with pytest.raises(TableError, match="between hands"):
        table.set_game(level_2, now=2)
    dealt = table.dealt_hand(1)
    while table.hand_in_progress:
        legal = table.legal_actions()
        table.act(table.to_act, legal[0], now=3)  # type: ignore[arg-type]
    table.set_game(level_2, now=4)
    assert dealt is not None and dealt.game == tournament_rules(LEVEL_1), "the hand dealt keeps its game"
    table.start_hand(now=5, seed=2)
    assert table.dealt_hand(2) is not None and table.dealt_hand(2).game == tournament_rules(level_2)  # type: ignore[union-attr]
    antes = [e for e in _hand_events(table, 2) if isinstance(e, AntePosted)]
    assert {e.amount for e in antes} == {3}
    # the new game and the tournament flag survive the record, through JSON
    copy = Table.from_record(json.loads(json.dumps(table.to_record())))
    assert copy.settings == table.settings and copy.settings.tournament
    assert copy.to_record() == table.to_record()


def test_a_record_from_before_tournament_tables_restores_as_a_cash_table() -> None:
    table = Table(TableSettings(LEVEL_1, seats=6, min_buy_in=40, max_buy_in=200))
    table.sit_down("ann", 1, 100, now=0)
    record = json.loads(json.dumps(table.to_record()))
    del record["settings"]["tournament"]
    copy = Table.from_record(record)
    assert copy.settings.tournament is False
    assert copy.to_record() == table.to_record()
