"""``sevenstud train``: external-sampling MCCFR on every core or a Ray cluster, resumable
from checkpoints.

Training runs in rounds. Each round every worker (a process of a pool, or a Ray task with
``--ray``) takes the tables as they stand, runs ``batch`` iterations of its own (its own random
deals, seeded by the seed, the iterations done and the worker's number) and sends back what it
added; the parent adds the workers' shares in worker order (:meth:`Tables.add
<sevenstud.cfr.solvers.Tables.add>`), which is the parallel form of MCCFR's sums, then writes a
checkpoint (a pickle, replaced atomically), so that a run stopped at any moment resumes from its
last round. A round thus depends on the tables, the seed and the number of workers alone: a pool,
Ray and a resumed run reach the same tables to the last bit. The policy file
(:mod:`sevenstud.cfr.policy`) is written at the end.

Games: ``stud8``, ``stud``, ``razz`` (the abstraction of :mod:`sevenstud.cfr.stud_game`,
``--players`` seats), or the checks ``kuhn``, ``leduc`` and ``ministud``, for which each
round also prints the exact exploitability.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import pickle
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from sevenstud.bots.learned import shipped_policy
from sevenstud.cfr import policy as policy_file
from sevenstud.cfr.abstraction import opponents_of
from sevenstud.cfr.arguments import CHECK_GAMES, STUD_GAMES, TRAIN_GAMES
from sevenstud.cfr.best_response import exploitability
from sevenstud.cfr.kuhn import KuhnPoker
from sevenstud.cfr.leduc import LeducPoker
from sevenstud.cfr.ministud import MiniStud
from sevenstud.cfr.population import PAST_EVERY, PAST_KEEP, SELF_PLAY, Population
from sevenstud.cfr.solvers import ExternalSampling, Tables
from sevenstud.cfr.stud_game import StudGame


@dataclass(frozen=True, slots=True)
class TrainSettings:
    """What one ``sevenstud train`` run does."""

    game: str
    players: int = 2
    iterations: int = 1000
    """The total to reach (a resumed run counts the iterations already done)."""
    workers: int = 0
    """Workers (0: every core, or with ``ray`` the cluster's CPUs)."""
    batch: int = 200
    """Iterations each worker runs per round."""
    seed: int = 0
    checkpoint: Path | None = None
    out: Path | None = None
    """The policy file to write (its other tables are kept)."""
    ray: bool | str = False
    """Run the workers as Ray tasks: True on a local instance started for the run, a string on
    the cluster at that address (``"auto"``: the one this machine belongs to)."""
    least_visits: int = 0
    """Write only the information sets self-play reached about this many times or more (0:
    every one): see :func:`export`."""
    learn_ends: bool = False
    """A multiway table learns the heads-up ends of its hands too, and keeps their keys (the
    learned bot then plays them by it), instead of their being played by the shipped heads-up
    table: see :func:`make_game`."""
    population: Population = SELF_PLAY
    """Who plays the other seats of each traversal (:mod:`sevenstud.cfr.population`)."""
    past_every: int = PAST_EVERY
    """With ``past`` in the population, a snapshot of the average strategy is kept every this
    many iterations (the latest :data:`~sevenstud.cfr.population.PAST_KEEP`)."""
    start_from: str | None = None
    """A new run's current strategy begins at this policy file's table of the same name
    (``"shipped"``: the package's), and its iterations go on from that table's: see
    :func:`warm_start`."""


START_VISITS = 50
"""How many visits' worth of regret a warm start gives the table it starts from (see
:func:`warm_start`)."""


def warm_start(tables: Tables, policy: dict[str, Any], name: str) -> None:
    """Begin fresh ``tables`` at ``policy``'s table ``name``: its iterations are taken as done,
    and each key's regrets are its weights scaled so that regret matching plays them, worth
    :data:`START_VISITS` visits that each found one small bet of regret at the last iteration's
    linear weight. The average strategy starts at the table's weights worth one such visit:
    a key the new run reaches is soon its new play, one it never reaches keeps the old. (A
    policy file keeps the average strategy, rounded, not the regrets nor how often each key
    was reached, so this is a start near the old play, not its continuation: a key the new
    run visits often soon follows its own regrets, one it rarely visits keeps the old play
    longer.)"""
    if name not in policy["tables"]:
        raise ValueError(f"the policy to start from has no table {name}")
    done = int(policy.get("meta", {}).get(name, {}).get("iterations", 0))
    tables.iterations = done
    scale = START_VISITS * max(done, 1) / 1000  # the weights are thousandths
    table = policy["tables"][name]
    tables.regrets = {key: [w * scale for w in weights] for key, weights in table.items()}
    tables.strategy = {key: [w * max(done, 1) / 1000 for w in weights] for key, weights in table.items()}


Snapshot = dict[str, list[float]]
"""A past version of the tables: the average strategy at some iteration."""

Job = tuple[str, int, Tables, int, str, bool, str, list[Snapshot]]
"""A worker's round: the game, its players, the tables, the iterations to run, the seed, whether
a multiway table learns its heads-up ends, the population (:meth:`Population.text
<sevenstud.cfr.population.Population.text>`) and the past snapshots."""
RunRound = Callable[[list[Job]], list[Tables]]
"""Runs a round's jobs; the results in the jobs' order."""


def make_game(name: str, players: int = 2, learn_ends: bool = False) -> Any:
    """The training game of a name in :data:`TRAIN_GAMES`. A stud game for three or more
    players has its heads-up ends played by the shipped heads-up table (as the learned bot
    plays them in Stud Hi/Lo: :class:`~sevenstud.cfr.stud_game.StudGame`), or with
    ``learn_ends`` learns them as it learns its multiway streets (the learned bot then plays
    them by it, as in Stud: :meth:`~sevenstud.bots.learned.LearnedBot.lookup`)."""
    if name in STUD_GAMES:
        heads_up = (
            shipped_policy()["tables"].get(table_name(name, 2)) if players > 2 and not learn_ends else None
        )
        return StudGame(name, players, heads_up)  # type: ignore[arg-type]
    if players != 2:
        raise ValueError(f"{name} is a two-player game, not for {players}")
    if name == "kuhn":
        return KuhnPoker()
    if name == "leduc":
        return LeducPoker()
    if name == "ministud":
        return MiniStud(cap=1)
    raise ValueError(f"unknown game {name!r}: expected one of {', '.join(TRAIN_GAMES)}")


def table_name(game: str, players: int) -> str:
    """A policy table's name: ``"stud8/2"``."""
    return f"{game}/{players}"


def _solver(
    name: str,
    players: int,
    tables: Tables,
    seed: str,
    learn_ends: bool,
    population: str,
    past: list[Snapshot],
) -> ExternalSampling:
    return ExternalSampling(
        make_game(name, players, learn_ends),
        seed=seed,
        tables=tables,
        population=Population.parse(population),
        past=past,
    )


def _work(
    name: str,
    players: int,
    tables: Tables,
    batch: int,
    seed: str,
    learn_ends: bool,
    population: str = "self:1",
    past: list[Snapshot] | None = None,
) -> Tables:
    """One worker's round: ``batch`` iterations from the tables given; what it added."""
    before_regrets = {k: list(v) for k, v in tables.regrets.items()}
    before_strategy = {k: list(v) for k, v in tables.strategy.items()}
    _solver(name, players, tables, seed, learn_ends, population, past or []).iterate(batch)
    delta = Tables(iterations=batch)
    for mine, old, new in (
        (delta.regrets, before_regrets, tables.regrets),
        (delta.strategy, before_strategy, tables.strategy),
    ):
        for key, row in new.items():
            was = old.get(key)
            diff = list(row) if was is None else [a - b for a, b in zip(row, was, strict=True)]
            if any(diff):
                mine[key] = diff
    return delta


def _work_alone(
    name: str,
    players: int,
    tables: Tables,
    batch: int,
    seed: str,
    learn_ends: bool,
    population: str = "self:1",
    past: list[Snapshot] | None = None,
) -> Tables:
    """A lone worker's round: the tables themselves, trained. (Its share subtracted and added
    back would round differently from tables trained in place, as one process trains them.)"""
    _solver(name, players, tables, seed, learn_ends, population, past or []).iterate(batch)
    return tables


@contextmanager
def _pool(workers: int) -> Iterator[RunRound]:
    """A round's jobs on ``workers`` processes (one: in this process, on the tables themselves)."""
    if workers == 1:
        yield lambda jobs: [_work_alone(*jobs[0])]
        return
    pool = multiprocessing.get_context("spawn").Pool(workers)
    try:
        yield lambda jobs: pool.starmap(_work, jobs)
    finally:
        pool.close()
        pool.join()


@contextmanager
def _ray(option: bool | str, workers: int, log: TextIO) -> Iterator[tuple[int, RunRound]]:
    """A round's jobs as Ray tasks (:mod:`sevenstud.sim.cluster`: a local instance, or a
    cluster joined), and the number of workers (0 asked: the cluster's CPUs)."""
    from sevenstud.sim.cluster import cluster_cpus, ray_address, ray_session

    begun = time.monotonic()
    with ray_session(ray_address(option), workers or None) as ray:
        workers = workers or cluster_cpus(ray)
        print(
            f"Ray ready in {time.monotonic() - begun:.1f} s: {cluster_cpus(ray)} CPUs, {workers} workers",
            file=log,
            flush=True,
        )
        task = ray.remote(_work_alone if workers == 1 else _work)

        def run(jobs: list[Job]) -> list[Tables]:
            # The tables go into the object store once a round, not once a task; ray.get keeps
            # the tasks' order, so the shares are added in worker order.
            tables = ray.put(jobs[0][2])
            return list(
                ray.get([task.remote(n, p, tables, b, s, e, m, x) for n, p, _, b, s, e, m, x in jobs])
            )

        yield workers, run


def load_checkpoint(path: Path | None, game: str, players: int, learn_ends: bool = False) -> Tables:
    """The tables of a checkpoint for this game (fresh ones when there is none); refused when
    it was trained otherwise (another game or seats, heads-up ends learned or not)."""
    return load_run(path, game, players, learn_ends)[0]


def load_run(
    path: Path | None, game: str, players: int, learn_ends: bool = False, population: Population = SELF_PLAY
) -> tuple[Tables, list[Snapshot]]:
    """The tables and past snapshots of a checkpoint for this game (fresh ones when there is
    none); refused when it was trained otherwise (another game or seats, heads-up ends learned
    or not, another population)."""
    if path is None or not path.exists():
        return Tables(), []
    with path.open("rb") as f:
        saved = pickle.load(f)
    if saved.get("game") != game or saved.get("players") != players:
        raise ValueError(
            f"{path} is a checkpoint of {saved.get('game')}/{saved.get('players')}, not {game}/{players}"
        )
    if saved.get("learn_ends", False) != learn_ends:
        learned = "learned" if saved.get("learn_ends") else "played by the heads-up table"
        raise ValueError(f"{path} is a checkpoint with its heads-up ends {learned}: resume it the same way")
    was = saved.get("population", SELF_PLAY.text())
    if was != population.text():
        raise ValueError(
            f"{path} is a checkpoint trained against the population {was}: resume it the same way"
        )
    tables = saved["tables"]
    assert isinstance(tables, Tables)
    return tables, list(saved.get("past", []))


def save_checkpoint(
    path: Path,
    game: str,
    players: int,
    tables: Tables,
    learn_ends: bool = False,
    population: Population = SELF_PLAY,
    past: list[Snapshot] | None = None,
) -> None:
    """Write a checkpoint atomically."""
    tmp = path.with_name(path.name + ".tmp")
    saved = {
        "game": game,
        "players": players,
        "tables": tables,
        "learn_ends": learn_ends,
        "population": population.text(),
        "past": past or [],
    }
    with tmp.open("wb") as f:
        pickle.dump(saved, f, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(tmp, path)


def visits(tables: Tables, key: str) -> float:
    """About how many times self-play reached ``key``: linear averaging weighs a visit at
    iteration t by t, so visits spread evenly over T iterations weigh about T/2 each."""
    return 2 * sum(tables.strategy.get(key, ())) / max(tables.iterations, 1)


def export(
    out: Path,
    game: str,
    players: int,
    tables: Tables,
    extra: dict[str, Any] | None = None,
    least_visits: int = 0,
    learn_ends: bool = False,
) -> int:
    """Write the average strategy into the policy file ``out`` (its other tables kept); the
    number of information sets written. With ``least_visits`` an information set self-play
    reached less often (:func:`visits`) is left out: its average is mostly the noise of a few
    samples, and the learned bot plays its game's fallback bot where its table is silent."""
    data = policy_file.load(out) if out.exists() else policy_file.empty()
    name = table_name(game, players)
    # A multiway table keeps its multiway keys alone, unless it learned its heads-up ends: the
    # bot plays those by the heads-up table or its fallback (keys the heads-up table lacked
    # were learned here, but only as the multiway streets' continuation).
    data["tables"][name] = {
        key: policy_file.quantise(p)
        for key, p in sorted(tables.average_policy().items())
        if sum(tables.strategy[key]) > 0
        and (players == 2 or learn_ends or opponents_of(key) >= 2)
        and (not least_visits or visits(tables, key) >= least_visits)
    }
    meta = {"iterations": tables.iterations, "least_visits": least_visits, **(extra or {})}
    if players > 2 and learn_ends:
        meta["heads_up_ends"] = "learned"  # the learned bot plays them by this table
    data["meta"][name] = meta
    policy_file.save(out, data)
    return len(data["tables"][name])


@contextmanager
def _workers(settings: TrainSettings, log: TextIO) -> Iterator[tuple[int, RunRound]]:
    """The number of workers and how a round's jobs run: on Ray with ``settings.ray``, else on
    a pool of processes (every core when ``settings.workers`` is 0)."""
    if settings.ray is not False:
        with _ray(settings.ray, settings.workers, log) as ray_workers:
            yield ray_workers
        return
    workers = settings.workers or os.cpu_count() or 1
    with _pool(workers) as run:
        yield workers, run


def train(
    settings: TrainSettings, log: TextIO | None = None, on_round: Callable[[Tables], None] | None = None
) -> Tables:
    """Run ``settings`` (see :class:`TrainSettings`), reporting each round to ``log`` (standard
    error by default); the tables reached."""
    log = sys.stderr if log is None else log
    game = make_game(settings.game, settings.players, settings.learn_ends)
    tables, past = load_run(
        settings.checkpoint, settings.game, settings.players, settings.learn_ends, settings.population
    )
    keeps_past = any(name == "past" for name, _ in settings.population.members)

    exact = settings.game in CHECK_GAMES
    if tables.iterations:
        print(f"resuming {settings.game}/{settings.players} at {tables.iterations} iterations", file=log)
    elif settings.start_from is not None:
        source = (
            shipped_policy() if settings.start_from == "shipped" else policy_file.load(settings.start_from)
        )
        warm_start(tables, source, table_name(settings.game, settings.players))
        print(f"starting from {settings.start_from}'s table at {tables.iterations} iterations", file=log)
    with _workers(settings, log) as (workers, run_round):
        started, first = time.monotonic(), tables.iterations
        checking = 0.0  # the seconds of the exact exploitability, a check, not training
        while tables.iterations < settings.iterations:
            left = settings.iterations - tables.iterations
            batch = min(settings.batch, -(-left // workers))
            jobs = [
                (
                    settings.game,
                    settings.players,
                    tables,
                    batch,
                    f"{settings.seed}-{tables.iterations}-{w}",
                    settings.learn_ends,
                    settings.population.text(),
                    past,
                )
                for w in range(workers)
            ]
            before = tables.iterations
            results = run_round(jobs)
            if workers == 1:  # the tables trained whole (in this process: these very tables)
                tables = results[0]
            else:
                for share in results:
                    tables.add(share)
            if keeps_past and tables.iterations // settings.past_every > before // settings.past_every:
                # Between rounds, so that every worker of a round plays the same snapshots.
                past = [*past, tables.average_policy()][-PAST_KEEP:]
            if settings.checkpoint is not None:
                save_checkpoint(
                    settings.checkpoint,
                    settings.game,
                    settings.players,
                    tables,
                    settings.learn_ends,
                    settings.population,
                    past,
                )
            seconds = time.monotonic() - started
            line = (
                f"{settings.game}/{settings.players}: {tables.iterations} iterations, "
                f"{len(tables.regrets)} infosets, {seconds:.0f} s "
                f"({(tables.iterations - first) / max(seconds - checking, 1e-9):.1f} iterations/s)"
            )
            if exact:
                begun = time.monotonic()
                line += f", exploitability {exploitability(game, tables.average_policy()):.4f}"
                checking += time.monotonic() - begun
            print(line, file=log, flush=True)
            if on_round is not None:
                on_round(tables)
    if settings.out is not None:
        n = export(
            settings.out,
            settings.game,
            settings.players,
            tables,
            extra=None if settings.population.self_play else {"population": settings.population.text()},
            least_visits=settings.least_visits,
            learn_ends=settings.learn_ends,
        )
        print(
            f"wrote {n} information sets of {table_name(settings.game, settings.players)} to {settings.out}",
            file=log,
        )
    return tables


def train_command(args: argparse.Namespace) -> int:
    """Run ``sevenstud train``; the exit status."""
    for name in ("players", "iterations", "batch", "past_every"):
        if getattr(args, name) < 1:
            raise ValueError(f"--{name.replace('_', '-')} must be at least 1, not {getattr(args, name)}")
    for name in ("workers", "least_visits"):
        if getattr(args, name) < 0:
            raise ValueError(f"--{name.replace('_', '-')} cannot be negative ({getattr(args, name)})")
    if args.learn_heads_up_ends and args.players < 3:
        raise ValueError(
            f"--learn-heads-up-ends is for a multiway table (--players 3 or more), not {args.players}"
        )
    checkpoint = args.checkpoint or args.out.with_name(args.out.name + ".ckpt")
    make_game(args.game, args.players)  # a bad game or seat count is refused before any work
    population = Population.parse(args.population)
    population.check_game(args.game)  # the bots play the real games alone
    train(
        TrainSettings(
            args.game,
            args.players,
            args.iterations,
            args.workers,
            args.batch,
            args.seed,
            checkpoint,
            args.out,
            args.ray,
            args.least_visits,
            args.learn_heads_up_ends,
            population,
            args.past_every,
            args.start_from,
        )
    )
    return 0
