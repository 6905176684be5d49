"""Many hands stepped at once, with numpy batches in and out (self-play: the caller plays every
seat of every game, or, with ``opponents``, one seat against bots).

>>> venv = VectorStudEnv(4, game="stud", players=3, seed=1)
>>> obs, masks, seats = venv.reset()
>>> obs.shape[0], masks.shape, seats.shape
(4, (4, 11), (4,))
>>> actions = [int(m.nonzero()[0][0]) for m in masks]
>>> obs, masks, seats, rewards, dones = venv.step(actions)
>>> rewards.shape
(4, 3)

``step(actions)`` takes one action index for each game, for the seat to act in it, and returns
the next observations and masks (of the seat now to act in each game: ``seats``), ``rewards``
(``num_envs x players``, in big bets, non-zero only for a game whose hand just ended) and
``dones``. A game whose hand ended is dealt its next hand at once (auto-reset): its observation
is already the new hand's. An illegal index raises
:class:`~sevenstud.actions.IllegalAction` naming the game and the action.

Two ways to step, the same rules. Where no seat can ever be all-in (every stack above the most a
seat can put in over a hand at the cap: 200 chips at 1/2/5/10 are) and the game keeps its
default options, and without ``opponents``, the games are one batched engine
(:class:`~sevenstud.rl.batched.BatchedStud`, :attr:`VectorStudEnv.engine`): every game
advanced by array operations, checked step by step against the engine's ``Hand``
(tests/rl/test_batched.py); an illegal index then changes no game. Otherwise each game is a
``Hand`` stepped in turn (:attr:`VectorStudEnv.runners`), and an illegal index is refused after
the games before it in the batch have stepped. ``batched=False`` forces the per-hand way,
``batched=True`` refuses a table the batched engine cannot play. The two ways deal different
cards from the same seed.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from sevenstud.actions import ACTION_COUNT, IllegalAction
from sevenstud.bots import Bot, new_bot
from sevenstud.games import Game, Stakes
from sevenstud.rl.batched import BatchedStud, batch_refusal
from sevenstud.rl.core import DEFAULT_STACK, DEFAULT_STAKES, HandRunner, TableConfig, mask_for

Batch = tuple[
    npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]
]


class VectorStudEnv:
    """``num_envs`` independent games of one config (see the module's documentation). With
    ``opponents`` (bot kind names, one for all or one per other seat), seat ``seat`` of every
    game is the caller's and the bots play the rest: ``seats`` is then always ``seat``."""

    def __init__(
        self,
        num_envs: int,
        game: str | Game = "stud8",
        players: int = 2,
        stack: int = DEFAULT_STACK,
        stakes: Stakes = DEFAULT_STAKES,
        seed: int | None = None,
        opponents: Sequence[str] | None = None,
        seat: int = 0,
        batched: bool | None = None,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number above 0, not {num_envs!r}")
        self.config = TableConfig.make(game, players, stack, stakes)
        self.num_envs = num_envs
        refusal = batch_refusal(self.config) if opponents is None else "bots play some seats"
        if batched and refusal is not None:
            raise ValueError(f"no batched engine for this table: {refusal}")
        self.engine: BatchedStud | None = None
        """The batched engine playing every game, or None where each game is a ``Hand``."""
        self.runners: list[HandRunner] = []
        """Each game's hand (the per-hand way; empty with the batched engine)."""
        self.seat = seat
        self.bots: list[dict[int, Bot]] | None = None
        if refusal is None and batched is not False:
            self.engine = BatchedStud(self.config, num_envs, seed)
            self.layout = self.engine.layout
            self.observations = self.engine.observations
            self.masks = self.engine.masks
            self.seats = self.engine.to_act
            self.rewards = self.engine.rewards
            self.dones = self.engine.dones
            return
        seeds = np.random.SeedSequence(seed).generate_state(num_envs)
        self.runners = [HandRunner(self.config, int(s)) for s in seeds]
        self.layout = self.runners[0].layout
        if opponents is not None:
            kinds = [opponents] if isinstance(opponents, str) else list(opponents)
            if len(kinds) == 1:
                kinds *= players - 1
            if len(kinds) != players - 1 or not 0 <= seat < players:
                raise ValueError(f"need {players - 1} opponents and a seat 0 to {players - 1}")
            others = [s for s in range(players) if s != seat]
            self.bots = [
                {s: new_bot(k, seed=int(seeds[i]) + s) for s, k in zip(others, kinds, strict=True)}
                for i in range(num_envs)
            ]
        self.observations = np.zeros((num_envs, self.layout.size), np.float32)
        self.masks = np.zeros((num_envs, ACTION_COUNT), np.int8)
        self.seats = np.zeros(num_envs, np.int64)
        self.rewards = np.zeros((num_envs, players), np.float32)
        self.dones = np.zeros(num_envs, bool)

    def _bots_play(self, i: int) -> None:
        assert self.bots is not None
        runner, bots = self.runners[i], self.bots[i]
        hand = runner.hand
        while hand.to_act is not None and hand.to_act != self.seat:
            seat = hand.to_act
            runner.log.record(hand.act(bots[seat].act(hand.view(seat)), seat))

    def _settle(self, i: int) -> None:
        """Game ``i`` after an action: bots answer, a finished hand pays and is dealt anew,
        and its row of the batch is written."""
        runner = self.runners[i]
        while True:
            if self.bots is not None:
                self._bots_play(i)
            if not runner.hand.is_over:
                break
            self.rewards[i] += runner.rewards()
            self.dones[i] = True
            runner.new_hand()
        hand = runner.hand
        seat = hand.to_act
        assert seat is not None
        self.seats[i] = seat
        runner.observe(seat, self.observations[i])
        self.masks[i] = mask_for(hand.legal_actions())

    def reset(self) -> Batch:
        """Deal a new hand in every game."""
        if self.engine is not None:
            self.engine.reset()
            return self.observations, self.masks, self.seats
        self.rewards.fill(0.0)
        for i, runner in enumerate(self.runners):
            runner.new_hand()
            self._settle(i)
        self.dones.fill(False)
        return self.observations, self.masks, self.seats

    def step(
        self, actions: Sequence[int] | npt.NDArray[np.integer]
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.int8],
        npt.NDArray[np.int64],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
    ]:
        """One action in every game (see the module's documentation). The arrays returned are
        the environment's own, overwritten by the next call: copy what you keep."""
        if self.engine is not None:
            self.engine.step(actions)
            return self.observations, self.masks, self.seats, self.rewards, self.dones
        if len(actions) != self.num_envs:
            raise ValueError(f"need {self.num_envs} actions, one a game, not {len(actions)}")
        self.rewards.fill(0.0)
        self.dones.fill(False)
        for i, runner in enumerate(self.runners):
            try:
                runner.step(int(actions[i]))
            except IllegalAction as error:
                raise IllegalAction(f"game {i}: {error}") from None
            self._settle(i)
        return self.observations, self.masks, self.seats, self.rewards, self.dones
