"""The words the room refuses in chat, and how a line is matched against them (docs/operators.md,
"Chat").

An operator keeps a list of words (:mod:`.chat`); a chat line containing one is refused. A word
matches a whole word of the line, never a part of one (``ass`` is not found in ``class`` or
``passage``), compared case-insensitively, and through the simple disguises a player types to
slip a word past a plain comparison:

- case and compatibility forms: both sides NFKC and case-folded (``BAD``, fullwidth ``ｂａｄ``);
- accents: combining marks dropped (``bád``, ``bäd``);
- look-alike letters: the Cyrillic and Greek letters that look like Latin ones read as those
  (``bаd`` with a Cyrillic ``а``), on both sides alike, so a Cyrillic word on the list matches
  in Cyrillic too;
- digits and signs for letters: ``4 @`` for a, ``3`` for e, ``1 ! |`` for i and l, ``0`` for o,
  ``5 $`` for s, ``7 +`` for t, ``8`` for b, ``9`` for g;
- a letter repeated (``baaaad``): each letter of the word may be written more times than in the
  word, never fewer (``as`` is not ``ass``);
- letters spread apart by up to two spaces or signs each (``b a d``, ``b.a.d``, ``b_a_d``).

A false match needs a line whose own words split exactly along the listed word's letters,
starting and ending on word boundaries: rare, and the operator chooses the list.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

LOOK_ALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
        "т": "t", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w",
        # Greek
        "α": "a", "β": "b", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
        "υ": "u", "χ": "x",
    }
)  # fmt: skip
"""The letters read as the Latin letter they look like (lower case: both sides are case-folded
first)."""

STAND_INS = {"a": "4@", "e": "3", "i": "1!|", "l": "1!|", "o": "0", "s": "5$", "t": "7+", "b": "8", "g": "9"}
"""The digits and signs written for a letter."""

DIGIT_LETTERS = {"4": "a", "3": "e", "1": "i", "0": "o", "5": "s", "7": "t", "8": "b", "9": "g"}
"""A digit in a listed word read as the letter it stands in for (``f4g`` is listed as ``fag``)."""

SPREAD = r"[\W_]{0,2}"
"""What may come between two letters of a word: up to two spaces or signs (``b a d``)."""
GAP = r"[\W_]{1,4}"
"""What comes between the words of a listed phrase: spaces or signs, at least one."""
WORD_MAX = 40
"""The longest entry of the list, in characters."""

_WORD_FORM = re.compile(r"[\w' -]+")


def fold(text: str) -> str:
    """``text`` as it is compared: NFKC, case-folded, without combining marks, the look-alike
    letters read as Latin, and a run of one character longer than two cut to two (``baaaad``
    compares as ``baad``: a word's letters may repeat, and the matching stays quick)."""
    text = unicodedata.normalize("NFKC", text).casefold()
    stripped = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    folded = unicodedata.normalize("NFC", stripped).translate(LOOK_ALIKES)
    return re.sub(r"(.)\1\1+", r"\1\1", folded)


def entry(word: str) -> str | None:
    """A word as the list keeps it (NFKC, case-folded, trimmed, inner spaces one), or None when
    it is no entry: 1 to :data:`WORD_MAX` characters of letters, digits, spaces, ``'`` or ``-``,
    with a letter among them."""
    if not isinstance(word, str):
        return None
    kept = " ".join(unicodedata.normalize("NFKC", word).casefold().split())
    if not kept or len(kept) > WORD_MAX or not _WORD_FORM.fullmatch(kept):
        return None
    if not any(c.isalpha() for c in kept):
        return None
    return kept


def _letter(c: str) -> str:
    return "[" + re.escape(c + STAND_INS.get(c, "")) + "]"


def pattern(word: str) -> re.Pattern[str]:
    """The expression that finds the listed ``word`` in a folded line (:func:`fold`)."""
    parts = []
    for piece in fold(word).replace("'", " ").replace("-", " ").split():
        letters = [DIGIT_LETTERS.get(c, c) for c in piece]
        runs: list[tuple[str, int]] = []
        for c in letters:
            if runs and runs[-1][0] == c:
                runs[-1] = (c, runs[-1][1] + 1)
            else:
                runs.append((c, 1))
        # A letter written n times in the word is written at least n times in the line (a
        # folded line holds at most two in a row, so a doubled letter matches twice or more).
        said = [SPREAD.join([_letter(c)] * count) + ("{1,2}" if count == 1 else "") for c, count in runs]
        parts.append(SPREAD.join(said))
    return re.compile(r"(?<![^\W_])" + GAP.join(parts) + r"(?![^\W_])")


@dataclass(frozen=True, slots=True)
class Matcher:
    """A list of words, each with its expression: :meth:`find` the first in a line."""

    words: tuple[tuple[str, re.Pattern[str]], ...]

    @classmethod
    def of(cls, words: list[str]) -> Matcher:
        """The matcher of the listed ``words`` (as :func:`entry` keeps them)."""
        return cls(tuple((word, pattern(word)) for word in sorted(set(words))))

    def find(self, text: str) -> str | None:
        """The first listed word the line ``text`` contains, or None."""
        if not self.words:
            return None
        folded = fold(text)
        for word, found in self.words:
            if found.search(folded):
                return word
        return None


__all__ = ["WORD_MAX", "Matcher", "entry", "fold", "pattern"]
