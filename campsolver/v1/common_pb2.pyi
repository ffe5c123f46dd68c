from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ProofStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PROOF_STATUS_UNSPECIFIED: _ClassVar[ProofStatus]
    PROOF_STATUS_OPTIMAL: _ClassVar[ProofStatus]
    PROOF_STATUS_EXACT: _ClassVar[ProofStatus]
    PROOF_STATUS_FEASIBLE_WITH_BOUND: _ClassVar[ProofStatus]
    PROOF_STATUS_HEURISTIC: _ClassVar[ProofStatus]
    PROOF_STATUS_INFEASIBLE: _ClassVar[ProofStatus]

class Objective(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OBJECTIVE_UNSPECIFIED: _ClassVar[Objective]
    OBJECTIVE_WIN_PROBABILITY: _ClassVar[Objective]
    OBJECTIVE_EXPECTED_SCORE: _ClassVar[Objective]
    OBJECTIVE_MARGIN: _ClassVar[Objective]

class DifficultyGrade(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DIFFICULTY_GRADE_UNSPECIFIED: _ClassVar[DifficultyGrade]
    DIFFICULTY_GRADE_EASY: _ClassVar[DifficultyGrade]
    DIFFICULTY_GRADE_MEDIUM: _ClassVar[DifficultyGrade]
    DIFFICULTY_GRADE_HARD: _ClassVar[DifficultyGrade]
    DIFFICULTY_GRADE_EXPERT: _ClassVar[DifficultyGrade]
PROOF_STATUS_UNSPECIFIED: ProofStatus
PROOF_STATUS_OPTIMAL: ProofStatus
PROOF_STATUS_EXACT: ProofStatus
PROOF_STATUS_FEASIBLE_WITH_BOUND: ProofStatus
PROOF_STATUS_HEURISTIC: ProofStatus
PROOF_STATUS_INFEASIBLE: ProofStatus
OBJECTIVE_UNSPECIFIED: Objective
OBJECTIVE_WIN_PROBABILITY: Objective
OBJECTIVE_EXPECTED_SCORE: Objective
OBJECTIVE_MARGIN: Objective
DIFFICULTY_GRADE_UNSPECIFIED: DifficultyGrade
DIFFICULTY_GRADE_EASY: DifficultyGrade
DIFFICULTY_GRADE_MEDIUM: DifficultyGrade
DIFFICULTY_GRADE_HARD: DifficultyGrade
DIFFICULTY_GRADE_EXPERT: DifficultyGrade

class SolveOptions(_message.Message):
    __slots__ = ("time_limit_seconds", "seed")
    TIME_LIMIT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    time_limit_seconds: float
    seed: int
    def __init__(self, time_limit_seconds: _Optional[float] = ..., seed: _Optional[int] = ...) -> None: ...

class SolveStats(_message.Message):
    __slots__ = ("wall_time_seconds", "bound", "nodes", "states", "conflicts", "depth", "samples", "method", "interrupted", "fallback")
    WALL_TIME_SECONDS_FIELD_NUMBER: _ClassVar[int]
    BOUND_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    STATES_FIELD_NUMBER: _ClassVar[int]
    CONFLICTS_FIELD_NUMBER: _ClassVar[int]
    DEPTH_FIELD_NUMBER: _ClassVar[int]
    SAMPLES_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    INTERRUPTED_FIELD_NUMBER: _ClassVar[int]
    FALLBACK_FIELD_NUMBER: _ClassVar[int]
    wall_time_seconds: float
    bound: float
    nodes: int
    states: int
    conflicts: int
    depth: int
    samples: int
    method: str
    interrupted: bool
    fallback: str
    def __init__(self, wall_time_seconds: _Optional[float] = ..., bound: _Optional[float] = ..., nodes: _Optional[int] = ..., states: _Optional[int] = ..., conflicts: _Optional[int] = ..., depth: _Optional[int] = ..., samples: _Optional[int] = ..., method: _Optional[str] = ..., interrupted: _Optional[bool] = ..., fallback: _Optional[str] = ...) -> None: ...

class RankedAlternative(_message.Message):
    __slots__ = ("rank", "label", "value", "loss", "standard_error", "sampled", "samples", "note")
    RANK_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    LOSS_FIELD_NUMBER: _ClassVar[int]
    STANDARD_ERROR_FIELD_NUMBER: _ClassVar[int]
    SAMPLED_FIELD_NUMBER: _ClassVar[int]
    SAMPLES_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    rank: int
    label: str
    value: float
    loss: float
    standard_error: float
    sampled: bool
    samples: int
    note: str
    def __init__(self, rank: _Optional[int] = ..., label: _Optional[str] = ..., value: _Optional[float] = ..., loss: _Optional[float] = ..., standard_error: _Optional[float] = ..., sampled: _Optional[bool] = ..., samples: _Optional[int] = ..., note: _Optional[str] = ...) -> None: ...

class DifficultyEvidence(_message.Message):
    __slots__ = ("name", "value", "description")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    name: str
    value: float
    description: str
    def __init__(self, name: _Optional[str] = ..., value: _Optional[float] = ..., description: _Optional[str] = ...) -> None: ...

class PuzzleEnvelope(_message.Message):
    __slots__ = ("seed", "grade", "evidence", "unique", "proof", "text", "svg", "solution_text", "solution_svg", "question")
    SEED_FIELD_NUMBER: _ClassVar[int]
    GRADE_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_FIELD_NUMBER: _ClassVar[int]
    UNIQUE_FIELD_NUMBER: _ClassVar[int]
    PROOF_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    SVG_FIELD_NUMBER: _ClassVar[int]
    SOLUTION_TEXT_FIELD_NUMBER: _ClassVar[int]
    SOLUTION_SVG_FIELD_NUMBER: _ClassVar[int]
    QUESTION_FIELD_NUMBER: _ClassVar[int]
    seed: int
    grade: DifficultyGrade
    evidence: _containers.RepeatedCompositeFieldContainer[DifficultyEvidence]
    unique: bool
    proof: ProofStatus
    text: str
    svg: str
    solution_text: str
    solution_svg: str
    question: str
    def __init__(self, seed: _Optional[int] = ..., grade: _Optional[_Union[DifficultyGrade, str]] = ..., evidence: _Optional[_Iterable[_Union[DifficultyEvidence, _Mapping]]] = ..., unique: _Optional[bool] = ..., proof: _Optional[_Union[ProofStatus, str]] = ..., text: _Optional[str] = ..., svg: _Optional[str] = ..., solution_text: _Optional[str] = ..., solution_svg: _Optional[str] = ..., question: _Optional[str] = ...) -> None: ...

class ScoreDetail(_message.Message):
    __slots__ = ("name", "points")
    NAME_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    name: str
    points: float
    def __init__(self, name: _Optional[str] = ..., points: _Optional[float] = ...) -> None: ...

class Probability(_message.Message):
    __slots__ = ("numerator", "denominator", "value")
    NUMERATOR_FIELD_NUMBER: _ClassVar[int]
    DENOMINATOR_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    numerator: int
    denominator: int
    value: float
    def __init__(self, numerator: _Optional[int] = ..., denominator: _Optional[int] = ..., value: _Optional[float] = ...) -> None: ...

class TurnInfo(_message.Message):
    __slots__ = ("to_move", "chance_next", "game_over", "scores", "description", "winners")
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    CHANCE_NEXT_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    to_move: int
    chance_next: bool
    game_over: bool
    scores: _containers.RepeatedScalarFieldContainer[int]
    description: str
    winners: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, to_move: _Optional[int] = ..., chance_next: _Optional[bool] = ..., game_over: _Optional[bool] = ..., scores: _Optional[_Iterable[int]] = ..., description: _Optional[str] = ..., winners: _Optional[_Iterable[int]] = ...) -> None: ...
