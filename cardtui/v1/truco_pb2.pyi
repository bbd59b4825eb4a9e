from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TrucoView(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class TrucoEvent(_message.Message):
    __slots__ = ("placeholder",)
    PLACEHOLDER_FIELD_NUMBER: _ClassVar[int]
    placeholder: TrucoPlaceholder
    def __init__(self, placeholder: _Optional[_Union[TrucoPlaceholder, _Mapping]] = ...) -> None: ...

class TrucoPlaceholder(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
