"""Stud as an OpenSpiel Python game, ``python_sevenstud``: every card dealt is a chance node,
the players' actions are the numbered action set, and the engine's
:class:`~sevenstud.hand.Hand` plays the hand.

>>> import pyspiel
>>> game = pyspiel.load_game("python_sevenstud", {"game": "razz", "players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)

Parameters (all optional): ``game`` (``stud8``, ``stud``, ``razz``), ``players`` (2-8),
``stack`` (each seat's chips), ``ante``, ``bring_in``, ``small_bet``, ``big_bet``, and
``deck``: the cards chance deals from, as text (``"As Ks Qs 2c 3c"``; empty: all 52). With a
short ``deck`` the game is a reduced one for exact solving: chance deals the first cards from
those only, in the order it picks them, and once they are all dealt the rest of the 52 follow
in card order (2c, 2d, ... As), known to everybody: still a well-defined game of imperfect
information, small enough for CFR and an exact best response when the stacks are short too
(docs/rl.md).

How the deal meets the engine: the hand is made once chance has picked 3rd street, from a deck
whose first cards are those picks. Before a player's action the state plays it on a clone of
the hand; when the clone dealt cards (the street ended), the action waits while chance picks
those cards, and the hand is then replayed from the new deck order and the same actions
(:meth:`Hand.replay <sevenstud.hand.Hand.replay>`). The engine decides everything: how many
cards a street needs, who acts, what is legal, the showdown and the awards.

Returns are in chips (the game is zero-sum: no rake). The observation tensor is
:mod:`sevenstud.rl.encoding`'s; the information-state tensor adds the whole sequence of
actions (the actor and the action, one-hot), for perfect recall.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from sevenstud.actions import ACTION_COUNT, ActionIndex, numbered
from sevenstud.cards import CARDS, format_cards, parse_cards
from sevenstud.deck import Deck
from sevenstud.events import ActionTaken
from sevenstud.games import Stakes, game_class
from sevenstud.hand import MAX_PLAYERS, Hand
from sevenstud.rl.encoding import ACTION_NAMES, BettingLog, Layout, encode

SHORT_NAME = "python_sevenstud"
"""The name the game is registered under (`pyspiel.load_game(SHORT_NAME, {...})`)."""

_DEFAULTS: dict[str, Any] = {
    "game": "stud8",
    "players": 2,
    "stack": 200,
    "ante": 1,
    "bring_in": 2,
    "small_bet": 5,
    "big_bet": 10,
    "deck": "",
}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Seven Card Stud Hi/Lo, Stud and Razz (sevenstud)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def max_actions(players: int, cap: int) -> int:
    """A bound on the players' actions in one hand: on each street every bet or raise (at most
    the cap, the bring-in and its completion) lets each other player act once more."""
    return 5 * players * (cap + 3)


class StudGame(pyspiel.Game):  # type: ignore[misc]
    """The game (see the module's documentation)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**_DEFAULTS, **(params or {})}
        stakes = Stakes(given["ante"], given["bring_in"], given["small_bet"], given["big_bet"])
        self.stud = game_class(str(given["game"]))(stakes)
        self.players = int(given["players"])
        if not 2 <= self.players <= MAX_PLAYERS:
            raise ValueError(f"players must be 2 to {MAX_PLAYERS}, not {self.players}")
        self.stack = int(given["stack"])
        if self.stack < 1:
            raise ValueError(f"stack must be above 0, not {self.stack}")
        chance = parse_cards(given["deck"]) if given["deck"] else list(CARDS)
        self.chance_deck: tuple[int, ...] = tuple(int(c) for c in chance)
        self.layout = Layout(self.players)
        self.max_actions = max_actions(self.players, self.stud.cap)
        total = self.players * self.stack
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_COUNT,
            max_chance_outcomes=52,
            num_players=self.players,
            min_utility=float(-self.stack),
            max_utility=float(total - self.stack),
            utility_sum=0.0,
            max_game_length=self.max_actions + 52,
        )
        super().__init__(_GAME_TYPE, info, {**given, "deck": format_cards(chance) if given["deck"] else ""})

    def new_initial_state(self) -> StudState:
        """Before the deal: chance is to pick the first card."""
        return StudState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> StudObserver:
        """The observation (``perfect_recall=False``) or information state (True) tensors."""
        return StudObserver(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class StudState(pyspiel.State):  # type: ignore[misc]
    """A state of the game: the cards chance has picked, the hand (once 3rd street is dealt)
    and, while chance deals a street, the action that ended the last one."""

    def __init__(self, game: StudGame) -> None:
        super().__init__(game)
        self.moves: list[tuple[int, int]] = []
        """Each player action so far, as (seat, numbered action)."""
        self.dealt: list[int] = []
        self.hand: Hand | None = None
        self.pending: int | None = None
        """The action waiting for chance to deal the cards it calls for."""
        self.needed = min(3 * game.players, len(game.chance_deck))
        """How many cards chance must still pick before play goes on (3rd street's, or as
        many as a short chance deck has)."""

    # -------------------------------------------------------------- who is to move

    def current_player(self) -> int:
        """Chance while cards are to be picked, the seat to act, or terminal."""
        if self.needed:
            return int(pyspiel.PlayerId.CHANCE)
        assert self.hand is not None
        if self.hand.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        assert self.hand.to_act is not None
        return self.hand.to_act

    def is_terminal(self) -> bool:
        """Once the pot is awarded."""
        return self.hand is not None and not self.needed and self.hand.is_over

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance deck's cards not dealt yet, each as likely."""
        dealt = set(self.dealt)
        left = sorted(c for c in self.get_game().chance_deck if c not in dealt)
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.hand is not None
        return sorted(int(i) for i in numbered(self.hand.legal_actions()))

    # -------------------------------------------------------------- moves

    def _order(self) -> Deck:
        dealt = set(self.dealt)
        rest = [c for c in self.get_game().chance_deck if c not in dealt]
        chosen = set(rest) | dealt
        return Deck([*self.dealt, *rest, *(c for c in range(52) if c not in chosen)])

    def _chance_left(self) -> int:
        return len(self.get_game().chance_deck) - len(self.dealt)

    def _apply_action(self, action: int) -> None:
        game: StudGame = self.get_game()
        if self.needed:
            self.dealt.append(int(action))
            self.needed -= 1
            if self.needed:
                return
            stacks = [game.stack] * game.players
            if self.hand is None:
                self.hand = Hand(game.stud, stacks, self._order())
            else:
                assert self.pending is not None
                played = [(seat, a) for seat, a in self.hand.actions]
                self.hand = Hand.replay(game.stud, stacks, self._order(), played)
                self._play(self.hand, self.pending)
                self.pending = None
            return
        assert self.hand is not None and self.hand.to_act is not None
        self.moves.append((self.hand.to_act, int(action)))
        probe = self.hand.clone()
        self._play(probe, action)
        dealt = probe.deck.position - self.hand.deck.position
        needed = min(dealt, self._chance_left())
        if needed:
            self.pending, self.needed = action, needed
        else:
            self.hand = probe

    @staticmethod
    def _play(hand: Hand, index: int) -> None:
        action = numbered(hand.legal_actions()).get(ActionIndex(index))
        if action is None:
            raise ValueError(f"action {index} is not legal now")
        hand.act(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARDS[action]}"
        return ACTION_NAMES[action]

    def returns(self) -> list[float]:
        """Each seat's chips won or lost, once the hand is over (0 before)."""
        if not self.is_terminal():
            return [0.0] * self.get_game().players
        assert self.hand is not None
        return [float(e - s) for e, s in zip(self.hand.stacks, self.hand.starting_stacks, strict=True)]

    def __str__(self) -> str:
        if self.hand is None:
            return f"dealing: {format_cards(self.dealt)}"
        return f"{self.hand!r} dealt {format_cards(self.dealt)}"


class StudObserver:
    """OpenSpiel's observer for the game: ``tensor`` and ``dict`` (its named blocks), from the
    seat's redacted view (:func:`sevenstud.rl.encoding.encode`)."""

    def __init__(self, game: StudGame, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.game = game
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        layout = game.layout
        size = layout.size
        n = game.players
        history = game.max_actions * (n + ACTION_COUNT) if self.perfect_recall else 0
        self.tensor = np.zeros(size + history, np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if history:
            self.dict["actions"] = self.tensor[size:].reshape(game.max_actions, n + ACTION_COUNT)

    def set_from(self, state: StudState, player: int) -> None:
        """The tensor of ``state`` as seat ``player`` knows it."""
        hand = state.hand
        self.tensor.fill(0.0)
        game = self.game
        if hand is None:  # still dealing 3rd street: the seat knows only the table
            return
        log = BettingLog(game.players, game.stud.stakes.big_bet)
        view = hand.view(player)
        log.record(view.events)
        encode(view, log, game.layout, game.players * game.stack, hand.bring_in_seat,
               self.dict["observation"])
        if self.perfect_recall:
            rows = self.dict["actions"]
            n = game.players
            for i, (seat, action) in enumerate(state.moves):
                rows[i, (seat - player) % n] = 1.0
                rows[i, n + action] = 1.0

    def string_from(self, state: StudState, player: int) -> str:
        """The same as text: the cards the seat sees (``??`` hidden) and, with perfect recall,
        every action so far by street."""
        hand = state.hand
        if hand is None:
            # The deal goes round the table: card i to seat i % n, the third round face up.
            n = self.game.players
            seen = [
                str(CARDS[c]) if i % n == player or i // n == 2 else "??"
                for i, c in enumerate(state.dealt)
            ]
            return f"p{player} dealing {' '.join(seen)}"
        view = hand.view(player)
        boards = " / ".join(
            " ".join("??" if c is None else str(c) for c in row) for row in view.cards
        )
        parts = [f"p{player}", boards]
        if view.community is not None:
            parts.append(f"community {view.community}")
        if self.perfect_recall:
            parts.append(
                " ".join(
                    f"{e.street}:{e.seat}:{e.action}" for e in view.events if type(e) is ActionTaken
                )
            )
        else:
            parts.append(f"street {view.street} bets {view.bets} stacks {view.stacks}")
        return " | ".join(parts)


pyspiel.register_game(_GAME_TYPE, StudGame)
