"""The server processes alive on the database (``card_servers``): each says so with every
round of its leases, until a moment a lease's time ahead; a tournament's new tables are shared
out among those alive (server/tournaments/sharing.py, ``assignee``)."""

from __future__ import annotations

from sqlalchemy import delete, select, update

from sevenstud.server.store import Store
from sevenstud.server.store.models import CardServer


def beat(store: Store, instance: str, url: str, ttl: float, now: float) -> list[str]:
    """Say process ``instance`` (at public address ``url``) is alive until ``now + ttl``, and
    forget those silent for 60 leases' times; the live processes' instances, in order (this
    one alone where none is seen)."""
    with store.transaction() as s:
        done = s.execute(
            update(CardServer)
            .where(CardServer.instance == instance)
            .values(expires_at=now + ttl, url=url)
            .execution_options(synchronize_session=False)
        )
        if getattr(done, "rowcount", 0) != 1:
            s.add(CardServer(instance=instance, url=url, expires_at=now + ttl))
        s.execute(delete(CardServer).where(CardServer.expires_at < now - 60 * ttl))
        live = s.scalars(
            select(CardServer.instance).where(CardServer.expires_at >= now).order_by(CardServer.instance)
        ).all()
    return list(live) or [instance]


def leave(store: Store, instance: str) -> None:
    """Process ``instance`` stops: it is no longer given new tables."""
    with store.transaction() as s:
        s.execute(delete(CardServer).where(CardServer.instance == instance))


__all__ = ["beat", "leave"]
