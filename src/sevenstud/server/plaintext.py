"""Plain text on one line: the rule of what a player writes that others read (docs/security.md).

A chat line (server/tables/chat.py), a table's name and a tournament's name are shown to other
people on one line, as the words of whoever wrote them. So they hold no character that breaks
the line or hides in it: no control character (C0 and C1, a line break among them), no line or
paragraph separator (U+2028, U+2029), no direction control (an override that makes the rest of
the line read backwards, as someone else's words), no invisible format character (zero-width
spaces and joiners, the tag block U+E0000-U+E007F, a soft hyphen) and no blank filler (the
Hangul fillers and the blank braille pattern, letters that show as nothing: a line of them
reads as blank). One exception: a zero-width joiner between two pictographs, which is how
emoji such as a family or a profession are written.

:func:`fault` finds the first such character, :func:`check` raises for it (pydantic's
``plain_line`` error, which answers.py says in the request's language), :data:`PlainLine` is
the type of a name field with the rule, and :func:`clean` is what migration 0009 made of the
names stored before it.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated

from pydantic import AfterValidator
from pydantic_core import PydanticCustomError

from sevenstud.i18n import N_

__all__ = ["DIRECTION_CONTROLS", "FILLERS", "PLAIN_LINE", "PlainLine", "check", "clean", "fault"]

DIRECTION_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""The bidirectional marks, embeddings, overrides and isolates (all of them format characters)."""
FILLERS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800\u3164\uffa0")
"""Letters and marks that show as nothing: the Hangul fillers, the blank braille pattern, the
combining grapheme joiner, Khmer's inherent vowels and Mongolian's variation selectors."""
ZERO_WIDTH_JOINER = "\u200d"

PLAIN_LINE = N_("plain text on one line: no {what} (U+{code})")
"""A field's refusal by the rule (pydantic's ``plain_line`` error; the field is its ``loc``)."""

KINDS = (
    N_("control characters"),
    N_("line or paragraph separators"),
    N_("direction controls"),
    N_("invisible format characters"),
    N_("blank fillers"),
)
"""What the rule refuses, as a refusal names it (said in the language inside the sentence)."""


def _pictograph(char: str) -> bool:
    # So: emoji and other symbols; Sk: the skin tones; the emoji variation selector
    return char == "\ufe0f" or unicodedata.category(char) in ("So", "Sk")


def _kind(text: str, i: int) -> str | None:
    """What kind of refused character ``text[i]`` is (one of :data:`KINDS`), or None."""
    char = text[i]
    category = unicodedata.category(char)
    if category == "Cc":
        return KINDS[0]
    if category in ("Zl", "Zp"):
        return KINDS[1]
    if char in DIRECTION_CONTROLS:
        return KINDS[2]
    if category == "Cf" or 0xE0000 <= ord(char) <= 0xE007F:
        joins = char == ZERO_WIDTH_JOINER and 0 < i < len(text) - 1
        if joins and _pictograph(text[i - 1]) and _pictograph(text[i + 1]):
            return None  # an emoji's joiner
        return KINDS[3]
    if char in FILLERS:
        return KINDS[4]
    return None


def fault(text: str) -> tuple[str, str] | None:
    """The first character of ``text`` that plain text on one line refuses, as what kind of
    character it is (one of :data:`KINDS`) and its code point in hex; None when there is none.

    >>> fault("nice hand"), fault("gg\\u2028wp"), fault("Ann\\u202e")
    (None, ('line or paragraph separators', '2028'), ('direction controls', '202E'))
    >>> fault("\\u3164\\u3164"), fault("\\U0001f468\\u200d\\U0001f373"), fault("a\\u200db")
    (('blank fillers', '3164'), None, ('invisible format characters', '200D'))
    """
    for i, char in enumerate(text):
        kind = _kind(text, i)
        if kind is not None:
            return kind, f"{ord(char):04X}"
    return None


def check(text: str) -> str:
    """``text`` when it is plain text on one line, else pydantic's ``plain_line`` error naming
    the character (an ``AfterValidator``: the 422 names the field)."""
    found = fault(text)
    if found is not None:
        what, code = found
        raise PydanticCustomError("plain_line", PLAIN_LINE, {"what": what, "code": code})
    return text


PlainLine = Annotated[str, AfterValidator(check)]
"""A string field that is plain text on one line (a table's or a tournament's name)."""


def clean(text: str) -> str:
    """``text`` made plain text on one line: a control character or a separator becomes a
    space, every other character the rule refuses is dropped, runs of spaces become one and
    the ends are trimmed (what migration 0009 did to the names stored before the rule).

    >>> clean("Friday\\nnight\\u202e game\\u200b\\u3164 ")
    'Friday night game'
    """
    kept = []
    for i, char in enumerate(text):
        kind = _kind(text, i)
        if kind is None:
            kept.append(char)
        elif kind in (KINDS[0], KINDS[1]):
            kept.append(" ")
    return " ".join("".join(kept).split())
