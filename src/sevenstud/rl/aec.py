"""Stud as a PettingZoo AEC environment: one hand an episode, every seat an agent.

>>> env = raw_env(game="razz", players=3)
>>> env.reset(seed=1)
>>> obs, reward, termination, truncation, info = env.last()
>>> sorted(obs), obs["action_mask"].dtype.name
(['action_mask', 'observation'], 'int8')

Agents are ``seat_0`` .. ``seat_{n-1}`` (seat 0 the first seat clockwise from the dealer). The
agent to act is ``agent_selection``; a folded seat is not asked again until the hand is over,
when every agent is terminated at once with its reward (its result in big bets: docs/rl.md) and
is stepped out with ``None`` as PettingZoo's API expects. An action not legal now raises
:class:`~sevenstud.actions.IllegalAction` naming it and changes nothing.

Where nobody can ever be all-in (:func:`~sevenstud.rl.batched.batch_refusal`: the default
stacks and stakes are such a table) the hands are played by the lean engine
(:class:`~sevenstud.rl.lean.LeanStud`), elsewhere by the engine's ``Hand``
(:class:`~sevenstud.rl.core.HandRunner`): the same decks from the same seed, the same
observations, masks and rewards (tests/rl/test_lean.py, tests/rl/test_aec_digest.py).
``lean=False`` forces the ``Hand``; ``lean=True`` refuses a table the lean engine cannot play.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from sevenstud.actions import ACTION_COUNT
from sevenstud.games import Game, Stakes
from sevenstud.rl.core import DEFAULT_STACK, DEFAULT_STAKES, TableConfig
from sevenstud.rl.encoding import Layout
from sevenstud.rl.lean import runner_for

Observation = dict[str, np.ndarray[Any, Any]]


def observation_space(config: TableConfig) -> spaces.Dict:
    """The observation space of every agent at a table of ``config``."""
    layout = Layout(config.players)
    return spaces.Dict(
        {
            "observation": spaces.Box(
                low=0.0, high=layout.high(), shape=(layout.size,), dtype=np.float32
            ),
            "action_mask": spaces.Box(low=0, high=1, shape=(ACTION_COUNT,), dtype=np.int8),
        }
    )


class StudAECEnv(AECEnv[str, Observation, int | None]):  # type: ignore[misc]
    """Stud Hi/Lo, Stud or Razz for 2 to 8 agents (see the module's documentation)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "sevenstud_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str | Game = "stud8",
        players: int = 2,
        stack: int = DEFAULT_STACK,
        stakes: Stakes = DEFAULT_STAKES,
        render_mode: str | None = None,
        lean: bool | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.config = TableConfig.make(game, players, stack, stakes)
        self.possible_agents = [f"seat_{s}" for s in range(players)]
        self._seat_of = {agent: s for s, agent in enumerate(self.possible_agents)}
        space = observation_space(self.config)
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(ACTION_COUNT) for a in self.possible_agents}
        self._runner = runner_for(self.config, lean)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """Every agent's: ``{"observation": Box, "action_mask": Box(int8)}``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Every agent's: ``Discrete(11)``, the numbered actions of
        :class:`~sevenstud.actions.ActionIndex`."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand (from ``seed`` and then on from it, when given)."""
        if seed is not None:
            self._runner.seed(seed)
        runner = self._runner
        runner.new_hand()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        assert runner.to_act is not None  # two players can always act on 3rd street
        self.agent_selection = self.possible_agents[runner.to_act]

    def observe(self, agent: str) -> Observation:
        """What ``agent``'s seat may see, with its legal actions."""
        seat = self._seat_of[agent]
        return {
            "observation": self._runner.observe(seat),
            "action_mask": self._runner.mask(seat),
        }

    def step(self, action: int | None) -> None:
        """The selected agent acts (``None`` once it is terminated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for a terminated agent")
        runner = self._runner
        runner.step(action)
        self._cumulative_rewards[agent] = 0.0
        if runner.is_over:
            self.rewards = dict(zip(self.possible_agents, runner.rewards(), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            self._deads_step_first()
        else:
            # Mid-hand every reward is 0 and nobody is terminated: PettingZoo's reward and
            # dead-agent bookkeeping would change nothing (it costs a fifth of a step).
            seat = runner.to_act
            assert seat is not None
            self.agent_selection = self.possible_agents[seat]

    def render(self) -> str | None:
        """The hand as a spectator sees it, as text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi":
            return None
        return repr(self._runner.hand)

    def close(self) -> None:
        """Nothing to release."""


def raw_env(**kwargs: Any) -> StudAECEnv:
    """The environment without PettingZoo's wrappers."""
    return StudAECEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The environment in PettingZoo's usual wrappers (an illegal action ends the agent's game
    with a penalty instead of raising; an order check)."""
    wrapped: Any = wrappers.TerminateIllegalWrapper(raw_env(**kwargs), illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
