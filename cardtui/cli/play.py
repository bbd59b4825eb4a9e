"""``cardtui play``: a server in this process, the page for browsers, and the client on them."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable

from cardtui.cli.flags import SCREEN_READER, add_identity_flags, identity_of
from cardtui.i18n import _


def cmd_play(args: argparse.Namespace) -> int:
    """A server in this process (on 127.0.0.1 unless --host), the page for browsers, and the client."""
    from cardtui.client.app import CardApp
    from cardtui.server.app import start

    sock = None
    pages: list[str] = []
    if not args.no_web:
        from cardtui.server.web import describe, install_line, open_socket, web_urls

        try:
            sock = open_socket(args.host, args.web_port)
        except OSError:  # the port is busy: any free one will do
            sock = open_socket(args.host, 0)
        pages = web_urls(args.host, sock.getsockname()[1])[0]
        note = _("Guests join from a browser at {url}").format(url=describe(args.host, sock.getsockname()[1]))
        print(f"cardtui play: {note}", flush=True)
        print(f"cardtui play: {install_line(pages[0])}", flush=True)

    async def host() -> tuple[str, Callable[[], Awaitable[None]]]:
        from cardtui.server.store import StoreInUse

        lan = args.host not in ("127.0.0.1", "localhost", "::1")
        try:
            running = await start(args.host, args.port, args.db, announce=lan, web_pages=pages)
        except StoreInUse:  # another room plays from this store: trying another port changes nothing
            if sock is not None:
                sock.close()
            raise
        except OSError:  # the port is busy: any free one will do
            running = await start(args.host, 0, args.db, announce=lan, web_pages=pages)
        from cardtui.server.web import WebServer, local_target

        if sock is None:
            return local_target(args.host, running.port), lambda: running.stop(grace=0.5)

        guests = WebServer(local_target(args.host, running.port))
        await guests.start(sock)

        async def stop() -> None:
            await guests.stop()
            await running.stop(grace=0.5)

        return local_target(args.host, running.port), stop

    identity, problem = identity_of(args)
    if problem:
        print(f"cardtui: {problem} " + _("(or play as a guest with --guest)"), file=sys.stderr)
        return 2
    if args.screen_reader:  # lines of plain text, for a screen reader (client.lines)
        from cardtui.client.lines.loop import Start, run

        return run(Start("127.0.0.1", args.name, identity=identity, host=host))
    # The host's first screen shows the room's own invite (its page, its address, a QR code).
    app = CardApp("127.0.0.1", args.name, host=host, identity=identity, own_config=True, room_invite=True)
    app.run()
    return app.return_code or 0


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``play`` and its flags."""
    pl = sub.add_parser("play", help=_("start a local server and open the client on it"))
    pl.add_argument("--name", default="", help=_("your name at the tables (default: the client asks it)"))
    pl.add_argument("--host", default="127.0.0.1",
                    help=_("address for the server and the browser page (0.0.0.0: guests on the LAN join too)"))
    pl.add_argument("--port", type=int, default=50051,
                    help=_("port of the server (default 50051; if it is busy, any free one)"))
    pl.add_argument("--db", default=None, metavar="PATH",
                    help=_("SQLite store (default: in the user's data directory)"))
    pl.add_argument("--web-port", type=int, default=8080, metavar="PORT",
                    help=_("port of the browser page (default 8080; if it is busy, any free one)"))
    pl.add_argument("--no-web", action="store_true", help=_("no browser page"))
    pl.add_argument("--screen-reader", action="store_true", help=_(SCREEN_READER))
    add_identity_flags(pl)
    pl.set_defaults(run=cmd_play)
