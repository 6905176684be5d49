"""Issue 8's rulings tried by an outside tester through the public API: scenarios of my own,
not the ones the engine's authors wrote (docs/rules.md; Robert's Rules of Poker, betting and
raising, rule 6, for the short all-ins)."""

from __future__ import annotations

from studtable import STAKES, awarded, check_down, new_hand, play, razz, stud

from sevenstud.games import Stakes, Stud
from sevenstud.hand import Hand, HandTurnedUp
from sevenstud.pots import split_rake


def legal(hand: Hand) -> list[str]:
    return [str(a) for a in hand.legal_actions()]


# Stakes with a bet of 10 on 3rd and 4th street, the numbers of Robert's rule 6.
TENS = Stakes(ante=1, bring_in=2, small_bet=10, big_bet=20)
GAME = Stud(TENS, double_bet_on_open_pair=False)
# Seat 1 (4c) brings in; seat 0 (a pair of aces showing) acts first on 4th street.
FIVE = {
    0: "Kc Kd Ah | As | 2s",
    1: "2d 3h 4c | 5c | 6h",
    2: "7s 8s 9d | Tc | Qh",
    3: "Jc Jd 8h | 3s | 4s",
    4: "Ts Th Qc | 7c | 7d",
}


def to_fourth(stacks: list[int]) -> Hand:
    """Everybody calls the bring-in; 4th street, seat 0 to act."""
    hand = new_hand(GAME, stacks, {s: FIVE[s] for s in range(len(stacks))})
    play(hand, "1: bring-in", *[f"{s}: call" for s in range(2, len(stacks))], "0: call")
    assert hand.street == 4 and hand.to_act == 0
    return hand


# ---------------------------------------------------------------- rule 6 (a), (b), (c)


def test_rule_6a_all_in_under_half_a_bet_next_player_calls_or_raises_a_full_bet() -> None:
    hand = to_fourth([200, 17, 200, 200])  # seat 1 has 14 left on 4th street
    play(hand, "0: bet 10", "1: raise to 14")
    assert legal(hand) == ["fold", "call 14", "raise to 20"]  # not 24
    play(hand, "2: call", "3: call")
    # The bettor faced only 4 more: the betting is not reopened to it.
    assert hand.to_act == 0 and legal(hand) == ["fold", "call 14"]


def test_rule_6a_all_in_bet_under_half_a_bet_is_called_or_made_a_full_bet() -> None:
    hand = to_fourth([200, 7, 200, 200])  # seat 1 has 4 left
    play(hand, "0: check", "1: bet 4")
    assert legal(hand) == ["fold", "call 4", "raise to 10"]


def test_rule_6b_all_in_of_half_a_bet_is_a_full_bet() -> None:
    hand = to_fourth([200, 18, 200, 200])  # 15 left: 5 over the bet of 10
    play(hand, "0: bet 10", "1: raise to 15")
    assert legal(hand) == ["fold", "call 15", "raise to 25"]
    play(hand, "2: call", "3: call")
    assert legal(hand) == ["fold", "call 15", "raise to 25"]  # reopened to the bettor


def test_rule_6c_several_short_all_ins_add_up_and_reopen_the_betting() -> None:
    # Bet 10, all-ins to 14, 18 and 22: the bettor faces 12 more and may raise, to 28.
    hand = to_fourth([200, 17, 21, 25, 200])
    play(hand, "0: bet 10", "1: raise to 14")
    assert legal(hand) == ["fold", "call 14", "raise to 18"]  # seat 2's all-in is its raise
    play(hand, "2: raise to 18", "3: raise to 22", "4: call")
    assert hand.to_act == 0 and legal(hand) == ["fold", "call 22", "raise to 28"]


def test_rule_6c_a_caller_facing_less_than_half_a_bet_more_may_not_raise() -> None:
    hand = to_fourth([200, 17, 21, 200, 25])
    play(hand, "0: bet 10", "1: raise to 14", "2: raise to 18", "3: call 18", "4: raise to 22")
    play(hand, "0: call")
    assert hand.to_act == 3 and legal(hand) == ["fold", "call 22"]  # 4 more only


def test_rule_6_a_short_all_in_does_not_count_toward_the_cap() -> None:
    hand = to_fourth([200, 17, 200, 200, 200])
    play(hand, "0: bet 10", "1: raise to 14", "2: raise to 20", "3: raise to 30")
    assert legal(hand) == ["fold", "call 30", "raise to 40"]
    play(hand, "4: raise to 40")
    assert legal(hand) == ["fold", "call 40"]  # a bet and three raises: capped


def test_rule_6_third_street_short_all_in_completion_is_not_a_completion() -> None:
    hand = new_hand(GAME, [200, 200, 5, 200, 200], FIVE)
    play(hand, "1: bring-in", "2: complete to 4")
    assert legal(hand) == ["fold", "call 4", "complete to 10"]


def test_rule_6_third_street_all_in_completion_of_half_a_bet_is_the_completion() -> None:
    hand = new_hand(GAME, [200, 200, 7, 200, 200], FIVE)
    play(hand, "1: bring-in", "2: complete to 6")
    assert legal(hand) == ["fold", "call 6", "raise to 16"]


# ---------------------------------------------------------------- the heads-up cap


HEADS = {
    0: "Kc Kd Ah | As | 2s | 3s | 4s",
    1: "2d 3h 4c | 5c | 6h | 7h | 8h",
    2: "7s 8s 9d | Tc | Qh | Jh | Jc",
}


def test_rule_heads_up_uncapped_only_when_heads_up_before_the_cap() -> None:
    game = Stud(STAKES, uncapped_heads_up=True, double_bet_on_open_pair=False)
    capped = new_hand(game, [500, 500, 500], HEADS)
    play(capped, "1: bring-in", "2: call", "0: call")
    play(capped, "0: bet 5", "1: raise to 10", "2: raise to 15", "0: raise to 20", "1: fold")
    assert legal(capped) == ["fold", "call 20"]  # the cap once reached stays
    open_ = new_hand(game, [500, 500, 500], HEADS)
    play(open_, "1: bring-in", "2: call", "0: call")
    play(open_, "0: bet 5", "1: fold", "2: raise to 10", "0: raise to 15", "2: raise to 20")
    assert legal(open_) == ["fold", "call 20", "raise to 25"]


def test_rule_first_actor_tie_break_seat_or_suits() -> None:
    # Seats 0 and 1 show K-5, equal boards; seat 1's king of spades is the higher suit.
    hands = {0: "2c 3c Kh | 5d | 9c", 1: "2d 3d Ks | 5h | 9d", 2: "7s 8s 4c | 6c"}
    first = {}
    for tie_break in ("seat", "suits"):
        hand = new_hand(Stud(STAKES, first_actor_tie_break=tie_break), [500] * 3, hands)
        play(hand, "2: bring-in", "0: call", "1: call")
        first[tie_break] = hand.to_act
    assert first == {"seat": 0, "suits": 1}


# ---------------------------------------------------------------- odd chips, razz


def test_rule_razz_odd_chip_the_king_is_the_highest_card() -> None:
    # Both lows are 6-4-3-2-A; seat 0 holds the ace of diamonds, seat 1 the king of spades.
    hands = {
        0: "Ad 2c 3d | 4h | 6s | 7c | 7d",
        1: "Ac 2d 3c | 4s | 6h | Ks | 9d",
        2: "Qc Jd Qh | Tc | Td | Jh | Js",
    }
    hand = check_down(play(new_hand(razz(), [100] * 3, hands), "2: bring-in", "0: call", "1: call"))
    assert hand.is_over and awarded(hand) == [(1, 5, 0, "whole"), (0, 4, 0, "whole")]
    other = new_hand(razz(odd_chip="lowest_seat"), [100] * 3, hands)
    check_down(play(other, "2: bring-in", "0: call", "1: call"))
    assert awarded(other) == [(0, 5, 0, "whole"), (1, 4, 0, "whole")]


# ---------------------------------------------------------------- hands face up, muck claims


def test_rule_all_in_hands_face_up_in_every_view() -> None:
    hand = new_hand(stud(), [100, 10, 100], HEADS)
    play(hand, "1: bring-in", "2: call", "0: complete", "1: call", "2: call")
    play(hand, "0: bet 5", "1: call", "2: call")  # seat 1 is all-in; two can still bet
    assert not [e for e in hand.events if isinstance(e, HandTurnedUp)]
    assert hand.view(2).cards[1][0] is None
    play(hand, "0: bet 10", "2: fold")  # now nobody can bet against seat 0
    assert hand.is_over
    assert [e.seat for e in hand.events if isinstance(e, HandTurnedUp)] == [0, 1]
    for viewer in (None, 2):
        cards = hand.view(viewer).cards
        assert None not in cards[0] and None not in cards[1]
        assert cards[2][:2] == ((None, None) if viewer is None else cards[2][:2])


def test_rule_a_pot_goes_only_to_a_hand_still_claiming_it() -> None:
    hand = new_hand(stud(), [100, 10, 100], HEADS, auto_showdown=False)
    play(hand, "1: bring-in", "2: call", "0: complete", "1: call", "2: call")
    play(hand, "0: bet 5", "1: call", "2: call")
    check_down(hand)
    play(hand, "0: muck", "1: muck")
    # Seat 2 is the last claimant of both pots: it is not asked, and wins them.
    assert hand.is_over and awarded(hand) == [(2, 30, 0, "whole"), (2, 2, 1, "whole")]


# ---------------------------------------------------------------- rake


def test_rule_rake_from_each_pot_by_largest_remainder() -> None:
    assert split_rake([44, 64], 5) == [2, 3]  # paid 42 and 61
    assert split_rake([44, 64], 5, each_pot=False) == [5, 0]  # rake_from="main_pot"
    assert sum(split_rake([7, 7, 7], 4)) == 4
    assert split_rake([7, 7, 7], 4) == [2, 1, 1]  # equal remainders: the main pot first
