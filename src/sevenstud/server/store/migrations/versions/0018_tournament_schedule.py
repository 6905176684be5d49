"""tournament schedule: the operators' tournament templates and schedules

Revision ID: 0018_tournament_schedule
Revises: 0017_tournament_entries

- ``tournament_templates``: a template's name and the body a tournament is made from.
- ``tournament_schedules``: daily at a time in a time zone, every N hours, or one of the
  template always registering; the tournament it made last.
- The house's quick sit-and-go (the lobby's one click): a template of six seats of Stud Hi/Lo,
  five of them bots, always registering.
"""

import time

import sqlalchemy as sa
from alembic import op

revision = "0018_tournament_schedule"
down_revision = "0017_tournament_entries"
branch_labels = None
depends_on = None

QUICK = {"template": "sng-6", "game": "stud8", "buy_in": 100, "fee": 10, "bots": 5, "bot": "rule"}
"""The lobby's one-click sit-and-go before this migration (web/sit_and_go.js), now the house's."""


def upgrade() -> None:
    templates = op.create_table(
        "tournament_templates",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name"),
    )
    schedules = op.create_table(
        "tournament_schedules",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("template_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("at_time", sa.String(length=5), nullable=True),
        sa.Column("zone", sa.String(length=60), nullable=True),
        sa.Column("every_hours", sa.Float(), nullable=True),
        sa.Column("next_at", sa.Float(), nullable=True),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), server_default="0", nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["template_id"], ["tournament_templates.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        op.f("ix_tournament_schedules_template_id"), "tournament_schedules", ["template_id"], unique=False
    )
    # The seed's ids are the database's own (a PostgreSQL sequence would not know of given ones).
    now = time.time()
    bind = op.get_bind()
    template_id = bind.execute(
        templates.insert()
        .values(name="Quick sit-and-go", settings=QUICK, created_at=now, updated_at=now)
        .returning(templates.c.id)
    ).scalar_one()
    bind.execute(
        schedules.insert().values(
            template_id=template_id, kind="always", enabled=True, version=0, created_at=now
        )
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_tournament_schedules_template_id"), table_name="tournament_schedules")
    op.drop_table("tournament_schedules")
    op.drop_table("tournament_templates")
