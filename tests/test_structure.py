"""The package's structure: no module imports another that imports it back, directly or through
others (issue 18, point 11). Every import counts, those inside functions and under
``TYPE_CHECKING`` too: a cycle hidden in a function is still a cycle of meaning, and it is how
the five circles this test found (actions/events/views, cards/deck, cli/equity/server.app/study,
hand/wire/table_events, history convert/replay) had been hidden."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "src"


def _modules() -> dict[str, Path]:
    modules = {}
    for path in SOURCE.rglob("*.py"):
        parts = path.relative_to(SOURCE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports, anywhere in its source."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        for target in targets:
            while target and target not in modules:  # a name inside a module: that module
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_cycles() -> list[list[str]]:
    """Each group of modules that import one another in a circle (Tarjan's strongly connected
    components of the import graph, groups of two or more)."""
    modules = _modules()
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_the_finder_sees_a_lazy_cycle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The test must be able to fail: two modules importing each other, one lazily.
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.b import thing\n")
    (package / "b.py").write_text("thing = 1\n\ndef f():\n    from pkg import a\n    return a\n")
    monkeypatch.setattr(sys.modules[__name__], "SOURCE", tmp_path)
    assert import_cycles() == [["pkg.a", "pkg.b"]]


def test_no_module_imports_itself_back() -> None:
    assert import_cycles() == []
