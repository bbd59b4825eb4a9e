"""Keys typed while a form is still being built wait for it, then go where the player meant them.

Textual hands each key to the widget focused when the key is read. A form that builds its fields
as it opens has none focused for a moment (longer on a busy machine): a key typed then goes to the
screen itself, which does nothing with a letter, and a Tab moves the focus from nowhere to the
first field. So the app holds the keys read while such a screen is building (``Waits``) and hands
them on, in the order they came, once it says it is ready (``Built``).
"""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.screen import Screen


class Built(Message):
    """A screen that holds the keys typed while it was built has its fields and its focus: pass them on."""


class Waits:
    """A screen whose keys wait until it is built: it sets ``built`` and posts ``Built`` then."""

    built = False


class Typeahead:
    """The keys read while the screen on top was still building, in the order they came."""

    def __init__(self) -> None:
        self.held: list[events.Key] = []

    def hold(self, screen: Screen[object], key: events.Key) -> bool:
        """Keep ``key`` if the screen is building, or if keys held before it are still to go (they go first)."""
        if self.held or (isinstance(screen, Waits) and not screen.built):
            self.held.append(key)
            return True
        return False

    def release(self) -> list[events.Key]:
        """The keys held, to hand on now, in order; none are held after."""
        keys, self.held = self.held, []
        return keys
