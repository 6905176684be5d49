"""The operator API's tokens, for a website or a script (docs/operators.md, "API tokens").

A token is random (256 bits, ``secrets``) and shown once, when it is made; only its SHA-256 is
stored, so the database alone lets nobody in. Its scopes say what it may do
(:data:`sevenstud.server.operators.SCOPES`);
a revoked token is refused at once and kept, so that the event log's lines still name it.
Every call made with a token is a line of the event log.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from typing import Any

from sevenstud.server.operators import SCOPES, log
from sevenstud.server.operators.accounts import OperatorError
from sevenstud.server.store import Store, tokens
from sevenstud.server.store.models import ApiToken

PREFIX = "ssk_"
"""How a token begins (so that one pasted in the wrong place is recognised)."""


@dataclass(frozen=True, slots=True)
class Caller:
    """Who calls the operator API with a token: its label and scopes."""

    token_id: int
    label: str
    scopes: frozenset[str]

    @property
    def name(self) -> str:
        """As the event log names it."""
        return f"token {self.token_id} ({self.label})"


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def make(store: Store, made_by: str, label: str, scopes: list[str]) -> tuple[int, str]:
    """A new token for ``scopes`` (each one of :data:`SCOPES`): its id and the token itself,
    which is never shown again."""
    label = label.strip() if isinstance(label, str) else ""
    if not label or len(label) > 60 or not label.isprintable():
        raise OperatorError("token_label_form")
    unknown = sorted(set(scopes) - set(SCOPES))
    if unknown or not scopes:
        given = ", ".join(unknown) or "none"
        raise OperatorError("token_scopes", scopes=", ".join(SCOPES), given=given)
    token = PREFIX + secrets.token_urlsafe(32)
    with store.transaction() as s:
        row = ApiToken(token_hash=_hash(token), label=label, scopes=sorted(set(scopes)), made_by=made_by)
        row.created_at = time.time()
        s.add(row)
        s.flush()
        log.write(s, made_by, "token", None, "", token=row.id, label=label, scopes=row.scopes)
        return row.id, token


def revoke(store: Store, by: str, token_id: int) -> None:
    """Revoke token ``token_id``: refused from now on."""
    with store.transaction() as s:
        row = s.get(ApiToken, token_id)
        if row is None or row.revoked_at is not None:
            raise OperatorError("no_live_token", token=token_id)
        row.revoked_at = time.time()
        log.write(s, by, "token_revoked", None, "", token=token_id, label=row.label)


def listed(store: Store) -> list[dict[str, Any]]:
    """Every token, live and revoked (never the token itself)."""
    with store.session() as s:
        return [
            {
                "id": row.id,
                "label": row.label,
                "scopes": row.scopes,
                "made_by": row.made_by,
                "created_at": row.created_at,
                "revoked_at": row.revoked_at,
                "last_used_at": row.last_used_at,
            }
            for row in tokens.all_tokens(s)
        ]


def caller(store: Store, token: str) -> Caller | None:
    """The live token ``token`` is, or None."""
    if not token.startswith(PREFIX) or len(token) > 200:
        return None
    now = time.time()
    with store.transaction() as s:
        row = tokens.token_hashed(s, _hash(token))
        if row is None or row.revoked_at is not None:
            return None
        tokens.mark_used(s, row.id, now)
        return Caller(row.id, row.label, frozenset(row.scopes))
