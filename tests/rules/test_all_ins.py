"""All-ins (docs/rules.md, "All-ins"): nobody wins chips they did not match, nobody is asked to
act with nobody to bet against, the last claimant of a pot wins it, short all-ins by Robert's
Rules (betting and raising, rule 6), and the hands turned face up once nobody can bet."""

from __future__ import annotations

import pytest
from studtable import STAKES, awarded, hilo, new_hand, play, stud

from sevenstud.games import Stakes, Stud
from sevenstud.hand import (
    CardDealt,
    Hand,
    HandTurnedUp,
    IllegalAction,
    Pot,
    StreetStarted,
    describe,
)
from sevenstud.pots import build_pots


def legal(hand: Hand) -> list[str]:
    return [str(a) for a in hand.legal_actions()]


# ---------------------------------------------------------------- nobody wins what it did not match

# Seat 1 (2c) brings in; seat 0 (a pair of aces) has the best board on 4th street; seat 1's
# trip deuces beat seat 2's queen high.
ISSUE_8 = {
    0: "Kc Kd Ah | As",
    1: "2d 2h 2c | 3c | 4h | 9s | Jd",
    2: "7s 8s 5d | Tc | Qh | Js | 6c",
}


def test_rule_nobody_wins_chips_they_did_not_match() -> None:
    # Issue 8, point 1: seat 1 all-in for 3 (ante and bring-in), seats 0 and 2 put in 6 each.
    hand = new_hand(stud(), [100, 3, 100], ISSUE_8)
    play(hand, "1: bring-in", "2: complete", "0: call")
    assert hand.stacks == [94, 0, 94] and hand.to_act == 0
    play(hand, "0: fold")
    # Only seat 2 can still bet and it faces no bet: it is not asked, the cards are dealt out.
    assert hand.is_over
    assert awarded(hand) == [(1, 9, 0, "whole"), (2, 6, 1, "whole")]
    assert hand.finishing_stacks == (94, 9, 100)


def test_rule_nobody_is_asked_to_act_with_nobody_to_bet_against() -> None:
    hand = new_hand(stud(), [100, 3, 100], ISSUE_8)
    play(hand, "1: bring-in", "2: complete", "0: call", "0: fold")
    starts = [e for e in hand.events if isinstance(e, StreetStarted)]
    assert [(e.street, e.first_to_act) for e in starts] == [
        (3, 1),
        (4, 0),
        (5, None),
        (6, None),
        (7, None),
    ]
    assert [seat for seat, _ in hand.actions] == [1, 2, 0, 0]


def test_rule_a_player_facing_a_bet_alone_still_acts() -> None:
    # The lone player who can bet must still answer an all-in bet it faces.
    hand = new_hand(stud(), [100, 9, 100], ISSUE_8)
    play(hand, "1: bring-in", "2: complete", "0: call", "1: call", "0: check", "1: bet 3")
    play(hand, "2: fold")  # seat 0 is the only one who can bet, and it faces seat 1's bet
    assert hand.to_act == 0 and legal(hand) == ["fold", "call 3"]


def test_rule_chips_only_folded_seats_matched_go_to_the_last_of_them_to_fold() -> None:
    # The pot above the all-in seat's level was contested by seats 0 and 2 alone: when seat 0
    # folded, seat 2 was the last one claiming it.
    assert build_pots([6, 3, 6], [False, True, False], [0, 2]) == [
        Pot(9, (1,)),
        Pot(6, (2,)),
    ]
    assert build_pots([6, 3, 6], [False, True, False], [2, 0]) == [Pot(9, (1,)), Pot(6, (0,))]
    # Several levels: each goes to the last to fold among those who put chips in it.
    assert build_pots([9, 3, 6], [False, True, False], [2, 0]) == [Pot(9, (1,)), Pot(9, (0,))]
    assert build_pots([9, 3, 6], [False, True, False], [0, 2]) == [
        Pot(9, (1,)),
        Pot(6, (2,)),
        Pot(3, (0,)),
    ]


# Seat 1 (2c) brings in and goes all-in on the completion; seats 0 and 2 fight a side pot.
SIDE = {
    0: "Kc Kd 9h | Jh | 4c | 5d | 7s",
    1: "3c 4d 2c | 8h | Tc | Qd | 6s",
    2: "As Ad 6h | 9c | 3d | 2s | Js",
}


def _side_pot_to_showdown() -> Hand:
    """SIDE played to the showdown, seat 0 the last to bet (on 7th street): it shows first."""
    hand = new_hand(Stud(STAKES), [30, 6, 30], SIDE, auto_showdown=False)
    play(hand, "1: bring-in", "2: complete", "0: call", "1: call", "0: bet", "2: call")
    play(hand, "0: check", "2: check", "2: check", "0: check", "2: check", "0: bet", "2: call")
    return hand


def test_rule_a_muck_cannot_leave_a_pot_unclaimed() -> None:
    hand = _side_pot_to_showdown()
    assert hand.to_act == 0 and legal(hand) == ["show", "muck"]
    play(hand, "0: muck")  # seat 2 is now the last hand claiming the side pot: it is seat 2's
    play(hand, "1: show", "2: muck")  # seat 2 gives up the main pot only
    assert awarded(hand) == [(1, 18, 0, "whole"), (2, 30, 1, "whole")]
    assert hand.finishing_stacks == (9, 18, 39)


def test_rule_the_last_hand_claiming_its_pots_wins_them_without_showing() -> None:
    hand = _side_pot_to_showdown()
    play(hand, "0: muck", "1: muck")
    # Seat 2 is the only hand left claiming either pot: it is not asked to show.
    assert hand.is_over and 2 not in hand.shown
    assert awarded(hand) == [(2, 18, 0, "whole"), (2, 30, 1, "whole")]


# ---------------------------------------------------------------- short all-ins (Robert's rule 6)

# Seat 2 brings in (3d); seat 0 (Ah Kh, then Ah Kh Qh) has the best board on 4th and 5th street.
SHORT = {
    0: "2h 3h Ah | Kh | Qh",
    1: "4c 5c 9d | 8d | 7s",
    2: "6c Tc 3d | 4d | 5d",
    3: "7c 8c Jd | 2s | 3s",
    4: "9c Jc Td | 2d | 4s",
}


def to_fifth(stacks: list[int], **options: object) -> Hand:
    hand = new_hand(hilo(**options), stacks, {s: SHORT[s] for s in range(len(stacks))})
    n = len(stacks)
    play(hand, "2: bring-in", *(f"{(2 + k) % n}: call" for k in range(1, n)))
    while hand.street < 5:
        hand.act("check")
    assert hand.street == 5 and hand.to_act == 0
    return hand


def test_rule_6a_facing_a_short_all_in_raise_complete_the_wager() -> None:
    hand = to_fifth([100, 17, 100])  # seat 1 has 14 on 5th street
    play(hand, "0: bet 10", "1: raise to 14")
    # Seat 2 has not acted: fold, call 14 or complete the wager: a full bet over the 10.
    assert legal(hand) == ["fold", "call 14", "raise to 20"]
    play(hand, "2: raise to 20")
    assert hand.betting.bets_made == 2  # the bet and one raise: the all-in for 4 did not count
    assert legal(hand) == ["fold", "call 20", "raise to 30"]


def test_rule_6a_facing_a_short_all_in_bet_complete_the_bet() -> None:
    hand = to_fifth([7, 100, 100])  # seat 0 has 4 on 5th street
    play(hand, "0: bet 4")
    assert legal(hand) == ["fold", "call 4", "raise to 10"]
    play(hand, "1: raise to 10")
    assert hand.betting.bets_made == 1  # the bet of 10 is the round's first bet
    assert legal(hand) == ["fold", "call 10", "raise to 20"]


def test_rule_6b_an_all_in_of_half_a_bet_is_a_full_bet() -> None:
    hand = to_fifth([100, 18, 100])  # seat 1 has 15: a raise of 5 on a bet of 10
    play(hand, "0: bet 10", "1: raise to 15", "2: call")
    assert legal(hand) == ["fold", "call 15", "raise to 25"]  # reopened, a full bet over 15
    assert hand.betting.bets_made == 2


def test_rule_6c_several_short_all_ins_together_reopen_and_count() -> None:
    # Bet 10, all-ins to 14, 18 and 22: the bettor faces 12 more and may raise.
    hand = to_fifth([100, 17, 21, 25, 100])
    play(hand, "0: bet 10", "1: raise to 14", "2: raise to 18")
    # 14 and 18 come to 8 over the bet of 10, at least half a bet: together they are a raise.
    assert hand.betting.bets_made == 2
    play(hand, "3: raise to 22")  # 4 more: not a raise; the next raise adds a bet to the 18
    assert hand.betting.bets_made == 2
    assert legal(hand) == ["fold", "call 22", "raise to 28"]
    play(hand, "4: call")
    assert hand.to_act == 0 and legal(hand) == ["fold", "call 22", "raise to 28"]


def test_rule_6c_reopened_only_to_who_faces_a_raise() -> None:
    hand = to_fifth([100, 17, 100, 21, 100])
    play(hand, "0: bet 10", "1: raise to 14", "2: call", "3: raise to 18", "4: call")
    assert legal(hand) == ["fold", "call 18", "raise to 28"]  # seat 0 faces 8 more
    play(hand, "0: call")
    assert hand.to_act == 2 and legal(hand) == ["fold", "call 18"]  # seat 2 faces only 4 more


def test_rule_6c_short_all_ins_count_toward_the_cap() -> None:
    hand = to_fifth([100, 17, 21, 100], max_raises=1)  # a cap of a bet and one raise
    play(hand, "0: bet 10", "1: raise to 14", "2: raise to 18")
    assert hand.betting.bets_made == 2
    assert hand.to_act == 3 and legal(hand) == ["fold", "call 18"]  # capped: no raise
    with pytest.raises(IllegalAction, match="capped"):
        hand.act("raise to 28")


def test_rule_6_third_street_a_short_all_in_completion_is_completed_by_the_next() -> None:
    stakes = Stakes(ante=1, bring_in=2, small_bet=10, big_bet=20)
    hand = new_hand(
        Stud(stakes), [100, 5, 100], {0: "Kc Kd 9h", 1: "3c 4d 5h", 2: "As Ad 2c"}
    )
    play(hand, "2: bring-in")
    assert legal(hand) == ["fold", "call 2", "complete to 10"]
    play(hand, "0: call", "1: complete to 4")  # all-in for 4 of a bet of 10: under half
    assert hand.betting.bets_made == 0
    assert legal(hand) == ["fold", "call 4"]  # seat 2 brought in and faces only 2 more
    play(hand, "2: call")
    assert legal(hand) == ["fold", "call 4"]  # seat 0 called: not reopened either


def test_rule_6_third_street_a_short_completion_is_completed_by_who_has_not_acted() -> None:
    stakes = Stakes(ante=1, bring_in=2, small_bet=10, big_bet=20)
    hands = {0: "Kc Kd 9h", 1: "3c 4d 5h", 2: "As Ad 2c", 3: "Qc Jd Th"}
    hand = new_hand(Stud(stakes), [100, 5, 100, 100], hands)
    play(hand, "2: bring-in", "3: call", "0: call", "1: complete to 4", "2: call", "3: call")
    assert hand.to_act == 0 and legal(hand) == ["fold", "call 4"]
    hand = new_hand(Stud(stakes), [100, 100, 100, 5], {**hands, 1: "Qc Jd Th", 3: "3c 4d 5h"})
    play(hand, "2: bring-in", "3: complete to 4")
    assert legal(hand) == ["fold", "call 4", "complete to 10"]


def test_rule_6_third_street_completion_of_half_a_bet_counts() -> None:
    stakes = Stakes(ante=0, bring_in=1, small_bet=10, big_bet=20)
    hand = new_hand(
        Stud(stakes), [100, 6, 100], {0: "Kc Kd 9h", 1: "3c 4d 5h", 2: "As Ad 2c"}
    )
    play(hand, "2: bring-in", "0: call", "1: complete to 6")  # 6 of a bet of 10: a completion
    assert hand.betting.bets_made == 1
    assert legal(hand) == ["fold", "call 6", "raise to 16"]


# ---------------------------------------------------------------- the hands turned face up


def test_rule_all_in_hands_are_turned_face_up_when_nobody_can_bet() -> None:
    hand = new_hand(stud(), [100, 3, 100], ISSUE_8)
    play(hand, "1: bring-in", "2: complete", "0: call", "0: fold")
    turned = [e for e in hand.events if isinstance(e, HandTurnedUp)]
    assert [(e.seat, len(e.cards)) for e in turned] == [(1, 4), (2, 4)]
    at = hand.events.index(turned[0])
    # Before 5th street is dealt, after the 4th-street fold.
    assert all(not isinstance(e, CardDealt) or e.street == 5 for e in hand.events[at + 2 : at + 4])
    for viewer in (None, 0, 1, 2):
        view = hand.view(viewer)
        assert view.cards[1] == tuple(hand.cards[1]) and view.cards[2] == tuple(hand.cards[2])
        river = [e for e in view.events if isinstance(e, CardDealt) and e.street == 7]
        assert all(e.card is not None for e in river)  # the river cards still to come, shown
        early = [e for e in view.events[:at] if isinstance(e, CardDealt) and e.seat == 2]
        if viewer != 2:  # the log before the turn-up stays as it was; the event shows them
            assert early[0].card is None
    assert describe(turned[1]) == "seat 2's hand is turned face up: [7s 8s 5d Tc]"


def test_rule_all_in_face_up_option_off_keeps_the_hands_down() -> None:
    hand = new_hand(stud(all_in_face_up=False), [100, 3, 100], ISSUE_8)
    play(hand, "1: bring-in", "2: complete", "0: call", "0: fold")
    assert not any(isinstance(e, HandTurnedUp) for e in hand.events)
    assert hand.turned_up == set()
    assert awarded(hand) == [(1, 9, 0, "whole"), (2, 6, 1, "whole")]


def test_rule_all_in_face_up_not_while_two_can_still_bet() -> None:
    hand = new_hand(Stud(STAKES), [30, 6, 30], SIDE)
    play(hand, "1: bring-in", "2: complete", "0: call", "1: call")
    assert hand.stacks[1] == 0 and hand.turned_up == set()
    assert hand.view(None).cards[1][0] is None
