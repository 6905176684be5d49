"""The payout table (docs/tournaments.md, "Prizes"; issue 35): over every field from 2 to
10,000 entrants it pays the pool exactly, each place at least the next, first place a share
that never grows with the field, and no place less when one more player enters (the pool
grows by a buy-in; a chip of rounding aside). On the table of before, 20 entrants paid first
75% of the pool, and an 11th entrant took 2nd from 300 to 263 and 3rd from 200 to 150."""

from __future__ import annotations

import operator

import pytest

from sevenstud.tournament.payouts import mtt_buy_ins, paid_places, payout_table

BUY_IN = 100


def test_every_field_from_2_to_10000_keeps_every_invariant() -> None:
    # C-level checks (map over operator): 10,000 tables pay 7.5 million places in all.
    before: tuple[int, ...] = ()
    for entries in range(2, 10_001):
        pool = entries * BUY_IN
        prizes = payout_table(entries, pool)
        assert sum(prizes) == pool and len(prizes) == paid_places(entries), entries
        assert all(map(operator.ge, prizes, prizes[1:])), f"{entries}: a place pays more than the one above"
        assert prizes[-1] >= BUY_IN - 1, f"{entries}: the last paid place wins less than its buy-in"
        if before:
            # first place's share never grows: prizes[0] / pool <= before[0] / (pool - BUY_IN)
            assert prizes[0] * (pool - BUY_IN) <= (before[0] + 1) * pool, f"{entries}: first's share grew"
            if not all(map(operator.ge, map((1).__add__, prizes), before)):
                pairs = zip(prizes, before, strict=False)
                fell = next(i for i, (now, was) in enumerate(pairs) if now + 1 < was)
                pytest.fail(f"{entries} entrants: place {fell + 1} wins less than with one fewer")
        before = prizes


def test_small_multi_table_fields_pay_first_no_more_than_half() -> None:
    assert payout_table(20, 2000) == (962, 607, 431)  # 48%, 30%, 22%
    assert payout_table(11, 1100) == (546, 331, 223)  # an 11th entrant adds to every prize
    assert payout_table(10, 1000) == (500, 300, 200)
    for entries in range(11, 200):
        assert payout_table(entries, entries * BUY_IN)[0] <= entries * BUY_IN // 2


def test_the_sit_and_go_tables_are_the_rooms_own() -> None:
    assert payout_table(2, 200) == (200,)
    assert payout_table(6, 600) == (390, 210)  # 65/35
    assert payout_table(10, 1000) == (500, 300, 200)  # 50/30/20
    assert payout_table(8, 800) == (400, 240, 160)  # 50/30/20, an eight-handed stud table
    # where the rooms' shares would cut a prize for one more player: 3 paid 300 to first
    assert payout_table(4, 400) == (300, 100) and payout_table(3, 300) == (300,)
    assert payout_table(7, 700) == (390, 210, 100) and payout_table(6, 600) == (390, 210)


@pytest.mark.parametrize("entries", [2, 5, 10, 11, 23, 24, 100, 1000])
def test_a_multi_table_field_of_any_size_the_same_shape(entries: int) -> None:
    prizes = payout_table(entries, entries * BUY_IN, single_table=False)
    assert sum(prizes) == entries * BUY_IN and all(map(operator.ge, prizes, prizes[1:]))
    assert sum(mtt_buy_ins(entries)) == pytest.approx(entries)


def test_first_places_share_falls_as_the_field_grows() -> None:
    shares = {n: payout_table(n, n * BUY_IN)[0] / (n * BUY_IN) for n in (10, 20, 100, 1000, 10_000)}
    assert shares[10] == 0.5 and 0.45 < shares[20] < 0.5
    assert 0.25 < shares[100] < 0.32 and 0.1 < shares[1000] < 0.16 and shares[10_000] < shares[1000]
