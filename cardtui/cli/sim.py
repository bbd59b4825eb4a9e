"""``cardtui sim``: bot hands played through the engine, and their histories if asked."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys

from cardtui.i18n import _


def cmd_sim(args: argparse.Namespace) -> int:
    from cardtui.engine.games import GAMES
    from cardtui.sim import simulate

    args.game = args.game or next(iter(GAMES))  # the first the room lists
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


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``sim`` and its flags."""
    m = sub.add_parser("sim", help=_("play bot hands through the engine"))
    m.add_argument("--game", default="", help=_("the game to play (default: cacho)"))
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
