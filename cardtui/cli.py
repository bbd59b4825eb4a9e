"""The ``cardtui`` command: serve, connect, play, sim, history."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import json
import logging
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path


def _name() -> str:
    try:
        return getpass.getuser()[:24] or "player"
    except Exception:
        return "player"


def cmd_serve(args: argparse.Namespace) -> int:
    from server.app import serve_forever

    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    try:
        asyncio.run(serve_forever(args.host, args.port, args.db, bot_delay=args.bot_delay / 1000,
                                  next_hand_delay=args.next_hand_delay / 1000))
    except OSError as e:
        print(f"cardtui: {e}", file=sys.stderr)
        return 1
    return 0


def cmd_connect(args: argparse.Namespace) -> int:
    from client.app import CardApp

    CardApp(args.target, args.name, spectate=args.spectate).run()
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """A server on 127.0.0.1 in this process, and the client at its lobby."""
    from client.app import CardApp
    from server.app import start

    async def host() -> tuple[str, Callable[[], Awaitable[None]]]:
        try:
            running = await start("127.0.0.1", args.port, args.db)
        except OSError:  # the port is busy: any free one will do
            running = await start("127.0.0.1", 0, args.db)
        return f"127.0.0.1:{running.port}", lambda: running.stop(grace=0.5)

    CardApp("127.0.0.1", args.name, host=host).run()
    return 0


def cmd_sim(args: argparse.Namespace) -> int:
    from cardtui.sim import simulate
    from engine.games import GAMES, player_counts

    if args.game not in GAMES:
        print(f"cardtui: there is no game {args.game!r}; try one of: {', '.join(GAMES)}.", file=sys.stderr)
        return 2
    game = GAMES[args.game].game
    players = args.players or game.max_players
    if players not in player_counts(game):
        allowed = ", ".join(map(str, player_counts(game)))
        print(f"cardtui: {game.title} is played by {allowed} players.", file=sys.stderr)
        return 2
    try:
        options = json.loads(args.options) if args.options else {}
        with contextlib.ExitStack() as stack:
            out = stack.enter_context(open(args.history, "w", encoding="utf-8")) if args.history else None
            report = simulate(args.game, players, args.hands, args.seed, options, out)
    except (ValueError, OSError) as e:
        print(f"cardtui: {e}", file=sys.stderr)
        return 2
    for line in report.lines():
        print(line)
    if args.vs_random:
        from cardtui.sim import versus_random

        rate = versus_random(args.game, players, args.vs_random, args.seed)
        print(rate.line(f"{game.title}, {players} players"))
    if args.history:
        print(f"hand histories: {args.history}")
    return 0


def cmd_history_export(args: argparse.Namespace) -> int:
    from server.app import default_db
    from server.store import Store

    path = Path(args.db) if args.db else default_db()
    if not path.exists():
        print(f"cardtui: there is no store at {path}.", file=sys.stderr)
        return 1
    store = Store(path)
    n = 0
    with contextlib.ExitStack() as stack:
        stack.callback(store.close)
        out = stack.enter_context(open(args.out, "w", encoding="utf-8")) if args.out else sys.stdout
        for line in store.hands(args.table):
            out.write(line + "\n")
            n += 1
    print(f"{n} hands exported.", file=sys.stderr)
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cardtui", description="A LAN card room in the terminal.")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("serve", help="host a table server")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0 for the LAN)")
    s.add_argument("--port", type=int, default=50051, help="port to listen on (0: any free port)")
    s.add_argument("--db", default=None, help="SQLite store (default: in the user's data directory)")
    s.add_argument("--bot-delay", type=int, default=1000, metavar="MS", help="pause before bots act")
    s.add_argument("--next-hand-delay", type=int, default=4000, metavar="MS",
                   help="pause after a hand ends, so people see the result")
    s.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    s.set_defaults(run=cmd_serve)

    c = sub.add_parser("connect", help="open the client on a server")
    c.add_argument("target", nargs="?", default="127.0.0.1", help="HOST[:PORT] (default 127.0.0.1:50051)")
    c.add_argument("--name", default=_name(), help="your name at the tables")
    c.add_argument("--spectate", metavar="TABLE", help="watch this table, read-only")
    c.set_defaults(run=cmd_connect)

    pl = sub.add_parser("play", help="start a local server and open the client on it")
    pl.add_argument("--name", default=_name())
    pl.add_argument("--port", type=int, default=50051)
    pl.add_argument("--db", default=None)
    pl.set_defaults(run=cmd_play)

    m = sub.add_parser("sim", help="play bot hands through the engine")
    m.add_argument("--game", default="cacho")
    m.add_argument("--players", type=int, default=0)
    m.add_argument("--hands", type=int, default=1000)
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--options", default="", help="game options as JSON")
    m.add_argument("--history", metavar="FILE", help="write hand histories as JSON Lines")
    m.add_argument("--vs-random", type=int, default=0, metavar="MATCHES",
                   help="also play this many whole matches of bots against random play; print win rates")
    m.set_defaults(run=cmd_sim)

    h = sub.add_parser("history", help="hand histories in the store")
    hs = h.add_subparsers(dest="what", required=True)
    e = hs.add_parser("export", help="write stored hand histories as JSON Lines")
    e.add_argument("--db", default=None)
    e.add_argument("--table", default=None, help="only this table")
    e.add_argument("--out", default=None, help="file to write (default: standard output)")
    e.set_defaults(run=cmd_history_export)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    raise SystemExit(main())
