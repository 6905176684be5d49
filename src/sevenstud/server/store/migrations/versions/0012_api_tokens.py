"""api tokens: the operator API's tokens, stored hashed

Revision ID: 0012_api_tokens
Revises: 0011_operators

- ``api_tokens``: a token's SHA-256 (never the token), its label, scopes, who made it, when,
  and when it was revoked and last used.
"""

import sqlalchemy as sa
from alembic import op

revision = "0012_api_tokens"
down_revision = "0011_operators"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("label", sa.String(length=60), nullable=False),
        sa.Column("scopes", sa.JSON(), nullable=False),
        sa.Column("made_by", sa.String(length=60), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("revoked_at", sa.Float(), nullable=True),
        sa.Column("last_used_at", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )


def downgrade() -> None:
    op.drop_table("api_tokens")
