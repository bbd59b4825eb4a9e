"""The ``cardtui`` command: serve, db, connect, web, cert, play, sim, history, verify, analyze, replay.

A module per command (or per family: ``history export``), each with its ``cmd_*`` and the ``add``
that gives the command its flags; what several share (a key, a password, a settings file,
``--lang``) is ``flags``. Each command imports what it runs (the server, the client, the engine)
only when it runs, so ``cardtui --help`` loads none of them.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from cardtui.cli import analyze, arena, cert, connect, db, history, identity, play, replay, serve, sim, verify, web
from cardtui.cli.flags import apply_config, take_lang
from cardtui.i18n import LANGUAGES, _, choose, ngettext, normalize, remembered, use

COMMANDS = (serve.add, db.add, web.add, connect.add, cert.add, play.add, identity.add, sim.add, verify.add, arena.add,
            history.add, analyze.add, replay.add)
"""Each command's ``add`` (its subparser and its flags), in the order ``cardtui --help`` lists them."""


def parser() -> argparse.ArgumentParser:
    """The whole command line: ``--lang``, then each command as its module adds it."""
    p = argparse.ArgumentParser(prog="cardtui", description=_("A LAN card room in the terminal."))
    p.add_argument("--lang", metavar="LANG",
                   help=_("the language to read: en, pt_BR or es (default: from CARDTUI_LANG or LANG; "
                          "anywhere on the line)"))
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND",
                           help=_("one of these; COMMAND --help says more"))
    for add in COMMANDS:
        add(sub)
    return p


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
    del p  # its thousand objects are not kept while the command runs (a browser guest's table, for hours)
    return int(args.run(args))
