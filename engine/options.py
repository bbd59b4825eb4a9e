"""Table options: declared once per game, read and described by one reader.

A game's options are a frozen dataclass whose fields are made with ``option``: a default,
one line of help, and a range (whole numbers and fractions) — every number has bounds, so
no option can ask the engine to enumerate a million bets. A whole number may also list the
only values it takes (a game to 15 or to 30, nothing between). Flags are ``bool`` fields and
choices are ``StrEnum`` fields. ``describe`` turns the record into specs any client can
build a form from; ``read`` validates raw values (from a person, a file or the wire),
refusing unknown names, wrong kinds and values out of range with a sentence. Rules that
tie options together stay in the record's ``__post_init__``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import TYPE_CHECKING, Any, get_type_hints

from cardtui.engine.errors import InvalidOptions

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

Raw = bool | int | float | str
"""An option's value as it arrives: a flag, a whole number, a fraction or a choice's name."""


class OptionKind(StrEnum):
    FLAG = "flag"
    NUMBER = "number"
    FRACTION = "fraction"
    CHOICE = "choice"


@dataclass(frozen=True, slots=True)
class OptionSpec:
    name: str
    kind: OptionKind
    default: Raw
    help: str
    choices: tuple[str, ...] = ()
    min: float = 0
    max: float = 0
    values: tuple[int, ...] = ()
    """A whole number's only values, when not every one in its range is allowed."""


def option(default: Any, help: str, *, min: float = 0, max: float = 0, values: tuple[Any, ...] = ()) -> Any:
    """A field of an options record: its default, a line of help and, for numbers, its range
    (and for a whole number that skips some, the values it takes; for a choice whose enum is shared with games that
    offer more, the members this game offers)."""
    return dataclasses.field(default=default, metadata={"help": help, "min": min, "max": max, "values": values})


class _Invalid(ValueError):
    """A bad value for one option: a sentence's template and its arguments."""

    def __init__(self, template: str, /, **args: str) -> None:
        self.template = template
        self.args_ = args
        super().__init__(template.format(**args))


_SPECS: dict[type, tuple[OptionSpec, ...]] = {}
_HINTS: dict[type, dict[str, Any]] = {}
"""Each options record's field types (``get_type_hints`` evaluates every annotation's string anew each call)."""


def _hints(cls: type[DataclassInstance]) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = get_type_hints(cls)
    return hints


def describe(cls: type[DataclassInstance]) -> tuple[OptionSpec, ...]:
    """Every option of an options record, in declaration order."""
    specs = _SPECS.get(cls)
    if specs is None:
        specs = _SPECS[cls] = _describe(cls)
    return specs


def _describe(cls: type[DataclassInstance]) -> tuple[OptionSpec, ...]:
    hints = _hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        kind_type = hints[f.name]
        meta = f.metadata
        default: Any = f.default
        if kind_type is bool:
            spec = OptionSpec(f.name, OptionKind.FLAG, bool(default), meta["help"])
        elif kind_type is int:
            spec = OptionSpec(f.name, OptionKind.NUMBER, int(default), meta["help"], min=meta["min"], max=meta["max"],
                              values=tuple(sorted(meta["values"])))
        elif kind_type is float:
            spec = OptionSpec(f.name, OptionKind.FRACTION, float(default), meta["help"], min=meta["min"],
                              max=meta["max"])
        elif isinstance(kind_type, type) and issubclass(kind_type, Enum):
            first = str(default.value)
            offered = meta["values"] or tuple(kind_type)
            choices = (first, *(str(m.value) for m in kind_type if m.value != first and m in offered))
            spec = OptionSpec(f.name, OptionKind.CHOICE, first, meta["help"], choices=choices)
        else:  # pragma: no cover - a programming error, caught by the conformance tests
            raise TypeError(f"{cls.__name__}.{f.name}: options are flags, numbers, fractions or choices")
        if spec.kind in (OptionKind.NUMBER, OptionKind.FRACTION) and not spec.min <= float(spec.default) <= spec.max:
            raise TypeError(f"{cls.__name__}.{f.name}: the default is outside its range")
        values = spec.values
        if values and not (spec.default in values and spec.min <= values[0] <= values[-1] <= spec.max):
            raise TypeError(f"{cls.__name__}.{f.name}: a default or value out of its values or range")
        out.append(spec)
    return tuple(out)


def _value(spec: OptionSpec, value: object, enum: type[Enum] | None) -> Any:
    name = spec.name
    bounds = {"min": f"{spec.min:g}", "max": f"{spec.max:g}"}
    if spec.kind is OptionKind.FLAG:
        if isinstance(value, bool):
            return value
        raise _Invalid("The option {name} is yes or no.", name=name)
    if spec.kind is OptionKind.NUMBER:
        if isinstance(value, bool) or not isinstance(value, int | float) or not float(value).is_integer():
            raise _Invalid("The option {name} is a whole number from {min} to {max}.", name=name, **bounds)
        if not spec.min <= value <= spec.max:
            raise _Invalid("The option {name} must be from {min} to {max}.", name=name, **bounds)
        if spec.values and int(value) not in spec.values:
            raise _Invalid("The option {name} is one of: {choices}.", name=name,
                           choices=", ".join(str(v) for v in spec.values))
        return int(value)
    if spec.kind is OptionKind.FRACTION:
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise _Invalid("The option {name} is a number from {min} to {max}.", name=name, **bounds)
        if not spec.min <= value <= spec.max:
            raise _Invalid("The option {name} must be from {min} to {max}.", name=name, **bounds)
        return float(value)
    assert enum is not None
    if isinstance(value, str):
        try:  # a choice's enum may read an old name as the one it was renamed to (its ``_missing_``)
            chosen = enum(value)
        except ValueError:
            pass
        else:
            if str(chosen.value) in spec.choices:
                return chosen
    raise _Invalid("The option {name} is one of: {choices}.", name=name, choices=", ".join(spec.choices))


def read(cls: type[DataclassInstance], raw: Mapping[str, object], title: str) -> Any:
    """The options record ``cls`` from raw values; ``InvalidOptions`` with a sentence if any is bad."""
    specs = {s.name: s for s in describe(cls)}
    hints = _hints(cls)
    values: dict[str, Any] = {}
    for key, value in raw.items():
        spec = specs.get(str(key))
        if spec is None:
            shown = str(key)[:40]
            raise InvalidOptions("{game} has no option {option}; its options are: {options}.", game=title,
                                 option=repr(shown), options=", ".join(specs))
        enum = hints[spec.name] if spec.kind is OptionKind.CHOICE else None
        try:
            values[spec.name] = _value(spec, value, enum)
        except _Invalid as e:
            raise InvalidOptions(e.template, **e.args_) from None
    return cls(**values)


def values(options: DataclassInstance) -> dict[str, Raw]:
    """An options record as plain values (choices by name): what a hand history records."""
    out: dict[str, Raw] = {}
    for f in dataclasses.fields(options):
        v = getattr(options, f.name)
        out[f.name] = str(v.value) if isinstance(v, Enum) else v
    return out
