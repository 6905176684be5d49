"""benchmarks/load.py as a module for the tests that drive a real card room with its clients
(the benchmarks are scripts, not a package: loaded once from their path)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

_LOAD = Path(__file__).resolve().parents[2] / "benchmarks" / "load.py"
_NAME = "sevenstud_load_bench"


def load_bench() -> Any:
    """benchmarks/load.py, loaded once per process (its clients, tables and results)."""
    if _NAME in sys.modules:
        return sys.modules[_NAME]
    spec = importlib.util.spec_from_file_location(_NAME, _LOAD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[_NAME] = module
    spec.loader.exec_module(module)
    return module
