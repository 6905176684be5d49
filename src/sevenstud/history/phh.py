"""Read and write PHH (Poker Hand History) files for the stud variants.

PHH is the TOML-based format that PokerKit reads and writes (spec: phh.readthedocs.io, source
github.com/uoftcprg/phh-std). This module handles the three stud variant codes only, with chips
as integers. The facts of the spec that matter for stud:

* **Variants**: ``"F7S"`` fixed-limit seven card stud, ``"F7S/8"`` its high/low split eight or
  better, ``"FR"`` fixed-limit razz.
* **Required fields** for them: ``variant``, ``antes`` (one per player), ``bring_in``,
  ``small_bet``, ``big_bet``, ``starting_stacks`` (one per player) and ``actions`` (an array of
  strings). ``blinds_or_straddles`` and ``min_bet`` must never appear in a stud hand.
* **Optional fields**, in the spec's order: ``author event url venue address city region
  postal_code country time time_zone time_zone_abbreviation day month year hand level seats
  seat_count table players finishing_stacks winnings currency currency_symbol
  ante_trimming_status time_limit time_banks``. ``time`` is a TOML local time; ``hand`` and
  ``table`` are a string or an integer. Unknown fields are kept (user-defined ones should start
  with ``_``). Fields may come in any order; the writer puts the required ones first.
* **Players** are ``p1``, ``p2``, ... in clockwise order from the dealer's immediate left (stud has
  no button); every per-player array follows that order. The dealer is ``d``.
* **Actions** (words separated by whitespace, an optional ``# commentary`` at the end)::

      d dh p1 ????7c     deal hole cards to p1 (here 2 unknown down cards and the 7c)
      d db 9d            deal a community card to the board
      p1 pb              post the bring-in
      p2 cbr 20          complete, bet or raise *to* 20
      p3 cc              check or call
      p1 f               fold
      p2 sm AsKs2d2c7c   show these cards; ``p2 sm -`` shows the cards already dealt to p2;
      p2 sm              a bare ``sm`` is a muck
      # a note           a no-op: only a commentary (an empty string is one too)

* **Cards** are written two characters each, concatenated with no separator: rank
  ``23456789TJQKA`` then suit ``cdhs``; an unknown card is ``??``.
* **Stud up and down cards**: the notation does *not* mark them. ``d dh`` deals a player's cards
  in order, and the street structure decides which are face up (PokerKit's stud streets:
  third street down, down, up; fourth to sixth street up; seventh street down). So the third
  card of ``d dh p1 ????7c`` is the door card, and a card dealt as a player's 7th is down.
  :meth:`PHHHand.parsed_actions` works this out; :func:`parse_action` alone cannot.
* **The community card**: when the deck cannot give every remaining player a seventh-street
  card, one card is dealt face up to the board for all: ``d db XX`` (PokerKit deals a board
  card whenever a street's hole cards would exceed the cards left).
* **Several hands in one file** (``.phhs``, as PokerKit's ``dump_all``/``load_all`` write and
  read them): each hand is a TOML table, ``[1]``, ``[2]``, ...

>>> hand = loads('''
... variant = "FR"
... antes = [1, 1]
... bring_in = 1
... small_bet = 4
... big_bet = 8
... starting_stacks = [100, 100]
... actions = ["d dh p1 ????Kc", "d dh p2 ????3d", "p1 pb", "p2 f # folds a three"]
... ''')
>>> hand.player_count, hand.actions[2]
(2, 'p1 pb')
>>> action = parse_action("p2 cbr 20 # completes")
>>> action.kind, action.actor, action.amount, action.comment
('complete_bet_raise', 1, 20, 'completes')
>>> [a.up for a in hand.parsed_actions()[:2]]
[[False, False, True], [False, False, True]]
>>> loads(dumps(hand)) == hand
True
"""

from __future__ import annotations

import datetime
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Final, Literal, NoReturn, TypeAlias, get_args

from sevenstud.cards import CardError, parse_cards
from sevenstud.history.phh_fields import (
    _CHECKS,
    _PER_PLAYER,
    PHHError,
    _check_toml_value,
    _describe,
    _is_int,
    _toml_key,
    _toml_string,
    _toml_value,
)

__all__ = [
    "OPTIONAL_FIELDS",
    "REQUIRED_FIELDS",
    "UNKNOWN_CARD",
    "VARIANTS",
    "ActionKind",
    "PHHAction",
    "PHHError",
    "PHHHand",
    "dump",
    "dump_all",
    "dumps",
    "dumps_all",
    "format_action",
    "load",
    "load_all",
    "loads",
    "loads_all",
    "parse_action",
]

VARIANTS: Final[dict[str, str]] = {
    "F7S": "Fixed-limit seven card stud",
    "F7S/8": "Fixed-limit seven card stud high/low-split eight or better",
    "FR": "Fixed-limit razz",
}
"""The variant codes this module reads and writes, with the spec's names for them."""

REQUIRED_FIELDS: Final[tuple[str, ...]] = (
    "variant",
    "antes",
    "bring_in",
    "small_bet",
    "big_bet",
    "starting_stacks",
    "actions",
)
"""The fields every stud hand must have, in the order the writer puts them."""

OPTIONAL_FIELDS: Final[tuple[str, ...]] = (
    "author",
    "event",
    "url",
    "venue",
    "address",
    "city",
    "region",
    "postal_code",
    "country",
    "time",
    "time_zone",
    "time_zone_abbreviation",
    "day",
    "month",
    "year",
    "hand",
    "level",
    "seats",
    "seat_count",
    "table",
    "players",
    "finishing_stacks",
    "winnings",
    "currency",
    "currency_symbol",
    "ante_trimming_status",
    "time_limit",
    "time_banks",
)
"""The optional fields of the spec, in the spec's order (also the writer's)."""

_NOT_FOR_STUD: Final[dict[str, str]] = {
    "blinds_or_straddles": "stud uses a bring-in, and the spec forbids blinds with one",
    "min_bet": "min_bet belongs to no-limit and pot-limit games; stud is fixed-limit",
}

UNKNOWN_CARD: Final = "??"
"""How PHH writes a card nobody saw."""

STUD_HOLE_CARDS: Final = 7
_UP_POSITIONS: Final = frozenset({2, 3, 4, 5})  # 0-based: 3rd card (door card) to 6th are up

ActionKind: TypeAlias = Literal[
    "deal_hole",
    "deal_board",
    "post_bring_in",
    "complete_bet_raise",
    "check_call",
    "fold",
    "show_muck",
    "no_op",
]
_PLAYER_KINDS: Final = frozenset(
    {"post_bring_in", "complete_bet_raise", "check_call", "fold", "show_muck"}
)
_VERBS: Final[dict[str, ActionKind]] = {
    "pb": "post_bring_in",
    "cbr": "complete_bet_raise",
    "cc": "check_call",
    "f": "fold",
    "sm": "show_muck",
}
_EXPECTED_ACTIONS: Final = (
    "'d dh pN CARDS', 'd db CARDS', 'pN pb', 'pN cbr AMOUNT', 'pN cc', 'pN f', "
    "'pN sm [CARDS or -]' or '# commentary'"
)


# -- actions ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PHHAction:
    """One entry of ``actions``, parsed.

    ``actor`` is the 0-based index of the player who acts, or ``None`` when the dealer ``d`` acts
    (the deals) or nobody does (a no-op). ``player`` is the player the action is about: the one
    being dealt to for ``deal_hole``, else the actor. ``cards`` holds two-character card strings
    (``"??"`` for an unknown card); for ``show_muck`` it is ``None`` for a muck, and also for
    ``p1 sm -`` (show the cards already dealt), which sets ``shows_dealt``. ``up`` says card by card
    whether a dealt card is face up; the notation does not say, so :func:`parse_action` leaves it
    ``None`` and :meth:`PHHHand.parsed_actions` fills it in from the stud street structure.
    ``comment`` is the commentary after ``#``, stripped, or ``None`` when there is none.
    """

    kind: ActionKind
    actor: int | None = None
    player: int | None = None
    amount: int | None = None
    cards: list[str] | None = None
    up: list[bool] | None = None
    shows_dealt: bool = False
    comment: str | None = None

    def __post_init__(self) -> None:
        kind = self.kind
        if kind in _PLAYER_KINDS and self.player is None:
            object.__setattr__(self, "player", self.actor)
        if self.comment is not None:
            if not isinstance(self.comment, str):
                raise PHHError(f"comment: expected a string, got {self.comment!r}")
            object.__setattr__(self, "comment", self.comment.strip())

        def bad(why: str) -> NoReturn:
            raise PHHError(f"{kind} action: {why}")

        for name in ("actor", "player", "amount"):
            value = getattr(self, name)
            if value is not None and (not _is_int(value) or value < 0):
                bad(f"{name} must be a non-negative integer or None, not {value!r}")
        if self.cards is not None:
            if not isinstance(self.cards, list) or not self.cards:
                bad(f"cards must be a non-empty list of card strings or None, not {self.cards!r}")
            for card in self.cards:
                if not isinstance(card, str) or _card_text(card) is None:
                    bad(f"not a card: {card!r} (expected e.g. 'As', or '??' for an unknown card)")
        if self.up is not None and (
            not isinstance(self.up, list)
            or self.cards is None
            or len(self.up) != len(self.cards)
            or not all(isinstance(u, bool) for u in self.up)
        ):
            bad("up must be None or a list of booleans, one per card")
        if kind in ("deal_hole", "deal_board"):
            if self.actor is not None:
                bad("the dealer deals: actor must be None")
            if (kind == "deal_hole") != (self.player is not None):
                bad("deal_hole needs the player dealt to; deal_board has no player")
            if self.cards is None:
                bad("a deal needs cards")
        elif kind in _PLAYER_KINDS:
            if self.actor is None or self.player != self.actor:
                bad("a player action needs actor (and player, if given, equal to it)")
            if kind != "show_muck" and self.cards is not None:
                bad("only deals and shows have cards")
        elif kind == "no_op":
            if self.actor is not None or self.player is not None or self.cards is not None:
                bad("a no-op has no actor, player or cards")
        else:
            bad(f"unknown kind (expected one of {', '.join(get_args(ActionKind))})")
        if (kind == "complete_bet_raise") != (self.amount is not None):
            bad("complete_bet_raise needs an amount, and no other action has one")
        if kind == "complete_bet_raise" and self.amount == 0:
            bad("the amount to complete, bet or raise to must be positive")
        if self.shows_dealt and (kind != "show_muck" or self.cards is not None):
            bad("shows_dealt is for 'pN sm -' only, which names no cards")
        if self.up is not None and kind not in ("deal_hole", "deal_board"):
            bad("only dealt cards are face up or face down")

    @property
    def is_muck(self) -> bool:
        """True for ``pN sm`` with nothing after it."""
        return self.kind == "show_muck" and self.cards is None and not self.shows_dealt

    def __str__(self) -> str:
        return format_action(self)


_CARD_RE: Final = re.compile(r"[2-9TJQKA][cdhs]\Z")
_PLAYER_RE: Final = re.compile(r"p([1-9][0-9]*)\Z")
_AMOUNT_RE: Final = re.compile(r"[0-9]+\Z")


def _card_text(text: str) -> str | None:
    """The canonical two-character card, ``"??"``, or ``None`` when ``text`` is not one."""
    if text == UNKNOWN_CARD:
        return text
    if _CARD_RE.match(text) is None:
        return None
    return str(parse_cards(text)[0])


def _parse_card_run(text: str, line: str) -> list[str]:
    """``"????7c"`` -> ``["??", "??", "7c"]``; raises naming ``line``."""
    if len(text) % 2:
        raise PHHError(
            f"bad action {line!r}: cards {text!r} have an odd number of characters "
            "(expected two characters per card, e.g. 'AsKd' or '????7c')"
        )
    cards: list[str] = []
    for i in range(0, len(text), 2):
        chunk = text[i : i + 2]
        card = _card_text(chunk)
        if card is None:
            raise PHHError(
                f"bad action {line!r}: {chunk!r} is not a card (expected a rank 23456789TJQKA "
                "then a suit cdhs, such as 'Td', or '??' for an unknown card)"
            )
        cards.append(card)
    try:
        parse_cards([c for c in cards if c != UNKNOWN_CARD])
    except CardError as error:
        raise PHHError(f"bad action {line!r}: {error}") from None
    return cards


def _parse_player(word: str, line: str) -> int:
    m = _PLAYER_RE.match(word)
    if m is None:
        raise PHHError(
            f"bad action {line!r}: expected the dealer 'd' or a player 'p1', 'p2', ... at {word!r}"
        )
    return int(m.group(1)) - 1


def parse_action(line: str) -> PHHAction:
    """Parse one entry of ``actions``; what is not PHH stud notation raises :class:`PHHError`.

    >>> deal = parse_action("d dh p1 ????7c")
    >>> deal.kind, deal.actor, deal.player, deal.cards
    ('deal_hole', None, 0, ['??', '??', '7c'])
    >>> parse_action("p3 sm").is_muck
    True
    """
    if not isinstance(line, str):
        raise PHHError(f"bad action {line!r}: expected a string")
    head, hash_sign, tail = line.partition("#")
    comment = tail.strip() if hash_sign else None
    if hash_sign and head and not head[-1].isspace():
        raise PHHError(f"bad action {line!r}: expected whitespace before the '#' of a commentary")
    words = head.split()

    def fail(expected: str) -> NoReturn:
        raise PHHError(f"bad action {line!r}: {expected}")

    if not words:
        return PHHAction("no_op", comment=comment)
    if words[0] == "d":
        what = words[1] if len(words) > 1 else None
        if what == "dh":
            if len(words) != 4:
                fail("expected 'd dh pN CARDS' (the player dealt to, then the cards, e.g. ????7c)")
            player = _parse_player(words[2], line)
            cards = _parse_card_run(words[3], line)
            return PHHAction("deal_hole", player=player, cards=cards, comment=comment)
        if what == "db":
            if len(words) != 3:
                fail("expected 'd db CARDS' (the board card(s) dealt, e.g. 9d)")
            cards = _parse_card_run(words[2], line)
            return PHHAction("deal_board", cards=cards, comment=comment)
        fail("expected 'dh' (deal hole cards) or 'db' (deal board cards) after the dealer 'd'")
    actor = _parse_player(words[0], line)
    if len(words) < 2:
        fail(f"expected an action after {words[0]!r}: pb, cbr AMOUNT, cc, f or sm")
    verb, args = words[1], words[2:]
    if verb == "sd":
        fail("'sd' (stand pat or discard) is a draw-game action; stud has no draws")
    kind = _VERBS.get(verb)
    if kind is None:
        fail(f"unknown action {verb!r} (expected one of {_EXPECTED_ACTIONS})")
    if kind == "complete_bet_raise":
        if len(args) != 1:
            fail("expected 'pN cbr AMOUNT' (the total to complete, bet or raise to)")
        if _AMOUNT_RE.match(args[0]) is None or int(args[0]) == 0:
            fail(
                f"expected a positive whole number of chips after 'cbr', got {args[0]!r} "
                "(chips are integers here)"
            )
        return PHHAction(kind, actor=actor, amount=int(args[0]), comment=comment)
    if kind == "show_muck":
        if len(args) > 1:
            fail("expected 'pN sm' (muck), 'pN sm CARDS' (show) or 'pN sm -' (show as dealt)")
        if not args:
            return PHHAction(kind, actor=actor, comment=comment)
        if args[0] == "-":
            return PHHAction(kind, actor=actor, shows_dealt=True, comment=comment)
        return PHHAction(kind, actor=actor, cards=_parse_card_run(args[0], line), comment=comment)
    if args:
        fail(f"expected nothing after {verb!r}, got {' '.join(args)!r}")
    return PHHAction(kind, actor=actor, comment=comment)


def format_action(action: PHHAction) -> str:
    """The PHH notation of an action; ``parse_action(format_action(a))`` equals ``a`` less ``up``.

    >>> format_action(PHHAction("complete_bet_raise", actor=0, amount=8, comment="completes"))
    'p1 cbr 8 # completes'
    """
    kind = action.kind
    if kind == "no_op":
        body = ""
    elif kind == "deal_hole":
        assert action.player is not None and action.cards is not None
        body = f"d dh p{action.player + 1} {''.join(action.cards)}"
    elif kind == "deal_board":
        assert action.cards is not None
        body = "d db " + "".join(action.cards)
    else:
        assert action.actor is not None
        verb = next(v for v, k in _VERBS.items() if k == kind)
        body = f"p{action.actor + 1} {verb}"
        if kind == "complete_bet_raise":
            body += f" {action.amount}"
        elif action.shows_dealt:
            body += " -"
        elif action.cards is not None:
            body += " " + "".join(action.cards)
    if action.comment is None:
        return body
    return f"{body} # {action.comment}".strip()


# -- the hand -----------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class PHHHand:
    """One hand in PHH, with chips as integers; construction checks it against the spec.

    ``actions`` keeps the notation strings as written (parsed by :meth:`parsed_actions`), and
    ``extra`` keeps every field this module does not know, such as user-defined ``_fields``.
    An optional field left out is ``None``.
    """

    variant: str
    antes: list[int]
    bring_in: int
    small_bet: int
    big_bet: int
    starting_stacks: list[int]
    actions: list[str]
    author: str | None = None
    event: str | None = None
    url: str | None = None
    venue: str | None = None
    address: str | None = None
    city: str | None = None
    region: str | None = None
    postal_code: str | None = None
    country: str | None = None
    time: datetime.time | None = None
    time_zone: str | None = None
    time_zone_abbreviation: str | None = None
    day: int | None = None
    month: int | None = None
    year: int | None = None
    hand: str | int | None = None
    level: int | None = None
    seats: list[int] | None = None
    seat_count: int | None = None
    table: str | int | None = None
    players: list[str] | None = None
    finishing_stacks: list[int] | None = None
    winnings: list[int] | None = None
    currency: str | None = None
    currency_symbol: str | None = None
    ante_trimming_status: bool | None = None
    time_limit: int | float | None = None
    time_banks: list[int | float] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.variant, str) or self.variant not in VARIANTS:
            raise PHHError(
                f"variant: unsupported variant {self.variant!r} "
                f"(this reader handles the stud variants {', '.join(map(repr, VARIANTS))})"
            )
        for name in REQUIRED_FIELDS:
            if getattr(self, name) is None:
                raise PHHError(f"{name}: a required field, it cannot be None")
        for name, check in _CHECKS.items():
            value = getattr(self, name)
            if value is not None:
                check(name, value)
        count = len(self.starting_stacks)
        if count < 2:
            raise PHHError(f"starting_stacks: a hand needs at least 2 players, got {count}")
        for name in _PER_PLAYER:
            value = getattr(self, name)
            if value is not None and len(value) != count:
                raise PHHError(
                    f"{name}: expected one entry per player ({count}, as in starting_stacks), "
                    f"got {len(value)}"
                )
        if self.month is not None and self.month > 12:
            raise PHHError(f"month: expected 1 to 12, got {self.month}")
        if self.day is not None and self.day > 31:
            raise PHHError(f"day: expected 1 to 31, got {self.day}")
        if self.seat_count is not None and self.seat_count < count:
            raise PHHError(f"seat_count: {self.seat_count} seats cannot hold {count} players")
        if not isinstance(self.extra, dict):
            raise PHHError(f"extra: expected a dict of unknown fields, got {_describe(self.extra)}")
        for key, value in self.extra.items():
            if not isinstance(key, str):
                raise PHHError(f"extra: field names are strings, not {key!r}")
            if key in _CHECKS:
                raise PHHError(f"extra: {key!r} is a PHH field; set it as an attribute instead")
            if key in _NOT_FOR_STUD:
                raise PHHError(f"{key}: not allowed in a stud hand ({_NOT_FOR_STUD[key]})")
            _check_toml_value(key, value)
        _annotate(self.actions, count)

    @property
    def player_count(self) -> int:
        """How many players were dealt in (the length of ``starting_stacks``)."""
        return len(self.starting_stacks)

    def parsed_actions(self) -> list[PHHAction]:
        """Every action parsed, with ``up`` filled in for deals from the stud street structure.

        A player's 1st, 2nd and 7th hole cards are down, the 3rd to 6th up; a board card is up.
        """
        return _annotate(self.actions, self.player_count)


def _annotate(actions: list[str], count: int) -> list[PHHAction]:
    """Parse and check every action in the context of the hand; raise naming ``actions[i]``."""
    parsed: list[PHHAction] = []
    hole: list[list[str]] = [[] for _ in range(count)]
    dealt_at: dict[str, int] = {}
    for i, line in enumerate(actions):
        where = f"actions[{i}] {line!r}"
        try:
            action = parse_action(line)
        except PHHError as error:
            raise PHHError(f"actions[{i}]: {error}") from None
        player = action.player
        if player is not None and player >= count:
            raise PHHError(f"{where}: there is no player p{player + 1} (the hand has {count})")
        up: list[bool] | None = None
        if action.kind in ("deal_hole", "deal_board"):
            assert action.cards is not None
            for card in action.cards:
                if card != UNKNOWN_CARD:
                    if card in dealt_at:
                        raise PHHError(
                            f"{where}: {card} was already dealt in actions[{dealt_at[card]}]"
                        )
                    dealt_at[card] = i
            if player is None:
                up = [True] * len(action.cards)
            else:
                held = hole[player]
                if len(held) + len(action.cards) > STUD_HOLE_CARDS:
                    raise PHHError(
                        f"{where}: p{player + 1} would hold {len(held) + len(action.cards)} "
                        f"cards; stud deals a player at most {STUD_HOLE_CARDS}"
                    )
                up = [len(held) + k in _UP_POSITIONS for k in range(len(action.cards))]
                held.extend(action.cards)
        elif action.shows_dealt:
            assert player is not None
            if not hole[player] or UNKNOWN_CARD in hole[player]:
                raise PHHError(
                    f"{where}: 'sm -' shows the cards dealt to p{player + 1}, "
                    "but they were not all written down (name the cards shown instead)"
                )
        if up is not None:
            action = PHHAction(
                action.kind,
                actor=action.actor,
                player=action.player,
                cards=action.cards,
                up=up,
                comment=action.comment,
            )
        parsed.append(action)
    return parsed


# -- reading ------------------------------------------------------------------------------------


def _parse_toml(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PHHError(f"not valid TOML: {error}") from None


def _hand_from_table(table: Mapping[str, Any]) -> PHHHand:
    if "variant" not in table:
        raise PHHError("missing required field 'variant'")
    variant = table["variant"]
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise PHHError(
            f"variant: unsupported variant {variant!r} "
            f"(this reader handles the stud variants {', '.join(map(repr, VARIANTS))})"
        )
    missing = [name for name in REQUIRED_FIELDS if name not in table]
    if missing:
        raise PHHError(
            f"missing required field {missing[0]!r} (variant {variant} needs "
            f"{', '.join(REQUIRED_FIELDS)})"
        )
    for name, why in _NOT_FOR_STUD.items():
        if name in table:
            raise PHHError(f"{name}: not allowed in a stud hand ({why})")
    known = {f.name for f in fields(PHHHand)} - {"extra"}
    kwargs = {key: value for key, value in table.items() if key in known}
    extra = {key: value for key, value in table.items() if key not in known}
    return PHHHand(**kwargs, extra=extra)


def loads(text: str) -> PHHHand:
    """Read one hand from the text of a ``.phh`` file."""
    document = _parse_toml(text)
    if (
        "variant" not in document
        and document
        and all(isinstance(value, dict) for value in document.values())
    ):
        raise PHHError(
            "this document is a set of hands in tables ([1], [2], ...), as in a .phhs file: "
            "read it with loads_all"
        )
    return _hand_from_table(document)


def loads_all(text: str) -> list[PHHHand]:
    """Read every hand from the text of a ``.phhs`` file: one TOML table per hand, in order."""
    document = _parse_toml(text)
    if "variant" in document:
        raise PHHError("this document is a single hand (a .phh file): read it with loads")
    hands: list[PHHHand] = []
    for key, table in document.items():
        if not isinstance(table, dict):
            raise PHHError(
                f"{key}: expected a table [{key}] holding one hand, got {_describe(table)}"
            )
        try:
            hands.append(_hand_from_table(table))
        except PHHError as error:
            raise PHHError(f"hand [{key}]: {error}") from None
    return hands


def load(path: str | Path) -> PHHHand:
    """Read one hand from a ``.phh`` file (UTF-8); errors name the file."""
    try:
        return loads(Path(path).read_text(encoding="utf-8"))
    except PHHError as error:
        raise PHHError(f"{path}: {error}") from None


def load_all(path: str | Path) -> list[PHHHand]:
    """Read every hand from a ``.phhs`` file (UTF-8); errors name the file."""
    try:
        return loads_all(Path(path).read_text(encoding="utf-8"))
    except PHHError as error:
        raise PHHError(f"{path}: {error}") from None


# -- writing ------------------------------------------------------------------------------------

def dumps(hand: PHHHand) -> str:
    """The text of a ``.phh`` file for ``hand``: required fields, optional ones, then ``extra``.

    ``actions`` is written one action a line, as in the spec's examples.
    """
    lines: list[str] = []
    for name in REQUIRED_FIELDS + OPTIONAL_FIELDS:
        value = getattr(hand, name)
        if value is None:
            continue
        if name == "actions" and value:
            lines.append("actions = [")
            lines.extend(f"  {_toml_string(action)}," for action in value)
            lines.append("]")
        else:
            lines.append(f"{name} = {_toml_value(value)}")
    for key, value in hand.extra.items():
        lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"


def dumps_all(hands: Iterable[PHHHand]) -> str:
    """The text of a ``.phhs`` file: each hand as a table ``[1]``, ``[2]``, ..."""
    return "\n".join(f"[{i}]\n{dumps(hand)}" for i, hand in enumerate(hands, start=1))


def dump(hand: PHHHand, path: str | Path) -> None:
    """Write ``hand`` to a ``.phh`` file (UTF-8)."""
    Path(path).write_text(dumps(hand), encoding="utf-8")


def dump_all(hands: Iterable[PHHHand], path: str | Path) -> None:
    """Write ``hands`` to a ``.phhs`` file (UTF-8)."""
    Path(path).write_text(dumps_all(hands), encoding="utf-8")
