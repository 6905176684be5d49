"""The game classes' behaviour (games.py): what each variant decides, asked of the game rather
than branched on by its callers; the codes, names and street names defined once; and the
dataclass surface kept as it was when the variant attributes moved to ``_Variant`` (mypyc)."""

from __future__ import annotations

import dataclasses
import random
import typing

import pytest

from sevenstud import evaluate
from sevenstud.cards import CARDS, Card, parse_cards
from sevenstud.games import (
    GAME_CODES,
    GAME_NAMES,
    GAMES,
    STREET_NAMES,
    SUIT_ORDER_CHDS,
    Game,
    GameCode,
    GameError,
    Razz,
    Stakes,
    Stud,
    StudHiLo,
    game_by_name,
    game_class,
)
from sevenstud.hand import Hand

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
HILO: Game = StudHiLo(STAKES)
STUD: Game = Stud(STAKES)
RAZZ: Game = Razz(STAKES)


def card(text: str) -> Card:
    return Card.parse(text)


# ------------------------------------------------------------------ codes and names, once


def test_game_codes_names_and_the_literal_agree() -> None:
    assert GAME_CODES == ("stud8", "stud", "razz")
    assert typing.get_args(GameCode) == GAME_CODES
    assert GAME_NAMES == {
        "stud8": "Seven Card Stud Hi/Lo",
        "stud": "Seven Card Stud",
        "razz": "Razz",
    }
    for code, cls in GAMES.items():
        assert cls.code == code and cls(STAKES).code == code


def test_street_names_as_a_stud_player_says_them() -> None:
    assert STREET_NAMES == {
        3: "3rd street",
        4: "4th street",
        5: "5th street",
        6: "6th street",
        7: "7th street",
    }


def test_game_class_by_code_or_phh_variant_and_unknown_game_is_a_game_error() -> None:
    assert game_class("stud8") is StudHiLo and game_class("F7S/8") is StudHiLo
    assert game_class("FR") is Razz and game_class("F7S") is Stud
    with pytest.raises(GameError, match="unknown game 'holdem'"):
        game_class("holdem")
    with pytest.raises(GameError, match="unknown game"):
        game_by_name("", STAKES)


# ------------------------------------------------------------------ the dataclass surface


def test_variant_attributes_are_the_class_s_and_instances_stay_lean() -> None:
    assert (Razz.name, Razz.phh_variant, Razz.has_high, Razz.low) == ("Razz", "FR", False, "any")
    assert (StudHiLo.name, StudHiLo.low, StudHiLo.bring_in_by) == (
        "Seven Card Stud Hi/Lo",
        "eight_or_better",
        "lowest",
    )
    assert (Stud.name, Stud.low, Stud.has_high) == ("Seven Card Stud", None, True)
    for game in (HILO, STUD, RAZZ):
        assert not hasattr(game, "__dict__")
        assert dataclasses.is_dataclass(game)
        assert [f.name for f in dataclasses.fields(game)] == [f.name for f in dataclasses.fields(Game)]
        with pytest.raises(dataclasses.FrozenInstanceError):
            game.max_raises = 9  # type: ignore[misc]


def test_equality_hash_repr_and_replace_keep_the_variant() -> None:
    assert StudHiLo(STAKES) == HILO and hash(StudHiLo(STAKES)) == hash(HILO)
    assert HILO != RAZZ  # same fields, another game
    assert repr(RAZZ).startswith("Razz(stakes=Stakes(ante=1")
    changed = dataclasses.replace(RAZZ, max_raises=4)
    assert type(changed) is Razz and changed.cap == 5 and changed != RAZZ
    assert Stud(STAKES).double_bet_on_open_pair and not HILO.double_bet_on_open_pair


def test_pot_halves_agree_with_the_low_rule() -> None:
    for cls in GAMES.values():
        assert cls.has_low is (cls.low is not None)
        assert cls.split is (cls.has_high and cls.low is not None)
        assert cls.low_must_qualify is (cls.low == "eight_or_better")


def test_pot_halves_of_each_game() -> None:
    assert (HILO.has_high, HILO.has_low, HILO.split, HILO.low_must_qualify) == (
        True,
        True,
        True,
        True,
    )
    assert (STUD.has_high, STUD.has_low, STUD.split, STUD.low_must_qualify) == (
        True,
        False,
        False,
        False,
    )
    assert (RAZZ.has_high, RAZZ.has_low, RAZZ.split, RAZZ.low_must_qualify) == (
        False,
        True,
        False,
        False,
    )


# ------------------------------------------------------------------ showdown


def test_showdown_ranks_high_and_qualifying_low_per_game() -> None:
    wheel = parse_cards("As 2s 3s 4s 5d Kh Kc")
    no_low = parse_cards("Kd Kh Kc Qs Qd 9h 9c")
    assert HILO.showdown_ranks(wheel) == (evaluate.high_rank(wheel), evaluate.low8_rank(wheel))
    assert HILO.showdown_ranks(no_low) == (evaluate.high_rank(no_low), 0)  # no qualifying low
    assert STUD.showdown_ranks(wheel) == (evaluate.high_rank(wheel), 0)
    assert RAZZ.showdown_ranks(wheel) == (0, evaluate.low_rank(wheel))
    assert RAZZ.showdown_ranks(no_low)[1] > 0  # razz has no qualifier: every hand is a low


def test_hand_names_announce_each_half_the_game_has() -> None:
    wheel = parse_cards("As 2s 3s 4s 5d Kh Kc")
    no_low = parse_cards("Kd Kh Kc Qs Qd 9h 9c")
    high, low = HILO.showdown_ranks(wheel)
    assert HILO.hand_names(high, low) == ("a straight, Ace to Five", "5,4,3,2,A")
    assert HILO.hand_names(*HILO.showdown_ranks(no_low)) == (
        "a full house, Kings full of Queens",
        None,
    )
    assert STUD.hand_names(*STUD.showdown_ranks(wheel)) == ("a straight, Ace to Five", None)
    assert RAZZ.hand_names(*RAZZ.showdown_ranks(wheel)) == (None, "5,4,3,2,A")


# ------------------------------------------------------------------ who acts first


def test_board_key_high_board_acts_first_in_stud_low_board_in_razz() -> None:
    pair, ace_high = parse_cards("3c 3d"), parse_cards("Ah Kd")
    assert STUD.board_key(pair) > STUD.board_key(ace_high)
    assert HILO.board_key(pair) > HILO.board_key(ace_high)
    # Razz: the ace is low, the king high, a pair is bad.
    assert RAZZ.board_key(parse_cards("Ah 2d")) > RAZZ.board_key(parse_cards("3h 4d"))
    assert RAZZ.board_key(parse_cards("Kh 2d")) < RAZZ.board_key(parse_cards("Qh Jd"))
    assert RAZZ.board_key(pair) < RAZZ.board_key(ace_high)


def test_board_suits_key_breaks_equal_boards_by_suit() -> None:
    spades, clubs = parse_cards("Ks 7s"), parse_cards("Kc 7c")
    assert STUD.board_key(spades) == STUD.board_key(clubs)
    assert STUD.board_suits_key(spades) > STUD.board_suits_key(clubs)
    # Razz: where the higher suit brings in, the lower suit is the better low board.
    assert RAZZ.board_suits_key(clubs) > RAZZ.board_suits_key(spades)
    # Another suit order: clubs, hearts, diamonds, spades.
    chds = Stud(STAKES, suit_order=SUIT_ORDER_CHDS)
    assert chds.board_suits_key(parse_cards("9d")) > chds.board_suits_key(parse_cards("9h"))
    assert STUD.board_suits_key(parse_cards("9d")) < STUD.board_suits_key(parse_cards("9h"))
    assert chds.board_suits_key(parse_cards("9h 9c")) < chds.board_suits_key(parse_cards("9d 9c"))


# ------------------------------------------------------------------ the bring-in


def test_bring_in_key_lowest_card_aces_high_then_the_lowest_suit() -> None:
    assert STUD.bring_in_key(card("2c")) < STUD.bring_in_key(card("2d")) < STUD.bring_in_key(card("3c"))
    assert HILO.bring_in_key(card("Kc")) < HILO.bring_in_key(card("Ac"))  # the ace is high
    assert STUD.bring_in_seat({0: card("5s"), 1: card("2d"), 2: card("2c")}) == 2


def test_bring_in_key_razz_highest_card_aces_low_then_the_highest_suit() -> None:
    assert RAZZ.bring_in_key(card("Ks")) < RAZZ.bring_in_key(card("Kc"))
    assert RAZZ.bring_in_key(card("Kc")) < RAZZ.bring_in_key(card("Qs"))
    assert RAZZ.bring_in_key(card("2c")) < RAZZ.bring_in_key(card("As"))  # the ace is lowest
    assert RAZZ.bring_in_seat({0: card("Kc"), 1: card("Ks"), 2: card("As")}) == 1


def test_bring_in_tie_break_by_seat_picks_the_lowest_seat() -> None:
    stud = Stud(STAKES, bring_in_tie_break="seat")
    razz = Razz(STAKES, bring_in_tie_break="seat")
    assert stud.bring_in_seat({3: card("2c"), 1: card("2s"), 0: card("9c")}) == 1
    assert razz.bring_in_seat({3: card("Ks"), 2: card("Kc"), 0: card("9c")}) == 2


def test_bring_in_follows_the_suit_order_option() -> None:
    chds = StudHiLo(STAKES, suit_order=SUIT_ORDER_CHDS)  # hearts below diamonds
    assert chds.bring_in_seat({0: card("2d"), 1: card("2h")}) == 1
    assert HILO.bring_in_seat({0: card("2d"), 1: card("2h")}) == 0


def test_bring_in_seat_without_doors_is_a_game_error() -> None:
    with pytest.raises(GameError, match="nobody has a door card"):
        STUD.bring_in_seat({})


@pytest.mark.parametrize("game", [HILO, STUD, RAZZ, Razz(STAKES, bring_in_tie_break="seat")])
def test_bring_in_seat_is_the_seat_the_engine_makes_bring_in(game: Game) -> None:
    rng = random.Random(9)
    for _ in range(200):
        players = rng.randint(2, 8)
        hand = Hand(game, [100] * players, seed=rng.getrandbits(32))
        doors = {seat: hand.cards[seat][2] for seat in range(players)}
        assert hand.to_act == game.bring_in_seat(doors)


# ------------------------------------------------------------------ the odd chip


def test_card_order_highest_card_by_suit_razz_ranks_the_ace_low() -> None:
    assert STUD.card_order(card("As")) == 51 and STUD.card_order(card("2c")) == 0
    assert STUD.card_order(card("Kd")) < STUD.card_order(card("Kh"))
    assert RAZZ.card_order(card("As")) < RAZZ.card_order(card("2c"))
    assert RAZZ.card_order(card("Ks")) == 51
    assert RAZZ.highest_card_order(parse_cards("As Qd 7h")) == RAZZ.card_order(card("Qd"))
    assert STUD.highest_card_order(parse_cards("As Qd 7h")) == 51
    assert STUD.highest_card_order([]) == RAZZ.highest_card_order([]) == -1


@pytest.mark.parametrize(
    "game",
    [HILO, STUD, RAZZ, Stud(STAKES, suit_order=SUIT_ORDER_CHDS), Razz(STAKES, suit_order=SUIT_ORDER_CHDS)],
)
def test_highest_card_order_is_the_greatest_card_order(game: Game) -> None:
    rng = random.Random(5)
    for _ in range(300):
        cards = rng.sample(CARDS, rng.randint(1, 7))
        assert game.highest_card_order(cards) == max(game.card_order(c) for c in cards)
    orders = sorted(CARDS, key=game.card_order)
    assert [game.card_order(c) for c in orders] == list(range(52))
