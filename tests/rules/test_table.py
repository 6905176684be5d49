"""Table and stakes (docs/rules.md, "Table and stakes"): players, antes, bet sizes, the cap, all-ins,
side pots and the short all-in raise."""

from __future__ import annotations

from fractions import Fraction

import pytest
from studtable import hilo, new_hand, play, stud

from sevenstud.deck import Deck
from sevenstud.games import Stakes, StudHiLo
from sevenstud.hand import ActionTaken, AntePosted, CardDealt, Hand, HandError, IllegalAction, Pot

# Seat 0 brings in (2c); seat 1 (K high) has the best board from 4th street to 7th; seat 2 holds
# three queens. No open pair on 4th street.
THREE = {
    0: "Kc Qd 2c | 7d | 9h | Js | 4s",
    1: "Ac Ad 5h | Kh | 8c | 3h | 6s",
    2: "Qs Qh 6d | Td | Qc | 3c | 5c",
}


def legal(hand: Hand) -> list[str]:
    return [str(a) for a in hand.legal_actions()]


def test_two_to_eight_players() -> None:
    for n in range(2, 9):
        assert Hand(hilo(), [50] * n, Deck.seeded(n)).n == n
    for n in (1, 9):
        with pytest.raises(HandError, match=f"2 to 8 players, not {n}"):
            Hand(hilo(), [50] * n, Deck.seeded(n))


def test_typical_stakes_ante_a_fifth_and_bring_in_half_of_the_small_bet() -> None:
    assert Stakes.for_limits(10) == Stakes(ante=2, bring_in=5, small_bet=10, big_bet=20)
    assert Stakes.for_limits(1, 2) == Stakes(ante=1, bring_in=1, small_bet=1, big_bet=2)


def test_antes_posted_by_everyone_before_any_card() -> None:
    hand = new_hand(hilo(), [100, 100, 100], THREE)
    kinds = [type(e) for e in hand.events]
    first_card = kinds.index(CardDealt)
    assert hand.events[:first_card] == [
        AntePosted(0, 1, False),
        AntePosted(1, 1, False),
        AntePosted(2, 1, False),
    ]
    assert AntePosted not in kinds[first_card:]
    assert hand.stacks == [99, 99, 99] and hand.pot == 3


def test_short_stack_posts_what_it_has_as_ante_and_is_all_in() -> None:
    game = StudHiLo(Stakes(ante=3, bring_in=5, small_bet=10, big_bet=20))
    hand = new_hand(game, [100, 2, 100], THREE)
    assert hand.events[:3] == [
        AntePosted(0, 3, False),
        AntePosted(1, 2, True),
        AntePosted(2, 3, False),
    ]
    assert hand.stacks == [97, 0, 97]


def test_bet_sizes_small_bet_on_third_and_fourth_big_bet_on_fifth_to_seventh() -> None:
    hand = new_hand(hilo(), [100, 100], {0: THREE[0], 1: THREE[1]})
    assert legal(hand) == ["bring-in 2", "complete to 5"]
    play(hand, "0: bring-in")
    assert legal(hand) == ["fold", "call 2", "complete to 5"]
    play(hand, "1: complete")
    assert legal(hand) == ["fold", "call 5", "raise to 10"]
    play(hand, "0: call")
    assert hand.street == 4 and legal(hand) == ["fold", "check", "bet 5"]
    play(hand, "1: bet")
    assert legal(hand) == ["fold", "call 5", "raise to 10"]
    play(hand, "0: call")
    for street in (5, 6, 7):
        assert hand.street == street and legal(hand) == ["fold", "check", "bet 10"]
        play(hand, "1: bet")
        assert legal(hand) == ["fold", "call 10", "raise to 20"]
        play(hand, "0: call")
    assert hand.is_over
    # Each put in 1 + 5 + 5 + 3 * 10 = 41; seat 1 (aces, and an 8-6-5-3-A low) scoops 82.
    assert hand.finishing_stacks == (59, 141)


def test_cap_one_bet_three_raises() -> None:
    hand = new_hand(hilo(), [100, 100, 100], THREE)
    play(hand, "0: bring-in", "1: call", "2: call", "1: check", "2: check", "0: check")
    assert hand.street == 5
    play(hand, "1: bet 10", "2: raise to 20", "0: raise to 30", "1: raise to 40")
    assert legal(hand) == ["fold", "call 40"]
    with pytest.raises(IllegalAction, match="capped"):
        hand.act("raise to 50")
    play(hand, "2: call")
    assert legal(hand) == ["fold", "call 40"]
    play(hand, "0: call")
    assert hand.street == 6


def test_cap_on_third_street_the_completion_is_the_bet() -> None:
    hand = new_hand(hilo(), [100, 100, 100], THREE)
    play(hand, "0: bring-in", "1: complete", "2: raise to 10", "0: raise to 15", "1: raise to 20")
    assert legal(hand) == ["fold", "call 20"]
    play(hand, "2: call", "0: call")
    assert hand.street == 4


def test_cap_applies_heads_up_by_default() -> None:
    hand = new_hand(hilo(), [200, 200], {0: THREE[0], 1: THREE[1]})
    play(hand, "0: bring-in", "1: call", "1: check", "0: check")
    play(hand, "1: bet", "0: raise", "1: raise", "0: raise")
    assert legal(hand) == ["fold", "call 40"]


def test_no_cap_heads_up_option() -> None:
    hand = new_hand(hilo(uncapped_heads_up=True), [200, 200], {0: THREE[0], 1: THREE[1]})
    play(hand, "0: bring-in", "1: call", "1: check", "0: check")
    play(hand, "1: bet", "0: raise", "1: raise", "0: raise", "1: raise", "0: raise")
    assert legal(hand) == ["fold", "call 60", "raise to 70"]


def test_no_cap_heads_up_option_keeps_the_cap_with_three_players() -> None:
    hand = new_hand(hilo(uncapped_heads_up=True), [200, 200, 200], THREE)
    play(hand, "0: bring-in", "1: call", "2: call", "1: check", "2: check", "0: check")
    play(hand, "1: bet", "2: raise", "0: raise", "1: raise")
    assert legal(hand) == ["fold", "call 40"]


def test_no_cap_heads_up_option_counts_players_left_in_the_hand() -> None:
    hand = new_hand(hilo(uncapped_heads_up=True), [200, 200, 200], THREE)
    play(hand, "0: bring-in", "1: call", "2: fold", "1: check", "0: check")
    play(hand, "1: bet", "0: raise", "1: raise", "0: raise")
    assert legal(hand) == ["fold", "call 40", "raise to 50"]


def test_cap_size_option() -> None:
    hand = new_hand(hilo(max_raises=1), [100, 100, 100], THREE)
    play(hand, "0: bring-in", "1: call", "2: call", "1: check", "2: check", "0: check")
    play(hand, "1: bet 10", "2: raise to 20")
    assert legal(hand) == ["fold", "call 20"]


def test_all_in_for_less_and_side_pots() -> None:
    hand = new_hand(stud(), [100, 100, 8], THREE)
    play(hand, "0: bring-in", "1: complete", "2: call", "0: call")
    assert hand.stacks == [94, 94, 2]
    play(hand, "1: bet 5")
    assert legal(hand) == ["fold", "call 2"]  # all-in for less; no raise
    events = play(hand, "2: call").events
    assert [e for e in events if isinstance(e, ActionTaken)][-1].all_in is True
    play(hand, "0: call")
    assert hand.pots() == [Pot(24, (0, 1, 2)), Pot(6, (0, 1))]
    for _ in range(3):  # 5th to 7th: only seats 0 and 1 can still bet
        assert hand.to_act == 1
        play(hand, "1: check", "0: check")
    assert hand.is_over
    # Seat 2's three queens take the main pot, seat 1's aces the side pot it could not contest.
    assert [(a.seat, a.amount, a.pot) for a in hand.awards] == [(2, 24, 0), (1, 6, 1)]
    assert hand.finishing_stacks == (89, 95, 24)


# Seat 2 brings in (3d); seat 0 (Ah Kh, then Ah Kh Qh) has the best board on 4th and 5th street.
SHORT = {0: "2h 3h Ah | Kh | Qh", 1: "4c 5c 9d | 8d | 7s", 2: "6c Tc 3d | 4d | 5d"}


def _to_fifth_street(game: StudHiLo, stack1: int) -> Hand:
    hand = new_hand(game, [100, stack1, 100], SHORT)
    play(hand, "2: bring-in", "0: call", "1: call", "0: check", "1: check", "2: check")
    assert hand.street == 5 and hand.to_act == 0
    return hand


def test_short_all_in_raise_does_not_reopen_betting() -> None:
    hand = _to_fifth_street(hilo(), 17)  # 14 chips left: a raise of 4 on a bet of 10
    play(hand, "0: bet 10")
    assert legal(hand) == ["fold", "call 10", "raise to 14"]
    play(hand, "1: raise to 14")
    assert hand.stacks[1] == 0
    # Seat 2 has not acted yet: the betting is open to it, and its raise completes the wager
    # (a full bet over the bet of 10, not over the short all-in: Robert's Rules, 6).
    assert legal(hand) == ["fold", "call 14", "raise to 20"]
    play(hand, "2: call")
    # Seat 0 has acted: less than half a raise does not reopen the betting for it.
    assert hand.to_act == 0 and legal(hand) == ["fold", "call 14"]
    with pytest.raises(IllegalAction, match="not reopened"):
        hand.act("raise to 24")
    play(hand, "0: call")
    assert hand.street == 6


def test_all_in_raise_of_half_a_raise_reopens_betting() -> None:
    hand = _to_fifth_street(hilo(), 18)
    play(hand, "0: bet 10", "1: raise to 15", "2: call")
    assert legal(hand) == ["fold", "call 15", "raise to 25"]


def test_short_all_in_raise_reopen_threshold_option() -> None:
    third = _to_fifth_street(hilo(reopen_fraction=Fraction(1, 3)), 17)
    play(third, "0: bet 10", "1: raise to 14", "2: call")
    assert legal(third) == ["fold", "call 14", "raise to 24"]  # a third of a bet: a full bet
    full = _to_fifth_street(hilo(reopen_fraction=Fraction(1)), 18)
    play(full, "0: bet 10", "1: raise to 15", "2: call")
    assert legal(full) == ["fold", "call 15"]
