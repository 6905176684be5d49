""":class:`LearnedBot`: plays the policy learned by Monte Carlo CFR (``sevenstud train``,
:mod:`sevenstud.cfr`), shipped in the package (``sevenstud/cfr/data/policy.json.gz``).

At each turn it computes the abstraction's key of its information set from its own seat's view
(:func:`sevenstud.cfr.abstraction.view_key`: street, hi and lo buckets, who is ahead on board,
opponents in, the betting so far) and draws a letter (fold, check, call, bring-in, complete or
bet, raise) by the learned probabilities, then plays the legal action of that letter (the
smallest bet of its kind). A policy has a heads-up table per game (``GAME/2``, trained
two-handed) and may have a multiway one (``GAME/N``, trained N-handed: ``sevenstud train
--players N``; the shipped ones are four-handed). With one opponent left the bot looks in the
heads-up table in a hand dealt heads-up; in a multiway hand down to two, in the multiway table
where that table learned its hands' heads-up ends (``sevenstud train --learn-heads-up-ends``,
the policy's word ``"heads_up_ends": "learned"``: Stud's), else in the heads-up table in the
games of :data:`HEADS_UP_ENDS` (Stud Hi/Lo). With two opponents or more, up to as many as the
multiway table was trained against (three, four-handed), it looks in the multiway table. With
more opponents than that (a six- or eight-handed 3rd street), in a game with no multiway table,
at a key its table does not know (a position self-play never reached, or reached too rarely to
be kept: ``sevenstud train --least-visits``), and at the heads-up end of a multiway hand that
no table plays (Razz's), it plays its game's fallback (:data:`FALLBACK`): a strategy played
against more hands than it was trained against lost (docs/bots.md, "The learned bot").
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from sevenstud.actions import ActionKind
from sevenstud.bots.base import Bot
from sevenstud.bots.equity_bot import EquityBot
from sevenstud.bots.simple import game_kind, seat_to_act
from sevenstud.bots.tight import TightBot
from sevenstud.cfr import abstraction
from sevenstud.cfr import policy as policy_file
from sevenstud.games import GAMES
from sevenstud.hand import Action, SeatView

# The abstraction is imported as a module, its names looked up when a bot plays: it reads the
# rule bots' hand readings (sevenstud.bots.simple), so importing sevenstud.cfr.abstraction
# first imports sevenstud.bots, whose registry imports this module before the abstraction
# has its names.


FALLBACK: dict[str, str] = {"stud8": "tight", "stud": "tight", "razz": "equity"}
"""Each game's bot where no table plays (pots bigger than the multiway table's, keys it does not
know), by kind: the one that did better there. Six-handed against three rule bots and against
three equity bots (the same hands), the equity bot in that place made 31 mSB/hand less than the
tight rules against each in Stud, and 6 and 8 more in Razz (docs/bots.md, "The learned bot"). The
equity bot needs numpy and plays the tight rules without it."""

HEADS_UP_ENDS: frozenset[str] = frozenset({"stud8"})
"""The games whose heads-up table plays a multiway hand come down to two as well as a hand dealt
heads-up, where the multiway table did not learn those ends itself (elsewhere the fallback plays
them). Six-handed, the same hands: in Razz the fallback
there made 53 mSB/hand more against three equity bots (from -41 ± 22 to +12 ± 16) and the same
against three rule bots (+29 ± 14, from +30 ± 16); in Stud 15 and 4 more; in Stud Hi/Lo the
same against the equity bots and 16 less against the rule bots (docs/bots.md, "The learned bot"). A
heads-up table never met the ranges and the dead cards of a hand that began with more players."""

_FALLBACK_KINDS = {"tight": TightBot, "equity": EquityBot}


@lru_cache(maxsize=1)
def shipped_policy() -> dict[str, Any]:
    """The policy shipped in the package (read once)."""
    return policy_file.load()


class LearnedBot:
    """Plays a CFR-trained policy over the abstraction; its game's fallback bot (:data:`FALLBACK`)
    where the policy is silent."""

    def __init__(
        self,
        seed: int | str | None = 0,
        name: str = "LearnedBot",
        policy: dict[str, Any] | None = None,
        fallback: dict[str, str] | None = None,
        heads_up_ends: frozenset[str] = HEADS_UP_ENDS,
    ) -> None:
        self.name = name
        self._rng = random.Random(seed)
        policy = policy or shipped_policy()
        self._tables: dict[str, dict[str, list[int]]] = policy["tables"]
        self._heads_up_ends = heads_up_ends
        """The games whose heads-up table plays a multiway hand's heads-up end (see HEADS_UP_ENDS)."""
        self._multiway: dict[str, tuple[dict[str, list[int]], int]] = {}
        """Each game's multiway table and the seats it was trained at."""
        self._learned_ends: set[str] = set()
        """The games whose multiway table learned the heads-up ends of its hands (``sevenstud
        train --learn-heads-up-ends``): it plays them too."""
        meta = policy.get("meta", {})
        for code in GAMES:
            found = multiway_table(self._tables, code)
            if found:
                self._multiway[code] = (self._tables[found], int(found.split("/")[1]))
                if meta.get(found, {}).get("heads_up_ends") == "learned":
                    self._learned_ends.add(code)
        kinds = FALLBACK if fallback is None else {**FALLBACK, **fallback}
        unknown = sorted(set(kinds.values()) - set(_FALLBACK_KINDS))
        if unknown:
            raise ValueError(
                f"unknown fallback kind {unknown[0]!r}: expected one of {', '.join(_FALLBACK_KINDS)}"
            )
        self._fallbacks: dict[str, Bot] = {
            code: _FALLBACK_KINDS[kind](seed=seed, name=name) for code, kind in kinds.items()
        }
        """Each game's fallback bot, by game code (see FALLBACK)."""
        self.decisions = 0
        """Betting decisions made."""
        self.fell_back = 0
        """Of those, made by the fallback (no table played there)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    def act(self, view: SeatView) -> Action:
        seat_to_act(view)
        legal = view.legal_actions
        show = [a for a in legal if a.kind is ActionKind.SHOW]
        if show:
            return show[0]
        self.decisions += 1
        probs = self.lookup(view)
        letters = abstraction.legal_letters(view)
        if probs is None or len(probs) != len(letters):
            return self._fall_back(view)
        x = self._rng.random() * sum(probs)
        pick = letters[-1]
        for letter, p in zip(letters, probs, strict=True):
            x -= p
            if x < 0:
                pick = letter
                break
        action = abstraction.action_of(pick, legal)
        if action is None:  # pragma: no cover - legal_letters came from these very actions
            return self._fall_back(view)
        return action

    def _fall_back(self, view: SeatView) -> Action:
        self.fell_back += 1
        return self._fallbacks[game_kind(view.game).code].act(view)

    def lookup(self, view: SeatView) -> list[int] | None:
        """The learned probabilities (thousandths) of the legal letters here, or None: the
        heads-up table's with one opponent left in a hand dealt heads-up; in a hand dealt to
        more, the multiway table's where it learned its heads-up ends, else the heads-up table's
        in the games of HEADS_UP_ENDS only; the multiway table's with two opponents or more, as
        long as no more are in than it was trained against; None where that table is missing or
        does not know the key."""
        opponents = sum(not folded for s, folded in enumerate(view.folded) if s != view.seat)
        code = game_kind(view.game).code
        if opponents <= 1:
            if len(view.folded) == 2:  # dealt heads-up
                table = self._tables.get(f"{code}/2")
            elif code in self._learned_ends:  # the multiway table learned how its hands end
                table = self._multiway[code][0]
            else:
                table = self._tables.get(f"{code}/2") if code in self._heads_up_ends else None
        else:
            # Each table plays only where it was trained. Six-handed against the rule bot, the
            # heads-up table played multiway made +5 ± 27 mSB/hand, the tight bot's rules +29 ±
            # 26 (the same 12,000 hands): a heads-up strategy is far too loose against several
            # hands (docs/bots.md, "The learned bot"); so is a four-handed one against five.
            table, seats = self._multiway.get(code, (None, 0))
            if opponents >= seats:
                table = None
        return None if table is None else table.get(abstraction.view_key(view, 3))


def multiway_table(tables: dict[str, Any], code: str) -> str:
    """The name of a game's multiway table in ``tables`` (the one trained with the most
    players), or ``""`` when it has none."""
    sizes = [
        int(name.split("/")[1]) for name in tables if name.startswith(f"{code}/") and name != f"{code}/2"
    ]
    return f"{code}/{max(sizes)}" if sizes else ""
