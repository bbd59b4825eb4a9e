"""Truco paulista (docs/rules.md §3): its cards and values (``rules``), the state of a match
(``state``), what each seat sees (``view``) and the game itself (``game``)."""
