"""``sevenstud train``: external-sampling MCCFR on every core, resumable from checkpoints.

Training runs in rounds. Each round every worker process takes the tables as they stand,
runs ``batch`` iterations of its own (its own random deals) and sends back what it added; the
parent adds every worker's share (:meth:`Tables.add <sevenstud.cfr.solvers.Tables.add>`),
which is the parallel form of MCCFR's sums, then writes a checkpoint (a pickle, replaced
atomically), so that a run stopped at any moment resumes from its last round. The policy file
(:mod:`sevenstud.cfr.policy`) is written at the end, and after every round with ``--export-every``.

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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from sevenstud.cfr import policy as policy_file
from sevenstud.cfr.arguments import CHECK_GAMES, STUD_GAMES, TRAIN_GAMES
from sevenstud.cfr.best_response import exploitability
from sevenstud.cfr.kuhn import KuhnPoker
from sevenstud.cfr.leduc import LeducPoker
from sevenstud.cfr.ministud import MiniStud
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
    """Processes (0: every core)."""
    batch: int = 200
    """Iterations each worker runs per round."""
    seed: int = 0
    checkpoint: Path | None = None
    out: Path | None = None
    """The policy file to write (its other tables are kept)."""


def make_game(name: str, players: int = 2) -> Any:
    """The training game of a name in :data:`TRAIN_GAMES`."""
    if name in STUD_GAMES:
        return StudGame(name, players)  # type: ignore[arg-type]
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


def _work(job: tuple[str, int, Tables, int, str]) -> Tables:
    """One worker's round: ``batch`` iterations from the tables given; what it added."""
    name, players, tables, batch, seed = job
    before_regrets = {k: list(v) for k, v in tables.regrets.items()}
    before_strategy = {k: list(v) for k, v in tables.strategy.items()}
    solver = ExternalSampling(make_game(name, players), seed=seed, tables=tables)
    solver.iterate(batch)
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


def load_checkpoint(path: Path | None, game: str, players: int) -> Tables:
    """The tables of a checkpoint for this game (fresh ones when there is none)."""
    if path is None or not path.exists():
        return Tables()
    with path.open("rb") as f:
        saved = pickle.load(f)
    if saved.get("game") != game or saved.get("players") != players:
        raise ValueError(
            f"{path} is a checkpoint of {saved.get('game')}/{saved.get('players')}, not {game}/{players}"
        )
    tables = saved["tables"]
    assert isinstance(tables, Tables)
    return tables


def save_checkpoint(path: Path, game: str, players: int, tables: Tables) -> None:
    """Write a checkpoint atomically."""
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("wb") as f:
        pickle.dump({"game": game, "players": players, "tables": tables}, f, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(tmp, path)


def export(out: Path, game: str, players: int, tables: Tables, extra: dict[str, Any] | None = None) -> int:
    """Write the average strategy into the policy file ``out`` (its other tables kept); the
    number of information sets written."""
    data = policy_file.load(out) if out.exists() else policy_file.empty()
    name = table_name(game, players)
    data["tables"][name] = {
        key: policy_file.quantise(p)
        for key, p in sorted(tables.average_policy().items())
        if sum(tables.strategy[key]) > 0
    }
    data["meta"][name] = {"iterations": tables.iterations, **(extra or {})}
    policy_file.save(out, data)
    return len(data["tables"][name])


def train(
    settings: TrainSettings, log: TextIO | None = None, on_round: Callable[[Tables], None] | None = None
) -> Tables:
    """Run ``settings`` (see :class:`TrainSettings`), reporting each round to ``log`` (standard
    error by default); the tables reached."""
    log = sys.stderr if log is None else log
    game = make_game(settings.game, settings.players)
    tables = load_checkpoint(settings.checkpoint, settings.game, settings.players)
    workers = settings.workers or os.cpu_count() or 1
    exact = settings.game in CHECK_GAMES
    started = time.monotonic()
    if tables.iterations:
        print(f"resuming {settings.game}/{settings.players} at {tables.iterations} iterations", file=log)
    pool = multiprocessing.get_context("spawn").Pool(workers) if workers > 1 else None
    try:
        round_no = 0
        while tables.iterations < settings.iterations:
            left = settings.iterations - tables.iterations
            batch = min(settings.batch, -(-left // workers))
            jobs = [
                (settings.game, settings.players, tables, batch, f"{settings.seed}-{tables.iterations}-{w}")
                for w in range(workers)
            ]
            if pool is None:  # one process: the tables themselves, no shares to add
                ExternalSampling(game, seed=jobs[0][4], tables=tables).iterate(batch)
            else:
                for share in pool.map(_work, jobs):
                    tables.add(share)
            round_no += 1
            if settings.checkpoint is not None:
                save_checkpoint(settings.checkpoint, settings.game, settings.players, tables)
            line = (
                f"{settings.game}/{settings.players}: {tables.iterations} iterations, "
                f"{len(tables.regrets)} infosets, {time.monotonic() - started:.0f} s"
            )
            if exact:
                line += f", exploitability {exploitability(game, tables.average_policy()):.4f}"
            print(line, file=log, flush=True)
            if on_round is not None:
                on_round(tables)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    if settings.out is not None:
        n = export(settings.out, settings.game, settings.players, tables)
        print(
            f"wrote {n} information sets of {table_name(settings.game, settings.players)} to {settings.out}",
            file=log,
        )
    return tables


def train_command(args: argparse.Namespace) -> int:
    """Run ``sevenstud train``; the exit status."""
    for name in ("players", "iterations", "batch"):
        if getattr(args, name) < 1:
            raise ValueError(f"--{name} must be at least 1, not {getattr(args, name)}")
    if args.workers < 0:
        raise ValueError(f"--workers cannot be negative ({args.workers})")
    checkpoint = args.checkpoint or args.out.with_name(args.out.name + ".ckpt")
    make_game(args.game, args.players)  # a bad game or seat count is refused before any work
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
        )
    )
    return 0
