""":class:`EquityBot`: bets, calls and folds on its Monte Carlo equity against the opponents'
likely hands, given their boards and the dead cards, and the pot odds.

How it sees the opponents: each live opponent's two 3rd-street down cards are drawn from the
unseen cards, weighted by how well the three cards would play as a start
(:func:`~sevenstud.bots.simple.start_level`, the rule bots' reading, live cards counted from
the boards) when that opponent put chips in voluntarily: a completion or a raise on 3rd street,
or a bet or raise since, makes the strong starts likelier, a call on 3rd street the playable
ones; a bring-in who only checked and called is anybody. Later down cards are unknown to
everybody and dealt at random. For each of a few such draws the rest of the hand is dealt a few
dozen times, the position checked by :func:`sevenstud.equity.position` (the dead cards out of
the deck, the community card when the deck runs short) and the deals drawn and scored by the
equity calculator's Monte Carlo kernel (:mod:`sevenstud.fast.monte_carlo`); the bot's equity is
the mean share of the pot it wins.

How it acts (``k`` players still in, ``e`` its equity, a fair share ``1/k``):

* facing a bet, it folds when ``e`` is below the pot odds (what it must call over the pot after
  its call) plus a margin for each street to come (the bets still to face) and a little more
  on 3rd street, where the ranges are rough; raises for value
  when ``e >= 1/k + RAISE_EDGE``; calls otherwise;
* with nothing to call, it bets (completes) for value when ``e >= 1/k + BET_EDGE``, else checks
  (or brings in).

Equity figures are cached per position the seat has seen (its cards, the boards, who entered
how), so facing a raise on the same street costs nothing new. One decision is a few milliseconds
(eight equity calls of 40 trials). numpy is needed (``pip install 'sevenstud[fast]'``), as for
every equity computation; without it the bot plays as :class:`~sevenstud.bots.tight.TightBot`.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Callable, Sequence

from sevenstud.actions import AGGRESSIVE_KINDS
from sevenstud.bots.simple import (
    BET,
    CALL,
    CALL_ONE,
    FOLD,
    RAISE,
    seat_to_act,
    seen_cards,
    start_level,
)
from sevenstud.bots.tight import TightBot
from sevenstud.cards import CARDS, Card
from sevenstud.games import Game
from sevenstud.hand import Action, ActionKind, ActionTaken, SeatView

RANGE_DRAWS = 8
"""How many draws of the opponents' down cards an equity estimate averages."""
TRIALS = 40
"""How many deals of the cards to come each draw gets."""
BET_EDGE = 0.12
"""Bet for value with at least this much over a fair share of the pot."""
RAISE_EDGE = 0.2
"""Raise for value with at least this much over a fair share (the bettor's range is stronger)."""
THIRD_STREET_MARGIN = 0.04
"""3rd street: call with this much more than the pot odds (the ranges are guesses)."""
FUTURE_MARGIN = 0.03
"""And this much more for each street still to come (the bets it will face: reverse implied
odds), 0.12 on 3rd street, nothing on 7th."""
CACHE_SIZE = 512

# How likely a start of each level is kept in an opponent's range, by what they did on 3rd
# street: raised or completed, called, or nothing voluntary (anybody).
_KEEP = {
    "raised": {FOLD: 0.05, CALL_ONE: 0.2, CALL: 0.5, BET: 1.0, RAISE: 1.0},
    "called": {FOLD: 0.15, CALL_ONE: 0.6, CALL: 1.0, BET: 1.0, RAISE: 0.8},
}
_TRIES = 12  # draws tried for one opponent's down cards before taking the last one


Sampler = Callable[[list[list[Card | None]], str, list[Card | None], Card | None, int, int], list[float]]


def _sampler() -> Sampler:
    """Each player's share of the pot over ``trials`` random deals of the unknown cards (the
    hands, the game, the dead cards, the community card, trials, seed). :func:`sevenstud.equity`
    checks the position; the deals are drawn by shuffling the unseen cards, never by the
    completion tables that ``equity`` may build for a big sample (tens of milliseconds each,
    far more than a few dozen trials are worth). ImportError without numpy."""
    import numpy as np

    from sevenstud.equity import position
    from sevenstud.fast.kernels import POT, Deal
    from sevenstud.fast.monte_carlo import shuffle_counts

    def never() -> bool:
        return False

    def sample(
        hands: list[list[Card | None]],
        game: str,
        dead: list[Card | None],
        community: Card | None,
        trials: int,
        seed: int,
    ) -> list[float]:
        pos = position(hands, game=game, dead=dead, community=None if community is None else str(community))
        deal = Deal(pos.game, pos.known, pos.unknown, pos.community, pos.unseen)
        counts = shuffle_counts(deal, trials, np.random.default_rng(seed), None, never)
        total = int(counts.total) * POT
        return [int(x) / total for x in counts.equity]

    return sample


def _entered(view: SeatView) -> dict[int, str]:
    """How each seat played its start: ``"raised"`` (completed or raised on 3rd street, or bet
    or raised since: a player who bets later streets started strong more often), ``"called"``
    (called on 3rd street); absent: only the bring-in or checks and calls."""
    how: dict[int, str] = {}
    for event in view.events:
        if isinstance(event, ActionTaken) and event.street > 3:
            if event.action.kind in AGGRESSIVE_KINDS:
                how[event.seat] = "raised"
        elif isinstance(event, ActionTaken) and event.street == 3:
            if event.action.kind in AGGRESSIVE_KINDS:
                how[event.seat] = "raised"
            elif event.action.kind is ActionKind.CALL and how.get(event.seat) != "raised":
                how[event.seat] = "called"
    return how


class EquityBot:
    """Monte Carlo equity against the opponents' likely hands, pot odds, raising for value."""

    def __init__(
        self,
        seed: int | str | None = 0,
        name: str = "EquityBot",
        *,
        draws: int = RANGE_DRAWS,
        trials: int = TRIALS,
    ) -> None:
        self.name = name
        self._rng = random.Random(seed)
        self.draws = draws
        self.trials = trials
        self._cache: OrderedDict[tuple[object, ...], float] = OrderedDict()
        self._fallback = TightBot(seed=seed, name=name)
        self.last_equity: float | None = None
        """The equity its last decision was made on (None: it fell back to TightBot)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    def act(self, view: SeatView) -> Action:
        seat = seat_to_act(view)
        legal = view.legal_actions
        by_kind: dict[ActionKind, list[Action]] = {}
        for action in legal:
            by_kind.setdefault(action.kind, []).append(action)
        if ActionKind.SHOW in by_kind:
            return by_kind[ActionKind.SHOW][0]
        e = self.equity(view)
        self.last_equity = e
        if e is None:
            return self._fallback.act(view)
        players = sum(1 for f in view.folded if not f)
        fair = 1 / max(players, 1)
        aggressive = sorted((a for a in legal if a.kind in AGGRESSIVE_KINDS), key=lambda a: a.amount or 0)
        to_call = max(view.bets) - view.bets[seat]
        if ActionKind.CALL in by_kind and to_call > 0:
            need = to_call / (view.pot + to_call)
            if view.street == 3:
                need += THIRD_STREET_MARGIN
            need += FUTURE_MARGIN * (7 - view.street)
            if aggressive and e >= fair + RAISE_EDGE:
                return aggressive[0]
            if e >= need:
                return by_kind[ActionKind.CALL][0]
            if ActionKind.CHECK in by_kind:  # pragma: no cover - a call and a check at once
                return by_kind[ActionKind.CHECK][0]
            return by_kind[ActionKind.FOLD][0]
        if aggressive and e >= fair + BET_EDGE:
            return aggressive[0]
        for kind in (ActionKind.CHECK, ActionKind.BRING_IN, ActionKind.CALL):
            if kind in by_kind:
                return by_kind[kind][0]
        return by_kind.get(ActionKind.FOLD, list(legal))[0]

    # ------------------------------------------------------------------ the estimate

    def equity(self, view: SeatView) -> float | None:
        """The seat's share of the pot against the opponents' likely hands (None: no estimate,
        numpy missing or a position the calculator refuses)."""
        seat = seat_to_act(view)
        kind, _mine, dead_up, _opps = seen_cards(view)
        entered = _entered(view)
        live = [s for s in range(len(view.cards)) if not view.folded[s]]
        key = (
            kind,
            view.community,
            tuple(view.cards[s] for s in live),
            tuple(tuple(view.cards[s]) for s in range(len(view.cards)) if view.folded[s]),
            tuple(sorted((s, entered[s]) for s in live if s in entered and s != seat)),
            seat,
        )
        known = self._cache.get(key)
        if known is not None:
            self._cache.move_to_end(key)
            return known
        try:
            sample = _sampler()
        except ImportError:  # pragma: no cover - numpy is missing: the engine is stdlib only
            return None
        # The dead cards: folded seats' cards as seen (?? for the rest, which counts the deck).
        dead: list[Card | None] = [c for s in range(len(view.cards)) if view.folded[s] for c in view.cards[s]]
        seen = {c for row in view.cards for c in row if c is not None}
        if view.community is not None:
            seen.add(view.community)
        unseen = [c for c in CARDS if c not in seen]
        me = live.index(seat)
        total = 0.0
        done = 0
        for _ in range(self.draws):
            hands = self._draw_hands(view, kind, live, seat, entered, unseen, dead_up)
            try:
                share = sample(hands, kind.code, dead, view.community, self.trials, self._rng.getrandbits(32))
            except (ValueError, ArithmeticError):  # EquityError is a ValueError
                return None
            total += share[me]
            done += 1
        value = total / done if done else None
        if value is not None:
            self._cache[key] = value
            if len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return value

    def _draw_hands(
        self,
        view: SeatView,
        kind: type[Game],
        live: Sequence[int],
        seat: int,
        entered: dict[int, str],
        unseen: list[Card],
        dead_up: Sequence[Card],
    ) -> list[list[Card | None]]:
        """Each live seat's cards with the opponents' 3rd-street down cards drawn from their
        likely starts (later unknown cards left ``None``: the calculator deals them)."""
        rng = self._rng
        taken: set[Card] = set()
        hands: list[list[Card | None]] = []
        boards = {
            s: [c for c, up in zip(view.cards[s], view.face_up[s], strict=True) if up and c is not None]
            for s in live
        }
        for s in live:
            row: list[Card | None] = list(view.cards[s])
            if s != seat and (row[0] is None or row[1] is None):
                keep = _KEEP.get(entered.get(s, ""))
                pool = [c for c in unseen if c not in taken]
                door = row[2]
                for attempt in range(_TRIES):
                    a, b = rng.sample(pool, 2)
                    first = row[0] if row[0] is not None else a
                    second = row[1] if row[1] is not None else b
                    if keep is None or door is None or attempt == _TRIES - 1:
                        break
                    others = [c for c in dead_up if c != door]
                    rivals = [boards[o][:1] for o in live if o != s]
                    level, _ = start_level(kind, [first, second, door], others, rivals)
                    if rng.random() < keep.get(level, 1.0):
                        break
                row[0], row[1] = first, second
                taken.update(c for c in (first, second) if c is not None)
            hands.append(row)
        return hands
