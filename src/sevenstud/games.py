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

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import Any, ClassVar, Final, Literal, SupportsIndex, TypeAlias

from sevenstud import evaluate
from sevenstud.cards import Card
from sevenstud.chips import whole
from sevenstud.refusals import Refusal

GameCode: TypeAlias = Literal["stud8", "stud", "razz"]
"""A game's short code, as the command line, PHH user fields and our histories write it."""
LowRule: TypeAlias = Literal[None, "eight_or_better", "any"]
BringInBy: TypeAlias = Literal["lowest", "highest"]

BringInTieBreak = Literal["suits", "seat"]
FirstActorAllIn = Literal["next_clockwise", "best_active"]
OddChipRule = Literal["high_card", "lowest_seat", "high_card_in_hand"]
LowCardAllIn = Literal["next_brings_in", "left_may_open"]
FirstActorTieBreak = Literal["seat", "suits"]
RakeFrom = Literal["each_pot", "main_pot"]

SUIT_ORDER_STANDARD = (0, 1, 2, 3)  # clubs, diamonds, hearts, spades (seeds 000, 002, 003)

HALF: Final = Fraction(1, 2)
"""The default ``reopen_fraction``."""
NO_RAKE: Final = Fraction(0)
"""The default ``rake_percent``."""


def integer_ratio(value: Fraction) -> tuple[int, int]:
    """``value.as_integer_ratio()``: the hand works in whole numbers. Fraction's methods are
    interpreted code even in the compiled engine and every hand asks for the rake, so the
    defaults (the very objects :data:`HALF` and :data:`NO_RAKE`: a Fraction never changes)
    are answered without them."""
    if value is NO_RAKE:
        return 0, 1
    if value is HALF:
        return 1, 2
    return value.as_integer_ratio()
SUIT_ORDER_CHDS = (0, 2, 1, 3)  # clubs, hearts, diamonds, spades (a variant in seed 001)

STREET_NAMES: Final[dict[int, str]] = {
    3: "3rd street",  # the catalogs translate these (sevenstud.i18n.STREETS marks them)
    4: "4th street",
    5: "5th street",
    6: "6th street",
    7: "7th street",
}
"""The streets as a stud player says them, by the number of cards a player holds."""


class GameError(Refusal, ValueError):
    """Stakes or options that make no sense together."""


@dataclass(frozen=True, slots=True, init=False)
class Stakes:
    """Fixed-limit stakes in chips (integers, the smallest unit): the ante, the bring-in, the small
    bet (3rd and 4th street) and the big bet (5th, 6th and 7th street). Each is a whole number
    of chips (not a bool, not a float: :class:`GameError` otherwise)."""

    ante: int
    bring_in: int
    small_bet: int
    big_bet: int

    def __init__(
        self,
        ante: SupportsIndex,
        bring_in: SupportsIndex,
        small_bet: SupportsIndex,
        big_bet: SupportsIndex,
    ) -> None:
        # Its own __init__ (init=False) takes the amounts as given (sevenstud.chips): the one
        # dataclasses writes stores them straight in the slots, which the compiled engine
        # converts first (True becomes 1, 5.0 a TypeError).
        given = {"ante": ante, "bring_in": bring_in, "small_bet": small_bet, "big_bet": big_bet}
        for name, value in given.items():
            object.__setattr__(self, name, whole(value, name, GameError, of="chips"))
        self.__post_init__()

    # Stakes are a value: a copy is the stakes themselves, and a pickle calls the constructor
    # (in the compiled engine the frozen dataclass's own way, setting each slot, is refused).
    def __copy__(self) -> Stakes:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Stakes:
        return self

    def __reduce__(self) -> tuple[type[Stakes], tuple[int, int, int, int]]:
        return Stakes, (self.ante, self.bring_in, self.small_bet, self.big_bet)

    def __post_init__(self) -> None:
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
    def for_limits(cls, small_bet: SupportsIndex, big_bet: SupportsIndex | None = None) -> Stakes:
        """Typical stakes for a small bet (seed 001): ante about 1/5 and bring-in about 1/2 of it."""
        small_bet = whole(small_bet, "small_bet", GameError, of="chips")
        return cls(
            ante=max(1, small_bet // 5),
            bring_in=max(1, small_bet // 2),
            small_bet=small_bet,
            big_bet=2 * small_bet if big_bet is None else big_bet,
        )


class _Variant:
    """What makes a variant of stud itself (its name, its pot halves, who brings in): fixed for
    the class, never an option of a game.

    These class attributes live in a plain base class, outside every dataclass body, because
    mypyc (which compiles the engine, see tools/build_compiled.py) takes a ``ClassVar`` in a
    dataclass body for a field (mypyc issues 740 and 1122); in pure Python it is the same."""

    __slots__ = ()

    name: ClassVar[str] = "Seven Card Stud"
    code: ClassVar[GameCode] = "stud"
    phh_variant: ClassVar[str] = "F7S"
    has_high: ClassVar[bool] = True
    low: ClassVar[LowRule] = None
    bring_in_by: ClassVar[BringInBy] = "lowest"
    has_low: ClassVar[bool] = False
    """Whether a low hand wins the pot or half of it (hi/lo and razz): ``low`` is not None."""
    split: ClassVar[bool] = False
    """Whether the pot is split into a high and a low half (hi/lo): the low must then qualify,
    and with no qualifying low the high hand takes it all."""
    low_must_qualify: ClassVar[bool] = False
    """Whether a low counts only when eight or better (hi/lo; in razz every hand is a low)."""


@dataclass(frozen=True, slots=True)
class Game(_Variant):
    """A stud game with its stakes and options. Use :class:`StudHiLo`, :class:`Stud` or
    :class:`Razz`; each option's default, and the reason for it, is in docs/rules.md."""

    stakes: Stakes
    max_raises: int = 3
    """The cap: one bet and this many raises per betting round."""
    uncapped_heads_up: bool = False
    """No cap when only two players are left in the hand, if they were two before the cap was
    reached in that round (a cap once reached stays: Robert's Rules, betting and raising, 4)."""
    reopen_fraction: Fraction = HALF
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
    """An odd chip among tied players: to the highest card by suit among all of each player's
    cards (in razz the ace is low, a king is highest), to the lowest seat, or
    (``"high_card_in_hand"``, the tournaments' TDA 20-B) to the highest card by suit among the
    five cards that make each tied hand (a low hand's ace is its lowest card)."""
    double_bet_on_open_pair: bool = field(default=False)
    """Stud only: an open pair on 4th street allows the big bet (on by default in :class:`Stud`)."""
    fold_without_bet: bool = True
    """A player may fold when there is nothing to call (the card rooms allow it, pointless as it
    is; PokerKit's tournament mode does not)."""
    rake_percent: Fraction = NO_RAKE
    """Rake taken from the pot before it is split (0 by default: no rake)."""
    rake_cap: int = 0
    """The most rake taken from one hand (0: no cap)."""
    rake_from: RakeFrom = "each_pot"
    """The rake is taken from every pot in proportion to its size (largest remainder), as the card
    room's histories show it, or all of it from the main pot first."""
    all_in_face_up: bool = True
    """Once at most one player can still bet, every live hand is turned face up at once (the
    card rooms' practice today); off: the hands stay down until the showdown."""
    rake_third_street: bool = False
    """Whether ``rake_percent`` rakes a hand that ends on 3rd street, before any 4th-street card
    is dealt (off: no rake, the online rooms' "no flop, no drop" of stud)."""
    low_card_all_in: LowCardAllIn = "next_brings_in"
    """When the low card (the bring-in's door card) is all-in from the ante: the next player
    clockwise must bring in (or complete), or (``"left_may_open"``, the tournaments' TDA RP-10-E)
    the betting starts to its left and that player may bring in, complete or fold, the next one
    then having the same choice."""

    def __new__(cls, *args: Any, **options: Any) -> Game:
        # The whole-number options are checked here, as given (sevenstud.chips): by
        # __post_init__ the compiled engine has already stored them in its int slots, making
        # True 1 and refusing 1.5 with a TypeError. Type checkers read __init__'s signature.
        given = dict(zip((f.name for f in dataclasses.fields(cls)), args, strict=False))
        given.update(options)
        for name in _WHOLE_OPTIONS:
            if name in given:
                whole(given[name], name, GameError, least=0)
        return object.__new__(cls)

    # A game is a value, as Stakes are (see there).
    def __copy__(self) -> Game:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        return self

    def __reduce__(self) -> tuple[type[Game], tuple[object, ...]]:
        return type(self), tuple(getattr(self, f.name) for f in dataclasses.fields(self))

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
        if self.low_card_all_in not in ("next_brings_in", "left_may_open"):
            raise GameError(f"unknown low_card_all_in {self.low_card_all_in!r}")
        if self.odd_chip not in ("high_card", "lowest_seat", "high_card_in_hand"):
            raise GameError(f"unknown odd_chip rule {self.odd_chip!r}")
        if self.double_bet_on_open_pair and (self.has_low or not self.has_high):
            raise GameError(f"{self.name} has no 4th-street double bet")
        if not 0 <= self.rake_percent < 100 or self.rake_cap < 0:
            raise GameError("rake_percent must lie in [0, 100) and rake_cap cannot be negative")

    @property
    def cap(self) -> int:
        """How many bets and raises a betting round allows (1 + ``max_raises``)."""
        return 1 + self.max_raises

    # -------------------------------------------------- the variant's behaviour (Game: stud's)
    # What differs from one variant to the next is written here once, as methods the variants
    # override, so that the engine, the terminal and the history readers ask the game instead of
    # branching on ``low`` or ``bring_in_by``.

    def showdown_ranks(self, cards: Sequence[int]) -> tuple[int, int]:
        """The (high, low) ranks of the best hand in five to seven cards, greater is better;
        0 where the game has no such half or the low does not qualify."""
        return evaluate.high_rank(cards), 0

    def hand_names(self, high: int, low: int) -> tuple[str | None, str | None]:
        """The names a shown hand is announced by, from :meth:`showdown_ranks`: the high hand's
        (None in razz) and the low's (None where there is none, or no qualifying low)."""
        return (
            evaluate.high_name(high) if self.has_high else None,
            evaluate.low_name(low) if low else None,
        )

    def board_key(self, up_cards: Sequence[int]) -> tuple[int, ...]:
        """How good an open board is, for who acts first on 4th to 7th street: the greater key
        acts first (the best high board; in razz the best low board)."""
        return evaluate.board_high_key(up_cards)

    def board_suits_key(self, up_cards: Sequence[Card]) -> tuple[tuple[int, int, int], ...]:
        """Equal boards broken by suit, as the bring-in is (seed 001, ``first_actor_tie_break``
        ``"suits"``): the board's cards from the most telling down (pairs first, then the highest
        card), the higher suit by ``suit_order`` being the better board; greater acts first."""
        return _board_suits(up_cards, self.suit_order, aces_low=False)

    def bring_in_key(self, card: Card) -> tuple[int, int]:
        """The door card with the least key brings in: the lowest rank (aces high), then the
        lowest suit by ``suit_order``. In razz: the highest rank (aces low), then the highest suit."""
        # card >> 2 is its rank, card & 3 its suit (cards.py): the properties are interpreted
        # code even in the compiled engine, and this runs every hand.
        return card >> 2, self.suit_order.index(card & 3)

    def bring_in_seat(self, doors: Mapping[int, Card]) -> int:
        """The seat whose door card brings in, of ``doors`` (seat to door card, the live seats):
        by :meth:`bring_in_key`, equal ranks broken by suit or, with ``bring_in_tie_break``
        ``"seat"``, by the lowest seat (nearest the dealer's left). Before passing it on to the
        next player clockwise when that seat is all-in from the ante (the hand's business)."""
        if not doors:
            raise GameError("nobody has a door card to bring in with")
        key = self.bring_in_key
        if self.bring_in_tie_break == "seat":
            return min(doors, key=lambda seat: (key(doors[seat])[0], seat))
        return min(doors, key=lambda seat: key(doors[seat]))

    def best_board_seat(self, boards: Mapping[int, Sequence[Card]]) -> int:
        """The seat showing the best board, of ``boards`` (seat to up cards, in seat order: the
        seats that may act first): by :meth:`board_key`; equal boards broken by the lowest seat
        or, with ``first_actor_tie_break`` ``"suits"``, by :meth:`board_suits_key`. Passing it on
        clockwise past an all-in seat is the hand's business."""
        if not boards:
            raise GameError("nobody has a board to act first with")
        board_key = self.board_key
        if self.first_actor_tie_break == "suits":
            suits_key = self.board_suits_key
            return max(boards, key=lambda s: (board_key(boards[s]), suits_key(boards[s])))
        return max(boards, key=lambda s: board_key(boards[s]))  # max keeps the first of equals

    def odd_chip_order(self, hands: Sequence[Sequence[Card]]) -> list[int]:
        """The seats in the order an odd chip goes to them, of ``hands`` (each seat's own cards):
        by the highest card among them, by suit (spades highest; a king in razz), or with
        ``odd_chip`` ``"lowest_seat"`` the lowest seat first."""
        if self.odd_chip == "lowest_seat":
            return list(range(len(hands)))
        # "high_card_in_hand" orders each pot half by its winning five cards (Hand's award);
        # among all the cards here, for a hand won without a showdown.
        highest = self.highest_card_order
        return sorted(range(len(hands)), key=lambda s: highest(hands[s]), reverse=True)

    def rake_on(self, total: int, street: int) -> int:
        """The rake taken from a hand of ``total`` chips in its pots, won on ``street``: none on
        3rd street unless ``rake_third_street`` (no 4th-street card: "no flop, no drop"), else
        ``rake_percent`` of the total rounded down, at most ``rake_cap``."""
        if street == 3 and not self.rake_third_street:
            return 0
        # In whole numbers: Fraction arithmetic is slow, even in the compiled engine.
        num, den = integer_ratio(self.rake_percent)
        rake = total * num // (den * 100) if num else 0
        return min(rake, self.rake_cap) if self.rake_cap else rake

    def card_order(self, card: Card) -> int:
        """A card's place from lowest to highest, rank then ``suit_order``, for the odd chip
        (``odd_chip`` ``"high_card"``); in razz the ace is the lowest rank and the king the
        highest, as for razz's bring-in."""
        return (card >> 2) * 4 + self.suit_order.index(card & 3)  # rank, suit: cards.py

    def highest_card_order(self, cards: Sequence[Card]) -> int:
        """The greatest :meth:`card_order` among ``cards`` (-1 for none)."""
        if self.suit_order == SUIT_ORDER_STANDARD:
            return int(max(cards)) if cards else -1  # a card's int is already rank, then suit
        return max((self.card_order(c) for c in cards), default=-1)


    def five_card_order(self, cards: Sequence[Card], *, low: bool) -> tuple[int, ...]:
        """The five cards that make the best high hand of ``cards`` (with ``low``: the best low
        hand), as their card orders from the highest down: the greater tuple takes an odd chip
        among tied hands (``odd_chip`` ``"high_card_in_hand"``, TDA 20-B). A low hand's ace is
        its lowest card; where several fives make the same hand, the best by suit plays."""
        half = 1 if low else 0
        fives = [tuple(c) for c in combinations(cards, 5)] if len(cards) > 5 else [tuple(cards)]
        ranked = [(self.showdown_ranks(five)[half], five) for five in fives]
        best = max(rank for rank, _ in ranked)
        suits = self.suit_order
        return max(
            tuple(
                sorted((_ace_low_order(c, suits) if low else self.card_order(c) for c in five), reverse=True)
            )
            for rank, five in ranked
            if rank == best
        )


_WHOLE_OPTIONS: Final = ("max_raises", "rake_cap")
"""The options that are whole numbers (a count of raises, chips): checked by Game.__new__."""


def _ace_low_order(card: Card, order: tuple[int, int, int, int] = SUIT_ORDER_STANDARD) -> int:
    # A low hand's cards from the lowest up: the ace below the deuce (card >> 2 its rank).
    return (((card >> 2) + 1) % 13) * 4 + order.index(card & 3)


def _board_suits(
    up_cards: Sequence[Card], order: tuple[int, int, int, int], *, aces_low: bool
) -> tuple[tuple[int, int, int], ...]:
    counts: dict[int, int] = {}
    # card >> 2 is a card's rank, card & 3 its suit (cards.py): faster than the properties.
    for card in up_cards:
        rank = card >> 2
        counts[rank] = counts.get(rank, 0) + 1
    # In razz, where the higher suit brings in, the lower suit is the better low board.
    return tuple(
        sorted(
            (
                (
                    counts[c >> 2],
                    ((c >> 2) + 1) % 13 if aces_low else c >> 2,
                    -order.index(c & 3) if aces_low else order.index(c & 3),
                )
                for c in up_cards
            ),
            reverse=True,
        )
    )


# The variants with no new fields are plain subclasses of the dataclass (their fields,
# equality, hash and repr are Game's), so mypyc sees no ClassVar in a dataclass body (see
# _Variant); the empty slots keep instances as lean as Game's.


class StudHiLo(Game):
    """Seven Card Stud Hi/Lo, eight or better: half to the best high, half to the best qualifying
    low; with no qualifying low the high scoops."""

    __slots__ = ()

    name: ClassVar[str] = "Seven Card Stud Hi/Lo"
    code: ClassVar[GameCode] = "stud8"
    phh_variant: ClassVar[str] = "F7S/8"
    low: ClassVar[LowRule] = "eight_or_better"
    has_low: ClassVar[bool] = True
    split: ClassVar[bool] = True
    low_must_qualify: ClassVar[bool] = True

    def showdown_ranks(self, cards: Sequence[int]) -> tuple[int, int]:
        """The high rank and the eight-or-better low rank (0: no qualifying low)."""
        return evaluate.hilo8_ranks(cards)


@dataclass(frozen=True, slots=True)
class Stud(Game):
    """Seven Card Stud (high): the best high hand wins; an open pair on 4th street allows the big
    bet (the option is on by default)."""

    double_bet_on_open_pair: bool = True


class Razz(Game):
    """Razz: ace-to-five lowball, no qualifier; the highest door card brings in (a king is highest)
    and the best low board acts first."""

    __slots__ = ()

    name: ClassVar[str] = "Razz"
    code: ClassVar[GameCode] = "razz"
    phh_variant: ClassVar[str] = "FR"
    has_high: ClassVar[bool] = False
    low: ClassVar[LowRule] = "any"
    has_low: ClassVar[bool] = True
    bring_in_by: ClassVar[BringInBy] = "highest"

    def showdown_ranks(self, cards: Sequence[int]) -> tuple[int, int]:
        """No high; the ace-to-five low rank (every hand has one)."""
        return 0, evaluate.low_rank(cards)

    def board_key(self, up_cards: Sequence[int]) -> tuple[int, ...]:
        """The best ace-to-five low board is greatest (pairs are bad, the highest card counts
        first)."""
        return evaluate.board_low_key(up_cards)

    def board_suits_key(self, up_cards: Sequence[Card]) -> tuple[tuple[int, int, int], ...]:
        """As :meth:`Game.board_suits_key` with the ace low, and the lower suit the better board."""
        return _board_suits(up_cards, self.suit_order, aces_low=True)

    def bring_in_key(self, card: Card) -> tuple[int, int]:
        """The highest door card brings in (the ace low, a king highest), then the highest suit."""
        return -(((card >> 2) + 1) % 13), -self.suit_order.index(card & 3)  # rank, suit

    def card_order(self, card: Card) -> int:
        """As :meth:`Game.card_order` with the ace the lowest rank (a king is razz's highest)."""
        return (((card >> 2) + 1) % 13) * 4 + self.suit_order.index(card & 3)  # rank, suit

    def highest_card_order(self, cards: Sequence[Card]) -> int:
        """The greatest :meth:`card_order` among ``cards`` (-1 for none)."""
        return max((self.card_order(c) for c in cards), default=-1)


GAMES: Final[dict[GameCode, type[Game]]] = {"stud8": StudHiLo, "stud": Stud, "razz": Razz}
"""The games by code, the main game first."""
GAME_CODES: Final[tuple[GameCode, ...]] = tuple(GAMES)
"""``("stud8", "stud", "razz")``."""
GAME_NAMES: Final[dict[GameCode, str]] = {code: cls.name for code, cls in GAMES.items()}
"""The games' names by code: ``{"stud8": "Seven Card Stud Hi/Lo", ...}``."""


def game_facts(game: Game | type[Game]) -> dict[str, object]:
    """What a game has, as the card room's pages and clients ask for it (``GET /api/games``): so
    that no page or client decides a game's rules from its code.

    >>> game_facts(Razz)["has_high"], game_facts(StudHiLo)["split"]
    (False, True)
    """
    return {
        "code": game.code,
        "name": game.name,
        "has_high": game.has_high,
        "has_low": game.has_low,
        "split": game.split,
        "low_must_qualify": game.low_must_qualify,
        "bring_in_by": game.bring_in_by,
    }


def game_class(code: str) -> type[Game]:
    """The game class of a code (``stud8``, ``stud``, ``razz``) or a PHH variant (``F7S/8``...)."""
    for known, cls in GAMES.items():
        if code in (known, cls.phh_variant):
            return cls
    raise GameError("unknown_game", game=repr(code), games=", ".join(GAMES))


_GAME_OF_NAME: Final[dict[str, type[Game]]] = {cls.name: cls for cls in GAMES.values()}


def game_named(name: str) -> type[Game]:
    """The game class whose full name is ``name`` (a view's ``game``: ``"Razz"``, ...); a
    :class:`GameError` naming the games otherwise.

    >>> game_named("Razz").has_high, game_named("Seven Card Stud Hi/Lo").split
    (False, True)
    """
    found = _GAME_OF_NAME.get(name)
    if found is None:
        raise GameError("unknown_game", game=repr(name), games=", ".join(_GAME_OF_NAME))
    return found


def game_by_name(code: str, stakes: Stakes, **options: object) -> Game:
    """The game named ``stud8``, ``stud`` or ``razz`` (also its PHH variant code), with options."""
    return game_class(code)(stakes, **options)  # type: ignore[arg-type]


TOURNAMENT_RULES: Final[Mapping[str, object]] = {
    "double_bet_on_open_pair": False,  # TDA RP-10-F: no doubled bet for an open pair on 4th
    "first_actor_tie_break": "suits",  # TDA RP-10-D: equal boards, the high card by suit
    "low_card_all_in": "left_may_open",  # TDA RP-10-E: the betting starts to its left
    "odd_chip": "high_card_in_hand",  # TDA 20-B: the high card by suit in the five that play
}
"""The options a tournament deals its games with, where the TDA's rules differ from the cash
games' defaults (docs/tournaments.md, "The TDA's stud rulings")."""


def tournament_rules(game: Game) -> Game:
    """``game`` as a tournament deals it: its stakes and options, with :data:`TOURNAMENT_RULES`
    (a game that has them already is given back as it is).

    >>> tournament_rules(Stud(Stakes(1, 2, 5, 10))).double_bet_on_open_pair
    False
    """
    if all(getattr(game, name) == value for name, value in TOURNAMENT_RULES.items()):
        return game
    return dataclasses.replace(game, **TOURNAMENT_RULES)  # type: ignore[arg-type]


def tournament_game(code: str, stakes: Stakes) -> Game:
    """The game ``code`` (``stud8``, ``stud``, ``razz``) at ``stakes`` as a tournament deals it:
    the one way every tournament (the director's play, the card room's tables) makes its game.

    >>> tournament_game("stud", Stakes(1, 2, 5, 10)).first_actor_tie_break
    'suits'
    """
    return tournament_rules(game_class(code)(stakes))
