from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ActionType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ACTION_TYPE_UNSPECIFIED: _ClassVar[ActionType]
    ACTION_TYPE_PASS: _ClassVar[ActionType]
    ACTION_TYPE_BET: _ClassVar[ActionType]
    ACTION_TYPE_CHECK: _ClassVar[ActionType]
    ACTION_TYPE_CALL: _ClassVar[ActionType]
    ACTION_TYPE_RAISE: _ClassVar[ActionType]
    ACTION_TYPE_FOLD: _ClassVar[ActionType]
    ACTION_TYPE_DRAW: _ClassVar[ActionType]
    ACTION_TYPE_DISCARD: _ClassVar[ActionType]
    ACTION_TYPE_KNOCK: _ClassVar[ActionType]
    ACTION_TYPE_CLAIM: _ClassVar[ActionType]
    ACTION_TYPE_DECLARE: _ClassVar[ActionType]
    ACTION_TYPE_CUT: _ClassVar[ActionType]
    ACTION_TYPE_PLAY: _ClassVar[ActionType]
    ACTION_TYPE_SIGNAL: _ClassVar[ActionType]
    ACTION_TYPE_TRUCO: _ClassVar[ActionType]
    ACTION_TYPE_KEEP: _ClassVar[ActionType]
    ACTION_TYPE_PASS_CARDS: _ClassVar[ActionType]
    ACTION_TYPE_REJECT: _ClassVar[ActionType]
    ACTION_TYPE_PLAY_DOWN: _ClassVar[ActionType]
    ACTION_TYPE_PLAY_BLIND: _ClassVar[ActionType]
    ACTION_TYPE_SEIS: _ClassVar[ActionType]
    ACTION_TYPE_NOVE: _ClassVar[ActionType]
    ACTION_TYPE_DOZE: _ClassVar[ActionType]
    ACTION_TYPE_ACCEPT: _ClassVar[ActionType]
    ACTION_TYPE_RUN: _ClassVar[ActionType]
    ACTION_TYPE_RETRUCO: _ClassVar[ActionType]
    ACTION_TYPE_VALE_CUATRO: _ClassVar[ActionType]
    ACTION_TYPE_QUIERO: _ClassVar[ActionType]
    ACTION_TYPE_NO_QUIERO: _ClassVar[ActionType]
    ACTION_TYPE_ENVIDO: _ClassVar[ActionType]
    ACTION_TYPE_REAL_ENVIDO: _ClassVar[ActionType]
    ACTION_TYPE_FALTA_ENVIDO: _ClassVar[ActionType]
    ACTION_TYPE_ANNOUNCE: _ClassVar[ActionType]
    ACTION_TYPE_SON_BUENAS: _ClassVar[ActionType]
    ACTION_TYPE_FLOR: _ClassVar[ActionType]
    ACTION_TYPE_CON_FLOR_ME_ACHICO: _ClassVar[ActionType]
    ACTION_TYPE_CONTRA_FLOR: _ClassVar[ActionType]
    ACTION_TYPE_CONTRA_FLOR_AL_RESTO: _ClassVar[ActionType]
    ACTION_TYPE_MAZO: _ClassVar[ActionType]

class Signal(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SIGNAL_UNSPECIFIED: _ClassVar[Signal]
    SIGNAL_EYEBROW: _ClassVar[Signal]
    SIGNAL_WINK: _ClassVar[Signal]
    SIGNAL_LIPS_ASIDE: _ClassVar[Signal]
    SIGNAL_BITE_LIP: _ClassVar[Signal]
    SIGNAL_KISS: _ClassVar[Signal]
    SIGNAL_OPEN_MOUTH: _ClassVar[Signal]
    SIGNAL_CLOSE_EYES: _ClassVar[Signal]
    SIGNAL_TILT_HEAD: _ClassVar[Signal]

class DrawSource(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DRAW_SOURCE_UNSPECIFIED: _ClassVar[DrawSource]
    DRAW_SOURCE_STOCK: _ClassVar[DrawSource]
    DRAW_SOURCE_PILE: _ClassVar[DrawSource]

class TableStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TABLE_STATUS_UNSPECIFIED: _ClassVar[TableStatus]
    TABLE_STATUS_WAITING: _ClassVar[TableStatus]
    TABLE_STATUS_PLAYING: _ClassVar[TableStatus]
    TABLE_STATUS_FINISHED: _ClassVar[TableStatus]
ACTION_TYPE_UNSPECIFIED: ActionType
ACTION_TYPE_PASS: ActionType
ACTION_TYPE_BET: ActionType
ACTION_TYPE_CHECK: ActionType
ACTION_TYPE_CALL: ActionType
ACTION_TYPE_RAISE: ActionType
ACTION_TYPE_FOLD: ActionType
ACTION_TYPE_DRAW: ActionType
ACTION_TYPE_DISCARD: ActionType
ACTION_TYPE_KNOCK: ActionType
ACTION_TYPE_CLAIM: ActionType
ACTION_TYPE_DECLARE: ActionType
ACTION_TYPE_CUT: ActionType
ACTION_TYPE_PLAY: ActionType
ACTION_TYPE_SIGNAL: ActionType
ACTION_TYPE_TRUCO: ActionType
ACTION_TYPE_KEEP: ActionType
ACTION_TYPE_PASS_CARDS: ActionType
ACTION_TYPE_REJECT: ActionType
ACTION_TYPE_PLAY_DOWN: ActionType
ACTION_TYPE_PLAY_BLIND: ActionType
ACTION_TYPE_SEIS: ActionType
ACTION_TYPE_NOVE: ActionType
ACTION_TYPE_DOZE: ActionType
ACTION_TYPE_ACCEPT: ActionType
ACTION_TYPE_RUN: ActionType
ACTION_TYPE_RETRUCO: ActionType
ACTION_TYPE_VALE_CUATRO: ActionType
ACTION_TYPE_QUIERO: ActionType
ACTION_TYPE_NO_QUIERO: ActionType
ACTION_TYPE_ENVIDO: ActionType
ACTION_TYPE_REAL_ENVIDO: ActionType
ACTION_TYPE_FALTA_ENVIDO: ActionType
ACTION_TYPE_ANNOUNCE: ActionType
ACTION_TYPE_SON_BUENAS: ActionType
ACTION_TYPE_FLOR: ActionType
ACTION_TYPE_CON_FLOR_ME_ACHICO: ActionType
ACTION_TYPE_CONTRA_FLOR: ActionType
ACTION_TYPE_CONTRA_FLOR_AL_RESTO: ActionType
ACTION_TYPE_MAZO: ActionType
SIGNAL_UNSPECIFIED: Signal
SIGNAL_EYEBROW: Signal
SIGNAL_WINK: Signal
SIGNAL_LIPS_ASIDE: Signal
SIGNAL_BITE_LIP: Signal
SIGNAL_KISS: Signal
SIGNAL_OPEN_MOUTH: Signal
SIGNAL_CLOSE_EYES: Signal
SIGNAL_TILT_HEAD: Signal
DRAW_SOURCE_UNSPECIFIED: DrawSource
DRAW_SOURCE_STOCK: DrawSource
DRAW_SOURCE_PILE: DrawSource
TABLE_STATUS_UNSPECIFIED: TableStatus
TABLE_STATUS_WAITING: TableStatus
TABLE_STATUS_PLAYING: TableStatus
TABLE_STATUS_FINISHED: TableStatus

class Action(_message.Message):
    __slots__ = ("type", "cards", "chips", "max_chips", "position", "points", "signal", "source")
    TYPE_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    CHIPS_FIELD_NUMBER: _ClassVar[int]
    MAX_CHIPS_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    SIGNAL_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    type: ActionType
    cards: _containers.RepeatedScalarFieldContainer[str]
    chips: int
    max_chips: int
    position: int
    points: int
    signal: Signal
    source: DrawSource
    def __init__(self, type: _Optional[_Union[ActionType, str]] = ..., cards: _Optional[_Iterable[str]] = ..., chips: _Optional[int] = ..., max_chips: _Optional[int] = ..., position: _Optional[int] = ..., points: _Optional[int] = ..., signal: _Optional[_Union[Signal, str]] = ..., source: _Optional[_Union[DrawSource, str]] = ...) -> None: ...

class OptionValue(_message.Message):
    __slots__ = ("flag", "number", "fraction", "choice")
    FLAG_FIELD_NUMBER: _ClassVar[int]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    FRACTION_FIELD_NUMBER: _ClassVar[int]
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    flag: bool
    number: int
    fraction: float
    choice: str
    def __init__(self, flag: _Optional[bool] = ..., number: _Optional[int] = ..., fraction: _Optional[float] = ..., choice: _Optional[str] = ...) -> None: ...

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
    __slots__ = ("id", "game", "name", "seats", "spectators", "options", "has_password", "private", "status", "turn_seconds")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: OptionValue
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[OptionValue, _Mapping]] = ...) -> None: ...
    ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SPECTATORS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    HAS_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    PRIVATE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TURN_SECONDS_FIELD_NUMBER: _ClassVar[int]
    id: str
    game: str
    name: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatSummary]
    spectators: int
    options: _containers.MessageMap[str, OptionValue]
    has_password: bool
    private: bool
    status: TableStatus
    turn_seconds: int
    def __init__(self, id: _Optional[str] = ..., game: _Optional[str] = ..., name: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatSummary, _Mapping]]] = ..., spectators: _Optional[int] = ..., options: _Optional[_Mapping[str, OptionValue]] = ..., has_password: _Optional[bool] = ..., private: _Optional[bool] = ..., status: _Optional[_Union[TableStatus, str]] = ..., turn_seconds: _Optional[int] = ...) -> None: ...
