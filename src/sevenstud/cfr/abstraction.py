"""The abstraction of real stud the learned bot is trained on and plays by.

An information set of the real game is far too big to learn; the learned bot sees a few
features of it instead, the same ones in training (:mod:`sevenstud.cfr.stud_game`) and at the
table (:func:`view_key`, from the seat's redacted view only):

* the street (3 to 7);
* a **hi bucket** and a **lo bucket**, 0 to 4: the rule bots' hand readings
  (:mod:`sevenstud.bots.simple`), which count the live cards from the boards (dead pairs, dead
  suits, low outs) and mark down a hand beaten on board. On 3rd street the start's level is the
  hi bucket (in razz the lo bucket), and in hi/lo the lo bucket is the number of distinct low
  cards; from 4th street on, hi/lo's lo bucket drops a level when an opponent's board shows a
  better low (:func:`~sevenstud.bots.tight.better_low_showing`);
  stud has no lo bucket; razz has no hi bucket, and heads-up its place holds the opponent's
  board (:func:`razz_board_level`: rough cards showing, or how smooth), for a razz hand's
  worth heads-up is mostly how it runs against the one board it must beat (without it the
  heads-up table was level with the equity bot, with it ahead: docs/bots.md, "The learned bot");
* whether the seat's own board is the best showing (the real game's ``board_key``: who is
  ahead on board, who will act first);
* how many opponents are still in (1, 2, 3 or more);
* the betting so far: the bets and raises of the earlier streets (0 to 4, more counted as 4),
  who made the last of them (the seat, another, nobody), and this street's actions: heads-up in
  order as letters (``i`` bring-in, ``b`` complete or bet, ``r`` raise, ``c`` call, ``k`` check,
  ``f`` fold; the last eight); in a multiway pot (two or more opponents in) summarised
  (:func:`multiway_street`), for the orders in which three to eight players can bet are far
  too many to learn each.

The buckets are not the Monte Carlo equity of :class:`~sevenstud.bots.equity_bot.EquityBot`:
an equity estimate per node costs milliseconds and needs numpy, far too slow for self-play at
the scale CFR needs, and the bot should play without extras. The readings are the cheap
equity features the project has, evaluated in microseconds.

>>> key_of(5, (2, 0, 1), 1, 3, "o", "kb")
'5|2.0.1|1|3o|kb'
"""

from __future__ import annotations

from collections.abc import Sequence

from sevenstud.actions import ActionKind
from sevenstud.bots.simple import (
    high_later,
    low8_later,
    low_value,
    razz_later,
    seen_cards,
    start_level,
)
from sevenstud.bots.tight import better_low_showing
from sevenstud.cards import Card
from sevenstud.events import ActionTaken
from sevenstud.games import GAMES, Game, GameCode, Stakes
from sevenstud.hand import Action, SeatView

TOKENS: dict[ActionKind, str] = {
    ActionKind.FOLD: "f",
    ActionKind.CHECK: "k",
    ActionKind.CALL: "c",
    ActionKind.BRING_IN: "i",
    ActionKind.COMPLETE: "b",
    ActionKind.BET: "b",
    ActionKind.RAISE: "r",
}
"""Each betting action's letter in a key."""
AGGRESSIVE_TOKENS = frozenset("br")
ORDER = "fikcbr"
"""The letters' order in a key's list of actions (the training game's order)."""
RULES: dict[GameCode, Game] = {code: cls(Stakes(1, 2, 5, 10)) for code, cls in GAMES.items()}
"""Each game's rules (the stakes do not matter to a key: it counts bets, not chips)."""
HISTORY_LENGTH = 8
"""This street's actions kept in a key (the last ones)."""


def strength(
    game: Game,
    mine: Sequence[Card],
    my_up: Sequence[Card],
    dead: Sequence[Card],
    opponents: Sequence[Sequence[Card]],
) -> tuple[int, int, int]:
    """(hi bucket, lo bucket, 1 when the seat's board is the best showing) of ``mine`` (the
    seat's cards) in ``game``, with ``dead`` (every other seat's up cards) and ``opponents``
    (the live opponents' up cards). The game is asked what it has (a high half, a low half,
    a split), never compared by its code."""
    kind = type(game)
    best = int(all(game.board_key(my_up) >= game.board_key(up) for up in opponents if up))
    if not kind.has_high:  # razz: no hi bucket; heads-up, the opponent's board in its place
        board = razz_board_level(opponents[0]) if len(opponents) == 1 else 0
        if len(mine) <= 3:
            return board, start_level(kind, mine, dead, opponents)[0], best
        return board, razz_later(mine, 7 - len(mine), opponents)[0], best
    if len(mine) <= 3:
        level, _ = start_level(kind, mine, dead, opponents)
        lows = len({low_value(c) for c in mine if low_value(c) <= 7})
        if not kind.has_low:  # stud
            return level, 0, best
        return level, lows, best
    to_come = max(0, 7 - len(mine))
    hi = high_later(mine, to_come, dead, opponents, kind)[0]
    if not kind.has_low:  # stud
        return hi, 0, best
    lo = low8_later(mine, to_come, dead)[0]
    if lo > 0 and better_low_showing(mine, opponents):
        lo -= 1
    return hi, lo, best


def razz_board_level(up: Sequence[Card]) -> int:
    """Razz heads-up: the opponent's board, 0 to 3: two rough cards or more (a nine or higher,
    or a pair), one, none with a seven or an eight on top, none and six-high or better.

    >>> from sevenstud.cards import parse_cards
    >>> [razz_board_level(parse_cards(b)) for b in ("Kc", "3c 5d", "3c 8d", "3c 3d 9h")]
    [1, 3, 2, 0]
    """
    values = [low_value(c) for c in up]
    smooth = {v for v in values if v <= 7}
    rough = len(values) - len(smooth)
    if rough:
        return 0 if rough >= 2 else 1
    return 2 if max(smooth, default=0) >= 6 else 3


def key_of(
    street: int, buckets: tuple[int, int, int], opponents: int, earlier: int, last: str, now: str
) -> str:
    """An information-set key from its parts (see the module)."""
    hi, lo, best = buckets
    return f"{street}|{hi}.{lo}.{best}|{min(opponents, 3)}|{min(earlier, 4)}{last}|{now[-HISTORY_LENGTH:]}"


def opponents_of(key: str) -> int:
    """The opponents still in, as a key counts them (1, 2, 3 or more).

    >>> opponents_of("5|2.0.1|1|3o|kb:kb")
    1
    """
    return int(key.split("|", 3)[2])


def betting(seat: int, street: int, actions: Sequence[tuple[int, int, str]]) -> tuple[int, str, str]:
    """(the earlier streets' bets and raises, who made the last of them: ``m`` the seat,
    ``o`` another, ``-`` nobody; this street's letters) from ``actions`` (street, seat, letter)."""
    earlier = 0
    last = "-"
    now = []
    for s, who, token in actions:
        if s < street:
            if token in AGGRESSIVE_TOKENS:
                earlier += 1
                last = "m" if who == seat else "o"
        elif s == street:
            now.append(token)
    return earlier, last, "".join(now)


def multiway_street(seat: int, now: Sequence[tuple[int, str]]) -> str:
    """This street's betting in a multiway pot, from its actions (seat, letter), as a
    summary: ``i`` when the pot is only brought in, the bets and raises made (a completion
    counts), who made the last of them or the bring-in (``m`` the seat, ``o`` another, ``-``
    nobody), the calls since (0, 1, 2 or more) and ``a`` when the seat has acted already
    (then a bet from another is a raise of the seat's own, or of a bet it called).

    >>> multiway_street(0, [(1, "i"), (2, "c"), (0, "b"), (1, "c"), (2, "r")])
    '2o0a'
    >>> multiway_street(0, [(1, "i"), (2, "c"), (3, "c")])
    'i0o2'
    """
    bets, last, calls, acted, brought_in = 0, "-", 0, False, False
    for who, token in now:
        if who == seat:
            acted = True
        if token in AGGRESSIVE_TOKENS or token == "i":
            bets += token != "i"
            brought_in = token == "i"
            last = "m" if who == seat else "o"
            calls = 0
        elif token == "c":
            calls += 1
    return f"{'i' if brought_in else ''}{bets}{last}{min(calls, 2)}{'a' if acted else ''}"


def street_key(
    seat: int, street: int, opponents: int, actions: Sequence[tuple[int, int, str]]
) -> tuple[int, str, str]:
    """The betting's part of a key: :func:`betting`, this street's letters summarised by
    :func:`multiway_street` when ``opponents`` (those still in) are two or more."""
    earlier, last, now = betting(seat, street, actions)
    if opponents >= 2:
        now = multiway_street(seat, [(who, token) for s, who, token in actions if s == street])
    return earlier, last, now


def view_key(view: SeatView, most_opponents: int = 3) -> str:
    """The key of the seat's information set from its own view (its cards, the up cards, the
    actions seen): what the learned bot looks up. ``most_opponents`` caps the opponents counted
    (the training game's keys count them as 1, 2, or 3 for three or more)."""
    seat = view.seat
    if seat is None:
        raise ValueError("a spectator's view has no information set")
    kind, mine, dead, opponents = seen_cards(view)
    game = RULES[kind.code]
    my_up = [c for c, up in zip(view.cards[seat], view.face_up[seat], strict=True) if up and c is not None]
    buckets = strength(game, mine, my_up, dead, opponents)
    actions = [
        (e.street, e.seat, TOKENS[e.action.kind])
        for e in view.events
        if isinstance(e, ActionTaken) and e.action.kind in TOKENS
    ]
    earlier, last, now = street_key(seat, view.street, len(opponents), actions)
    opponents_in = min(len(opponents), most_opponents)
    return key_of(view.street, buckets, opponents_in, earlier, last, now) + ":" + "".join(legal_letters(view))


def legal_letters(view: SeatView) -> list[str]:
    """The letters of the seat's legal betting actions, in :data:`ORDER`; no fold when it may
    check (the training game never folds for nothing)."""
    letters = {TOKENS[a.kind] for a in view.legal_actions if a.kind in TOKENS}
    if "k" in letters:
        letters.discard("f")
    return sorted(letters, key=ORDER.index)


def action_of(letter: str, legal: Sequence[Action]) -> Action | None:
    """The legal action a letter plays: the smallest of its kinds (a bet of the small size,
    never the optional big one on 4th street's open pair, as the training game bets), or None
    when no legal action has that letter. The learned bot plays its letters by it, and a
    training population's bots replay the abstract game's actions in the engine by it."""
    choices = [a for a in legal if TOKENS.get(a.kind) == letter]
    return min(choices, key=lambda a: a.amount or 0) if choices else None


def letter_of(action: Action, letters: Sequence[str]) -> str:
    """The letter, among ``letters`` (those the training game allows), of an engine action: a
    fold where a check is allowed is the check (the training game never folds for nothing, as
    :func:`legal_letters` leaves it out). A :class:`ValueError` naming it for an action with
    no letter there (a showdown's, or one the training game has no place for)."""
    letter = TOKENS.get(action.kind)
    if letter == "f" and "f" not in letters and "k" in letters:
        letter = "k"
    if letter is None or letter not in letters:
        raise ValueError(f"the action {action} has no letter among {', '.join(letters)}")
    return letter
