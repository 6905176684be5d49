"""The argument types the commands share (``sevenstud play``, ``equity``, ...): whole numbers
checked as they are parsed, so that a bad count is a one-line usage error.

Apart from cli.py, which imports every command, so that a command's own module (equity.py)
can use them without importing cli.py back.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from sevenstud.chips import is_digits

__all__ = ["SEED", "whole_number"]


def whole_number(what: str, *, least: int = 0, most: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``least`` to ``most``; ``what`` names it in errors.

    >>> whole_number("a seed")("7")
    7
    >>> whole_number("a seed")("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a seed must be 0 or more, not -1
    """

    def parse(text: str) -> int:
        # The digits 0-9 only, with an optional sign (sevenstud.chips): int() would also read
        # "٥" as 5, and " 7", "+7" and "1_000".
        if not is_digits(text.removeprefix("-")):
            raise argparse.ArgumentTypeError(f"{what} must be a whole number, not {text!r}")
        value = int(text)
        if most is not None and not least <= value <= most:
            raise argparse.ArgumentTypeError(f"{what} must be {least} to {most}, not {value}")
        if value < least:
            raise argparse.ArgumentTypeError(f"{what} must be {least} or more, not {value}")
        return value

    parse.__name__ = what  # argparse names the type in some messages
    return parse


SEED = whole_number("a seed")
"""``--seed``: a whole number, 0 or more."""
