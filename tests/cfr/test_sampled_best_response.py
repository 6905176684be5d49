"""The sampled best response (issue 37, point 2) checked where the exact one exists: on the reduced
stud game and Kuhn poker it must reach :mod:`sevenstud.cfr.best_response`'s exact value, find
the known exploit of a calling station, and measure on fresh deals what it found."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from sevenstud.cfr.best_response import best_response_value, expected_returns
from sevenstud.cfr.kuhn import KuhnPoker
from sevenstud.cfr.ministud import MiniStud
from sevenstud.cfr.policy import load
from sevenstud.cfr.sampled_best_response import (
    Estimate,
    SampledBestResponse,
    evaluate,
    sampled_exploitability,
)
from sevenstud.cfr.solvers import ExternalSampling
from sevenstud.cfr.stud_game import StudGame


def value_of(
    game: Any, policy: dict[str, list[float]], responder: int, best: dict[str, list[float]]
) -> float:
    """The exact value to ``responder`` of playing ``best`` against ``policy`` (the games here
    name each seat's keys apart: the seat or the cards to act on)."""
    return expected_returns(game, {**policy, **best})[responder]


@pytest.fixture(scope="module")
def ministud_policy() -> dict[str, list[float]]:
    """A partly trained reduced-stud policy: exploitable, but not trivially."""
    solver = ExternalSampling(MiniStud(cap=1), seed=1)
    solver.iterate(300)
    return solver.average_policy()


@pytest.mark.parametrize("responder", [0, 1])
def test_the_sampled_best_response_reaches_the_exact_value(
    ministud_policy: dict[str, list[float]], responder: int
) -> None:
    """Learned over 12,000 deals, every deviation taken (no confidence asked), the pure best
    response gains nine tenths of what the exact best response gains over the policy (1.0 and
    1.2 small bets a hand), and its Monte Carlo evaluation holds the exact value of what it
    plays."""
    game = MiniStud(cap=1)
    exact = best_response_value(game, ministud_policy, responder)
    own = expected_returns(game, ministud_policy)[responder]
    assert exact - own > 0.9  # a policy with much to exploit: the check below means something
    br = SampledBestResponse(game, ministud_policy, responder, seed=7, confidence=0, least_samples=5)
    br.iterate(12000)
    found = value_of(game, ministud_policy, responder, br.best_policy())
    assert found <= exact + 1e-9
    assert found - own >= 0.9 * (exact - own)
    evaluation = evaluate(game, ministud_policy, responder, br.best_actions(), 4000, seed=3)
    assert abs(evaluation.best_response.mean - found) < evaluation.best_response.half_width + 0.01
    assert abs(evaluation.policy.mean - own) < evaluation.policy.half_width + 0.01
    assert evaluation.gain.mean - evaluation.gain.half_width > 0.8


def test_a_cautious_best_response_still_finds_most_of_it(ministud_policy: dict[str, list[float]]) -> None:
    """With the defaults (a deviation only when two standard errors above zero over 30 samples
    or more, what the stud tables are measured with) it gains less at first, but more than
    half of the exact best response's gain, and never less than the policy's own value."""
    game = MiniStud(cap=1)
    exact = best_response_value(game, ministud_policy, 0)
    own = expected_returns(game, ministud_policy)[0]
    br = SampledBestResponse(game, ministud_policy, 0, seed=7)
    br.iterate(12000)
    found = value_of(game, ministud_policy, 0, br.best_policy())
    assert own + 0.5 * (exact - own) <= found <= exact + 1e-9


def kuhn_station() -> dict[str, list[float]]:
    """A calling station at Kuhn poker (actions pass, bet): it never bets, and calls every bet."""
    return {card + history: ([0.0, 1.0] if history.endswith("b") else [1.0, 0.0])
            for card in "JQK" for history in ("", "p", "b", "pb")}  # fmt: skip


@pytest.mark.parametrize("responder", [0, 1])
def test_it_finds_the_known_exploit_of_a_calling_station(responder: int) -> None:
    """Against a station the best response bets its kings for value and never bluffs a jack,
    and is worth what the exact best response is worth (1/3 a hand, both seats)."""
    game = KuhnPoker()
    station = kuhn_station()
    br = SampledBestResponse(game, station, responder, seed=2)
    br.iterate(3000)
    best = br.best_actions()  # where it leaves the policy, which checks everything
    first = "" if responder == 0 else "p"
    assert best["K" + first] == "b"
    assert "J" + first not in best
    exact = best_response_value(game, station, responder)
    assert exact == pytest.approx(1 / 3)
    assert value_of(game, station, responder, br.best_policy()) == pytest.approx(exact)
    lines = br.exploited_lines(3)
    assert lines[0].key == "K" + first and lines[0].best == "b" and lines[0].gain > 0


def test_an_equilibrium_has_nothing_to_exploit() -> None:
    """Against Kuhn's equilibrium the measured gain's interval holds zero: the evaluation does
    not invent an edge."""
    a = 0.2
    equilibrium = {
        "J": [1 - a, a], "Q": [1, 0], "K": [1 - 3 * a, 3 * a],
        "Jpb": [1, 0], "Qpb": [2 / 3 - a, a + 1 / 3], "Kpb": [0, 1],
        "Jb": [1, 0], "Qb": [2 / 3, 1 / 3], "Kb": [0, 1],
        "Jp": [2 / 3, 1 / 3], "Qp": [1, 0], "Kp": [0, 1],
    }  # fmt: skip
    results = sampled_exploitability(KuhnPoker(), equilibrium, iterations=2000, deals=4000, seed=5)
    for result in results:
        gain = result.evaluation.gain
        assert abs(gain.mean) <= gain.half_width


def test_the_shipped_stud_table_is_measured_from_its_seat_view() -> None:
    """The real stud abstraction with the shipped heads-up table: the best response learns at
    the abstraction's keys, the fixed seat plays the table (which knows the keys it meets), and
    the gain's interval is finite."""
    table = load()["tables"]["razz/2"]
    game = StudGame("razz", 2)
    (result,) = sampled_exploitability(
        game, table, iterations=60, deals=60, seed=1, seats=[1], top=3, confidence=0, least_samples=2
    )
    assert result.infosets > 0 and len(result.lines) == 3
    assert all(line.key.split("|")[2] == "1" for line in result.lines)  # heads-up keys
    assert result.evaluation.unknown_share < 0.2
    assert result.evaluation.gain.half_width < 5
    cautious = evaluate(game, table, 1, {}, 30, seed=1)  # nothing learned: the policy itself
    assert cautious.gain.mean == 0 and cautious.best_response == cautious.policy


def test_bad_input_is_refused_clearly() -> None:
    """A seat outside the game, or an evaluation of one deal, is named in the error."""
    with pytest.raises(ValueError, match="seat 0 to 1, not 2"):
        SampledBestResponse(KuhnPoker(), {}, 2)
    with pytest.raises(ValueError, match="at least two deals"):
        evaluate(KuhnPoker(), {}, 0, {}, 1)
    with pytest.raises(ValueError, match="at least one sample"):
        Estimate.of([])


def test_the_benchmark_says_a_key_as_a_stud_player_does() -> None:
    """The benchmark's words for a key: the street, the readings, the board, the betting."""
    path = Path(__file__).parents[2] / "benchmarks" / "exploitability.py"
    spec = importlib.util.spec_from_file_location("exploitability_benchmark", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    said = module.in_words("6|3.2.0|1|2m|kb:fcr", "stud8")
    assert said == (
        "6th street, high reading 3 (bet), low reading 2 (call), not the best board, 2 bets before, "
        "the last by you; this street: check, bet"
    )
    assert "opponent's board: smooth, 6 or better" in module.in_words("3|3.1.1|1|0-|i:fcb", "razz")
    multiway = module.in_words("5|2.0.0|2|4o|1o0a:fcr", "stud8")
    assert multiway.endswith("2 opponents in, 4+ bets before, the last by an opponent; this street: "
                             "1 bet, the last by an opponent, 0 calls since, you have acted")  # fmt: skip
