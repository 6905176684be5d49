"""The :class:`Bot` protocol (re-exported by :mod:`sevenstud.bots`)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from sevenstud.hand import Action, SeatView


@runtime_checkable
class Bot(Protocol):
    """A player that chooses one of ``view.legal_actions`` from what its seat may see."""

    name: str

    def act(self, view: SeatView) -> Action:
        """The action to take; ``view`` is the bot's own seat's view, with it to act."""
        ...
