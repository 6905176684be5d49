"""Stud as a Gymnasium single-agent environment: the learner holds one seat, bots from
:mod:`sevenstud.bots` (by kind name: ``rule``, ``random``, ``station``, ``tight``, ``equity``)
hold the others, and each bot is given only its own seat's view.

>>> import gymnasium
>>> env = StudGymEnv(game="stud8", players=3, opponents=("rule", "station"))
>>> obs, info = env.reset(seed=3)
>>> obs["observation"].shape == env.observation_space["observation"].shape
True

An episode is one hand. ``reset`` deals and lets the bots act until the learner is to act; a
hand that ends before the learner acts at all (everybody folded to it on 3rd street) is
finished, its result carried into the reward of the learner's next step, and the next hand
dealt. ``step`` plays the learner's action, then the bots' until the learner acts again or the
hand is over; the reward is the learner's result in big bets when the hand ends, else 0.

An illegal action index is played as the most passive legal action instead (check, else fold,
else the bring-in, else call) and ``info["illegal_action"]`` says so; ``illegal="raise"``
raises :class:`~sevenstud.actions.IllegalAction` instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from sevenstud.actions import ACTION_COUNT, ActionIndex, numbered
from sevenstud.bots import Bot, new_bot
from sevenstud.games import Game, Stakes
from sevenstud.rl.aec import observation_space
from sevenstud.rl.core import DEFAULT_STACK, DEFAULT_STAKES, HandRunner, TableConfig

_PASSIVE = (ActionIndex.CHECK, ActionIndex.FOLD, ActionIndex.BRING_IN, ActionIndex.CALL)


class StudGymEnv(gym.Env[dict[str, Any], np.int64]):
    """One seat of a stud table against bots (see the module's documentation)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (gymnasium's type)

    def __init__(
        self,
        game: str | Game = "stud8",
        players: int = 2,
        opponents: Sequence[str] = ("rule",),
        seat: int = 0,
        stack: int = DEFAULT_STACK,
        stakes: Stakes = DEFAULT_STAKES,
        illegal: Literal["substitute", "raise"] = "substitute",
        render_mode: str | None = None,
    ) -> None:
        self.config = TableConfig.make(game, players, stack, stakes)
        if isinstance(opponents, str):
            opponents = (opponents,)
        if len(opponents) == 1:
            opponents = tuple(opponents) * (players - 1)
        if len(opponents) != players - 1:
            raise ValueError(
                f"{players} players need {players - 1} opponents (or one kind for all), not {len(opponents)}"
            )
        for kind in opponents:
            new_bot(kind, seed=0)  # a ValueError naming the kinds for an unknown one
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1}, not {seat!r}")
        if illegal not in ("substitute", "raise"):
            raise ValueError(f"illegal must be 'substitute' or 'raise', not {illegal!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.kinds = tuple(opponents)
        self.seat = seat
        self.illegal = illegal
        self.observation_space = observation_space(self.config)
        self.action_space = spaces.Discrete(ACTION_COUNT)
        self._runner = HandRunner(self.config)
        self._bots: dict[int, Bot] = {}
        self._carry = 0.0
        self._make_bots(None)

    def _make_bots(self, seed: int | None) -> None:
        rng = np.random.default_rng(seed)
        others = [s for s in range(self.config.players) if s != self.seat]
        self._bots = {
            s: new_bot(kind, seed=None if seed is None else int(rng.integers(2**31)))
            for s, kind in zip(others, self.kinds, strict=True)
        }

    def _observation(self) -> dict[str, Any]:
        return {
            "observation": self._runner.observe(self.seat),
            "action_mask": self._runner.mask(self.seat),
        }

    def _bots_play(self) -> None:
        """The bots act until the learner is to act or the hand is over."""
        runner = self._runner
        hand = runner.hand
        while hand.to_act is not None and hand.to_act != self.seat:
            seat = hand.to_act
            runner.log.record(hand.act(self._bots[seat].act(hand.view(seat)), seat))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal until the learner is to act (see the module's documentation)."""
        super().reset(seed=seed)
        if seed is not None:
            self._runner.seed(seed)
            self._make_bots(seed + 1)
        self._carry = 0.0
        while True:
            self._runner.new_hand()
            self._bots_play()
            if self._runner.hand.to_act == self.seat:
                return self._observation(), {"carried_reward": self._carry}
            self._carry += self._runner.rewards()[self.seat]

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """The learner acts; the bots answer (see the module's documentation)."""
        runner = self._runner
        hand = runner.hand
        if hand.is_over:
            raise RuntimeError("the hand is over: call reset() for the next one")
        info: dict[str, Any] = {}
        legal = numbered(hand.legal_actions())
        if not isinstance(action, int | np.integer) or int(action) not in legal:
            if self.illegal == "raise":
                runner.step(action)  # raises IllegalAction, naming it
            info["illegal_action"] = True
            action = next(a for a in _PASSIVE if a in legal)
        runner.step(int(action))
        self._bots_play()
        reward, self._carry = self._carry, 0.0
        done = runner.hand.is_over
        if done:
            reward += runner.rewards()[self.seat]
        return self._observation(), float(reward), done, False, info

    def render(self) -> str | None:
        """The hand as a spectator sees it, as text (``render_mode="ansi"``)."""
        return repr(self._runner.hand) if self.render_mode == "ansi" else None


ENV_ID = "sevenstud/Stud-v0"
"""The id under which the environment is registered with Gymnasium on import:
``gymnasium.make("sevenstud/Stud-v0", game="razz", players=3, opponents=("tight",))``."""

if ENV_ID not in gym.registry:
    gym.register(id=ENV_ID, entry_point="sevenstud.rl.gym_env:StudGymEnv")
