"""Your turn, noticed: a bell when it becomes your turn or a claim window opens for you, and the
default action's countdown in the window title.

The bell is off until the player turns it on (``ctrl+g``), and the choice is kept in their config
directory (``bell``, beside their key and language); a browser guest's is kept by their own browser,
the host's config directory not being theirs: the client tells the page (``page_keeps_bell``), the
page keeps it in a cookie, and the next session the page opens starts with the bell on
(``cardtui connect --bell``). It rings once per turn: when the player's seat comes into the
seats the table waits on, never while it stays there (drawing and then discarding is one turn),
never for anyone else's turn, and never for a spectator. In the terminal it is the terminal's bell;
in the browser page, the page turns the bell into a sound and the tab's title into "your turn".

The window title (OSC 2, which terminals and the browser page's terminal put in the window's or the
tab's title) says, while it is your turn, how long is left before the table plays the default for
you: a glance at the task bar or the tab is enough.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cardtui.client.models import TableModel
from cardtui.i18n import _

BELL_FILE = "bell"
TITLE = "cardtui"


def bell_file() -> Path:
    from platformdirs import user_config_dir

    return Path(user_config_dir("cardtui")) / BELL_FILE


def bell_on(file: Path | None = None) -> bool:
    """Whether this person turned the bell on (off when they never chose, or it cannot be read)."""
    try:
        return (file or bell_file()).read_text(encoding="utf-8").strip() == "on"
    except (OSError, UnicodeDecodeError):
        return False


def keep_bell(on: bool, file: Path | None = None) -> None:
    """Keep the choice for the next client; a file that cannot be written is left as it was."""
    file = file or bell_file()
    with contextlib.suppress(OSError):
        file.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=file.parent, prefix=".bell.")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write("on\n" if on else "off\n")
        os.replace(tmp, file)


def my_turn(model: TableModel) -> bool:
    """The table waits on this player's seat now (their turn, or a claim window open to them); not
    while they are away and a bot plays the seat for them (the bot does not wait on them)."""
    view = model.view
    if not (model.seat is not None and view is not None and not view.hand_over
            and model.seat in view.to_act and bool(model.legal)):
        return False
    return not any(s.seat == model.seat and s.away and s.bot for s in view.seats)


@dataclass
class TurnNotice:
    """Follows the views as they come and says when a new turn of the player's begins."""

    waiting: bool = False
    """The table waited on the player's seat at the last view."""

    def rings(self, model: TableModel) -> bool:
        """Whether this view begins a turn of the player's (it rings once per turn)."""
        now = my_turn(model)
        began = now and not self.waiting
        self.waiting = now
        return began


def window_title(model: TableModel | None, left: float | None) -> str:
    """The window's title: at the player's turn, the seconds before the default action is played."""
    if model is None or not my_turn(model) or left is None:
        return TITLE
    return _("{s} s · your turn · {title}").format(s=max(0, round(left)), title=TITLE)


PAGE_OSC = 7705
"""The private OSC the browser page listens to for the guest's bell (server/web/page/index.html);
a terminal ignores an OSC it does not know."""


def page_keeps_bell(on: bool) -> str:
    """The escape sequence that asks the browser page to keep the guest's bell on, or off."""
    return f"\x1b]{PAGE_OSC};bell={'on' if on else 'off'}\x1b\\"


def title_sequence(title: str) -> str:
    """The escape sequence that sets the window's title (OSC 2), with nothing in it a terminal reads
    as another sequence."""
    plain = "".join(ch for ch in title if ch.isprintable())
    return f"\x1b]2;{plain}\x1b\\"  # ended by ST, not BEL: a title is not a bell
