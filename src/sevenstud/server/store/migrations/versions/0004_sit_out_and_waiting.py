"""sitting out and the waiting list kept: both are as they were after a restart

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # batch_alter_table: SQLite alters a table by copying it; PostgreSQL adds the column in place.
    # Every sitting from before this migration restarts as it did then: sitting in (false).
    with op.batch_alter_table("sittings", schema=None) as batch_op:
        batch_op.add_column(sa.Column("sitting_out", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "waiting",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("tables.id"), nullable=False, index=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("joined_at", sa.Float(), nullable=False),
        sa.UniqueConstraint("table_id", "player_id"),
    )


def downgrade() -> None:
    op.drop_table("waiting")
    with op.batch_alter_table("sittings", schema=None) as batch_op:
        batch_op.drop_column("sitting_out")
