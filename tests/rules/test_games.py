"""The three games (docs/rules.md, "Games", and "Showdown", rules 2 to 4): who wins the pot in
Seven Card Stud (high) and in Razz (ace-to-five, no qualifier)."""

from __future__ import annotations

import pytest
from studtable import awarded, new_hand, play, razz, stud

from sevenstud.games import GameError, Razz, Stakes, Stud, StudHiLo, game_by_name
from sevenstud.hand import Hand, HandShown


def check_down(hand: Hand) -> Hand:
    while not hand.is_over:
        hand.act("check")
    return hand


def shown(hand: Hand) -> dict[int, tuple[str | None, str | None]]:
    return {e.seat: (e.high, e.low) for e in hand.events if isinstance(e, HandShown)}


def test_the_three_games_and_their_defaults() -> None:
    stakes = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
    assert isinstance(game_by_name("stud8", stakes), StudHiLo)
    assert isinstance(game_by_name("stud", stakes), Stud)
    assert isinstance(game_by_name("razz", stakes), Razz)
    assert Stud(stakes).double_bet_on_open_pair is True
    assert StudHiLo(stakes).double_bet_on_open_pair is False
    assert Razz(stakes).bring_in_by == "highest" and StudHiLo(stakes).bring_in_by == "lowest"
    for game in (Stud(stakes), StudHiLo(stakes), Razz(stakes)):
        assert (game.max_raises, game.uncapped_heads_up, game.rake_percent) == (3, False, 0)
        assert (game.bring_in_tie_break, game.odd_chip) == ("suits", "high_card")
        assert game.first_actor_all_in == "next_clockwise"


def test_double_bet_option_exists_only_in_stud_high() -> None:
    stakes = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
    for cls in (StudHiLo, Razz):
        with pytest.raises(GameError, match="no 4th-street double bet"):
            cls(stakes, double_bet_on_open_pair=True)


def test_stud_best_high_hand_wins_the_whole_pot() -> None:
    # Seat 0 has an 8-6-4-3-A low, which counts for nothing in stud high.
    hands = {0: "Ac 3d 8h | 6h | 4s | Kc | Qd", 1: "9c 9d 2s | 5c | Td | Jh | 7s"}
    hand = check_down(play(new_hand(stud(), [100, 100], hands), "1: bring-in", "0: call"))
    assert shown(hand)[1] == ("a pair of Nines", None)
    assert awarded(hand) == [(1, 6, 0, "whole")]


def test_razz_best_low_hand_wins_without_a_qualifier() -> None:
    # A nine low wins in razz (it would not qualify in hi/lo) against a paired hand.
    hands = {0: "9c 8d 7h | 5s | 3c | Kd | Kh", 1: "Qc Qd Jh | Js | Tc | Ts | 2d"}
    hand = new_hand(razz(), [100, 100], hands)
    assert hand.bring_in_seat == 1  # the jack
    check_down(play(hand, "1: bring-in", "0: call"))
    assert shown(hand)[0] == (None, "9,8,7,5,3")
    assert awarded(hand) == [(0, 6, 0, "whole")]


def test_razz_wheel_is_the_best_low_straights_and_flushes_do_not_count() -> None:
    # 5h 4h 3h 2h Ah is a straight flush in a high game and the best low in razz.
    hands = {0: "Ac 2c 3c | 4c | 6d | Qs | Qh", 1: "Ah 2h 3h | 4h | 5h | Kc | Kd"}
    hand = check_down(play(new_hand(razz(), [100, 100], hands), "1: bring-in", "0: call"))
    assert shown(hand) == {0: (None, "6,4,3,2,A"), 1: (None, "5,4,3,2,A")}
    assert awarded(hand) == [(1, 6, 0, "whole")]


def test_razz_pairs_are_bad() -> None:
    # King-high without a pair beats A-A-2-3-4.
    hands = {0: "Ac Ad 2c | 2d | 3c | 3d | 4c", 1: "Kc Qc Jd | Th | 9s | 9c | Kd"}
    hand = check_down(play(new_hand(razz(), [100, 100], hands), "1: bring-in", "0: call"))
    assert awarded(hand) == [(1, 6, 0, "whole")]
    assert shown(hand)[1] == (None, "K,Q,J,T,9")


def test_razz_aces_are_low_at_showdown() -> None:
    # 6-4-3-2-A beats 7-5-4-3-2: the ace is the lowest card.
    hands = {0: "Ac 2c 3c | 4d | 6d | Ks | Kh", 1: "2h 3h 4h | 5s | 7s | Qs | Qh"}
    hand = check_down(play(new_hand(razz(), [100, 100], hands), "1: bring-in", "0: call"))
    assert awarded(hand) == [(0, 6, 0, "whole")]
