"""The card room's safety (issue 10, point 5), each rule tried by a test that sets out to break it.

- No message carries another seat's down card before it is shown, nor a mucked hand at all:
  the traffic of several real websocket clients (people seated and acting, spectators, reconnects
  resumed from their last number or from a snapshot) at tables of bots on a real
  ``sevenstud serve`` process, checked card by card against the hands stored in the database;
  the players' hand downloads too.
- A player acts only for their own seat and only on their turn; malformed, oversized,
  out-of-turn, stale and replayed messages get an error and change nothing.
- Messages are rate limited per connection; the websocket checks its origin.
- No password or session token is ever logged (every log record of a whole session).
- The shuffle is the OS's secure randomness (``Deck.shuffled``, ``secrets``).
- No HTTP route nor message type gives away the deck of a hand in progress.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import re
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn
import websockets
from sqlalchemy import select

from sevenstud import deck as deck_module
from sevenstud.deck import Deck
from sevenstud.events import HandShown, HandTurnedUp
from sevenstud.hand import Hand
from sevenstud.history.phh import loads_all
from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.app import create_app
from sevenstud.server.audit import audit
from sevenstud.server.limits import Limits
from sevenstud.server.protocol import MAX_MESSAGE_BYTES
from sevenstud.server.store import Store, open_store
from sevenstud.server.store.models import HandRow, Player, Sitting
from sevenstud.wire import hand_from_record
from tests.server.benches import load_bench
from tests.server.watch import watching
from tests.spawn import free_port, running

CARD = re.compile(r"^[2-9TJQKA][cdhs]$")
CAPTURE_HANDS = int(os.environ.get("SEVENSTUD_CAPTURE_HANDS", "1000"))
"""Hands each database's capture runs to (a soak run sets more); it stops at CAPTURE_SECONDS."""
CAPTURE_SECONDS = float(os.environ.get("SEVENSTUD_CAPTURE_SECONDS", "45"))


# ---------------------------------------------------------------------- clients


class Client:
    """One person or spectator: connections one after another to one table (each resumed from
    the last number seen, or from nothing for a snapshot), playing its own turns at once with a
    simple policy; every message received is kept in order."""

    def __init__(self, address: str, token: str | None, table: int, seat: int | None, seed: int) -> None:
        self.address, self.token, self.table, self.seat = address, token, table, seat
        self.rng = random.Random(seed)
        self.got: list[dict[str, Any]] = []
        self.last = 0
        self.errors: list[str] = []
        self.ended: set[int] = set()
        self.snapshots = 0
        self._bets: dict[int, int] = {}
        self._street = 3

    async def play(self, stop: asyncio.Event, sit: bool) -> None:
        """Connect again and again (1 to 3 s each) until ``stop``; the first sits down."""
        first = True
        while not stop.is_set():
            resume = self.last > 0 and self.rng.random() < 0.7
            await self.session(self.rng.uniform(1.0, 3.0), stop, resume=resume, sit=sit and first)
            first = False

    async def session(self, seconds: float, stop: asyncio.Event, *, resume: bool, sit: bool) -> None:
        headers = {"Cookie": f"{COOKIE}={self.token}"} if self.token else {}
        url = f"ws://{self.address}/ws"
        async with websockets.connect(url, additional_headers=headers, max_size=2**24) as ws:
            hello = {"type": "hello", "version": 1, "table": self.table, "last": self.last if resume else 0}
            await ws.send(json.dumps(hello))
            if sit:
                await ws.send(json.dumps({"type": "sit", "seat": self.seat, "buy_in": 200}))
            loop = asyncio.get_running_loop()
            end = loop.time() + seconds
            fallbacks: list[str] = []
            while not stop.is_set():
                left = end - loop.time()
                if left <= 0:
                    return
                try:
                    text = await asyncio.wait_for(ws.recv(), min(left, 0.5))
                except TimeoutError:
                    continue
                message = json.loads(text)
                self.got.append(message)
                kind = message["type"]
                if kind == "event":
                    self.last = max(self.last, message["number"])
                    self._follow(message)
                elif kind == "snapshot":
                    self.last = max(self.last, message["number"])
                    self.snapshots += 1
                elif kind == "error":
                    self.errors.append(message["message"])
                    if fallbacks and "too many" not in message["message"]:
                        await ws.send(fallbacks.pop(0))
                elif kind == "clock" and self.seat is not None and message["seat"] == self.seat:
                    tries = [
                        json.dumps(
                            {"type": "act", "hand": message["hand"], "street": message["street"], "action": a}
                        )
                        for a in self._choices()
                    ]
                    await ws.send(tries[0])
                    fallbacks = tries[1:]

    def _follow(self, message: dict[str, Any]) -> None:
        event = message["event"]
        kind = event["type"]
        if kind in ("street_started", "hand_started"):
            self._street, self._bets = event.get("street", 3), {}
        elif kind == "action_taken" and event["action"].get("amount") is not None:
            self._bets[event["seat"]] = event["action"]["amount"]
        elif kind == "hand_ended" and message["hand"] is not None:
            self.ended.add(message["hand"])

    def _choices(self) -> list[str]:
        high = max(self._bets.values(), default=0)
        mine = self._bets.get(self.seat or 0, 0)
        roll = self.rng.random()
        if self._street == 3 and not self._bets:
            return ["bring-in", "fold"]
        if high > mine:
            return ["fold" if roll < 0.12 else ("raise" if roll > 0.95 else "call"), "call", "fold"]
        return ["bet" if roll > 0.9 else "check", "check", "fold"]


@contextlib.contextmanager
def serve_process(db_url: str, **env: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``python -m sevenstud serve`` on a free port of 127.0.0.1, hands back to back; killed
    at the end (kill -9: what it leaves is the recovery's to mend)."""
    with running(db_url, pause=0.01, env=env, stop=signal.SIGKILL) as served:
        yield served.address, served.process


def guest(address: str) -> str:
    """A new guest's session token."""
    response = httpx.post(f"http://{address}/api/guest")
    response.raise_for_status()
    return str(response.cookies[COOKIE])


def new_table(address: str, token: str, game: str, seats: int, bots: int) -> int:
    response = httpx.post(
        f"http://{address}/api/tables",
        json={"game": game, "seats": seats, "bots": bots},
        cookies={COOKIE: token},
    )
    response.raise_for_status()
    return int(response.json()["id"])


# ---------------------------------------------------------------------- the truth and the checks


class Truth:
    """Every stored hand, replayed from the database: its engine hand and table seat -> index."""

    def __init__(self, store: Store) -> None:
        self.hands: dict[tuple[int, int], tuple[Hand, dict[int, int]]] = {}
        with store.session() as s:
            seats = {x.id: x.seat for x in s.scalars(select(Sitting)).all()}
            for row in s.scalars(select(HandRow)).all():
                index = {seats[sitting]: i for i, sitting in enumerate(row.sittings)}
                self.hands[(row.table_id, row.number)] = (hand_from_record(row.record), index)

    def seen_by_end(self, table: int, number: int, seat: int | None) -> set[str]:
        """Every card ``seat`` may have seen of that hand by its end."""
        hand, index = self.hands[(table, number)]
        seen = {str(c) for c in hand.cards[index[seat]]} if seat in index else set()
        for i in range(hand.n):
            seen |= {str(c) for c, up in zip(hand.cards[i], hand.face_up[i], strict=True) if up}
        for event in hand.events:
            if isinstance(event, HandShown | HandTurnedUp):
                seen |= {str(c) for c in event.cards}
        if hand.community is not None:
            seen.add(str(hand.community))
        return seen


def cards_in(value: Any) -> set[str]:
    """Every card named anywhere in a JSON value."""
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


def check_stream(client: Client, truth: Truth) -> int:
    """Fail at the first message that shows ``client`` a card it may not see yet: another
    seat's down card before that seat shows it, a mucked hand's card, a card not yet dealt, a
    card other than the one truly dealt. Returns the number of hands checked."""
    me, table = client.seat, client.table
    revealed: dict[int, set[str]] = {}
    turned: set[tuple[int, int]] = set()
    for message in client.got:
        where = f"client at seat {me} of table {table}, message {message}"
        if message["type"] == "snapshot":
            view = message["view"]
            number = view.get("hand_number")
            shown = cards_in(view)
            allowed = truth.seen_by_end(table, number, me) if number is not None else set()
            assert shown <= allowed, f"snapshot gives away {shown - allowed}: {where}"
            if number is not None:
                revealed.setdefault(number, set()).update(shown)
            continue
        if message["type"] != "event":
            assert not cards_in(message), where
            continue
        number = message["hand"]
        if number is None:
            assert not cards_in(message), where
            continue
        hand, index = truth.hands[(table, number)]
        known = revealed.setdefault(number, set())
        event = message["event"]
        kind = event["type"]
        if kind == "card_dealt":
            i = index[event["seat"]]
            card = event["card"]
            # A hand turned up (all betting over) is dealt the rest face up for all to see.
            open_hand = (number, event["seat"]) in turned
            if event["seat"] != me and not event["face_up"] and not open_hand:
                assert card is None, f"another seat's down card: {where}"
            if card is not None:
                k = hand.cards[i].index(next(c for c in hand.cards[i] if str(c) == card))
                assert event["seat"] == me or hand.face_up[i][k] or open_hand, where
                known.add(card)
        elif kind == "community_card_dealt":
            assert event["card"] == str(hand.community), where
            known.add(event["card"])
        elif kind in ("hand_shown", "hand_turned_up"):
            # (a hand turned up when all betting is over holds the cards dealt so far)
            held = [str(c) for c in hand.cards[index[event["seat"]]]]
            assert event["cards"] == held[: len(event["cards"])], where
            assert kind == "hand_turned_up" or len(event["cards"]) == len(held), where
            known.update(event["cards"])
            turned.add((number, event["seat"]))
        elif kind == "hand_mucked":
            assert not cards_in(message), f"a mucked hand's cards: {where}"
        leaked = cards_in(message) - known
        assert not leaked, f"{leaked} before they were dealt to this seat or shown: {where}"
    return len(revealed)


# ---------------------------------------------------------------------- thousands of hands


@pytest.mark.slow
def test_no_message_ever_carries_a_card_its_client_may_not_see(db_url: str) -> None:
    """People acting and spectators watching at four tables, reconnecting as they go, until
    CAPTURE_HANDS hands are over; every message of every client checked against the stored
    hands, and the people's downloads too."""
    with serve_process(db_url) as (address, _process):
        host = guest(address)
        clients: list[tuple[Client, bool]] = []
        for t, game in enumerate(("stud8", "stud", "razz", "stud8")):
            people = 2 if t == 0 else 1
            table = new_table(address, host, game, seats=5, bots=4 - people)
            for seat in range(6 - people, 6):
                clients.append((Client(address, guest(address), table, seat, seed=10 * t + seat), True))
            clients.append((Client(address, None, table, None, seed=100 + t), False))
            clients.append((Client(address, guest(address), table, None, seed=200 + t), False))

        async def run() -> None:
            stop = asyncio.Event()
            tasks = [asyncio.create_task(c.play(stop, sit)) for c, sit in clients]
            start = time.monotonic()
            watchers = [c for c, sit in clients if not sit and c.token is None]
            seated = [c for c, sit in clients if sit]

            def enough() -> bool:
                # The least the checks below need: a slow machine (CI's two cores, busy with
                # other tests) plays on past CAPTURE_SECONDS until it has that much, up to 4x.
                finished = {(c.table, n) for c, _ in clients for n in c.ended}
                return len(finished) >= min(CAPTURE_HANDS, 150) and all(_saw_showdown(c) for c in seated)

            while (elapsed := time.monotonic() - start) < 4 * CAPTURE_SECONDS:
                if sum(len(w.ended) for w in watchers) >= CAPTURE_HANDS:
                    break
                if elapsed >= CAPTURE_SECONDS and enough():
                    break
                await asyncio.sleep(0.2)
            stop.set()
            await asyncio.gather(*tasks)

        asyncio.run(run())
        downloads = []
        for client, sit in clients:
            if sit:
                jar = {COOKIE: client.token or ""}
                for fmt in ("pokerstars", "phh"):
                    got = httpx.get(
                        f"http://{address}/api/hands/download", params={"format": fmt}, cookies=jar
                    )
                    downloads.append((client, fmt, got))
    store = open_store(db_url)
    try:
        truth = Truth(store)
        hands = sum(check_stream(client, truth) for client, _ in clients)
        finished = {(c.table, n) for c, _ in clients for n in c.ended}
        wanted = min(CAPTURE_HANDS, 150)
        assert len(finished) >= wanted, f"only {len(finished)} hands in {4 * CAPTURE_SECONDS} s"
        assert hands >= len(finished)
        assert sum(c.snapshots for c, _ in clients) > len(clients), "reconnects from nothing got snapshots"
        seated = [c for c, sit in clients if sit]
        for c in seated:
            kinds = [m["event"]["type"] for m in c.got if m["type"] == "event"]
            assert _saw_showdown(c), (
                f"seat {c.seat} at table {c.table} saw no showdown in {len(c.got)} messages: "
                f"{sorted(set(kinds))}, {len(c.ended)} hands ended, errors {c.errors[-5:]}"
            )
        for client, fmt, got in downloads:
            assert got.status_code == 200, got.text
            _check_download(store, truth, client, fmt, got.text)
        print(  # what was checked (seen with -s: the soak's figures)
            f"captured on {db_url.split(':', 1)[0]}: {len(finished)} hands, "
            f"{sum(len(c.got) for c, _ in clients)} messages to {len(clients)} clients, "
            f"{sum(c.snapshots for c, _ in clients)} snapshots, {len(downloads)} downloads: no card leaked"
        )
    finally:
        store.close()


def _saw_showdown(client: Client) -> bool:
    """Whether any event the client got was a hand shown at a showdown."""
    return any(m["type"] == "event" and m["event"]["type"] == "hand_shown" for m in client.got)


def _check_download(store: Store, truth: Truth, client: Client, fmt: str, text: str) -> None:
    """A person's download holds no card they did not see, hand by hand."""
    with store.session() as s:
        player = s.scalar(
            select(Player)
            .join(Sitting, Sitting.player_id == Player.id)
            .where(Sitting.table_id == client.table)
            .where(Sitting.seat == client.seat)
        )
        assert player is not None
    if fmt == "phh":
        hands = loads_all(text)
        assert hands
        for phh in hands:
            assert phh.hand is not None and phh.table is not None
            seen = truth.seen_by_end(int(phh.table), int(phh.hand), client.seat)
            written = {c for line in phh.actions for c in re.findall(r"[2-9TJQKA][cdhs]", line)}
            assert written <= seen, f"PHH hand {phh.hand} gives away {written - seen}"
        return
    blocks = [b for b in re.split(r"\n\n+(?=PokerStars Hand #)", text) if b.strip()]
    assert blocks
    with store.session() as s:
        numbers = {r.id: (r.table_id, r.number) for r in s.scalars(select(HandRow)).all()}
    for block in blocks:
        row_id = int(re.match(r"PokerStars Hand #(\d+)", block).group(1))  # type: ignore[union-attr]
        seen = truth.seen_by_end(*numbers[row_id], client.seat)
        written = {c for group in re.findall(r"\[([^\]]*)\]", block) for c in group.split() if CARD.match(c)}
        assert written <= seen, f"PokerStars hand {row_id} gives away {written - seen}"


# ---------------------------------------------------------------------- one server in this process


@pytest.fixture
def live(store: Store) -> Iterator[str]:
    """A real uvicorn on 127.0.0.1 in this process (so its log records can be captured)."""
    port = free_port()
    config = uvicorn.Config(create_app(store, pause=0.05), host="127.0.0.1", port=port, log_level="info")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield f"127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


async def _talk(
    address: str,
    token: str | None,
    sent: list[str],
    *,
    until: str | None = None,
    seconds: float = 3.0,
    **headers: str,
) -> list[dict[str, Any]]:
    """Send ``sent`` in order and keep everything received for ``seconds`` (or until a message
    containing ``until``)."""
    got: list[dict[str, Any]] = []
    cookie = {"Cookie": f"{COOKIE}={token}"} if token else {}
    async with websockets.connect(f"ws://{address}/ws", additional_headers={**cookie, **headers}) as ws:
        for text in sent:
            await ws.send(text)
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        while loop.time() < end:
            try:
                text = await asyncio.wait_for(ws.recv(), end - loop.time())
            except TimeoutError:
                break
            got.append(json.loads(text))
            if until is not None and until in text:
                break
    return got


def _state(store: Store) -> tuple[list[tuple[int, int]], list[tuple[int, int]], int]:
    """Balances, stacks and the number of ledger transfers: what a refused message must not change."""
    from sevenstud.server.store.models import Transfer

    with store.session() as s:
        balances = sorted((p.id, p.balance) for p in s.scalars(select(Player)).all())
        stacks = sorted((x.id, x.stack) for x in s.scalars(select(Sitting)).all())
        transfers = len(s.scalars(select(Transfer.id)).all())
    return balances, stacks, transfers


def _hello(table: int, last: int = 0) -> str:
    return json.dumps({"type": "hello", "version": 1, "table": table, "last": last})


def _people_at_a_table(address: str) -> tuple[int, str, str]:
    """A heads-up table of two people (no bots, so nothing moves unless they act), both seated
    and the first hand dealt; returns the table and both tokens."""
    ann, bob = guest(address), guest(address)
    table = new_table(address, ann, "stud8", seats=2, bots=0)
    for token, seat in ((ann, 1), (bob, 2)):
        sit = json.dumps({"type": "sit", "seat": seat, "buy_in": 100})
        # Until the deal's first clock once both sit (a busy machine deals later than 0.5 s:
        # the antes then landed inside the caller's "nothing changed").
        until, seconds = ('"type": "clock"', 10.0) if seat == 2 else (None, 0.5)
        asyncio.run(_talk(address, token, [_hello(table), sit], until=until, seconds=seconds))
    return table, ann, bob


def _clock(address: str, token: str, table: int) -> dict[str, Any]:
    got = asyncio.run(_talk(address, token, [_hello(table)], until='"type": "clock"', seconds=5))
    clocks = [m for m in got if m["type"] == "clock"]
    assert clocks, got
    return clocks[-1]


def test_a_player_acts_only_for_their_own_seat_and_only_on_their_turn(live: str, store: Store) -> None:
    table, ann, bob = _people_at_a_table(live)
    clock = _clock(live, ann, table)
    to_act = clock["seat"]
    waiting = bob if to_act == 1 else ann
    acting = ann if to_act == 1 else bob
    watcher = guest(live)
    before = _state(store)
    act = {"type": "act", "hand": clock["hand"], "street": clock["street"], "action": "bring-in"}
    # Out of turn: the other player tries to bring in (for themselves, or "for" the seat to act:
    # there is no field naming a seat, so a message can only ever be for the sender's own seat).
    got = asyncio.run(_talk(live, waiting, [_hello(table), json.dumps(act)], until='"type": "error"'))
    errors = [m["message"] for m in got if m["type"] == "error"]
    assert errors and "seat" in errors[0], got
    assert _state(store) == before
    forged = {**act, "seat": to_act}
    got = asyncio.run(_talk(live, waiting, [_hello(table), json.dumps(forged)], until='"type": "error"'))
    assert any("malformed" in m["message"] for m in got if m["type"] == "error")
    assert _state(store) == before
    # A spectator (logged in, not seated) cannot act either.
    got = asyncio.run(_talk(live, watcher, [_hello(table), json.dumps(act)], until='"type": "error"'))
    assert any("not seated" in m["message"] for m in got if m["type"] == "error")
    assert _state(store) == before
    # The seat to act can.
    got = asyncio.run(_talk(live, acting, [_hello(table), json.dumps(act)], until='"type": "action_taken"'))
    assert any(m["type"] == "event" and m["event"]["type"] == "action_taken" for m in got), got
    assert _state(store) != before
    assert audit(store).ok


def test_stale_and_replayed_actions_are_refused_and_change_nothing(live: str, store: Store) -> None:
    table, ann, bob = _people_at_a_table(live)
    clock = _clock(live, ann, table)
    acting = ann if clock["seat"] == 1 else bob
    act = json.dumps({"type": "act", "hand": clock["hand"], "street": clock["street"], "action": "bring-in"})
    asyncio.run(_talk(live, acting, [_hello(table), act], until='"type": "action_taken"'))
    before = _state(store)
    # The very same message again (a replay), then ones for a past hand, a future hand, another street.
    stale = [
        act,
        json.dumps({"type": "act", "hand": clock["hand"] - 1 or 99, "street": 3, "action": "fold"}),
        json.dumps({"type": "act", "hand": clock["hand"] + 1, "street": 3, "action": "fold"}),
        json.dumps({"type": "act", "hand": clock["hand"], "street": 5, "action": "fold"}),
    ]
    for text in stale:
        for token in (ann, bob):
            got = asyncio.run(_talk(live, token, [_hello(table), text], until='"type": "error"'))
            assert any(m["type"] == "error" for m in got), (text, got)
    assert _state(store) == before
    assert audit(store).ok


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("{not json", "malformed"),
        ("[]", "malformed"),
        (json.dumps({"type": "act"}), "malformed"),
        (json.dumps({"type": "act", "hand": "1", "street": 3, "action": "call", "x": 1}), "malformed"),
        (json.dumps({"type": "sit", "seat": 9, "buy_in": 100}), "malformed"),
        (json.dumps({"type": "sit", "seat": 1, "buy_in": -5}), "malformed"),
        (json.dumps({"type": "top_up", "amount": 10**30}), ""),
        (json.dumps({"type": "deal", "deck": "all"}), "malformed"),
        (json.dumps({"type": "act", "hand": 1, "street": 3, "action": "x" * 41}), "malformed"),
        ("x" * (MAX_MESSAGE_BYTES + 1), f"at most {MAX_MESSAGE_BYTES} bytes"),
        (
            json.dumps({"type": "act", "hand": 1, "street": 3, "action": "a" * 30}) + " " * MAX_MESSAGE_BYTES,
            "at most",
        ),
        ("\x00\x01\x02", "malformed"),
    ],
)
def test_malformed_and_oversized_messages_get_an_error_and_change_nothing(
    live: str, store: Store, text: str, why: str
) -> None:
    table, ann, _ = _people_at_a_table(live)
    before = _state(store)
    got = asyncio.run(_talk(live, ann, [_hello(table), text, _hello(table)], seconds=1.5))
    errors = [m["message"] for m in got if m["type"] == "error"]
    assert len(errors) == 1 and why in errors[0], errors
    # The connection is still usable after the refusal: the second hello is welcomed too.
    assert sum(m["type"] == "welcome" for m in got) == 2
    assert _state(store) == before
    assert audit(store).ok


def test_messages_are_rate_limited_per_connection(live: str, store: Store) -> None:
    table, ann, bob = _people_at_a_table(live)
    burst = int(Limits().messages_per_second) + 15
    leave_fold = json.dumps({"type": "act", "hand": 999, "street": 3, "action": "fold"})
    got = asyncio.run(_talk(live, ann, [_hello(table)] + [leave_fold] * burst, seconds=2))
    errors = [m["message"] for m in got if m["type"] == "error"]
    assert sum("too many messages" in e for e in errors) >= 10, errors
    # Another connection (even the same player's) has its own allowance.
    again = asyncio.run(_talk(live, bob, [_hello(table), leave_fold], until='"type": "error"'))
    assert not any("too many" in m["message"] for m in again if m["type"] == "error")
    assert audit(store).ok


def test_actions_the_table_takes_are_never_rate_limited(tmp_path: Any) -> None:
    """Rule: the message allowance limits floods, not play. Five clients act at once at their
    turns (benchmarks/load.py with no think time) at a server allowing 3 messages a second:
    each acts far more often than that and none is refused, since an action the table takes
    gives its share back; a burst of refused messages on one socket is still cut at 3."""
    bench = load_bench()
    url = f"sqlite:///{tmp_path / 'room.db'}"
    with running(url, pause=0.02, args=["--limit", "messages_per_second=3"]) as served:
        tables = asyncio.run(bench.open_tables(served.base, 1))
        played = asyncio.run(bench.play(served.base, tables, seconds=3.0, think=(0.0, 0.0)))
        stale = json.dumps({"type": "act", "hand": 999, "street": 3, "action": "fold"})
        address = served.base.split("://", 1)[1]
        token = guest(address)
        got = asyncio.run(_talk(address, token, [_hello(tables[0])] + [stale] * 8, seconds=1.5))
    assert not played.errors, played.errors[:5]
    seats = bench.SEATS
    assert played.actions > seats * 3 * 3 + 2 * seats, f"{played.actions} actions: the clients hardly acted"
    refused = [m["message"] for m in got if m["type"] == "error"]
    assert sum("too many messages" in e for e in refused) >= 5, refused


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://127.0.0.1.evil.example"])
def test_the_websocket_checks_its_origin(live: str, origin: str) -> None:
    token = guest(live)
    with pytest.raises(websockets.exceptions.InvalidStatus):
        asyncio.run(_talk(live, token, [_hello(1)], seconds=1, Origin=origin))
    # The server's own page may connect.
    got = asyncio.run(_talk(live, token, ["{}"], until='"type": "error"', Origin=f"http://{live}"))
    assert got and got[0]["type"] == "error"


def test_no_password_or_session_token_is_ever_logged(
    live: str, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """Every log record of a session: uvicorn's (at info, the most a server is run at; at debug
    uvicorn's websocket layer writes out request headers, cookie included), SQLAlchemy's
    statements, parameters and rows (at debug), the app's; none holds the password or a session
    token. (The test's own clients, httpx and websockets, log what they send: not the server's.)"""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    keep = Keep(level=logging.DEBUG)
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(keep)
    root.setLevel(logging.DEBUG)
    # uvicorn's loggers do not propagate to the root: the handler goes on each of them too.
    names = ("sqlalchemy.engine", "sqlalchemy.pool", "uvicorn", "uvicorn.error", "uvicorn.access", "fastapi")
    for name in names:
        logging.getLogger(name).setLevel(logging.INFO if name.startswith("uvicorn") else logging.DEBUG)
        if not logging.getLogger(name).propagate:
            logging.getLogger(name).addHandler(keep)
    caplog.set_level(logging.DEBUG)
    password = "s3cret-Horse-battery-77"
    try:
        with httpx.Client(base_url=f"http://{live}") as client:
            assert client.post("/api/signup", json={"name": "dora", "password": password}).status_code == 200
            first = client.cookies[COOKIE]
            assert (
                client.post("/api/login", json={"name": "dora", "password": "wrong " + password}).status_code
                == 401
            )
            client.cookies.clear()
            assert client.post("/api/login", json={"name": "dora", "password": password}).status_code == 200
            second = client.cookies[COOKIE]
            client.get("/api/me")
            table = client.post("/api/tables", json={"game": "razz", "seats": 3, "bots": 1}).json()["id"]
        sit = json.dumps({"type": "sit", "seat": 3, "buy_in": 100})
        asyncio.run(_talk(live, second, [_hello(table), sit], seconds=1.5))
        asyncio.run(_talk(live, first + "x", [_hello(table)], seconds=0.3))
        with httpx.Client(base_url=f"http://{live}", cookies={COOKIE: second}) as client:
            client.post("/api/logout")
        time.sleep(0.2)
    finally:
        root.removeHandler(keep)
        root.setLevel(old_level)
        for name in names:
            logging.getLogger(name).setLevel(logging.NOTSET)
            logging.getLogger(name).removeHandler(keep)
    assert len(records) > 20, "the session logged something (SQLAlchemy's statements at least)"
    assert any(r.name.startswith("sqlalchemy") for r in records)
    assert any(r.name.startswith("uvicorn") for r in records)
    clients = ("httpx", "httpcore", "websockets.client")
    server = [r for r in records + caplog.records if not r.name.startswith(clients)]
    texts = [f"{r.getMessage()} {r.args!r} {r.__dict__!r}" for r in server]
    for secret in (password, first, second):
        assert not [t for t in texts if secret in t], "a secret was logged"


def test_the_room_deals_from_the_secure_shuffle(
    live: str, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every hand's deck is ``Deck.shuffled()``: one draw of ``secrets.randbelow`` over the
    52! orders. With that draw patched to known numbers, the stored decks are those orders, and
    Python's ``random`` (which is not secure) is never asked."""
    draws: list[int] = []
    real = deck_module.secrets.randbelow

    def spy(n: int) -> int:
        draws.append(n)
        return 12345 + len(draws) if n > 10**60 else real(n)

    def forbidden(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the room used Python's random module to deal")

    monkeypatch.setattr(deck_module.secrets, "randbelow", spy)
    monkeypatch.setattr(random, "shuffle", forbidden)
    monkeypatch.setattr(random, "random", forbidden)
    token = guest(live)
    table = new_table(live, token, "stud", seats=3, bots=2)
    deadline = time.monotonic() + 20
    with watching(live, table):  # a table of bots alone deals only while watched
        while time.monotonic() < deadline:
            with store.session() as s:
                rows = s.scalars(select(HandRow).where(HandRow.table_id == table).order_by(HandRow.id)).all()
            if len(rows) >= 3:
                break
            time.sleep(0.1)
    monkeypatch.undo()
    big = [n for n in draws if n > 10**60]
    assert len(rows) >= 3 and len(big) >= len(rows)
    import math

    assert set(big) == {math.factorial(52)}
    # Each stored deck is the order that the patched draw gave, in turn.
    orders = set()
    for i in range(1, len(big) + 1):
        monkeypatch.setattr(deck_module.secrets, "randbelow", lambda _n, i=i: 12345 + i)
        orders.add(tuple(str(c) for c in Deck.shuffled().cards))
        monkeypatch.undo()
    for row in rows[:3]:
        assert tuple(row.record["deck"]) in orders


def _cards_of(text: str) -> set[str]:
    try:
        value = json.loads(text)
    except ValueError:
        return set(re.findall(r"\b[2-9TJQKA][cdhs]\b", text))
    return cards_in(value)


def test_no_route_or_message_gives_away_the_deck_of_a_hand_in_progress(live: str, store: Store) -> None:
    """Every HTTP route the app has (GET and POST, with and without a session) and every client
    message type, sent while a hand is in progress: no answer holds a card of the deck that
    the asker may not see."""
    table, ann, _bob = _people_at_a_table(live)
    _clock(live, ann, table)
    with store.session() as s:
        row = s.scalars(select(HandRow).where(HandRow.status == "playing", HandRow.table_id == table)).one()
        deck = [str(c) for c in row.record["deck"]]
        hand = hand_from_record(row.record)
        index = {x.seat: i for i, x in enumerate(s.get(Sitting, sitting) for sitting in row.sittings) if x}
    ann_may = {str(c) for c in hand.cards[index[1]]}
    for i in range(hand.n):
        ann_may |= {str(c) for c, up in zip(hand.cards[i], hand.face_up[i], strict=True) if up}
    secret = set(deck) - ann_may
    app = create_app(store)
    routes = [getattr(r, "path", "") for r in app.routes]
    answers: list[str] = []
    with httpx.Client(base_url=f"http://{live}", cookies={COOKIE: ann}) as client:
        for path in routes:
            # The icon is a fixed file for everyone, and its SVG path data ("M16 8c-4 ...")
            # reads like cards: it cannot hold a hand's deck.
            if not path.startswith("/") or path in ("/ws", "/favicon.ico"):
                continue
            concrete = re.sub(r"\{[^}]+\}", str(row.id), path)
            for method in ("GET", "POST"):
                for cookies in ({COOKIE: ann}, {}):
                    client.cookies.clear()
                    client.cookies.update(cookies)
                    answers.append(client.request(method, concrete).text)
                    answers.append(client.request(method, concrete, params={"format": "phh"}).text)
                    answers.append(
                        client.request(method, concrete, json={"table": table, "hand": row.id}).text
                    )
        for extra in (
            f"/api/hands/{row.id}",
            "/api/hands/download",
            f"/api/tables/{table}",
            f"/api/hand/{row.id}",
        ):
            client.cookies.clear()
            client.cookies.update({COOKIE: ann})
            answers.append(client.get(extra).text)
    types = [
        "hello",
        "act",
        "sit",
        "leave",
        "sit_out",
        "sit_in",
        "top_up",
        "add_bot",
        "remove_bot",
        "wait",
        "unwait",
    ]
    for kind in types:
        message = {
            "type": kind,
            "version": 1,
            "table": table,
            "hand": 1,
            "street": 3,
            "action": "call",
            "seat": 2,
            "buy_in": 100,
            "amount": 10,
            "last": 0,
        }
        got = asyncio.run(_talk(live, ann, [_hello(table), json.dumps(message)], seconds=0.5))
        answers.extend(json.dumps(m) for m in got)
    found = set()
    for text in answers:
        try:
            value = json.loads(text)
        except ValueError:
            value = text
        found |= (
            cards_in(value) if not isinstance(value, str) else set(re.findall(r"\b[2-9TJQKA][cdhs]\b", value))
        )
    leaked = [text[:300] for text in answers if _cards_of(text) & secret]
    assert not found & secret, f"the deck of the hand in progress leaked: {found & secret} in {leaked[:2]}"
    assert len(answers) > 50
