"""Ray for the commands that can use it (``sevenstud simulate --ray``, ``sevenstud train
--ray``): the one ``--ray`` option, and starting or joining Ray with errors in one line.

``--ray`` alone starts a local instance (stopped when the command is done), ``--ray ADDRESS``
joins the cluster there, ``--ray auto`` the one this machine belongs to. A process that has
already joined Ray (a test, a notebook) keeps the Ray it has, and it is not stopped here.

Ray is optional (the ``sim`` extra): this module imports it only when asked to run on it.
"""

from __future__ import annotations

import argparse
import importlib
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sevenstud.sim.core import SimulationError

NEEDS_RAY = "--ray needs Ray (pip install 'sevenstud[sim]')"
REACH_TIMEOUT_S = 5.0
"""How long a cluster's address has to answer. Ray itself waits minutes for a head that is not
there, retrying in silence; a refused or unanswered connection is told at once instead."""


class RayError(SimulationError):
    """Ray is missing, or the cluster asked for cannot be started or joined. (A
    :class:`SimulationError`, so ``sevenstud simulate`` reports it as it reports its others; it
    is a ``ValueError`` too, which every command reports in one line.)"""


def add_ray_argument(parser: argparse.ArgumentParser) -> None:
    """The ``--ray`` option: False when absent, True alone, else the address given."""
    parser.add_argument(
        "--ray",
        nargs="?",
        const=True,
        default=False,
        metavar="ADDRESS",
        help="run on Ray: a local instance, or the cluster at ADDRESS ('auto': this machine's)",
    )


def ray_address(option: bool | str) -> str | None:
    """The address to join for a ``--ray`` value (None: start a local instance)."""
    return None if option is True else str(option)


def _check_reachable(address: str) -> None:
    """Refuse at once a ``HOST:PORT`` where nothing answers (see :data:`REACH_TIMEOUT_S`);
    other forms (``auto``, ``local``, ``ray://...``) are left to Ray."""
    host, colon, port = address.rpartition(":")
    if not colon or not host or "/" in address or not port.isdigit():
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=REACH_TIMEOUT_S):
            pass
    except OSError as error:
        reason = error.strerror or str(error) or type(error).__name__
        raise RayError(f"--ray {address}: no Ray cluster answers there ({reason.lower()})") from None


@contextmanager
def ray_session(address: str | None, num_cpus: int | None = None) -> Iterator[Any]:
    """Ray, ready for tasks: a local instance started here with ``num_cpus`` (``address``
    None; None: every core), the cluster at ``address``, or the Ray this process has already
    joined. What this started is stopped on leaving. A :class:`RayError` in one line when Ray is
    missing or cannot be started or joined."""
    try:
        # Ray is typed loosely: Any, rather than ignores that fit one version of it.
        ray: Any = importlib.import_module("ray")
    except ImportError:
        raise RayError(NEEDS_RAY) from None
    started = False
    if not ray.is_initialized():
        where = "a local Ray instance" if address is None else f"--ray {address}"
        if address is not None:
            _check_reachable(address)
        try:
            if address is None:
                ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, log_to_driver=False)
        except (ConnectionError, ValueError, RuntimeError, TimeoutError) as error:
            lines = str(error).strip().splitlines()
            raise RayError(
                f"{where}: cannot start or join Ray: {lines[0] if lines else type(error).__name__}"
            ) from None
        started = True
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def cluster_cpus(ray: Any) -> int:
    """The CPUs of the Ray cluster joined (at least 1)."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))
