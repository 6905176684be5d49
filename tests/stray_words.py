"""What a sentence in Ukrainian, Russian or Estonian must not have (issue 34, point 5): an
English word the seeds do not keep, a catalogue key shown as it is ("log.sat_out_why"), a
placeholder left unfilled ("{reason}"). Used by the wording tests of the server and the terminal
(tests/test_words_in_every_language.py) and of the pages (tests/web/test_words_everywhere.py).

An English word is found two ways. In Ukrainian and Russian any word in Latin letters is one
(their alphabet is Cyrillic), unless the seeds keep it. Estonian is written in Latin letters and
has words spelled as English ones ("see", "need", "read"): there a word of the sentence that the
English sentence of the same thing also has is English ("Ann teeb pausi (time-outs)" beside "Ann
sits out (time-outs)"), unless the seeds keep it ("ante", "Stud").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

KEPT: dict[str, frozenset[str]] = {
    "ru": frozenset(
        {"Enter", "Stud", "Razz", "Hi/Lo", "VPIP", "ICM", "PHH", "PokerStars", "UTC", "sevenstud"}
    ),
    "uk": frozenset(
        {"Enter", "Stud", "Razz", "Hi/Lo", "VPIP", "ICM", "PHH", "PokerStars", "UTC", "sevenstud"}
    ),
    "et": frozenset(
        {
            "ante",
            "Ante",
            "all-in",
            "bring-in",
            "Stud",
            "Razz",
            "Hi/Lo",
            "hi/lo",
            "Seven",
            "Card",
            "Street",
            "Third",
            "Fourth",
            "Fifth",
            "Sixth",
            "Seventh",
            "scoop",
            "Scoop",
            "full",
            "house",
            "Sit-and-go",
            "sit-and-go",
            "Heads-up",
            "turbo",
            "wheel",
            "bot",
            "server",
            "VPIP",
            "PHH",
            "PokerStars",
            "UTC",
            "sevenstud",
            "on",
            "min",
            "showdown",
            "Enter",
        }
    ),
}
"""The English words each language's seeds (the rule pages the card room's words follow) keep as
they are: games' and streets' names, "ante", "all-in" in Estonian; abbreviations everywhere.
("on" and "min" are Estonian words too: "is", minutes.)"""

WORD = re.compile(r"[^\W\d_]+(?:['/-][^\W\d_]+)*")
"""A word, in any alphabet ("näe" is one Estonian word, not "n" and "e")."""
LATIN = re.compile(r"[A-Za-z'/-]+")
KEY = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)*\.[a-z0-9_.]*[a-z0-9_]\b")
"""A catalogue key ("log.sat_out", "table.closed_over") left in a sentence for its words."""
HOLE = re.compile(r"\{\w+\}")


def strays(text: str, lang: str, english: str = "", given: Iterable[str] = ()) -> list[str]:
    """What is wrong in ``text``, said in ``lang`` (``english``: the same thing's English
    sentence; ``given``: the values put in it, names and cards, which are nobody's words): each
    English word the seeds do not keep, each catalogue key, each unfilled placeholder."""
    found = [f"key {k!r}" for k in KEY.findall(text)] + [f"placeholder {h!r}" for h in HOLE.findall(text)]
    if lang == "en":
        return found
    for value in sorted({str(g) for g in given if str(g)}, key=len, reverse=True):
        text = text.replace(value, " ")
        english = english.replace(value, " ")
    kept = {k.lower() for k in KEPT.get(lang, frozenset())}
    theirs = {w.lower() for w in WORD.findall(english)}
    for word in WORD.findall(text):
        if not LATIN.fullmatch(word) or word.lower() in kept:
            continue
        if lang in ("ru", "uk") or word.lower() in theirs:
            found.append(f"English {word!r}")
    return found
