"""The benchmarks as modules for the tests that use their parts (a real card room's clients,
a room made by SQL, a started tournament): the benchmarks are scripts, not a package, so each
is loaded once from its path."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

_BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def bench(name: str) -> Any:
    """benchmarks/``name``.py, loaded once per process."""
    module_name = f"sevenstud_{name}_bench"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, _BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def load_bench() -> Any:
    """benchmarks/load.py (its clients, tables and results)."""
    return bench("load")
