"""The bot kinds by name: what the card room's "add bot", ``sevenstud play --bot-kind`` and the
matches (:mod:`sevenstud.bots.match`) offer. Each kind has a name (stored with a bot's seat at a
server table, so a name once offered is never renamed), a label, a one-line description and a
factory ``make(seed, name)``.

>>> [kind.name for kind in BOT_KINDS.values()]
['rule', 'random', 'station', 'tight', 'equity', 'learned']
>>> new_bot("station", name="Sam").name
'Sam'

:data:`SPARRING_KINDS` are the opponents the bots are measured against (a maniac, and three
held out of the learned bot's training and tuning: :mod:`sevenstud.bots.sparring`): ``new_bot``,
the matches and ``sevenstud simulate`` name them as they name the card room's kinds, which
the card room does not offer.

>>> list(SPARRING_KINDS), sorted(HELD_OUT)
(['maniac', 'lag', 'drawstation', 'tightequity'], ['drawstation', 'lag', 'tightequity'])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, get_args

from sevenstud.bots.base import Bot
from sevenstud.bots.equity_bot import EquityBot
from sevenstud.bots.learned import LearnedBot
from sevenstud.bots.simple import CallingStation, RandomBot, RuleBot
from sevenstud.bots.sparring import DrawingStation, LooseAggressive, Maniac, TightEquity
from sevenstud.bots.tight import TightBot

BotKindName = Literal["rule", "random", "station", "tight", "equity", "learned"]
"""The names of the bot kinds (the server's messages take one of these)."""

Seed = int | str | None


@dataclass(frozen=True, slots=True)
class BotKind:
    """One kind of bot: its ``name`` (stored, never renamed), a ``label`` for a menu, a
    one-line ``description`` and its factory."""

    name: str
    label: str
    description: str
    make: Callable[[Seed, str], Bot]
    """A fresh bot of this kind from a seed (None: a fresh one each time) and a name."""


BOT_KINDS: dict[str, BotKind] = {
    kind.name: kind
    for kind in (
        BotKind(
            "rule",
            "Rule bot",
            "A straightforward rule player: good starting hands, bets made hands, calls live draws.",
            lambda seed, name: RuleBot(seed=seed, name=name),
        ),
        BotKind(
            "random",
            "Random bot",
            "Picks any legal action at random (never folds when it may check).",
            lambda seed, name: RandomBot(seed=seed, name=name),
        ),
        BotKind(
            "station",
            "Calling station",
            "Calls every bet to the end; never bets, raises or folds.",
            lambda seed, name: CallingStation(seed=seed, name=name),
        ),
        BotKind(
            "tight",
            "Tight bot",
            "Tight hi/lo rules: strong three-card starts, live cards, scoop draws, folds to a better low.",
            lambda seed, name: TightBot(seed=seed, name=name),
        ),
        BotKind(
            "equity",
            "Equity bot",
            "Monte Carlo equity against the opponents' likely hands; pot odds; raises for value.",
            lambda seed, name: EquityBot(seed=seed, name=name),
        ),
        BotKind(
            "learned",
            "Learned bot",
            "Self-play by counterfactual regret (MCCFR) over hand-strength buckets and the betting.",
            lambda seed, name: LearnedBot(seed=seed, name=name),
        ),
    )
}
"""Every bot kind, by name, in menu order; ``rule`` is the default."""

SPARRING_KINDS: dict[str, BotKind] = {
    kind.name: kind
    for kind in (
        BotKind(
            "maniac",
            "Maniac",
            "Completes, bets and raises whenever it may; never folds.",
            lambda seed, name: Maniac(seed=seed, name=name),
        ),
        BotKind(
            "lag",
            "Loose-aggressive",
            "Held out: plays most starts, a level above the rule bot, bets into a check a third of the time.",
            lambda seed, name: LooseAggressive(seed=seed, name=name),
        ),
        BotKind(
            "drawstation",
            "Drawing station",
            "Held out: calls everything, never bets made hands, raises its four-card draws.",
            lambda seed, name: DrawingStation(seed=seed, name=name),
        ),
        BotKind(
            "tightequity",
            "Tight equity",
            "Held out: folds weak starts, then equity against random down cards, pot odds, value bets.",
            lambda seed, name: TightEquity(seed=seed, name=name),
        ),
    )
}
"""The opponents the bots are measured against, offered by the matches and ``sevenstud
simulate`` but not by the card room (its menu is :data:`BOT_KINDS`)."""

HELD_OUT: frozenset[str] = frozenset({"lag", "drawstation", "tightequity"})
"""The sparring kinds held out of the learned bot's training and tuning: its figures against
them measure it against opponents it never met (docs/bots.md)."""

MATCH_KINDS: dict[str, BotKind] = {**BOT_KINDS, **SPARRING_KINDS}
"""Every kind a match may seat: the card room's and the sparring ones."""

DEFAULT_KIND = "rule"
"""The kind a table seats when none is named."""

if set(BOT_KINDS) != set(get_args(BotKindName)):  # pragma: no cover - a kind added in one place only
    raise AssertionError("BotKindName and BOT_KINDS name different kinds")


def new_bot(kind: str, seed: Seed = None, name: str | None = None) -> Bot:
    """A fresh bot of ``kind`` (:data:`BOT_KINDS` or :data:`SPARRING_KINDS`); a
    :class:`ValueError` naming the kinds when there is none."""
    found = MATCH_KINDS.get(kind) if isinstance(kind, str) else None
    if found is None:
        raise ValueError(f"unknown bot kind {kind!r}: expected one of {', '.join(MATCH_KINDS)}")
    return found.make(seed, found.label if name is None else name)
