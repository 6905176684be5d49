"""The home games' rows (migration 0016): private tables and sit-and-gos, their invite links
(only a token's SHA-256 is kept) and each player's pass; the night's ledger read from the
seat accounts. Every query of home games is here; what the card room does with them is
:mod:`sevenstud.server.tables.private` (the overview) and
:mod:`sevenstud.server.tables.private_routes`."""

from __future__ import annotations

import dataclasses
import hashlib
import secrets
import time
from collections.abc import Callable
from typing import Any, Literal

from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.orm import Session

from sevenstud.refusals import Refusal
from sevenstud.server.store import Store, ledger
from sevenstud.server.store.models import (
    Entry,
    LedgerAccount,
    Player,
    PrivateGame,
    PrivatePass,
    Sitting,
    TableRow,
    TournamentTable,
    Transfer,
)
from sevenstud.table import TableSettings
from sevenstud.wire import game_to_wire

TOKEN_BYTES = 24
"""Random bytes in an invite token (192 bits: never guessed; docs/security.md)."""
IN, ASKING, DENIED, REMOVED = "in", "asking", "denied", "removed"
"""A pass's states: may come in; waits for the host; the host said no; the host removed them."""
REASON_CHARS = 200
"""The longest reason a host gives for removing a player."""


class NoInvitation(Refusal):
    """What a stranger is told of a private game, and of a game that does not exist: the same."""

    def __init__(self) -> None:
        super().__init__("no_invitation")


def digest(token: str) -> str:
    """An invite token's SHA-256 (hex): what is stored and looked up, never the token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A fresh invite token (:data:`TOKEN_BYTES` random bytes, URL-safe)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


@dataclasses.dataclass(frozen=True, slots=True)
class Game:
    """A private game as the routes need it."""

    id: int
    table_id: int | None
    tournament_id: int | None
    host_id: int
    ask_to_join: bool
    paused: bool


@dataclasses.dataclass(frozen=True, slots=True)
class Where:
    """A private game by its table (``table``) or its sit-and-go (``tournament``)."""

    kind: Literal["table", "tournament"]
    id: int


def _find(s: Session, where: Where) -> PrivateGame | None:
    """The private game ``where`` names (a tournament's table's game too, by ``table``)."""
    if where.kind == "table":
        return game_of_table(s, where.id)
    return s.scalar(select(PrivateGame).where(PrivateGame.tournament_id == where.id))


def _game(row: PrivateGame) -> Game:
    return Game(row.id, row.table_id, row.tournament_id, row.host_id, row.ask_to_join, row.paused)


def create_private_table(
    store: Store, name: str, settings: TableSettings, host_id: int, ask_to_join: bool
) -> tuple[int, str]:
    """Store a new private table and its game in one transaction (a hello can never find the
    table without its privacy); its id and invite token."""
    fields = {f.name: getattr(settings, f.name) for f in dataclasses.fields(settings) if f.name != "game"}
    token = new_token()
    with store.transaction() as s:
        now = time.time()
        row = TableRow(
            name=name, game=game_to_wire(settings.game), settings=fields, created_at=now, owner_id=host_id
        )
        s.add(row)
        s.flush()
        s.add(
            PrivateGame(
                table_id=row.id,
                host_id=host_id,
                token_hash=digest(token),
                ask_to_join=ask_to_join,
                created_at=now,
            )
        )
        return row.id, token


def private_tournament(host_id: int, ask_to_join: bool) -> tuple[str, Callable[[Session, int], None]]:
    """A new private sit-and-go's invite token, and what stores its game in the same
    transaction as the tournament (``TournamentService.create``'s ``also``): never listed or
    open to a stranger, not even for a moment."""
    token = new_token()

    def store_it(s: Session, tournament_id: int) -> None:
        s.add(
            PrivateGame(
                tournament_id=tournament_id,
                host_id=host_id,
                token_hash=digest(token),
                ask_to_join=ask_to_join,
                created_at=time.time(),
            )
        )

    return token, store_it


def game_of_table(s: Session, table_id: int) -> PrivateGame | None:
    """The private game a table belongs to (its own, or its tournament's), or None: public."""
    of_tournament = (
        select(TournamentTable.tournament_id).where(TournamentTable.table_id == table_id).scalar_subquery()
    )
    return s.scalar(
        select(PrivateGame).where(
            or_(PrivateGame.table_id == table_id, PrivateGame.tournament_id == of_tournament)
        )
    )


def _admitted(s: Session, game: PrivateGame, player_id: int | None) -> bool:
    if player_id is None:
        return False
    if player_id == game.host_id:
        return True
    state = s.scalar(
        select(PrivatePass.state).where(PrivatePass.game_id == game.id, PrivatePass.player_id == player_id)
    )
    return state == IN


def table_admits(store: Store, table_id: int, player_id: int | None) -> tuple[bool, bool]:
    """``(private, admitted)``: whether table ``table_id`` is a private game's, and whether
    the player may see it (always, when it is not private)."""
    with store.session() as s:
        game = game_of_table(s, table_id)
        if game is None:
            return False, True
        return True, _admitted(s, game, player_id)


def tournament_admits(store: Store, tournament_id: int, player_id: int | None) -> bool:
    """Whether the player may see tournament ``tournament_id`` (always, when it is not private)."""
    with store.session() as s:
        game = s.scalar(select(PrivateGame).where(PrivateGame.tournament_id == tournament_id))
        return game is None or _admitted(s, game, player_id)


def hidden_tables(store: Store, table_ids: list[int]) -> set[int]:
    """Which of ``table_ids`` are private tables (kept out of the lobby)."""
    if not table_ids:
        return set()
    with store.session() as s:
        found = s.scalars(select(PrivateGame.table_id).where(PrivateGame.table_id.in_(table_ids))).all()
    return {int(t) for t in found if t is not None}


def hidden_tournaments(store: Store, player_id: int | None) -> set[int]:
    """The private sit-and-gos that the player has no pass to (kept out of their list)."""
    with store.session() as s:
        mine = select(PrivatePass.game_id).where(PrivatePass.player_id == player_id, PrivatePass.state == IN)
        rows = s.scalars(
            select(PrivateGame.tournament_id).where(
                PrivateGame.tournament_id.is_not(None),
                PrivateGame.host_id != (player_id if player_id is not None else -1),
                PrivateGame.id.not_in(mine),
            )
        ).all()
    return {int(t) for t in rows if t is not None}


@dataclasses.dataclass(frozen=True, slots=True)
class Standing:
    """A player's standing at a private game: where it is and the pass's state."""

    table_id: int | None
    tournament_id: int | None
    state: str
    reason: str = ""
    host: bool = False

    def answer(self) -> dict[str, Any]:
        """As the routes answer it."""
        return {
            "table": self.table_id,
            "tournament": self.tournament_id,
            "state": self.state,
            "reason": self.reason,
            "host": self.host,
        }


def use_link(store: Store, token: str, player_id: int) -> Standing:
    """A signed-in player opens an invite link: their pass, made or found. The host is always
    in; a newcomer is ``in`` (or ``asking`` when the host asks first); one the host removed asks
    again; one the host denied stays denied. :class:`NoInvitation` for a token that is no
    game's (never made, or replaced by a new link)."""
    with store.transaction() as s:
        game = s.scalar(select(PrivateGame).where(PrivateGame.token_hash == digest(token)))
        if game is None:
            raise NoInvitation()
        if player_id == game.host_id:
            return Standing(game.table_id, game.tournament_id, IN, host=True)
        held = s.scalar(
            select(PrivatePass).where(PrivatePass.game_id == game.id, PrivatePass.player_id == player_id)
        )
        now = time.time()
        if held is None:
            state = ASKING if game.ask_to_join else IN
            held = PrivatePass(
                game_id=game.id,
                player_id=player_id,
                state=state,
                asked_at=now,
                decided_at=None if state == ASKING else now,
                reason="",
            )
            s.add(held)
        elif held.state == REMOVED:
            held.state, held.asked_at, held.decided_at = ASKING, now, None
        return Standing(game.table_id, game.tournament_id, held.state, held.reason)


def standing_at(store: Store, where: Where, player_id: int) -> Standing:
    """A player's standing at a private table or sit-and-go (the page asking whether the host
    has said yes); :class:`NoInvitation` when they have none (or the game is not private)."""
    with store.session() as s:
        game = _find(s, where)
        if game is None:
            raise NoInvitation()
        if game.host_id == player_id:
            return Standing(game.table_id, game.tournament_id, IN, host=True)
        held = s.scalar(
            select(PrivatePass).where(PrivatePass.game_id == game.id, PrivatePass.player_id == player_id)
        )
        if held is None:
            raise NoInvitation()
        return Standing(game.table_id, game.tournament_id, held.state, held.reason)


def hosted(s: Session, where: Where | int, host_id: int) -> PrivateGame:
    """The private game ``where`` names (an int: a table) when ``host_id`` hosts it; else
    :class:`NoInvitation` (to anybody but the host, the host's routes do not exist). A
    sit-and-go's tables are the sit-and-go's: the host's controls are not theirs."""
    if isinstance(where, int):
        where = Where("table", where)
    column = PrivateGame.table_id if where.kind == "table" else PrivateGame.tournament_id
    game = s.scalar(select(PrivateGame).where(column == where.id))
    if game is None or game.host_id != host_id:
        raise NoInvitation()
    return game


def host_view(store: Store, where: Where | int, host_id: int) -> dict[str, Any]:
    """What the host's panel shows: the settings, who asks (oldest first), who is in, who was
    denied or removed."""
    with store.session() as s:
        game = hosted(s, where, host_id)
        rows = s.execute(
            select(Player.name, PrivatePass.state, PrivatePass.asked_at)
            .join(Player, Player.id == PrivatePass.player_id)
            .where(PrivatePass.game_id == game.id)
            .order_by(PrivatePass.asked_at, PrivatePass.id)
        ).all()
        return {
            "table": game.table_id,
            "tournament": game.tournament_id,
            "ask_to_join": game.ask_to_join,
            "paused": game.paused,
            "asking": [{"player": name, "asked_at": at} for name, state, at in rows if state == ASKING],
            "players": [name for name, state, _ in rows if state == IN],
            "denied": [name for name, state, _ in rows if state == DENIED],
            "removed": [name for name, state, _ in rows if state == REMOVED],
        }


def _pass_of(s: Session, game: PrivateGame, name: str) -> tuple[PrivatePass, Player]:
    player = s.scalar(select(Player).where(Player.name == name))
    held = (
        s.scalar(
            select(PrivatePass).where(PrivatePass.game_id == game.id, PrivatePass.player_id == player.id)
        )
        if player is not None
        else None
    )
    if held is None or player is None:
        raise Refusal("no_pass", player=name)
    return held, player


def decide(store: Store, where: Where | int, host_id: int, name: str, yes: bool) -> str:
    """The host approves (``yes``) or denies a player's request (or lets a denied or removed
    player back in); the pass's new state."""
    with store.transaction() as s:
        game = hosted(s, where, host_id)
        held, _ = _pass_of(s, game, name)
        held.state, held.decided_at, held.reason = (IN if yes else DENIED), time.time(), ""
        return held.state


def renew_link(store: Store, where: Where | int, host_id: int) -> str:
    """A new invite link for the host's table: the old one lets nobody else in. The new token."""
    token = new_token()
    with store.transaction() as s:
        hosted(s, where, host_id).token_hash = digest(token)
    return token


def set_ask_to_join(store: Store, where: Where | int, host_id: int, ask: bool) -> None:
    """Whether each newcomer with the link asks the host first."""
    with store.transaction() as s:
        hosted(s, where, host_id).ask_to_join = ask


def set_paused(store: Store, table_id: int, host_id: int, paused: bool) -> None:
    """Store the host's pause (kept across a restart: the table reopens paused)."""
    with store.transaction() as s:
        hosted(s, table_id, host_id).paused = paused


def is_paused(store: Store, table_id: int) -> bool:
    """Whether a table is a private one its host has paused (read when its room opens)."""
    with store.session() as s:
        return bool(s.scalar(select(PrivateGame.paused).where(PrivateGame.table_id == table_id)))


def mark_removed(store: Store, table_id: int, host_id: int, name: str, reason: str) -> int:
    """The host removes ``name``: their pass says so (they come back only if the host lets them
    in again). Their account's id."""
    with store.transaction() as s:
        game = hosted(s, table_id, host_id)
        if name == s.scalar(select(Player.name).where(Player.id == game.host_id)):
            raise Refusal("remove_host")
        held, player = _pass_of(s, game, name)
        held.state, held.decided_at, held.reason = REMOVED, time.time(), reason
        return player.id


# ---------------------------------------------------------------------- the night's ledger


def _sum_of(reason: str, *, into: bool) -> Any:
    """The chips moved into a seat's account (``into``) or out of it by ``reason``."""
    moved = Entry.amount > 0 if into else Entry.amount < 0
    amount = Entry.amount if into else -Entry.amount
    return func.coalesce(func.sum(case((and_(Transfer.reason == reason, moved), amount))), 0)


def night_ledger(store: Store, table_id: int, host_id: int) -> list[dict[str, Any]]:
    """Each player's (and bot's) figures at the host's table (the columns of
    :data:`~sevenstud.server.tables.private.LEDGER_COLUMNS`), read from the ledger itself: the
    transfers into and out of each of their seats' accounts, by reason (``buy-in``, ``top-up``,
    ``leaving``), and each open seat's account now. By name, in the order they first sat."""
    with store.session() as s:
        hosted(s, table_id, host_id)
        seat = LedgerAccount
        per_reason = s.execute(
            select(
                Sitting.name,
                func.min(Sitting.id),
                _sum_of("buy-in", into=True),
                _sum_of("top-up", into=True),
                _sum_of("leaving", into=False),
            )
            .join(seat, and_(seat.kind == ledger.SEAT, seat.ref == Sitting.id))
            .join(Entry, Entry.account_id == seat.id)
            .join(Transfer, Transfer.id == Entry.transfer_id)
            .where(Sitting.table_id == table_id)
            .group_by(Sitting.name)
        ).all()
        on_table = dict(
            s.execute(
                select(Sitting.name, func.coalesce(func.sum(Entry.amount), 0))
                .join(seat, and_(seat.kind == ledger.SEAT, seat.ref == Sitting.id))
                .join(Entry, Entry.account_id == seat.id)
                .where(Sitting.table_id == table_id, Sitting.open.is_(True))
                .group_by(Sitting.name)
            ).all()
        )
    lines = []
    for name, _first, buy_ins, top_ups, cash_outs in sorted(per_reason, key=lambda r: r[1]):
        at_table = int(on_table.get(name, 0))
        net = int(cash_outs) + at_table - int(buy_ins) - int(top_ups)
        lines.append(
            {
                "player": name,
                "buy_ins": int(buy_ins),
                "top_ups": int(top_ups),
                "cash_outs": int(cash_outs),
                "at_table": at_table,
                "net": net,
            }
        )
    return lines
