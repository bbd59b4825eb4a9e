from cardtui.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RummyPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RUMMY_PHASE_UNSPECIFIED: _ClassVar[RummyPhase]
    RUMMY_PHASE_BETTING: _ClassVar[RummyPhase]
    RUMMY_PHASE_DRAW: _ClassVar[RummyPhase]
    RUMMY_PHASE_DISCARD: _ClassVar[RummyPhase]
    RUMMY_PHASE_CLAIM: _ClassVar[RummyPhase]
    RUMMY_PHASE_KNOCK: _ClassVar[RummyPhase]
    RUMMY_PHASE_OVER: _ClassVar[RummyPhase]

class RummySeatStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RUMMY_SEAT_STATUS_UNSPECIFIED: _ClassVar[RummySeatStatus]
    RUMMY_SEAT_STATUS_IN: _ClassVar[RummySeatStatus]
    RUMMY_SEAT_STATUS_FOLDED: _ClassVar[RummySeatStatus]
    RUMMY_SEAT_STATUS_OUT: _ClassVar[RummySeatStatus]
    RUMMY_SEAT_STATUS_WAITING: _ClassVar[RummySeatStatus]

class RummyGroupRule(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RUMMY_GROUP_RULE_UNSPECIFIED: _ClassVar[RummyGroupRule]
    RUMMY_GROUP_RULE_EXACTLY3: _ClassVar[RummyGroupRule]
    RUMMY_GROUP_RULE_ATLEAST3: _ClassVar[RummyGroupRule]
RUMMY_PHASE_UNSPECIFIED: RummyPhase
RUMMY_PHASE_BETTING: RummyPhase
RUMMY_PHASE_DRAW: RummyPhase
RUMMY_PHASE_DISCARD: RummyPhase
RUMMY_PHASE_CLAIM: RummyPhase
RUMMY_PHASE_KNOCK: RummyPhase
RUMMY_PHASE_OVER: RummyPhase
RUMMY_SEAT_STATUS_UNSPECIFIED: RummySeatStatus
RUMMY_SEAT_STATUS_IN: RummySeatStatus
RUMMY_SEAT_STATUS_FOLDED: RummySeatStatus
RUMMY_SEAT_STATUS_OUT: RummySeatStatus
RUMMY_SEAT_STATUS_WAITING: RummySeatStatus
RUMMY_GROUP_RULE_UNSPECIFIED: RummyGroupRule
RUMMY_GROUP_RULE_EXACTLY3: RummyGroupRule
RUMMY_GROUP_RULE_ATLEAST3: RummyGroupRule

class RummyMeld(_message.Message):
    __slots__ = ("cards", "wild")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    WILD_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    wild: str
    def __init__(self, cards: _Optional[_Iterable[str]] = ..., wild: _Optional[str] = ...) -> None: ...

class RummyMeldRules(_message.Message):
    __slots__ = ("group_suits", "ace_high", "wild_acts")
    GROUP_SUITS_FIELD_NUMBER: _ClassVar[int]
    ACE_HIGH_FIELD_NUMBER: _ClassVar[int]
    WILD_ACTS_FIELD_NUMBER: _ClassVar[int]
    group_suits: RummyGroupRule
    ace_high: bool
    wild_acts: bool
    def __init__(self, group_suits: _Optional[_Union[RummyGroupRule, str]] = ..., ace_high: _Optional[bool] = ..., wild_acts: _Optional[bool] = ...) -> None: ...

class RummySeat(_message.Message):
    __slots__ = ("seat", "name", "score", "put", "status", "card_count", "declared", "burned", "taken")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    PUT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    CARD_COUNT_FIELD_NUMBER: _ClassVar[int]
    DECLARED_FIELD_NUMBER: _ClassVar[int]
    BURNED_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    score: int
    put: int
    status: RummySeatStatus
    card_count: int
    declared: bool
    burned: bool
    taken: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ..., score: _Optional[int] = ..., put: _Optional[int] = ..., status: _Optional[_Union[RummySeatStatus, str]] = ..., card_count: _Optional[int] = ..., declared: _Optional[bool] = ..., burned: _Optional[bool] = ..., taken: _Optional[_Iterable[str]] = ...) -> None: ...

class RummyWindow(_message.Message):
    __slots__ = ("discarder", "card")
    DISCARDER_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    discarder: int
    card: str
    def __init__(self, discarder: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class RummyKnock(_message.Message):
    __slots__ = ("seat", "melds", "discard", "claimed")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MELDS_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    melds: _containers.RepeatedCompositeFieldContainer[RummyMeld]
    discard: str
    claimed: str
    def __init__(self, seat: _Optional[int] = ..., melds: _Optional[_Iterable[_Union[RummyMeld, _Mapping]]] = ..., discard: _Optional[str] = ..., claimed: _Optional[str] = ...) -> None: ...

class RummyResult(_message.Message):
    __slots__ = ("deltas", "winner", "knock", "eliminated")
    DELTAS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    KNOCK_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    deltas: _containers.RepeatedScalarFieldContainer[int]
    winner: int
    knock: RummyKnock
    eliminated: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, deltas: _Optional[_Iterable[int]] = ..., winner: _Optional[int] = ..., knock: _Optional[_Union[RummyKnock, _Mapping]] = ..., eliminated: _Optional[_Iterable[int]] = ...) -> None: ...

class PifPafBetting(_message.Message):
    __slots__ = ("level", "cap", "min_raise")
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    CAP_FIELD_NUMBER: _ClassVar[int]
    MIN_RAISE_FIELD_NUMBER: _ClassVar[int]
    level: int
    cap: int
    min_raise: int
    def __init__(self, level: _Optional[int] = ..., cap: _Optional[int] = ..., min_raise: _Optional[int] = ...) -> None: ...

class CachetaPlace(_message.Message):
    __slots__ = ("seat", "place", "points", "vp", "gp")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    VP_FIELD_NUMBER: _ClassVar[int]
    GP_FIELD_NUMBER: _ClassVar[int]
    seat: int
    place: int
    points: int
    vp: int
    gp: int
    def __init__(self, seat: _Optional[int] = ..., place: _Optional[int] = ..., points: _Optional[int] = ..., vp: _Optional[int] = ..., gp: _Optional[int] = ...) -> None: ...

class RummyView(_message.Message):
    __slots__ = ("phase", "turn", "rules", "seats", "cards", "melds", "loose", "can_knock", "outs", "drawn", "stock_count", "pile", "window", "answered", "result", "pot", "betting", "flip", "wilds", "standings")
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    MELDS_FIELD_NUMBER: _ClassVar[int]
    LOOSE_FIELD_NUMBER: _ClassVar[int]
    CAN_KNOCK_FIELD_NUMBER: _ClassVar[int]
    OUTS_FIELD_NUMBER: _ClassVar[int]
    DRAWN_FIELD_NUMBER: _ClassVar[int]
    STOCK_COUNT_FIELD_NUMBER: _ClassVar[int]
    PILE_FIELD_NUMBER: _ClassVar[int]
    WINDOW_FIELD_NUMBER: _ClassVar[int]
    ANSWERED_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    POT_FIELD_NUMBER: _ClassVar[int]
    BETTING_FIELD_NUMBER: _ClassVar[int]
    FLIP_FIELD_NUMBER: _ClassVar[int]
    WILDS_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    phase: RummyPhase
    turn: int
    rules: RummyMeldRules
    seats: _containers.RepeatedCompositeFieldContainer[RummySeat]
    cards: _containers.RepeatedScalarFieldContainer[str]
    melds: _containers.RepeatedCompositeFieldContainer[RummyMeld]
    loose: _containers.RepeatedScalarFieldContainer[str]
    can_knock: bool
    outs: _containers.RepeatedScalarFieldContainer[str]
    drawn: str
    stock_count: int
    pile: _containers.RepeatedScalarFieldContainer[str]
    window: RummyWindow
    answered: bool
    result: RummyResult
    pot: int
    betting: PifPafBetting
    flip: str
    wilds: _containers.RepeatedScalarFieldContainer[str]
    standings: _containers.RepeatedCompositeFieldContainer[CachetaPlace]
    def __init__(self, phase: _Optional[_Union[RummyPhase, str]] = ..., turn: _Optional[int] = ..., rules: _Optional[_Union[RummyMeldRules, _Mapping]] = ..., seats: _Optional[_Iterable[_Union[RummySeat, _Mapping]]] = ..., cards: _Optional[_Iterable[str]] = ..., melds: _Optional[_Iterable[_Union[RummyMeld, _Mapping]]] = ..., loose: _Optional[_Iterable[str]] = ..., can_knock: _Optional[bool] = ..., outs: _Optional[_Iterable[str]] = ..., drawn: _Optional[str] = ..., stock_count: _Optional[int] = ..., pile: _Optional[_Iterable[str]] = ..., window: _Optional[_Union[RummyWindow, _Mapping]] = ..., answered: _Optional[bool] = ..., result: _Optional[_Union[RummyResult, _Mapping]] = ..., pot: _Optional[int] = ..., betting: _Optional[_Union[PifPafBetting, _Mapping]] = ..., flip: _Optional[str] = ..., wilds: _Optional[_Iterable[str]] = ..., standings: _Optional[_Iterable[_Union[CachetaPlace, _Mapping]]] = ...) -> None: ...

class RummyDealt(_message.Message):
    __slots__ = ("seats", "count")
    SEATS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedScalarFieldContainer[int]
    count: int
    def __init__(self, seats: _Optional[_Iterable[int]] = ..., count: _Optional[int] = ...) -> None: ...

class RummyDrew(_message.Message):
    __slots__ = ("seat", "source", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    source: _common_pb2.DrawSource
    card: str
    def __init__(self, seat: _Optional[int] = ..., source: _Optional[_Union[_common_pb2.DrawSource, str]] = ..., card: _Optional[str] = ...) -> None: ...

class RummyDrawnCard(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class RummyStockRebuilt(_message.Message):
    __slots__ = ("stock",)
    STOCK_FIELD_NUMBER: _ClassVar[int]
    stock: int
    def __init__(self, stock: _Optional[int] = ...) -> None: ...

class RummyDiscarded(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class RummyWindowOpened(_message.Message):
    __slots__ = ("discarder", "card")
    DISCARDER_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    discarder: int
    card: str
    def __init__(self, discarder: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class RummyWindowClosed(_message.Message):
    __slots__ = ("card", "taken_by")
    CARD_FIELD_NUMBER: _ClassVar[int]
    TAKEN_BY_FIELD_NUMBER: _ClassVar[int]
    card: str
    taken_by: int
    def __init__(self, card: _Optional[str] = ..., taken_by: _Optional[int] = ...) -> None: ...

class RummyKnocked(_message.Message):
    __slots__ = ("seat", "melds", "discard", "claimed")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MELDS_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    melds: _containers.RepeatedCompositeFieldContainer[RummyMeld]
    discard: str
    claimed: str
    def __init__(self, seat: _Optional[int] = ..., melds: _Optional[_Iterable[_Union[RummyMeld, _Mapping]]] = ..., discard: _Optional[str] = ..., claimed: _Optional[str] = ...) -> None: ...

class PifPafAntes(_message.Message):
    __slots__ = ("antes", "pot")
    ANTES_FIELD_NUMBER: _ClassVar[int]
    POT_FIELD_NUMBER: _ClassVar[int]
    antes: _containers.RepeatedScalarFieldContainer[int]
    pot: int
    def __init__(self, antes: _Optional[_Iterable[int]] = ..., pot: _Optional[int] = ...) -> None: ...

class PifPafRebought(_message.Message):
    __slots__ = ("seat", "chips")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CHIPS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    chips: int
    def __init__(self, seat: _Optional[int] = ..., chips: _Optional[int] = ...) -> None: ...

class PifPafPotWon(_message.Message):
    __slots__ = ("seat", "chips", "side", "uncontested")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CHIPS_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    UNCONTESTED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    chips: int
    side: bool
    uncontested: bool
    def __init__(self, seat: _Optional[int] = ..., chips: _Optional[int] = ..., side: _Optional[bool] = ..., uncontested: _Optional[bool] = ...) -> None: ...

class CachetaFlipped(_message.Message):
    __slots__ = ("flip", "wilds")
    FLIP_FIELD_NUMBER: _ClassVar[int]
    WILDS_FIELD_NUMBER: _ClassVar[int]
    flip: str
    wilds: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, flip: _Optional[str] = ..., wilds: _Optional[_Iterable[str]] = ...) -> None: ...

class CachetaDeclared(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class CachetaBurned(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class CachetaEliminated(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class CachetaStandings(_message.Message):
    __slots__ = ("places",)
    PLACES_FIELD_NUMBER: _ClassVar[int]
    places: _containers.RepeatedCompositeFieldContainer[CachetaPlace]
    def __init__(self, places: _Optional[_Iterable[_Union[CachetaPlace, _Mapping]]] = ...) -> None: ...

class RummyEvent(_message.Message):
    __slots__ = ("dealt", "drew", "drawn_card", "stock_rebuilt", "discarded", "window_opened", "window_closed", "knocked", "antes", "rebought", "pot_won", "flipped", "declared", "burned", "eliminated", "standings")
    DEALT_FIELD_NUMBER: _ClassVar[int]
    DREW_FIELD_NUMBER: _ClassVar[int]
    DRAWN_CARD_FIELD_NUMBER: _ClassVar[int]
    STOCK_REBUILT_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    WINDOW_OPENED_FIELD_NUMBER: _ClassVar[int]
    WINDOW_CLOSED_FIELD_NUMBER: _ClassVar[int]
    KNOCKED_FIELD_NUMBER: _ClassVar[int]
    ANTES_FIELD_NUMBER: _ClassVar[int]
    REBOUGHT_FIELD_NUMBER: _ClassVar[int]
    POT_WON_FIELD_NUMBER: _ClassVar[int]
    FLIPPED_FIELD_NUMBER: _ClassVar[int]
    DECLARED_FIELD_NUMBER: _ClassVar[int]
    BURNED_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    dealt: RummyDealt
    drew: RummyDrew
    drawn_card: RummyDrawnCard
    stock_rebuilt: RummyStockRebuilt
    discarded: RummyDiscarded
    window_opened: RummyWindowOpened
    window_closed: RummyWindowClosed
    knocked: RummyKnocked
    antes: PifPafAntes
    rebought: PifPafRebought
    pot_won: PifPafPotWon
    flipped: CachetaFlipped
    declared: CachetaDeclared
    burned: CachetaBurned
    eliminated: CachetaEliminated
    standings: CachetaStandings
    def __init__(self, dealt: _Optional[_Union[RummyDealt, _Mapping]] = ..., drew: _Optional[_Union[RummyDrew, _Mapping]] = ..., drawn_card: _Optional[_Union[RummyDrawnCard, _Mapping]] = ..., stock_rebuilt: _Optional[_Union[RummyStockRebuilt, _Mapping]] = ..., discarded: _Optional[_Union[RummyDiscarded, _Mapping]] = ..., window_opened: _Optional[_Union[RummyWindowOpened, _Mapping]] = ..., window_closed: _Optional[_Union[RummyWindowClosed, _Mapping]] = ..., knocked: _Optional[_Union[RummyKnocked, _Mapping]] = ..., antes: _Optional[_Union[PifPafAntes, _Mapping]] = ..., rebought: _Optional[_Union[PifPafRebought, _Mapping]] = ..., pot_won: _Optional[_Union[PifPafPotWon, _Mapping]] = ..., flipped: _Optional[_Union[CachetaFlipped, _Mapping]] = ..., declared: _Optional[_Union[CachetaDeclared, _Mapping]] = ..., burned: _Optional[_Union[CachetaBurned, _Mapping]] = ..., eliminated: _Optional[_Union[CachetaEliminated, _Mapping]] = ..., standings: _Optional[_Union[CachetaStandings, _Mapping]] = ...) -> None: ...
