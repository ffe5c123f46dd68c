from campsolver.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DeluxeCampingStage(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DELUXE_CAMPING_STAGE_UNSPECIFIED: _ClassVar[DeluxeCampingStage]
    DELUXE_CAMPING_STAGE_POOL: _ClassVar[DeluxeCampingStage]
    DELUXE_CAMPING_STAGE_MYSTERY: _ClassVar[DeluxeCampingStage]
    DELUXE_CAMPING_STAGE_BUNGALOW: _ClassVar[DeluxeCampingStage]
    DELUXE_CAMPING_STAGE_TRAILER: _ClassVar[DeluxeCampingStage]
    DELUXE_CAMPING_STAGE_REVEAL: _ClassVar[DeluxeCampingStage]
    DELUXE_CAMPING_STAGE_MOVE: _ClassVar[DeluxeCampingStage]
    DELUXE_CAMPING_STAGE_BARRIER: _ClassVar[DeluxeCampingStage]
    DELUXE_CAMPING_STAGE_OVER: _ClassVar[DeluxeCampingStage]

class DeluxeCampingHintLeaf(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DELUXE_CAMPING_HINT_LEAF_UNSPECIFIED: _ClassVar[DeluxeCampingHintLeaf]
    DELUXE_CAMPING_HINT_LEAF_ESTIMATE: _ClassVar[DeluxeCampingHintLeaf]
    DELUXE_CAMPING_HINT_LEAF_SECURABLE: _ClassVar[DeluxeCampingHintLeaf]

class DeluxeCampingMaxObjective(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DELUXE_CAMPING_MAX_OBJECTIVE_UNSPECIFIED: _ClassVar[DeluxeCampingMaxObjective]
    DELUXE_CAMPING_MAX_OBJECTIVE_OWN: _ClassVar[DeluxeCampingMaxObjective]
    DELUXE_CAMPING_MAX_OBJECTIVE_MARGIN: _ClassVar[DeluxeCampingMaxObjective]
    DELUXE_CAMPING_MAX_OBJECTIVE_TOTAL: _ClassVar[DeluxeCampingMaxObjective]
DELUXE_CAMPING_STAGE_UNSPECIFIED: DeluxeCampingStage
DELUXE_CAMPING_STAGE_POOL: DeluxeCampingStage
DELUXE_CAMPING_STAGE_MYSTERY: DeluxeCampingStage
DELUXE_CAMPING_STAGE_BUNGALOW: DeluxeCampingStage
DELUXE_CAMPING_STAGE_TRAILER: DeluxeCampingStage
DELUXE_CAMPING_STAGE_REVEAL: DeluxeCampingStage
DELUXE_CAMPING_STAGE_MOVE: DeluxeCampingStage
DELUXE_CAMPING_STAGE_BARRIER: DeluxeCampingStage
DELUXE_CAMPING_STAGE_OVER: DeluxeCampingStage
DELUXE_CAMPING_HINT_LEAF_UNSPECIFIED: DeluxeCampingHintLeaf
DELUXE_CAMPING_HINT_LEAF_ESTIMATE: DeluxeCampingHintLeaf
DELUXE_CAMPING_HINT_LEAF_SECURABLE: DeluxeCampingHintLeaf
DELUXE_CAMPING_MAX_OBJECTIVE_UNSPECIFIED: DeluxeCampingMaxObjective
DELUXE_CAMPING_MAX_OBJECTIVE_OWN: DeluxeCampingMaxObjective
DELUXE_CAMPING_MAX_OBJECTIVE_MARGIN: DeluxeCampingMaxObjective
DELUXE_CAMPING_MAX_OBJECTIVE_TOTAL: DeluxeCampingMaxObjective

class DeluxeCampingRules(_message.Message):
    __slots__ = ("rows", "cols", "players", "trailers", "supply", "strict_colours", "optional_free_barrier")
    ROWS_FIELD_NUMBER: _ClassVar[int]
    COLS_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    TRAILERS_FIELD_NUMBER: _ClassVar[int]
    SUPPLY_FIELD_NUMBER: _ClassVar[int]
    STRICT_COLOURS_FIELD_NUMBER: _ClassVar[int]
    OPTIONAL_FREE_BARRIER_FIELD_NUMBER: _ClassVar[int]
    rows: int
    cols: int
    players: int
    trailers: int
    supply: int
    strict_colours: bool
    optional_free_barrier: bool
    def __init__(self, rows: _Optional[int] = ..., cols: _Optional[int] = ..., players: _Optional[int] = ..., trailers: _Optional[int] = ..., supply: _Optional[int] = ..., strict_colours: _Optional[bool] = ..., optional_free_barrier: _Optional[bool] = ...) -> None: ...

class DeluxeCampingSquare(_message.Message):
    __slots__ = ("row", "col")
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    row: int
    col: int
    def __init__(self, row: _Optional[int] = ..., col: _Optional[int] = ...) -> None: ...

class DeluxeCampingBarrier(_message.Message):
    __slots__ = ("a", "b")
    A_FIELD_NUMBER: _ClassVar[int]
    B_FIELD_NUMBER: _ClassVar[int]
    a: DeluxeCampingSquare
    b: DeluxeCampingSquare
    def __init__(self, a: _Optional[_Union[DeluxeCampingSquare, _Mapping]] = ..., b: _Optional[_Union[DeluxeCampingSquare, _Mapping]] = ...) -> None: ...

class DeluxeCampingPlayer(_message.Message):
    __slots__ = ("bungalow", "trailers")
    BUNGALOW_FIELD_NUMBER: _ClassVar[int]
    TRAILERS_FIELD_NUMBER: _ClassVar[int]
    bungalow: DeluxeCampingSquare
    trailers: _containers.RepeatedCompositeFieldContainer[DeluxeCampingSquare]
    def __init__(self, bungalow: _Optional[_Union[DeluxeCampingSquare, _Mapping]] = ..., trailers: _Optional[_Iterable[_Union[DeluxeCampingSquare, _Mapping]]] = ...) -> None: ...

class DeluxeCampingState(_message.Message):
    __slots__ = ("rules", "stage", "to_move", "pool", "mystery", "ice_creams", "nuisance", "players", "barriers", "idle_turns", "first_player", "placed_this_turn")
    RULES_FIELD_NUMBER: _ClassVar[int]
    STAGE_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    POOL_FIELD_NUMBER: _ClassVar[int]
    MYSTERY_FIELD_NUMBER: _ClassVar[int]
    ICE_CREAMS_FIELD_NUMBER: _ClassVar[int]
    NUISANCE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    BARRIERS_FIELD_NUMBER: _ClassVar[int]
    IDLE_TURNS_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    PLACED_THIS_TURN_FIELD_NUMBER: _ClassVar[int]
    rules: DeluxeCampingRules
    stage: DeluxeCampingStage
    to_move: int
    pool: DeluxeCampingSquare
    mystery: _containers.RepeatedCompositeFieldContainer[DeluxeCampingSquare]
    ice_creams: _containers.RepeatedCompositeFieldContainer[DeluxeCampingSquare]
    nuisance: DeluxeCampingSquare
    players: _containers.RepeatedCompositeFieldContainer[DeluxeCampingPlayer]
    barriers: _containers.RepeatedCompositeFieldContainer[DeluxeCampingBarrier]
    idle_turns: int
    first_player: int
    placed_this_turn: int
    def __init__(self, rules: _Optional[_Union[DeluxeCampingRules, _Mapping]] = ..., stage: _Optional[_Union[DeluxeCampingStage, str]] = ..., to_move: _Optional[int] = ..., pool: _Optional[_Union[DeluxeCampingSquare, _Mapping]] = ..., mystery: _Optional[_Iterable[_Union[DeluxeCampingSquare, _Mapping]]] = ..., ice_creams: _Optional[_Iterable[_Union[DeluxeCampingSquare, _Mapping]]] = ..., nuisance: _Optional[_Union[DeluxeCampingSquare, _Mapping]] = ..., players: _Optional[_Iterable[_Union[DeluxeCampingPlayer, _Mapping]]] = ..., barriers: _Optional[_Iterable[_Union[DeluxeCampingBarrier, _Mapping]]] = ..., idle_turns: _Optional[int] = ..., first_player: _Optional[int] = ..., placed_this_turn: _Optional[int] = ...) -> None: ...

class DeluxeCampingStep(_message.Message):
    __slots__ = ("to",)
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    to: DeluxeCampingSquare
    def __init__(self, to: _Optional[_Union[DeluxeCampingSquare, _Mapping]] = ..., **kwargs) -> None: ...

class DeluxeCampingMovement(_message.Message):
    __slots__ = ("steps",)
    STEPS_FIELD_NUMBER: _ClassVar[int]
    steps: _containers.RepeatedCompositeFieldContainer[DeluxeCampingStep]
    def __init__(self, steps: _Optional[_Iterable[_Union[DeluxeCampingStep, _Mapping]]] = ...) -> None: ...

class DeluxeCampingMove(_message.Message):
    __slots__ = ("place", "movement", "barrier", "no_barrier")
    PLACE_FIELD_NUMBER: _ClassVar[int]
    MOVEMENT_FIELD_NUMBER: _ClassVar[int]
    BARRIER_FIELD_NUMBER: _ClassVar[int]
    NO_BARRIER_FIELD_NUMBER: _ClassVar[int]
    place: DeluxeCampingSquare
    movement: DeluxeCampingMovement
    barrier: DeluxeCampingBarrier
    no_barrier: bool
    def __init__(self, place: _Optional[_Union[DeluxeCampingSquare, _Mapping]] = ..., movement: _Optional[_Union[DeluxeCampingMovement, _Mapping]] = ..., barrier: _Optional[_Union[DeluxeCampingBarrier, _Mapping]] = ..., no_barrier: _Optional[bool] = ...) -> None: ...

class DeluxeCampingAlternative(_message.Message):
    __slots__ = ("move", "ranking")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    move: DeluxeCampingMove
    ranking: _common_pb2.RankedAlternative
    def __init__(self, move: _Optional[_Union[DeluxeCampingMove, _Mapping]] = ..., ranking: _Optional[_Union[_common_pb2.RankedAlternative, _Mapping]] = ...) -> None: ...

class DeluxeCampingSite(_message.Message):
    __slots__ = ("squares", "owner", "points")
    SQUARES_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    squares: _containers.RepeatedCompositeFieldContainer[DeluxeCampingSquare]
    owner: int
    points: int
    def __init__(self, squares: _Optional[_Iterable[_Union[DeluxeCampingSquare, _Mapping]]] = ..., owner: _Optional[int] = ..., points: _Optional[int] = ...) -> None: ...

class DeluxeCampingServiceHintRequest(_message.Message):
    __slots__ = ("state", "objective", "options", "leaf", "max_reply_plies")
    STATE_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    LEAF_FIELD_NUMBER: _ClassVar[int]
    MAX_REPLY_PLIES_FIELD_NUMBER: _ClassVar[int]
    state: DeluxeCampingState
    objective: _common_pb2.Objective
    options: _common_pb2.SolveOptions
    leaf: DeluxeCampingHintLeaf
    max_reply_plies: int
    def __init__(self, state: _Optional[_Union[DeluxeCampingState, _Mapping]] = ..., objective: _Optional[_Union[_common_pb2.Objective, str]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ..., leaf: _Optional[_Union[DeluxeCampingHintLeaf, str]] = ..., max_reply_plies: _Optional[int] = ...) -> None: ...

class DeluxeCampingServiceHintResponse(_message.Message):
    __slots__ = ("alternatives", "proof", "stats", "note")
    ALTERNATIVES_FIELD_NUMBER: _ClassVar[int]
    PROOF_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    alternatives: _containers.RepeatedCompositeFieldContainer[DeluxeCampingAlternative]
    proof: _common_pb2.ProofStatus
    stats: _common_pb2.SolveStats
    note: str
    def __init__(self, alternatives: _Optional[_Iterable[_Union[DeluxeCampingAlternative, _Mapping]]] = ..., proof: _Optional[_Union[_common_pb2.ProofStatus, str]] = ..., stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ..., note: _Optional[str] = ...) -> None: ...

class DeluxeCampingServiceMaxScoreRequest(_message.Message):
    __slots__ = ("state", "player", "objective", "options")
    STATE_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    state: DeluxeCampingState
    player: int
    objective: DeluxeCampingMaxObjective
    options: _common_pb2.SolveOptions
    def __init__(self, state: _Optional[_Union[DeluxeCampingState, _Mapping]] = ..., player: _Optional[int] = ..., objective: _Optional[_Union[DeluxeCampingMaxObjective, str]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class DeluxeCampingServiceMaxScoreResponse(_message.Message):
    __slots__ = ("value", "proof", "scores", "barriers", "sites", "note", "stats")
    VALUE_FIELD_NUMBER: _ClassVar[int]
    PROOF_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    BARRIERS_FIELD_NUMBER: _ClassVar[int]
    SITES_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    value: int
    proof: _common_pb2.ProofStatus
    scores: _containers.RepeatedScalarFieldContainer[int]
    barriers: _containers.RepeatedCompositeFieldContainer[DeluxeCampingBarrier]
    sites: _containers.RepeatedCompositeFieldContainer[DeluxeCampingSite]
    note: str
    stats: _common_pb2.SolveStats
    def __init__(self, value: _Optional[int] = ..., proof: _Optional[_Union[_common_pb2.ProofStatus, str]] = ..., scores: _Optional[_Iterable[int]] = ..., barriers: _Optional[_Iterable[_Union[DeluxeCampingBarrier, _Mapping]]] = ..., sites: _Optional[_Iterable[_Union[DeluxeCampingSite, _Mapping]]] = ..., note: _Optional[str] = ..., stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...

class DeluxeCampingServiceGeneratePuzzleRequest(_message.Message):
    __slots__ = ("seed", "grade", "barriers", "options")
    SEED_FIELD_NUMBER: _ClassVar[int]
    GRADE_FIELD_NUMBER: _ClassVar[int]
    BARRIERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    seed: int
    grade: _common_pb2.DifficultyGrade
    barriers: int
    options: _common_pb2.SolveOptions
    def __init__(self, seed: _Optional[int] = ..., grade: _Optional[_Union[_common_pb2.DifficultyGrade, str]] = ..., barriers: _Optional[int] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class DeluxeCampingServiceGeneratePuzzleResponse(_message.Message):
    __slots__ = ("puzzle", "state", "player", "barriers", "solution", "points", "stats")
    PUZZLE_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    BARRIERS_FIELD_NUMBER: _ClassVar[int]
    SOLUTION_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    puzzle: _common_pb2.PuzzleEnvelope
    state: DeluxeCampingState
    player: int
    barriers: int
    solution: _containers.RepeatedCompositeFieldContainer[DeluxeCampingBarrier]
    points: int
    stats: _common_pb2.SolveStats
    def __init__(self, puzzle: _Optional[_Union[_common_pb2.PuzzleEnvelope, _Mapping]] = ..., state: _Optional[_Union[DeluxeCampingState, _Mapping]] = ..., player: _Optional[int] = ..., barriers: _Optional[int] = ..., solution: _Optional[_Iterable[_Union[DeluxeCampingBarrier, _Mapping]]] = ..., points: _Optional[int] = ..., stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...

class DeluxeCampingServiceScoreRequest(_message.Message):
    __slots__ = ("state", "options")
    STATE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    state: DeluxeCampingState
    options: _common_pb2.SolveOptions
    def __init__(self, state: _Optional[_Union[DeluxeCampingState, _Mapping]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class DeluxeCampingServiceScoreResponse(_message.Message):
    __slots__ = ("scores", "game_over", "winner", "sites", "details", "barriers_left")
    SCORES_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    SITES_FIELD_NUMBER: _ClassVar[int]
    DETAILS_FIELD_NUMBER: _ClassVar[int]
    BARRIERS_LEFT_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    game_over: bool
    winner: int
    sites: _containers.RepeatedCompositeFieldContainer[DeluxeCampingSite]
    details: _containers.RepeatedCompositeFieldContainer[_common_pb2.ScoreDetail]
    barriers_left: int
    def __init__(self, scores: _Optional[_Iterable[int]] = ..., game_over: _Optional[bool] = ..., winner: _Optional[int] = ..., sites: _Optional[_Iterable[_Union[DeluxeCampingSite, _Mapping]]] = ..., details: _Optional[_Iterable[_Union[_common_pb2.ScoreDetail, _Mapping]]] = ..., barriers_left: _Optional[int] = ...) -> None: ...

class DeluxeCampingServiceLegalMovesRequest(_message.Message):
    __slots__ = ("state", "options")
    STATE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    state: DeluxeCampingState
    options: _common_pb2.SolveOptions
    def __init__(self, state: _Optional[_Union[DeluxeCampingState, _Mapping]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class DeluxeCampingServiceLegalMovesResponse(_message.Message):
    __slots__ = ("moves", "to_move", "stage")
    MOVES_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    STAGE_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedCompositeFieldContainer[DeluxeCampingMove]
    to_move: int
    stage: DeluxeCampingStage
    def __init__(self, moves: _Optional[_Iterable[_Union[DeluxeCampingMove, _Mapping]]] = ..., to_move: _Optional[int] = ..., stage: _Optional[_Union[DeluxeCampingStage, str]] = ...) -> None: ...

class DeluxeCampingServiceNewGameRequest(_message.Message):
    __slots__ = ("players", "seed", "rules", "want_picture")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    WANT_PICTURE_FIELD_NUMBER: _ClassVar[int]
    players: int
    seed: int
    rules: DeluxeCampingRules
    want_picture: bool
    def __init__(self, players: _Optional[int] = ..., seed: _Optional[int] = ..., rules: _Optional[_Union[DeluxeCampingRules, _Mapping]] = ..., want_picture: _Optional[bool] = ...) -> None: ...

class DeluxeCampingServiceNewGameResponse(_message.Message):
    __slots__ = ("state", "turn", "picture_svg")
    STATE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    PICTURE_SVG_FIELD_NUMBER: _ClassVar[int]
    state: DeluxeCampingState
    turn: _common_pb2.TurnInfo
    picture_svg: str
    def __init__(self, state: _Optional[_Union[DeluxeCampingState, _Mapping]] = ..., turn: _Optional[_Union[_common_pb2.TurnInfo, _Mapping]] = ..., picture_svg: _Optional[str] = ...) -> None: ...

class DeluxeCampingServicePlayRequest(_message.Message):
    __slots__ = ("state", "move", "seed", "list_outcomes", "want_picture")
    STATE_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    LIST_OUTCOMES_FIELD_NUMBER: _ClassVar[int]
    WANT_PICTURE_FIELD_NUMBER: _ClassVar[int]
    state: DeluxeCampingState
    move: DeluxeCampingMove
    seed: int
    list_outcomes: bool
    want_picture: bool
    def __init__(self, state: _Optional[_Union[DeluxeCampingState, _Mapping]] = ..., move: _Optional[_Union[DeluxeCampingMove, _Mapping]] = ..., seed: _Optional[int] = ..., list_outcomes: _Optional[bool] = ..., want_picture: _Optional[bool] = ...) -> None: ...

class DeluxeCampingChanceOutcome(_message.Message):
    __slots__ = ("state", "probability", "label", "turn")
    STATE_FIELD_NUMBER: _ClassVar[int]
    PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    state: DeluxeCampingState
    probability: _common_pb2.Probability
    label: str
    turn: _common_pb2.TurnInfo
    def __init__(self, state: _Optional[_Union[DeluxeCampingState, _Mapping]] = ..., probability: _Optional[_Union[_common_pb2.Probability, _Mapping]] = ..., label: _Optional[str] = ..., turn: _Optional[_Union[_common_pb2.TurnInfo, _Mapping]] = ...) -> None: ...

class DeluxeCampingServicePlayResponse(_message.Message):
    __slots__ = ("state", "turn", "outcomes", "picture_svg")
    STATE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    OUTCOMES_FIELD_NUMBER: _ClassVar[int]
    PICTURE_SVG_FIELD_NUMBER: _ClassVar[int]
    state: DeluxeCampingState
    turn: _common_pb2.TurnInfo
    outcomes: _containers.RepeatedCompositeFieldContainer[DeluxeCampingChanceOutcome]
    picture_svg: str
    def __init__(self, state: _Optional[_Union[DeluxeCampingState, _Mapping]] = ..., turn: _Optional[_Union[_common_pb2.TurnInfo, _Mapping]] = ..., outcomes: _Optional[_Iterable[_Union[DeluxeCampingChanceOutcome, _Mapping]]] = ..., picture_svg: _Optional[str] = ...) -> None: ...

class DeluxeCampingRecord(_message.Message):
    __slots__ = ("start", "steps")
    START_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    start: DeluxeCampingState
    steps: _containers.RepeatedCompositeFieldContainer[DeluxeCampingRecordStep]
    def __init__(self, start: _Optional[_Union[DeluxeCampingState, _Mapping]] = ..., steps: _Optional[_Iterable[_Union[DeluxeCampingRecordStep, _Mapping]]] = ...) -> None: ...

class DeluxeCampingRecordStep(_message.Message):
    __slots__ = ("move", "seed", "state")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    move: DeluxeCampingMove
    seed: int
    state: DeluxeCampingState
    def __init__(self, move: _Optional[_Union[DeluxeCampingMove, _Mapping]] = ..., seed: _Optional[int] = ..., state: _Optional[_Union[DeluxeCampingState, _Mapping]] = ...) -> None: ...

class DeluxeCampingServiceReviewRequest(_message.Message):
    __slots__ = ("record", "options", "review", "objective")
    RECORD_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    REVIEW_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    record: DeluxeCampingRecord
    options: _common_pb2.SolveOptions
    review: _common_pb2.ReviewOptions
    objective: _common_pb2.Objective
    def __init__(self, record: _Optional[_Union[DeluxeCampingRecord, _Mapping]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ..., review: _Optional[_Union[_common_pb2.ReviewOptions, _Mapping]] = ..., objective: _Optional[_Union[_common_pb2.Objective, str]] = ...) -> None: ...

class DeluxeCampingReviewedMove(_message.Message):
    __slots__ = ("step", "played", "best", "state")
    STEP_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    step: int
    played: DeluxeCampingMove
    best: DeluxeCampingMove
    state: DeluxeCampingState
    def __init__(self, step: _Optional[int] = ..., played: _Optional[_Union[DeluxeCampingMove, _Mapping]] = ..., best: _Optional[_Union[DeluxeCampingMove, _Mapping]] = ..., state: _Optional[_Union[DeluxeCampingState, _Mapping]] = ...) -> None: ...

class DeluxeCampingServiceReviewResponse(_message.Message):
    __slots__ = ("review", "moves", "stats")
    REVIEW_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    review: _common_pb2.GameReview
    moves: _containers.RepeatedCompositeFieldContainer[DeluxeCampingReviewedMove]
    stats: _common_pb2.SolveStats
    def __init__(self, review: _Optional[_Union[_common_pb2.GameReview, _Mapping]] = ..., moves: _Optional[_Iterable[_Union[DeluxeCampingReviewedMove, _Mapping]]] = ..., stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...
