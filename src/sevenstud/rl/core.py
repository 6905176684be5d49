"""One hand for a learning environment: the engine's :class:`~sevenstud.hand.Hand`, dealt from a
seeded deck, with its betting log and each seat's observation (shared by the PettingZoo, the
Gymnasium and the vectorised environments; OpenSpiel's game has its own deal, by chance nodes).

Nothing here decides a rule: legal actions, amounts, the deal, the showdown and the awards are
the hand's. An action is an index of the numbered action set
(:class:`~sevenstud.actions.ActionIndex`), turned into the hand's action by
:func:`~sevenstud.actions.action_for`, which refuses one that is not legal now.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from sevenstud.actions import ACTION_COUNT, Action, ActionIndex, IllegalAction, action_for, numbered
from sevenstud.deck import Deck
from sevenstud.games import GAMES, Game, Stakes, game_class
from sevenstud.hand import MAX_PLAYERS, MIN_PLAYERS, Hand
from sevenstud.rl.encoding import BettingLog, Layout, ObsArray, encode_hand

_INDICES: tuple[ActionIndex, ...] = tuple(ActionIndex)
_MASKS: dict[tuple[int, ...], npt.NDArray[np.int8]] = {}


def mask_for(legal: Sequence[Action]) -> npt.NDArray[np.int8]:
    """The ``int8`` mask of the numbered actions among ``legal`` (a shared, read-only array:
    copy it to change it). The same few sets of legal actions recur: each mask is made once."""
    key = tuple(numbered(legal))
    mask = _MASKS.get(key)
    if mask is None:
        mask = _MASKS[key] = np.zeros(ACTION_COUNT, np.int8)
        mask[list(key)] = 1
        mask.flags.writeable = False
    return mask


NO_ACTIONS = np.zeros(ACTION_COUNT, np.int8)
"""The mask when nobody is to act (read-only)."""
NO_ACTIONS.flags.writeable = False

DEFAULT_STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
"""The stakes an environment plays when none are given ($1/$2 bring-in, $5/$10)."""
DEFAULT_STACK = 200
"""Each seat's chips at the start of every hand (20 big bets)."""


@dataclass(frozen=True, slots=True)
class TableConfig:
    """What every hand of an environment is: the game (a code from
    :data:`sevenstud.games.GAMES` or a :class:`~sevenstud.games.Game`), the number of seats and
    each seat's stack at the start of a hand."""

    game: Game
    players: int = 2
    stack: int = DEFAULT_STACK

    @classmethod
    def make(
        cls,
        game: str | Game = "stud8",
        players: int = 2,
        stack: int = DEFAULT_STACK,
        stakes: Stakes = DEFAULT_STAKES,
    ) -> TableConfig:
        """A config from a game code (``stud8``, ``stud``, ``razz``) or a game; a
        :class:`ValueError` naming what is wrong otherwise."""
        if isinstance(game, str):
            game = game_class(game)(stakes)
        elif not isinstance(game, Game):
            raise ValueError(f"game must be one of {', '.join(GAMES)} or a Game, not {game!r}")
        if isinstance(players, bool) or not isinstance(players, int) or not (
            MIN_PLAYERS <= players <= MAX_PLAYERS
        ):
            raise ValueError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {players!r}")
        if isinstance(stack, bool) or not isinstance(stack, int) or stack < 1:
            raise ValueError(f"stack must be a whole number of chips above 0, not {stack!r}")
        return cls(game, players, stack)


class HandRunner:
    """The hand being played, its betting log, and observations and masks for its seats.
    Rewards are in big bets: a seat's chips at the end less its chips at the start, over the
    big bet."""

    __slots__ = ("_rng", "config", "hand", "layout", "log", "total")

    def __init__(self, config: TableConfig, seed: int | None = None) -> None:
        self.config = config
        self.layout = Layout(config.players)
        self.log = BettingLog(config.players, config.game.stakes.big_bet)
        self.total = config.players * config.stack
        self._rng = np.random.default_rng(seed)
        self.hand = self._deal()

    def seed(self, seed: int | None) -> None:
        """Draw every later deck from ``seed``."""
        self._rng = np.random.default_rng(seed)

    def _deal(self) -> Hand:
        deck = Deck.seeded(int(self._rng.integers(0, 2**63 - 1)))
        self.log.reset()
        hand = Hand(self.config.game, [self.config.stack] * self.config.players, deck)
        self.log.record(hand.events)  # the antes (and nothing private: the log keeps actions)
        return hand

    def new_hand(self) -> Hand:
        """Deal the next hand."""
        self.hand = self._deal()
        return self.hand

    @property
    def to_act(self) -> int | None:
        """The seat to act (None once the hand is over)."""
        return self.hand.to_act

    @property
    def is_over(self) -> bool:
        """Whether the hand is over (its rewards are final)."""
        return self.hand.is_over

    def step(self, index: int | np.integer[Any]) -> None:
        """The seat to act takes the numbered action ``index``; :class:`IllegalAction` naming
        it (and nothing changed) when it is not legal now."""
        hand = self.hand
        if hand.to_act is None:
            raise IllegalAction("the hand is over: nobody is to act")
        if isinstance(index, bool) or not isinstance(index, int | np.integer):
            raise IllegalAction(f"an action is an index 0..{ACTION_COUNT - 1}, not {index!r}")
        if not 0 <= index < ACTION_COUNT:
            raise IllegalAction(f"action index {index!r} is not one of 0..{ACTION_COUNT - 1}")
        number = _INDICES[index]  # (a tuple look-up: calling the enum costs more)
        action = numbered(hand.legal_actions()).get(number)
        if action is None:  # action_for names the index and what is legal
            action = action_for(number, hand.view(hand.to_act))
        self.log.record(hand.act(action))

    def observe(self, seat: int, out: ObsArray | None = None) -> ObsArray:
        """Seat ``seat``'s observation now, from its own (redacted) view."""
        return encode_hand(self.hand, seat, self.log, self.layout, self.total, out)

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        """The legal numbered actions for ``seat`` (all zero unless it is to act)."""
        hand = self.hand
        if hand.to_act != seat:
            return np.zeros(ACTION_COUNT, np.int8)
        return mask_for(hand.legal_actions()).copy()

    def shared_mask(self) -> npt.NDArray[np.int8]:
        """The mask of the seat to act, a read-only array shared by every step that has it
        (all zero when the hand is over)."""
        hand = self.hand
        return NO_ACTIONS if hand.to_act is None else mask_for(hand.legal_actions())

    def rewards(self) -> list[float]:
        """Each seat's result so far in big bets (0 for all until the hand is over)."""
        hand = self.hand
        if not hand.is_over:
            return [0.0] * hand.n
        big = self.config.game.stakes.big_bet
        return [(end - start) / big for end, start in zip(hand.stacks, hand.starting_stacks, strict=True)]
