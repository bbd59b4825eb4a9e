"""Engine records to protobuf and back: the one place the server speaks the wire.

The engine's records and the messages in ``proto/cardtui/v1`` share their names: a view or
event record's class is a message of the same name, and each of its fields a field of the
same name. So one converter serves every game, driven by the message descriptors:

- cards become their notation, enums the value of the proto enum whose name ends in the
  enum's value (``Phase.BETTING`` → ``RUMMY_PHASE_BETTING``), ``None`` leaves a field unset,
  tuples become repeated fields and mappings map fields, nested records nested messages;
- an engine ``Action`` becomes a wire ``Action`` with a field for each meaning of its amount
  and value (chips, a card's position, envido points, a signal, a draw's source);
- a view's common facts (hand, dealer, you, to_act, …) go on ``View`` and the rest on the
  game family's message; an event record goes where the ``Event`` oneof has its message.

The conformance suite checks that every record converts and converts back unchanged.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any, TypeVar

from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass

from cardtui.engine.cards import Card
from cardtui.engine.core import Action, Event, GameView
from cardtui.engine.options import OptionKind, OptionSpec, Raw
from cardtui.v1 import common_pb2, lobby_pb2, table_pb2

Convert = Callable[[Any], Any]

_NOTES: dict[Card, str] = {Card.parse(t): t for t in (
    [f"{r}{s}" for s in "SHDC" for r in ("A", *map(str, range(2, 11)), "J", "Q", "K")]
    + [f"{r}{s}" for s in "ebo c".replace(" ", "") for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]
)}


def note(card: Card) -> str:
    return _NOTES[card]


# -- enums --------------------------------------------------------------------------------
@cache
def _enum_numbers(desc: EnumDescriptor) -> dict[str, int]:
    """Engine value (``"betting"``, ``"play_down"``) → number, from names like ``RUMMY_PHASE_BETTING``."""
    prefix = _enum_prefix(desc)
    return {v.name[len(prefix):].lower(): v.number for v in desc.values if v.number}


@cache
def _enum_values(desc: EnumDescriptor) -> dict[int, str]:
    return {n: v for v, n in _enum_numbers(desc).items()}


def _enum_prefix(desc: EnumDescriptor) -> str:
    unspecified = next(v.name for v in desc.values if v.number == 0)
    return unspecified.removesuffix("UNSPECIFIED")


def enum_number(desc: EnumDescriptor, value: object) -> int:
    key = str(value.value if isinstance(value, enum.Enum) else value).replace("-", "_").lower()
    try:
        return _enum_numbers(desc)[key]
    except KeyError:
        raise ValueError(f"{desc.name} has no value for {value!r}") from None


def enum_value(desc: EnumDescriptor, number: int) -> str:
    """The engine's spelling of a proto enum value (``""`` for unspecified)."""
    return _enum_values(desc).get(number, "")


# -- actions ------------------------------------------------------------------------------
_ACTION_TYPE = common_pb2.ActionType.DESCRIPTOR
_CHIPS = frozenset({"bet", "raise", "call"})
_AMOUNT_FIELD = {**dict.fromkeys(_CHIPS, "chips"), "play_blind": "position", "announce": "points"}
_VALUE_FIELD = {"signal": ("signal", common_pb2.Signal.DESCRIPTOR),
                "draw": ("source", common_pb2.DrawSource.DESCRIPTOR)}


class BadAction(ValueError):
    """A wire action the engine cannot read; the sentence says why."""


def action_message(action: Action) -> common_pb2.Action:
    kw: dict[str, Any] = {"type": enum_number(_ACTION_TYPE, action.type)}
    if action.cards:
        kw["cards"] = [_NOTES[c] for c in action.cards]
    if action.amount:
        kw[_AMOUNT_FIELD.get(action.type, "chips")] = action.amount
    if action.value:
        name, desc = _VALUE_FIELD[action.type]
        kw[name] = enum_number(desc, action.value)
    return common_pb2.Action(**kw)


def action_of(msg: common_pb2.Action) -> Action:
    """A wire action as the engine's; ``BadAction`` with a sentence if it cannot be one."""
    kind = enum_value(_ACTION_TYPE, msg.type)
    if not kind:
        raise BadAction("An action needs a type (ActionType), such as BET or PLAY.")
    if len(msg.cards) > 16:
        raise BadAction("That action carries more cards than any game needs.")
    try:
        cards = tuple(Card.parse(c) for c in msg.cards)
    except ValueError as e:
        raise BadAction(str(e)) from None
    amount = {"chips": msg.chips, "position": msg.position, "points": msg.points}[_AMOUNT_FIELD.get(kind, "chips")]
    value = ""
    if kind in _VALUE_FIELD:
        name, desc = _VALUE_FIELD[kind]
        value = enum_value(desc, getattr(msg, name))
    return Action(kind, amount, cards, value)


def legal_messages(actions: Sequence[Action]) -> list[common_pb2.Action]:
    """Legal actions for the wire; a run of one betting type at consecutive amounts becomes one range."""
    out: list[common_pb2.Action] = []
    prev: Action | None = None
    for a in actions:
        if (
            prev is not None and a.type in _CHIPS and a.type == prev.type and a.amount == prev.amount + 1
            and not a.cards and not prev.cards
        ):
            out[-1].max_chips = a.amount
        else:
            out.append(action_message(a))
        prev = a
    return out


def expand(legal: Iterable[common_pb2.Action]) -> list[Action]:
    """A wire legal list back as engine actions, one per amount (the inverse of ``legal_messages``)."""
    out: list[Action] = []
    for msg in legal:
        one = action_of(msg)
        out.append(one)
        out.extend(dataclasses.replace(one, amount=n) for n in range(msg.chips + 1, msg.max_chips + 1))
    return out


# -- records to messages --------------------------------------------------------------------
def _scalar(fd: FieldDescriptor) -> Convert:
    if fd.type == FieldDescriptor.TYPE_STRING:
        return lambda v: _NOTES[v] if type(v) is Card else str(v)
    if fd.type == FieldDescriptor.TYPE_ENUM:
        desc = fd.enum_type
        return lambda v: enum_number(desc, v)
    return lambda v: v


def _value_converter(fd: FieldDescriptor) -> Convert:
    if fd.message_type is None:
        return _scalar(fd)
    desc = fd.message_type
    return lambda v: message_for(v, desc)


def _field_converter(fd: FieldDescriptor) -> Convert:
    if fd.message_type is not None and fd.message_type.GetOptions().map_entry:
        key = _scalar(fd.message_type.fields_by_name["key"])
        val = _value_converter(fd.message_type.fields_by_name["value"])
        return lambda m: {key(k): val(v) for k, v in m.items()}
    one = _value_converter(fd)
    if fd.is_repeated:
        if fd.message_type is None and fd.type != FieldDescriptor.TYPE_STRING and fd.type != FieldDescriptor.TYPE_ENUM:
            return list
        return lambda vs: [one(v) for v in vs]
    return one


@cache
def _names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


@cache
def _compiled(names: tuple[str, ...], desc: Descriptor) -> Callable[[Any], dict[str, Any]]:
    """A function from a record with these fields to the keyword arguments of ``desc``'s message."""
    plan: list[tuple[str, Convert]] = []
    for name in names:
        fd = desc.fields_by_name.get(name)
        if fd is None:
            raise TypeError(f"{desc.full_name} has no field {name!r}")
        plan.append((name, _field_converter(fd)))

    def kwargs(obj: Any) -> dict[str, Any]:
        out = {}
        for name, conv in plan:
            v = getattr(obj, name)
            if v is not None:
                out[name] = conv(v)
        return out

    return kwargs


def message_for(obj: Any, desc: Descriptor) -> Message:
    """``obj`` (a frozen record, or an engine Action) as a message of type ``desc``."""
    if type(obj) is Action:
        return action_message(obj)
    return GetMessageClass(desc)(**_compiled(_names(type(obj)), desc)(obj))


M = TypeVar("M", bound=Message)


def message(obj: Any, cls: type[M]) -> M:
    out = message_for(obj, cls.DESCRIPTOR)
    assert isinstance(out, cls)
    return out


# -- views ----------------------------------------------------------------------------------
_VIEW = table_pb2.View.DESCRIPTOR
_COMMON = frozenset(
    f.name for f in _VIEW.fields if f.containing_oneof is None or f.containing_oneof.name != "game"
) - {"legal", "deadline_ms", "seats"}
_FAMILY: dict[str, FieldDescriptor] = {f.message_type.name: f for f in _VIEW.oneofs_by_name["game"].fields}


@cache
def _view_plan(cls: type) -> tuple[str, Callable[[Any], dict[str, Any]], tuple[str, ...]]:
    family = _FAMILY.get(cls.__name__)
    if family is None:
        raise TypeError(f"View has no game message named {cls.__name__}")
    common = tuple(n for n in _names(cls) if n in _COMMON)
    rest = tuple(n for n in _names(cls) if n not in _COMMON)
    return family.name, _compiled(rest, family.message_type), common


def view_message(
    view: GameView | None,
    legal: Sequence[Action] = (),
    deadline_ms: int = 0,
    seats: Iterable[common_pb2.SeatSummary] = (),
) -> table_pb2.View:
    """A seat's (or a spectator's) view for the wire; ``None`` before the first deal."""
    out = table_pb2.View(legal=legal_messages(legal), deadline_ms=deadline_ms, seats=seats)
    if view is None:
        out.waiting.SetInParent()
        return out
    name, family, common = _view_plan(type(view))
    for key in common:
        value = getattr(view, key)
        if value is None:
            continue
        if key == "to_act":
            out.to_act.extend(value)
        else:
            setattr(out, key, value)
    getattr(out, name).CopyFrom(GetMessageClass(_FAMILY[type(view).__name__].message_type)(**family(view)))
    return out


# -- events ---------------------------------------------------------------------------------
def _event_paths() -> dict[str, tuple[str, ...]]:
    """Message name → the oneof path to it from ``Event`` (``("cacho", "showed")``)."""
    out: dict[str, tuple[str, ...]] = {}
    for f in table_pb2.Event.DESCRIPTOR.oneofs_by_name["body"].fields:
        inner = f.message_type.oneofs_by_name.get("body")
        if inner is None:
            out[f.message_type.name] = (f.name,)
        else:
            for g in inner.fields:
                out[g.message_type.name] = (f.name, g.name)
    return out


_PATHS = _event_paths()


@cache
def _event_plan(cls: type) -> tuple[tuple[str, ...], Descriptor]:
    path = _PATHS.get(cls.__name__)
    if path is None:
        raise TypeError(f"Event has no message named {cls.__name__}")
    desc = table_pb2.Event.DESCRIPTOR
    for name in path:
        desc = desc.fields_by_name[name].message_type
    return path, desc


def event_message(seq: int, event: Event, viewer: int | None, replay: bool = False) -> table_pb2.Event:
    """The event as this viewer receives it: whole, or a content-free placeholder."""
    out = table_pb2.Event(seq=seq, replay=replay)
    if not event.audience.sees(viewer):
        out.hidden.SetInParent()
        return out
    path, desc = _event_plan(type(event.body))
    target: Message = out
    for name in path[:-1]:
        target = getattr(target, name)
    getattr(target, path[-1]).CopyFrom(message_for(event.body, desc))
    return out


# -- messages to records (for tests, replays and tools) ---------------------------------------
R = TypeVar("R")


def record(msg: Message, cls: type[R]) -> R:
    """A message back as the engine record ``cls``: the inverse of ``message``."""
    hints = typing.get_type_hints(cls)
    values = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        fd = msg.DESCRIPTOR.fields_by_name[f.name]
        values[f.name] = _python(getattr(msg, f.name), hints[f.name], fd, msg)
    return cls(**values)


def _python(value: Any, hint: Any, fd: FieldDescriptor, parent: Message) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        if fd.has_presence and not parent.HasField(fd.name):
            return None
        inner = next(a for a in args if a is not type(None))
        return _python(value, inner, fd, parent)
    if origin is tuple:
        item = args[0]
        return tuple(_one(v, item, fd) for v in value)
    if origin is not None and issubclass(origin, Mapping):
        k, item = args
        return {k(key): _one(v, item, fd.message_type.fields_by_name["value"]) for key, v in value.items()}
    return _one(value, hint, fd)


def _one(value: Any, hint: Any, fd: FieldDescriptor) -> Any:
    if hint is Card:
        return Card.parse(value)
    if hint is Action:
        return action_of(value)
    if fd.type == FieldDescriptor.TYPE_ENUM:
        text = enum_value(fd.enum_type, value)
        return hint(text) if isinstance(hint, type) and issubclass(hint, enum.Enum) else text
    if dataclasses.is_dataclass(hint):
        return record(value, hint)  # type: ignore[arg-type]
    return value


def view_record(msg: table_pb2.View, cls: type[R]) -> R:
    """A wire view back as the engine's view record (the inverse of ``view_message``)."""
    family = msg.WhichOneof("game")
    assert family is not None
    inner = getattr(msg, family)
    hints = typing.get_type_hints(cls)
    values = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if f.name in _COMMON:
            fd = _VIEW.fields_by_name[f.name]
            values[f.name] = _python(getattr(msg, f.name), hints[f.name], fd, msg)
        else:
            fd = inner.DESCRIPTOR.fields_by_name[f.name]
            values[f.name] = _python(getattr(inner, f.name), hints[f.name], fd, inner)
    return cls(**values)


def event_record(msg: table_pb2.Event) -> Any:
    """A wire event's body back as the engine's record class of the same name (for tests)."""
    target: Message = msg
    while True:
        name = target.WhichOneof("body")
        assert name is not None
        target = getattr(target, name)
        if target.DESCRIPTOR.oneofs_by_name.get("body") is None:
            return target


# -- options ----------------------------------------------------------------------------------
def option_value(spec: OptionSpec, value: Raw) -> common_pb2.OptionValue:
    if spec.kind is OptionKind.FLAG:
        return common_pb2.OptionValue(flag=bool(value))
    if spec.kind is OptionKind.NUMBER:
        return common_pb2.OptionValue(number=int(value))
    if spec.kind is OptionKind.FRACTION:
        return common_pb2.OptionValue(fraction=float(value))
    return common_pb2.OptionValue(choice=str(value.value if isinstance(value, enum.Enum) else value))


def raw_option(value: common_pb2.OptionValue) -> Raw | None:
    """What an ``OptionValue`` holds, as the engine's option reader takes it (None: nothing set)."""
    kind = value.WhichOneof("value")
    if kind is None:
        return None
    raw: Raw = getattr(value, kind)
    return raw


_KIND = {OptionKind.FLAG: lobby_pb2.OPTION_TYPE_FLAG, OptionKind.NUMBER: lobby_pb2.OPTION_TYPE_NUMBER,
         OptionKind.FRACTION: lobby_pb2.OPTION_TYPE_FRACTION, OptionKind.CHOICE: lobby_pb2.OPTION_TYPE_CHOICE}


def option_spec(spec: OptionSpec) -> lobby_pb2.OptionSpec:
    return lobby_pb2.OptionSpec(
        name=spec.name, type=_KIND[spec.kind], choices=spec.choices, min=spec.min, max=spec.max,
        default=option_value(spec, spec.default), help=spec.help,
    )
