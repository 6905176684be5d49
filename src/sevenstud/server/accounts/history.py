"""Your hand history, searched and filtered, and the statistics of you and of the players you met.

``GET /api/history`` pages through the logged-in player's finished hands, newest first, filtered
by game, stakes, date, result, the street reached and the cards held; ``GET /api/stats`` is the
player's statistics (:mod:`sevenstud.stats`) over the hands the same filters pick;
``GET /api/stats/players?name=...`` is the statistics of other players, counted only from the
hands the asker was dealt into with them and only from what the asker saw of those hands (the
events as the engine redacted them for the asker's seat: a down card never shown is not there,
and no statistic reads a card anyway). docs/protocol.md, "History and statistics", says every
field and filter; docs/stats.md defines each statistic.

The hands are the ones the downloads serve (the newest
:data:`~sevenstud.server.accounts.downloads.MAX_HANDS` finished hands the player was dealt into), each
replayed once and then kept in memory (:mod:`sevenstud.server.accounts.summaries`). They are
found by the index of who was dealt in: a page of history with no filter reads that page's hands
alone; a filter or the statistics read the player's hands, never the room's.
"""

from __future__ import annotations

import datetime
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request

from sevenstud.cards import RANK_CHARS, Card
from sevenstud.games import GAME_CODES
from sevenstud.refusals import Refusal
from sevenstud.server.accounts.sessions import Sessions
from sevenstud.server.accounts.summaries import Mine, Summaries
from sevenstud.stats import PlayerStats

PER_PAGE = 25
"""Hands on a page of history unless asked otherwise (at most :data:`MAX_PER_PAGE`)."""
MAX_PER_PAGE = 100
MAX_NAMES = 10
"""The most players one ``GET /api/stats/players`` asks about."""

Result = Literal["won", "lost", "even"]
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_STAKES = re.compile(r"^(\d{1,9})/(\d{1,9})$")


Street = Annotated[int | None, Query(ge=3, le=7)]
"""The street-reached filter: 3 to 7 (else a 422)."""
CardsHeld = Annotated[str | None, Query(max_length=40)]
"""The cards-held filter's text (``As Kd``, ``A A``)."""
Page = Annotated[int, Query(ge=1, le=10_000)]
PerPage = Annotated[int, Query(ge=1, le=MAX_PER_PAGE)]
Names = Annotated[list[str], Query(min_length=1, max_length=MAX_NAMES)]


class FilterError(Refusal, ValueError):
    """A filter that says nothing this server can search by: the text names the field."""


@dataclass(frozen=True, slots=True)
class Filters:
    """What to search your hands for (every field None: all of them)."""

    game: str | None = None
    stakes: tuple[int, int] | None = None
    since: float | None = None
    until: float | None = None
    result: Result | None = None
    street: int | None = None
    showdown: bool | None = None
    cards: tuple[str, ...] = ()

    @classmethod
    def parse(
        cls,
        game: str | None = None,
        stakes: str | None = None,
        since: str | None = None,
        until: str | None = None,
        result: Result | None = None,
        street: int | None = None,
        showdown: bool | None = None,
        cards: str | None = None,
    ) -> Filters:
        """The filters of a query; :class:`FilterError` naming the field that is wrong.

        >>> Filters.parse(stakes="5/10", cards="As k").cards
        ('As', 'K')
        """
        if game is not None and game not in GAME_CODES:
            raise FilterError("filter_game", games=", ".join(GAME_CODES), game=repr(game))
        bets = None
        if stakes is not None:
            match = _STAKES.match(stakes)
            if match is None:
                raise FilterError("filter_stakes", stakes=repr(stakes))
            bets = (int(match.group(1)), int(match.group(2)))
        held: list[str] = []
        for token in (cards or "").replace(",", " ").split():
            if len(token) == 1 and token.upper() in RANK_CHARS:
                held.append(token.upper())
                continue
            try:
                held.append(str(Card.parse(token)))
            except ValueError:
                raise FilterError("filter_card", token=repr(token)) from None
        if len(held) > 7:
            raise FilterError("filter_too_many_cards")
        start, end = _day(since, "since"), _day(until, "until", end=True)
        return cls(game, bets, start, end, result, street, showdown, tuple(held))

    @property
    def everything(self) -> bool:
        """Whether nothing is filtered (then a page of history is found and paged in SQL)."""
        return self == Filters()

    def picks(self, mine: Mine) -> bool:
        """Whether the hand is one the filters ask for."""
        hand, facts = mine.hand, mine.facts
        if self.game is not None and hand.game != self.game:
            return False
        if self.stakes is not None and hand.stakes[2:] != self.stakes:
            return False
        if self.since is not None and hand.started_at < self.since:
            return False
        if self.until is not None and hand.started_at >= self.until:
            return False
        if self.result is not None and _result(mine.net) != self.result:
            return False
        if self.street is not None and facts.street_reached != self.street:
            return False
        if self.showdown is not None and facts.showdown != self.showdown:
            return False
        return not self.cards or _holds(mine.cards, self.cards)


def _day(text: str | None, field: str, *, end: bool = False) -> float | None:
    """A date (YYYY-MM-DD, UTC) as seconds since 1970: its start, or with ``end`` the next
    day's start (``until`` takes in the whole day)."""
    if text is None:
        return None
    try:
        if not _DATE.match(text):
            raise ValueError
        day = datetime.datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=datetime.UTC)
    except ValueError:
        raise FilterError("filter_date", field=field, text=repr(text)) from None
    return (day + datetime.timedelta(days=1 if end else 0)).timestamp()


def _result(net: int) -> Result:
    return "won" if net > 0 else "lost" if net < 0 else "even"


def _holds(mine: tuple[str, ...], wanted: tuple[str, ...]) -> bool:
    """Whether the player held every card asked for (a rank alone: any suit, as many as asked)."""
    if any(card not in mine for card in wanted if len(card) == 2):
        return False
    ranks = Counter(card[0] for card in mine)
    asked = Counter(card for card in wanted if len(card) == 1)
    exact = Counter(card[0] for card in wanted if len(card) == 2)
    return all(ranks[rank] - exact[rank] >= n for rank, n in asked.items())


def line(mine: Mine) -> dict[str, Any]:
    """One hand of the history as the API lists it (docs/protocol.md): the player's own cards,
    never another seat's."""
    hand = mine.hand
    return {
        "id": hand.row_id,
        "table": hand.table_id,
        "table_name": hand.table_name,
        "number": hand.number,
        "at": hand.started_at,
        "game": hand.game,
        "game_name": hand.game_name,
        "stakes": list(hand.stakes),
        "seat": hand.seats[mine.hero],
        "cards": list(mine.cards),
        "net": mine.net,
        "result": _result(mine.net),
        "street": mine.facts.street_reached,
        "showdown": mine.facts.showdown,
        "players": list(hand.names),
    }


def search(hands: Iterable[Mine], filters: Filters) -> list[Mine]:
    """The hands the filters pick, newest first."""
    found = [mine for mine in hands if filters.picks(mine)]
    found.sort(key=lambda mine: (mine.hand.started_at, mine.hand.row_id), reverse=True)
    return found


def opponents(hands: Iterable[Mine], names: Iterable[str]) -> dict[str, PlayerStats]:
    """The statistics of each named player over the hands given (the asker's). Their facts are
    counted from public events alone (no statistic reads a card), so they are what the asker's
    own view of each hand gives (tests/test_stats.py checks that they are the same)."""
    wanted = {name: PlayerStats() for name in names}
    for mine in hands:
        for index, name in enumerate(mine.hand.names):
            if index != mine.hero and name in wanted:
                wanted[name].add(mine.hand.facts[index])
    return wanted


def router(sessions: Sessions) -> APIRouter:
    """The history and statistics routes, for the player logged in (:class:`Sessions`)."""
    routes = APIRouter()
    store = sessions.store
    summaries = Summaries(store)

    def player_id(request: Request) -> int:
        return sessions.player(request).id

    def filters(
        game: str | None,
        stakes: str | None,
        since: str | None,
        until: str | None,
        result: Result | None,
        street: int | None,
        showdown: bool | None,
        cards: str | None,
    ) -> Filters:
        try:
            return Filters.parse(game, stakes, since, until, result, street, showdown, cards)
        except FilterError as error:
            raise HTTPException(400, error) from None

    @routes.get("/api/history")
    def history(
        request: Request,
        game: str | None = None,
        stakes: str | None = None,
        since: str | None = None,
        until: str | None = None,
        result: Result | None = None,
        street: Street = None,
        showdown: bool | None = None,
        cards: CardsHeld = None,
        page: Page = 1,
        per_page: PerPage = PER_PAGE,
    ) -> dict[str, Any]:
        who = player_id(request)
        wanted = filters(game, stakes, since, until, result, street, showdown, cards)
        start = (page - 1) * per_page
        if wanted.everything:  # the page alone read, in SQL's order (newest first, as search's)
            total, shown = summaries.page(who, start, per_page)
        else:  # a filter reads every hand of the player's (the newest MAX_HANDS)
            picked = search(summaries.of(who), wanted)
            total, shown = len(picked), picked[start : start + per_page]
        return {
            "total": total,
            "page": page,
            "per_page": per_page,
            "hands": [line(mine) for mine in shown],
        }

    @routes.get("/api/stats")
    def my_stats(
        request: Request,
        game: str | None = None,
        stakes: str | None = None,
        since: str | None = None,
        until: str | None = None,
        result: Result | None = None,
        street: Street = None,
        showdown: bool | None = None,
        cards: CardsHeld = None,
    ) -> dict[str, Any]:
        who = player_id(request)
        stats = PlayerStats()
        wanted = filters(game, stakes, since, until, result, street, showdown, cards)
        for mine in search(summaries.of(who), wanted):
            stats.add(mine.facts)
        return stats.to_json()

    @routes.get("/api/stats/players")
    def their_stats(
        request: Request, name: Names
    ) -> dict[str, Any]:
        who = player_id(request)
        if any(not 1 <= len(n) <= 40 for n in name):
            raise HTTPException(400, Refusal("filter_name"))
        found = opponents(summaries.of(who), name)
        return {"players": {n: stats.to_json() for n, stats in found.items()}}

    return routes


__all__ = [
    "MAX_NAMES",
    "MAX_PER_PAGE",
    "PER_PAGE",
    "FilterError",
    "Filters",
    "line",
    "opponents",
    "router",
    "search",
]
