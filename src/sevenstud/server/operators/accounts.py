"""What an operator does to an account: find it, look at it, move its chips with a reason,
suspend or ban it and lift that, make it an operator or a player again (docs/operators.md).

Each action is one transaction with its line in the event log (:mod:`.log`); a chip move is a
ledger transfer like every other (from the bank or back to it), so ``sevenstud audit`` still
balances. A refused command (:class:`OperatorError`) names what was wrong and changes nothing.
"""

from __future__ import annotations

import time
from typing import Any

from sevenstud.refusals import Refusal
from sevenstud.server.accounts import auth
from sevenstud.server.operators import log
from sevenstud.server.store import Session, Store, accounts, ledger
from sevenstud.server.store.models import BANNED, Player

OPERATOR = "operator"
PLAYER = "player"
FOUND_AT_MOST = 50
"""How many accounts a search lists."""
SHOWN_AT_MOST = 20
"""How many chip moves, hands and tournaments an account's page lists (the newest)."""
OWN_MOVES_SHOWN = 50
"""How many of its own chip moves an account's history page lists (the newest)."""
OVER = ("finished", "cancelled")
"""The states of a tournament that is over."""


class OperatorError(Refusal, ValueError):
    """An operator's command refused: the message says what was wrong; nothing changed."""


def _account(s: Session, name: str) -> Player:
    found = accounts.player_named(s, name, auth.name_key(name))
    if found is None:
        raise OperatorError("no_account_named", name=repr(name))
    return found


def _reason(reason: str) -> str:
    reason = reason.strip() if isinstance(reason, str) else ""
    if not reason:
        raise OperatorError("operator_reason_needed")
    if len(reason) > 500 or not reason.isprintable():
        raise OperatorError("operator_reason_form")
    return reason


def suspension(player: Player, now: float | None = None) -> dict[str, Any] | None:
    """The account's suspension in force (``until`` None for a ban), or None."""
    until = player.suspended_until
    if until is None or until <= (time.time() if now is None else now):
        return None
    return {"until": None if until >= BANNED else until, "reason": player.suspended_reason or ""}


def find(store: Store, query: str) -> list[dict[str, Any]]:
    """Accounts whose name contains ``query`` (compared as names are), guests last."""
    key = auth.name_key(query.strip()) if isinstance(query, str) else ""
    with store.session() as s:
        rows = accounts.players_containing(s, key, FOUND_AT_MOST)
        return [_line(player) for player in rows]


def _line(player: Player) -> dict[str, Any]:
    return {
        "name": player.name,
        "balance": player.balance,
        "guest": player.guest,
        "role": player.role,
        "suspended": suspension(player),
    }


def look(store: Store, name: str) -> dict[str, Any]:
    """One account as the console shows it: its line, its live sessions (when made, last used,
    ending: never a token), its last chip moves (the ledger's), the seats it holds now (the
    stack alone), its last finished hands and its tournaments. No card of any hand: a hand is
    listed once it has ended, and its history shows what it shows everyone."""
    now = time.time()
    with store.session() as s:
        player = _account(s, name)
        balance = ledger.account(s, ledger.BALANCE, player.id) if player.id else None
        moves = accounts.balance_moves(s, balance, SHOWN_AT_MOST)
        logins = accounts.live_logins(s, player.id, now)
        seats = accounts.open_seats(s, player.id)
        seated = accounts.sittings_count(s, player.id)
        hands = accounts.last_hands(s, player.id, SHOWN_AT_MOST)
        entries = accounts.tournament_entries(s, player.id, SHOWN_AT_MOST)
        return {
            **_line(player),
            "created_at": player.created_at,
            "sessions": len(logins),
            "logins": [{"created_at": c, "last_seen_at": seen, "expires_at": e} for c, seen, e in logins],
            "sittings": int(seated or 0),
            "seats": [{"table": table, "seat": seat, "stack": stack} for table, seat, stack in seats],
            "hands": [
                {"hand": hand, "table": table, "number": number, "started_at": at}
                for hand, table, number, at in hands
            ],
            "tournament_entries": len(entries),
            "tournaments": [
                {"id": t, "name": n, "state": state, "paid": paid, "place": place, "prize": prize}
                for t, n, state, paid, place, prize in entries
            ],
            "chip_moves": [{"at": at, "reason": reason, "amount": amount} for _, at, reason, amount in moves],
        }


def move_chips(store: Store, operator: str, name: str, amount: int, reason: str) -> int:
    """Give ``name`` ``amount`` chips from the bank (a negative amount takes them back to it),
    with the reason written; the new balance."""
    reason = _reason(reason)
    if not isinstance(amount, int) or isinstance(amount, bool) or amount == 0:
        raise OperatorError("chip_move_amount", amount=repr(amount))
    with store.transaction() as s:
        player = _account(s, name)
        bank, balance = ledger.account(s, ledger.BANK), ledger.account(s, ledger.BALANCE, player.id)
        try:
            after = ledger.move_balance(s, player.id, amount)
        except ledger.ShortBalance as short:
            raise OperatorError(
                "chip_move_short", name=player.name, balance=short.balance, amount=-amount
            ) from None
        source, target = (bank, balance) if amount > 0 else (balance, bank)
        moved = ledger.transfer(s, source, target, abs(amount), "operator")
        s.flush()
        log.write(s, operator, "chips", player.name, reason, amount=amount, balance=after, transfer=moved.id)
        return after


def own_chip_moves(store: Store, player_id: int) -> list[dict[str, Any]]:
    """An account's own last chip moves, as its history page shows them: when, what (the
    ledger's reason: ``sign-up``, ``buy-in``, ``operator`` ...), how many chips (negative: out
    of the balance), and for an operator's move the reason the operator wrote."""
    with store.session() as s:
        player = s.get(Player, player_id)
        if player is None:
            return []
        balance = ledger.account(s, ledger.BALANCE, player.id)
        moves = accounts.balance_moves(s, balance, OWN_MOVES_SHOWN)
        notes: dict[int, str] = {}
        if any(reason == "operator" for _, _, reason, _ in moves):
            # An operator's reason is kept in the event log, its line naming the transfer.
            for line in accounts.chip_move_lines(s, player.name, OWN_MOVES_SHOWN):
                moved = (line.detail or {}).get("transfer")
                if isinstance(moved, int):
                    notes[moved] = line.reason
        return [
            {"at": at, "what": reason, "amount": amount, "note": notes.get(moved_id, "")}
            for moved_id, at, reason, amount in moves
        ]


def suspend(store: Store, operator: str, name: str, until: float | None, reason: str) -> list[str]:
    """Suspend ``name`` until ``until`` (None: a ban, for good): its log-in refused with the
    reason and the date, its sessions ended. Returns the ended sessions' keys (the caller
    closes their sockets and stands the account up at its tables)."""
    reason = _reason(reason)
    now = time.time()
    if until is not None and until <= now:
        raise OperatorError("suspension_in_past")
    with store.transaction() as s:
        player = _account(s, name)
        if player.role == OPERATOR:
            raise OperatorError("operator_revoke_first", name=player.name)
        player.suspended_until = BANNED if until is None else until
        player.suspended_reason = reason
        keys = accounts.end_sessions(s, player.id)
        log.write(s, operator, "ban" if until is None else "suspend", player.name, reason, until=until)
        return keys


def lift(store: Store, operator: str, name: str, reason: str) -> None:
    """End ``name``'s suspension or ban."""
    reason = _reason(reason)
    with store.transaction() as s:
        player = _account(s, name)
        if suspension(player) is None:
            raise OperatorError("not_suspended", name=player.name)
        player.suspended_until, player.suspended_reason = None, None
        log.write(s, operator, "lift", player.name, reason)


def set_role(store: Store, operator: str, name: str, role: str) -> None:
    """Make ``name`` an operator (``grant``) or a player again (``revoke``)."""
    with store.transaction() as s:
        player = _account(s, name)
        if player.guest:
            raise OperatorError("guest_cannot_operate", name=player.name)
        if player.role == role == OPERATOR:
            raise OperatorError("operator_already", name=player.name)
        if player.role == role:
            raise OperatorError("player_already", name=player.name)
        player.role = role
        log.write(s, operator, "grant" if role == OPERATOR else "revoke", player.name)


def rename(store: Store, operator: str, name: str, new_name: str, reason: str) -> tuple[str, list[str]]:
    """Give ``name`` the name ``new_name`` (a sign-up's rules: its form, not a guest's or a
    bot's, not the dealer's, nobody else's). Refused while the account holds a seat (a table
    knows its seats by name). Returns the name as kept and the account's ended sessions' keys:
    its pages are closed, it signs in again with the new name."""
    reason = _reason(reason)
    try:
        new_name = auth.check_name(new_name)
    except auth.AuthError as error:
        raise OperatorError(error.code or str(error), **error.params) from None
    with store.transaction() as s:
        player = _account(s, name)
        old = player.name
        if old == new_name:
            raise OperatorError("rename_same", name=old)
        if accounts.name_taken(s, new_name, auth.name_key(new_name), besides=player.id):
            raise OperatorError("name_taken", name=repr(new_name))
        held = accounts.sittings_count(s, player.id, open_only=True)
        registered = accounts.entries_not_over(s, player.id, OVER)
        if held or registered:
            raise OperatorError("rename_while_seated", name=old)
        player.name, player.name_key = new_name, auth.name_key(new_name)
        keys = accounts.end_sessions(s, player.id)
        log.write(s, operator, "rename", new_name, reason, old=old, new=new_name)
        return new_name, keys


def create(store: Store, operator: str, name: str, password: str) -> int:
    """A new account with ``password`` that is an operator from the start."""
    try:
        kept = auth.check_sign_up(name, password)
        player_id = auth.sign_up(store, kept, password)
    except auth.AuthError as error:
        raise OperatorError(str(error)) from None
    set_role(store, operator, kept, OPERATOR)
    return player_id
