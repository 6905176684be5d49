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

>>> import io
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
from typing import IO, Any

from sevenstud.cards import format_cards
from sevenstud.games import Game, GameCode, GameError, Stakes, game_by_name, game_class
from sevenstud.hand import Hand
from sevenstud.history.text.model import (
    AMOUNT,
    BetLine,
    Collect,
    Muck,
    PokerStarsError,
    PokerStarsHand,
    Show,
    chips,
)
from sevenstud.history.text.reader import Header, LineParser, ReadingDialect, TextHistoryReader
from sevenstud.history.text.replay import PlayedHand, play_pokerstars
from sevenstud.history.text.writer import TextRecord, TextWriter, WritingDialect

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
GAME_TITLES: dict[GameCode, str] = {"stud8": "Stud H/L", "stud": "Stud Hi", "razz": "Razz"}
"""How a Full Tilt header names each of our games (after ``Limit``)."""
_STUD_GAMES: dict[str, GameCode] = {
    **{title.lower(): code for code, title in GAME_TITLES.items()},
    "stud hi/lo": "stud8",
    "stud 8": "stud8",
    "stud": "stud",
}
"""The games a header names, read without regard to case: our titles and the others seen."""
STREET_ORDINALS = {3: "3RD", 4: "4TH", 5: "5TH", 6: "6TH", 7: "7TH"}
"""How Full Tilt numbers a street in its marks (``*** 3RD STREET ***``)."""


def _buy_in(rest: str) -> str | None:
    """A tournament's buy-in (``$2 + $0.10 Heads Up Sit & Go (N), Table 1``) as PokerStars
    writes one, ``$2+$0.10 USD``; a header that names no fee (``$200 Heads-Up Sit & Go``)
    gives ``+$0``."""
    m = _BUY_IN.match(rest)
    if m is None:
        return None
    symbol, amount, fee = m.group(1), m.group(2).replace(",", ""), (m.group(3) or "0").replace(",", "")
    return f"{symbol}{amount}+{symbol}{fee} {_CURRENCY_OF[symbol]}"


def _parse_header(text: str, line: int) -> Header:
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
        return Header(hand_id, None, game_text, False, None, "$", 0, 0, None, date, table=table)
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
    return Header(
        hand_id=hand_id,
        game=game,
        game_text=game_text,
        money=money,
        currency=_CURRENCY_OF.get(symbol) if money else None,
        symbol=symbol or "$",
        small_bet=chips(stakes.group(2), money, line, FullTiltError),
        big_bet=chips(stakes.group(3), money, line, FullTiltError),
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

READING = ReadingDialect(
    room="a Full Tilt",
    error=FullTiltError,
    header=_HEADER,
    header_form="'Full Tilt Poker Game #...'",
    street_marks={street: f"{ordinal} STREET" for street, ordinal in STREET_ORDINALS.items()},
    seat=re.compile(r"^Seat (\d+): (.+) \((" + AMOUNT + r")\)(.*)$"),
    seat_form="Seat N: PLAYER (STACK)",
    uncalled=re.compile(r"^Uncalled bet of (" + AMOUNT + r") returned to (.+?)$"),
    uncalled_form="Uncalled bet of AMOUNT returned to PLAYER",
    actor=" ",
    all_in=re.compile(r",? and is all in$"),
    verbs={
        "ante": re.compile(r"antes (?P<amount>" + AMOUNT + ")"),
        "bring-in": re.compile(r"brings in for (?P<amount>" + AMOUNT + ")"),
        "bet": re.compile(r"bets (?P<amount>" + AMOUNT + ")"),
        "call": re.compile(r"calls (?P<amount>" + AMOUNT + ")"),
        "raise": re.compile(r"(?:completes it|raises) to (?P<to>" + AMOUNT + ")"),
    },
    other_games=("posts the small blind", "posts the big blind", "posts a dead", "discards", "stands pat"),
    action_words=("antes", "brings in", "completes", "bets", "calls", "raises", "checks", "folds"),
    notices=(),
    actions_form=(
        "antes, brings in for, completes it to, bets, calls, raises to, checks, folds, shows, "
        "mucks or wins the pot"
    ),
    stranger=re.compile(r"^(\S+) (?:antes|brings in|completes|bets|calls|raises|checks|folds)\b"),
    total_form="Total pot X | Rake Y",
    amount_example="$0.40 or 150",
)
"""How Full Tilt writes the lines every room writes."""

_TOTAL = re.compile(r"^Total pot (" + AMOUNT + r")(.*?)\s*\|\s*Rake (" + AMOUNT + r")")
_WINS = re.compile(
    r"^(?:wins|ties for) the (?:(?:high|low) )?(?:(main|side) )?pot(?: #?(\d+))? \((" + AMOUNT + r")\)"
)


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


class _HandParser(LineParser):
    """Full Tilt's own lines: chat (a name and a colon), its shows, its mucks, its winners."""

    dialect = READING

    def actor_line(self, number: int, text: str) -> bool:
        if self.who(text, ": ") is not None:
            return True  # chat: Full Tilt's actions have no colon
        return super().actor_line(number, text)

    def total_line(self, number: int, text: str) -> None:
        m = _TOTAL.match(text)
        if m is None:
            self.fail(f"expected 'Total pot AMOUNT | Rake AMOUNT', not {text!r}", number)
        self.total = (self.amount(m.group(1), number), self.amount(m.group(3), number), number)

    def show(self, number: int, player: str, body: str) -> None:
        if not body.startswith("shows ["):
            return  # "shows a pair of Kings" without cards: nothing to check
        m = re.fullmatch(r"shows (\[[^\]]*\])\s*(.*)", body)
        if m is None:
            self.fail(f"expected 'PLAYER shows [cards] description', not {body!r}", number)
        cards = self.cards(m.group(1), number)
        # Only a seven-card show at the showdown carries a description worth checking.
        described = _description(self.head.game or "stud", m.group(2)) if self.street == 8 else None
        self.events.append(Show(number, player, cards, described))

    def muck(self, number: int, player: str, body: str) -> bool:
        if body == "mucks" or body.startswith("mucks "):
            self.events.append(Muck(number, player, shown_down=self.street == 8))
            return True
        return False

    def collect(self, number: int, player: str, body: str) -> bool:
        if not body.startswith(("wins ", "ties ")):
            return False
        m = _WINS.match(body)
        if m is None:
            self.fail(f"expected 'PLAYER wins the pot (AMOUNT)', not {body!r}", number)
        pot: int | None = None
        if m.group(1) == "main":
            pot = 0
        elif m.group(1) == "side":
            pot = int(m.group(2)) if m.group(2) else 1
        self.events.append(Collect(number, player, self.amount(m.group(3), number), pot))
        return True


# ---------------------------------------------------------------------------------- the reader


class FullTiltReader(TextHistoryReader[PokerStarsHand]):
    """Iterate the stud hands of a Full Tilt history, one at a time, without loading the file.

    Each item is a :class:`~sevenstud.history.text.model.PokerStarsHand` (replay it with
    :func:`play_fulltilt`), or a :class:`FullTiltError` for a hand that cannot be read (the reader
    then goes on). Hands of other games are counted in :attr:`skipped` (by game in
    :attr:`skipped_games`). A file whose first line is not a Full Tilt header raises
    :class:`NotFullTiltError`. (The file loop is :class:`~.reader.TextHistoryReader`'s.)
    """

    parser = _HandParser
    not_ours = NotFullTiltError
    header_of = staticmethod(_parse_header)


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


# ---------------------------------------------------------------------------------- writing

WRITING = WritingDialect(
    street_marks=READING.street_marks,
    all_in=", and is all in",
    lines={
        "seat": "Seat {number}: {name} ({stack})",
        "ante": "{name} antes {amount}{all_in}",
        "bring-in": "{name} brings in for {amount}{all_in}",
        "bet": "{name} bets {amount}{all_in}",
        "call": "{name} calls {amount}{all_in}",
        "complete": "{name} completes it to {to}{all_in}",
        "complete_opening": "{name} completes it to {to}{all_in}",
        "raise": "{name} raises to {to}{all_in}",
        "fold": "{name} folds",
        "check": "{name} checks",
        "uncalled": "Uncalled bet of {amount} returned to {name}",
        "show": "{name} shows [{cards}] {description}",
        "muck": "{name} mucks",
    },
    split_third=True,
    board=False,
)
"""How Full Tilt writes the lines every room writes."""
_BRING_IN_WORDS = {"lowest": "low", "highest": "high"}  # "Hero is low with [2c]"


class FullTiltWriter(TextWriter):
    """Full Tilt's header, its bring-in notice, its winners and its summary."""

    dialect = WRITING

    def header_lines(self) -> list[str]:
        record, game = self.record, self.hand.game
        m = re.match(r"(\d{4}/\d{1,2}/\d{1,2}) (\d{1,2}:\d{2}:\d{2})(?: (\w+))?", self.date)
        day, clock, zone = (
            (m.group(1), m.group(2), m.group(3) or "ET") if m else ("2024/01/01", "00:00:00", "ET")
        )
        where = f"Table {record.table}" + (f" ({record.max_seats} max)" if record.max_seats else "")
        if record.tournament is not None:
            name = "sevenstud" if record.buy_in is None else _buy_in_text(record.buy_in)
            where = f"{name} Tournament ({record.tournament}), {where}"
        stakes = f"{self.amount(game.stakes.small_bet)}/{self.amount(game.stakes.big_bet)}"
        return [
            f"Full Tilt Poker Game #{record.hand_id}: {where} - {stakes} Ante {self.amount(game.stakes.ante)}"
            f" - Limit {GAME_TITLES[game.code]} - {clock} {zone} - {day}"
        ]

    def before_bring_in(self, seat: int) -> list[str]:
        door = self.hand.cards[seat][2]
        return [f"{self.names[seat]} is {_BRING_IN_WORDS[self.hand.game.bring_in_by]} with [{door}]"]

    def description(self, seat: int) -> str:
        game, shown = self.hand.game, self.shown[seat]
        if not game.has_high:
            return shown.low or ""
        high = shown.high or ""
        if game.split:
            return f"{high}, for high" + (f" and {shown.low}, for low" if shown.low else "")
        return high

    def award_lines(self) -> list[str]:
        pots = {a.pot for a in self.awards}
        lines = []
        for a in sorted(self.awards, key=lambda a: -a.pot):
            half = "" if a.share == "whole" else f"{a.share} "
            which = "" if len(pots) <= 1 else ("main " if a.pot == 0 else "side ")
            number = f" #{a.pot}" if a.pot and max(pots) > 1 else ""
            lines.append(f"{self.names[a.seat]} wins the {half}{which}pot{number} ({self.amount(a.amount)})")
        return lines

    def total_lines(self) -> list[str]:
        rake = self.hand.rake
        return [
            f"Total pot {self.amount(sum(a.amount for a in self.awards) + rake)} | Rake {self.amount(rake)}"
        ]

    def summary_line(self, seat: int) -> str:
        line, won = f"Seat {self.numbers[seat]}: {self.names[seat]}", self.won[seat]
        if seat in self.folded_on:
            street = self.folded_on[seat]
            return line + f" folded on {street}{STREET_ORDINALS[street][1:].lower()} St."
        if seat in self.shown:
            result = f"won ({self.amount(won)})" if won else "lost"
            return line + f" showed [{format_cards(self.shown[seat].cards)}] and {result}"
        return line + (f" collected ({self.amount(won)}), mucked" if won else " mucked")


def format_fulltilt(hand: Hand, record: TextRecord | None = None, /, **fields: Any) -> str:
    """A hand of ours as Full Tilt writes it, as ``record`` (or the :class:`TextRecord` that
    ``fields`` make) says: seen by its ``hero`` (``None``: an observer, who sees the up cards),
    with the down cards of the seats it reveals, never a card nobody saw. ``date`` is
    ``YYYY/MM/DD HH:MM:SS ZONE``; a ``tournament`` number writes a tournament header, led by its
    ``buy_in`` where given (in PokerStars' form, ``$200+$15 USD`` or ``Freeroll``; Full Tilt
    writes ``$200 + $15 Tournament (N), Table 1 - ...``)."""
    return FullTiltWriter(hand, dataclasses.replace(record or TextRecord(), **fields)).text()


def _buy_in_text(buy_in: str) -> str:
    """PokerStars' ``$200+$15 USD`` as Full Tilt writes a buy-in, ``$200 + $15``."""
    return re.sub(r"\s+[A-Z]{3}$", "", buy_in).replace("+", " + ")
