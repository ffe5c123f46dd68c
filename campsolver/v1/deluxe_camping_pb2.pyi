from campsolver.v1 import common_pb2 as _common_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DeluxeCampingServiceHintRequest(_message.Message):
    __slots__ = ("options",)
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    options: _common_pb2.SolveOptions
    def __init__(self, options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class DeluxeCampingServiceHintResponse(_message.Message):
    __slots__ = ("stats",)
    STATS_FIELD_NUMBER: _ClassVar[int]
    stats: _common_pb2.SolveStats
    def __init__(self, stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...

class DeluxeCampingServiceMaxScoreRequest(_message.Message):
    __slots__ = ("options",)
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    options: _common_pb2.SolveOptions
    def __init__(self, options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class DeluxeCampingServiceMaxScoreResponse(_message.Message):
    __slots__ = ("stats",)
    STATS_FIELD_NUMBER: _ClassVar[int]
    stats: _common_pb2.SolveStats
    def __init__(self, stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...

class DeluxeCampingServiceGeneratePuzzleRequest(_message.Message):
    __slots__ = ("options",)
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    options: _common_pb2.SolveOptions
    def __init__(self, options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class DeluxeCampingServiceGeneratePuzzleResponse(_message.Message):
    __slots__ = ("stats",)
    STATS_FIELD_NUMBER: _ClassVar[int]
    stats: _common_pb2.SolveStats
    def __init__(self, stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...

class DeluxeCampingServiceScoreRequest(_message.Message):
    __slots__ = ("options",)
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    options: _common_pb2.SolveOptions
    def __init__(self, options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class DeluxeCampingServiceScoreResponse(_message.Message):
    __slots__ = ("stats",)
    STATS_FIELD_NUMBER: _ClassVar[int]
    stats: _common_pb2.SolveStats
    def __init__(self, stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...

class DeluxeCampingServiceLegalMovesRequest(_message.Message):
    __slots__ = ("options",)
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    options: _common_pb2.SolveOptions
    def __init__(self, options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class DeluxeCampingServiceLegalMovesResponse(_message.Message):
    __slots__ = ("stats",)
    STATS_FIELD_NUMBER: _ClassVar[int]
    stats: _common_pb2.SolveStats
    def __init__(self, stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...
