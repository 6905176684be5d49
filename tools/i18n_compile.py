"""The server's and the terminal's catalogs: extract the marked messages from the code, check
the ``.po`` files against them, and compile each ``.po`` to the ``.mo`` the standard library's
:mod:`gettext` reads (the ``.mo`` files are committed, so that the engine and the terminal need
nothing beyond the standard library, and a checkout works without a build step).

    python tools/i18n_compile.py           # compile every locale/<lang>/LC_MESSAGES/sevenstud.po
                                           # (and write the page log's sentences, below)
    python tools/i18n_compile.py --check   # exit 1 when a .po lacks or has extra messages,
                                           # or a .mo is older than its .po's contents
    python tools/i18n_compile.py --update  # add the code's new messages to every .po (to be
                                           # translated there) and drop those it no longer says

A message is *marked* when the code calls ``N_``, ``_``, ``gettext``, ``pgettext``, ``n_`` or
``ngettext`` (as a function or a method, e.g. ``tr.gettext``) with literal strings. Babel writes
each ``.po``'s ``Plural-Forms`` from CLDR's rules for its language.

The table page words its log's events from its own JSON catalogs (``web/i18n/<lang>.json``);
the entries :data:`sevenstud.wording.PAGE` names are written here from the gettext catalogs
(the English from :mod:`sevenstud.wording`), so an event has one sentence in each language.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
from sevenstud.cards import RANK_NAMES, RANK_PLURALS  # noqa: E402  (the engine's own words)

PACKAGE = ROOT / "src" / "sevenstud"
LOCALE = PACKAGE / "locale"
WEB_I18N = PACKAGE / "web" / "i18n"
LANGUAGES = ("uk", "ru", "et")
"""The catalogs (English is the code's own words and has none)."""

Key = tuple[str | None, str]
"""A message: its context (None: none) and its English (the singular for a plural)."""


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _calls(tree: ast.AST) -> Iterator[tuple[str, list[str | None]]]:
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name in {"N_", "_", "gettext", "pgettext", "n_", "ngettext"}:
            yield name, [_literal(a) for a in node.args]


def extract(package: Path = PACKAGE) -> dict[Key, str | None]:
    """Every marked message of the package: its key and its English plural (None: no plural)."""
    found: dict[Key, str | None] = {}
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for name, args in _calls(tree):
            if name in {"N_", "_", "gettext"} and args and args[0] is not None:
                found[(None, args[0])] = None
            elif name == "pgettext" and len(args) == 2 and args[1] is not None:
                found[(args[0], args[1])] = None
            elif name in {"n_", "ngettext"} and len(args) >= 2 and args[0] is not None:
                found[(None, args[0])] = args[1]
    # pgettext called with a variable message: the words themselves are marked with N_ beside
    # it (the ranks of sevenstud.i18n); their context is the call's.
    for rank_context, words in (("rank", RANK_NAMES), ("ranks", RANK_PLURALS)):
        for word in words:
            found.pop((None, word), None)
            found[(rank_context, word)] = None
    return found




def po_path(lang: str) -> Path:
    """The ``.po`` of ``lang``."""
    return LOCALE / lang / "LC_MESSAGES" / "sevenstud.po"


def problems(lang: str) -> list[str]:
    """What is wrong with ``lang``'s catalog: messages missing, untranslated or unused."""
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    wanted = extract()
    have = {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m for m in catalog if m.id}
    said = []
    for key in sorted(wanted.keys() - have.keys(), key=str):
        said.append(f"{lang}: missing {key}")
    for key in sorted(have.keys() - wanted.keys(), key=str):
        said.append(f"{lang}: unused {key}")
    for key, message in have.items():
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        if not all(strings):
            said.append(f"{lang}: untranslated {key}")
    return said


def update(lang: str) -> None:
    """Bring ``lang``'s ``.po`` to the code's messages (Babel's ``Catalog.update``): new ones
    added untranslated, unused ones dropped, the translations kept."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    with po_path(lang).open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    template = Catalog(domain="sevenstud")
    template.creation_date = catalog.creation_date  # no date churn when nothing changed
    for (context, message), plural in extract().items():
        template.add(message if plural is None else (message, plural), context=context)
    catalog.update(template, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    with po_path(lang).open("wb") as handle:
        write_po(handle, catalog, width=100, sort_output=True)


def compile_mo(lang: str) -> bytes:
    """The ``.mo`` of ``lang``'s ``.po``, as Babel compiles it."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def page_catalog(lang: str) -> str:
    """``web/i18n/<lang>.json`` (``"en"`` too) with the table log's sentences of
    :data:`sevenstud.wording.PAGE` taken from the gettext catalog of ``lang``."""
    from sevenstud.wording import HOLDING, OF_A_SEAT, PAGE

    path = WEB_I18N / f"{lang}.json"
    words: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    translated: dict[str, str] = {}
    if lang != "en":
        from babel.messages.pofile import read_po

        with po_path(lang).open("rb") as handle:
            catalog = read_po(handle, locale=lang)
        translated = {m.id: str(m.string) for m in catalog if isinstance(m.id, str) and m.id}
    sentences = {key: OF_A_SEAT[what] for key, what in PAGE.items()} | HOLDING
    for key, english in sentences.items():
        words[key] = translated.get(english, english) if lang != "en" else english
    return json.dumps(dict(sorted(words.items())), ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="check only; change nothing")
    parser.add_argument("--update", action="store_true", help="add new messages to the .po files first")
    args = parser.parse_args(argv)
    failed = False
    for lang in LANGUAGES:
        if args.update and not args.check:
            update(lang)
        for problem in problems(lang):
            print(problem, file=sys.stderr)
            failed = True
        mo = po_path(lang).with_suffix(".mo")
        compiled = compile_mo(lang)
        if args.check:
            if not mo.is_file() or mo.read_bytes() != compiled:
                print(f"{lang}: {mo.relative_to(ROOT)} is not compiled from its .po", file=sys.stderr)
                failed = True
        else:
            mo.write_bytes(compiled)
    for lang in ("en", *LANGUAGES):
        page = WEB_I18N / f"{lang}.json"
        said = page_catalog(lang)
        if not args.check:
            page.write_text(said, encoding="utf-8")
        elif page.read_text(encoding="utf-8") != said:
            print(f"{lang}: {page.relative_to(ROOT)}'s log sentences are not the catalog's", file=sys.stderr)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
