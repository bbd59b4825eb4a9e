from cardtui.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SubscribeRequest(_message.Message):
    __slots__ = ("token", "after_seq")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    AFTER_SEQ_FIELD_NUMBER: _ClassVar[int]
    token: str
    after_seq: int
    def __init__(self, token: _Optional[str] = ..., after_seq: _Optional[int] = ...) -> None: ...

class View(_message.Message):
    __slots__ = ("json", "legal", "deadline_ms", "seats")
    JSON_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    json: str
    legal: _containers.RepeatedCompositeFieldContainer[_common_pb2.Action]
    deadline_ms: int
    seats: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatSummary]
    def __init__(self, json: _Optional[str] = ..., legal: _Optional[_Iterable[_Union[_common_pb2.Action, _Mapping]]] = ..., deadline_ms: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[_common_pb2.SeatSummary, _Mapping]]] = ...) -> None: ...

class Snapshot(_message.Message):
    __slots__ = ("table", "seat", "view", "first_seq")
    TABLE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    FIRST_SEQ_FIELD_NUMBER: _ClassVar[int]
    table: _common_pb2.TableSummary
    seat: int
    view: View
    first_seq: int
    def __init__(self, table: _Optional[_Union[_common_pb2.TableSummary, _Mapping]] = ..., seat: _Optional[int] = ..., view: _Optional[_Union[View, _Mapping]] = ..., first_seq: _Optional[int] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("seq", "kind", "seat", "text", "data_json", "replay")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    DATA_JSON_FIELD_NUMBER: _ClassVar[int]
    REPLAY_FIELD_NUMBER: _ClassVar[int]
    seq: int
    kind: str
    seat: int
    text: str
    data_json: str
    replay: bool
    def __init__(self, seq: _Optional[int] = ..., kind: _Optional[str] = ..., seat: _Optional[int] = ..., text: _Optional[str] = ..., data_json: _Optional[str] = ..., replay: _Optional[bool] = ...) -> None: ...

class TableMessage(_message.Message):
    __slots__ = ("seq", "snapshot", "events", "view", "closing")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    CLOSING_FIELD_NUMBER: _ClassVar[int]
    seq: int
    snapshot: Snapshot
    events: _containers.RepeatedCompositeFieldContainer[Event]
    view: View
    closing: Closing
    def __init__(self, seq: _Optional[int] = ..., snapshot: _Optional[_Union[Snapshot, _Mapping]] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., view: _Optional[_Union[View, _Mapping]] = ..., closing: _Optional[_Union[Closing, _Mapping]] = ...) -> None: ...

class Closing(_message.Message):
    __slots__ = ("reason", "resubscribe")
    REASON_FIELD_NUMBER: _ClassVar[int]
    RESUBSCRIBE_FIELD_NUMBER: _ClassVar[int]
    reason: str
    resubscribe: bool
    def __init__(self, reason: _Optional[str] = ..., resubscribe: _Optional[bool] = ...) -> None: ...

class ActRequest(_message.Message):
    __slots__ = ("token", "action", "seen_seq")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    SEEN_SEQ_FIELD_NUMBER: _ClassVar[int]
    token: str
    action: _common_pb2.Action
    seen_seq: int
    def __init__(self, token: _Optional[str] = ..., action: _Optional[_Union[_common_pb2.Action, _Mapping]] = ..., seen_seq: _Optional[int] = ...) -> None: ...

class ActResponse(_message.Message):
    __slots__ = ("seq",)
    SEQ_FIELD_NUMBER: _ClassVar[int]
    seq: int
    def __init__(self, seq: _Optional[int] = ...) -> None: ...

class ChatRequest(_message.Message):
    __slots__ = ("token", "text")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    token: str
    text: str
    def __init__(self, token: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class ChatResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
