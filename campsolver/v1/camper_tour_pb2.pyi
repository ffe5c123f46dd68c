from campsolver.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class PlateKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PLATE_KIND_UNSPECIFIED: _ClassVar[PlateKind]
    PLATE_KIND_NORMAL: _ClassVar[PlateKind]
    PLATE_KIND_UNEXPECTED_COMFORTS: _ClassVar[PlateKind]
    PLATE_KIND_MECHANICAL_PROBLEM: _ClassVar[PlateKind]
    PLATE_KIND_VILLAGE_FESTIVAL: _ClassVar[PlateKind]
    PLATE_KIND_NO_PARKING: _ClassVar[PlateKind]

class TokenRule(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TOKEN_RULE_UNSPECIFIED: _ClassVar[TokenRule]
    TOKEN_RULE_SUPPLY: _ClassVar[TokenRule]
    TOKEN_RULE_PER_CAMPER_CAP: _ClassVar[TokenRule]

class NoParkingReturn(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    NO_PARKING_RETURN_UNSPECIFIED: _ClassVar[NoParkingReturn]
    NO_PARKING_RETURN_TOWARD_START: _ClassVar[NoParkingReturn]
    NO_PARKING_RETURN_AWAY_FROM_HOME: _ClassVar[NoParkingReturn]

class CamperPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CAMPER_PHASE_UNSPECIFIED: _ClassVar[CamperPhase]
    CAMPER_PHASE_OUTWARD: _ClassVar[CamperPhase]
    CAMPER_PHASE_RETURN: _ClassVar[CamperPhase]
    CAMPER_PHASE_FINISHED: _ClassVar[CamperPhase]
    CAMPER_PHASE_ELIMINATED: _ClassVar[CamperPhase]

class PendingEffect(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PENDING_EFFECT_UNSPECIFIED: _ClassVar[PendingEffect]
    PENDING_EFFECT_SKIP_TURN: _ClassVar[PendingEffect]
    PENDING_EFFECT_COMFORTS_CHOICE: _ClassVar[PendingEffect]

class ComfortsChoice(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    COMFORTS_CHOICE_UNSPECIFIED: _ClassVar[ComfortsChoice]
    COMFORTS_CHOICE_RECOVER: _ClassVar[ComfortsChoice]
    COMFORTS_CHOICE_DISCARD: _ClassVar[ComfortsChoice]
    COMFORTS_CHOICE_DECLINE: _ClassVar[ComfortsChoice]
PLATE_KIND_UNSPECIFIED: PlateKind
PLATE_KIND_NORMAL: PlateKind
PLATE_KIND_UNEXPECTED_COMFORTS: PlateKind
PLATE_KIND_MECHANICAL_PROBLEM: PlateKind
PLATE_KIND_VILLAGE_FESTIVAL: PlateKind
PLATE_KIND_NO_PARKING: PlateKind
TOKEN_RULE_UNSPECIFIED: TokenRule
TOKEN_RULE_SUPPLY: TokenRule
TOKEN_RULE_PER_CAMPER_CAP: TokenRule
NO_PARKING_RETURN_UNSPECIFIED: NoParkingReturn
NO_PARKING_RETURN_TOWARD_START: NoParkingReturn
NO_PARKING_RETURN_AWAY_FROM_HOME: NoParkingReturn
CAMPER_PHASE_UNSPECIFIED: CamperPhase
CAMPER_PHASE_OUTWARD: CamperPhase
CAMPER_PHASE_RETURN: CamperPhase
CAMPER_PHASE_FINISHED: CamperPhase
CAMPER_PHASE_ELIMINATED: CamperPhase
PENDING_EFFECT_UNSPECIFIED: PendingEffect
PENDING_EFFECT_SKIP_TURN: PendingEffect
PENDING_EFFECT_COMFORTS_CHOICE: PendingEffect
COMFORTS_CHOICE_UNSPECIFIED: ComfortsChoice
COMFORTS_CHOICE_RECOVER: ComfortsChoice
COMFORTS_CHOICE_DISCARD: ComfortsChoice
COMFORTS_CHOICE_DECLINE: ComfortsChoice

class CamperTourRules(_message.Message):
    __slots__ = ("plates", "unexpected_comforts", "mechanical_problem", "village_festival", "no_parking", "tokens", "layout", "token_rule", "no_parking_return")
    PLATES_FIELD_NUMBER: _ClassVar[int]
    UNEXPECTED_COMFORTS_FIELD_NUMBER: _ClassVar[int]
    MECHANICAL_PROBLEM_FIELD_NUMBER: _ClassVar[int]
    VILLAGE_FESTIVAL_FIELD_NUMBER: _ClassVar[int]
    NO_PARKING_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    LAYOUT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_RULE_FIELD_NUMBER: _ClassVar[int]
    NO_PARKING_RETURN_FIELD_NUMBER: _ClassVar[int]
    plates: int
    unexpected_comforts: int
    mechanical_problem: int
    village_festival: int
    no_parking: int
    tokens: int
    layout: _containers.RepeatedScalarFieldContainer[PlateKind]
    token_rule: TokenRule
    no_parking_return: NoParkingReturn
    def __init__(self, plates: _Optional[int] = ..., unexpected_comforts: _Optional[int] = ..., mechanical_problem: _Optional[int] = ..., village_festival: _Optional[int] = ..., no_parking: _Optional[int] = ..., tokens: _Optional[int] = ..., layout: _Optional[_Iterable[_Union[PlateKind, str]]] = ..., token_rule: _Optional[_Union[TokenRule, str]] = ..., no_parking_return: _Optional[_Union[NoParkingReturn, str]] = ...) -> None: ...

class Camper(_message.Message):
    __slots__ = ("position", "phase", "marker", "tokens", "pending", "arrival")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    MARKER_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    ARRIVAL_FIELD_NUMBER: _ClassVar[int]
    position: int
    phase: CamperPhase
    marker: int
    tokens: int
    pending: PendingEffect
    arrival: int
    def __init__(self, position: _Optional[int] = ..., phase: _Optional[_Union[CamperPhase, str]] = ..., marker: _Optional[int] = ..., tokens: _Optional[int] = ..., pending: _Optional[_Union[PendingEffect, str]] = ..., arrival: _Optional[int] = ...) -> None: ...

class CamperTourState(_message.Message):
    __slots__ = ("rules", "placed", "campers", "to_move", "game_over")
    RULES_FIELD_NUMBER: _ClassVar[int]
    PLACED_FIELD_NUMBER: _ClassVar[int]
    CAMPERS_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    rules: CamperTourRules
    placed: _containers.RepeatedScalarFieldContainer[PlateKind]
    campers: _containers.RepeatedCompositeFieldContainer[Camper]
    to_move: int
    game_over: bool
    def __init__(self, rules: _Optional[_Union[CamperTourRules, _Mapping]] = ..., placed: _Optional[_Iterable[_Union[PlateKind, str]]] = ..., campers: _Optional[_Iterable[_Union[Camper, _Mapping]]] = ..., to_move: _Optional[int] = ..., game_over: _Optional[bool] = ...) -> None: ...

class CamperTourMove(_message.Message):
    __slots__ = ("turn_back", "announce", "comforts")
    TURN_BACK_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCE_FIELD_NUMBER: _ClassVar[int]
    COMFORTS_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    turn_back: bool
    announce: int
    comforts: ComfortsChoice
    def __init__(self, turn_back: _Optional[bool] = ..., announce: _Optional[int] = ..., comforts: _Optional[_Union[ComfortsChoice, str]] = ..., **kwargs) -> None: ...

class CamperTourAlternative(_message.Message):
    __slots__ = ("move", "ranking")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    move: CamperTourMove
    ranking: _common_pb2.RankedAlternative
    def __init__(self, move: _Optional[_Union[CamperTourMove, _Mapping]] = ..., ranking: _Optional[_Union[_common_pb2.RankedAlternative, _Mapping]] = ...) -> None: ...

class CamperTourDecision(_message.Message):
    __slots__ = ("state", "move")
    STATE_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    state: CamperTourState
    move: CamperTourMove
    def __init__(self, state: _Optional[_Union[CamperTourState, _Mapping]] = ..., move: _Optional[_Union[CamperTourMove, _Mapping]] = ...) -> None: ...

class CamperTourServiceHintRequest(_message.Message):
    __slots__ = ("state", "depth", "options", "objective", "history")
    STATE_FIELD_NUMBER: _ClassVar[int]
    DEPTH_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    state: CamperTourState
    depth: int
    options: _common_pb2.SolveOptions
    objective: _common_pb2.Objective
    history: _containers.RepeatedCompositeFieldContainer[CamperTourDecision]
    def __init__(self, state: _Optional[_Union[CamperTourState, _Mapping]] = ..., depth: _Optional[int] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ..., objective: _Optional[_Union[_common_pb2.Objective, str]] = ..., history: _Optional[_Iterable[_Union[CamperTourDecision, _Mapping]]] = ...) -> None: ...

class CamperTourServiceHintResponse(_message.Message):
    __slots__ = ("alternatives", "proof", "stats", "objective", "note")
    ALTERNATIVES_FIELD_NUMBER: _ClassVar[int]
    PROOF_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    alternatives: _containers.RepeatedCompositeFieldContainer[CamperTourAlternative]
    proof: _common_pb2.ProofStatus
    stats: _common_pb2.SolveStats
    objective: _common_pb2.Objective
    note: str
    def __init__(self, alternatives: _Optional[_Iterable[_Union[CamperTourAlternative, _Mapping]]] = ..., proof: _Optional[_Union[_common_pb2.ProofStatus, str]] = ..., stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ..., objective: _Optional[_Union[_common_pb2.Objective, str]] = ..., note: _Optional[str] = ...) -> None: ...

class CamperTourServiceMaxScoreRequest(_message.Message):
    __slots__ = ("state", "rules", "options")
    STATE_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    state: CamperTourState
    rules: CamperTourRules
    options: _common_pb2.SolveOptions
    def __init__(self, state: _Optional[_Union[CamperTourState, _Mapping]] = ..., rules: _Optional[_Union[CamperTourRules, _Mapping]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class CamperTourServiceMaxScoreResponse(_message.Message):
    __slots__ = ("expected_score", "proof", "standard_error", "alternatives", "note", "stats")
    EXPECTED_SCORE_FIELD_NUMBER: _ClassVar[int]
    PROOF_FIELD_NUMBER: _ClassVar[int]
    STANDARD_ERROR_FIELD_NUMBER: _ClassVar[int]
    ALTERNATIVES_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    expected_score: float
    proof: _common_pb2.ProofStatus
    standard_error: float
    alternatives: _containers.RepeatedCompositeFieldContainer[CamperTourAlternative]
    note: str
    stats: _common_pb2.SolveStats
    def __init__(self, expected_score: _Optional[float] = ..., proof: _Optional[_Union[_common_pb2.ProofStatus, str]] = ..., standard_error: _Optional[float] = ..., alternatives: _Optional[_Iterable[_Union[CamperTourAlternative, _Mapping]]] = ..., note: _Optional[str] = ..., stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...

class CamperTourServiceGeneratePuzzleRequest(_message.Message):
    __slots__ = ("seed", "grade", "options", "with_opponents")
    SEED_FIELD_NUMBER: _ClassVar[int]
    GRADE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    WITH_OPPONENTS_FIELD_NUMBER: _ClassVar[int]
    seed: int
    grade: _common_pb2.DifficultyGrade
    options: _common_pb2.SolveOptions
    with_opponents: bool
    def __init__(self, seed: _Optional[int] = ..., grade: _Optional[_Union[_common_pb2.DifficultyGrade, str]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ..., with_opponents: _Optional[bool] = ...) -> None: ...

class CamperTourServiceGeneratePuzzleResponse(_message.Message):
    __slots__ = ("puzzle", "state", "solution", "margin", "alternatives", "stats")
    PUZZLE_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    SOLUTION_FIELD_NUMBER: _ClassVar[int]
    MARGIN_FIELD_NUMBER: _ClassVar[int]
    ALTERNATIVES_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    puzzle: _common_pb2.PuzzleEnvelope
    state: CamperTourState
    solution: CamperTourMove
    margin: float
    alternatives: _containers.RepeatedCompositeFieldContainer[CamperTourAlternative]
    stats: _common_pb2.SolveStats
    def __init__(self, puzzle: _Optional[_Union[_common_pb2.PuzzleEnvelope, _Mapping]] = ..., state: _Optional[_Union[CamperTourState, _Mapping]] = ..., solution: _Optional[_Union[CamperTourMove, _Mapping]] = ..., margin: _Optional[float] = ..., alternatives: _Optional[_Iterable[_Union[CamperTourAlternative, _Mapping]]] = ..., stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...

class CamperTourServiceScoreRequest(_message.Message):
    __slots__ = ("state", "options")
    STATE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    state: CamperTourState
    options: _common_pb2.SolveOptions
    def __init__(self, state: _Optional[_Union[CamperTourState, _Mapping]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class CamperTourServiceScoreResponse(_message.Message):
    __slots__ = ("scores", "game_over", "winner", "details")
    SCORES_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    DETAILS_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    game_over: bool
    winner: int
    details: _containers.RepeatedCompositeFieldContainer[_common_pb2.ScoreDetail]
    def __init__(self, scores: _Optional[_Iterable[int]] = ..., game_over: _Optional[bool] = ..., winner: _Optional[int] = ..., details: _Optional[_Iterable[_Union[_common_pb2.ScoreDetail, _Mapping]]] = ...) -> None: ...

class CamperTourServiceLegalMovesRequest(_message.Message):
    __slots__ = ("state", "options")
    STATE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    state: CamperTourState
    options: _common_pb2.SolveOptions
    def __init__(self, state: _Optional[_Union[CamperTourState, _Mapping]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class CamperTourServiceLegalMovesResponse(_message.Message):
    __slots__ = ("moves", "to_move")
    MOVES_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedCompositeFieldContainer[CamperTourMove]
    to_move: int
    def __init__(self, moves: _Optional[_Iterable[_Union[CamperTourMove, _Mapping]]] = ..., to_move: _Optional[int] = ...) -> None: ...

class CamperTourServiceNewGameRequest(_message.Message):
    __slots__ = ("players", "seed", "rules", "want_picture")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    WANT_PICTURE_FIELD_NUMBER: _ClassVar[int]
    players: int
    seed: int
    rules: CamperTourRules
    want_picture: bool
    def __init__(self, players: _Optional[int] = ..., seed: _Optional[int] = ..., rules: _Optional[_Union[CamperTourRules, _Mapping]] = ..., want_picture: _Optional[bool] = ...) -> None: ...

class CamperTourServiceNewGameResponse(_message.Message):
    __slots__ = ("state", "turn", "picture_svg")
    STATE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    PICTURE_SVG_FIELD_NUMBER: _ClassVar[int]
    state: CamperTourState
    turn: _common_pb2.TurnInfo
    picture_svg: str
    def __init__(self, state: _Optional[_Union[CamperTourState, _Mapping]] = ..., turn: _Optional[_Union[_common_pb2.TurnInfo, _Mapping]] = ..., picture_svg: _Optional[str] = ...) -> None: ...

class CamperTourServicePlayRequest(_message.Message):
    __slots__ = ("state", "move", "seed", "list_outcomes", "want_picture")
    STATE_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    LIST_OUTCOMES_FIELD_NUMBER: _ClassVar[int]
    WANT_PICTURE_FIELD_NUMBER: _ClassVar[int]
    state: CamperTourState
    move: CamperTourMove
    seed: int
    list_outcomes: bool
    want_picture: bool
    def __init__(self, state: _Optional[_Union[CamperTourState, _Mapping]] = ..., move: _Optional[_Union[CamperTourMove, _Mapping]] = ..., seed: _Optional[int] = ..., list_outcomes: _Optional[bool] = ..., want_picture: _Optional[bool] = ...) -> None: ...

class CamperTourChanceOutcome(_message.Message):
    __slots__ = ("state", "probability", "label", "turn")
    STATE_FIELD_NUMBER: _ClassVar[int]
    PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    state: CamperTourState
    probability: _common_pb2.Probability
    label: str
    turn: _common_pb2.TurnInfo
    def __init__(self, state: _Optional[_Union[CamperTourState, _Mapping]] = ..., probability: _Optional[_Union[_common_pb2.Probability, _Mapping]] = ..., label: _Optional[str] = ..., turn: _Optional[_Union[_common_pb2.TurnInfo, _Mapping]] = ...) -> None: ...

class CamperTourServicePlayResponse(_message.Message):
    __slots__ = ("state", "turn", "outcomes", "picture_svg")
    STATE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    OUTCOMES_FIELD_NUMBER: _ClassVar[int]
    PICTURE_SVG_FIELD_NUMBER: _ClassVar[int]
    state: CamperTourState
    turn: _common_pb2.TurnInfo
    outcomes: _containers.RepeatedCompositeFieldContainer[CamperTourChanceOutcome]
    picture_svg: str
    def __init__(self, state: _Optional[_Union[CamperTourState, _Mapping]] = ..., turn: _Optional[_Union[_common_pb2.TurnInfo, _Mapping]] = ..., outcomes: _Optional[_Iterable[_Union[CamperTourChanceOutcome, _Mapping]]] = ..., picture_svg: _Optional[str] = ...) -> None: ...

class CamperTourRecord(_message.Message):
    __slots__ = ("start", "steps")
    START_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    start: CamperTourState
    steps: _containers.RepeatedCompositeFieldContainer[CamperTourRecordStep]
    def __init__(self, start: _Optional[_Union[CamperTourState, _Mapping]] = ..., steps: _Optional[_Iterable[_Union[CamperTourRecordStep, _Mapping]]] = ...) -> None: ...

class CamperTourRecordStep(_message.Message):
    __slots__ = ("move", "seed", "state")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    move: CamperTourMove
    seed: int
    state: CamperTourState
    def __init__(self, move: _Optional[_Union[CamperTourMove, _Mapping]] = ..., seed: _Optional[int] = ..., state: _Optional[_Union[CamperTourState, _Mapping]] = ...) -> None: ...

class CamperTourServiceReviewRequest(_message.Message):
    __slots__ = ("record", "options", "review", "objective")
    RECORD_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    REVIEW_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    record: CamperTourRecord
    options: _common_pb2.SolveOptions
    review: _common_pb2.ReviewOptions
    objective: _common_pb2.Objective
    def __init__(self, record: _Optional[_Union[CamperTourRecord, _Mapping]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ..., review: _Optional[_Union[_common_pb2.ReviewOptions, _Mapping]] = ..., objective: _Optional[_Union[_common_pb2.Objective, str]] = ...) -> None: ...

class CamperTourReviewedMove(_message.Message):
    __slots__ = ("step", "played", "best", "state")
    STEP_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    step: int
    played: CamperTourMove
    best: CamperTourMove
    state: CamperTourState
    def __init__(self, step: _Optional[int] = ..., played: _Optional[_Union[CamperTourMove, _Mapping]] = ..., best: _Optional[_Union[CamperTourMove, _Mapping]] = ..., state: _Optional[_Union[CamperTourState, _Mapping]] = ...) -> None: ...

class CamperTourServiceReviewResponse(_message.Message):
    __slots__ = ("review", "moves", "stats")
    REVIEW_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    review: _common_pb2.GameReview
    moves: _containers.RepeatedCompositeFieldContainer[CamperTourReviewedMove]
    stats: _common_pb2.SolveStats
    def __init__(self, review: _Optional[_Union[_common_pb2.GameReview, _Mapping]] = ..., moves: _Optional[_Iterable[_Union[CamperTourReviewedMove, _Mapping]]] = ..., stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...
