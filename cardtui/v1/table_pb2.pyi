from cardtui.v1 import cacho_pb2 as _cacho_pb2
from cardtui.v1 import common_pb2 as _common_pb2
from cardtui.v1 import rummy_pb2 as _rummy_pb2
from cardtui.v1 import truco_pb2 as _truco_pb2
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

class Waiting(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class View(_message.Message):
    __slots__ = ("hand", "dealer", "you", "to_act", "hand_over", "match_over", "waiting", "cacho", "rummy", "truco", "legal", "deadline_ms", "seats")
    HAND_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    YOU_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    HAND_OVER_FIELD_NUMBER: _ClassVar[int]
    MATCH_OVER_FIELD_NUMBER: _ClassVar[int]
    WAITING_FIELD_NUMBER: _ClassVar[int]
    CACHO_FIELD_NUMBER: _ClassVar[int]
    RUMMY_FIELD_NUMBER: _ClassVar[int]
    TRUCO_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    hand: int
    dealer: int
    you: int
    to_act: _containers.RepeatedScalarFieldContainer[int]
    hand_over: bool
    match_over: bool
    waiting: Waiting
    cacho: _cacho_pb2.CachoView
    rummy: _rummy_pb2.RummyView
    truco: _truco_pb2.TrucoView
    legal: _containers.RepeatedCompositeFieldContainer[_common_pb2.Action]
    deadline_ms: int
    seats: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatSummary]
    def __init__(self, hand: _Optional[int] = ..., dealer: _Optional[int] = ..., you: _Optional[int] = ..., to_act: _Optional[_Iterable[int]] = ..., hand_over: _Optional[bool] = ..., match_over: _Optional[bool] = ..., waiting: _Optional[_Union[Waiting, _Mapping]] = ..., cacho: _Optional[_Union[_cacho_pb2.CachoView, _Mapping]] = ..., rummy: _Optional[_Union[_rummy_pb2.RummyView, _Mapping]] = ..., truco: _Optional[_Union[_truco_pb2.TrucoView, _Mapping]] = ..., legal: _Optional[_Iterable[_Union[_common_pb2.Action, _Mapping]]] = ..., deadline_ms: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[_common_pb2.SeatSummary, _Mapping]]] = ...) -> None: ...

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

class Update(_message.Message):
    __slots__ = ("events", "view")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[Event]
    view: View
    def __init__(self, events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., view: _Optional[_Union[View, _Mapping]] = ...) -> None: ...

class Closing(_message.Message):
    __slots__ = ("reason", "resubscribe")
    REASON_FIELD_NUMBER: _ClassVar[int]
    RESUBSCRIBE_FIELD_NUMBER: _ClassVar[int]
    reason: str
    resubscribe: bool
    def __init__(self, reason: _Optional[str] = ..., resubscribe: _Optional[bool] = ...) -> None: ...

class TableMessage(_message.Message):
    __slots__ = ("seq", "snapshot", "update", "closing")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    UPDATE_FIELD_NUMBER: _ClassVar[int]
    CLOSING_FIELD_NUMBER: _ClassVar[int]
    seq: int
    snapshot: Snapshot
    update: Update
    closing: Closing
    def __init__(self, seq: _Optional[int] = ..., snapshot: _Optional[_Union[Snapshot, _Mapping]] = ..., update: _Optional[_Union[Update, _Mapping]] = ..., closing: _Optional[_Union[Closing, _Mapping]] = ...) -> None: ...

class Hidden(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Joined(_message.Message):
    __slots__ = ("seat", "name")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ...) -> None: ...

class Left(_message.Message):
    __slots__ = ("seat", "name", "bot_plays")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_PLAYS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    bot_plays: bool
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ..., bot_plays: _Optional[bool] = ...) -> None: ...

class Chatted(_message.Message):
    __slots__ = ("seat", "name", "text")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    text: str
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class WentAway(_message.Message):
    __slots__ = ("seat", "name")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ...) -> None: ...

class CameBack(_message.Message):
    __slots__ = ("seat", "name")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ...) -> None: ...

class MatchStarted(_message.Message):
    __slots__ = ("match",)
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: int
    def __init__(self, match: _Optional[int] = ...) -> None: ...

class HandStarted(_message.Message):
    __slots__ = ("hand", "dealer")
    HAND_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    hand: int
    dealer: int
    def __init__(self, hand: _Optional[int] = ..., dealer: _Optional[int] = ...) -> None: ...

class CardsDealt(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class Acted(_message.Message):
    __slots__ = ("seat", "action")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action: _common_pb2.Action
    def __init__(self, seat: _Optional[int] = ..., action: _Optional[_Union[_common_pb2.Action, _Mapping]] = ...) -> None: ...

class HandEnded(_message.Message):
    __slots__ = ("deltas", "winner", "team")
    DELTAS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    deltas: _containers.RepeatedScalarFieldContainer[int]
    winner: int
    team: int
    def __init__(self, deltas: _Optional[_Iterable[int]] = ..., winner: _Optional[int] = ..., team: _Optional[int] = ...) -> None: ...

class MatchEnded(_message.Message):
    __slots__ = ("winner", "team")
    WINNER_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    winner: int
    team: int
    def __init__(self, winner: _Optional[int] = ..., team: _Optional[int] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("seq", "replay", "hidden", "joined", "left", "chatted", "went_away", "came_back", "match_started", "hand_started", "cards_dealt", "acted", "hand_ended", "match_ended", "cacho", "rummy", "truco")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    REPLAY_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_FIELD_NUMBER: _ClassVar[int]
    JOINED_FIELD_NUMBER: _ClassVar[int]
    LEFT_FIELD_NUMBER: _ClassVar[int]
    CHATTED_FIELD_NUMBER: _ClassVar[int]
    WENT_AWAY_FIELD_NUMBER: _ClassVar[int]
    CAME_BACK_FIELD_NUMBER: _ClassVar[int]
    MATCH_STARTED_FIELD_NUMBER: _ClassVar[int]
    HAND_STARTED_FIELD_NUMBER: _ClassVar[int]
    CARDS_DEALT_FIELD_NUMBER: _ClassVar[int]
    ACTED_FIELD_NUMBER: _ClassVar[int]
    HAND_ENDED_FIELD_NUMBER: _ClassVar[int]
    MATCH_ENDED_FIELD_NUMBER: _ClassVar[int]
    CACHO_FIELD_NUMBER: _ClassVar[int]
    RUMMY_FIELD_NUMBER: _ClassVar[int]
    TRUCO_FIELD_NUMBER: _ClassVar[int]
    seq: int
    replay: bool
    hidden: Hidden
    joined: Joined
    left: Left
    chatted: Chatted
    went_away: WentAway
    came_back: CameBack
    match_started: MatchStarted
    hand_started: HandStarted
    cards_dealt: CardsDealt
    acted: Acted
    hand_ended: HandEnded
    match_ended: MatchEnded
    cacho: _cacho_pb2.CachoEvent
    rummy: _rummy_pb2.RummyEvent
    truco: _truco_pb2.TrucoEvent
    def __init__(self, seq: _Optional[int] = ..., replay: _Optional[bool] = ..., hidden: _Optional[_Union[Hidden, _Mapping]] = ..., joined: _Optional[_Union[Joined, _Mapping]] = ..., left: _Optional[_Union[Left, _Mapping]] = ..., chatted: _Optional[_Union[Chatted, _Mapping]] = ..., went_away: _Optional[_Union[WentAway, _Mapping]] = ..., came_back: _Optional[_Union[CameBack, _Mapping]] = ..., match_started: _Optional[_Union[MatchStarted, _Mapping]] = ..., hand_started: _Optional[_Union[HandStarted, _Mapping]] = ..., cards_dealt: _Optional[_Union[CardsDealt, _Mapping]] = ..., acted: _Optional[_Union[Acted, _Mapping]] = ..., hand_ended: _Optional[_Union[HandEnded, _Mapping]] = ..., match_ended: _Optional[_Union[MatchEnded, _Mapping]] = ..., cacho: _Optional[_Union[_cacho_pb2.CachoEvent, _Mapping]] = ..., rummy: _Optional[_Union[_rummy_pb2.RummyEvent, _Mapping]] = ..., truco: _Optional[_Union[_truco_pb2.TrucoEvent, _Mapping]] = ...) -> None: ...

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
