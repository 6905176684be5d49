"""The PettingZoo environment plays exactly as it did before it was made faster (2026-12-03):
a digest of every observation, mask, reward, termination and agent in order over seeded random
play, for all three games at 2, 3, 6 and 8 seats, pinned from the environment as it was (each
observation then built from the seat's whole ``Hand.view``), for both ways it plays a hand: the
lean engine (its default at these stakes) and the engine's ``Hand`` (``lean=False``). A change
of the observation layout, the action set, the rewards or the deal changes these digests: that
is a change of behaviour, to be made on purpose, with the digests made again (run this
module's ``digest``)."""

from __future__ import annotations

import hashlib
import random

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")

from sevenstud.rl.aec import raw_env  # noqa: E402
from sevenstud.rl.core import HandRunner  # noqa: E402
from sevenstud.rl.encoding import encode, encode_hand  # noqa: E402

STEPS = 600

# Three changed when 7th street checked through began to show from the first to act there (TDA
# 17-A, cash tables too), not the lowest seat; the hand and the lean engine agree on all twelve.
PINNED = {
    ("stud8", 2): "44f2ea696a693f2864f858b584ec115879123d73159c6865156d45b704106143",
    ("stud8", 3): "18e394f5c82ac4acb97da8cf355286179c7eb6dc3c030d7fb5b8b44c49976bb7",
    ("stud8", 6): "87abe4a7b3b8f48c55c2b14239452b2632645e078ae000ea8b1e022c65c18b16",
    ("stud8", 8): "95727064ef85c04e889a6134023e7c2f94ef398ca541877516801fbfa0a1cbcd",
    ("stud", 2): "e149ff346bb40525f7a5afaf8046bc507580dd3d25100e75a08b140063626637",
    ("stud", 3): "553343901b6305c9d5ca41a95caf711894854638ea571b9b37489053d04d65e3",
    ("stud", 6): "fb537ab4e21109ceb10a5dc5dae6f18c32d1984b4f4d44443e7ecb737060244d",
    ("stud", 8): "e10471787eccab9786f9bcba3ef29cdbb3544ad448efa642ebe534f3bed4eaee",
    ("razz", 2): "fc8718be2ef1db88cf0fa66a745c8299a93a64ee1b5a5cb7a2a08b74f9fd0069",
    ("razz", 3): "3e98d203dc1459ccb235d9d7380e3c92cdf87d37f17a37400859dfefefdeb123",
    ("razz", 6): "75a78934da12af675a0eff224f02524a461f9d8475e79538b21674883b81006e",
    ("razz", 8): "7bcda79000b8ed8030bacd1b3791bfd048d968e6b8e4511da5715e485aa3dad7",
}


def digest(game: str, players: int, steps: int = STEPS, seed: int = 7, lean: bool = True) -> str:
    """Seeded random legal play through ``agent_iter``: each step's agent, ``last()`` (the
    observation, its mask, reward, flags, info), another agent's observation, and every agent's
    rewards, terminations and who is left."""
    env = raw_env(game=game, players=players, lean=lean)
    h = hashlib.sha256()
    rng = random.Random(seed)
    env.reset(seed=seed)
    n = 0
    while n < steps:
        for agent in env.agent_iter():
            obs, reward, termination, truncation, info = env.last()
            h.update(agent.encode())
            for array in (obs["observation"], obs["action_mask"]):
                h.update(array.dtype.str.encode())
                h.update(array.tobytes())
            h.update(repr((reward, termination, truncation, sorted(info.items()))).encode())
            other = env.observe(env.possible_agents[n % players])
            h.update(other["observation"].tobytes())
            h.update(other["action_mask"].tobytes())
            h.update(
                repr(
                    (
                        sorted(env.rewards.items()),
                        sorted(env._cumulative_rewards.items()),
                        sorted(env.terminations.items()),
                        list(env.agents),
                    )
                ).encode()
            )
            if termination or truncation:
                env.step(None)
            else:
                env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            n += 1
        env.reset()
    return h.hexdigest()


@pytest.mark.parametrize("lean", [True, False], ids=["lean", "hand"])
@pytest.mark.parametrize("game", ["stud8", "stud", "razz"])
@pytest.mark.parametrize("players", [2, 3, 6, 8])
def test_the_same_play_as_before(game: str, players: int, lean: bool) -> None:
    assert digest(game, players, lean=lean) == PINNED[game, players]


@pytest.mark.parametrize("players", [2, 3, 8])
def test_an_observation_from_the_hand_is_the_one_from_its_view(players: int) -> None:
    """``encode_hand`` (the environments' way, without the whole view) writes the same array
    as ``encode`` of the seat's ``Hand.view``, for every seat at every step, into a fresh array
    and into a used one."""
    env = raw_env(game="stud8", players=players, lean=False)
    env.reset(seed=3)
    runner = env._runner
    assert isinstance(runner, HandRunner)
    rng = random.Random(3)
    used = np.full(runner.layout.size, 7.0, np.float32)
    for _ in range(300):
        hand = runner.hand
        for seat in range(players):
            expected = encode(hand.view(seat), runner.log, runner.layout, runner.total, hand.bring_in_seat)
            got = encode_hand(hand, seat, runner.log, runner.layout, runner.total)
            assert got.dtype == expected.dtype and np.array_equal(got, expected)
            encode_hand(hand, seat, runner.log, runner.layout, runner.total, used)
            assert np.array_equal(used, expected)
        if hand.is_over:
            runner.new_hand()
        else:
            runner.step(rng.choice(np.flatnonzero(runner.mask(hand.to_act)).tolist()))
