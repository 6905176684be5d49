"""Every refusal once (sevenstud.refusals): each is raised by a code and its parameters, said in
the four languages by that code (never by reading its English back), each code has a sentence in
every catalog, and no code or words are defined that the code never raises."""

from __future__ import annotations

import ast
import pickle
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from sevenstud.actions import IllegalAction
from sevenstud.i18n import LANGUAGES, translation
from sevenstud.refusals import SENTENCES, WORDS, Refusal, Words, said
from sevenstud.table_events import TableError

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "sevenstud"
CODE = re.compile(r"[a-z][a-z0-9_]*")


def _trees() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name != "refusals.py":
            yield path, ast.parse(path.read_text(encoding="utf-8"), str(path))


def _refusal_classes(trees: list[tuple[Path, ast.Module]]) -> set[str]:
    """The names of every class built on Refusal in the package (to a fixed point)."""
    found = {"Refusal"}
    while True:
        more = {
            node.name
            for _, tree in trees
            for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef)
            and any(isinstance(b, ast.Name) and b.id in found for b in node.bases)
        }
        if more <= found:
            return found
        found |= more


def _raised() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Every code given to a refusal and every words given to Words, with where."""
    trees = list(_trees())
    classes = _refusal_classes(trees)
    codes: dict[str, list[str]] = {}
    words: dict[str, list[str]] = {}
    for path, tree in trees:
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = getattr(func, "id", None) or getattr(func, "attr", "")
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            position = 1 if name == "RateLimited" else 0  # RateLimited(limit, code, ...)
            if name in classes and len(node.args) > position:
                arg = node.args[position]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and CODE.fullmatch(arg.value):
                    codes.setdefault(arg.value, []).append(where)
            if name == "Words" and node.args and isinstance(node.args[0], ast.Constant):
                words.setdefault(str(node.args[0].value), []).append(where)
    return codes, words


def _constants() -> set[str]:
    """Every string constant of the package (a code kept in a table or a constant counts)."""
    return {
        node.value
        for _, tree in _trees()
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


def test_every_code_raised_is_defined_once() -> None:
    """Rule: a refusal raised with a code names one of SENTENCES (a misspelt code would raise
    LookupError at the raise site, in front of a player)."""
    codes, words = _raised()
    assert len(codes) > 150
    assert {code: where for code, where in codes.items() if code not in SENTENCES} == {}
    assert {text: where for text, where in words.items() if text not in WORDS} == {}


def test_no_code_or_words_is_defined_that_the_code_never_says() -> None:
    """Rule: every code of SENTENCES and every words of WORDS is used by the code: a sentence
    nobody raises any more is deleted, with its translations (tools/i18n_compile.py --update)."""
    constants = _constants()
    assert [code for code in SENTENCES if code not in constants] == []
    assert [text for text in WORDS if text not in constants] == []
    assert len(set(SENTENCES.values())) == len(SENTENCES)  # a sentence is written once


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_code_has_its_sentence_in_every_language(lang: str) -> None:
    """Rule: each refusal (and each words inside one) is translated in every catalog, with the
    template's placeholders: a refusal the catalog lacked would reach a player in English."""
    tr = translation(lang)
    untranslated = [code for code, template in SENTENCES.items() if tr.gettext(template) == template]
    assert untranslated == []
    same_everywhere = {"null", "{count} s"}  # JSON's word, and seconds as Estonian writes them too
    assert [text for text in WORDS if tr.gettext(text) == text and text not in same_everywhere] == []
    for code, template in SENTENCES.items():
        placeholders = set(re.findall(r"\{(\w+)\}", template))
        assert set(re.findall(r"\{(\w+)\}", tr.gettext(template))) == placeholders, (lang, code)


def test_a_refusal_is_said_by_its_code_with_its_parts_and_the_inner_reason() -> None:
    """Rule: a refusal is said in the language from its code and parameters, numbers and names
    kept, a refusal inside it (the hand's, inside the table's) and its words translated too."""
    hand = IllegalAction(
        "action_not_legal", seat=1, action="bet 7", reason=Refusal("bring_in_first"), options="fold"
    )
    error = TableError("seat_refused", seat=2, hand_seat=1, error=hand)
    english = "seat 2 (seat 1 of the hand): seat 1 cannot bet 7: the bring-in must be posted or completed first (legal: fold)"  # noqa: E501
    assert str(error) == english and error.code == "seat_refused"
    assert error.said(translation("en")) == english
    assert error.said(translation("uk")) == (
        "місце 2 (місце 1 у роздачі): місце 1 не може bet 7: "
        "спершу треба зробити брінг-ін або повну ставку (можна: fold)"
    )
    buy_in = TableError("buy_in_range", low=20, high=200, amount=5)
    assert said(buy_in, translation("et")) == "sisseost peab olema 20 kuni 200 žetooni, mitte 5"
    words = Refusal("chips_not_positive", what=Words("a top-up"), amount="-5")
    assert str(words) == "a top-up must be a positive whole number of chips, not -5"
    assert "a top-up" not in words.said(translation("ru"))
    # an error of the code's own words (no code) stays English in every language
    assert Refusal("something new went wrong").said(translation("ru")) == "something new went wrong"
    assert said(KeyError("x"), translation("ru")) == "'x'"


def test_a_misspelt_code_or_a_missing_part_is_refused_at_the_raise() -> None:
    """Rule: a code nobody defined, or a template's part left out, fails where it is raised."""
    with pytest.raises(LookupError, match="seat_tken"):
        Refusal("seat_tken", seat=3)
    with pytest.raises(KeyError, match="player"):
        Refusal("seat_taken", seat=3)
    with pytest.raises(LookupError, match="no words"):
        Words("a top up")


def test_a_refusal_crosses_a_process_with_its_code() -> None:
    """Rule: a refusal pickled (an equity job's worker sends its error so) keeps its code and
    parts, so that the server says it in the client's language."""
    error = IllegalAction("kind_not_possible", kind="bet")
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is IllegalAction and back.code == "kind_not_possible" and str(back) == str(error)
    assert back.said(translation("et")) == error.said(translation("et"))
