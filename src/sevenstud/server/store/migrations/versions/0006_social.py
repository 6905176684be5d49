"""private notes on other players

Revision ID: 0006_social
Revises: 0005

- ``player_notes``: one account's note on another player (by the name's compared key), seen by
  its author alone (docs/protocol.md, "Notes"). Table chat is not stored (server/tables/chat.py).
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_social"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_notes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("author_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("subject_key", sa.String(64), nullable=False),
        sa.Column("subject", sa.String(40), nullable=False),
        sa.Column("text", sa.String(2000), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.UniqueConstraint("author_id", "subject_key"),
    )
    op.create_index("ix_player_notes_author_id", "player_notes", ["author_id"])


def downgrade() -> None:
    op.drop_index("ix_player_notes_author_id", "player_notes")
    op.drop_table("player_notes")
