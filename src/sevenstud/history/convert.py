"""Convert hand histories between PHH, PokerStars, Full Tilt and Americas Cardroom text:
``sevenstud convert IN OUT``.

Every hand is played through our engine on the way (so a hand that our rules cannot reproduce is
reported with its file and line, and left out), then written in the other format:

* PokerStars to PHH: chips stay integers (cents for money, with ``currency`` and the user field
  ``_chips_per_unit = 100``); the cards the history never shows are written ``??``; the hand id,
  table, seats, date, the hero (``_hero``) and the rake (``_rake``, which ``sevenstud replay``
  takes off the pot) are kept.
* PHH to PokerStars: written for one seat, as the card room writes it: the hero's down cards
  (``_hero``, or ``convert --hero NAME``), else an observer's; other down cards only where
  shown; a tournament header for PHH's ``level``, an ``event`` naming a tournament
  (:data:`TOURNAMENT_WORDS`) or ``_tournament``, with the buy-in (``_buy_in``, the event's
  amount, else ``Freeroll``); unknown cards are never written.
* A ring game is written as PokerStars or Full Tilt text only at limits that room dealt ring
  games at (:mod:`sevenstud.history.ring_stakes`), unless ``--ring`` says so: a tracker rejects
  any other (a tournament hand read as a ring game, most likely: ``--tournament [NUMBER]``).

* Full Tilt text reads as PokerStars text does and converts to either; PHH and PokerStars text
  convert to Full Tilt text with ``--to fulltilt`` (:func:`to_fulltilt_text`).
* Americas Cardroom (Winning Poker Network) text reads the same way and converts to any of them;
  any history converts to it with ``--to acr`` (:func:`to_acr_text`). Its jackpot fee is a part of
  the hand's rake: kept as ``jackpot_fee`` (PHH: ``_jackpot_fee``), written back as ``JP Fee``.

The format of an input file comes from its content (:func:`format_of`: its first line is a
PokerStars, Full Tilt or ACR header, or PHH), whatever its ending; the output's from ``--to``, else its
ending (``.phh``/``.phhs``: PHH, ``.txt``: PokerStars text). What cannot be read or written (a
folder, a missing file, a binary file, text that is not UTF-8 where PHH must be, an output that is
the input, an ending we do not know) is a :class:`ConvertError` of one line, and nothing is
written. :func:`iter_loaded` (also used by ``sevenstud show`` and ``sevenstud replay``) reads any
of the four formats into hands of our engine.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import re
import sys
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from sevenstud.cards import Card, parse_cards
from sevenstud.hand import Hand
from sevenstud.history.phh import (
    UNKNOWN_CARD,
    PHHError,
    PHHHand,
    dumps,
    dumps_all,
    loads,
    loads_all,
)
from sevenstud.history.pokerstars import (
    HandReader,
    PlayedHand,
    PokerStarsError,
    PokerStarsHand,
    format_amount,
    format_hand,
    looks_like_pokerstars,
    play_pokerstars,
    read_hands,
)
from sevenstud.history.replay import ReplayError, play_phh, to_phh
from sevenstud.history.ring_stakes import SITE_NAMES, Site, is_ring_stake, ring_stakes_text
from sevenstud.history.text.acr import ACRReader, format_acr, looks_like_acr, play_acr, read_acr
from sevenstud.history.text.fulltilt import (
    FullTiltReader,
    format_fulltilt,
    looks_like_fulltilt,
    play_fulltilt,
    read_fulltilt,
)
from sevenstud.history.text.writer import TextRecord

Format = Literal["pokerstars", "phh", "fulltilt", "acr"]
FORMATS: tuple[Format, ...] = ("phh", "pokerstars", "fulltilt", "acr")
CENTS = 100
_SITES = {"fulltilt": "Full Tilt Poker", "acr": "Americas Cardroom"}
"""The card room a text history came from, named in a PHH tournament ``event``."""
OUTPUT_ENDINGS: dict[str, Format] = {".phh": "phh", ".phhs": "phh", ".txt": "pokerstars"}
"""The output endings whose format ``convert`` knows without ``--to``."""
_SNIFF_BYTES = 1 << 16


@dataclass
class Loaded:
    """A hand of either format, played through our engine, with what its history says about it."""

    hand: Hand
    players: list[str]
    seat_numbers: list[int]
    unknown: frozenset[Card]
    """Cards the history never shows (we made them up to replay the hand)."""
    hand_id: str
    source: Format
    money: bool = False
    currency: str | None = None
    symbol: str = "$"
    hero: int | None = None
    table: str | None = None
    max_seats: int | None = None
    tournament: str | None = None
    level: int | None = None
    """The tournament's blind level, where the source gives it (PHH's ``level``)."""
    date: str | None = None
    buy_in: str | None = None
    """A tournament's buy-in as PokerStars writes it (``$200+$15 USD``), where the source gives it."""
    event: str | None = None
    """The PHH ``event`` (the tournament's name, for a stable tournament number)."""
    jackpot_fee: int = 0
    """The part of ``hand.rake`` that was a jackpot fee (Americas Cardroom's ``JP Fee``)."""

    def amount(self, chips: int) -> str:
        """Chips as the history writes them (``$0.04`` for money)."""
        return format_amount(chips, self.money, self.symbol)


class ConvertError(ValueError):
    """A hand or file that cannot be converted; the message names the file and line or action."""


def text_reader(path: Path, kind: Format) -> HandReader | FullTiltReader | ACRReader:
    """The streaming reader of a PokerStars, Full Tilt or ACR text file (``kind`` as
    :func:`format_of` tells it): each reads its hands into the same model, one at a time."""
    if kind == "pokerstars":
        return read_hands(path)
    if kind == "fulltilt":
        return read_fulltilt(path)
    if kind == "acr":
        return read_acr(path)
    raise ConvertError(f"{path}: {kind} is not a text history format")


def format_of(path: Path) -> Format:
    """The format of a history file, from its first line (a PokerStars, Full Tilt or ACR header,
    or PHH: a key, a ``[N]`` table or a comment; a ``.phh``/``.phhs`` ending also says PHH).
    :class:`ConvertError` says, in one line, why a path is none of them: missing, a folder,
    unreadable, empty, binary, not UTF-8, or text of another kind."""
    if path.is_dir():
        raise ConvertError(f"{path}: is a folder, not a hand history file")
    try:
        with open(path, "rb") as raw:
            head = raw.read(_SNIFF_BYTES)
    except FileNotFoundError:
        raise ConvertError(f"{path}: no such file") from None
    except OSError as error:
        raise ConvertError(f"{path}: cannot be read ({error.strerror or error})") from None
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = head.decode("utf-16", errors="replace")
    elif b"\x00" in head:
        raise ConvertError(
            f"{path}: is a binary file, not a hand history (PHH, PokerStars, Full Tilt or ACR text)"
        )
    else:
        try:
            text = head.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            if error.start < len(head) - 3 or len(head) < _SNIFF_BYTES:  # not a cut-off character
                text = head.decode("cp1252", errors="replace")
                opening = next((ln for ln in text.splitlines() if ln.strip()), "")
                if (kind := _text_format(opening)) is not None:
                    return kind
                raise ConvertError(
                    f"{path}: is not UTF-8 text (byte {head[error.start]:#04x} at offset "
                    f"{error.start}); PHH files are UTF-8"
                ) from None
            text = head[: error.start].decode("utf-8-sig")
    first = next((ln.strip().lstrip("\ufeff") for ln in text.splitlines() if ln.strip()), None)
    if first is None:
        raise ConvertError(f"{path}: is empty (no hand in it)")
    if (kind := _text_format(first)) is not None:
        return kind
    if path.suffix in (".phh", ".phhs") or re.match(r"(?:[A-Za-z_]\w*\s*=|\[\d+\]|#)", first):
        return "phh"
    raise ConvertError(
        f"{path}: is not a hand history we read: it starts {first[:60]!r} (expected PHH, or a "
        "'PokerStars Hand #...', 'Full Tilt Poker Game #...' or ACR 'Hand #N - 7Stud ...' header)"
    )


def _text_format(first: str) -> Format | None:
    """The text format a history's first line is the header of, if any."""
    if looks_like_pokerstars(first):
        return "pokerstars"
    if looks_like_fulltilt(first):
        return "fulltilt"
    return "acr" if looks_like_acr(first) else None


def iter_loaded(path: Path) -> Iterator[Loaded | ConvertError]:
    """Every hand of a history file (PHH, PokerStars, Full Tilt or ACR text) played through our
    engine, or an error naming where it fails (the other hands are still read). A file that
    cannot be read at all gives one :class:`ConvertError` saying why."""
    try:
        kind = format_of(path)
    except ConvertError as error:
        yield error
        return
    if kind == "phh":
        yield from _phh_loaded(path)
        return
    reader = text_reader(path, kind)
    try:
        for item in reader:
            if isinstance(item, PokerStarsError):
                yield ConvertError(str(item))
                continue
            try:
                yield _text_loaded(item, kind)
            except PokerStarsError as error:
                yield ConvertError(f"hand #{item.hand_id}: {error}")
    except PokerStarsError as error:  # not this format after all
        yield ConvertError(str(error))
    except OSError as error:
        yield ConvertError(f"{path}: cannot be read ({error.strerror or error})")


def _text_loaded(item: PokerStarsHand, kind: Format) -> Loaded:
    """A PokerStars, Full Tilt or ACR hand played through our engine (all replay the same way)."""
    plays: dict[str, Callable[[PokerStarsHand], PlayedHand]] = {"fulltilt": play_fulltilt, "acr": play_acr}
    played = plays.get(kind, play_pokerstars)(item)
    hero_name = item.hero
    return Loaded(
        hand=played.hand,
        players=played.players,
        seat_numbers=played.seat_numbers,
        unknown=played.unknown,
        hand_id=item.hand_id,
        source=kind,
        money=item.money,
        currency=item.currency,
        symbol=item.symbol,
        hero=played.players.index(hero_name) if hero_name in played.players else None,
        table=item.table,
        max_seats=item.max_seats,
        tournament=item.tournament,
        level=item.level,
        date=item.date,
        buy_in=item.buy_in if item.tournament is not None else None,
        jackpot_fee=getattr(item, "jackpot_fee", 0),
    )


def _phh_loaded(path: Path) -> Iterator[Loaded | ConvertError]:
    try:
        text = path.read_text(encoding="utf-8-sig")
        hands = loads_all(text) if path.suffix == ".phhs" or _is_phhs(text) else [loads(text)]
    except UnicodeDecodeError as error:
        yield ConvertError(f"{path}: is not UTF-8 text (byte at offset {error.start}); PHH files are UTF-8")
        return
    except (OSError, PHHError) as error:
        yield ConvertError(f"{path}: {error}")
        return
    for index, phh in enumerate(hands, start=1):
        name = f"{path}[{index}]" if len(hands) > 1 else str(path)
        try:
            hand = play_phh(phh)
        except ReplayError as error:
            yield ConvertError(f"{name}: {error}")
            continue
        try:
            yield loaded_from_phh(phh, hand, index)
        except ConvertError as error:
            yield ConvertError(f"{name}: {error}")


def _is_phhs(text: str) -> bool:
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            return re.match(r"\s*\[\d+\]", line) is not None
    return False


def loaded_from_phh(phh: PHHHand, hand: Hand, index: int = 1) -> Loaded:
    """What a PHH hand (already played as ``hand``) says about itself; :class:`ConvertError`
    for a user field we read that makes no sense (a ``_buy_in`` that is no buy-in)."""
    known: set[Card] = set()
    for action in phh.parsed_actions():
        if action.cards:
            known.update(parse_cards([c for c in action.cards if c != UNKNOWN_CARD]))
    dealt = {c for cards in hand.cards for c in cards}
    if hand.community is not None:
        dealt.add(hand.community)
    players = list(phh.players) if phh.players else [f"p{i + 1}" for i in range(phh.player_count)]
    hero = phh.extra.get("_hero")
    money = phh.extra.get("_chips_per_unit") == CENTS
    tournament = _tournament_of(phh)
    date = None
    if phh.year and phh.month and phh.day:
        clock = phh.time.strftime("%H:%M:%S") if phh.time else "00:00:00"
        date = f"{phh.year}/{phh.month:02d}/{phh.day:02d} {clock} {phh.time_zone_abbreviation or 'ET'}"
    return Loaded(
        hand=hand,
        players=players,
        seat_numbers=list(phh.seats) if phh.seats else list(range(1, phh.player_count + 1)),
        unknown=frozenset(dealt - known),
        hand_id=str(phh.hand) if phh.hand is not None else str(index),
        source="phh",
        money=money,
        currency=phh.currency,
        symbol=phh.currency_symbol or "$",
        hero=players.index(hero) if isinstance(hero, str) and hero in players else None,
        table=None if phh.table is None else str(phh.table),
        max_seats=phh.seat_count,
        tournament=tournament,
        level=phh.level,
        date=date,
        buy_in=_buy_in_of(phh) if tournament is not None else None,
        event=phh.event,
        jackpot_fee=_jackpot_fee(phh, hand),
    )


def _jackpot_fee(phh: PHHHand, hand: Hand) -> int:
    """The user field ``_jackpot_fee`` (the part of ``_rake`` that was a jackpot fee), if sound."""
    fee = phh.extra.get("_jackpot_fee")
    if isinstance(fee, int) and not isinstance(fee, bool) and 0 <= fee <= hand.rake:
        return fee
    return 0


TOURNAMENT_WORDS: tuple[str, ...] = (
    r"\btournament\b",
    r"\btourney\b",
    r"\bevent\s*#\s*\d+",
    r"\bmain event\b",
    r"\bchampionships?\b",
    r"\bday\s+\d+[a-z]?\b",
    r"\bfinal table\b",
    r"\bsit\s*(?:&|and|n|'n')\s*go\b",
    r"\b(?:sng|mtt|stt)\b",
    r"\bfreezeout\b",
    r"\bfreeroll\b",
    r"\bsatellite\b",
    r"\bshootout\b",
    r"\bbracelet\b",
    r"\bworld series of poker\b",
    r"\b(?:wsop|wpt|ept|wsope|wsopc)\b",
    r"\bpoker tour\b",
    r"\bseries\b",
)
"""What marks a PHH ``event`` as a tournament (matched without regard to case): the word, a
series' numbered event, a day or a final table, a championship, a main event, a sit & go, and
the series' names. A hand of such an event is never a ring game at its chip stakes."""


def _tournament_of(phh: PHHHand) -> str | None:
    """The tournament number of a PHH hand, or None for a ring game. PHH has no tournament flag:
    a ``level``, an ``event`` naming a tournament (:data:`TOURNAMENT_WORDS`), or the user field
    ``_tournament`` marks one. The number is ``_tournament``'s, else the event's ``Tournament
    #N``, else one derived from the event (:func:`tournament_number`)."""
    given = phh.extra.get("_tournament")
    if isinstance(given, int | str) and not isinstance(given, bool) and str(given).isdigit():
        return str(given)
    event = phh.event or ""
    if m := re.search(r"Tournament #(\d+)", event, re.IGNORECASE):
        return m.group(1)
    named = any(re.search(word, event, re.IGNORECASE) for word in TOURNAMENT_WORDS)
    if phh.level is not None or given is not None or named:
        return tournament_number(event or "sevenstud")
    return None


def tournament_number(name: str) -> str:
    """A stable tournament number for a tournament's name: the same for every day, flight and
    the final table of one event (``... Event #43: $50,000 Poker Players Championship | Day 5``
    and ``... | Day 4`` are one tournament), different for another event or year.

    >>> tournament_number("2023 WSOP Event #43 | Day 5") == tournament_number("2023 WSOP Event #43 | Day 4")
    True
    """
    key = re.sub(r"\b(?:day|flight)\s+\d+[a-z]?\b|\bfinal table\b", " ", name, flags=re.IGNORECASE)
    key = re.sub(r"[\s|,:;()\[\]-]+", " ", key).strip().lower()
    return str(zlib.crc32(key.encode("utf-8")) or 1)


_BUY_IN_TEXT = re.compile(r"[$€£]?[0-9]+(?:\.[0-9]+)?(?:\+[$€£]?[0-9]+(?:\.[0-9]+)?)+(?: [A-Z]{3})?|Freeroll")


def _buy_in_of(phh: PHHHand) -> str | None:
    """A PHH tournament's buy-in as PokerStars writes it: the user field ``_buy_in``
    (``$200+$15 USD``), else the amount its event names (``$50,000 Poker Players
    Championship``: ``$50000+$0 USD``, the fee not being known apart)."""
    given = phh.extra.get("_buy_in")
    if given is not None:
        if not isinstance(given, str) or not _BUY_IN_TEXT.fullmatch(given.strip()):
            raise ConvertError(
                f"_buy_in: {given!r} is not a buy-in as PokerStars writes one "
                "(expected e.g. '$200+$15 USD', '100+9' or 'Freeroll')"
            )
        return given.strip()
    m = re.search(r"([$€£])\s?([0-9][0-9,]*(?:\.[0-9]{2})?)\b", phh.event or "")
    if m is None:
        return None
    symbol, amount = m.group(1), m.group(2).replace(",", "")
    code = {"$": "USD", "€": "EUR", "£": "GBP"}[symbol]
    return f"{symbol}{amount}+{symbol}0 {code}"


# ---------------------------------------------------------------------- writing either format


def to_phh_hand(loaded: Loaded) -> PHHHand:
    """A loaded hand as PHH; cards nobody saw are written ``??``."""
    fields: dict[str, Any] = {
        "hand": int(loaded.hand_id) if loaded.hand_id.isdigit() else loaded.hand_id,
        "seats": loaded.seat_numbers,
    }
    if loaded.table is not None:
        fields["table"] = loaded.table
    if loaded.max_seats is not None and loaded.max_seats >= loaded.hand.n:
        fields["seat_count"] = loaded.max_seats
    if loaded.tournament is not None:
        site = _SITES.get(loaded.source, "PokerStars")
        fields["event"] = loaded.event or f"{site} Tournament #{loaded.tournament}"
        if loaded.level is not None:
            fields["level"] = loaded.level
    extra: dict[str, Any] = {}
    if loaded.tournament is not None:
        if loaded.event is not None and f"#{loaded.tournament}" not in loaded.event:
            extra["_tournament"] = int(loaded.tournament)
        if loaded.buy_in is not None:
            extra["_buy_in"] = loaded.buy_in
    if loaded.money:
        fields["currency"] = loaded.currency or "USD"
        fields["currency_symbol"] = loaded.symbol
        extra["_chips_per_unit"] = CENTS
    if loaded.hero is not None:
        extra["_hero"] = loaded.players[loaded.hero]
    if loaded.hand.rake:
        extra["_rake"] = loaded.hand.rake
        if loaded.jackpot_fee:
            extra["_jackpot_fee"] = loaded.jackpot_fee
        if loaded.hand.game.rake_from != "each_pot":  # Full Tilt, ACR: from the main pot first
            extra["_rake_from"] = loaded.hand.game.rake_from
    if loaded.date and (
        m := re.match(r"(\d{4})/(\d{1,2})/(\d{1,2}) (\d{1,2}):(\d{2}):(\d{2})(?: (\w+))?", loaded.date)
    ):
        fields.update(year=int(m.group(1)), month=int(m.group(2)), day=int(m.group(3)))
        fields["time"] = datetime.time(int(m.group(4)), int(m.group(5)), int(m.group(6)))
        if m.group(7):
            fields["time_zone_abbreviation"] = m.group(7)
    hand_id = fields.pop("hand")  # (to_phh's first parameter is also called hand)
    phh = to_phh(loaded.hand, players=loaded.players, extra=extra, **fields)
    values = {name: getattr(phh, name) for name in phh.__dataclass_fields__}
    values["hand"] = hand_id
    if loaded.unknown:
        hidden = {str(c) for c in loaded.unknown}
        actions = []
        for line in phh.actions:
            words = line.split()
            if words[:2] == ["d", "dh"]:
                cards = [words[3][i : i + 2] for i in range(0, len(words[3]), 2)]
                words[3] = "".join(UNKNOWN_CARD if c in hidden else c for c in cards)
                line = " ".join(words)
            actions.append(line)
        values["actions"] = actions
    return PHHHand(**values)


def _record(loaded: Loaded, default_date: str = "2024/01/01 00:00:00 ET", **fields: Any) -> TextRecord:
    """What a text history writes of a loaded hand besides its play (``fields`` change it): its
    players, seats and hero, the cards nobody saw, its number (its digits), table and date."""
    record = TextRecord(
        players=loaded.players,
        seat_numbers=loaded.seat_numbers,
        hero=loaded.hero,
        unknown=[int(c) for c in loaded.unknown],
        hand_id=re.sub(r"\D", "", loaded.hand_id) or "1",
        table=loaded.table or ("1" if loaded.tournament is not None else "sevenstud"),
        max_seats=loaded.max_seats,
        date=loaded.date or default_date,
        money=loaded.money and loaded.tournament is None,  # a tournament's chips are never money
        currency=loaded.currency or "USD",
        symbol=loaded.symbol,
        tournament=loaded.tournament,
        level=loaded.level or None,  # PHH allows a level 0; the card rooms count from 1
        buy_in=(loaded.buy_in or "Freeroll") if loaded.tournament is not None else None,
    )
    return dataclasses.replace(record, **fields)


def to_pokerstars_text(loaded: Loaded, *, tournament: str | None = None) -> str:
    """A loaded hand as PokerStars text, written as the card room writes it for one seat: the
    hero's down cards (``loaded.hero``; ``convert --hero NAME``), only the up cards of the
    others, whose down cards appear only where they are shown (and, as the card room lists
    them, in the summary for a hand mucked at the showdown); with no hero, an observer's view.
    A tournament hand (``loaded.tournament``, or ``tournament`` given here) gets the card room's
    tournament header: its number, its buy-in (``Freeroll`` where the source gives none: the card
    room's header always names one, and trackers read it), its level (I where the source gives
    none) and its limits, in tournament chips. Cards the source never showed are never written."""
    if tournament is not None:
        loaded = dataclasses.replace(loaded, tournament=tournament)
    record = _record(loaded)
    if loaded.tournament is not None and not record.table.startswith(f"{loaded.tournament} "):
        # the card room names a tournament's table '2010090015 98'
        record = dataclasses.replace(record, table=f"{loaded.tournament} {record.table}")
    return format_hand(loaded.hand, record)


def to_fulltilt_text(loaded: Loaded) -> str:
    """A loaded hand as Full Tilt text: the hero's down cards (``loaded.hero``), the up cards of
    the others and every hand shown; cards the source never showed are never written. A
    tournament hand's header leads with its buy-in (``Freeroll`` where the source gives none)."""
    return format_fulltilt(loaded.hand, _record(loaded))


def to_acr_text(loaded: Loaded) -> str:
    """A loaded hand as Americas Cardroom text: the hero's down cards (``loaded.hero``), the up
    cards of the others and every hand shown; cards the source never showed are never written.
    ``loaded.jackpot_fee`` of the rake is written as the ``JP Fee``."""
    return format_acr(
        loaded.hand,
        _record(
            loaded,
            "2024/01/01 00:00:00 UTC",
            table=loaded.table or "sevenstud",
            money=loaded.money,
            jackpot_fee=loaded.jackpot_fee,
        ),
    )


def _output_format(source: Path, target: Path, to: str | None) -> Format:
    """The format to write, after refusing an output that cannot be written or is the input."""
    if to is not None and to not in FORMATS:
        raise ConvertError(f"--to {to}: unknown format (known: {', '.join(FORMATS)})")
    if target.is_dir():
        raise ConvertError(f"{target}: is a folder (give the file to write)")
    if not target.parent.is_dir():
        raise ConvertError(f"{target}: the folder {target.parent} does not exist")
    same = target.resolve() == source.resolve()
    if not same and target.exists() and source.exists():
        try:
            same = target.samefile(source)
        except OSError:
            same = False
    if same:
        raise ConvertError(f"{target}: is the input file; refusing to overwrite it (give another OUT)")
    if to is not None:
        return next(f for f in FORMATS if f == to)
    if target.suffix not in OUTPUT_ENDINGS:
        known = ", ".join(OUTPUT_ENDINGS)
        raise ConvertError(
            f"{target}: unknown ending {target.suffix or '(none)'!r} (known: {known}; "
            "or give --to phh|pokerstars|fulltilt|acr)"
        )
    return OUTPUT_ENDINGS[target.suffix]


def _with_hero(loaded: Loaded, hero: str) -> Loaded:
    seat = loaded.players.index(hero) if hero in loaded.players else None
    return dataclasses.replace(loaded, hero=seat)


def _as_played(loaded: Loaded, tournament: str | bool, ring: bool, source: Path) -> Loaded:
    """``loaded`` as ``--tournament [NUMBER]`` or ``--ring`` says to write it."""
    if ring:
        return dataclasses.replace(loaded, tournament=None, level=None, buy_in=None)
    if isinstance(tournament, str):
        return dataclasses.replace(loaded, tournament=tournament, money=False)
    if tournament and loaded.tournament is None:
        number = tournament_number(loaded.event or source.stem)
        return dataclasses.replace(loaded, tournament=number, money=False)
    return loaded


def _check_ring_stakes(loaded: Loaded, out_format: Format, source: Path) -> None:
    """Refuse to write a ring game at limits the card room's ring games never had."""
    site: Site
    if out_format == "pokerstars":
        site = "pokerstars"
    elif out_format == "fulltilt":
        site = "fulltilt"
    else:
        return
    if loaded.tournament is not None:
        return
    stakes = loaded.hand.game.stakes
    if is_ring_stake(site, stakes.small_bet, stakes.big_bet, money=loaded.money):
        return
    room = SITE_NAMES[site]
    limits = f"{loaded.amount(stakes.small_bet)}/{loaded.amount(stakes.big_bet)}"
    raise ConvertError(
        f"{source}: hand #{loaded.hand_id} is a ring game at {limits}, and {room} dealt no ring game "
        f"at those limits (its ring limits: {ring_stakes_text(site)}"
        f"{'' if loaded.money else ', or as many play chips'}); "
        "give --tournament [NUMBER] to write it as a tournament hand, or --ring to write it as a "
        "ring game even so"
    )


UNSEEN = (
    "hand #{hand}: {player}'s {cards} {were} never seen (the source writes {them} unknown), and a "
    "{room} history cannot say 'unknown': it would state made-up cards as fact; give "
    "--fill-unknown to write them filled in as the replay fills them"
)
"""Why a hand whose up cards nobody saw is not written as text (the message, in one place)."""
FILLED = "cards nobody saw filled in (--fill-unknown) in {count} hand(s): {hands}"
"""What ``convert --fill-unknown`` says it did."""
_ROOMS: dict[Format, str] = {"pokerstars": "PokerStars", "fulltilt": "Full Tilt", "acr": "Americas Cardroom"}


def unseen_up_cards(loaded: Loaded) -> dict[str, list[Card]]:
    """The cards a text history would write face up (every player's up cards, the community
    card) that the source never showed, by player: made up to replay the hand (a PHH ``??``)."""
    hand, unseen = loaded.hand, loaded.unknown
    found: dict[str, list[Card]] = {}
    for s in range(hand.n):
        for card, up in zip(hand.cards[s], hand.face_up[s], strict=True):
            if up and card in unseen:
                found.setdefault(loaded.players[s], []).append(card)
    if hand.community is not None and hand.community in unseen:
        found.setdefault("the community card", []).append(hand.community)
    return found


def _refuse_unseen(loaded: Loaded, out_format: Format) -> str | None:
    """:data:`UNSEEN` for a hand whose text would state cards nobody saw, else None."""
    unseen = unseen_up_cards(loaded)
    if out_format == "phh" or not unseen:
        return None
    player, cards = next(iter(unseen.items()))
    many = len(cards) > 1
    return UNSEEN.format(
        hand=loaded.hand_id,
        player=player,
        cards=("up cards " if many else "up card ") + " ".join(str(c) for c in cards),
        were="were" if many else "was",
        them="them" if many else "it",
        room=_ROOMS[out_format],
    )


def convert(
    source: Path,
    target: Path,
    to: str | None = None,
    *,
    hero: str | None = None,
    tournament: str | bool = False,
    ring: bool = False,
    fill_unknown: bool = False,
    filled: list[str] | None = None,
) -> tuple[int, list[str]]:
    """Convert every hand of ``source`` (PHH, PokerStars, Full Tilt or ACR text) into ``target``;
    returns (hands written, errors naming the hands left out). ``to`` is ``phh``,
    ``pokerstars``, ``fulltilt`` or ``acr`` (default: from the target's ending); ``hero`` names the
    player whose down cards text output shows. :class:`ConvertError` when nothing can be
    written (and then nothing is).

    A hand is written as a tournament hand where its source says it is one (a PHH ``event``
    naming a tournament, see :data:`TOURNAMENT_WORDS`); ``tournament`` writes every hand as one
    (``True``: under its own number, else one derived from its event or the file's name; a
    string: under that number), ``ring`` every hand as a ring game. Without ``ring``, a ring
    game whose limits the card room's ring games never had is refused (a tournament hand read
    as a ring game, most likely).

    A text history never states a card nobody saw: a hand whose up cards the source does not
    show (a PHH ``??``) is left out of text output with :data:`UNSEEN`, naming it and the player,
    unless ``fill_unknown`` (then the replay's made-up cards are written, and the hands filled
    are added to ``filled``)."""
    format_of(source)  # a file that cannot be read at all is one error, not a hand left out
    if ring and tournament is not False:
        raise ConvertError("--ring and --tournament: give one or the other")
    if isinstance(tournament, str) and not (tournament.isdigit() and int(tournament) > 0):
        raise ConvertError(f"--tournament {tournament}: expected a tournament number such as 2010090015")
    out_format = _output_format(source, target, to)
    written: list[Loaded] = []
    errors: list[str] = []
    for item in iter_loaded(source):
        if isinstance(item, ConvertError):
            errors.append(str(item))
        else:
            written.append(item)
    if hero is not None and written:
        if not any(hero in loaded.players for loaded in written):
            names = sorted({p for loaded in written for p in loaded.players})
            raise ConvertError(f"--hero {hero}: no such player (players: {', '.join(names)})")
        written = [_with_hero(loaded, hero) for loaded in written]
    written = [_as_played(loaded, tournament, ring, source) for loaded in written]
    if not ring:
        for loaded in written:
            _check_ring_stakes(loaded, out_format, source)
    kept: list[Loaded] = []
    for loaded in written:
        refused = _refuse_unseen(loaded, out_format)
        if refused is None:
            kept.append(loaded)
        elif fill_unknown:
            kept.append(loaded)
            if filled is not None:
                filled.append(loaded.hand_id)
        else:
            errors.append(f"{source}: {refused}")
    written = kept
    if out_format == "phh":
        hands = [to_phh_hand(loaded) for loaded in written]
        if len(hands) == 1 and target.suffix != ".phhs":
            text = dumps(hands[0])
        elif target.suffix == ".phh" and len(hands) > 1:
            raise ConvertError(
                f"{target}: {len(hands)} hands do not fit in one .phh file (write a .phhs file)"
            )
        else:
            text = dumps_all(hands)
    elif out_format == "fulltilt":
        text = "\n\n\n".join(to_fulltilt_text(loaded) for loaded in written)
    elif out_format == "acr":
        text = "\n\n".join(to_acr_text(loaded) for loaded in written)
    else:
        text = "\n\n\n".join(to_pokerstars_text(loaded) for loaded in written)
    if written:
        try:
            target.write_text(text, encoding="utf-8")
        except OSError as error:
            raise ConvertError(f"{target}: cannot be written ({error.strerror or error})") from None
    return len(written), errors


def convert_command(args: argparse.Namespace) -> int:
    """``sevenstud convert IN OUT [--to phh|pokerstars|fulltilt|acr] [--hero NAME] [--tournament
    [NUMBER] | --ring] [--fill-unknown]``: exit 1 if any hand is left out or nothing is written."""
    source, target = Path(args.input), Path(args.output)
    given = getattr(args, "tournament", None)
    tournament: str | bool = False if given is None else (given or True)
    filled: list[str] = []
    try:
        count, errors = convert(
            source,
            target,
            args.to,
            hero=getattr(args, "hero", None),
            tournament=tournament,
            ring=bool(getattr(args, "ring", False)),
            fill_unknown=bool(getattr(args, "fill_unknown", False)),
            filled=filled,
        )
    except ConvertError as error:
        print(f"sevenstud convert: {error}", file=sys.stderr)
        return 1
    for message in errors:
        print(f"sevenstud convert: left out: {message}", file=sys.stderr)
    if count:
        said = f", {FILLED.format(count=len(filled), hands=', '.join(filled))}" if filled else ""
        print(f"{count} hand(s) written to {target}{said}" + (f", {len(errors)} left out" if errors else ""))
    else:
        print(f"sevenstud convert: no hand to write from {source}", file=sys.stderr)
    return 1 if errors or not count else 0


__all__ = [
    "FILLED",
    "FORMATS",
    "OUTPUT_ENDINGS",
    "TOURNAMENT_WORDS",
    "UNSEEN",
    "ConvertError",
    "Format",
    "Loaded",
    "convert",
    "convert_command",
    "format_of",
    "iter_loaded",
    "loaded_from_phh",
    "text_reader",
    "to_acr_text",
    "to_fulltilt_text",
    "to_phh_hand",
    "to_pokerstars_text",
    "tournament_number",
    "unseen_up_cards",
]
