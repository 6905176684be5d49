"""The two builds of one code base: the pure engine (the editable install) and the engine
compiled with mypyc (tools/build_compiled.py, used with SEVENSTUD_COMPILED set, as in
``make test-compiled``). Each run proves which build it imported."""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMPILED_DIR = os.environ.get("SEVENSTUD_COMPILED")


def _build_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_compiled", ROOT / "tools" / "build_compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("build_compiled", module)
    spec.loader.exec_module(module)
    return module


def _manifest() -> dict[str, list[str] | dict[str, str]]:
    assert COMPILED_DIR is not None
    data: dict[str, list[str] | dict[str, str]] = json.loads(
        (Path(COMPILED_DIR) / "SOURCES.json").read_text()
    )
    return data


@pytest.mark.skipif(bool(COMPILED_DIR), reason="the pure run only")
def test_pure_run_imports_the_pure_engine() -> None:
    import sevenstud.hand

    assert sevenstud.hand.__file__ is not None
    assert sevenstud.hand.__file__.endswith(".py")
    assert Path(sevenstud.hand.__file__).resolve().is_relative_to(ROOT / "src")


@pytest.mark.skipif(not COMPILED_DIR, reason="the compiled run only (SEVENSTUD_COMPILED)")
def test_compiled_run_imports_the_extension_modules() -> None:
    assert COMPILED_DIR is not None
    out = Path(COMPILED_DIR).resolve()
    compiled = _manifest()["compiled"]
    assert "sevenstud/hand.py" in compiled
    for path in compiled:
        name = path.removesuffix(".py").replace("/", ".")
        module = importlib.import_module(name)
        assert module.__file__ is not None
        where = Path(module.__file__).resolve()
        assert where.suffix == ".so", f"{name} came from {where}, not a compiled extension"
        assert where.is_relative_to(out), f"{name} came from {where}, outside {out}"
    import sevenstud.hand

    assert sevenstud.hand.__file__ is not None and sevenstud.hand.__file__.endswith(".so")


@pytest.mark.skipif(not COMPILED_DIR, reason="the compiled run only (SEVENSTUD_COMPILED)")
def test_compiled_build_is_made_from_todays_source() -> None:
    recorded = _manifest()["sources"]
    now = _build_script().source_hashes(ROOT / "src" / "sevenstud")
    changed = sorted(p for p in set(recorded) | set(now) if recorded.get(p) != now.get(p))  # type: ignore[union-attr]
    assert not changed, f"the compiled build is stale ({', '.join(changed)}): run make compiled"


def test_build_without_a_c_compiler_says_why_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _build_script()
    monkeypatch.setattr(script.shutil, "which", lambda name: None)
    out = tmp_path / "compiled"
    assert script.build(out) == 0
    printed = capsys.readouterr().out.strip().splitlines()
    assert len(printed) == 1 and "no C compiler" in printed[0]
    assert "no C compiler" in (out / "UNAVAILABLE").read_text()
    assert not (out / "sevenstud").exists()


def test_build_skips_a_listed_module_that_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _build_script()
    there, missing = script.present(("sevenstud/pots.py", "sevenstud/no_such_module.py"))
    assert there == ("sevenstud/pots.py",) and missing == ("sevenstud/no_such_module.py",)
    out = tmp_path / "compiled"
    # Nothing listed exists: no build, the reason written down, and still exit status 0.
    assert script.build(out, compiled=("sevenstud/no_such_module.py",)) == 0
    printed = capsys.readouterr().out
    assert "not compiled, no such engine module: sevenstud/no_such_module.py" in printed
    assert "none of the listed engine modules exists" in (out / "UNAVAILABLE").read_text()


@pytest.mark.slow
@pytest.mark.skipif(bool(COMPILED_DIR), reason="the pure run only")
def test_a_build_outside_the_checkout_reads_the_projects_mypy_settings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--out DIR`` anywhere (issue 32, point 13): mypyc ran from DIR, where the project's
    pyproject.toml was not found, and stopped at "Cannot find ... module named cupy" (the GPU
    back end's import, which the project's mypy settings allow to be missing). One module that
    imports cupy is enough to see which settings mypy read."""
    script = _build_script()
    if script._why_not(("sevenstud/fast/device.py",)) is not None:
        pytest.skip("no C compiler or no mypyc here")
    assert not tmp_path.is_relative_to(ROOT)
    assert script.build(tmp_path / "compiled", compiled=("sevenstud/fast/device.py",)) == 0
    printed = capsys.readouterr().out
    assert "cupy" not in printed and "Cannot find" not in printed


def test_unavailable_build_skips_the_compiled_run_with_its_reason(tmp_path: Path) -> None:
    import subprocess

    out = tmp_path / "compiled"
    out.mkdir()
    (out / "UNAVAILABLE").write_text("no C compiler (cc not found)\n")
    probe = tmp_path / "test_probe.py"
    probe.write_text("def test_anything():\n    assert False\n")
    env = {**os.environ, "SEVENSTUD_COMPILED": str(out)}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-n",
            "0",
            "-p",
            "no:randomly",
            "-rs",
            "--rootdir",
            str(ROOT),
            "-c",
            str(ROOT / "pyproject.toml"),
            "--confcutdir",
            str(ROOT / "tests"),
            "-p",
            "tests.conftest",
            str(probe),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "SKIPPED [1]" in run.stdout
    assert "compiled engine: no C compiler (cc not found)" in run.stdout


def test_deck_module_is_the_package_deck() -> None:
    # Deck lives in sevenstud/deck.py (compiled; Card, an int subclass, stays interpreted in
    # cards.py): the package's name is the same class, and cards.py no longer imports it back.
    import sevenstud.cards
    from sevenstud import Deck as from_package
    from sevenstud.deck import Deck

    assert from_package is Deck and not hasattr(sevenstud.cards, "Deck")
    deck = Deck.shuffled()
    cards = [deck.deal() for _ in range(52)]
    assert sorted(cards) == list(range(52)) and deck.remaining() == 0


def test_shuffle_unranks_one_draw_exactly_as_one_division_per_radix(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The shuffle divides the one big draw by blocks of radices (few big-number divisions);
    # each order must still be the plain Fisher-Yates unranking of the same draw, so that
    # every one of the 52! orders stays equally likely.
    import math
    import random

    import sevenstud.deck
    from sevenstud.cards import CARDS
    from sevenstud.deck import Deck

    rng = random.Random(7)
    draws = [0, math.factorial(52) - 1, *(rng.randrange(math.factorial(52)) for _ in range(300))]
    for draw in draws:
        monkeypatch.setattr(sevenstud.deck.secrets, "randbelow", lambda n, d=draw: d)
        expected = list(CARDS)
        code = draw
        for i in range(51, 0, -1):
            code, j = divmod(code, i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert list(Deck.shuffled().cards) == expected, draw


@pytest.mark.skipif(not COMPILED_DIR, reason="the compiled run only (SEVENSTUD_COMPILED)")
def test_the_compiled_engine_has_the_pure_engines_wire_format() -> None:
    """mypyc compiles a class's annotations away (``int | None`` becomes ``type``); the wire
    format, built from them, reads them from the source instead (issue 19, point 7): the table
    and the wire import, and their JSON Schema is the pure engine's to the letter."""
    import subprocess

    import sevenstud.events
    import sevenstud.table  # failed at import: "no wire format for <class 'type'>"
    from sevenstud.wire import json_schema

    assert (sevenstud.events.__file__ or "").endswith(".so") and sevenstud.table.Table
    pure_env = {k: v for k, v in os.environ.items() if k not in ("SEVENSTUD_COMPILED", "PYTHONPATH")}
    pure = subprocess.run(
        [sys.executable, "-c", "import json, sevenstud.events as e, sevenstud.wire as w; "
         "assert e.__file__.endswith('.py'); print(json.dumps(w.json_schema()))"],
        env=pure_env, cwd=ROOT, capture_output=True, text=True, check=True,
    )
    assert json.loads(pure.stdout) == json_schema()


@pytest.mark.skipif(not COMPILED_DIR, reason="the compiled run only (SEVENSTUD_COMPILED)")
def test_the_compiled_engine_copies_clones_and_pickles_its_values() -> None:
    """mypyc's allocator runs a class's __init__, so copy, deepcopy, pickle and Hand.clone()
    failed on the compiled engine; they are its own now (issue 19, point 7)."""
    import copy
    import pickle

    from sevenstud.actions import Action, ActionKind
    from sevenstud.games import Stakes, Stud
    from sevenstud.hand import Hand
    from sevenstud.wire import hand_from_record, hand_to_record

    hand = Hand(Stud(Stakes(1, 2, 5, 10), rake_cap=3), [100, 100, 100], seed=3)
    hand.act("bring-in")
    for twin in (hand.clone(), copy.deepcopy(hand), hand_from_record(hand_to_record(hand))):
        twin.act("call")
        assert len(twin.events) == len(hand.events) + 1 and hand.to_act != twin.to_act
    for value in (Action(ActionKind.RAISE, 20), hand.game, hand.game.stakes):
        assert pickle.loads(pickle.dumps(value)) == value and copy.deepcopy(value) is value
