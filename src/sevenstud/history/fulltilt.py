"""Full Tilt Poker text hand histories of Stud Hi/Lo, Stud and Razz: read, replay, write.

**Reading** streams like the PokerStars reader: :func:`read_fulltilt` returns a
:class:`FullTiltReader` that yields one hand at a time, or a :class:`FullTiltError` naming the
file and the line for a hand it cannot read (and then goes on with the next one). Hands of the
other games of a mixed-game session (hold'em, Omaha, draw, badugi) are skipped and counted in
:attr:`FullTiltReader.skipped`. UTF-16 files (Full Tilt wrote its sessions so), byte-order marks
and CRLF line endings are read as they come.

A hand is read into the same lines-of-a-hand model as a PokerStars hand
(:class:`~sevenstud.history.pokerstars.PokerStarsHand`), so **replaying** it
(:func:`play_fulltilt`) is the PokerStars replayer's work: the deck is rebuilt from every card the
file shows, every action, returned bet, shown hand and amount won is checked against our engine,
and the first line where they differ is named. **Writing** (:func:`format_fulltilt`) turns any
hand of ours into Full Tilt text that :func:`read_fulltilt` reads back into the same hand.

What Full Tilt writes differently from PokerStars (seen in its real files):

* the header names the table, then ``small/big Ante A``, then ``Limit Stud H/L``, ``Limit Stud
  Hi`` or ``Limit Razz``; a tournament's header starts with its buy-in and name and its number in
  parentheses (``$2 + $0.10 Heads Up Sit & Go (220338000), Table 1 - 80/160 Ante 15 - ...``);
  table names may hold underscores and ``(6 max)``;
* actions have no colon (``Hero bets $2``, ``Hero completes it to $2``, ``Hero raises to $10``:
  the street total), an all-in ends ``, and is all in``, and a line ``NAME: text`` is chat;
* an ante that nobody can match (a player all in on the ante for less) is returned before the
  deal, ``Uncalled bet of 1 returned to Hero``; a player may be all in on the bring-in;
* ``Dealt to`` lines show the cards seen so far, then the new card; the 7th-street card of a
  player whose cards are hidden has no line;
* a showdown may list the down cards in another order than they were dealt (``Dealt to Hero [9h
  9s] [5c]``, then ``Hero shows [9s 9h 5c 3s Kh 5d 8s]``): they are matched as a set to the cards
  dealt, and the dealt order is kept;
* the winner is written ``Hero wins the pot ($10.90)``, or ``wins the high main pot``, ``wins
  the low side pot`` and the like; the amounts won add up to ``Total pot`` minus ``Rake``;
* shown hands are described ``three of a kind, Nines``, ``Ace Queen high``, ``two pair, Kings
  and Jacks, for high and 8,7,6,3,2, for low`` and, in razz, ``J,T,6,5,2``.

>>> from sevenstud.deck import Deck
>>> from sevenstud.games import Razz, Stakes
>>> from sevenstud.hand import Hand
>>> hand = Hand(Razz(Stakes(1, 2, 5, 10)), [100, 100], Deck.seeded(7))
>>> _ = hand.act("bring-in"); _ = hand.act("fold")
>>> text = format_fulltilt(hand, players=["Ann", "Bob"], hand_id=1)
>>> print(text.splitlines()[0])
Full Tilt Poker Game #1: Table sevenstud - 5/10 Ante 1 - Limit Razz - 00:00:00 ET - 2024/01/01
>>> (parsed,) = read_fulltilt(io.StringIO(text))
>>> play_fulltilt(parsed).hand.stacks == hand.stacks
True
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import IO, NoReturn

from sevenstud.cards import Card, MalformedCardError
from sevenstud.games import Game, GameCode, GameError, Stakes, game_by_name, game_class
from sevenstud.history.fulltilt_write import GAME_TITLES, STREET_ORDINALS, format_fulltilt
from sevenstud.history.pokerstars import (
    Ante,
    BetLine,
    BetVerb,
    Collect,
    Deal,
    Event,
    Muck,
    NoLow,
    PlayedHand,
    PokerStarsError,
    PokerStarsHand,
    Returned,
    Seat,
    Show,
    ShowdownMark,
    StreetMark,
    play_pokerstars,
)
from sevenstud.history.text_reader import TextHistoryReader

__all__ = [
    "GAME_TITLES",
    "FullTiltError",
    "FullTiltReader",
    "NotFullTiltError",
    "format_fulltilt",
    "fulltilt_game",
    "looks_like_fulltilt",
    "play_fulltilt",
    "read_fulltilt",
]


class FullTiltError(PokerStarsError):
    """A Full Tilt history we cannot read; ``str()`` reads ``FILE, line N: what is wrong``."""


class NotFullTiltError(FullTiltError):
    """The file is not a Full Tilt hand history (its first line is no Full Tilt header)."""


# ---------------------------------------------------------------------------------- the header

_HEADER = re.compile(r"^Full Tilt Poker Game #(\d+):\s*(.*)$")
_AMOUNT = r"[$€£]?[0-9][0-9,]*(?:\.[0-9]+)?"
_SYMBOLS = "$€£"
_STAKES = re.compile(
    r"(?:^| - )([$€£]?)([0-9][0-9,.]*)/[$€£]?([0-9][0-9,.]*)(?: Ante ([$€£]?[0-9][0-9,.]*))?"
    r"(?: - |$)"
)
_GAME = re.compile(r" - (No Limit|Pot Limit|Limit) ([^\[]+?)(?: - |$)")
_TABLE = re.compile(r"(?:^|, )Table (.+?)(?: \((\d+) max\))?(?: \([^()]*\))? - ")
_TOURNAMENT = re.compile(r"\((\d+)\), Table ")
_BUY_IN = re.compile(r"^([$€£])([0-9][0-9.,]*)(?: \+ [$€£]?([0-9][0-9.,]*))? .*\(\d+\), Table ")
_CURRENCY_OF = {"$": "USD", "€": "EUR", "£": "GBP"}
_DATE = re.compile(r"(\d{1,2}:\d{2}:\d{2}) ([A-Z]{2,4}) - (\d{4}/\d{1,2}/\d{1,2})")
_STUD_GAMES: dict[str, GameCode] = {
    "stud h/l": "stud8",
    "stud hi/lo": "stud8",
    "stud 8": "stud8",
    "stud hi": "stud",
    "stud": "stud",
    "razz": "razz",
}


@dataclasses.dataclass(frozen=True, slots=True)
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
    table: str | None
    max_seats: int | None
    date: str | None
    buy_in: str | None = None


def _buy_in(rest: str) -> str | None:
    """A tournament's buy-in (``$2 + $0.10 Heads Up Sit & Go (N), Table 1``) as PokerStars
    writes one, ``$2+$0.10 USD``; a header that names no fee (``$200 Heads-Up Sit & Go``)
    gives ``+$0``."""
    m = _BUY_IN.match(rest)
    if m is None:
        return None
    symbol, amount, fee = m.group(1), m.group(2).replace(",", ""), (m.group(3) or "0").replace(",", "")
    return f"{symbol}{amount}+{symbol}{fee} {_CURRENCY_OF[symbol]}"


def _chips(text: str, money: bool, line: int) -> int:
    """``"$0.40"`` -> 40 (cents) for money, ``"1,500"`` -> 1500 for chips."""
    raw = text.strip().lstrip(_SYMBOLS).replace(",", "")
    if not re.fullmatch(r"[0-9]+(?:\.[0-9]+)?", raw):
        raise FullTiltError(f"{text!r} is not an amount (expected e.g. $0.40 or 150)", line=line)
    whole, _, fraction = raw.partition(".")
    if money:
        fraction = fraction.rstrip("0")
        if len(fraction) > 2:
            raise FullTiltError(f"{text!r} is not a whole number of cents", line=line)
        return int(whole) * 100 + int(fraction.ljust(2, "0"))
    if fraction.strip("0"):
        raise FullTiltError(f"{text!r} is not a whole number of chips", line=line)
    return int(whole)


def _parse_header(text: str, line: int) -> _Header:
    m = _HEADER.match(text)
    assert m is not None  # the caller matched it
    hand_id, rest = m.group(1), m.group(2)
    game_m = _GAME.search(rest)
    game_text = " ".join(game_m.groups()) if game_m else rest
    game: GameCode | None = None
    if game_m is not None and game_m.group(1) == "Limit":
        game = _STUD_GAMES.get(game_m.group(2).strip().lower())
    date_m = _DATE.findall(rest)
    date = None
    if date_m:
        clock, zone, day = date_m[-1]  # the last is Full Tilt's own ET time when there are two
        date = f"{day} {clock} {zone}"
    table_m = _TABLE.search(rest)
    tour = _TOURNAMENT.search(rest)
    table = table_m.group(1) if table_m else None
    max_seats = int(table_m.group(2)) if table_m and table_m.group(2) else None
    if game is None:
        return _Header(hand_id, None, game_text, False, None, "$", 0, 0, None, table, None, date)
    stakes = _STAKES.search(rest)
    if stakes is None:
        raise FullTiltError(
            "the header names no stakes (expected e.g. '$2/$4 Ante $0.40' or '80/160 Ante 15')",
            line=line,
            hand_id=hand_id,
            game=game,
        )
    symbol = stakes.group(1)
    money = tour is None and bool(symbol)
    return _Header(
        hand_id=hand_id,
        game=game,
        game_text=game_text,
        money=money,
        currency=_CURRENCY_OF.get(symbol) if money else None,
        symbol=symbol or "$",
        small_bet=_chips(stakes.group(2), money, line),
        big_bet=_chips(stakes.group(3), money, line),
        tournament=tour.group(1) if tour else None,
        table=table,
        max_seats=max_seats,
        date=date,
        buy_in=_buy_in(rest) if tour else None,
    )


def looks_like_fulltilt(first_line: str) -> bool:
    """Whether a line is a Full Tilt hand header (``Full Tilt Poker Game #N: ...``)."""
    return _HEADER.match(first_line.lstrip("\ufeff").strip()) is not None


# ---------------------------------------------------------------------------------- one hand

_SEAT = re.compile(r"^Seat (\d+): (.+) \((" + _AMOUNT + r")\)(.*)$")
_STREET = re.compile(r"^\*\*\* (3RD|4TH|5TH|6TH|7TH) STREET \*\*\*(.*)$")
_ALL_IN = re.compile(r",? and is all in$")
_UNCALLED = re.compile(r"^Uncalled bet of (" + _AMOUNT + r") returned to (.+?)$")
_TOTAL = re.compile(r"^Total pot (" + _AMOUNT + r")(.*?)\s*\|\s*Rake (" + _AMOUNT + r")")
_WINS = re.compile(
    r"^(?:wins|ties for) the (?:(?:high|low) )?(?:(main|side) )?pot(?: #?(\d+))? \((" + _AMOUNT + r")\)"
)
_BETTING_WORDS = (
    "antes",
    "brings in",
    "completes",
    "bets",
    "calls",
    "raises",
    "checks",
    "folds",
    "shows",
    "mucks",
    "wins",
    "ties",
)
_OTHER_GAMES = ("posts the small blind", "posts the big blind", "posts a dead", "discards")
_STREET_OF = {"3RD": 3, "4TH": 4, "5TH": 5, "6TH": 6, "7TH": 7}


def _cards(text: str, line: int) -> tuple[Card, ...]:
    """``"[Kc 4d] [Qd]"`` -> every card in the brackets, in order."""
    groups = re.findall(r"\[([^\]]*)\]", text)
    if not groups or re.sub(r"\[[^\]]*\]", "", text).strip():
        raise FullTiltError(f"expected cards in brackets such as [Kc 4d], not {text!r}", line=line)
    cards: list[Card] = []
    for token in " ".join(groups).split():
        try:
            cards.append(Card.parse(token))
        except MalformedCardError:
            raise FullTiltError(
                f"{token!r} is not a card (expected cards such as [As Td 2c]), in {text!r}",
                line=line,
            ) from None
    return tuple(cards)


def _description(game: GameCode, text: str) -> str | None:
    """A Full Tilt description of a shown hand in the PokerStars wording that the replayer
    checks (``HI: ..; LO: ..``, ``Lo: ..``); None where the wordings cannot be compared."""
    text = text.strip()
    if not text:
        return None

    def high(words: str) -> str:
        # Full Tilt names a no-pair hand by its top cards ("Ace Queen high"), we by the first.
        m = re.fullmatch(r"(\w+)(?: \w+)* high", words)
        return f"high card {m.group(1)}" if m else words

    if not game_class(game).has_high:
        return f"Lo: {text}" if re.fullmatch(r"[2-9TJQKA](?:,[2-9TJQKA]){4}", text) else None
    if not game_class(game).has_low:
        return high(text)
    m = re.fullmatch(r"(.+?), for high(?: and (.+?), for low)?", text)
    if m is None:
        return None
    return f"HI: {high(m.group(1))}" + (f"; LO: {m.group(2)}" if m.group(2) else "")


class _HandParser:
    """Reads the lines of one hand, from its header up to the next header."""

    def __init__(self, file: str, head: _Header, header_text: str, first_line: int) -> None:
        self.file = file
        self.head = head
        self.header_text = header_text
        self.first_line = first_line
        self.seats: list[Seat] = []
        self.names: list[str] = []  # longest first, so that "Hero2" is not read as "Hero"
        self.events: list[Event] = []
        self.street = 0  # 0 before 3rd street; 3..7; 8 at the showdown; 9 in the summary
        self.bets: dict[str, int] = {}  # each player's total on this street
        self.total: tuple[int, int, int] | None = None
        self.revealed: list[tuple[int, str, tuple[Card, ...]]] = []
        self.last_line = first_line

    def fail(self, reason: str, line: int) -> NoReturn:
        raise FullTiltError(reason, line=line)

    def amount(self, text: str, line: int) -> int:
        return _chips(text, self.head.money, line)

    def who(self, text: str, separator: str = " ") -> tuple[str, str] | None:
        for name in self.names:
            if text.startswith(name + separator):
                return name, text[len(name) + len(separator) :]
        return None

    def feed(self, number: int, text: str) -> None:
        if not text:
            return
        self.last_line = number
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
            m = _UNCALLED.match(text)
            if m is None or m.group(2) not in self.names:
                self.fail(f"expected 'Uncalled bet of AMOUNT returned to PLAYER', not {text!r}", number)
            self.events.append(Returned(number, m.group(2), self.amount(m.group(1), number)))
        elif self.street == 9 and text.startswith("Total pot "):
            m = _TOTAL.match(text)
            if m is None:
                self.fail(f"expected 'Total pot AMOUNT | Rake AMOUNT', not {text!r}", number)
            self.total = (self.amount(m.group(1), number), self.amount(m.group(3), number), number)
        elif text == "No low hand qualified":
            self.events.append(NoLow(number))
        elif self.who(text, ": ") is not None:
            return  # chat: Full Tilt's actions have no colon
        elif (found := self.who(text)) is not None:
            self.action(number, found[0], found[1].strip())
        elif (
            self.street < 9
            and self.seats
            and re.match(r"^\S+ (?:antes|brings in|completes|bets|calls|raises|checks|folds)\b", text)
        ):
            self.fail(f"no seat holds the player who acts in {text!r} (expected a seated player)", number)
        # Anything else is a table notice: "KiIIuminati adds $100" from a player not yet seated.

    def section(self, number: int, text: str) -> None:
        m = _STREET.match(text)
        if m is not None:
            street = _STREET_OF[m.group(1)]
            expected = 3 if self.street == 0 else self.street + 1
            if street != expected or self.street >= 8:
                want = f"*** {STREET_ORDINALS[expected]} STREET ***" if expected <= 7 else "the summary"
                self.fail(f"{text!r} is out of order (expected {want})", number)
            if not self.seats:
                self.fail("3rd street before any 'Seat N: PLAYER (STACK)' line", number)
            community = None
            tail = m.group(2).strip()
            if street == 7 and tail.startswith("["):  # our writer's community card
                (community,) = _cards(tail, number)[:1] or (None,)
            self.street = street
            self.bets = {}
            self.events.append(StreetMark(number, street, community))
        elif text.startswith("*** SHOW DOWN ***"):
            if not 3 <= self.street <= 7:
                self.fail("'*** SHOW DOWN ***' is out of order (expected it after a street)", number)
            self.street = 8
            self.events.append(ShowdownMark(number))
        elif text.startswith("*** SUMMARY ***"):
            if self.street < 3:
                self.fail("'*** SUMMARY ***' before 3rd street (expected the deal first)", number)
            self.street = 9
        else:
            self.fail(
                f"{text!r} is not a stud section (expected '*** 3RD STREET ***' to "
                "'*** 7TH STREET ***', '*** SHOW DOWN ***' or '*** SUMMARY ***')",
                number,
            )

    def seat(self, number: int, text: str) -> None:
        m = _SEAT.match(text)
        if m is None:
            self.fail(f"expected 'Seat N: PLAYER (STACK)', not {text!r}", number)
        name = m.group(2)
        if name in self.names:
            self.fail(f"two seats hold a player named {name!r}", number)
        stack = self.amount(m.group(3), number)
        self.seats.append(Seat(int(m.group(1)), name, stack, number, "sitting out" in m.group(4)))
        self.names = sorted((s.name for s in self.seats), key=len, reverse=True)

    def summary_seat(self, number: int, text: str) -> None:
        rest = text.split(": ", 1)[1] if ": " in text else ""
        found = self.who(rest)
        if found is None:
            return
        m = re.search(r"\b(?:showed|mucked) (\[[^\]]*\])", found[1])
        if m:
            self.revealed.append((number, found[0], _cards(m.group(1), number)))

    def deal(self, number: int, text: str) -> None:
        found = self.who(text[len("Dealt to ") :])
        if found is None:
            self.fail(f"expected 'Dealt to PLAYER [cards]' with a seated player, not {text!r}", number)
        if not 3 <= self.street <= 7:
            self.fail("cards dealt outside the streets (expected them after 3rd street)", number)
        cards = _cards(found[1], number)
        self.events.append(Deal(number, self.street, found[0], cards))

    def action(self, number: int, player: str, rest: str) -> None:
        all_in = _ALL_IN.search(rest) is not None
        body = _ALL_IN.sub("", rest)
        street = self.street
        mine = self.bets.get(player, 0)
        current = max(self.bets.values(), default=0)

        def betting(verb: BetVerb, amount: int | None = None, to: int | None = None) -> None:
            if not 3 <= street <= 7:
                self.fail(f"a betting action outside the streets: {rest!r}", number)
            self.events.append(BetLine(number, street, player, verb, amount, to, all_in))

        def total_to(text: str) -> None:
            to = self.amount(text, number)
            if current == 0:  # a forced player who completes at once, or a bet
                betting("bet", to - mine)
            else:
                betting("raise", to - current, to)
            self.bets[player] = to

        if m := re.fullmatch(r"antes (" + _AMOUNT + ")", body):
            if street != 0:
                self.fail("an ante after the deal (expected antes before 3rd street)", number)
            self.events.append(Ante(number, player, self.amount(m.group(1), number), all_in))
        elif m := re.fullmatch(r"brings in for (" + _AMOUNT + ")", body):
            amount = self.amount(m.group(1), number)
            betting("bring-in", amount)
            self.bets[player] = amount
        elif m := re.fullmatch(r"bets (" + _AMOUNT + ")", body):
            amount = self.amount(m.group(1), number)
            betting("bet", amount)
            self.bets[player] = mine + amount
        elif m := re.fullmatch(r"calls (" + _AMOUNT + ")", body):
            amount = self.amount(m.group(1), number)
            betting("call", amount)
            self.bets[player] = mine + amount
        elif m := re.fullmatch(r"(?:completes it|raises) to (" + _AMOUNT + ")", body):
            total_to(m.group(1))
        elif body == "checks":
            betting("check")
        elif body == "folds" or body.startswith("folds ["):
            betting("fold")
        elif body.startswith("shows ["):
            m = re.fullmatch(r"shows (\[[^\]]*\])\s*(.*)", body)
            if m is None:
                self.fail(f"expected 'PLAYER shows [cards] description', not {rest!r}", number)
            cards = _cards(m.group(1), number)
            # Only a seven-card show at the showdown carries a description worth checking.
            described = _description(self.head.game or "stud", m.group(2)) if street == 8 else None
            self.events.append(Show(number, player, cards, described))
        elif body.startswith("shows "):
            return  # "shows a pair of Kings" without cards: nothing to check
        elif body == "mucks" or body.startswith("mucks "):
            self.events.append(Muck(number, player, shown_down=street == 8))
        elif body.startswith(("wins ", "ties ")):
            m = _WINS.match(body)
            if m is None:
                self.fail(f"expected 'PLAYER wins the pot (AMOUNT)', not {rest!r}", number)
            pot: int | None = None
            if m.group(1) == "main":
                pot = 0
            elif m.group(1) == "side":
                pot = int(m.group(2)) if m.group(2) else 1
            self.events.append(Collect(number, player, self.amount(m.group(3), number), pot))
        elif body.startswith(_OTHER_GAMES) or body.startswith("stands pat"):
            self.fail(f"{rest!r} belongs to another game, not stud", number)
        elif body.startswith(_BETTING_WORDS[:-4]):
            self.fail(
                f"unknown action {rest!r} (expected antes, brings in for, completes it to, bets, "
                "calls, raises to, checks, folds, shows, mucks or wins the pot)",
                number,
            )
        # Otherwise a notice: "is low with [3c]", "has 15 seconds left to act", "adds $0.40",
        # "is sitting out", "has timed out", "is feeling happy", ...

    def finish(self) -> PokerStarsHand:
        head = self.head
        assert head.game is not None
        if self.street != 9 or self.total is None:
            missing = "'*** SUMMARY ***'" if self.street != 9 else "'Total pot X | Rake Y'"
            self.fail(
                f"hand #{head.hand_id} stops after this line: expected the rest of the hand up to "
                f"{missing} (the history looks truncated)",
                self.last_line,
            )
        if not self.seats:
            self.fail("the hand has no 'Seat N: PLAYER (STACK)' lines", self.first_line)
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
            buy_in=head.buy_in,
            table=head.table,
            max_seats=head.max_seats,
            date=head.date,
            seats=tuple(self.seats),
            events=tuple(self.events),
            total_pot=total,
            rake=rake,
            total_line=total_line,
            revealed=tuple(self.revealed),
            end_line=self.last_line,
        )


# ---------------------------------------------------------------------------------- the reader


class FullTiltReader(TextHistoryReader[PokerStarsHand, _Header]):
    """Iterate the stud hands of a Full Tilt history, one at a time, without loading the file.

    Each item is a :class:`~sevenstud.history.pokerstars.PokerStarsHand` (replay it with
    :func:`play_fulltilt`), or a :class:`FullTiltError` for a hand that cannot be read (the reader
    then goes on). Hands of other games are counted in :attr:`skipped` (by game in
    :attr:`skipped_games`). A file whose first line is not a Full Tilt header raises
    :class:`NotFullTiltError`. (The file loop is :class:`~.text_reader.TextHistoryReader`'s.)
    """

    def _opens_hand(self, text: str, in_hand: bool) -> bool:
        return _HEADER.match(text) is not None

    def _not_ours(self, text: str, number: int) -> PokerStarsError:
        return NotFullTiltError(
            f"not a Full Tilt hand history: it starts {text.strip()[:60]!r} "
            "(expected 'Full Tilt Poker Game #...')"
        )

    def _header(self, text: str, number: int) -> _Header:
        return _parse_header(text, number)

    def _parser(self, head: _Header, text: str, number: int) -> _HandParser:
        return _HandParser(self.name, head, text, number)


def read_fulltilt(source: str | Path | IO[str], name: str | None = None) -> FullTiltReader:
    """A :class:`FullTiltReader` over a file name, a path or an open text stream."""
    return FullTiltReader(source, name)


def fulltilt_game(hand: PokerStarsHand) -> Game:
    """Our game for a Full Tilt hand: its stakes, and the rake taken from the main pot first, as
    Full Tilt takes it (a side pot is paid whole: hand #29705138396 splits a $10 side pot $5/$5
    under a $3 rake). The bring-in is the hand's own, else an earlier hand's at the same stakes,
    else an all-in bring-in's amount, else a quarter of the small bet."""
    bring_in = hand.bring_in or hand.bring_in_hint
    if bring_in is None:
        forced = [e.amount for e in hand.events if isinstance(e, BetLine) and e.verb == "bring-in"]
        bring_in = forced[0] if forced and forced[0] else max(1, min(hand.small_bet - 1, hand.small_bet // 4))
    try:
        return game_by_name(
            hand.game, Stakes(hand.ante, bring_in, hand.small_bet, hand.big_bet), rake_from="main_pot"
        )
    except GameError as error:
        raise FullTiltError(
            f"the stakes make no game: {error}", line=hand.line, file=hand.file, hand_id=hand.hand_id
        ) from None


def play_fulltilt(hand: PokerStarsHand) -> PlayedHand:
    """Replay a Full Tilt hand through our engine (the PokerStars replayer, with
    :func:`fulltilt_game`); the :class:`~sevenstud.history.pokerstars.PokerStarsError` raised
    names the first line where our engine differs from the file."""
    return play_pokerstars(hand, game=fulltilt_game(hand))
