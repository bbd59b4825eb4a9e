"""The cards an engine record holds, however deep: what the leak checks compare.

One walk for every suite that asks (the conformance suite, the rummy games', the audit). It is
run on every view and event of thousands of random hands, so it keeps, per record type and
fields left out, the names of the fields to read, and passes over plain values at once: asked
of ``dataclasses.fields`` each time, the walk was a third of the conformance suite's time.
"""

from __future__ import annotations

import dataclasses

from cardtui.engine.cards import Card
from cardtui.engine.core import Action

_PLAIN = (int, float, str, bytes, type(None))
"""Values that hold no card (a card is checked first: whatever it is made of, it counts)."""
_FIELDS: dict[tuple[type, tuple[str, ...]], tuple[str, ...]] = {}
"""A dataclass's fields to read, by its type and the words whose fields are left out."""


def cards_in(record: object, skip: tuple[str, ...] = ()) -> set[Card]:
    """Every card ``record`` holds: in its items, its dict's values, an action's cards and a
    dataclass's fields, except fields whose name holds a word of ``skip``."""
    found: set[Card] = set()
    _walk(record, skip, found)
    return found


def _walk(record: object, skip: tuple[str, ...], found: set[Card]) -> None:
    if isinstance(record, Card):
        found.add(record)
    elif isinstance(record, _PLAIN):
        return
    elif isinstance(record, tuple | list | frozenset | set):
        for item in record:
            _walk(item, skip, found)
    elif isinstance(record, dict):
        for item in record.values():
            _walk(item, skip, found)
    elif isinstance(record, Action):
        found.update(record.cards)
    elif dataclasses.is_dataclass(record):
        kind = type(record)
        names = _FIELDS.get((kind, skip))
        if names is None:
            names = _FIELDS[kind, skip] = tuple(f.name for f in dataclasses.fields(record)
                                               if not any(word in f.name for word in skip))
        for name in names:
            _walk(getattr(record, name), skip, found)
