"""Whole tournaments played on real tables (sevenstud.tournament.play, issue 15 points 3-5 and
11 in short): the director and one Table per tournament table, a bot in every seat, every
command carried out, chips and seats checked against the director after every hand; at the end
every entrant is placed once and the prizes add up to the pool. The 10,000-entrant version is
benchmarks/tournament_scale.py."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from sevenstud.tournament import Director, TournamentSettings
from sevenstud.tournament.payouts import payout_table
from sevenstud.tournament.play import PlayError, PlayResult, _Play, play
from sevenstud.tournament.structure import HYPER_BY_HANDS, TURBO


def _check_result(result: PlayResult, settings: TournamentSettings, entrants: int) -> None:
    assert len(result.places) == entrants, "every entrant is placed"
    assert Counter(f.player for f in result.finishes) == Counter({p: 1 for p in result.places}), "each once"
    pool = entrants * settings.buy_in
    assert sum(result.prizes.values()) == pool, "the prizes add up to the pool"
    ranked = sorted(result.finishes, key=lambda f: f.place)
    assert ranked[0].place == 1 and ranked[0].tied == 1
    for better, worse in itertools.pairwise(ranked):
        assert better.place <= worse.place and better.prize >= worse.prize
    table = payout_table(entrants, pool, single_table=settings.kind == "sit_and_go" or None)
    assert [f.prize for f in ranked[: len(table)]] == list(table), "paid by the payout table"


def test_a_sit_and_go_of_six_bots_is_played_to_the_end_on_a_real_table() -> None:
    settings = TournamentSettings(kind="sit_and_go", seats=6, max_entries=6, structure=TURBO)
    result = play(settings, seed=11)
    _check_result(result, settings, 6)
    assert sorted(result.places.values()) == [1, 2, 3, 4, 5, 6]
    assert sorted(result.prizes.values(), reverse=True)[:3] == [390, 210, 0], "65/35 of 600"
    assert result.most_tables == 1 and result.hands > 5


def test_sixty_entrants_play_to_one_winner_across_moves_breaks_and_the_final_table() -> None:
    settings = TournamentSettings(kind="scheduled", start_at=0.0, seats=8, max_entries=60, structure=TURBO)
    result = play(settings, seed=4)
    _check_result(result, settings, 60)
    assert result.most_tables >= 7, "60 players start at 8 tables"
    assert sorted(result.places.values())[:3] == [1, 2, 3]


def test_a_player_away_for_the_whole_sit_and_go_is_anted_away_and_placed() -> None:
    settings = TournamentSettings(kind="sit_and_go", seats=6, max_entries=6, structure=HYPER_BY_HANDS)
    result = play(settings, seed=2, away=["p3"])
    _check_result(result, settings, 6)
    assert result.places["p3"] != 1, "folded every hand, they cannot win"


def test_a_rotation_of_games_changes_the_tables_game_by_level() -> None:
    settings = TournamentSettings(
        kind="sit_and_go",
        seats=2,
        max_entries=2,
        structure=HYPER_BY_HANDS,
        rotation=("razz", "stud", "stud8"),
    )
    result = play(settings, seed=5)
    _check_result(result, settings, 2)
    assert result.hands > 16, "long enough for three levels of eight hands"
    assert set(result.games) == {"Razz", "Seven Card Stud", "Seven Card Stud Hi/Lo"}, result.games


def test_the_driver_notices_a_table_that_disagrees_with_the_director() -> None:
    settings = TournamentSettings(kind="sit_and_go", seats=2, max_entries=2, structure=TURBO)
    director = Director(settings, seed=1)
    run = _Play(director, __import__("random").Random(1), {}, (1.0, 2.0), 1)
    run.carry_out(director.register("ann", 0.0))
    run.carry_out(director.register("bob", 0.0))
    run.tables[1].top_up("ann", 5, 1.0)  # chips from nowhere
    with pytest.raises(PlayError, match="counted again"):
        run.check(1)


def test_rebuys_are_added_to_the_real_stacks_and_the_pool() -> None:
    settings = TournamentSettings(
        kind="sit_and_go", seats=6, max_entries=6, structure=HYPER_BY_HANDS, rebuy_levels=6, rebuy_limit=2
    )
    result = play(settings, seed=8, rebuys=True)
    assert sorted(result.places.values()) == [1, 2, 3, 4, 5, 6], "every entrant placed once"
    assert result.pool > 600, "some rebought, into the pool"
    assert sum(result.prizes.values()) == result.pool
    assert result.chips_issued - 6 * 1500 == (result.pool - 600) // 100 * 1500, "each rebuy 1,500 chips"
