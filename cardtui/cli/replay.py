"""``cardtui replay``: finished hands face up, from a file, a store or a server."""

from __future__ import annotations

import argparse
import sys

from cardtui.cli.flags import add_password_flags, table_password
from cardtui.i18n import _


def cmd_replay(args: argparse.Namespace) -> int:
    """Finished hands face up: a file's, a stored table's, or a table's on a server."""
    from cardtui.replay import app

    args.password, problem = table_password(args)
    if problem:
        print(f"cardtui: {problem}", file=sys.stderr)
        return 2
    try:
        replay = app(args)
    except (ValueError, OSError) as e:
        print(f"cardtui: {e}", file=sys.stderr)
        return 2
    replay.run()
    return replay.return_code or 0


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``replay`` and its flags."""
    r = sub.add_parser("replay", help=_("replay finished hands step by step, every card face up"),
                       epilog=_("Keys: left/right step, Home/End to the deal or the end, PgUp/PgDn the hand "
                              "before or after, escape closes."))
    r.add_argument("file", nargs="?", default=None,
                   help=_("a JSON Lines file of hand histories (cardtui sim --history, cardtui history export)"))
    r.add_argument("--table", metavar="ID", help=_("a table's hands: on a server, or in a store with --db"))
    r.add_argument("--hand", type=int, metavar="N", help=_("open this hand at once (else: the list of hands)"))
    r.add_argument("--server", metavar="HOST:PORT", help=_("the server holding the table (default 127.0.0.1:50051)"))
    r.add_argument("--db", metavar="PATH", help=_("read the table's hands from this store, with no server"))
    add_password_flags(r, _("read the table's password, if it has one, from the first line of FILE; without "
                            "it, from the environment variable {env}. Never on the command line: every user of "
                            "this machine can read that"))
    r.add_argument("--tls-ca", metavar="FILE", help=_("the server's certificate, if it uses TLS"))
    r.set_defaults(run=cmd_replay)
