"""Test-wide settings.

Under CI (the CI variable set), hypothesis runs derandomized: the same examples every run, so a
landing never hangs on a lucky draw. Everywhere else it explores new examples each run.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
