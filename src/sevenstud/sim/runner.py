"""Running a match: in this process, on a pool of processes (all cores by default) or on a Ray
cluster, with the same figures whichever way (every deal depends on the seed and its number
alone, :mod:`sevenstud.sim.core`, and the figures are summed in deal order).

The engine. Self-play spends most of its time in the engine and the rule bots, which the
compiled build (``make compiled``: ``build/compiled``, tools/build_compiled.py) runs about four
times as fast. With ``engine="auto"`` (the default) the worker processes run it whenever a build
is found that was made from the sources being run (its ``SOURCES.json`` hashes match them): the
folder named by ``compiled=``, else ``$SEVENSTUD_COMPILED``, else ``build/compiled`` of the source
tree the package is imported from. A stale or missing build means the pure engine, and the
result says which engine played (:attr:`SimResult.engines <sevenstud.sim.core.SimResult>`).
``engine="pure"`` never uses it (the tests' reference), ``engine="compiled"`` insists on it.

A process pool is started with the ``spawn`` method and the build first on the path it gives the
workers (a spawned worker's ``sys.path`` is the parent's at the moment it starts), so that the
workers import the compiled engine while this process keeps the one it has. Ray workers get it
through their runtime environment's ``PYTHONPATH`` (a cluster's other nodes need the build at the
same path; where it is missing they run the pure engine, and say so).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sevenstud.sim.cluster import cluster_cpus, ray_address, ray_session
from sevenstud.sim.core import (
    DealRecord,
    Matchup,
    SimResult,
    SimulationError,
    engine_kind,
    play_deals,
    summarize,
)

Progress = Callable[[int], None]
"""Told how many more hands have been played."""

ENGINES = ("auto", "pure", "compiled")


@dataclass(frozen=True, slots=True)
class EngineChoice:
    """Which engine the workers run: the compiled build's folder (None: the pure engine) and why."""

    folder: Path | None
    reason: str


def source_hashes(package: Path) -> dict[str, str]:
    """The sha256 of every file of a package (data included) by its path from the package's
    parent, as tools/build_compiled.py records them in ``SOURCES.json``."""
    return {
        str(path.relative_to(package.parent)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(package.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def _candidates(compiled: str | os.PathLike[str] | None) -> list[Path]:
    if compiled is not None:
        return [Path(compiled)]
    found = []
    if os.environ.get("SEVENSTUD_COMPILED"):
        found.append(Path(os.environ["SEVENSTUD_COMPILED"]))
    import sevenstud

    package = Path(sevenstud.__file__ or ".").resolve().parent
    found.append(package.parent.parent / "build" / "compiled")  # src/sevenstud -> the tree's root
    return found


def choose_engine(engine: str = "auto", compiled: str | os.PathLike[str] | None = None) -> EngineChoice:
    """The engine the workers will run (see the module); a :class:`SimulationError` for
    ``engine="compiled"`` without a usable build, or an unknown engine."""
    if engine not in ENGINES:
        raise SimulationError(f"unknown engine {engine!r}: expected one of {', '.join(ENGINES)}")
    if engine == "pure":
        if engine_kind() == "compiled":
            raise SimulationError(
                "the pure engine was asked for, but this process runs the compiled one"
                " (take the compiled build off PYTHONPATH)"
            )
        return EngineChoice(None, "the pure engine, as asked")
    if engine_kind() == "compiled":
        return EngineChoice(None, "this process already runs the compiled engine")
    import sevenstud

    package = Path(sevenstud.__file__ or ".").resolve().parent
    why = "no compiled build (make compiled)"
    now: dict[str, str] | None = None
    for folder in _candidates(compiled):
        folder = folder.resolve()
        if (folder / "UNAVAILABLE").exists():
            reason = (folder / "UNAVAILABLE").read_text().strip()
            why = f"the compiled build in {folder} is unavailable: {reason}"
            continue
        manifest = folder / "SOURCES.json"
        if not manifest.exists():
            why = f"no compiled build in {folder} (make compiled)"
            continue
        recorded = json.loads(manifest.read_text()).get("sources", {})
        now = source_hashes(package) if now is None else now
        if recorded != now:
            why = f"the compiled build in {folder} is stale (make compiled)"
            continue
        return EngineChoice(folder, f"the compiled engine in {folder}")
    if engine == "compiled":
        raise SimulationError(f"the compiled engine was asked for: {why}")
    return EngineChoice(None, f"the pure engine: {why}")


def blocks(deals: int, parts: int) -> list[tuple[int, int]]:
    """Deals ``0 .. deals - 1`` cut into blocks for ``parts`` workers: a few blocks each, so that
    the progress bar moves and a slow block does not hold the others idle.

    >>> blocks(10, 2)
    [(0, 2), (2, 4), (4, 6), (6, 8), (8, 10)]
    """
    size = max(1, min(200, -(-deals // (parts * 4))))
    return [(a, min(deals, a + size)) for a in range(0, deals, size)]


def _block(matchup: Matchup, start: int, stop: int) -> list[DealRecord]:
    return play_deals(matchup, start, stop)


def _pool_block(job: tuple[Matchup, int, int]) -> list[DealRecord]:
    return play_deals(*job)


@contextmanager
def _path_first(folder: Path | None) -> Iterator[None]:
    """``folder`` first on ``sys.path`` while a pool's workers are spawned (they copy it)."""
    if folder is None:
        yield
        return
    saved = sys.path[:]
    sys.path.insert(0, str(folder))
    try:
        yield
    finally:
        sys.path[:] = saved


def run_local(
    matchup: Matchup,
    deals: int,
    workers: int,
    choice: EngineChoice,
    progress: Progress | None = None,
) -> list[DealRecord]:
    """The deals on ``workers`` processes (1 and the pure engine: in this process)."""
    n = len(matchup.players)
    jobs = blocks(deals, workers)
    records: list[DealRecord] = []
    if workers == 1 and choice.folder is None:
        for start, stop in jobs:
            records += play_deals(matchup, start, stop)
            if progress is not None:
                progress((stop - start) * n)
        return records
    import multiprocessing  # here: every `sevenstud` command's parser imports this module

    context = multiprocessing.get_context("spawn")
    with _path_first(choice.folder):
        pool = context.Pool(workers)
    try:
        for done in pool.imap_unordered(_pool_block, [(matchup, a, b) for a, b in jobs]):
            records += done
            if progress is not None:
                progress(len(done) * n)
    finally:
        pool.terminate()
        pool.join()
    return records


def run_ray(
    matchup: Matchup,
    deals: int,
    address: str | None,
    choice: EngineChoice,
    progress: Progress | None = None,
    num_cpus: int | None = None,
) -> list[DealRecord]:
    """The deals as Ray tasks: on a local Ray instance (``address`` None: started here, with
    ``num_cpus``, and stopped after), on the cluster at ``address``, or on the Ray this process
    has already joined (:func:`sevenstud.sim.cluster.ray_session`)."""
    with ray_session(address, num_cpus) as ray:
        options: dict[str, Any] = {}
        if choice.folder is not None:
            path = os.pathsep.join(p for p in (str(choice.folder), os.environ.get("PYTHONPATH")) if p)
            options["runtime_env"] = {"env_vars": {"PYTHONPATH": path}}
        task = ray.remote(_block).options(**options)
        pending = [task.remote(matchup, a, b) for a, b in blocks(deals, cluster_cpus(ray))]
        records: list[DealRecord] = []
        n = len(matchup.players)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for block in ray.get(done):
                records += block
                if progress is not None:
                    progress(len(block) * n)
        return records


def simulate(
    matchup: Matchup,
    deals: int,
    *,
    workers: int | None = 1,
    ray: bool | str = False,
    engine: str = "auto",
    compiled: str | os.PathLike[str] | None = None,
    progress: Progress | None = None,
) -> SimResult:
    """Play ``deals`` duplicate deals of ``matchup`` and sum them up: in this process
    (``workers=1``), on ``workers`` processes (None: every core), or on Ray (``ray=True``: a
    local instance; a string: a cluster's address, ``"auto"`` the one this machine belongs to).
    The figures are the same whichever way."""
    matchup.check()
    if deals < 2:
        raise SimulationError(f"a match needs at least 2 deals for an interval, not {deals}")
    if workers is not None and workers < 1:
        raise SimulationError(f"the number of worker processes must be at least 1, not {workers}")
    choice = choose_engine(engine, compiled)
    if ray is not False:
        records = run_ray(matchup, deals, ray_address(ray), choice, progress, workers)
    else:
        records = run_local(matchup, deals, workers or os.cpu_count() or 1, choice, progress)
    return summarize(matchup, records)


def progress_bar(total: int, enabled: bool) -> tuple[Progress | None, Callable[[], None]]:
    """A progress bar on stderr over ``total`` hands (tqdm, from the ``sim`` extra), and its
    closer; none when not ``enabled`` or tqdm is missing."""
    if not enabled:
        return None, lambda: None
    try:
        # tqdm is untyped: Any, rather than an ignore that fits one version of it.
        tqdm: Any = importlib.import_module("tqdm").tqdm
    except ImportError:
        return None, lambda: None
    bar = tqdm(total=total, unit="hand", file=sys.stderr, dynamic_ncols=True, smoothing=0.1)

    def tell(hands: int) -> None:
        bar.update(hands)

    return tell, bar.close
