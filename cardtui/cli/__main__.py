"""``python -m cardtui.cli``: the command as the ``cardtui`` script runs it (the browser guests
started cold, and the tests, run it so)."""

from __future__ import annotations

if __name__ == "__main__":
    from cardtui.cli import main

    raise SystemExit(main())
