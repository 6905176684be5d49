"""Whole chips everywhere (issue 18, point 6; issue 19, point 7): every amount, seat and count
that enters the engine, the table, the wire or a typed command is an ``int`` (not a bool, not a
float; in text the ASCII digits 0-9 only), or it is refused with the engine's own error naming
it, and nothing changes.

These tests run in the pure build and again in the compiled one (``make test-compiled``,
the Makefile's COMPILED_TESTS), where mypyc would otherwise turn True into 1 and refuse 5.0
with a bare ``TypeError`` (sevenstud.chips says why and how).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from sevenstud.actions import Action, ActionKind, IllegalAction
from sevenstud.arguments import StakesError, parse_stakes, whole_number
from sevenstud.cards import CARDS, CardError
from sevenstud.chips import is_digits, is_whole, parse_whole, whole
from sevenstud.deck import Deck
from sevenstud.games import GameError, Razz, Stakes, Stud, StudHiLo
from sevenstud.hand import Hand, HandError
from sevenstud.table import Table, TableError, TableSettings
from sevenstud.wire import WireError, from_wire, hand_from_record, hand_to_record

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
GAME = StudHiLo(STAKES)

# Not whole chips: a bool (Python's 1), floats (even whole ones), text, None where a number is due.
NOT_WHOLE: list[Any] = [True, False, 5.0, 2.5, "5", b"5", float("nan"), [5]]
# Digits that int() or str.isdigit() take but are not the ASCII 0-9: superscript two,
# Arabic-Indic five, fullwidth five, Devanagari five; and what int() reads besides digits.
NOT_ASCII_DIGITS = ["²", "٥", "５", "५", "+5", "-5", " 5", "5 ", "1_000", "1e3", ""]


def test_the_shared_validator_takes_ints_and_nothing_else() -> None:
    assert whole(5, "x") == 5 and type(whole(5, "x")) is int
    assert is_whole(0) and not is_whole(True) and not is_whole(5.0)
    for value in NOT_WHOLE:
        with pytest.raises(ValueError, match=r"^x must be a whole number of chips, not "):
            whole(value, "x", of="chips")
    with pytest.raises(HandError, match="x must be at least 1, not 0"):
        whole(0, "x", HandError, least=1)
    assert parse_whole("150", "x") == 150 and is_digits("0123456789")
    for text in NOT_ASCII_DIGITS:
        assert not is_digits(text), text
        with pytest.raises(IllegalAction, match="digits 0-9"):
            parse_whole(text, "x", IllegalAction)


# --- actions ---------------------------------------------------------------------------------


@pytest.mark.parametrize("amount", NOT_WHOLE)
def test_an_action_amount_that_is_not_whole_chips_is_an_illegal_action(amount: Any) -> None:
    with pytest.raises(IllegalAction, match="amount of a complete must be a whole number of chips"):
        Action(ActionKind.COMPLETE, amount)


def test_a_negative_amount_is_the_hands_to_refuse_and_a_kind_must_be_known() -> None:
    hand = fresh()
    with pytest.raises(IllegalAction, match="the amount must be 5"):
        hand.act(Action(ActionKind.COMPLETE, -5))
    with pytest.raises(IllegalAction, match="unknown action 'shove'"):
        Action("shove", 5)
    assert Action("raise", 20) == Action(ActionKind.RAISE, 20)
    assert Action(ActionKind.RAISE, 20).kind is ActionKind.RAISE


@pytest.mark.parametrize("text", [*NOT_ASCII_DIGITS[:5], "1e3", "5.0", "five"])
def test_a_typed_amount_is_ascii_digits_only(text: str) -> None:
    with pytest.raises(IllegalAction, match="bad amount"):
        Action.parse(f"complete to {text}")


# --- the hand --------------------------------------------------------------------------------


def fresh() -> Hand:
    return Hand(GAME, [100, 100, 100], Deck.seeded(7))


@pytest.mark.parametrize("seat", [True, 1.0, "1"])
def test_a_seat_that_is_not_a_whole_number_is_refused_and_nothing_changes(seat: Any) -> None:
    hand = fresh()
    before = (len(hand.events), hand.to_act, hand.legal_actions(), list(hand.stacks))
    with pytest.raises(IllegalAction, match="the seat must be a whole number"):
        hand.act(hand.legal_actions()[0], seat)
    assert not hand.can(hand.legal_actions()[0], seat)
    assert (len(hand.events), hand.to_act, hand.legal_actions(), list(hand.stacks)) == before


@pytest.mark.parametrize("stack", NOT_WHOLE)
def test_a_stack_that_is_not_whole_chips_is_a_hand_error(stack: Any) -> None:
    with pytest.raises(HandError, match="seat 1's stack must be a whole number of chips"):
        Hand(GAME, [100, stack], Deck.seeded(1))


@pytest.mark.parametrize("rake", [True, 1.0, "1", -1])
def test_a_fixed_rake_that_is_not_whole_chips_is_a_hand_error(rake: Any) -> None:
    with pytest.raises(HandError, match="the rake must be"):
        Hand(GAME, [100, 100], Deck.seeded(1), rake=rake)


@pytest.mark.parametrize("since", [True, 1.0, "1", -1])
def test_a_view_since_or_seat_that_is_not_whole_is_a_hand_error(since: Any) -> None:
    hand = fresh()
    with pytest.raises(HandError, match="since must be an event number of 0 or more"):
        hand.view(0, since)
    with pytest.raises(HandError, match="no seat True"):
        hand.view(True)
    with pytest.raises(HandError, match="no seat 3"):
        hand.view(3)


@pytest.mark.parametrize("seed", [True, 1.5, [1], None])
def test_a_seed_is_a_whole_number_a_string_or_bytes(seed: Any) -> None:
    with pytest.raises(CardError, match="the seed must be a whole number"):
        Deck.seeded(seed)
    assert Deck.seeded(7).cards == Deck.seeded(7).cards != Deck.seeded("7").cards


@pytest.mark.parametrize("bad", [True, 0.0, "As", 52, -1])
def test_a_deck_of_card_numbers_refuses_what_is_not_one(bad: Any) -> None:
    cards: list[Any] = [*list(range(1, 52)), bad]
    with pytest.raises(CardError, match="the deck's card 51"):
        Deck(cards)
    assert Deck(list(CARDS)).cards == tuple(CARDS)


# --- the stakes and the game ------------------------------------------------------------------


@pytest.mark.parametrize("value", NOT_WHOLE)
def test_stakes_that_are_not_whole_chips_are_a_game_error(value: Any) -> None:
    with pytest.raises(GameError, match="small_bet must be a whole number of chips"):
        Stakes(ante=1, bring_in=2, small_bet=value, big_bet=10)
    with pytest.raises(GameError, match="small_bet must be a whole number of chips"):
        Stakes.for_limits(value)


@pytest.mark.parametrize("cls", [StudHiLo, Stud, Razz])
@pytest.mark.parametrize("value", [True, 2.0, "2", -1])
def test_whole_number_options_of_a_game_are_checked(cls: type[StudHiLo], value: Any) -> None:
    with pytest.raises(GameError, match="max_raises must be"):
        cls(STAKES, max_raises=value)
    with pytest.raises(GameError, match="max_raises must be"):
        cls(STAKES, value)  # positionally, too
    with pytest.raises(GameError, match="rake_cap must be"):
        cls(STAKES, rake_cap=value)
    assert cls(STAKES, 2, rake_cap=3).max_raises == 2


# --- the table: refused, unchanged, and its record still restores ---------------------------


def seated_table() -> Table:
    table = Table(TableSettings(GAME, seats=4, min_buy_in=40, max_buy_in=200))
    table.sit_down("ann", 1, 100, now=0)
    table.sit_down("bob", 3, 100, now=0)
    table.start_hand(now=1, seed=7)
    return table


@pytest.mark.parametrize("buy_in", NOT_WHOLE)
def test_a_buy_in_or_top_up_that_is_not_whole_chips_is_a_table_error(buy_in: Any) -> None:
    table = Table(TableSettings(GAME, seats=4, min_buy_in=40, max_buy_in=200))
    table.sit_down("ann", 1, 100, now=0)
    before = table.to_record()
    with pytest.raises(TableError, match="whole number"):
        table.sit_down("bob", 3, buy_in, now=1)
    with pytest.raises(TableError, match="whole number"):
        table.top_up("ann", buy_in, now=1)
    assert table.to_record() == before


@pytest.mark.parametrize("text", ["complete to ²", "complete to ٥", "complete to 5.0"])
def test_a_table_refuses_an_amount_typed_in_other_digits(text: str) -> None:
    table = seated_table()
    before = table.to_record()
    with pytest.raises(TableError, match="bad amount"):
        table.act(3, text, now=2)
    assert table.to_record() == before


def test_a_table_after_refused_amounts_is_saved_and_restored() -> None:
    table = seated_table()
    with pytest.raises(IllegalAction):
        table.act(3, Action(ActionKind.COMPLETE, 5.0), now=2)  # type: ignore[arg-type]
    with pytest.raises(TableError):
        table.act(True, "complete", now=2)  # type: ignore[arg-type]
    table.act(3, "complete to 5", now=2)
    assert [s.stack for s in table.view(None).seats] == [99, 94]
    record = json.loads(json.dumps(table.to_record()))
    assert Table.from_record(record).to_record() == table.to_record()


# --- the wire ----------------------------------------------------------------------------------


@pytest.mark.parametrize("amount", [True, 5.0, "5"])
def test_the_wire_refuses_an_action_amount_that_is_not_whole(amount: Any) -> None:
    with pytest.raises(WireError, match="amount"):
        from_wire({"type": "action", "kind": "complete", "amount": amount})


@pytest.mark.parametrize("stack", [True, 5.0, "5"])
def test_a_hand_record_with_a_stack_that_is_not_whole_is_a_wire_error(stack: Any) -> None:
    record = hand_to_record(fresh())
    record["stacks"][1] = stack
    with pytest.raises(WireError, match=r"record\.stacks\[1\]"):
        hand_from_record(record)


def test_a_table_record_with_a_float_stack_is_refused() -> None:
    record = seated_table().to_record()
    text = json.dumps(record).replace('"stack": 100,', '"stack": 100.0,', 1)
    assert text != json.dumps(record)
    with pytest.raises(TableError, match="whole number"):
        Table.from_record(json.loads(text))


# --- typed commands -----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["1/2/5/1²", "1/2/5/١٠", "1/2/５/10", "1/2/5/10.0"])
def test_stakes_typed_in_other_digits_are_refused(text: str) -> None:
    with pytest.raises(StakesError, match="four whole numbers"):
        parse_stakes(text)
    assert parse_stakes("1/2/5/10") == STAKES


@pytest.mark.parametrize("text", ["٥", "²", "+5", " 5", "1_000"])
def test_a_command_line_number_is_ascii_digits(text: str) -> None:
    import argparse

    with pytest.raises(argparse.ArgumentTypeError, match="must be a whole number"):
        whole_number("a seed")(text)
    assert whole_number("a seed")("5") == 5


# --- hand histories and the card room's protocol ------------------------------------------------


@pytest.mark.parametrize("stack", ["٥", "Infinity", "1e3", "NaN", "5.0.0"])
def test_a_pokerstars_amount_is_ascii_digits(stack: str) -> None:
    """Decimal() read "٥" as 5 and "1e3" as 1000, and "Infinity" ended in a bare OverflowError."""
    import io

    from sevenstud.history.pokerstars import PokerStarsError, read_hands

    text = (
        "PokerStars Hand #1: 7 Card Stud Hi/Lo Limit (1/2) - 2020/01/01 00:00:00 ET\n"
        "Table 'X' 8-max\n"
        f"Seat 1: Bob ({stack} in chips)\n"
        "Seat 2: Al (100 in chips)\n"
    )
    (result,) = list(read_hands(io.StringIO(text)))
    assert isinstance(result, PokerStarsError)
    assert f"line 3: {stack!r} is not an amount" in str(result)


@pytest.mark.parametrize(
    "message",
    [
        {"type": "sit", "seat": True, "buy_in": 100},
        {"type": "sit", "seat": 1.0, "buy_in": 100},
        {"type": "sit", "seat": 1, "buy_in": "100"},
        {"type": "sit", "seat": 1, "buy_in": 100.0},
        {"type": "top_up", "amount": True},
        {"type": "top_up", "amount": "50"},
        {"type": "add_bot", "seat": True},
        {"type": "remove_bot", "seat": "2"},
    ],
)
def test_the_protocol_takes_seats_and_chips_as_json_integers_only(message: dict[str, Any]) -> None:
    pydantic = pytest.importorskip("pydantic")
    from sevenstud.server.protocol import CLIENT

    with pytest.raises(pydantic.ValidationError, match="valid integer"):
        CLIENT.validate_python(message)
    good = {k: (1 if k == "seat" else 100) if k != "type" else v for k, v in message.items()}
    assert CLIENT.validate_python(good)
