"""One stud table as a plain environment: no PettingZoo bookkeeping, no bots, one call a step.

>>> env = StudEnv(game="razz", players=3, seed=1)
>>> observation, mask, seat = env.reset()
>>> observation.shape, mask.dtype.name, seat in (0, 1, 2)
((1263,), 'int8', True)
>>> action = int(mask.nonzero()[0][0])
>>> observation, mask, seat, rewards, done = env.step(action)
>>> len(rewards)
3

The caller plays every seat (self-play): ``reset()`` deals and returns the observation, the
action mask and the seat of the player to act; ``step(action)``, the action index of that
player (:class:`~sevenstud.actions.ActionIndex`), returns the next ones and ``rewards``, one
a seat in big bets (all zero until a hand ends), and ``done``. When a hand ends, ``done`` is
True, ``rewards`` is its result, and the observation, mask and seat are already the next
hand's first (auto-reset, as :class:`~sevenstud.rl.vector.VectorStudEnv` does for many
games). The observation (docs/rl.md) is a new array each step; the mask is a read-only array
shared by every step that has the same legal actions. An illegal index raises
:class:`~sevenstud.actions.IllegalAction` naming it, and changes nothing.

Where nobody can ever be all-in (:func:`~sevenstud.rl.batched.batch_refusal`: the default
stacks and stakes are such a table) the hands are played by the lean engine
(:class:`~sevenstud.rl.lean.LeanStud`), elsewhere by the engine's ``Hand``; both deal the same
hands from the same seed (the PettingZoo environment's too) and give the same observations,
masks and rewards. ``lean=False`` forces the ``Hand``, ``lean=True`` refuses a table the lean
engine cannot play.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from sevenstud.games import Game, Stakes
from sevenstud.rl.core import DEFAULT_STACK, DEFAULT_STAKES, HandRunner, TableConfig
from sevenstud.rl.encoding import ObsArray
from sevenstud.rl.lean import LeanStud, runner_for

Mask = npt.NDArray[np.int8]


class StudEnv:
    """One table of ``players`` seats, every seat the caller's (see the module's
    documentation)."""

    __slots__ = ("_zero", "config", "layout", "runner")

    def __init__(
        self,
        game: str | Game = "stud8",
        players: int = 2,
        stack: int = DEFAULT_STACK,
        stakes: Stakes = DEFAULT_STAKES,
        seed: int | None = None,
        lean: bool | None = None,
    ) -> None:
        self.config = TableConfig.make(game, players, stack, stakes)
        self.runner: LeanStud | HandRunner = runner_for(self.config, lean, seed)
        """What plays the hands: the lean engine, or the engine's ``Hand``."""
        self.layout = self.runner.layout
        self._zero = (0.0,) * players

    def reset(self, seed: int | None = None) -> tuple[ObsArray, Mask, int]:
        """Deal a new hand (from ``seed`` and then on from it, when given): the observation, the
        mask and the seat of the player to act."""
        runner = self.runner
        if seed is not None:
            runner.seed(seed)
        runner.new_hand()
        seat = runner.to_act
        assert seat is not None  # two players can always act on 3rd street
        return runner.observe(seat), runner.shared_mask(), seat

    def step(self, action: int | np.integer[Any]) -> tuple[ObsArray, Mask, int, tuple[float, ...], bool]:
        """The player to act takes action ``action``: the next observation, mask and seat to
        act, the rewards and whether a hand ended (then the next hand is dealt)."""
        runner = self.runner
        runner.step(action)
        rewards, done = self._zero, runner.is_over
        if done:
            rewards = tuple(runner.rewards())
            runner.new_hand()
        seat = runner.to_act
        assert seat is not None
        return runner.observe(seat), runner.shared_mask(), seat, rewards, done

    def observe(self, seat: int) -> ObsArray:
        """Seat ``seat``'s observation now, whether or not it is to act (a new array)."""
        return self.runner.observe(seat)
