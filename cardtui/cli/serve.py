"""``cardtui serve``: a table server, its limits, and the page for browsers beside it if asked."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from cardtui.cli.flags import origin_help
from cardtui.i18n import _


def cmd_serve(args: argparse.Namespace) -> int:
    tls: tuple[bytes, bytes] | None = None
    if bool(args.tls_cert) != bool(args.tls_key):
        print("cardtui: " + _("TLS needs both --tls-cert and --tls-key."), file=sys.stderr)
        return 2
    if args.tls_cert:
        from cardtui.certs import load_pair

        try:
            tls = load_pair(args.tls_cert, args.tls_key)
        except ValueError as e:
            print(f"cardtui: {e}", file=sys.stderr)
            return 2
    if args.cut_ms is not None:
        from cardtui.server.lobby.room import MAX_TURN  # the server is loaded once the flags are good

        if not 0 <= args.cut_ms <= MAX_TURN * 1000:
            print("cardtui: " + _("--cut-ms must be between 0 and {most} (a deal never waits longer than a "
                                  "turn).").format(most=MAX_TURN * 1000), file=sys.stderr)
            return 2
    if not (args.idle_minutes == -1 or 1 <= args.idle_minutes <= 1440):
        print("cardtui: " + _("--idle-minutes must be between 1 and 1440, or -1: tables never finish."),
              file=sys.stderr)
        return 2
    if not 1 <= args.max_names_per_key <= 1000:
        print("cardtui: " + _("--max-names-per-key must be between 1 and 1000."), file=sys.stderr)
        return 2
    if not 0 <= args.bot_workers <= 64:
        print("cardtui: " + _("--bot-workers must be between 0 and 64 (0: the bots think on the event loop)."),
              file=sys.stderr)
        return 2
    from cardtui.engine.games import EXTRA, extra

    try:
        extra()  # the games CARDTUI_GAMES names, where the package was imported before it was set
    except (ImportError, ValueError) as e:
        print(f"cardtui: {EXTRA}: {e}", file=sys.stderr)
        return 2
    from cardtui.server.processes.workers import cores, warm

    workers = cores() if args.workers is None else args.workers
    if not 1 <= workers <= 64:
        print("cardtui: " + _("--workers must be between 1 and 64 (1: one process drives every table)."),
              file=sys.stderr)
        return 2
    if args.db == ":memory:" and workers > 1:
        if args.workers is not None:
            print("cardtui: " + _("A store in memory cannot be shared by table workers: give --db a file, or "
                                  "--workers 1."), file=sys.stderr)
            return 2
        workers = 1  # a throwaway store is one process's: the default gives way to it
    if workers > 1:
        warm()
    if args.analysis_workers is not None and not 0 <= args.analysis_workers <= 64:
        print("cardtui: " + _("--analysis-workers must be between 0 and 64 (0: no hand is analysed)."),
              file=sys.stderr)
        return 2
    if args.metrics_port is not None and not 0 <= args.metrics_port <= 65535:
        print("cardtui: " + _("--metrics-port must be between 0 and 65535 (0: any free port)."), file=sys.stderr)
        return 2
    from cardtui.server.ops.logfile import setup

    if (problem := setup(args.log_level, args.log_file, args.log_max_mb, args.log_backups)) is not None:
        print(f"cardtui: {problem}", file=sys.stderr)
        return 2
    from cardtui.server.base.limits import Limits

    limits = Limits(args.max_actions, args.max_chat, args.max_tables, args.max_streams,
                    args.max_streams_per_address, names_per_key=args.max_names_per_key)
    web = None
    if args.web:
        from cardtui.server.web.site import WebLimits, WebOptions, unreadable_origin

        if (origin := unreadable_origin(args.web_origin or ())) is not None:
            print(f"cardtui: --web-origin {origin}: " + origin_help(), file=sys.stderr)
            return 2

        web = WebOptions(args.web_port, WebLimits(args.web_max_per_address, args.web_max_sessions),
                         (Path(args.tls_cert), Path(args.tls_key)) if tls else None,
                         origins=tuple(args.web_origin or ()))
    from cardtui.server.ops.ports import claims, clash

    asked = claims(args.host, args.port, workers, args.web_port if args.web else None,
                   None if args.metrics_port is None else (args.metrics_host, args.metrics_port))
    if (problem := clash(asked)) is not None:
        print(f"cardtui: {problem}", file=sys.stderr)
        return 2
    from cardtui.server.app import serve_forever
    from cardtui.server.lobby.room import MAX_TURN

    cut_window = float(MAX_TURN) if args.cut_ms is None else args.cut_ms / 1000

    try:
        asyncio.run(serve_forever(args.host, args.port, args.db, bot_delay=args.bot_delay / 1000,
                                  next_hand_delay=args.next_hand_delay / 1000,
                                  tls=tls, announce=not args.no_announce, limits=limits, web=web,
                                  idle_minutes=args.idle_minutes, cut_window=cut_window,
                                  bot_workers=args.bot_workers, workers=workers, advertise=args.advertise,
                                  log_level=logging.getLevelName(args.log_level.upper()),
                                  analysis_workers=cores() if args.analysis_workers is None else args.analysis_workers,
                                  metrics=None if args.metrics_port is None else (args.metrics_host,
                                                                                  args.metrics_port)))
    except OSError as e:
        print(f"cardtui: {e}", file=sys.stderr)
        return 1
    return 0


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``serve`` and its flags, each of which a ``--config`` file may set too."""
    s = sub.add_parser("serve", help=_("host a table server"),
                       epilog=_("Every flag may also be set in a TOML file given with --config "
                              "(keys are the flag names, e.g. port = 50051, no-announce = true); "
                              "flags on the command line win."))
    s.add_argument("--config", metavar="FILE", help=_("read settings from this TOML file first"))
    s.add_argument("--host", default="127.0.0.1", help=_("address to listen on (0.0.0.0 for the LAN)"))
    s.add_argument("--port", type=int, default=50051, help=_("port to listen on (0: any free port)"))
    s.add_argument("--db", default=None,
                   help=_("SQLite store (default: in the user's data directory), or a PostgreSQL database that "
                          "several hosts share (postgresql://USER@HOST/DB)"))
    s.add_argument("--workers", type=int, default=None, metavar="N",
                   help=_("table workers: processes that each drive a share of the tables (default: one per "
                          "core; 1: this process drives them all). With --port P they listen on P+1 to P+N"))
    s.add_argument("--advertise", default="", metavar="HOST",
                   help=_("the name or address clients and the other hosts reach this host at (default: the "
                          "one a client reached the lobby at); needed when several hosts share a database"))
    s.add_argument("--bot-delay", type=int, default=1000, metavar="MS", help=_("pause before bots act"))
    s.add_argument("--next-hand-delay", type=int, default=4000, metavar="MS",
                   help=_("pause after a hand ends, so people see the result"))
    s.add_argument("--cut-ms", type=int, default=None, metavar="MS",
                   help=_("the longest a deal waits for the seeds of the players seated with the table open (fair "
                          "deals; default: as long as the table's turn clock, and a shorter wait can leave a slow "
                          "player's seed out). 0: no cuts, the host alone chooses every deck, and every client says"
                          " so"))
    s.add_argument("--bot-workers", type=int, default=1, metavar="N",
                   help=_("processes the bots think in, off the event loop (0: on it; default 1)"))
    s.add_argument("--analysis-workers", type=int, default=None, metavar="N",
                   help=_("processes finished hands are analysed in, at most one per core (0: none; default: one "
                          "per core)"))
    s.add_argument("--max-actions", type=float, default=20.0, metavar="N",
                   help=_("actions per second one address may send (default 20)"))
    s.add_argument("--max-chat", type=float, default=2.0, metavar="N",
                   help=_("chat lines per second one address may send (default 2)"))
    s.add_argument("--max-tables", type=float, default=20.0, metavar="N",
                   help=_("tables one address may open at once before it is told it \"opened tables too fast\" and "
                          "held to one every 3 s: raise it for a script that sets up a room (default 20)"))
    s.add_argument("--max-streams", type=int, default=64, metavar="N",
                   help=_("table streams one connection may hold open (default 64)"))
    s.add_argument("--max-streams-per-address", type=int, default=256, metavar="N",
                   help=_("table streams one address may hold open, over all its connections (default 256)"))
    s.add_argument("--idle-minutes", type=int, default=10, metavar="N",
                   help=_("a table nobody sits at or watches finishes after this many minutes (default 10; "
                          "-1: tables never finish, which no table may ask for itself)"))
    s.add_argument("--max-names-per-key", type=int, default=8, metavar="N",
                   help=_("names one player's key may own on this server (default 8)"))
    s.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"],
                   help=_("how much the server logs (default: info)"))
    s.add_argument("--log-file", metavar="PATH",
                   help=_("log to this file instead of standard error, rotated when it grows past --log-max-mb"))
    s.add_argument("--log-max-mb", type=float, default=10.0, metavar="N",
                   help=_("the log file's size before it rotates, in megabytes (default 10)"))
    s.add_argument("--log-backups", type=int, default=5, metavar="N",
                   help=_("rotated log files kept, PATH.1 to PATH.N (default 5)"))
    s.add_argument("--metrics-port", type=int, default=None, metavar="PORT",
                   help=_("serve the server's figures for Prometheus at http://--metrics-host:PORT/metrics "
                          "(0: any free port; default: none)"))
    s.add_argument("--metrics-host", default="127.0.0.1", metavar="HOST",
                   help=_("address the figures are served on (default 127.0.0.1: this machine only)"))
    s.add_argument("--tls-cert", metavar="FILE", help=_("serve TLS with this PEM certificate (see: cardtui cert)"))
    s.add_argument("--tls-key", metavar="FILE", help=_("the PEM private key of --tls-cert"))
    s.add_argument("--no-announce", action="store_true",
                   help=_("do not announce the server on the LAN (mDNS); players then need HOST:PORT"))
    s.add_argument("--web", action="store_true",
                   help=_("also serve the client to browsers (see: cardtui web), on --host at --web-port"))
    s.add_argument("--web-port", type=int, default=8080, metavar="PORT",
                   help=_("port of the browser page with --web (default 8080; 0: any free port)"))
    s.add_argument("--web-max-per-address", type=int, default=4, metavar="N",
                   help=_("browser sessions one address may have open at once (default 4)"))
    s.add_argument("--web-max-sessions", type=int, default=32, metavar="N",
                   help=_("browser sessions open at once in all, each a process on this host (default 32)"))
    s.add_argument("--web-origin", action="append", metavar="URL",
                   help=_("also accept browser sessions opened by a page at this origin, and serve the page "
                          "under its name (e.g. https://cards.example.org; repeat it; * for any); by default "
                          "only the page's own, under this machine's names and addresses"))
    s.set_defaults(run=cmd_serve)
