"""The operator API's tokens as stored (``api_tokens``): found by the SHA-256 of the token."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from sevenstud.server.store.models import ApiToken


def all_tokens(s: Session) -> list[ApiToken]:
    """Every token, live and revoked, by id."""
    return list(s.scalars(select(ApiToken).order_by(ApiToken.id)))


def token_hashed(s: Session, token_hash: str) -> ApiToken | None:
    """The token whose SHA-256 is ``token_hash``, if any."""
    found: ApiToken | None = s.scalar(select(ApiToken).where(ApiToken.token_hash == token_hash))
    return found


def mark_used(s: Session, token_id: int, now: float) -> None:
    """Store that the token was used at ``now``."""
    s.execute(update(ApiToken).where(ApiToken.id == token_id).values(last_used_at=now))


__all__ = ["all_tokens", "mark_used", "token_hashed"]
