"""``cardtui web``: the client served to browsers, each session connected to a table server."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from cardtui.cli.flags import origin_help
from cardtui.i18n import _


def cmd_web(args: argparse.Namespace) -> int:
    """Serve the client to browsers, each session connected to a table server."""
    from cardtui.client.connection import address
    from cardtui.server.web import WebLimits, serve_forever, unreadable_origin

    if (origin := unreadable_origin(args.origin or ())) is not None:
        print(f"cardtui: --origin {origin}: " + origin_help(), file=sys.stderr)
        return 2
    if bool(args.tls_cert) != bool(args.tls_key):
        print("cardtui: " + _("HTTPS needs both --tls-cert and --tls-key."), file=sys.stderr)
        return 2
    try:
        if args.tls_cert:
            from cardtui.certs import load_pair

            load_pair(args.tls_cert, args.tls_key)
        if args.tls_ca:
            from cardtui.certs import load_ca

            load_ca(args.tls_ca)
    except ValueError as e:
        print(f"cardtui: {e}", file=sys.stderr)
        return 2
    tls = (Path(args.tls_cert), Path(args.tls_key)) if args.tls_cert else None
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    try:
        asyncio.run(serve_forever(args.host, args.port, address(args.server), tls=tls,
                                  tls_ca=Path(args.tls_ca) if args.tls_ca else None,
                                  limits=WebLimits(args.max_per_address, args.max_sessions),
                                  origins=tuple(args.origin or ())))
    except (OSError, ValueError) as e:  # ssl errors are OSErrors
        print(f"cardtui: {e}", file=sys.stderr)
        return 1
    return 0


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``web`` and its flags."""
    w = sub.add_parser("web", help=_("serve the client to browsers on the LAN, connected to a table server"))
    w.add_argument("--host", default="127.0.0.1", help=_("address to listen on (0.0.0.0 for the LAN)"))
    w.add_argument("--port", type=int, default=8080, help=_("port to listen on (default 8080; 0: any free port)"))
    w.add_argument("--server", default="127.0.0.1:50051", metavar="HOST:PORT",
                   help=_("the table server each browser session connects to (default 127.0.0.1:50051)"))
    w.add_argument("--tls-ca", metavar="FILE", help=_("the table server's certificate, if it uses TLS"))
    w.add_argument("--tls-cert", metavar="FILE", help=_("serve the page over HTTPS with this PEM certificate"))
    w.add_argument("--tls-key", metavar="FILE", help=_("the PEM private key of --tls-cert"))
    w.add_argument("--max-per-address", type=int, default=4, metavar="N",
                   help=_("browser sessions one address may have open at once (default 4)"))
    w.add_argument("--max-sessions", type=int, default=32, metavar="N",
                   help=_("browser sessions open at once in all, each a process on this host (default 32)"))
    w.add_argument("--origin", action="append", metavar="URL",
                   help=_("also accept browser sessions opened by a page at this origin, and serve the page "
                          "under its name (e.g. https://cards.example.org; repeat it; * for any); by default "
                          "only the page's own, under this machine's names and addresses"))
    w.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"],
                   help=_("how much to log (default: info)"))
    w.set_defaults(run=cmd_web)
