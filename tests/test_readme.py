"""The README is a front page: short, its Python examples run as written, its links lead
somewhere. What it used to hold is in docs/ (tests/test_docs.py checks those pages)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


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


def test_the_readme_is_a_front_page() -> None:
    """Issue 32: at most about 250 lines; the measurements and the training history live in
    docs/benchmarks.md and docs/bots.md."""
    lines = README.read_text().splitlines()
    assert len(lines) <= 250, f"the README has {len(lines)} lines: move the detail to docs/"


def test_the_readme_has_an_example_for_each_reader() -> None:
    text = README.read_text()
    for heading in ("## The two commands", "## For a player", "## For a library user",
                    "## For a researcher", "## For an operator"):
        assert heading in text, heading
    operator = text.split("## For an operator", 1)[1].split("\n## ", 1)[0]
    assert "sevenstud serve" in operator and "sevenstud audit" in operator


def test_every_link_in_the_readme_leads_to_a_file() -> None:
    links = re.findall(r"\]\(([^)#]+)\)", README.read_text())
    local = [link for link in links if "://" not in link]
    assert local, "the README links to nothing"
    for link in local:
        assert (ROOT / link).exists(), link
