"""bot kinds: which bot sits in a bot's sitting, so a restart seats the same kind again

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # batch_alter_table: SQLite alters a table by copying it; PostgreSQL adds the column in place.
    with op.batch_alter_table("sittings", schema=None) as batch_op:
        batch_op.add_column(sa.Column("bot_kind", sa.String(length=10), nullable=True))
    # Every bot seated before this migration was a RuleBot as far as a restart knew: say so.
    # A person's sitting has no kind (NULL).
    sittings = sa.table("sittings", sa.column("bot", sa.String()), sa.column("bot_kind", sa.String()))
    op.execute(sittings.update().where(sittings.c.bot.is_not(None)).values(bot_kind="rule"))


def downgrade() -> None:
    with op.batch_alter_table("sittings", schema=None) as batch_op:
        batch_op.drop_column("bot_kind")
