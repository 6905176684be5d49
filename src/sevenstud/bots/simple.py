"""Three simple bots: :class:`RandomBot` (uniform over the legal actions),
:class:`CallingStation` (calls everything, never raises, never folds) and :class:`RuleBot` (a
tight, straightforward player of stud hi/lo, stud and razz).

All three decide from a :class:`~sevenstud.hand.SeatView` only: their own cards, everybody's up
cards, the stacks, the bets and the actions so far. All are deterministic given their seed.

RuleBot sorts its hand into a *level* and then acts on it:

====  =======================================================================
0     check if it can, else fold
1     call one bet; fold to a raise
2     call
3     bet (complete on 3rd street) when nobody has; call a bet
4     bet and raise whenever it may
====  =======================================================================
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import compress

from sevenstud import evaluate
from sevenstud.cards import ACE, JACK, NINE, QUEEN, TEN, Card
from sevenstud.games import Game, GameError, game_named
from sevenstud.hand import Action, ActionKind, ActionTaken, SeatView

FOLD, CALL_ONE, CALL, BET, RAISE = range(5)

_AGGRESSIVE = (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE)
_LOW_CHARS = "A23456789TJQK"


def game_kind(name: str) -> type[Game]:
    """The game (its class: what it has, never its code) from a view's game name; bots branch
    on what a game has (``has_high``, ``split``, ``has_low``), as games.py defines it.

    >>> [game_kind(n).code for n in ("Razz", "Seven Card Stud Hi/Lo", "Seven Card Stud")]
    ['razz', 'stud8', 'stud']
    """
    try:
        return game_named(name)
    except GameError:
        raise ValueError(f"a bot cannot play {name!r}") from None


def seat_to_act(view: SeatView) -> int:
    """The seat a bot acts for; a :class:`ValueError` when the view has none to act for."""
    if view.seat is None or not view.legal_actions:
        raise ValueError("the bot was asked to act without a seat to act for (no legal actions)")
    return view.seat


class RandomBot:
    """Uniform over the legal actions, except that it never folds when it may check."""

    def __init__(self, seed: int | str | None = None, name: str = "RandomBot") -> None:
        self.name = name
        self._rng = random.Random(seed)

    def act(self, view: SeatView) -> Action:
        seat_to_act(view)
        choices = list(view.legal_actions)
        if any(a.kind is ActionKind.CHECK for a in choices):
            choices = [a for a in choices if a.kind is not ActionKind.FOLD]
        return self._rng.choice(choices)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class CallingStation:
    """Checks when it may, calls every bet, never bets, raises or folds: the loose-passive
    player every card room has. (It brings in rather than completes, and shows at showdown.)"""

    def __init__(self, seed: int | str | None = None, name: str = "CallingStation") -> None:
        # The seed is unused (the station decides nothing by chance); it is taken so that every
        # bot kind is made the same way (sevenstud.bots.registry).
        del seed
        self.name = name

    def act(self, view: SeatView) -> Action:
        seat_to_act(view)
        by_kind = {a.kind: a for a in view.legal_actions}
        for kind in (ActionKind.SHOW, ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN):
            if kind in by_kind:
                return by_kind[kind]
        # Only aggressive actions and a fold left (a bring-in seat with no chips to bring in
        # is never asked): call it by the cheapest way to stay in.
        stay = [a for a in view.legal_actions if a.kind is not ActionKind.FOLD]
        return min(stay, key=lambda a: a.amount or 0) if stay else view.legal_actions[0]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


def seen_cards(view: SeatView) -> tuple[type[Game], list[Card], list[Card], list[list[Card]]]:
    """What a seat's view shows of the cards: the game, its own cards (the community card
    included), the dead cards (every up card of the other seats, folded or not) and each live
    opponent's up cards. Hidden cards (``None``) are never read."""
    seat = _check_seat(view)
    kind = game_kind(view.game)
    mine = [c for c in view.cards[seat] if c is not None]
    if view.community is not None:
        mine.append(view.community)
    dead: list[Card] = []
    opponents: list[list[Card]] = []
    for s, (row, ups) in enumerate(zip(view.cards, view.face_up, strict=True)):
        if s == seat:
            continue
        if len(row) != len(ups):
            raise ValueError(f"seat {s}'s cards and face-up marks differ in number")
        up = [c for c in compress(row, ups) if c is not None]
        dead.extend(up)
        if not view.folded[s]:
            opponents.append(up)
    return kind, mine, dead, opponents


def start_level(
    kind: type[Game], cards: Sequence[Card], dead: Sequence[Card], opponents: Sequence[Sequence[Card]]
) -> tuple[int, str]:
    """The level (:data:`FOLD` .. :data:`RAISE`) of three 3rd-street cards, and why, with the
    live cards counted from ``dead`` (the up cards seen)."""
    if not kind.has_high:  # razz
        return _razz_start(cards, dead, opponents)
    if kind.split:  # hi/lo
        return _stud8_start(cards, dead)
    return _stud_start(cards, dead)


# ---------------------------------------------------------------------------- card helpers


# The helpers below are self-play's hot path (benchmarks/selfplay_speed.py): they read a card's
# rank and suit as ``card >> 2`` and ``card & 3`` (cards.py's encoding, as hand.py does) rather
# than through Card's properties, and count in dicts and bit masks rather than Counter and
# nested generators. Each gives what the plainer version gave, ties included.


def low_value(card: Card) -> int:
    """Ace-low value: ace 0, deuce 1, ..., eight 7, ..., king 12."""
    return ((card >> 2) + 1) % 13


def _distinct_lows(cards: Iterable[Card], limit: int = 7) -> list[int]:
    """The distinct ace-low values not above ``limit`` (7: an eight), lowest first."""
    return sorted({v for v in [((c >> 2) + 1) % 13 for c in cards] if v <= limit})


def _flush_count(cards: Sequence[Card]) -> tuple[int, int]:
    """(how many cards of the commonest suit, that suit: of equally common suits, the one seen
    first, as ``Counter.most_common`` gives it)."""
    counts: dict[int, int] = {}
    for c in cards:
        suit = c & 3
        counts[suit] = counts.get(suit, 0) + 1
    best, best_suit = 0, 0
    for suit, count in counts.items():
        if count > best:
            best, best_suit = count, suit
    return best, best_suit


def _straight_count(cards: Sequence[Card]) -> int:
    """The most distinct ranks inside one five-rank window (the ace plays high and low)."""
    mask = 0  # bit r + 1 for rank r; bit 0 for the ace played low
    for c in cards:
        mask |= 2 << (c >> 2)
    if mask & (2 << ACE):
        mask |= 1
    return max([((mask >> low) & 31).bit_count() for low in range(10)])


def _groups(cards: Sequence[Card]) -> tuple[int, int, int]:
    """(size of the biggest rank group, its rank (the higher of equal groups), how many pairs
    or better)."""
    counts: dict[int, int] = {}
    for c in cards:
        rank = c >> 2
        counts[rank] = counts.get(rank, 0) + 1
    if not counts:
        raise ValueError("no cards to group")
    size, best, pairs = 0, -1, 0
    for rank, count in counts.items():
        if count >= 2:
            pairs += 1
        if count > size or (count == size and rank > best):
            size, best = count, rank
    return size, best, pairs


class RuleBot:
    """A tight, straightforward player: good starting hands, bets its made hands, calls with
    live draws, folds weak hands facing a bet. Decides from its own view only."""

    def __init__(self, seed: int | str | None = 0, name: str = "RuleBot") -> None:
        self.name = name
        self._rng = random.Random(seed)
        self.last_reason = ""
        """Why it made its last decision, in a few words (for logs and tests)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    # ------------------------------------------------------------------ the decision

    def act(self, view: SeatView) -> Action:
        seat_to_act(view)
        legal = view.legal_actions
        kinds = {a.kind for a in legal}
        if ActionKind.SHOW in kinds:
            self.last_reason = "showdown"
            return next(a for a in legal if a.kind is ActionKind.SHOW)
        level, reason = self.assess(view)
        self.last_reason = reason
        return self.choose(view, level)

    def assess(self, view: SeatView) -> tuple[int, str]:
        """The level (0 fold .. 4 raise) of the bot's hand now, and why."""
        kind, mine, dead, opponents = seen_cards(view)
        if len(mine) <= 3:
            return start_level(kind, mine, dead, opponents)
        to_come = max(0, 7 - len(mine))
        if not kind.has_high:  # razz
            return razz_later(mine, to_come, opponents)
        hi, hi_why = high_later(mine, to_come, dead, opponents, kind)
        if not kind.has_low:  # stud
            return hi, hi_why
        lo, lo_why = low8_later(mine, to_come, dead)
        if hi >= CALL and lo >= CALL:
            return min(RAISE, max(hi, lo) + 1), f"two-way: {hi_why} and {lo_why}"
        return (hi, hi_why) if hi >= lo else (lo, lo_why)

    def choose(self, view: SeatView, level: int) -> Action:
        """The action for ``level``: see the module's table."""
        legal = view.legal_actions
        by_kind: dict[ActionKind, list[Action]] = {}
        for action in legal:
            by_kind.setdefault(action.kind, []).append(action)
        aggressive = [a for a in legal if a.kind in _AGGRESSIVE]
        strong = None
        if aggressive:
            amounts = sorted(aggressive, key=lambda a: a.amount or 0)
            strong = amounts[-1] if level >= RAISE else amounts[0]
        if ActionKind.BRING_IN in by_kind:
            if level >= BET and strong is not None:
                return strong
            return by_kind[ActionKind.BRING_IN][0]
        if ActionKind.CALL not in by_kind:  # nobody has bet: check or bet
            if strong is not None and (
                level >= BET or (level == CALL and self._rng.random() < 0.15)
            ):
                return strong
            return by_kind[ActionKind.CHECK][0]
        call = by_kind[ActionKind.CALL][0]
        bets = bets_this_street(view)
        if strong is not None:
            if level >= RAISE:
                return strong
            # Only the bring-in to face: a good hand completes.
            if level == BET and (bets == 0 or self._rng.random() < 0.1):
                return strong
        if level >= CALL or (level == CALL_ONE and bets <= 1):
            return call
        return by_kind[ActionKind.FOLD][0]


def _check_seat(view: SeatView) -> int:
    if view.seat is None:
        raise ValueError("a spectator's view has no cards of its own to judge")
    return view.seat


def bets_this_street(view: SeatView) -> int:
    """How many completions, bets and raises have been made on this street so far."""
    # From the end back to the first action of an earlier street: the log is in order.
    street = view.street
    count = 0
    for e in reversed(view.events):
        if isinstance(e, ActionTaken):
            if e.street != street:
                break
            if e.action.kind in _AGGRESSIVE:
                count += 1
    return count


def _dead_of(dead: Sequence[Card], suit: int | None = None, rank: int | None = None) -> int:
    if rank is None and suit is not None:
        return sum([1 for c in dead if c & 3 == suit])
    if suit is None and rank is not None:
        return sum([1 for c in dead if c >> 2 == rank])
    return sum(
        1 for c in dead if (suit is None or c.suit == suit) and (rank is None or c.rank == rank)
    )


def _low_outs(dead: Sequence[Card], lows: Sequence[int]) -> int:
    """The live cards of the low ranks (ace to eight) not in ``lows``: four of each less the
    ones seen dead."""
    seen = [0] * 13
    for c in dead:
        seen[c >> 2] += 1
    return sum([4 - seen[(v - 1) % 13] for v in range(8) if v not in lows])


# ---------------------------------------------------------------------------- 3rd street


def _stud8_start(mine: Sequence[Card], dead: Sequence[Card]) -> tuple[int, str]:
    size, rank, _ = _groups(mine)
    lows = _distinct_lows(mine)
    flush, suit = _flush_count(mine)
    straight = _straight_count(mine)
    if size == 3:
        return RAISE, "rolled-up trips"
    if len(lows) == 3:
        top = lows[-1]
        level = RAISE if (0 in lows or top <= 4) else BET if top <= 5 else CALL
        if flush == 3 or straight == 3:
            level = min(RAISE, level + 1)
        low_outs = _low_outs(dead, lows)
        if low_outs < 12:
            level -= 1
        return level, f"three low cards to {_LOW_CHARS[top]}"
    if size == 2:
        kicker = next(c for c in mine if c.rank != rank)
        dead_pair = _dead_of(dead, rank=rank)
        if rank == ACE:
            level = RAISE
        elif rank >= JACK:
            level = BET
        elif low_value(kicker) <= 7 and rank <= 6:  # a low pair with a low card: some low potential
            level = CALL
        else:
            level = CALL_ONE
        if dead_pair:
            level = max(FOLD, level - 1)
        return level, f"a pair of {_LOW_CHARS[(rank + 1) % 13]}s"
    if flush == 3 and _dead_of(dead, suit=suit) <= 2:
        return (CALL if len(lows) >= 2 else CALL_ONE), "three to a flush"
    if straight == 3 and len(lows) >= 2:
        return CALL_ONE, "three to a low straight"
    if len(lows) == 2 and 0 in lows and any(c.rank == ACE for c in mine):
        return CALL_ONE, "an ace with a low card"
    return FOLD, "nothing to play"


def _stud_start(mine: Sequence[Card], dead: Sequence[Card]) -> tuple[int, str]:
    size, rank, _ = _groups(mine)
    flush, suit = _flush_count(mine)
    straight = _straight_count(mine)
    if size == 3:
        return RAISE, "rolled-up trips"
    if size == 2:
        kicker = next(c for c in mine if c.rank != rank)
        if rank >= TEN:
            level = RAISE
        elif rank >= 5 or kicker.rank >= QUEEN:  # sevens or better, or a big kicker
            level = CALL
        else:
            level = CALL_ONE
        if _dead_of(dead, rank=rank):
            level = max(FOLD, level - 1)
        return level, "a pair"
    if flush == 3:
        return (CALL if _dead_of(dead, suit=suit) <= 2 else CALL_ONE), "three to a flush"
    if straight == 3 and min(c.rank for c in mine) >= 3:
        return CALL_ONE, "three to a straight"
    if sum(1 for c in mine if c.rank >= QUEEN) >= 2:
        return CALL_ONE, "two big cards"
    return FOLD, "nothing to play"


def _razz_start(
    mine: Sequence[Card], dead: Sequence[Card], opponents: Sequence[Sequence[Card]]
) -> tuple[int, str]:
    lows = _distinct_lows(mine)
    if len(lows) == 3:
        top = lows[-1]
        level = RAISE if top <= 4 else BET if top <= 5 else CALL
        door = low_value(mine[-1]) if len(mine) == 3 else 12
        if level < BET and all(up and min(low_value(c) for c in up) > door for up in opponents):
            level = BET  # every other door card is higher than ours: take the pot
        return level, f"three to a {_LOW_CHARS[top]}"
    if len(lows) == 2 and lows[-1] <= 4 and len({low_value(c) for c in mine}) == 3:
        return CALL_ONE, "two small cards"
    return FOLD, "nothing to play"


# ---------------------------------------------------------------------------- later streets


def _made_high(mine: Sequence[Card]) -> tuple[int, int]:
    """(category, the rank of the biggest group) of the best high hand so far."""
    size, rank, pairs = _groups(mine)
    if len(mine) >= 5:
        return evaluate.high_category(evaluate.high_rank(mine)), rank
    if size == 4:
        return evaluate.QUADS, rank
    if size == 3:
        return evaluate.TRIPS, rank
    if pairs >= 2:
        return evaluate.TWO_PAIR, rank
    if size == 2:
        return evaluate.PAIR, rank
    return evaluate.HIGH_CARD, rank


def high_later(
    mine: Sequence[Card],
    to_come: int,
    dead: Sequence[Card],
    opponents: Sequence[Sequence[Card]],
    kind: type[Game],
) -> tuple[int, str]:
    """The tight rules' reading of a high hand after 3rd street: how far to go (fold, call
    one bet, call, bet, raise) and why, from the made hand, the draws still live with
    ``to_come`` cards to come, and the boards ``opponents`` show (the rule and tight bots, and
    the learned bot's abstraction, read hands by it)."""
    category, rank = _made_high(mine)
    high_only = not kind.has_low  # stud: no low half to share the pot with
    if category >= evaluate.TRIPS:
        level, why = RAISE, evaluate.CATEGORY_NAMES[category]
    elif category == evaluate.TWO_PAIR:
        level, why = (BET if rank >= NINE or high_only else CALL), "two pair"
    elif category == evaluate.PAIR:
        if rank >= QUEEN:
            level = BET if high_only else CALL
        elif rank >= NINE:
            level = CALL if to_come >= 1 else CALL_ONE
        else:
            level = CALL_ONE if to_come >= 2 else FOLD
        why = "a pair"
    else:
        level, why = FOLD, "no pair"
    if to_come:
        flush, suit = _flush_count(mine)
        live_suit = 13 - flush - _dead_of(dead, suit=suit)
        if flush >= 4 and live_suit >= 4 and level < CALL:
            level, why = CALL, "a flush draw"
        elif flush == 3 and to_come >= 3 and live_suit >= 6 and level < CALL_ONE:
            level, why = CALL_ONE, "three to a flush"
        if _straight_count(mine) >= 4 and category < evaluate.STRAIGHT and level < CALL_ONE:
            level, why = (CALL if to_come >= 2 else CALL_ONE), "a straight draw"
    if category < evaluate.STRAIGHT:
        ours = evaluate.board_high_key(mine)
        shown = [evaluate.board_high_key(up) for up in opponents if up]
        if any(key[0] >= 1 and key > ours for key in shown):  # a pair or better showing
            level, why = max(FOLD, level - 1), why + ", beaten on board"
    return level, why


def low8_later(mine: Sequence[Card], to_come: int, dead: Sequence[Card]) -> tuple[int, str]:
    """The tight rules' reading of an eight-or-better low after 3rd street: how far to go and
    why, from the low made or the cards still needed and the live low cards (``dead`` seen)."""
    lows = _distinct_lows(mine)
    if len(mine) >= 5:
        rank = evaluate.low8_rank(mine)
        if rank:
            top = _LOW_CHARS.index(evaluate.low_cards(rank)[0])
            level = RAISE if top <= 5 else BET if top == 6 else CALL
            return level, f"a {evaluate.low_name(rank)} low"
    need = 5 - len(lows)
    if need > to_come or need <= 0:
        return FOLD, "no low"
    if need == 1:
        level = BET if to_come >= 2 else CALL
    elif need == 2 and to_come >= 3:
        level = CALL_ONE
    else:
        return FOLD, "too far from a low"
    outs = _low_outs(dead, lows)
    if outs < 10:
        level -= 1
    return level, f"{len(lows)} to a low"


def razz_later(
    mine: Sequence[Card], to_come: int, opponents: Sequence[Sequence[Card]]
) -> tuple[int, str]:
    """The tight rules' reading of a razz hand after 3rd street: how far to go and why, from
    the low made or drawn to and the boards ``opponents`` show."""
    distinct = sorted({low_value(c) for c in mine})
    level, why = FOLD, "no low"
    made = False
    if len(mine) >= 5:
        rank = evaluate.low_rank(mine)
        if evaluate.low_category(rank) == evaluate.LOW_NO_PAIR:
            made = True
            top = _LOW_CHARS.index(evaluate.low_cards(rank)[0])
            why = f"a {evaluate.low_name(rank)} low"
            if top <= 6:
                level = RAISE
            elif top == 7:
                level = BET
            elif top == 8:
                level = CALL
            elif top == 9:
                level = CALL_ONE
    if not made or level < CALL:
        good = [v for v in distinct if v <= 7]
        need = 5 - len(good)
        if need <= to_come and need > 0:
            if need == 1:
                draw = BET if good[-1] <= 5 and to_come >= 2 else CALL
            elif need == 2 and to_come >= 3:
                draw = CALL if good[-1] <= 4 else CALL_ONE
            else:
                draw = FOLD
            if draw > level:
                level, why = draw, f"{len(good)} to a low"
    # A board that already shows a better low than our best cards of as many.
    ours = distinct[:5]
    for up in opponents:
        ups = sorted({low_value(c) for c in up})
        if len(ups) < 2 or len(ups) < len(up):
            continue
        if sorted(ours[: len(ups)], reverse=True) > sorted(ups, reverse=True):
            level, why = max(FOLD, level - 1), why + ", a better low showing"
            break
    return level, why
