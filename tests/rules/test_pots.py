"""Pots and awards (docs/rules.md, "Showdown", rules 4 to 8, and "Rake"): the hi/lo split with the
eight-or-better qualifier, scoops, quartered lows, odd chips, side pots and the rake."""

from __future__ import annotations

from fractions import Fraction

import pytest
from studtable import awarded, hilo, new_hand, play

from sevenstud import evaluate
from sevenstud.cards import parse_cards
from sevenstud.hand import Hand, HandShown, Pot, RakeTaken


def check_down(hand: Hand) -> Hand:
    while not hand.is_over:
        hand.act("check")
    return hand


def shown(hand: Hand) -> dict[int, tuple[str | None, str | None]]:
    return {e.seat: (e.high, e.low) for e in hand.events if isinstance(e, HandShown)}


# Heads-up: seat 0 a heart flush and no low; seat 1 an 8-7-5-4-A low and queen high.
# Seat 1 brings in (5s); seat 0 (9s 6h) has the best board from 4th street.
SPLIT = {0: "Kh Th 9s | 6h | 2h | 3h | Jc", 1: "Ac 4d 5s | 7c | 8d | Qs | Jd"}


def test_hi_lo_pot_split_between_best_high_and_best_low() -> None:
    hand = check_down(play(new_hand(hilo(), [100, 100], SPLIT), "1: bring-in", "0: call"))
    assert shown(hand) == {0: ("a flush, King high", None), 1: ("high card Ace", "8,7,5,4,A")}
    assert awarded(hand) == [(0, 3, 0, "high"), (1, 3, 0, "low")]
    assert hand.finishing_stacks == (100, 100)


def test_hi_lo_split_with_separate_cards() -> None:
    # Seat 1's flush uses Kh Th 6h 3h 2h; its low uses Ac 4d with 6h 3h 2h: it takes both
    # halves from seat 0 (jacks and an 8-7-5-3-A low), which shows first.
    hands = {0: "8c 7c Jd | Js | 5d | 3s | As", 1: "Ac 4d Kh | Th | 6h | 2h | 3h"}
    hand = check_down(play(new_hand(hilo(), [100, 100], hands), "0: bring-in", "1: call"))
    assert shown(hand) == {
        0: ("a pair of Jacks", "8,7,5,3,A"),
        1: ("a flush, King high", "6,4,3,2,A"),
    }
    assert awarded(hand) == [(1, 3, 0, "high"), (1, 3, 0, "low")]
    assert hand.finishing_stacks == (97, 103)


def test_wheel_is_a_straight_for_high_and_the_best_low() -> None:
    hands = {0: "8c 7c Jd | Js | 6d | 3s | 2s", 1: "Ac 2d Kh | 3h | 4s | 5c | 9d"}
    hand = check_down(play(new_hand(hilo(), [100, 100], hands), "0: bring-in", "1: call"))
    assert shown(hand)[1] == ("a straight, Ace to Five", "5,4,3,2,A")
    assert awarded(hand) == [(1, 3, 0, "high"), (1, 3, 0, "low")]


def test_no_qualifying_low_high_scoops() -> None:
    hands = {0: "Kc Qd 2c | 7d | 9h | Js | 4s", 1: "Qs Qh 6d | Td | Qc | 3c | 5c"}
    hand = check_down(play(new_hand(hilo(), [100, 100], hands), "0: bring-in", "1: call"))
    assert awarded(hand) == [(1, 6, 0, "whole")]


def test_nine_low_does_not_qualify() -> None:
    hands = {0: "Kc Kd Qh | Jh | Ts | 2s | 2d", 1: "9c 7d Ah | 5h | 3s | Qc | Jd"}
    hand = check_down(play(new_hand(hilo(), [100, 100], hands), "0: bring-in", "1: call"))
    assert awarded(hand) == [(0, 6, 0, "whole")]


def test_pairs_are_bad_for_low() -> None:
    # A A 2 3 4: only four different ranks of eight or lower, so no low.
    hands = {0: "Kh Kd Jh | Js | Ts | 9d | 9c", 1: "Ac Ad 2h | 3h | 4s | Kc | Qc"}
    hand = check_down(play(new_hand(hilo(), [100, 100], hands), "1: bring-in", "0: call"))
    assert awarded(hand) == [(0, 6, 0, "whole")]


@pytest.mark.parametrize(
    ("worse", "better"),
    [
        ("8c 7d 6h 5s 4c", "8c 7d 6h 5s 3c"),
        ("8c 7d 6h 5s 3c", "8c 6d 4h 2s Ac"),
        ("8c 6d 4h 2s Ac", "8c 4d 3h 2s Ac"),
        ("8c 4d 3h 2s Ac", "7c 6d 5h 4s 2c"),
        ("7c 6d 5h 4s 2c", "7c 6d 5h 2s Ac"),
        ("7c 6d 5h 2s Ac", "7c 5d 4h 3s 2c"),
        ("7c 5d 4h 3s 2c", "6c 5d 4h 3s 2c"),
        ("6c 5d 4h 3s 2c", "6c 4d 3h 2s Ac"),
        ("6c 4d 3h 2s Ac", "5c 4d 3h 2s Ac"),
    ],
)
def test_low_ranking_as_in_the_seeds(worse: str, better: str) -> None:
    w, b = evaluate.low8_rank(parse_cards(worse)), evaluate.low8_rank(parse_cards(better))
    assert 0 < w < b


def test_low_compares_the_highest_card_first_at_showdown() -> None:
    # 8-6-4-2-A beats 8-7-6-5-3 (the seeds' ranking) for the low half.
    hands = {0: "Qc Qd 8c | 7c | 6d | 5d | 3h", 1: "Kc Kd 8h | 6h | 4s | 2s | Ad"}
    hand = check_down(play(new_hand(hilo(), [100, 100], hands), "0: bring-in", "1: call"))
    assert shown(hand) == {
        0: ("a pair of Queens", "8,7,6,5,3"),
        1: ("a pair of Kings", "8,6,4,2,A"),
    }
    assert awarded(hand) == [(1, 3, 0, "high"), (1, 3, 0, "low")]


def test_quartered_low() -> None:
    # Both hold 7-5-4-3-2; seat 0's kings also win the high: it gets 3/4, seat 1 1/4.
    hands = {0: "2c 3c Kd | Kh | 4c | 5d | 7d", 1: "2d 3d Qs | 4s | 5s | 7s | Jh"}
    hand = new_hand(hilo(), [100, 100], hands)
    play(hand, "1: bring-in", "0: call", "0: bet", "1: call")
    check_down(hand)
    assert awarded(hand) == [(0, 8, 0, "high"), (0, 4, 0, "low"), (1, 4, 0, "low")]
    assert hand.finishing_stacks == (104, 96)


def test_equal_hands_split_the_half_they_tie_for() -> None:
    # Seats 0 and 1 both make a nine-to-king straight and have no low; seat 2 has the low.
    hands = {
        0: "Kh Qd 9c | Jc | Tc | Ts | Td",
        1: "Ks Qc 9d | Jd | Th | 8h | 7s",
        2: "Ac 2d 9h | 3c | 4h | 6c | 7d",
    }
    hand = new_hand(hilo(), [100, 100, 100], hands)
    play(hand, "0: bring-in", "1: call", "2: call")
    check_down(hand)
    # 9 chips: the high half is 5, split 3 (seat 1 holds the king of spades) and 2.
    assert awarded(hand) == [(1, 3, 0, "high"), (0, 2, 0, "high"), (2, 4, 0, "low")]


def test_odd_chip_high_half_gets_it() -> None:
    hands = {**SPLIT, 2: "Kd Kc Ad"}
    hand = new_hand(hilo(), [100, 100, 100], hands)
    play(hand, "1: bring-in", "2: fold", "0: call")
    check_down(hand)
    assert awarded(hand) == [(0, 4, 0, "high"), (1, 3, 0, "low")]  # 7 chips


# Seats 0 and 1 make the same straight, nine to king, and have no low; seat 2 folds on 3rd
# street, so the pot is 7. Seat 1 holds the king of spades, the highest card by suit.
TIED = {0: "Kh Qd 9c | Jc | Tc | 3d | 2s", 1: "Ks Qc 9d | Jd | Th | 4c | 2h", 2: "5c 6c Ah"}


def test_odd_chip_among_tied_to_highest_card_by_suit() -> None:
    hand = new_hand(hilo(), [100, 100, 100], TIED)
    play(hand, "0: bring-in", "1: call", "2: fold")
    check_down(hand)
    assert awarded(hand) == [(1, 4, 0, "whole"), (0, 3, 0, "whole")]
    assert hand.finishing_stacks == (100, 101, 99)


def test_odd_chip_among_tied_lowest_seat_option() -> None:
    hand = new_hand(hilo(odd_chip="lowest_seat"), [100, 100, 100], TIED)
    play(hand, "0: bring-in", "1: call", "2: fold")
    check_down(hand)
    assert awarded(hand) == [(0, 4, 0, "whole"), (1, 3, 0, "whole")]


# Seat 2 (short) brings in and goes all-in on 4th street. Seat 0: three kings, no
# low. Seat 1: aces and jacks, no low. Seat 2: a 7-6-4-3-2 low, queen high.
SIDE = {
    0: "Kc Kd 9c | Ks | Jd | Ts | 2h",
    1: "Ac Ad Tc | Jc | 9d | Qs | Js",
    2: "2c 3d 4h | 6s | 7c | Th | Qd",
}


def _side_pot_hand(hands: dict[int, str]) -> Hand:
    hand = new_hand(hilo(), [100, 100, 8], hands)
    assert hand.bring_in_seat == 2
    play(hand, "2: bring-in", "0: complete", "1: call", "2: call", "0: bet", "1: call", "2: call")
    assert hand.stacks[2] == 0
    assert hand.pots() == [Pot(24, (0, 1, 2)), Pot(6, (0, 1))]
    return check_down(hand)


def test_side_pot_in_hi_lo_without_an_eligible_low_goes_to_the_best_high() -> None:
    hand = _side_pot_hand(SIDE)
    # Main pot: high to seat 0, low to seat 2. Side pot: nobody eligible has a low, so the
    # best high among seats 0 and 1 takes all of it.
    assert awarded(hand) == [(0, 12, 0, "high"), (2, 12, 0, "low"), (0, 6, 1, "whole")]
    assert hand.finishing_stacks == (107, 89, 12)


def test_side_pot_in_hi_lo_without_an_eligible_low_high_from_another_seat() -> None:
    # Seat 2 now also has the best high (a wheel): it scoops the main pot; the side pot, which
    # it cannot win, goes whole to seat 0's kings.
    hands = {**SIDE, 2: "2c 3d 4h | 5s | Ah | Th | Qd"}
    hand = _side_pot_hand(hands)
    assert awarded(hand) == [(2, 12, 0, "high"), (2, 12, 0, "low"), (0, 6, 1, "whole")]
    assert hand.finishing_stacks == (95, 89, 24)


def test_side_pot_in_hi_lo_split_when_an_eligible_player_has_a_low() -> None:
    # Seat 1 now has an 8-6-5-3-A low, worse than seat 2's 7-6-4-3-2: it wins the low half of
    # the side pot only.
    hands = {**SIDE, 1: "Ac 3s Tc | Jc | 8d | 5d | 6h"}
    hand = _side_pot_hand(hands)
    assert awarded(hand) == [
        (0, 12, 0, "high"),
        (2, 12, 0, "low"),
        (0, 3, 1, "high"),
        (1, 3, 1, "low"),
    ]


def test_no_rake_by_default() -> None:
    hand = new_hand(hilo(), [100, 100], SPLIT)
    play(hand, "1: complete", "0: call", "0: bet", "1: call")
    check_down(hand)
    assert not any(isinstance(e, RakeTaken) for e in hand.events)
    assert hand.rake == 0
    assert awarded(hand) == [(0, 11, 0, "high"), (1, 11, 0, "low")]


def test_rake_option_percentage_taken_before_the_split() -> None:
    hand = new_hand(hilo(rake_percent=Fraction(10)), [100, 100], SPLIT)
    play(hand, "1: complete", "0: call", "0: bet", "1: call")
    check_down(hand)
    assert hand.rake == 2 and RakeTaken(2) in hand.events  # 10% of 22, rounded down
    assert awarded(hand) == [(0, 10, 0, "high"), (1, 10, 0, "low")]
    assert hand.finishing_stacks == (99, 99)


def test_rake_option_cap() -> None:
    hand = new_hand(hilo(rake_percent=Fraction(10), rake_cap=1), [100, 100], SPLIT)
    play(hand, "1: complete", "0: call", "0: bet", "1: call")
    check_down(hand)
    assert hand.rake == 1
    assert awarded(hand) == [(0, 11, 0, "high"), (1, 10, 0, "low")]


def test_side_pot_never_goes_to_a_player_not_eligible_for_it() -> None:
    # Both players of the side pot muck at the showdown; the all-in player wins the main pot
    # without showing, but not the side pot it put nothing into.
    hand = new_hand(hilo(), [100, 100, 8], SIDE, auto_showdown=False)
    play(hand, "2: bring-in", "0: complete", "1: call", "2: call", "0: bet", "1: call", "2: call")
    for _ in (5, 6):
        play(hand, "0: check", "1: check")
    play(hand, "0: bet", "1: call", "0: muck", "1: muck")
    assert hand.is_over
    (main,) = [a for a in hand.awards if a.pot == 0]
    assert (main.seat, main.amount) == (2, 24)
    side = [a for a in hand.awards if a.pot == 1]
    assert sum(a.amount for a in side) == 26 and {a.seat for a in side} <= {0, 1}


# Issue 16, point 3: a pot taken by one hand alone at the showdown. Seat 0 (the bring-in, 4h)
# holds a 6-5-4-3-A low and ace high; seat 1 queen high and no low; seat 2 antes and folds, so
# the pot is odd (7 after a bring-in and a call).
ALONE = {
    0: "Ac 3d 4h | 5d | 6c | Kd | 9s",
    1: "Qc Jh 9d | 7d | 2c | Ts | 3s",
    2: "7h 8h Qd",
}


def _alone_to_the_showdown(**options: bool) -> Hand:
    hand = new_hand(hilo(), [100, 100, 100], ALONE, **options)
    play(hand, "0: bring-in", "1: call", "2: fold")
    return hand


def test_the_only_hand_shown_with_a_qualifying_low_wins_both_halves() -> None:
    """docs/rules.md, "Hi/lo split": the others muck, the one hand shown holds a qualifying low;
    it scoops, paid as the high half and the low half (the odd chip to the high), as when it
    beats other hands both ways, so that every history says the low it won."""
    hand = check_down(_alone_to_the_showdown())
    assert shown(hand) == {0: ("high card Ace", "6,5,4,3,A")}  # seat 1 cannot win: it mucks
    assert awarded(hand) == [(0, 4, 0, "high"), (0, 3, 0, "low")]
    assert hand.finishing_stacks == (104, 97, 99)


def test_a_hand_shown_alone_without_a_low_wins_the_whole_pot() -> None:
    hands = {**ALONE, 0: "Ac Kd 4h | 5d | Jc | Kh | 9s"}  # kings, no low
    hand = new_hand(hilo(), [100, 100, 100], hands)
    check_down(play(hand, "0: bring-in", "1: call", "2: fold"))
    assert shown(hand) == {0: ("a pair of Kings", None)}
    assert awarded(hand) == [(0, 7, 0, "whole")]


def test_a_hand_that_wins_unshown_claims_no_low() -> None:
    """Seat 1 bets the river and, asked first, mucks; seat 0 wins without being shown, and a
    low nobody saw is claimed by nobody: one whole award."""
    hand = _alone_to_the_showdown(auto_showdown=False)
    play(hand, "1: check", "0: check", "1: check", "0: check", "0: check", "1: check")
    play(hand, "0: check", "1: bet", "0: call", "1: muck")
    assert hand.is_over and shown(hand) == {}
    assert awarded(hand) == [(0, 27, 0, "whole")]


def test_a_hand_won_when_everyone_else_folded_claims_no_low() -> None:
    hand = _alone_to_the_showdown()
    play(hand, "1: check", "0: check", "1: check", "0: check", "0: check", "1: check")
    play(hand, "0: bet", "1: fold")
    assert shown(hand) == {} and awarded(hand) == [(0, 7, 0, "whole")]


def test_a_side_pot_left_to_a_shown_hand_with_a_low_is_won_both_ways() -> None:
    """Seat 0 bets the river and mucks; seat 1 is then the last hand claiming the side pot, and
    shows an 8-6-5-3-A low for the main pot it still contests with the all-in seat 2 (a
    7-6-4-3-2 low): seat 1 wins the side pot's two halves and the main pot's high half."""
    hands = {**SIDE, 1: "Ac 3s Tc | Jc | 8d | 5d | 6h"}
    hand = new_hand(hilo(), [100, 100, 8], hands, auto_showdown=False)
    play(hand, "2: bring-in", "0: complete", "1: call", "2: call", "0: bet", "1: call", "2: call")
    for _ in (5, 6):
        play(hand, "0: check", "1: check")
    play(hand, "0: bet", "1: call", "0: muck", "1: show", "2: show")
    assert awarded(hand) == [
        (1, 12, 0, "high"),
        (2, 12, 0, "low"),
        (1, 13, 1, "high"),
        (1, 13, 1, "low"),
    ]
