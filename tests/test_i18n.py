"""The card room's four languages (issue 16, point 8): the gettext catalogs of the server and the
terminal, the pages' JSON catalogs, plural forms by CLDR's rules, hand names and refusals said
again from their English, the terminal's language from --lang or the environment.

Rule: no message is missing or unused in any language, no translation drops or invents a
placeholder, and every plural form is the one CLDR gives for its count."""

from __future__ import annotations

import ast
import io
import json
import re
import sys
import sys as _sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sevenstud import i18n
from sevenstud.cards import parse_cards
from sevenstud.i18n import LANGUAGES, from_environment, hand_name, language_of, translation
from sevenstud.showdown_hands import best_high

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "src" / "sevenstud" / "web"
sys.path.insert(0, str(ROOT / "tools"))
import i18n_compile  # noqa: E402

OTHERS = ("uk", "ru", "et")
PLACEHOLDER = re.compile(r"\{(\w*)\}")


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    """The terminal's language is the process's: every test leaves it English."""
    yield
    i18n.use("en")


# ---------------------------------------------------------------------- the gettext catalogs


@pytest.mark.parametrize("lang", OTHERS)
def test_the_catalog_has_every_marked_message_and_no_other(lang: str) -> None:
    """Rule: every message the code marks (N_, _, gettext, pgettext, n_, ngettext) is in each
    catalog, translated, and no catalog keeps a message the code no longer says."""
    pytest.importorskip("babel")
    assert i18n_compile.problems(lang) == []


@pytest.mark.parametrize("lang", OTHERS)
def test_the_committed_mo_is_compiled_from_its_po(lang: str) -> None:
    """Rule: the .mo the standard library reads is the .po's (tools/i18n_compile.py rebuilds it)."""
    pytest.importorskip("babel")
    mo = i18n_compile.po_path(lang).with_suffix(".mo")
    assert mo.read_bytes() == i18n_compile.compile_mo(lang)


@pytest.mark.parametrize("lang", OTHERS)
def test_a_translation_keeps_exactly_its_placeholders(lang: str) -> None:
    """Rule: a translation has the placeholders of its English, no more, no fewer (a dropped
    {amount} loses the chips; an invented one raises KeyError when formatted)."""
    babel_po = pytest.importorskip("babel.messages.pofile")
    with i18n_compile.po_path(lang).open("rb") as handle:
        catalog = babel_po.read_po(handle, locale=lang)
    wrong = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set(PLACEHOLDER.findall(ids[-1])) | set(PLACEHOLDER.findall(ids[0]))
        for string in strings:
            if set(PLACEHOLDER.findall(string)) != wanted:
                wrong.append((ids[0], string))
    assert wrong == []


def test_the_engine_side_reads_the_catalogs_with_the_standard_library_alone() -> None:
    """Rule: the engine imports the standard library only: sevenstud.i18n imports nothing else
    (besides the engine's own modules, such as the rank words of sevenstud.cards)."""
    tree = ast.parse((ROOT / "src" / "sevenstud" / "i18n.py").read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert imported - {"__future__", "sevenstud"} <= set(_sys.stdlib_module_names)
    assert type(translation("uk")).__module__ == "gettext"


# ---------------------------------------------------------------------- plural forms


CLDR_ORDER = {"uk": ("one", "few", "many"), "ru": ("one", "few", "many"), "et": ("one", "other")}
"""The CLDR categories of each catalog's plural forms, in gettext's order (the Plural-Forms
header Babel writes from CLDR)."""


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize(
    ("singular", "plural"),
    [("{n} chip", "{n} chips"), ("{n} hand", "{n} hands"), ("{n} player", "{n} players")],
)
def test_plural_forms_follow_cldr_for_every_count(lang: str, singular: str, plural: str) -> None:
    """Rule: "1 фішка, 2 фішки, 5 фішок, 11 фішок, 21 фішка, 112 фішок": the form gettext picks
    for every count 0 to 250 is the catalog's form for CLDR's category of that count (Babel's
    locale data); a fraction's "other" (uk, ru) never reaches gettext, which counts whole numbers."""
    babel = pytest.importorskip("babel")
    babel_po = pytest.importorskip("babel.messages.pofile")
    with i18n_compile.po_path(lang).open("rb") as handle:
        forms = babel_po.read_po(handle, locale=lang)[(singular, plural)].string
    assert len(forms) == len(CLDR_ORDER[lang])
    by_category = dict(zip(CLDR_ORDER[lang], forms, strict=True))
    locale, tr = babel.Locale.parse(lang), translation(lang)
    for n in range(251):
        assert tr.ngettext(singular, plural, n) == by_category[locale.plural_form(n)], (lang, n)


def test_plural_examples_in_each_language() -> None:
    counts = (1, 3, 5, 21, 112)
    said = {
        lang: [translation(lang).ngettext("{n} chip", "{n} chips", n).format(n=n) for n in counts]
        for lang in LANGUAGES
    }
    assert said["en"] == ["1 chip", "3 chips", "5 chips", "21 chips", "112 chips"]
    assert said["uk"] == ["1 фішка", "3 фішки", "5 фішок", "21 фішка", "112 фішок"]
    assert said["ru"] == ["1 фишка", "3 фишки", "5 фишек", "21 фишка", "112 фишек"]
    assert said["et"] == ["1 žetoon", "3 žetooni", "5 žetooni", "21 žetooni", "112 žetooni"]


# ---------------------------------------------------------------------- hand names and refusals

HANDS = {
    "Ah Kh Qh Jh Th 2c 3d": "a Royal Flush",
    "9h 8h 7h 6h 5h 2c 2d": "a straight flush",
    "Kc Kd Kh Ks 3h 7c 2d": "four of a kind",
    "Kc Kd 3s Ks 3h 7c 2d": "a full house",
    "Ah 9h 7h 4h 2h Kc Kd": "a flush",
    "9c 8d 7h 6s 5c Kd 2h": "a straight",
    "Kc Kd Ks 7h 4c 2d 9s": "three of a kind",
    "Kc Kd 3s 3h 7c 2d 9s": "two pair",
    "Kc Kd 3s 8h 7c 2d 9s": "a pair",
    "Kc Qd 3s 8h 7c 2d 9s": "high card",
}
ENGLISH_WORDS = re.compile(
    r"\b(Deuce|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King|Ace)s?\b|full of|pair|high"
)


@pytest.mark.parametrize("lang", OTHERS)
def test_every_kind_of_hand_is_named_in_the_language(lang: str) -> None:
    """Rule: every hand name the evaluator writes (ten categories, and a hand of fewer than five
    cards) is said in the language, with no English rank or word left in it."""
    tr = translation(lang)
    for cards, kind in HANDS.items():
        english, _ = best_high(parse_cards(cards))
        assert english.startswith(kind)
        said = hand_name(english, tr)
        assert said != english and not ENGLISH_WORDS.search(said or ""), (english, said)
    three, _ = best_high(parse_cards("Kc 7d 2s"))
    assert three == "King high" and hand_name(three, tr) != three
    assert hand_name("8,6,4,3,2", tr) == "8,6,4,3,2"  # a low is said the same everywhere


def test_hand_names_in_each_language() -> None:
    english = "a full house, Kings full of Threes"
    assert [hand_name(english, translation(lang)) for lang in LANGUAGES] == [
        english, "фул-хаус: королі і трійки", "фулл-хаус: короли и тройки", "full house: kuningad ja kolmed",
    ]  # fmt: skip


# (tests/test_refusals.py says the refusals: by their codes, in every language.)


# ---------------------------------------------------------------------- the terminal's language


def test_the_terminal_language_comes_from_the_environment_as_gettext_reads_it() -> None:
    assert from_environment({"LANG": "uk_UA.UTF-8"}) == "uk"
    assert from_environment({"LANGUAGE": "de:ru", "LANG": "en_US.UTF-8"}) == "ru"
    assert from_environment({"LC_ALL": "C", "LANG": "et_EE.UTF-8"}) == "en"  # LC_ALL decides
    assert from_environment({"LC_MESSAGES": "et_EE", "LANG": "ru_RU"}) == "et"
    assert from_environment({}) == "en"
    assert language_of("pt-BR") is None


def _play(argv: list[str], env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> str:
    from sevenstud import cli

    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert cli.main(argv) == 0
    return out.getvalue()


@pytest.mark.parametrize(
    ("argv", "env", "words", "not_words"),
    [
        (
            ["--lang", "uk"],
            {},
            ["Стеки:", "До побачення!", "3-Я ВУЛИЦЯ", "Семикартковий стад хай-лоу"],
            ["Stacks:", "Goodbye!"],
        ),
        ([], {"LANG": "ru_RU.UTF-8"}, ["Стеки:", "До свидания!", "3-Я УЛИЦА"], ["Stacks:", "Goodbye!"]),
        ([], {"LANG": "et_EE.UTF-8"}, ["Virnad:", "Head aega!"], ["Stacks:", "Goodbye!"]),
        (["--lang", "en"], {"LANG": "ru_RU.UTF-8"}, ["Stacks:", "Goodbye!"], ["Стеки:"]),
    ],
)
def test_the_terminal_table_speaks_the_chosen_language(
    argv: list[str],
    env: dict[str, str],
    words: list[str],
    not_words: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rule: `sevenstud play --lang` chooses the terminal's language, else LANG/LC_*; the table's
    lines (streets, actions, results, stacks, goodbye) are in it."""
    text = _play(["play", "--watch", "--bots", "3", "--hands", "2", "--seed", "7", *argv], env, monkeypatch)
    for word in words:
        assert word in text, word
    for word in not_words:
        assert word not in text, word


# ---------------------------------------------------------------------- the pages' catalogs


def _web_catalogs() -> dict[str, dict[str, Any]]:
    return {
        lang: json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8")) for lang in LANGUAGES
    }


def _web_uses() -> tuple[set[str], list[re.Pattern[str]]]:
    """The keys the pages use: t("key"), a key's string where a table of keys is kept,
    data-i18n, data-i18n-html and data-i18n-attr; a template (`rules.${game}.goal`) as a pattern."""
    direct: set[str] = set()
    patterns: list[re.Pattern[str]] = []
    for path in sorted([*WEB.glob("*.js"), *WEB.glob("*.html")]):
        text = path.read_text(encoding="utf-8")
        direct |= set(re.findall(r"""["']([a-z][a-z0-9]*(?:\.[a-z0-9_]+)+)["']""", text))
        direct |= set(re.findall(r'data-i18n(?:-html)?="([^"]+)"', text))
        for attrs in re.findall(r'data-i18n-attr="([^"]+)"', text):
            direct |= {pair.split(":")[1].strip() for pair in attrs.split(";")}
        for template in re.findall(r"`([a-z][a-z0-9_]*\.[^`]*\$\{[^`]*)`", text):
            regex = re.sub(r"\\\$\\\{[^}]*\\\}", "[a-z0-9_]+", re.escape(template))
            patterns.append(re.compile(f"^{regex}$"))
    return direct, patterns


def test_the_page_catalogs_have_the_same_keys_and_none_is_missing_or_unused() -> None:
    """Rule: the four catalogs have the same keys; every key a page uses is in them, and every
    key of them is used by a page (directly, or by a template such as `rules.${game}.goal`)."""
    catalogs = _web_catalogs()
    keys = set(catalogs["en"])
    for lang, catalog in catalogs.items():
        assert set(catalog) == keys, (lang, sorted(set(catalog) ^ keys))
    namespaces = {k.split(".")[0] for k in keys}
    direct, patterns = _web_uses()
    used = {k for k in direct if k.split(".")[0] in namespaces}
    assert sorted(used - keys) == []
    unused = [k for k in keys if k not in used and not any(p.match(k) for p in patterns)]
    assert unused == []
    for pattern in patterns:
        if pattern.pattern.split("\\.")[0].lstrip("^") in namespaces:
            assert any(pattern.match(k) for k in keys), pattern.pattern


@pytest.mark.parametrize("lang", ["en", *OTHERS])
def test_the_page_log_says_an_event_in_the_catalogs_sentence(lang: str) -> None:
    """Rule: the table page's log says a seat's doings in the sentences the server and the
    terminal say (sevenstud.wording.PAGE), written from the gettext catalog, not by hand."""
    pytest.importorskip("babel")
    page = WEB / "i18n" / f"{lang}.json"
    assert page.read_text(encoding="utf-8") == i18n_compile.page_catalog(lang)


def test_the_page_catalogs_keep_placeholders_and_plural_categories() -> None:
    """Rule: a page's translation has its English's placeholders, and a plural entry has every
    category CLDR gives its language (Intl.PluralRules picks among them)."""
    babel = pytest.importorskip("babel")
    catalogs = _web_catalogs()
    for lang, catalog in catalogs.items():
        tags = set(babel.Locale.parse(lang).plural_form.tags) | {"other"}
        for key, english in catalogs["en"].items():
            said = catalog[key]
            if isinstance(english, dict):
                assert isinstance(said, dict) and tags <= set(said), (lang, key)
                wanted = set(PLACEHOLDER.findall(english["other"]))
                assert all(set(PLACEHOLDER.findall(v)) == wanted for v in said.values()), (lang, key)
            else:
                assert isinstance(said, str) and said, (lang, key)
                assert set(PLACEHOLDER.findall(said)) == set(PLACEHOLDER.findall(english)), (lang, key)
