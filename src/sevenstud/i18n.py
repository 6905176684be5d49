"""The card room's languages with the standard library alone: English, Ukrainian, Russian and
Estonian (the languages of the card room whose rule pages are our seeds).

The engine and the terminal table read the compiled catalogs (``locale/<lang>/LC_MESSAGES/
sevenstud.mo``, committed beside their ``.po`` sources; ``tools/i18n_compile.py`` rebuilds them
with Babel) through :mod:`gettext`; the server wraps the same catalogs with Babel
(:mod:`sevenstud.server.i18n`). English is the source language: its catalog is the code itself,
so an unknown language or a missing catalog always falls back to English, never to an error.

Hand names (``"a full house, Kings full of Threes"``) are translated after the fact, from their
English, because the engine writes them into its events (data, stored and replayed, English):
:func:`hand_name` reads the English name's grammar (:mod:`sevenstud.evaluate` and
:mod:`sevenstud.showdown_hands` write it) and says it again in the language. Refusals are said by
their code and parameters (:mod:`sevenstud.refusals`), never from their English.

>>> tr = translation("ru")
>>> hand_name("a full house, Kings full of Threes", tr)
'фулл-хаус: короли и тройки'
>>> hand_name("two pair, Aces and Deuces", translation("xx"))
'two pair, Aces and Deuces'
"""

from __future__ import annotations

import functools
import gettext
import os
import re
from collections.abc import Mapping
from pathlib import Path

from sevenstud.cards import RANK_NAMES, RANK_PLURALS

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "Translations",
    "current",
    "from_environment",
    "hand_name",
    "language_of",
    "n_",
    "translation",
    "use",
]

Translations = gettext.NullTranslations
"""What every translating function takes: ``gettext``, ``ngettext``, ``pgettext``."""

LANGUAGES: tuple[str, ...] = ("en", "uk", "ru", "et")
"""The languages, by their ISO 639-1 codes; English first (the source and the default)."""

DEFAULT = "en"
"""The language of a client that names none (existing clients keep their English)."""

LANGUAGE_NAMES: dict[str, str] = {"en": "English", "uk": "Українська", "ru": "Русский", "et": "Eesti"}
"""Each language in its own words, as a language menu shows it."""

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
"""The package's catalogs: ``<lang>/LC_MESSAGES/sevenstud.po`` and its compiled ``.mo``."""

DOMAIN = "sevenstud"


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it now."""
    return message


def language_of(tag: str | None) -> str | None:
    """One of :data:`LANGUAGES` for a language tag or locale name (``"uk-UA"``,
    ``"ru_RU.UTF-8"``, ``"et"``, ``"en-GB"``), or None when it names none of them.

    >>> language_of("ru_RU.UTF-8"), language_of("uk-UA"), language_of("de"), language_of("C")
    ('ru', 'uk', None, None)
    """
    if not tag:
        return None
    base = re.split(r"[-_.@]", tag.strip().lower(), maxsplit=1)[0]
    return base if base in LANGUAGES else None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language from the environment as gettext reads it: ``LANGUAGE`` (a list
    separated by colons), then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``; the first one that names
    one of :data:`LANGUAGES`, else English.

    >>> from_environment({"LANG": "et_EE.UTF-8"}), from_environment({"LC_ALL": "C", "LANG": "ru_RU"})
    ('et', 'en')
    """
    env = os.environ if environ is None else environ
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "")
        if not value:
            continue
        if variable == "LANGUAGE":
            for part in value.split(":"):
                found = language_of(part)
                if found:
                    return found
            continue
        # The first variable set decides, as the C library does: LC_ALL=C means English.
        return language_of(value) or DEFAULT
    return DEFAULT


@functools.cache
def translation(lang: str | None) -> Translations:
    """The catalog of ``lang`` (one of :data:`LANGUAGES`); English (the code's own words) for
    English, an unknown language or a missing catalog."""
    code = language_of(lang)
    if code is None or code == DEFAULT:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)


# ---------------------------------------------------------------------- hand names

# The English rank words are the engine's own (cards.py), so a hand name it writes is always found.
_RANKS = RANK_NAMES
_RANK_WORD = "|".join(_RANKS)
_PLURALS = RANK_PLURALS
_PLURAL_WORD = "|".join(_PLURALS)


def _rank(name: str, tr: Translations) -> str:
    """A rank in the singular ("King")."""
    words = {
        "Deuce": N_("Deuce"), "Three": N_("Three"), "Four": N_("Four"), "Five": N_("Five"),
        "Six": N_("Six"), "Seven": N_("Seven"), "Eight": N_("Eight"), "Nine": N_("Nine"),
        "Ten": N_("Ten"), "Jack": N_("Jack"), "Queen": N_("Queen"), "King": N_("King"), "Ace": N_("Ace"),
    }  # fmt: skip
    return tr.pgettext("rank", words[name])


def _ranks(name: str, tr: Translations) -> str:
    """A rank in the plural ("Kings")."""
    words = {
        "Deuces": N_("Deuces"), "Threes": N_("Threes"), "Fours": N_("Fours"), "Fives": N_("Fives"),
        "Sixes": N_("Sixes"), "Sevens": N_("Sevens"), "Eights": N_("Eights"), "Nines": N_("Nines"),
        "Tens": N_("Tens"), "Jacks": N_("Jacks"), "Queens": N_("Queens"), "Kings": N_("Kings"),
        "Aces": N_("Aces"),
    }  # fmt: skip
    return tr.pgettext("ranks", words[name])


_A, _B = f"(?P<a>{_RANK_WORD})", f"(?P<b>{_RANK_WORD})"
_AS, _BS = f"(?P<a>{_PLURAL_WORD})", f"(?P<b>{_PLURAL_WORD})"
_HAND_NAMES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(f"^{pattern}$"), words)
    for pattern, words in (
        ("a Royal Flush", N_("a Royal Flush")),
        (f"a straight flush, {_A} to {_B}", N_("a straight flush, {a} to {b}")),
        (f"four of a kind, {_AS}", N_("four of a kind, {a}")),
        (f"a full house, {_AS} full of {_BS}", N_("a full house, {a} full of {b}")),
        (f"a flush, {_A} high", N_("a flush, {a} high")),
        (f"a straight, {_A} to {_B}", N_("a straight, {a} to {b}")),
        (f"three of a kind, {_AS}", N_("three of a kind, {a}")),
        (f"two pair, {_AS} and {_BS}", N_("two pair, {a} and {b}")),
        (f"a pair of {_AS}", N_("a pair of {a}")),
        (f"high card {_A}", N_("high card {a}")),
        (f"{_A} high", N_("{a} high")),
    )
)


def hand_name(name: str | None, tr: Translations) -> str | None:
    """A hand's name (as the engine writes it, in English) in the language of ``tr``; a low
    (``"8,6,4,3,2"``) and a name this grammar does not know are returned as they are."""
    if name is None:
        return None
    for pattern, words in _HAND_NAMES:
        match = pattern.match(name)
        if match is None:
            continue
        parts = {
            key: (_ranks(value, tr) if value in _PLURALS else _rank(value, tr))
            for key, value in match.groupdict().items()
        }
        return tr.gettext(words).format(**parts)
    return name


# ---------------------------------------------------------------------- names the terminal says

GAME_NAMES = (N_("Seven Card Stud Hi/Lo"), N_("Seven Card Stud"), N_("Razz"))
"""The games' names (``Game.name``), marked for the catalogs: the terminal says them so."""

STREETS = (N_("3rd street"), N_("4th street"), N_("5th street"), N_("6th street"), N_("7th street"))
"""The streets' names (:data:`sevenstud.games.STREET_NAMES`), marked for the catalogs."""


# ---------------------------------------------------------------------- the terminal's language

_current: list[Translations] = [gettext.NullTranslations()]


def use(lang: str | None) -> None:
    """Speak ``lang`` from now on in this process's terminal text (:func:`_`, :func:`n_`): the
    terminal table has one player, so its language is the process's (``--lang``, else
    :func:`from_environment`)."""
    _current[0] = translation(lang)


def _(message: str) -> str:
    """``message`` in the terminal's language (:func:`use`)."""
    return _current[0].gettext(message)


def n_(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for the count ``n`` in the terminal's language, by its
    plural rules (CLDR's, in the catalog's ``Plural-Forms``)."""
    return _current[0].ngettext(singular, plural, n)


def current() -> Translations:
    """The terminal's catalog now (what :func:`use` chose)."""
    return _current[0]
