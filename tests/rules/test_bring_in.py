"""The bring-in (docs/rules.md, "Dealing and the streets", rules 2 to 4, and the games table)."""

from __future__ import annotations

from studtable import actions_on, hilo, new_hand, play, razz, stud

from sevenstud.games import SUIT_ORDER_CHDS
from sevenstud.hand import ActionTaken, Hand, StreetStarted


def doors(game_hand: Hand) -> list[str]:
    return [str(game_hand.cards[s][2]) for s in range(game_hand.n)]


def bring_in_with_doors(game: object, *door_cards: str, stacks: list[int] | None = None) -> Hand:
    """A hand whose seats show these door cards (down cards are filler)."""
    downs = iter(["2s 2h", "3s 3h", "4s 4h", "5s 5h", "6s 6h", "7s 7h", "8s 8h", "9s 9h"])
    hands = {seat: f"{next(downs)} {door}" for seat, door in enumerate(door_cards)}
    hand = new_hand(game, stacks or [100] * len(door_cards), hands)  # type: ignore[arg-type]
    assert doors(hand) == list(door_cards)
    return hand


def test_lowest_door_card_brings_in_aces_high() -> None:
    hand = bring_in_with_doors(hilo(), "Ac", "Kd", "Td", "Jc")
    assert hand.bring_in_seat == 2 and hand.to_act == 2
    assert hand.events[-1] == StreetStarted(3, 2)
    # The ace is the highest card here: with a deuce next to it, the deuce brings in.
    assert bring_in_with_doors(hilo(), "Ac", "2d").bring_in_seat == 1


def test_stud_lowest_door_card_brings_in() -> None:
    assert bring_in_with_doors(stud(), "9c", "Ad", "4d").bring_in_seat == 2


def test_bring_in_tie_broken_by_suit_clubs_lowest() -> None:
    assert bring_in_with_doors(hilo(), "Ts", "Td", "Tc", "Th").bring_in_seat == 2


def test_bring_in_tie_suit_order_clubs_diamonds_hearts_spades() -> None:
    assert bring_in_with_doors(hilo(), "Ts", "Th", "Td").bring_in_seat == 2  # diamonds
    assert bring_in_with_doors(hilo(), "Ts", "Th").bring_in_seat == 1  # hearts below spades


def test_suit_order_option_clubs_hearts_diamonds_spades() -> None:
    assert bring_in_with_doors(hilo(), "Td", "Th").bring_in_seat == 0  # the default order
    chds = hilo(suit_order=SUIT_ORDER_CHDS)
    assert bring_in_with_doors(chds, "Td", "Th").bring_in_seat == 1
    assert bring_in_with_doors(chds, "Ts", "Td", "Tc").bring_in_seat == 2
    assert bring_in_with_doors(chds, "Ts", "Td").bring_in_seat == 1


def test_seat_tie_break_option_nearest_the_dealers_left() -> None:
    assert bring_in_with_doors(hilo(), "9s", "Ks", "9c").bring_in_seat == 2  # suits: 9c
    game = hilo(bring_in_tie_break="seat")
    assert bring_in_with_doors(game, "9s", "Ks", "9c").bring_in_seat == 0
    assert bring_in_with_doors(game, "Ks", "9s", "9c").bring_in_seat == 1
    # A lower rank still brings in, whatever the seat.
    assert bring_in_with_doors(game, "9s", "8h", "9c").bring_in_seat == 1


def test_all_in_player_skipped_for_bring_in() -> None:
    # Seat 1 has the lowest door card but is all-in from the ante: the next seat clockwise
    # brings in, whatever its door card.
    hand = bring_in_with_doors(hilo(), "Ts", "2c", "As", stacks=[100, 1, 100])
    assert hand.stacks[1] == 0
    assert hand.bring_in_seat == 2 and hand.to_act == 2
    play(hand, "2: bring-in")
    assert hand.to_act == 0


def test_all_in_player_skipped_for_bring_in_wraps_around_the_table() -> None:
    hand = bring_in_with_doors(hilo(), "As", "Ks", "2c", stacks=[100, 100, 1])
    assert hand.bring_in_seat == 0


def test_bring_in_player_posts_the_bring_in_or_completes() -> None:
    hand = bring_in_with_doors(hilo(), "Ts", "2c", "As")
    assert [str(a) for a in hand.legal_actions()] == ["bring-in 2", "complete to 5"]
    play(hand, "1: bring-in")
    assert hand.stacks == [99, 97, 99] and hand.street_bets == [0, 2, 0]


def test_after_the_bring_in_each_player_folds_calls_or_completes() -> None:
    hand = bring_in_with_doors(hilo(), "Ts", "2c", "As")
    play(hand, "1: bring-in")
    assert hand.to_act == 2
    assert [str(a) for a in hand.legal_actions()] == ["fold", "call 2", "complete to 5"]
    play(hand, "2: call")
    assert [str(a) for a in hand.legal_actions()] == ["fold", "call 2", "complete to 5"]


def test_completing_the_bring_in() -> None:
    hand = bring_in_with_doors(hilo(), "Ts", "2c", "As")
    play(hand, "1: bring-in", "2: call", "0: complete")
    assert hand.street_bets == [5, 2, 2]
    # After a completion, raises are by the small bet, and the action goes round again.
    assert hand.to_act == 1
    assert [str(a) for a in hand.legal_actions()] == ["fold", "call 5", "raise to 10"]
    play(hand, "1: raise", "2: call", "0: call")
    assert hand.street == 4
    assert actions_on(hand, 3) == [
        (1, "bring-in 2"),
        (2, "call 2"),
        (0, "complete to 5"),
        (1, "raise to 10"),
        (2, "call 10"),
        (0, "call 10"),
    ]
    assert hand.pot == 3 + 30


def test_bring_in_player_may_complete_at_once() -> None:
    hand = bring_in_with_doors(hilo(), "Ts", "2c", "As")
    play(hand, "1: complete")
    assert [str(a) for a in hand.legal_actions()] == ["fold", "call 5", "raise to 10"]
    play(hand, "2: call", "0: call")
    assert hand.street == 4 and hand.pot == 18


def test_bring_in_round_ends_when_action_returns_to_bring_in_player() -> None:
    hand = bring_in_with_doors(hilo(), "Ts", "2c", "As")
    play(hand, "1: bring-in", "2: call", "0: call")
    # Nobody completed: the bring-in player does not act again, 4th street is dealt.
    assert hand.street == 4
    assert actions_on(hand, 3) == [(1, "bring-in 2"), (2, "call 2"), (0, "call 2")]
    assert hand.pot == 9 and hand.stacks == [97, 97, 97]


def test_bring_in_is_returned_when_everybody_folds_to_it() -> None:
    hand = bring_in_with_doors(hilo(), "Ts", "2c", "As")
    play(hand, "1: bring-in", "2: fold", "0: fold")
    assert hand.is_over
    assert hand.finishing_stacks == (99, 102, 99)


def test_short_stack_brings_in_for_what_it_has() -> None:
    hand = bring_in_with_doors(hilo(), "Ts", "2c", "As", stacks=[100, 2, 100])
    assert [str(a) for a in hand.legal_actions()] == ["bring-in 1"]
    (taken,) = [e for e in hand.act("bring-in") if isinstance(e, ActionTaken)]
    assert (taken.seat, str(taken.action), taken.all_in) == (1, "bring-in 1", True)
    assert [str(a) for a in hand.legal_actions()] == ["fold", "call 1", "complete to 5"]


def test_razz_highest_door_card_brings_in_king_highest() -> None:
    hand = bring_in_with_doors(razz(), "Qs", "Kc", "9d")
    assert hand.bring_in_seat == 1


def test_razz_aces_are_low_for_the_bring_in() -> None:
    hand = bring_in_with_doors(razz(), "As", "2c", "3d")
    assert hand.bring_in_seat == 2  # the three; in stud the ace would be highest
    assert bring_in_with_doors(hilo(), "As", "2c", "3d").bring_in_seat == 1


def test_razz_bring_in_tie_broken_by_suit_spades_highest() -> None:
    assert bring_in_with_doors(razz(), "Kh", "Ks", "Kc").bring_in_seat == 1
    assert bring_in_with_doors(razz(), "Kc", "Kd").bring_in_seat == 1


def test_razz_seat_tie_break_option() -> None:
    game = razz(bring_in_tie_break="seat")
    assert bring_in_with_doors(game, "Kh", "Ks", "Kc").bring_in_seat == 0
