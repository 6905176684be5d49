"""The CFR code checked where the truth is known (issue 17, point 2): Kuhn poker's value -1/18,
Leduc hold'em's about -0.0856, exploitability falling toward zero, and a reduced stud game whose
exact exploitability (by a best response) falls as external-sampling MCCFR trains."""

from __future__ import annotations

import pytest

from sevenstud.cards import parse_cards
from sevenstud.cfr.best_response import best_response_value, expected_returns, exploitability
from sevenstud.cfr.kuhn import GAME_VALUE as KUHN_VALUE
from sevenstud.cfr.kuhn import KuhnPoker
from sevenstud.cfr.leduc import GAME_VALUE as LEDUC_VALUE
from sevenstud.cfr.leduc import LeducPoker
from sevenstud.cfr.ministud import MiniStud, three_card_key
from sevenstud.cfr.solvers import CFR, ExternalSampling


def kuhn_equilibrium(alpha: float) -> dict[str, list[float]]:
    """Kuhn's family of equilibria (first player bets a jack with ``alpha``), actions (pass, bet)."""
    a = alpha
    return {
        "J": [1 - a, a], "Q": [1, 0], "K": [1 - 3 * a, 3 * a],
        "Jpb": [1, 0], "Qpb": [2 / 3 - a, a + 1 / 3], "Kpb": [0, 1],
        "Jb": [1, 0], "Qb": [2 / 3, 1 / 3], "Kb": [0, 1],
        "Jp": [2 / 3, 1 / 3], "Qp": [1, 0], "Kp": [0, 1],
    }  # fmt: skip


@pytest.mark.parametrize("alpha", [0.0, 0.2, 1 / 3])
def test_kuhn_known_equilibria_are_unexploitable(alpha: float) -> None:
    """The best response finds nothing against a known equilibrium, and its value is -1/18."""
    policy = kuhn_equilibrium(alpha)
    assert exploitability(KuhnPoker(), policy) == pytest.approx(0, abs=1e-12)
    assert expected_returns(KuhnPoker(), policy)[0] == pytest.approx(KUHN_VALUE)


def test_best_response_punishes_a_mistake() -> None:
    """A first player who always bets a jack loses: the responder calls with queens and kings."""
    policy = kuhn_equilibrium(0.0) | {"J": [0.0, 1.0]}
    assert exploitability(KuhnPoker(), policy) > 0.05
    assert best_response_value(KuhnPoker(), policy, 1) > -KUHN_VALUE + 0.05


def test_uniform_play_exploitability_matches_published() -> None:
    """Uniform play: Kuhn 11/24 and Leduc's NashConv 4.7472 over two (OpenSpiel's figures)."""
    assert exploitability(KuhnPoker(), {}) == pytest.approx(11 / 24)
    assert exploitability(LeducPoker(), {}) == pytest.approx(4.747222 / 2, abs=1e-5)


@pytest.mark.parametrize("variant", ["cfr", "cfr+"])
def test_kuhn_cfr_reaches_the_game_value(variant: str) -> None:
    solver = CFR(KuhnPoker(), variant=variant)  # type: ignore[arg-type]
    solver.iterate(300)
    policy = solver.average_policy()
    assert exploitability(KuhnPoker(), policy) < 0.005
    assert expected_returns(KuhnPoker(), policy)[0] == pytest.approx(KUHN_VALUE, abs=0.004)


def test_kuhn_external_sampling_converges() -> None:
    solver = ExternalSampling(KuhnPoker(), seed=3)
    solver.iterate(300)
    early = exploitability(KuhnPoker(), solver.average_policy())
    solver.iterate(4700)
    late = exploitability(KuhnPoker(), solver.average_policy())
    assert late < early and late < 0.03


def test_leduc_cfr_plus_reaches_the_published_value() -> None:
    game = LeducPoker()
    solver = CFR(game, variant="cfr+")
    solver.iterate(15)
    early = exploitability(game, solver.average_policy())
    solver.iterate(45)
    policy = solver.average_policy()
    late = exploitability(game, policy)
    assert late < early / 4 and late < 0.05
    assert len(policy) == 288  # Leduc's information sets (suits cannot matter)
    assert expected_returns(game, policy)[0] == pytest.approx(LEDUC_VALUE, abs=0.01)


def test_leduc_external_sampling_exploitability_falls() -> None:
    game = LeducPoker()
    solver = ExternalSampling(game, seed=1)
    solver.iterate(200)
    early = exploitability(game, solver.average_policy())
    solver.iterate(1800)
    late = exploitability(game, solver.average_policy())
    assert late < early * 0.6 and late < 0.6


def test_ministud_rules() -> None:
    """The reduced game keeps stud's rules: the lowest door brings in (suits break ties),
    the best board acts first on 4th street, a called bring-in ends 3rd street, zero-sum returns."""
    game = MiniStud()
    qc, qs, kc, ks, ac, as_ = (int(c) for c in parse_cards("Qc Qs Kc Ks Ac As"))
    state = game.child(game.root(), (ac, kc, qs, qc))  # doors: Qs (seat 0), Qc (seat 1)
    assert game.player(state) == 1 and game.actions(state) == ("i", "b")
    state = game.child(game.child(state, "i"), "c")
    assert game.player(state) == -1  # the bring-in called: 4th street is dealt
    state = game.child(state, (as_, ks))  # boards: Qs As and Qc Ks: seat 0 acts first
    assert game.player(state) == 0 and game.actions(state) == ("k", "b")
    end = game.child(game.child(state, "k"), "k")
    assert game.is_terminal(end)
    assert game.returns(end) == (2.0, -2.0)  # aces beat kings: the ante and the bring-in won
    folded = game.child(game.child(game.child(state, "b"), "r"), "f")  # seat 0 folds to a raise
    assert game.returns(folded) == (-6.0, 6.0)  # ante, the bring-in called, the big bet
    assert three_card_key(parse_cards("Ks Kc 2d")) > three_card_key(parse_cards("As Qc Jd"))


def test_ministud_external_sampling_exploitability_falls() -> None:
    """The exact exploitability of the average strategy falls as MCCFR trains."""
    game = MiniStud(cap=1)
    solver = ExternalSampling(game, seed=2)
    solver.iterate(200)
    early = exploitability(game, solver.average_policy())
    solver.iterate(1800)
    late = exploitability(game, solver.average_policy())
    assert early > 0.8 and late < early * 0.6
