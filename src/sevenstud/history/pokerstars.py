"""PokerStars text hand histories of 7 Card Stud Hi/Lo, 7 Card Stud and Razz: read, replay, write.

**Reading** is streaming: :func:`read_hands` returns a :class:`HandReader` that yields one
:class:`PokerStarsHand` at a time (or, for a hand it cannot read, a :class:`PokerStarsError`
naming the file, the line and what was expected, and then goes on with the next hand), and counts
the hands of other games of a mixed-game file that it skips (:attr:`HandReader.skipped`). It reads
cash and tournament hands, any currency or play chips, the old ``Game #`` and the newer ``Hand #``
headers, byte-order marks and CRLF line endings. Chips are integers: cents for money, tournament
and play chips as they are.

**Replaying** (:func:`play_pokerstars`) rebuilds the deck from the cards the file shows, in our
dealing order, with the cards nobody saw filled in, and plays every line through
:class:`~sevenstud.hand.Hand` (``auto_showdown=False``, the file's rake passed as ``rake=``): the
bring-in player, each action's legality and amount, the uncalled bets returned, the community
card, the showdown and every award must come out as the file says. The first line where our engine
differs raises :class:`PokerStarsError` with that line.

**Writing** (:func:`format_hand`) writes any hand of ours in the same format, from one viewer's
point of view (a ``hero`` seat, a spectator, or every card), so that :func:`read_hands` reads it
back into the same hand.

The facts of the format that matter (checked on real PokerStars stud hands): stakes in the header
are small bet/big bet; ``raises A to B``: B is the player's street total; completing the bring-in
reads as a raise, and a forced player who completes at once ``bets``; ``Uncalled bet (X) returned
to P``; the amounts collected add up to ``Total pot`` minus ``Rake``; on a hi/lo split the high
half is paid first and side pots before the main pot; the showdown lists a player's cards in
dealing order. Where the deck runs out on 7th street, we write (and read) the community card as
``*** RIVER *** [Xx]``, and a showdown then lists the player's own six cards.

>>> from sevenstud.cards import Deck
>>> from sevenstud.games import Stakes, StudHiLo
>>> from sevenstud.hand import Hand
>>> hand = Hand(StudHiLo(Stakes(1, 2, 5, 10)), [100, 100], Deck.seeded(7))
>>> _ = hand.act("bring-in"); _ = hand.act("fold")
>>> text = format_hand(hand, players=["Ann", "Bob"], hand_id=1)
>>> print(text.splitlines()[0])
PokerStars Hand #1:  7 Card Stud Hi/Lo Limit (5/10) - 2024/01/01 00:00:00 ET
>>> (parsed,) = read_hands(io.StringIO(text))
>>> played = play_pokerstars(parsed)
>>> played.hand.stacks == hand.stacks
True
"""

from __future__ import annotations

import dataclasses
import io
import json
import re
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import IO, Any, Literal, NoReturn, TypeAlias

from sevenstud import evaluate
from sevenstud.cards import CARDS, Card, Deck, MalformedCardError, format_cards
from sevenstud.games import Game, GameError, Stakes, game_by_name
from sevenstud.hand import (
    Action,
    ActionKind,
    ActionTaken,
    AntePosted,
    BetReturned,
    CardDealt,
    CommunityCardDealt,
    Hand,
    HandError,
    HandMucked,
    HandShown,
    IllegalAction,
    Phase,
    PotAwarded,
)

__all__ = [
    "Ante",
    "BetLine",
    "Collect",
    "Deal",
    "HandReader",
    "Muck",
    "NoLow",
    "NotPokerStarsError",
    "PlayedHand",
    "PokerStarsError",
    "PokerStarsHand",
    "Returned",
    "Seat",
    "Show",
    "ShowdownMark",
    "StreetMark",
    "format_amount",
    "format_hand",
    "looks_like_pokerstars",
    "play_pokerstars",
    "read_hands",
    "replay_file",
]

GameCode: TypeAlias = Literal["stud8", "stud", "razz"]
GAME_NAMES: dict[str, str] = {"stud8": "7 Card Stud Hi/Lo", "stud": "7 Card Stud", "razz": "Razz"}
STREET_TITLES = {3: "3rd STREET", 4: "4th STREET", 5: "5th STREET", 6: "6th STREET", 7: "RIVER"}
_STREET_WORDS = {3: "3rd Street", 4: "4th Street", 5: "5th Street", 6: "6th Street", 7: "River"}


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

_AMOUNT = r"[$€£]?[0-9][0-9,]*(?:\.[0-9]+)?"
_SYMBOLS = "$€£"


def _chips(text: str, money: bool, line: int) -> int:
    """``"$0.04"`` -> 4 (cents) for money, ``"1500"`` -> 1500 for chips."""
    raw = text.strip().lstrip(_SYMBOLS).replace(",", "")
    try:
        value = Decimal(raw)
    except InvalidOperation:
        raise PokerStarsError(
            f"{text!r} is not an amount (expected e.g. $0.04 or 150)", line=line
        ) from None
    if money:
        value *= 100
    if value != value.to_integral_value() or value < 0:
        unit = "cent" if money else "chip"
        raise PokerStarsError(f"{text!r} is not a whole number of {unit}s", line=line)
    return int(value)


def format_amount(chips: int, money: bool, symbol: str = "$") -> str:
    """How PokerStars writes an amount: ``$0.04``, ``$1.60``, ``$11`` for money, ``150`` else."""
    if not money:
        return str(chips)
    whole, cents = divmod(chips, 100)
    return f"{symbol}{whole}" if cents == 0 else f"{symbol}{whole}.{cents:02d}"


class _BadCards(PokerStarsError):
    """Cards that cannot be read; :meth:`_HandParser.feed` adds the line's text."""


def _cards(text: str, line: int) -> tuple[Card, ...]:
    cards: list[Card] = []
    for token in text.split():
        try:
            cards.append(Card.parse(token))
        except MalformedCardError:
            raise _BadCards(
                f"{token!r} is not a card (expected cards such as [As Td 2c])", line=line
            ) from None
    return tuple(cards)


def _bracketed(text: str, line: int) -> list[tuple[Card, ...]]:
    """``"[Kc 4d] [Qd]"`` -> the card groups; anything else around them is an error."""
    groups: list[tuple[Card, ...]] = []
    rest = text.strip()
    while rest:
        m = re.match(r"\[([^\]]*)\]\s*", rest)
        if m is None:
            raise _BadCards(f"expected cards in brackets such as [Kc 4d], not {rest!r}", line=line)
        groups.append(_cards(m.group(1), line))
        rest = rest[m.end() :]
    return groups


# ---------------------------------------------------------------------------------- the header

_HEADER = re.compile(r"^PokerStars\b.*?(?:Game|Hand) #(\d+):\s*(.*)$")
_STUD8 = re.compile(r"\b(?:7 card )?stud hi/lo\b", re.IGNORECASE)
_STUD = re.compile(r"\b7 card stud\b", re.IGNORECASE)
_RAZZ = re.compile(r"\brazz\b", re.IGNORECASE)
_STAKES = re.compile(
    r"\(([^()]*?,\s*)?([$€£]?)([0-9][0-9,.]*)/[$€£]?([0-9][0-9,.]*)(?:\s+([A-Z]{3}))?\)"
)
_DATE = re.compile(r"(\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{2}:\d{2})(?: ([A-Z]{2,4}))?")
_TOURNAMENT = re.compile(r"\bTournament #(\d+)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _Header:
    hand_id: str
    game: GameCode | None
    game_text: str
    money: bool
    currency: str | None
    symbol: str
    small_bet: int
    big_bet: int
    tournament: str | None
    date: str | None


def _game_of(text: str) -> tuple[GameCode | None, str]:
    """The stud game a header names (or None) and the game's text as written."""
    body = re.sub(r"\{[^}]*\}", "", text)  # a home game's club name
    inner = re.search(r"\(([^()]*(?:Limit|LIMIT)[^()]*)\)", body)
    candidates = [inner.group(1)] if inner else []
    candidates.append(body.split(" - ")[0] if " - " in body else body)
    for candidate in candidates:
        if re.search(r"\b(?:no|pot) limit\b", candidate, re.IGNORECASE):
            continue
        if _STUD8.search(candidate):
            return "stud8", candidate
        if _STUD.search(candidate):
            return "stud", candidate
        if _RAZZ.search(candidate):
            return "razz", candidate
    return None, candidates[0].strip()


def _parse_header(text: str, line: int) -> _Header:
    m = _HEADER.match(text)
    if m is None:  # pragma: no cover - the caller matched it already
        raise PokerStarsError("expected a 'PokerStars Hand #N: ...' header", line=line)
    hand_id, rest = m.group(1), m.group(2)
    game, game_text = _game_of(rest)
    tour = _TOURNAMENT.search(rest)
    date = _DATE.search(rest)
    date_text = None if date is None else date.group(0)
    if game is None:
        return _Header(hand_id, None, game_text, False, None, "$", 0, 0, None, date_text)
    stakes = _STAKES.search(rest)
    if stakes is None:
        raise PokerStarsError(
            "the header names no stakes (expected e.g. '($0.04/$0.08 USD)' or 'Level I (25/50)')",
            line=line,
            hand_id=hand_id,
            game=game,
        )
    symbol, low, high, code = stakes.group(2), stakes.group(3), stakes.group(4), stakes.group(5)
    money = tour is None and bool(symbol or code or "." in low + high)
    small = _chips(low, money, line)
    big = _chips(high, money, line)
    currency = code or {"$": "USD", "€": "EUR", "£": "GBP"}.get(symbol) if money else None
    return _Header(
        hand_id,
        game,
        game_text,
        money,
        currency,
        symbol or "$",
        small,
        big,
        tour.group(1) if tour else None,
        date_text,
    )


def looks_like_pokerstars(first_line: str) -> bool:
    """Whether a line is a PokerStars hand header."""
    return _HEADER.match(first_line.lstrip("\ufeff").strip()) is not None


# ---------------------------------------------------------------------------------- one hand

_SEAT = re.compile(r"^Seat (\d+): (.+) \(([^()]*?) in chips[^()]*\)(.*)$")
_TABLE = re.compile(r"^Table '(.*)' (\d+)-max")
_ALL_IN = " and is all-in"
_NOTICES = (
    "is sitting out",
    "sits out",
    "is disconnected",
    "is connected",
    "has timed out",
    "has returned",
    "timed out while disconnected",
    "has timed out while disconnected",
    "has timed out while being disconnected",
    "will be allowed to play after the button",
    "leaves the table",
    "joins the table",
)
_ACTION_WORDS = re.compile(
    r"^(.+?): (posts|brings in|bets|calls|raises|checks|folds|shows|mucks|doesn't show)\b"
)
_TOTAL = re.compile(r"^Total pot (" + _AMOUNT + r")(.*?)\s*\|\s*Rake (" + _AMOUNT + r")")
_COLLECT = re.compile(r"^collected (" + _AMOUNT + r") from (pot|main pot|side pot(?:-(\d+))?)\s*$")
_ANTE_RE = re.compile(r"posts the ante (" + _AMOUNT + ")")
_BRING_IN_RE = re.compile(r"brings in for (" + _AMOUNT + ")")
_BETS_RE = re.compile(r"bets (" + _AMOUNT + ")")
_CALLS_RE = re.compile(r"calls (" + _AMOUNT + ")")
_RAISES_RE = re.compile(r"raises (" + _AMOUNT + ") to (" + _AMOUNT + ")")
_UNCALLED = re.compile(r"^Uncalled bet \((" + _AMOUNT + r")\) returned to (.+?)\s*$")


class _HandParser:
    """Reads the lines of one hand (a header and what follows it up to the next header)."""

    def __init__(self, file: str, header: _Header, header_text: str, first_line: int) -> None:
        self.file = file
        self.head = header
        self.header_text = header_text
        self.first_line = first_line
        self.seats: list[Seat] = []
        self.names: list[str] = []  # longest first, for matching line prefixes
        self.events: list[Event] = []
        self.table: str | None = None
        self.max_seats: int | None = None
        self.street = 0  # 0 before 3rd street; 3..7; 8 at the showdown; 9 in the summary
        self.total: tuple[int, int, int] | None = None
        self.revealed: list[tuple[int, str, tuple[Card, ...]]] = []
        self.board: tuple[Card, ...] = ()
        self.last_line = first_line

    def fail(self, reason: str, line: int) -> NoReturn:
        raise PokerStarsError(reason, line=line)

    def amount(self, text: str, line: int) -> int:
        return _chips(text, self.head.money, line)

    def who(self, text: str, separator: str) -> tuple[str, str] | None:
        for name in self.names:
            if text.startswith(name + separator):
                return name, text[len(name) + len(separator) :]
        return None

    def feed(self, number: int, text: str) -> None:
        if not text:
            return
        self.last_line = number
        try:
            self._feed(number, text)
        except _BadCards as error:
            raise PokerStarsError(f"{error.reason}, in {text!r}", line=number) from None

    def _feed(self, number: int, text: str) -> None:
        if text.startswith("*** "):
            self.section(number, text)
        elif text.startswith("Seat ") and self.street in (0, 9):
            if self.street == 0:
                self.seat(number, text)
            else:
                self.summary_seat(number, text)
        elif text.startswith("Table '") and self.street == 0 and not self.seats:
            m = _TABLE.match(text)
            if m is None:
                self.fail(f"expected \"Table 'NAME' N-max\", not {text!r}", number)
            self.table, self.max_seats = m.group(1), int(m.group(2))
        elif text.startswith("Dealt to "):
            self.deal(number, text)
        elif text.startswith("Uncalled bet "):
            m = _UNCALLED.match(text)
            if m is None or m.group(2) not in self.names:
                self.fail(
                    f"expected 'Uncalled bet (AMOUNT) returned to PLAYER', not {text!r}", number
                )
            self.events.append(Returned(number, m.group(2), self.amount(m.group(1), number)))
        elif self.street == 9 and text.startswith("Total pot "):
            self.total_line(number, text)
        elif self.street == 9 and text.startswith("Board "):
            (board,) = _bracketed(text[len("Board ") :], number) or [()]
            self.board = board
        elif text == "No low hand qualified":
            self.events.append(NoLow(number))
        elif (found := self.who(text, ": ")) is not None:
            self.action(number, found[0], found[1].strip())
        elif (found := self.who(text, " collected ")) is not None:
            self.collect(number, found[0], "collected " + found[1])
        elif self.street < 9 and (m := _ACTION_WORDS.match(text)) is not None and self.seats:
            self.fail(
                f"no seat holds a player named {m.group(1)!r} (expected one of the seated players)",
                number,
            )
        # Anything else is a table notice or chat: joins, leaves, "said", "Betting is capped", ...

    # -- sections

    def section(self, number: int, text: str) -> None:
        title = text[4:].split(" ***")[0].strip()
        community: Card | None = None
        if text.startswith("*** RIVER ***") and text != "*** RIVER ***":
            groups = _bracketed(text[len("*** RIVER ***") :], number)
            if len(groups) != 1 or len(groups[0]) != 1:
                self.fail(
                    "expected '*** RIVER ***' or '*** RIVER *** [Xx]' (one community card)", number
                )
            community = groups[0][0]
            title = "RIVER"
        streets = {
            "3rd STREET": 3,
            "4th STREET": 4,
            "5th STREET": 5,
            "6th STREET": 6,
            "7th STREET": 7,
            "RIVER": 7,
        }
        if title in streets:
            street = streets[title]
            expected = 3 if self.street == 0 else self.street + 1
            if self.street >= 8 or street != expected:
                want = (
                    f"*** {STREET_TITLES[expected]} ***"
                    if expected <= 7
                    else "the showdown or the summary"
                )
                self.fail(f"{text!r} is out of order (expected {want})", number)
            if street == 3 and not self.seats:
                self.fail("3rd street before any 'Seat N: PLAYER (STACK in chips)' line", number)
            self.street = street
            self.events.append(StreetMark(number, street, community))
        elif title == "SHOW DOWN":
            if not 3 <= self.street <= 7:
                self.fail(
                    "'*** SHOW DOWN ***' is out of order (expected it after the last street)",
                    number,
                )
            self.street = 8
            self.events.append(ShowdownMark(number))
        elif title == "SUMMARY":
            if self.street < 3:
                self.fail("'*** SUMMARY ***' before 3rd street (expected the deal first)", number)
            self.street = 9
        else:
            self.fail(
                f"{text!r} is not a stud section (expected '*** 3rd STREET ***' to "
                "'*** RIVER ***', "
                "'*** SHOW DOWN ***' or '*** SUMMARY ***')",
                number,
            )

    def seat(self, number: int, text: str) -> None:
        m = _SEAT.match(text)
        if m is None:
            self.fail(f"expected 'Seat N: PLAYER (STACK in chips)', not {text!r}", number)
        name = m.group(2)
        if name in self.names:
            self.fail(f"two seats hold a player named {name!r}", number)
        self.seats.append(
            Seat(
                int(m.group(1)),
                name,
                self.amount(m.group(3), number),
                number,
                "sitting out" in m.group(4),
            )
        )
        self.names = sorted((s.name for s in self.seats), key=len, reverse=True)

    def summary_seat(self, number: int, text: str) -> None:
        m = re.match(r"^Seat \d+: (.*)$", text)
        assert m is not None
        for name in self.names:
            if m.group(1).startswith(name + " "):
                rest = m.group(1)[len(name) :]
                found = re.search(r"\b(?:showed|mucked) \[([^\]]*)\]", rest)
                if found:
                    self.revealed.append((number, name, _cards(found.group(1), number)))
                return

    def total_line(self, number: int, text: str) -> None:
        m = _TOTAL.match(text)
        if m is None:
            self.fail(f"expected 'Total pot AMOUNT | Rake AMOUNT', not {text!r}", number)
        self.total = (self.amount(m.group(1), number), self.amount(m.group(3), number), number)

    # -- lines about one player

    def deal(self, number: int, text: str) -> None:
        found = self.who(text[len("Dealt to ") :], " ")
        if found is None:
            self.fail(
                f"expected 'Dealt to PLAYER [cards]' with a seated player, not {text!r}", number
            )
        if not 3 <= self.street <= 7:
            self.fail(
                "cards dealt outside the streets (expected them after '*** 3rd STREET ***')", number
            )
        groups = _bracketed(found[1], number)
        cards = tuple(c for group in groups for c in group)
        if not cards:
            self.fail("expected the cards dealt, e.g. 'Dealt to PLAYER [Kc] [4d]'", number)
        self.events.append(Deal(number, self.street, found[0], cards))

    def action(self, number: int, player: str, rest: str) -> None:
        all_in = rest.endswith(_ALL_IN)
        body = rest[: -len(_ALL_IN)] if all_in else rest
        street = self.street

        def betting(verb: BetVerb, amount: int | None = None, to: int | None = None) -> None:
            if not 3 <= street <= 7:
                self.fail(
                    f"a betting action outside the streets: {rest!r} "
                    "(expected it on 3rd to 7th street)",
                    number,
                )
            self.events.append(BetLine(number, street, player, verb, amount, to, all_in))

        if m := _ANTE_RE.fullmatch(body):
            if street != 0:
                self.fail(
                    "an ante after the deal (expected antes before '*** 3rd STREET ***')", number
                )
            self.events.append(Ante(number, player, self.amount(m.group(1), number), all_in))
        elif m := _BRING_IN_RE.fullmatch(body):
            betting("bring-in", self.amount(m.group(1), number))
        elif m := _BETS_RE.fullmatch(body):
            betting("bet", self.amount(m.group(1), number))
        elif m := _CALLS_RE.fullmatch(body):
            betting("call", self.amount(m.group(1), number))
        elif m := _RAISES_RE.fullmatch(body):
            betting("raise", self.amount(m.group(1), number), self.amount(m.group(2), number))
        elif body == "checks":
            betting("check")
        elif body == "folds" or body.startswith("folds ["):
            betting("fold")
        elif body.startswith("shows "):
            m = re.fullmatch(r"shows \[([^\]]*)\](?:\s*\((.*)\))?", body)
            if m is None:
                self.fail(f"expected 'PLAYER: shows [cards] (description)', not {rest!r}", number)
            self.events.append(Show(number, player, _cards(m.group(1), number), m.group(2)))
        elif body in ("mucks hand", "mucks") or body.startswith("mucks ["):
            self.events.append(Muck(number, player))
        elif body in ("doesn't show hand", "doesn't show"):
            self.events.append(Muck(number, player, shown_down=False))
        elif body.startswith(("posts small blind", "posts big blind", "discards", "stands pat")):
            self.fail(f"{rest!r} belongs to another game, not stud", number)
        elif any(body.startswith(n) for n in _NOTICES):
            return
        else:
            self.fail(
                f"unknown action {rest!r} (expected posts the ante, brings in for, bets, calls, "
                "raises .. to .., checks, folds, shows, mucks hand or doesn't show hand)",
                number,
            )

    def collect(self, number: int, player: str, rest: str) -> None:
        m = _COLLECT.match(rest)
        if m is None:
            self.fail(
                f"expected 'PLAYER collected AMOUNT from pot', not {player + ' ' + rest!r}", number
            )
        label = m.group(2)
        pot: int | None = None
        if label == "main pot":
            pot = 0
        elif label.startswith("side pot"):
            pot = int(m.group(3)) if m.group(3) else 1
        self.events.append(Collect(number, player, self.amount(m.group(1), number), pot))

    def finish(self) -> PokerStarsHand:
        head = self.head
        assert head.game is not None
        if self.street != 9 or self.total is None:
            where = {0: "in the seats and antes", 8: "at the showdown", 9: "in the summary"}
            if 3 <= self.street <= 7:
                where[self.street] = f"on {_STREET_WORDS[self.street]}"
            missing = "'*** SUMMARY ***'" if self.street != 9 else "'Total pot X | Rake Y'"
            self.fail(
                f"hand #{head.hand_id} stops after this line, {where[self.street]}: expected the "
                f"rest of the hand up to {missing} (the history looks truncated)",
                self.last_line,
            )
        if not self.seats:
            self.fail("the hand has no 'Seat N: PLAYER (STACK in chips)' lines", self.first_line)
        total, rake, total_line = self.total
        return PokerStarsHand(
            file=self.file,
            line=self.first_line,
            hand_id=head.hand_id,
            game=head.game,
            header=self.header_text,
            money=head.money,
            currency=head.currency,
            symbol=head.symbol,
            small_bet=head.small_bet,
            big_bet=head.big_bet,
            tournament=head.tournament,
            table=self.table,
            max_seats=self.max_seats,
            date=head.date,
            seats=tuple(self.seats),
            events=tuple(self.events),
            total_pot=total,
            rake=rake,
            total_line=total_line,
            revealed=tuple(self.revealed),
            board=self.board,
            end_line=self.last_line,
        )


# ---------------------------------------------------------------------------------- the reader


class HandReader:
    """Iterate the stud hands of a PokerStars history, one at a time, without loading the file.

    Each item is a :class:`PokerStarsHand`, or a :class:`PokerStarsError` for a hand that cannot
    be read (the reader then goes on with the next hand). Hands of other games are skipped and
    counted in :attr:`skipped` (by game in :attr:`skipped_games`). A file that is not a PokerStars
    history raises :class:`NotPokerStarsError` as soon as its first line is read.
    """

    def __init__(self, source: str | Path | IO[str], name: str | None = None) -> None:
        self.source = source
        self.name = (
            name
            if name is not None
            else (str(source) if isinstance(source, str | Path) else "<text>")
        )
        self.skipped = 0
        self.skipped_games: Counter[str] = Counter()
        self.read = 0
        self.failed = 0
        self._bring_ins: dict[tuple[int, int, int], int] = {}

    def _lines(self) -> Iterator[tuple[int, str]]:
        if isinstance(self.source, str | Path):
            with open(self.source, "rb") as raw:
                start = raw.read(2)
                raw.seek(0)
                if start in (b"\xff\xfe", b"\xfe\xff"):
                    with io.TextIOWrapper(raw, encoding="utf-16") as text:
                        yield from enumerate((ln.rstrip("\r\n") for ln in text), start=1)
                    return
                for number, data in enumerate(raw, start=1):
                    try:
                        line = data.decode("utf-8")
                    except UnicodeDecodeError:
                        line = data.decode("cp1252", errors="replace")
                    yield number, line.rstrip("\r\n")
        else:
            for number, line in enumerate(self.source, start=1):
                yield number, line.rstrip("\r\n")

    def __iter__(self) -> Iterator[PokerStarsHand | PokerStarsError]:
        chunk: list[tuple[int, str]] = []
        seen_header = False
        for number, line in self._lines():
            text = line.replace("\ufeff", "").rstrip()
            if _HEADER.match(text):
                if chunk:
                    yield from self._hand(chunk)
                chunk = [(number, text)]
                seen_header = True
            elif not seen_header:
                if text.strip():
                    raise NotPokerStarsError(
                        f"not a PokerStars hand history: it starts {text.strip()[:60]!r} "
                        "(expected 'PokerStars Hand #...' or 'PokerStars Game #...')",
                        line=number,
                        file=self.name,
                    )
            else:
                chunk.append((number, text))
        if chunk:
            yield from self._hand(chunk)

    def _hand(self, chunk: list[tuple[int, str]]) -> Iterator[PokerStarsHand | PokerStarsError]:
        number, text = chunk[0]
        try:
            head = _parse_header(text, number)
        except PokerStarsError as error:
            self.failed += 1
            yield self._located(error)
            return
        if head.game is None:
            self.skipped += 1
            self.skipped_games[head.game_text] += 1
            return
        parser = _HandParser(self.name, head, text, number)
        try:
            for n, line in chunk[1:]:
                parser.feed(n, line)
            hand = parser.finish()
        except PokerStarsError as error:
            error.hand_id, error.game = head.hand_id, head.game
            self.failed += 1
            yield self._located(error)
            return
        self.read += 1
        key = (hand.small_bet, hand.big_bet, hand.ante)
        if hand.bring_in is not None:
            self._bring_ins[key] = hand.bring_in
        elif key in self._bring_ins:
            hand = dataclasses.replace(hand, bring_in_hint=self._bring_ins[key])
        yield hand

    def _located(self, error: PokerStarsError) -> PokerStarsError:
        error.file = self.name
        return error

    def hands(self) -> Iterator[PokerStarsHand]:
        """Only the hands read, raising the first :class:`PokerStarsError`."""
        for item in self:
            if isinstance(item, PokerStarsError):
                raise item
            yield item


def read_hands(source: str | Path | IO[str], name: str | None = None) -> HandReader:
    """A :class:`HandReader` over a file name, a path or an open text stream."""
    return HandReader(source, name)


# ---------------------------------------------------------------------------------- replay


@dataclass
class PlayedHand:
    """A PokerStars hand played through our engine."""

    source: PokerStarsHand
    hand: Hand
    players: list[str]
    """Our seat i is ``players[i]``."""
    seat_numbers: list[int]
    unknown: frozenset[Card]
    """The cards we made up for cards the file never shows."""


_UP_SLOTS = (2, 3, 4, 5)
_AGGRESSIVE_KINDS = (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE)


def _default_bring_in(small_bet: int) -> int:
    return max(1, min(small_bet - 1, small_bet // 4))


@dataclass
class _Slots:
    cards: list[Card | None]
    lines: list[int]


class _Replayer:
    def __init__(self, ps: PokerStarsHand, game: Game | None, bring_in: int | None) -> None:
        self.ps = ps
        self.players = ps.players
        if len(self.players) < 2:
            self.fail(f"only {len(self.players)} player(s) dealt in (stud needs 2 to 8)", ps.line)
        self.seat_of = {name: i for i, name in enumerate(self.players)}
        self.game_override = game
        self.bring_in_hint = bring_in

    def fail(self, reason: str, line: int) -> NoReturn:
        raise PokerStarsError(
            reason, line=line, file=self.ps.file, hand_id=self.ps.hand_id, game=self.ps.game
        )

    def seat(self, player: str, line: int) -> int:
        seat = self.seat_of.get(player)
        if seat is None:
            self.fail(
                f"{player} was not dealt in (no ante, no 3rd-street cards) but acts here", line
            )
        return seat

    # -- the deck

    def known_cards(self) -> tuple[list[_Slots], Card | None, int]:
        ps = self.ps
        slots = [_Slots([None] * 7, [0] * 7) for _ in self.players]
        owner: dict[Card, tuple[int, int]] = {}
        community: Card | None = None
        last_street = 3

        def put(seat: int, index: int, card: Card, line: int) -> None:
            have = slots[seat].cards[index]
            if have is not None and have != card:
                self.fail(
                    f"{self.players[seat]}'s card {index + 1} is {card} here but {have} on line "
                    f"{slots[seat].lines[index]}",
                    line,
                )
            holder = owner.get(card)
            if holder is not None and holder != (seat, index):
                self.fail(
                    f"{card} is dealt twice (also on line {slots[holder[0]].lines[holder[1]]})",
                    line,
                )
            owner[card] = (seat, index)
            slots[seat].cards[index] = card
            if have is None:
                slots[seat].lines[index] = line

        def put_all(seat: int, cards: Sequence[Card], line: int, what: str) -> None:
            """Cards shown in dealing order: all of them, or those dealt so far."""
            count = 7 if community is None else 6
            if community is not None and len(cards) == 7 and cards[6] == community:
                cards = cards[:6]
            if not 3 <= len(cards) <= count:
                self.fail(
                    f"{what} {len(cards)} cards (expected the {count} cards in dealing order)", line
                )
            for k, card in enumerate(cards):
                put(seat, k, card, line)

        for e in ps.events:
            if isinstance(e, StreetMark):
                last_street = e.street
                if e.community is not None:
                    community = e.community
                    if community in owner:
                        self.fail(f"the community card {community} is also a player's card", e.line)
            elif isinstance(e, Deal):
                seat = self.seat(e.player, e.line)
                total = e.street if community is None or e.street < 7 else 6
                up = min(e.street, 6) - 2
                if len(e.cards) == total:
                    for k, card in enumerate(e.cards):
                        put(seat, k, card, e.line)
                elif len(e.cards) == up:
                    for k, card in enumerate(e.cards):
                        put(seat, _UP_SLOTS[k], card, e.line)
                else:
                    self.fail(
                        f"{e.player} is shown {len(e.cards)} cards on {_STREET_WORDS[e.street]} "
                        f"(expected {total} cards, or the {up} up cards)",
                        e.line,
                    )
            elif isinstance(e, Show):
                put_all(self.seat(e.player, e.line), e.cards, e.line, f"{e.player} shows")
        for line, player, cards in ps.revealed:
            if player in self.seat_of:
                put_all(self.seat_of[player], cards, line, f"{player} showed or mucked")
        self.community_card = community
        return slots, community, last_street

    def deck(
        self, slots: list[_Slots], community: Card | None, last_street: int
    ) -> tuple[Deck, frozenset[Card]]:
        folded_on: dict[int, int] = {}
        for e in self.ps.events:
            if isinstance(e, BetLine) and e.verb == "fold":
                folded_on.setdefault(self.seat(e.player, e.line), e.street)
        n = len(self.players)
        order: list[Card | None] = []
        for index in range(3):
            order.extend(slots[s].cards[index] for s in range(n))
        for street in range(4, last_street + 1):
            if street == 7 and community is not None:
                order.append(community)
                continue
            order.extend(
                slots[s].cards[street - 1] for s in range(n) if folded_on.get(s, 8) >= street
            )
        used = {c for c in order if c is not None}
        used.update(c for s in slots for c in s.cards if c is not None)
        spare = iter([c for c in CARDS if c not in used])
        made_up: set[Card] = set()
        cards: list[Card] = []
        for card in order:
            if card is None:
                card = next(spare)
                made_up.add(card)
            cards.append(card)
        cards.extend(spare)
        return Deck(cards), frozenset(made_up)

    # -- the game

    def game(self) -> Game:
        if self.game_override is not None:
            return self.game_override
        ps = self.ps
        bring_in = ps.bring_in or self.bring_in_hint or ps.bring_in_hint
        if bring_in is None:
            allin = [e.amount for e in ps.events if isinstance(e, BetLine) and e.verb == "bring-in"]
            bring_in = allin[0] if allin and allin[0] else _default_bring_in(ps.small_bet)
        try:
            return game_by_name(ps.game, Stakes(ps.ante, bring_in, ps.small_bet, ps.big_bet))
        except GameError as error:
            self.fail(f"the stakes make no game: {error}", ps.line)

    # -- play

    def play(self) -> PlayedHand:
        ps = self.ps
        slots, community, last_street = self.known_cards()
        deck, made_up = self.deck(slots, community, last_street)
        stacks = [next(s.stack for s in ps.seats if s.name == p) for p in self.players]
        try:
            hand = Hand(self.game(), stacks, deck, auto_showdown=False, rake=ps.rake)
        except (HandError, ValueError) as error:
            self.fail(f"cannot start the hand: {error}", ps.line)
        self.hand = hand
        self.returns_seen = 0
        self.scanned = 0
        self.engine_returns: list[tuple[int, BetReturned]] = []
        self.deal_starts: dict[int, int] = {}
        self.decisions: dict[int, Show | Muck] = {}
        for e in ps.events:
            if not isinstance(e, Show | Muck) or e.player not in self.seat_of:
                continue
            if isinstance(e, Show) or e.shown_down:
                self.decisions.setdefault(self.seat_of[e.player], e)
        self.check_antes()
        first_street_line = next((e.line for e in ps.events if isinstance(e, StreetMark)), ps.line)
        self.street_line = {3: first_street_line}
        for e in ps.events:
            if isinstance(e, StreetMark):
                self.street_mark(e)
            elif isinstance(e, Deal):
                self.check_deal(e)
            elif isinstance(e, BetLine):
                self.bet(e)
            elif isinstance(e, Returned):
                self.returned(e)
            elif isinstance(e, ShowdownMark):
                self.showdown(e.line)
        self.showdown(ps.total_line, final=True)
        if not hand.is_over:
            self.fail(
                f"the hand ends here, but our engine still has "
                f"{self.players[hand.to_act or 0]} to act "
                f"on {_STREET_WORDS[hand.street]}",
                ps.total_line,
            )
        self.check_returns(None, ps.total_line)
        self.check_shows()
        self.check_awards()
        return PlayedHand(
            ps,
            hand,
            list(self.players),
            [s.number for p in self.players for s in ps.seats if s.name == p],
            made_up,
        )

    def check_antes(self) -> None:
        posted = {e.seat: e for e in self.hand.events if isinstance(e, AntePosted)}
        seen: set[int] = set()
        for e in self.ps.events:
            if isinstance(e, Ante):
                seat = self.seat(e.player, e.line)
                ours = posted.get(seat)
                if ours is None or ours.amount != e.amount or ours.all_in != e.all_in:
                    what = (
                        "none"
                        if ours is None
                        else f"{ours.amount}" + (" all-in" if ours.all_in else "")
                    )
                    self.fail(
                        f"{e.player} posts an ante of {e.amount}; our engine takes {what}", e.line
                    )
                seen.add(seat)
        for seat, ante in posted.items():
            if seat not in seen and ante.amount:
                self.fail(
                    f"{self.players[seat]} posts no ante in the file; "
                    f"our engine takes {ante.amount}",
                    self.street_line[3],
                )

    def street_mark(self, e: StreetMark) -> None:
        hand = self.hand
        self.street_line[e.street] = e.line
        if e.street == 3:
            return
        if hand.is_over and len([s for s in range(hand.n) if not hand.folded[s]]) < 2:
            self.fail(
                f"the file deals {_STREET_WORDS[e.street]}, but under our rules the hand is over",
                e.line,
            )
        if hand.phase is Phase.BETTING and hand.street < e.street:
            self.fail(
                f"the file deals {_STREET_WORDS[e.street]}, but our engine still has "
                f"{self.players[hand.to_act or 0]} to act on {_STREET_WORDS[hand.street]}",
                e.line,
            )
        self.check_returns(e.street, e.line)
        if e.street == 7:
            ours = hand.community
            if (e.community is None) != (ours is None) or (
                ours is not None and ours != e.community
            ):
                self.fail(f"the file's community card is {e.community}, ours {ours}", e.line)

    def check_deal(self, e: Deal) -> None:
        seat = self.seat(e.player, e.line)
        have = self.hand.cards[seat]
        expected = e.street if self.community_card is None or e.street < 7 else 6
        if len(have) < expected:
            self.fail(
                f"the file deals {e.player} a card on {_STREET_WORDS[e.street]}, "
                f"our engine does not "
                f"({e.player} holds {len(have)})",
                e.line,
            )

    def _scan(self) -> None:
        """Note the engine's new events: the bets it returned (with their place) and where each
        street's deal begins."""
        events = self.hand.events
        for index in range(self.scanned, len(events)):
            ev = events[index]
            if isinstance(ev, BetReturned):
                self.engine_returns.append((index, ev))
            elif isinstance(ev, CardDealt):
                self.deal_starts.setdefault(ev.street, index)
            elif isinstance(ev, CommunityCardDealt):
                self.deal_starts.setdefault(7, index)
        self.scanned = len(events)

    def check_returns(self, street: int | None, line: int) -> None:
        """Every bet our engine returned before ``street`` was dealt (before the showdown when
        ``street`` is None) must have been returned by the file by now."""
        self._scan()
        boundary = len(self.hand.events)
        if street is not None:
            boundary = min(
                (i for k, i in self.deal_starts.items() if k >= street), default=boundary
            )
        ours = [ev for index, ev in self.engine_returns if index < boundary]
        if len(ours) > self.returns_seen:
            missing = ours[self.returns_seen]
            self.fail(
                f"our engine returns an uncalled {missing.amount} to "
                f"{self.players[missing.seat]}; the file returns nothing "
                "(expected 'Uncalled bet (...) returned to ...' before this line)",
                line,
            )

    def returned(self, e: Returned) -> None:
        self._scan()
        ours = [ev for _, ev in self.engine_returns]
        seat = self.seat(e.player, e.line)
        if self.returns_seen >= len(ours):
            self.fail(
                f"the file returns {e.amount} to {e.player}; our engine returns nothing", e.line
            )
        mine = ours[self.returns_seen]
        if (mine.seat, mine.amount) != (seat, e.amount):
            self.fail(
                f"the file returns {e.amount} to {e.player}; our engine returns {mine.amount} to "
                f"{self.players[mine.seat]}",
                e.line,
            )
        self.returns_seen += 1

    def bet(self, e: BetLine) -> None:
        hand = self.hand
        seat = self.seat(e.player, e.line)
        if hand.is_over:
            self.fail(f"{e.player} acts, but under our rules the hand is over", e.line)
        if hand.phase is Phase.SHOWDOWN:
            self.fail(f"{e.player} acts, but our engine has reached the showdown", e.line)
        if hand.street != e.street:
            self.fail(
                f"{e.player} acts on {_STREET_WORDS[e.street]}, "
                f"but our engine is on {_STREET_WORDS[hand.street]}",
                e.line,
            )
        if hand.to_act != seat:
            who = self.players[hand.to_act] if hand.to_act is not None else "nobody"
            role = (
                "bring in"
                if e.street == 3
                and hand.bring_in_seat == hand.to_act
                and not any(isinstance(ev, ActionTaken) and ev.street == 3 for ev in hand.events)
                else "act"
            )
            self.fail(f"{e.player} acts, but our engine has {who} to {role}", e.line)
        legal = hand.legal_actions()
        mine = hand.street_bets[seat]
        current = max(hand.street_bets)
        action: Action | None = None
        if e.verb == "bring-in":
            action = next(
                (a for a in legal if a.kind is ActionKind.BRING_IN and a.amount == e.amount), None
            )
        elif e.verb == "check":
            action = next((a for a in legal if a.kind is ActionKind.CHECK), None)
        elif e.verb == "fold":
            action = next((a for a in legal if a.kind is ActionKind.FOLD), None)
        elif e.verb == "call":
            assert e.amount is not None
            action = next(
                (a for a in legal if a.kind is ActionKind.CALL and a.amount == mine + e.amount),
                None,
            )
        elif e.verb == "bet":
            assert e.amount is not None
            target = mine + e.amount
            kinds = (ActionKind.BET, ActionKind.COMPLETE)
            action = next((a for a in legal if a.kind in kinds and a.amount == target), None)
            if action is None and current > 0:
                self.fail(
                    f"{e.player} bets {e.amount}, but there is a bet of {current} to face", e.line
                )
        else:
            assert e.amount is not None and e.to is not None
            if e.to - e.amount != current:
                self.fail(
                    f"{e.player} raises {e.amount} to {e.to}, "
                    f"but the bet to raise is {current}, not "
                    f"{e.to - e.amount}",
                    e.line,
                )
            kinds = (ActionKind.RAISE, ActionKind.COMPLETE)
            action = next((a for a in legal if a.kind in kinds and a.amount == e.to), None)
        if action is None:
            options = ", ".join(str(a) for a in legal)
            self.fail(
                f"{e.player} {_verb_text(e)} is not legal under our rules (legal: {options})",
                e.line,
            )
        try:
            hand.act(action, seat)
        except IllegalAction as error:  # pragma: no cover - picked from the legal actions
            self.fail(f"illegal under our rules: {error}", e.line)
        taken = next(ev for ev in reversed(hand.events) if isinstance(ev, ActionTaken))
        if taken.all_in != e.all_in:
            says = "all-in" if e.all_in else "not all-in"
            self.fail(
                f"the file says {e.player} is {says} after this action; our engine does not", e.line
            )

    def showdown(self, line: int, final: bool = False) -> None:
        hand = self.hand
        if not final and hand.phase is not Phase.SHOWDOWN:
            if hand.phase is Phase.BETTING:
                self.fail(
                    f"the file goes to the showdown, but our engine still has "
                    f"{self.players[hand.to_act or 0]} to act on {_STREET_WORDS[hand.street]}",
                    line,
                )
            if hand.is_over and not any(
                isinstance(ev, HandShown | HandMucked) for ev in hand.events
            ):
                self.fail(
                    "the file goes to the showdown, but under our rules nobody is left to show",
                    line,
                )
        if not final:
            self.check_returns(None, line)
        while hand.phase is Phase.SHOWDOWN and hand.to_act is not None:
            seat = hand.to_act
            decision = self.decisions.get(seat)
            if decision is None:
                self.fail(
                    f"our engine asks {self.players[seat]} to show or muck; the file does neither "
                    f"(expected '{self.players[seat]}: shows [..]' or "
                    f"'{self.players[seat]}: mucks hand')",
                    line,
                )
            kind = ActionKind.SHOW if isinstance(decision, Show) else ActionKind.MUCK
            hand.act(Action(kind), seat)

    def check_shows(self) -> None:
        """Every hand the file shows down is the hand our engine dealt, and reads as the file
        names it. (Who shows first decides no chips: we answer in our order, so a winner whom
        our order lets win unshown may be shown in the file.)"""
        hand = self.hand
        mark = next((e.line for e in self.ps.events if isinstance(e, ShowdownMark)), None)
        if mark is None:
            return
        for e in self.ps.events:
            if not isinstance(e, Show) or e.line < mark:
                continue
            seat = self.seat_of[e.player]
            own = tuple(hand.cards[seat])
            if e.cards not in (own, (*own, hand.community)):
                self.fail(
                    f"{e.player} shows [{format_cards(e.cards)}]; "
                    f"our engine dealt [{format_cards(own)}]",
                    e.line,
                )
            expected = show_description(hand.game, hand.seven_cards(seat))
            if e.description is not None and _norm(e.description) != _norm(expected):
                self.fail(
                    f"{e.player} shows ({e.description}); "
                    f"our engine reads the hand as ({expected})",
                    e.line,
                )

    def check_awards(self) -> None:
        ps, hand = self.ps, self.hand
        collects = [e for e in ps.events if isinstance(e, Collect)]
        ours_total = sum(a.amount for a in hand.awards) + hand.rake
        first = collects[0].line if collects else ps.total_line
        for e in ps.events:
            if isinstance(e, NoLow) and any(a.share == "low" for a in hand.awards):
                self.fail("the file says no low hand qualified; our engine pays a low half", e.line)
        theirs_by_seat: Counter[int] = Counter()
        theirs_by_pot: Counter[tuple[int, int]] = Counter()
        ours_by_seat: Counter[int] = Counter()
        ours_by_pot: Counter[tuple[int, int]] = Counter()
        labelled = all(c.pot is not None for c in collects) and collects
        for a in hand.awards:
            ours_by_seat[a.seat] += a.amount
            ours_by_pot[(a.seat, a.pot)] += a.amount
        for c in collects:
            seat = self.seat(c.player, c.line)
            theirs_by_seat[seat] += c.amount
            if c.pot is not None:
                theirs_by_pot[(seat, c.pot)] += c.amount
        ours_text = _awards_text(hand, self.players)
        for c in collects:
            seat = self.seat_of[c.player]
            if labelled and c.pot is not None:
                if theirs_by_pot[(seat, c.pot)] != ours_by_pot[(seat, c.pot)]:
                    pot = "the main pot" if c.pot == 0 else f"side pot {c.pot}"
                    self.fail(
                        f"the file pays {c.player} {theirs_by_pot[(seat, c.pot)]} from {pot}; "
                        f"our engine "
                        f"pays {ours_by_pot[(seat, c.pot)]} ({ours_text})",
                        c.line,
                    )
            elif theirs_by_seat[seat] != ours_by_seat[seat]:
                self.fail(
                    f"the file pays {c.player} {theirs_by_seat[seat]}; our engine pays "
                    f"{ours_by_seat[seat]} ({ours_text})",
                    c.line,
                )
        for seat, amount in ours_by_seat.items():
            if amount and theirs_by_seat[seat] == 0:
                self.fail(
                    f"our engine pays {self.players[seat]} {amount}, "
                    f"the file pays nothing ({ours_text})",
                    collects[-1].line if collects else ps.total_line,
                )
        if labelled and ours_by_pot != theirs_by_pot:  # pragma: no cover - caught above
            self.fail(f"the pots are split differently ({ours_text})", first)
        if ours_total != ps.total_pot:
            self.fail(f"Total pot {ps.total_pot}: our engine's pot is {ours_total}", ps.total_line)


def _verb_text(e: BetLine) -> str:
    if e.verb == "raise":
        return f"raises {e.amount} to {e.to}"
    words = {
        "bring-in": "brings in for",
        "bet": "bets",
        "call": "calls",
        "check": "checks",
        "fold": "folds",
    }
    return f"{words[e.verb]}{'' if e.amount is None else ' ' + str(e.amount)}"


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip()).lower()


def _awards_text(hand: Hand, players: Sequence[str]) -> str:
    parts = []
    for a in hand.awards:
        pot = "main pot" if a.pot == 0 else f"side pot {a.pot}"
        half = "" if a.share == "whole" else f" {a.share}"
        parts.append(f"{players[a.seat]} {a.amount} from {pot}{half}")
    return "ours: " + (", ".join(parts) or "nothing")


def show_description(game: Game, cards: Sequence[Card]) -> str:
    """:func:`describe_show` of the best hand in ``cards`` (five to seven)."""
    if game.low == "any":
        return describe_show(game, None, evaluate.low_name(evaluate.low_rank(cards)))
    high = evaluate.high_name(evaluate.high_rank(cards))
    if game.low == "eight_or_better":
        low = evaluate.low8_rank(cards)
        return describe_show(game, high, evaluate.low_name(low) if low else None)
    return describe_show(game, high, None)


def describe_show(game: Game, high: str | None, low: str | None) -> str:
    """The description PokerStars puts after a shown hand: ``HI: ..; LO: ..`` in hi/lo,
    the high hand's name in stud, ``Lo: ..`` in razz."""
    if game.low == "any":
        return f"Lo: {low}"
    if game.low == "eight_or_better":
        return f"HI: {high}" + (f"; LO: {low}" if low else "")
    return str(high)


def play_pokerstars(
    ps: PokerStarsHand, *, game: Game | None = None, bring_in: int | None = None
) -> PlayedHand:
    """Play a PokerStars hand through our engine; :class:`PokerStarsError` names the first line
    where our engine differs from the file. ``game`` replaces the game read from the header (for
    non-default options); ``bring_in`` is used when the file does not show the bring-in."""
    return _Replayer(ps, game, bring_in).play()


# ---------------------------------------------------------------------------------- writing


def format_hand(
    hand: Hand,
    *,
    players: Sequence[str] | None = None,
    seat_numbers: Sequence[int] | None = None,
    hero: int | None = None,
    reveal: Iterable[int] | Literal["all"] = (),
    unknown: Collection[int] = (),
    hand_id: str | int = 1,
    table: str = "sevenstud",
    max_seats: int | None = None,
    date: str = "2024/01/01 00:00:00 ET",
    money: bool = False,
    currency: str = "USD",
    symbol: str = "$",
    tournament: str | None = None,
) -> str:
    """A hand of ours as PokerStars writes it, seen by ``hero`` (our seat index; ``None``: a
    spectator, who sees only the up cards). Seats in ``reveal`` (or every seat, ``"all"``) have
    their down cards written too, as a hero's are; a seat holding a card in ``unknown`` (cards
    nobody saw, e.g. made up to replay another file) never does. Chips are written as money (cents
    to ``$0.04``) when ``money``; a ``tournament`` number writes a tournament header."""
    n = hand.n
    names = list(players) if players is not None else [f"Player{i + 1}" for i in range(n)]
    numbers = list(seat_numbers) if seat_numbers is not None else list(range(1, n + 1))
    if len(names) != n or len(numbers) != n or len(set(names)) != n:
        raise ValueError(f"need {n} different player names and seat numbers")
    hidden = {CARDS[c] for c in unknown}
    full = set(range(n)) if reveal == "all" else set(reveal)
    if hero is not None:
        full.add(hero)
    full = {s for s in full if not hidden.intersection(hand.cards[s])}
    game = hand.game
    stakes = game.stakes

    def amt(chips: int) -> str:
        return format_amount(chips, money, symbol)

    limit = f"{GAME_NAMES[game.code]} Limit"
    if tournament is not None:
        bets = f"{amt(stakes.small_bet)}/{amt(stakes.big_bet)}"
        head = f"Tournament #{tournament}, {limit} - Level I ({bets})"
    else:
        code = f" {currency}" if money else ""
        head = f"{limit} ({amt(stakes.small_bet)}/{amt(stakes.big_bet)}{code})"
    out = [
        f"PokerStars Hand #{hand_id}:  {head} - {date}",
        f"Table '{table}' {max_seats or max(8, max(numbers))}-max",
    ]
    for s in range(n):
        out.append(f"Seat {numbers[s]}: {names[s]} ({amt(hand.starting_stacks[s])} in chips) ")
    live_at_end = [s for s in range(n) if not hand.folded[s]]
    showdown = hand.is_over and len(live_at_end) >= 2
    showdown_written = False
    third: list[CardDealt] = []
    last_street = 3
    folded_street: dict[int, int] = {}
    shown: dict[int, HandShown] = {}
    mucked: set[int] = set()
    collected: list[PotAwarded] = []

    def flush_third() -> None:
        if not third:
            return
        out.append("*** 3rd STREET ***")
        for s in range(n):
            mine = [ev.card for ev in third if ev.seat == s and ev.card is not None]
            if mine:
                out.append(f"Dealt to {names[s]} [{format_cards(mine if s in full else mine[2:])}]")
        third.clear()

    def up_cards(s: int, upto: int) -> list[Card]:
        return [c for c, up in zip(hand.cards[s][:upto], hand.face_up[s][:upto], strict=True) if up]

    for ev in hand.events:
        if third and not (isinstance(ev, CardDealt) and ev.street == 3):
            flush_third()
        if isinstance(ev, AntePosted):
            if ev.amount:
                out.append(
                    f"{names[ev.seat]}: posts the ante {amt(ev.amount)}"
                    + (_ALL_IN if ev.all_in else "")
                )
        elif isinstance(ev, CardDealt):
            if ev.street == 3:
                third.append(ev)
                continue
            assert ev.card is not None
            if ev.street != last_street:
                out.append(f"*** {STREET_TITLES[ev.street]} ***")
                last_street = ev.street
            s = ev.seat
            before = hand.cards[s][: ev.street - 1]
            if s in full:
                out.append(f"Dealt to {names[s]} [{format_cards(before)}] [{ev.card}]")
            elif ev.face_up:
                out.append(
                    f"Dealt to {names[s]} [{format_cards(up_cards(s, ev.street - 1))}] [{ev.card}]"
                )
        elif isinstance(ev, CommunityCardDealt):
            out.append(f"*** RIVER *** [{ev.card}]")
            last_street = 7
        elif isinstance(ev, ActionTaken):
            out.append(_action_line(hand, ev, names[ev.seat], amt))
            if ev.action.kind is ActionKind.FOLD:
                folded_street[ev.seat] = ev.street
        elif isinstance(ev, BetReturned):
            out.append(f"Uncalled bet ({amt(ev.amount)}) returned to {names[ev.seat]}")
        elif isinstance(ev, HandShown | HandMucked | PotAwarded):
            if showdown and not showdown_written:
                out.append("*** SHOW DOWN ***")
                showdown_written = True
            if isinstance(ev, HandShown):
                shown[ev.seat] = ev
                cards = format_cards(ev.cards)
                out.append(
                    f"{names[ev.seat]}: shows [{cards}] ({describe_show(game, ev.high, ev.low)})"
                )
            elif isinstance(ev, HandMucked):
                mucked.add(ev.seat)
                out.append(f"{names[ev.seat]}: mucks hand ")
            else:
                collected.append(ev)
    flush_third()
    pots = sorted({a.pot for a in collected})
    for award in sorted(collected, key=lambda a: -a.pot):
        if len(pots) <= 1 and award.pot == 0:
            label = "pot"
        elif award.pot == 0:
            label = "main pot"
        else:
            label = "side pot" if max(pots) == 1 else f"side pot-{award.pot}"
        out.append(f"{names[award.seat]} collected {amt(award.amount)} from {label}")
    if showdown and game.low == "eight_or_better" and not any(a.share == "low" for a in collected):
        out.append("No low hand qualified")
    if hand.is_over and not showdown:
        for s in live_at_end:
            out.append(f"{names[s]}: doesn't show hand ")
    out.append("*** SUMMARY ***")
    total = sum(a.amount for a in collected) + hand.rake
    pot_text = ""
    if len(pots) > 1:
        by_pot = Counter[int]()
        for a in collected:
            by_pot[a.pot] += a.amount
        parts = [f"Main pot {amt(by_pot[0])}."] + [
            f"Side pot{'' if max(pots) == 1 else f'-{p}'} {amt(by_pot[p])}." for p in pots if p
        ]
        pot_text = " " + " ".join(parts)
    out.append(f"Total pot {amt(total)}{pot_text} | Rake {amt(hand.rake)} ")
    if hand.community is not None:
        out.append(f"Board [{hand.community}]")
    won = Counter[int]()
    for a in collected:
        won[a.seat] += a.amount
    for s in range(n):
        line = f"Seat {numbers[s]}: {names[s]}"
        if s in folded_street:
            street = folded_street[s]
            bet = any(
                isinstance(ev, ActionTaken)
                and ev.seat == s
                and ev.street == street
                and ev.action.kind is not ActionKind.FOLD
                for ev in hand.events
            )
            line += f" folded on the {_STREET_WORDS[street]}" + (
                "" if bet or street != 3 else " (didn't bet)"
            )
        elif s in shown:
            ev = shown[s]
            result = f"won ({amt(won[s])})" if won[s] else "lost"
            described = describe_show(game, ev.high, ev.low)
            line += f" showed [{format_cards(ev.cards)}] and {result} with {described}"
        elif s in mucked:
            line += f" mucked [{format_cards(hand.cards[s])}]" if s in full else " mucked"
        elif won[s]:
            line += f" collected ({amt(won[s])})"
        out.append(line)
    return "\n".join(out) + "\n"


def _action_line(hand: Hand, ev: ActionTaken, name: str, amt: Any) -> str:
    action = ev.action
    kind = action.kind
    tail = _ALL_IN if ev.all_in else ""
    if kind is ActionKind.FOLD:
        return f"{name}: folds "
    if kind is ActionKind.CHECK:
        return f"{name}: checks "
    before = _street_state_before(hand, ev)
    assert action.amount is not None
    mine, current = before
    if kind is ActionKind.BRING_IN:
        return f"{name}: brings in for {amt(action.amount)}{tail}"
    if kind is ActionKind.CALL:
        return f"{name}: calls {amt(action.amount - mine)}{tail}"
    if current == 0:
        return f"{name}: bets {amt(action.amount - mine)}{tail}"
    return f"{name}: raises {amt(action.amount - current)} to {amt(action.amount)}{tail}"


def _street_state_before(hand: Hand, target: ActionTaken) -> tuple[int, int]:
    """The seat's street total and the highest street total just before ``target``."""
    bets: dict[int, int] = {}
    for ev in hand.events:
        if ev is target:
            break
        if (
            isinstance(ev, ActionTaken)
            and ev.street == target.street
            and ev.action.amount is not None
            and ev.action.kind in (ActionKind.BRING_IN, ActionKind.CALL, *_AGGRESSIVE_KINDS)
        ):
            bets[ev.seat] = ev.action.amount
    return bets.get(target.seat, 0), max(bets.values(), default=0)


# ---------------------------------------------------------------------------------- the command


def hand_record(file: str, item: PokerStarsHand | PokerStarsError) -> dict[str, Any]:
    """The JSON object ``sevenstud replay --json`` prints for one PokerStars hand."""
    if isinstance(item, PokerStarsError):
        return {
            "file": file,
            "hand_id": item.hand_id,
            "game": item.game,
            "ok": False,
            "error": item.located(),
            "line": item.line,
        }
    record: dict[str, Any] = {"file": file, "hand_id": item.hand_id, "game": item.game}
    try:
        played = play_pokerstars(item)
    except PokerStarsError as error:
        record.update(ok=False, error=error.located(), line=error.line)
        return record
    record["ok"] = True
    record["awards"] = [
        {"player": played.players[a.seat], "amount": a.amount, "pot": a.pot, "share": a.share}
        for a in played.hand.awards
    ]
    return record


def replay_file(path: Path, *, as_json: bool) -> tuple[int, int]:
    """Replay every stud hand of a PokerStars file, printing a verdict per hand (or a JSON object
    per line); returns (hands, failures). Other games are skipped and counted."""
    reader = read_hands(path)
    total = failures = 0
    try:
        for item in reader:
            total += 1
            record = hand_record(str(path), item)
            if not record["ok"]:
                failures += 1
            if as_json:
                print(json.dumps(record, ensure_ascii=False))
            elif record["ok"]:
                won = ", ".join(
                    f"{a['player']} {a['amount']}"
                    + ("" if a["share"] == "whole" else f" ({a['share']})")
                    for a in record["awards"]
                )
                print(f"{path}: hand #{record['hand_id']} ({record['game']}): ok; {won}")
            else:
                print(
                    f"{path}: hand #{record['hand_id']} ({record['game']}): ERROR {record['error']}"
                )
    except NotPokerStarsError as error:
        if not as_json:
            print(f"{path}: skipped, {error.reason}")
        return total, failures
    except OSError as error:
        failures += 1
        total += 1
        if as_json:
            print(
                json.dumps(
                    {
                        "file": str(path),
                        "hand_id": None,
                        "game": None,
                        "ok": False,
                        "error": str(error),
                    }
                )
            )
        else:
            print(f"{path}: ERROR {error}")
        return total, failures
    if not as_json and reader.skipped:
        games = ", ".join(f"{count} {name}" for name, count in reader.skipped_games.most_common())
        print(f"{path}: {reader.skipped} hand(s) of other games skipped ({games})")
    return total, failures


def is_phh_path(path: Path) -> bool:
    """Whether ``sevenstud replay`` reads the file as PHH: by its ending, else by its content."""
    if path.suffix in (".phh", ".phhs"):
        return True
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            for line in f:
                if line.strip():
                    return not looks_like_pokerstars(line) and bool(
                        re.match(r"\s*(variant\s*=|\[\d+\])", line)
                    )
    except OSError:
        return False
    return False
