"""``python -m sevenstud``: the same as the ``sevenstud`` command."""

import sys

from sevenstud.cli import main

sys.exit(main())
