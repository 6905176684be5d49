"""password resets: one-time links an operator makes for an account, stored hashed

Revision ID: 0013_password_resets
Revises: 0012_api_tokens

- ``password_resets``: a link's SHA-256 (never the link), the account, who made it, when, when
  it expires and when it was used.
"""

import sqlalchemy as sa
from alembic import op

revision = "0013_password_resets"
down_revision = "0012_api_tokens"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "password_resets",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("made_by", sa.String(length=60), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("used_at", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_index("ix_password_resets_player_id", "password_resets", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_password_resets_player_id", table_name="password_resets")
    op.drop_table("password_resets")
