"""The games, their stakes and the rule options of docs/rules.md (the project's rule book).

A game is a frozen value: which pot halves exist, how the bring-in and the first actor are
chosen, and every option a card room may set. ``StudHiLo`` is the main game.

>>> game = StudHiLo(Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10))
>>> game.name, game.cap
('Seven Card Stud Hi/Lo', 4)
>>> game_by_name("razz", Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)).bring_in_by
'highest'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar, Literal

BringInTieBreak = Literal["suits", "seat"]
FirstActorAllIn = Literal["next_clockwise", "best_active"]
OddChipRule = Literal["high_card", "lowest_seat"]
FirstActorTieBreak = Literal["seat", "suits"]
RakeFrom = Literal["each_pot", "main_pot"]

SUIT_ORDER_STANDARD = (0, 1, 2, 3)  # clubs, diamonds, hearts, spades (seeds 000, 002, 003)
SUIT_ORDER_CHDS = (0, 2, 1, 3)  # clubs, hearts, diamonds, spades (a variant in seed 001)


class GameError(ValueError):
    """Stakes or options that make no sense together."""


@dataclass(frozen=True, slots=True)
class Stakes:
    """Fixed-limit stakes in chips (integers, the smallest unit): the ante, the bring-in, the small
    bet (3rd and 4th street) and the big bet (5th, 6th and 7th street)."""

    ante: int
    bring_in: int
    small_bet: int
    big_bet: int

    def __post_init__(self) -> None:
        for name in ("ante", "bring_in", "small_bet", "big_bet"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise GameError(f"{name} must be a whole number of chips, not {value!r}")
        if self.ante < 0:
            raise GameError(f"the ante cannot be negative ({self.ante})")
        if self.bring_in <= 0:
            raise GameError(f"the bring-in must be at least one chip ({self.bring_in})")
        if self.small_bet < self.bring_in:
            raise GameError(
                f"the small bet ({self.small_bet}) cannot be smaller than the bring-in ({self.bring_in})"
            )
        if self.big_bet < self.small_bet:
            raise GameError(
                f"the big bet ({self.big_bet}) cannot be smaller than the small bet ({self.small_bet})"
            )

    @classmethod
    def for_limits(cls, small_bet: int, big_bet: int | None = None) -> Stakes:
        """Typical stakes for a small bet (seed 001): ante about 1/5 and bring-in about 1/2 of it."""
        return cls(
            ante=max(1, small_bet // 5),
            bring_in=max(1, small_bet // 2),
            small_bet=small_bet,
            big_bet=2 * small_bet if big_bet is None else big_bet,
        )


@dataclass(frozen=True, slots=True)
class Game:
    """A stud game with its stakes and options. Use :class:`StudHiLo`, :class:`Stud` or
    :class:`Razz`; each option's default, and the reason for it, is in docs/rules.md."""

    stakes: Stakes
    max_raises: int = 3
    """The cap: one bet and this many raises per betting round."""
    uncapped_heads_up: bool = False
    """No cap when only two players are left in the hand, if they were two before the cap was
    reached in that round (a cap once reached stays: Robert's Rules, betting and raising, 4)."""
    reopen_fraction: Fraction = Fraction(1, 2)
    """An all-in bet or raise of at least this part of a full bet is a full bet (it counts toward
    the cap and reopens the betting); a smaller one does not (Robert's Rules, betting and
    raising, 6)."""
    bring_in_tie_break: BringInTieBreak = "suits"
    """Equal door cards: broken by ``suit_order``, or by the lowest seat (nearest the dealer's left)."""
    suit_order: tuple[int, int, int, int] = SUIT_ORDER_STANDARD
    """Suits from lowest to highest for the bring-in (0 clubs, 1 diamonds, 2 hearts, 3 spades)."""
    first_actor_tie_break: FirstActorTieBreak = "seat"
    """Equal best boards on 4th to 7th street: the lowest seat (nearest the dealer's left) acts
    first, or the board whose cards are higher by ``suit_order``, as for the bring-in (seed 001)."""
    first_actor_all_in: FirstActorAllIn = "next_clockwise"
    """When the best board is all-in: the next player clockwise who can act, or the best board
    among the players who can act."""
    odd_chip: OddChipRule = "high_card"
    """An odd chip among tied players: to the highest card by suit (in razz the ace is low, a king
    is highest), or to the lowest seat."""
    double_bet_on_open_pair: bool = field(default=False)
    """Stud only: an open pair on 4th street allows the big bet (on by default in :class:`Stud`)."""
    fold_without_bet: bool = True
    """A player may fold when there is nothing to call (the card rooms allow it, pointless as it
    is; PokerKit's tournament mode does not)."""
    rake_percent: Fraction = Fraction(0)
    """Rake taken from the pot before it is split (0 by default: no rake)."""
    rake_cap: int = 0
    """The most rake taken from one hand (0: no cap)."""
    rake_from: RakeFrom = "each_pot"
    """The rake is taken from every pot in proportion to its size (largest remainder), as the card
    room's histories show it, or all of it from the main pot first."""
    all_in_face_up: bool = True
    """Once at most one player can still bet, every live hand is turned face up at once (the
    card rooms' practice today); off: the hands stay down until the showdown."""

    name: ClassVar[str] = "Seven Card Stud"
    code: ClassVar[str] = "stud"
    phh_variant: ClassVar[str] = "F7S"
    has_high: ClassVar[bool] = True
    low: ClassVar[Literal[None, "eight_or_better", "any"]] = None
    bring_in_by: ClassVar[Literal["lowest", "highest"]] = "lowest"

    def __post_init__(self) -> None:
        if self.max_raises < 0:
            raise GameError(f"max_raises cannot be negative ({self.max_raises})")
        if not 0 <= self.reopen_fraction <= 1:
            raise GameError(f"reopen_fraction must lie in [0, 1], not {self.reopen_fraction}")
        if sorted(self.suit_order) != [0, 1, 2, 3]:
            raise GameError(f"suit_order must order the four suits 0..3, not {self.suit_order}")
        if self.bring_in_tie_break not in ("suits", "seat"):
            raise GameError(f"unknown bring_in_tie_break {self.bring_in_tie_break!r}")
        if self.first_actor_all_in not in ("next_clockwise", "best_active"):
            raise GameError(f"unknown first_actor_all_in {self.first_actor_all_in!r}")
        if self.first_actor_tie_break not in ("seat", "suits"):
            raise GameError(f"unknown first_actor_tie_break {self.first_actor_tie_break!r}")
        if self.rake_from not in ("each_pot", "main_pot"):
            raise GameError(f"unknown rake_from {self.rake_from!r}")
        if self.odd_chip not in ("high_card", "lowest_seat"):
            raise GameError(f"unknown odd_chip rule {self.odd_chip!r}")
        if self.double_bet_on_open_pair and (self.low is not None or not self.has_high):
            raise GameError(f"{self.name} has no 4th-street double bet")
        if not 0 <= self.rake_percent < 100 or self.rake_cap < 0:
            raise GameError("rake_percent must lie in [0, 100) and rake_cap cannot be negative")

    @property
    def cap(self) -> int:
        """How many bets and raises a betting round allows (1 + ``max_raises``)."""
        return 1 + self.max_raises


@dataclass(frozen=True, slots=True)
class StudHiLo(Game):
    """Seven Card Stud Hi/Lo, eight or better: half to the best high, half to the best qualifying
    low; with no qualifying low the high scoops."""

    name: ClassVar[str] = "Seven Card Stud Hi/Lo"
    code: ClassVar[str] = "stud8"
    phh_variant: ClassVar[str] = "F7S/8"
    low: ClassVar[Literal[None, "eight_or_better", "any"]] = "eight_or_better"


@dataclass(frozen=True, slots=True)
class Stud(Game):
    """Seven Card Stud (high): the best high hand wins; an open pair on 4th street allows the big
    bet (the option is on by default)."""

    double_bet_on_open_pair: bool = True
    name: ClassVar[str] = "Seven Card Stud"
    code: ClassVar[str] = "stud"
    phh_variant: ClassVar[str] = "F7S"


@dataclass(frozen=True, slots=True)
class Razz(Game):
    """Razz: ace-to-five lowball, no qualifier; the highest door card brings in (a king is highest)
    and the best low board acts first."""

    name: ClassVar[str] = "Razz"
    code: ClassVar[str] = "razz"
    phh_variant: ClassVar[str] = "FR"
    has_high: ClassVar[bool] = False
    low: ClassVar[Literal[None, "eight_or_better", "any"]] = "any"
    bring_in_by: ClassVar[Literal["lowest", "highest"]] = "highest"


GAMES: dict[str, type[Game]] = {"stud8": StudHiLo, "stud": Stud, "razz": Razz}


def game_by_name(code: str, stakes: Stakes, **options: object) -> Game:
    """The game named ``stud8``, ``stud`` or ``razz`` (also its PHH variant code), with options."""
    cls = GAMES.get(code) or next((g for g in GAMES.values() if g.phh_variant == code), None)
    if cls is None:
        raise GameError(f"unknown game {code!r}: expected one of {', '.join(GAMES)}")
    return cls(stakes, **options)  # type: ignore[arg-type]
