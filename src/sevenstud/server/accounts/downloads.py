"""Hand downloads: each player gets their own finished hands as PokerStars text or PHH.

Only hands that are over are served (a hand in progress would give away the deck), only to a
player who was dealt in, and only as that player saw them: their own down cards, everybody's up
cards, and another seat's down cards only where that seat showed them at the showdown. A hand
mucked stays unknown (``??`` in PHH, no cards in the PokerStars text). Both formats replay
through ``sevenstud replay``.

``GET /api/hands`` lists the player's hands (each ``id``, ``table``, ``number``, ``seat``, ``at``:
docs/protocol.md); ``GET /api/hands/{id}?format=phh|pokerstars`` is one hand (PHH by
default); ``GET /api/hands/download?format=phh|pokerstars`` is all of them in one file, sent
as it is made, a batch of hands at a time (:class:`Downloads` limits them per account);
``GET /api/hands/{id}/replay`` is one hand for the replayer (:func:`replay_for`), street by
street, as its player saw it at the end.

A player's hands are found by the index of who was dealt in (:mod:`sevenstud.server.store.dealt`),
ordered and limited in SQL: the list reads that index alone, a download or a hand reads only
the records it sends, whatever the number of hands in the room.
"""

from __future__ import annotations

import dataclasses
import datetime
import re
import threading
import typing
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import PlainTextResponse, StreamingResponse

from sevenstud.events import (
    ActionTaken,
    BetReturned,
    CardDealt,
    Event,
    HandShown,
    HandTurnedUp,
    StreetStarted,
    redact,
)
from sevenstud.hand import Hand
from sevenstud.history.phh import PHHHand, dumps
from sevenstud.history.pokerstars import format_hand
from sevenstud.history.replay import to_phh
from sevenstud.refusals import Refusal
from sevenstud.server.accounts.sessions import Sessions
from sevenstud.server.i18n import negotiate, translation
from sevenstud.server.limits import Buckets, Limits, RateLimited
from sevenstud.server.store import Session, Store, dealt, hands
from sevenstud.server.store.dealt import Dealt
from sevenstud.server.store.models import HandRow, TableRow, TournamentRow, TournamentTable
from sevenstud.server.tables.presenter import street_lines, summary
from sevenstud.server.web import RowId
from sevenstud.wire import WireError, hand_from_record, hand_to_record, to_wire

Format = Literal["pokerstars", "phh"]
MAX_HANDS = 5000
"""The most hands one download holds (the newest), so one request stays a bounded amount of work."""
BATCH = 100
"""Hands read from the database at a time while a download is sent (their records in memory)."""

_DEAL = re.compile(r"^d dh p(\d+) (\S+)$")


class DownloadError(Refusal, ValueError):
    """A hand that cannot be downloaded (not yours, not over, no such hand)."""


@dataclass(frozen=True, slots=True)
class OwnHand:
    """One finished hand as its player downloads it: the engine's hand, the names and table
    seats of everyone dealt in, and which of them is the player (``hero``, a hand index)."""

    row_id: int
    table_id: int
    table_name: str
    number: int
    max_seats: int
    started_at: float
    hand: Hand
    names: list[str]
    seats: list[int]
    hero: int
    tournament: tuple[int, int, int, int] | None = None
    """A tournament hand's (tournament, level from 1, buy-in, fee); None at a cash table."""


def _seen_by(hand: Hand, hero: int) -> set[str]:
    """Every card ``hero`` saw by the end: their own, every up card, every hand shown."""
    seen = {str(c) for c in hand.cards[hero]}
    for seat in range(hand.n):
        seen.update(str(c) for c, up in zip(hand.cards[seat], hand.face_up[seat], strict=True) if up)
    for event in hand.events:
        if isinstance(event, HandShown | HandTurnedUp):
            seen.update(str(c) for c in event.cards)
    if hand.community is not None:
        seen.add(str(hand.community))
    return seen


def phh_for(own: OwnHand) -> PHHHand:
    """The hand in PHH as its player saw it: every card they did not see is ``??``."""
    hand = own.hand
    full = to_phh(hand, own.names, table=own.table_id, seats=own.seats)
    seen = _seen_by(hand, own.hero)
    actions = []
    for line in full.actions:
        match = _DEAL.match(line)
        if match is not None:
            cards = match.group(2)
            shown = "".join(
                card if card in seen else "??" for card in (cards[i : i + 2] for i in range(0, len(cards), 2))
            )
            line = f"d dh p{match.group(1)} {shown}"
        actions.append(line)
    # PHH has no rake field: the replayer reads the room's rake from the user field ``_rake``.
    extra: dict[str, Any] = {**full.extra, "_rake": hand.rake} if hand.rake else dict(full.extra)
    if own.tournament is None:
        return dataclasses.replace(
            full, actions=actions, hand=own.number, seat_count=own.max_seats, extra=extra
        )
    # A tournament hand: PHH's own ``event`` and ``level``, the tournament's number and buy-in
    # in user fields (PHH has none for them).
    number, level, buy_in, fee = own.tournament
    extra.update(_tournament=number, _buy_in=buy_in, _fee=fee)
    return dataclasses.replace(
        full,
        actions=actions,
        hand=own.number,
        seat_count=own.max_seats,
        event=f"Tournament #{number}",
        level=level,
        extra=extra,
    )


def pokerstars_for(own: OwnHand) -> str:
    """The hand as PokerStars writes it for its player (``hero``); hands mucked stay hidden."""
    started = datetime.datetime.fromtimestamp(own.started_at, datetime.UTC)
    return format_hand(
        own.hand,
        players=own.names,
        seat_numbers=own.seats,
        hero=own.hero,
        show_mucked=False,
        hand_id=own.row_id,
        table=f"{own.table_name} {own.table_id}".strip(),  # an unnamed table: its number
        max_seats=own.max_seats,
        date=started.strftime("%Y/%m/%d %H:%M:%S UTC"),
        # A tournament hand gets the card room's tournament header: number, buy-in, level.
        tournament=str(own.tournament[0]) if own.tournament is not None else None,
        level=own.tournament[1] if own.tournament is not None else None,
        buy_in=f"{own.tournament[2]}+{own.tournament[3]}" if own.tournament is not None else None,
    )


def _table_seats(event: Event, seats: list[int]) -> Event:
    """A hand event with its seat (and first to act) said as a table seat."""
    changes = {
        name: seats[value]
        for name in ("seat", "first_to_act")
        if isinstance(value := getattr(event, name, None), int)
    }
    return typing.cast(Event, typing.cast(Any, event)._replace(**changes)) if changes else event


def street_money(hand: Hand) -> dict[int, dict[str, list[Any]]]:
    """What was in the middle at the end of each street's betting, as the engine counts it:
    ``pots`` the engine's :meth:`Hand.pots` then (the hand played again action by action from
    its record; main pot first, seats in hand order), on the street the hand ended the pots as
    awarded (:attr:`Hand.final_pots`, after the rake); ``bets`` what each seat put in on that
    street, from its ``action_taken`` events' chips (the antes not counted, an uncalled bet's
    return taken off). A street dealt with nobody left to bet (all in) keeps the pots before."""
    again = hand_from_record({**hand_to_record(hand), "actions": []})
    pots: dict[int, list[Any]] = {}
    for seat, action in hand.actions:
        street = again.street
        again.act_recorded(action, seat)
        if again.street != street or again.is_over:
            # Over: the pots as awarded (the streets dealt to all-in players after it too).
            pots[street] = list(hand.final_pots if again.is_over else again.pots())
    pots[hand.street] = list(hand.final_pots)
    bets: dict[int, list[int]] = {}
    street = 3
    for event in hand.events:
        if isinstance(event, StreetStarted):
            street = event.street
        elif isinstance(event, ActionTaken):
            bets.setdefault(street, [0] * hand.n)[event.seat] += event.chips
        elif isinstance(event, BetReturned) and street in bets:
            bets[street][event.seat] -= event.amount
    return {street: {"pots": pots[street], "bets": bets.get(street, [0] * hand.n)} for street in pots}


def replay_for(own: OwnHand, lang: str = "en") -> dict[str, Any]:
    """The hand for the replayer, as its player saw it at the end: their own cards, every up
    card, the hands shown (or turned face up); every other down card (mucked, never shown) is
    null. Street by street: the wire events and their words; then the result in sentences (the
    words and sentences in ``lang``)."""
    tr = translation(lang)
    hand, seats = own.hand, own.seats
    opened = {e.seat for e in hand.events if isinstance(e, HandShown | HandTurnedUp)}
    # Seats said as table seats, as the table's own stream says them.
    seen = [_table_seats(redact(e, own.hero, opened), seats) for e in hand.events]
    streets: list[dict[str, Any]] = []
    street, events = 3, list[object]()  # the antes belong to 3rd street
    for event in seen:
        begins = event.street if isinstance(event, CardDealt | StreetStarted) else street
        if begins != street:
            streets.append({"street": street, "events": events})
            street, events = begins, []
        events.append(event)
    streets.append({"street": street, "events": events})
    game, stakes = hand.game.code, hand.game.stakes
    names = dict(zip(seats, own.names, strict=True))
    money = street_money(hand)
    last: dict[str, list[Any]] = {"pots": [], "bets": [0] * len(seats)}

    def chips_on(street: int) -> dict[str, Any]:
        nonlocal last
        known = money.get(street)
        last = known if known is not None else {"pots": last["pots"], "bets": [0] * len(seats)}
        pots = [{"amount": p.amount, "seats": [seats[i] for i in p.eligible]} for p in last["pots"]]
        return {"pots": pots, "bets": list(last["bets"])}

    return {
        "id": own.row_id,
        "table": own.table_id,
        "number": own.number,
        "game": game,
        "game_name": hand.game.name,
        # what the game has (as GET /api/games says it), so that the replayer never decides it
        "has_high": hand.game.has_high,
        "has_low": hand.game.has_low,
        "split": hand.game.split,
        "stakes": [stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet],
        "you": own.seats[own.hero],
        "players": {str(seat): name for seat, name in names.items()},
        "seats": list(own.seats),
        "start_stacks": list(hand.starting_stacks),
        "streets": [
            {
                "street": part["street"],
                "events": [to_wire(e) for e in part["events"]],
                "text": street_lines(part["events"], names, tr),
                **chips_on(part["street"]),
            }
            for part in streets
        ],
        "result": {"summary": summary(hand.game, names, seen, tr), "stacks": list(hand.stacks)},
    }


def _own(s: Session, row: HandRow, mine: Dealt) -> OwnHand:
    """The hand as its player's download (``mine``: their row of the index, which holds only
    finished hands)."""
    try:
        hand = hand_from_record(row.record)
    except WireError as error:
        raise DownloadError(
            "hand_does_not_replay", number=row.number, table=row.table_id, error=error
        ) from None
    if not hand.is_over:  # never, for a finished hand: the audit says so if it happens
        raise DownloadError(f"hand {row.number} of table {row.table_id} replays to a hand not over")
    # The session's identity map keeps each table and sitting: a batch of hands at one table
    # reads them once.
    table = s.get(TableRow, row.table_id)
    assert table is not None
    sittings = hands.sittings_by_id(s, row.sittings)
    seated = [sittings[i] for i in row.sittings]
    return OwnHand(
        tournament=_tournament_of(s, row.table_id, hand),
        row_id=row.id,
        table_id=row.table_id,
        table_name=table.name,
        number=row.number,
        max_seats=int(table.settings.get("seats", 8)),
        started_at=row.started_at,
        hand=hand,
        names=[x.name for x in seated],
        seats=[x.seat for x in seated],
        hero=mine.hero,
    )


def _tournament_of(s: Session, table_id: int, hand: Hand) -> tuple[int, int, int, int] | None:
    """(tournament, level, buy-in, fee) of a hand at a tournament's table, else None. The level
    is the structure's first whose stakes the hand was dealt at (the levels' stakes rise)."""
    found = s.get(TournamentTable, table_id)
    if found is None:
        return None
    row = s.get(TournamentRow, found.tournament_id)
    if row is None:
        return None
    settings = row.settings
    stakes = hand.game.stakes
    level = 1
    for index, lv in enumerate(settings.get("structure", {}).get("levels", [])):
        if (lv["ante"], lv["bring_in"], lv["small_bet"], lv["big_bet"]) == (
            stakes.ante,
            stakes.bring_in,
            stakes.small_bet,
            stakes.big_bet,
        ):
            level = index + 1
            break
    return row.id, level, int(settings.get("buy_in", 0)), int(settings.get("fee", 0))


def own_list(store: Store, player_id: int, limit: int = MAX_HANDS) -> list[Dealt]:
    """The player's finished hands as the index says them (no record read), oldest first (at
    most ``limit``, the newest)."""
    with store.session() as s:
        found = dealt.newest(s, player_id, limit)
    found.reverse()
    return found


def each_own_hand(store: Store, player_id: int, mine: list[Dealt], batch: int = BATCH) -> Iterator[OwnHand]:
    """The hands ``mine`` (the player's, from :func:`own_list`) in their order, read
    ``batch`` at a time, each batch in a session of its own: a download of thousands holds one
    batch of records in memory, and no read transaction stays open while it is sent."""
    for start in range(0, len(mine), batch):
        part = mine[start : start + batch]
        with store.session() as s:
            rows = {r.id: r for r in hands.hand_rows(s, [m.hand_id for m in part])}
            made = [_own(s, rows[m.hand_id], m) for m in part if m.hand_id in rows]
        yield from made


def own_hands(store: Store, player_id: int, limit: int = MAX_HANDS) -> list[OwnHand]:
    """The player's finished hands, oldest first (at most ``limit``, the newest)."""
    return list(each_own_hand(store, player_id, own_list(store, player_id, limit)))


def own_hand(store: Store, player_id: int, hand_id: int) -> OwnHand:
    """One of the player's finished hands; :class:`DownloadError` when it is not theirs to have."""
    with store.session() as s:
        mine = dealt.dealt(s, player_id, hand_id)
        row = None if mine is None else s.get(HandRow, hand_id)
        own = None if row is None or mine is None else _own(s, row, mine)
    if own is None:
        # The same answer for a hand that does not exist, is not over, or is someone else's.
        raise DownloadError("no_finished_hand", hand=hand_id)
    return own


class Downloads:
    """Who is downloading all their hands now, and how many such downloads each account has
    left (docs/security.md): one replays and sends up to :data:`MAX_HANDS` hands, a few
    seconds of a core, so an account has :attr:`~.limits.Limits.downloads_at_once` at a time
    and :attr:`~.limits.Limits.downloads_per_account` per window."""

    def __init__(self, limits: Limits) -> None:
        self.at_once = limits.downloads_at_once
        self.allowance = Buckets(
            "downloads_per_account",
            limits.downloads_per_account,
            limits.download_window,
            "downloads of all your hands",
        )
        self._running: Counter[int] = Counter()
        self._lock = threading.Lock()

    def begin(self, player_id: int) -> Callable[[], None]:
        """Take one of the account's downloads, or raise :class:`RateLimited`; returns what
        ends it (call it once, when the last byte is sent or the client has gone)."""
        with self._lock:
            if self._running[player_id] >= self.at_once:
                raise RateLimited("downloads_at_once", "downloads_at_once", retry_after=5, count=self.at_once)
            self.allowance.take(str(player_id))
            self._running[player_id] += 1
        ended = False

        def end() -> None:
            nonlocal ended
            with self._lock:
                if not ended:
                    ended = True
                    self._running[player_id] -= 1
                    if not self._running[player_id]:
                        del self._running[player_id]

        return end


def router(sessions: Sessions, limits: Limits | None = None) -> APIRouter:
    """The download routes, for the player logged in (:class:`Sessions`); ``limits``: how many
    downloads of all one's hands an account may make (the defaults when None)."""
    routes = APIRouter()
    store = sessions.store
    player = sessions.player
    downloads = Downloads(limits or Limits())

    def text(own: OwnHand, fmt: Format, name: str) -> PlainTextResponse:
        # One hand is always a .phh; all of them always a .phhs (below), however many: a
        # reader of either never has to guess which it got.
        body, suffix = (dumps(phh_for(own)), "phh") if fmt == "phh" else (pokerstars_for(own), "txt")
        return PlainTextResponse(
            body, headers={"Content-Disposition": f'attachment; filename="{name}.{suffix}"'}
        )

    def each_text(hands: Iterator[OwnHand], fmt: Format, end: Callable[[], None]) -> Iterator[str]:
        # The file as the hands are read, a batch at a time (its parts as dumps_all and the
        # PokerStars text join them); the download ends with the last hand or the client.
        try:
            for index, own in enumerate(hands, start=1):
                if fmt == "phh":
                    yield ("\n" if index > 1 else "") + f"[{index}]\n{dumps(phh_for(own))}"
                else:
                    yield ("\n\n" if index > 1 else "") + pokerstars_for(own)
        finally:
            end()

    @routes.get("/api/hands")
    def list_hands(request: Request) -> list[dict[str, Any]]:
        who = player(request)
        return [
            {
                "id": h.hand_id,
                "table": h.table_id,
                "number": h.number,
                "seat": h.seat,
                "at": h.started_at,
            }
            for h in own_list(store, who.id)
        ]

    @routes.get("/api/hands/download")
    def download_all(request: Request, format: Format = "phh") -> StreamingResponse:
        who = player(request)
        mine = own_list(store, who.id)
        if not mine:
            raise HTTPException(404, Refusal("no_finished_hands"))
        end = downloads.begin(who.id)
        name, suffix = f"sevenstud-{who.name}", "phhs" if format == "phh" else "txt"
        return StreamingResponse(
            each_text(each_own_hand(store, who.id, mine), format, end),
            media_type="text/plain; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{name}.{suffix}"'},
        )

    @routes.get("/api/hands/{hand_id}")
    def download_one(request: Request, hand_id: RowId, format: Format = "phh") -> PlainTextResponse:
        who = player(request)
        try:
            own = own_hand(store, who.id, hand_id)
        except DownloadError as error:
            raise HTTPException(404, error) from None
        return text(own, format, f"sevenstud-hand-{own.row_id}")

    @routes.get("/api/hands/{hand_id}/replay")
    def replay_one(request: Request, hand_id: RowId, lang: str | None = None) -> dict[str, Any]:
        who = player(request)
        said = negotiate(request.headers.get("accept-language"), lang)
        try:
            return replay_for(own_hand(store, who.id, hand_id), said)
        except DownloadError as error:
            raise HTTPException(404, error) from None

    return routes


__all__ = [
    "BATCH",
    "MAX_HANDS",
    "DownloadError",
    "Downloads",
    "OwnHand",
    "each_own_hand",
    "own_hand",
    "own_hands",
    "own_list",
    "phh_for",
    "pokerstars_for",
    "replay_for",
    "router",
]
