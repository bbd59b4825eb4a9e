"""``cardtui connect``: the client on a server, named, found on the LAN, or reached by an invite."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardtui.client.discovery import Found

from cardtui.cli.flags import SCREEN_READER, add_identity_flags, add_password_flags, identity_of, table_password
from cardtui.i18n import _

DISCOVERY_SECONDS = 2.0


def choose_server(found: Sequence[Found], ask: Callable[[str], str] = input) -> Found | None:
    """One of the servers discovery found: the only one, or the one the person picks by number."""
    if len(found) == 1:
        print(_("Found {server}.").format(server=found[0].line()))
        return found[0]
    print(_("Servers on this network:"))
    for n, server in enumerate(found, start=1):
        print(f"  {n}. {server.line()}")
    while True:
        try:
            answer = ask(_("Connect to which one (1-{n}, Enter to cancel)? ").format(n=len(found))).strip()
        except (EOFError, KeyboardInterrupt):
            print()
            return None
        if not answer:
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(found):
            return found[int(answer) - 1]
        print(_("Type a number from 1 to {n}.").format(n=len(found)))


def cmd_connect(args: argparse.Namespace) -> int:
    from cardtui.client.app import CardApp

    password, problem = table_password(args)
    if problem:
        print(f"cardtui: {problem}", file=sys.stderr)
        return 2
    tls_ca: bytes | None = None
    if args.tls_ca:
        from cardtui.certs import load_ca

        try:
            tls_ca = load_ca(args.tls_ca)
        except ValueError as e:
            print(f"cardtui: {e}", file=sys.stderr)
            return 2
    target = args.target
    join = None
    if target is not None and "://" in target:  # an invite: cardtui://HOST:PORT/table/ID[?code=CODE]
        from cardtui.client.invite_links import SCHEME, BadLink, read_link

        try:
            join = read_link(target)
        except BadLink as e:
            print(f"cardtui: {e}", file=sys.stderr)
            return 2
        if join.server is None:
            print("cardtui: " + _("{link} is not a cardtui invite: one reads {scheme}://HOST:PORT/table/ID.").format(
                link=repr(target[:80]), scheme=SCHEME), file=sys.stderr)
            return 2
        target = join.server
    if target is not None:
        from cardtui.client.connection import BadAddress, address

        try:
            address(target)
        except BadAddress as e:
            print(f"cardtui: {e}", file=sys.stderr)
            return 2
    if target is None:
        from cardtui.client.discovery import discover

        print(_("Looking for cardtui servers on this network ({s} s)…").format(s=f"{DISCOVERY_SECONDS:g}"), flush=True)
        found = asyncio.run(discover(DISCOVERY_SECONDS))
        if not found:
            print("cardtui: " + _("no server answered on this network. Give its address instead: "
                                  "cardtui connect HOST:PORT (for one on this machine: cardtui connect 127.0.0.1)."),
                  file=sys.stderr)
            return 1
        chosen = choose_server(found)
        if chosen is None:
            return 1
        if chosen.tls and tls_ca is None:
            print("cardtui: " + _("{name} uses TLS. Ask its host for the certificate and connect with "
                                  "cardtui connect --tls-ca FILE {target}").format(name=chosen.name,
                                                                                  target=chosen.target),
                  file=sys.stderr)
            return 2
        if not chosen.tls and tls_ca is not None:
            print("cardtui: " + _("{name} does not use TLS; connect without --tls-ca.").format(name=chosen.name),
                  file=sys.stderr)
            return 2
        target = chosen.target
    name = args.name or ""  # none given: the client asks (never the login name, "root" on many a host)
    identity, problem = identity_of(args)
    if problem:
        print(f"cardtui: {problem} " + _("(or play as a guest with --guest)"), file=sys.stderr)
        return 2
    if args.screen_reader:  # lines of plain text, for a screen reader (client.lines)
        from cardtui.client.lines.loop import Start, run

        return run(Start(target, name, spectate=args.spectate, password=password, identity=identity, tls_ca=tls_ca,
                         join=join, bell=args.bell, own_config=not args.ask_name))
    CardApp(target, name, spectate=args.spectate, tls_ca=tls_ca, password=password, identity=identity,
            own_config=not args.ask_name,  # a browser guest's choice is not the host's
            join=join, bell=args.bell, touch=args.touch).run()
    return 0


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``connect`` and its flags."""
    c = sub.add_parser("connect", help=_("open the client on a server"))
    c.add_argument("target", nargs="?", default=None,
                   help=_("HOST[:PORT] (port 50051 if left out), or an invite, 'cardtui://HOST:PORT/table/ID': "
                          "straight to that table; without it, look for servers on the LAN"))
    c.add_argument("--tls-ca", metavar="FILE", help=_("the server's certificate (PEM): connect with TLS, trusting it"))
    c.add_argument("--name", default=None, help=_("your name at the tables (default: the client asks it)"))
    c.add_argument("--ask-name", action="store_true",
                   help=_("a browser session: a guest (unless --identity), whose choices are not kept here"))
    c.add_argument("--spectate", metavar="TABLE", help=_("watch this table, read-only"))
    c.add_argument("--bell", action="store_true",
                   help=_("the bell at your turn on from the start (ctrl+g turns it on and off)"))
    c.add_argument("--screen-reader", action="store_true", help=_(SCREEN_READER))
    c.add_argument("--touch", action="store_true",
                   help=_("a touch screen (the browser page on a phone): the table says what to tap, not which key"))
    add_password_flags(c, _("read the password of a table that has one (--spectate's table, or the one you sit "
                            "at) from the first line of FILE; without it, from the environment variable {env}; "
                            "without either you are asked. Never on the command line: every user of this "
                            "machine can read that"))
    add_identity_flags(c)
    c.set_defaults(run=cmd_connect)
