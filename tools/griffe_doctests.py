"""A griffe extension for the documentation site (mkdocs.yml): our docstrings read as Markdown.

Our docstrings are plain text with doctests, not Markdown: read as Markdown, a doctest's output
such as ``[['As', 'Kd'], ['Qs']]`` is a pair of reference links (a warning, which ``mkdocs build
--strict`` makes an error), and its lines run together into one paragraph. Each run of lines
that starts with ``>>> `` (its ``... `` continuations and its output, up to a blank line) is put
in a fenced ``pycon`` block. A Sphinx role (``:class:`Hand```, ``:meth:`~.room.Room.handle```)
is shown as the code it names, without the role. The rest is left as written.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

FENCE = "```"
# ``:class:`Hand```, ``:meth:`~.room.Room.handle```, ``:func:`name <target>```: the role and the
# leading ``~`` or ``.`` go, the name stays code.
ROLE = re.compile(
    r":(?:py:)?(?:class|func|meth|mod|data|attr|exc|obj|const):`~?\.?([^`<]*?)(?:\s*<[^`>]*>)?`"
)


def plain_roles(text: str) -> str:
    """``text`` with each Sphinx role replaced by the code it names (see the module)."""
    return ROLE.sub(lambda found: f"`{found.group(1)}`", text)


def fence_doctests(text: str) -> str:
    """``text`` with every doctest run fenced as ``pycon`` (tests/test_docs.py shows one)."""
    out: list[str] = []
    inside = False
    indent = ""
    for line in text.splitlines():
        stripped = line.lstrip()
        if not inside and stripped.startswith(">>>") and not _in_fence(out):
            inside, indent = True, line[: len(line) - len(stripped)]
            out.append(f"{indent}{FENCE}pycon")
        elif inside and not stripped:
            out.append(f"{indent}{FENCE}")
            inside = False
        out.append(line)
    if inside:
        out.append(f"{indent}{FENCE}")
    return "\n".join(out)


def _in_fence(lines: list[str]) -> bool:
    """Whether the lines so far leave a fenced block open (a doctest already in one stays so)."""
    return sum(1 for line in lines if line.lstrip().startswith(FENCE)) % 2 == 1


class DoctestBlocks(griffe.Extension):
    """Fence every docstring's doctests (see the module)."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Each object griffe loads, as it is loaded."""
        if obj.docstring is not None:
            obj.docstring.value = plain_roles(fence_doctests(obj.docstring.value))
