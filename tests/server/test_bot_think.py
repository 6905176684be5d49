"""Bots take a person's time at a table with a person (docs/table.md, "Bots at the table"): a
thinking time drawn afresh for each of a bot's turns from the room's range, the same draws
under the same seed, and none at a table of bots alone that nobody watches."""

from __future__ import annotations

import functools
import itertools

import pytest

from sevenstud.deck import Deck
from sevenstud.games import Stakes, StudHiLo
from sevenstud.server.accounts import auth
from sevenstud.server.connection import Connection
from sevenstud.server.store import Store
from sevenstud.server.tables.room import BOT_THINK, Room, TableKeeper, Watcher, create_table, think_range
from sevenstud.table import TableSettings

SETTINGS = TableSettings(StudHiLo(Stakes(1, 2, 5, 10)), seats=4)
_people = itertools.count(1)


def _bot_waits(store: Store, *, person: bool, seed: int, watched: bool = False) -> list[float]:
    """Play one hand by the room's steps and return how long each bot's turn was due after it
    began (people's turns are played at once by the helper bot)."""
    from sevenstud.bots import RuleBot

    keeper = TableKeeper(store, create_table(store, f"think {person} {seed}", SETTINGS), SETTINGS)
    now = 0.0
    room = Room(keeper, clock=lambda: now, bot_think=BOT_THINK, seed=seed)
    if person:
        name = f"ann{next(_people)}"
        keeper.sit_down(name, 1, 100, 0.0, player_id=auth.sign_up(store, name, "correct horse"))
    else:
        keeper.add_bot(1, 0.0)
    if watched:
        room.watchers[7] = Watcher(Connection(7, None, None, _ignore), last=0)
    keeper.add_bot(2, 0.0)
    keeper.add_bot(3, 0.0)
    room._changed(lambda: None)  # the lobby's copy: who sits here
    now = 1.0
    room._changed(lambda: keeper.start_hand(now, Deck.seeded(3)))
    waits: list[float] = []
    helper = RuleBot(seed=1)
    table = keeper.table
    while table.hand_in_progress:
        seat = table.to_act
        assert seat is not None
        name = table.player_at(seat)
        occupant = keeper.occupants[name]  # type: ignore[index]
        if occupant.bot is not None:
            due = room._due()
            assert due is not None
            waits.append(round(due - room._turn_start, 9))
            now = due
            room._changed(room._tick)
        else:
            view = table.view(seat).hand
            assert view is not None
            now += 0.5
            room._changed(functools.partial(keeper.act, seat, helper.act(view), now))
    return waits


async def _ignore(text: str) -> None:
    return None


def test_a_bot_at_a_table_with_a_person_thinks_a_time_drawn_from_the_range(store: Store) -> None:
    """Rule: with a person seated, each bot action waits a time in BOT_THINK, drawn afresh."""
    waits = _bot_waits(store, person=True, seed=11)
    assert len(waits) >= 2
    low, high = BOT_THINK
    assert all(low <= w <= high for w in waits), waits
    assert len(set(waits)) == len(waits), "one draw per action, not one per table"


def test_the_thinking_times_are_the_same_under_the_same_seed(store: Store) -> None:
    """Rule: a seed makes the draws repeatable (the tests'), another seed draws others."""
    first = _bot_waits(store, person=True, seed=5)
    again = _bot_waits(store, person=True, seed=5)
    other = _bot_waits(store, person=True, seed=6)
    n = min(len(first), len(other))
    assert first == again
    assert first[:n] != other[:n]


def test_bots_alone_and_unwatched_never_wait_but_a_watcher_makes_them_think(store: Store) -> None:
    """Rule: nobody to follow them, bots play on at once; somebody watching, they take time."""
    assert set(_bot_waits(store, person=False, seed=2)) == {0.0}
    watched = _bot_waits(store, person=False, seed=2, watched=True)
    assert all(w >= BOT_THINK[0] for w in watched), watched


@pytest.mark.parametrize(
    ("text", "expected"), [("0.8-2.5", (0.8, 2.5)), ("2", (2.0, 2.0)), ("0", (0.0, 0.0))]
)
def test_the_bot_think_setting_reads_seconds_or_a_range(text: str, expected: tuple[float, float]) -> None:
    assert think_range(text) == expected


@pytest.mark.parametrize("text", ["", "fast", "3-1", "-1", "1-2-3", "nan", "100"])
def test_a_bad_bot_think_setting_is_refused_naming_it(text: str) -> None:
    with pytest.raises(ValueError, match="thinking time"):
        think_range(text)
