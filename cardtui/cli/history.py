"""``cardtui history export``: a store's hand histories as JSON Lines."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path

from cardtui.i18n import _, ngettext


def cmd_history_export(args: argparse.Namespace) -> int:
    from cardtui.server.ops.stores import default_db, is_url, open_store
    from cardtui.server.store import Store

    path = Path(args.db) if args.db else default_db()
    if is_url(args.db):  # the database several hosts share
        try:
            store = open_store(args.db)
        except OSError as e:
            print(f"cardtui: {e}", file=sys.stderr)
            return 1
    elif not path.exists():
        print("cardtui: " + _("there is no store at {path}.").format(path=path), file=sys.stderr)
        return 1
    else:
        store = Store(path, read_only=True)
    n = 0
    spans: dict[str, list[int]] = {}
    """Per table: its first and last deal number, its first and last match (what the lines hold)."""
    with contextlib.ExitStack() as stack:
        stack.callback(store.close)
        out = stack.enter_context(open(args.out, "w", encoding="utf-8")) if args.out else sys.stdout
        for line in store.hands.all(args.table, tournament=args.tournament):
            out.write(line + "\n")
            n += 1
            record = json.loads(line)
            deal, match = int(record.get("hand", 0)), int(record.get("match", 0))
            span = spans.setdefault(str(record.get("table", "")), [deal, deal, match, match])
            span[1], span[3] = deal, match
    for table, (first, last, m1, m2) in spans.items():
        # "deal" is the table's count across matches, as the lines' "hand" and cardtui verify give it;
        # a player's log numbers hands within each match.
        print(_("table {table}: table deals {first}–{last}, matches {m1}–{m2}").format(
            table=table, first=first, last=last, m1=m1, m2=m2), file=sys.stderr)
    print(ngettext("{n} hand exported.", "{n} hands exported.", n).format(n=n), file=sys.stderr)
    return 0


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``history`` and what it does (``export``), with its flags."""
    h = sub.add_parser("history", help=_("hand histories in the store"))
    hs = h.add_subparsers(dest="what", required=True, metavar="export", help=_("what to do with them"))
    e = hs.add_parser("export", help=_("write stored hand histories as JSON Lines"))
    e.add_argument("--db", default=None, metavar="PATH",
                   help=_("SQLite store (default: in the user's data directory)"))
    e.add_argument("--table", default=None, help=_("only this table"))
    e.add_argument("--tournament", default=None, metavar="ID", help=_("only the hands of this tournament's tables"))
    e.add_argument("--out", default=None, help=_("file to write (default: standard output)"))
    e.set_defaults(run=cmd_history_export)
