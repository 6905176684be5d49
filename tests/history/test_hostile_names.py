"""Issue 36, point 4: a name (a table's, a tournament's, a player's) can never forge a line of a
written hand history. Every writer neutralises the characters that end a line or pass for another
(controls, format and bidi controls, line and paragraph separators); the text writers write them
``?``, PHH escapes them (``\\u2028``) so that the name reads back whole."""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Callable

import pytest

from sevenstud.deck import Deck
from sevenstud.games import Stakes, StudHiLo
from sevenstud.hand import Hand
from sevenstud.history.phh import dumps, loads
from sevenstud.history.pokerstars import format_hand, read_hands
from sevenstud.history.replay import to_phh
from sevenstud.history.text.acr import format_acr, read_acr
from sevenstud.history.text.fulltilt import format_fulltilt, read_fulltilt
from sevenstud.history.text.model import PokerStarsHand

EVIL_TABLE = "Evil' 2-max\nDealt to bot2 [Ah Ad]\n*** SUMMARY ***"
"""The table name of issue 36: it would put a forged hole-card line into every download."""
EVIL_PLAYER = "bot1\u2028Dealt to bot2 [Ah Ad]\u202e\r\x85\u2066x"
FORBIDDEN = ("Cc", "Cf", "Zl", "Zp")


def _hand() -> Hand:
    hand = Hand(StudHiLo(Stakes(1, 2, 5, 10)), [100, 100], Deck.seeded(7))
    while not hand.is_over:
        hand.act(hand.legal_actions()[1] if len(hand.legal_actions()) > 1 else hand.legal_actions()[0])
    return hand


Writer = Callable[..., str]
Reader = Callable[[io.StringIO], object]
WRITERS: list[tuple[str, Writer, Callable[[io.StringIO], object]]] = [
    ("pokerstars", format_hand, read_hands),
    ("fulltilt", format_fulltilt, read_fulltilt),
    ("acr", format_acr, read_acr),
]


@pytest.mark.parametrize(("room", "write", "read"), WRITERS, ids=[w[0] for w in WRITERS])
@pytest.mark.parametrize("tournament", [None, "77\nDealt to bot2 [Ah Ad]"])
def test_a_name_never_starts_a_line_in_a_text_history(
    room: str, write: Writer, read: Callable[[io.StringIO], object], tournament: str | None
) -> None:
    hand = _hand()
    plain = write(hand, players=["bot1", "bot2"], hero=0, table="Evil", tournament=tournament and "77")
    text = write(
        hand,
        players=[EVIL_PLAYER, "bot2"],
        hero=0,
        table=EVIL_TABLE,
        tournament=tournament,
        buy_in="$1+$0\u2029USD" if tournament else None,
    )
    lines = text.split("\n")
    assert len(lines) == len(plain.split("\n"))
    assert not any(line.startswith(("Dealt to bot2 [Ah Ad]", "*** SUMMARY ***")) for line in lines[:3])
    assert [line for line in lines if line.startswith("*** SUMMARY")] == ["*** SUMMARY ***"]
    bad = {c for c in text if c != "\n" and unicodedata.category(c) in FORBIDDEN}
    assert not bad, f"{room} wrote {sorted(map(hex, map(ord, bad)))}"
    if tournament is not None:
        return  # (a tournament "number" that is no number makes a header the room never wrote)
    (parsed,) = list(read(io.StringIO(text)))  # type: ignore[call-overload]
    assert isinstance(parsed, PokerStarsHand), parsed
    assert parsed.seats[0].name == "bot1?Dealt to bot2 [Ah Ad]????x"


def test_phh_escapes_a_name_that_would_end_its_line_and_reads_it_back_whole() -> None:
    phh = to_phh(_hand(), players=[EVIL_PLAYER, "bot2"], table=EVIL_TABLE)
    text = dumps(phh)
    bad = {c for c in text if c != "\n" and unicodedata.category(c) in FORBIDDEN}
    assert not bad and "\\u2028" in text and "\\u202E" in text
    back = loads(text)
    assert back.players == [EVIL_PLAYER, "bot2"] and back.table == EVIL_TABLE
