"""Dealing (docs/rules.md, "Dealing and the streets", rules 1, 5 and 7, and "Burn cards")."""

from __future__ import annotations

from studtable import deal, hilo, new_hand, play, stud

from sevenstud.cards import parse_cards
from sevenstud.hand import CardDealt, CommunityCardDealt, HandShown, StreetStarted

THREE = {
    0: "Kc Qd 2c | 7d | 9h | Js | 4s",
    1: "Ac Ad 5h | Kh | 8c | 3h | 6s",
    2: "Qs Qh 6d | Td | Qc | 3c | 5c",
}


def dealt(events: list, street: int) -> list[tuple[int, str, bool]]:
    return [
        (e.seat, str(e.card), e.face_up)
        for e in events
        if isinstance(e, CardDealt) and e.street == street
    ]


def test_third_street_two_down_one_up_one_at_a_time_clockwise_from_seat_zero() -> None:
    hand = new_hand(hilo(), [100, 100, 100], THREE)
    assert dealt(hand.events, 3) == [
        (0, "Kc", False),
        (1, "Ac", False),
        (2, "Qs", False),
        (0, "Qd", False),
        (1, "Ad", False),
        (2, "Qh", False),
        (0, "2c", True),
        (1, "5h", True),
        (2, "6d", True),
    ]


def test_fourth_to_sixth_street_one_card_up_seventh_one_card_down() -> None:
    hand = new_hand(hilo(), [100, 100, 100], THREE)
    play(hand, "0: bring-in", "1: call", "2: call")
    for _ in range(4):
        play(hand, "1: check", "2: check", "0: check")
    assert hand.is_over
    assert dealt(hand.events, 4) == [(0, "7d", True), (1, "Kh", True), (2, "Td", True)]
    assert dealt(hand.events, 5) == [(0, "9h", True), (1, "8c", True), (2, "Qc", True)]
    assert dealt(hand.events, 6) == [(0, "Js", True), (1, "3h", True), (2, "3c", True)]
    assert dealt(hand.events, 7) == [(0, "4s", False), (1, "6s", False), (2, "5c", False)]
    assert [[up for up in hand.face_up[s]] for s in range(3)] == [
        [False, False, True, True, True, True, False]
    ] * 3


def test_each_street_is_dealt_before_its_betting_round() -> None:
    hand = new_hand(hilo(), [100, 100, 100], THREE)
    play(hand, "0: bring-in", "1: call", "2: call")
    started = [i for i, e in enumerate(hand.events) if isinstance(e, StreetStarted)]
    assert [hand.events[i].street for i in started] == [3, 4]
    last_card = max(i for i, e in enumerate(hand.events) if isinstance(e, CardDealt))
    assert started[-1] == last_card + 1


def test_later_streets_dealt_only_to_players_still_in() -> None:
    hand = new_hand(hilo(), [100, 100, 100], {0: THREE[0], 1: "Ac Ad 5h", 2: THREE[2]})
    play(hand, "0: bring-in", "1: fold", "2: call")
    assert dealt(hand.events, 4) == [(0, "7d", True), (2, "Td", True)]
    assert len(hand.cards[1]) == 3


def test_no_burn_cards() -> None:
    deck = deal(THREE)
    hand = new_hand(hilo(), [100, 100, 100], THREE)
    play(hand, "0: bring-in", "1: call", "2: call")
    for _ in range(4):
        play(hand, "1: check", "2: check", "0: check")
    order = [e.card for e in hand.events if isinstance(e, CardDealt)]
    assert order == list(deck.cards[:21])
    assert hand.deck.position == 21


# Eight players: 3rd to 6th street use 48 cards, 4 are left for 7th street.
EIGHT = {
    0: "Kc 9d As | Ad | 7h | 4c",  # aces, the best board: acts first from 4th street
    1: "2h 5h 3c | 9h | Jh | 8d",  # brings in (3c); four hearts
    2: "4d 6s Jd | Ts | 8s | 3h",
    3: "4s Kh 6h | 4h | 3s | 8c",
    4: "Ac 5s 9s | 6c | Qd | 2c",
    5: "5d 6d 9c | Qc | Tc | Js",
    6: "Ks 2d Th | 3d | Qs | Kd",
    7: "7d 5c 8h | Td | Jc | 2s",
}


def test_community_card_when_eight_players_exhaust_the_deck() -> None:
    hand = new_hand(stud(), [100] * 8, EIGHT, community="Qh")
    assert hand.bring_in_seat == 1
    play(hand, "1: bring-in", *[f"{s}: call" for s in (2, 3, 4, 5, 6, 7, 0)])
    for _ in (4, 5, 6):
        play(hand, *[f"{s}: check" for s in range(8)])
    assert hand.street == 7
    assert hand.deck.remaining() == 3
    assert hand.community == parse_cards("Qh")[0]
    index = hand.events.index(CommunityCardDealt(hand.community))
    assert hand.events[index + 1] == StreetStarted(7, 0)
    assert dealt(hand.events, 7) == []  # nobody gets a seventh card of their own
    assert all(len(hand.cards[s]) == 6 and len(hand.seven_cards(s)) == 7 for s in range(8))
    play(hand, "0: bet", "1: call", *[f"{s}: fold" for s in range(2, 8)])
    assert hand.is_over
    # Seat 1's four hearts and the community Qh make a flush: it beats seat 0's aces.
    shown = {e.seat: e.high for e in hand.events if isinstance(e, HandShown)}
    assert shown == {0: "a pair of Aces", 1: "a flush, Queen high"}
    assert [(a.seat, a.amount) for a in hand.awards] == [(1, 8 + 16 + 20)]
    assert hand.finishing_stacks == (87, 131, 97, 97, 97, 97, 97, 97)


def test_community_card_shown_in_every_view() -> None:
    hand = new_hand(stud(), [100] * 8, EIGHT, community="Qh")
    play(hand, "1: bring-in", *[f"{s}: call" for s in (2, 3, 4, 5, 6, 7, 0)])
    for _ in (4, 5, 6):
        play(hand, *[f"{s}: check" for s in range(8)])
    for viewer in (None, *range(8)):
        view = hand.view(viewer)
        assert str(view.community) == "Qh"
        assert CommunityCardDealt(hand.community) in view.events  # type: ignore[arg-type]


def test_no_community_card_when_the_deck_suffices() -> None:
    seven = {s: EIGHT[s] for s in range(7)}
    hand = new_hand(stud(), [100] * 7, seven)
    play(hand, "1: bring-in", *[f"{s}: call" for s in (2, 3, 4, 5, 6, 0)])
    for _ in (4, 5, 6):
        play(hand, *[f"{s}: check" for s in range(7)])
    assert hand.community is None
    assert [s for s, _, up in dealt(hand.events, 7) if not up] == list(range(7))


def test_no_community_card_when_folds_leave_enough_cards() -> None:
    hand = new_hand(stud(), [100] * 8, EIGHT)
    play(hand, "1: bring-in", *[f"{s}: call" for s in (2, 3, 4, 5, 6, 7, 0)])
    for _ in (4, 5):
        play(hand, *[f"{s}: check" for s in range(8)])
    # 6th street: four players fold to a bet; 4 cards are left for the 4 still in.
    play(hand, "0: bet", "1: call", "2: call", "3: call", *[f"{s}: fold" for s in range(4, 8)])
    assert hand.street == 7 and hand.community is None
    assert [s for s, _, _ in dealt(hand.events, 7)] == [0, 1, 2, 3]
