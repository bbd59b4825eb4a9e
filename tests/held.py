"""The cards an engine record holds, however deep: what the leak checks compare.

One walk for every suite that asks (the conformance suite, the rummy games', the audit). It is
run on every view and event of thousands of random hands, so it keeps, per record type and
fields left out, the names of the fields to read, decides once per type what a value is, and passes
over a container's cards and plain values without a call: asked of ``dataclasses.fields`` each time,
the walk was a third of the conformance suite's time.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any, cast

from cardtui.engine.cards import Card
from cardtui.engine.core import Action

_PLAIN = (int, float, str, bytes, type(None))
"""Values that hold no card (a card is checked first: whatever it is made of, it counts)."""
CARD, PLAIN, ITEMS, VALUES, ACTION, RECORD, OTHER = range(1, 8)
_KINDS: dict[type, int] = {}
"""What each type met is, for the walk (decided once per type, in the order the walk asks)."""
_FIELDS: dict[tuple[type, tuple[str, ...]], tuple[str, ...]] = {}
"""A dataclass's fields to read, by its type and the words whose fields are left out."""


def cards_in(record: object, skip: tuple[str, ...] = ()) -> set[Card]:
    """Every card ``record`` holds: in its items, its dict's values, an action's cards and a
    dataclass's fields, except fields whose name holds a word of ``skip``."""
    found: set[Card] = set()
    _walk(record, skip, found)
    return found


def _kind(of: type) -> int:
    kind = _KINDS.get(of)
    if kind is None:
        if issubclass(of, Card):
            kind = CARD
        elif issubclass(of, _PLAIN):
            kind = PLAIN
        elif issubclass(of, tuple | list | frozenset | set):
            kind = ITEMS
        elif issubclass(of, dict):
            kind = VALUES
        elif issubclass(of, Action):
            kind = ACTION
        elif dataclasses.is_dataclass(of):
            kind = RECORD
        else:
            kind = OTHER
        _KINDS[of] = kind
    return kind


def _walk(record: object, skip: tuple[str, ...], found: set[Card]) -> None:
    kind = _KINDS.get(type(record)) or _kind(type(record))
    if kind == CARD:
        found.add(cast(Card, record))
    elif kind == ITEMS:
        _items(cast("Iterable[object]", record), skip, found)
    elif kind == VALUES:
        _items(cast("dict[object, object]", record).values(), skip, found)
    elif kind == ACTION:
        found.update(cast(Action, record).cards)
    elif kind == RECORD:
        of = type(record)
        names = _FIELDS.get((of, skip))
        if names is None:
            names = _FIELDS[of, skip] = tuple(f.name for f in dataclasses.fields(cast(Any, record))
                                              if not any(word in f.name for word in skip))
        for name in names:  # its cards and plain values without a call, as a container's
            value = getattr(record, name)
            kind = _KINDS.get(type(value)) or _kind(type(value))
            if kind == CARD:
                found.add(cast(Card, value))
            elif kind == ITEMS:
                _items(cast("Iterable[object]", value), skip, found)
            elif kind != PLAIN:
                _walk(value, skip, found)


def _items(items: Iterable[object], skip: tuple[str, ...], found: set[Card]) -> None:
    """A container's items: its cards and plain values (most of them) without a call."""
    for item in items:
        kind = _KINDS.get(type(item)) or _kind(type(item))
        if kind == CARD:
            found.add(cast(Card, item))
        elif kind == ITEMS:
            _items(cast("Iterable[object]", item), skip, found)
        elif kind != PLAIN:
            _walk(item, skip, found)
