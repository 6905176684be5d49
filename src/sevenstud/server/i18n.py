"""The server's translations, with Babel: the same catalogs the engine's :mod:`sevenstud.i18n`
reads (``locale/<lang>/LC_MESSAGES/sevenstud.mo``), loaded as :class:`babel.support.Translations`,
and a language chosen from an ``Accept-Language`` header by Babel's negotiation. The plural forms
in the catalogs are Babel's, from CLDR (``tools/i18n_compile.py`` writes them).

A websocket client chooses its language in ``hello`` (``lang``, docs/protocol.md); an HTTP
request for words (the replayer's ``/api/hands/{id}/replay?lang=uk``) names it in its query, else
its ``Accept-Language`` decides, else English.
"""

from __future__ import annotations

import functools
import re

from babel import Locale, UnknownLocaleError, negotiate_locale
from babel.support import NullTranslations, Translations

from sevenstud.i18n import DEFAULT, DOMAIN, LANGUAGES, LOCALE_DIR, language_of

__all__ = ["negotiate", "plural_category", "translation"]


@functools.cache
def translation(lang: str | None) -> NullTranslations:
    """``lang``'s catalog as Babel loads it; English (the code's own words) for English or a
    language the card room does not speak."""
    code = language_of(lang)
    if code is None or code == DEFAULT:
        return NullTranslations()
    return Translations.load(str(LOCALE_DIR), [code], DOMAIN)


def negotiate(accept_language: str | None, asked: str | None = None) -> str:
    """The language to answer in: ``asked`` when it is one of ours, else the best of an
    ``Accept-Language`` header (``"uk-UA,uk;q=0.9,en;q=0.5"``) by Babel's negotiation, else
    English.

    >>> negotiate("de-DE,ru;q=0.8,en;q=0.5"), negotiate(None, "et"), negotiate("fr")
    ('ru', 'et', 'en')
    """
    chosen = language_of(asked)
    if chosen is not None:
        return chosen
    preferred = []
    for part in (accept_language or "").split(","):
        tag, _, params = part.strip().partition(";")
        match = re.search(r"q=([0-9.]+)", params)
        try:
            weight = float(match.group(1)) if match else 1.0
        except ValueError:
            continue
        if tag and weight > 0:
            preferred.append((weight, tag.replace("-", "_")))
    ordered = [tag for _, tag in sorted(preferred, key=lambda p: -p[0])]
    found = negotiate_locale(ordered, list(LANGUAGES), sep="_")
    return language_of(found) or DEFAULT


def plural_category(lang: str, n: int) -> str:
    """CLDR's plural category of ``n`` in ``lang`` (``"one"``, ``"few"``, ``"many"``, ``"other"``):
    what the catalogs' plural forms and the pages' ``Intl.PluralRules`` must agree with."""
    try:
        return str(Locale.parse(lang).plural_form(n))
    except (UnknownLocaleError, ValueError):
        return "other"
