"""``sevenstud replay FILE...``: every hand of PHH, PokerStars, Full Tilt or ACR files replayed
through the engine, with a verdict per hand (:func:`replay_command`).

Apart from replay.py (PHH played through the engine) because the command reads every format:
it needs :func:`sevenstud.history.convert.format_of`, and convert.py needs replay.py.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sevenstud.history.amounts import format_amount
from sevenstud.history.convert import ConvertError, Format, format_of, text_reader
from sevenstud.history.phh import PHHError, PHHHand, loads, loads_all
from sevenstud.history.pokerstars import PokerStarsError
from sevenstud.history.replay import ReplayError, play_phh

# ``sevenstud replay`` prints a verdict per hand and, with ``--json``, one object per hand
# ("record": "hand") and then one per file ("record": "file": its format, how many hands were
# replayed, failed and skipped, and why nothing was replayed when nothing was). It exits 1 when
# a hand fails or a file gives no hand to replay (empty, a folder, binary, another format).


def _hands_in(path: Path) -> Iterator[tuple[str, PHHHand | Exception]]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        yield str(path), ValueError(f"is not UTF-8 text (byte at offset {error.start}); PHH files are UTF-8")
        return
    except OSError as error:
        yield str(path), ValueError(f"cannot be read ({error.strerror or error})")
        return
    try:
        first = next((ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")), "")
        if path.suffix == ".phhs" or first.lstrip().startswith("["):
            for i, phh in enumerate(loads_all(text), start=1):
                yield f"{path}[{i}]", phh
        else:
            yield str(path), loads(text)
    except PHHError as error:
        yield str(path), error


def _chips_text(phh: PHHHand) -> tuple[bool, str]:
    """Whether a PHH hand counts cents (money) and its currency symbol."""
    money = phh.extra.get("_chips_per_unit") == 100
    return money, phh.currency_symbol or "$"


def replay_record(name: str, phh: PHHHand) -> dict[str, Any]:
    """The JSON object ``sevenstud replay --json`` prints for one PHH hand: ``ok``, and the
    ``error`` or the finishing stacks and awards (chips as integers; ``units`` says which)."""
    money, _ = _chips_text(phh)
    record: dict[str, Any] = {
        "record": "hand",
        "file": name,
        "format": "phh",
        "variant": phh.variant,
        "players": phh.players if phh.players is not None else [f"p{i + 1}" for i in range(phh.player_count)],
        "starting_stacks": list(phh.starting_stacks),
        "units": f"{phh.currency or 'USD'} cents" if money else "chips",
    }
    try:
        hand = play_phh(phh)
    except ReplayError as error:
        record.update(ok=False, error=str(error))
        return record
    record["ok"] = True
    record["finishing_stacks"] = list(hand.stacks)
    record["awards"] = [
        {
            "seat": a.seat,
            "player": record["players"][a.seat],
            "amount": a.amount,
            "pot": a.pot,
            "share": a.share,
        }
        for a in hand.awards
    ]
    return record


def _award_text(award: dict[str, Any], money: bool = False, symbol: str = "$") -> str:
    pot = "main pot" if not award.get("pot") else f"side pot {award['pot']}"
    half = "" if award["share"] == "whole" else f", {award['share']} half"
    return f"{award['player']} {format_amount(award['amount'], money, symbol)} ({pot}{half})"


@dataclass(slots=True)
class _FileTally:
    """What happened to one file: its record for ``--json``."""

    file: str
    format: Format | None = None
    hands: int = 0
    failed: int = 0
    skipped: int = 0
    skipped_games: dict[str, int] | None = None
    error: str | None = None

    def record(self) -> dict[str, Any]:
        replayed = self.hands - self.failed
        ok = self.error is None and self.hands > 0 and self.failed == 0
        out: dict[str, Any] = {
            "record": "file",
            "file": self.file,
            "format": self.format,
            "ok": ok,
            "hands": self.hands,
            "replayed": replayed,
            "failed": self.failed,
            "skipped": self.skipped,
        }
        if self.skipped_games:
            out["skipped_games"] = self.skipped_games
        if not ok:
            out["error"] = self.error or (
                f"{self.failed} of {self.hands} hand(s) failed"
                if self.hands
                else "no stud hands"
                + (f" ({self.skipped} hand(s) of other games skipped)" if self.skipped else "")
            )
        return out


def _phh_records(path: Path, tally: _FileTally) -> Iterator[tuple[dict[str, Any], bool, str]]:
    for name, item in _hands_in(path):
        if isinstance(item, Exception):
            tally.error = f"{path}: {item}"
            return
        yield replay_record(name, item), *_chips_text(item)


def _text_records(path: Path, kind: Format, tally: _FileTally) -> Iterator[tuple[dict[str, Any], bool, str]]:
    """The hands of a PokerStars, Full Tilt or ACR text file (all read into the same model and
    replayed by the same replayer)."""
    reader = text_reader(path, kind)
    try:
        for item in reader:
            record = {"record": "hand", **_text_hand_record(str(path), item, kind), "format": kind}
            if isinstance(item, PokerStarsError):
                yield record, False, "$"
            else:
                record["units"] = f"{item.currency or 'USD'} cents" if item.money else "chips"
                yield record, item.money, item.symbol
    except PokerStarsError as error:
        tally.error = str(error)
    except OSError as error:
        tally.error = f"{path}: cannot be read ({error.strerror or error})"
    tally.skipped = reader.skipped
    tally.skipped_games = dict(reader.skipped_games.most_common()) or None


def _text_hand_record(file: str, item: Any, kind: str) -> dict[str, Any]:
    """The record of a PokerStars, Full Tilt or ACR hand, replayed by its format's own replayer
    (a Full Tilt hand with Full Tilt's game: its rake from the main pot; an ACR hand with the
    room's rake and its own lines checked)."""
    from sevenstud.history.pokerstars import hand_record, play_pokerstars
    from sevenstud.history.text.acr import play_acr
    from sevenstud.history.text.fulltilt import play_fulltilt

    play = play_fulltilt if kind == "fulltilt" else play_acr if kind == "acr" else play_pokerstars
    return hand_record(file, item, play)


def _verdict(record: dict[str, Any], money: bool, symbol: str) -> str:
    if "hand_id" in record:
        where = f"{record['file']}: hand #{record['hand_id']} ({record['game']})"
    else:
        where = f"{record['file']}: {record['variant']}"
    if not record["ok"]:
        return f"{where}: ERROR {record['error']}"
    won = ", ".join(_award_text(a, money, symbol) for a in record["awards"])
    return f"{where}: ok; {won}"


def replay_command(args: argparse.Namespace) -> int:
    """``sevenstud replay FILE... [--json]``: replay every hand of PHH, PokerStars, Full Tilt or ACR
    files (the format read from each file's content); exit 1 if any hand fails or any file gives
    no hand to replay."""
    failures = total = bad_files = 0
    for file in args.files:
        path = Path(file)
        tally = _FileTally(file)
        try:
            tally.format = format_of(path)
        except ConvertError as error:
            tally.error = str(error)
        if tally.format is not None:
            records = (
                _phh_records(path, tally)
                if tally.format == "phh"
                else _text_records(path, tally.format, tally)
            )
            for record, money, symbol in records:
                tally.hands += 1
                if not record["ok"]:
                    tally.failed += 1
                if args.json:
                    print(json.dumps(record, ensure_ascii=False))
                else:
                    print(_verdict(record, money, symbol))
        summary = tally.record()
        total, failures = total + tally.hands, failures + tally.failed
        if not summary["ok"] and not tally.failed:
            bad_files += 1
        if args.json:
            print(json.dumps(summary, ensure_ascii=False))
        else:
            if tally.skipped:
                games = ", ".join(f"{n} {g}" for g, n in (tally.skipped_games or {}).items())
                print(f"{file}: {tally.skipped} hand(s) of other games skipped ({games})")
            if not tally.hands:
                why = summary["error"]
                print(why if why.startswith(file) else f"{file}: {why}")
    if not args.json:
        print(f"{total - failures} of {total} hands replayed" + (f", {failures} failed" if failures else ""))
    if failures:
        print(f"sevenstud replay: {failures} hand(s) failed", file=sys.stderr)
    if bad_files:
        print(f"sevenstud replay: {bad_files} file(s) gave no hand to replay", file=sys.stderr)
    return 1 if failures or bad_files else 0
