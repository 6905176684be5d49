"""Duplicate matches (sevenstud.bots.match) and the quick heads-up ladder (issue 17, point 1):
the tight and equity bots beat the calling station and the random bot, the 95% interval above
zero. (The full ladder, every pair in every game, is benchmarks/bot_ladder.py; its figures are
in docs/bots.md.)"""

from __future__ import annotations

import pytest

from sevenstud.bots import RuleBot
from sevenstud.bots.match import duplicate_match
from sevenstud.games import Stakes


def test_a_duplicate_match_is_zero_sum_and_repeatable() -> None:
    one = duplicate_match(["tight", "random", "station"], game="razz", deals=20, seed=4)
    assert one.hands == 60 and [r.name for r in one.results] == ["tight", "random", "station"]
    assert abs(sum(r.msb_per_hand for r in one.results)) < 1e-9
    assert duplicate_match(["tight", "random", "station"], game="razz", deals=20, seed=4) == one
    other = duplicate_match(["tight", "random", "station"], game="razz", deals=20, seed=5)
    assert other != one


def test_duplicate_deals_cancel_the_cards_between_equal_bots() -> None:
    # The same bot in both seats, the same seed in each rotation: each deck is played once from
    # each side, so every deck's two hands cancel exactly.
    result = duplicate_match(
        [lambda seed: RuleBot(seed=7), lambda seed: RuleBot(seed=7)], game="stud8", deals=30, seed=2
    )
    assert [r.msb_per_hand for r in result.results] == [0.0, 0.0]
    assert [r.ci95 for r in result.results] == [0.0, 0.0]


def test_a_match_refuses_what_it_cannot_play() -> None:
    with pytest.raises(ValueError, match="unknown bot kind 'shark'"):
        duplicate_match(["tight", "shark"], deals=2)
    with pytest.raises(ValueError, match="2 to 8 bots, not 1"):
        duplicate_match(["tight"], deals=2)
    with pytest.raises(ValueError, match="unknown game 'holdem'"):
        duplicate_match(["tight", "rule"], game="holdem", deals=2)
    with pytest.raises(ValueError, match="at least 2 deals"):
        duplicate_match(["tight", "rule"], deals=1)


def test_results_are_in_milli_small_bets_per_hand() -> None:
    # The same match at twice the stakes is the same in small bets.
    small = duplicate_match(["tight", "station"], deals=40, seed=3)
    big = duplicate_match(["tight", "station"], deals=40, seed=3, stakes=Stakes(2, 4, 10, 20))
    assert [round(r.msb_per_hand, 6) for r in small.results] == [
        round(r.msb_per_hand, 6) for r in big.results
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("winner", "loser", "deals"),
    [
        ("tight", "station", 1500),
        ("tight", "random", 1500),
        ("equity", "station", 250),
        ("equity", "random", 250),
    ],
)
def test_the_ladder_heads_up_stud8(winner: str, loser: str, deals: int) -> None:
    result = duplicate_match([winner, loser], game="stud8", deals=deals, seed=11)
    first, second = result.results
    assert first.low > 0, str(result)
    assert second.high < 0, str(result)
