"""Finished hands as the history and the statistics read them, each replayed once.

A stored hand is its record (the deck and the actions): to know its cards, its result and what
each seat did, the engine plays it again (about 5 ms a hand on a busy core: 5000 hands would be
25 s a request). A finished hand never changes, so :class:`Summaries` keeps what the history
needs of each (:class:`HandSummary`: its table, game, stakes, who sat where, each seat's cards,
chips won or lost and :class:`~sevenstud.stats.HandFacts`) in memory, by hand row, and replays
only the hands it has not seen. Each app has its own (one database), bounded to
:data:`KEPT_BYTES` bytes of summaries (each weighed as it is made: about 5 KB a hand), the least
recently used forgotten first.

A player's hands are found by the index of who was dealt in (:mod:`sevenstud.server.store.dealt`),
newest first, in SQL: a page of history reads (and replays) the hands of that page alone, and
statistics the player's own hands, whatever the number of hands in the room.

Every seat's cards are kept here, in the server's memory only: what leaves it is the asker's
own cards (:func:`sevenstud.server.accounts.history.line`) and statistics, which read no card.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from dataclasses import dataclass

from sevenstud.server.accounts.downloads import MAX_HANDS
from sevenstud.server.store import Session, Store, dealt, hands
from sevenstud.server.store.dealt import Dealt
from sevenstud.server.store.models import HandRow, Sitting
from sevenstud.stats import HandFacts, hand_facts
from sevenstud.wire import WireError, hand_from_record

KEPT_BYTES = 128 * 1024 * 1024
"""The most memory one app's hand summaries take (by :func:`weight`): about 25,000 hands. The
bound was 200,000 hands, thought 'a few hundred bytes' each; a hand's summary is about 5 KB
(its every seat's cards and facts), so that bound was about 1 GiB."""
LOAD = 200
"""Hands read from the database at a time to be summarized."""


@dataclass(frozen=True, slots=True)
class HandSummary:
    """One finished hand, by its seats (hand order): what the history and statistics read."""

    row_id: int
    table_id: int
    table_name: str
    number: int
    started_at: float
    game: str
    game_name: str
    split: bool
    stakes: tuple[int, int, int, int]
    names: tuple[str, ...]
    seats: tuple[int, ...]
    player_ids: tuple[int | None, ...]
    cards: tuple[tuple[str, ...], ...]
    nets: tuple[int, ...]
    facts: tuple[HandFacts, ...]


@dataclass(frozen=True, slots=True)
class Mine:
    """A hand as one of its players sees it in their history: the summary and their index."""

    hand: HandSummary
    hero: int

    @property
    def facts(self) -> HandFacts:
        """What the player did in it."""
        return self.hand.facts[self.hero]

    @property
    def cards(self) -> tuple[str, ...]:
        """The player's own cards, in dealing order."""
        return self.hand.cards[self.hero]

    @property
    def net(self) -> int:
        """The player's chips after the hand less those before it."""
        return self.hand.nets[self.hero]


def _summary(row: HandRow, dealt: list[Sitting], table_name: str) -> HandSummary | None:
    try:
        hand = hand_from_record(row.record)
    except WireError:
        return None  # a record that does not replay is the audit's to report, not the history's
    if not hand.is_over:
        return None
    stakes = hand.game.stakes
    split = hand.game.split
    return HandSummary(
        row_id=row.id,
        table_id=row.table_id,
        table_name=table_name,
        number=row.number,
        started_at=row.started_at,
        game=hand.game.code,
        game_name=hand.game.name,
        split=split,
        stakes=(stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet),
        names=tuple(x.name for x in dealt),
        seats=tuple(x.seat for x in dealt),
        player_ids=tuple(x.player_id for x in dealt),
        cards=tuple(tuple(str(c) for c in cards) for cards in hand.cards),
        nets=tuple(end - start for start, end in zip(hand.starting_stacks, hand.stacks, strict=True)),
        facts=tuple(hand_facts(hand.events, seat, split=split) for seat in range(hand.n)),
    )


def weight(summary: HandSummary | None) -> int:
    """The bytes a summary holds in memory: every object in it, each counted once (a string
    or number it shares with other summaries counted in each, so this errs high)."""
    seen: set[int] = set()
    total, todo = 0, list[object]([summary])
    while todo:
        item = todo.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if isinstance(item, tuple | list):
            todo.extend(item)
        elif isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif hasattr(item, "__slots__"):
            todo.extend(getattr(item, name) for name in item.__slots__ if hasattr(item, name))
    return total


class Summaries:
    """The hand summaries of one store, replayed once each (see the module)."""

    def __init__(self, store: Store, kept_bytes: int = KEPT_BYTES) -> None:
        self.store = store
        self.kept_bytes = kept_bytes
        self._cache: OrderedDict[int, tuple[HandSummary | None, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()  # the routes run in FastAPI's thread pool

    @property
    def held(self) -> tuple[int, int]:
        """(hands, bytes) kept now."""
        with self._lock:
            return len(self._cache), self._bytes

    def of(self, player_id: int, limit: int = MAX_HANDS) -> list[Mine]:
        """The player's finished hands (the newest ``limit``, newest first), as they see them."""
        with self.store.session() as s:
            mine = dealt.newest(s, player_id, limit)
        return self._mine(mine)

    def page(self, player_id: int, offset: int, count: int, most: int = MAX_HANDS) -> tuple[int, list[Mine]]:
        """``count`` of the player's newest ``most`` finished hands from the ``offset``-th, newest
        first, and how many there are (at most ``most``): the page alone is read and summarized."""
        with self.store.session() as s:
            total = dealt.count(s, player_id, most)
            if offset >= total:
                return total, []
            mine = dealt.newest(s, player_id, min(count, total - offset), offset)
        return total, self._mine(mine)

    def _mine(self, mine: list[Dealt]) -> list[Mine]:
        """The hands ``mine`` as their player sees them, in their order; the ones not kept are
        read and replayed (a record that does not replay is left out)."""
        found: dict[int, HandSummary | None] = {}
        with self._lock:
            for m in mine:
                kept = self._cache.get(m.hand_id)
                if kept is not None:
                    self._cache.move_to_end(m.hand_id)
                    found[m.hand_id] = kept[0]
        missing = [m.hand_id for m in mine if m.hand_id not in found]
        if missing:
            with self.store.session() as s:
                for start in range(0, len(missing), LOAD):
                    found.update(self._load(s, missing[start : start + LOAD]))
        return [Mine(summary, m.hero) for m in mine if (summary := found.get(m.hand_id)) is not None]

    def _load(self, s: Session, row_ids: list[int]) -> dict[int, HandSummary | None]:
        rows = hands.hand_rows(s, row_ids)
        sittings = hands.sittings_by_id(s, {i for row in rows for i in row.sittings})
        names = hands.table_names(s, {r.table_id for r in rows})
        made = {}
        for row in rows:
            made[row.id] = _summary(row, [sittings[i] for i in row.sittings], names.get(row.table_id, ""))
        weighed = {row_id: (summary, weight(summary)) for row_id, summary in made.items()}
        with self._lock:
            for row_id, kept in weighed.items():
                old = self._cache.pop(row_id, None)
                self._bytes += kept[1] - (old[1] if old is not None else 0)
                self._cache[row_id] = kept
            while self._bytes > self.kept_bytes and self._cache:
                _, (_, size) = self._cache.popitem(last=False)
                self._bytes -= size
        return made


__all__ = ["KEPT_BYTES", "HandSummary", "Mine", "Summaries", "weight"]
