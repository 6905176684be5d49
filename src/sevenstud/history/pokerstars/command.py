"""The PokerStars side of ``sevenstud replay``: the record of one hand (``sevenstud replay
--json`` prints it; :func:`sevenstud.history.replay_files.replay_command` reads the files, and
:func:`sevenstud.history.convert.format_of` tells the formats apart)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sevenstud.history.text.model import PokerStarsError, PokerStarsHand
from sevenstud.history.text.replay import PlayedHand, play_pokerstars


def hand_record(
    file: str,
    item: PokerStarsHand | PokerStarsError,
    play: Callable[[PokerStarsHand], PlayedHand] = play_pokerstars,
) -> dict[str, Any]:
    """The JSON object ``sevenstud replay --json`` prints for one hand read into the PokerStars
    model, replayed by ``play`` (Full Tilt's hands:
    :func:`~sevenstud.history.text.fulltilt.play_fulltilt`)."""
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
        played = play(item)
    except PokerStarsError as error:
        record.update(ok=False, error=error.located(), line=error.line)
        return record
    record["ok"] = True
    record["awards"] = [
        {"player": played.players[a.seat], "amount": a.amount, "pot": a.pot, "share": a.share}
        for a in played.hand.awards
    ]
    return record
