"""Bots: players that decide from a :class:`~sevenstud.hand.SeatView` and nothing else.

A bot is anything with a ``name`` and an ``act(view)`` that returns one of
``view.legal_actions``. The view is all a bot is given, so a bot cannot see another seat's down
cards: :meth:`Hand.view <sevenstud.hand.Hand.view>` has blanked them already.

>>> from sevenstud.cards import Deck
>>> from sevenstud.games import Stakes, StudHiLo
>>> from sevenstud.hand import Hand
>>> hand = Hand(StudHiLo(Stakes(1, 2, 5, 10)), [100, 100, 100], Deck.seeded(7))
>>> bot: Bot = RuleBot(seed=1)
>>> view = hand.view(hand.to_act)
>>> bot.act(view) in view.legal_actions
True
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from sevenstud.bots.simple import RandomBot, RuleBot
from sevenstud.hand import Action, SeatView

__all__ = ["Bot", "RandomBot", "RuleBot"]


@runtime_checkable
class Bot(Protocol):
    """A player that chooses one of ``view.legal_actions`` from what its seat may see."""

    name: str

    def act(self, view: SeatView) -> Action:
        """The action to take; ``view`` is the bot's own seat's view, with it to act."""
        ...
