from cardtui.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TrucoBet(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TRUCO_BET_UNSPECIFIED: _ClassVar[TrucoBet]
    TRUCO_BET_TRUCO: _ClassVar[TrucoBet]
    TRUCO_BET_ENVIDO: _ClassVar[TrucoBet]
    TRUCO_BET_FLOR: _ClassVar[TrucoBet]

class TrucoWord(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TRUCO_WORD_UNSPECIFIED: _ClassVar[TrucoWord]
    TRUCO_WORD_TRUCO: _ClassVar[TrucoWord]
    TRUCO_WORD_RETRUCO: _ClassVar[TrucoWord]
    TRUCO_WORD_VALE_CUATRO: _ClassVar[TrucoWord]
    TRUCO_WORD_SEIS: _ClassVar[TrucoWord]
    TRUCO_WORD_NOVE: _ClassVar[TrucoWord]
    TRUCO_WORD_DOZE: _ClassVar[TrucoWord]
    TRUCO_WORD_ENVIDO: _ClassVar[TrucoWord]
    TRUCO_WORD_REAL_ENVIDO: _ClassVar[TrucoWord]
    TRUCO_WORD_FALTA_ENVIDO: _ClassVar[TrucoWord]
    TRUCO_WORD_FLOR: _ClassVar[TrucoWord]
    TRUCO_WORD_CONTRA_FLOR: _ClassVar[TrucoWord]
    TRUCO_WORD_CONTRA_FLOR_AL_RESTO: _ClassVar[TrucoWord]
    TRUCO_WORD_CON_FLOR_ME_ACHICO: _ClassVar[TrucoWord]

class TrucoReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TRUCO_REASON_UNSPECIFIED: _ClassVar[TrucoReason]
    TRUCO_REASON_TRICKS: _ClassVar[TrucoReason]
    TRUCO_REASON_REFUSED: _ClassVar[TrucoReason]
    TRUCO_REASON_DECK: _ClassVar[TrucoReason]
    TRUCO_REASON_ONZE_REFUSED: _ClassVar[TrucoReason]
    TRUCO_REASON_TIED: _ClassVar[TrucoReason]
    TRUCO_REASON_ENVIDO: _ClassVar[TrucoReason]

class TrucoShowReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TRUCO_SHOW_REASON_UNSPECIFIED: _ClassVar[TrucoShowReason]
    TRUCO_SHOW_REASON_ENVIDO: _ClassVar[TrucoShowReason]
    TRUCO_SHOW_REASON_FLOR: _ClassVar[TrucoShowReason]

class PaulistaPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PAULISTA_PHASE_UNSPECIFIED: _ClassVar[PaulistaPhase]
    PAULISTA_PHASE_DEAL: _ClassVar[PaulistaPhase]
    PAULISTA_PHASE_ONZE: _ClassVar[PaulistaPhase]
    PAULISTA_PHASE_PLAY: _ClassVar[PaulistaPhase]
    PAULISTA_PHASE_OVER: _ClassVar[PaulistaPhase]

class PaulistaChoice(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PAULISTA_CHOICE_UNSPECIFIED: _ClassVar[PaulistaChoice]
    PAULISTA_CHOICE_KEEP: _ClassVar[PaulistaChoice]
    PAULISTA_CHOICE_PASS_CARDS: _ClassVar[PaulistaChoice]
    PAULISTA_CHOICE_REJECT: _ClassVar[PaulistaChoice]
TRUCO_BET_UNSPECIFIED: TrucoBet
TRUCO_BET_TRUCO: TrucoBet
TRUCO_BET_ENVIDO: TrucoBet
TRUCO_BET_FLOR: TrucoBet
TRUCO_WORD_UNSPECIFIED: TrucoWord
TRUCO_WORD_TRUCO: TrucoWord
TRUCO_WORD_RETRUCO: TrucoWord
TRUCO_WORD_VALE_CUATRO: TrucoWord
TRUCO_WORD_SEIS: TrucoWord
TRUCO_WORD_NOVE: TrucoWord
TRUCO_WORD_DOZE: TrucoWord
TRUCO_WORD_ENVIDO: TrucoWord
TRUCO_WORD_REAL_ENVIDO: TrucoWord
TRUCO_WORD_FALTA_ENVIDO: TrucoWord
TRUCO_WORD_FLOR: TrucoWord
TRUCO_WORD_CONTRA_FLOR: TrucoWord
TRUCO_WORD_CONTRA_FLOR_AL_RESTO: TrucoWord
TRUCO_WORD_CON_FLOR_ME_ACHICO: TrucoWord
TRUCO_REASON_UNSPECIFIED: TrucoReason
TRUCO_REASON_TRICKS: TrucoReason
TRUCO_REASON_REFUSED: TrucoReason
TRUCO_REASON_DECK: TrucoReason
TRUCO_REASON_ONZE_REFUSED: TrucoReason
TRUCO_REASON_TIED: TrucoReason
TRUCO_REASON_ENVIDO: TrucoReason
TRUCO_SHOW_REASON_UNSPECIFIED: TrucoShowReason
TRUCO_SHOW_REASON_ENVIDO: TrucoShowReason
TRUCO_SHOW_REASON_FLOR: TrucoShowReason
PAULISTA_PHASE_UNSPECIFIED: PaulistaPhase
PAULISTA_PHASE_DEAL: PaulistaPhase
PAULISTA_PHASE_ONZE: PaulistaPhase
PAULISTA_PHASE_PLAY: PaulistaPhase
PAULISTA_PHASE_OVER: PaulistaPhase
PAULISTA_CHOICE_UNSPECIFIED: PaulistaChoice
PAULISTA_CHOICE_KEEP: PaulistaChoice
PAULISTA_CHOICE_PASS_CARDS: PaulistaChoice
PAULISTA_CHOICE_REJECT: PaulistaChoice

class TrucoSeat(_message.Message):
    __slots__ = ("seat", "name", "team", "cards", "card_count", "playing", "gone", "envido")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    CARD_COUNT_FIELD_NUMBER: _ClassVar[int]
    PLAYING_FIELD_NUMBER: _ClassVar[int]
    GONE_FIELD_NUMBER: _ClassVar[int]
    ENVIDO_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    team: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    card_count: int
    playing: bool
    gone: bool
    envido: int
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ..., team: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., card_count: _Optional[int] = ..., playing: _Optional[bool] = ..., gone: _Optional[bool] = ..., envido: _Optional[int] = ...) -> None: ...

class TrucoPlay(_message.Message):
    __slots__ = ("seat", "card", "face_down", "void")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    FACE_DOWN_FIELD_NUMBER: _ClassVar[int]
    VOID_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    face_down: bool
    void: bool
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., face_down: _Optional[bool] = ..., void: _Optional[bool] = ...) -> None: ...

class TrucoTrick(_message.Message):
    __slots__ = ("plays", "winner", "team")
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    plays: _containers.RepeatedCompositeFieldContainer[TrucoPlay]
    winner: int
    team: int
    def __init__(self, plays: _Optional[_Iterable[_Union[TrucoPlay, _Mapping]]] = ..., winner: _Optional[int] = ..., team: _Optional[int] = ...) -> None: ...

class TrucoStake(_message.Message):
    __slots__ = ("call", "value", "refused")
    CALL_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    REFUSED_FIELD_NUMBER: _ClassVar[int]
    call: TrucoWord
    value: int
    refused: int
    def __init__(self, call: _Optional[_Union[TrucoWord, str]] = ..., value: _Optional[int] = ..., refused: _Optional[int] = ...) -> None: ...

class TrucoCall(_message.Message):
    __slots__ = ("bet", "call", "seat", "team", "answering_team", "value", "refused", "raises")
    BET_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    ANSWERING_TEAM_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    REFUSED_FIELD_NUMBER: _ClassVar[int]
    RAISES_FIELD_NUMBER: _ClassVar[int]
    bet: TrucoBet
    call: TrucoWord
    seat: int
    team: int
    answering_team: int
    value: int
    refused: int
    raises: _containers.RepeatedScalarFieldContainer[TrucoWord]
    def __init__(self, bet: _Optional[_Union[TrucoBet, str]] = ..., call: _Optional[_Union[TrucoWord, str]] = ..., seat: _Optional[int] = ..., team: _Optional[int] = ..., answering_team: _Optional[int] = ..., value: _Optional[int] = ..., refused: _Optional[int] = ..., raises: _Optional[_Iterable[_Union[TrucoWord, str]]] = ...) -> None: ...

class TrucoSignalSeen(_message.Message):
    __slots__ = ("seat", "signal")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SIGNAL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    signal: _common_pb2.Signal
    def __init__(self, seat: _Optional[int] = ..., signal: _Optional[_Union[_common_pb2.Signal, str]] = ...) -> None: ...

class TrucoShown(_message.Message):
    __slots__ = ("seat", "cards", "reason")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    reason: TrucoShowReason
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., reason: _Optional[_Union[TrucoShowReason, str]] = ...) -> None: ...

class TrucoRoundResult(_message.Message):
    __slots__ = ("round", "seats", "team", "stake", "reason", "points")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    STAKE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    round: int
    seats: _containers.RepeatedScalarFieldContainer[int]
    team: int
    stake: int
    reason: TrucoReason
    points: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, round: _Optional[int] = ..., seats: _Optional[_Iterable[int]] = ..., team: _Optional[int] = ..., stake: _Optional[int] = ..., reason: _Optional[_Union[TrucoReason, str]] = ..., points: _Optional[_Iterable[int]] = ...) -> None: ...

class TrucoResult(_message.Message):
    __slots__ = ("deltas", "points", "team", "rounds", "scores")
    DELTAS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    deltas: _containers.RepeatedScalarFieldContainer[int]
    points: _containers.RepeatedScalarFieldContainer[int]
    team: int
    rounds: _containers.RepeatedCompositeFieldContainer[TrucoRoundResult]
    scores: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, deltas: _Optional[_Iterable[int]] = ..., points: _Optional[_Iterable[int]] = ..., team: _Optional[int] = ..., rounds: _Optional[_Iterable[_Union[TrucoRoundResult, _Mapping]]] = ..., scores: _Optional[_Iterable[int]] = ...) -> None: ...

class PaulistaPart(_message.Message):
    __slots__ = ("phase", "mao", "passed", "may_pass", "rejects_left", "rejected", "onze_team", "ferro", "trick_decides", "call_decides")
    PHASE_FIELD_NUMBER: _ClassVar[int]
    MAO_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    MAY_PASS_FIELD_NUMBER: _ClassVar[int]
    REJECTS_LEFT_FIELD_NUMBER: _ClassVar[int]
    REJECTED_FIELD_NUMBER: _ClassVar[int]
    ONZE_TEAM_FIELD_NUMBER: _ClassVar[int]
    FERRO_FIELD_NUMBER: _ClassVar[int]
    TRICK_DECIDES_FIELD_NUMBER: _ClassVar[int]
    CALL_DECIDES_FIELD_NUMBER: _ClassVar[int]
    phase: PaulistaPhase
    mao: int
    passed: bool
    may_pass: bool
    rejects_left: int
    rejected: _containers.RepeatedScalarFieldContainer[str]
    onze_team: int
    ferro: bool
    trick_decides: bool
    call_decides: bool
    def __init__(self, phase: _Optional[_Union[PaulistaPhase, str]] = ..., mao: _Optional[int] = ..., passed: _Optional[bool] = ..., may_pass: _Optional[bool] = ..., rejects_left: _Optional[int] = ..., rejected: _Optional[_Iterable[str]] = ..., onze_team: _Optional[int] = ..., ferro: _Optional[bool] = ..., trick_decides: _Optional[bool] = ..., call_decides: _Optional[bool] = ...) -> None: ...

class ArgentinoScore(_message.Message):
    __slots__ = ("count", "buenas")
    COUNT_FIELD_NUMBER: _ClassVar[int]
    BUENAS_FIELD_NUMBER: _ClassVar[int]
    count: int
    buenas: bool
    def __init__(self, count: _Optional[int] = ..., buenas: _Optional[bool] = ...) -> None: ...

class ArgentinoPart(_message.Message):
    __slots__ = ("mano", "round", "players", "pica_pica", "told", "points", "falta", "envido_calls", "envido_open", "may_envido", "your_envido", "your_envido_cards", "announcing", "best_envido", "flor_calls", "flor_sung", "flor_done", "must_flor", "your_flor", "shown")
    MANO_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    PICA_PICA_FIELD_NUMBER: _ClassVar[int]
    TOLD_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    FALTA_FIELD_NUMBER: _ClassVar[int]
    ENVIDO_CALLS_FIELD_NUMBER: _ClassVar[int]
    ENVIDO_OPEN_FIELD_NUMBER: _ClassVar[int]
    MAY_ENVIDO_FIELD_NUMBER: _ClassVar[int]
    YOUR_ENVIDO_FIELD_NUMBER: _ClassVar[int]
    YOUR_ENVIDO_CARDS_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCING_FIELD_NUMBER: _ClassVar[int]
    BEST_ENVIDO_FIELD_NUMBER: _ClassVar[int]
    FLOR_CALLS_FIELD_NUMBER: _ClassVar[int]
    FLOR_SUNG_FIELD_NUMBER: _ClassVar[int]
    FLOR_DONE_FIELD_NUMBER: _ClassVar[int]
    MUST_FLOR_FIELD_NUMBER: _ClassVar[int]
    YOUR_FLOR_FIELD_NUMBER: _ClassVar[int]
    SHOWN_FIELD_NUMBER: _ClassVar[int]
    mano: int
    round: int
    players: _containers.RepeatedScalarFieldContainer[int]
    pica_pica: bool
    told: _containers.RepeatedCompositeFieldContainer[ArgentinoScore]
    points: _containers.RepeatedScalarFieldContainer[int]
    falta: int
    envido_calls: _containers.RepeatedScalarFieldContainer[TrucoWord]
    envido_open: bool
    may_envido: bool
    your_envido: int
    your_envido_cards: _containers.RepeatedScalarFieldContainer[str]
    announcing: int
    best_envido: int
    flor_calls: _containers.RepeatedScalarFieldContainer[TrucoWord]
    flor_sung: _containers.RepeatedScalarFieldContainer[int]
    flor_done: bool
    must_flor: bool
    your_flor: int
    shown: _containers.RepeatedCompositeFieldContainer[TrucoShown]
    def __init__(self, mano: _Optional[int] = ..., round: _Optional[int] = ..., players: _Optional[_Iterable[int]] = ..., pica_pica: _Optional[bool] = ..., told: _Optional[_Iterable[_Union[ArgentinoScore, _Mapping]]] = ..., points: _Optional[_Iterable[int]] = ..., falta: _Optional[int] = ..., envido_calls: _Optional[_Iterable[_Union[TrucoWord, str]]] = ..., envido_open: _Optional[bool] = ..., may_envido: _Optional[bool] = ..., your_envido: _Optional[int] = ..., your_envido_cards: _Optional[_Iterable[str]] = ..., announcing: _Optional[int] = ..., best_envido: _Optional[int] = ..., flor_calls: _Optional[_Iterable[_Union[TrucoWord, str]]] = ..., flor_sung: _Optional[_Iterable[int]] = ..., flor_done: _Optional[bool] = ..., must_flor: _Optional[bool] = ..., your_flor: _Optional[int] = ..., shown: _Optional[_Iterable[_Union[TrucoShown, _Mapping]]] = ...) -> None: ...

class TrucoView(_message.Message):
    __slots__ = ("seats", "cards", "turn", "tricks", "trick", "scores", "target", "stake", "ladder", "level", "raisers", "your_raise", "pending", "signals", "result", "paulista", "argentino")
    SEATS_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    STAKE_FIELD_NUMBER: _ClassVar[int]
    LADDER_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    RAISERS_FIELD_NUMBER: _ClassVar[int]
    YOUR_RAISE_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    SIGNALS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    PAULISTA_FIELD_NUMBER: _ClassVar[int]
    ARGENTINO_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedCompositeFieldContainer[TrucoSeat]
    cards: _containers.RepeatedScalarFieldContainer[str]
    turn: int
    tricks: _containers.RepeatedCompositeFieldContainer[TrucoTrick]
    trick: _containers.RepeatedCompositeFieldContainer[TrucoPlay]
    scores: _containers.RepeatedScalarFieldContainer[int]
    target: int
    stake: int
    ladder: _containers.RepeatedCompositeFieldContainer[TrucoStake]
    level: int
    raisers: _containers.RepeatedScalarFieldContainer[int]
    your_raise: TrucoStake
    pending: TrucoCall
    signals: _containers.RepeatedCompositeFieldContainer[TrucoSignalSeen]
    result: TrucoResult
    paulista: PaulistaPart
    argentino: ArgentinoPart
    def __init__(self, seats: _Optional[_Iterable[_Union[TrucoSeat, _Mapping]]] = ..., cards: _Optional[_Iterable[str]] = ..., turn: _Optional[int] = ..., tricks: _Optional[_Iterable[_Union[TrucoTrick, _Mapping]]] = ..., trick: _Optional[_Iterable[_Union[TrucoPlay, _Mapping]]] = ..., scores: _Optional[_Iterable[int]] = ..., target: _Optional[int] = ..., stake: _Optional[int] = ..., ladder: _Optional[_Iterable[_Union[TrucoStake, _Mapping]]] = ..., level: _Optional[int] = ..., raisers: _Optional[_Iterable[int]] = ..., your_raise: _Optional[_Union[TrucoStake, _Mapping]] = ..., pending: _Optional[_Union[TrucoCall, _Mapping]] = ..., signals: _Optional[_Iterable[_Union[TrucoSignalSeen, _Mapping]]] = ..., result: _Optional[_Union[TrucoResult, _Mapping]] = ..., paulista: _Optional[_Union[PaulistaPart, _Mapping]] = ..., argentino: _Optional[_Union[ArgentinoPart, _Mapping]] = ...) -> None: ...

class TrucoPlayed(_message.Message):
    __slots__ = ("seat", "card", "face_down", "blind")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    FACE_DOWN_FIELD_NUMBER: _ClassVar[int]
    BLIND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    face_down: bool
    blind: bool
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., face_down: _Optional[bool] = ..., blind: _Optional[bool] = ...) -> None: ...

class TrucoCalled(_message.Message):
    __slots__ = ("seat", "team", "bet", "call", "value", "refused")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    BET_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    REFUSED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    team: int
    bet: TrucoBet
    call: TrucoWord
    value: int
    refused: int
    def __init__(self, seat: _Optional[int] = ..., team: _Optional[int] = ..., bet: _Optional[_Union[TrucoBet, str]] = ..., call: _Optional[_Union[TrucoWord, str]] = ..., value: _Optional[int] = ..., refused: _Optional[int] = ...) -> None: ...

class TrucoAnswered(_message.Message):
    __slots__ = ("seat", "team", "bet", "accepted", "points", "call")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    BET_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    team: int
    bet: TrucoBet
    accepted: bool
    points: int
    call: TrucoWord
    def __init__(self, seat: _Optional[int] = ..., team: _Optional[int] = ..., bet: _Optional[_Union[TrucoBet, str]] = ..., accepted: _Optional[bool] = ..., points: _Optional[int] = ..., call: _Optional[_Union[TrucoWord, str]] = ...) -> None: ...

class TrucoTrickEnded(_message.Message):
    __slots__ = ("trick", "winner", "team", "leads")
    TRICK_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    LEADS_FIELD_NUMBER: _ClassVar[int]
    trick: int
    winner: int
    team: int
    leads: int
    def __init__(self, trick: _Optional[int] = ..., winner: _Optional[int] = ..., team: _Optional[int] = ..., leads: _Optional[int] = ...) -> None: ...

class TrucoSignalled(_message.Message):
    __slots__ = ("seat", "signal")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SIGNAL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    signal: _common_pb2.Signal
    def __init__(self, seat: _Optional[int] = ..., signal: _Optional[_Union[_common_pb2.Signal, str]] = ...) -> None: ...

class TrucoRoundEnded(_message.Message):
    __slots__ = ("round", "team", "points", "reason", "totals")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    round: int
    team: int
    points: int
    reason: TrucoReason
    totals: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, round: _Optional[int] = ..., team: _Optional[int] = ..., points: _Optional[int] = ..., reason: _Optional[_Union[TrucoReason, str]] = ..., totals: _Optional[_Iterable[int]] = ...) -> None: ...

class PaulistaHandDealt(_message.Message):
    __slots__ = ("mao", "onze_team", "ferro")
    MAO_FIELD_NUMBER: _ClassVar[int]
    ONZE_TEAM_FIELD_NUMBER: _ClassVar[int]
    FERRO_FIELD_NUMBER: _ClassVar[int]
    mao: int
    onze_team: int
    ferro: bool
    def __init__(self, mao: _Optional[int] = ..., onze_team: _Optional[int] = ..., ferro: _Optional[bool] = ...) -> None: ...

class PaulistaDealChoice(_message.Message):
    __slots__ = ("seat", "choice", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    choice: PaulistaChoice
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., choice: _Optional[_Union[PaulistaChoice, str]] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class PaulistaPartnerCards(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class PaulistaOnzeDecided(_message.Message):
    __slots__ = ("seat", "team", "play")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    team: int
    play: bool
    def __init__(self, seat: _Optional[int] = ..., team: _Optional[int] = ..., play: _Optional[bool] = ...) -> None: ...

class ArgentinoRoundStarted(_message.Message):
    __slots__ = ("round", "seats", "mano", "duel")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    MANO_FIELD_NUMBER: _ClassVar[int]
    DUEL_FIELD_NUMBER: _ClassVar[int]
    round: int
    seats: _containers.RepeatedScalarFieldContainer[int]
    mano: int
    duel: bool
    def __init__(self, round: _Optional[int] = ..., seats: _Optional[_Iterable[int]] = ..., mano: _Optional[int] = ..., duel: _Optional[bool] = ...) -> None: ...

class ArgentinoEnvidoAnnounced(_message.Message):
    __slots__ = ("seat", "points")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    points: int
    def __init__(self, seat: _Optional[int] = ..., points: _Optional[int] = ...) -> None: ...

class ArgentinoSonBuenas(_message.Message):
    __slots__ = ("seat", "bet")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BET_FIELD_NUMBER: _ClassVar[int]
    seat: int
    bet: TrucoBet
    def __init__(self, seat: _Optional[int] = ..., bet: _Optional[_Union[TrucoBet, str]] = ...) -> None: ...

class ArgentinoEnvidoWon(_message.Message):
    __slots__ = ("seat", "team", "envido", "points")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    ENVIDO_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    team: int
    envido: int
    points: int
    def __init__(self, seat: _Optional[int] = ..., team: _Optional[int] = ..., envido: _Optional[int] = ..., points: _Optional[int] = ...) -> None: ...

class ArgentinoEnvidoCancelled(_message.Message):
    __slots__ = ("seat", "points")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    points: int
    def __init__(self, seat: _Optional[int] = ..., points: _Optional[int] = ...) -> None: ...

class ArgentinoFlorWon(_message.Message):
    __slots__ = ("seat", "team", "points", "flor", "alone")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    FLOR_FIELD_NUMBER: _ClassVar[int]
    ALONE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    team: int
    points: int
    flor: int
    alone: bool
    def __init__(self, seat: _Optional[int] = ..., team: _Optional[int] = ..., points: _Optional[int] = ..., flor: _Optional[int] = ..., alone: _Optional[bool] = ...) -> None: ...

class ArgentinoShown(_message.Message):
    __slots__ = ("seat", "cards", "reason")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    reason: TrucoShowReason
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., reason: _Optional[_Union[TrucoShowReason, str]] = ...) -> None: ...

class ArgentinoWentToDeck(_message.Message):
    __slots__ = ("seat", "team", "no_quiero")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    NO_QUIERO_FIELD_NUMBER: _ClassVar[int]
    seat: int
    team: int
    no_quiero: bool
    def __init__(self, seat: _Optional[int] = ..., team: _Optional[int] = ..., no_quiero: _Optional[bool] = ...) -> None: ...

class TrucoEvent(_message.Message):
    __slots__ = ("played", "called", "answered", "trick_ended", "signalled", "round_ended", "paulista_hand_dealt", "paulista_deal_choice", "paulista_partner_cards", "paulista_onze_decided", "argentino_round_started", "argentino_envido_announced", "argentino_son_buenas", "argentino_envido_won", "argentino_envido_cancelled", "argentino_flor_won", "argentino_shown", "argentino_went_to_deck")
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    CALLED_FIELD_NUMBER: _ClassVar[int]
    ANSWERED_FIELD_NUMBER: _ClassVar[int]
    TRICK_ENDED_FIELD_NUMBER: _ClassVar[int]
    SIGNALLED_FIELD_NUMBER: _ClassVar[int]
    ROUND_ENDED_FIELD_NUMBER: _ClassVar[int]
    PAULISTA_HAND_DEALT_FIELD_NUMBER: _ClassVar[int]
    PAULISTA_DEAL_CHOICE_FIELD_NUMBER: _ClassVar[int]
    PAULISTA_PARTNER_CARDS_FIELD_NUMBER: _ClassVar[int]
    PAULISTA_ONZE_DECIDED_FIELD_NUMBER: _ClassVar[int]
    ARGENTINO_ROUND_STARTED_FIELD_NUMBER: _ClassVar[int]
    ARGENTINO_ENVIDO_ANNOUNCED_FIELD_NUMBER: _ClassVar[int]
    ARGENTINO_SON_BUENAS_FIELD_NUMBER: _ClassVar[int]
    ARGENTINO_ENVIDO_WON_FIELD_NUMBER: _ClassVar[int]
    ARGENTINO_ENVIDO_CANCELLED_FIELD_NUMBER: _ClassVar[int]
    ARGENTINO_FLOR_WON_FIELD_NUMBER: _ClassVar[int]
    ARGENTINO_SHOWN_FIELD_NUMBER: _ClassVar[int]
    ARGENTINO_WENT_TO_DECK_FIELD_NUMBER: _ClassVar[int]
    played: TrucoPlayed
    called: TrucoCalled
    answered: TrucoAnswered
    trick_ended: TrucoTrickEnded
    signalled: TrucoSignalled
    round_ended: TrucoRoundEnded
    paulista_hand_dealt: PaulistaHandDealt
    paulista_deal_choice: PaulistaDealChoice
    paulista_partner_cards: PaulistaPartnerCards
    paulista_onze_decided: PaulistaOnzeDecided
    argentino_round_started: ArgentinoRoundStarted
    argentino_envido_announced: ArgentinoEnvidoAnnounced
    argentino_son_buenas: ArgentinoSonBuenas
    argentino_envido_won: ArgentinoEnvidoWon
    argentino_envido_cancelled: ArgentinoEnvidoCancelled
    argentino_flor_won: ArgentinoFlorWon
    argentino_shown: ArgentinoShown
    argentino_went_to_deck: ArgentinoWentToDeck
    def __init__(self, played: _Optional[_Union[TrucoPlayed, _Mapping]] = ..., called: _Optional[_Union[TrucoCalled, _Mapping]] = ..., answered: _Optional[_Union[TrucoAnswered, _Mapping]] = ..., trick_ended: _Optional[_Union[TrucoTrickEnded, _Mapping]] = ..., signalled: _Optional[_Union[TrucoSignalled, _Mapping]] = ..., round_ended: _Optional[_Union[TrucoRoundEnded, _Mapping]] = ..., paulista_hand_dealt: _Optional[_Union[PaulistaHandDealt, _Mapping]] = ..., paulista_deal_choice: _Optional[_Union[PaulistaDealChoice, _Mapping]] = ..., paulista_partner_cards: _Optional[_Union[PaulistaPartnerCards, _Mapping]] = ..., paulista_onze_decided: _Optional[_Union[PaulistaOnzeDecided, _Mapping]] = ..., argentino_round_started: _Optional[_Union[ArgentinoRoundStarted, _Mapping]] = ..., argentino_envido_announced: _Optional[_Union[ArgentinoEnvidoAnnounced, _Mapping]] = ..., argentino_son_buenas: _Optional[_Union[ArgentinoSonBuenas, _Mapping]] = ..., argentino_envido_won: _Optional[_Union[ArgentinoEnvidoWon, _Mapping]] = ..., argentino_envido_cancelled: _Optional[_Union[ArgentinoEnvidoCancelled, _Mapping]] = ..., argentino_flor_won: _Optional[_Union[ArgentinoFlorWon, _Mapping]] = ..., argentino_shown: _Optional[_Union[ArgentinoShown, _Mapping]] = ..., argentino_went_to_deck: _Optional[_Union[ArgentinoWentToDeck, _Mapping]] = ...) -> None: ...
