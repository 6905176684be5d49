""":class:`LearnedBot`: plays the policy learned by Monte Carlo CFR (``sevenstud train``,
:mod:`sevenstud.cfr`), shipped in the package (``sevenstud/cfr/data/policy.json.gz``).

At each turn it computes the abstraction's key of its information set from its own seat's view
(:func:`sevenstud.cfr.abstraction.view_key`: street, hi and lo buckets, who is ahead on board,
opponents in, the betting so far) and draws a letter (fold, check, call, bring-in, complete or
bet, raise) by the learned probabilities, then plays the legal action of that letter (the
smallest bet of its kind). A policy has a heads-up table per game (``GAME/2``, trained
two-handed) and may have a three-handed one (``GAME/3``, ``sevenstud train --players 3``).
The bot looks in the table of as many players as are still in: heads-up, and in a multiway
hand once one opponent is left, the heads-up table; with two opponents a three-handed table
if the policy has one. The shipped policy has only the heads-up tables, so a multiway street
with two or more opponents in is played by :class:`~sevenstud.bots.tight.TightBot`'s rules, as
is a key no table knows (a position self-play never reached): a heads-up strategy played
against several hands lost (README, "The learned bot").
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from sevenstud.actions import ActionKind
from sevenstud.bots.simple import _check_turn, game_kind
from sevenstud.bots.tight import TightBot
from sevenstud.cfr import abstraction
from sevenstud.cfr import policy as policy_file
from sevenstud.hand import Action, SeatView

# The abstraction is imported as a module, its names looked up when a bot plays: it reads the
# rule bots' hand readings (sevenstud.bots.simple), so importing sevenstud.cfr.abstraction
# first imports sevenstud.bots, whose registry imports this module before the abstraction
# has its names.


@lru_cache(maxsize=1)
def shipped_policy() -> dict[str, Any]:
    """The policy shipped in the package (read once)."""
    return policy_file.load()


class LearnedBot:
    """Plays a CFR-trained policy over the abstraction; TightBot where the policy is silent."""

    def __init__(
        self, seed: int | str | None = 0, name: str = "LearnedBot", policy: dict[str, Any] | None = None
    ) -> None:
        self.name = name
        self._rng = random.Random(seed)
        self._tables: dict[str, dict[str, list[int]]] = (policy or shipped_policy())["tables"]
        self._fallback = TightBot(seed=seed, name=name)
        self.decisions = 0
        """Betting decisions made."""
        self.fell_back = 0
        """Of those, made by the fallback (no table knew the key)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    def act(self, view: SeatView) -> Action:
        _check_turn(view)
        legal = view.legal_actions
        show = [a for a in legal if a.kind is ActionKind.SHOW]
        if show:
            return show[0]
        self.decisions += 1
        probs = self.lookup(view)
        letters = abstraction.legal_letters(view)
        if probs is None or len(probs) != len(letters):
            self.fell_back += 1
            return self._fallback.act(view)
        x = self._rng.random() * sum(probs)
        pick = letters[-1]
        for letter, p in zip(letters, probs, strict=True):
            x -= p
            if x < 0:
                pick = letter
                break
        choices = sorted(
            (a for a in legal if abstraction.TOKENS.get(a.kind) == pick), key=lambda a: a.amount or 0
        )
        if not choices:  # pragma: no cover - legal_letters came from these very actions
            self.fell_back += 1
            return self._fallback.act(view)
        return choices[0]

    def lookup(self, view: SeatView) -> list[int] | None:
        """The learned probabilities (thousandths) of the legal letters here, or None: the
        table of as many players as are still in (``GAME/2`` with one opponent left, ``GAME/3``
        with two), None with more or where that table does not know the key."""
        key = abstraction.view_key(view, 3)
        opponents = abstraction.opponents_of(key)
        # Each table plays only where it was trained. Six-handed against the rule bot (3 of
        # each, the same 12,000 hands), the heads-up table played multiway with the opponents
        # counted as one made +5 ± 27 mSB/hand, and -110 ± 31 with every unknown multiway key
        # read as its nearest heads-up one; the tight bot's rules until one opponent is left
        # made +29 ± 26: a heads-up strategy is far too loose against several hands (README,
        # "The learned bot").
        table = self._tables.get(f"{game_kind(view.game).code}/{opponents + 1}")
        return None if table is None else table.get(key)
