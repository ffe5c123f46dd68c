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

class ReviewStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    REVIEW_STATUS_UNSPECIFIED: _ClassVar[ReviewStatus]
    REVIEW_STATUS_REVIEWED: _ClassVar[ReviewStatus]
    REVIEW_STATUS_FORCED: _ClassVar[ReviewStatus]
    REVIEW_STATUS_NOT_REVIEWED: _ClassVar[ReviewStatus]
    REVIEW_STATUS_VALUE_MISSING: _ClassVar[ReviewStatus]
    REVIEW_STATUS_INCOMPLETE: _ClassVar[ReviewStatus]
    REVIEW_STATUS_NOT_RANKED: _ClassVar[ReviewStatus]

class ReviewMark(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    REVIEW_MARK_UNSPECIFIED: _ClassVar[ReviewMark]
    REVIEW_MARK_BEST: _ClassVar[ReviewMark]
    REVIEW_MARK_GOOD: _ClassVar[ReviewMark]
    REVIEW_MARK_INACCURACY: _ClassVar[ReviewMark]
    REVIEW_MARK_MISTAKE: _ClassVar[ReviewMark]
    REVIEW_MARK_BLUNDER: _ClassVar[ReviewMark]
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
REVIEW_STATUS_UNSPECIFIED: ReviewStatus
REVIEW_STATUS_REVIEWED: ReviewStatus
REVIEW_STATUS_FORCED: ReviewStatus
REVIEW_STATUS_NOT_REVIEWED: ReviewStatus
REVIEW_STATUS_VALUE_MISSING: ReviewStatus
REVIEW_STATUS_INCOMPLETE: ReviewStatus
REVIEW_STATUS_NOT_RANKED: ReviewStatus
REVIEW_MARK_UNSPECIFIED: ReviewMark
REVIEW_MARK_BEST: ReviewMark
REVIEW_MARK_GOOD: ReviewMark
REVIEW_MARK_INACCURACY: ReviewMark
REVIEW_MARK_MISTAKE: ReviewMark
REVIEW_MARK_BLUNDER: ReviewMark

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

class ReviewOptions(_message.Message):
    __slots__ = ("decision_cpu_seconds", "want_states")
    DECISION_CPU_SECONDS_FIELD_NUMBER: _ClassVar[int]
    WANT_STATES_FIELD_NUMBER: _ClassVar[int]
    decision_cpu_seconds: float
    want_states: bool
    def __init__(self, decision_cpu_seconds: _Optional[float] = ..., want_states: _Optional[bool] = ...) -> None: ...

class ReviewThresholds(_message.Message):
    __slots__ = ("inaccuracy", "mistake", "blunder", "unit", "reason")
    INACCURACY_FIELD_NUMBER: _ClassVar[int]
    MISTAKE_FIELD_NUMBER: _ClassVar[int]
    BLUNDER_FIELD_NUMBER: _ClassVar[int]
    UNIT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    inaccuracy: float
    mistake: float
    blunder: float
    unit: str
    reason: str
    def __init__(self, inaccuracy: _Optional[float] = ..., mistake: _Optional[float] = ..., blunder: _Optional[float] = ..., unit: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class ReviewedDecision(_message.Message):
    __slots__ = ("player", "status", "played", "played_value", "played_standard_error", "played_samples", "best", "best_value", "best_standard_error", "best_samples", "loss", "loss_standard_error", "mark", "exact", "played_rank", "choices", "unit", "note")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    PLAYED_VALUE_FIELD_NUMBER: _ClassVar[int]
    PLAYED_STANDARD_ERROR_FIELD_NUMBER: _ClassVar[int]
    PLAYED_SAMPLES_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    BEST_VALUE_FIELD_NUMBER: _ClassVar[int]
    BEST_STANDARD_ERROR_FIELD_NUMBER: _ClassVar[int]
    BEST_SAMPLES_FIELD_NUMBER: _ClassVar[int]
    LOSS_FIELD_NUMBER: _ClassVar[int]
    LOSS_STANDARD_ERROR_FIELD_NUMBER: _ClassVar[int]
    MARK_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    PLAYED_RANK_FIELD_NUMBER: _ClassVar[int]
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    UNIT_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    player: int
    status: ReviewStatus
    played: str
    played_value: float
    played_standard_error: float
    played_samples: int
    best: str
    best_value: float
    best_standard_error: float
    best_samples: int
    loss: float
    loss_standard_error: float
    mark: ReviewMark
    exact: bool
    played_rank: int
    choices: int
    unit: str
    note: str
    def __init__(self, player: _Optional[int] = ..., status: _Optional[_Union[ReviewStatus, str]] = ..., played: _Optional[str] = ..., played_value: _Optional[float] = ..., played_standard_error: _Optional[float] = ..., played_samples: _Optional[int] = ..., best: _Optional[str] = ..., best_value: _Optional[float] = ..., best_standard_error: _Optional[float] = ..., best_samples: _Optional[int] = ..., loss: _Optional[float] = ..., loss_standard_error: _Optional[float] = ..., mark: _Optional[_Union[ReviewMark, str]] = ..., exact: _Optional[bool] = ..., played_rank: _Optional[int] = ..., choices: _Optional[int] = ..., unit: _Optional[str] = ..., note: _Optional[str] = ...) -> None: ...

class ReviewedChance(_message.Message):
    __slots__ = ("label", "probability")
    LABEL_FIELD_NUMBER: _ClassVar[int]
    PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    label: str
    probability: Probability
    def __init__(self, label: _Optional[str] = ..., probability: _Optional[_Union[Probability, _Mapping]] = ...) -> None: ...

class ReviewStep(_message.Message):
    __slots__ = ("record_step", "decision", "chance")
    RECORD_STEP_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    CHANCE_FIELD_NUMBER: _ClassVar[int]
    record_step: int
    decision: ReviewedDecision
    chance: ReviewedChance
    def __init__(self, record_step: _Optional[int] = ..., decision: _Optional[_Union[ReviewedDecision, _Mapping]] = ..., chance: _Optional[_Union[ReviewedChance, _Mapping]] = ...) -> None: ...

class PlayerReview(_message.Message):
    __slots__ = ("player", "decisions", "reviewed", "forced", "not_reviewed", "values_missing", "total_loss", "total_loss_standard_error", "mean_loss", "accuracy", "inaccuracies", "mistakes", "blunders", "costliest")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    REVIEWED_FIELD_NUMBER: _ClassVar[int]
    FORCED_FIELD_NUMBER: _ClassVar[int]
    NOT_REVIEWED_FIELD_NUMBER: _ClassVar[int]
    VALUES_MISSING_FIELD_NUMBER: _ClassVar[int]
    TOTAL_LOSS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_LOSS_STANDARD_ERROR_FIELD_NUMBER: _ClassVar[int]
    MEAN_LOSS_FIELD_NUMBER: _ClassVar[int]
    ACCURACY_FIELD_NUMBER: _ClassVar[int]
    INACCURACIES_FIELD_NUMBER: _ClassVar[int]
    MISTAKES_FIELD_NUMBER: _ClassVar[int]
    BLUNDERS_FIELD_NUMBER: _ClassVar[int]
    COSTLIEST_FIELD_NUMBER: _ClassVar[int]
    player: int
    decisions: int
    reviewed: int
    forced: int
    not_reviewed: int
    values_missing: int
    total_loss: float
    total_loss_standard_error: float
    mean_loss: float
    accuracy: float
    inaccuracies: int
    mistakes: int
    blunders: int
    costliest: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, player: _Optional[int] = ..., decisions: _Optional[int] = ..., reviewed: _Optional[int] = ..., forced: _Optional[int] = ..., not_reviewed: _Optional[int] = ..., values_missing: _Optional[int] = ..., total_loss: _Optional[float] = ..., total_loss_standard_error: _Optional[float] = ..., mean_loss: _Optional[float] = ..., accuracy: _Optional[float] = ..., inaccuracies: _Optional[int] = ..., mistakes: _Optional[int] = ..., blunders: _Optional[int] = ..., costliest: _Optional[_Iterable[int]] = ...) -> None: ...

class GameReview(_message.Message):
    __slots__ = ("steps", "players", "objective", "unit", "thresholds", "complete", "note", "end", "decision_cpu_seconds")
    STEPS_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    UNIT_FIELD_NUMBER: _ClassVar[int]
    THRESHOLDS_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    DECISION_CPU_SECONDS_FIELD_NUMBER: _ClassVar[int]
    steps: _containers.RepeatedCompositeFieldContainer[ReviewStep]
    players: _containers.RepeatedCompositeFieldContainer[PlayerReview]
    objective: Objective
    unit: str
    thresholds: ReviewThresholds
    complete: bool
    note: str
    end: TurnInfo
    decision_cpu_seconds: float
    def __init__(self, steps: _Optional[_Iterable[_Union[ReviewStep, _Mapping]]] = ..., players: _Optional[_Iterable[_Union[PlayerReview, _Mapping]]] = ..., objective: _Optional[_Union[Objective, str]] = ..., unit: _Optional[str] = ..., thresholds: _Optional[_Union[ReviewThresholds, _Mapping]] = ..., complete: _Optional[bool] = ..., note: _Optional[str] = ..., end: _Optional[_Union[TurnInfo, _Mapping]] = ..., decision_cpu_seconds: _Optional[float] = ...) -> None: ...
