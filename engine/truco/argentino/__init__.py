"""Truco argentino (docs/rules.md §4): its cards and values (``rules``), the state of a match
(``state``), the envido and flor bets (``envido``, ``flor``), what may be done now
(``checks``), what each seat sees (``view``) and the game itself (``game``)."""
