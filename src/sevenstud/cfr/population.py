"""Training against a population: who sits in the other seats of an MCCFR iteration.

Pure self-play learns to answer itself: a bet from a table trained that way means strength,
and a bot that trained only against itself folds to a player whose bets mean nothing (issue
37: against a maniac the learned bot folded most of its hands). Here, for each traversal of
:class:`~sevenstud.cfr.solvers.ExternalSampling` (one deal, one traversing seat), every other
seat plays a member drawn from a population by its weight:

``self``
    the current strategy (regret matching), as in plain self-play; only where a seat plays it
    does the average strategy grow, so the table written is the learner's own play;
``past``
    one of the snapshots of the average strategy kept as the run goes (the current strategy
    where a snapshot does not know the key; ``self`` until the first snapshot);
``maniac``
    always the most aggressive action: raise, bet or complete where it can, else call or check;
``station``
    never folds, never bets: check, else call, else the bring-in;
``rule``, ``tight``, ``equity``
    the project's rule, tight and equity bots (:data:`BOT_MEMBERS`), each playing the seat as
    it plays at a real table, from what that seat may see (:mod:`sevenstud.cfr.bot_members`):
    the real stud games only.

The traverser's regrets are updated against whoever sits opposite, so it learns a strategy
good against the mix; the members' own play never changes. The maniac and the calling station
are written on the action letters alone (``b`` bet or complete, ``r`` raise, ``c`` call or
check in Leduc, ``k`` check, ``i`` bring-in, ``f`` fold), so they play every game of
:mod:`sevenstud.cfr` at every key; the bots read the real cards, so they play the abstract
real stud of :mod:`sevenstud.cfr.stud_game` alone.

>>> p = Population.parse("self:0.7,past:0.1,maniac:0.1,station:0.1")
>>> p.text()
'self:0.7,past:0.1,maniac:0.1,station:0.1'
>>> Population.parse("self:0.6,rule:0.1,tight:0.1,equity:0.1,maniac:0.1").bots
('rule', 'tight', 'equity')
>>> maniac_action(("f", "c", "r")), station_action(("f", "c", "r")), station_action(("i", "b"))
('r', 'c', 'i')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from sevenstud.games import GAME_CODES

BOT_MEMBERS = ("rule", "tight", "equity")
"""The members played by the project's bots of those kinds (:mod:`sevenstud.cfr.bot_members`)."""

MEMBERS = ("self", "past", "maniac", "station", *BOT_MEMBERS)
"""The kinds of player a population may hold."""

PAST_EVERY = 10_000
"""The default iterations between two snapshots of the average strategy (``--past-every``)."""

PAST_KEEP = 5
"""How many snapshots of the average strategy a run keeps (the latest)."""


class PopulationError(ValueError):
    """A population setting that cannot be read."""


def maniac_action(actions: Sequence[str]) -> str:
    """The maniac's letter: raise, bet or complete where it may, else call, else check."""
    for letter in ("r", "b", "c", "k"):
        if letter in actions:
            return letter
    return actions[-1]


def station_action(actions: Sequence[str]) -> str:
    """The calling station's letter: check, else call, else bring in; never a bet or a fold."""
    for letter in ("k", "c", "i"):
        if letter in actions:
            return letter
    return actions[0]


@dataclass(frozen=True, slots=True)
class Population:
    """Members and their weights (normalised to sum to one), in the order given."""

    members: tuple[tuple[str, float], ...] = (("self", 1.0),)

    @classmethod
    def parse(cls, text: str) -> Population:
        """``"self:0.7,past:0.1,maniac:0.1,station:0.1"``; a clear error on anything else."""
        members: dict[str, float] = {}
        for part in text.split(","):
            name, sep, weight = part.strip().partition(":")
            if not sep:
                raise PopulationError(f"population member {part.strip()!r} has no weight: write NAME:WEIGHT")
            if name not in MEMBERS:
                raise PopulationError(
                    f"unknown population member {name!r}: expected one of {', '.join(MEMBERS)}"
                )
            if name in members:
                raise PopulationError(f"population member {name!r} is given twice")
            try:
                value = float(weight)
            except ValueError:
                raise PopulationError(f"population weight {weight!r} of {name} is not a number") from None
            if not value >= 0 or value == float("inf"):
                raise PopulationError(f"population weight of {name} must be zero or more, not {weight}")
            members[name] = value
        total = sum(members.values())
        if members.get("self", 0.0) <= 0:
            raise PopulationError("the population needs self with a weight above zero: the table is its play")
        return cls(tuple((name, w / total) for name, w in members.items() if w > 0))

    @property
    def self_play(self) -> bool:
        """Whether every seat plays the current strategy (plain MCCFR)."""
        return all(name == "self" for name, _ in self.members)

    @property
    def bots(self) -> tuple[str, ...]:
        """The members played by the project's bots (:data:`BOT_MEMBERS`), in the order given."""
        return tuple(name for name, _ in self.members if name in BOT_MEMBERS)

    def check_game(self, game: str) -> None:
        """A :class:`PopulationError` when a member cannot play ``game`` (a game's code): the
        bots read real cards, so they play the real stud games alone, not Kuhn, Leduc or the
        reduced stud."""
        if self.bots and game not in GAME_CODES:
            raise PopulationError(
                f"population member {self.bots[0]!r} plays only the real games"
                f" ({', '.join(GAME_CODES)}), not {game}"
            )

    def text(self) -> str:
        """The setting as :meth:`parse` reads it (weights to 6 significant digits)."""
        return ",".join(f"{name}:{w:.6g}" for name, w in self.members)

    def draw(self, rng: random.Random) -> str:
        """A member's name drawn by weight."""
        x = rng.random()
        for name, w in self.members:
            x -= w
            if x < 0:
                return name
        return self.members[-1][0]


SELF_PLAY = Population()
"""Plain self-play: every seat the current strategy."""
