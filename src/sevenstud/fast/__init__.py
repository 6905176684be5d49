"""Vectorised (numpy) evaluation and equity kernels: the optional ``fast`` extra.

``import sevenstud`` never needs numpy; this package does, and says so plainly when it is missing
(``pip install sevenstud[fast]``). The batch evaluator returns exactly the integers of the
pure-Python :mod:`sevenstud.evaluate` (greater is better; ``low8`` 0 = no qualifying low):

>>> import numpy as np
>>> from sevenstud.fast import evaluate_batch
>>> from sevenstud.cards import parse_cards
>>> from sevenstud.evaluate import hilo8_ranks
>>> hand = parse_cards("Kc Kd 3s Ks 3h 7c 2d")
>>> high, low, low8 = evaluate_batch(np.array([hand]))
>>> (int(high[0]), int(low8[0])) == hilo8_ranks(hand)
True

``device="cuda"`` runs the same code on an NVIDIA GPU through CuPy (``pip install
'sevenstud[gpu]'``, or ``'sevenstud[gpu-cuda12]'`` for CUDA 12): the same integers; without
CuPy or a CUDA device, a :class:`DeviceError` says what is missing.
"""

from __future__ import annotations

from typing import Any

NUMPY_HINT = "numpy is needed for fast evaluation and equity: pip install sevenstud[fast]"


def require_numpy() -> Any:
    """The numpy module, or an :class:`ImportError` that says how to install it."""
    try:
        import numpy
    except ImportError as error:  # pragma: no cover - numpy is a test dependency
        raise ImportError(NUMPY_HINT) from error
    return numpy


require_numpy()

from sevenstud.fast.device import DeviceError  # noqa: E402
from sevenstud.fast.evaluate import (  # noqa: E402
    BatchRanks,
    evaluate_batch,
    high_ranks,
    hilo8_ranks,
    low8_ranks,
    low_ranks,
)

__all__ = [
    "NUMPY_HINT",
    "BatchRanks",
    "DeviceError",
    "evaluate_batch",
    "high_ranks",
    "hilo8_ranks",
    "low8_ranks",
    "low_ranks",
    "require_numpy",
]
