"""Bots: players that decide from a :class:`~sevenstud.hand.SeatView` and nothing else.

A bot is anything with a ``name`` and an ``act(view)`` that returns one of
``view.legal_actions``. The view is all a bot is given, so a bot cannot see another seat's down
cards: :meth:`Hand.view <sevenstud.hand.Hand.view>` has blanked them already. The same bot plays
at a server table, in the terminal (``sevenstud play``) and in a match
(:mod:`sevenstud.bots.match`).

The kinds, weakest first (:data:`BOT_KINDS`, by name, with a one-line description each):
``random`` (:class:`RandomBot`), ``station`` (:class:`CallingStation`), ``rule``
(:class:`RuleBot`), ``tight`` (:class:`TightBot`) and ``equity`` (:class:`EquityBot`).

>>> from sevenstud.deck import Deck
>>> from sevenstud.games import Stakes, StudHiLo
>>> from sevenstud.hand import Hand
>>> hand = Hand(StudHiLo(Stakes(1, 2, 5, 10)), [100, 100, 100], Deck.seeded(7))
>>> bot: Bot = new_bot("tight", seed=1)
>>> view = hand.view(hand.to_act)
>>> bot.act(view) in view.legal_actions
True
"""

from __future__ import annotations

from sevenstud.bots.base import Bot
from sevenstud.bots.equity_bot import EquityBot
from sevenstud.bots.registry import BOT_KINDS, DEFAULT_KIND, BotKind, BotKindName, new_bot
from sevenstud.bots.simple import CallingStation, RandomBot, RuleBot
from sevenstud.bots.tight import TightBot

__all__ = [
    "BOT_KINDS",
    "DEFAULT_KIND",
    "Bot",
    "BotKind",
    "BotKindName",
    "CallingStation",
    "EquityBot",
    "RandomBot",
    "RuleBot",
    "TightBot",
    "new_bot",
]
