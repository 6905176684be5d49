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


GAME_CODES = ("stud8", "stud", "razz")


def _code_comparisons(path: Path) -> list[int]:
    """Lines of ``path`` comparing something with a game's code (``== "razz"``, ``in ("stud8",
    ...)``, ``match ... case "stud"``)."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            for side in sides:
                values = side.elts if isinstance(side, ast.Tuple | ast.List | ast.Set) else [side]
                if any(isinstance(v, ast.Constant) and v.value in GAME_CODES for v in values):
                    lines.append(node.lineno)
        elif isinstance(node, ast.MatchValue) and isinstance(node.value, ast.Constant):
            if node.value.value in GAME_CODES:
                lines.append(node.lineno)
    return lines


def test_a_game_is_an_object_outside_games_py() -> None:
    """No module but games.py decides anything by comparing a game's code: it asks the game
    (``has_high``, ``has_low``, ``split`` ...), and no page compares a code either (the pages
    ask ``GET /api/games``)."""
    found = []
    for path in sorted((SOURCE / "sevenstud").rglob("*.py")):
        if path.name != "games.py":
            found += [f"{path.relative_to(SOURCE)}:{line}" for line in _code_comparisons(path)]
    for path in sorted((SOURCE / "sevenstud" / "web").rglob("*.js")):
        text = path.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), 1):
            if any(f'== "{code}"' in line or f'"{code}" ==' in line for code in GAME_CODES):
                found.append(f"{path.relative_to(SOURCE)}:{number}")
            if any(name in line for name in ('"StudHiLo"', '"Razz"', '"Stud"')):
                found.append(f"{path.relative_to(SOURCE)}:{number}")
    assert found == []


def test_the_code_finder_sees_a_comparison(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text('x = 1 if game == "razz" else 2\nif kind in ("stud8", "stud"):\n    pass\n')
    assert sorted(_code_comparisons(source)) == [1, 2]
