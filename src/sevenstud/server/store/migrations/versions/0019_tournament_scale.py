"""tournament scale: a stored director in parts

Revision ID: 0019_tournament_scale
Revises: 0018_tournament_schedule

- ``tournament_parts``: each entrant's and each table's part of a tournament's director, by
  ``(tournament_id, kind, key)``; the row of ``tournaments`` keeps the rest. A hand's write is
  then the entrants and tables it changed, not the whole field (issue 35); each part has the
  tournament's version its write made (indexed), so that another process sharing the
  tournament reads only the parts written since its copy. A director stored
  whole before this migration is still read as it is, and written in parts from its next write.
"""

import sqlalchemy as sa
from alembic import op

revision = "0019_tournament_scale"
down_revision = "0018_tournament_schedule"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournament_parts",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("key", sa.String(length=40), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), server_default="0", nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"]),
        sa.PrimaryKeyConstraint("tournament_id", "kind", "key"),
    )
    op.create_index("ix_tournament_parts_version", "tournament_parts", ["tournament_id", "version"])


def downgrade() -> None:
    op.drop_index("ix_tournament_parts_version", table_name="tournament_parts")
    op.drop_table("tournament_parts")
