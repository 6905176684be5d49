"""Americas Cardroom (Winning Poker Network) text hand histories of Stud Hi/Lo, Stud and Razz:
read, replay, write.

**Reading** streams as the other readers do: :func:`read_acr` returns an :class:`ACRReader`
that yields one :class:`ACRHand` at a time, or an :class:`ACRError` naming the file and the line
of a hand it cannot read (and then goes on with the next one). Hands of the other games of the
network (hold'em, Omaha) are skipped and counted in :attr:`ACRReader.skipped`.

An :class:`ACRHand` is the shared lines-of-a-hand model
(:class:`~sevenstud.history.pokerstars.PokerStarsHand`) with what only this room writes: the
jackpot fee, the running ``Main pot X | Rake Y`` lines and the best five cards of each shown hand.
**Replaying** it (:func:`play_acr`) is the PokerStars replayer's work (the deck rebuilt from every
card the file shows, every action, returned bet, shown hand and award checked against our engine)
and then this room's own lines: the pot (and the rake) at every street, the pots after the rake at
the showdown, the best high five and the low of every shown hand, the amounts the summary says each
player won. The first line where our engine differs is named. **Writing** is
:func:`~sevenstud.history.acr_write.format_acr` (re-exported here).

The format's facts (seen in the room's own files; its rake: docs/rules.md, "Americas Cardroom's
rake and jackpot fee"):

* the header is ``Hand #N - 7Stud H/L (Fixed Limit) - $0.10/$0.20[, Ante $0.02] - DATE UTC``
  (older files have no space before the parenthesis and no ante); a tournament's is ``Game Hand #N
  - Tournament #T - 7Stud (Fixed Limit) - Level L (250.00/500.00) - DATE UTC`` (seen for hold'em,
  taken to be the same for stud), and ``Table '12' 8-max`` follows; the stakes are the small and
  the big bet; the next line names the table and its size (``Crainville 8-max``); a
  ring game's amounts are counted in cents (``$0.10``, or play money written ``0.10``), a
  tournament's in whole chips (``250.00``);
* actions have no colon: ``posts ante $0.02``, ``brings in $0.05``, ``bets``, ``calls``, ``raises
  $0.20 to $0.30`` (what the player puts in now, then the street total; completing the bring-in is
  a raise too), ``and is all-in``; ``Uncalled bet ($0.04) returned to P``; ``P does not show``;
* after each street's mark, ``Main pot $2.12 | Rake $0.09`` (and ``Side pot(1) ...``): the pot
  *after* the rake taken so far; the room rakes street by street, up to its cap;
* at the showdown ``P shows [all seven cards] (HI - two pair, Jacks and Eights [Jh Jd 8h 8d Qc] |
  LO - [8,7,5,3,2])`` and ``P collected $4.18 from main pot`` / ``side pot-1``; a pot won without a
  showdown has no collected line, only the summary's ``did not show and won $0.13``;
* the summary's ``Total pot $8.96 | Rake $0.08 | JP Fee $0.02`` is what the players won: the rake
  and the jackpot fee were taken from it first.

The rake and the jackpot fee are both taken from the pot before it is paid, so our engine takes
their sum as the hand's rake (``Hand(rake=...)``); the split between them is kept on the hand
(:attr:`ACRHand.jackpot_fee`) and written back. Which pots pay it is read from the showdown's pot
lines: only the main pot (the cap was reached before a side pot began), else every pot in
proportion to its size.

>>> import io
>>> from sevenstud.deck import Deck
>>> from sevenstud.games import StudHiLo, Stakes
>>> from sevenstud.hand import Hand
>>> hand = Hand(StudHiLo(Stakes(2, 5, 10, 20)), [500, 500], Deck.seeded(7))
>>> _ = hand.act("bring-in"); _ = hand.act("fold")
>>> text = format_acr(hand, players=["Ann", "Bob"], hand_id=1, money=True)
>>> print(text.splitlines()[0])
Hand #1 - 7Stud H/L (Fixed Limit) - $0.10/$0.20, Ante $0.02 - 2024/01/01 00:00:00 UTC
>>> (parsed,) = read_acr(io.StringIO(text))
>>> play_acr(parsed).hand.stacks == hand.stacks
True
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from pathlib import Path
from typing import IO, NoReturn

from sevenstud.cards import Card, MalformedCardError
from sevenstud.games import GameCode
from sevenstud.history.acr_model import ACRError, ACRHand, NotACRError, PotLine, ShownFive, street_mark
from sevenstud.history.acr_replay import acr_game, play_acr
from sevenstud.history.acr_write import GAME_TITLES, format_acr
from sevenstud.history.pokerstars import (
    Ante,
    BetLine,
    BetVerb,
    Collect,
    Deal,
    Event,
    Muck,
    PokerStarsError,
    Returned,
    Seat,
    Show,
    ShowdownMark,
    StreetMark,
)
from sevenstud.history.text_reader import TextHistoryReader

__all__ = [
    "GAME_TITLES",
    "ACRError",
    "ACRHand",
    "ACRReader",
    "NotACRError",
    "PotLine",
    "ShownFive",
    "acr_game",
    "format_acr",
    "looks_like_acr",
    "play_acr",
    "read_acr",
]


# ---------------------------------------------------------------------------------- the header

_AMOUNT = r"[$€£]?[0-9][0-9,]*(?:\.[0-9]+)?"
_SYMBOLS = "$€£"
_HEADER = re.compile(r"^(?:Game )?Hand #(\d+) - (.*)$")
_LIMITS = r"No Limit|Pot Limit|Fixed Limit|All-in or Fold Limit"
_BODY = re.compile(
    r"^(?:(?:[$€£]?[0-9][0-9.,]*K? GTD )?Tournament #(\d+) - )?"
    r"(.+?) ?\((" + _LIMITS + r")\) ?- "
    r"(?:Level (\w+) )?\(?([$€£]?)([0-9][0-9,.]*)/[$€£]?([0-9][0-9,.]*)\)?"
    r"(?:, Ante ([$€£]?[0-9][0-9,.]*))?"
    r" ?- ?(\d{4}/\d{1,2}/\d{1,2}) (\d{1,2}:\d{2}:\d{2})(?: (\w+))?\s*$"
)
_STUD_GAMES: dict[str, GameCode] = {"7stud h/l": "stud8", "7stud": "stud", "razz": "razz"}
_TABLE = re.compile(r"^(.+?) (\d+)-max(?: \(Play Money\))?(?: Seat #\d+ is the button)?$")
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def _level(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    if text and all(c in _ROMAN for c in text):
        values = [_ROMAN[c] for c in text]
        return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))
    return None


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
    level: int | None
    date: str | None


def _chips(text: str, money: bool, line: int) -> int:
    """``"$0.40"`` -> 40 (cents) for money, ``"1,500.00"`` -> 1500 for chips."""
    raw = text.strip().lstrip(_SYMBOLS).replace(",", "")
    if not re.fullmatch(r"[0-9]+(?:\.[0-9]+)?", raw):
        raise ACRError(f"{text!r} is not an amount (expected e.g. $0.40 or 150.00)", line=line)
    whole, _, fraction = raw.partition(".")
    if money:
        fraction = fraction.rstrip("0")
        if len(fraction) > 2:
            raise ACRError(f"{text!r} is not a whole number of cents", line=line)
        return int(whole) * 100 + int(fraction.ljust(2, "0"))
    if fraction.strip("0"):
        raise ACRError(f"{text!r} is not a whole number of chips", line=line)
    return int(whole)


def _parse_header(text: str, line: int) -> _Header:
    m = _HEADER.match(text)
    assert m is not None  # the caller matched it
    hand_id, rest = m.group(1), m.group(2)
    body = _BODY.match(rest)
    if body is None:
        raise ACRError(
            f"the header {text[:80]!r} is not an ACR header (expected e.g. 'Hand #N - 7Stud H/L "
            "(Fixed Limit) - $0.10/$0.20 - 2023/10/22 02:49:52 UTC')",
            line=line,
            hand_id=hand_id,
        )
    tour, name, limit, level, symbol, small, big, _ante, day, clock, zone = body.groups()
    game = _STUD_GAMES.get(name.strip().lower()) if limit == "Fixed Limit" else None
    game_text = f"{name.strip()} ({limit})"
    # A ring game counts in cents, play money too where it is written in hundredths without the
    # $ (0.04/0.08); a tournament in whole chips (written 250.00), and so does a ring game whose
    # stakes are whole numbers without the $ (10/20: our own play chips).
    money = tour is None and (bool(symbol) or "." in small + big)
    if game is None:
        return _Header(hand_id, None, game_text, money, None, "$", 0, 0, tour, None, None)
    return _Header(
        hand_id=hand_id,
        game=game,
        game_text=game_text,
        money=money,
        currency={"$": "USD", "€": "EUR", "£": "GBP"}.get(symbol) if money else None,
        symbol=symbol if money else "$",
        small_bet=_chips(small, money, line),
        big_bet=_chips(big, money, line),
        tournament=tour,
        level=_level(level) if level else None,
        date=f"{day} {clock} {zone or 'UTC'}",
    )


def looks_like_acr(first_line: str) -> bool:
    """Whether a line is an Americas Cardroom hand header (``Hand #N - GAME (LIMIT) - ...`` or a
    tournament's ``Game Hand #N - Tournament #T - ...``)."""
    text = first_line.lstrip("\ufeff").strip()
    return _HEADER.match(text) is not None and re.search(r"\((?:" + _LIMITS + r")\)", text) is not None


# ---------------------------------------------------------------------------------- one hand

_SEAT = re.compile(r"^Seat (\d+): (.+) \((" + _AMOUNT + r")\)(.*)$")
_STREET = re.compile(r"^\*\*\* (3rd|4th|5th|6th|7th) STREET \*\*\*(.*)$", re.IGNORECASE)
_POT = re.compile(r"^(?:Main pot|Side pot\((\d+)\)) (" + _AMOUNT + r")(?: \| Rake (" + _AMOUNT + r"))?$")
_ALL_IN = re.compile(r" and is all-in$")
_UNCALLED = re.compile(r"^Uncalled bet \((" + _AMOUNT + r")\) returned to (.+?)$")
_TOTAL = re.compile(
    r"^Total pot (" + _AMOUNT + r")(?: \| Rake (" + _AMOUNT + r"))?(?: \| JP Fee (" + _AMOUNT + r"))?$"
)
_COLLECTED = re.compile(r"^collected (" + _AMOUNT + r") from (main pot|side pot-(\d+)|pot)$")
_WON = re.compile(r"\band won (" + _AMOUNT + r")")
_ACTION_WORDS = ("posts", "brings in", "bets", "calls", "raises", "checks", "folds", "shows", "collected")
_OTHER_GAMES = ("posts the small blind", "posts the big blind", "posts dead", "discards", "stands pat")
_STREET_OF = {"3rd": 3, "4th": 4, "5th": 5, "6th": 6, "7th": 7}
_LOW_RANKS = "A23456789TJQK"
_ACTS = re.compile(r"^\S+ (?:posts ante|brings in|bets|calls|raises|checks|folds)\b")


def _cards(text: str, line: int) -> tuple[Card, ...]:
    """``"[Kc 4d] [Qd]"`` -> every card in the brackets, in order."""
    groups = re.findall(r"\[([^\]]*)\]", text)
    if not groups or re.sub(r"\[[^\]]*\]", "", text).strip():
        raise ACRError(f"expected cards in brackets such as [Kc 4d], not {text!r}", line=line)
    cards: list[Card] = []
    for token in " ".join(groups).split():
        try:
            cards.append(Card.parse(token))
        except MalformedCardError:
            raise ACRError(
                f"{token!r} is not a card (expected cards such as [As Td 2c]), in {text!r}", line=line
            ) from None
    return tuple(cards)


def _described(text: str, line: int) -> tuple[tuple[Card, ...] | None, tuple[str, ...] | None]:
    """``HI - two pair, Jacks and Eights [Jh Jd 8h 8d Qc] | LO - [8,7,5,3,2]`` -> the five cards
    and the low (an ace is written 1 or A)."""
    high, _, low_text = text.partition("| LO -")
    if text.startswith("LO -"):
        high, low_text = "", text[4:]
    five: tuple[Card, ...] | None = None
    groups = re.findall(r"\[([^\]]*)\]", high)
    if groups:
        five = _cards(f"[{groups[-1]}]", line)
        if len(five) != 5:
            raise ACRError(f"the best hand [{groups[-1]}] is not five cards, in {text!r}", line=line)
    low: tuple[str, ...] | None = None
    if low_text.strip():
        m = re.fullmatch(r"\s*\[([^\]]*)\]\s*", low_text)
        written = (m.group(1) if m else "").split(",")
        ranks = tuple("A" if r.strip() == "1" else r.strip().upper() for r in written)
        if m is None or len(ranks) != 5 or not all(len(r) == 1 and r in _LOW_RANKS for r in ranks):
            raise ACRError(f"expected a low such as 'LO - [8,7,5,3,2]', not {low_text.strip()!r}", line=line)
        low = ranks
    return five, low


class _HandParser:
    """Reads the lines of one hand, from its header up to the next header."""

    def __init__(self, file: str, head: _Header, header_text: str, first_line: int) -> None:
        self.file = file
        self.head = head
        self.header_text = header_text
        self.first_line = first_line
        self.table: str | None = None
        self.max_seats: int | None = None
        self.seats: list[Seat] = []
        self.names: list[str] = []  # longest first, so that "Hero2" is not read as "Hero"
        self.events: list[Event] = []
        self.street = 0  # 0 before 3rd street; 3..7; 8 at the showdown; 9 in the summary
        self.bets: dict[str, int] = {}  # each player's total on this street
        self.total: tuple[int, int, int, int] | None = None  # net pot, rake, fee, line
        self.revealed: list[tuple[int, str, tuple[Card, ...]]] = []
        self.pot_lines: list[PotLine] = []
        self.shows: list[ShownFive] = []
        self.summary_wins: list[tuple[int, str, int]] = []
        self.last_line = first_line

    def fail(self, reason: str, line: int) -> NoReturn:
        raise ACRError(reason, line=line)

    def amount(self, text: str, line: int) -> int:
        return _chips(text, self.head.money, line)

    def who(self, text: str) -> tuple[str, str] | None:
        for name in self.names:
            if text.startswith(name + " "):
                return name, text[len(name) + 1 :]
        return None

    def feed(self, number: int, text: str) -> None:
        if not text:
            return
        self.last_line = number
        if self.table is None and not self.seats and (m := _TABLE.match(text)):
            name = m.group(1)
            quoted = re.fullmatch(r"Table '(.*)'", name)
            self.table, self.max_seats = quoted.group(1) if quoted else name, int(m.group(2))
        elif text.startswith("*** "):
            self.section(number, text)
        elif text.startswith("Seat ") and self.street in (0, 9):
            if self.street == 0:
                self.seat(number, text)
            else:
                self.summary_seat(number, text)
        elif text.startswith(("Main pot ", "Side pot(")) and 3 <= self.street <= 8:
            m = _POT.match(text)
            if m is None:
                self.fail(f"expected 'Main pot AMOUNT | Rake AMOUNT', not {text!r}", number)
            pot = int(m.group(1)) if m.group(1) else 0
            rake = self.amount(m.group(3), number) if m.group(3) else 0
            self.pot_lines.append(PotLine(number, self.street, pot, self.amount(m.group(2), number), rake))
        elif text.startswith("Dealt to "):
            self.deal(number, text)
        elif text.startswith("Uncalled bet "):
            m = _UNCALLED.match(text)
            if m is None or m.group(2) not in self.names:
                self.fail(f"expected 'Uncalled bet (AMOUNT) returned to PLAYER', not {text!r}", number)
            self.events.append(Returned(number, m.group(2), self.amount(m.group(1), number)))
        elif self.street == 9 and text.startswith("Total pot "):
            m = _TOTAL.match(text)
            if m is None:
                self.fail(f"expected 'Total pot AMOUNT | Rake AMOUNT | JP Fee AMOUNT', not {text!r}", number)
            rake = self.amount(m.group(2), number) if m.group(2) else 0
            fee = self.amount(m.group(3), number) if m.group(3) else 0
            self.total = (self.amount(m.group(1), number), rake, fee, number)
        elif (found := self.who(text)) is not None:
            self.action(number, found[0], found[1].strip())
        elif self.street < 9 and _ACTS.match(text):
            self.fail(f"no seat holds the player who acts in {text!r} (expected a seated player)", number)
        elif self.street < 9 and not self.seats:
            self.fail(f"{text!r} is not a line of an ACR hand (expected 'Seat N: PLAYER (STACK)')", number)
        # Anything else is a table notice: "P has timed out", "P is disconnected", ...

    def section(self, number: int, text: str) -> None:
        m = _STREET.match(text)
        if m is not None:
            street = _STREET_OF[m.group(1).lower()]
            expected = 3 if self.street == 0 else self.street + 1
            if street != expected or self.street >= 8:
                want = f"*** {street_mark(expected)} ***" if expected <= 7 else "the summary"
                self.fail(f"{text!r} is out of order (expected {want})", number)
            if not self.seats:
                self.fail("3rd street before any 'Seat N: PLAYER (STACK)' line", number)
            community = None
            tail = m.group(2).strip()
            if street == 7 and tail:  # our writer's community card, when the deck runs out
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
                f"{text!r} is not a stud section (expected '*** 3rd STREET ***' to "
                "'*** 7th STREET ***', '*** SHOW DOWN ***' or '*** SUMMARY ***')",
                number,
            )

    def seat(self, number: int, text: str) -> None:
        m = _SEAT.match(text)
        if m is None:
            return  # "Seat 2: P will be allowed to play after the button": not dealt in
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
        player, tail = found
        m = re.search(r"\b(?:showed|mucked) (\[[^\]]*\])", tail)
        if m:
            self.revealed.append((number, player, _cards(m.group(1), number)))
        if won := _WON.search(tail):
            self.summary_wins.append((number, player, self.amount(won.group(1), number)))

    def deal(self, number: int, text: str) -> None:
        found = self.who(text[len("Dealt to ") :])
        if found is None:
            self.fail(f"expected 'Dealt to PLAYER [cards]' with a seated player, not {text!r}", number)
        if not 3 <= self.street <= 7:
            self.fail("cards dealt outside the streets (expected them after 3rd street)", number)
        self.events.append(Deal(number, self.street, found[0], _cards(found[1], number)))

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

        if m := re.fullmatch(r"posts ante (" + _AMOUNT + ")", body):
            if street != 0:
                self.fail("an ante after the deal (expected antes before 3rd street)", number)
            self.events.append(Ante(number, player, self.amount(m.group(1), number), all_in))
        elif m := re.fullmatch(r"brings in (" + _AMOUNT + ")", body):
            amount = self.amount(m.group(1), number)
            betting("bring-in", amount)
            self.bets[player] = amount
        elif m := re.fullmatch(r"(bets|calls) (" + _AMOUNT + ")", body):
            amount = self.amount(m.group(2), number)
            betting("bet" if m.group(1) == "bets" else "call", amount)
            self.bets[player] = mine + amount
        elif m := re.fullmatch(r"raises (" + _AMOUNT + ") to (" + _AMOUNT + ")", body):
            put, to = self.amount(m.group(1), number), self.amount(m.group(2), number)
            if put != to - mine:
                self.fail(
                    f"{player} raises {m.group(1)} to {m.group(2)}, but had {mine} in on this street "
                    f"(expected 'raises {to - mine} to {to}': what goes in now, then the street total)",
                    number,
                )
            if current == 0:  # a forced player who completes at once: a bet
                betting("bet", put)
            else:
                betting("raise", to - current, to)
            self.bets[player] = to
        elif body == "checks":
            betting("check")
        elif body == "folds":
            betting("fold")
        elif body.startswith("shows "):
            self.show(number, player, body[len("shows ") :])
        elif body in ("does not show", "mucks") or body.startswith("mucks "):
            self.events.append(Muck(number, player, shown_down=street == 8))
        elif body.startswith("collected "):
            m = _COLLECTED.match(body)
            if m is None:
                self.fail(f"expected 'PLAYER collected AMOUNT from main pot', not {rest!r}", number)
            where = m.group(2)
            pot = None if where == "pot" else (0 if where == "main pot" else int(m.group(3)))
            self.events.append(Collect(number, player, self.amount(m.group(1), number), pot))
        elif body.startswith(_OTHER_GAMES):
            self.fail(f"{rest!r} belongs to another game, not stud", number)
        elif body.startswith(_ACTION_WORDS):
            self.fail(
                f"unknown action {rest!r} (expected posts ante, brings in, bets, calls, raises X to Y, "
                "checks, folds, shows, does not show or collected X from main pot)",
                number,
            )
        # Otherwise a notice: "has timed out", "is disconnected", "sits out", ...

    def show(self, number: int, player: str, text: str) -> None:
        m = re.fullmatch(r"(\[[^\]]*\])\s*(?:\((.*)\))?", text)
        if m is None:
            self.fail(f"expected 'PLAYER shows [cards] (description)', not {text!r}", number)
        if "-" in m.group(1).split():  # "shows [- Jc]": a card shown, the other not
            if self.street == 8:
                self.fail(f"{player} shows only part of the hand at the showdown: {text!r}", number)
            return
        self.events.append(Show(number, player, _cards(m.group(1), number), None))
        if m.group(2) is not None and self.street == 8:
            five, low = _described(m.group(2), number)
            self.shows.append(ShownFive(number, player, five, low))

    def finish(self) -> ACRHand:
        head = self.head
        assert head.game is not None
        if self.street != 9 or self.total is None:
            missing = "'*** SUMMARY ***'" if self.street != 9 else "'Total pot AMOUNT'"
            self.fail(
                f"hand #{head.hand_id} stops after this line: expected the rest of the hand up to "
                f"{missing} (the history looks truncated)",
                self.last_line,
            )
        if not self.seats:
            self.fail("the hand has no 'Seat N: PLAYER (STACK)' lines", self.first_line)
        net, rake, fee, total_line = self.total
        showdown = [p for p in self.pot_lines if p.street == 8]
        if showdown and sum(p.rake for p in showdown) != rake + fee:
            self.fail(
                f"the summary takes a rake of {rake} and a jackpot fee of {fee}, but the showdown's "
                f"pot lines (line {showdown[0].line}) take {sum(p.rake for p in showdown)} in all",
                total_line,
            )
        events = list(self.events)
        collects = [e for e in events if isinstance(e, Collect)]
        if collects:  # the showdown's collected lines and the summary must agree
            paid: Counter[str] = Counter()
            for c in collects:
                paid[c.player] += c.amount
            for line, player, amount in self.summary_wins:
                if paid[player] != amount:
                    said = f"the summary says {player} won {amount}"
                    self.fail(f"{said}; the collected lines pay {paid[player]}", line)
        else:  # a pot won without a showdown is written in the summary alone
            events += [Collect(line, player, amount, None) for line, player, amount in self.summary_wins]
        return ACRHand(
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
            events=tuple(events),
            total_pot=net + rake + fee,
            rake=rake + fee,
            total_line=total_line,
            revealed=tuple(self.revealed),
            level=head.level,
            end_line=self.last_line,
            jackpot_fee=fee,
            pot_lines=tuple(self.pot_lines),
            shows=tuple(self.shows),
        )


# ---------------------------------------------------------------------------------- the reader


class ACRReader(TextHistoryReader[ACRHand, _Header]):
    """Iterate the stud hands of an Americas Cardroom history, one at a time, without loading the
    file. Each item is an :class:`ACRHand` (replay it with :func:`play_acr`), or an
    :class:`ACRError` for a hand that cannot be read (the reader then goes on). Hands of other
    games are counted in :attr:`skipped` (by game in :attr:`skipped_games`). A file whose first
    line is not an ACR header raises :class:`NotACRError`. (The file loop is
    :class:`~.text_reader.TextHistoryReader`'s.)"""

    def _opens_hand(self, text: str, in_hand: bool) -> bool:
        # ACR's header pattern also matches a line inside a hand; within one, only a line that
        # looks like a whole ACR header opens the next.
        return _HEADER.match(text) is not None and (looks_like_acr(text) or not in_hand)

    def _not_ours(self, text: str, number: int) -> PokerStarsError:
        return NotACRError(
            f"not an Americas Cardroom hand history: it starts {text.strip()[:60]!r} "
            "(expected 'Hand #N - 7Stud H/L (Fixed Limit) - ...')"
        )

    def _header(self, text: str, number: int) -> _Header:
        return _parse_header(text, number)

    def _parser(self, head: _Header, text: str, number: int) -> _HandParser:
        return _HandParser(self.name, head, text, number)


def read_acr(source: str | Path | IO[str], name: str | None = None) -> ACRReader:
    """An :class:`ACRReader` over a file name, a path or an open text stream."""
    return ACRReader(source, name)
