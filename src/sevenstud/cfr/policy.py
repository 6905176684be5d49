"""The learned bot's policy file: gzip-compressed JSON, read with the standard library.

Layout: ``{"format": "sevenstud-cfr-policy", "version": 1, "tables": {NAME: {KEY: [p, ...]}},
"meta": {NAME: {...}}}``, a table per game and table size (``"stud8/2"``: hi/lo heads-up;
``"stud8/4"``: the multiway table), each key an information set of
:mod:`sevenstud.cfr.abstraction` (its legal letters after the ``:``), each list the
probabilities of those letters in thousandths. A table's meta holds the iterations it was
trained, the ``least_visits`` it was written with, and for a multiway table that learned its
hands' heads-up ends ``"heads_up_ends": "learned"`` (the learned bot then plays them by it).
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

FORMAT = "sevenstud-cfr-policy"
VERSION = 1
SHIPPED = "policy.json.gz"
"""The shipped policy's file name in the package's ``data`` folder."""


class PolicyFileError(ValueError):
    """A policy file that cannot be read (named, with what was wrong)."""


def quantise(probs: Sequence[float]) -> list[int]:
    """Probabilities as thousandths summing to 1000 (largest remainder).

    >>> quantise([1 / 3, 1 / 3, 1 / 3])
    [334, 333, 333]
    """
    raw = [p * 1000 for p in probs]
    out = [int(x) for x in raw]
    order = sorted(range(len(raw)), key=lambda i: raw[i] - out[i], reverse=True)
    for i in order[: 1000 - sum(out)]:
        out[i] += 1
    return out


def empty() -> dict[str, Any]:
    """A policy with no tables."""
    return {"format": FORMAT, "version": VERSION, "tables": {}, "meta": {}}


def load(path: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """A policy file (the shipped one when ``path`` is None); :class:`PolicyFileError` when it is
    missing or malformed."""
    try:
        if path is None:
            raw = resources.files("sevenstud.cfr").joinpath("data", SHIPPED).read_bytes()
        else:
            raw = Path(path).read_bytes()
        data = json.loads(gzip.decompress(raw))
    except (OSError, ValueError, EOFError) as exc:
        raise PolicyFileError(f"cannot read the policy file {path or SHIPPED}: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise PolicyFileError(f"{path or SHIPPED} is not a version {VERSION} {FORMAT} file")
    if not isinstance(data.get("tables"), dict):
        raise PolicyFileError(f"{path or SHIPPED} has no tables")
    return data


def save(path: str | os.PathLike[str], data: Mapping[str, Any]) -> None:
    """Write ``data`` (a policy) to ``path`` atomically."""
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_bytes(gzip.compress(json.dumps(data, separators=(",", ":"), sort_keys=True).encode(), 9))
    os.replace(tmp, target)
