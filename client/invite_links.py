"""Invites' links: written for a table or the room, and read back as typed or given on the command line.

An invite names a way in for each way of joining: the browser page's link straight to the table's
name prompt (``page_link``), the link for ``cardtui connect`` (``terminal_link``,
``cardtui://HOST:PORT/table/ID[?code=CODE]``), and a short code to type in the lobby. Whatever is
typed in the lobby (``j``) or given to ``cardtui connect``, a link or a bare code, is read here
(``read_link``); the screens that show an invite and ask for a code are ``client.screens.invite``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import parse_qs, quote, urlsplit

from cardtui.i18n import _

SCHEME = "cardtui"
"""``cardtui://HOST:PORT/table/ID[?code=CODE]``: an invite for ``cardtui connect``."""


def shown_code(code: str) -> str:
    """A code as people read it: ``K7M2-QX9P``."""
    return f"{code[:4]}-{code[4:]}" if len(code) == 8 else code


def terminal_link(server: str, table: str = "", code: str = "") -> str:
    """The invite for ``cardtui connect``: ``cardtui://HOST:PORT/table/ID``, with the code that opens
    the table's password when its owner gave one."""
    link = f"{SCHEME}://{server}"
    if table:
        link += f"/table/{quote(table)}"
    if code:
        link += f"?code={quote(code)}"
    return link


def page_link(page: str, table: str = "", code: str = "") -> str:
    """The browser page's link straight to the table's name prompt (``PAGE/table/ID``)."""
    link = page if page.endswith("/") else page + "/"
    if table:
        link += f"table/{quote(table)}"
    if code:
        link += f"?code={quote(code)}"
    return link


@dataclass(frozen=True)
class Link:
    """What an invite typed or given on the command line names: a server (None: the one this client
    is on), a table, the code that opens it."""

    server: str | None = None
    table: str = ""
    code: str = ""


class BadLink(ValueError):
    """An invite that cannot be read; the sentence says why."""


def read_link(text: str) -> Link:
    """A ``cardtui://`` invite, the page's link to a table, or a bare code, as typed."""
    text = text.strip()
    if "://" not in text:
        return Link(code=text)
    parts = urlsplit(text)
    if not parts.hostname:
        raise BadLink(_("{link} names no server.").format(link=repr(text[:60])))
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    try:
        port = parts.port
    except ValueError:
        raise BadLink(_("{link} has no port a server can be at.").format(link=repr(text[:60]))) from None
    path = [p for p in parts.path.split("/") if p]
    table = path[1] if len(path) == 2 and path[0] == "table" else ""
    if path and not table:
        raise BadLink(_("{link} is not an invite: an invite's path is /table/ID.").format(link=repr(text[:60])))
    code = parse_qs(parts.query).get("code", [""])[0]
    server = f"{host}:{port}" if port else host
    return Link(server if parts.scheme == SCHEME else None, table, code)


def same_server(named: str, target: str, known: Iterable[str]) -> bool:
    """Whether a link's ``HOST:PORT`` is the server this client is connected to (as dialled, or as
    the server says friends reach it)."""
    return named in (target, *known)
