"""``cardtui arena``: two players on duplicate deals, and how much better one plays."""

from __future__ import annotations

import argparse
import json
import sys

from cardtui.i18n import _


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


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``arena`` and its flags."""
    ar = sub.add_parser("arena", help=_("two players on duplicate deals: win rate with its interval, decision times"),
                        description=_("Players: random, the game's baselines, today (the bots before levels), "
                                      "easy, normal, hard, or module:function with the bot signature."))
    ar.add_argument("game", help=_("the game, by name (a name the room does not know lists those it does)"))
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
