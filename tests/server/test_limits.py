"""The limits on what one client may make the card room spend (docs/security.md), each over a
real uvicorn on 127.0.0.1 with limits small enough to reach, on both databases where they
touch storage: guests, tables, websockets and log-ins per address and per account (a 429
with ``Retry-After`` and a body naming the limit), the log-in lock-out, argon2 in its own
bounded pool and a dummy hash for unknown names, tables of bots alone paused and closed when
idle (also after a restart), and bots added and removed by the table's owner only."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher
from sqlalchemy import select
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from sevenstud.server.accounts import auth
from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.app import create_app
from sevenstud.server.audit import audit
from sevenstud.server.limits import Buckets, Limits, LoginGuard, RateLimited
from sevenstud.server.protocol import PROTOCOL_VERSION
from sevenstud.server.store import Store
from sevenstud.server.store.models import HandRow, Sitting, TableRow
from sevenstud.server.websocket import TRY_LATER
from tests.server.watch import watching
from tests.spawn import in_thread


@pytest.fixture
def quick_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """argon2 with the least work (a test of counting, not of hashing: seconds saved)."""
    monkeypatch.setattr(auth, "_HASHER", PasswordHasher(time_cost=1, memory_cost=64, parallelism=1))


@contextlib.contextmanager
def served(store: Store, limits: Limits, **options: Any) -> Iterator[str]:
    """A card room over ``store`` with ``limits``, in this process: its ``host:port``."""
    with in_thread(create_app(store, pause=0.05, limits=limits, **options), limits) as address:
        yield address


def _refused(response: httpx.Response, limit: str, status: int = 429) -> None:
    """The answer of a limit: the status, ``Retry-After`` in whole seconds, a body naming it."""
    assert response.status_code == status, response.text
    assert int(response.headers["retry-after"]) >= 1
    body = response.json()
    assert body["limit"] == limit and body["retry_after"] >= 1 and body["detail"], body


def _hello(table: int) -> str:
    return json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "table": table})


def _wait_until(what: str, test: Any, seconds: float = 20.0) -> Any:
    deadline = time.monotonic() + seconds
    while not (found := test()):
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds} s for {what}")
        time.sleep(0.05)
    return found


# ---------------------------------------------------------------------- per address, per account


def test_guests_per_address_are_limited_with_429_retry_after_and_the_limit_named(store: Store) -> None:
    """Rule: one address makes at most ``guests_per_address`` guests per window."""
    with served(store, Limits(guests_per_address=3)) as address:
        made = [httpx.post(f"http://{address}/api/guest") for _ in range(3)]
        assert [r.status_code for r in made] == [200, 200, 200]
        _refused(httpx.post(f"http://{address}/api/guest"), "guests_per_address")


def test_open_tables_are_limited_per_account_and_new_tables_per_address(store: Store) -> None:
    """Rule: an account owns at most ``tables_per_account`` open tables; an address opens at
    most ``tables_per_address`` tables per window."""
    with served(store, Limits(tables_per_account=2, tables_per_address=3)) as address:
        body = {"game": "stud", "seats": 4, "bots": 0}
        with httpx.Client(base_url=f"http://{address}") as ann:
            ann.post("/api/guest").raise_for_status()
            assert [ann.post("/api/tables", json=body).status_code for _ in range(2)] == [200, 200]
            _refused(ann.post("/api/tables", json=body), "tables_per_account")
        with httpx.Client(base_url=f"http://{address}") as bea:
            bea.post("/api/guest").raise_for_status()
            assert bea.post("/api/tables", json=body).status_code == 200
            _refused(bea.post("/api/tables", json=body), "tables_per_address")
    with store.session() as s:
        assert len(s.scalars(select(TableRow)).all()) == 3


def test_websockets_are_limited_per_account_and_per_address(store: Store) -> None:
    """Rule: ``sockets_per_account`` sockets at once for one account, ``sockets_per_address``
    from one address; one more is told why and closed with 1013 (try again later)."""
    with served(store, Limits(sockets_per_account=2, sockets_per_address=3)) as address:
        with httpx.Client(base_url=f"http://{address}") as client:
            client.post("/api/guest").raise_for_status()
            cookie = {"Cookie": f"{COOKIE}={client.cookies[COOKIE]}"}
        url = f"ws://{address}/ws"
        with connect(url, additional_headers=cookie), connect(url, additional_headers=cookie):
            with connect(url, additional_headers=cookie) as third:
                refusal = json.loads(third.recv(timeout=5))
                assert refusal["type"] == "error" and "your account: 2 at once" in refusal["message"]
                with pytest.raises(ConnectionClosed) as closed:
                    third.recv(timeout=5)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == TRY_LATER
            with connect(url) as anonymous:  # the third from this address
                anonymous.send(_hello(1))
                assert json.loads(anonymous.recv(timeout=5))["type"] == "error"  # no table 1, but served
                with connect(url) as fourth:
                    assert "your address: 3 at once" in json.loads(fourth.recv(timeout=5))["message"]
        # Closed sockets count no more.
        with connect(url, additional_headers=cookie) as again:
            again.send(_hello(1))
            assert "no table 1" in json.loads(again.recv(timeout=5))["message"]


def test_failed_log_ins_lock_the_name_then_the_address_with_back_off(
    store: Store, quick_hashes: None
) -> None:
    """Rule: past ``login_failures_per_account`` failures in a row a name is locked (the right
    password too is refused until the lock ends; an unknown name the same, so a lock says
    nothing about whether it exists); past ``login_failures_per_address`` the address is."""
    limits = Limits(login_failures_per_account=3, login_failures_per_address=6, lockout_seconds=60)
    with served(store, limits) as address, httpx.Client(base_url=f"http://{address}") as client:
        client.post("/api/signup", json={"name": "ann", "password": "correct horse"}).raise_for_status()
        for name in ("ann", "nobody-here"):
            for _ in range(3):
                assert (
                    client.post("/api/login", json={"name": name, "password": "wrong!!!"}).status_code == 401
                )
            right = client.post("/api/login", json={"name": name, "password": "correct horse"})
            _refused(right, "login_failures_per_account")
            assert 1 <= int(right.headers["retry-after"]) <= 60
        # Six failures from this address so far: the address is locked, whatever the name.
        _refused(
            client.post("/api/login", json={"name": "cat", "password": "x" * 8}), "login_failures_per_address"
        )


def test_the_lock_out_doubles_with_each_failure_past_the_limit_and_a_success_clears_it() -> None:
    """Rule: each failure past the limit doubles the lock (up to ``lockout_max_seconds``)."""
    now = [0.0]
    guard = LoginGuard(
        Limits(login_failures_per_account=2, login_failures_per_address=100, lockout_seconds=10),
        clock=lambda: now[0],
    )
    guard.failed("ann", "a")
    guard.check("ann", "a")  # one failure: not locked
    guard.failed("ann", "a")
    with pytest.raises(RateLimited) as first:
        guard.check("ann", "a")
    assert first.value.retry_after == 10
    now[0] = 11.0
    guard.check("ann", "a")
    guard.failed("ann", "a")
    with pytest.raises(RateLimited) as second:
        guard.check("ann", "a")
    assert second.value.retry_after == 20
    guard.succeeded("ann", "a")
    guard.check("ann", "a")


def test_login_attempts_per_address_are_limited(store: Store, quick_hashes: None) -> None:
    """Rule: an address tries at most ``login_attempts_per_address`` log-ins and sign-ups per
    window, right or wrong."""
    with served(store, Limits(login_attempts_per_address=2)) as address:
        answers = [
            httpx.post(f"http://{address}/api/login", json={"name": "ann", "password": "whatever1"})
            for _ in range(3)
        ]
        assert [a.status_code for a in answers[:2]] == [401, 401]
        _refused(answers[2], "login_attempts_per_address")


def test_a_bucket_refills_over_its_window() -> None:
    buckets = Buckets("guests_per_address", 2, 60.0, "guests from your address")
    buckets.take("a", now=0.0)
    buckets.take("a", now=0.0)
    with pytest.raises(RateLimited) as refused:
        buckets.take("a", now=0.0)
    assert refused.value.retry_after == 30 and "2 per minute" in refused.value.message
    buckets.take("a", now=30.0)  # one back after half the window
    buckets.take("b", now=30.0)  # another key has its own


# ---------------------------------------------------------------------- argon2


def test_an_unknown_name_is_checked_against_a_dummy_hash_as_slowly_as_a_real_one(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule: the time of a log-in's answer does not tell whether the name exists: a name
    nobody has is checked against a hash like a real one (argon2 either way)."""
    checked: list[str | None] = []
    real = auth.password_matches

    def spy(password_hash: str | None, password: str) -> bool:
        checked.append(password_hash)
        return real(password_hash, password)

    monkeypatch.setattr(auth, "password_matches", spy)
    with served(store, Limits()) as address, httpx.Client(base_url=f"http://{address}", timeout=60) as client:
        client.post("/api/signup", json={"name": "ann", "password": "correct horse"}).raise_for_status()

        def timed(name: str) -> float:
            started = time.perf_counter()
            assert client.post("/api/login", json={"name": name, "password": "wrong one"}).status_code == 401
            return time.perf_counter() - started

        known = min(timed("ann") for _ in range(2))
        unknown = min(timed(f"nobody{i}") for i in range(2))
    # Two real hashes checked, and two names nobody has: the dummy hash, checked as slowly.
    assert len(checked) == 4 and checked[2:] == [None, None]
    assert checked[0] is not None and checked[0].startswith("$argon2id$")
    assert unknown > known / 3, (known, unknown)  # was 5 ms against 330 ms


def test_password_checks_run_in_a_bounded_pool_and_other_requests_do_not_wait(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule: argon2 runs in ``hash_threads`` threads of its own with ``hash_queue`` places:
    a flood of log-ins past them is refused 503 at once, and the lobby answers meanwhile."""
    release = threading.Event()

    def slow(password_hash: str | None, password: str) -> bool:
        release.wait(10)  # a check that takes as long as the test wants
        return False

    monkeypatch.setattr(auth, "password_matches", slow)
    limits = Limits(
        hash_threads=1, hash_queue=2, login_attempts_per_address=1000, login_failures_per_address=1000
    )
    with served(store, limits) as address:

        async def flood() -> tuple[list[httpx.Response], float]:
            async with httpx.AsyncClient(base_url=f"http://{address}", timeout=20) as http:
                logins = [
                    asyncio.create_task(http.post("/api/login", json={"name": f"n{i}", "password": "p" * 8}))
                    for i in range(45)
                ]
                deadline = time.monotonic() + 15
                while sum(t.done() for t in logins) < 43 and time.monotonic() < deadline:
                    await asyncio.sleep(0.05)  # the refused ones come back at once
                started = time.perf_counter()
                (await http.get("/api/lobby")).raise_for_status()
                lobby = time.perf_counter() - started
                release.set()
                return list(await asyncio.gather(*logins)), lobby

        answers, lobby = asyncio.run(flood())
    busy = [a for a in answers if a.status_code == 503]
    assert len(busy) == 43 and sum(a.status_code == 401 for a in answers) == 2
    _refused(busy[0], "hash_queue", status=503)
    assert lobby < 1.0, lobby


# ---------------------------------------------------------------------- tables of bots alone


def _hands(store: Store, table: int) -> int:
    with store.session() as s:
        return len(s.scalars(select(HandRow.id).where(HandRow.table_id == table)).all())


def _closed(store: Store, table: int) -> bool:
    with store.session() as s:
        row = s.get(TableRow, table)
        seated = s.scalars(select(Sitting).where(Sitting.table_id == table, Sitting.open.is_(True))).all()
        return row is not None and row.closed and not seated


def test_a_table_of_bots_alone_deals_only_while_watched_and_closes_when_idle(store: Store) -> None:
    """Rule: a table nobody but bots sits at, with nobody watching, deals no hand, and is
    closed after ``idle_table_seconds`` (its bots stand up, their chips back to the bank)."""
    limits = Limits(idle_table_seconds=1.5)
    with served(store, limits) as address, httpx.Client(base_url=f"http://{address}") as client:
        client.post("/api/guest").raise_for_status()
        table = client.post("/api/tables", json={"game": "stud", "seats": 4, "bots": 3}).json()["id"]
        time.sleep(0.5)
        assert _hands(store, table) == 0
        with watching(address, table):
            _wait_until("hands while watched", lambda: _hands(store, table) >= 2)
        _wait_until("the idle table to close", lambda: _closed(store, table), 10)
        assert table not in [t["id"] for t in client.get("/api/lobby").json()]
    assert audit(store).ok


def test_after_a_restart_a_table_of_bots_alone_stays_paused_and_closes(store: Store) -> None:
    """Rule: the pause and the close hold after a restart (the table reopens paused)."""
    with (
        served(store, Limits(idle_table_seconds=3600)) as address,
        httpx.Client(base_url=f"http://{address}") as c,
    ):
        c.post("/api/guest").raise_for_status()
        table = c.post("/api/tables", json={"game": "stud", "seats": 4, "bots": 3}).json()["id"]
    before = _hands(store, table)
    with served(store, Limits(idle_table_seconds=1.0)):
        time.sleep(0.5)
        assert _hands(store, table) == before
        _wait_until("the idle table to close", lambda: _closed(store, table), 10)
    assert audit(store).ok


def test_only_the_tables_owner_adds_and_removes_its_bots(store: Store) -> None:
    """Rule (docs/protocol.md): only the account that opened a table adds or removes its bots;
    any other player, seated there or not, is refused and nothing changes."""
    with served(store, Limits()) as address:
        cookies = []
        for _ in range(2):
            with httpx.Client(base_url=f"http://{address}") as client:
                client.post("/api/guest").raise_for_status()
                cookies.append({"Cookie": f"{COOKIE}={client.cookies[COOKIE]}"})
                if len(cookies) == 1:
                    table = client.post("/api/tables", json={"game": "stud", "seats": 4}).json()["id"]
        url = f"ws://{address}/ws"

        def ask(cookie: dict[str, str], messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
            got: list[dict[str, Any]] = []
            with connect(url, additional_headers=cookie) as ws:
                ws.send(_hello(table))
                for message in messages:
                    ws.send(json.dumps(message))
                with contextlib.suppress(TimeoutError):
                    while True:
                        got.append(json.loads(ws.recv(timeout=0.7)))
            return got

        other = ask(cookies[1], [{"type": "sit", "seat": 1, "buy_in": 100}, {"type": "add_bot", "seat": 2}])
        assert any("only the table's owner" in m.get("message", "") for m in other), other
        owner = ask(cookies[0], [{"type": "add_bot", "seat": 2}])
        assert not [m for m in owner if m["type"] == "error"], owner
        other = ask(cookies[1], [{"type": "remove_bot", "seat": 2}])
        assert any("only the table's owner" in m.get("message", "") for m in other), other
    with store.session() as s:
        bots = s.scalars(select(Sitting).where(Sitting.table_id == table, Sitting.bot.is_not(None))).all()
        assert [b.seat for b in bots if b.open] == [2]


def test_a_limit_is_changed_by_name_and_a_wrong_one_is_named() -> None:
    assert Limits().changed("sockets-per-account=3").sockets_per_account == 3
    assert Limits().changed("pause_unwatched_bots=off").pause_unwatched_bots is False
    for wrong, said in (
        ("nope=1", "NAME=VALUE"),
        ("guests_per_address=many", "not a int"),
        ("hash_queue=-1", "below 0"),
    ):
        with pytest.raises(ValueError, match=said):
            Limits().changed(wrong)


def test_serve_names_a_wrong_limit_and_exits_2(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from sevenstud.cli import main

    assert main(["serve", "--database", str(tmp_path / "room.sqlite3"), "--limit", "nope=1"]) == 2
    assert "--limit: a limit is NAME=VALUE" in capsys.readouterr().err
