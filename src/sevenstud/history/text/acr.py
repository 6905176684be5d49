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
:func:`format_acr`.

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
import itertools
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from sevenstud import evaluate
from sevenstud.cards import Card, format_cards
from sevenstud.games import GameCode
from sevenstud.hand import ActionKind, Hand
from sevenstud.history.text.acr_model import (
    STREET_MARKS,
    ACRError,
    ACRHand,
    NotACRError,
    PotLine,
    ShownFive,
    street_mark,
)
from sevenstud.history.text.acr_replay import acr_game, play_acr
from sevenstud.history.text.model import AMOUNT, Collect, Muck, Show, card_list, chips
from sevenstud.history.text.reader import (
    Header,
    LineParser,
    ReadingDialect,
    TextHistoryReader,
    level_number,
)
from sevenstud.history.text.writer import TextRecord, TextWriter, WritingDialect
from sevenstud.pots import build_pots, split_rake

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

_HEADER = re.compile(r"^(?:Game )?Hand #(\d+) - (.*)$")
_LIMITS = r"No Limit|Pot Limit|Fixed Limit|All-in or Fold Limit"
_BODY = re.compile(
    r"^(?:(?:[$€£]?[0-9][0-9.,]*K? GTD )?Tournament #(\d+) - )?"
    r"(.+?) ?\((" + _LIMITS + r")\) ?- "
    r"(?:Level (\w+) )?\(?([$€£]?)([0-9][0-9,.]*)/[$€£]?([0-9][0-9,.]*)\)?"
    r"(?:, Ante ([$€£]?[0-9][0-9,.]*))?"
    r" ?- ?(\d{4}/\d{1,2}/\d{1,2}) (\d{1,2}:\d{2}:\d{2})(?: (\w+))?\s*$"
)
GAME_TITLES: dict[GameCode, str] = {"stud8": "7Stud H/L", "stud": "7Stud", "razz": "Razz"}
"""How an ACR header names each of our games (before ``(Fixed Limit)``). The room deals no razz
that we have seen written; we name it ``Razz``."""
_STUD_GAMES = {title.lower(): code for code, title in GAME_TITLES.items()}
_TABLE = re.compile(r"^(.+?) (\d+)-max(?: \(Play Money\))?(?: Seat #\d+ is the button)?$")


def _parse_header(text: str, line: int) -> Header:
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
        return Header(hand_id, None, game_text, money, None, "$", 0, 0, tour, None)
    return Header(
        hand_id=hand_id,
        game=game,
        game_text=game_text,
        money=money,
        currency={"$": "USD", "€": "EUR", "£": "GBP"}.get(symbol) if money else None,
        symbol=symbol if money else "$",
        small_bet=chips(small, money, line, ACRError),
        big_bet=chips(big, money, line, ACRError),
        tournament=tour,
        level=level_number(level) if level else None,
        date=f"{day} {clock} {zone or 'UTC'}",
    )


def looks_like_acr(first_line: str) -> bool:
    """Whether a line is an Americas Cardroom hand header (``Hand #N - GAME (LIMIT) - ...`` or a
    tournament's ``Game Hand #N - Tournament #T - ...``)."""
    text = first_line.lstrip("\ufeff").strip()
    return _HEADER.match(text) is not None and re.search(r"\((?:" + _LIMITS + r")\)", text) is not None


# ---------------------------------------------------------------------------------- one hand

_POT = re.compile(r"^(?:Main pot|Side pot\((\d+)\)) (" + AMOUNT + r")(?: \| Rake (" + AMOUNT + r"))?$")
_TOTAL = re.compile(
    r"^Total pot (" + AMOUNT + r")(?: \| Rake (" + AMOUNT + r"))?(?: \| JP Fee (" + AMOUNT + r"))?$"
)
_COLLECTED = re.compile(r"^collected (" + AMOUNT + r") from (main pot|side pot-(\d+)|pot)$")
_WON = re.compile(r"\band won (" + AMOUNT + r")")
_LOW_RANKS = "A23456789TJQK"

READING = ReadingDialect(
    room="an Americas Cardroom",
    error=ACRError,
    header=_HEADER,
    header_form="'Hand #N - 7Stud H/L (Fixed Limit) - ...'",
    street_marks=STREET_MARKS,
    seat=re.compile(r"^Seat (\d+): (.+) \((" + AMOUNT + r")\)(.*)$"),
    seat_form="Seat N: PLAYER (STACK)",
    uncalled=re.compile(r"^Uncalled bet \((" + AMOUNT + r")\) returned to (.+?)$"),
    uncalled_form="Uncalled bet (AMOUNT) returned to PLAYER",
    actor=" ",
    all_in=re.compile(r" and is all-in$"),
    verbs={
        "ante": re.compile(r"posts ante (?P<amount>" + AMOUNT + ")"),
        "bring-in": re.compile(r"brings in (?P<amount>" + AMOUNT + ")"),
        "bet": re.compile(r"bets (?P<amount>" + AMOUNT + ")"),
        "call": re.compile(r"calls (?P<amount>" + AMOUNT + ")"),
        "raise": re.compile(r"raises (?P<put>" + AMOUNT + ") to (?P<to>" + AMOUNT + ")"),
    },
    other_games=("posts the small blind", "posts the big blind", "posts dead", "discards", "stands pat"),
    action_words=("posts", "brings in", "bets", "calls", "raises", "checks", "folds", "shows", "collected"),
    notices=(),
    actions_form=(
        "posts ante, brings in, bets, calls, raises X to Y, checks, folds, shows, does not show "
        "or collected X from main pot"
    ),
    stranger=re.compile(r"^(\S+) (?:posts ante|brings in|bets|calls|raises|checks|folds)\b"),
    total_form="Total pot AMOUNT",
    amount_example="$0.40 or 150.00",
    no_low=False,
)
"""How Americas Cardroom writes the lines every room writes."""


def _described(text: str, line: int) -> tuple[tuple[Card, ...] | None, tuple[str, ...] | None]:
    """``HI - two pair, Jacks and Eights [Jh Jd 8h 8d Qc] | LO - [8,7,5,3,2]`` -> the five cards
    and the low (an ace is written 1 or A)."""
    high, _, low_text = text.partition("| LO -")
    if text.startswith("LO -"):
        high, low_text = "", text[4:]
    five: tuple[Card, ...] | None = None
    groups = re.findall(r"\[([^\]]*)\]", high)
    if groups:
        five = card_list(groups[-1], line)
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


class _HandParser(LineParser):
    """The room's own lines: the table, the running pots, its shows, mucks and collects, the
    summary's winnings and its jackpot fee."""

    dialect = READING

    def __init__(self, file: str, head: Header, header_text: str, first_line: int) -> None:
        super().__init__(file, head, header_text, first_line)
        self.fee = 0
        self.pot_lines: list[PotLine] = []
        self.shows: list[ShownFive] = []
        self.summary_wins: list[tuple[int, str, int]] = []

    def own_line(self, number: int, text: str) -> bool:
        if self.table is None and not self.seats and (m := _TABLE.match(text)):
            name = m.group(1)
            quoted = re.fullmatch(r"Table '(.*)'", name)
            self.table, self.max_seats = quoted.group(1) if quoted else name, int(m.group(2))
        elif text.startswith(("Main pot ", "Side pot(")) and 3 <= self.street <= 8:
            m = _POT.match(text)
            if m is None:
                self.fail(f"expected 'Main pot AMOUNT | Rake AMOUNT', not {text!r}", number)
            pot = int(m.group(1)) if m.group(1) else 0
            rake = self.amount(m.group(3), number) if m.group(3) else 0
            self.pot_lines.append(PotLine(number, self.street, pot, self.amount(m.group(2), number), rake))
        else:
            return False
        return True

    def seat(self, number: int, text: str) -> None:
        if self.dialect.seat.match(text) is not None:  # else "Seat 2: P will be allowed to play
            super().seat(number, text)  # after the button": not dealt in

    def other_line(self, number: int, text: str) -> None:
        if self.street < 9 and not self.seats:
            self.fail(f"{text!r} is not a line of an ACR hand (expected 'Seat N: PLAYER (STACK)')", number)
        # Anything else is a table notice: "P has timed out", "P is disconnected", ...

    def summary_seat(self, number: int, text: str) -> tuple[str, str] | None:
        found = super().summary_seat(number, text)
        if found is not None and (won := _WON.search(found[1])):
            self.summary_wins.append((number, found[0], self.amount(won.group(1), number)))
        return found

    def total_line(self, number: int, text: str) -> None:
        m = _TOTAL.match(text)
        if m is None:
            self.fail(f"expected 'Total pot AMOUNT | Rake AMOUNT | JP Fee AMOUNT', not {text!r}", number)
        rake = self.amount(m.group(2), number) if m.group(2) else 0
        self.fee = self.amount(m.group(3), number) if m.group(3) else 0
        # Our engine counts the pot before the rake and the jackpot fee, both taken from it.
        self.total = (self.amount(m.group(1), number) + rake + self.fee, rake + self.fee, number)

    def show(self, number: int, player: str, body: str) -> None:
        text = body[len("shows ") :]
        m = re.fullmatch(r"(\[[^\]]*\])\s*(?:\((.*)\))?", text)
        if m is None:
            self.fail(f"expected 'PLAYER shows [cards] (description)', not {text!r}", number)
        if "-" in m.group(1).split():  # "shows [- Jc]": a card shown, the other not
            if self.street == 8:
                self.fail(f"{player} shows only part of the hand at the showdown: {text!r}", number)
            return
        self.events.append(Show(number, player, self.cards(m.group(1), number), None))
        if m.group(2) is not None and self.street == 8:
            five, low = _described(m.group(2), number)
            self.shows.append(ShownFive(number, player, five, low))

    def muck(self, number: int, player: str, body: str) -> bool:
        if body in ("does not show", "mucks") or body.startswith("mucks "):
            self.events.append(Muck(number, player, shown_down=self.street == 8))
            return True
        return False

    def collect(self, number: int, player: str, body: str) -> bool:
        if not body.startswith("collected "):
            return False
        m = _COLLECTED.match(body)
        if m is None:
            self.fail(f"expected 'PLAYER collected AMOUNT from main pot', not {body!r}", number)
        where = m.group(2)
        pot = None if where == "pot" else (0 if where == "main pot" else int(m.group(3)))
        self.events.append(Collect(number, player, self.amount(m.group(1), number), pot))
        return True

    def made(self, fields: dict[str, Any]) -> ACRHand:
        rake, total_line = fields["rake"], fields["total_line"]
        showdown = [p for p in self.pot_lines if p.street == 8]
        if showdown and sum(p.rake for p in showdown) != rake:
            self.fail(
                f"the summary takes a rake of {rake - self.fee} and a jackpot fee of {self.fee}, but "
                f"the showdown's pot lines (line {showdown[0].line}) take "
                f"{sum(p.rake for p in showdown)} in all",
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
        fields.update(events=tuple(events), buy_in=None)
        return ACRHand(
            **fields, jackpot_fee=self.fee, pot_lines=tuple(self.pot_lines), shows=tuple(self.shows)
        )


# ---------------------------------------------------------------------------------- the reader


class ACRReader(TextHistoryReader[ACRHand]):
    """Iterate the stud hands of an Americas Cardroom history, one at a time, without loading the
    file. Each item is an :class:`ACRHand` (replay it with :func:`play_acr`), or an
    :class:`ACRError` for a hand that cannot be read (the reader then goes on). Hands of other
    games are counted in :attr:`skipped` (by game in :attr:`skipped_games`). A file whose first
    line is not an ACR header raises :class:`NotACRError`. (The file loop is
    :class:`~.reader.TextHistoryReader`'s.)"""

    parser = _HandParser
    not_ours = NotACRError
    header_of = staticmethod(_parse_header)

    def _opens_hand(self, text: str, in_hand: bool) -> bool:
        # ACR's header pattern also matches a line inside a hand; within one, only a line that
        # looks like a whole ACR header opens the next.
        return _HEADER.match(text) is not None and (looks_like_acr(text) or not in_hand)


def read_acr(source: str | Path | IO[str], name: str | None = None) -> ACRReader:
    """An :class:`ACRReader` over a file name, a path or an open text stream."""
    return ACRReader(source, name)


# ---------------------------------------------------------------------------------- writing

_PUT_TO = "{name} raises {put} to {to}{all_in}"  # what goes in now, then the street total
WRITING = WritingDialect(
    street_marks=STREET_MARKS,
    all_in=" and is all-in",
    lines={
        "seat": "Seat {number}: {name} ({stack})",
        "ante": "{name} posts ante {amount}{all_in}",
        "bring-in": "{name} brings in {amount}{all_in}",
        "bet": "{name} bets {amount}{all_in}",
        "call": "{name} calls {amount}{all_in}",
        "complete": _PUT_TO,
        "complete_opening": _PUT_TO,
        "raise": _PUT_TO,
        "fold": "{name} folds",
        "check": "{name} checks",
        "uncalled": "Uncalled bet ({amount}) returned to {name}",
        "show": "{name} shows [{cards}] ({description})",
        "muck": "{name} does not show",
    },
    default_date="2024/01/01 00:00:00 UTC",
    no_low=False,
)
"""How Americas Cardroom writes the lines every room writes."""


class ACRWriter(TextWriter):
    """The room's header and table line, its running pots, its collects and its summary with
    the jackpot fee.

    Our engine takes the rake once, when the pot is paid, so the running ``Main pot X | Rake Y``
    lines carry ``Rake $0.00`` until the showdown's, which show the pots after the whole rake;
    the summary splits what was taken into ``Rake`` and ``JP Fee`` by the record's
    ``jackpot_fee``."""

    dialect = WRITING

    def __init__(self, hand: Hand, record: TextRecord) -> None:
        if not 0 <= record.jackpot_fee <= hand.rake:
            raise ValueError(f"the jackpot fee {record.jackpot_fee} is not a part of the rake {hand.rake}")
        super().__init__(hand, record)

    def amount(self, chips: int) -> str:
        if self.record.money:
            return f"{self.record.symbol}{chips // 100}.{chips % 100:02d}"
        # Tournament chips as the room writes them; a ring game's play chips as whole numbers,
        # which the reader tells from money written without the $.
        return f"{chips}.00" if self.record.tournament is not None else str(chips)

    def header_lines(self) -> list[str]:
        record, stakes = self.record, self.hand.game.stakes
        title = f"{GAME_TITLES[self.hand.game.code]} (Fixed Limit)"
        bets = f"{self.amount(stakes.small_bet)}/{self.amount(stakes.big_bet)}"
        seats = record.max_seats or max(8, max(self.numbers))
        if record.tournament is not None:
            where = f"Game Hand #{record.hand_id} - Tournament #{record.tournament}"
            return [
                f"{where} - {title} - Level {record.level or 1} ({bets}) - {self.date}",
                f"Table '{record.table}' {seats}-max",
            ]
        ante = f", Ante {self.amount(stakes.ante)}" if stakes.ante else ""
        return [
            f"Hand #{record.hand_id} - {title} - {bets}{ante} - {self.date}",
            f"{record.table} {seats}-max",
        ]

    def pot_lines(self, pots: list[tuple[int, int]]) -> None:
        """``Main pot X | Rake Y`` and ``Side pot(N) ...``: each pot after the rake, and the rake."""
        for index, (net, rake) in enumerate(pots or [(0, 0)]):
            label = "Main pot" if index == 0 else f"Side pot({index})"
            shown = self.record.tournament is None or rake
            self.out.append(f"{label} {self.amount(net)}" + (f" | Rake {self.amount(rake)}" if shown else ""))

    def after_mark(self) -> None:
        self.pot_lines([(p.amount, 0) for p in build_pots(self.contributed, [not f for f in self.folded])])

    def after_showdown_mark(self) -> None:
        gross = build_pots(self.contributed, [not f for f in self.folded], self.fold_order)
        each_pot = self.hand.game.rake_from == "each_pot"
        taken = split_rake([p.amount for p in gross], self.hand.rake, each_pot=each_pot)
        self.pot_lines([(p.amount - t, t) for p, t in zip(gross, taken, strict=True)])

    def description(self, seat: int) -> str:
        return describe(self.hand, seat)

    def award_lines(self) -> list[str]:
        if not self.showdown:
            return [f"{self.names[s]} does not show" for s in range(self.hand.n) if self.won[s]]
        return [  # the main pot first, as the room lists them
            f"{self.names[a.seat]} collected {self.amount(a.amount)} from "
            + ("main pot" if a.pot == 0 else f"side pot-{a.pot}")
            for a in sorted(self.awards, key=lambda a: a.pot)
        ]

    def total_lines(self) -> list[str]:
        rake, fee = self.hand.rake, self.record.jackpot_fee
        total = f"Total pot {self.amount(sum(a.amount for a in self.awards))}"
        if rake:
            total += f" | Rake {self.amount(rake - fee)}"
        if fee:
            total += f" | JP Fee {self.amount(fee)}"
        return [total]

    def summary_line(self, seat: int) -> str:
        line, won = f"Seat {self.numbers[seat]}: {self.names[seat]}", self.won[seat]
        if seat in self.folded_on:
            street = self.folded_on[seat]
            line += f" folded on the {street_mark(street).split()[0]} Street"
            if street == 3 and set(self.acted.get((seat, 3), [])) <= {ActionKind.BRING_IN}:
                line += " and did not bet"
            return line
        if seat in self.shown:
            result = f"won {self.amount(won)}" if won else "lost"
            cards = format_cards(self.shown[seat].cards)
            return line + f" showed [{cards}] and {result} with {describe(self.hand, seat)}"
        if seat in self.mucked:
            return line + " mucked"
        return line + (f" did not show and won {self.amount(won)}" if won else " did not show")


def format_acr(hand: Hand, record: TextRecord | None = None, /, **fields: Any) -> str:
    """A hand of ours as Americas Cardroom writes it, as ``record`` (or the :class:`TextRecord`
    that ``fields`` make) says: seen by its ``hero`` (``None``: an observer, who sees the up
    cards), with the down cards of the seats it reveals, never a card nobody saw. Money is
    written ``$0.10`` (cents), tournament chips ``250.00`` and a ring game's play chips ``250``;
    a ``tournament`` number writes a tournament header at ``level``. ``jackpot_fee`` is the part
    of the hand's rake written as ``JP Fee``."""
    return ACRWriter(hand, dataclasses.replace(record or TextRecord(), **fields)).text()


def best_five(cards: Sequence[Card]) -> list[Card]:
    """The five of ``cards`` that make the best high hand, the telling cards first (pairs before
    kickers, higher before lower), as the room lists them."""
    best = max(itertools.combinations(cards, 5), key=lambda five: evaluate.high_rank([int(c) for c in five]))
    counts = Counter(c.rank for c in best)
    return sorted(best, key=lambda c: (-counts[c.rank], -c.rank))


def _high_words(rank: int) -> str:
    """Our name of a high hand in the room's words (``a high card, Queen high``, ``three of a
    kind, Set of Tens``, ``a straight, Queen high``)."""
    name = evaluate.high_name(rank)
    if name.startswith("high card "):
        return f"a high card, {name[len('high card ') :]} high"
    if name.startswith("three of a kind, "):
        return f"three of a kind, Set of {name[len('three of a kind, ') :]}"
    if name.startswith(("a straight, ", "a straight flush, ")):
        head, _, top = name.rpartition(" to ")
        return f"{head.rsplit(',', 1)[0]}, {top} high"
    return name


def describe(hand: Hand, seat: int) -> str:
    """A shown hand described as the room does: the high hand and its best five in brackets, and
    in hi/lo ``HI - ... | LO - [8,7,5,3,2]`` (an ace written 1); in razz ``LO - [..]``."""
    game = hand.game
    seven = hand.seven_cards(seat)
    high, low = game.showdown_ranks([int(c) for c in seven])
    low_text = "[" + ",".join("1" if r == "A" else r for r in evaluate.low_cards(low)) + "]" if low else ""
    if not game.has_high:
        return f"LO - {low_text}"
    high_text = f"{_high_words(high)} [{format_cards(best_five(seven))}]"
    if not game.split:
        return high_text
    return f"HI - {high_text}" + (f" | LO - {low_text}" if low else "")
