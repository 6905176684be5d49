"""The PettingZoo environment: PettingZoo's own API, seed and performance tests on all three
games, and no observation holding a card its seat may not see (issue 17, point 4)."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
pettingzoo_test = pytest.importorskip("pettingzoo.test", reason="the rl extra (pettingzoo) is not installed")

from sevenstud.actions import IllegalAction  # noqa: E402
from sevenstud.rl.aec import env, raw_env  # noqa: E402
from sevenstud.rl.encoding import Layout, decode_cards  # noqa: E402


@pytest.mark.parametrize("game", ["stud8", "stud", "razz"])
@pytest.mark.parametrize("players", [2, 5, 8])
def test_pettingzoos_api_test_passes(game: str, players: int) -> None:
    pettingzoo_test.api_test(raw_env(game=game, players=players), num_cycles=300)


def test_the_wrapped_env_passes_the_api_test_too() -> None:
    pettingzoo_test.api_test(env(game="stud8", players=3), num_cycles=300)


@pytest.mark.parametrize("game", ["stud8", "razz"])
def test_the_env_on_the_engines_hand_passes_the_api_test_too(game: str) -> None:
    """``lean=False`` (and every table where a seat could be all-in) plays on ``Hand``."""
    pettingzoo_test.api_test(raw_env(game=game, players=3, lean=False), num_cycles=300)
    pettingzoo_test.api_test(raw_env(game=game, players=3, stack=40), num_cycles=300)


@pytest.mark.parametrize("game", ["stud8", "razz"])
def test_pettingzoos_seed_test_passes(game: str) -> None:
    pettingzoo_test.seed_test(lambda **_: raw_env(game=game, players=4), num_cycles=300)


def test_a_different_seed_deals_different_cards() -> None:
    """The seed test passes for a constant env too: check that the seed matters."""
    first, second = raw_env(), raw_env()
    first.reset(seed=1)
    second.reset(seed=2)
    assert first._runner.hand.cards != second._runner.hand.cards


def test_pettingzoos_performance_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    # PettingZoo's benchmark plays random legal actions for five seconds (its fixed length).
    pettingzoo_test.performance_benchmark(raw_env(game="stud8", players=6))
    out = capsys.readouterr().out
    turns = float(out.split(" turns per second")[0].split()[-1])
    assert turns > 100, out


def _play_random(env_: object, seed: int) -> list[tuple[object, dict[str, object]]]:
    """Play one hand with random legal actions; every observation taken on the way, with the
    hand it was taken from (a clone)."""
    e = env_
    e.reset(seed=seed)  # type: ignore[attr-defined]
    rng = random.Random(seed)
    seen = []
    for _agent in e.agent_iter():  # type: ignore[attr-defined]
        for other in e.agents:  # type: ignore[attr-defined]
            seen.append((e._runner.hand.clone(), other, e.observe(other)))  # type: ignore[attr-defined]
        obs, _, term, trunc, _ = e.last()  # type: ignore[attr-defined]
        action = None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        e.step(action)  # type: ignore[attr-defined]
    return seen  # type: ignore[return-value]


@pytest.mark.parametrize("game", ["stud8", "stud", "razz"])
@pytest.mark.parametrize("players", [2, 8])
def test_an_observation_holds_exactly_the_cards_its_seats_view_shows(game: str, players: int) -> None:
    """Rule: a seat never observes another seat's down card (unless shown or turned up): the
    cards decoded from each observation are exactly those of the engine's redacted view for that
    seat, and none of another seat's down cards while that hand is not open."""
    e = raw_env(game=game, players=players)
    layout = Layout(players)
    checked_hidden = 0
    for seed in range(6):
        for hand, agent, obs in _play_random(e, seed):
            seat = int(agent.split("_")[1])
            view = hand.view(seat)
            decoded = decode_cards(obs["observation"], layout)
            for s in range(players):
                assert decoded[(s - seat) % players] == [None if c is None else int(c) for c in view.cards[s]]
            opened = hand.turned_up | set(hand.shown)
            seen_cards = {c for row in decoded.values() for c in row if c is not None}
            for s in range(players):
                if s == seat or s in opened:
                    continue
                for card, up in zip(hand.cards[s], hand.face_up[s], strict=True):
                    if not up:
                        checked_hidden += 1
                        assert card not in seen_cards, f"seat {seat} observes seat {s}'s down card {card}"
    assert checked_hidden > 0


def test_the_observation_counts_the_betting_by_street_and_seat() -> None:
    e = raw_env(game="stud8", players=2)
    e.reset(seed=5)
    layout = Layout(2)
    first = e.agent_selection
    e.step(3)  # BRING_IN
    obs = e.observe(e.agent_selection)["observation"]
    betting = obs[layout.betting : layout.folded].reshape(5, 2, 5)
    # The observer is the other seat: the bring-in is relative seat 1's, 2 chips = 0.2 big bets.
    assert betting[0, 1, 0] == 1.0 and betting[0, 1, 4] == pytest.approx(0.2)
    assert betting[0, 0].sum() == 0.0
    assert e.agent_selection != first


@pytest.mark.parametrize("lean", [True, False], ids=["lean", "hand"])
def test_an_illegal_action_raises_and_changes_nothing(lean: bool) -> None:
    e = raw_env(lean=lean)
    e.reset(seed=3)
    before = (e._runner.to_act, e._runner.hand.actions, e.observe(e.agent_selection)["observation"])
    with pytest.raises(IllegalAction, match=r"action index 1 \(CHECK\) is not legal"):
        e.step(1)  # no check while the bring-in is due
    with pytest.raises(IllegalAction, match=r"not one of 0\.\.10"):
        e.step(42)
    after = (e._runner.to_act, e._runner.hand.actions, e.observe(e.agent_selection)["observation"])
    assert before[:2] == after[:2] and np.array_equal(before[2], after[2])


def test_rewards_are_the_chips_won_in_big_bets_and_sum_to_zero() -> None:
    e = raw_env(game="razz", players=3)
    for seed in range(8):
        e.reset(seed=seed)
        e.step(4)  # complete
        rng = random.Random(seed)
        while not e._runner.hand.is_over:
            assert set(e.rewards.values()) == {0.0}
            mask = e.observe(e.agent_selection)["action_mask"]
            e.step(rng.choice(np.flatnonzero(mask).tolist()))
        hand = e._runner.hand
        assert all(e.terminations.values()) and len(e.rewards) == 3
        for agent, reward in e.rewards.items():
            s = int(agent.split("_")[1])
            assert reward == (hand.stacks[s] - hand.starting_stacks[s]) / 10
        assert sum(e.rewards.values()) == pytest.approx(0.0)
