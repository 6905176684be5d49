"""The server's languages: the one catalog of each language, as the engine's
:mod:`sevenstud.i18n` loads it (``locale/<lang>/LC_MESSAGES/sevenstud.mo``, read once, by
:mod:`gettext`), and a language chosen from an ``Accept-Language`` header by Babel's negotiation.
The plural forms in the catalogs are Babel's, from CLDR (``tools/i18n_compile.py`` writes them).

A websocket client chooses its language in ``hello`` (``lang``, docs/protocol.md; before its
hello, the handshake's ``Accept-Language`` decides); an HTTP request names it in its query
(``?lang=uk``), else its ``Accept-Language`` decides, else English (:func:`negotiate`). What is
translated is the sentences (an ``error``'s ``message``, a refusal's ``detail``, a close
reason), never the machine-readable parts (codes, field names, a limit's name). A refusal is
said by its code and parameters (:class:`sevenstud.refusals.Refusal`), never from its English.
"""

from __future__ import annotations

import re

from babel import Locale, UnknownLocaleError, negotiate_locale

from sevenstud.i18n import DEFAULT, LANGUAGES, language_of, translation
from sevenstud.refusals import Refusal

__all__ = ["CLOSE_REASON_BYTES", "close_reason", "negotiate", "plural_category", "say", "translation"]

CLOSE_REASON_BYTES = 123
"""The most a websocket close frame's reason holds, in UTF-8 bytes (RFC 6455, 5.5)."""


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


def say(refusal: Refusal, lang: str | None) -> str:
    """A refusal in ``lang``, by its code and parameters; English (the code's own words) as it
    was raised, at no cost."""
    if language_of(lang) in (None, DEFAULT):
        return str(refusal)
    return refusal.said(translation(lang))


def close_reason(reason: Refusal, lang: str | None) -> str:
    """A close reason in ``lang``, cut (at a character) to the :data:`CLOSE_REASON_BYTES` a close
    frame holds: Cyrillic takes two bytes a letter."""
    said = say(reason, lang)
    data = said.encode("utf-8")
    if len(data) <= CLOSE_REASON_BYTES:
        return said
    return data[:CLOSE_REASON_BYTES].decode("utf-8", "ignore")
