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
        elif (
            isinstance(node, ast.MatchValue)
            and isinstance(node.value, ast.Constant)
            and node.value.value in GAME_CODES
        ):
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


# The layers (docs/architecture.md): each imports only those below it. The engine is every
# module at the package's top but those named here; the table layer is the table and the one
# encoder of what it streams; the front ends are the command line and the terminal table.
TABLE_LAYER = {"sevenstud.wire", "sevenstud.table", "sevenstud.table_events", "sevenstud.table_restore"}
TABLE_LAYER |= {"sevenstud.table_stream"}
ABOVE_THE_TABLE = ("bots", "history", "tournament", "cfr", "sim", "rl")
FRONT_ENDS = {"sevenstud.cli", "sevenstud.__main__", "sevenstud.terminal", "sevenstud.terminal_text"}
LAYERS = ("engine", "table", "bots / history / tournament", "server", "cli")


def layer(module: str) -> int:
    """The layer a module of the package is in: its index in :data:`LAYERS`."""
    if module in FRONT_ENDS:
        return 4
    if module.startswith("sevenstud.server"):
        return 3
    if module.startswith(tuple(f"sevenstud.{name}" for name in ABOVE_THE_TABLE)):
        return 2
    return 1 if module in TABLE_LAYER else 0


def upward_imports() -> list[str]:
    """Every import of a module from a layer above the importer's."""
    modules = _modules()
    found = []
    for name, path in sorted(modules.items()):
        for target in sorted(_imports(name, path, modules)):
            if layer(target) > layer(name):
                found.append(f"{name} ({LAYERS[layer(name)]}) imports {target} ({LAYERS[layer(target)]})")
    return found


def test_each_layer_imports_only_those_below_it() -> None:
    """engine <- table <- bots / history / tournament <- server <- cli (issue 32, point 9)."""
    assert upward_imports() == []


def test_the_layer_check_sees_an_upward_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "sevenstud"
    (package / "server").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "server" / "__init__.py").write_text("")
    (package / "server" / "app.py").write_text("x = 1\n")
    (package / "hand.py").write_text("def f():\n    from sevenstud.server import app\n    return app\n")
    monkeypatch.setattr(sys.modules[__name__], "SOURCE", tmp_path)
    assert "sevenstud.hand (engine) imports sevenstud.server.app (server)" in upward_imports()


def _package_of(module: str, modules: dict[str, Path]) -> str:
    """The package a module belongs to: its folder's (the engine's top-level modules are one)."""
    if modules[module].name == "__init__.py":
        return module
    return module.rpartition(".")[0]


def private_reaches() -> list[str]:
    """Every ``from X import _name`` where X is in another package than the importer, and
    every ``X._name`` read of a module of another package (``_`` for gettext excepted)."""
    modules = _modules()
    found = []
    for name, path in sorted(modules.items()):
        home = _package_of(name, modules)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            if base not in modules or _package_of(base, modules) == home:
                continue
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__") and alias.name != "_":
                    found.append(f"{name} imports {base}.{alias.name}")
    return found


def test_no_package_reaches_into_another_packages_private_names() -> None:
    assert private_reaches() == []


def test_the_private_check_sees_a_reach(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "sevenstud"
    (package / "bots").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "bots" / "__init__.py").write_text("")
    (package / "bots" / "simple.py").write_text("def _inner():\n    return 1\n")
    (package / "hand.py").write_text("from sevenstud.bots.simple import _inner\n")
    monkeypatch.setattr(sys.modules[__name__], "SOURCE", tmp_path)
    assert private_reaches() == ["sevenstud.hand imports sevenstud.bots.simple._inner"]


def sql_outside_the_store() -> list[str]:
    """Every module of the card room server outside ``server/store/`` that imports SQLAlchemy,
    anywhere in its source: the store is the one place that writes SQL (DESIGN.md); the others
    call its functions and name its ``Session`` and ``Connection``."""
    found = []
    for name, path in sorted(_modules().items()):
        if not name.startswith("sevenstud.server") or name.startswith("sevenstud.server.store"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                targets = [node.module or ""]
            else:
                continue
            found += [f"{name} imports {t}" for t in targets if t.split(".")[0] == "sqlalchemy"]
    return found


def test_only_the_store_writes_sql() -> None:
    """issue 32, point 9: every query is a function of server/store/."""
    assert sql_outside_the_store() == []


def test_the_sql_check_sees_an_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server = tmp_path / "sevenstud" / "server"
    (server / "store").mkdir(parents=True)
    for folder in (tmp_path / "sevenstud", server, server / "store"):
        (folder / "__init__.py").write_text("")
    (server / "store" / "models.py").write_text("from sqlalchemy import select\n")
    (server / "lobby.py").write_text("def f():\n    import sqlalchemy.orm\n    return sqlalchemy.orm\n")
    (server / "audit.py").write_text("from sqlalchemy import func\n")
    monkeypatch.setattr(sys.modules[__name__], "SOURCE", tmp_path)
    assert sql_outside_the_store() == [
        "sevenstud.server.audit imports sqlalchemy",
        "sevenstud.server.lobby imports sqlalchemy.orm",
    ]
