"""house tables: the standing tables an operator defines, and the room's settings

Revision ID: 0014_house_tables
Revises: 0013_password_resets

- ``house_tables``: a standing table's definition (name, game, stakes, seats, buy-in limits,
  bots and their kind, rake), its state (``open``, ``closing``, ``closed``), who made it and
  when, and the table that deals it now (``table_id``: the room opens a new one whenever that
  one has closed);
- ``room_settings``: the room's settings by name (``players_open_tables``), each a JSON value.
"""

import sqlalchemy as sa
from alembic import op

revision = "0014_house_tables"
down_revision = "0013_password_resets"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "house_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("game", sa.String(length=10), nullable=False),
        sa.Column("stakes", sa.JSON(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("min_buy_in", sa.Integer(), nullable=False),
        sa.Column("max_buy_in", sa.Integer(), nullable=False),
        sa.Column("bots", sa.Integer(), nullable=False),
        sa.Column("bot_kind", sa.String(length=10), nullable=False),
        sa.Column("rake_percent", sa.String(length=20), nullable=False),
        sa.Column("rake_cap", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=True),
        sa.Column("made_by", sa.String(length=60), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("changed_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_house_tables_table_id", "house_tables", ["table_id"])
    op.create_table(
        "room_settings",
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("value", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    op.drop_table("room_settings")
    op.drop_index("ix_house_tables_table_id", table_name="house_tables")
    op.drop_table("house_tables")
