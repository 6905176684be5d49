"""The console's account tools (issue 33, point 2): an account's page, rename, one-time
password-reset links, and unused guests pruned, on SQLite and PostgreSQL."""

from __future__ import annotations

import argparse
import time
from typing import Any

import httpx
import pytest
from sqlalchemy import select, update

from sevenstud.server.accounts import auth
from sevenstud.server.app import create_app
from sevenstud.server.audit import audit
from sevenstud.server.operators import accounts, guests, log, resets
from sevenstud.server.operators.command import admin_command
from sevenstud.server.store import Store, ledger
from sevenstud.server.store.models import (
    LoginSession,
    OperatorEvent,
    PasswordReset,
    Player,
    Sitting,
    TableRow,
    TournamentEntry,
    TournamentRow,
)
from tests.spawn import in_thread

PASSWORD = "correct horse battery"
DAY = 86400.0


def _client(address: str, name: str, password: str = PASSWORD) -> httpx.Client:
    client = httpx.Client(base_url=f"http://{address}")
    client.post("/api/login", json={"name": name, "password": password}).raise_for_status()
    return client


def _seat(store: Store, player_id: int, name: str, *, open_: bool = True) -> None:
    """``name`` holds (``open_``) or held a seat at a table of its own (no chips in it)."""
    with store.transaction() as s:
        table = TableRow(name="t", game={}, settings={}, created_at=time.time())
        s.add(table)
        s.flush()
        s.add(Sitting(table_id=table.id, seat=1, player_id=player_id, name=name, stack=0, open=open_))


def _register(store: Store, player_id: int, name: str, state: str = "registering") -> None:
    with store.transaction() as s:
        row = TournamentRow(name="Sunday", kind="sng", settings={}, state=state, created_at=time.time())
        s.add(row)
        s.flush()
        s.add(
            TournamentEntry(tournament_id=row.id, player_id=player_id, name=name, registered_at=time.time())
        )


def _events(store: Store, action: str) -> list[dict[str, Any]]:
    return log.lines(store, log.Filter(action=action))


def test_an_accounts_page_lists_its_sessions_seats_and_tournaments(store: Store) -> None:
    """The page of an account: its live sessions (never a token), the seats it holds (the
    stack alone), its tournaments; no hand in progress (only finished hands are listed)."""
    pat = auth.sign_up(store, "pat", PASSWORD)
    token = auth.new_session(store, pat)
    _seat(store, pat, "pat")
    _register(store, pat, "pat")
    page = accounts.look(store, "PAT")
    assert page["name"] == "pat" and page["sessions"] == 1
    assert set(page["logins"][0]) == {"created_at", "last_seen_at", "expires_at"}
    assert token not in repr(page) and auth.session_key(token) not in repr(page)
    assert [(s["seat"], s["stack"]) for s in page["seats"]] == [(1, 0)]
    assert [(t["name"], t["state"]) for t in page["tournaments"]] == [("Sunday", "registering")]
    assert page["hands"] == []
    assert page["chip_moves"] == [{"at": page["chip_moves"][0]["at"], "reason": "sign-up", "amount": 1000}]


def test_rename_keeps_a_sign_ups_rules_ends_sessions_and_logs_both_names(store: Store) -> None:
    pat = auth.sign_up(store, "pat", PASSWORD)
    auth.sign_up(store, "sam", PASSWORD)
    auth.new_session(store, pat)
    for wanted, words in (
        ("x", "name"),
        ("guest-77", "kept for guests"),
        ("SAM", "taken"),
        ("pat", "already"),
        ("bad name", "name"),
    ):
        with pytest.raises(accounts.OperatorError, match=words):
            accounts.rename(store, "boss", "pat", wanted, "asked by mail")
    with pytest.raises(accounts.OperatorError, match="say why"):
        accounts.rename(store, "boss", "pat", "patricia", " ")
    kept, ended = accounts.rename(store, "boss", "pat", "Patricia", "asked by mail")
    assert kept == "Patricia" and len(ended) == 1
    assert auth.find_login(store, "patricia")[0] == pat and auth.find_login(store, "pat")[0] is None
    with store.session() as s:
        assert s.query(LoginSession).filter_by(player_id=pat).count() == 0
    (line,) = _events(store, "rename")
    assert line["detail"] == {"old": "pat", "new": "Patricia"} and line["reason"] == "asked by mail"
    assert line["operator"] == "boss" and line["target"] == "Patricia"


def test_rename_is_refused_while_the_account_holds_a_seat_or_an_entry(store: Store) -> None:
    pat = auth.sign_up(store, "pat", PASSWORD)
    _seat(store, pat, "pat")
    with pytest.raises(accounts.OperatorError, match="seated"):
        accounts.rename(store, "boss", "pat", "patricia", "asked")
    sam = auth.sign_up(store, "sam", PASSWORD)
    _register(store, sam, "sam", state="running")
    with pytest.raises(accounts.OperatorError, match="seated"):
        accounts.rename(store, "boss", "sam", "samuel", "asked")
    assert _events(store, "rename") == []


def test_a_reset_link_sets_a_password_once_ends_sessions_and_is_logged(store: Store) -> None:
    """An operator makes a link (only its hash stored); its player sees whose it is, sets a
    new password with it once (their sessions end); a used, a superseded or an expired link
    is refused; a guest has none. Both steps are in the event log."""
    accounts.create(store, log.COMMAND_LINE, "boss", PASSWORD)
    auth.sign_up(store, "pat", PASSWORD)
    auth.guest(store)
    app = create_app(store, pause=0.05)
    with in_thread(app) as address:
        boss, pat = _client(address, "boss"), _client(address, "pat")
        refused = boss.post("/api/admin/accounts/pat/reset-link", json={"reason": ""})
        assert refused.status_code == 400 and "say why" in refused.json()["detail"]
        guest = next(a["name"] for a in boss.get("/api/admin/accounts", params={"q": "guest"}).json())
        assert boss.post(f"/api/admin/accounts/{guest}/reset-link", json={"reason": "x"}).status_code == 400
        first = boss.post("/api/admin/accounts/pat/reset-link", json={"reason": "lost it"}).json()
        made = boss.post("/api/admin/accounts/pat/reset-link", json={"reason": "lost it, again"}).json()
        assert made["link"].startswith("/reset/") and made["expires_at"] > time.time() + 23 * 3600
        token = made["link"].removeprefix("/reset/")
        with store.session() as s:
            assert token not in repr([r.token_hash for r in s.scalars(select(PasswordReset))])
        nobody = httpx.Client(base_url=f"http://{address}")
        assert nobody.get(made["link"]).status_code == 200  # the page
        assert nobody.get(first["link"].replace("/reset/", "/api/reset/")).status_code == 404  # superseded
        assert nobody.get(f"/api/reset/{token}").json() == {"name": "pat"}
        short = nobody.post("/api/reset", json={"token": token, "password": "short"})
        assert short.status_code == 400 and "8" in short.json()["detail"]
        done = nobody.post("/api/reset", json={"token": token, "password": "a new secret"})
        assert done.json() == {"name": "pat"}
        assert pat.get("/api/me").status_code == 401  # every session of the account ended
        again = nobody.post("/api/reset", json={"token": token, "password": "yet another one"})
        assert again.status_code == 404 and "not a live" in again.json()["detail"]
        old = httpx.post(f"http://{address}/api/login", json={"name": "pat", "password": PASSWORD})
        assert old.status_code == 401
        _client(address, "pat", "a new secret")
        late = boss.post("/api/admin/accounts/pat/reset-link", json={"reason": "once more"}).json()
        with store.transaction() as s:
            s.execute(update(PasswordReset).values(expires_at=time.time() - 1))
        gone = late["link"].removeprefix("/reset/")
        assert (
            nobody.post("/api/reset", json={"token": gone, "password": "a new secret 2"}).status_code == 404
        )
    made_lines = _events(store, "reset_link")
    assert [line["reason"] for line in made_lines] == ["once more", "lost it, again", "lost it"]
    (used,) = _events(store, "password_reset")
    assert used["target"] == "pat" and used["detail"]["link_by"] == "boss"
    assert audit(store).ok


def test_unused_guests_are_pruned_their_chips_back_to_the_bank(store: Store, capsys: Any) -> None:
    """Guests unused for N days are pruned (chips back to the bank by a ledger transfer, the
    row deleted unless a hand names it); a seated, a waiting-for-a-tournament and a recently
    used guest stay; so do players. The command and the console's route both log it."""
    old = time.time() - 40 * DAY
    ids = [auth.guest(store) for _ in range(5)]
    quiet, played, seated, registered, recent = ids
    auth.sign_up(store, "pat", PASSWORD)
    with store.transaction() as s:
        s.execute(update(Player).values(created_at=old))
    auth.new_session(store, recent)  # used today
    stale = auth.new_session(store, quiet)
    with store.transaction() as s:
        key = auth.session_key(stale)
        s.execute(
            update(LoginSession)
            .where(LoginSession.token_hash == key)
            .values(created_at=old, last_seen_at=old)
        )
    names = {i: s.name for i in ids for s in [_player_by_id(store, i)]}
    _seat(store, played, names[played], open_=False)  # sat once, left: its hands name it
    _seat(store, seated, names[seated])
    _register(store, registered, names[registered])
    with store.session() as s:
        bank_before = ledger.balance_of(s, ledger.account(s, ledger.BANK))
    with pytest.raises(accounts.OperatorError, match="whole number"):
        guests.prune(store, "boss", 0)
    url = store.engine.url.render_as_string(hide_password=False)
    assert admin_command(argparse.Namespace(admin="prune-guests", unused_days=30, database=url)) == 0
    assert "2 guests pruned (1 deleted), 2000 chips" in capsys.readouterr().out
    with store.session() as s:
        left = {p.id: p.balance for p in s.scalars(select(Player))}
        assert ledger.balance_of(s, ledger.account(s, ledger.BANK)) == bank_before + 2000
    assert quiet not in left and left[played] == 0
    assert left[seated] == left[registered] == left[recent] == 1000
    assert audit(store).ok
    # Once more: nothing left to prune (the one that played keeps its row, balance 0).
    assert guests.prune(store, "boss", 30) == {"guests": 0, "deleted": 0, "chips": 0}
    lines = _events(store, "prune_guests")
    assert [(line["operator"], line["detail"]["guests"]) for line in lines] == [
        ("boss", 0),
        (log.COMMAND_LINE, 2),
    ]


def test_the_console_prunes_guests_and_pages_the_event_log(store: Store) -> None:
    accounts.create(store, log.COMMAND_LINE, "boss", PASSWORD)
    guest = auth.guest(store)
    with store.transaction() as s:
        s.execute(update(Player).where(Player.id == guest).values(created_at=time.time() - 9 * DAY))
    app = create_app(store, pause=0.05)
    with in_thread(app) as address:
        boss = _client(address, "boss")
        assert boss.post("/api/admin/guests/prune", json={"unused_days": 0}).status_code == 422
        assert boss.post("/api/admin/guests/prune", json={"unused_days": 7}).json() == {
            "guests": 1,
            "deleted": 1,
            "chips": 1000,
        }
        for n in range(5):
            boss.post(
                "/api/admin/accounts/boss/chips", json={"amount": 1, "reason": f"r{n}"}
            ).raise_for_status()
        first = boss.get("/api/admin/events", params={"limit": 3, "action": "chips"}).json()
        assert [line["reason"] for line in first] == ["r4", "r3", "r2"]
        more = boss.get(
            "/api/admin/events", params={"limit": 3, "action": "chips", "before": first[-1]["id"]}
        )
        assert [line["reason"] for line in more.json()] == ["r1", "r0"]
        scopes = boss.get("/api/admin/scopes").json()
        assert "accounts:write" in scopes
    with store.session() as s:
        assert s.query(OperatorEvent).filter_by(action="prune_guests").count() == 1


def _player_by_id(store: Store, player_id: int) -> Player:
    with store.session() as s:
        found = s.get(Player, player_id)
        assert found is not None
        s.expunge(found)
        return found


def test_a_reset_token_of_the_wrong_form_is_refused_without_a_query(store: Store) -> None:
    for token in ("", "x", "y" * 101, 5):
        with pytest.raises(resets.ResetRefused):
            resets.whose(store, token)  # type: ignore[arg-type]


def test_an_operators_chip_move_is_in_the_players_own_chip_moves_with_its_reason(store: Store) -> None:
    pat = auth.sign_up(store, "pat", PASSWORD)
    accounts.move_chips(store, "boss", "pat", 250, "league prize")
    accounts.move_chips(store, "boss", "pat", -50, "a double payout taken back")
    moves = accounts.own_chip_moves(store, pat)
    assert [(m["what"], m["amount"], m["note"]) for m in moves] == [
        ("operator", -50, "a double payout taken back"),
        ("operator", 250, "league prize"),
        ("sign-up", 1000, ""),
    ]
    assert audit(store).ok
