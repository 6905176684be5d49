"""Sparring partners for measuring the bots (issue 37): a maniac, and three opponents held out
of the learned bot's training and tuning, each different in kind from the bots it was tuned
beside.

* :class:`Maniac` completes, bets and raises whenever it may, else calls or checks; it never
  folds. Its bets carry no information: a bot that reads them as strength folds too much.
* :class:`LooseAggressive` (held out) plays far more starts than the rule bots, one level
  higher than the rule bot's reading (a hand worth a call is worth a raise), and bets into a
  check a third of the time whatever it holds.
* :class:`DrawingStation` (held out) is a calling station that raises its draws: it never
  folds and never bets a made hand, but completes, bets and raises while it holds four to a
  flush, four to a straight or (in the games with a low) four distinct low cards with cards to
  come.
* :class:`TightEquity` (held out) folds every 3rd-street start the rule bot would not call
  with, and from there plays on Monte Carlo equity against uniformly drawn down cards (no
  reading of how the opponents entered, unlike :class:`~sevenstud.bots.equity_bot.EquityBot`):
  it calls with the pot's odds, bets when its equity is well above its share of the pot and
  raises when far above.

Like every bot here, each decides from its own seat's :class:`~sevenstud.hand.SeatView` alone
(tests/bots/test_hidden.py replays their decisions with every card the seat cannot see
shuffled). They are offered by ``sevenstud simulate`` and the matches
(:data:`~sevenstud.bots.registry.SPARRING_KINDS`), not by the card room.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from sevenstud.actions import AGGRESSIVE_KINDS
from sevenstud.bots.equity_bot import _sampler
from sevenstud.bots.simple import (
    CALL,
    RAISE,
    RuleBot,
    _distinct_lows,
    _flush_count,
    _straight_count,
    game_kind,
    seat_to_act,
    seen_cards,
    start_level,
)
from sevenstud.cards import Card
from sevenstud.hand import Action, ActionKind, SeatView

_PASSIVE = (ActionKind.SHOW, ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN)


def _by_kind(view: SeatView) -> dict[ActionKind, list[Action]]:
    by_kind: dict[ActionKind, list[Action]] = {}
    for action in view.legal_actions:
        by_kind.setdefault(action.kind, []).append(action)
    return by_kind


def _aggressive(view: SeatView) -> Action | None:
    """The smallest completion, bet or raise, or None when none is legal."""
    options = [a for a in view.legal_actions if a.kind in AGGRESSIVE_KINDS]
    return min(options, key=lambda a: a.amount or 0) if options else None


def _passive(view: SeatView) -> Action:
    """Show, check, call or bring in, whichever is legal first; fold only when nothing else is."""
    by_kind = _by_kind(view)
    for kind in _PASSIVE:
        if kind in by_kind:
            return by_kind[kind][0]
    return _aggressive(view) or view.legal_actions[0]


class Maniac:
    """Completes, bets and raises whenever it may; otherwise calls or checks; never folds."""

    def __init__(self, seed: int | str | None = None, name: str = "Maniac") -> None:
        del seed  # it decides nothing by chance; taken so that every kind is made alike
        self.name = name

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    def act(self, view: SeatView) -> Action:
        seat_to_act(view)
        if any(a.kind is ActionKind.SHOW for a in view.legal_actions):
            return _passive(view)
        return _aggressive(view) or _passive(view)


LAG_BLUFF = 0.33
"""How often the loose-aggressive player bets into a check whatever it holds."""


class LooseAggressive:
    """The rule bot's reading played a level higher, any start with a pair, three to a flush,
    three to a straight or (with a low) three low cards played, and bluffs into checks."""

    def __init__(self, seed: int | str | None = 0, name: str = "LooseAggressive") -> None:
        self.name = name
        self._rng = random.Random(seed)
        self._rules = RuleBot(seed=seed, name=name)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    def act(self, view: SeatView) -> Action:
        seat_to_act(view)
        if any(a.kind is ActionKind.SHOW for a in view.legal_actions):
            return _passive(view)
        level, _ = self._rules.assess(view)
        kind, mine, _dead, _opps = seen_cards(view)
        if len(mine) <= 3 and level < CALL and _playable_start(mine, kind.has_low):
            level = CALL
        level = min(RAISE, level + 1) if level >= CALL else level
        by_kind = _by_kind(view)
        if ActionKind.CALL not in by_kind and self._rng.random() < LAG_BLUFF:
            bluff = _aggressive(view)
            if bluff is not None:
                return bluff
        return self._rules.choose(view, level)


def _playable_start(mine: Sequence[Card], has_low: bool) -> bool:
    ranks = [c >> 2 for c in mine]
    return (
        len(set(ranks)) < len(ranks)
        or _flush_count(mine)[0] >= 3
        or _straight_count(mine) >= 3
        or (has_low and len(_distinct_lows(mine)) >= 3)
    )


class DrawingStation:
    """A calling station that raises its draws: never folds, never bets a made hand, but
    completes, bets and raises with four to a flush, a straight or (with a low) four low cards
    while cards are to come."""

    def __init__(self, seed: int | str | None = None, name: str = "DrawingStation") -> None:
        del seed  # it decides nothing by chance
        self.name = name

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    def act(self, view: SeatView) -> Action:
        seat_to_act(view)
        if any(a.kind is ActionKind.SHOW for a in view.legal_actions):
            return _passive(view)
        kind, mine, _dead, _opps = seen_cards(view)
        if len(mine) < 7 and drawing(mine, kind.has_high, kind.has_low):
            raise_it = _aggressive(view)
            if raise_it is not None:
                return raise_it
        return _passive(view)


def drawing(mine: Sequence[Card], high: bool, low: bool) -> bool:
    """Whether ``mine`` holds a draw the drawing station raises: four to a flush or a straight
    (a game with a high) or four distinct cards eight or lower (a game with a low), and not yet
    made (five of a suit, five in a row, five low cards).

    >>> from sevenstud.cards import parse_cards
    >>> drawing(parse_cards("2h 7h 9h Kh"), True, False)
    True
    >>> drawing(parse_cards("2h 7c 9h Kd"), True, True)
    False
    """
    flush, straight = _flush_count(mine)[0], _straight_count(mine)
    lows = len(_distinct_lows(mine))
    high_draw = high and (flush == 4 or straight == 4) and flush < 5 and straight < 5
    low_draw = low and lows == 4
    return high_draw or low_draw


TIGHT_TRIALS = 120
"""Deals of the unseen cards an equity estimate of the tight equity player averages."""
TIGHT_BET_EDGE = 0.15
"""It bets with at least this much over its share of the pot (1 / players in)."""
TIGHT_RAISE_EDGE = 0.3
"""And raises with at least this much over it."""


class TightEquity:
    """Folds weak 3rd-street starts (below the rule bot's call), then plays Monte Carlo equity
    against uniformly drawn down cards: the pot's odds to call, value bets and raises."""

    def __init__(
        self, seed: int | str | None = 0, name: str = "TightEquity", trials: int = TIGHT_TRIALS
    ) -> None:
        self.name = name
        self._rng = random.Random(seed)
        self.trials = trials
        self._rules = RuleBot(seed=seed, name=name)
        self.last_equity: float | None = None
        """The equity of its last decision (None: numpy is missing, it played the rules)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    def act(self, view: SeatView) -> Action:
        seat = seat_to_act(view)
        by_kind = _by_kind(view)
        if ActionKind.SHOW in by_kind:
            return _passive(view)
        kind, mine, dead, opponents = seen_cards(view)
        to_call = max(view.bets) - view.bets[seat]
        if len(mine) <= 3:
            level, _ = start_level(kind, mine, dead, opponents)
            if level < CALL:
                if to_call > 0 and ActionKind.FOLD in by_kind:
                    return by_kind[ActionKind.FOLD][0]
                return _passive(view)
        e = self.equity(view)
        self.last_equity = e
        if e is None:
            return self._rules.act(view)
        players = sum(1 for f in view.folded if not f)
        fair = 1 / max(players, 1)
        aggressive = _aggressive(view)
        if to_call > 0 and ActionKind.CALL in by_kind:
            if aggressive is not None and e >= fair + TIGHT_RAISE_EDGE:
                return aggressive
            if e >= to_call / (view.pot + to_call):
                return by_kind[ActionKind.CALL][0]
            return by_kind[ActionKind.FOLD][0]
        if aggressive is not None and e >= fair + TIGHT_BET_EDGE:
            return aggressive
        return _passive(view)

    def equity(self, view: SeatView) -> float | None:
        """Its share of the pot against every live opponent's unseen cards drawn uniformly (None
        without numpy or where the calculator refuses the position)."""
        seat = seat_to_act(view)
        try:
            sample = _sampler()
        except ImportError:  # pragma: no cover - numpy is missing: the engine is stdlib only
            return None
        live = [s for s in range(len(view.cards)) if not view.folded[s]]
        hands: list[list[Card | None]] = [list(view.cards[s]) for s in live]
        dead: list[Card | None] = [c for s, row in enumerate(view.cards) if view.folded[s] for c in row]
        code, seed = game_kind(view.game).code, self._rng.getrandbits(32)
        try:
            share = sample(hands, code, dead, view.community, self.trials, seed)
        except (ValueError, ArithmeticError):
            return None
        return share[live.index(seat)]

