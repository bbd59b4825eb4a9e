from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RummyView(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class RummyEvent(_message.Message):
    __slots__ = ("placeholder",)
    PLACEHOLDER_FIELD_NUMBER: _ClassVar[int]
    placeholder: RummyPlaceholder
    def __init__(self, placeholder: _Optional[_Union[RummyPlaceholder, _Mapping]] = ...) -> None: ...

class RummyPlaceholder(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
