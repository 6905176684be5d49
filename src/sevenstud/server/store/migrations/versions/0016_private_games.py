"""private games: a home game's private tables and sit-and-gos, their invitations

Revision ID: 0016_private_games
Revises: 0015_chat_moderation

- ``private_games``: a private cash table (``table_id``) or sit-and-go (``tournament_id``), its
  host, the SHA-256 of its invite link's token (never the token), whether each newcomer asks
  the host first, and whether the host has paused the table.
- ``private_passes``: who may come in (``in``), who asks (``asking``), who was turned away
  (``denied``) or removed (``removed``): one row a player a game.
"""

import sqlalchemy as sa
from alembic import op

revision = "0016_private_games"
down_revision = "0015_chat_moderation"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "private_games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=True),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.Column("host_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("ask_to_join", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("paused", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"]),
        sa.ForeignKeyConstraint(["host_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_id"),
        sa.UniqueConstraint("tournament_id"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_table(
        "private_passes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("asked_at", sa.Float(), nullable=False),
        sa.Column("decided_at", sa.Float(), nullable=True),
        sa.Column("reason", sa.String(length=200), nullable=False, server_default=""),
        sa.ForeignKeyConstraint(["game_id"], ["private_games.id"]),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "player_id"),
    )
    op.create_index("ix_private_passes_game_id", "private_passes", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_private_passes_game_id", table_name="private_passes")
    op.drop_table("private_passes")
    op.drop_table("private_games")
