"""Test-wide settings.

Under CI (the CI variable set), hypothesis runs derandomized: the same examples every run, so a
landing never hangs on a lucky draw. Everywhere else it explores new examples each run.

With SEVENSTUD_COMPILED set (``make test-compiled``), the tests run against the engine compiled
with mypyc in that folder instead of the pure one (tools/build_compiled.py).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# The compiled run (`make test`'s second pass): SEVENSTUD_COMPILED names the folder that
# tools/build_compiled.py built; it goes first on sys.path, ahead of the editable install (a
# .pth path entry, which comes after it). Where the build could not be made, its UNAVAILABLE
# file says why and every test of the run is skipped with that reason.
COMPILED_DIR = os.environ.get("SEVENSTUD_COMPILED")
if COMPILED_DIR:
    _compiled = os.path.abspath(COMPILED_DIR)
    if "sevenstud" in sys.modules and not os.path.abspath(sys.modules["sevenstud"].__file__ or "").startswith(
        _compiled
    ):
        raise RuntimeError(f"sevenstud was imported before the compiled build in {_compiled}")
    if _compiled not in sys.path:
        sys.path.insert(0, _compiled)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the compiled run, with the build's reason, where no compiled build could be made."""
    if not COMPILED_DIR:
        return
    unavailable = Path(COMPILED_DIR) / "UNAVAILABLE"
    if unavailable.exists():
        skip = pytest.mark.skip(reason=f"compiled engine: {unavailable.read_text().strip()}")
        for item in items:
            item.add_marker(skip)
