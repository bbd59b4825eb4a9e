from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Action(_message.Message):
    __slots__ = ("type", "amount", "cards", "value", "max_amount")
    TYPE_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    MAX_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    type: str
    amount: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    value: str
    max_amount: int
    def __init__(self, type: _Optional[str] = ..., amount: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., value: _Optional[str] = ..., max_amount: _Optional[int] = ...) -> None: ...

class SeatSummary(_message.Message):
    __slots__ = ("seat", "name", "bot", "taken", "team", "away")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    AWAY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    bot: bool
    taken: bool
    team: int
    away: bool
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ..., bot: _Optional[bool] = ..., taken: _Optional[bool] = ..., team: _Optional[int] = ..., away: _Optional[bool] = ...) -> None: ...

class TableSummary(_message.Message):
    __slots__ = ("id", "game", "name", "seats", "spectators", "options_json", "has_password", "private", "status")
    ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SPECTATORS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    HAS_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    PRIVATE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    id: str
    game: str
    name: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatSummary]
    spectators: int
    options_json: str
    has_password: bool
    private: bool
    status: str
    def __init__(self, id: _Optional[str] = ..., game: _Optional[str] = ..., name: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatSummary, _Mapping]]] = ..., spectators: _Optional[int] = ..., options_json: _Optional[str] = ..., has_password: _Optional[bool] = ..., private: _Optional[bool] = ..., status: _Optional[str] = ...) -> None: ...
