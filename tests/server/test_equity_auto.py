"""The study page's "Auto (exact when quick)" (issue 16, point 6): ``auto`` decides from a cost
model, exact counting's work over the rate measured for its method, never from the size of the
work alone; the README's own example is counted exactly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sevenstud import equity as calculator
from sevenstud.server.study import jobs as study
from sevenstud.server.study.limits import EXACT_RATES, EquityLimits, exact_seconds

README = Path(__file__).resolve().parents[2] / "README.md"


def _order(hands: list[str], limits: EquityLimits | None = None, dead: str = "") -> object:
    jobs = study.Study(limits or EquityLimits())
    try:
        return jobs._order(study.EquityRequest(game="stud8", hands=hands, dead=dead, method="auto"))
    finally:
        jobs.close()


def test_the_readmes_own_example_is_counted_exactly_by_auto() -> None:
    """Rule: the README's example of `sevenstud equity` (exact, 0.4 s there) goes exact."""
    found = re.search(r'`sevenstud equity "([^"]+)" "([^"]+)"` \(exact', README.read_text())
    assert found, "the README's equity example moved"
    order = _order([found.group(1), found.group(2)])
    assert order.exact  # type: ignore[attr-defined]


def test_auto_samples_when_the_estimate_is_past_quick_seconds_though_within_max_outcomes() -> None:
    """Rule: the decision is the estimated time: the same position within ``max_outcomes``
    goes exact or samples as ``quick_seconds`` says."""
    hands = ["As 2s 3s", "Kd Kh Qc"]
    method, work = calculator.exact_work(calculator.position(hands, game="stud8"))
    assert work <= EquityLimits().max_outcomes
    seconds = exact_seconds(method, work)
    assert seconds == pytest.approx(work / EXACT_RATES[method])
    assert _order(hands, EquityLimits(quick_seconds=seconds * 1.01)).exact  # type: ignore[attr-defined]
    assert not _order(hands, EquityLimits(quick_seconds=seconds * 0.99)).exact  # type: ignore[attr-defined]


def test_auto_samples_what_exact_counting_could_not_hold_in_memory() -> None:
    """Rule: heads up past exact counting's memory samples (it would fail, then sample)."""
    hands, dead = ["As 2s 3s", "?? ?? Kd"], "7h 7c"
    method, work = calculator.exact_work(calculator.position(hands, game="stud8", dead=dead))
    assert method == "inclusion-exclusion" and work > calculator.EXACT_MEMORY_LIMIT
    roomy = EquityLimits(max_outcomes=10**12, quick_seconds=10**9)
    assert not _order(hands, roomy, dead).exact  # type: ignore[attr-defined]


def test_a_bad_quick_seconds_is_refused_naming_it() -> None:
    with pytest.raises(ValueError, match="quick_seconds"):
        EquityLimits(quick_seconds=0)
