"""chat moderation: the chat log, players' reports, mutes and the refused words

Revision ID: 0015_chat_moderation
Revises: 0014_house_tables

- ``chat_lines``: every chat line as said (its id, table, speaker, seat, time, text), kept for
  the operators' chat log and the reports for ``Limits.chat_log_days``.
- ``chat_reports``: a player's report of a line (the line copied), its reason and what an
  operator made of it; one a line and reporter.
- ``chat_mutes``: a player's chat refused room-wide until a time, saying why.
- ``chat_words``: the words the room refuses in chat.
"""

import sqlalchemy as sa
from alembic import op

revision = "0015_chat_moderation"
down_revision = "0014_house_tables"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(length=40), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("text", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_chat_lines_table_at", "chat_lines", ["table_id", "at"])
    op.create_index("ix_chat_lines_player_id", "chat_lines", ["player_id"])
    op.create_index("ix_chat_lines_at", "chat_lines", ["at"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("line_id", sa.String(length=16), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("said_by_id", sa.Integer(), nullable=False),
        sa.Column("said_by", sa.String(length=40), nullable=False),
        sa.Column("said_at", sa.Float(), nullable=False),
        sa.Column("text", sa.String(length=200), nullable=False),
        sa.Column("reporter_id", sa.Integer(), nullable=False),
        sa.Column("reporter", sa.String(length=40), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("state", sa.String(length=12), nullable=False),
        sa.Column("resolved_by", sa.String(length=60), nullable=True),
        sa.Column("resolved_at", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(["said_by_id"], ["players.id"]),
        sa.ForeignKeyConstraint(["reporter_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("line_id", "reporter_id", name="uq_chat_reports_line_reporter"),
    )
    op.create_index("ix_chat_reports_line_id", "chat_reports", ["line_id"])
    op.create_index("ix_chat_reports_said_by_id", "chat_reports", ["said_by_id"])
    op.create_index("ix_chat_reports_state", "chat_reports", ["state"])
    op.create_table(
        "chat_mutes",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("until", sa.Float(), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("muted_by", sa.String(length=60), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("player_id"),
    )
    op.create_table(
        "chat_words",
        sa.Column("word", sa.String(length=40), nullable=False),
        sa.Column("added_by", sa.String(length=60), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("word"),
    )


def downgrade() -> None:
    op.drop_table("chat_words")
    op.drop_table("chat_mutes")
    op.drop_index("ix_chat_reports_state", table_name="chat_reports")
    op.drop_index("ix_chat_reports_said_by_id", table_name="chat_reports")
    op.drop_index("ix_chat_reports_line_id", table_name="chat_reports")
    op.drop_table("chat_reports")
    op.drop_index("ix_chat_lines_at", table_name="chat_lines")
    op.drop_index("ix_chat_lines_player_id", table_name="chat_lines")
    op.drop_index("ix_chat_lines_table_at", table_name="chat_lines")
    op.drop_table("chat_lines")
