"""Training against a population (issue 37): the other seats of an MCCFR traversal played by a
member drawn by weight (self-play, past snapshots, a maniac, a calling station)."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from sevenstud.cfr import policy as policy_file
from sevenstud.cfr.game import CHANCE, Policy
from sevenstud.cfr.leduc import LeducPoker
from sevenstud.cfr.population import Population, PopulationError, maniac_action, station_action
from sevenstud.cfr.solvers import ExternalSampling
from sevenstud.cfr.train import TrainSettings, load_run, train, warm_start
from sevenstud.cli import main


def value_against(game: Any, policy: Policy, fixed: Callable[[Sequence[str]], str]) -> float:
    """The exact mean return of ``policy`` against a player who plays ``fixed``, over both seats."""

    def walk(state: Any, me: int) -> float:
        if game.is_terminal(state):
            return float(game.returns(state)[me])
        actor = game.player(state)
        if actor == CHANCE:
            return sum(p * walk(game.child(state, o), me) for o, p in game.chance_outcomes(state))
        actions = game.actions(state)
        if actor != me:
            return walk(game.child(state, fixed(actions)), me)
        probs = policy.get(game.infoset(state)) or [1 / len(actions)] * len(actions)
        return sum(p * walk(game.child(state, a), me) for a, p in zip(actions, probs, strict=True) if p)

    return (walk(game.root(), 0) + walk(game.root(), 1)) / 2


def trained(population: str, iterations: int = 3000, seed: int = 5) -> dict[str, list[float]]:
    solver = ExternalSampling(LeducPoker(), seed=seed, population=Population.parse(population))
    solver.iterate(iterations)
    return solver.average_policy()


def test_a_maniac_in_the_population_punishes_a_maniac_harder() -> None:
    # Pure self-play reads every raise as strength; with a maniac among its opponents the
    # learner calls it down. Same seed, same iterations, exact values.
    game = LeducPoker()
    alone = value_against(game, trained("self:1"), maniac_action)
    mixed = value_against(game, trained("self:0.6,maniac:0.4"), maniac_action)
    assert mixed > alone + 0.5, (alone, mixed)


def test_a_station_in_the_population_bets_for_value_against_a_station() -> None:
    game = LeducPoker()
    alone = value_against(game, trained("self:1"), station_action)
    mixed = value_against(game, trained("self:0.6,station:0.4"), station_action)
    assert mixed > alone + 0.3, (alone, mixed)


def test_self_play_alone_draws_nothing() -> None:
    # The default population must leave the random stream, and so the tables, as they were.
    a = ExternalSampling(LeducPoker(), seed=3)
    b = ExternalSampling(LeducPoker(), seed=3, population=Population.parse("self:2"))
    a.iterate(200)
    b.iterate(200)
    assert a.tables.regrets == b.tables.regrets and a.tables.strategy == b.tables.strategy


def test_the_members_add_nothing_to_the_average_strategy() -> None:
    # Against a station that never bets, the learner never faces a raise when it is not self:
    # keys reached only by facing a raise are still averaged, but less than in self-play.
    solver = ExternalSampling(LeducPoker(), seed=1, population=Population.parse("self:0.01,station:0.99"))
    solver.iterate(300)
    plain = ExternalSampling(LeducPoker(), seed=1)
    plain.iterate(300)
    assert sum(map(sum, solver.tables.strategy.values())) < sum(map(sum, plain.tables.strategy.values())) / 10


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("self:1,bogus:1", "unknown population member 'bogus'"),
        ("self", "has no weight"),
        ("self:1,maniac:x", "is not a number"),
        ("self:1,maniac:-1", "must be zero or more"),
        ("maniac:1", "needs self"),
        ("self:1,self:1", "given twice"),
    ],
)
def test_a_bad_population_is_refused_clearly(text: str, message: str) -> None:
    with pytest.raises(PopulationError, match=message):
        Population.parse(text)


def test_the_command_refuses_a_bad_population_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(
        ["train", "--game", "leduc", "--population", "self:1,bogus:1", "--out", str(tmp_path / "p.json.gz")]
    )
    err = capsys.readouterr().err
    assert status != 0 and "unknown population member 'bogus'" in err and "Traceback" not in err


def test_past_snapshots_are_kept_and_a_run_resumes_to_the_same_tables(tmp_path: Path) -> None:
    pop = Population.parse("self:0.5,past:0.3,maniac:0.2")
    whole = train(
        TrainSettings("leduc", iterations=300, workers=1, batch=50, seed=2, population=pop, past_every=100),
        log=io.StringIO(),
    )
    ckpt = tmp_path / "t.ckpt"
    train(
        TrainSettings(
            "leduc",
            iterations=150,
            workers=1,
            batch=50,
            seed=2,
            checkpoint=ckpt,
            population=pop,
            past_every=100,
        ),
        log=io.StringIO(),
    )
    assert len(load_run(ckpt, "leduc", 2, population=pop)[1]) == 1
    resumed = train(
        TrainSettings(
            "leduc",
            iterations=300,
            workers=1,
            batch=50,
            seed=2,
            checkpoint=ckpt,
            population=pop,
            past_every=100,
        ),
        log=io.StringIO(),
    )
    assert resumed.regrets == whole.regrets and resumed.strategy == whole.strategy
    assert len(load_run(ckpt, "leduc", 2, population=pop)[1]) == 3
    with pytest.raises(ValueError, match="trained against the population"):
        train(
            TrainSettings("leduc", iterations=400, workers=1, batch=50, seed=2, checkpoint=ckpt),
            log=io.StringIO(),
        )


def test_two_workers_reach_the_same_tables_every_time() -> None:
    pop = Population.parse("self:0.7,past:0.1,maniac:0.1,station:0.1")
    settings = TrainSettings(
        "leduc", iterations=200, workers=2, batch=50, seed=4, population=pop, past_every=50
    )
    first = train(settings, log=io.StringIO())
    again = train(settings, log=io.StringIO())
    assert first.regrets == again.regrets and first.strategy == again.strategy


def test_the_policy_file_names_its_population(tmp_path: Path) -> None:
    out = tmp_path / "p.json.gz"
    pop = Population.parse("self:3,maniac:1")
    train(
        TrainSettings("leduc", iterations=50, workers=1, batch=50, seed=1, out=out, population=pop),
        log=io.StringIO(),
    )
    assert policy_file.load(out)["meta"]["leduc/2"]["population"] == "self:0.75,maniac:0.25"


def test_a_warm_start_plays_the_table_it_starts_from() -> None:
    policy = {
        "tables": {"stud/2": {"k1": [250, 750], "k2": [0, 1000, 0]}},
        "meta": {"stud/2": {"iterations": 900}},
    }
    solver = ExternalSampling(LeducPoker())
    warm_start(solver.tables, policy, "stud/2")
    assert solver.tables.iterations == 900
    assert solver.average_policy() == {"k1": [0.25, 0.75], "k2": [0.0, 1.0, 0.0]}
    from sevenstud.cfr.solvers import regret_matching

    assert regret_matching(solver.tables.regrets["k1"]) == [0.25, 0.75]
    assert regret_matching(solver.tables.regrets["k2"]) == [0.0, 1.0, 0.0]
    with pytest.raises(ValueError, match="no table razz/2"):
        warm_start(solver.tables, policy, "razz/2")
