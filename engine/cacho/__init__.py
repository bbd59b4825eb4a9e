"""The Cacho family: Cacho (docs/rules.md §5), and any game played with its records (the tests' high card).

Its rules (``rules``, compiled where the build is), the records a screen and a log read (``records``; the messages
of ``cacho.proto``), and its bots (``bots/``): the bot before levels, easy, the search behind normal and hard and
the analysis, the opponent pool's styles and the baselines.
"""

from cardtui.engine.cacho import family

__all__ = ["family"]
