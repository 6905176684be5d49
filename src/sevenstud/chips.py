"""Whole numbers where they enter the engine: chips, seats, counts and their text.

Chips are integers (the stakes' smallest unit) and so are seats and counts. Every such value
that comes from outside (an :class:`~sevenstud.actions.Action`'s amount, a stack, the stakes, a
seat, a buy-in, a record read back, a player's typed amount) goes through this module once,
in the pure and the compiled engine alike, and is refused with the caller's own error
(``IllegalAction``, ``HandError``, ``GameError``, ``TableError``, ``WireError``, all
``ValueError``s) that names it, before anything changes:

- a ``bool`` is not a number of chips, although Python counts ``True`` as 1 (and the compiled
  engine, whose ``int`` arguments are machine integers, would silently make it 1);
- a ``float`` is not one either, even ``5.0``: it would turn every stack it touches into a
  float, which no record can be read back from;
- in text, only the ASCII digits ``0`` to ``9``: :func:`int` reads ``"٥"`` (an Arabic-Indic
  five) as 5, and :meth:`str.isdigit` takes ``"²"``, which :func:`int` then refuses.

The checks take ``object`` on purpose: the compiled engine (mypyc) checks and converts an
argument annotated ``int`` before the function's body runs, raising ``TypeError`` for a float
and turning ``True`` into 1, so the engine's public entry points annotate what they read from
outside with :class:`typing.SupportsIndex` (which the compiled code does not check) and call
these functions first.

>>> whole(20, "the amount"), parse_whole("20", "the amount")
(20, 20)
>>> whole(True, "the amount")
Traceback (most recent call last):
ValueError: the amount must be a whole number, not True
>>> parse_whole("٥", "the amount")
Traceback (most recent call last):
ValueError: the amount must be a whole number written with the digits 0-9, not '٥'
"""

from __future__ import annotations

from typing import Final, TypeGuard

__all__ = ["is_digits", "is_whole", "parse_whole", "whole"]

_ASCII_DIGITS: Final = frozenset("0123456789")


def is_whole(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number: an ``int`` (or a subclass of it), not a ``bool``."""
    return isinstance(value, int) and not isinstance(value, bool)


def whole(
    value: object,
    what: str,
    error: type[ValueError] = ValueError,
    *,
    least: int | None = None,
    of: str = "",
) -> int:
    """``value`` as a plain ``int``, or ``error`` saying that ``what`` must be a whole number
    (``of`` chips, say; of at least ``least``, when given)."""
    if isinstance(value, bool) or not isinstance(value, int):
        unit = f" of {of}" if of else ""
        raise error(f"{what} must be a whole number{unit}, not {value!r}")
    if least is not None and value < least:
        raise error(f"{what} must be at least {least}, not {value}")
    return int(value)


def is_digits(text: str) -> bool:
    """Whether ``text`` is one or more of the ASCII digits 0 to 9 and nothing else."""
    return bool(text) and text.isascii() and _ASCII_DIGITS.issuperset(text)


def parse_whole(text: str, what: str, error: type[ValueError] = ValueError) -> int:
    """The whole number written in ``text`` with the ASCII digits 0 to 9 (no sign, no spaces,
    no other script's digits), or ``error`` naming ``what``."""
    if not isinstance(text, str) or not is_digits(text):
        raise error(f"{what} must be a whole number written with the digits 0-9, not {text!r}")
    return int(text)
