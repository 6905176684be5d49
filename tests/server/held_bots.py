"""A table's actor whose bots never act on their own: the tests that follow one person's
messages hold the bots with it, so that nothing happens at the table but what they do."""

from __future__ import annotations

from sevenstud.server.tables.room import Room

HELD_SECONDS = 60.0
"""Longer than any of these tests runs."""


class HeldBots(Room):
    """A :class:`Room` whose bots wait :data:`HELD_SECONDS` before every action."""

    def bot_wait(self) -> float:
        return HELD_SECONDS
