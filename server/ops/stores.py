"""Which store a server opens: ``--db`` names an SQLite file (the default) or a PostgreSQL database."""

from __future__ import annotations

from pathlib import Path

from cardtui.server.store import Store


def default_db() -> Path:
    """The SQLite store a server opens without ``--db`` (and ``history export`` reads): in the user's
    data directory. Here rather than beside the server it serves, so that the commands that only read
    a store do not load the server."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("cardtui")) / "cardtui.db"


def is_url(db: object) -> bool:
    """Whether ``--db`` names a PostgreSQL database rather than an SQLite file."""
    return isinstance(db, str) and db.startswith(("postgresql://", "postgres://"))


def open_store(db: str | Path, own_folder: bool = False, shared: bool = False) -> Store:
    """The store ``db`` names: a PostgreSQL database (``postgresql://…``), shared by every host that
    names it, or an SQLite file (``shared``: opened by a worker beside its server's process)."""
    if is_url(db):
        from cardtui.server.store.postgresql import PostgresStore

        return PostgresStore(str(db))
    return Store(db, own_folder=own_folder, shared=shared)
