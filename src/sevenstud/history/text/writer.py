"""The one writer of the card rooms' text hand histories: a hand of ours, from one viewer's point
of view, in a room's words (:class:`WritingDialect`), with what the history says about it in one
record (:class:`TextRecord`). The walk through the hand's events is shared; a room's writer
(:class:`TextWriter`'s subclass in :mod:`.pokerstars`, :mod:`.fulltilt`, :mod:`.acr`) writes only
its header, the pots won, the summary and the lines that are its own.

Whatever a record names (a table, a tournament, a player) is written on the line it belongs to:
a character that could end that line or pass for another (a control, a format or bidi control, a
line or paragraph separator) is written ``?`` (:func:`one_line`), so that a name can never forge
a line that a tracker would import.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, NamedTuple

from sevenstud.cards import CARDS, Card, format_cards
from sevenstud.hand import (
    ActionKind,
    ActionTaken,
    AntePosted,
    BetReturned,
    CardDealt,
    CommunityCardDealt,
    Hand,
    HandMucked,
    HandShown,
    PotAwarded,
)
from sevenstud.history.amounts import format_amount

__all__ = ["TextRecord", "TextWriter", "WritingDialect", "WrittenSeats", "one_line", "written_seats"]


@dataclass(frozen=True, kw_only=True)
class TextRecord:
    """What a text history says about a hand besides its play: who sits where, whose cards are
    written, the hand's number, table, date, money and tournament. A room writes what it has a
    place for and leaves the rest."""

    players: Sequence[str] | None = None
    """The players' names by seat index (``Player1``... by default)."""
    seat_numbers: Sequence[int] | None = None
    """The table's seat numbers by seat index (1... by default)."""
    hero: int | None = None
    """The seat index whose down cards are written (``None``: a spectator's view)."""
    reveal: Iterable[int] | Literal["all"] = ()
    """Seats whose down cards are written too (``"all"``: every seat)."""
    unknown: Collection[int] = ()
    """Cards nobody saw (made up to replay another file): never written."""
    hand_id: str | int = 1
    table: str = "sevenstud"
    max_seats: int | None = None
    date: str | None = None
    """``YYYY/MM/DD HH:MM:SS ZONE`` (``None``: the room's default, 2024/01/01 at midnight)."""
    money: bool = False
    """Chips are cents, written as money (``$0.04``)."""
    currency: str = "USD"
    symbol: str = "$"
    tournament: str | None = None
    """A tournament's number: the room's tournament header is written."""
    level: int | None = None
    buy_in: str | None = None
    """A tournament's buy-in as PokerStars writes it (``$200+$15 USD``, ``Freeroll``)."""
    show_mucked: bool = True
    """PokerStars: a hand mucked at the showdown is listed in the summary with its cards."""
    jackpot_fee: int = 0
    """Americas Cardroom: the part of the hand's rake written as ``JP Fee``."""


def one_line(text: str) -> str:
    """``text`` with every character that could end a line or pass for another written ``?``:
    controls (``\\n``, ``\\r``, ``\\x85``), format and bidi controls (U+202E, U+2066, U+200B) and
    the line and paragraph separators (U+2028, U+2029).

    >>> one_line("Evil' 2-max\\nDealt to bot2 [Ah Ad]\\u2028x\\u202e")
    "Evil' 2-max?Dealt to bot2 [Ah Ad]?x?"
    """
    return "".join("?" if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") else c for c in text)


def _on_one_line(record: TextRecord) -> TextRecord:
    """The record with every name it gives through :func:`one_line`."""
    changes: dict[str, Any] = {
        field.name: one_line(value)
        for field in dataclasses.fields(record)
        if isinstance(value := getattr(record, field.name), str) and value != "all"
    }
    if record.players is not None:
        changes["players"] = [one_line(name) for name in record.players]
    return dataclasses.replace(record, **changes)


class WrittenSeats(NamedTuple):
    """The players' names and seat numbers, by seat index, the seats whose down cards are
    written (``full``) and the cards nobody saw (``hidden``)."""

    names: list[str]
    numbers: list[int]
    full: set[int]
    hidden: set[Card]


def written_seats(hand: Hand, record: TextRecord) -> WrittenSeats:
    """Names (``Player1``... by default) and seat numbers (1... by default), refused with a
    ``ValueError`` unless there is one different name and one number per seat; the down cards
    written are the hero's and those of the seats revealed (``"all"``: every seat), but never a
    seat's that holds a card nobody saw (``record.unknown``)."""
    n = hand.n
    names = list(record.players) if record.players is not None else [f"Player{i + 1}" for i in range(n)]
    numbers = list(record.seat_numbers) if record.seat_numbers is not None else list(range(1, n + 1))
    if len(names) != n or len(numbers) != n or len(set(names)) != n:
        raise ValueError(f"need {n} different player names and seat numbers")
    hidden = {CARDS[c] for c in record.unknown}
    full = set(range(n)) if record.reveal == "all" else set(record.reveal)
    if record.hero is not None:
        full.add(record.hero)
    full = {s for s in full if not hidden.intersection(hand.cards[s])}
    return WrittenSeats(names, numbers, full, hidden)


@dataclass(frozen=True)
class WritingDialect:
    """How one room writes the lines every room writes. Each line is a template filled with
    ``name``, ``amount`` (an ante, a bring-in, a bet or a call), ``put`` (what goes in now),
    ``by`` (by how much a raise raises), ``to`` (the street total), ``all_in``, ``cards``,
    ``description``, ``number`` and ``stack``."""

    street_marks: dict[int, str]
    """``3rd STREET`` ... as written between ``*** `` and `` ***``."""
    all_in: str
    """The ending of an all-in action."""
    lines: dict[str, str]
    """The templates: ``seat``, ``ante``, ``bring-in``, ``bet``, ``call``, ``complete`` (the
    bring-in completed), ``complete_opening`` (completed by the forced player at once),
    ``raise``, ``fold``, ``check``, ``uncalled``, ``show`` and ``muck``."""
    default_date: str = "2024/01/01 00:00:00 ET"
    split_third: bool = False
    """3rd street's down cards and up card in two brackets (``[9h 9s] [5c]``), else one."""
    ante_return_after_deal: bool = False
    """An ante nobody matched is written after the 3rd-street deal, else where it happens
    (before the deal)."""
    no_low: bool = True
    """``No low hand qualified`` after a hi/lo showdown that paid no low."""
    board: bool = True
    """``Board [Xx]`` in the summary, where the deck ran out."""


class TextWriter:
    """Writes one hand in :attr:`dialect`'s words; a room's subclass writes its header, its
    seats' and pots' lines and its summary (the methods that raise ``NotImplementedError``)."""

    dialect: ClassVar[WritingDialect]

    def __init__(self, hand: Hand, record: TextRecord) -> None:
        self.hand = hand
        self.record = _on_one_line(record)
        self.names, self.numbers, self.full, self.hidden = written_seats(hand, self.record)
        self.date = self.record.date or self.dialect.default_date
        self.out: list[str] = []
        n = hand.n
        self.street = 0  # 0 before the deal
        self.street_high = 0  # the street's highest total so far: a bet opens it, a raise raises it
        self.dealt: list[tuple[int, Card, bool]] = []  # this street's cards, not yet written
        # An ante nobody matched goes back before the deal in our events; a room may print it
        # after the 3rd-street deal, where a tracker looks for it.
        self.ante_returns: list[str] = []
        self.contributed = [0] * n
        self.folded = [False] * n
        self.fold_order: list[int] = []
        self.folded_on: dict[int, int] = {}
        self.acted: dict[tuple[int, int], list[ActionKind]] = {}  # (seat, street): all but folds
        self.shown: dict[int, HandShown] = {}
        self.mucked: set[int] = set()
        self.awards: list[PotAwarded] = []
        self.won: Counter[int] = Counter()
        self.showdown = hand.is_over and sum(not f for f in hand.folded) >= 2
        self.showdown_written = False

    def amount(self, chips: int) -> str:
        """Chips as the room writes them (``$0.04`` for money, ``150`` else)."""
        return format_amount(chips, self.record.money, self.record.symbol)

    def line(self, template: str, seat: int | None = None, **fields: Any) -> str:
        """The dialect's line ``template`` filled in (``seat``: the player's name)."""
        name = self.names[seat] if seat is not None else ""
        return self.dialect.lines[template].format(name=name, **fields)

    def text(self) -> str:
        """The hand's history."""
        hand, out = self.hand, self.out
        out.extend(self.header_lines())
        for s in range(hand.n):
            stack = self.amount(hand.starting_stacks[s])
            out.append(self.line("seat", s, number=self.numbers[s], stack=stack))
        for ev in hand.events:
            if self.dealt and not (isinstance(ev, CardDealt) and ev.street == self.street):
                self.flush_deals()
            if isinstance(ev, AntePosted):
                self.contributed[ev.seat] += ev.amount
                if ev.amount:
                    out.append(
                        self.line("ante", ev.seat, amount=self.amount(ev.amount), all_in=self.tail(ev.all_in))
                    )
            elif isinstance(ev, CardDealt):
                if ev.street != self.street:
                    self.street, self.street_high = ev.street, 0
                    out.append(f"*** {self.dialect.street_marks[ev.street]} ***")
                    self.after_mark()
                assert ev.card is not None
                self.dealt.append((ev.seat, ev.card, ev.face_up))
            elif isinstance(ev, CommunityCardDealt):
                self.street, self.street_high = 7, 0
                out.append(f"*** {self.dialect.street_marks[7]} *** [{ev.card}]")
                self.after_mark()
            elif isinstance(ev, ActionTaken):
                self.action(ev)
            elif isinstance(ev, BetReturned):
                self.contributed[ev.seat] -= ev.amount
                returned = self.line("uncalled", ev.seat, amount=self.amount(ev.amount))
                early = self.street == 0 and self.dialect.ante_return_after_deal
                (self.ante_returns if early else out).append(returned)
            elif isinstance(ev, HandShown | HandMucked | PotAwarded):
                if self.showdown and not self.showdown_written:
                    out.append("*** SHOW DOWN ***")
                    self.after_showdown_mark()
                    self.showdown_written = True
                if isinstance(ev, HandShown):
                    self.shown[ev.seat] = ev
                    cards = format_cards(ev.cards)
                    out.append(self.line("show", ev.seat, cards=cards, description=self.description(ev.seat)))
                elif isinstance(ev, HandMucked):
                    self.mucked.add(ev.seat)
                    out.append(self.line("muck", ev.seat))
                else:
                    self.awards.append(ev)
                    self.won[ev.seat] += ev.amount
        if self.dealt:
            self.flush_deals()
        out.extend(self.award_lines())
        paid_low = any(a.share == "low" for a in self.awards)
        if self.dialect.no_low and self.showdown and hand.game.split and not paid_low:
            out.append("No low hand qualified")
        out.append("*** SUMMARY ***")
        out.extend(self.total_lines())
        if self.dialect.board and hand.community is not None:
            out.append(f"Board [{hand.community}]")
        out.extend(self.summary_line(s) for s in range(hand.n))
        return "\n".join(out) + "\n"

    def tail(self, all_in: bool) -> str:
        return self.dialect.all_in if all_in else ""

    def seen(self, seat: int, upto: int) -> list[Card]:
        """The seat's first ``upto`` cards that the viewer sees."""
        cards = self.hand.cards[seat][:upto]
        if seat in self.full:
            return list(cards)
        return [c for c, up in zip(cards, self.hand.face_up[seat][:upto], strict=True) if up]

    def flush_deals(self) -> None:
        """The street's ``Dealt to`` lines, seat by seat: what the viewer sees."""
        for s in range(self.hand.n):
            mine = [(c, up) for seat, c, up in self.dealt if seat == s]
            if not mine:
                continue
            name = self.names[s]
            if self.street == 3:
                ups = [c for c, up in mine if up]
                if s not in self.full:
                    groups = [ups]
                elif self.dialect.split_third:
                    groups = [[c for c, up in mine if not up], ups]
                else:
                    groups = [[c for c, _ in mine]]
                self.out.append(f"Dealt to {name} " + " ".join(f"[{format_cards(g)}]" for g in groups))
                continue
            card, up = mine[0]
            if up or s in self.full:
                self.out.append(f"Dealt to {name} [{format_cards(self.seen(s, self.street - 1))}] [{card}]")
        self.dealt.clear()
        if self.street == 3:
            self.out.extend(self.ante_returns)
            self.ante_returns.clear()

    def action(self, ev: ActionTaken) -> None:
        s, action = ev.seat, ev.action
        kind = action.kind
        self.contributed[s] += ev.chips
        if kind is ActionKind.FOLD:
            self.folded[s] = True
            self.fold_order.append(s)
            self.folded_on[s] = ev.street
            self.out.append(self.line("fold", s))
            return
        self.acted.setdefault((s, ev.street), []).append(kind)
        if kind is ActionKind.CHECK:
            self.out.append(self.line("check", s))
            return
        if kind is ActionKind.BRING_IN:
            self.out.extend(self.before_bring_in(s))
        assert action.amount is not None
        current, self.street_high = self.street_high, max(self.street_high, action.amount)
        if kind is ActionKind.BRING_IN:
            template, amount = "bring-in", action.amount
        elif kind is ActionKind.CALL:
            template, amount = "call", ev.chips
        elif kind is ActionKind.COMPLETE:
            template, amount = ("complete" if current else "complete_opening"), ev.chips
        else:  # a bet, or a raise where nothing was bet (a forced player's, at once)
            template, amount = ("bet" if kind is ActionKind.BET or current == 0 else "raise"), ev.chips
        self.out.append(
            self.line(
                template,
                s,
                amount=self.amount(amount),
                put=self.amount(ev.chips),
                by=self.amount(action.amount - current),
                to=self.amount(action.amount),
                all_in=self.tail(ev.all_in),
            )
        )

    # -- what a room writes in its own way

    def header_lines(self) -> list[str]:
        """The header, and the table's line where the room writes one."""
        raise NotImplementedError

    def after_mark(self) -> None:
        """Lines after a street's mark."""

    def after_showdown_mark(self) -> None:
        """Lines after ``*** SHOW DOWN ***``."""

    def before_bring_in(self, seat: int) -> list[str]:
        """Lines before the bring-in."""
        return []

    def description(self, seat: int) -> str:
        """A shown hand described as the room does."""
        raise NotImplementedError

    def award_lines(self) -> list[str]:
        """Who won what, at the end of the play (and who did not show)."""
        raise NotImplementedError

    def total_lines(self) -> list[str]:
        """The summary's total pot and rake."""
        raise NotImplementedError

    def summary_line(self, seat: int) -> str:
        """A seat's line in the summary."""
        raise NotImplementedError
