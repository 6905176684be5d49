"""A tournament's structure as data: its levels (ante, bring-in, small bet, big bet, how long)
and its breaks, with the structures a stud player knows shipped as defaults.

The rulings behind these choices are in docs/tournaments.md.

>>> STANDARD.levels[0].stakes
Stakes(ante=2, bring_in=5, small_bet=20, big_bet=40)
>>> STANDARD.level(99) == STANDARD.levels[-1]      # past the last level, the last one stays
True
"""

from __future__ import annotations

from dataclasses import dataclass

from sevenstud.games import GAMES, Game, GameCode, Stakes, tournament_game
from sevenstud.refusals import Refusal


class StructureError(Refusal, ValueError):
    """A structure, level or template that makes no sense; the message says which part."""


def _whole(name: str, value: object, least: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise StructureError("setting_too_small", name=name, least=least, value=repr(value))
    return value


@dataclass(frozen=True, slots=True)
class Level:
    """One level: its stakes and how long it lasts, in minutes of play or in hands.

    ``game`` names the game of this level in a rotation (``None``: the template's game)."""

    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    minutes: float | None = 10.0
    hands: int | None = None
    game: GameCode | None = None

    def __post_init__(self) -> None:
        Stakes(self.ante, self.bring_in, self.small_bet, self.big_bet)  # the engine's own checks
        if (self.minutes is None) == (self.hands is None):
            raise StructureError("a level lasts a number of minutes or a number of hands, exactly one")
        if self.minutes is not None and (
            isinstance(self.minutes, bool)
            or not isinstance(self.minutes, int | float)
            or not self.minutes > 0
        ):
            raise StructureError(f"a level's minutes must be positive, not {self.minutes!r}")
        if self.hands is not None:
            _whole("a level's hands", self.hands, 1)
        if self.game is not None and self.game not in GAMES:
            raise StructureError("unknown_game", game=repr(self.game), games=", ".join(GAMES))

    @property
    def stakes(self) -> Stakes:
        """The level's stakes as the engine takes them."""
        return Stakes(self.ante, self.bring_in, self.small_bet, self.big_bet)

    def describe(self) -> str:
        """``"ante 2, bring-in 5, 20/40"``, as a lobby prints it."""
        return f"ante {self.ante}, bring-in {self.bring_in}, {self.small_bet}/{self.big_bet}"


@dataclass(frozen=True, slots=True)
class Structure:
    """Levels rising on the clock, and breaks taken by every table at the same moment.

    ``break_every`` is minutes of play between breaks (``None``: no breaks); a break lasts
    ``break_minutes`` and the level clock stands still during it."""

    name: str
    levels: tuple[Level, ...]
    break_every: float | None = 55.0
    break_minutes: float = 5.0

    def __post_init__(self) -> None:
        if not self.levels:
            raise StructureError("a structure needs at least one level")
        for before, after in zip(self.levels, self.levels[1:], strict=False):
            if after.big_bet < before.big_bet:
                raise StructureError(f"levels must not fall: {after.describe()} follows {before.describe()}")
        if self.break_every is not None and not self.break_every > 0:
            raise StructureError(f"break_every must be positive minutes, not {self.break_every!r}")
        if not self.break_minutes >= 0:
            raise StructureError(f"break_minutes cannot be negative ({self.break_minutes!r})")

    def level(self, index: int) -> Level:
        """Level ``index`` (0 is the first); past the last level the last one stays, as card rooms
        print "the last level continues"."""
        return self.levels[min(index, len(self.levels) - 1)]

    def game_of(self, index: int, default: GameCode) -> Game:
        """The game dealt at level ``index`` (the level's own, else ``default``), with that
        level's stakes, as a tournament deals it (:func:`~sevenstud.games.tournament_game`:
        the TDA's stud rulings, no doubled bet for an open pair on 4th street among them)."""
        level = self.level(index)
        return tournament_game(level.game or default, level.stakes)


# A stud tournament's limits rise through 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 of each power of
# ten (doubling about every three levels), the ante about a tenth and the bring-in about a
# quarter of the small bet, the big bet twice it: the shape of the stud structures the large
# online rooms deal, with 1,500 starting chips worth 37 big bets at the first level.
_STEPS = (10, 12, 15, 20, 25, 30, 40, 50, 60, 80)


def rising_limits(count: int, first_small_bet: int = 20) -> list[Stakes]:
    """``count`` stakes rising from ``first_small_bet`` (which must be one of the steps: 10, 12,
    15, 20, 25, 30, 40, 50, 60, 80 times a power of ten)."""
    scale, step = 1, first_small_bet
    while step not in _STEPS:
        if step % 10:
            raise StructureError(f"{first_small_bet} is not one of the structure's steps")
        step, scale = step // 10, scale * 10
    index = _STEPS.index(step)
    stakes = []
    for _ in range(count):
        small = _STEPS[index % 10] * scale * 10 ** (index // 10)
        stakes.append(Stakes(max(1, small // 10), max(1, small // 4), small, 2 * small))
        index += 1
    return stakes


def _levels(count: int, *, minutes: float | None = None, hands: int | None = None) -> tuple[Level, ...]:
    return tuple(
        Level(s.ante, s.bring_in, s.small_bet, s.big_bet, minutes=minutes, hands=hands)
        for s in rising_limits(count)
    )


STANDARD = Structure("Standard (10-minute levels)", _levels(40, minutes=10.0))
"""10-minute levels, a 5-minute break after every 55 minutes of play."""
TURBO = Structure("Turbo (3-minute levels)", _levels(40, minutes=3.0), break_every=None)
"""3-minute levels, no breaks: a sit-and-go's pace."""
HYPER_BY_HANDS = Structure("Turbo by hands (8 hands a level)", _levels(40, hands=8), break_every=None)
"""Levels of 8 hands each, counted on the fastest table, for play at any speed."""
HEADS_UP = Structure("Heads-up (5-minute levels)", _levels(40, minutes=5.0), break_every=None)
"""5-minute levels for two players."""

STRUCTURES: dict[str, Structure] = {
    "standard": STANDARD,
    "turbo": TURBO,
    "hyper-hands": HYPER_BY_HANDS,
    "heads-up": HEADS_UP,
}
"""The shipped structures by their short names."""
