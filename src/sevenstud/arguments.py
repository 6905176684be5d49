"""The argument types the commands share (``sevenstud play``, ``equity``, ...): whole numbers
checked as they are parsed, so that a bad count is a one-line usage error.

Apart from cli.py, which imports every command, so that a command's own module (equity.py)
can use them without importing cli.py back.
"""

from __future__ import annotations

import argparse
import ipaddress
from collections.abc import Callable

from sevenstud.chips import is_digits
from sevenstud.games import GameError, Stakes

__all__ = ["SEED", "StakesError", "network", "parse_stakes", "stakes_type", "whole_number"]


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


class StakesError(ValueError):
    """``--stakes`` that do not spell ``ante/bring-in/small bet/big bet``."""


def parse_stakes(text: str) -> Stakes:
    """Stakes from ``"ante/bring-in/small bet/big bet"``, e.g. ``"1/2/5/10"``.

    >>> parse_stakes("1/2/5/10")
    Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
    """
    parts = [p.strip() for p in text.split("/")]
    # ASCII digits only (sevenstud.chips): isdigit() takes "²", which int() then refuses.
    if len(parts) != 4 or not all(is_digits(p) for p in parts):
        raise StakesError(
            f"bad stakes {text!r}: expected four whole numbers of chips, "
            "ante/bring-in/small bet/big bet, e.g. 1/2/5/10"
        )
    ante, bring_in, small_bet, big_bet = (int(p) for p in parts)
    try:
        return Stakes(ante=ante, bring_in=bring_in, small_bet=small_bet, big_bet=big_bet)
    except GameError as exc:
        raise StakesError(f"bad stakes {text!r}: {exc}") from None


def stakes_type(text: str) -> Stakes:
    """``--stakes``: ``ante/bring-in/small bet/big bet`` checked by the game's own rules."""
    try:
        return parse_stakes(text)
    except StakesError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def network(text: str) -> str:
    """An argparse type: an IP address or network (``10.0.0.0/8``, ``::1``), checked.

    >>> network("10.0.0.0/8")
    '10.0.0.0/8'
    >>> network("ten")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 'ten' is not an address or a network (e.g. 10.0.0.0/8)
    """
    try:
        ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        why = f"{text!r} is not an address or a network (e.g. 10.0.0.0/8)"
        raise argparse.ArgumentTypeError(why) from None
    return text.strip()
