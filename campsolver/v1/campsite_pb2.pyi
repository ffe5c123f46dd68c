from campsolver.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Terrain(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TERRAIN_UNSPECIFIED: _ClassVar[Terrain]
    TERRAIN_DESERT: _ClassVar[Terrain]
    TERRAIN_FOREST: _ClassVar[Terrain]
    TERRAIN_MEADOW: _ClassVar[Terrain]
    TERRAIN_MOUNTAINS: _ClassVar[Terrain]
    TERRAIN_WATER: _ClassVar[Terrain]
    TERRAIN_TRAIL: _ClassVar[Terrain]

class TentToken(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TENT_TOKEN_UNSPECIFIED: _ClassVar[TentToken]
    TENT_TOKEN_DESERT: _ClassVar[TentToken]
    TENT_TOKEN_FOREST: _ClassVar[TentToken]
    TENT_TOKEN_MEADOW: _ClassVar[TentToken]
    TENT_TOKEN_MOUNTAINS: _ClassVar[TentToken]
    TENT_TOKEN_WATER: _ClassVar[TentToken]
    TENT_TOKEN_TRAIL: _ClassVar[TentToken]
    TENT_TOKEN_WILDERNESS: _ClassVar[TentToken]

class CampsiteMaxMethod(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CAMPSITE_MAX_METHOD_UNSPECIFIED: _ClassVar[CampsiteMaxMethod]
    CAMPSITE_MAX_METHOD_EXACT: _ClassVar[CampsiteMaxMethod]
    CAMPSITE_MAX_METHOD_CP_SAT: _ClassVar[CampsiteMaxMethod]

class CampsiteStage(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CAMPSITE_STAGE_UNSPECIFIED: _ClassVar[CampsiteStage]
    CAMPSITE_STAGE_DEAL: _ClassVar[CampsiteStage]
    CAMPSITE_STAGE_CARD: _ClassVar[CampsiteStage]
    CAMPSITE_STAGE_DRAW: _ClassVar[CampsiteStage]
    CAMPSITE_STAGE_OVER: _ClassVar[CampsiteStage]
TERRAIN_UNSPECIFIED: Terrain
TERRAIN_DESERT: Terrain
TERRAIN_FOREST: Terrain
TERRAIN_MEADOW: Terrain
TERRAIN_MOUNTAINS: Terrain
TERRAIN_WATER: Terrain
TERRAIN_TRAIL: Terrain
TENT_TOKEN_UNSPECIFIED: TentToken
TENT_TOKEN_DESERT: TentToken
TENT_TOKEN_FOREST: TentToken
TENT_TOKEN_MEADOW: TentToken
TENT_TOKEN_MOUNTAINS: TentToken
TENT_TOKEN_WATER: TentToken
TENT_TOKEN_TRAIL: TentToken
TENT_TOKEN_WILDERNESS: TentToken
CAMPSITE_MAX_METHOD_UNSPECIFIED: CampsiteMaxMethod
CAMPSITE_MAX_METHOD_EXACT: CampsiteMaxMethod
CAMPSITE_MAX_METHOD_CP_SAT: CampsiteMaxMethod
CAMPSITE_STAGE_UNSPECIFIED: CampsiteStage
CAMPSITE_STAGE_DEAL: CampsiteStage
CAMPSITE_STAGE_CARD: CampsiteStage
CAMPSITE_STAGE_DRAW: CampsiteStage
CAMPSITE_STAGE_OVER: CampsiteStage

class CampsiteCard(_message.Message):
    __slots__ = ("first", "second", "rows", "fair_weather", "text")
    FIRST_FIELD_NUMBER: _ClassVar[int]
    SECOND_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    FAIR_WEATHER_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    first: Terrain
    second: Terrain
    rows: _containers.RepeatedScalarFieldContainer[str]
    fair_weather: bool
    text: str
    def __init__(self, first: _Optional[_Union[Terrain, str]] = ..., second: _Optional[_Union[Terrain, str]] = ..., rows: _Optional[_Iterable[str]] = ..., fair_weather: _Optional[bool] = ..., text: _Optional[str] = ...) -> None: ...

class CampsiteCell(_message.Message):
    __slots__ = ("row", "col")
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    row: int
    col: int
    def __init__(self, row: _Optional[int] = ..., col: _Optional[int] = ...) -> None: ...

class CampsitePlacement(_message.Message):
    __slots__ = ("card", "row", "col", "rotation")
    CARD_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    ROTATION_FIELD_NUMBER: _ClassVar[int]
    card: CampsiteCard
    row: int
    col: int
    rotation: int
    def __init__(self, card: _Optional[_Union[CampsiteCard, _Mapping]] = ..., row: _Optional[int] = ..., col: _Optional[int] = ..., rotation: _Optional[int] = ...) -> None: ...

class CampsiteTent(_message.Message):
    __slots__ = ("player", "token", "row", "col")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    player: int
    token: TentToken
    row: int
    col: int
    def __init__(self, player: _Optional[int] = ..., token: _Optional[_Union[TentToken, str]] = ..., row: _Optional[int] = ..., col: _Optional[int] = ...) -> None: ...

class CampsiteTable(_message.Message):
    __slots__ = ("placements", "tents")
    PLACEMENTS_FIELD_NUMBER: _ClassVar[int]
    TENTS_FIELD_NUMBER: _ClassVar[int]
    placements: _containers.RepeatedCompositeFieldContainer[CampsitePlacement]
    tents: _containers.RepeatedCompositeFieldContainer[CampsiteTent]
    def __init__(self, placements: _Optional[_Iterable[_Union[CampsitePlacement, _Mapping]]] = ..., tents: _Optional[_Iterable[_Union[CampsiteTent, _Mapping]]] = ...) -> None: ...

class CampsiteTurnState(_message.Message):
    __slots__ = ("table", "hand", "tokens", "player", "players", "deck")
    TABLE_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    table: CampsiteTable
    hand: _containers.RepeatedCompositeFieldContainer[CampsiteCard]
    tokens: _containers.RepeatedScalarFieldContainer[TentToken]
    player: int
    players: int
    deck: _containers.RepeatedCompositeFieldContainer[CampsiteCard]
    def __init__(self, table: _Optional[_Union[CampsiteTable, _Mapping]] = ..., hand: _Optional[_Iterable[_Union[CampsiteCard, _Mapping]]] = ..., tokens: _Optional[_Iterable[_Union[TentToken, str]]] = ..., player: _Optional[int] = ..., players: _Optional[int] = ..., deck: _Optional[_Iterable[_Union[CampsiteCard, _Mapping]]] = ...) -> None: ...

class CampsitePlay(_message.Message):
    __slots__ = ("placement", "tent")
    PLACEMENT_FIELD_NUMBER: _ClassVar[int]
    TENT_FIELD_NUMBER: _ClassVar[int]
    placement: CampsitePlacement
    tent: CampsiteTent
    def __init__(self, placement: _Optional[_Union[CampsitePlacement, _Mapping]] = ..., tent: _Optional[_Union[CampsiteTent, _Mapping]] = ...) -> None: ...

class CampsiteAlternative(_message.Message):
    __slots__ = ("play", "ranking", "immediate_gain", "future_estimate", "opponent_gain")
    PLAY_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    IMMEDIATE_GAIN_FIELD_NUMBER: _ClassVar[int]
    FUTURE_ESTIMATE_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_GAIN_FIELD_NUMBER: _ClassVar[int]
    play: CampsitePlay
    ranking: _common_pb2.RankedAlternative
    immediate_gain: int
    future_estimate: float
    opponent_gain: int
    def __init__(self, play: _Optional[_Union[CampsitePlay, _Mapping]] = ..., ranking: _Optional[_Union[_common_pb2.RankedAlternative, _Mapping]] = ..., immediate_gain: _Optional[int] = ..., future_estimate: _Optional[float] = ..., opponent_gain: _Optional[int] = ...) -> None: ...

class CampsiteServiceHintRequest(_message.Message):
    __slots__ = ("state", "objective", "top", "options", "game")
    STATE_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    TOP_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    state: CampsiteTurnState
    objective: _common_pb2.Objective
    top: int
    options: _common_pb2.SolveOptions
    game: CampsiteGame
    def __init__(self, state: _Optional[_Union[CampsiteTurnState, _Mapping]] = ..., objective: _Optional[_Union[_common_pb2.Objective, str]] = ..., top: _Optional[int] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ..., game: _Optional[_Union[CampsiteGame, _Mapping]] = ...) -> None: ...

class CampsiteServiceHintResponse(_message.Message):
    __slots__ = ("alternatives", "plays_ranked", "objective", "proof", "stats")
    ALTERNATIVES_FIELD_NUMBER: _ClassVar[int]
    PLAYS_RANKED_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    PROOF_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    alternatives: _containers.RepeatedCompositeFieldContainer[CampsiteAlternative]
    plays_ranked: int
    objective: _common_pb2.Objective
    proof: _common_pb2.ProofStatus
    stats: _common_pb2.SolveStats
    def __init__(self, alternatives: _Optional[_Iterable[_Union[CampsiteAlternative, _Mapping]]] = ..., plays_ranked: _Optional[int] = ..., objective: _Optional[_Union[_common_pb2.Objective, str]] = ..., proof: _Optional[_Union[_common_pb2.ProofStatus, str]] = ..., stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...

class CampsiteRound(_message.Message):
    __slots__ = ("order", "turns")
    ORDER_FIELD_NUMBER: _ClassVar[int]
    TURNS_FIELD_NUMBER: _ClassVar[int]
    order: _containers.RepeatedCompositeFieldContainer[CampsiteCard]
    turns: int
    def __init__(self, order: _Optional[_Iterable[_Union[CampsiteCard, _Mapping]]] = ..., turns: _Optional[int] = ...) -> None: ...

class CampsiteServiceMaxScoreRequest(_message.Message):
    __slots__ = ("turn", "round", "method", "options")
    TURN_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    turn: CampsiteTurnState
    round: CampsiteRound
    method: CampsiteMaxMethod
    options: _common_pb2.SolveOptions
    def __init__(self, turn: _Optional[_Union[CampsiteTurnState, _Mapping]] = ..., round: _Optional[_Union[CampsiteRound, _Mapping]] = ..., method: _Optional[_Union[CampsiteMaxMethod, str]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class CampsiteServiceMaxScoreResponse(_message.Message):
    __slots__ = ("score", "gain", "proof", "plays", "optimal_plays", "note", "final_table", "stats")
    SCORE_FIELD_NUMBER: _ClassVar[int]
    GAIN_FIELD_NUMBER: _ClassVar[int]
    PROOF_FIELD_NUMBER: _ClassVar[int]
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    OPTIMAL_PLAYS_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    FINAL_TABLE_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    score: int
    gain: int
    proof: _common_pb2.ProofStatus
    plays: _containers.RepeatedCompositeFieldContainer[CampsitePlay]
    optimal_plays: int
    note: str
    final_table: CampsiteTable
    stats: _common_pb2.SolveStats
    def __init__(self, score: _Optional[int] = ..., gain: _Optional[int] = ..., proof: _Optional[_Union[_common_pb2.ProofStatus, str]] = ..., plays: _Optional[_Iterable[_Union[CampsitePlay, _Mapping]]] = ..., optimal_plays: _Optional[int] = ..., note: _Optional[str] = ..., final_table: _Optional[_Union[CampsiteTable, _Mapping]] = ..., stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...

class CampsiteServiceGeneratePuzzleRequest(_message.Message):
    __slots__ = ("seed", "grade", "options")
    SEED_FIELD_NUMBER: _ClassVar[int]
    GRADE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    seed: int
    grade: _common_pb2.DifficultyGrade
    options: _common_pb2.SolveOptions
    def __init__(self, seed: _Optional[int] = ..., grade: _Optional[_Union[_common_pb2.DifficultyGrade, str]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class CampsiteServiceGeneratePuzzleResponse(_message.Message):
    __slots__ = ("puzzle", "state", "solution", "best_score", "second_best_score", "stats")
    PUZZLE_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    SOLUTION_FIELD_NUMBER: _ClassVar[int]
    BEST_SCORE_FIELD_NUMBER: _ClassVar[int]
    SECOND_BEST_SCORE_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    puzzle: _common_pb2.PuzzleEnvelope
    state: CampsiteTurnState
    solution: CampsitePlay
    best_score: int
    second_best_score: int
    stats: _common_pb2.SolveStats
    def __init__(self, puzzle: _Optional[_Union[_common_pb2.PuzzleEnvelope, _Mapping]] = ..., state: _Optional[_Union[CampsiteTurnState, _Mapping]] = ..., solution: _Optional[_Union[CampsitePlay, _Mapping]] = ..., best_score: _Optional[int] = ..., second_best_score: _Optional[int] = ..., stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...

class CampsiteServiceScoreRequest(_message.Message):
    __slots__ = ("table", "players", "options", "game")
    TABLE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    table: CampsiteTable
    players: int
    options: _common_pb2.SolveOptions
    game: CampsiteGame
    def __init__(self, table: _Optional[_Union[CampsiteTable, _Mapping]] = ..., players: _Optional[int] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ..., game: _Optional[_Union[CampsiteGame, _Mapping]] = ...) -> None: ...

class CampsiteTentScore(_message.Message):
    __slots__ = ("tent", "base", "doubled", "points")
    TENT_FIELD_NUMBER: _ClassVar[int]
    BASE_FIELD_NUMBER: _ClassVar[int]
    DOUBLED_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    tent: CampsiteTent
    base: int
    doubled: bool
    points: int
    def __init__(self, tent: _Optional[_Union[CampsiteTent, _Mapping]] = ..., base: _Optional[int] = ..., doubled: _Optional[bool] = ..., points: _Optional[int] = ...) -> None: ...

class CampsiteServiceScoreResponse(_message.Message):
    __slots__ = ("scores", "tents", "details")
    SCORES_FIELD_NUMBER: _ClassVar[int]
    TENTS_FIELD_NUMBER: _ClassVar[int]
    DETAILS_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    tents: _containers.RepeatedCompositeFieldContainer[CampsiteTentScore]
    details: _containers.RepeatedCompositeFieldContainer[_common_pb2.ScoreDetail]
    def __init__(self, scores: _Optional[_Iterable[int]] = ..., tents: _Optional[_Iterable[_Union[CampsiteTentScore, _Mapping]]] = ..., details: _Optional[_Iterable[_Union[_common_pb2.ScoreDetail, _Mapping]]] = ...) -> None: ...

class CampsiteServiceLegalMovesRequest(_message.Message):
    __slots__ = ("state", "after", "options", "game")
    STATE_FIELD_NUMBER: _ClassVar[int]
    AFTER_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    state: CampsiteTurnState
    after: CampsitePlacement
    options: _common_pb2.SolveOptions
    game: CampsiteGame
    def __init__(self, state: _Optional[_Union[CampsiteTurnState, _Mapping]] = ..., after: _Optional[_Union[CampsitePlacement, _Mapping]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ..., game: _Optional[_Union[CampsiteGame, _Mapping]] = ...) -> None: ...

class CampsiteServiceLegalMovesResponse(_message.Message):
    __slots__ = ("placements", "tent_squares", "tokens")
    PLACEMENTS_FIELD_NUMBER: _ClassVar[int]
    TENT_SQUARES_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    placements: _containers.RepeatedCompositeFieldContainer[CampsitePlacement]
    tent_squares: _containers.RepeatedCompositeFieldContainer[CampsiteCell]
    tokens: _containers.RepeatedScalarFieldContainer[TentToken]
    def __init__(self, placements: _Optional[_Iterable[_Union[CampsitePlacement, _Mapping]]] = ..., tent_squares: _Optional[_Iterable[_Union[CampsiteCell, _Mapping]]] = ..., tokens: _Optional[_Iterable[_Union[TentToken, str]]] = ...) -> None: ...

class CampsiteServiceNewGameRequest(_message.Message):
    __slots__ = ("players", "seed", "deck", "want_picture")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    WANT_PICTURE_FIELD_NUMBER: _ClassVar[int]
    players: int
    seed: int
    deck: _containers.RepeatedCompositeFieldContainer[CampsiteCard]
    want_picture: bool
    def __init__(self, players: _Optional[int] = ..., seed: _Optional[int] = ..., deck: _Optional[_Iterable[_Union[CampsiteCard, _Mapping]]] = ..., want_picture: _Optional[bool] = ...) -> None: ...

class CampsiteServiceNewGameResponse(_message.Message):
    __slots__ = ("state", "turn", "picture_svg")
    STATE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    PICTURE_SVG_FIELD_NUMBER: _ClassVar[int]
    state: CampsiteGame
    turn: _common_pb2.TurnInfo
    picture_svg: str
    def __init__(self, state: _Optional[_Union[CampsiteGame, _Mapping]] = ..., turn: _Optional[_Union[_common_pb2.TurnInfo, _Mapping]] = ..., picture_svg: _Optional[str] = ...) -> None: ...

class CampsiteServicePlayRequest(_message.Message):
    __slots__ = ("state", "move", "seed", "list_outcomes", "want_picture")
    STATE_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    LIST_OUTCOMES_FIELD_NUMBER: _ClassVar[int]
    WANT_PICTURE_FIELD_NUMBER: _ClassVar[int]
    state: CampsiteGame
    move: CampsitePlay
    seed: int
    list_outcomes: bool
    want_picture: bool
    def __init__(self, state: _Optional[_Union[CampsiteGame, _Mapping]] = ..., move: _Optional[_Union[CampsitePlay, _Mapping]] = ..., seed: _Optional[int] = ..., list_outcomes: _Optional[bool] = ..., want_picture: _Optional[bool] = ...) -> None: ...

class CampsiteChanceOutcome(_message.Message):
    __slots__ = ("state", "probability", "label", "turn")
    STATE_FIELD_NUMBER: _ClassVar[int]
    PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    state: CampsiteGame
    probability: _common_pb2.Probability
    label: str
    turn: _common_pb2.TurnInfo
    def __init__(self, state: _Optional[_Union[CampsiteGame, _Mapping]] = ..., probability: _Optional[_Union[_common_pb2.Probability, _Mapping]] = ..., label: _Optional[str] = ..., turn: _Optional[_Union[_common_pb2.TurnInfo, _Mapping]] = ...) -> None: ...

class CampsiteServicePlayResponse(_message.Message):
    __slots__ = ("state", "turn", "outcomes", "picture_svg")
    STATE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    OUTCOMES_FIELD_NUMBER: _ClassVar[int]
    PICTURE_SVG_FIELD_NUMBER: _ClassVar[int]
    state: CampsiteGame
    turn: _common_pb2.TurnInfo
    outcomes: _containers.RepeatedCompositeFieldContainer[CampsiteChanceOutcome]
    picture_svg: str
    def __init__(self, state: _Optional[_Union[CampsiteGame, _Mapping]] = ..., turn: _Optional[_Union[_common_pb2.TurnInfo, _Mapping]] = ..., outcomes: _Optional[_Iterable[_Union[CampsiteChanceOutcome, _Mapping]]] = ..., picture_svg: _Optional[str] = ...) -> None: ...

class CampsiteHand(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[CampsiteCard]
    def __init__(self, cards: _Optional[_Iterable[_Union[CampsiteCard, _Mapping]]] = ...) -> None: ...

class CampsiteTokens(_message.Message):
    __slots__ = ("tokens",)
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    tokens: _containers.RepeatedScalarFieldContainer[TentToken]
    def __init__(self, tokens: _Optional[_Iterable[_Union[TentToken, str]]] = ...) -> None: ...

class CampsiteRoundScores(_message.Message):
    __slots__ = ("scores",)
    SCORES_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, scores: _Optional[_Iterable[int]] = ...) -> None: ...

class CampsiteGame(_message.Message):
    __slots__ = ("players", "deck", "round", "turn", "stage", "hands", "table", "tokens", "totals", "round_scores")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    STAGE_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    ROUND_SCORES_FIELD_NUMBER: _ClassVar[int]
    players: int
    deck: _containers.RepeatedCompositeFieldContainer[CampsiteCard]
    round: int
    turn: int
    stage: CampsiteStage
    hands: _containers.RepeatedCompositeFieldContainer[CampsiteHand]
    table: CampsiteTable
    tokens: _containers.RepeatedCompositeFieldContainer[CampsiteTokens]
    totals: _containers.RepeatedScalarFieldContainer[int]
    round_scores: _containers.RepeatedCompositeFieldContainer[CampsiteRoundScores]
    def __init__(self, players: _Optional[int] = ..., deck: _Optional[_Iterable[_Union[CampsiteCard, _Mapping]]] = ..., round: _Optional[int] = ..., turn: _Optional[int] = ..., stage: _Optional[_Union[CampsiteStage, str]] = ..., hands: _Optional[_Iterable[_Union[CampsiteHand, _Mapping]]] = ..., table: _Optional[_Union[CampsiteTable, _Mapping]] = ..., tokens: _Optional[_Iterable[_Union[CampsiteTokens, _Mapping]]] = ..., totals: _Optional[_Iterable[int]] = ..., round_scores: _Optional[_Iterable[_Union[CampsiteRoundScores, _Mapping]]] = ...) -> None: ...

class CampsiteRecord(_message.Message):
    __slots__ = ("start", "steps")
    START_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    start: CampsiteGame
    steps: _containers.RepeatedCompositeFieldContainer[CampsiteRecordStep]
    def __init__(self, start: _Optional[_Union[CampsiteGame, _Mapping]] = ..., steps: _Optional[_Iterable[_Union[CampsiteRecordStep, _Mapping]]] = ...) -> None: ...

class CampsiteRecordStep(_message.Message):
    __slots__ = ("move", "seed", "state")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    move: CampsitePlay
    seed: int
    state: CampsiteGame
    def __init__(self, move: _Optional[_Union[CampsitePlay, _Mapping]] = ..., seed: _Optional[int] = ..., state: _Optional[_Union[CampsiteGame, _Mapping]] = ...) -> None: ...

class CampsiteServiceReviewRequest(_message.Message):
    __slots__ = ("record", "options", "review", "objective")
    RECORD_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    REVIEW_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    record: CampsiteRecord
    options: _common_pb2.SolveOptions
    review: _common_pb2.ReviewOptions
    objective: _common_pb2.Objective
    def __init__(self, record: _Optional[_Union[CampsiteRecord, _Mapping]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ..., review: _Optional[_Union[_common_pb2.ReviewOptions, _Mapping]] = ..., objective: _Optional[_Union[_common_pb2.Objective, str]] = ...) -> None: ...

class CampsiteReviewedMove(_message.Message):
    __slots__ = ("step", "played", "best", "state")
    STEP_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    step: int
    played: CampsitePlay
    best: CampsitePlay
    state: CampsiteGame
    def __init__(self, step: _Optional[int] = ..., played: _Optional[_Union[CampsitePlay, _Mapping]] = ..., best: _Optional[_Union[CampsitePlay, _Mapping]] = ..., state: _Optional[_Union[CampsiteGame, _Mapping]] = ...) -> None: ...

class CampsiteServiceReviewResponse(_message.Message):
    __slots__ = ("review", "moves", "stats")
    REVIEW_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    review: _common_pb2.GameReview
    moves: _containers.RepeatedCompositeFieldContainer[CampsiteReviewedMove]
    stats: _common_pb2.SolveStats
    def __init__(self, review: _Optional[_Union[_common_pb2.GameReview, _Mapping]] = ..., moves: _Optional[_Iterable[_Union[CampsiteReviewedMove, _Mapping]]] = ..., stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...
