"""The one reader of the card rooms' text hand histories (PokerStars, Full Tilt, Americas
Cardroom): the file decoded line by line, cut into hands at their header lines, each hand read on
its own so that one bad hand is reported and the next is read, hands of other games counted, the
bring-in carried from an earlier hand at the same stakes to a hand whose bring-in player completed
at once (its text shows no bring-in); and the line parser of one hand, which reads the lines every
room writes alike (seats, street marks, deals, betting, returned bets, the summary's seats) from
its :class:`ReadingDialect`: the room's words for them.

A room's module (:mod:`.pokerstars`, :mod:`.fulltilt`, :mod:`.acr`) gives its dialect record, its
header parser and, in a subclass of :class:`LineParser`, only the lines that are its own.
"""

from __future__ import annotations

import dataclasses
import io
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, ClassVar, Generic, NoReturn, Protocol, TypeVar

from sevenstud.cards import Card
from sevenstud.games import GameCode
from sevenstud.history.text.model import (
    STREET_WORDS,
    Ante,
    BadCards,
    BetLine,
    BetVerb,
    Deal,
    Event,
    NoLow,
    PokerStarsError,
    PokerStarsHand,
    Returned,
    Seat,
    ShowdownMark,
    StreetMark,
    bracketed,
    card_list,
    chips,
)

__all__ = [
    "Header",
    "LineParser",
    "ReadHand",
    "ReadingDialect",
    "TextHistoryReader",
    "decoded_lines",
    "level_number",
]


class ReadHand(Protocol):
    """What the shared reader asks of a hand read (a dataclass: the hint is set by replace)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def small_bet(self) -> int: ...

    @property
    def big_bet(self) -> int: ...

    @property
    def ante(self) -> int: ...

    @property
    def bring_in(self) -> int | None: ...


Hand_ = TypeVar("Hand_", bound=ReadHand)


@dataclasses.dataclass(frozen=True, slots=True)
class Header:
    """What a hand's header line says (``game`` None: a game other than our three)."""

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
    table: str | None = None
    max_seats: int | None = None


@dataclasses.dataclass(frozen=True)
class ReadingDialect:
    """How one card room writes the lines every room writes: its words, as patterns, and the
    forms named in its error messages."""

    room: str
    """The room's name, as an error says it (``a Full Tilt hand history``)."""
    error: type[PokerStarsError]
    header: re.Pattern[str]
    """A hand's header line (``match``)."""
    header_form: str
    """The header named where a file opens with another line: ``'PokerStars Hand #...'``."""
    street_marks: dict[int, str]
    """``3rd STREET`` ... as written between ``*** `` and `` ***`` (7: the last street)."""
    seat: re.Pattern[str]
    """``Seat N: PLAYER (STACK...)...``: groups number, name, stack, the rest."""
    seat_form: str
    uncalled: re.Pattern[str]
    """A bet returned: groups amount, player."""
    uncalled_form: str
    actor: str
    """What follows a player's name on an action line (``": "`` or ``" "``)."""
    all_in: re.Pattern[str]
    """The ending of an all-in action (``search``; removed before the verb is read)."""
    verbs: dict[str, re.Pattern[str]]
    """``ante``, ``bring-in``, ``bet``, ``call``, ``raise`` (``fullmatch``): the amount's group
    ``amount``; a raise's ``to`` (the street total) with ``by`` (by how much it raises) or ``put``
    (what goes in now), or alone."""
    other_games: tuple[str, ...]
    """Actions that belong to another game: a hand holding one is refused."""
    action_words: tuple[str, ...] | None
    """An action starting with one of these that no verb reads is refused; ``None``: every
    action but a notice (:attr:`notices`) is refused."""
    notices: tuple[str, ...]
    actions_form: str
    """The actions listed where an unknown one is refused."""
    stranger: re.Pattern[str]
    """An action line of a player no seat holds (``match``), refused before the summary."""
    total_form: str
    """The summary's total line as an error names it."""
    other_marks: dict[str, int] = dataclasses.field(default_factory=dict)
    """Other street marks the room has written (PokerStars' ``7th STREET`` before ``RIVER``)."""
    amount_example: str = "$0.04 or 150"
    no_low: bool = True
    """Whether ``No low hand qualified`` is a line of the room's."""

    def marks(self) -> dict[str, int]:
        """The street marks read, without regard to case: ``{"3rd street": 3, ...}``."""
        marks = {**{mark: street for street, mark in self.street_marks.items()}, **self.other_marks}
        return {mark.lower(): street for mark, street in marks.items()}


_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def level_number(text: str) -> int | None:
    """A tournament level as a header writes it, in digits or Roman numerals (``XIV``: 14);
    ``None`` for anything else.

    >>> level_number("IV"), level_number("12"), level_number("Level")
    (4, 12, None)
    """
    if text.isdigit():
        return int(text)
    if not text or any(c not in _ROMAN for c in text):
        return None
    values = [_ROMAN[c] for c in text]
    # A numeral smaller than the one after it is subtracted (IV is 4).
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


def decoded_lines(source: str | Path | IO[str]) -> Iterator[tuple[int, str]]:
    """Numbered lines without their endings: UTF-16 when the file starts with its byte-order
    mark, else UTF-8 line by line with Windows-1252 for a line that is not UTF-8 (card rooms'
    clients wrote both; a player's name is where it shows). An open text stream is read as is."""
    if not isinstance(source, str | Path):
        for number, line in enumerate(source, start=1):
            yield number, line.rstrip("\r\n")
        return
    with open(source, "rb") as raw:
        start = raw.read(2)
        raw.seek(0)
        if start in (b"\xff\xfe", b"\xfe\xff"):
            with io.TextIOWrapper(raw, encoding="utf-16", errors="replace", newline=None) as text:
                for number, line in enumerate(text, start=1):
                    yield number, line.rstrip("\r\n")
            return
        for number, data in enumerate(raw, start=1):
            try:
                line = data.decode("utf-8")
            except UnicodeDecodeError:
                line = data.decode("cp1252", errors="replace")
            yield number, line.rstrip("\r\n")


class LineParser:
    """Reads the lines of one hand, from its header up to the next header, in the words of
    :attr:`dialect`; a room's subclass reads its own lines (:meth:`own_line`, :meth:`actor_line`,
    :meth:`show`, :meth:`muck`, :meth:`collect`, :meth:`total_line`) and makes the hand
    (:meth:`made`)."""

    dialect: ClassVar[ReadingDialect]

    def __init__(self, file: str, head: Header, header_text: str, first_line: int) -> None:
        self.file = file
        self.head = head
        self.header_text = header_text
        self.first_line = first_line
        self.table = head.table
        self.max_seats = head.max_seats
        self.seats: list[Seat] = []
        self.names: list[str] = []  # longest first, so that "Hero2" is not read as "Hero"
        self.events: list[Event] = []
        self.street = 0  # 0 before 3rd street; 3..7; 8 at the showdown; 9 in the summary
        self.bets: dict[str, int] = {}  # each player's total on this street
        self.total: tuple[int, int, int] | None = None  # the pot, the rake, the line
        self.revealed: list[tuple[int, str, tuple[Card, ...]]] = []
        self.last_line = first_line
        self.marks = self.dialect.marks()

    def fail(self, reason: str, line: int) -> NoReturn:
        raise self.dialect.error(reason, line=line)

    def amount(self, text: str, line: int) -> int:
        return chips(text, self.head.money, line, self.dialect.error, self.dialect.amount_example)

    def who(self, text: str, separator: str = " ") -> tuple[str, str] | None:
        """The seated player whose name starts ``text`` before ``separator``, and the rest."""
        for name in self.names:
            if text.startswith(name + separator):
                return name, text[len(name) + len(separator) :]
        return None

    def cards(self, text: str, line: int) -> tuple[Card, ...]:
        """Every card of ``"[Kc 4d] [Qd]"``, in order."""
        return tuple(c for group in bracketed(text, line) for c in group)

    def feed(self, number: int, text: str) -> None:
        """Read one line of the hand (``number``: its line in the file)."""
        if not text:
            return
        self.last_line = number
        try:
            self.line(number, text)
        except BadCards as error:
            raise self.dialect.error(f"{error.reason}, in {text!r}", line=number) from None

    def line(self, number: int, text: str) -> None:
        dialect = self.dialect
        if self.own_line(number, text):
            return
        if text.startswith("*** "):
            self.section(number, text)
        elif text.startswith("Seat ") and self.street in (0, 9):
            if self.street == 0:
                self.seat(number, text)
            else:
                self.summary_seat(number, text)
        elif text.startswith("Dealt to "):
            self.deal(number, text)
        elif text.startswith("Uncalled bet "):
            m = dialect.uncalled.match(text)
            if m is None or m.group(2) not in self.names:
                self.fail(f"expected {dialect.uncalled_form!r}, not {text!r}", number)
            self.events.append(Returned(number, m.group(2), self.amount(m.group(1), number)))
        elif self.street == 9 and text.startswith("Total pot "):
            self.total_line(number, text)
        elif dialect.no_low and text == "No low hand qualified":
            self.events.append(NoLow(number))
        elif self.actor_line(number, text):
            return
        elif self.street < 9 and self.seats and (m := dialect.stranger.match(text)) is not None:
            self.fail(
                f"no seat holds the player who acts in {text!r} (expected one of the seated "
                f"players, not {m.group(1)!r})",
                number,
            )
        else:
            self.other_line(number, text)

    # -- what a room says in its own way

    def own_line(self, number: int, text: str) -> bool:
        """Read a line only this room writes, before any other (whether it was one)."""
        return False

    def actor_line(self, number: int, text: str) -> bool:
        """Read a line that starts with a seated player's name (whether it was one)."""
        found = self.who(text, self.dialect.actor)
        if found is None:
            return False
        self.action(number, found[0], found[1].strip())
        return True

    def other_line(self, number: int, text: str) -> None:
        """A line nothing else reads: a table notice or chat, by default."""

    def total_line(self, number: int, text: str) -> None:
        """``Total pot X | Rake Y``: sets :attr:`total`."""
        raise NotImplementedError

    def show(self, number: int, player: str, body: str) -> None:
        """``shows ...``."""
        raise NotImplementedError

    def muck(self, number: int, player: str, body: str) -> bool:
        """A hand mucked or not shown (whether ``body`` says so)."""
        raise NotImplementedError

    def collect(self, number: int, player: str, body: str) -> bool:
        """A pot won on an action line (whether ``body`` says so)."""
        return False

    def made(self, fields: dict[str, Any]) -> PokerStarsHand:
        """The hand, from the fields every room's hand has."""
        return PokerStarsHand(**fields)

    # -- the lines every room writes

    def section(self, number: int, text: str) -> None:
        marks = self.dialect.street_marks
        title, _, tail = text[4:].partition(" ***")
        title = title.strip()
        if title.lower() in self.marks:
            street = self.marks[title.lower()]
            expected = 3 if self.street == 0 else self.street + 1
            if self.street >= 8 or street != expected:
                want = f"*** {marks[expected]} ***" if expected <= 7 else "the showdown or the summary"
                self.fail(f"{text!r} is out of order (expected {want})", number)
            if not self.seats:
                self.fail(f"3rd street before any {self.dialect.seat_form!r} line", number)
            community: Card | None = None
            if street == 7 and tail.strip().startswith("["):  # the community card: the deck ran out
                groups = bracketed(tail, number)
                if len(groups) != 1 or len(groups[0]) != 1:
                    self.fail(
                        f"expected '*** {marks[7]} ***' or '*** {marks[7]} *** [Xx]' (one community card)",
                        number,
                    )
                community = groups[0][0]
            self.street = street
            self.bets = {}
            self.events.append(StreetMark(number, street, community))
        elif title == "SHOW DOWN":
            if not 3 <= self.street <= 7:
                self.fail("'*** SHOW DOWN ***' is out of order (expected it after the last street)", number)
            self.street = 8
            self.events.append(ShowdownMark(number))
        elif title == "SUMMARY":
            if self.street < 3:
                self.fail("'*** SUMMARY ***' before 3rd street (expected the deal first)", number)
            self.street = 9
        else:
            self.fail(
                f"{text!r} is not a stud section (expected '*** {marks[3]} ***' to "
                f"'*** {marks[7]} ***', '*** SHOW DOWN ***' or '*** SUMMARY ***')",
                number,
            )

    def seat(self, number: int, text: str) -> None:
        m = self.dialect.seat.match(text)
        if m is None:
            self.fail(f"expected {self.dialect.seat_form!r}, not {text!r}", number)
        name = m.group(2)
        if name in self.names:
            self.fail(f"two seats hold a player named {name!r}", number)
        stack = self.amount(m.group(3), number)
        self.seats.append(Seat(int(m.group(1)), name, stack, number, "sitting out" in m.group(4)))
        self.names = sorted((s.name for s in self.seats), key=len, reverse=True)

    def summary_seat(self, number: int, text: str) -> tuple[str, str] | None:
        """A summary's seat line: the cards it shows are kept; the player and the rest."""
        found = self.who(text.split(": ", 1)[1] if ": " in text else "")
        if found is not None:
            m = re.search(r"\b(?:showed|mucked) \[([^\]]*)\]", found[1])
            if m:
                self.revealed.append((number, found[0], card_list(m.group(1), number)))
        return found

    def deal(self, number: int, text: str) -> None:
        found = self.who(text[len("Dealt to ") :])
        if found is None:
            self.fail(f"expected 'Dealt to PLAYER [cards]' with a seated player, not {text!r}", number)
        if not 3 <= self.street <= 7:
            self.fail(
                f"cards dealt outside the streets (expected them after "
                f"'*** {self.dialect.street_marks[3]} ***')",
                number,
            )
        cards = self.cards(found[1], number)
        if not cards:
            self.fail("expected the cards dealt, e.g. 'Dealt to PLAYER [Kc] [4d]'", number)
        self.events.append(Deal(number, self.street, found[0], cards))

    def action(self, number: int, player: str, rest: str) -> None:
        dialect = self.dialect
        all_in = dialect.all_in.search(rest) is not None
        body = dialect.all_in.sub("", rest)
        street = self.street
        mine = self.bets.get(player, 0)
        current = max(self.bets.values(), default=0)

        def betting(verb: BetVerb, amount: int | None = None, to: int | None = None) -> None:
            if not 3 <= street <= 7:
                self.fail(
                    f"a betting action outside the streets: {rest!r} (expected it on 3rd to 7th street)",
                    number,
                )
            self.events.append(BetLine(number, street, player, verb, amount, to, all_in))

        verb, m = next(
            ((verb, m) for verb, pattern in dialect.verbs.items() if (m := pattern.fullmatch(body))),
            (None, None),
        )
        if verb == "ante" and m is not None:
            if street != 0:
                self.fail(
                    f"an ante after the deal (expected antes before '*** {dialect.street_marks[3]} ***')",
                    number,
                )
            self.events.append(Ante(number, player, self.amount(m.group("amount"), number), all_in))
        elif verb in ("bring-in", "bet", "call") and m is not None:
            amount = self.amount(m.group("amount"), number)
            betting("bring-in" if verb == "bring-in" else "bet" if verb == "bet" else "call", amount)
            self.bets[player] = amount if verb == "bring-in" else mine + amount
        elif verb == "raise" and m is not None:
            to = self.amount(m.group("to"), number)
            groups = m.groupdict()
            if groups.get("by") is not None:  # by how much, then the street total: as written
                betting("raise", self.amount(groups["by"], number), to)
            else:
                if groups.get("put") is not None and self.amount(groups["put"], number) != to - mine:
                    self.fail(
                        f"{player} raises {groups['put']} to {m.group('to')}, but had {mine} in on this "
                        f"street (expected 'raises {to - mine} to {to}': what goes in now, then the "
                        f"street total)",
                        number,
                    )
                if current == 0:  # a forced player who completes at once, or a bet
                    betting("bet", to - mine)
                else:
                    betting("raise", to - current, to)
            self.bets[player] = to
        elif body == "checks":
            betting("check")
        elif body == "folds" or body.startswith("folds ["):
            betting("fold")
        elif body.startswith("shows "):
            self.show(number, player, body)
        elif self.muck(number, player, body) or self.collect(number, player, body):
            return
        elif body.startswith(dialect.other_games):
            self.fail(f"{rest!r} belongs to another game, not stud", number)
        elif (
            not body.startswith(dialect.notices)
            if dialect.action_words is None
            else body.startswith(dialect.action_words)
        ):
            self.fail(f"unknown action {rest!r} (expected {dialect.actions_form})", number)
        # Otherwise a notice: "has timed out", "is disconnected", "sits out", ...

    def finish(self) -> PokerStarsHand:
        """The hand read, or the room's error for a hand cut short."""
        head = self.head
        assert head.game is not None
        if self.street != 9 or self.total is None:
            where = {0: "in the seats and antes", 8: "at the showdown", 9: "in the summary"}
            if 3 <= self.street <= 7:
                where[self.street] = f"on {STREET_WORDS[self.street]}"
            missing = "'*** SUMMARY ***'" if self.street != 9 else repr(self.dialect.total_form)
            self.fail(
                f"hand #{head.hand_id} stops after this line, {where[self.street]}: expected the "
                f"rest of the hand up to {missing} (the history looks truncated)",
                self.last_line,
            )
        if not self.seats:
            self.fail(f"the hand has no {self.dialect.seat_form!r} lines", self.first_line)
        total, rake, total_line = self.total
        return self.made(
            dict(
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
                end_line=self.last_line,
            )
        )


class TextHistoryReader(Generic[Hand_]):
    """Iterate the stud hands of one room's history, one at a time, without loading the file.

    Each item is a hand, or a :class:`PokerStarsError` (the room's own subclass) for a hand that
    cannot be read; the reader then goes on with the next hand. Hands of other games are
    counted in :attr:`skipped` (by game in :attr:`skipped_games`); :attr:`read` and
    :attr:`failed` count the rest. A file whose first line with text does not open a hand
    raises the room's "not this room's history" error (:attr:`not_ours`) at once.
    """

    parser: ClassVar[type[LineParser]]
    """The room's line parser (its :attr:`LineParser.dialect` is the room's)."""
    not_ours: ClassVar[type[PokerStarsError]]

    def __init__(self, source: str | Path | IO[str], name: str | None = None) -> None:
        self.source = source
        self.name = (
            name if name is not None else (str(source) if isinstance(source, str | Path) else "<text>")
        )
        self.skipped = 0
        self.skipped_games: Counter[str] = Counter()
        self.read = 0
        self.failed = 0
        self._bring_ins: dict[tuple[int, int, int], int] = {}

    @staticmethod
    def header_of(text: str, line: int) -> Header:
        """The room's header line (at ``line``) read, or its error naming what is wrong."""
        raise NotImplementedError

    def _opens_hand(self, text: str, in_hand: bool) -> bool:
        """Whether ``text`` is a hand's header line (``in_hand``: a hand is being read)."""
        return self.parser.dialect.header.match(text) is not None

    def __iter__(self) -> Iterator[Hand_ | PokerStarsError]:
        chunk: list[tuple[int, str]] = []
        for number, line in decoded_lines(self.source):
            text = line.replace("\ufeff", "").rstrip()
            if self._opens_hand(text, bool(chunk)):
                if chunk:
                    yield from self._hand(chunk)
                chunk = [(number, text)]
            elif chunk:
                chunk.append((number, text))
            elif text.strip():
                dialect = self.parser.dialect
                raise self.not_ours(
                    f"not {dialect.room} hand history: it starts {text.strip()[:60]!r} "
                    f"(expected {dialect.header_form})",
                    line=number,
                    file=self.name,
                )
        if chunk:
            yield from self._hand(chunk)

    def _hand(self, chunk: list[tuple[int, str]]) -> Iterator[Hand_ | PokerStarsError]:
        number, text = chunk[0]
        head: Header | None = None
        try:
            head = self.header_of(text, number)
            if head.game is None:
                self.skipped += 1
                self.skipped_games[head.game_text] += 1
                return
            parser = self.parser(self.name, head, text, number)
            for n, line in chunk[1:]:
                parser.feed(n, line)
            hand: Any = parser.finish()
        except PokerStarsError as error:
            self.failed += 1
            error.file = self.name
            if head is not None:
                error.hand_id, error.game = head.hand_id, head.game
            yield error
            return
        self.read += 1
        key = (hand.small_bet, hand.big_bet, hand.ante)
        if hand.bring_in is not None:
            self._bring_ins[key] = hand.bring_in
        elif key in self._bring_ins:
            hand = dataclasses.replace(hand, bring_in_hint=self._bring_ins[key])
        yield hand

    def hands(self) -> Iterator[Hand_]:
        """Only the hands read, raising the first error."""
        for item in self:
            if isinstance(item, PokerStarsError):
                raise item
            yield item
