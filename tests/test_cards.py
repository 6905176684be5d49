"""Cards: parsing, printing, errors and the deck."""

from __future__ import annotations

import pickle

import pytest

from sevenstud.cards import (
    ACE,
    CARDS,
    CLUBS,
    DEUCE,
    DIAMONDS,
    HEARTS,
    KING,
    SPADES,
    TEN,
    Card,
    CardError,
    DuplicateCardError,
    MalformedCardError,
    check_unique,
    format_cards,
    parse_cards,
)
from sevenstud.deck import Deck

RANKS = "23456789TJQKA"
SUITS = "cdhs"


# --- the card itself -------------------------------------------------------------------------


def test_every_card_number_round_trips_through_text() -> None:
    seen = set()
    for i in range(52):
        card = CARDS[i]
        text = RANKS[i >> 2] + SUITS[i & 3]
        assert int(card) == i
        assert isinstance(card, Card)
        assert str(card) == text
        assert repr(card) == text
        assert card.rank == i >> 2
        assert card.suit == i & 3
        assert card.rank_char == text[0]
        assert card.suit_char == text[1]
        assert Card.parse(text) == i
        assert Card.parse(text) is card
        assert Card.of(i >> 2, i & 3) is card
        seen.add(text)
    assert len(seen) == 52


def test_named_constants() -> None:
    assert Card.of(ACE, SPADES) == Card.parse("As")
    assert Card.of(DEUCE, CLUBS) == Card.parse("2c") == 0
    assert Card.of(TEN, DIAMONDS) == Card.parse("Td")
    assert Card.of(KING, HEARTS) == Card.parse("Kh")
    assert int(Card.parse("As")) == 51


def test_cards_compare_rank_first_then_suit() -> None:
    assert Card.parse("2s") < Card.parse("3c")
    assert Card.parse("Ac") > Card.parse("Ks")
    assert Card.parse("Ks") > Card.parse("Kh") > Card.parse("Kd") > Card.parse("Kc")
    assert sorted(parse_cards("As 2c Kd Kc")) == parse_cards("2c Kc Kd As")


def test_card_pickles_as_a_card() -> None:
    card = Card.parse("Qh")
    back = pickle.loads(pickle.dumps(card))
    assert back == card
    assert isinstance(back, Card)
    assert str(back) == "Qh"


def test_card_of_rejects_bad_rank_or_suit() -> None:
    for rank, suit in ((13, 0), (-1, 0), (0, 4), (0, -1)):
        with pytest.raises(MalformedCardError):
            Card.of(rank, suit)


# --- parsing ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "As Td 2c",
        "AsTd2c",
        "As,Td,2c",
        "  As  Td\t2c\n",
        "[As, Td, 2c]",
        "as td 2C",
        "As 10d 2c",
        "As10d2c",
        "AS TD 2C",
    ],
)
def test_parse_spellings(text: str) -> None:
    cards = parse_cards(text)
    assert [str(c) for c in cards] == ["As", "Td", "2c"]
    assert all(isinstance(c, Card) for c in cards)


def test_parse_ten_as_10() -> None:
    assert parse_cards("10h") == [Card.parse("Th")]
    assert Card.parse("10h") == Card.parse("Th")
    assert Card.parse("10H") == Card.parse("Th")
    assert str(Card.parse("10h")) == "Th"


def test_parse_lists_of_strings_and_ints() -> None:
    assert parse_cards(["As", "Td", "2c"]) == parse_cards("As Td 2c")
    assert parse_cards([51, 33, 0]) == parse_cards("As Td 2c")
    assert parse_cards(parse_cards("As Td 2c")) == parse_cards("As Td 2c")
    assert parse_cards(("As", 33, "10h")) == parse_cards("As Td Th")
    assert parse_cards([]) == []
    assert all(isinstance(c, Card) for c in parse_cards([51, 0]))


def test_printing() -> None:
    assert format_cards(parse_cards("AsTd2c")) == "As Td 2c"
    assert format_cards([51, 33, 0]) == "As Td 2c"
    assert format_cards([]) == ""
    assert str(parse_cards("10h Kd")) == "[Th, Kd]"


@pytest.mark.parametrize("bad", ["1x", "A", "Ax", "", "garbage", "Zs", "1", "11h", "As2", "Ask"])
def test_single_malformed_card(bad: str) -> None:
    with pytest.raises(MalformedCardError) as err:
        Card.parse(bad)
    assert repr(bad) in str(err.value)
    assert isinstance(err.value, ValueError)
    assert isinstance(err.value, CardError)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("1x", "1x"),
        ("A", "A"),
        ("Ax", "Ax"),
        ("garbage", "garbage"),
        ("As Kd 1x", "1x"),
        ("As Ax Kd", "Ax"),
        ("AsKdQ", "Q"),
        ("As Kd ??", "??"),
        ("As Kd 2c 3", "3"),
    ],
)
def test_malformed_text_names_the_bad_part(text: str, named: str) -> None:
    with pytest.raises(MalformedCardError) as err:
        parse_cards(text)
    message = str(err.value)
    assert repr(named) in message, message


@pytest.mark.parametrize(
    "bad", [["As", ""], ["1x"], ["A"], ["Ax"], ["garbage"], [52], [-1], [True]]
)
def test_malformed_list_items(bad: list[str | int]) -> None:
    with pytest.raises(MalformedCardError) as err:
        parse_cards(bad)
    assert repr(bad[-1]) in str(err.value)


def test_malformed_is_a_value_error() -> None:
    assert issubclass(MalformedCardError, ValueError)
    assert issubclass(DuplicateCardError, ValueError)
    assert issubclass(CardError, ValueError)
    with pytest.raises(ValueError):
        parse_cards("nonsense")


@pytest.mark.parametrize(
    ("given", "dup"),
    [
        ("As Td As", "As"),
        ("AsAs", "As"),
        ("10h Th", "Th"),
        (["Kd", "2c", "Kd"], "Kd"),
        ([0, 0], "2c"),
        (["As", 51], "As"),
    ],
)
def test_duplicates_named(given: str | list[str | int], dup: str) -> None:
    with pytest.raises(DuplicateCardError) as err:
        parse_cards(given)
    assert dup in str(err.value)
    assert isinstance(err.value, CardError)


def test_duplicates_allowed_when_asked() -> None:
    assert parse_cards("As As", unique=False) == [Card.parse("As")] * 2


def test_check_unique() -> None:
    check_unique(range(52))
    with pytest.raises(DuplicateCardError, match="Qh"):
        check_unique(parse_cards("2c Qh 3d Qh", unique=False))


# --- the deck --------------------------------------------------------------------------------


def test_seeded_deck_is_repeatable() -> None:
    a = Deck.seeded(12345).cards
    b = Deck.seeded(12345).cards
    assert a == b
    assert sorted(a) == list(range(52))
    assert Deck.seeded("hand #7").cards == Deck.seeded("hand #7").cards
    assert Deck.seeded(12345).cards != Deck.seeded(12346).cards
    assert a != tuple(CARDS)  # it is shuffled


def test_seeded_deck_deals_in_order() -> None:
    deck = Deck.seeded(99)
    order = deck.cards
    dealt = [deck.deal() for _ in range(52)]
    assert tuple(dealt) == order


def test_shuffled_deck_has_52_distinct_cards() -> None:
    decks = [Deck.shuffled() for _ in range(3)]
    for deck in decks:
        assert len(deck.cards) == 52
        assert set(deck.cards) == set(range(52))
        assert all(isinstance(c, Card) for c in deck.cards)
    # three secure shuffles coinciding has probability 1/52! squared
    assert len({d.cards for d in decks}) == 3


def test_ordered_deck_puts_given_cards_first() -> None:
    deck = Deck.ordered("As Kd 7h 10c")
    assert format_cards(deck.cards[:4]) == "As Kd 7h Tc"
    assert sorted(deck.cards) == list(range(52))
    rest = [c for c in CARDS if c not in parse_cards("As Kd 7h Tc")]
    assert list(deck.cards[4:]) == rest
    assert [str(deck.deal()) for _ in range(4)] == ["As", "Kd", "7h", "Tc"]
    assert deck.deal() == rest[0]
    assert Deck.ordered([0, 1]).cards == tuple(CARDS)
    assert Deck.ordered("").cards == tuple(CARDS)


def test_ordered_deck_rejects_duplicates_and_malformed() -> None:
    with pytest.raises(DuplicateCardError, match="As"):
        Deck.ordered("As Kd As")
    with pytest.raises(MalformedCardError):
        Deck.ordered("As 1x")


def test_deck_needs_52_distinct_cards() -> None:
    with pytest.raises(CardError, match="51"):
        Deck(list(range(51)))
    with pytest.raises(DuplicateCardError):
        Deck([*range(51), 0])


def test_dealing_past_52_raises() -> None:
    deck = Deck.seeded(1)
    assert deck.remaining() == 52
    assert deck.position == 0
    for n in range(52):
        deck.deal()
        assert deck.position == n + 1
        assert deck.remaining() == 51 - n
    with pytest.raises(CardError, match="empty"):
        deck.deal()
    with pytest.raises(CardError):
        deck.deal()
    assert deck.position == 52


def test_deck_repr_shows_cards_left() -> None:
    deck = Deck.ordered("As Kd")
    deck.deal()
    assert repr(deck).startswith("Deck('Kd 2c 2d")
