"""Accounts, guests, sessions and refills, on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime

import pytest
from sqlalchemy import select, update

from sevenstud.server.accounts import auth
from sevenstud.server.audit import audit
from sevenstud.server.store import Store
from sevenstud.server.store.models import LoginSession, Player


def test_sign_up_stores_an_argon2id_hash_and_gives_play_chips(store: Store) -> None:
    ann = auth.sign_up(store, "ann", "correct horse")
    with store.session() as s:
        player = s.get(Player, ann)
        assert player is not None
        assert player.password_hash is not None and player.password_hash.startswith("$argon2id$")
        assert "correct horse" not in player.password_hash
        assert player.balance == auth.SIGN_UP_CHIPS
    assert audit(store).ok


def test_log_in_gives_a_token_stored_only_hashed(store: Store) -> None:
    ann = auth.sign_up(store, "ann", "correct horse")
    token = auth.log_in(store, "ann", "correct horse")
    found = auth.player_of(store, token)
    assert found is not None and found.id == ann
    with store.session() as s:
        assert [row.token_hash for row in s.scalars(select(LoginSession))] != [token]
        assert token not in {row.token_hash for row in s.scalars(select(LoginSession))}
    auth.log_out(store, token)
    assert auth.player_of(store, token) is None


@pytest.mark.parametrize(("name", "password"), [("ann", "wrong horse"), ("bob", "correct horse")])
def test_a_wrong_password_and_an_unknown_name_get_the_same_error(
    store: Store, name: str, password: str
) -> None:
    auth.sign_up(store, "ann", "correct horse")
    with pytest.raises(auth.AuthError, match="no account with that name and password"):
        auth.log_in(store, name, password)


@pytest.mark.parametrize(
    ("name", "password", "why"),
    [
        ("a", "correct horse", "3 to 20"),
        ("ann smith", "correct horse", "3 to 20"),
        ("guest-1", "correct horse", "kept for guests"),
        ("bot3", "correct horse", "kept for guests and bots"),
        ("ann", "short", "at least 8"),
    ],
)
def test_bad_sign_ups_are_refused_and_change_nothing(
    store: Store, name: str, password: str, why: str
) -> None:
    with pytest.raises(auth.AuthError, match=why):
        auth.sign_up(store, name, password)
    with store.session() as s:
        assert s.scalars(select(Player)).all() == []


def test_a_name_is_taken_once(store: Store) -> None:
    auth.sign_up(store, "ann", "correct horse")
    with pytest.raises(auth.AuthError, match="taken"):
        auth.sign_up(store, "ann", "another horse")


def test_a_guest_plays_at_once_without_a_password(store: Store) -> None:
    guest = auth.guest(store)
    with store.session() as s:
        player = s.get(Player, guest)
        assert player is not None and player.guest and player.password_hash is None
        assert player.name.startswith("guest-") and player.balance == auth.SIGN_UP_CHIPS
    with pytest.raises(auth.AuthError):
        auth.log_in(store, player.name, "")


def test_a_refill_only_when_broke_and_only_so_often_a_day(store: Store) -> None:
    ann = auth.sign_up(store, "ann", "correct horse")
    day = datetime.date(2026, 5, 1)
    with pytest.raises(auth.AuthError, match="under 1000"):
        auth.refill(store, ann, day)
    for _ in range(auth.REFILLS_PER_DAY):
        _spend_all(store, ann)
        assert auth.refill(store, ann, day) == auth.REFILL_CHIPS
    _spend_all(store, ann)
    with pytest.raises(auth.AuthError, match="refills a day"):
        auth.refill(store, ann, day)
    assert auth.refill(store, ann, day + datetime.timedelta(days=1)) == auth.REFILL_CHIPS
    assert audit(store).ok


def _spend_all(store: Store, player_id: int) -> None:
    """Lose the whole balance to the bank, through the ledger (as a losing session would)."""
    from sevenstud.server.store import ledger

    with store.session() as s, s.begin():
        account = ledger.account(s, ledger.BALANCE, player_id)
        held = ledger.balance_of(s, account)
        if held:
            ledger.transfer(s, account, ledger.account(s, ledger.BANK), held, "test loss")
        s.execute(update(Player).where(Player.id == player_id).values(balance=0))
