"""tournament servers: a tournament's director under a version, and the live server processes

Revision ID: 0008_tournament_servers
Revises: 0007_tournaments

- ``tournaments.version``: raised by one with every write of the director's state, so that a
  process serving some of a tournament's tables sees at the cost of one integer that another
  process changed it (server/tournaments/sharing.py).
- ``card_servers``: every live server process (its instance, public address, until when), so
  that a tournament's new tables are shared out over the processes alive now.
"""

import sqlalchemy as sa
from alembic import op

revision = "0008_tournament_servers"
down_revision = "0007_tournaments"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tournaments", sa.Column("version", sa.Integer(), nullable=False, server_default="0"))
    op.create_table(
        "card_servers",
        sa.Column("instance", sa.String(length=32), nullable=False),
        sa.Column("url", sa.String(length=200), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("instance"),
    )


def downgrade() -> None:
    op.drop_table("card_servers")
    op.drop_column("tournaments", "version")
