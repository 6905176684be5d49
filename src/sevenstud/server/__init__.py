"""The card room: a game server where people and bots play stud at real tables.

Nothing in the engine imports this package: it needs the ``server`` extra (FastAPI, uvicorn,
SQLAlchemy 2, Alembic, pydantic 2, argon2-cffi; psycopg for PostgreSQL). Its parts:

- :mod:`sevenstud.server.store`: the database (SQLAlchemy models, the double-entry ledger,
  Alembic migrations applied at start), SQLite by default, PostgreSQL given a URL;
- :mod:`sevenstud.server.auth`: accounts, guests, sessions, play chips and refills;
- :mod:`sevenstud.server.audit`: the checks of ``sevenstud audit``;
- :mod:`sevenstud.server.keeper`: one table's chips and records (``TableKeeper``), and the
  recovery after a crash;
- :mod:`sevenstud.server.rooms`: one asyncio actor per table, owning its ``Table``;
- :mod:`sevenstud.server.leases`: which process serves which table, when several share one
  PostgreSQL;
- :mod:`sevenstud.server.downloads`: each player's own hands in PokerStars text and PHH;
- :mod:`sevenstud.server.protocol` and :mod:`sevenstud.server.app`: the messages and the
  FastAPI application (``sevenstud serve``).
"""
