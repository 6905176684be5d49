"""plain names: tables' and tournaments' names made plain text on one line

Revision ID: 0010_plain_names
Revises: 0009_dealt_in

A new table's or tournament's name is refused when it holds a character plain text on one
line refuses (server/plaintext.py: control characters, line and paragraph separators,
direction controls, invisible format characters, blank fillers). The names stored before
the rule are cleaned by the same rule (``plaintext.clean``: a line break becomes a space, the
rest is dropped); one left blank gets the name it would have had by default ("Stud table";
"tournament N"). Nothing to undo: the characters dropped are gone.
"""

import sqlalchemy as sa
from alembic import op

from sevenstud.server.plaintext import clean, fault

revision = "0010_plain_names"
down_revision = "0009_dealt_in"
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    for table, blank in (("tables", "Stud table"), ("tournaments", "tournament {id}")):
        rows = sa.table(table, sa.column("id", sa.Integer), sa.column("name", sa.String))
        for row_id, name in bind.execute(sa.select(rows.c.id, rows.c.name)).all():
            if name is None or fault(name) is None:
                continue
            cleaned = clean(name) or blank.format(id=row_id)
            bind.execute(sa.update(rows).where(rows.c.id == row_id).values(name=cleaned))


def downgrade() -> None:
    pass
