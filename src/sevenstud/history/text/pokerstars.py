"""PokerStars' dialect of the card rooms' text hand histories: its header, its words for the
lines every room writes, its own lines (the table, ``P collected X from pot``, ``Board [..]``),
and how it writes a hand of ours (:func:`format_hand`).
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from pathlib import Path
from typing import IO, Any

from sevenstud.cards import Card, format_cards
from sevenstud.games import GameCode
from sevenstud.hand import Hand
from sevenstud.history.text.model import (
    ALL_IN,
    AMOUNT,
    GAME_TITLES,
    STREET_TITLES,
    STREET_WORDS,
    Collect,
    Muck,
    NotPokerStarsError,
    PokerStarsError,
    PokerStarsHand,
    Show,
    bracketed,
    card_list,
    chips,
    describe_show,
)
from sevenstud.history.text.reader import (
    Header,
    LineParser,
    ReadingDialect,
    TextHistoryReader,
    level_number,
)
from sevenstud.history.text.writer import TextRecord, TextWriter, WritingDialect

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


def _level_of(text: str) -> int | None:
    """The level of a tournament header in the card room's Roman numerals (``Level XIV``)."""
    m = _LEVEL.search(text)
    return None if m is None else level_number(m.group(1))


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


def _parse_header(text: str, line: int) -> Header:
    m = _HEADER.match(text)
    if m is None:  # pragma: no cover - the caller matched it already
        raise PokerStarsError("expected a 'PokerStars Hand #N: ...' header", line=line)
    hand_id, rest = m.group(1), m.group(2)
    game, game_text = _game_of(rest)
    tour = _TOURNAMENT.search(rest)
    date = _DATE.search(rest)
    date_text = None if date is None else date.group(0)
    if game is None:
        return Header(hand_id, None, game_text, False, None, "$", 0, 0, None, date_text)
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
    small = chips(low, money, line)
    big = chips(high, money, line)
    currency = code or {"$": "USD", "€": "EUR", "£": "GBP"}.get(symbol) if money else None
    return Header(
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

READING = ReadingDialect(
    room="a PokerStars",
    error=PokerStarsError,
    header=_HEADER,
    header_form="'PokerStars Hand #...' or 'PokerStars Game #...'",
    street_marks=STREET_TITLES,
    other_marks={"7th STREET": 7},
    seat=re.compile(r"^Seat (\d+): (.+) \(([^()]*?) in chips[^()]*\)(.*)$"),
    seat_form="Seat N: PLAYER (STACK in chips)",
    uncalled=re.compile(r"^Uncalled bet \((" + AMOUNT + r")\) returned to (.+?)\s*$"),
    uncalled_form="Uncalled bet (AMOUNT) returned to PLAYER",
    actor=": ",
    all_in=re.compile(r" and is all-in$"),
    verbs={
        "ante": re.compile(r"posts the ante (?P<amount>" + AMOUNT + ")"),
        "bring-in": re.compile(r"brings in for (?P<amount>" + AMOUNT + ")"),
        "bet": re.compile(r"bets (?P<amount>" + AMOUNT + ")"),
        "call": re.compile(r"calls (?P<amount>" + AMOUNT + ")"),
        "raise": re.compile(r"raises (?P<by>" + AMOUNT + ") to (?P<to>" + AMOUNT + ")"),
    },
    other_games=("posts small blind", "posts big blind", "discards", "stands pat"),
    action_words=None,
    notices=_NOTICES,
    actions_form=(
        "posts the ante, brings in for, bets, calls, raises .. to .., checks, folds, shows, "
        "mucks hand or doesn't show hand"
    ),
    stranger=re.compile(
        r"^(.+?): (?:posts|brings in|bets|calls|raises|checks|folds|shows|mucks|doesn't show)\b"
    ),
    total_form="Total pot X | Rake Y",
)
"""How PokerStars writes the lines every room writes."""

_TABLE = re.compile(r"^Table '(.*)' (\d+)-max")
_TOTAL = re.compile(r"^Total pot (" + AMOUNT + r")(.*?)\s*\|\s*Rake (" + AMOUNT + r")")
_COLLECT = re.compile(r"^collected (" + AMOUNT + r") from (pot|main pot|side pot(?:-(\d+))?)\s*$")


class _HandParser(LineParser):
    """PokerStars' own lines: the table, the pots and the board in the summary, the collects."""

    dialect = READING

    def __init__(self, file: str, head: Header, header_text: str, first_line: int) -> None:
        super().__init__(file, head, header_text, first_line)
        self.pots: tuple[int, ...] = ()
        self.board: tuple[Card, ...] = ()

    def own_line(self, number: int, text: str) -> bool:
        if text.startswith("Table '") and self.street == 0 and not self.seats:
            m = _TABLE.match(text)
            if m is None:
                self.fail(f"expected \"Table 'NAME' N-max\", not {text!r}", number)
            self.table, self.max_seats = m.group(1), int(m.group(2))
        elif self.street == 9 and text.startswith("Board "):
            (board,) = bracketed(text[len("Board ") :], number) or [()]
            self.board = board
        else:
            return False
        return True

    def actor_line(self, number: int, text: str) -> bool:
        if super().actor_line(number, text):
            return True
        found = self.who(text, " collected ")
        if found is None:
            return False
        player, rest = found
        m = _COLLECT.match("collected " + rest)
        if m is None:
            self.fail(f"expected 'PLAYER collected AMOUNT from pot', not {text!r}", number)
        label = m.group(2)
        pot: int | None = None
        if label == "main pot":
            pot = 0
        elif label.startswith("side pot"):
            pot = int(m.group(3)) if m.group(3) else 1
        self.events.append(Collect(number, player, self.amount(m.group(1), number), pot))
        return True

    def total_line(self, number: int, text: str) -> None:
        m = _TOTAL.match(text)
        if m is None:
            self.fail(f"expected 'Total pot AMOUNT | Rake AMOUNT', not {text!r}", number)
        self.total = (self.amount(m.group(1), number), self.amount(m.group(3), number), number)
        self.pots = tuple(
            self.amount(amount, number)
            for amount in re.findall(r"(?:Main|Side) pot(?:-\d+)? (" + AMOUNT + r")\.", m.group(2))
        )

    def show(self, number: int, player: str, body: str) -> None:
        m = re.fullmatch(r"shows \[([^\]]*)\](?:\s*\((.*)\))?", body)
        if m is None:
            self.fail(f"expected 'PLAYER: shows [cards] (description)', not {body!r}", number)
        self.events.append(Show(number, player, card_list(m.group(1), number), m.group(2)))

    def muck(self, number: int, player: str, body: str) -> bool:
        if body in ("mucks hand", "mucks") or body.startswith("mucks ["):
            self.events.append(Muck(number, player))
        elif body in ("doesn't show hand", "doesn't show"):
            self.events.append(Muck(number, player, shown_down=False))
        else:
            return False
        return True

    def made(self, fields: dict[str, Any]) -> PokerStarsHand:
        return PokerStarsHand(**fields, board=self.board, pots=self.pots)


# ---------------------------------------------------------------------------------- the reader


class HandReader(TextHistoryReader[PokerStarsHand]):
    """Iterate the stud hands of a PokerStars history, one at a time, without loading the file.

    Each item is a :class:`PokerStarsHand`, or a :class:`PokerStarsError` for a hand that cannot
    be read (the reader then goes on with the next hand). Hands of other games are skipped and
    counted in :attr:`skipped` (by game in :attr:`skipped_games`). A file that is not a PokerStars
    history raises :class:`NotPokerStarsError` as soon as its first line is read. (The file loop
    is :class:`~sevenstud.history.text.reader.TextHistoryReader`'s.)
    """

    parser = _HandParser
    not_ours = NotPokerStarsError
    header_of = staticmethod(_parse_header)


def read_hands(source: str | Path | IO[str], name: str | None = None) -> HandReader:
    """A :class:`HandReader` over a file name, a path or an open text stream."""
    return HandReader(source, name)


# ---------------------------------------------------------------------------------- writing

WRITING = WritingDialect(
    street_marks=STREET_TITLES,
    all_in=ALL_IN,
    lines={
        "seat": "Seat {number}: {name} ({stack} in chips) ",
        "ante": "{name}: posts the ante {amount}{all_in}",
        "bring-in": "{name}: brings in for {amount}{all_in}",
        "bet": "{name}: bets {amount}{all_in}",
        "call": "{name}: calls {amount}{all_in}",
        "complete": "{name}: raises {by} to {to}{all_in}",
        "complete_opening": "{name}: bets {amount}{all_in}",
        "raise": "{name}: raises {by} to {to}{all_in}",
        "fold": "{name}: folds ",
        "check": "{name}: checks ",
        "uncalled": "Uncalled bet ({amount}) returned to {name}",
        "show": "{name}: shows [{cards}] ({description})",
        "muck": "{name}: mucks hand ",
    },
    ante_return_after_deal=True,
)
"""How PokerStars writes the lines every room writes."""


class PokerStarsWriter(TextWriter):
    """PokerStars' header and table line, its collects, its summary."""

    dialect = WRITING

    def header_lines(self) -> list[str]:
        record, stakes = self.record, self.hand.game.stakes
        limit = f"{GAME_TITLES[self.hand.game.code]} Limit"
        bets = f"{self.amount(stakes.small_bet)}/{self.amount(stakes.big_bet)}"
        if record.tournament is not None:
            paid = f"{record.buy_in} " if record.buy_in else ""
            if record.level is not None and record.level < 1:
                raise ValueError(f"a tournament level is 1 or more, not {record.level}")
            head = (
                f"Tournament #{record.tournament}, {paid}{limit} - Level {_roman(record.level or 1)} ({bets})"
            )
        else:
            head = f"{limit} ({bets}{f' {record.currency}' if record.money else ''})"
        # (the card room puts two spaces before a ring game's name, one before a tournament)
        space = " " if record.tournament is not None else "  "
        return [
            f"PokerStars Hand #{record.hand_id}:{space}{head} - {self.date}",
            f"Table '{record.table}' {record.max_seats or max(8, max(self.numbers))}-max",
        ]

    def description(self, seat: int) -> str:
        shown = self.shown[seat]
        return describe_show(self.hand.game, shown.high, shown.low)

    def award_lines(self) -> list[str]:
        lines = []
        pots = sorted({a.pot for a in self.awards})
        for award in sorted(self.awards, key=lambda a: -a.pot):
            if len(pots) <= 1 and award.pot == 0:
                label = "pot"
            elif award.pot == 0:
                label = "main pot"
            else:
                label = "side pot" if max(pots) == 1 else f"side pot-{award.pot}"
            lines.append(f"{self.names[award.seat]} collected {self.amount(award.amount)} from {label}")
        if self.hand.is_over and not self.showdown:
            lines += [
                f"{self.names[s]}: doesn't show hand " for s in range(self.hand.n) if not self.hand.folded[s]
            ]
        return lines

    def total_lines(self) -> list[str]:
        hand = self.hand
        total = sum(a.amount for a in self.awards) + hand.rake
        pots = sorted({a.pot for a in self.awards})
        pot_text = ""
        if len(pots) > 1:
            by_pot = Counter[int]()
            for a in self.awards:
                by_pot[a.pot] += a.amount
            parts = [f"Main pot {self.amount(by_pot[0])}."] + [
                f"Side pot{'' if max(pots) == 1 else f'-{p}'} {self.amount(by_pot[p])}." for p in pots if p
            ]
            pot_text = " " + " ".join(parts)
        return [f"Total pot {self.amount(total)}{pot_text} | Rake {self.amount(hand.rake)} "]

    def summary_line(self, seat: int) -> str:
        line = f"Seat {self.numbers[seat]}: {self.names[seat]}"
        won = self.won[seat]
        if seat in self.folded_on:
            street = self.folded_on[seat]
            quiet = street == 3 and (seat, street) not in self.acted
            return line + f" folded on the {STREET_WORDS[street]}" + (" (didn't bet)" if quiet else "")
        if seat in self.shown:
            shown = self.shown[seat]
            result = f"won ({self.amount(won)})" if won else "lost"
            return line + f" showed [{format_cards(shown.cards)}] and {result} with {self.description(seat)}"
        if seat in self.mucked:
            hand = self.hand
            known = seat in self.full or (
                self.record.show_mucked and not self.hidden.intersection(hand.cards[seat])
            )
            return line + (f" mucked [{format_cards(hand.cards[seat])}]" if known else " mucked")
        return line + (f" collected ({self.amount(won)})" if won else "")


def format_hand(hand: Hand, record: TextRecord | None = None, /, **fields: Any) -> str:
    """A hand of ours as PokerStars writes it, as ``record`` (or the :class:`TextRecord` that
    ``fields`` make) says: seen by its ``hero`` (our seat index; ``None``: a spectator, who sees
    only the up cards), with the down cards of the seats it reveals, but never a card nobody saw;
    money written as money; a ``tournament`` number writes a tournament header (at ``level``,
    with ``buy_in`` as the card room writes it, e.g. ``$200+$15 USD``, when known).

    Lines go where the card room puts them, because trackers read them there: an ante returned
    uncalled follows the 3rd-street deal; a hand mucked at the showdown is listed in the
    summary with its cards (as the card room lists it) unless they are unknown or
    ``show_mucked`` is False (then only the viewer's own mucked cards are)."""
    return PokerStarsWriter(hand, dataclasses.replace(record or TextRecord(), **fields)).text()


def _roman(number: int) -> str:
    """A tournament level as the card room numbers it: 1 -> I, 4 -> IV, 31 -> XXXI."""
    digits = []
    for value, letters in (
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ):
        count, number = divmod(number, value)
        digits.append(letters * count)
    return "".join(digits)
