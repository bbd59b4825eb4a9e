from cardtui.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class OptionType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OPTION_TYPE_UNSPECIFIED: _ClassVar[OptionType]
    OPTION_TYPE_FLAG: _ClassVar[OptionType]
    OPTION_TYPE_NUMBER: _ClassVar[OptionType]
    OPTION_TYPE_FRACTION: _ClassVar[OptionType]
    OPTION_TYPE_CHOICE: _ClassVar[OptionType]
OPTION_TYPE_UNSPECIFIED: OptionType
OPTION_TYPE_FLAG: OptionType
OPTION_TYPE_NUMBER: OptionType
OPTION_TYPE_FRACTION: OptionType
OPTION_TYPE_CHOICE: OptionType

class GetInfoRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class OptionSpec(_message.Message):
    __slots__ = ("name", "type", "choices", "min", "max", "default", "help")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    MIN_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_FIELD_NUMBER: _ClassVar[int]
    HELP_FIELD_NUMBER: _ClassVar[int]
    name: str
    type: OptionType
    choices: _containers.RepeatedScalarFieldContainer[str]
    min: float
    max: float
    default: _common_pb2.OptionValue
    help: str
    def __init__(self, name: _Optional[str] = ..., type: _Optional[_Union[OptionType, str]] = ..., choices: _Optional[_Iterable[str]] = ..., min: _Optional[float] = ..., max: _Optional[float] = ..., default: _Optional[_Union[_common_pb2.OptionValue, _Mapping]] = ..., help: _Optional[str] = ...) -> None: ...

class GameInfo(_message.Message):
    __slots__ = ("name", "title", "min_players", "max_players", "player_counts", "options", "teams")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    PLAYER_COUNTS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    TEAMS_FIELD_NUMBER: _ClassVar[int]
    name: str
    title: str
    min_players: int
    max_players: int
    player_counts: _containers.RepeatedScalarFieldContainer[int]
    options: _containers.RepeatedCompositeFieldContainer[OptionSpec]
    teams: bool
    def __init__(self, name: _Optional[str] = ..., title: _Optional[str] = ..., min_players: _Optional[int] = ..., max_players: _Optional[int] = ..., player_counts: _Optional[_Iterable[int]] = ..., options: _Optional[_Iterable[_Union[OptionSpec, _Mapping]]] = ..., teams: _Optional[bool] = ...) -> None: ...

class ServerInfo(_message.Message):
    __slots__ = ("version", "games", "tables")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    TABLES_FIELD_NUMBER: _ClassVar[int]
    version: str
    games: _containers.RepeatedCompositeFieldContainer[GameInfo]
    tables: int
    def __init__(self, version: _Optional[str] = ..., games: _Optional[_Iterable[_Union[GameInfo, _Mapping]]] = ..., tables: _Optional[int] = ...) -> None: ...

class ListTablesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListTablesResponse(_message.Message):
    __slots__ = ("tables",)
    TABLES_FIELD_NUMBER: _ClassVar[int]
    tables: _containers.RepeatedCompositeFieldContainer[_common_pb2.TableSummary]
    def __init__(self, tables: _Optional[_Iterable[_Union[_common_pb2.TableSummary, _Mapping]]] = ...) -> None: ...

class CreateTableRequest(_message.Message):
    __slots__ = ("game", "name", "seats", "bots", "options", "turn_seconds", "bot_delay_ms", "password", "private", "away_after")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: _common_pb2.OptionValue
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[_common_pb2.OptionValue, _Mapping]] = ...) -> None: ...
    GAME_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    TURN_SECONDS_FIELD_NUMBER: _ClassVar[int]
    BOT_DELAY_MS_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    PRIVATE_FIELD_NUMBER: _ClassVar[int]
    AWAY_AFTER_FIELD_NUMBER: _ClassVar[int]
    game: str
    name: str
    seats: int
    bots: int
    options: _containers.MessageMap[str, _common_pb2.OptionValue]
    turn_seconds: int
    bot_delay_ms: int
    password: str
    private: bool
    away_after: int
    def __init__(self, game: _Optional[str] = ..., name: _Optional[str] = ..., seats: _Optional[int] = ..., bots: _Optional[int] = ..., options: _Optional[_Mapping[str, _common_pb2.OptionValue]] = ..., turn_seconds: _Optional[int] = ..., bot_delay_ms: _Optional[int] = ..., password: _Optional[str] = ..., private: _Optional[bool] = ..., away_after: _Optional[int] = ...) -> None: ...

class JoinTableRequest(_message.Message):
    __slots__ = ("table_id", "name", "seat", "password")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    name: str
    seat: int
    password: str
    def __init__(self, table_id: _Optional[str] = ..., name: _Optional[str] = ..., seat: _Optional[int] = ..., password: _Optional[str] = ...) -> None: ...

class SpectateRequest(_message.Message):
    __slots__ = ("table_id", "name", "password")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    name: str
    password: str
    def __init__(self, table_id: _Optional[str] = ..., name: _Optional[str] = ..., password: _Optional[str] = ...) -> None: ...

class JoinResponse(_message.Message):
    __slots__ = ("token", "seat", "table")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    token: str
    seat: int
    table: _common_pb2.TableSummary
    def __init__(self, token: _Optional[str] = ..., seat: _Optional[int] = ..., table: _Optional[_Union[_common_pb2.TableSummary, _Mapping]] = ...) -> None: ...

class LeaveRequest(_message.Message):
    __slots__ = ("token",)
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    token: str
    def __init__(self, token: _Optional[str] = ...) -> None: ...

class LeaveResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
