"""Stud's dealing order (sevenstud.dealing): two down and the door card to everyone clockwise,
then one card a street to the players still in, the community card when the deck runs out;
checked against the engine dealing the deck it builds."""

from __future__ import annotations

import random

import pytest

from sevenstud.cards import CARDS, CardError, parse_cards
from sevenstud.dealing import COMMUNITY, DealingError, deal_slots, dealing_order, deck_for
from sevenstud.games import Stakes, Stud
from sevenstud.hand import Hand

GAME = Stud(Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10))


def test_three_rounds_to_everyone_then_one_card_a_street_to_the_players_still_in() -> None:
    # Seat 1 folded on 4th street (four cards); seats 0 and 2 went on to 5th.
    assert deal_slots([5, 4, 5]) == [
        (0, 0), (1, 0), (2, 0),
        (0, 1), (1, 1), (2, 1),
        (0, 2), (1, 2), (2, 2),
        (0, 3), (1, 3), (2, 3),
        (0, 4), (2, 4),
    ]  # fmt: skip


def test_the_community_card_comes_in_7th_street_s_place() -> None:
    slots = deal_slots([6] * 8, community=True)
    assert len(slots) == 49 and slots[-1] == (COMMUNITY, 6)
    assert dealing_order([["a1", "a2"], ["b1"]]) == ["a1", "b1", "a2"]
    assert dealing_order([list("abcdef"), list("ghijkl")], "Z")[-3:] == ["f", "l", "Z"]


def test_cards_stud_cannot_deal_are_a_dealing_error() -> None:
    with pytest.raises(DealingError, match="seat 1 cannot be dealt 8 cards"):
        deal_slots([7, 8])
    with pytest.raises(DealingError, match="seat 0 has a 7th card and there is a community card"):
        dealing_order([list("abcdefg"), list("hijklm")], "Z")
    assert issubclass(DealingError, ValueError)


def test_deck_for_puts_the_rest_in_card_order_and_refuses_a_card_twice() -> None:
    deck = deck_for(["As Kd 7h", "Qs Qd 3h"], None)
    assert [str(c) for c in deck.cards[:6]] == ["As", "Qs", "Kd", "Qd", "7h", "3h"]
    assert len(deck.cards) == 52 and sorted(deck.cards) == list(CARDS)
    with pytest.raises(CardError):
        deck_for(["As Kd 7h", "As Qd 3h"])
    with pytest.raises(CardError, match="one community card"):
        deck_for(["As Kd 7h", "Qs Qd 3h"], "2c 3c")


@pytest.mark.parametrize("players", [2, 5, 7, 8])
def test_the_engine_deals_each_seat_the_cards_given_in_dealing_order(players: int) -> None:
    rng = random.Random(players)
    for _ in range(30):
        cards = rng.sample(CARDS, 52)
        # Eight players run the deck out: six cards each and a community card.
        own = 6 if players == 8 else 7
        hands = [cards[i * own : (i + 1) * own] for i in range(players)]
        community = cards[48] if players == 8 else None
        hand = Hand(GAME, [1000] * players, deck_for(hands, community))
        while not hand.is_over:
            kinds = {a.kind for a in hand.legal_actions()}
            hand.act(next(k for k in ("bring-in", "check", "call") if k in kinds))
        for seat in range(players):
            assert hand.cards[seat] == hands[seat]
        assert hand.community == community


def test_a_folded_player_is_dealt_no_more() -> None:
    hands = ["2c 3c 4c", "As Ks Qs Js Ts 9s 8s", "Ad Kd Qd Jd Td 9d 8d"]
    hand = Hand(GAME, [1000] * 3, deck_for(hands))
    for seat, action in ((0, "bring-in"), (1, "complete"), (2, "call"), (0, "fold")):
        hand.act(action, seat)
    while not hand.is_over:
        hand.act("check")
    assert hand.cards == [parse_cards(h) for h in hands]
