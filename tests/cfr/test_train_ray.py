"""``sevenstud train --ray`` (issue 17, point 2): a round's workers as Ray tasks reach the very
tables a pool reaches with the same seed and workers, and a run stopped and resumed on Ray the
tables of a straight run. One local Ray instance of two CPUs serves the module (starting one
takes seconds), the games are Kuhn poker's few rounds."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sevenstud.cfr.population import Population
from sevenstud.cfr.solvers import Tables
from sevenstud.cfr.train import TrainSettings, load_checkpoint, train
from sevenstud.cli import build_parser, main

KUHN = TrainSettings("kuhn", iterations=600, workers=2, batch=100, seed=3)
"""Three rounds of two workers."""


@pytest.fixture(scope="module")
def ray() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def run(settings: TrainSettings, **changes: Any) -> tuple[Tables, str]:
    """The tables a run reaches, and its log."""
    log = io.StringIO()
    tables = train(TrainSettings(**{**_fields(settings), **changes}), log=log)
    return tables, log.getvalue()


def _fields(settings: TrainSettings) -> dict[str, Any]:
    return {name: getattr(settings, name) for name in TrainSettings.__dataclass_fields__}


def test_the_option_is_parsed_as_simulate_s() -> None:
    parser = build_parser()
    assert parser.parse_args(["train"]).ray is False
    assert parser.parse_args(["train", "--ray"]).ray is True
    assert parser.parse_args(["train", "--ray", "10.0.0.7:6379"]).ray == "10.0.0.7:6379"
    assert parser.parse_args(["train", "--ray", "auto", "--workers", "4"]).ray == "auto"
    assert parser.parse_args(["simulate", "tight", "rule", "--ray", "auto"]).ray == "auto"


def test_ray_reaches_the_pool_s_tables(ray: Any) -> None:
    pooled, _ = run(KUHN)
    on_ray, log = run(KUHN, ray=True)
    assert "2 workers" in log and "Ray ready" in log
    assert on_ray.iterations == pooled.iterations == 600
    assert on_ray == pooled  # every regret and weight to the last bit
    # The comparison can tell runs apart: another seed, or other workers, other tables.
    assert run(KUHN, seed=4)[0] != pooled
    assert run(KUHN, workers=3)[0] != pooled


def test_ray_without_workers_runs_one_a_cpu_of_the_cluster(ray: Any) -> None:
    on_ray, log = run(KUHN, workers=0, ray=True)
    assert "Ray ready" in log and "2 CPUs, 2 workers" in log
    assert on_ray == run(KUHN)[0]


def test_one_ray_worker_reaches_the_tables_of_one_process(ray: Any) -> None:
    alone = TrainSettings("kuhn", iterations=300, workers=1, batch=100, seed=5)
    assert run(alone, ray=True)[0] == run(alone)[0]


def test_a_ray_run_stopped_and_resumed_equals_a_straight_run(ray: Any, tmp_path: Path) -> None:
    straight, _ = run(KUHN, ray=True)
    checkpoint = tmp_path / "kuhn.ckpt"
    rounds = []

    def stop_after_two(tables: Tables) -> None:
        rounds.append(tables.iterations)
        if len(rounds) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train(
            TrainSettings(**{**_fields(KUHN), "checkpoint": checkpoint, "ray": True}),
            io.StringIO(),
            stop_after_two,
        )
    assert rounds == [200, 400]
    resumed, log = run(KUHN, checkpoint=checkpoint, ray=True)
    assert "resuming kuhn/2 at 400 iterations" in log
    assert resumed == straight


def test_the_command_trains_on_ray(ray: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "p.json.gz"
    args = ["train", "--game", "kuhn", "--batch", "100", "--seed", "3", "--iterations", "600"]
    assert main([*args, "--ray", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "Ray ready" in err and "kuhn/2: 600 iterations" in err
    assert main([*args, "--workers", "2", "--out", str(tmp_path / "q.json.gz")]) == 0
    assert out.read_bytes() and (tmp_path / "q.json.gz").exists()
    assert load_checkpoint(tmp_path / "p.json.gz.ckpt", "kuhn", 2) == load_checkpoint(
        tmp_path / "q.json.gz.ckpt", "kuhn", 2
    )


def test_ray_reaches_the_pool_s_tables_against_a_population(ray: Any) -> None:
    # The members are drawn from each worker's seeded stream and the snapshots taken between
    # rounds: Ray and the pool must still agree to the last bit, and differ from self-play.
    population = Population.parse("self:0.6,past:0.2,maniac:0.1,station:0.1")
    pooled, _ = run(KUHN, population=population, past_every=200)
    on_ray, _ = run(KUHN, population=population, past_every=200, ray=True)
    assert on_ray == pooled
    assert pooled != run(KUHN)[0]


def test_ray_reaches_the_pool_s_tables_against_the_bots(ray: Any) -> None:
    # The rule, tight and equity bots are seeded from each worker's seed and asked in the walk's
    # order (the equity bot's numpy draws from its own stream): Ray and the pool agree.
    population = Population.parse("self:0.6,rule:0.1,tight:0.1,equity:0.1,maniac:0.1")
    stud = TrainSettings("stud8", iterations=8, workers=2, batch=2, seed=3, population=population)
    pooled, _ = run(stud)
    on_ray, _ = run(stud, ray=True)
    assert on_ray == pooled
    assert pooled != run(stud, population=Population.parse("self:0.6,maniac:0.4"))[0]
