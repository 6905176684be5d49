"""The card room: a game server where people and bots play stud at real tables.

Nothing in the engine imports this package: it needs the ``server`` extra (FastAPI, uvicorn,
SQLAlchemy 2, Alembic, pydantic 2, argon2-cffi; psycopg for PostgreSQL). Its parts, each a
package (docs/architecture.md):

- :mod:`sevenstud.server.tables`: a table's actor, its keeper (chips and records), waiting list,
  chat, views, the leases that share tables among processes, and the recovery after a crash;
- :mod:`sevenstud.server.tournaments`: the tournament service over the room's tables, its sharing
  among processes, its cashier, routes and public views;
- :mod:`sevenstud.server.accounts`: accounts, guests and sessions, notes, history and downloads;
- :mod:`sevenstud.server.study`: the study page's equity jobs, their worker and limits;
- :mod:`sevenstud.server.store`: the database (SQLAlchemy models, the double-entry ledger,
  Alembic migrations applied at start), SQLite by default, PostgreSQL given a URL;
- the edge, at this level: the FastAPI application (:mod:`~sevenstud.server.app`), the
  connection and its outbox, the limits, the protocol's messages, the pages, the languages,
  and the checks of ``sevenstud audit``.
"""
