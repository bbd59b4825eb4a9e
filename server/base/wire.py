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
  game family's message; an event record goes where the ``Event`` oneof has its message;
- the server's own records of a table and its seats (``server.summary``) become the lobby's
  ``TableSummary`` and ``SeatSummary``.

The conformance suite checks that every record converts and converts back unchanged.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache, partial
from typing import Any, TypeVar

from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass

from cardtui.engine.cards import Card
from cardtui.engine.core import Action, Event, EventBody, GameView
from cardtui.engine.options import OptionKind, OptionSpec, Raw
from cardtui.fair import PACKS
from cardtui.server.base.summary import SeatSummary, TableSummary
from cardtui.v1 import common_pb2, lobby_pb2, table_pb2

_NOTES: dict[Card, str] = {Card.parse(t): t for t in {t for pack in PACKS.values() for t in pack}}
"""Every card of every pack a table may be dealt from (docs/deal.md §2), by its notation: the Spanish 8s and 9s and
the jokers of Chinchón's larger packs too."""


def note(card: Card) -> str:
    return _NOTES[card]


def message_type(fd: FieldDescriptor) -> Descriptor:
    desc = fd.message_type
    assert desc is not None, f"{fd.full_name} is not a message field"
    return desc


def enum_type(fd: FieldDescriptor) -> EnumDescriptor:
    desc = fd.enum_type
    assert desc is not None, f"{fd.full_name} is not an enum field"
    return desc


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
_AMOUNT_FIELD = {**dict.fromkeys(_CHIPS, "chips"), "play_blind": "position", "announce": "points",
                 **dict.fromkeys(("flor", "contra_flor", "contra_flor_al_resto"), "points")}
"""Where an action's number travels; a sealed table's flor sung or answered carries its count, as an envido said."""
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
def _enum_table(desc: EnumDescriptor) -> dict[str, int]:
    """Engine value → number, keyed so that a StrEnum member or its plain string both look up."""
    return {v.replace("_", "-"): n for v, n in _enum_numbers(desc).items()} | _enum_numbers(desc)


class _Codegen:
    """Writes one straight-line function per (record class, message): no per-field dispatch at run time.

    Views are converted for every audience on every change at every table, so the converter
    is generated from the record's type hints and the message's descriptor once per class.
    """

    def __init__(self) -> None:
        self.names: dict[str, Any] = {"_NOTES": _NOTES, "_action": action_message}
        self.count = 0

    def bind(self, value: Any) -> str:
        self.count += 1
        name = f"_v{self.count}"
        self.names[name] = value
        return name

    def value(self, expr: str, hint: Any, fd: FieldDescriptor) -> str:
        """An expression converting ``expr`` (of type ``hint``) for one value of field ``fd``."""
        if hint is Card:
            return f"_NOTES[{expr}]"
        if hint is Action:
            return f"_action({expr})"
        if fd.type == FieldDescriptor.TYPE_ENUM:
            return f"{self.bind(_enum_table(enum_type(fd)))}[{expr}]"
        if fd.message_type is not None and isinstance(hint, type) and dataclasses.is_dataclass(hint):
            return f"{self.bind(converter(hint, fd.message_type))}({expr})"
        return expr

    def field(self, expr: str, hint: Any, fd: FieldDescriptor) -> str:
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin in (typing.Union, types.UnionType) and type(None) in args:
            inner = next(a for a in args if a is not type(None))
            converted = self.field(expr, inner, fd)
            return expr if converted == expr else f"(None if {expr} is None else {converted})"
        if origin is tuple:
            one = self.value("x", args[0], fd)
            return expr if one == "x" else f"[{one} for x in {expr}]"
        if origin is not None and isinstance(origin, type) and issubclass(origin, Mapping):
            value_fd = message_type(fd).fields_by_name["value"]
            one = self.value("x", args[1], value_fd)
            return f"{{k: {one} for k, x in {expr}.items()}}"
        return self.value(expr, hint, fd)


_CONVERTERS: dict[tuple[type, str], Callable[[Any], Message]] = {}
_SEEN: dict[int, tuple[Any, bytes]] | None = None
"""Inside ``sharing()``: the bytes of each record object serialized so far, by identity."""


@contextlib.contextmanager
def sharing() -> Iterator[None]:
    """Serialize several audiences' views together: records they share (a seat everyone sees
    alike) are looked up once. Only for synchronous use: nothing else serializes meanwhile."""
    global _SEEN
    _SEEN = {}
    try:
        yield
    finally:
        _SEEN = None


def converter(cls: type, desc: Descriptor, leave_out: frozenset[str] = frozenset()) -> Callable[[Any], Message]:
    """The generated function from a record of ``cls`` to a message of ``desc`` (fields in ``leave_out`` skipped)."""
    key = (cls, desc.full_name + "|" + ",".join(sorted(leave_out)))
    found = _CONVERTERS.get(key)
    if found is not None:
        return found
    hints = _hints(cls)
    gen = _Codegen()
    args = []
    for f in dataclasses.fields(cls):
        if f.name in leave_out:
            continue
        fd = desc.fields_by_name.get(f.name)
        if fd is None:
            raise TypeError(f"{desc.full_name} has no field {f.name!r} for {cls.__name__}")
        args.append(f"{f.name}={gen.field('o.' + f.name, hints[f.name], fd)}")
    gen.names["_M"] = GetMessageClass(desc)
    source = f"def convert(o):\n    return _M({', '.join(args)})\n"
    exec(compile(source, f"<wire {cls.__name__}>", "exec"), gen.names)
    made: Callable[[Any], Message] = gen.names["convert"]
    _CONVERTERS[key] = made
    return made


def message_for(obj: Any, desc: Descriptor) -> Message:
    """``obj`` (a frozen record, or an engine Action) as a message of type ``desc``."""
    if type(obj) is Action:
        return action_message(obj)
    return converter(type(obj), desc)(obj)


M = TypeVar("M", bound=Message)


def message(obj: Any, cls: type[M]) -> M:
    out = message_for(obj, typing.cast(Descriptor, cls.DESCRIPTOR))
    assert isinstance(out, cls)
    return out


# -- straight to bytes -------------------------------------------------------------------------
def _encode_varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


_SMALL = [_encode_varint(n) for n in range(1 << 14)]
"""Varints below 16384, ready made: every length and most numbers a table sends."""


def varint(n: int) -> bytes:
    return _SMALL[n] if n < 16384 else _encode_varint(n)


def field_bytes(number: int, payload: bytes) -> bytes:
    """A length-delimited protobuf field: how repeated and nested messages are laid out.

    A message's serialization may be spliced together from its fields' in any order, and a
    parser reads it as one message: what lets a view share its parts' bytes.
    """
    return _SMALL[number << 3 | 2] + varint(len(payload)) + payload


_ENCODERS: dict[tuple[type, str], Callable[[Any], bytes]] = {}
MEMO_SIZE = 2048
"""Serialized records remembered per record type, by value; past it, the oldest goes. A record is met again at
the next change of its table, a few hundred changes later in a busy process, so a few thousand are enough: 2,048
serialize a change's views as fast as 16,384 did (``make bench ARGS="--only views"``: x0.58 of whole messages,
against x0.57), and the memos, each holding its records alive, hold an eighth of what they did (a table worker
grew 9 MB an hour through a night as they filled: bench/marks.md, "A night on a small host"; see ``MEMO_TOTAL``)."""
MEMO_TOTAL = 16384
"""Records remembered by every memo together. Past it, a memo makes room in itself (the one a new record type
starts takes from the largest), so the memos stop growing once the frequent types have filled theirs, not hours
later when the rarest has."""
_MEMOS: list[collections.OrderedDict[Any, bytes]] = []
"""Every encoder's memo, so that ``forget`` reaches them all."""
_HELD = [0]
"""Records the memos hold together."""


def forget() -> None:
    """Drop every serialized record remembered so far (for measuring from cold)."""
    for memo in _MEMOS:
        memo.clear()
    _HELD[0] = 0


def _remembered(encode: Callable[[Any], bytes], shared: bool = True) -> Callable[[Any], bytes]:
    """``encode``, remembering its bytes by the (frozen, hence hashable) value it was given.

    A change at a table alters a seat or two: every other seat, in every audience's view,
    is the same record value as before and costs a lookup, not a serialization. Inside
    ``sharing()`` a ``shared`` record object that several audiences' views hold is looked up once.
    """
    memo: collections.OrderedDict[Any, bytes] = collections.OrderedDict()
    _MEMOS.append(memo)

    def by_value(key: Any) -> bytes:
        try:
            hit = memo.get(key)
        except TypeError:  # a record holding a mapping is not hashable: serialized each time
            return encode(key)
        if hit is None:
            if len(memo) >= MEMO_SIZE:
                memo.popitem(last=False)  # the oldest, one at a time: no pause to clear a batch
            elif _HELD[0] >= MEMO_TOTAL:
                (memo if memo else max(_MEMOS, key=len)).popitem(last=False)
            else:
                _HELD[0] += 1
            hit = memo[key] = encode(key)
        return hit

    if not shared:
        return by_value

    def run(key: Any) -> bytes:
        seen = _SEEN
        if seen is None:
            return by_value(key)
        hit = seen.get(id(key))
        if hit is None or hit[0] is not key:
            hit = seen[id(key)] = (key, by_value(key))
        return hit[1]

    return run


def _action_bytes(action: Action) -> bytes:
    return action_message(action).SerializeToString()


def _nested(hint: Any, fd: FieldDescriptor) -> tuple[str, Any] | None:
    """How a field holding records is spliced in: (``one``/``maybe``/``many``, the record type), or None."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    kind = "one"
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        hint, kind = next(a for a in args if a is not type(None)), "maybe"
    elif origin is tuple:
        hint, kind = args[0], "many"
    if fd.message_type is None or not (hint is Action or (isinstance(hint, type) and dataclasses.is_dataclass(hint))):
        return None
    return kind, hint


def encoder(cls: type, desc: Descriptor, leave_out: frozenset[str] = frozenset(),
            remember: bool = True) -> Callable[[Any], bytes]:
    """A record of ``cls`` serialized as a message of ``desc``, the same message ``converter`` makes.

    Its plain fields go through the converter; each nested record is serialized on its own
    and its bytes spliced in, remembered by value (see ``_remembered``), so a record that
    several audiences' views, or several changes, hold alike is serialized once. Unless
    ``remember`` is false, the record's own bytes are remembered too (not worth it for what
    happens once, such as an event).
    """
    key = (cls, desc.full_name + "|" + ",".join(sorted(leave_out)) + ("" if remember else "|once"))
    found = _ENCODERS.get(key)
    if found is not None:
        return found
    hints = _hints(cls)
    names: dict[str, Any] = {"_join": b"".join, "_len": varint}
    lines = []
    plain = set(leave_out)
    for f in dataclasses.fields(cls):
        if f.name in leave_out:
            continue
        fd = desc.fields_by_name[f.name]
        nested = _nested(hints[f.name], fd)
        if nested is None:
            continue
        plain.add(f.name)
        kind, inner = nested
        enc = _action_bytes if inner is Action else encoder(inner, message_type(fd))
        names[f"_e{fd.number}"], names[f"_t{fd.number}"] = enc, _SMALL[fd.number << 3 | 2]
        put = f"b = _e{fd.number}(x); out += (_t{fd.number}, _len(len(b)), b)"
        if kind == "many":
            lines.append(f"    for x in o.{f.name}:\n        {put}")
        elif kind == "maybe":
            lines.append(f"    x = o.{f.name}\n    if x is not None:\n        {put}")
        else:
            lines.append(f"    x = o.{f.name}\n    {put}")
    convert = converter(cls, desc, frozenset(plain))
    rest = tuple(f.name for f in dataclasses.fields(cls) if f.name not in plain)
    names["_plain"] = _remembered(lambda o: convert(o).SerializeToString(), shared=False)
    names["_Rest"] = collections.namedtuple("_Rest", rest)  # the plain fields alone, hashable
    source = f"def encode(o):\n    out = [_plain(_Rest({', '.join(f'o.{n}' for n in rest)}))]\n"
    source += "\n".join(lines) + "\n    return _join(out)\n"
    exec(compile(source, f"<bytes {cls.__name__}>", "exec"), names)
    made: Callable[[Any], bytes] = names["encode"]
    if leave_out or not remember:  # a view's game part differs by audience: its nested records repeat
        _ENCODERS[key] = made
    else:
        made = _ENCODERS[key] = _remembered(made)
    return made


# -- views ----------------------------------------------------------------------------------
_VIEW = table_pb2.View.DESCRIPTOR
_COMMON = frozenset(
    f.name for f in _VIEW.fields if f.containing_oneof is None or f.containing_oneof.name != "game"
) - {"legal", "deadline_ms", "seats"}
_FAMILY: dict[str, FieldDescriptor] = {message_type(f).name: f for f in _VIEW.oneofs_by_name["game"].fields}
_VIEW_PLANS: dict[type, tuple[str, Callable[[Any], Message], tuple[str, ...]]] = {}


def _view_plan(cls: type) -> tuple[str, Callable[[Any], Message], tuple[str, ...]]:
    plan = _VIEW_PLANS.get(cls)
    if plan is None:
        family = _FAMILY.get(cls.__name__)
        if family is None:
            raise TypeError(f"View has no game message named {cls.__name__}")
        names = tuple(f.name for f in dataclasses.fields(cls))
        common = tuple(n for n in names if n in _COMMON)
        plan = _VIEW_PLANS[cls] = family.name, converter(cls, message_type(family), frozenset(common)), common
    return plan


def view_message(
    view: GameView | None,
    legal: Sequence[Action] = (),
    deadline_ms: int = 0,
    seats: Iterable[common_pb2.SeatSummary] = (),
) -> table_pb2.View:
    """A seat's (or a spectator's) view for the wire; ``None`` before the first deal."""
    if view is None:
        return table_pb2.View(legal=legal_messages(legal), deadline_ms=deadline_ms, seats=seats,
                              waiting=table_pb2.Waiting())
    name, family, common = _view_plan(type(view))
    kw: dict[str, Any] = {key: getattr(view, key) for key in common}
    kw[name] = family(view)
    return table_pb2.View(legal=legal_messages(legal), deadline_ms=deadline_ms, seats=seats, **kw)


_BYTES_PLANS: dict[type, tuple[bytes, Callable[[Any], bytes], tuple[str, ...]]] = {}
_LEGAL = _VIEW.fields_by_name["legal"].number


def view_bytes(view: GameView, legal: Sequence[Action], deadline_ms: int, seats: bytes) -> bytes:
    """``view_message(...).SerializeToString()`` with ``seats`` already serialized, built from
    its parts' bytes (see ``encoder``): every change serializes each audience's view."""
    plan = _BYTES_PLANS.get(type(view))
    if plan is None:
        name, _, common = _view_plan(type(view))
        family = _VIEW.fields_by_name[name]
        encode = encoder(type(view), message_type(family), frozenset(common))
        plan = _BYTES_PLANS[type(view)] = _SMALL[family.number << 3 | 2], encode, common
    tag, encode, common = plan
    kw: dict[str, Any] = {key: getattr(view, key) for key in common}
    body = encode(view)
    head = table_pb2.View(deadline_ms=deadline_ms, **kw).SerializeToString()
    return b"".join((head, tag, varint(len(body)), body, _legal_bytes(tuple(legal)) if legal else b"", seats))


@partial(_remembered, shared=False)
def _legal_bytes(legal: tuple[Action, ...]) -> bytes:
    return b"".join(field_bytes(_LEGAL, m.SerializeToString()) for m in legal_messages(legal))


# -- events ---------------------------------------------------------------------------------
def _event_paths() -> dict[str, tuple[str, ...]]:
    """Message name → the oneof path to it from ``Event`` (``("cacho", "showed")``)."""
    out: dict[str, tuple[str, ...]] = {}
    for f in table_pb2.Event.DESCRIPTOR.oneofs_by_name["body"].fields:
        inner = message_type(f).oneofs_by_name.get("body")
        if inner is None:
            out[message_type(f).name] = (f.name,)
        else:
            for g in inner.fields:
                out[message_type(g).name] = (f.name, g.name)
    return out


_PATHS = _event_paths()


_EVENT_PLANS: dict[type, tuple[tuple[str, ...], Descriptor]] = {}


def _event_plan(cls: type) -> tuple[tuple[str, ...], Descriptor]:
    plan = _EVENT_PLANS.get(cls)
    if plan is None:
        path = _PATHS.get(cls.__name__)
        if path is None:
            raise TypeError(f"Event has no message named {cls.__name__}")
        desc = table_pb2.Event.DESCRIPTOR
        for name in path:
            desc = message_type(desc.fields_by_name[name])
        plan = _EVENT_PLANS[cls] = path, desc
    return plan


_BODY_PLANS: dict[type, tuple[tuple[int, ...], Callable[[Any], bytes]]] = {}


def event_body(body: EventBody) -> bytes:
    """An event's body as it lies in an ``Event`` message: its field in the ``body`` oneof (in
    its family's message, for a game's own event). Serialized once, whatever number, audience
    or replay mark it later goes out with (see ``event_bytes``)."""
    plan = _BODY_PLANS.get(type(body))
    if plan is None:
        path, desc = _event_plan(type(body))
        outer, numbers = table_pb2.Event.DESCRIPTOR, []
        for name in path:
            fd = outer.fields_by_name[name]
            numbers.append(fd.number)
            outer = message_type(fd)
        plan = _BODY_PLANS[type(body)] = tuple(reversed(numbers)), encoder(type(body), desc, remember=False)
    numbers_out, encode = plan
    out = encode(body)
    for number in numbers_out:  # innermost first: the game family's field, then the Event's
        out = field_bytes(number, out)
    return out


_EVENT = table_pb2.Event.DESCRIPTOR.fields_by_name
_SEQ_TAG = _SMALL[_EVENT["seq"].number << 3]
_REPLAY = _SMALL[_EVENT["replay"].number << 3] + _SMALL[1]
HIDDEN = field_bytes(_EVENT["hidden"].number, b"")
"""The body of an event its receiver may not see: a content-free placeholder."""


def event_bytes(seq: int, body: bytes, replay: bool = False) -> bytes:
    """An ``Event`` message, serialized, from its number and its body's bytes (``event_body``, or ``HIDDEN``)."""
    return b"".join((_SEQ_TAG, varint(seq), _REPLAY if replay else b"", body))


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


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """A record class's resolved field types (resolving them is slow: once per class)."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


Reader = Callable[[Message], Any]
_PLANS: dict[tuple[type, Descriptor, bool], tuple[tuple[str, bool, Reader], ...]] = {}
"""How to read each record class back from a message: per field, its name, whether a view's common
part holds it, and its reader (made once per class and message: the field types are read by
reflection, slow at every record of thousands of random hands)."""


def record(msg: Message, cls: type[R]) -> R:
    """A message back as the engine record ``cls``: the inverse of ``message``."""
    plan = _plan(cls, typing.cast(Descriptor, msg.DESCRIPTOR), False)
    return cls(**{name: read(msg) for name, _common, read in plan})


def _plan(cls: type, desc: Descriptor, view: bool) -> tuple[tuple[str, bool, Reader], ...]:
    """``cls``'s fields read from ``desc`` (for a view, its common fields from ``View`` itself)."""
    plan = _PLANS.get((cls, desc, view))
    if plan is None:
        hints = _hints(cls)
        steps = []
        for f in dataclasses.fields(cls):
            common = view and f.name in _COMMON
            fd = (_VIEW if common else desc).fields_by_name[f.name]
            steps.append((f.name, common, _reader(f.name, hints[f.name], fd)))
        plan = _PLANS[cls, desc, view] = tuple(steps)
    return plan


def _reader(name: str, hint: Any, fd: FieldDescriptor) -> Reader:
    """The field ``name`` of a message, as the record's type ``hint`` holds it."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        inner = _reader(name, next(a for a in args if a is not type(None)), fd)
        if not fd.has_presence:
            return inner
        return lambda msg: inner(msg) if msg.HasField(name) else None
    if origin is tuple:
        item = _converter(args[0], fd)
        return lambda msg: tuple([item(v) for v in getattr(msg, name)])
    if origin is not None and issubclass(origin, Mapping):
        key, value = args[0], _converter(args[1], message_type(fd).fields_by_name["value"])
        return lambda msg: {key(k): value(v) for k, v in getattr(msg, name).items()}
    one = _converter(hint, fd)
    return lambda msg: one(getattr(msg, name))


def _as_is(value: Any) -> Any:
    return value


def _converter(hint: Any, fd: FieldDescriptor) -> Callable[[Any], Any]:
    """One wire value (a field's, or one of a repeated field's) as the record's type ``hint``."""
    if hint is Card:
        return Card.parse
    if hint is Action:
        return action_of
    if fd.type == FieldDescriptor.TYPE_ENUM:
        desc = enum_type(fd)
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            return lambda number: hint(enum_value(desc, number))
        return lambda number: enum_value(desc, number)
    if dataclasses.is_dataclass(hint):
        return lambda msg: record(msg, hint)  # type: ignore[arg-type]
    return _as_is


def view_record(msg: table_pb2.View, cls: type[R]) -> R:
    """A wire view back as the engine's view record (the inverse of ``view_message``)."""
    family = msg.WhichOneof("game")
    assert family is not None
    inner = getattr(msg, family)
    return cls(**{name: read(msg if common else inner) for name, common, read in _plan(cls, inner.DESCRIPTOR, True)})


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
        default=option_value(spec, spec.default), help=spec.help, values=spec.values,
    )


# -- the lobby's summaries ------------------------------------------------------------------
def seat_summary(seat: SeatSummary) -> common_pb2.SeatSummary:
    return common_pb2.SeatSummary(seat=seat.seat, name=seat.name, bot=seat.bot, taken=seat.taken, team=seat.team,
                                  away=seat.away, bot_level=seat.bot_level)


def table_summary(summary: TableSummary) -> common_pb2.TableSummary:
    """A table as the lobby lists it: its record (``Table.summary``) for the wire."""
    return common_pb2.TableSummary(
        id=summary.id,
        game=summary.game,
        name=summary.name,
        seats=[seat_summary(seat) for seat in summary.seats],
        spectators=summary.spectators,
        options={spec.name: option_value(spec, value) for spec, value in summary.options},
        has_password=summary.has_password,
        private=summary.private,
        status=common_pb2.TableStatus.Value(f"TABLE_STATUS_{summary.status.value.upper()}"),
        turn_seconds=summary.turn_seconds,
        delayed_spectator_view=summary.delayed_spectator_view,
        played_people=summary.played_people,
        played_bots=summary.played_bots,
        tournament_id=summary.tournament_id,
        tournament_round=summary.tournament_round,
        no_cuts=summary.no_cuts,
    )

# -- sentences as message ids ---------------------------------------------------------------
PROBLEM_METADATA = "cardtui-problem-bin"
"""The trailing metadata key of a refusal's ``Problem`` (binary: the key ends in ``-bin``)."""


def problem(template: str, args: Mapping[str, str] | None = None) -> common_pb2.Problem:
    """A sentence as its English template (the message id) and its named arguments."""
    return common_pb2.Problem(id=template, args=dict(args or {}))


def problem_metadata(template: str, args: Mapping[str, str] | None = None) -> tuple[tuple[str, bytes], ...]:
    """A refusal's ``Problem`` as trailing metadata, beside the English sentence in the details."""
    return ((PROBLEM_METADATA, problem(template, args).SerializeToString()),)
