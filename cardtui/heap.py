"""Whether this process's objects were moved out of the collector's sight (``gc.freeze``) for good.

The server freezes what it holds once it has started (tables live long, so full collections
would walk them for nothing), and the browser guests' parent freezes what its guests share before
each fork. A client's table screen freezes what lived when it opened and gives it back when it is
left, unless one of those froze the heap first (in a browser guest, or in ``cardtui play``, where
the client and the server share a process): unfreezing then would hand the collector what the
others keep out of its sight. Python 3.11 counts the frozen objects one by one
(``gc.get_freeze_count`` walks them all: tens of milliseconds in a large process), so whoever
freezes for good says so here, and the client asks here.
"""

from __future__ import annotations

import gc

_by = ""


def freeze(by: str) -> None:
    """``gc.freeze()`` for good, by ``by`` (a few words: who, for the log and the tests)."""
    global _by
    gc.freeze()
    _by = by


def frozen() -> str:
    """Who froze this process's objects for good ("": nobody)."""
    return _by


def unfreeze() -> None:
    """Everything frozen given back to the collector (tests that run a client after a server in one
    process)."""
    global _by
    gc.unfreeze()
    _by = ""
