"""Where the arrays live: numpy on the CPU, CuPy on a CUDA device (``device="cuda"``).

The batch evaluator and the equity kernels are written once against an *array module* ``xp``
(numpy's API; CuPy mirrors it). :func:`array_module` names the module of a device; a
:class:`Backend` carries it with the few choices that differ on a GPU (bigger blocks, no
compaction with ``nonzero`` in the hot loops, which would wait for the device, random numbers
from the device's own generator). The device code path uses only functions that CuPy has.

Tests run the device code path with numpy standing in for CuPy by replacing
:func:`array_module` (``monkeypatch.setattr(device, "array_module", ...)``); the exact results
must then be identical to the CPU's.

>>> backend("cpu").gpu, backend("cpu").xp.__name__
(False, 'numpy')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy

DEVICES = ("cpu", "cuda")
CUPY_HINT = (
    "pip install 'sevenstud[gpu]' (CUDA 13: cupy-cuda13x) or 'sevenstud[gpu-cuda12]' (CUDA 12: cupy-cuda12x)"
)


class DeviceError(RuntimeError):
    """The device asked for cannot be used here (no CuPy, no CUDA device); the message says why."""


def array_module(device: str) -> Any:
    """The array module for ``device``: numpy for ``"cpu"``, CuPy for ``"cuda"`` (a
    :class:`DeviceError` naming what is missing when CuPy or a CUDA device is not there)."""
    if device == "cpu":
        return numpy
    if device != "cuda":
        raise ValueError(f"unknown device {device!r}: expected one of {', '.join(DEVICES)}")
    try:
        import cupy
    except ImportError as error:
        raise DeviceError(
            f"--device cuda needs CuPy and an NVIDIA GPU; CuPy is not installed ({error}): {CUPY_HINT}"
        ) from None
    try:
        count = int(cupy.cuda.runtime.getDeviceCount())
    except Exception as error:  # CUDARuntimeError: no driver, no device
        raise DeviceError(
            f"--device cuda: CuPy is installed but finds no CUDA device ({error}); use --device cpu,"
            f" or check the driver and that CuPy matches its CUDA ({CUPY_HINT})"
        ) from None
    if count < 1:
        raise DeviceError("--device cuda: CuPy is installed but there is no CUDA device; use --device cpu")
    return cupy


@dataclass(frozen=True)
class Backend:
    """A device and its array module. ``gpu``: take the device code path (also when numpy stands
    in for CuPy in the tests)."""

    device: str
    xp: Any

    @property
    def gpu(self) -> bool:
        return self.device != "cpu"

    def key(self) -> tuple[str, int, int]:
        """What a cache of device arrays is keyed by: the device, its module and the current GPU."""
        cuda = getattr(self.xp, "cuda", None)
        gpu_id = int(cuda.Device().id) if cuda is not None else 0
        return (self.device, id(self.xp), gpu_id)

    def asnumpy(self, array: Any) -> Any:
        """``array`` as a numpy array (a copy from the device on a GPU)."""
        to_host = getattr(self.xp, "asnumpy", None)
        return to_host(array) if to_host is not None else numpy.asarray(array)

    def sync(self) -> None:
        """Wait for the device (for timing); nothing on the CPU."""
        cuda = getattr(self.xp, "cuda", None)
        if cuda is not None:
            cuda.Device().synchronize()


CPU = Backend("cpu", numpy)


def backend(device: str = "cpu") -> Backend:
    """The :class:`Backend` of ``device`` (``"cpu"`` or ``"cuda"``)."""
    if device == "cpu":
        return CPU
    return Backend(device, array_module(device))
