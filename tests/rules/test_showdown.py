"""The showdown (docs/rules.md, "Showdown", rules 1 to 3, 8 and 9): who shows first, mucking, the
best five of seven, ties, uncalled bets and hands won when everybody else folds."""

from __future__ import annotations

from studtable import awarded, hilo, new_hand, play, stud

from sevenstud import evaluate
from sevenstud.cards import parse_cards
from sevenstud.hand import (
    ActionTaken,
    BetReturned,
    CardDealt,
    Hand,
    HandEnded,
    HandMucked,
    HandShown,
    HandTurnedUp,
    Phase,
    PotAwarded,
)

THREE = {
    0: "Kc Qd 2c | 7d | 9h | Js | 4s",  # king high, no low
    1: "Ac Ad 5h | Kh | 8c | 3h | 6s",  # a pair of aces and an 8-6-5-3-A low; best board
    2: "Qs Qh 6d | Td | Qc | 3c | 5c",  # three queens, no low
}


def to_seventh(hand: Hand) -> Hand:
    play(hand, "0: bring-in", "1: call", "2: call")
    for _ in (4, 5, 6):
        play(hand, "1: check", "2: check", "0: check")
    assert hand.street == 7 and hand.to_act == 1
    return hand


def showdown_order(hand: Hand) -> list[int]:
    """Manual showdown: everybody shows when asked; the seats in the order they were asked."""
    order = []
    while not hand.is_over:
        assert hand.phase is Phase.SHOWDOWN
        order.append(hand.to_act)
        hand.act("show")
    return order  # type: ignore[return-value]


def shown_or_mucked(hand: Hand) -> list[tuple[str, int]]:
    return [
        (type(e).__name__, e.seat) for e in hand.events if isinstance(e, HandShown | HandMucked)
    ]


def test_showdown_order_last_aggressor_first() -> None:
    hand = to_seventh(new_hand(hilo(), [100, 100, 100], THREE, auto_showdown=False))
    play(hand, "1: check", "2: bet", "0: call", "1: raise", "2: call", "0: call")
    assert showdown_order(hand) == [1, 2, 0]  # seat 1 raised last; then clockwise


def test_showdown_order_last_bettor_first_when_nobody_raised() -> None:
    hand = to_seventh(new_hand(hilo(), [100, 100, 100], THREE, auto_showdown=False))
    play(hand, "1: check", "2: bet", "0: call", "1: call")
    assert showdown_order(hand) == [2, 0, 1]


def test_showdown_order_last_aggressor_first_automatic() -> None:
    hand = to_seventh(new_hand(hilo(), [100, 100, 100], THREE))
    play(hand, "1: check", "2: check", "0: bet", "1: raise", "2: call", "0: call")
    # Seat 1 shows first; seat 2's queens beat its aces, so seat 2 shows; seat 0 can win
    # nothing (king high, no low) and mucks.
    assert shown_or_mucked(hand) == [("HandShown", 1), ("HandShown", 2), ("HandMucked", 0)]
    assert awarded(hand) == [(2, 35, 0, "high"), (1, 34, 0, "low")]  # 9 + 3 * 20


def test_showdown_order_the_first_to_act_shows_first_when_no_bet() -> None:
    # 7th street checked through: the player who would act first shows first (TDA 17-A,
    # Robert's Rules), here seat 1 with the best board, not the lowest seat.
    hand = to_seventh(new_hand(hilo(), [100, 100, 100], THREE, auto_showdown=False))
    play(hand, "1: check", "2: check", "0: check")
    assert hand.first_to_act[7] == 1
    assert showdown_order(hand) == [1, 2, 0]


def test_showdown_order_lowest_seat_still_in_when_no_bet() -> None:
    hands = {0: "Kc Qd 2c | 7d", 1: THREE[1], 2: THREE[2]}
    hand = new_hand(hilo(), [100, 100, 100], hands, auto_showdown=False)
    play(hand, "0: bring-in", "1: call", "2: call", "1: bet", "2: call", "0: fold")
    for _ in (5, 6, 7):
        play(hand, "1: check", "2: check")
    assert showdown_order(hand) == [1, 2]


def test_showdown_order_counts_only_bets_on_seventh_street() -> None:
    hand = new_hand(hilo(), [100, 100, 100], THREE, auto_showdown=False)
    play(hand, "0: bring-in", "1: call", "2: call")
    for _ in (4, 5):
        play(hand, "1: check", "2: check", "0: check")
    play(hand, "1: check", "2: bet", "0: call", "1: call")  # seat 2 bets 6th street
    play(hand, "1: check", "2: check", "0: check")
    assert showdown_order(hand) == [1, 2, 0]  # the first to act on 7th, not 6th's bettor


def test_player_may_show_or_muck_at_showdown() -> None:
    hand = to_seventh(new_hand(hilo(), [100, 100, 100], THREE, auto_showdown=False))
    play(hand, "1: check", "2: check", "0: check")
    assert [str(a) for a in hand.legal_actions()] == ["show", "muck"]
    play(hand, "1: show", "2: show", "0: muck")
    assert shown_or_mucked(hand) == [("HandShown", 1), ("HandShown", 2), ("HandMucked", 0)]
    assert awarded(hand) == [(2, 5, 0, "high"), (1, 4, 0, "low")]


def test_last_hand_left_after_everybody_mucks_wins_without_showing() -> None:
    hand = to_seventh(new_hand(hilo(), [100, 100, 100], THREE, auto_showdown=False))
    play(hand, "1: check", "2: check", "0: check", "1: muck", "2: muck")
    assert hand.is_over
    assert shown_or_mucked(hand) == [("HandMucked", 1), ("HandMucked", 2)]
    assert awarded(hand) == [(0, 9, 0, "whole")]


def test_muck_at_showdown_never_reveals_cards_in_other_views() -> None:
    hand = to_seventh(new_hand(hilo(), [100, 100, 100], THREE))
    play(hand, "1: bet", "2: call", "0: call")
    assert shown_or_mucked(hand) == [("HandShown", 1), ("HandShown", 2), ("HandMucked", 0)]
    # The engine still knows seat 0's cards...
    assert " ".join(map(str, hand.cards[0])) == "Kc Qd 2c 7d 9h Js 4s"
    # ...but nobody else ever sees its down cards, in the cards or in the events.
    for viewer in (1, 2, None):
        view = hand.view(viewer)
        assert [None if c is None else str(c) for c in view.cards[0]] == [
            None,
            None,
            "2c",
            "7d",
            "9h",
            "Js",
            None,
        ]
        assert not any(isinstance(e, HandShown) and e.seat == 0 for e in view.events)
        hidden = [
            e for e in view.events if isinstance(e, CardDealt) and e.seat == 0 and not e.face_up
        ]
        assert len(hidden) == 3 and all(e.card is None for e in hidden)
        # The hands that were shown are seen by all.
        assert [str(c) for c in view.cards[1]] == ["Ac", "Ad", "5h", "Kh", "8c", "3h", "6s"]
    assert None not in hand.view(0).cards[0]


def test_every_hand_is_the_best_five_of_its_seven_cards() -> None:
    # Both hold three pairs: aces and kings with a queen beat aces and kings with a jack.
    hands = {0: "Ac Ad Kc | Kd | Qc | Qd | 2s", 1: "Ah As Kh | Ks | Jc | Jd | 3s"}
    hand = new_hand(stud(), [100, 100], hands)
    play(hand, "0: bring-in", "1: call")
    while not hand.is_over:
        hand.act("check")
    shown = [(e.seat, e.high) for e in hand.events if isinstance(e, HandShown)]
    assert shown == [(0, "two pair, Aces and Kings")]
    assert awarded(hand) == [(0, 6, 0, "whole")]


def test_suits_never_break_ties_at_showdown() -> None:
    # Both make a straight, nine to king; seat 1's king of spades does not help it.
    hands = {0: "Kh Qd 9c | Jc | Tc | 3d | 2s", 1: "Ks Qc 9d | Jd | Th | 4c | 2h"}
    hand = new_hand(stud(), [100, 100], hands)
    play(hand, "0: bring-in", "1: call")
    while not hand.is_over:
        hand.act("check")
    assert awarded(hand) == [(1, 3, 0, "whole"), (0, 3, 0, "whole")]
    assert hand.finishing_stacks == (100, 100)


def test_pot_won_by_everyone_folding_cards_not_shown() -> None:
    hand = new_hand(hilo(), [100, 100, 100], THREE)
    play(hand, "0: bring-in", "1: complete", "2: fold")
    start = len(hand.events)
    play(hand, "0: fold")
    assert hand.events[start + 1 :] == [
        BetReturned(1, 3),  # the completion nobody called, above seat 0's bring-in
        PotAwarded(1, 7, 0, "whole"),
        HandEnded((97, 104, 99)),
    ]
    assert isinstance(hand.events[start], ActionTaken)
    assert not any(isinstance(e, HandShown | HandMucked) for e in hand.events)
    for viewer in (0, 2, None):
        assert hand.view(viewer).cards[1][:2] == (None, None)


def test_uncalled_bet_returned() -> None:
    hand = new_hand(hilo(), [100, 100], {0: THREE[0], 1: THREE[1]})
    play(hand, "0: bring-in", "1: call")
    for _ in (4, 5, 6):
        play(hand, "1: check", "0: check")
    play(hand, "1: bet 10")
    start = len(hand.events)
    play(hand, "0: fold")
    assert hand.events[start + 1 :] == [
        BetReturned(1, 10),
        PotAwarded(1, 6, 0, "whole"),
        HandEnded((97, 103)),
    ]


def test_uncalled_part_of_a_bet_returned_when_called_all_in_for_less() -> None:
    hand = new_hand(hilo(), [10, 100], {0: THREE[0], 1: THREE[1]})
    play(hand, "0: bring-in", "1: call", "1: bet", "0: call", "1: bet 10")
    assert hand.stacks == [2, 82]
    start = len(hand.events)
    play(hand, "0: call")
    assert hand.events[start] == ActionTaken(0, 5, hand.actions[-1][1], True, 2)
    assert str(hand.actions[-1][1]) == "call 2"
    assert hand.events[start + 1] == BetReturned(1, 8)  # before 6th street is dealt
    # Nobody can bet any more: both hands are turned face up, then the cards are dealt out.
    assert [type(e) for e in hand.events[start + 2 : start + 5]] == [
        HandTurnedUp,
        HandTurnedUp,
        CardDealt,
    ]
    assert hand.is_over  # nobody left to bet against: the cards are dealt out
    # Seat 1's aces and its 8-6-5-3-A low take both halves.
    assert awarded(hand) == [(1, 10, 0, "high"), (1, 10, 0, "low")]
    assert hand.finishing_stacks == (0, 110)


def test_high_hand_ranking_straight_flush_down_to_high_card() -> None:
    weakest_first = [
        "Kc Qd 9h 7s 5c 3d 2h",  # high card
        "Kc Kd 9h 7s 5c 3d 2h",  # one pair
        "Kc Kd 9h 9s 5c 3d 2h",  # two pair
        "Kc Kd Kh 9s 5c 3d 2h",  # three of a kind
        "9c Td Jh Qs Kc 3d 2h",  # a straight
        "2c 5c 7c 9c Jc Kd Kh",  # a flush
        "Kc Kd Kh 9s 9c 3d 2h",  # a full house
        "Kc Kd Kh Ks 9c 3d 2h",  # four of a kind
        "9c Tc Jc Qc Kc Kd Kh",  # a straight flush
    ]
    ranks = [evaluate.high_rank(parse_cards(cards)) for cards in weakest_first]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)
    names = [evaluate.high_name(r).split(",")[0] for r in ranks]
    assert names[0].startswith("high card") and names[-1] == "a straight flush"
