"""The browser guests' warm parent: ``python -m cardtui.guest_parent FD TARGET [TLS_CA]``.

The page (``cardtui.server.web.site``) starts it once and asks it for a guest per browser tab: it
imports the client once, then forks each guest, which runs the command line (``cardtui connect
TARGET --ask-name``) on the sockets it was handed. How it forks, and what a forked guest does to
share more of the parent's memory, is the server's (``cardtui.server.web.guests``); this module,
at the package's root beside the command line, hands it what to import first (the client, whose
strips it makes lighter: Textual's parts are the client's) and what a guest runs. So the server
imports nothing of the command line, which imports the server: no circle of imports at any level of
the package (the acyclic contract in pyproject.toml); nor anything of the client (the server's
contract there).
"""

from __future__ import annotations

import sys

from cardtui.server.web import guests as web_guests


def warm_up() -> None:
    """Import what every guest needs, once, before any fork: the client, and what Textual and Rich
    load only when an app first runs (layouts, the scrollbar, the emoji and cell-width tables)."""
    import importlib
    import pwd  # noqa: F401

    import rich.cells
    import textual.drivers.headless_driver
    import textual.drivers.web_driver
    import textual.layouts.factory
    import textual.layouts.horizontal
    import textual.layouts.stream
    import textual.pilot
    import textual.scrollbar  # noqa: F401

    import cardtui.cli
    import cardtui.client.app
    from cardtui.client.textual_internals import LOADED_LATE, lighter_strips

    for module in LOADED_LATE:
        importlib.import_module(module)

    rich.cells.cell_len("ação ♣ 🂡")  # loads the table of cell widths
    lighter_strips()

    del cardtui


def run(args: list[str]) -> int:
    """A guest: the command line, as ``cardtui ARGS`` runs it (imported already, by ``warm_up``)."""
    from cardtui.cli import main

    return main(args)


def main(argv: list[str]) -> int:
    return web_guests.warm_parent(argv, warm_up, run)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
