"""The documentation site (mkdocs.yml, docs/): every page in the navigation, the examples run,
the pages say what the README used to (how to play, the tests that read the shared hand
histories, the measurements and the training history), LICENSE and CHANGELOG.md in their forms.

`make docs` builds the site with warnings as errors (broken links, API pages whose objects are
gone); these are the checks a build does not make."""

from __future__ import annotations

import contextlib
import io
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
# Pages another engineer's examples hold as fragments of a session (not whole programs).
FRAGMENTS = {"rules.md", "tournaments.md"}


def _page(name: str) -> str:
    return (DOCS / name).read_text()


def _section(text: str, heading: str) -> str:
    return text.split(heading, 1)[1].split("\n## ", 1)[0]


def test_every_page_is_in_the_navigation() -> None:
    """MkDocs builds a page left out of the nav without a warning: nobody would find it."""
    nav = (ROOT / "mkdocs.yml").read_text().split("\nnav:", 1)[1]
    named = set(re.findall(r"([\w/]+\.md)", nav))
    pages = {path.relative_to(DOCS).as_posix() for path in DOCS.rglob("*.md")}
    assert pages - named == set(), "pages missing from mkdocs.yml's nav"
    assert named - pages == set(), "the nav names pages that are not there"


def test_every_python_block_in_the_docs_runs() -> None:
    ran = 0
    for path in sorted(DOCS.rglob("*.md")):
        if path.name in FRAGMENTS:
            continue
        for block in re.findall(r"```python\n(.*?)```", path.read_text(), flags=re.S):
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(block, str(path), "exec"), {})
            ran += 1
    assert ran >= 4, ran


def test_the_docs_say_how_to_play() -> None:
    section = _section(_page("playing.md"), "## In the terminal")
    for needed in ("Keys", "Quitting", "Rebuys", "call 3", "raise to 10", "Ctrl-C"):
        assert needed in section, needed


def test_the_docs_name_every_test_that_reads_the_shared_histories() -> None:
    text = _page("contributing.md")
    tests = ROOT / "tests"
    readers = sorted(
        path.relative_to(ROOT).as_posix()
        for path in tests.rglob("*.py")
        if re.search(r"""["']shared["']""", path.read_text())
    )
    assert readers, "no test reads ../shared/hh any more: update docs/contributing.md and this test"
    for reader in readers:
        assert f"`{reader}`" in text, reader


def test_the_measurements_say_how_to_rerun_them() -> None:
    """Each section of figures names the command or script that measures them again."""
    text = _page("benchmarks.md")
    sections = text.split("\n## ")[1:]
    assert len(sections) >= 6
    for section in sections:
        title = section.splitlines()[0]
        assert re.search(r"benchmarks/\w+\.py|make \w+|sevenstud \w+", section), title


def test_the_bots_page_holds_the_training_history() -> None:
    text = _page("bots.md")
    for needed in ("## The learned bot", "sevenstud train", "tools/train_learned.py",
                   "benchmarks/bot_ladder.py", "benchmarks/learned_bot.py", "What is left"):
        assert needed in text, needed


def test_the_architecture_names_modules_that_exist() -> None:
    """Every `server/...py` or `sevenstud/...py` path the walk-throughs name is a file."""
    text = _page("architecture.md")
    named = set(re.findall(r"`((?:server|web|tournament)/[\w/]+\.(?:py|js))`", text))
    assert len(named) >= 15, named
    src = ROOT / "src" / "sevenstud"
    for path in sorted(named):
        assert (src / path).exists(), path


def test_commit_messages_are_explained() -> None:
    text = _section(_page("contributing.md"), "## Commit messages")
    assert "72" in text and "body" in text


def test_the_license_is_mit() -> None:
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License")
    assert "Copyright (c) 2026 the sevenstud authors" in text
    assert 'license = "MIT"' in (ROOT / "pyproject.toml").read_text()


def test_the_changelog_keeps_a_changelog() -> None:
    text = (ROOT / "CHANGELOG.md").read_text()
    assert text.startswith("# Changelog")
    assert "keepachangelog.com" in text
    assert "## [Unreleased]" in text
    assert re.search(r"^## \[0\.1\.0\] - \d{4}-\d{2}-\d{2}$", text, flags=re.M)
    version = re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), flags=re.M)
    assert version is not None and f"## [{version.group(1)}]" in text


def test_docstring_doctests_are_shown_as_code() -> None:
    """tools/griffe_doctests.py, the site's griffe extension: a doctest's output read as
    Markdown would be reference links (a strict build's error) and one run-together line."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        from griffe_doctests import fence_doctests, plain_roles
    finally:
        sys.path.remove(str(ROOT / "tools"))
    text = "Cards:\n\n>>> deal()\n[['As', 'Kd'], ['Qs']]\n\nDone."
    assert fence_doctests(text).splitlines() == [
        "Cards:", "", "```pycon", ">>> deal()", "[['As', 'Kd'], ['Qs']]", "```", "", "Done.",
    ]
    indented = fence_doctests("    >>> 1\n    1").splitlines()
    assert indented == ["    ```pycon", "    >>> 1", "    1", "    ```"]
    assert plain_roles("raises :class:`CardError` (:meth:`~.room.Room.handle`)") == (
        "raises `CardError` (`room.Room.handle`)"
    )
