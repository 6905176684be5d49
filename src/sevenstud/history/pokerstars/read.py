"""Reading PokerStars text: the header, the line parser of one hand, and the streaming
:class:`HandReader`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import IO, NoReturn

from sevenstud.cards import Card, MalformedCardError
from sevenstud.games import GameCode
from sevenstud.history.pokerstars.model import (
    _ALL_IN,
    _AMOUNT,
    _STREET_WORDS,
    STREET_TITLES,
    Ante,
    BetLine,
    BetVerb,
    Collect,
    Deal,
    Event,
    Muck,
    NoLow,
    NotPokerStarsError,
    PokerStarsError,
    PokerStarsHand,
    Returned,
    Seat,
    Show,
    ShowdownMark,
    StreetMark,
    _chips,
)
from sevenstud.history.text_reader import TextHistoryReader


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
_STAKES = re.compile(r"\(([^()]*?,\s*)?([$€£]?)([0-9][0-9,.]*)/[$€£]?([0-9][0-9,.]*)(?:\s+([A-Z]{3}))?\)")
_DATE = re.compile(r"(\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{2}:\d{2})(?: ([A-Z]{2,4}))?")
_TOURNAMENT = re.compile(r"\bTournament #(\d+)", re.IGNORECASE)
_LEVEL = re.compile(r"\bLevel ([IVXLC]+)\b")
_BUY_IN = re.compile(
    r"\bTournament #\d+, ((?:[$€£]?[0-9][0-9.]*(?:\+[$€£]?[0-9][0-9.]*)+(?: [A-Z]{3})?)|Freeroll) ",
    re.IGNORECASE,
)
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def _level_of(text: str) -> int | None:
    """The level of a tournament header in the card room's Roman numerals (``Level XIV``)."""
    m = _LEVEL.search(text)
    if m is None:
        return None
    values = [_ROMAN[c] for c in m.group(1)]
    # A numeral smaller than the one after it is subtracted (IV is 4).
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


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
    level: int | None = None
    buy_in: str | None = None


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
        _level_of(rest) if tour else None,
        buy.group(1) if (buy := _BUY_IN.search(rest)) else None,
    )


def looks_like_pokerstars(first_line: str) -> bool:
    """Whether a line is a PokerStars hand header."""
    return _HEADER.match(first_line.lstrip("\ufeff").strip()) is not None


# ---------------------------------------------------------------------------------- one hand

_SEAT = re.compile(r"^Seat (\d+): (.+) \(([^()]*?) in chips[^()]*\)(.*)$")
_TABLE = re.compile(r"^Table '(.*)' (\d+)-max")
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
        self.pots: tuple[int, ...] = ()
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
                self.fail(f"expected 'Uncalled bet (AMOUNT) returned to PLAYER', not {text!r}", number)
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
                self.fail("expected '*** RIVER ***' or '*** RIVER *** [Xx]' (one community card)", number)
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
                    f"*** {STREET_TITLES[expected]} ***" if expected <= 7 else "the showdown or the summary"
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
        self.pots = tuple(
            self.amount(amount, number)
            for amount in re.findall(r"(?:Main|Side) pot(?:-\d+)? (" + _AMOUNT + r")\.", m.group(2))
        )

    # -- lines about one player

    def deal(self, number: int, text: str) -> None:
        found = self.who(text[len("Dealt to ") :], " ")
        if found is None:
            self.fail(f"expected 'Dealt to PLAYER [cards]' with a seated player, not {text!r}", number)
        if not 3 <= self.street <= 7:
            self.fail("cards dealt outside the streets (expected them after '*** 3rd STREET ***')", number)
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
                    f"a betting action outside the streets: {rest!r} (expected it on 3rd to 7th street)",
                    number,
                )
            self.events.append(BetLine(number, street, player, verb, amount, to, all_in))

        if m := _ANTE_RE.fullmatch(body):
            if street != 0:
                self.fail("an ante after the deal (expected antes before '*** 3rd STREET ***')", number)
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
            self.fail(f"expected 'PLAYER collected AMOUNT from pot', not {player + ' ' + rest!r}", number)
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
            level=head.level,
            buy_in=head.buy_in,
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
            pots=self.pots,
            end_line=self.last_line,
        )


# ---------------------------------------------------------------------------------- the reader


class HandReader(TextHistoryReader[PokerStarsHand, _Header]):
    """Iterate the stud hands of a PokerStars history, one at a time, without loading the file.

    Each item is a :class:`PokerStarsHand`, or a :class:`PokerStarsError` for a hand that cannot
    be read (the reader then goes on with the next hand). Hands of other games are skipped and
    counted in :attr:`skipped` (by game in :attr:`skipped_games`). A file that is not a PokerStars
    history raises :class:`NotPokerStarsError` as soon as its first line is read. (The file loop
    is :class:`~sevenstud.history.text_reader.TextHistoryReader`'s.)
    """

    def _opens_hand(self, text: str, in_hand: bool) -> bool:
        return _HEADER.match(text) is not None

    def _not_ours(self, text: str, number: int) -> PokerStarsError:
        return NotPokerStarsError(
            f"not a PokerStars hand history: it starts {text.strip()[:60]!r} "
            "(expected 'PokerStars Hand #...' or 'PokerStars Game #...')"
        )

    def _header(self, text: str, number: int) -> _Header:
        return _parse_header(text, number)

    def _parser(self, head: _Header, text: str, number: int) -> _HandParser:
        return _HandParser(self.name, head, text, number)


def read_hands(source: str | Path | IO[str], name: str | None = None) -> HandReader:
    """A :class:`HandReader` over a file name, a path or an open text stream."""
    return HandReader(source, name)
