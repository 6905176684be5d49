"""names compared case-folded, sessions that end when unused, tables that know who opened them

Revision ID: 0005
Revises: 0004

- ``players.name_key``: the name NFKC-normalised and case-folded (``auth.name_key``), unique.
  Names that clash (``alice`` and ``ALICE`` both signed up before this) keep their names: the
  oldest account gets the plain key, each later one ``key#id`` ('#' is in no name, so no new
  name can take it), and logs in by its exact name.
- ``login_sessions.last_seen_at``: a session's last use (its log-in time, for the rows here).
- ``tables.owner_id``: who opened the table (None for the tables here: nobody recorded it).
"""

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def _key(name: str) -> str:
    # auth.name_key, copied: a migration must not change when the code it once ran with does.
    return unicodedata.normalize("NFKC", name).casefold()


def upgrade() -> None:
    # Columns added in place, with no table copied: SQLite's batch mode copies a table, and
    # copying ``players`` (which other tables refer to) breaks their foreign keys.
    op.add_column("players", sa.Column("name_key", sa.String(64), nullable=False, server_default=""))
    connection = op.get_bind()
    players = sa.table(
        "players", sa.column("id", sa.Integer), sa.column("name", sa.String), sa.column("name_key", sa.String)
    )
    taken: set[str] = set()
    rows = connection.execute(sa.select(players.c.id, players.c.name).order_by(players.c.id)).all()
    for player_id, name in rows:
        key = _key(name)
        if key in taken:
            key = f"{key}#{player_id}"
        taken.add(key)
        connection.execute(sa.update(players).where(players.c.id == player_id).values(name_key=key))
    op.create_index("uq_players_name_key", "players", ["name_key"], unique=True)

    op.add_column("login_sessions", sa.Column("last_seen_at", sa.Float(), nullable=False, server_default="0"))
    sessions = sa.table(
        "login_sessions", sa.column("created_at", sa.Float), sa.column("last_seen_at", sa.Float)
    )
    connection.execute(sa.update(sessions).values(last_seen_at=sessions.c.created_at))
    op.create_index("ix_login_sessions_last_seen_at", "login_sessions", ["last_seen_at"])

    if connection.dialect.name == "sqlite":
        # SQLite adds a column with a reference in place (alembic would copy the table instead).
        op.execute("ALTER TABLE tables ADD COLUMN owner_id INTEGER REFERENCES players (id)")
    else:
        owner = sa.Column("owner_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=True)
        op.add_column("tables", owner)
    op.create_index("ix_tables_owner_id", "tables", ["owner_id"])


def downgrade() -> None:
    op.drop_index("ix_tables_owner_id", "tables")
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.drop_column("owner_id")
    op.drop_index("ix_login_sessions_last_seen_at", "login_sessions")
    with op.batch_alter_table("login_sessions", schema=None) as batch_op:
        batch_op.drop_column("last_seen_at")
    op.drop_index("uq_players_name_key", "players")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_column("name_key")
