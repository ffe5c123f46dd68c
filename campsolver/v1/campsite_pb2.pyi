from campsolver.v1 import common_pb2 as _common_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CampsiteServiceHintRequest(_message.Message):
    __slots__ = ("options",)
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    options: _common_pb2.SolveOptions
    def __init__(self, options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class CampsiteServiceHintResponse(_message.Message):
    __slots__ = ("stats",)
    STATS_FIELD_NUMBER: _ClassVar[int]
    stats: _common_pb2.SolveStats
    def __init__(self, stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...

class CampsiteServiceMaxScoreRequest(_message.Message):
    __slots__ = ("options",)
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    options: _common_pb2.SolveOptions
    def __init__(self, options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class CampsiteServiceMaxScoreResponse(_message.Message):
    __slots__ = ("stats",)
    STATS_FIELD_NUMBER: _ClassVar[int]
    stats: _common_pb2.SolveStats
    def __init__(self, stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...

class CampsiteServiceGeneratePuzzleRequest(_message.Message):
    __slots__ = ("options",)
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    options: _common_pb2.SolveOptions
    def __init__(self, options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class CampsiteServiceGeneratePuzzleResponse(_message.Message):
    __slots__ = ("stats",)
    STATS_FIELD_NUMBER: _ClassVar[int]
    stats: _common_pb2.SolveStats
    def __init__(self, stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...

class CampsiteServiceScoreRequest(_message.Message):
    __slots__ = ("options",)
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    options: _common_pb2.SolveOptions
    def __init__(self, options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class CampsiteServiceScoreResponse(_message.Message):
    __slots__ = ("stats",)
    STATS_FIELD_NUMBER: _ClassVar[int]
    stats: _common_pb2.SolveStats
    def __init__(self, stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...

class CampsiteServiceLegalMovesRequest(_message.Message):
    __slots__ = ("options",)
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    options: _common_pb2.SolveOptions
    def __init__(self, options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class CampsiteServiceLegalMovesResponse(_message.Message):
    __slots__ = ("stats",)
    STATS_FIELD_NUMBER: _ClassVar[int]
    stats: _common_pb2.SolveStats
    def __init__(self, stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...
