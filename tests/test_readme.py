"""The README's Python examples run as written."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_every_python_block_in_the_readme_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "the README has no Python example"
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, str(README), "exec"), {})
        assert out.getvalue(), f"the example printed nothing:\n{block}"


def test_the_readme_points_to_our_own_rule_book() -> None:
    text = README.read_text()
    assert "docs/rules.md" in text
    assert "RULES.md" not in text and "shared/RULES" not in text


def test_the_readme_names_every_test_that_reads_the_shared_histories() -> None:
    text = README.read_text()
    tests = README.parent / "tests"
    readers = sorted(
        path.relative_to(README.parent).as_posix()
        for path in tests.rglob("*.py")
        if re.search(r"""["']shared["']""", path.read_text())
    )
    assert readers, "no test reads ../shared/hh any more: update the README and this test"
    for reader in readers:
        assert f"`{reader}`" in text, reader


def test_the_readme_says_how_to_play() -> None:
    section = README.read_text().split("## How to play", 1)[1].split("\n## ", 1)[0]
    for needed in ("Keys", "Quitting", "Rebuys", "call 3", "raise to 10", "Ctrl-C"):
        assert needed in section, needed
