"""The lines of a stud hand as the card rooms' text histories write them, in one model that every
dialect (PokerStars, Full Tilt, Americas Cardroom) reads into and the shared replayer plays:
errors, the lines (seats, antes, deals, bets, shows, collects), amounts and cards as written, and
how a shown hand is described. (The model is named after PokerStars, whose text came first.)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Literal, TypeAlias

from sevenstud.cards import Card, MalformedCardError
from sevenstud.chips import is_digits
from sevenstud.games import Game, GameCode
from sevenstud.history.amounts import format_amount as format_amount

GAME_TITLES: dict[GameCode, str] = {
    "stud8": "7 Card Stud Hi/Lo",
    "stud": "7 Card Stud",
    "razz": "Razz",
}
"""How PokerStars' headers name each game (our names are :data:`sevenstud.games.GAME_NAMES`)."""
STREET_TITLES = {3: "3rd STREET", 4: "4th STREET", 5: "5th STREET", 6: "6th STREET", 7: "RIVER"}
STREET_WORDS = {3: "3rd Street", 4: "4th Street", 5: "5th Street", 6: "6th Street", 7: "River"}

ALL_IN = " and is all-in"

# ---------------------------------------------------------------------------------- errors


class PokerStarsError(ValueError):
    """A hand history we cannot read, or a hand our engine does not play as the file says.

    ``str()`` reads ``FILE, line N: what is wrong (what was expected)``; the parts are kept as
    attributes (``file``, ``line``, ``hand_id``, ``game`` and ``reason``).
    """

    def __init__(
        self,
        reason: str,
        *,
        line: int | None = None,
        file: str | None = None,
        hand_id: str | None = None,
        game: str | None = None,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.file = file
        self.hand_id = hand_id
        self.game = game

    def located(self) -> str:
        """``line N: reason`` (without the file)."""
        return f"line {self.line}: {self.reason}" if self.line is not None else self.reason

    def __str__(self) -> str:
        where = [part for part in (self.file, f"line {self.line}" if self.line else None) if part]
        return f"{', '.join(where)}: {self.reason}" if where else self.reason


class NotPokerStarsError(PokerStarsError):
    """The file is not a PokerStars hand history (another site's, or not a history at all)."""


# ---------------------------------------------------------------------------------- the model


@dataclass(frozen=True, slots=True)
class Seat:
    """``Seat 3: gashpor ($1.46 in chips)``: the table's seat number, the name, the stack."""

    number: int
    name: str
    stack: int
    line: int
    sitting_out: bool = False


@dataclass(frozen=True, slots=True)
class Ante:
    line: int
    player: str
    amount: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class StreetMark:
    """``*** 4th STREET ***``; ``community`` is the card of ``*** RIVER *** [Xx]``."""

    line: int
    street: int
    community: Card | None = None


@dataclass(frozen=True, slots=True)
class Deal:
    """``Dealt to P [..] [..]``: every card on the line, in order."""

    line: int
    street: int
    player: str
    cards: tuple[Card, ...]


BetVerb: TypeAlias = Literal["bring-in", "bet", "call", "raise", "check", "fold"]


@dataclass(frozen=True, slots=True)
class BetLine:
    """A betting action. ``amount`` is as written (``calls 2``: 2; ``raises 2 to 4``: 2) and
    ``to`` is the street total of a raise (``None`` for the other verbs)."""

    line: int
    street: int
    player: str
    verb: BetVerb
    amount: int | None = None
    to: int | None = None
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class Returned:
    """``Uncalled bet (X) returned to P``."""

    line: int
    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class ShowdownMark:
    line: int


@dataclass(frozen=True, slots=True)
class Show:
    """``P: shows [cards] (description)``; ``description`` without the parentheses."""

    line: int
    player: str
    cards: tuple[Card, ...]
    description: str | None


@dataclass(frozen=True, slots=True)
class Muck:
    """``P: mucks hand`` (or ``P: doesn't show hand`` when ``shown_down`` is False)."""

    line: int
    player: str
    shown_down: bool = True


@dataclass(frozen=True, slots=True)
class Collect:
    """``P collected X from pot``; ``pot`` is 0 for the main pot, k for side pot k, ``None`` for
    plain ``pot`` (every pot together)."""

    line: int
    player: str
    amount: int
    pot: int | None


@dataclass(frozen=True, slots=True)
class NoLow:
    line: int


Event: TypeAlias = (
    Ante | StreetMark | Deal | BetLine | Returned | ShowdownMark | Show | Muck | Collect | NoLow
)


@dataclass(frozen=True)
class PokerStarsHand:
    """One hand as the file writes it (chips as integers: cents for money)."""

    file: str
    line: int
    """The line of the header."""
    hand_id: str
    game: GameCode
    header: str
    money: bool
    currency: str | None
    symbol: str
    small_bet: int
    big_bet: int
    tournament: str | None
    table: str | None
    max_seats: int | None
    date: str | None
    seats: tuple[Seat, ...]
    events: tuple[Event, ...]
    total_pot: int
    rake: int
    total_line: int
    revealed: tuple[tuple[int, str, tuple[Card, ...]], ...] = ()
    """Cards that summary lines show (``showed [..]``, ``mucked [..]``): (line, player, cards)."""
    board: tuple[Card, ...] = ()
    pots: tuple[int, ...] = ()
    """The pots after the rake as the summary lists them (``Main pot $8.36. Side pot $0.60.``),
    main pot first; empty where it lists none (one pot)."""
    level: int | None = None
    """A tournament hand's level (``Level IV`` is 4), where the header gives it."""
    buy_in: str | None = None
    """A tournament's buy-in as PokerStars writes it (``$200+$15 USD``, ``100+9``, ``Freeroll``),
    where the header gives it."""
    end_line: int = 0
    bring_in_hint: int | None = None
    """The bring-in an earlier hand of the file at the same stakes showed (used when this hand
    does not show its own)."""

    @property
    def players(self) -> list[str]:
        """The players dealt in, in seat order (seat 1 first): our engine's seats 0, 1, ..."""
        dealt = {e.player for e in self.events if isinstance(e, Ante)}
        dealt |= {e.player for e in self.events if isinstance(e, Deal | BetLine) and e.street == 3}
        return [s.name for s in self.seats if s.name in dealt]

    @property
    def ante(self) -> int:
        return max((e.amount for e in self.events if isinstance(e, Ante)), default=0)

    @property
    def bring_in(self) -> int | None:
        """The bring-in, when the file shows it (a forced player who completes at once, or who
        is all-in for less, does not)."""
        for e in self.events:
            if isinstance(e, BetLine) and e.verb == "bring-in" and not e.all_in:
                return e.amount
        return None

    @property
    def hero(self) -> str | None:
        """The player whose down cards the 3rd-street deal shows, if any."""
        for e in self.events:
            if isinstance(e, Deal) and e.street == 3 and len(e.cards) == 3:
                return e.player
        return None


# ---------------------------------------------------------------------------------- amounts

AMOUNT = r"[$€£]?[0-9][0-9,]*(?:\.[0-9]+)?"
SYMBOLS = "$€£"


def chips(
    text: str,
    money: bool,
    line: int,
    error: type[PokerStarsError] = PokerStarsError,
    example: str = "$0.04 or 150",
) -> int:
    """An amount as written, in chips: ``"$0.04"`` -> 4 (cents) for money, ``"1,500"`` -> 1500
    for chips; else the dialect's ``error`` (an amount looks like ``example``).

    >>> chips("$1,000.50", True, 1), chips("1,500.00", False, 1)
    (100050, 1500)
    >>> chips("$0.005", True, 7)
    Traceback (most recent call last):
    ...
    sevenstud.history.text.model.PokerStarsError: line 7: '$0.005' is not a whole number of cents
    """
    raw = text.strip().lstrip(SYMBOLS).replace(",", "")
    # The digits 0-9 and one decimal point only (sevenstud.chips): Decimal() also reads "٥" as 5,
    # "1e3" as 1000 and "Infinity", which int() then refuses with an OverflowError.
    whole_part, point, cents = raw.partition(".")
    try:
        if not is_digits(whole_part) or (point and not is_digits(cents)):
            raise InvalidOperation
        value = Decimal(raw)
    except InvalidOperation:
        raise error(f"{text!r} is not an amount (expected e.g. {example})", line=line) from None
    if money:
        value *= 100
    if value != value.to_integral_value() or value < 0:
        unit = "cent" if money else "chip"
        raise error(f"{text!r} is not a whole number of {unit}s", line=line)
    return int(value)


class BadCards(PokerStarsError):
    """Cards that cannot be read; the line parser adds the line's text and raises its dialect's
    error instead."""


def card_list(text: str, line: int) -> tuple[Card, ...]:
    """``"Kc 4d"`` -> the cards; :class:`BadCards` for a token that is no card."""
    cards: list[Card] = []
    for token in text.split():
        try:
            cards.append(Card.parse(token))
        except MalformedCardError:
            raise BadCards(
                f"{token!r} is not a card (expected cards such as [As Td 2c])", line=line
            ) from None
    return tuple(cards)


def bracketed(text: str, line: int) -> list[tuple[Card, ...]]:
    """``"[Kc 4d] [Qd]"`` -> the card groups; anything else around them is :class:`BadCards`.

    >>> bracketed("[Kc 4d] [Qd]", 3)
    [(Kc, 4d), (Qd,)]
    """
    groups: list[tuple[Card, ...]] = []
    rest = text.strip()
    while rest:
        m = re.match(r"\[([^\]]*)\]\s*", rest)
        if m is None:
            raise BadCards(f"expected cards in brackets such as [Kc 4d], not {rest!r}", line=line)
        groups.append(card_list(m.group(1), line))
        rest = rest[m.end() :]
    return groups


def show_description(game: Game, cards: Sequence[Card]) -> str:
    """:func:`describe_show` of the best hand in ``cards`` (five to seven)."""
    return describe_show(game, *game.hand_names(*game.showdown_ranks(cards)))


def describe_show(game: Game, high: str | None, low: str | None) -> str:
    """The description PokerStars puts after a shown hand: ``HI: ..; LO: ..`` in hi/lo,
    the high hand's name in stud, ``Lo: ..`` in razz."""
    if not game.has_high:
        return f"Lo: {low}"
    if game.split:
        return f"HI: {high}" + (f"; LO: {low}" if low else "")
    return str(high)
