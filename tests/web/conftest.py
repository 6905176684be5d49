"""The browser tests' fixtures: a real card room (``python -m sevenstud serve`` on a free port of
127.0.0.1, on its own SQLite file), Debian's chromium driven by Playwright through its executable
path (no browser is ever downloaded), the axe-core accessibility check, and the folder the
screenshots are saved in as test artefacts.

Where chromium is missing the tests skip, saying so; under CI (``CI=true``) they fail instead,
since `make test` installs it (tools/chromium.sh)."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.spawn import running

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("SEVENSTUD_ARTIFACTS", ROOT / "test-artifacts"))
"""Where the screenshots go (kept after the run: `make test` leaves them in test-artifacts/)."""


def chromium_path() -> str | None:
    """Debian's chromium: $SEVENSTUD_CHROMIUM, else the one on the PATH."""
    given = os.environ.get("SEVENSTUD_CHROMIUM")
    if given:
        return given
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None


def _missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI runs the browser tests: `make test` installs chromium)")
    pytest.skip(reason)


LIFTED = tuple(
    f"--limit={name}=100000"
    for name in ("guests_per_address", "tables_per_account", "tables_per_address", "sockets_per_address")
)
"""The browser tests' limits: not what they test (tests/server/test_limits.py does)."""


@contextlib.contextmanager
def card_room(database: Path, pause: float = 1.5) -> Iterator[str]:
    """A card room of its own on a free port; its base URL. Stopped at the end. Every page of
    a module's tests comes from 127.0.0.1: the limits per address and account are lifted."""
    with running(f"sqlite:///{database}", pause=pause, args=LIFTED) as served:
        yield served.base


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A card room for this test module: its base URL (``http://127.0.0.1:PORT``)."""
    folder = tmp_path_factory.mktemp("cardroom")
    with card_room(folder / "cardroom.sqlite3") as base:
        yield base


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's chromium, headless, through Playwright's sync API."""
    path = chromium_path()
    if path is None:
        _missing("Debian's chromium is not installed (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed (pip install -e '.[test]')")
    with sync_playwright() as playwright:
        # /dev/shm is small in containers (CI's among them): chromium then uses /tmp instead.
        launched = playwright.chromium.launch(
            executable_path=path, headless=True, args=["--disable-dev-shm-usage"]
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A fresh browser context (its own cookies and storage), desktop sized."""
    made = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        yield made
    finally:
        made.close()


@pytest.fixture
def page(context: Any) -> Any:
    """A page in a fresh context; a script error on the page fails the test."""
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    assert not errors, f"the page raised: {errors}"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """The folder screenshots are saved in."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def axe_check() -> Callable[[Any, str], None]:
    """``axe_check(page, what)``: runs axe-core on the page and fails with every violation
    (rule, impact, the elements) when there is any."""
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()

    def check(target: Any, what: str) -> None:
        results = axe.run(target)
        violations = results.response.get("violations", [])
        if violations:
            lines = [
                f"{v['id']} ({v.get('impact')}): {v['help']} -- "
                + "; ".join(str(node.get("target")) for node in v.get("nodes", [])[:5])
                for v in violations
            ]
            found = f"axe-core found {len(violations)} problem(s) on {what}"
            raise AssertionError(found + ":\n" + "\n".join(lines))

    return check
