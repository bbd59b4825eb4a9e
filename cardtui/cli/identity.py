"""``cardtui identity``: where the player's key lives, and its fingerprint."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cardtui.i18n import _


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


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``identity`` and its flag."""
    i = sub.add_parser("identity", help=_("show where your key lives and its fingerprint (made on first use)"))
    i.add_argument("--identity", metavar="FILE", help=_("the key file (default: in your config directory)"))
    i.set_defaults(run=cmd_identity)
