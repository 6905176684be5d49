"""Every sentence the server and the terminal say of a hand, in every language (issue 34, point
5: find the class, not the cases): each kind of result the showdown can have in each game, each
event a log says, what a hand holds so far, a refusal, and whole terminal games. None may keep
an English word the seeds do not keep, show a catalogue key or leave a placeholder unfilled
(tests/stray_words.py), and in Russian and Ukrainian a hand's name (said in the nominative) never
follows a preposition that wants another case ("скуп (109) с две пары"). The pages' words are
checked in chromium (tests/web/test_words_everywhere.py)."""

from __future__ import annotations

import io
import re
import sys

import pytest

from sevenstud import cli, i18n, wording
from sevenstud.actions import Action, ActionKind, IllegalAction
from sevenstud.cards import parse_cards
from sevenstud.events import (
    ActionTaken,
    AntePosted,
    BetReturned,
    HandMucked,
    HandShown,
    HandTurnedUp,
    PotAwarded,
    RakeTaken,
)
from sevenstud.games import Razz, Stakes, Stud, StudHiLo
from sevenstud.i18n import hand_name, translation
from sevenstud.refusals import Refusal, Words
from sevenstud.server.tables.presenter import summary
from sevenstud.terminal_text import holding_text, in_your_words
from tests.stray_words import strays

LANGUAGES = ("en", "uk", "ru", "et")
OTHERS = ("uk", "ru", "et")
STAKES = Stakes(1, 2, 5, 10)
NAMES = {1: "Ann", 2: "Bob", 3: "Cid"}
FULL = "a full house, Kings full of Threes"
TWO_PAIR = "two pair, Aces and Deuces"
LOW = "8,6,4,3,2"
CARDS = tuple(parse_cards("Kc Kd Ks 3h 3c 8d 2s"))


def _antes(*seats: int) -> list[object]:
    return [AntePosted(s, 1, False) for s in seats]


def _shown(seat: int, high: str | None, low: str | None = None) -> HandShown:
    return HandShown(seat, CARDS, high, low)


RESULTS: dict[str, list[object]] = {
    "everyone else folded": [*_antes(1, 2, 3), PotAwarded(1, 3, 0, "whole")],
    "one winner": [*_antes(1, 2), _shown(1, FULL, None), _shown(2, TWO_PAIR, None),
                   PotAwarded(1, 2, 0, "whole")],
    "split whole": [*_antes(1, 2), _shown(1, FULL), _shown(2, FULL), PotAwarded(1, 1, 0, "whole"),
                    PotAwarded(2, 1, 0, "whole")],
    "scoop": [*_antes(1, 2), _shown(1, TWO_PAIR, "5,4,3,2,A"), _shown(2, FULL, None),
              PotAwarded(1, 1, 0, "high"), PotAwarded(1, 1, 0, "low")],
    "halves": [*_antes(1, 2, 3), _shown(1, FULL, None), _shown(2, TWO_PAIR, LOW), PotAwarded(1, 2, 0, "high"),
               PotAwarded(2, 1, 0, "low")],
    "split halves": [*_antes(1, 2, 3), _shown(1, FULL, LOW), _shown(2, FULL, LOW), _shown(3, TWO_PAIR, None),
                     PotAwarded(1, 1, 0, "high"), PotAwarded(2, 1, 0, "high"), PotAwarded(1, 1, 0, "low"),
                     PotAwarded(2, 1, 0, "low")],
    "side pot and rake": [AntePosted(1, 1, True), *_antes(2, 3),
                          ActionTaken(2, 3, Action(ActionKind.BET, 5), False, 5),
                          ActionTaken(3, 3, Action(ActionKind.CALL, 5), False, 5), _shown(1, FULL, None),
                          _shown(2, TWO_PAIR, None), _shown(3, TWO_PAIR, None), RakeTaken(1),
                          PotAwarded(1, 2, 0, "whole"), PotAwarded(2, 10, 1, "whole")],
}  # fmt: skip
"""The results a showdown can have: everyone else folded, a winner, a split, a scoop, the high
and low halves, split halves, a side pot and the rake."""

GAMES = (StudHiLo(STAKES), Stud(STAKES), Razz(STAKES))


def _given(events: list[object]) -> list[str]:
    """The values a sentence puts in: names and lows (a low is said the same everywhere)."""
    lows = [e.low for e in events if isinstance(e, HandShown) and e.low]
    return [*NAMES.values(), *lows]


# Prepositions that want a case other than the nominative before a hand's name.
CASE_GOVERNING = {"ru": r"(?:с|со|за|над|под|перед)", "uk": r"(?:з|із|зі|за|над|під|перед)"}


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.code)
@pytest.mark.parametrize("shape", RESULTS)
def test_every_kind_of_result_is_said_in_the_language(lang: str, game: object, shape: str) -> None:
    """Rule: each kind of result, in each game, is said in the language with no English word,
    key or placeholder left; in Russian and Ukrainian a hand's name is never governed by a
    preposition (the names are nominative: "— две пары", not "с две пары")."""
    events = RESULTS[shape]
    tr = translation(lang)
    english = summary(game, NAMES, events)  # type: ignore[arg-type]
    said = summary(game, NAMES, events, tr)  # type: ignore[arg-type]
    assert len(said) == len(english)
    for line, theirs in zip(said, english, strict=True):
        assert not strays(line, lang, theirs, _given(events)), (
            line,
            strays(line, lang, theirs, _given(events)),
        )
        if lang in CASE_GOVERNING:
            for name in (hand_name(FULL, tr), hand_name(TWO_PAIR, tr)):
                governed = re.search(rf"(?:^|\s){CASE_GOVERNING[lang]}\s+{re.escape(name or '')}", line)
                assert governed is None, f"{line!r}: {name!r} after a preposition"


AMOUNTED = ("bet", "raise", "complete", "bring-in")

EVENTS: list[object] = [
    AntePosted(1, 1, False),
    AntePosted(1, 1, True),
    *(ActionTaken(1, 3, Action(kind, 10 if kind.value in AMOUNTED else None), all_in, 4)
      for kind in ActionKind for all_in in (False, True)),
    BetReturned(1, 5),
    HandTurnedUp(1, CARDS),
    HandShown(1, CARDS, FULL, LOW),
    HandShown(1, CARDS, TWO_PAIR, None),
    HandMucked(1),
]  # fmt: skip


@pytest.mark.parametrize("lang", OTHERS)
def test_every_event_a_log_says_is_in_the_language(lang: str) -> None:
    """Rule: every event the server's log and downloads say (sevenstud.wording) is said in the
    language, with nothing English left in it."""
    tr = translation(lang)
    for event in EVENTS:
        line, english = wording.action_line("Ann", event, tr), wording.action_line("Ann", event)
        assert line is not None and english is not None
        cards = [str(c) for c in CARDS]
        assert not strays(line, lang, english, ["Ann", LOW, *cards]), (event, line)


HOLDINGS = (
    "Kc Kd Qs",
    "Ac 2d 4s 7h",
    "Ac 2d 4s 7h 8c",
    "Kc Kd Qs Qh 9c Jd Jh",
    "9c 4d 2s",
    "Kc Qd 7s",
    "Kc Qd Js",
)


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.code)
def test_what_a_hand_holds_so_far_is_said_in_the_language(lang: str, game: object) -> None:
    """Rule: the terminal's prompt says what your cards hold (high and low, made or not yet) in
    the language: "no low yet (7 toward one)" was English in every language."""
    for cards in HOLDINGS:
        i18n.use("en")
        english = holding_text(parse_cards(cards), game)  # type: ignore[arg-type]
        i18n.use(lang)
        try:
            said = holding_text(parse_cards(cards), game)  # type: ignore[arg-type]
        finally:
            i18n.use("en")
        lows = re.findall(r"[0-9TJQKA](?:,[0-9TJQKA])+|\b[2-9A]\b", said)
        assert not strays(said, lang, english, lows), (cards, said)


@pytest.mark.parametrize("lang", OTHERS)
def test_a_refusal_at_the_terminal_names_the_action_in_the_language(lang: str) -> None:
    """Rule: "you cannot call: ..." names the action in the prompt's words ("вы не можете
    call" kept the engine's word)."""
    legal = [Action(ActionKind.BRING_IN, 2), Action(ActionKind.COMPLETE, 5)]
    why = Refusal("kind_not_possible", kind=Words("call"))  # as the engine refuses it
    error = IllegalAction("action_not_legal", seat=0, action="call", reason=why, options="")
    i18n.use("en")
    english = in_your_words(error, legal)
    i18n.use(lang)
    try:
        said = in_your_words(error, legal)
    finally:
        i18n.use("en")
    assert not strays(COMMANDS.sub(" ", said), lang, COMMANDS.sub(" ", english)), said


TYPED = "c\nb 999\nx\nr\nc\nc\nf\n" * 12
"""What the player types in a terminal game: calls, an impossible bet, a word that is no
action, raises and folds (each refused or taken, in the table's language)."""

CARD = re.compile(r"\[?\b(?:[2-9TJQKA][cdhs]|xx)\b\]?")
LOWS = re.compile(r"\b[0-9TJQKA](?:,[0-9TJQKA])+\b|(?<=: )[2-9A]\b")
COMMANDS = re.compile(r"'[a-z]+(?: [a-z]+)? ?\d*'|\[[a-z]\]|\bq\b")
"""The keys and commands the prompt shows ("[c]", "q", "'raise to 10'"): the terminal reads
English commands in every language, and says so."""


def _play(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> str:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stdin", io.StringIO(TYPED))
    try:
        cli.main(argv)
    finally:
        i18n.use("en")
    return out.getvalue()


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("game", ["stud8", "razz"])
def test_a_whole_terminal_game_says_nothing_in_english(
    lang: str, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule: every line of a terminal game (prompts, refusals, what the cards hold, results) is
    in the language, the commands the terminal reads and the names aside."""
    argv = ["play", "--game", game, "--bots", "3", "--hands", "3", "--seed", "11"]
    english = _play([*argv, "--lang", "en"], monkeypatch)
    said = _play([*argv, "--lang", lang], monkeypatch)
    names = sorted(set(re.findall(r"\bBot \d+\b|\b[a-z]+-bot\b", english)) | {"Bot"})
    wrong = []
    for line in said.splitlines():
        typed = line.rpartition(" > ")[0] if " > " in line else line  # what the player typed aside
        plain = LOWS.sub(" ", CARD.sub(" ", COMMANDS.sub(" ", typed)))
        found = strays(plain, lang, english, names)
        if found:
            wrong.append((line, found))
    assert not wrong, "\n".join(f"{line!r}: {found}" for line, found in wrong[:12])
