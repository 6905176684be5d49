"""``sevenstud simulate`` (issue 17, point 3): duplicate matches whose figures are the same
however they are run, the luck correction that keeps the mean, and bad input refused."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest

from sevenstud.bots.registry import MATCH_KINDS
from sevenstud.cards import parse_cards
from sevenstud.cli import main
from sevenstud.equity import position
from sevenstud.sim import Matchup, SimulationError, simulate
from sevenstud.sim.core import play_deals
from sevenstud.sim.luck import _estimate
from sevenstud.sim.runner import choose_engine

SMALL = Matchup(("tight", "rule", "random"), game="stud8", seed=3)


def test_one_process_and_a_pool_give_the_same_figures() -> None:
    alone = simulate(SMALL, 6, workers=1, engine="pure")
    pooled = simulate(SMALL, 6, workers=2, engine="pure")
    assert alone.to_json() == pooled.to_json()
    assert alone.cumulative == pooled.cumulative
    assert alone.engines == ("pure",)


def test_the_figures_do_not_depend_on_how_the_deals_are_cut() -> None:
    # A worker plays blocks of deals: any cut, any order, the same deals.
    whole = play_deals(SMALL, 0, 5)
    parts = play_deals(SMALL, 3, 5) + play_deals(SMALL, 0, 3)
    assert sorted(parts, key=lambda r: r.deal) == whole


def test_a_local_ray_instance_gives_the_same_figures() -> None:
    ray = pytest.importorskip("ray")
    matchup = Matchup(("tight", "station"), seed=5)
    alone = simulate(matchup, 4, workers=1, engine="pure")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = simulate(matchup, 4, ray=True, engine="pure")
    finally:
        ray.shutdown()
    assert on_ray.to_json() == alone.to_json()


def test_the_compiled_engine_gives_the_pure_engines_figures() -> None:
    choice = choose_engine("auto")
    if choice.folder is None:
        pytest.skip(f"no fresh compiled build: {choice.reason}")
    matchup = Matchup(("rule", "tight"), seed=2)
    pure = simulate(matchup, 4, workers=1, engine="pure")
    compiled = simulate(matchup, 4, workers=1, engine="compiled")
    assert compiled.engines == ("compiled",) and pure.engines == ("pure",)
    assert {**compiled.to_json(), "engines": []} == {**pure.to_json(), "engines": []}


def test_a_stale_or_missing_build_means_the_pure_engine(tmp_path: Path) -> None:
    (tmp_path / "SOURCES.json").write_text('{"sources": {"sevenstud/hand.py": "0"}}')
    assert choose_engine("auto", tmp_path).folder is None
    assert "stale" in choose_engine("auto", tmp_path).reason
    with pytest.raises(SimulationError, match="stale"):
        choose_engine("compiled", tmp_path)
    with pytest.raises(SimulationError, match="no compiled build"):
        choose_engine("compiled", tmp_path / "nothing")


def test_duplicate_deals_cancel_the_cards_between_equal_bots() -> None:
    # Rule (duplicate deals): two calling stations play each deck from both seats, so every deal
    # nets to exactly nothing for each, as dealt, whatever the cards.
    for record in play_deals(Matchup(("station", "station"), seed=1, luck=False), 0, 5):
        assert record.dealt == (0,)


def test_the_results_are_zero_sum_and_in_milli_small_bets() -> None:
    result = simulate(Matchup(("rule", "random"), seed=4, luck=False), 5, workers=1)
    records = play_deals(Matchup(("rule", "random"), seed=4, luck=False), 0, 5)
    first = sum(r.dealt[0] for r in records)
    assert result.players[0].dealt.msb_per_hand == pytest.approx(1000 * first / (5 * 2 * 5))
    assert result.players[0].dealt.msb_per_hand == pytest.approx(-result.players[1].dealt.msb_per_hand)


@pytest.mark.parametrize(
    ("hands", "dead"),
    [
        (["As 2s 3s 4d 9c Tc", "Kd Kh Qc 9d 8c 7d"], []),
        (["As 2s 3s 4d 9c Tc", "Kd Kh Qc 9d 8c 7d"], ["Ah", "Jc", "5d"]),  # a folded seat's cards
    ],
)
def test_a_share_is_the_mean_of_the_shares_after_the_next_deal(hands: list[str], dead: list[str]) -> None:
    # Rule (the luck correction keeps the mean): before a deal, a seat's share is the mean of its
    # share after it over every way the cards can fall, so each luck term averages to zero.
    before = _estimate(position(hands, game="stud8", dead=dead), 1)
    seen = {int(c) for h in hands for c in parse_cards(h)} | {int(c) for c in parse_cards(" ".join(dead))}
    unseen = [c for c in range(52) if c not in seen]
    total = [0.0, 0.0]
    ways = 0
    for a, b in itertools.permutations(unseen, 2):
        after = [[*(int(c) for c in parse_cards(hands[0])), a], [*(int(c) for c in parse_cards(hands[1])), b]]
        shares = _estimate(position(after, game="stud8", dead=dead), 1)
        total = [t + s for t, s in zip(total, shares, strict=True)]
        ways += 1
    assert [t / ways for t in total] == pytest.approx(before, abs=1e-12)


def test_the_luck_correction_narrows_the_interval_and_keeps_the_mean() -> None:
    result = simulate(Matchup(("rule", "random"), seed=7), 40, workers=1)
    rule = result.players[0]
    assert rule.corrected.ci95 < rule.dealt.ci95 * 0.8
    # The same mean within the two intervals together (the correction's terms average zero).
    assert abs(rule.corrected.msb_per_hand - rule.dealt.msb_per_hand) < math.hypot(
        rule.corrected.ci95, rule.dealt.ci95
    )


def test_the_progress_is_told_every_hand() -> None:
    told: list[int] = []
    simulate(Matchup(("tight", "station"), seed=1, luck=False), 7, workers=1, progress=told.append)
    assert sum(told) == 14


@pytest.mark.parametrize(
    ("matchup", "message"),
    [
        (Matchup(("tight", "nobody")), "unknown bot kind 'nobody'"),
        (Matchup(("tight",)), "2 to 8 seats, not 1"),
        (Matchup(("rule",) * 9), "2 to 8 seats, not 9"),
        (Matchup(("rule", "station"), game="holdem"), "unknown game 'holdem'"),
        (Matchup(("lbr", "lbr")), "one bot kind, in one seat"),
    ],
)
def test_a_match_that_cannot_be_played_is_refused_naming_why(matchup: Matchup, message: str) -> None:
    with pytest.raises(SimulationError, match=message):
        simulate(matchup, 4)


def test_the_command_prints_the_results_and_draws_the_chart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    chart = tmp_path / "match.png"
    status = main(["simulate", "tight", "station", "--deals", "3", "--workers", "1", "--chart", str(chart)])
    out = capsys.readouterr()
    assert status == 0, out.err
    assert "tight" in out.out and "mSB/hand" in out.out and out.err == ""  # no bar: not a terminal
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_command_refuses_bad_input_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "tight", "nobody", "--deals", "3"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    kinds = ", ".join([*MATCH_KINDS, "lbr"])
    assert err == [f"sevenstud simulate: unknown bot kind 'nobody': expected one of {kinds}"]
    assert main(["simulate", "tight", "rule", "--deals", "1"]) == 2
    assert "the number of deals must be 2 or more" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["maniac", "lag", "drawstation", "tightequity"])
def test_the_command_plays_the_held_out_opponents_and_the_maniac(
    kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 37: the opponents the learned bot never met are named like any other kind.
    status = main(["simulate", "learned", kind, "--deals", "2", "--workers", "1", "--no-luck"])
    out = capsys.readouterr()
    assert status == 0, out.err
    assert f"{kind}" in out.out and "mSB/hand" in out.out
