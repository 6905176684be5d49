"""The PHH fields' values: the check of each field's type and range (the spec's field table),
and how a value is spelled in TOML when :func:`sevenstud.history.phh.dumps` writes it.

Split from :mod:`sevenstud.history.phh` (which re-exports :class:`PHHError`) to keep that module
to the reading and writing of hands and actions.
"""

from __future__ import annotations

import datetime
import math
import re
import unicodedata
from collections.abc import Callable
from typing import Final

from sevenstud.chips import is_whole


class PHHError(ValueError):
    """A PHH document that is malformed or breaks the spec; the message names the field or line."""


_is_int = is_whole  # an int, not a bool (sevenstud.chips)


def _describe(value: object) -> str:
    if isinstance(value, float):
        if math.isinf(value):
            return f"{value!r} (an unknown amount, which this reader does not support)"
        return f"the float {value!r}"
    return f"{type(value).__name__} {value!r}"


def _check_int(name: str, value: object, *, low: int, what: str) -> None:
    if not _is_int(value):
        raise PHHError(f"{name}: expected {what}, got {_describe(value)}")
    assert isinstance(value, int)
    if value < low:
        least = "positive" if low == 1 else f"at least {low}"
        raise PHHError(f"{name}: expected {what} ({least}), got {value}")


def _chips(low: int) -> Callable[[str, object], None]:
    def check(name: str, value: object) -> None:
        _check_int(name, value, low=low, what="a whole number of chips")

    return check


def _integer(low: int) -> Callable[[str, object], None]:
    def check(name: str, value: object) -> None:
        _check_int(name, value, low=low, what="an integer")

    return check


def _string(name: str, value: object) -> None:
    if not isinstance(value, str):
        raise PHHError(f"{name}: expected a string, got {_describe(value)}")


def _string_or_int(name: str, value: object) -> None:
    if not isinstance(value, str) and not _is_int(value):
        raise PHHError(f"{name}: expected a string or an integer, got {_describe(value)}")


def _boolean(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise PHHError(f"{name}: expected true or false, got {_describe(value)}")


def _local_time(name: str, value: object) -> None:
    if not isinstance(value, datetime.time) or value.tzinfo is not None:
        raise PHHError(f"{name}: expected a TOML local time such as 19:30:00, got {value!r}")


def _seconds(name: str, value: object) -> None:
    if not (_is_int(value) or isinstance(value, float)):
        raise PHHError(f"{name}: expected a number of seconds, got {_describe(value)}")
    assert isinstance(value, int | float)
    if math.isnan(value) or value < 0:
        raise PHHError(f"{name}: expected a non-negative number of seconds, got {value!r}")


def _array(check: Callable[[str, object], None]) -> Callable[[str, object], None]:
    def check_all(name: str, value: object) -> None:
        if not isinstance(value, list):
            raise PHHError(f"{name}: expected an array, got {_describe(value)}")
        for i, item in enumerate(value):
            check(f"{name}[{i}]", item)

    return check_all


_CHECKS: Final[dict[str, Callable[[str, object], None]]] = {
    "variant": _string,
    "antes": _array(_chips(0)),
    "bring_in": _chips(1),
    "small_bet": _chips(1),
    "big_bet": _chips(1),
    "starting_stacks": _array(_chips(1)),
    "actions": _array(_string),
    "author": _string,
    "event": _string,
    "url": _string,
    "venue": _string,
    "address": _string,
    "city": _string,
    "region": _string,
    "postal_code": _string,
    "country": _string,
    "time": _local_time,
    "time_zone": _string,
    "time_zone_abbreviation": _string,
    "day": _integer(1),
    "month": _integer(1),
    "year": _integer(0),
    "hand": _string_or_int,
    "level": _integer(0),
    "seats": _array(_integer(1)),
    "seat_count": _integer(1),
    "table": _string_or_int,
    "players": _array(_string),
    "finishing_stacks": _array(_chips(0)),
    "winnings": _array(_chips(0)),
    "currency": _string,
    "currency_symbol": _string,
    "ante_trimming_status": _boolean,
    "time_limit": _seconds,
    "time_banks": _array(_seconds),
}
_PER_PLAYER: Final = (
    "antes",
    "seats",
    "players",
    "finishing_stacks",
    "winnings",
    "time_banks",
)


# -- TOML spelling of a value --------------------------------------------------------------

_BARE_KEY: Final = re.compile(r"[A-Za-z0-9_-]+\Z")
_ESCAPES: Final[dict[str, str]] = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}


def _toml_string(text: str) -> str:
    out = ['"']
    for ch in text:
        escaped = _ESCAPES.get(ch)
        if escaped is not None:
            out.append(escaped)
        elif unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp"):
            # A control, a format or bidi control, a line or paragraph separator: escaped, so
            # that a name can neither end the line nor reorder what a reader sees.
            out.append(f"\\u{ord(ch):04X}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08X}")
        elif 0xD800 <= ord(ch) <= 0xDFFF:
            raise PHHError(f"cannot write the lone surrogate {ch!r} in a TOML string")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _toml_string(key)


def _check_toml_value(name: str, value: object) -> None:
    """Raise unless ``value`` is something :func:`dumps` can write as TOML."""
    if isinstance(value, datetime.time):
        _local_time(name, value)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_toml_value(f"{name}[{i}]", item)
    elif isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise PHHError(f"{name}: TOML keys are strings, not {key!r}")
            _check_toml_value(f"{name}.{key}", item)
    elif isinstance(value, str):
        _toml_string(value)  # raises on a lone surrogate
    elif not isinstance(value, int | float | datetime.date):
        raise PHHError(f"{name}: cannot write {_describe(value)} as TOML")


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        pairs = (f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items())
        return "{" + ", ".join(pairs) + "}"
    raise PHHError(f"cannot write {_describe(value)} as TOML")
