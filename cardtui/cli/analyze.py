"""``cardtui analyze``: each decision of finished hands judged, offline."""

from __future__ import annotations

import argparse
import sys

from cardtui.i18n import _


def cmd_analyze(args: argparse.Namespace) -> int:
    """Each decision of exported hands judged, offline."""
    from cardtui.analyze import run

    return run(args.file, args.hand, args.seat, args.json, args.seed, sys.stdout, sys.stderr)


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``analyze`` and its flags."""
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
