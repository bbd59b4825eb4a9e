from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CachoSeatStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CACHO_SEAT_STATUS_UNSPECIFIED: _ClassVar[CachoSeatStatus]
    CACHO_SEAT_STATUS_IN: _ClassVar[CachoSeatStatus]
    CACHO_SEAT_STATUS_PASSED: _ClassVar[CachoSeatStatus]
    CACHO_SEAT_STATUS_WAITING: _ClassVar[CachoSeatStatus]
    CACHO_SEAT_STATUS_BUST: _ClassVar[CachoSeatStatus]

class CachoCategory(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CACHO_CATEGORY_UNSPECIFIED: _ClassVar[CachoCategory]
    CACHO_CATEGORY_HIGH: _ClassVar[CachoCategory]
    CACHO_CATEGORY_TWO_SUITED: _ClassVar[CachoCategory]
    CACHO_CATEGORY_CACHO: _ClassVar[CachoCategory]
    CACHO_CATEGORY_SIXES: _ClassVar[CachoCategory]
CACHO_SEAT_STATUS_UNSPECIFIED: CachoSeatStatus
CACHO_SEAT_STATUS_IN: CachoSeatStatus
CACHO_SEAT_STATUS_PASSED: CachoSeatStatus
CACHO_SEAT_STATUS_WAITING: CachoSeatStatus
CACHO_SEAT_STATUS_BUST: CachoSeatStatus
CACHO_CATEGORY_UNSPECIFIED: CachoCategory
CACHO_CATEGORY_HIGH: CachoCategory
CACHO_CATEGORY_TWO_SUITED: CachoCategory
CACHO_CATEGORY_CACHO: CachoCategory
CACHO_CATEGORY_SIXES: CachoCategory

class CachoStrength(_message.Message):
    __slots__ = ("category", "points")
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    category: CachoCategory
    points: int
    def __init__(self, category: _Optional[_Union[CachoCategory, str]] = ..., points: _Optional[int] = ...) -> None: ...

class CachoSeat(_message.Message):
    __slots__ = ("seat", "name", "chips", "put", "status", "cards", "card_count", "strength")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CHIPS_FIELD_NUMBER: _ClassVar[int]
    PUT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    CARD_COUNT_FIELD_NUMBER: _ClassVar[int]
    STRENGTH_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    chips: int
    put: int
    status: CachoSeatStatus
    cards: _containers.RepeatedScalarFieldContainer[str]
    card_count: int
    strength: CachoStrength
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ..., chips: _Optional[int] = ..., put: _Optional[int] = ..., status: _Optional[_Union[CachoSeatStatus, str]] = ..., cards: _Optional[_Iterable[str]] = ..., card_count: _Optional[int] = ..., strength: _Optional[_Union[CachoStrength, _Mapping]] = ...) -> None: ...

class CachoShowing(_message.Message):
    __slots__ = ("seat", "cards", "strength")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    STRENGTH_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    strength: CachoStrength
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., strength: _Optional[_Union[CachoStrength, _Mapping]] = ...) -> None: ...

class CachoResult(_message.Message):
    __slots__ = ("deltas", "winner", "showdown", "pot")
    DELTAS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    SHOWDOWN_FIELD_NUMBER: _ClassVar[int]
    POT_FIELD_NUMBER: _ClassVar[int]
    deltas: _containers.RepeatedScalarFieldContainer[int]
    winner: int
    showdown: _containers.RepeatedCompositeFieldContainer[CachoShowing]
    pot: int
    def __init__(self, deltas: _Optional[_Iterable[int]] = ..., winner: _Optional[int] = ..., showdown: _Optional[_Iterable[_Union[CachoShowing, _Mapping]]] = ..., pot: _Optional[int] = ...) -> None: ...

class CachoView(_message.Message):
    __slots__ = ("round", "pot", "level", "cap", "seats", "result")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    POT_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    CAP_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    round: int
    pot: int
    level: int
    cap: int
    seats: _containers.RepeatedCompositeFieldContainer[CachoSeat]
    result: CachoResult
    def __init__(self, round: _Optional[int] = ..., pot: _Optional[int] = ..., level: _Optional[int] = ..., cap: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[CachoSeat, _Mapping]]] = ..., result: _Optional[_Union[CachoResult, _Mapping]] = ...) -> None: ...

class CachoRoundDealt(_message.Message):
    __slots__ = ("round", "seats")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    round: int
    seats: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, round: _Optional[int] = ..., seats: _Optional[_Iterable[int]] = ...) -> None: ...

class CachoRedealt(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class CachoShowed(_message.Message):
    __slots__ = ("seat", "cards", "strength")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    STRENGTH_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    strength: CachoStrength
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., strength: _Optional[_Union[CachoStrength, _Mapping]] = ...) -> None: ...

class CachoPotWon(_message.Message):
    __slots__ = ("seat", "chips", "showdown")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CHIPS_FIELD_NUMBER: _ClassVar[int]
    SHOWDOWN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    chips: int
    showdown: bool
    def __init__(self, seat: _Optional[int] = ..., chips: _Optional[int] = ..., showdown: _Optional[bool] = ...) -> None: ...

class CachoEvent(_message.Message):
    __slots__ = ("round_dealt", "redealt", "showed", "pot_won")
    ROUND_DEALT_FIELD_NUMBER: _ClassVar[int]
    REDEALT_FIELD_NUMBER: _ClassVar[int]
    SHOWED_FIELD_NUMBER: _ClassVar[int]
    POT_WON_FIELD_NUMBER: _ClassVar[int]
    round_dealt: CachoRoundDealt
    redealt: CachoRedealt
    showed: CachoShowed
    pot_won: CachoPotWon
    def __init__(self, round_dealt: _Optional[_Union[CachoRoundDealt, _Mapping]] = ..., redealt: _Optional[_Union[CachoRedealt, _Mapping]] = ..., showed: _Optional[_Union[CachoShowed, _Mapping]] = ..., pot_won: _Optional[_Union[CachoPotWon, _Mapping]] = ...) -> None: ...
