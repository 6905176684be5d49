"""The rulings of the players' requests (docs/tournaments.md, "Rulings": re-entry, rebuys, the
add-on, the ICM deal), each test naming its rule; the director alone, no I/O."""

from __future__ import annotations

import dataclasses

import pytest

from sevenstud.tournament import (
    AddChips,
    Deal,
    Director,
    Finish,
    Status,
    TournamentError,
    TournamentSettings,
)
from sevenstud.tournament.payouts import icm_deal
from sevenstud.tournament.snapshot import director_from_record, director_to_record
from sevenstud.tournament.structure import TURBO


def _final_three() -> Director:
    """A sit-and-go of eight down to three, all in the money (400/240/160 of 800)."""
    d = Director(TournamentSettings(kind="sit_and_go", seats=8, max_entries=8), seed=4)
    for name in "abcdefgh":
        d.register(name, 0.0)
    start = {p: d.entrants[p].chips for p in d.tables[1].players.values()}
    d.hand_started(1, start, 1.0)
    result = {p: 0 for p in "defgh"} | {"a": 6000, "b": 4000, "c": 2000}
    d.hand_finished(1, result, 2.0)
    assert d.players_left_count == 3
    return d


def _hand(d: Director, result: dict[str, int], now: float) -> list:
    seated = list(d.tables[1].players.values())
    start = {p: d.entrants[p].chips for p in seated if d.entrants[p].chips > 0}
    d.hand_started(1, start, now)
    return d.hand_finished(1, {p: result.get(p, d.entrants[p].chips) for p in seated}, now + 1)


def test_a_deal_talked_over_stops_the_deal_and_the_clock_and_a_no_ends_it() -> None:
    """Ruling "The ICM deal": while it is talked over no hand is dealt and the play clock
    stands still; one player's no calls it off and play goes on where the clock stood."""
    d = _final_three()
    played = d.play_time(10.0)
    assert d.may_deal(1, 10.0) is not None
    assert d.propose_deal("c", 10.0, seconds=60.0) == [Deal("proposed", "c")]
    assert d.may_deal(1, 11.0) is None
    assert d.play_time(40.0) == pytest.approx(played)
    with pytest.raises(TournamentError, match="already"):
        d.propose_deal("a", 11.0, seconds=60.0)
    with pytest.raises(TournamentError, match="zed is not in the tournament"):
        d.accept_deal("zed", 11.0)
    assert d.decline_deal("b", 40.0) == [Deal("off", "b")]
    assert d.deal is None and d.may_deal(1, 41.0) is not None
    assert d.play_time(50.0) == pytest.approx(played + 10.0)


def test_a_deal_not_agreed_in_time_lapses_and_play_goes_on() -> None:
    d = _final_three()
    d.propose_deal("a", 10.0, seconds=30.0, accepting={"b"})
    d.accept_deal("a", 11.0)
    assert d.tick(39.0) == []
    assert d.tick(40.0) == [Deal("off", "")]
    assert d.deal is None and d.may_deal(1, 41.0) is not None


def test_the_offer_is_made_between_hands_and_a_bust_changes_who_agrees() -> None:
    """Asked for during a hand: nobody can say yes until it is over (the offer is the stacks
    at its end); the players who accept anything (bots) agree at once; a bust in that hand
    leaves the others to agree, and when all of them have, the deal is paid."""
    d = _final_three()
    seated = list(d.tables[1].players.values())
    d.hand_started(1, {p: d.entrants[p].chips for p in seated}, 10.0)
    d.propose_deal("c", 10.5, seconds=60.0, accepting={"a", "b"})
    with pytest.raises(TournamentError, match="hand in progress ends first"):
        d.accept_deal("c", 10.6)
    # c busts in that hand: a and b (bots, agreed) are all that is left: the deal is made.
    commands = d.hand_finished(1, {"a": 7000, "b": 5000, "c": 0}, 11.0)
    finishes = [(c.player, c.place, c.prize) for c in commands if isinstance(c, Finish)]
    offer = icm_deal({"a": 7000, "b": 5000}, [400, 240])
    assert ("c", 3, 160) in finishes
    assert ("a", 1, offer["a"]) in finishes and ("b", 2, offer["b"]) in finishes
    assert Deal("done", "") in commands and Status("finished") in commands
    assert sum(e.prize for e in d.entrants.values()) == d.pool == 800


def test_a_deal_is_made_only_at_the_final_table_in_the_money() -> None:
    d = Director(TournamentSettings(kind="sit_and_go", seats=6, max_entries=6, structure=TURBO), seed=2)
    for name in "abcdef":
        d.register(name, 0.0)
    with pytest.raises(TournamentError, match="in the money"):
        d.propose_deal("a", 1.0, seconds=60.0)
    assert d.deal is None


def test_a_deal_talked_over_survives_a_restart_with_its_time_moved_on() -> None:
    """Ruling "Recovery": the time the room was down is no one's: the deal's end moves on by it."""
    d = _final_three()
    d.propose_deal("a", 10.0, seconds=30.0, accepting={"b"})
    again = director_from_record(director_to_record(d, 12.0), 100.0)
    assert again.deal is not None and again.deal.accepted == {"b"}
    assert again.deal.ends == pytest.approx(128.0)
    assert again.may_deal(1, 101.0) is None


def test_re_entry_asks_busted_players_in_late_registration_with_entries_left() -> None:
    """Ruling "Re-entry": a busted player may buy in again ``re_entries`` times while late
    registration is open; the refusals name what is wrong and change nothing."""
    settings = TournamentSettings(
        kind="scheduled",
        start_at=5.0,
        seats=6,
        max_entries=100,
        structure=TURBO,
        late_registration_levels=2,
        re_entries=1,
    )
    d = Director(settings, seed=1)
    for name in "abcdef":
        d.register(name, 0.0)
    d.tick(5.0)
    with pytest.raises(TournamentError, match="still in the tournament"):
        d.verify_re_entry("a")
    with pytest.raises(TournamentError, match="no entry to make again"):
        d.verify_re_entry("zed")
    table = d.table_of("a")
    assert table is not None
    others = [p for p in d.tables[table].players.values() if p != "a"]
    _hand_at(d, table, {"a": 0, others[0]: d.entrants[others[0]].chips + 1500}, 10.0)
    assert d.can_re_enter("a")
    entries, pool = d.entries, d.pool
    d.register("a", 12.0)
    assert d.entries == entries + 1 and d.pool == pool + 100 and d.entrants["a"].chips == 1500
    assert d.chips_in_play() == d.chips_issued == d.entries * 1500
    table = d.table_of("a")
    assert table is not None
    others = [p for p in d.tables[table].players.values() if p != "a"]
    _hand_at(d, table, {"a": 0, others[0]: d.entrants[others[0]].chips + 1500}, 20.0)
    with pytest.raises(TournamentError, match=r"every re-entry allowed \(1\)"):
        d.verify_re_entry("a")
    assert not d.can_re_enter("a")


def _hand_at(d: Director, table: int, result: dict[str, int], now: float) -> list:
    seated = list(d.tables[table].players.values())
    start = {p: d.entrants[p].chips for p in seated if d.entrants[p].chips > 0}
    d.hand_started(table, start, now)
    return d.hand_finished(table, {p: result.get(p, d.entrants[p].chips) for p in seated}, now + 1)


def test_rebuys_and_the_add_on_are_granted_only_when_the_template_allows() -> None:
    """Ruling "Rebuys" and "The add-on": at no more than the starting chips while rebuys are on,
    ``rebuy_limit`` at most; the add-on once, in the level after the rebuys; each refusal
    names what is wrong."""
    plain = Director(TournamentSettings(kind="sit_and_go", seats=2, max_entries=2), seed=1)
    plain.register("a", 0.0)
    plain.register("b", 0.0)
    with pytest.raises(TournamentError, match="no rebuys"):
        plain.verify_rebuy("a")
    with pytest.raises(TournamentError, match="no add-on"):
        plain.verify_add_on("a")
    settings = TournamentSettings(
        kind="sit_and_go",
        seats=2,
        max_entries=2,
        structure=TURBO,
        rebuy_levels=1,
        rebuy_limit=1,
        add_on_chips=2000,
        add_on_price=50,
    )
    d = Director(settings, seed=1)
    d.register("a", 0.0)
    d.register("b", 0.0)
    assert d.can_rebuy("a") and not d.can_add_on("a")
    assert d.rebuy("a", 1.0) == [AddChips("a", 1500, 100, "rebuy")]
    assert not d.can_rebuy("a")  # over the starting chips now, and the one rebuy made
    with pytest.raises(TournamentError, match=r"every rebuy allowed \(1\)"):
        d.verify_rebuy("a")
    unlimited = Director(dataclasses.replace(settings, rebuy_limit=0), seed=1)
    unlimited.register("a", 0.0)
    unlimited.register("b", 0.0)
    unlimited.rebuy("a", 1.0)
    with pytest.raises(TournamentError, match="more than the starting chips"):
        unlimited.verify_rebuy("a")

    d.tick(1.0 + 181.0)  # level 2: rebuys over, the add-on on
    assert d.level_index == 1 and not d.can_rebuy("b") and d.can_add_on("b")
    assert d.add_on("b", 183.0) == [AddChips("b", 2000, 50, "add_on")]
    with pytest.raises(TournamentError, match="taken the add-on already"):
        d.verify_add_on("b")
    assert d.pool == 2 * 100 + 100 + 50 and d.chips_in_play() == d.chips_issued == 3000 + 1500 + 2000


def test_chips_bought_during_a_hand_join_the_stack_when_it_ends() -> None:
    """Ruling "Rebuys" / "The add-on": a rebuy or an add-on is taken at any moment, but its
    chips join the stack only when the hand the player is dealt into ends (a hand is played
    with the stack it was dealt with); a player who loses that hand keeps them and is not out.
    The chips issued are in play at every step."""
    settings = TournamentSettings(
        kind="sit_and_go", seats=6, max_entries=6, structure=TURBO, rebuy_levels=2, add_on_chips=2000
    )
    d = Director(settings, seed=5)
    for name in "abcdef":
        d.register(name, 0.0)
    seated = list(d.tables[1].players.values())
    d.hand_started(1, {p: d.entrants[p].chips for p in seated}, 1.0)
    assert d.rebuy("a", 1.5) == [AddChips("a", 1500, 100, "rebuy")]
    assert d.entrants["a"].chips == 1500 and d.entrants["a"].owed == 1500
    assert d.chips_in_play() == d.chips_issued == 7 * 1500
    with pytest.raises(TournamentError, match="more than the starting chips"):
        d.verify_rebuy("a")  # 1,500 as dealt and 1,500 owed
    # a loses everything in the hand, to b: the rebuy's chips keep a in.
    result = {p: d.entrants[p].chips for p in seated} | {"a": 0, "b": 3000}
    d.hand_finished(1, result, 2.0)
    assert d.entrants["a"].chips == 1500 and d.entrants["a"].owed == 0 and not d.entrants["a"].out
    assert d.chips_in_play() == d.chips_issued
    again = Director(settings, seed=5)
    for name in "abcdef":
        again.register(name, 0.0)
    again.hand_started(1, {p: again.entrants[p].chips for p in seated}, 1.0)
    again.rebuy("c", 1.5)
    again.hand_cancelled(1, 2.0)  # a crash: the hand is called off, the bought chips are c's
    assert again.entrants["c"].chips == 3000 and again.entrants["c"].owed == 0
    assert again.chips_in_play() == again.chips_issued


def test_a_pause_holds_a_busted_players_time_to_rebuy_through_a_restart_too() -> None:
    """Ruling "Rebuys" with an operator's pause: the time to rebuy stands still with the clock
    (a pause longer than it leaves the player in), goes on after the resume from where it
    stood, and a restart during the pause changes none of that."""
    settings = TournamentSettings(
        kind="sit_and_go", seats=6, max_entries=6, structure=TURBO, rebuy_levels=2, rebuy_seconds=20.0
    )
    d = Director(settings, seed=5)
    for name in "abcdef":
        d.register(name, 0.0)
    seated = list(d.tables[1].players.values())
    d.hand_started(1, {p: d.entrants[p].chips for p in seated}, 1.0)
    result = {p: d.entrants[p].chips for p in seated} | {"a": 0, "b": 3000}
    d.hand_finished(1, result, 2.0)  # a busts at 2.0: may rebuy until 22.0
    assert d.entrants["a"].rebuy_until == pytest.approx(22.0)
    d.pause(12.0)  # 10 s of the 20 left
    assert d.tick(100.0) == [] and not d.entrants["a"].out
    stored = director_to_record(d, 150.0)
    d = director_from_record(stored, 400.0)  # down 250 s, still paused
    assert d.paused and d.tick(500.0) == [] and not d.entrants["a"].out
    d.resume(1000.0)
    assert d.entrants["a"].rebuy_until == pytest.approx(1010.0)
    d.tick(1009.0)
    assert not d.entrants["a"].out and d.can_rebuy("a")
    d.tick(1010.5)
    assert d.entrants["a"].out
