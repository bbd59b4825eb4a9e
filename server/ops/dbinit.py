"""``cardtui db init postgresql://…``: the store's schema made in a PostgreSQL database before any server serves
from it, with what the role needs said when it cannot be.

The role and the database are made by whoever administers the PostgreSQL server, one statement at a time
(``CREATE DATABASE`` runs in no transaction, so ``psql -c "CREATE ROLE …; CREATE DATABASE …"`` fails):
docs/operating.md gives the commands. A server brings the schema up to date itself at each start, so it serves as
the role that owns the database; ``db init`` is that start's first half, run once by the operator, so that a
database that cannot be used is found now, with a sentence, rather than by a service failing to start.
"""

from __future__ import annotations

import sys

from cardtui.i18n import _
from cardtui.server.ops.stores import is_url


def _tables(url: str) -> int:
    """The store's tables in the role's schema now (connecting says why it cannot, as an ``OSError``)."""
    from cardtui.server.store.postgresql import Connection

    db = Connection(url)
    try:
        found = db.execute("SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() "
                           "AND table_name IN ('tables', 'owners', 'meta')").fetchone()
        return int(found[0]) if found else 0
    finally:
        db.close()


def init(url: str) -> str:
    """The schema made (or found current) in the database ``url`` names; what was done, as a sentence.
    ``OSError``: the database cannot be reached or used, and why."""
    from cardtui.server.store.postgresql import PostgresStore, _shown

    before = _tables(url)
    store = PostgresStore(url)
    try:
        shown = store.path
        server = store.db.execute("SHOW server_version").fetchone()
        role = store.db.execute("SELECT current_user").fetchone()
    finally:
        store.close()
    version = str(server[0]).split()[0] if server else "?"
    who = str(role[0]) if role else "?"
    if before == 3:
        return _("The store's schema in {db} is up to date (PostgreSQL {version}, role {role}).").format(
            db=shown or _shown(url), version=version, role=who)
    return _("The store's schema is made in {db} (PostgreSQL {version}, role {role}): serve from it with "
             "cardtui serve --db URL, as this role.").format(db=shown, version=version, role=who)


def command(url: str) -> int:
    """``cardtui db init URL``: its exit status (0 done, 1 the database cannot be used, 2 not a database URL)."""
    if not is_url(url):
        print("cardtui: " + _("{url} is not a PostgreSQL database: give one as postgresql://ROLE@HOST/DB (an "
                              "SQLite store needs no init: cardtui serve makes it).").format(url=repr(url[:80])),
              file=sys.stderr)
        return 2
    try:
        said = init(url)
    except OSError as e:
        print(f"cardtui: {e}", file=sys.stderr)
        return 1
    print(said)
    return 0
