"""The Gymnasium single-agent environment (bots in the other seats) and the vectorised
environment (issue 17, point 4)."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
gym_checker = pytest.importorskip(
    "gymnasium.utils.env_checker", reason="the rl extra (gymnasium) is not installed"
)

from sevenstud.actions import ActionIndex, IllegalAction  # noqa: E402
from sevenstud.bots.base import Bot  # noqa: E402
from sevenstud.hand import Action, SeatView  # noqa: E402
from sevenstud.rl.encoding import Layout  # noqa: E402
from sevenstud.rl.gym_env import StudGymEnv  # noqa: E402
from sevenstud.rl.vector import VectorStudEnv  # noqa: E402


@pytest.mark.parametrize(("game", "players", "opponents"), [
    ("stud8", 2, ("rule",)), ("stud", 3, ("random", "station")), ("razz", 6, ("tight",)),
])
def test_gymnasiums_env_checker_passes(game: str, players: int, opponents: tuple[str, ...]) -> None:
    gym_checker.check_env(StudGymEnv(game=game, players=players, opponents=opponents), skip_render_check=True)


def test_the_bots_see_only_their_own_seats_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule: a bot is handed its own seat's redacted view, never the full hand."""
    env = StudGymEnv(game="stud8", players=4, opponents=("rule",))
    env.reset(seed=2)
    checked = []

    class Spy:
        name = "spy"

        def __init__(self, inner: Bot, seat: int) -> None:
            self.inner, self.seat = inner, seat

        def act(self, view: SeatView) -> Action:
            hand = env._runner.hand
            assert view.seat == self.seat == hand.to_act
            for s, row in enumerate(view.cards):
                if s != self.seat and s not in hand.turned_up and s not in hand.shown:
                    assert all(c is None for c, up in zip(row, view.face_up[s], strict=True) if not up)
            checked.append(self.seat)
            return self.inner.act(view)

    for _ in range(20):
        env._bots = {s: Spy(b, s) for s, b in env._bots.items()}
        _, _ = env.reset()
        done = False
        while not done:
            mask = env._observation()["action_mask"]
            _, _, done, _, _ = env.step(int(np.flatnonzero(mask)[-1]))
    assert len(set(checked)) == 3


def test_an_illegal_action_is_played_as_the_most_passive_legal_one_or_raises() -> None:
    env = StudGymEnv(game="razz", players=2, opponents=("station",))
    obs, _ = env.reset(seed=4)
    hand = env._runner.hand
    assert obs["action_mask"][ActionIndex.CHECK] == 0  # the bring-in or a call is due
    _, _, _, _, info = env.step(int(ActionIndex.CHECK))
    assert info == {"illegal_action": True}
    strict = StudGymEnv(game="razz", players=2, opponents=("station",), illegal="raise")
    strict.reset(seed=4)
    before = list(strict._runner.hand.actions)
    with pytest.raises(IllegalAction, match="CHECK"):
        strict.step(int(ActionIndex.CHECK))
    assert strict._runner.hand.actions == before
    assert hand is env._runner.hand or hand.is_over


def test_the_episode_reward_is_the_learners_result_in_big_bets() -> None:
    env = StudGymEnv(game="stud", players=3, opponents=("station",))
    total_reward, total_chips = 0.0, 0
    for seed in range(10):
        _, info = env.reset(seed=seed)
        episode = info["carried_reward"]
        assert episode == 0.0  # carried only into the next step, never lost
        done = False
        while not done:
            mask = env._observation()["action_mask"]
            _, reward, done, _, _ = env.step(int(np.flatnonzero(mask)[0]))
            episode += reward
        hand = env._runner.hand
        assert episode * 10 == pytest.approx(hand.stacks[0] - hand.starting_stacks[0] + env._carry * 10)
        total_reward += episode
        total_chips += hand.stacks[0] - hand.starting_stacks[0]
    assert total_reward * 10 == pytest.approx(total_chips)


def test_bad_settings_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown bot kind 'shark'"):
        StudGymEnv(opponents=("shark",))
    with pytest.raises(ValueError, match="3 players need 2 opponents"):
        StudGymEnv(players=3, opponents=("rule", "rule", "rule"))
    with pytest.raises(ValueError, match="players must be 2 to 8"):
        VectorStudEnv(2, players=9)
    with pytest.raises(ValueError, match="unknown game 'holdem'"):
        VectorStudEnv(2, game="holdem")


@pytest.mark.parametrize("batched", [False, True])
def test_the_vectorised_env_steps_every_game_and_auto_resets(batched: bool) -> None:
    venv = VectorStudEnv(16, game="stud8", players=3, seed=7, batched=batched)
    assert (venv.engine is not None) == batched
    obs, masks, seats = venv.reset()
    assert obs.shape == (16, venv.layout.size) and masks.shape == (16, 11)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(300):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, masks, seats, rewards, dones = venv.step(actions)
        finished += int(dones.sum())
        # A finished game paid out zero-sum and is already in its next hand.
        assert np.allclose(rewards.sum(axis=1), 0.0, atol=1e-5)
        assert not rewards[~dones].any()
        for i in range(16):
            if not batched:
                hand = venv.runners[i].hand
                assert not hand.is_over and seats[i] == hand.to_act
            assert masks[i].any() and 0 <= seats[i] < 3
            assert obs[i, venv.layout.to_act] == 1.0 and obs[i, venv.layout.seat + seats[i]] == 1.0
    assert finished > 16


@pytest.mark.parametrize("batched", [False, True])
def test_the_vectorised_env_is_repeatable_from_its_seed(batched: bool) -> None:
    def run(seed: int) -> list[float]:
        venv = VectorStudEnv(4, game="razz", players=2, seed=seed, batched=batched)
        _, masks, _ = venv.reset()
        out = []
        for _ in range(60):
            _, masks, _, rewards, _ = venv.step([int(np.flatnonzero(m)[-1]) for m in masks])
            out += rewards[:, 0].tolist()  # each game's (a sum over games can cancel out)
        return out

    assert run(3) == run(3) and run(3) != run(4)


def test_the_vectorised_env_against_bots_always_asks_the_learners_seat() -> None:
    venv = VectorStudEnv(8, game="stud8", players=4, seed=1, opponents=("rule",), seat=2)
    _, masks, seats = venv.reset()
    for _ in range(50):
        assert (seats == 2).all()
        _, masks, seats, _, _ = venv.step([int(np.flatnonzero(m)[0]) for m in masks])


def test_the_vectorised_env_names_the_game_with_an_illegal_action() -> None:
    venv = VectorStudEnv(2, seed=1)
    venv.reset()
    with pytest.raises(IllegalAction, match="game 0: action index 1"):
        venv.step([1, 1])


def test_gymnasium_make_builds_the_env_with_its_arguments() -> None:
    import gymnasium

    from sevenstud.rl.gym_env import ENV_ID

    env = gymnasium.make(ENV_ID, game="razz", players=3, opponents=("tight",))
    obs, _ = env.reset(seed=1)
    assert env.unwrapped.config.players == 3 and env.unwrapped.kinds == ("tight", "tight")
    assert obs["observation"].shape == (Layout(3).size,)
    gym_checker.check_env(env.unwrapped)
