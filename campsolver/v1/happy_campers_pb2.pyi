from campsolver.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Challenge(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHALLENGE_UNSPECIFIED: _ClassVar[Challenge]
    CHALLENGE_PRIVACY: _ClassVar[Challenge]
    CHALLENGE_QUICK_PEE: _ClassVar[Challenge]
    CHALLENGE_TENT_TOGETHER: _ClassVar[Challenge]
    CHALLENGE_NATURE_RESERVE: _ClassVar[Challenge]
    CHALLENGE_RIVER_TOWN: _ClassVar[Challenge]
    CHALLENGE_NOISY_NEIGHBOURS: _ClassVar[Challenge]
    CHALLENGE_GREAT_DIVIDE: _ClassVar[Challenge]
    CHALLENGE_DANGEROUS_ANIMALS: _ClassVar[Challenge]
    CHALLENGE_FESTIVAL: _ClassVar[Challenge]

class MaxMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MAX_MODE_UNSPECIFIED: _ClassVar[MaxMode]
    MAX_MODE_CLAIRVOYANT: _ClassVar[MaxMode]
    MAX_MODE_ABSOLUTE: _ClassVar[MaxMode]

class HintMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HINT_MODE_UNSPECIFIED: _ClassVar[HintMode]
    HINT_MODE_OWN_MAP: _ClassVar[HintMode]
    HINT_MODE_NEIGHBOUR_MAP: _ClassVar[HintMode]
    HINT_MODE_SOLO: _ClassVar[HintMode]
    HINT_MODE_MULTIPLAYER: _ClassVar[HintMode]

class HintObjective(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HINT_OBJECTIVE_UNSPECIFIED: _ClassVar[HintObjective]
    HINT_OBJECTIVE_OWNER_WORST: _ClassVar[HintObjective]
    HINT_OBJECTIVE_OWNER_BEST: _ClassVar[HintObjective]
CHALLENGE_UNSPECIFIED: Challenge
CHALLENGE_PRIVACY: Challenge
CHALLENGE_QUICK_PEE: Challenge
CHALLENGE_TENT_TOGETHER: Challenge
CHALLENGE_NATURE_RESERVE: Challenge
CHALLENGE_RIVER_TOWN: Challenge
CHALLENGE_NOISY_NEIGHBOURS: Challenge
CHALLENGE_GREAT_DIVIDE: Challenge
CHALLENGE_DANGEROUS_ANIMALS: Challenge
CHALLENGE_FESTIVAL: Challenge
MAX_MODE_UNSPECIFIED: MaxMode
MAX_MODE_CLAIRVOYANT: MaxMode
MAX_MODE_ABSOLUTE: MaxMode
HINT_MODE_UNSPECIFIED: HintMode
HINT_MODE_OWN_MAP: HintMode
HINT_MODE_NEIGHBOUR_MAP: HintMode
HINT_MODE_SOLO: HintMode
HINT_MODE_MULTIPLAYER: HintMode
HINT_OBJECTIVE_UNSPECIFIED: HintObjective
HINT_OBJECTIVE_OWNER_WORST: HintObjective
HINT_OBJECTIVE_OWNER_BEST: HintObjective

class HappyCampersComponents(_message.Message):
    __slots__ = ("rows", "cols", "shapes")
    ROWS_FIELD_NUMBER: _ClassVar[int]
    COLS_FIELD_NUMBER: _ClassVar[int]
    SHAPES_FIELD_NUMBER: _ClassVar[int]
    rows: int
    cols: int
    shapes: _containers.RepeatedCompositeFieldContainer[HappyCampersShape]
    def __init__(self, rows: _Optional[int] = ..., cols: _Optional[int] = ..., shapes: _Optional[_Iterable[_Union[HappyCampersShape, _Mapping]]] = ...) -> None: ...

class HappyCampersShape(_message.Message):
    __slots__ = ("rows",)
    ROWS_FIELD_NUMBER: _ClassVar[int]
    rows: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, rows: _Optional[_Iterable[str]] = ...) -> None: ...

class HappyCampersRoll(_message.Message):
    __slots__ = ("first", "second")
    FIRST_FIELD_NUMBER: _ClassVar[int]
    SECOND_FIELD_NUMBER: _ClassVar[int]
    first: int
    second: int
    def __init__(self, first: _Optional[int] = ..., second: _Optional[int] = ...) -> None: ...

class HappyCampersCell(_message.Message):
    __slots__ = ("row", "col")
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    row: int
    col: int
    def __init__(self, row: _Optional[int] = ..., col: _Optional[int] = ...) -> None: ...

class HappyCampersPlacement(_message.Message):
    __slots__ = ("turn", "shape_face", "element_face", "element", "cells", "map_index")
    TURN_FIELD_NUMBER: _ClassVar[int]
    SHAPE_FACE_FIELD_NUMBER: _ClassVar[int]
    ELEMENT_FACE_FIELD_NUMBER: _ClassVar[int]
    ELEMENT_FIELD_NUMBER: _ClassVar[int]
    CELLS_FIELD_NUMBER: _ClassVar[int]
    MAP_INDEX_FIELD_NUMBER: _ClassVar[int]
    turn: int
    shape_face: int
    element_face: int
    element: str
    cells: _containers.RepeatedCompositeFieldContainer[HappyCampersCell]
    map_index: int
    def __init__(self, turn: _Optional[int] = ..., shape_face: _Optional[int] = ..., element_face: _Optional[int] = ..., element: _Optional[str] = ..., cells: _Optional[_Iterable[_Union[HappyCampersCell, _Mapping]]] = ..., map_index: _Optional[int] = ...) -> None: ...

class HappyCampersScore(_message.Message):
    __slots__ = ("total", "complete", "details")
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_FIELD_NUMBER: _ClassVar[int]
    DETAILS_FIELD_NUMBER: _ClassVar[int]
    total: int
    complete: bool
    details: _containers.RepeatedCompositeFieldContainer[_common_pb2.ScoreDetail]
    def __init__(self, total: _Optional[int] = ..., complete: _Optional[bool] = ..., details: _Optional[_Iterable[_Union[_common_pb2.ScoreDetail, _Mapping]]] = ...) -> None: ...

class HappyCampersServiceMaxScoreRequest(_message.Message):
    __slots__ = ("components", "start_map", "rolls", "challenges", "mode", "card_maxima", "options")
    COMPONENTS_FIELD_NUMBER: _ClassVar[int]
    START_MAP_FIELD_NUMBER: _ClassVar[int]
    ROLLS_FIELD_NUMBER: _ClassVar[int]
    CHALLENGES_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    CARD_MAXIMA_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    components: HappyCampersComponents
    start_map: _containers.RepeatedScalarFieldContainer[str]
    rolls: _containers.RepeatedCompositeFieldContainer[HappyCampersRoll]
    challenges: _containers.RepeatedScalarFieldContainer[Challenge]
    mode: MaxMode
    card_maxima: bool
    options: _common_pb2.SolveOptions
    def __init__(self, components: _Optional[_Union[HappyCampersComponents, _Mapping]] = ..., start_map: _Optional[_Iterable[str]] = ..., rolls: _Optional[_Iterable[_Union[HappyCampersRoll, _Mapping]]] = ..., challenges: _Optional[_Iterable[_Union[Challenge, str]]] = ..., mode: _Optional[_Union[MaxMode, str]] = ..., card_maxima: _Optional[bool] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class HappyCampersCardMax(_message.Message):
    __slots__ = ("challenge", "points", "proof", "bound")
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    PROOF_FIELD_NUMBER: _ClassVar[int]
    BOUND_FIELD_NUMBER: _ClassVar[int]
    challenge: Challenge
    points: int
    proof: _common_pb2.ProofStatus
    bound: float
    def __init__(self, challenge: _Optional[_Union[Challenge, str]] = ..., points: _Optional[int] = ..., proof: _Optional[_Union[_common_pb2.ProofStatus, str]] = ..., bound: _Optional[float] = ...) -> None: ...

class HappyCampersServiceMaxScoreResponse(_message.Message):
    __slots__ = ("score", "proof", "final_map", "placements", "rolls_used", "ended_by_blocked_roll", "breakdown", "card_maxima", "stats")
    SCORE_FIELD_NUMBER: _ClassVar[int]
    PROOF_FIELD_NUMBER: _ClassVar[int]
    FINAL_MAP_FIELD_NUMBER: _ClassVar[int]
    PLACEMENTS_FIELD_NUMBER: _ClassVar[int]
    ROLLS_USED_FIELD_NUMBER: _ClassVar[int]
    ENDED_BY_BLOCKED_ROLL_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_FIELD_NUMBER: _ClassVar[int]
    CARD_MAXIMA_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    score: int
    proof: _common_pb2.ProofStatus
    final_map: _containers.RepeatedScalarFieldContainer[str]
    placements: _containers.RepeatedCompositeFieldContainer[HappyCampersPlacement]
    rolls_used: int
    ended_by_blocked_roll: bool
    breakdown: HappyCampersScore
    card_maxima: _containers.RepeatedCompositeFieldContainer[HappyCampersCardMax]
    stats: _common_pb2.SolveStats
    def __init__(self, score: _Optional[int] = ..., proof: _Optional[_Union[_common_pb2.ProofStatus, str]] = ..., final_map: _Optional[_Iterable[str]] = ..., placements: _Optional[_Iterable[_Union[HappyCampersPlacement, _Mapping]]] = ..., rolls_used: _Optional[int] = ..., ended_by_blocked_roll: _Optional[bool] = ..., breakdown: _Optional[_Union[HappyCampersScore, _Mapping]] = ..., card_maxima: _Optional[_Iterable[_Union[HappyCampersCardMax, _Mapping]]] = ..., stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...

class HappyCampersServiceHintRequest(_message.Message):
    __slots__ = ("components", "map", "second_map", "roll", "challenges", "mode", "second_challenges", "options", "objective", "solo_double_gap", "solo_last_turn_map", "other_maps", "players", "bonus_turn", "game", "solo_follow")
    COMPONENTS_FIELD_NUMBER: _ClassVar[int]
    MAP_FIELD_NUMBER: _ClassVar[int]
    SECOND_MAP_FIELD_NUMBER: _ClassVar[int]
    ROLL_FIELD_NUMBER: _ClassVar[int]
    CHALLENGES_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    SECOND_CHALLENGES_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    SOLO_DOUBLE_GAP_FIELD_NUMBER: _ClassVar[int]
    SOLO_LAST_TURN_MAP_FIELD_NUMBER: _ClassVar[int]
    OTHER_MAPS_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    BONUS_TURN_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SOLO_FOLLOW_FIELD_NUMBER: _ClassVar[int]
    components: HappyCampersComponents
    map: _containers.RepeatedScalarFieldContainer[str]
    second_map: _containers.RepeatedScalarFieldContainer[str]
    roll: HappyCampersRoll
    challenges: _containers.RepeatedScalarFieldContainer[Challenge]
    mode: HintMode
    second_challenges: _containers.RepeatedScalarFieldContainer[Challenge]
    options: _common_pb2.SolveOptions
    objective: HintObjective
    solo_double_gap: int
    solo_last_turn_map: int
    other_maps: _containers.RepeatedCompositeFieldContainer[HappyCampersMap]
    players: int
    bonus_turn: bool
    game: HappyCampersGame
    solo_follow: HappyCampersOption
    def __init__(self, components: _Optional[_Union[HappyCampersComponents, _Mapping]] = ..., map: _Optional[_Iterable[str]] = ..., second_map: _Optional[_Iterable[str]] = ..., roll: _Optional[_Union[HappyCampersRoll, _Mapping]] = ..., challenges: _Optional[_Iterable[_Union[Challenge, str]]] = ..., mode: _Optional[_Union[HintMode, str]] = ..., second_challenges: _Optional[_Iterable[_Union[Challenge, str]]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ..., objective: _Optional[_Union[HintObjective, str]] = ..., solo_double_gap: _Optional[int] = ..., solo_last_turn_map: _Optional[int] = ..., other_maps: _Optional[_Iterable[_Union[HappyCampersMap, _Mapping]]] = ..., players: _Optional[int] = ..., bonus_turn: _Optional[bool] = ..., game: _Optional[_Union[HappyCampersGame, _Mapping]] = ..., solo_follow: _Optional[_Union[HappyCampersOption, _Mapping]] = ...) -> None: ...

class HappyCampersMap(_message.Message):
    __slots__ = ("rows",)
    ROWS_FIELD_NUMBER: _ClassVar[int]
    rows: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, rows: _Optional[_Iterable[str]] = ...) -> None: ...

class HappyCampersHintMove(_message.Message):
    __slots__ = ("placements",)
    PLACEMENTS_FIELD_NUMBER: _ClassVar[int]
    placements: _containers.RepeatedCompositeFieldContainer[HappyCampersPlacement]
    def __init__(self, placements: _Optional[_Iterable[_Union[HappyCampersPlacement, _Mapping]]] = ...) -> None: ...

class HappyCampersHintAlternative(_message.Message):
    __slots__ = ("move", "ranking")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    move: HappyCampersHintMove
    ranking: _common_pb2.RankedAlternative
    def __init__(self, move: _Optional[_Union[HappyCampersHintMove, _Mapping]] = ..., ranking: _Optional[_Union[_common_pb2.RankedAlternative, _Mapping]] = ...) -> None: ...

class HappyCampersServiceHintResponse(_message.Message):
    __slots__ = ("alternatives", "blocked", "stats", "blocked_maps", "game_ends_after", "unlisted_pairs")
    ALTERNATIVES_FIELD_NUMBER: _ClassVar[int]
    BLOCKED_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    BLOCKED_MAPS_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDS_AFTER_FIELD_NUMBER: _ClassVar[int]
    UNLISTED_PAIRS_FIELD_NUMBER: _ClassVar[int]
    alternatives: _containers.RepeatedCompositeFieldContainer[HappyCampersHintAlternative]
    blocked: bool
    stats: _common_pb2.SolveStats
    blocked_maps: _containers.RepeatedScalarFieldContainer[int]
    game_ends_after: bool
    unlisted_pairs: int
    def __init__(self, alternatives: _Optional[_Iterable[_Union[HappyCampersHintAlternative, _Mapping]]] = ..., blocked: _Optional[bool] = ..., stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ..., blocked_maps: _Optional[_Iterable[int]] = ..., game_ends_after: _Optional[bool] = ..., unlisted_pairs: _Optional[int] = ...) -> None: ...

class HappyCampersServiceGeneratePuzzleRequest(_message.Message):
    __slots__ = ("seed", "components", "rolls", "grade", "options")
    SEED_FIELD_NUMBER: _ClassVar[int]
    COMPONENTS_FIELD_NUMBER: _ClassVar[int]
    ROLLS_FIELD_NUMBER: _ClassVar[int]
    GRADE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    seed: int
    components: HappyCampersComponents
    rolls: int
    grade: _common_pb2.DifficultyGrade
    options: _common_pb2.SolveOptions
    def __init__(self, seed: _Optional[int] = ..., components: _Optional[_Union[HappyCampersComponents, _Mapping]] = ..., rolls: _Optional[int] = ..., grade: _Optional[_Union[_common_pb2.DifficultyGrade, str]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class HappyCampersServiceGeneratePuzzleResponse(_message.Message):
    __slots__ = ("puzzle", "start_map", "rolls", "challenges", "optimum", "solution", "solution_map", "stats")
    PUZZLE_FIELD_NUMBER: _ClassVar[int]
    START_MAP_FIELD_NUMBER: _ClassVar[int]
    ROLLS_FIELD_NUMBER: _ClassVar[int]
    CHALLENGES_FIELD_NUMBER: _ClassVar[int]
    OPTIMUM_FIELD_NUMBER: _ClassVar[int]
    SOLUTION_FIELD_NUMBER: _ClassVar[int]
    SOLUTION_MAP_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    puzzle: _common_pb2.PuzzleEnvelope
    start_map: _containers.RepeatedScalarFieldContainer[str]
    rolls: _containers.RepeatedCompositeFieldContainer[HappyCampersRoll]
    challenges: _containers.RepeatedScalarFieldContainer[Challenge]
    optimum: int
    solution: _containers.RepeatedCompositeFieldContainer[HappyCampersPlacement]
    solution_map: _containers.RepeatedScalarFieldContainer[str]
    stats: _common_pb2.SolveStats
    def __init__(self, puzzle: _Optional[_Union[_common_pb2.PuzzleEnvelope, _Mapping]] = ..., start_map: _Optional[_Iterable[str]] = ..., rolls: _Optional[_Iterable[_Union[HappyCampersRoll, _Mapping]]] = ..., challenges: _Optional[_Iterable[_Union[Challenge, str]]] = ..., optimum: _Optional[int] = ..., solution: _Optional[_Iterable[_Union[HappyCampersPlacement, _Mapping]]] = ..., solution_map: _Optional[_Iterable[str]] = ..., stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...

class HappyCampersServiceScoreRequest(_message.Message):
    __slots__ = ("components", "map", "challenges", "festival_won", "options", "game")
    COMPONENTS_FIELD_NUMBER: _ClassVar[int]
    MAP_FIELD_NUMBER: _ClassVar[int]
    CHALLENGES_FIELD_NUMBER: _ClassVar[int]
    FESTIVAL_WON_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    components: HappyCampersComponents
    map: _containers.RepeatedScalarFieldContainer[str]
    challenges: _containers.RepeatedScalarFieldContainer[Challenge]
    festival_won: bool
    options: _common_pb2.SolveOptions
    game: HappyCampersGame
    def __init__(self, components: _Optional[_Union[HappyCampersComponents, _Mapping]] = ..., map: _Optional[_Iterable[str]] = ..., challenges: _Optional[_Iterable[_Union[Challenge, str]]] = ..., festival_won: _Optional[bool] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ..., game: _Optional[_Union[HappyCampersGame, _Mapping]] = ...) -> None: ...

class HappyCampersServiceScoreResponse(_message.Message):
    __slots__ = ("score", "map_scores")
    SCORE_FIELD_NUMBER: _ClassVar[int]
    MAP_SCORES_FIELD_NUMBER: _ClassVar[int]
    score: HappyCampersScore
    map_scores: _containers.RepeatedCompositeFieldContainer[HappyCampersScore]
    def __init__(self, score: _Optional[_Union[HappyCampersScore, _Mapping]] = ..., map_scores: _Optional[_Iterable[_Union[HappyCampersScore, _Mapping]]] = ...) -> None: ...

class HappyCampersServiceLegalMovesRequest(_message.Message):
    __slots__ = ("components", "map", "roll", "options", "game")
    COMPONENTS_FIELD_NUMBER: _ClassVar[int]
    MAP_FIELD_NUMBER: _ClassVar[int]
    ROLL_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    components: HappyCampersComponents
    map: _containers.RepeatedScalarFieldContainer[str]
    roll: HappyCampersRoll
    options: _common_pb2.SolveOptions
    game: HappyCampersGame
    def __init__(self, components: _Optional[_Union[HappyCampersComponents, _Mapping]] = ..., map: _Optional[_Iterable[str]] = ..., roll: _Optional[_Union[HappyCampersRoll, _Mapping]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ..., game: _Optional[_Union[HappyCampersGame, _Mapping]] = ...) -> None: ...

class HappyCampersServiceLegalMovesResponse(_message.Message):
    __slots__ = ("moves", "can_draw")
    MOVES_FIELD_NUMBER: _ClassVar[int]
    CAN_DRAW_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedCompositeFieldContainer[HappyCampersPlacement]
    can_draw: bool
    def __init__(self, moves: _Optional[_Iterable[_Union[HappyCampersPlacement, _Mapping]]] = ..., can_draw: _Optional[bool] = ...) -> None: ...

class HappyCampersServiceNewGameRequest(_message.Message):
    __slots__ = ("players", "seed", "components", "challenges", "second_challenges", "solo_double_gap", "want_picture")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    COMPONENTS_FIELD_NUMBER: _ClassVar[int]
    CHALLENGES_FIELD_NUMBER: _ClassVar[int]
    SECOND_CHALLENGES_FIELD_NUMBER: _ClassVar[int]
    SOLO_DOUBLE_GAP_FIELD_NUMBER: _ClassVar[int]
    WANT_PICTURE_FIELD_NUMBER: _ClassVar[int]
    players: int
    seed: int
    components: HappyCampersComponents
    challenges: _containers.RepeatedScalarFieldContainer[Challenge]
    second_challenges: _containers.RepeatedScalarFieldContainer[Challenge]
    solo_double_gap: int
    want_picture: bool
    def __init__(self, players: _Optional[int] = ..., seed: _Optional[int] = ..., components: _Optional[_Union[HappyCampersComponents, _Mapping]] = ..., challenges: _Optional[_Iterable[_Union[Challenge, str]]] = ..., second_challenges: _Optional[_Iterable[_Union[Challenge, str]]] = ..., solo_double_gap: _Optional[int] = ..., want_picture: _Optional[bool] = ...) -> None: ...

class HappyCampersServiceNewGameResponse(_message.Message):
    __slots__ = ("state", "turn", "picture_svg")
    STATE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    PICTURE_SVG_FIELD_NUMBER: _ClassVar[int]
    state: HappyCampersGame
    turn: _common_pb2.TurnInfo
    picture_svg: str
    def __init__(self, state: _Optional[_Union[HappyCampersGame, _Mapping]] = ..., turn: _Optional[_Union[_common_pb2.TurnInfo, _Mapping]] = ..., picture_svg: _Optional[str] = ...) -> None: ...

class HappyCampersServicePlayRequest(_message.Message):
    __slots__ = ("state", "move", "seed", "list_outcomes", "want_picture")
    STATE_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    LIST_OUTCOMES_FIELD_NUMBER: _ClassVar[int]
    WANT_PICTURE_FIELD_NUMBER: _ClassVar[int]
    state: HappyCampersGame
    move: HappyCampersHintMove
    seed: int
    list_outcomes: bool
    want_picture: bool
    def __init__(self, state: _Optional[_Union[HappyCampersGame, _Mapping]] = ..., move: _Optional[_Union[HappyCampersHintMove, _Mapping]] = ..., seed: _Optional[int] = ..., list_outcomes: _Optional[bool] = ..., want_picture: _Optional[bool] = ...) -> None: ...

class HappyCampersChanceOutcome(_message.Message):
    __slots__ = ("state", "probability", "label", "turn")
    STATE_FIELD_NUMBER: _ClassVar[int]
    PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    state: HappyCampersGame
    probability: _common_pb2.Probability
    label: str
    turn: _common_pb2.TurnInfo
    def __init__(self, state: _Optional[_Union[HappyCampersGame, _Mapping]] = ..., probability: _Optional[_Union[_common_pb2.Probability, _Mapping]] = ..., label: _Optional[str] = ..., turn: _Optional[_Union[_common_pb2.TurnInfo, _Mapping]] = ...) -> None: ...

class HappyCampersServicePlayResponse(_message.Message):
    __slots__ = ("state", "turn", "outcomes", "picture_svg")
    STATE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    OUTCOMES_FIELD_NUMBER: _ClassVar[int]
    PICTURE_SVG_FIELD_NUMBER: _ClassVar[int]
    state: HappyCampersGame
    turn: _common_pb2.TurnInfo
    outcomes: _containers.RepeatedCompositeFieldContainer[HappyCampersChanceOutcome]
    picture_svg: str
    def __init__(self, state: _Optional[_Union[HappyCampersGame, _Mapping]] = ..., turn: _Optional[_Union[_common_pb2.TurnInfo, _Mapping]] = ..., outcomes: _Optional[_Iterable[_Union[HappyCampersChanceOutcome, _Mapping]]] = ..., picture_svg: _Optional[str] = ...) -> None: ...

class HappyCampersGame(_message.Message):
    __slots__ = ("components", "maps", "challenges", "second_challenges", "solo", "solo_double_gap", "roll", "over", "in_game", "to_draw", "bonus_next", "bonus_turn", "solo_last_turn_map", "solo_follow")
    COMPONENTS_FIELD_NUMBER: _ClassVar[int]
    MAPS_FIELD_NUMBER: _ClassVar[int]
    CHALLENGES_FIELD_NUMBER: _ClassVar[int]
    SECOND_CHALLENGES_FIELD_NUMBER: _ClassVar[int]
    SOLO_FIELD_NUMBER: _ClassVar[int]
    SOLO_DOUBLE_GAP_FIELD_NUMBER: _ClassVar[int]
    ROLL_FIELD_NUMBER: _ClassVar[int]
    OVER_FIELD_NUMBER: _ClassVar[int]
    IN_GAME_FIELD_NUMBER: _ClassVar[int]
    TO_DRAW_FIELD_NUMBER: _ClassVar[int]
    BONUS_NEXT_FIELD_NUMBER: _ClassVar[int]
    BONUS_TURN_FIELD_NUMBER: _ClassVar[int]
    SOLO_LAST_TURN_MAP_FIELD_NUMBER: _ClassVar[int]
    SOLO_FOLLOW_FIELD_NUMBER: _ClassVar[int]
    components: HappyCampersComponents
    maps: _containers.RepeatedCompositeFieldContainer[HappyCampersMap]
    challenges: _containers.RepeatedScalarFieldContainer[Challenge]
    second_challenges: _containers.RepeatedScalarFieldContainer[Challenge]
    solo: bool
    solo_double_gap: int
    roll: HappyCampersRoll
    over: bool
    in_game: _containers.RepeatedScalarFieldContainer[bool]
    to_draw: _containers.RepeatedScalarFieldContainer[int]
    bonus_next: bool
    bonus_turn: bool
    solo_last_turn_map: int
    solo_follow: HappyCampersOption
    def __init__(self, components: _Optional[_Union[HappyCampersComponents, _Mapping]] = ..., maps: _Optional[_Iterable[_Union[HappyCampersMap, _Mapping]]] = ..., challenges: _Optional[_Iterable[_Union[Challenge, str]]] = ..., second_challenges: _Optional[_Iterable[_Union[Challenge, str]]] = ..., solo: _Optional[bool] = ..., solo_double_gap: _Optional[int] = ..., roll: _Optional[_Union[HappyCampersRoll, _Mapping]] = ..., over: _Optional[bool] = ..., in_game: _Optional[_Iterable[bool]] = ..., to_draw: _Optional[_Iterable[int]] = ..., bonus_next: _Optional[bool] = ..., bonus_turn: _Optional[bool] = ..., solo_last_turn_map: _Optional[int] = ..., solo_follow: _Optional[_Union[HappyCampersOption, _Mapping]] = ...) -> None: ...

class HappyCampersOption(_message.Message):
    __slots__ = ("shape_face", "element_face")
    SHAPE_FACE_FIELD_NUMBER: _ClassVar[int]
    ELEMENT_FACE_FIELD_NUMBER: _ClassVar[int]
    shape_face: int
    element_face: int
    def __init__(self, shape_face: _Optional[int] = ..., element_face: _Optional[int] = ...) -> None: ...

class HappyCampersRecord(_message.Message):
    __slots__ = ("start", "steps")
    START_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    start: HappyCampersGame
    steps: _containers.RepeatedCompositeFieldContainer[HappyCampersRecordStep]
    def __init__(self, start: _Optional[_Union[HappyCampersGame, _Mapping]] = ..., steps: _Optional[_Iterable[_Union[HappyCampersRecordStep, _Mapping]]] = ...) -> None: ...

class HappyCampersRecordStep(_message.Message):
    __slots__ = ("move", "seed", "state")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    move: HappyCampersHintMove
    seed: int
    state: HappyCampersGame
    def __init__(self, move: _Optional[_Union[HappyCampersHintMove, _Mapping]] = ..., seed: _Optional[int] = ..., state: _Optional[_Union[HappyCampersGame, _Mapping]] = ...) -> None: ...

class HappyCampersServiceReviewRequest(_message.Message):
    __slots__ = ("record", "options", "review", "objective")
    RECORD_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    REVIEW_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    record: HappyCampersRecord
    options: _common_pb2.SolveOptions
    review: _common_pb2.ReviewOptions
    objective: _common_pb2.Objective
    def __init__(self, record: _Optional[_Union[HappyCampersRecord, _Mapping]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ..., review: _Optional[_Union[_common_pb2.ReviewOptions, _Mapping]] = ..., objective: _Optional[_Union[_common_pb2.Objective, str]] = ...) -> None: ...

class HappyCampersReviewedMove(_message.Message):
    __slots__ = ("step", "played", "best", "state")
    STEP_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    step: int
    played: HappyCampersHintMove
    best: HappyCampersHintMove
    state: HappyCampersGame
    def __init__(self, step: _Optional[int] = ..., played: _Optional[_Union[HappyCampersHintMove, _Mapping]] = ..., best: _Optional[_Union[HappyCampersHintMove, _Mapping]] = ..., state: _Optional[_Union[HappyCampersGame, _Mapping]] = ...) -> None: ...

class HappyCampersServiceReviewResponse(_message.Message):
    __slots__ = ("review", "moves", "stats")
    REVIEW_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    review: _common_pb2.GameReview
    moves: _containers.RepeatedCompositeFieldContainer[HappyCampersReviewedMove]
    stats: _common_pb2.SolveStats
    def __init__(self, review: _Optional[_Union[_common_pb2.GameReview, _Mapping]] = ..., moves: _Optional[_Iterable[_Union[HappyCampersReviewedMove, _Mapping]]] = ..., stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...
