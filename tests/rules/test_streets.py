"""Who acts first on 4th to 7th street, and the 4th-street double bet (docs/rules.md, "Dealing and
the streets", rules 5 and 6, and the games table)."""

from __future__ import annotations

from studtable import hilo, new_hand, play, razz, stud

from sevenstud.hand import Hand, StreetStarted

THREE = {
    0: "Kc Qd 2c | 7d | 9h | Js | 4s",
    1: "Ac Ad 5h | Kh | 8c | 3h | 6s",
    2: "Qs Qh 6d | Td | Qc | 3c | 5c",
}


def legal(hand: Hand) -> list[str]:
    return [str(a) for a in hand.legal_actions()]


def check_round(hand: Hand) -> None:
    street = hand.street
    while hand.street == street and not hand.is_over:
        hand.act("check")


def play_to_the_end_checking(hand: Hand) -> Hand:
    while not hand.is_over:
        check_round(hand)
    return hand


def test_best_board_acts_first() -> None:
    hand = new_hand(hilo(), [100, 100, 100], THREE)
    play(hand, "0: bring-in", "1: call", "2: call")
    play_to_the_end_checking(hand)
    assert hand.first_to_act == {3: 0, 4: 1, 5: 1, 6: 1, 7: 1}
    starts = [(e.street, e.first_to_act) for e in hand.events if isinstance(e, StreetStarted)]
    assert starts == [(3, 0), (4, 1), (5, 1), (6, 1), (7, 1)]


def test_first_actor_may_check_or_bet() -> None:
    hand = new_hand(hilo(), [100, 100, 100], THREE)
    play(hand, "0: bring-in", "1: call", "2: call")
    # (and may fold, pointless as it is: the card rooms allow it; see test_fold_without_bet_option)
    assert hand.to_act == 1 and legal(hand) == ["fold", "check", "bet 5"]


def test_fold_without_bet_option() -> None:
    hand = new_hand(hilo(fold_without_bet=False), [100, 100, 100], THREE)
    play(hand, "0: bring-in", "1: call", "2: call")
    assert hand.to_act == 1 and legal(hand) == ["check", "bet 5"]


def test_best_board_acts_first_ties_to_lowest_seat() -> None:
    # Seats 1 and 2 both show K-9 (seat 2 in higher suits): seat 1, the lower seat, acts first.
    hands = {0: "2s 3s 7c | 2d", 1: "4s 5s Kd | 9c", 2: "6s 7s Ks | 9s"}
    hand = new_hand(hilo(), [100, 100, 100], hands)
    play(hand, "0: bring-in", "1: call", "2: call")
    assert hand.first_to_act[4] == 1
    # Seats 0 and 2 both show K-9 (seat 2 in higher suits): seat 0 acts first.
    hands = {0: "2s 3s Kd | 9c", 1: "4s 5s 7c | 2d", 2: "6s 7s Ks | 9s"}
    hand = new_hand(hilo(), [100, 100, 100], hands)
    play(hand, "1: bring-in", "2: call", "0: call")
    assert hand.first_to_act[4] == 0


def test_board_ranking_quads_over_trips_over_two_pair_over_pair() -> None:
    hands = {
        0: "4c 5d 9c | 9d | 9h | 2s",  # pair, then trips, then trips and a deuce
        1: "6h 7s Ac | Ad | Kc | Kd",  # pair of aces, then aces and a king, then two pair
        2: "8d Ts 3c | 3d | 3h | 3s",  # pair, trips, quads
    }
    hand = new_hand(hilo(), [100, 100, 100], hands)
    assert hand.bring_in_seat == 2
    play(hand, "2: bring-in", "0: call", "1: call")
    assert hand.first_to_act[4] == 1  # aces over nines over threes
    check_round(hand)
    assert hand.first_to_act[5] == 0  # trip nines over trip threes over a pair of aces
    check_round(hand)
    assert hand.first_to_act[6] == 2  # quads over trips over two pair


def test_board_ranking_trips_beat_two_pair() -> None:
    hands = {
        0: "4c 5d 9c | 9d | 9h | 2s",
        1: "6h 7s Ac | Ad | Kc | Kd",
        2: "8d Ts 3c | 4d | 5h | 6s",
    }
    hand = new_hand(hilo(), [100, 100, 100], hands)
    play(hand, "2: bring-in", "0: call", "1: call", "1: check", "2: check", "0: check")
    play(hand, "0: check", "1: check", "2: check")
    assert hand.first_to_act[6] == 0  # trips (9 9 9 2) over two pair (A A K K)


def test_pair_on_board_beats_high_cards() -> None:
    hands = {0: "4c 5d Ac | Kd", 1: "6h 7s 2c | 2d", 2: "8d Ts Qc | Jd"}
    hand = new_hand(hilo(), [100, 100, 100], hands)
    play(hand, "1: bring-in", "2: call", "0: call")
    assert hand.first_to_act[4] == 1


def test_straights_and_flushes_on_board_never_count() -> None:
    hands = {0: "2c 3c 5h | 6h | 7h | 8h", 1: "2d 3d Ac | Kd | Qc | Jd"}
    hand = new_hand(hilo(), [100, 100], hands)
    play(hand, "0: bring-in", "1: call")
    check_round(hand)
    check_round(hand)
    assert hand.street == 6
    # 5h 6h 7h 8h is only eight high: A K Q J is the better board.
    assert hand.first_to_act == {3: 0, 4: 1, 5: 1, 6: 1}


def test_first_actor_all_in_passes_clockwise() -> None:
    # Seat 1 (A K showing) has the best board but is all-in; seat 0 (Q J) is second best.
    hands = {0: "4c 5d Qh | Jh", 1: "6c 7d Ac | Kc", 2: "8c 9d 2s | 3h"}
    hand = new_hand(hilo(), [100, 3, 100], hands)
    play(hand, "2: bring-in", "0: call", "1: call")
    assert hand.stacks[1] == 0
    assert hand.first_to_act[4] == 2  # the next seat clockwise from seat 1 that can act
    assert hand.to_act == 2


def test_first_actor_all_in_best_active_option() -> None:
    hands = {0: "4c 5d Qh | Jh", 1: "6c 7d Ac | Kc", 2: "8c 9d 2s | 3h"}
    hand = new_hand(hilo(first_actor_all_in="best_active"), [100, 3, 100], hands)
    play(hand, "2: bring-in", "0: call", "1: call")
    assert hand.first_to_act[4] == 0  # the best board among those who can act


def test_no_double_bet_in_hi_lo() -> None:
    hands = {0: "Kc Qd 2c | 7d", 1: "Ac Ad 5h | 5d"}  # seat 1 pairs its door card
    hand = new_hand(hilo(), [100, 100], hands)
    play(hand, "0: bring-in", "1: call")
    assert hand.to_act == 1 and legal(hand) == ["fold", "check", "bet 5"]


def test_no_double_bet_in_razz() -> None:
    hands = {0: "Kc Qd 2c | 2d", 1: "Ac Ad Kh | 5d"}
    hand = new_hand(razz(), [100, 100], hands)
    play(hand, "1: bring-in", "0: call")
    assert legal(hand) == ["fold", "check", "bet 5"]


def test_stud_open_pair_on_fourth_allows_big_bet() -> None:
    hands = {0: "Kc Qd 2c | 7d", 1: "Ac Ad 5h | 5d"}
    hand = new_hand(stud(), [100, 100], hands)
    play(hand, "0: bring-in", "1: call")
    assert hand.to_act == 1 and legal(hand) == ["fold", "check", "bet 5", "bet 10"]
    play(hand, "1: check")
    # Any player may bet big, not only the one with the pair.
    assert legal(hand) == ["fold", "check", "bet 5", "bet 10"]
    play(hand, "0: bet 10")
    # Once the big bet is made, raises are big bets.
    assert legal(hand) == ["fold", "call 10", "raise to 20"]


def test_stud_open_pair_small_bet_may_be_raised_small_or_big() -> None:
    hands = {0: "Kc Qd 2c | 7d", 1: "Ac Ad 5h | 5d"}
    hand = new_hand(stud(), [100, 100], hands)
    play(hand, "0: bring-in", "1: call", "1: bet 5")
    assert legal(hand) == ["fold", "call 5", "raise to 10", "raise to 15"]
    play(hand, "0: raise to 15")
    assert legal(hand) == ["fold", "call 15", "raise to 25"]


def test_stud_open_pair_on_fourth_option_off() -> None:
    hands = {0: "Kc Qd 2c | 7d", 1: "Ac Ad 5h | 5d"}
    hand = new_hand(stud(double_bet_on_open_pair=False), [100, 100], hands)
    play(hand, "0: bring-in", "1: call")
    assert legal(hand) == ["fold", "check", "bet 5"]


def test_stud_no_double_bet_without_an_open_pair() -> None:
    hands = {0: "Kc Qd 2c | 7d", 1: "Ac Ad 5h | 6d"}  # a pair in the hole does not count
    hand = new_hand(stud(), [100, 100], hands)
    play(hand, "0: bring-in", "1: call")
    assert legal(hand) == ["fold", "check", "bet 5"]


def test_razz_best_low_board_acts_first_aces_low() -> None:
    hands = {0: "9c 9d 7c | 6d", 1: "Tc Td Ah | 2h", 2: "Jc Jd Kd | Qd"}
    hand = new_hand(razz(), [100, 100, 100], hands)
    assert hand.bring_in_seat == 2  # the king
    play(hand, "2: bring-in", "0: call", "1: call")
    assert hand.first_to_act[4] == 1  # 2-A is the best low board


def test_razz_pairs_are_bad_on_board() -> None:
    hands = {0: "9c 9d 3c | 3d", 1: "Tc Td Kh | Qh", 2: "2c 2d Jc | Ts"}
    hand = new_hand(razz(), [100, 100, 100], hands)
    assert hand.bring_in_seat == 1
    play(hand, "1: bring-in", "2: call", "0: call")
    # J-T is a better low board than K-Q, and both beat the pair of threes.
    assert hand.first_to_act[4] == 2


def test_razz_best_low_board_ties_to_lowest_seat() -> None:
    hands = {0: "9c 9d Kc | 8d", 1: "Tc Td 5c | 3d", 2: "Jc Jd 5s | 3s"}
    hand = new_hand(razz(), [100, 100, 100], hands)
    play(hand, "0: bring-in", "1: call", "2: call")
    assert hand.first_to_act[4] == 1
