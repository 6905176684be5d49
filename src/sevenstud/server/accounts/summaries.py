"""Finished hands as the history and the statistics read them, each replayed once.

A stored hand is its record (the deck and the actions): to know its cards, its result and what
each seat did, the engine plays it again (about 5 ms a hand on a busy core: 5000 hands would be
25 s a request). A finished hand never changes, so :class:`Summaries` keeps what the history
needs of each (:class:`HandSummary`: its table, game, stakes, who sat where, each seat's cards,
chips won or lost and :class:`~sevenstud.stats.HandFacts`) in memory, by hand row, and replays
only the hands it has not seen. Each app has its own (one database), bounded to
:data:`KEPT_HANDS` hands, the least recently used forgotten first.

Every seat's cards are kept here, in the server's memory only: what leaves it is the asker's
own cards (:func:`sevenstud.server.accounts.history.line`) and statistics, which read no card.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from sevenstud.server.accounts.downloads import MAX_HANDS
from sevenstud.server.store import Store
from sevenstud.server.store.models import HandRow, Sitting, TableRow
from sevenstud.stats import HandFacts, hand_facts
from sevenstud.wire import WireError, hand_from_record

KEPT_HANDS = 200_000
"""The most hand summaries one app keeps in memory (a few hundred bytes each)."""


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


class Summaries:
    """The hand summaries of one store, replayed once each (see the module)."""

    def __init__(self, store: Store, kept: int = KEPT_HANDS) -> None:
        self.store = store
        self.kept = kept
        self._cache: OrderedDict[int, HandSummary | None] = OrderedDict()
        self._lock = threading.Lock()  # the routes run in FastAPI's thread pool

    def of(self, player_id: int, limit: int = MAX_HANDS) -> list[Mine]:
        """The player's finished hands (the newest ``limit``, newest first), as they see them."""
        with self.store.session() as s:
            ids = set(s.scalars(select(Sitting.id).where(Sitting.player_id == player_id)).all())
            if not ids:
                return []
            finished = select(HandRow.id, HandRow.sittings).where(HandRow.status == "finished")
            rows = s.execute(finished.order_by(HandRow.id.desc())).all()
            wanted = [row_id for row_id, sittings in rows if ids.intersection(sittings)][:limit]
            with self._lock:
                missing = [row_id for row_id in wanted if row_id not in self._cache]
            for start in range(0, len(missing), 200):
                self._load(s, missing[start : start + 200])
        found = []
        with self._lock:
            for row_id in wanted:
                summary = self._cache.get(row_id)
                if summary is None:
                    continue
                self._cache.move_to_end(row_id)
                if player_id in summary.player_ids:
                    found.append(Mine(summary, summary.player_ids.index(player_id)))
        return found

    def _load(self, s: Session, row_ids: list[int]) -> None:
        rows = s.scalars(select(HandRow).where(HandRow.id.in_(row_ids))).all()
        sitting_ids = {i for row in rows for i in row.sittings}
        sittings = {x.id: x for x in s.scalars(select(Sitting).where(Sitting.id.in_(sitting_ids))).all()}
        tables = select(TableRow.id, TableRow.name).where(TableRow.id.in_({r.table_id for r in rows}))
        names: dict[int, str] = {table_id: name for table_id, name in s.execute(tables)}
        made = {}
        for row in rows:
            made[row.id] = _summary(row, [sittings[i] for i in row.sittings], names.get(row.table_id, ""))
        with self._lock:
            self._cache.update(made)
            while len(self._cache) > self.kept:
                self._cache.popitem(last=False)


__all__ = ["KEPT_HANDS", "HandSummary", "Mine", "Summaries"]
