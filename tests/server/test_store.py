"""The store: migrations, the models and the double-entry ledger, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import func, inspect, select, text

from sevenstud.server.store import Store, StoreError, default_url, ledger, normalize_url, open_store
from sevenstud.server.store.models import Base, Entry, Transfer


def test_migrations_create_every_model_table(store: Store) -> None:
    tables = set(inspect(store.engine).get_table_names())
    assert set(Base.metadata.tables) <= tables
    assert "alembic_version" in tables


def test_migrations_match_the_models(store: Store) -> None:
    # A model changed without a migration shows up here as a difference.
    with store.engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert diff == []


def test_opening_again_applies_nothing_twice(store: Store) -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from sevenstud.server.store import MIGRATIONS

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    (head,) = ScriptDirectory.from_config(config).get_heads()  # one line of migrations
    again = open_store(store.url)
    try:
        with again.engine.connect() as connection:
            assert MigrationContext.configure(connection).get_current_revision() == head
    finally:
        again.close()


def test_a_transfer_is_two_rows_that_sum_to_zero(store: Store) -> None:
    with store.session() as s, s.begin():
        bank = ledger.account(s, ledger.BANK)
        ann = ledger.account(s, ledger.BALANCE, 1)
        ledger.transfer(s, bank, ann, 500, "sign-up")
    with store.session() as s:
        rows = s.scalars(select(Entry)).all()
        assert sorted(r.amount for r in rows) == [-500, 500]
        assert s.scalar(select(func.count()).select_from(Transfer)) == 1
        assert ledger.balance_of(s, ann) == 500
        assert ledger.balance_of(s, bank) == -500


def test_the_same_account_is_found_again(store: Store) -> None:
    with store.session() as s, s.begin():
        first = ledger.account(s, ledger.SEAT, 7)
        assert ledger.account(s, ledger.SEAT, 7) == first
        assert ledger.account(s, ledger.SEAT, 8) != first


@pytest.mark.parametrize("amount", [0, -5, 2.5, True])
def test_a_transfer_of_no_chips_is_refused_and_writes_nothing(store: Store, amount: object) -> None:
    with store.session() as s, s.begin():
        bank = ledger.account(s, ledger.BANK)
        ann = ledger.account(s, ledger.BALANCE, 1)
        with pytest.raises(ledger.LedgerError, match="positive whole number"):
            ledger.transfer(s, bank, ann, amount, "sign-up")  # type: ignore[arg-type]
    with store.session() as s:
        assert s.scalar(select(func.count()).select_from(Entry)) == 0


def test_an_unknown_kind_of_account_is_refused(store: Store) -> None:
    with store.session() as s, pytest.raises(ledger.LedgerError, match="kind 'wallet'"):
        ledger.account(s, "wallet")


def test_a_rolled_back_transaction_leaves_no_movement(store: Store) -> None:
    with pytest.raises(RuntimeError), store.session() as s, s.begin():
        ledger.transfer(s, ledger.account(s, ledger.BANK), ledger.account(s, ledger.BALANCE, 1), 5, "x")
        raise RuntimeError("the event's write failed")
    with store.session() as s:
        assert s.scalar(select(func.count()).select_from(Entry)) == 0


def test_net_by_counterpart_reads_what_each_seat_put_into_a_pot(store: Store) -> None:
    with store.session() as s, s.begin():
        pot = ledger.account(s, ledger.POT, 1)
        a, b = ledger.account(s, ledger.SEAT, 1), ledger.account(s, ledger.SEAT, 2)
        ledger.transfer(s, a, pot, 10, "bet")
        ledger.transfer(s, b, pot, 25, "bet")
        ledger.transfer(s, pot, b, 5, "returned")
        assert ledger.net_by_counterpart(s, pot) == {a: 10, b: 20}


def test_urls() -> None:
    assert normalize_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("/tmp/x.db") == "sqlite:////tmp/x.db"
    assert default_url().endswith("sevenstud/cardroom.sqlite3")
    with pytest.raises(StoreError, match="only sqlite"):
        normalize_url("mysql://u@h/db")


def test_default_database_is_under_xdg_data_home(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_url() == f"sqlite:///{tmp_path}/sevenstud/cardroom.sqlite3"


def test_an_unreachable_postgresql_is_one_clear_error(tmp_path: object) -> None:
    with pytest.raises(StoreError, match="database"):
        open_store(f"postgresql://nobody@/none?host={tmp_path}&connect_timeout=1")


def test_migration_0003_gives_the_bots_already_seated_the_rule_kind(db_url: str) -> None:
    # A database at 0002 with a bot and a person seated: after 0003 the bot's sitting says
    # "rule" (what a restart seated before kinds were stored), the person's says nothing.
    from alembic import command
    from alembic.config import Config

    from sevenstud.server.store import MIGRATIONS
    from sevenstud.server.store.models import Sitting

    old = open_store(db_url, migrate=False)
    try:
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with old.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "0002")
        with old.engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO tables (id, name, game, settings, created_at, closed)"
                    " VALUES (1, 't', '{}', '{}', 0.0, false)"
                )
            )
            connection.execute(
                text(
                    "INSERT INTO players (id, name, guest, balance, created_at, refill_day, refills_that_day)"
                    " VALUES (1, 'ann', false, 0, 0.0, '', 0)"
                )
            )
            for sitting, (player, bot, name) in enumerate([(None, "bot2", "bot2"), (1, None, "ann")], 1):
                connection.execute(
                    text(
                        "INSERT INTO sittings (id, table_id, seat, player_id, bot, name, stack, open)"
                        " VALUES (:id, 1, :id, :player, :bot, :name, 100, true)"
                    ),
                    {"id": sitting, "player": player, "bot": bot, "name": name},
                )
    finally:
        old.close()
    new = open_store(db_url)  # applies 0003
    try:
        with new.session() as s:
            kinds = {row.name: row.bot_kind for row in s.scalars(select(Sitting)).all()}
        assert kinds == {"bot2": "rule", "ann": None}
    finally:
        new.close()


def test_processes_started_at_once_on_a_new_database_all_open_it(db_url: str) -> None:
    """Card room processes started together on a new PostgreSQL database (docs/deploy.md, two
    processes) each open it: one migrates, the others wait for it and find the work done.
    Without the migration lock two of them created the tables and one failed. (SQLite is one
    process's database.)"""
    import subprocess
    import sys

    if not db_url.startswith("postgresql"):
        pytest.skip("two processes share a PostgreSQL database, never an SQLite file")
    opening = "import sys; from sevenstud.server.store import open_store; open_store(sys.argv[1]).close()"
    started = [
        subprocess.Popen([sys.executable, "-c", opening, db_url], stderr=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    failures = [p.communicate(timeout=120)[1] for p in started if p.wait(timeout=120) != 0]
    assert failures == []
    store = open_store(db_url, existing=True)  # at the newest revision
    store.close()
