"""Training against a population (issue 37): the other seats of an MCCFR traversal played by a
member drawn by weight (self-play, past snapshots, a maniac, a calling station, the rule, tight
and equity bots)."""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from sevenstud.bots.base import Bot
from sevenstud.bots.match import play_hand
from sevenstud.bots.simple import RandomBot
from sevenstud.cards import CARDS, Card
from sevenstud.cfr import policy as policy_file
from sevenstud.cfr.abstraction import TOKENS
from sevenstud.cfr.bot_members import STACK, STAKES, BotMembers, member_bot
from sevenstud.cfr.game import CHANCE, Policy
from sevenstud.cfr.leduc import LeducPoker
from sevenstud.cfr.population import (
    BOT_MEMBERS,
    Population,
    PopulationError,
    maniac_action,
    station_action,
)
from sevenstud.cfr.solvers import ExternalSampling
from sevenstud.cfr.stud_game import StudGame
from sevenstud.cfr.train import TrainSettings, load_run, train, warm_start
from sevenstud.cli import main
from sevenstud.deck import Deck
from sevenstud.games import GAMES
from sevenstud.hand import Action, Hand, SeatView


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
        ("self:1,rules:0.1", "unknown population member 'rules': expected one of self, past, maniac,"),
        ("self:1,equity:x", "population weight 'x' of equity is not a number"),
        ("self:1,tight:-0.1", "population weight of tight must be zero or more"),
        ("rule:1,tight:1", "needs self"),
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


# ---------------------------------------------------------------------- the bots as members

Decision = tuple[int, str, str, SeatView, str]
"""A betting decision of an engine hand: the seat, its kind, the bot's seed, the view, the letter."""


class Noting:
    """Plays a seat of an engine hand as the member ``kind`` would (its bot made fresh at each
    decision with a seed of its own, so that the decision can be asked again alone), or as a
    random bot for ``random``; notes every betting decision in ``log``."""

    def __init__(self, kind: str, tag: str, log: list[Decision]) -> None:
        self.kind, self.tag, self.log, self.name = kind, tag, log, kind
        self.random = RandomBot(seed=tag)

    def act(self, view: SeatView) -> Action:
        assert view.seat is not None
        seed = f"{self.tag}-{len(self.log)}"
        action = (self.random if self.kind == "random" else member_bot(self.kind, seed)).act(view)
        if action.kind in TOKENS:
            self.log.append((view.seat, self.kind, seed, view, TOKENS[action.kind]))
        return action


def abstract_deal(hand: Hand) -> list[Card]:
    """The training game's deal of an engine hand's cards: each seat's seven in the deal's
    order (those never dealt taken from the rest of the deck: no decision sees them)."""
    used = {c for row in hand.cards for c in row}
    spare = iter(c for c in CARDS if c not in used)
    rows = [list(row) + [next(spare) for _ in range(7 - len(row))] for row in hand.cards]
    return [rows[s][k] for k in range(7) for s in range(hand.n)]


@pytest.mark.parametrize("code", list(GAMES))
@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_bot_member_plays_as_the_bot_plays_at_the_table(code: str, players: int) -> None:
    """Hands played in the engine (bots/match.py's play_hand) by the bots and, in some seats, a
    random bot for folds and raises, replayed in the training game: at every decision of a bot
    its member rebuilds the very view the bot was given, and plays the letter the bot played."""
    rng = random.Random(f"members-{code}-{players}")
    asked = {kind: 0 for kind in BOT_MEMBERS}
    after_a_fold = 0
    for deal in range(5):
        log: list[Decision] = []
        kinds = [rng.choice([*BOT_MEMBERS, "random"]) for _ in range(players)]
        hand = Hand(GAMES[code](STAKES), [STACK] * players, Deck.seeded(f"members-{code}-{players}-{deal}"))
        play_hand(hand, [Noting(kind, f"{deal}-{seat}", log) for seat, kind in enumerate(kinds)])
        game = StudGame(code, players)  # type: ignore[arg-type]
        state = game.child(game.root(), abstract_deal(hand))
        for seat, kind, seed, view, token in log:
            assert game.player(state) == seat
            if kind != "random":

                def make(member: str, _: str, seed: str = seed) -> Bot:
                    return member_bot(member, seed)

                members = BotMembers(game, Population.parse(f"self:1,{kind}:1"), make=make)
                assert members.hand(state).view(seat) == view
                assert members.letter(kind, state) == token
                asked[kind] += 1
                after_a_fold += any(a[2] == "f" for a in state.actions) and state.street > 3
            state = game.child(state, token)
        assert game.is_terminal(state)
    assert min(asked.values()) > 0, asked
    if players > 2:
        assert after_a_fold, "no decision dealt to after a fold: the dealing order is not tested"


def test_the_members_rebuilt_hands_are_kept_for_the_deal_and_played_on() -> None:
    """A walk's later states clone the nearest hand kept (not across a fold), and equal a hand
    rebuilt whole."""
    game = StudGame("stud8", 3)
    members = BotMembers(game, Population.parse("self:1,rule:1"), seed=1)
    state = game.child(game.root(), game.sample_chance(game.root(), random.Random(8)))
    for letter in ("i", "c", "f", "c", "k", "b", "c", "k"):
        if game.is_terminal(state):
            break
        kept = members.hand(state)
        fresh = BotMembers(game, Population.parse("self:1,rule:1")).hand(state)
        assert kept.view(state.actor) == fresh.view(state.actor)
        assert kept.events == fresh.events
        state = game.child(state, letter if letter in game.actions(state) else game.actions(state)[0])


@pytest.mark.parametrize(
    "text", ["self:0.6,rule:0.1,tight:0.1,equity:0.1,maniac:0.1", "self:1,equity:1", "self:3,rule:1"]
)
def test_training_with_the_bots_is_reproducible(text: str) -> None:
    population = Population.parse(text)
    runs = []
    for _ in range(2):
        solver = ExternalSampling(StudGame("stud8"), seed=6, population=population)
        solver.iterate(6)
        runs.append(solver.tables)
    assert runs[0] == runs[1]
    # The comparison can tell runs apart: without the bots, other tables.
    plain = ExternalSampling(StudGame("stud8"), seed=6)
    plain.iterate(6)
    assert plain.tables != runs[0]


def test_two_workers_with_the_bots_reach_the_same_tables_every_time() -> None:
    pop = Population.parse("self:0.6,rule:0.1,tight:0.1,equity:0.1,maniac:0.1")
    settings = TrainSettings("stud8", iterations=8, workers=2, batch=2, seed=4, population=pop)
    first = train(settings, log=io.StringIO())
    assert first.iterations == 8
    assert train(settings, log=io.StringIO()) == first


def test_the_bots_play_only_the_real_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(PopulationError, match="member 'tight' plays only the real games"):
        ExternalSampling(LeducPoker(), population=Population.parse("self:1,tight:1"))
    status = main(
        ["train", "--game", "kuhn", "--population", "self:1,equity:1", "--out", str(tmp_path / "p")]
    )
    err = capsys.readouterr().err
    assert status != 0 and "member 'equity' plays only the real games" in err and "Traceback" not in err
