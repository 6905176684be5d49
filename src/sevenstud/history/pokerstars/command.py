"""The PokerStars side of ``sevenstud replay``: a verdict per hand of a file, and telling PHH
files from PokerStars text.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from sevenstud.history.pokerstars.model import (
    NotPokerStarsError,
    PokerStarsError,
    PokerStarsHand,
)
from sevenstud.history.pokerstars.read import looks_like_pokerstars, read_hands
from sevenstud.history.pokerstars.replay import play_pokerstars


def hand_record(file: str, item: PokerStarsHand | PokerStarsError) -> dict[str, Any]:
    """The JSON object ``sevenstud replay --json`` prints for one PokerStars hand."""
    if isinstance(item, PokerStarsError):
        return {
            "file": file,
            "hand_id": item.hand_id,
            "game": item.game,
            "ok": False,
            "error": item.located(),
            "line": item.line,
        }
    record: dict[str, Any] = {"file": file, "hand_id": item.hand_id, "game": item.game}
    try:
        played = play_pokerstars(item)
    except PokerStarsError as error:
        record.update(ok=False, error=error.located(), line=error.line)
        return record
    record["ok"] = True
    record["awards"] = [
        {"player": played.players[a.seat], "amount": a.amount, "pot": a.pot, "share": a.share}
        for a in played.hand.awards
    ]
    return record


def replay_file(path: Path, *, as_json: bool) -> tuple[int, int]:
    """Replay every stud hand of a PokerStars file, printing a verdict per hand (or a JSON object
    per line); returns (hands, failures). Other games are skipped and counted."""
    reader = read_hands(path)
    total = failures = 0
    try:
        for item in reader:
            total += 1
            record = hand_record(str(path), item)
            if not record["ok"]:
                failures += 1
            if as_json:
                print(json.dumps(record, ensure_ascii=False))
            elif record["ok"]:
                won = ", ".join(
                    f"{a['player']} {a['amount']}" + ("" if a["share"] == "whole" else f" ({a['share']})")
                    for a in record["awards"]
                )
                print(f"{path}: hand #{record['hand_id']} ({record['game']}): ok; {won}")
            else:
                print(f"{path}: hand #{record['hand_id']} ({record['game']}): ERROR {record['error']}")
    except NotPokerStarsError as error:
        if not as_json:
            print(f"{path}: skipped, {error.reason}")
        return total, failures
    except OSError as error:
        failures += 1
        total += 1
        if as_json:
            print(
                json.dumps(
                    {
                        "file": str(path),
                        "hand_id": None,
                        "game": None,
                        "ok": False,
                        "error": str(error),
                    }
                )
            )
        else:
            print(f"{path}: ERROR {error}")
        return total, failures
    if not as_json and reader.skipped:
        games = ", ".join(f"{count} {name}" for name, count in reader.skipped_games.most_common())
        print(f"{path}: {reader.skipped} hand(s) of other games skipped ({games})")
    return total, failures


def is_phh_path(path: Path) -> bool:
    """Whether ``sevenstud replay`` reads the file as PHH: by its ending, else by its content."""
    if path.suffix in (".phh", ".phhs"):
        return True
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            for line in f:
                if line.strip():
                    return not looks_like_pokerstars(line) and bool(
                        re.match(r"\s*(variant\s*=|\[\d+\])", line)
                    )
    except OSError:
        return False
    return False
