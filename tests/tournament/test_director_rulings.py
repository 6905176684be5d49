"""One test a ruling of docs/tournaments.md, each naming its rule."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from sevenstud.tournament import (
    Break,
    CloseTable,
    Deal,
    Director,
    Finish,
    HandForHand,
    NewLevel,
    Refund,
    Seat,
    Status,
    TournamentError,
    TournamentSettings,
    icm,
    payout_table,
)
from sevenstud.tournament.payouts import icm_deal, paid_places
from sevenstud.tournament.snapshot import director_from_record, director_to_record
from sevenstud.tournament.structure import STANDARD, TURBO, Level, Structure, StructureError


def _scheduled(**options: object) -> TournamentSettings:
    values: dict[str, object] = {
        "kind": "scheduled",
        "start_at": 100.0,
        "max_entries": 1000,
        "structure": TURBO,
    }
    values.update(options)
    return TournamentSettings(**values)  # type: ignore[arg-type]


def _started(players: int, **options: object) -> Director:
    d = Director(_scheduled(**options), seed=3)
    for i in range(players):
        d.register(f"p{i}", 0.0)
    d.tick(100.0)
    return d


def _play(d: Director, table: int, result: dict[str, int], now: float) -> list:
    """A hand at ``table`` whose players end with ``result`` (others unchanged)."""
    seated = list(d.tables[table].players.values())
    start = {p: d.entrants[p].chips for p in seated if d.entrants[p].chips > 0}
    d.hand_started(table, start, now)
    stacks = {p: result.get(p, d.entrants[p].chips) for p in seated}
    return d.hand_finished(table, stacks, now + 1)


def test_a_sit_and_go_starts_when_its_seats_are_full() -> None:
    d = Director(TournamentSettings(kind="sit_and_go", seats=6, max_entries=6), seed=1)
    for name in "abcde":
        assert d.register(name, 0.0) == []
    commands = d.register("f", 5.0)
    assert Status("running") in commands
    seats = [c for c in commands if isinstance(c, Seat)]
    assert sorted(c.player for c in seats) == list("abcdef") and {c.table for c in seats} == {1}
    assert len({c.seat for c in seats}) == 6 and all(c.chips == 1500 for c in seats)
    with pytest.raises(TournamentError, match="closed"):
        d.register("g", 6.0)


def test_a_scheduled_tournament_short_of_its_minimum_field_is_cancelled_and_refunded() -> None:
    d = Director(_scheduled(min_field=3), seed=1)
    d.register("a", 0.0)
    d.register("b", 1.0)
    assert d.tick(99.0) == []
    commands = d.tick(100.0)
    assert commands[0] == Status("cancelled")
    assert sorted(c.player for c in commands if isinstance(c, Refund)) == ["a", "b"]
    assert all(c.amount == 110 for c in commands if isinstance(c, Refund))


def test_a_tournament_the_room_calls_off_leaves_nobody_seated_and_nobody_placed() -> None:
    """Rule (docs/tournaments.md, "Rulings"): cancelled, chips won or lost count for nothing,
    so a player who busted before the cancel holds no place either."""
    d = Director(TournamentSettings(kind="sit_and_go", seats=6, max_entries=6), seed=2)
    for name in "abcdef":
        d.register(name, 0.0)
    _play(d, 1, {"a": 3000, "b": 0}, 1.0)
    assert d.entrants["b"].place == 6
    assert d.call_off() == [Status("cancelled")]
    assert d.state == "cancelled" and not d.tables
    assert all(e.place is None and e.table is None and e.prize == 0 for e in d.entrants.values())
    again = director_from_record(director_to_record(d, 2.0), 2.0)  # as stored
    assert all(e.place is None for e in again.entrants.values())


def test_unregistering_before_the_start_refunds_buy_in_and_fee_and_not_after() -> None:
    d = Director(_scheduled(), seed=1)
    for name in "abc":
        d.register(name, 0.0)
    assert d.unregister("b", 1.0) == [Refund("b", 110)]
    assert d.pool == 200 and d.entries == 2
    d.tick(100.0)
    with pytest.raises(TournamentError, match="started"):
        d.unregister("a", 101.0)


def test_random_seats_at_the_start_tables_within_one_of_each_other() -> None:
    d = _started(19, seats=8)
    sizes = sorted(len(t.players) for t in d.tables.values())
    assert sizes == [6, 6, 7]
    again = _started(19, seats=8)
    assert {t: dict(x.players) for t, x in d.tables.items()} == {
        t: dict(x.players) for t, x in again.tables.items()
    }


def test_balancing_in_stud_moves_by_position_into_the_last_seat_opened() -> None:
    """TDA: in stud-only, players move by position; the last seat open at the short table is filled."""
    d = _started(16, seats=8)  # two tables of 8
    short, long_ = d.tables[1], d.tables[2]
    busted = [short.players[3], short.players[5]]  # vacated in seat order: seat 5 opens last
    winner = short.players[1]
    chips = {p: 0 for p in busted}
    chips[winner] = d.entrants[winner].chips + sum(d.entrants[p].chips for p in busted)
    mover = long_.players[5]
    commands = _play(d, 1, chips, 200.0)
    # table 2 is between hands: it gives its seat-5 player to table 1's seat 5 at once
    assert Seat(mover, 1, 5, d.entrants[mover].chips, 2) in commands
    assert short.players[5] == mover and len(short.players) == 7 and len(long_.players) == 7
    assert short.opened == [3]


def test_the_player_moved_is_the_next_clockwise_when_that_seat_number_is_empty() -> None:
    from sevenstud.tournament.seating import TableSeats

    table = TableSeats(2, 8, {1: "a", 2: "b", 7: "c", 8: "d"})
    assert table.player_for(5) == "c"
    assert table.player_for(8) == "d"
    table = TableSeats(2, 8, {1: "a", 2: "b"})
    assert table.player_for(5) == "a"  # wraps round past seat 8


def test_a_table_in_a_hand_gives_nobody_until_its_hand_ends() -> None:
    d = _started(16, seats=8)
    t1, t2 = d.tables[1], d.tables[2]
    start2 = {p: d.entrants[p].chips for p in t2.players.values()}
    d.hand_started(2, start2, 150.0)  # table 2 is in a hand
    losers = [t1.players[s] for s in (2, 4)]
    chips = {p: 0 for p in losers}
    keep = t1.players[1]
    chips[keep] = d.entrants[keep].chips + sum(d.entrants[p].chips for p in losers)
    commands = _play(d, 1, chips, 151.0)
    assert not [c for c in commands if isinstance(c, Seat)]  # table 2 is mid-hand: no move yet
    commands = d.hand_finished(2, start2, 160.0)
    assert [c.from_table for c in commands if isinstance(c, Seat)] == [2]


def _bust_four_at_tables_1_and_2(d: Director) -> list:
    """Four players bust at table 1, then four at table 2 (each table's fifth takes their
    chips): of three tables of 8, the 16 left fit two. The commands of table 2's hand."""
    commands: list = []
    for table in (1, 2):
        seats = d.tables[table]
        losers = [seats.players[s] for s in sorted(seats.players)[:4]]
        keep = seats.players[sorted(seats.players)[4]]
        chips = {p: 0 for p in losers}
        chips[keep] = d.entrants[keep].chips + sum(d.entrants[p].chips for p in losers)
        commands = _play(d, table, chips, 200.0 + table)
    return commands


def test_tables_break_highest_number_first_into_random_open_seats() -> None:
    d = _started(24, seats=8)  # three tables of 8
    assert sorted(d.tables) == [1, 2, 3]
    # eight players bust at tables 1 and 2 (four each): 16 left fit two tables
    commands = _bust_four_at_tables_1_and_2(d)
    assert CloseTable(3) in commands
    assert sorted(d.tables) == [1, 2]
    assert sorted(len(t.players) for t in d.tables.values()) == [8, 8]
    assert all(c.from_table == 3 for c in commands if isinstance(c, Seat))


def test_a_table_opened_after_one_broke_takes_a_new_number_never_the_broken_ones() -> None:
    # The card room keeps each tournament table (its hands, its history) under its number: a
    # late entry's new table after table 3 broke is table 4, kept so through a snapshot.
    d = _started(24, seats=8, late_registration_levels=3)
    commands = _bust_four_at_tables_1_and_2(d)
    assert CloseTable(3) in commands and sorted(d.tables) == [1, 2] and d.late_open
    d = director_from_record(director_to_record(d, 205.0), 205.0)
    commands = d.register("late", 210.0)
    assert sorted(d.tables) == [1, 2, 4]
    assert {c.table for c in commands if isinstance(c, Seat)} == {4}
    assert d.tables_opened == 4


def test_the_broken_table_in_a_hand_deals_no_more_and_breaks_when_it_ends() -> None:
    d = _started(24, seats=8)
    start3 = {p: d.entrants[p].chips for p in d.tables[3].players.values()}
    d.hand_started(3, start3, 150.0)
    _bust_four_at_tables_1_and_2(d)
    assert 3 in d.breaking and 3 in d.tables
    commands = d.hand_finished(3, start3, 210.0)
    assert CloseTable(3) in commands and 3 not in d.tables
    assert d.may_deal(1, 211.0) is not None


def test_the_final_table_is_drawn_again_when_the_players_fit_one() -> None:
    d = _started(12, seats=8)  # tables of 6 and 6
    seats = d.tables[1]
    losers = [seats.players[s] for s in sorted(seats.players)[:4]]
    keep = seats.players[sorted(seats.players)[4]]
    chips = {p: 0 for p in losers}
    chips[keep] = d.entrants[keep].chips + sum(d.entrants[p].chips for p in losers)
    commands = _play(d, 1, chips, 200.0)
    assert CloseTable(2) in commands
    assert list(d.tables) == [1] and len(d.tables[1].players) == 8
    assert {c.table for c in commands if isinstance(c, Seat)} == {1}


def _bust_down_to(d: Director, left: int, now: float) -> list:
    commands: list = []
    while len(d.players_left()) > left:
        table = max(d.tables.values(), key=lambda t: len(t.players))
        names = [table.players[s] for s in sorted(table.players)]
        losers = names[1 : 1 + min(len(names) - 2, len(d.players_left()) - left)] or names[1:2]
        chips = {p: 0 for p in losers}
        chips[names[0]] = d.entrants[names[0]].chips + sum(d.entrants[p].chips for p in losers)
        commands = _play(d, table.number, chips, now)
        now += 2
    return commands


def test_hand_for_hand_each_table_deals_one_hand_then_waits_for_all() -> None:
    # 40 players pay 6: hand-for-hand from 7 left, at two tables of six seats
    d = _started(40, seats=6)
    assert paid_places(40) == 6
    commands = _bust_down_to(d, 7, 300.0)
    assert len(d.players_left()) == 7 and len(d.tables) == 2
    assert d.hand_for_hand and HandForHand(True) in commands
    first, second = sorted(d.tables)
    _play(d, first, {}, 400.0)
    assert d.may_deal(first, 402.0) is None  # waits for the other table's hand
    assert d.may_deal(second, 402.0) is not None
    _play(d, second, {}, 403.0)
    assert d.may_deal(first, 405.0) is not None


def test_players_busting_in_one_hand_for_hand_round_are_placed_together() -> None:
    d = _started(40, seats=6)
    _bust_down_to(d, 7, 300.0)
    first, second = sorted(d.tables)
    a = [d.tables[first].players[s] for s in sorted(d.tables[first].players)]
    b = [d.tables[second].players[s] for s in sorted(d.tables[second].players)]
    d.entrants[a[1]].chips, d.entrants[a[0]].chips = (
        100,
        d.entrants[a[0]].chips + d.entrants[a[1]].chips - 100,
    )
    # table one's short stack busts first: not placed until table two's hand of the round ends
    assert [
        c
        for c in _play(d, first, {a[0]: d.entrants[a[0]].chips + 100, a[1]: 0}, 400.0)
        if isinstance(c, Finish)
    ] == []
    commands = _play(d, second, {b[0]: d.entrants[b[0]].chips + d.entrants[b[1]].chips, b[1]: 0}, 401.0)
    finishes = {c.player: c for c in commands if isinstance(c, Finish)}
    assert set(finishes) == {a[1], b[1]}
    assert finishes[a[1]].place == 7 and finishes[b[1]].place == 6  # b[1] began with more chips
    assert finishes[a[1]].prize == 0 and finishes[b[1]].prize > 0
    assert HandForHand(False) in commands


def test_busts_in_one_hand_are_placed_by_chips_at_its_start_and_equal_chips_tie() -> None:
    d = Director(TournamentSettings(kind="sit_and_go", seats=6, max_entries=6), seed=2)
    for name in "abcdef":
        d.register(name, 0.0)
    chips = {"a": 4000, "b": 1000, "c": 1000, "d": 500, "e": 1500, "f": 1000}
    for name, count in chips.items():
        d.entrants[name].chips = count
    seated = {p: d.entrants[p].chips for p in d.tables[1].players.values()}
    d.hand_started(1, seated, 1.0)
    # b, c, d and f bust together: d had least (6th), b, c and f tie on 1000 for 3rd to 5th
    commands = d.hand_finished(1, {"a": 8500, "b": 0, "c": 0, "d": 0, "e": 500, "f": 0}, 2.0)
    finishes = {c.player: c for c in commands if isinstance(c, Finish)}
    assert finishes["d"].place == 6
    assert {finishes[p].place for p in "bcf"} == {3} and finishes["b"].tied == 3
    assert sum(c.prize for c in finishes.values()) == 0  # 6 players pay two places
    commands = _play(d, 1, {"a": 9000, "e": 0}, 3.0)
    finishes = {c.player: c for c in commands if isinstance(c, Finish)}
    assert finishes["e"] == Finish("e", 2, 210) and finishes["a"] == Finish("a", 1, 390)
    assert commands[-1] == Status("finished")


def test_tied_places_share_their_prizes() -> None:
    from sevenstud.tournament.payouts import shared_prizes

    assert shared_prizes((500, 300, 200), 2, ["x", "y"]) == {"x": 250, "y": 250}
    assert shared_prizes((500, 301, 200), 2, ["x", "y"]) == {"x": 251, "y": 250}
    assert shared_prizes((500, 300, 200), 3, ["x", "y"]) == {"x": 100, "y": 100}  # 4th pays nothing


@pytest.mark.parametrize("entries", [2, 3, 6, 8, 9, 10, 11, 45, 100, 180, 1000, 10_000])
def test_the_payout_table_pays_the_pool_exactly_and_never_more_for_a_worse_place(entries: int) -> None:
    pool = entries * 100
    prizes = payout_table(entries, pool)
    assert sum(prizes) == pool
    assert all(a >= b for a, b in itertools.pairwise(prizes))
    if entries > 10:
        assert len(prizes) == max(3, round(entries * 0.15))
        assert prizes[-1] >= 100  # the last paid place at least gets the buy-in back
    else:
        assert len(prizes) == (1 if entries <= 3 else 2 if entries <= 6 else 3)


def test_icm_matches_malmuth_harville_by_hand() -> None:
    # three players 50/30/20 of the chips, prizes 50/30/20
    values = icm([50, 30, 20], [50, 30, 20])
    p_a_first = Fraction(1, 2)
    # a second: b first then a of the rest (50/70), or c first then a (50/80)
    p_a_second = Fraction(3, 10) * Fraction(50, 70) + Fraction(2, 10) * Fraction(50, 80)
    p_a_third = 1 - p_a_first - p_a_second
    assert values[0] == 50 * p_a_first + 30 * p_a_second + 20 * p_a_third
    assert sum(values) == 100
    assert icm([10, 10, 10], [60, 40]) == (Fraction(100, 3),) * 3


def test_the_icm_deal_needs_everyone_in_the_money_and_everyone_to_agree() -> None:
    d = Director(TournamentSettings(kind="sit_and_go", seats=8, max_entries=8), seed=4)
    for name in "abcdefgh":
        d.register(name, 0.0)
    with pytest.raises(TournamentError, match="in the money"):
        d.deal_offer()
    for name in "defgh":  # five bust, chips to a, b and c
        d.entrants[name].chips = 0
    d.entrants["a"].chips, d.entrants["b"].chips, d.entrants["c"].chips = 6000, 4000, 2000
    d._busted_groups = []
    d._place([(n, 0) for n in "defgh"])
    offer = d.deal_offer()
    assert sum(offer.values()) == 800 and offer["a"] > offer["b"] > offer["c"]
    assert offer == icm_deal({"a": 6000, "b": 4000, "c": 2000}, [400, 240, 160])
    with pytest.raises(TournamentError, match="no deal has been proposed"):
        d.accept_deal("a", 1.0)
    assert d.propose_deal("a", 1.0, seconds=60.0) == [Deal("proposed", "a")]
    assert d.accept_deal("a", 1.0) == [Deal("accepted", "a")]
    assert d.accept_deal("b", 1.0) == [Deal("accepted", "b")]
    commands = d.accept_deal("c", 1.0)
    assert [(c.player, c.place, c.prize) for c in commands if isinstance(c, Finish)] == [
        ("a", 1, offer["a"]),
        ("b", 2, offer["b"]),
        ("c", 3, offer["c"]),
    ]
    assert d.state == "finished"


def test_a_new_level_from_the_next_hand_on_every_table_and_the_clock_stops_for_pauses() -> None:
    d = _started(16, seats=8)
    start = {p: d.entrants[p].chips for p in d.tables[1].players.values()}
    d.hand_started(1, start, 100.0)
    d.pause(150.0)
    assert d.tick(500.0) == []  # paused: no level rises
    d.resume(500.0)
    commands = d.tick(500.0 + 30.0)  # 50 + 30 s of play: 80 s of the 180 s level
    assert commands == [] and d.level_index == 0
    commands = d.tick(500.0 + 131.0)
    assert NewLevel(1, TURBO.level(1), "stud8") in commands
    # the hand in progress was dealt at level 0; the next hand anywhere deals level 1
    assert d.may_deal(2, 632.0) == (1, TURBO.level(1))
    d.hand_finished(1, start, 633.0)
    assert d.may_deal(1, 633.0) == (1, TURBO.level(1))


def test_breaks_are_taken_by_every_table_at_the_same_moment_once_hands_end() -> None:
    structure = Structure(
        "test", (Level(2, 5, 20, 40, minutes=10.0),) * 3, break_every=20.0, break_minutes=5.0
    )
    d = _started(16, seats=8, structure=structure)
    start = {p: d.entrants[p].chips for p in d.tables[1].players.values()}
    d.hand_started(1, start, 100.0 + 1190.0)
    assert d.tick(100.0 + 1200.0) == [NewLevel(1, structure.level(1), "stud8")] or d.break_due
    d.tick(100.0 + 1201.0)
    assert d.break_due and d.may_deal(2, 1302.0) is None  # no new hand anywhere
    commands = d.hand_finished(1, start, 1310.0)  # the last hand in progress ends: the break
    assert Break(1310.0, 1310.0 + 300.0) in commands and d.state == "break"
    assert d.time_to_break(1400.0) == pytest.approx(1200.0)  # the next one: 20 minutes of play on
    d.tick(1610.0)
    assert d.state == "running" and d.may_deal(1, 1610.0) is not None and d.may_deal(2, 1610.0) is not None


def test_a_hand_result_that_makes_or_loses_chips_is_refused() -> None:
    d = _started(6, seats=6)
    seated = {p: d.entrants[p].chips for p in d.tables[1].players.values()}
    d.hand_started(1, seated, 101.0)
    bad = dict(seated)
    bad[next(iter(bad))] += 1
    with pytest.raises(TournamentError, match="add up"):
        d.hand_finished(1, bad, 102.0)
    assert d.chips_in_play() == d.chips_issued


def test_structures_that_make_no_sense_are_refused_naming_the_part() -> None:
    with pytest.raises(StructureError, match="minutes or a number of hands"):
        Level(2, 5, 20, 40, minutes=None)
    with pytest.raises(StructureError, match="must not fall"):
        Structure("x", (Level(2, 5, 20, 40), Level(1, 2, 10, 20)))
    with pytest.raises(StructureError, match="cover the first level"):
        TournamentSettings(starting_chips=5, structure=STANDARD)
    with pytest.raises(StructureError, match="unknown game"):
        TournamentSettings(rotation=("holdem",))  # type: ignore[arg-type]


def test_a_rotation_deals_its_games_one_a_level() -> None:
    s = TournamentSettings(rotation=("stud8", "razz", "stud"))
    assert [s.game_at(i) for i in range(4)] == ["stud8", "razz", "stud", "stud8"]


def test_seats_opened_in_one_hand_open_in_seat_order_the_highest_last() -> None:
    # docs/tournaments.md, "Balancing": two players bust in one hand at table 1 (its result
    # given highest seat first); the higher-numbered seat is the one opened last, so it is the
    # seat balancing fills (a table of eight gives table 1 a player at once).
    d = _started(24, seats=8)  # three tables of eight
    seats = d.tables[1]
    numbers = sorted(seats.players)
    low, high = seats.players[numbers[1]], seats.players[numbers[2]]
    winner = seats.players[numbers[0]]
    start = {p: d.entrants[p].chips for p in seats.players.values()}
    d.hand_started(1, start, 200.0)
    result = {high: 0, low: 0, winner: start[winner] + start[low] + start[high]}
    result.update({p: c for p, c in start.items() if p not in result})
    d.hand_finished(1, result, 201.0)
    assert d.tables[1].opened[-1:] == [numbers[1]]
    assert d.tables[1].players[numbers[2]] not in start, "the seat opened last is filled"
