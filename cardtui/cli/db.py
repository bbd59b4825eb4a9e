"""``cardtui db init``: the store's schema made in the PostgreSQL database several hosts share."""

from __future__ import annotations

import argparse

from cardtui.i18n import _


def cmd_db_init(args: argparse.Namespace) -> int:
    from cardtui.server.ops.dbinit import command

    return command(args.url)


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``db`` and its one action, ``init``."""
    db = sub.add_parser("db", help=_("set up the PostgreSQL database several hosts share"))
    dbs = db.add_subparsers(dest="what", required=True, metavar="init", help=_("what to do with it"))
    di = dbs.add_parser("init", help=_("make the store's schema in a PostgreSQL database (its role and the database "
                                       "made first: docs/operating.md)"))
    di.add_argument("url", metavar="URL", help=_("the database, postgresql://ROLE[:PASSWORD]@HOST[:PORT]/DB, as "
                                               "cardtui serve --db will name it"))
    di.set_defaults(run=cmd_db_init)
