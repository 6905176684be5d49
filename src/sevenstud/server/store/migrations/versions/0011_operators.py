"""operators: a player's role and suspension, and the operators' event log

Revision ID: 0011_operators
Revises: 0010_plain_names

- ``players.role``: ``player`` or ``operator`` (``sevenstud admin grant``/``revoke``).
- ``players.suspended_until`` / ``suspended_reason``: log-in refused until then, saying why.
- ``operator_events``: every operator's action, only ever added to.
"""

import sqlalchemy as sa
from alembic import op

revision = "0011_operators"
down_revision = "0010_plain_names"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD and DROP COLUMN, on SQLite too (3.35 and later): a batch would copy the players
    # table, which every other table's foreign key points at.
    op.add_column("players", sa.Column("role", sa.String(length=16), nullable=False, server_default="player"))
    op.add_column("players", sa.Column("suspended_until", sa.Float(), nullable=True))
    op.add_column("players", sa.Column("suspended_reason", sa.String(length=500), nullable=True))
    op.create_table(
        "operator_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("operator", sa.String(length=60), nullable=False),
        sa.Column("action", sa.String(length=40), nullable=False),
        sa.Column("target", sa.String(length=60), nullable=True),
        sa.Column("reason", sa.String(length=500), nullable=False, server_default=""),
        sa.Column("detail", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_operator_events_at", "operator_events", ["at"])
    op.create_index("ix_operator_events_action", "operator_events", ["action"])
    op.create_index("ix_operator_events_target", "operator_events", ["target"])


def downgrade() -> None:
    op.drop_table("operator_events")
    for column in ("suspended_reason", "suspended_until", "role"):
        op.execute(f"ALTER TABLE players DROP COLUMN {column}")
