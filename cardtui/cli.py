"""The ``cardtui`` command: serve, connect, web, cert, play, sim, history, verify, analyze, replay."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import sys
import tomllib
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardtui.client.discovery import Found
    from cardtui.identity import Identity

from cardtui.i18n import LANGUAGES, N_, _, choose, flag_in, ngettext, normalize, remembered, use

DISCOVERY_SECONDS = 2.0


def identity_of(args: argparse.Namespace) -> tuple[Identity | None, str | None]:
    """The player's key (made on first use), or None for a guest; or the sentence saying why it cannot be used.

    ``--guest`` plays without one; so does ``--ask-name`` (browser sessions) unless ``--identity`` is given.
    """
    from cardtui.identity import IdentityError, load_or_create

    if args.guest or (getattr(args, "ask_name", False) and not args.identity):
        return None, None
    try:
        return load_or_create(Path(args.identity) if args.identity else None), None
    except IdentityError as e:
        return None, str(e)


def cmd_identity(args: argparse.Namespace) -> int:
    """Where the player's key lives and its fingerprint (made now if there is none)."""
    from cardtui.identity import IdentityError, default_path, load_or_create

    path = Path(args.identity) if args.identity else default_path()
    existed = path.exists()
    try:
        me = load_or_create(path)
    except IdentityError as e:
        print(f"cardtui: {e}", file=sys.stderr)
        return 2
    print(_("identity:    {path}").format(path=me.path) + ("" if existed else " " + _("(made now)")))
    print(_("fingerprint: {fingerprint}").format(fingerprint=me.fingerprint))
    print(_("Servers keep only the public key; the first key to use a name on a server owns it there. "
            "Copy this file (it is private) to play as yourself from another machine."))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from cardtui.server.app import serve_forever

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
    if not 0 <= args.cut_ms <= 10_000:
        print("cardtui: " + _("--cut-ms must be between 0 and 10000 (a deal never waits long for seeds)."),
              file=sys.stderr)
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
    from cardtui.server.workers import cores

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
    if args.analysis_workers is not None and not 0 <= args.analysis_workers <= 64:
        print("cardtui: " + _("--analysis-workers must be between 0 and 64 (0: no hand is analysed)."),
              file=sys.stderr)
        return 2
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    from cardtui.server.limits import Limits

    limits = Limits(args.max_actions, args.max_chat, args.max_tables, args.max_streams,
                    args.max_streams_per_address, names_per_key=args.max_names_per_key)
    web = None
    if args.web:
        from cardtui.server.web import WebLimits, WebOptions, unreadable_origin

        if (origin := unreadable_origin(args.web_origin or ())) is not None:
            print(f"cardtui: --web-origin {origin}: " + origin_help(), file=sys.stderr)
            return 2

        web = WebOptions(args.web_port, WebLimits(args.web_max_per_address, args.web_max_sessions),
                         (Path(args.tls_cert), Path(args.tls_key)) if tls else None,
                         origins=tuple(args.web_origin or ()))
    try:
        asyncio.run(serve_forever(args.host, args.port, args.db, bot_delay=args.bot_delay / 1000,
                                  next_hand_delay=args.next_hand_delay / 1000,
                                  tls=tls, announce=not args.no_announce, limits=limits, web=web,
                                  idle_minutes=args.idle_minutes, cut_window=args.cut_ms / 1000,
                                  bot_workers=args.bot_workers, workers=workers, advertise=args.advertise,
                                  log_level=logging.getLevelName(args.log_level.upper()),
                                  analysis_workers=cores() if args.analysis_workers is None else args.analysis_workers))
    except OSError as e:
        print(f"cardtui: {e}", file=sys.stderr)
        return 1
    return 0


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


PASSWORD_ENV = "CARDTUI_PASSWORD"
"""Where ``connect`` and ``replay`` find a table's password when no file is named: a process's
environment is its user's alone to read, where its command line is anyone's (``ps``)."""


def table_password(args: argparse.Namespace) -> tuple[str, str | None]:
    """The table's password the command was given (``--password-file``, else ``CARDTUI_PASSWORD``;
    empty: none, asked for when a table wants one), or the sentence saying why it cannot be had.

    Never from the command line: every user of the machine reads it (``ps``, ``/proc/PID/cmdline``),
    so ``--password PW`` is refused, before anything is sent. A browser session (``--ask-name``)
    is a guest's, and never takes the host's password from the environment it was started in."""
    if args.password is not None:
        return "", _("--password is not taken on the command line, where every user of this machine can read it "
                     "(ps); put the password in a file (--password-file FILE) or in {env}, or leave it out and "
                     "you are asked.").format(env=PASSWORD_ENV)
    if args.password_file:
        try:
            lines = Path(args.password_file).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as e:
            why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            return "", _("cannot read the password file {file}: {error}.").format(file=args.password_file,
                                                                                  error=why.lower())
        return (lines[0] if lines else ""), None
    if getattr(args, "ask_name", False):
        return "", None
    return os.environ.get(PASSWORD_ENV, ""), None


def add_password_flags(p: argparse.ArgumentParser, said: str) -> None:
    """``--password-file`` with its help (which names ``CARDTUI_PASSWORD``), and ``--password``,
    kept out of the help, only to refuse it with a sentence that says what to do instead."""
    p.add_argument("--password-file", metavar="FILE", help=said.format(env=PASSWORD_ENV))
    p.add_argument("--password", metavar="PW", help=argparse.SUPPRESS)


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
            join=join, bell=args.bell).run()
    return 0


def origin_help() -> str:
    """What an origin flag takes (said in the reader's language, so looked up when needed)."""
    return _("an origin is a scheme and a host, and a port if not the usual one: "
             "e.g. https://cards.example.org or http://192.168.1.20:8080.")


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
    if not 0 <= args.cut_ms <= 10_000:
        print("cardtui: " + _("--cut-ms must be between 0 and 10000 (a deal never waits long for seeds)."),
              file=sys.stderr)
        return 2
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


def cmd_cert(args: argparse.Namespace) -> int:
    from cardtui.certs import default_hosts, make

    hosts = args.host or default_hosts()
    try:
        made = make(args.out, hosts, days=args.days, force=args.force)
    except (ValueError, OSError) as e:
        print(f"cardtui: {e}", file=sys.stderr)
        return 1
    print(_("certificate: {path}").format(path=made.cert_path))
    print(_("key:         {path} (keep it private)").format(path=made.key_path))
    print(_("valid for:   {names}").format(names=", ".join(made.names)))
    print(_("SHA-256 fingerprint: {fingerprint}").format(fingerprint=made.fingerprint))
    print(_("serve with:  cardtui serve --host 0.0.0.0 --tls-cert {cert} --tls-key {key}").format(
        cert=made.cert_path, key=made.key_path))
    print(_("players:     copy {file} and run cardtui connect --tls-ca {file} HOST; "
            "compare the fingerprint with `openssl x509 -noout -fingerprint -sha256 -in {file}`").format(
        file=made.cert_path.name))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """A server in this process (on 127.0.0.1 unless --host), the page for browsers, and the client."""
    from cardtui.client.app import CardApp
    from cardtui.server.app import start

    sock = None
    pages: list[str] = []
    if not args.no_web:
        from cardtui.server.web import describe, open_socket, web_urls

        try:
            sock = open_socket(args.host, args.web_port)
        except OSError:  # the port is busy: any free one will do
            sock = open_socket(args.host, 0)
        pages = web_urls(args.host, sock.getsockname()[1])[0]
        note = _("Guests join from a browser at {url}").format(url=describe(args.host, sock.getsockname()[1]))
        print(f"cardtui play: {note}", flush=True)

    async def host() -> tuple[str, Callable[[], Awaitable[None]]]:
        lan = args.host not in ("127.0.0.1", "localhost", "::1")
        try:
            running = await start(args.host, args.port, args.db, announce=lan, web_pages=pages)
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
    CardApp("127.0.0.1", args.name, host=host, identity=identity, own_config=True, room_invite=True).run()
    return 0


def cmd_sim(args: argparse.Namespace) -> int:
    from cardtui.engine.games import GAMES
    from cardtui.sim import simulate

    if args.game not in GAMES:
        print("cardtui: " + _("there is no game {game}; try one of: {games}.").format(
            game=repr(args.game), games=", ".join(GAMES)), file=sys.stderr)
        return 2
    game = GAMES[args.game]
    players = args.players or game.max_players
    if players not in game.player_counts:
        allowed = ", ".join(map(str, game.player_counts))
        print("cardtui: " + _("{game} is played by {allowed} players.").format(game=game.title, allowed=allowed),
              file=sys.stderr)
        return 2
    if args.level not in game.bot_levels:
        print("cardtui: " + _("there is no bot level {level} at {game}; try one of: {levels}.").format(
            level=repr(args.level), game=game.title, levels=", ".join(game.bot_levels)), file=sys.stderr)
        return 2
    try:
        options = json.loads(args.options) if args.options else {}
        with contextlib.ExitStack() as stack:
            out = stack.enter_context(open(args.history, "w", encoding="utf-8")) if args.history else None
            report = simulate(args.game, players, args.hands, args.seed, options, out, fair=args.fair,
                              level=args.level)
    except (ValueError, OSError) as e:
        print(f"cardtui: {e}", file=sys.stderr)
        return 2
    for line in report.lines():
        print(line)
    if args.vs_random:
        from cardtui.sim import versus_random

        rate = versus_random(args.game, players, args.vs_random, args.seed, args.level)
        print(rate.line(f"{game.title}, {players} players"))
    if args.history:
        print(f"hand histories: {args.history}")
    return 0


def cmd_arena(args: argparse.Namespace) -> int:
    from cardtui.arena import arena
    from cardtui.engine.games import GAMES

    if args.game not in GAMES:
        print(f"cardtui: there is no game {args.game!r}; try one of: {', '.join(GAMES)}.", file=sys.stderr)
        return 2
    game = GAMES[args.game]
    players = args.players or game.min_players
    a, b = args.a, args.b
    done = [0]

    def progress(result: object) -> None:
        done[0] += 1
        if args.progress and done[0] % args.progress == 0:
            print(f"  … {done[0]} deals", file=sys.stderr, flush=True)

    try:
        options = json.loads(args.options) if args.options else {}
        result = arena(args.game, players, a, b, args.pairs, args.seed, options, args.hands, progress,
                       seconds=args.seconds)
    except ValueError as e:
        print(f"cardtui: {e}", file=sys.stderr)
        return 2
    for line in result.lines():
        print(line)
    return 0


def cmd_history_export(args: argparse.Namespace) -> int:
    from cardtui.server.app import default_db
    from cardtui.server.store import Store
    from cardtui.server.stores import is_url, open_store

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


def cmd_verify(args: argparse.Namespace) -> int:
    """Check every hand of a JSON Lines file of histories: a line per hand, a summary, exit 1 on any failure."""
    from cardtui.engine.fairness import verify
    from cardtui.engine.games import GAMES

    try:
        with contextlib.ExitStack() as stack:
            f = sys.stdin if args.file == "-" else stack.enter_context(open(args.file, encoding="utf-8"))
            lines = list(f)
    except (OSError, UnicodeDecodeError) as e:
        print(f"cardtui: cannot read {args.file}: {e}", file=sys.stderr)
        return 2
    records, unreadable = [], 0
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            record = None
        if not isinstance(record, dict):
            print(f"line {n}: ✘ not a hand history (a JSON object a line)")
            unreadable += 1
            continue
        records.append(record)
    checks = verify(records, GAMES)
    heads: dict[str, tuple[object, str]] = {}
    for check in checks:
        print(check.line())
        heads[check.table] = (check.hand, check.digest)
    good = sum(c.ok for c in checks)
    full = sum(c.full for c in checks)
    failed = sum(bool(c.problems) for c in checks) + unreadable
    plain = sum(not c.fair and not c.problems for c in checks)
    unlinked = sum(c.unlinked and not c.problems for c in checks)
    for table, (hand, digest) in heads.items():
        print(f"table {table or '?'}: last hand {hand}, hash {digest}")
    print(f"{len(checks) + unreadable} hands: {good} verified ({full} ✔, every seated player's seed in), "
          f"{failed} failed, {plain} with a plain seed (not fair deals)"
          + (f", {unlinked} linked to a hand not in the file" if unlinked else "") + ".")
    print_standings(records)
    if not checks and not unreadable:
        print("cardtui: " + _("there are no hand histories in {file}.").format(file=args.file), file=sys.stderr)
        return 1
    if failed or (args.strict and (plain or unlinked)):
        return 1
    return 0


def cmd_analyze(args: argparse.Namespace) -> int:
    """Each decision of exported hands judged, offline."""
    from cardtui.analyze import run

    return run(args.file, args.hand, args.seat, args.json, args.seed, sys.stdout, sys.stderr)


def print_standings(records: list[dict[str, object]]) -> None:
    """The standings of every tournament whose hands the histories hold, worked out from them alone."""
    from cardtui.engine.tournament import recompute

    for t in recompute(records):
        print(_("tournament {id}, after round {round}:").format(id=t.id, round=t.rounds))
        print("   #  " + _("entry").ljust(28) + "  VP   GP  H2H")
        for s in t.standings:
            names = " + ".join(t.names.get(s.entry, ())) or f"#{s.entry}"
            print(f"{s.place:>4}  {names[:28]:<28} {s.vp:>3} {s.gp:>4} {s.head_to_head:>4}")


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


SCREEN_READER = N_("lines of plain text for a screen reader: each event a sentence, answered by typing; "
                   "nothing redrawn")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cardtui", description=_("A LAN card room in the terminal."))
    p.add_argument("--lang", metavar="LANG",
                   help=_("the language to read: en, pt_BR or es (default: from CARDTUI_LANG or LANG; "
                          "anywhere on the line)"))
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND",
                           help=_("one of these; COMMAND --help says more"))

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
    s.add_argument("--cut-ms", type=int, default=1000, metavar="MS",
                   help=_("the longest a deal waits for the players' seeds (fair deals; default 1000). 0: no "
                          "cuts, the host alone chooses every deck, and every client says so"))
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
                   help=_("tables one address may open in a burst; then one every 3 s (default 20)"))
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
    add_password_flags(c, _("read the password of a table that has one (--spectate's table, or the one you sit "
                            "at) from the first line of FILE; without it, from the environment variable {env}; "
                            "without either you are asked. Never on the command line: every user of this "
                            "machine can read that"))
    add_identity_flags(c)
    c.set_defaults(run=cmd_connect)

    ce = sub.add_parser("cert", help=_("make a self-signed TLS certificate and key for this server"))
    ce.add_argument("--host", action="append", metavar="NAME",
                    help=_("a host name or IP address clients will dial (repeat it; default: this machine's "
                         "names and LAN addresses); localhost and 127.0.0.1 are always included"))
    ce.add_argument("--out", default=".", metavar="DIR",
                    help=_("directory for cardtui.crt and cardtui.key (default: the current one)"))
    ce.add_argument("--days", type=int, default=825, help=_("how long the certificate is valid (default: 825)"))
    ce.add_argument("--force", action="store_true", help=_("replace an existing certificate and key"))
    ce.set_defaults(run=cmd_cert)

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

    i = sub.add_parser("identity", help=_("show where your key lives and its fingerprint (made on first use)"))
    i.add_argument("--identity", metavar="FILE", help=_("the key file (default: in your config directory)"))
    i.set_defaults(run=cmd_identity)

    m = sub.add_parser("sim", help=_("play bot hands through the engine"))
    m.add_argument("--game", default="cacho", help=_("the game to play (default: cacho)"))
    m.add_argument("--players", type=int, default=0, help=_("players at the table (default: the most allowed)"))
    m.add_argument("--level", default="easy",
                   help=_("the bots' level (easy, normal, hard: the game's levels; default easy, the quickest, "
                          "since a simulation checks the rules at scale; cardtui arena measures their strength)"))
    m.add_argument("--hands", type=int, default=1000, help=_("hands to play (default 1000)"))
    m.add_argument("--seed", type=int, default=1, help=_("the seed of the first hand, so a run can be repeated "
                                                          "(default 1)"))
    m.add_argument("--options", default="", help=_("game options as JSON"))
    m.add_argument("--history", metavar="FILE", help=_("write hand histories as JSON Lines"))
    m.add_argument("--vs-random", type=int, default=0, metavar="MATCHES",
                   help=_("also play this many whole matches of bots against random play; print win rates"))
    m.add_argument("--fair", action="store_true",
                   help=_("deal every hand as a fair deal (commitment, seeds, chain), so cardtui verify can check it"))
    m.set_defaults(run=cmd_sim)

    v = sub.add_parser("verify", help=_("check fair deals in hand histories (JSON Lines)"),
                       description=_("Re-derive every deck from its seeds and check each commitment, deal, result "
                                   "and chain link; one line per hand, with whose seeds went in and who was seated "
                                   "but not in it (seats numbered from 1), exit status 1 on any mismatch. ✔ only "
                                   "where every person seated put a seed in."))
    v.add_argument("file", metavar="FILE", help=_("hand histories, one a line (from cardtui history export or "
                                                "cardtui sim --fair --history); - for standard input"))
    v.add_argument("--strict", action="store_true",
                   help=_("also fail on hands with a plain seed and on chains that start past a table's first hand"))
    v.set_defaults(run=cmd_verify)

    ar = sub.add_parser("arena", help=_("two players on duplicate deals: win rate with its interval, decision times"),
                        description=_("Players: random, the game's baselines, today (the bots before levels), "
                                      "easy, normal, hard, or module:function with the bot signature."))
    ar.add_argument("game", help=_("the game, by name (cacho, pifpaf, cacheta, truco_paulista, truco_argentino)"))
    ar.add_argument("a", help=_("player A"))
    ar.add_argument("b", help=_("player B"))
    ar.add_argument("--players", type=int, default=0, help=_("players at the table (default: the fewest allowed)"))
    ar.add_argument("--pairs", type=int, default=100, help=_("deals, each played once per side or seat of A"))
    ar.add_argument("--seed", type=int, default=1, help=_("the seed of the first deal, so a run can be repeated"))
    ar.add_argument("--hands", type=int, default=0, help=_("hands per match (0: play every match out)"))
    ar.add_argument("--options", default="", help=_("game options as JSON"))
    ar.add_argument("--seconds", type=float, default=0.0,
                    help=_("stop after the deal that runs past this many seconds (0: play every deal)"))
    ar.add_argument("--progress", type=int, default=0, metavar="N", help=_("report every N deals on stderr"))
    ar.set_defaults(run=cmd_arena)

    h = sub.add_parser("history", help=_("hand histories in the store"))
    hs = h.add_subparsers(dest="what", required=True, metavar="export", help=_("what to do with them"))
    e = hs.add_parser("export", help=_("write stored hand histories as JSON Lines"))
    e.add_argument("--db", default=None, metavar="PATH",
                   help=_("SQLite store (default: in the user's data directory)"))
    e.add_argument("--table", default=None, help=_("only this table"))
    e.add_argument("--tournament", default=None, metavar="ID", help=_("only the hands of this tournament's tables"))
    e.add_argument("--out", default=None, help=_("file to write (default: standard output)"))
    e.set_defaults(run=cmd_history_export)

    an = sub.add_parser("analyze", help=_("judge each decision of finished hands: the odds of every legal choice, "
                                          "the best, the loss and a label; each player's accuracy"))
    an.add_argument("file", metavar="HISTORY.jsonl", help=_("hand histories, one a line (cardtui history export, "
                                                           "cardtui sim --history); - for standard input"))
    an.add_argument("--hand", type=int, metavar="N", help=_("only hand N"))
    an.add_argument("--seat", type=int, metavar="N", help=_("only seat N's decisions"))
    an.add_argument("--json", action="store_true", help=_("one JSON document a hand, then a summary, for tools"))
    an.add_argument("--seed", type=int, default=0, metavar="N",
                    help=_("the seed of the search's deals (the same seed, the same analysis)"))
    an.set_defaults(run=cmd_analyze)

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
    return p


def add_identity_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--identity", metavar="FILE",
                   help=_("your key file: made on first use; servers remember you (and your name) by it "
                        "(default: identity.pem in your config directory)"))
    p.add_argument("--guest", action="store_true",
                   help=_("play without a key: a guest under any name nobody owns, not remembered"))


def apply_config(p: argparse.ArgumentParser, argv: Sequence[str]) -> str | None:
    """Settings from ``serve --config FILE`` become the serve defaults; flags still win."""
    if "serve" not in argv or not any(a == "--config" or a.startswith("--config=") for a in argv):
        return None
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--config")
    known, _rest = pre.parse_known_args(list(argv))
    try:
        with open(known.config, "rb") as f:
            settings = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        return _("cannot read the config file {file}: {error}.").format(file=known.config, error=e)
    commands = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))
    serve = commands.choices["serve"]
    dests = {a.dest: a for a in serve._actions}
    values = {}
    for key, value in settings.items():
        dest = key.replace("-", "_")
        if dest not in dests or dest in ("config", "help"):
            return _("the config file {file} has an unknown setting {key}.").format(file=known.config, key=repr(key))
        values[dest] = value
    serve.set_defaults(**values)
    return None


ARGPARSE_WORDS = (
    N_("usage: "), N_("positional arguments"), N_("options"), N_("show this help message and exit"),
    N_("the following arguments are required: %s"), N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"), N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"), N_("expected one argument"),
    N_("invalid %(type)s value: %(value)r"),
)
"""argparse's own words, which it looks up through ``gettext``: in our catalogs too."""


def take_lang(argv: list[str]) -> tuple[str | None, list[str]]:
    """``--lang`` anywhere on the command line (before or after the command), and the rest."""
    lang = flag_in(argv)
    rest: list[str] = []
    skip = False
    for i, arg in enumerate(argv):
        if skip:
            skip = False
            continue
        if arg == "--lang" and i + 1 < len(argv):
            skip = True
            continue
        if arg.startswith("--lang="):
            continue
        rest.append(arg)
    return lang, rest


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    lang, argv = take_lang(argv)
    if lang is not None and normalize(lang) is None:
        print(f"cardtui: --lang {lang}: " + _("choose one of {langs}.").format(langs=", ".join(LANGUAGES)),
              file=sys.stderr)
        return 2
    use(choose(lang, remembered=remembered()))
    if lang is not None:  # the browser sessions `cardtui web` starts read it too
        os.environ["CARDTUI_LANG"] = normalize(lang) or "en"
    argparse._ = _  # type: ignore[attr-defined]  # argparse's own words ("usage:") in the reader's language
    argparse.ngettext = ngettext  # type: ignore[attr-defined]
    p = parser()
    problem = apply_config(p, argv)
    if problem:
        print(f"cardtui: {problem}", file=sys.stderr)
        return 2
    args = p.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    raise SystemExit(main())
