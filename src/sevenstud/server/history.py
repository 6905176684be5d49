"""Your hand history, searched and filtered, and the statistics of you and of the players you met.

``GET /api/history`` pages through the logged-in player's finished hands, newest first, filtered
by game, stakes, date, result, the street reached and the cards held; ``GET /api/stats`` is the
player's statistics (:mod:`sevenstud.stats`) over the hands the same filters pick;
``GET /api/stats/players?name=...`` is the statistics of other players, counted only from the
hands the asker was dealt into with them and only from what the asker saw of those hands (the
events as the engine redacted them for the asker's seat: a down card never shown is not there,
and no statistic reads a card anyway). docs/protocol.md, "History and statistics", says every
field and filter; docs/stats.md defines each statistic.

The hands are the ones the downloads serve (:func:`sevenstud.server.downloads.own_hands`: the
newest :data:`~sevenstud.server.downloads.MAX_HANDS`), so one request is a bounded amount of work.
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
from sevenstud.events import redact_all
from sevenstud.games import GAME_CODES
from sevenstud.server import auth
from sevenstud.server.downloads import OwnHand, own_hands
from sevenstud.server.store import Store
from sevenstud.stats import HandFacts, PlayerStats, hand_facts

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


class FilterError(ValueError):
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
            raise FilterError(f"game: one of {', '.join(GAME_CODES)}, not {game!r}")
        bets = None
        if stakes is not None:
            match = _STAKES.match(stakes)
            if match is None:
                raise FilterError(f"stakes: the small and the big bet as 5/10, not {stakes!r}")
            bets = (int(match.group(1)), int(match.group(2)))
        held: list[str] = []
        for token in (cards or "").replace(",", " ").split():
            if len(token) == 1 and token.upper() in RANK_CHARS:
                held.append(token.upper())
                continue
            try:
                held.append(str(Card.parse(token)))
            except ValueError:
                raise FilterError(f"cards: {token!r} is neither a card (As) nor a rank (A)") from None
        if len(held) > 7:
            raise FilterError("cards: a stud hand holds at most 7 cards")
        start, end = _day(since, "since"), _day(until, "until", end=True)
        return cls(game, bets, start, end, result, street, showdown, tuple(held))

    def picks(self, own: OwnHand, facts: HandFacts) -> bool:
        """Whether the hand is one the filters ask for."""
        hand = own.hand
        stakes = hand.game.stakes
        if self.game is not None and hand.game.code != self.game:
            return False
        if self.stakes is not None and (stakes.small_bet, stakes.big_bet) != self.stakes:
            return False
        if self.since is not None and own.started_at < self.since:
            return False
        if self.until is not None and own.started_at >= self.until:
            return False
        if self.result is not None and _result(own) != self.result:
            return False
        if self.street is not None and facts.street_reached != self.street:
            return False
        if self.showdown is not None and facts.showdown != self.showdown:
            return False
        return not self.cards or _holds(own, self.cards)


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
        raise FilterError(f"{field}: a date as 2026-12-01 (UTC), not {text!r}") from None
    return (day + datetime.timedelta(days=1 if end else 0)).timestamp()


def _net(own: OwnHand) -> int:
    return own.hand.stacks[own.hero] - own.hand.starting_stacks[own.hero]


def _result(own: OwnHand) -> Result:
    net = _net(own)
    return "won" if net > 0 else "lost" if net < 0 else "even"


def _holds(own: OwnHand, wanted: tuple[str, ...]) -> bool:
    """Whether the player held every card asked for (a rank alone: any suit, as many as asked)."""
    mine = [str(c) for c in own.hand.cards[own.hero]]
    if any(card not in mine for card in wanted if len(card) == 2):
        return False
    ranks = Counter(card[0] for card in mine)
    asked = Counter(card for card in wanted if len(card) == 1)
    exact = Counter(card[0] for card in wanted if len(card) == 2)
    return all(ranks[rank] - exact[rank] >= n for rank, n in asked.items())


def facts_of(own: OwnHand) -> HandFacts:
    """The player's own statistics' facts in the hand."""
    return hand_facts(own.hand.events, own.hero, split=own.hand.game.split)


def line(own: OwnHand, facts: HandFacts) -> dict[str, Any]:
    """One hand of the history as the API lists it (docs/protocol.md)."""
    hand, stakes = own.hand, own.hand.game.stakes
    return {
        "id": own.row_id,
        "table": own.table_id,
        "table_name": own.table_name,
        "number": own.number,
        "at": own.started_at,
        "game": hand.game.code,
        "game_name": hand.game.name,
        "stakes": [stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet],
        "seat": own.seats[own.hero],
        "cards": [str(c) for c in hand.cards[own.hero]],
        "net": _net(own),
        "result": _result(own),
        "street": facts.street_reached,
        "showdown": facts.showdown,
        "players": list(own.names),
    }


def search(hands: Iterable[OwnHand], filters: Filters) -> list[tuple[OwnHand, HandFacts]]:
    """The hands the filters pick, newest first, each with the player's facts in it."""
    found = []
    for own in hands:
        facts = facts_of(own)
        if filters.picks(own, facts):
            found.append((own, facts))
    found.sort(key=lambda pair: (pair[0].started_at, pair[0].row_id), reverse=True)
    return found


def opponents(hands: Iterable[OwnHand], names: Iterable[str]) -> dict[str, PlayerStats]:
    """The statistics of each named player over the hands given (the asker's), counted from
    the events as the asker saw them (their own seat's redaction)."""
    wanted = {name: PlayerStats() for name in names}
    for own in hands:
        met = [(i, name) for i, name in enumerate(own.names) if name in wanted and i != own.hero]
        if not met:
            continue
        seen = redact_all(own.hand.events, own.hero)
        for index, name in met:
            wanted[name].add(hand_facts(seen, index, split=own.hand.game.split))
    return wanted


def router(store: Store, cookie: str, idle: float = auth.SESSION_IDLE_SECONDS) -> APIRouter:
    """The history and statistics routes over ``store`` (the session cookie ``cookie``)."""
    routes = APIRouter()

    def player_id(request: Request) -> int:
        found = auth.player_of(store, request.cookies.get(cookie), idle)
        if found is None:
            raise HTTPException(401, "log in or play as a guest first")
        return found.id

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
            raise HTTPException(400, str(error)) from None

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
        picked = search(own_hands(store, who), wanted)
        start = (page - 1) * per_page
        return {
            "total": len(picked),
            "page": page,
            "per_page": per_page,
            "hands": [line(own, facts) for own, facts in picked[start : start + per_page]],
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
        for _own, facts in search(
            own_hands(store, who), filters(game, stakes, since, until, result, street, showdown, cards)
        ):
            stats.add(facts)
        return stats.to_json()

    @routes.get("/api/stats/players")
    def their_stats(
        request: Request, name: Names
    ) -> dict[str, Any]:
        who = player_id(request)
        if any(not 1 <= len(n) <= 40 for n in name):
            raise HTTPException(400, "name: a player's name is 1 to 40 characters")
        found = opponents(own_hands(store, who), name)
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
