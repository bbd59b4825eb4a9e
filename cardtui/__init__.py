"""cardtui: a LAN card room in the terminal."""

from cardtui import native as _native

__version__ = "0.1.0"

_native.install()  # the compiled engine, if a build matches the sources (cardtui.native)
