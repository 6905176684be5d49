"""Build the compiled engine: the engine modules compiled with mypyc, beside the pure package.

    python tools/build_compiled.py [--out build/compiled] [--jobs N]

``src/`` stays pure. The whole ``sevenstud`` package is copied to ``OUT/sevenstud`` and the
modules in :data:`COMPILED` are compiled there in place (one ``.so`` each, plus mypyc's shared
runtime library in ``OUT``); the other modules stay pure Python. Put ``OUT`` first on
``PYTHONPATH`` to use it: the editable install is a ``.pth`` path entry in site-packages, which
comes after ``PYTHONPATH``, and an extension module wins over a ``.py`` of the same name in one
folder (the import system tries extension suffixes first). The ``.py`` files stay beside the
``.so`` files: mypyc compiles a class's annotations away (``int | None`` becomes ``type``), and
``sevenstud.wire`` builds the wire format from the annotations as the source writes them.

``OUT/SOURCES.json`` records a hash of every source file the build was made from, so that a
stale build is noticed (tests/test_compiled.py). Where no C compiler or no mypyc is found, or
mypyc fails, the build says why in one line, writes the reason to ``OUT/UNAVAILABLE`` and
exits 0: the compiled test run then skips with that reason (tests/conftest.py).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

# The hashes are the ones the runner checks a build's freshness by (every file of the package,
# its data too: the build copies the learned bot's policy, and a stale copy would play the old
# one), so there is one function for both.
from sevenstud.sim.runner import source_hashes

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src" / "sevenstud"

# The engine modules to compile, one a line: add a module here and it is compiled. A listed
# module that is not there (the engine's modules get split and renamed) is skipped with a note,
# never a failure. cards.py is left out: Card subclasses int, which mypyc compiles only as a
# non-native class, and that needs mypy_extensions (the engine imports the standard library
# alone). games.py compiles thanks to its `_Variant` base: mypyc reads a ClassVar in a
# dataclass body as a field, and `StudHiLo(...)` then fails with "attribute 'name' is read-only".
COMPILED = (
    "sevenstud/actions.py",
    "sevenstud/chips.py",
    "sevenstud/betting.py",
    "sevenstud/dealing.py",
    "sevenstud/deck.py",
    "sevenstud/evaluate.py",
    "sevenstud/events.py",
    "sevenstud/games.py",
    "sevenstud/hand.py",
    "sevenstud/pots.py",
    "sevenstud/showdown.py",
    "sevenstud/views.py",
    "sevenstud/bots/simple.py",
)


def _why_not(compiled: tuple[str, ...]) -> str | None:
    """Why a compiled build cannot be made here, or None when it can."""
    # As setuptools chooses it: $CC first, then the compiler Python was built with.
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler} not found)"
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed (pip install mypy)"
    if importlib.util.find_spec("setuptools") is None:
        return "setuptools is not installed (mypyc builds through it)"
    if not compiled:
        return "none of the listed engine modules exists (tools/build_compiled.py: COMPILED)"
    return None


def present(compiled: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The listed modules split into those the engine has now and those it does not."""
    there = tuple(m for m in compiled if (SOURCE.parent / m).is_file())
    return there, tuple(m for m in compiled if m not in there)


def _unavailable(out: Path, reason: str) -> int:
    out.mkdir(parents=True, exist_ok=True)
    (out / "UNAVAILABLE").write_text(reason + "\n")
    print(f"compiled engine not built: {reason}; the compiled tests will be skipped")
    return 0


def _compile(out: Path, temp: Path, compiled: tuple[str, ...], jobs: int) -> None:
    """mypyc and the C compiler, in ``out`` (run in a child process: see :func:`build`)."""
    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[import-untyped,unused-ignore]

    os.chdir(out)
    # mypy's cache with the C files, not in the package folder.
    os.environ["MYPY_CACHE_DIR"] = str(temp / "mypy_cache")
    # The project's own mypy settings, wherever ``out`` is: run from a folder outside the
    # checkout, mypy found none there ("Cannot find ... module named cupy").
    config = ["--config-file", str(ROOT / "pyproject.toml")]
    extensions = mypycify([*config, *compiled], target_dir=str(temp / "c"))
    setup(
        name="sevenstud-compiled",
        ext_modules=extensions,
        script_args=[
            "build_ext",
            "--inplace",
            *("--build-temp", str(temp / "o"), "--build-lib", str(temp / "lib")),
            *("-j", str(jobs)),
        ],
    )


def build(out: Path, compiled: tuple[str, ...] = COMPILED, jobs: int = 2) -> int:
    """Make the compiled build in ``out``; 0 when it was made or is unavailable (said why)."""
    start = time.perf_counter()
    if out.exists():
        shutil.rmtree(out)
    compiled, missing = present(compiled)
    if missing:
        print(f"not compiled, no such engine module: {', '.join(missing)}")
    reason = _why_not(compiled)
    if reason is not None:
        return _unavailable(out, reason)
    out.mkdir(parents=True)
    temp = out.parent / (out.name + "-temp")
    shutil.copytree(SOURCE, out / "sevenstud", ignore=shutil.ignore_patterns("__pycache__"))
    # A child process, so that mypyc's and setuptools' output can be kept for a failure only.
    child = subprocess.run(
        [sys.executable, __file__, "--child", str(out), str(temp), str(jobs), *compiled],
        capture_output=True,
        text=True,
        check=False,
    )
    if child.returncode != 0:
        log = out.parent / (out.name + "-failure.log")
        log.write_text(child.stdout + child.stderr)
        shutil.rmtree(out)
        lines = [ln for ln in (child.stdout + child.stderr).splitlines() if "error" in ln]
        first = lines[0].strip() if lines else f"exit status {child.returncode}"
        return _unavailable(out, f"mypyc failed: {first} (full log: {log})")
    built = sorted(str(p.relative_to(out)) for p in out.rglob("*.so"))
    (out / "SOURCES.json").write_text(
        json.dumps(
            {
                "compiled": list(compiled),
                "missing": list(missing),
                "extensions": built,
                "sources": source_hashes(SOURCE),
            },
            indent=1,
        )
        + "\n"
    )
    seconds = time.perf_counter() - start
    print(f"compiled engine built in {out} ({len(compiled)} modules, {seconds:.0f} s)")
    return 0


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module's documentation)."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--child"]:
        out, temp, jobs, *compiled = args[1:]
        with contextlib.redirect_stdout(io.StringIO()) as quiet:
            try:
                _compile(Path(out), Path(temp), tuple(compiled), int(jobs))
            except BaseException:
                print(quiet.getvalue(), file=sys.stderr)
                raise
        return 0
    parser = argparse.ArgumentParser(description="Build the engine compiled with mypyc.")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "compiled")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    options = parser.parse_args(args)
    return build(options.out.resolve(), jobs=options.jobs)


if __name__ == "__main__":
    sys.exit(main())
