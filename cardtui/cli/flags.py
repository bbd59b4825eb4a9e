"""What several commands share: their flags (a player's key, a table's password, an origin), the
settings file that becomes ``serve``'s defaults, and ``--lang``, read before anything else is, so that
every word of the help is said in the reader's language."""

from __future__ import annotations

import argparse
import os
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardtui.identity import Identity

from cardtui.i18n import N_, _, flag_in

SCREEN_READER = N_("lines of plain text for a screen reader: each event a sentence, answered by typing; "
                   "nothing redrawn")
"""The help of ``--screen-reader`` (``connect``, ``play``): the line mode, ``client.lines``."""


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


def add_identity_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--identity", metavar="FILE",
                   help=_("your key file: made on first use; servers remember you (and your name) by it "
                        "(default: identity.pem in your config directory)"))
    p.add_argument("--guest", action="store_true",
                   help=_("play without a key: a guest under any name nobody owns, not remembered"))


def origin_help() -> str:
    """What an origin flag takes (said in the reader's language, so looked up when needed)."""
    return _("an origin is a scheme and a host, and a port if not the usual one: "
             "e.g. https://cards.example.org or http://192.168.1.20:8080.")


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
