"""What every reader of a card room's text hand histories shares (PokerStars, Full Tilt,
Americas Cardroom): the file decoded line by line, cut into hands at their header lines, each
hand read on its own so that one bad hand is reported and the next is read, hands of other games
counted, and the bring-in carried from an earlier hand at the same stakes to a hand whose
bring-in player completed at once (its text shows no bring-in).

A site's reader subclasses :class:`TextHistoryReader` and says only what is the site's own: what
opens a hand, the error for a file that is not its history, and its header and hand parsers.
"""

from __future__ import annotations

import dataclasses
import io
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, ClassVar, Generic, Protocol, TypeVar

from sevenstud.history.pokerstars.model import PokerStarsError

__all__ = ["ReadHand", "TextHistoryReader", "decoded_lines"]


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


class _Header(Protocol):
    @property
    def hand_id(self) -> str: ...

    @property
    def game_text(self) -> str: ...

    @property
    def game(self) -> str | None: ...


Hand_ = TypeVar("Hand_", bound=ReadHand)
Made_ = TypeVar("Made_", bound=ReadHand, covariant=True)
Header_ = TypeVar("Header_", bound=_Header)


class _Parser(Protocol[Made_]):
    def feed(self, number: int, text: str) -> None: ...

    def finish(self) -> Made_: ...


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


class TextHistoryReader(Generic[Hand_, Header_]):
    """Iterate the stud hands of one site's history, one at a time, without loading the file.

    Each item is a hand, or a :class:`PokerStarsError` (the site's own subclass) for a hand that
    cannot be read; the reader then goes on with the next hand. Hands of other games are
    counted in :attr:`skipped` (by game in :attr:`skipped_games`); :attr:`read` and
    :attr:`failed` count the rest. A file whose first line with text does not open a hand
    raises the site's "not this site's history" error at once.
    """

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

    # ------------------------------------------------------------------ what a site says

    def _opens_hand(self, text: str, in_hand: bool) -> bool:
        """Whether ``text`` is a hand's header line (``in_hand``: a hand is being read)."""
        raise NotImplementedError

    def _not_ours(self, text: str, number: int) -> PokerStarsError:
        """The error for a file whose first line with text, ``text`` at line ``number``, opens
        no hand of this site."""
        raise NotImplementedError

    def _header(self, text: str, number: int) -> Header_:
        """The header line read, or the site's error naming what is wrong with it."""
        raise NotImplementedError

    def _parser(self, head: Header_, text: str, number: int) -> _Parser[Hand_]:
        """A parser for the rest of the hand whose header is ``head``."""
        raise NotImplementedError

    # ------------------------------------------------------------------ shared

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
                error = self._not_ours(text, number)
                error.line, error.file = number, self.name
                raise error
        if chunk:
            yield from self._hand(chunk)

    def _hand(self, chunk: list[tuple[int, str]]) -> Iterator[Hand_ | PokerStarsError]:
        number, text = chunk[0]
        head: Header_ | None = None
        try:
            head = self._header(text, number)
            if head.game is None:
                self.skipped += 1
                self.skipped_games[head.game_text] += 1
                return
            parser = self._parser(head, text, number)
            for n, line in chunk[1:]:
                parser.feed(n, line)
            hand = parser.finish()
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
