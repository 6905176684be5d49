"""The engine's shortcuts for speed (issue 9, point 7) change nothing a caller can see: shared
dealt-card events, named-tuple pots and awards, the defaults' whole-number ratios, the betting
round's and view cache's own ``__init__``, and board keys remembered by the board's ranks."""

from __future__ import annotations

import dataclasses
import itertools
import random
from fractions import Fraction

import pytest

from sevenstud import evaluate
from sevenstud.actions import ActionKind
from sevenstud.betting import BettingRound
from sevenstud.cards import CARDS
from sevenstud.deck import Deck
from sevenstud.events import CardDealt, card_dealt, redact
from sevenstud.games import HALF, NO_RAKE, Stakes, StudHiLo, integer_ratio
from sevenstud.hand import Hand
from sevenstud.pots import Award, Pot, new_award, new_pot
from sevenstud.views import ViewCache

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)


def test_a_dealt_card_event_is_made_once_and_equals_a_new_one() -> None:
    card = CARDS[17]
    first = card_dealt(2, 4, card, True)
    assert first is card_dealt(2, 4, card, True)
    assert type(first) is CardDealt and first == CardDealt(2, 4, card, True)
    assert card_dealt(2, 4, card, False) == CardDealt(2, 4, card, False) != first
    assert card_dealt(3, 4, card, True).seat == 3 and card_dealt(2, 5, card, True).street == 5


def test_a_hands_dealt_cards_are_its_own_cards() -> None:
    # Shared events, every field still the hand's: the seat, street, card and face.
    rng = random.Random(4)
    for number in range(40):
        hand = Hand(StudHiLo(STAKES), [rng.randint(5, 80) for _ in range(8)], Deck.seeded(number))
        while hand.to_act is not None:
            hand.act(rng.choice(hand.legal_actions()))
        dealt = [e for e in hand.events if type(e) is CardDealt]
        for seat in range(hand.n):
            mine = [e for e in dealt if e.seat == seat]
            assert [e.card for e in mine] == hand.cards[seat]
            assert [e.face_up for e in mine] == hand.face_up[seat]
            assert [e.street for e in mine] == [3, 3, 3, 4, 5, 6, 7][: len(mine)]


def test_a_hidden_card_is_blanked_for_another_seat_only() -> None:
    down = card_dealt(1, 7, CARDS[40], False)
    assert redact(down, 1) is down
    assert redact(down, 0) == CardDealt(1, 7, None, False) == redact(down, None)
    assert redact(down, 0, frozenset({1})) is down  # a hand turned face up


def test_pots_and_awards_stay_immutable_and_equal_to_those_built_directly() -> None:
    pot = new_pot(30, (0, 2))
    award = new_award(2, 15, 0, "low")
    assert type(pot) is Pot and pot == Pot(30, (0, 2)) and repr(pot) == "Pot(amount=30, eligible=(0, 2))"
    assert type(award) is Award and award == Award(seat=2, amount=15, pot=0, share="low")
    with pytest.raises(AttributeError):
        pot.amount = 31  # type: ignore[misc]
    with pytest.raises(AttributeError):
        award.seat = 1  # type: ignore[misc]


def test_integer_ratio_of_the_defaults_and_of_any_fraction() -> None:
    game = StudHiLo(STAKES)
    assert game.reopen_fraction is HALF and game.rake_percent is NO_RAKE
    assert integer_ratio(HALF) == (1, 2) and integer_ratio(NO_RAKE) == (0, 1)
    for value in (Fraction(1, 2), Fraction(0), Fraction(2, 3), Fraction(5, 2), Fraction(1)):
        assert integer_ratio(value) == value.as_integer_ratio()


def test_a_short_all_in_counts_by_the_games_own_reopen_fraction() -> None:
    # The default's shortcut must not hide another fraction: on 5th street (bets of 10), a bet
    # of 10 and an all-in raise to 16 (6 over it, 60% of a bet) counts as a raise with a
    # half (the default, or an equal Fraction of its own) and not with three quarters.
    def after_short_all_in(fraction: Fraction) -> tuple[int, int]:
        betting = BettingRound(StudHiLo(STAKES, reopen_fraction=fraction))
        betting.start(5, 3)
        betting.open_to([0, 1, 2], False)
        folded = [False, False, False]
        betting.aggress(0, ActionKind.BET, 10, [90, 16, 100], [10, 0, 0], folded)
        betting.aggress(1, ActionKind.RAISE, 16, [90, 0, 100], [10, 16, 0], folded)
        return betting.bets_made, betting.level

    assert after_short_all_in(HALF) == (2, 16) == after_short_all_in(Fraction(1, 2))
    assert after_short_all_in(Fraction(3, 5)) == (2, 16)
    assert after_short_all_in(Fraction(3, 4)) == (1, 10)


def test_betting_round_and_view_cache_keep_their_dataclass_fields_and_fresh_sets() -> None:
    game = StudHiLo(STAKES)
    names = [f.name for f in dataclasses.fields(BettingRound)]
    assert names == [
        "game", "street", "current", "level", "bets_made", "uncapped", "completed",
        "bring_in_due", "double_bet", "big_bet_made", "pending", "may_raise", "last_aggressor",
        "bring_in_optional",
    ]  # fmt: skip
    one, two = BettingRound(game), BettingRound(game)
    assert one == two and one.street == 3 and one.last_aggressor is None
    assert one.pending is not two.pending and one.may_raise is not two.may_raise
    one.pending.add(1)
    assert not two.pending and one != two
    assert one.copy() == one and one.copy().pending is not one.pending
    assert [f.name for f in dataclasses.fields(ViewCache)] == ["seen", "tables"]
    a, b = ViewCache(), ViewCache()
    assert a == b and a.seen is not b.seen and a.tables is not b.tables


def test_board_keys_do_not_depend_on_the_order_of_the_cards() -> None:
    rng = random.Random(9)
    for size in range(1, 5):
        for _ in range(300):
            board = rng.sample(range(52), size)
            ranks = sorted(c >> 2 for c in board)
            expected = evaluate._board_groups(ranks)
            for order in itertools.permutations(board):
                assert evaluate.board_high_key(list(order)) == expected
            low = evaluate._board_groups(sorted(((c >> 2) + 1) % 13 for c in board))
            assert evaluate.board_low_key(board) == (-low[0], *(-r for r in low[1:]))


def test_board_keys_tell_boards_of_the_same_size_apart() -> None:
    # The multiset code must not merge two different boards: a pair of kings beats a pair of
    # queens, and trips beat two pair, whatever was asked before.
    kk, qq = [44, 45, 0, 4], [40, 41, 0, 4]
    assert evaluate.board_high_key(kk) > evaluate.board_high_key(qq)
    assert evaluate.board_high_key([0, 1, 2, 8]) > evaluate.board_high_key([0, 1, 8, 9])
    assert evaluate.board_high_key([0] * 16) == evaluate._board_groups([0] * 16)  # not remembered
