"""The truco family: truco paulista (RULES.md §3) and truco argentino (RULES.md §4).

What both games share lives once here: tricks and their ties (``tricks``), the call,
answer and raise ladder that truco, envido and flor all climb (``ladder``), signals
between partners (``signals``), the base game both variants subclass (``base``), and
the records a screen and a log read (``views``, ``events``). Each variant keeps its
rules data, its state and its game apart, so that no module imports its own importer:
``*_rules`` (data) ← ``*_state`` ← the bets played on it (``envido``, ``flor``) ←
``*_view`` ← the game (``paulista``, ``argentino``).
"""
