"""Rulings on odd chips in razz, the heads-up cap, the first actor among equal boards and the rake
across pots (docs/rules.md: "Odd chips", "The cap", "Who acts first", "Rake")."""

from __future__ import annotations

import pytest
from studtable import STAKES, awarded, check_down, hilo, new_hand, play, razz, stud

from sevenstud.games import GameError, Stud
from sevenstud.hand import Hand, IllegalAction, RakeTaken
from sevenstud.pots import split_rake


def legal(hand: Hand) -> list[str]:
    return [str(a) for a in hand.legal_actions()]


# ---------------------------------------------------------------- odd chips in razz

# Seats 0 and 1 both make a wheel; seat 0's highest card in razz is the Qh (its ace is low),
# seat 1's the Ks. Seat 1 (3d over 3c) brings in; seat 2 folds after its ante: 7 chips to split.
RAZZ_TIE = {
    0: "Ad 2c 3c | 4c | 5c | Qh | Jh",
    1: "As 2d 3d | 4d | 5d | Ks | Jd",
    2: "9s 9h Ac",
}


def test_rule_razz_odd_chip_to_the_highest_card_with_the_ace_low() -> None:
    hand = new_hand(razz(), [100, 100, 100], RAZZ_TIE)
    check_down(play(hand, "1: bring-in", "2: fold", "0: call"))
    # A king is razz's highest card: the odd chip is seat 1's, not the ace of diamonds' seat.
    assert sorted(awarded(hand)) == [(0, 3, 0, "whole"), (1, 4, 0, "whole")]


def test_rule_razz_odd_chip_lowest_seat_option() -> None:
    hand = new_hand(razz(odd_chip="lowest_seat"), [100, 100, 100], RAZZ_TIE)
    check_down(play(hand, "1: bring-in", "2: fold", "0: call"))
    assert sorted(awarded(hand)) == [(0, 4, 0, "whole"), (1, 3, 0, "whole")]


def test_rule_hi_lo_odd_chip_keeps_the_ace_high() -> None:
    hands = {
        0: "As 2c 3h | 4c | 5s | Qh | Jc",
        1: "Ad 2d 3d | 4h | 5c | Ks | Jd",
        2: "9s 9h Kc",
    }
    hand = new_hand(hilo(), [100, 100, 100], hands)
    check_down(play(hand, "1: bring-in", "2: fold", "0: call"))
    # Two wheels tie for high (4 chips) and for low (3): the odd chip to seat 0's As, not to
    # seat 1's Ks (in razz it would be the Ks).
    assert sorted(awarded(hand)) == [
        (0, 2, 0, "high"),
        (0, 2, 0, "low"),
        (1, 1, 0, "low"),
        (1, 2, 0, "high"),
    ]


# ---------------------------------------------------------------- the heads-up cap

# Seat 2 brings in (3d); seat 0 has the best board on 4th and 5th street.
BOARDS = {0: "2h 3h Ah | Kh | Qh", 1: "4c 5c 9d | 8d | 7s", 2: "6c Tc 3d | 4d | 5d"}


def fifth(**options: object) -> Hand:
    hand = new_hand(hilo(**options), [500, 500, 500], BOARDS)
    play(hand, "2: bring-in", "0: call", "1: call", "0: check", "1: check", "2: check")
    assert hand.street == 5 and hand.to_act == 0
    return hand


def test_rule_heads_up_uncapped_when_heads_up_before_the_cap() -> None:
    hand = fifth(uncapped_heads_up=True)
    play(hand, "0: bet", "1: fold", "2: raise", "0: raise", "2: raise")  # the cap: 4 bets
    assert legal(hand) == ["fold", "call 40", "raise to 50"]
    play(hand, "0: raise to 50", "2: raise to 60")


def test_rule_heads_up_cap_once_reached_stays() -> None:
    # Robert's Rules (betting and raising, 4): a fold that leaves two players after the cap was
    # reached does not uncap the round.
    hand = fifth(uncapped_heads_up=True)
    play(hand, "0: bet", "1: raise", "2: raise", "0: raise", "1: fold")
    assert hand.to_act == 2 and legal(hand) == ["fold", "call 40"]
    with pytest.raises(IllegalAction, match="capped"):
        hand.act("raise to 50")
    play(hand, "2: call")
    # The next round starts heads-up: uncapped.
    play(hand, "0: bet", "2: raise", "0: raise", "2: raise")
    assert legal(hand) == ["fold", "call 40", "raise to 50"]


def test_rule_heads_up_cap_option_off() -> None:
    hand = fifth()
    play(hand, "0: bet", "1: fold", "2: raise", "0: raise", "2: raise")
    assert legal(hand) == ["fold", "call 40"]


# ---------------------------------------------------------------- equal boards: who acts first

# Seats 0 and 2 show K-9 on 4th street; seat 2's king is the spade. Seat 1 (2c) brings in.
EQUAL = {0: "5c 6c 9c | Kd", 1: "7d 8d 2c | 3h", 2: "Th Jh 9h | Ks"}


def test_rule_first_actor_equal_boards_nearest_the_dealers_left_by_default() -> None:
    hand = new_hand(stud(), [100, 100, 100], EQUAL)
    play(hand, "1: bring-in", "2: call", "0: call")
    assert hand.street == 4 and hand.to_act == 0


def test_rule_first_actor_equal_boards_by_suits_option() -> None:
    hand = new_hand(stud(first_actor_tie_break="suits"), [100, 100, 100], EQUAL)
    play(hand, "1: bring-in", "2: call", "0: call")
    assert hand.to_act == 2  # the king of spades over the king of diamonds
    # The suit order is the game's: with diamonds above spades, seat 0 acts first.
    hand = new_hand(
        stud(first_actor_tie_break="suits", suit_order=(0, 2, 3, 1)), [100, 100, 100], EQUAL
    )
    play(hand, "1: bring-in", "2: call", "0: call")
    assert hand.to_act == 0


def test_rule_first_actor_equal_razz_boards_by_suits_lower_suit_first() -> None:
    # Razz: seats 0 and 2 show 4-2; seat 1 (Kc) brings in. The lower suit is the better low
    # board (the higher suit brings in), so seat 0's clubs act before seat 2's spades.
    hands = {0: "Td Jd 4c | 2h", 1: "7d 8d Kc | 3h", 2: "Th Jh 4s | 2d"}
    hand = new_hand(razz(first_actor_tie_break="suits"), [100, 100, 100], hands)
    play(hand, "1: bring-in", "2: call", "0: call")
    assert hand.to_act == 0
    hands = {0: "Td Jd 4s | 2h", 1: "7d 8d Kc | 3h", 2: "Th Jh 4c | 2d"}
    hand = new_hand(razz(first_actor_tie_break="suits"), [100, 100, 100], hands)
    play(hand, "1: bring-in", "2: call", "0: call")
    assert hand.to_act == 2


def test_rule_first_actor_tie_break_checked() -> None:
    with pytest.raises(GameError, match="first_actor_tie_break"):
        stud(first_actor_tie_break="dealer")


# ---------------------------------------------------------------- the rake across pots


def test_rule_rake_from_every_pot_in_proportion_largest_remainder() -> None:
    # The card room's own figures: a main pot of 44 and a side pot of 64, a rake of 5.
    assert split_rake([44, 64], 5) == [2, 3]
    assert split_rake([44, 64], 5, each_pot=False) == [5, 0]
    assert split_rake([10, 10, 10], 2) == [1, 1, 0]  # equal remainders: the main pot first
    assert split_rake([3, 1], 10) == [3, 1]  # never more than the pots hold


# Seat 1 all-in for 3 takes the main pot of 9; seat 2 the side pot of 6 (see test_all_ins).
ALL_IN = {
    0: "Kc Kd Ah | As",
    1: "2d 2h 2c | 3c | 4h | 9s | Jd",
    2: "7s 8s 5d | Tc | Qh | Js | 6c",
}


def test_rule_rake_from_each_pot_moves_no_chips_between_winners() -> None:
    hand = new_hand(stud(), [100, 3, 100], ALL_IN, rake=5)
    play(hand, "1: bring-in", "2: complete", "0: call", "0: fold")
    assert [e for e in hand.events if isinstance(e, RakeTaken)] == [RakeTaken(5)]
    assert awarded(hand) == [(1, 6, 0, "whole"), (2, 4, 1, "whole")]
    assert [p.amount for p in hand.final_pots] == [6, 4]


def test_rule_rake_from_main_pot_option() -> None:
    hand = new_hand(Stud(STAKES, rake_from="main_pot"), [100, 3, 100], ALL_IN, rake=5)
    play(hand, "1: bring-in", "2: complete", "0: call", "0: fold")
    assert awarded(hand) == [(1, 4, 0, "whole"), (2, 6, 1, "whole")]


def test_rule_rake_percent_from_each_pot() -> None:
    from fractions import Fraction

    hand = new_hand(stud(rake_percent=Fraction(100, 3)), [100, 3, 100], ALL_IN)
    play(hand, "1: bring-in", "2: complete", "0: call", "0: fold")
    assert hand.rake == 5 and awarded(hand) == [(1, 6, 0, "whole"), (2, 4, 1, "whole")]
    with pytest.raises(GameError, match="rake_from"):
        stud(rake_from="side_pot")
