"""When this client and its server are not of one version: what is said, and the line that mends it.

The client says its version when it connects (``GetInfoRequest.client_version``), and hears the server's
(``ServerInfo.version``) with the URLs of the server's own client on its page (``client_wheels``). Nothing is
refused for a version alone: the protocol only grows (docs/client.md §13), so a client one version apart
plays. What either side lacks is said where it is needed, always with the line that installs the server's
own client from its page (``cardtui.installing``): once in the lobby when the versions differ, for a call
the server does not have (``UNIMPLEMENTED``: an older server), and for a game this client cannot draw (an
older client). A server without a page offers no client: the sentence then says to ask its host.
"""

from __future__ import annotations

from cardtui import __version__
from cardtui.i18n import _
from cardtui.installing import Offer


def mend(offer: Offer | None) -> str:
    """The sentence's end: the line that installs the server's own client over this one, or whom to ask."""
    if offer is None:
        return _("Ask the host for the server's own client (cardtui serve --web offers it on its page).")
    return _("The server's own client, in one line: {line}").format(line=offer.pipx(again=True))


def other_version(server: str, offer: Offer | None) -> str:
    """Said once in the lobby when the server's version is not this client's."""
    return _("This server runs cardtui {server}, this client {client}: they play together, and what either "
             "lacks is said when it is needed.").format(server=server or "?", client=__version__) + " " + mend(offer)


def missing(server: str, offer: Offer | None) -> str:
    """A call the server does not have (an older server, or a program that is not cardtui's)."""
    return _("This server (cardtui {server}) does not have what this client (cardtui {client}) asked of it.").format(
        server=server or "?", client=__version__) + " " + mend(offer)


def unknown_game(game: str, server: str, offer: Offer | None) -> str:
    """A table of a game this client cannot draw (a newer server's game)."""
    return _("This table plays {game}, which this client (cardtui {client}) does not know; the server runs "
             "cardtui {server}.").format(game=game, client=__version__, server=server or "?") + " " + mend(offer)
