"""tournament entries as rows: who made each tournament, and the field read from its entries

Revision ID: 0017_tournament_entries
Revises: 0016_private_games

- ``tournaments.owner_id``: the account that made a tournament over HTTP (None: the house's, or
  made before this), so that the tournaments one account has open are counted
  (``Limits.tournaments_per_account``).
- ``ix_tournament_entries_field``: a tournament's registered entries in the order they came,
  read when a registering tournament is taken up (its field is its entries' rows, no longer
  the stored director's: server/tournaments/cashier.py, ``director_of``).
"""

import sqlalchemy as sa
from alembic import op

revision = "0017_tournament_entries"
down_revision = "0016_private_games"
branch_labels = None
depends_on = None


def upgrade() -> None:
    connection = op.get_bind()
    if connection.dialect.name == "sqlite":
        # SQLite adds a column with a reference in place (alembic would copy the table instead).
        op.execute("ALTER TABLE tournaments ADD COLUMN owner_id INTEGER REFERENCES players (id)")
    else:
        owner = sa.Column("owner_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=True)
        op.add_column("tournaments", owner)
    op.create_index("ix_tournaments_owner_id", "tournaments", ["owner_id"])
    op.create_index(
        "ix_tournament_entries_field", "tournament_entries", ["tournament_id", "registered", "registered_at"]
    )


def downgrade() -> None:
    op.drop_index("ix_tournament_entries_field", table_name="tournament_entries")
    op.drop_index("ix_tournaments_owner_id", table_name="tournaments")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("owner_id")
