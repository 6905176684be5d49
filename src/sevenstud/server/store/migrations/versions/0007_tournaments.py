"""tournaments: templates made tournaments, their entries, tables and the director's state

Revision ID: 0007_tournaments
Revises: 0006_social

- ``tournaments``: one tournament (its template as data, its state, the director's whole state
  as ``sevenstud.tournament.snapshot`` writes it, stored with every change).
- ``tournament_entries``: who registered (a person's account or a bot), what they paid, their
  place and prize once decided.
- ``tournament_tables``: the card-room tables (``tables`` rows) a tournament plays at, by its
  own table numbers.
- ``tournament_leases``: which server process directs each tournament, until when.
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_tournaments"
down_revision = "0006_social"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("state", sa.String(length=12), nullable=False),
        sa.Column("director", sa.JSON(), nullable=True),
        sa.Column("speed", sa.Float(), nullable=False, server_default="1"),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("start_at", sa.Float(), nullable=True),
        sa.Column("started_at", sa.Float(), nullable=True),
        sa.Column("ended_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_tournaments_state", "tournaments", ["state"])
    op.create_table(
        "tournament_entries",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("bot_kind", sa.String(length=10), nullable=True),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("paid", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("registered", sa.Boolean(), nullable=False, server_default=sa.true()),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("prize", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("registered_at", sa.Float(), nullable=False),
        sa.UniqueConstraint("tournament_id", "name"),
    )
    op.create_index("ix_tournament_entries_tournament_id", "tournament_entries", ["tournament_id"])
    op.create_index("ix_tournament_entries_player_id", "tournament_entries", ["player_id"])
    op.create_table(
        "tournament_tables",
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.UniqueConstraint("tournament_id", "number"),
    )
    op.create_table(
        "tournament_leases",
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("owner", sa.String(length=200), nullable=False),
        sa.Column("instance", sa.String(length=32), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_leases")
    op.drop_table("tournament_tables")
    op.drop_index("ix_tournament_entries_player_id", "tournament_entries")
    op.drop_index("ix_tournament_entries_tournament_id", "tournament_entries")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournaments_state", "tournaments")
    op.drop_table("tournaments")
