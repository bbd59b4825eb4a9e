"""``cardtui verify``: the fair deals of hand histories checked, and the standings they hold."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import TYPE_CHECKING

from cardtui.i18n import _

if TYPE_CHECKING:
    from cardtui.engine.fairness import HandCheck


def cmd_verify(args: argparse.Namespace) -> int:
    """Check every hand of a JSON Lines file of histories: a line per hand, a summary, exit 1 on any failure. The
    engine is loaded once there are hands to check (a file that cannot be read, or holds none, is said at once)."""
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
    sealed = [r for r in records if isinstance(r.get("sealed"), dict)]
    records = [r for r in records if not isinstance(r.get("sealed"), dict)]
    sealed_failed = print_sealed(sealed)
    if sealed and not records:
        print(f"{len(sealed)} sealed hands: {len(sealed) - sealed_failed} check, {sealed_failed} name a seat or fail.")
        return 1 if sealed_failed else 0
    checks: list[HandCheck] = []
    if records:
        from cardtui.engine.fairness import verify
        from cardtui.engine.games import GAMES

        checks = verify(records, GAMES)
    heads: dict[str, tuple[object, str]] = {}
    red = sys.stdout.isatty()
    for check in checks:
        line = check.line()
        print(f"\033[1;31m{line}\033[0m" if red and check.problems else line)  # a failure in red where colour shows
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
    if failed or sealed_failed or (args.strict and (plain or unlinked)):
        return 1
    return 0


def print_sealed(records: list[dict[str, object]]) -> int:
    """Each sealed hand's record (docs/deal.md §S9) replayed step by step, as the table checked it: a line per hand,
    naming the seat at fault where there is one. Returns how many did not check."""
    if not records:
        return 0
    from cardtui.engine import family
    from cardtui.engine.games import GAMES
    from cardtui.sealed.record import replay

    failed = 0
    for record in records:
        where = f"table {record.get('table') or '?'} hand {record.get('hand', '?')}"
        sealed = record["sealed"]
        assert isinstance(sealed, dict)
        rules = GAMES.get(str(record.get("game")))
        judge = family.named(rules.family_name).claims(record.get("options")) if rules is not None else None
        if judge is None:
            failed += 1
            print(f"{where}: ✘ sealed: {str(record.get('game'))[:40]!r} has no sealed tables")
            continue
        done = replay(sealed, judge)  # the envido counted as the table counted it
        if done.problem:
            failed += 1
            print(f"{where}: ✘ sealed: {done.problem}")
        elif done.cheat is not None:
            failed += 1
            print(f"{where}: ✘ sealed, at step {done.steps + 1}: {done.cheat}")
        else:
            print(f"{where}: ✔ sealed: every lock, key and card checks ({done.steps} steps)")
    return failed


def print_standings(records: list[dict[str, object]]) -> None:
    """The standings of every tournament whose hands the histories hold, worked out from them alone."""
    if not records:
        return
    from cardtui.engine.games import standing
    from cardtui.engine.tournament import recompute

    for t in recompute(records, standing):
        print(_("tournament {id}, after round {round}:").format(id=t.id, round=t.rounds))
        print("   #  " + _("entry").ljust(28) + "  VP   GP  H2H")
        for s in t.standings:
            names = " + ".join(t.names.get(s.entry, ())) or f"#{s.entry}"
            print(f"{s.place:>4}  {names[:28]:<28} {s.vp:>3} {s.gp:>4} {s.head_to_head:>4}")


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``verify`` and its flags."""
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
