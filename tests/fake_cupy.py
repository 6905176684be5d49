"""numpy playing CuPy, strictly enough to catch what would break on a GPU.

The device code path (``device="cuda"``) is tested here without a GPU by replacing
:func:`sevenstud.fast.device.array_module` with :func:`module`. Running it on plain numpy
would hide the two mistakes that only show on a GPU, so the stand-in refuses them as CuPy does:

* a function CuPy lacks: the module offers only the functions listed in :data:`FUNCTIONS`
  (and a random generator with only the methods of ``cupy.random.Generator`` used here);
* mixing host and device: its arrays are :class:`DeviceArray`, which refuse a host (numpy)
  array as an operand, an index or a function argument, and refuse numpy's own functions
  (``numpy.vdot(device_array, ...)``), each with a ``TypeError`` naming the operation. Python
  and numpy scalars are accepted, as CuPy accepts them. Reductions give 0-d device arrays, not
  numpy scalars (``x.sum()`` stays on the device); ``int()``, ``bool()`` and ``.tolist()``
  bring values back, as CuPy's do, and so do ``asnumpy`` and ``.get()``;
* where CuPy behaves differently: ``bincount`` of an empty array is an error (before CuPy 14);
  ``take`` of an index out of range is an error here, while CuPy would silently wrap it (so an
  off-by-one in the device code fails the tests instead of giving wrong counts on a GPU).
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import numpy as np

# The functions the device code may call: each one is in CuPy (cupy.<name>), with the keyword
# arguments used here.
FUNCTIONS = (
    "arange",
    "concatenate",
    "cumsum",
    "empty",
    "flatnonzero",
    "full",
    "maximum",
    "minimum",
    "not_equal",
    "ones",
    "repeat",
    "searchsorted",
    "stack",
    "tile",
    "unique",
    "where",
    "zeros",
)

# cupy.random.Generator's methods used by the device code.
GENERATOR_METHODS = ("integers", "random")


class DeviceArray(np.ndarray):  # type: ignore[type-arg]
    """A numpy array standing in for a ``cupy.ndarray``: host arrays and numpy functions are refused."""

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        what = f"{ufunc.__name__}.{method}" if method != "__call__" else ufunc.__name__
        args = [_operand(x, what) for x in inputs]
        if "out" in kwargs:
            kwargs["out"] = tuple(_operand(x, what) for x in kwargs["out"])
        return _device(getattr(ufunc, method)(*args, **kwargs))

    def __array_function__(self, func: Callable[..., Any], types: Any, args: Any, kwargs: Any) -> Any:
        raise TypeError(
            f"numpy.{func.__name__} called on a device array: CuPy refuses implicit conversion to a"
            " NumPy array (use the array module, or asnumpy first)"
        )

    def __getitem__(self, key: Any) -> Any:
        return _device(_host(self)[_index(key)])

    def __setitem__(self, key: Any, value: Any) -> None:
        _host(self)[_index(key)] = _operand(value, "assignment")

    def take(self, indices: Any, axis: Any = None, out: Any = None, mode: str = "raise") -> Any:  # type: ignore[override]
        if out is not None or mode != "raise":
            raise TypeError("cupy.ndarray.take has no out= or mode= worth relying on here")
        return _device(_host(self).take(_operand(indices, "take"), axis=axis))

    def nonzero(self) -> Any:
        return tuple(_device(x) for x in _host(self).nonzero())

    def get(self) -> np.ndarray:  # type: ignore[type-arg]
        """Back to the host, as ``cupy.ndarray.get()``."""
        return np.array(_host(self))

    def __iter__(self) -> Any:
        return (_device(x) for x in _host(self))

    def __repr__(self) -> str:
        return f"device {_host(self)!r}"

    def __str__(self) -> str:
        return str(_host(self))


def _host(array: DeviceArray) -> np.ndarray:  # type: ignore[type-arg]
    return array.view(np.ndarray)


def _device(value: Any) -> Any:
    """A result back on the device: arrays as :class:`DeviceArray`, numpy scalars as 0-d arrays."""
    if isinstance(value, tuple):
        return tuple(_device(v) for v in value)
    if isinstance(value, list):
        return [_device(v) for v in value]
    if isinstance(value, (np.ndarray, np.generic)):
        return np.asarray(value).view(DeviceArray)
    return value


def _operand(value: Any, what: str) -> Any:
    """A device operand's numpy view; a host array is refused."""
    if isinstance(value, DeviceArray):
        return _host(value)
    if isinstance(value, np.ndarray):
        raise TypeError(
            f"{what}: a host (numpy) array {value.shape} {value.dtype} in a device operation;"
            " CuPy refuses it (move it with asarray first)"
        )
    if isinstance(value, (list, tuple)):
        return type(value)(_operand(v, what) for v in value)
    return value


def _index(key: Any) -> Any:
    if isinstance(key, tuple):
        return tuple(_operand(k, "indexing") for k in key)
    return _operand(key, "indexing")


def _function(name: str) -> Callable[..., Any]:
    real = getattr(np, name)

    def call(*args: Any, **kwargs: Any) -> Any:
        args = tuple(_operand(a, f"cupy.{name}") for a in args)
        kwargs = {k: _operand(v, f"cupy.{name}") for k, v in kwargs.items()}
        return _device(real(*args, **kwargs))

    call.__name__ = name
    return call


def bincount(x: Any, weights: Any = None, minlength: int = 0) -> DeviceArray:
    """``cupy.bincount``: before CuPy 14 it takes the maximum of ``x`` first, so an empty ``x``
    is a ``ValueError`` (cupy/cupy#8116) where numpy gives ``minlength`` zeros."""
    if _operand(x, "cupy.bincount").size == 0:
        raise ValueError("zero-size array to reduction operation maximum which has no identity")
    return _device(np.bincount(_operand(x, "cupy.bincount"), _operand(weights, "cupy.bincount"), minlength))


def asarray(value: Any, dtype: Any = None) -> DeviceArray:
    """``cupy.asarray``: host arrays, device arrays and Python values all go to the device."""
    host = _host(value) if isinstance(value, DeviceArray) else value
    return np.asarray(host, dtype=dtype).view(DeviceArray)


def asnumpy(value: Any) -> np.ndarray:  # type: ignore[type-arg]
    """``cupy.asnumpy``: back to the host."""
    return np.array(_host(value)) if isinstance(value, DeviceArray) else np.asarray(value)


class Generator:
    """``cupy.random.Generator``, cut down to the methods used, drawing on the device."""

    def __init__(self, seed: Any) -> None:
        self._rng = np.random.default_rng(seed)

    def __getattr__(self, name: str) -> Any:
        if name not in GENERATOR_METHODS:
            raise AttributeError(f"cupy.random.Generator has no method {name!r} used here")
        real = getattr(self._rng, name)
        return lambda *args, **kwargs: _device(real(*args, **kwargs))


def module() -> Any:
    """The stand-in for ``cupy``."""
    stand_in = types.SimpleNamespace(**{name: _function(name) for name in FUNCTIONS})
    stand_in.asarray = asarray
    stand_in.bincount = bincount
    stand_in.asnumpy = asnumpy
    stand_in.ndarray = DeviceArray
    stand_in.random = types.SimpleNamespace(default_rng=Generator)
    # One "device", always ready.
    gpu = types.SimpleNamespace(id=0, synchronize=lambda: None)
    stand_in.cuda = types.SimpleNamespace(
        Device=lambda *_: gpu,
        runtime=types.SimpleNamespace(
            getDeviceCount=lambda: 1,
            getDeviceProperties=lambda _: {"name": b"numpy standing in for a GPU", "multiProcessorCount": 1},
            memGetInfo=lambda: (0, 0),
            runtimeGetVersion=lambda: 0,
        ),
    )
    stand_in.__name__ = "numpy standing in for cupy"
    stand_in.__version__ = "stand-in"
    return stand_in
