from campsolver.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AdventureColour(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ADVENTURE_COLOUR_UNSPECIFIED: _ClassVar[AdventureColour]
    ADVENTURE_COLOUR_RED: _ClassVar[AdventureColour]
    ADVENTURE_COLOUR_BLUE: _ClassVar[AdventureColour]
    ADVENTURE_COLOUR_YELLOW: _ClassVar[AdventureColour]

class AdventureAction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ADVENTURE_ACTION_UNSPECIFIED: _ClassVar[AdventureAction]
    ADVENTURE_ACTION_NONE: _ClassVar[AdventureAction]
    ADVENTURE_ACTION_GIVE_ONE: _ClassVar[AdventureAction]
    ADVENTURE_ACTION_GIVE_TWO: _ClassVar[AdventureAction]
    ADVENTURE_ACTION_EXTRA_EQUIPMENT: _ClassVar[AdventureAction]
    ADVENTURE_ACTION_DISCARD_EQUIPMENT: _ClassVar[AdventureAction]
    ADVENTURE_ACTION_STEAL_EQUIPMENT: _ClassVar[AdventureAction]
    ADVENTURE_ACTION_EXTRA_TURN: _ClassVar[AdventureAction]
    ADVENTURE_ACTION_SAME_COLOUR_MEMBER: _ClassVar[AdventureAction]
    ADVENTURE_ACTION_DISCARD_MEMBER: _ClassVar[AdventureAction]
    ADVENTURE_ACTION_STEAL_MEMBER: _ClassVar[AdventureAction]
    ADVENTURE_ACTION_PATER_MILLER: _ClassVar[AdventureAction]

class AdventureAbility(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ADVENTURE_ABILITY_UNSPECIFIED: _ClassVar[AdventureAbility]
    ADVENTURE_ABILITY_NONE: _ClassVar[AdventureAbility]
    ADVENTURE_ABILITY_EXTRA_EQUIPMENT: _ClassVar[AdventureAbility]
    ADVENTURE_ABILITY_GIFT_AFTER_EQUIPMENT: _ClassVar[AdventureAbility]
    ADVENTURE_ABILITY_EQUIPMENT_ACTION: _ClassVar[AdventureAbility]
    ADVENTURE_ABILITY_EXTRA_MEMBER: _ClassVar[AdventureAbility]
    ADVENTURE_ABILITY_DOUBLE_ACTION: _ClassVar[AdventureAbility]
    ADVENTURE_ABILITY_EXTRA_TURN: _ClassVar[AdventureAbility]

class AdventureVariation(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ADVENTURE_VARIATION_UNSPECIFIED: _ClassVar[AdventureVariation]
    ADVENTURE_VARIATION_NONE: _ClassVar[AdventureVariation]
    ADVENTURE_VARIATION_SHUFFLE: _ClassVar[AdventureVariation]
    ADVENTURE_VARIATION_LOWEST_CHOOSES: _ClassVar[AdventureVariation]

class AdventureMoneyFloor(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ADVENTURE_MONEY_FLOOR_UNSPECIFIED: _ClassVar[AdventureMoneyFloor]
    ADVENTURE_MONEY_FLOOR_MONEY_PILE: _ClassVar[AdventureMoneyFloor]
    ADVENTURE_MONEY_FLOOR_PER_ROUND: _ClassVar[AdventureMoneyFloor]

class AdventureMaxObjective(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ADVENTURE_MAX_OBJECTIVE_UNSPECIFIED: _ClassVar[AdventureMaxObjective]
    ADVENTURE_MAX_OBJECTIVE_INCOME: _ClassVar[AdventureMaxObjective]
    ADVENTURE_MAX_OBJECTIVE_MARGIN: _ClassVar[AdventureMaxObjective]

class AdventureOthers(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ADVENTURE_OTHERS_UNSPECIFIED: _ClassVar[AdventureOthers]
    ADVENTURE_OTHERS_COOPERATIVE: _ClassVar[AdventureOthers]
    ADVENTURE_OTHERS_GREEDY: _ClassVar[AdventureOthers]
ADVENTURE_COLOUR_UNSPECIFIED: AdventureColour
ADVENTURE_COLOUR_RED: AdventureColour
ADVENTURE_COLOUR_BLUE: AdventureColour
ADVENTURE_COLOUR_YELLOW: AdventureColour
ADVENTURE_ACTION_UNSPECIFIED: AdventureAction
ADVENTURE_ACTION_NONE: AdventureAction
ADVENTURE_ACTION_GIVE_ONE: AdventureAction
ADVENTURE_ACTION_GIVE_TWO: AdventureAction
ADVENTURE_ACTION_EXTRA_EQUIPMENT: AdventureAction
ADVENTURE_ACTION_DISCARD_EQUIPMENT: AdventureAction
ADVENTURE_ACTION_STEAL_EQUIPMENT: AdventureAction
ADVENTURE_ACTION_EXTRA_TURN: AdventureAction
ADVENTURE_ACTION_SAME_COLOUR_MEMBER: AdventureAction
ADVENTURE_ACTION_DISCARD_MEMBER: AdventureAction
ADVENTURE_ACTION_STEAL_MEMBER: AdventureAction
ADVENTURE_ACTION_PATER_MILLER: AdventureAction
ADVENTURE_ABILITY_UNSPECIFIED: AdventureAbility
ADVENTURE_ABILITY_NONE: AdventureAbility
ADVENTURE_ABILITY_EXTRA_EQUIPMENT: AdventureAbility
ADVENTURE_ABILITY_GIFT_AFTER_EQUIPMENT: AdventureAbility
ADVENTURE_ABILITY_EQUIPMENT_ACTION: AdventureAbility
ADVENTURE_ABILITY_EXTRA_MEMBER: AdventureAbility
ADVENTURE_ABILITY_DOUBLE_ACTION: AdventureAbility
ADVENTURE_ABILITY_EXTRA_TURN: AdventureAbility
ADVENTURE_VARIATION_UNSPECIFIED: AdventureVariation
ADVENTURE_VARIATION_NONE: AdventureVariation
ADVENTURE_VARIATION_SHUFFLE: AdventureVariation
ADVENTURE_VARIATION_LOWEST_CHOOSES: AdventureVariation
ADVENTURE_MONEY_FLOOR_UNSPECIFIED: AdventureMoneyFloor
ADVENTURE_MONEY_FLOOR_MONEY_PILE: AdventureMoneyFloor
ADVENTURE_MONEY_FLOOR_PER_ROUND: AdventureMoneyFloor
ADVENTURE_MAX_OBJECTIVE_UNSPECIFIED: AdventureMaxObjective
ADVENTURE_MAX_OBJECTIVE_INCOME: AdventureMaxObjective
ADVENTURE_MAX_OBJECTIVE_MARGIN: AdventureMaxObjective
ADVENTURE_OTHERS_UNSPECIFIED: AdventureOthers
ADVENTURE_OTHERS_COOPERATIVE: AdventureOthers
ADVENTURE_OTHERS_GREEDY: AdventureOthers

class AdventureCard(_message.Message):
    __slots__ = ("name", "colour", "demand", "money", "value", "action")
    NAME_FIELD_NUMBER: _ClassVar[int]
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    DEMAND_FIELD_NUMBER: _ClassVar[int]
    MONEY_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    name: str
    colour: AdventureColour
    demand: int
    money: int
    value: int
    action: AdventureAction
    def __init__(self, name: _Optional[str] = ..., colour: _Optional[_Union[AdventureColour, str]] = ..., demand: _Optional[int] = ..., money: _Optional[int] = ..., value: _Optional[int] = ..., action: _Optional[_Union[AdventureAction, str]] = ...) -> None: ...

class AdventureBoard(_message.Message):
    __slots__ = ("name", "technology", "provisions", "clothing", "ability")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TECHNOLOGY_FIELD_NUMBER: _ClassVar[int]
    PROVISIONS_FIELD_NUMBER: _ClassVar[int]
    CLOTHING_FIELD_NUMBER: _ClassVar[int]
    ABILITY_FIELD_NUMBER: _ClassVar[int]
    name: str
    technology: int
    provisions: int
    clothing: int
    ability: AdventureAbility
    def __init__(self, name: _Optional[str] = ..., technology: _Optional[int] = ..., provisions: _Optional[int] = ..., clothing: _Optional[int] = ..., ability: _Optional[_Union[AdventureAbility, str]] = ...) -> None: ...

class AdventureToursRules(_message.Message):
    __slots__ = ("expert", "deck", "boards", "variation", "rounds", "money_floor")
    EXPERT_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    BOARDS_FIELD_NUMBER: _ClassVar[int]
    VARIATION_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    MONEY_FLOOR_FIELD_NUMBER: _ClassVar[int]
    expert: bool
    deck: _containers.RepeatedCompositeFieldContainer[AdventureCard]
    boards: _containers.RepeatedCompositeFieldContainer[AdventureBoard]
    variation: AdventureVariation
    rounds: int
    money_floor: AdventureMoneyFloor
    def __init__(self, expert: _Optional[bool] = ..., deck: _Optional[_Iterable[_Union[AdventureCard, _Mapping]]] = ..., boards: _Optional[_Iterable[_Union[AdventureBoard, _Mapping]]] = ..., variation: _Optional[_Union[AdventureVariation, str]] = ..., rounds: _Optional[int] = ..., money_floor: _Optional[_Union[AdventureMoneyFloor, str]] = ...) -> None: ...

class AdventurePlayer(_message.Message):
    __slots__ = ("hand", "hand_size", "equipment", "members", "board", "money")
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    EQUIPMENT_FIELD_NUMBER: _ClassVar[int]
    MEMBERS_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    MONEY_FIELD_NUMBER: _ClassVar[int]
    hand: _containers.RepeatedScalarFieldContainer[int]
    hand_size: int
    equipment: _containers.RepeatedScalarFieldContainer[int]
    members: _containers.RepeatedScalarFieldContainer[int]
    board: int
    money: int
    def __init__(self, hand: _Optional[_Iterable[int]] = ..., hand_size: _Optional[int] = ..., equipment: _Optional[_Iterable[int]] = ..., members: _Optional[_Iterable[int]] = ..., board: _Optional[int] = ..., money: _Optional[int] = ...) -> None: ...

class AdventureToursState(_message.Message):
    __slots__ = ("rules", "players", "pile", "discard", "to_move", "round", "pending", "starter", "extra_turns", "ability_used", "over", "last_round", "ender", "choosing")
    RULES_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    PILE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    STARTER_FIELD_NUMBER: _ClassVar[int]
    EXTRA_TURNS_FIELD_NUMBER: _ClassVar[int]
    ABILITY_USED_FIELD_NUMBER: _ClassVar[int]
    OVER_FIELD_NUMBER: _ClassVar[int]
    LAST_ROUND_FIELD_NUMBER: _ClassVar[int]
    ENDER_FIELD_NUMBER: _ClassVar[int]
    CHOOSING_FIELD_NUMBER: _ClassVar[int]
    rules: AdventureToursRules
    players: _containers.RepeatedCompositeFieldContainer[AdventurePlayer]
    pile: _containers.RepeatedScalarFieldContainer[int]
    discard: _containers.RepeatedScalarFieldContainer[int]
    to_move: int
    round: int
    pending: _containers.RepeatedCompositeFieldContainer[AdventurePendingStep]
    starter: int
    extra_turns: int
    ability_used: bool
    over: bool
    last_round: _containers.RepeatedScalarFieldContainer[int]
    ender: int
    choosing: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, rules: _Optional[_Union[AdventureToursRules, _Mapping]] = ..., players: _Optional[_Iterable[_Union[AdventurePlayer, _Mapping]]] = ..., pile: _Optional[_Iterable[int]] = ..., discard: _Optional[_Iterable[int]] = ..., to_move: _Optional[int] = ..., round: _Optional[int] = ..., pending: _Optional[_Iterable[_Union[AdventurePendingStep, _Mapping]]] = ..., starter: _Optional[int] = ..., extra_turns: _Optional[int] = ..., ability_used: _Optional[bool] = ..., over: _Optional[bool] = ..., last_round: _Optional[_Iterable[int]] = ..., ender: _Optional[int] = ..., choosing: _Optional[_Iterable[int]] = ...) -> None: ...

class AdventurePlay(_message.Message):
    __slots__ = ("card", "member")
    CARD_FIELD_NUMBER: _ClassVar[int]
    MEMBER_FIELD_NUMBER: _ClassVar[int]
    card: int
    member: bool
    def __init__(self, card: _Optional[int] = ..., member: _Optional[bool] = ...) -> None: ...

class AdventureGiveTwo(_message.Message):
    __slots__ = ("first", "second")
    FIRST_FIELD_NUMBER: _ClassVar[int]
    SECOND_FIELD_NUMBER: _ClassVar[int]
    first: int
    second: int
    def __init__(self, first: _Optional[int] = ..., second: _Optional[int] = ...) -> None: ...

class AdventureGift(_message.Message):
    __slots__ = ("draw", "give", "recipient")
    DRAW_FIELD_NUMBER: _ClassVar[int]
    GIVE_FIELD_NUMBER: _ClassVar[int]
    RECIPIENT_FIELD_NUMBER: _ClassVar[int]
    draw: bool
    give: bool
    recipient: int
    def __init__(self, draw: _Optional[bool] = ..., give: _Optional[bool] = ..., recipient: _Optional[int] = ...) -> None: ...

class AdventureStep(_message.Message):
    __slots__ = ("play", "target", "give_two", "place", "accept", "skip", "protect", "gift", "choose_board")
    PLAY_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    GIVE_TWO_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    ACCEPT_FIELD_NUMBER: _ClassVar[int]
    SKIP_FIELD_NUMBER: _ClassVar[int]
    PROTECT_FIELD_NUMBER: _ClassVar[int]
    GIFT_FIELD_NUMBER: _ClassVar[int]
    CHOOSE_BOARD_FIELD_NUMBER: _ClassVar[int]
    play: AdventurePlay
    target: int
    give_two: AdventureGiveTwo
    place: int
    accept: bool
    skip: bool
    protect: bool
    gift: AdventureGift
    choose_board: int
    def __init__(self, play: _Optional[_Union[AdventurePlay, _Mapping]] = ..., target: _Optional[int] = ..., give_two: _Optional[_Union[AdventureGiveTwo, _Mapping]] = ..., place: _Optional[int] = ..., accept: _Optional[bool] = ..., skip: _Optional[bool] = ..., protect: _Optional[bool] = ..., gift: _Optional[_Union[AdventureGift, _Mapping]] = ..., choose_board: _Optional[int] = ...) -> None: ...

class AdventureMove(_message.Message):
    __slots__ = ("steps", "label")
    STEPS_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    steps: _containers.RepeatedCompositeFieldContainer[AdventureStep]
    label: str
    def __init__(self, steps: _Optional[_Iterable[_Union[AdventureStep, _Mapping]]] = ..., label: _Optional[str] = ...) -> None: ...

class AdventureAlternative(_message.Message):
    __slots__ = ("move", "ranking")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    move: AdventureMove
    ranking: _common_pb2.RankedAlternative
    def __init__(self, move: _Optional[_Union[AdventureMove, _Mapping]] = ..., ranking: _Optional[_Union[_common_pb2.RankedAlternative, _Mapping]] = ...) -> None: ...

class AdventureToursServiceHintRequest(_message.Message):
    __slots__ = ("state", "objective", "options")
    STATE_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    state: AdventureToursState
    objective: _common_pb2.Objective
    options: _common_pb2.SolveOptions
    def __init__(self, state: _Optional[_Union[AdventureToursState, _Mapping]] = ..., objective: _Optional[_Union[_common_pb2.Objective, str]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class AdventureToursServiceHintResponse(_message.Message):
    __slots__ = ("alternatives", "proof", "stats", "note")
    ALTERNATIVES_FIELD_NUMBER: _ClassVar[int]
    PROOF_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    alternatives: _containers.RepeatedCompositeFieldContainer[AdventureAlternative]
    proof: _common_pb2.ProofStatus
    stats: _common_pb2.SolveStats
    note: str
    def __init__(self, alternatives: _Optional[_Iterable[_Union[AdventureAlternative, _Mapping]]] = ..., proof: _Optional[_Union[_common_pb2.ProofStatus, str]] = ..., stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ..., note: _Optional[str] = ...) -> None: ...

class AdventureLineStep(_message.Message):
    __slots__ = ("player", "step", "label")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    player: int
    step: AdventureStep
    label: str
    def __init__(self, player: _Optional[int] = ..., step: _Optional[_Union[AdventureStep, _Mapping]] = ..., label: _Optional[str] = ...) -> None: ...

class AdventureToursServiceMaxScoreRequest(_message.Message):
    __slots__ = ("state", "player", "objective", "others", "options")
    STATE_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    OTHERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    state: AdventureToursState
    player: int
    objective: AdventureMaxObjective
    others: AdventureOthers
    options: _common_pb2.SolveOptions
    def __init__(self, state: _Optional[_Union[AdventureToursState, _Mapping]] = ..., player: _Optional[int] = ..., objective: _Optional[_Union[AdventureMaxObjective, str]] = ..., others: _Optional[_Union[AdventureOthers, str]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class AdventureToursServiceMaxScoreResponse(_message.Message):
    __slots__ = ("value", "proof", "line", "round_scores", "note", "stats")
    VALUE_FIELD_NUMBER: _ClassVar[int]
    PROOF_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    ROUND_SCORES_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    value: int
    proof: _common_pb2.ProofStatus
    line: _containers.RepeatedCompositeFieldContainer[AdventureLineStep]
    round_scores: _containers.RepeatedScalarFieldContainer[int]
    note: str
    stats: _common_pb2.SolveStats
    def __init__(self, value: _Optional[int] = ..., proof: _Optional[_Union[_common_pb2.ProofStatus, str]] = ..., line: _Optional[_Iterable[_Union[AdventureLineStep, _Mapping]]] = ..., round_scores: _Optional[_Iterable[int]] = ..., note: _Optional[str] = ..., stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...

class AdventureToursServiceGeneratePuzzleRequest(_message.Message):
    __slots__ = ("seed", "grade", "options")
    SEED_FIELD_NUMBER: _ClassVar[int]
    GRADE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    seed: int
    grade: _common_pb2.DifficultyGrade
    options: _common_pb2.SolveOptions
    def __init__(self, seed: _Optional[int] = ..., grade: _Optional[_Union[_common_pb2.DifficultyGrade, str]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class AdventureToursServiceGeneratePuzzleResponse(_message.Message):
    __slots__ = ("puzzle", "state", "solution", "margin", "alternatives", "stats")
    PUZZLE_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    SOLUTION_FIELD_NUMBER: _ClassVar[int]
    MARGIN_FIELD_NUMBER: _ClassVar[int]
    ALTERNATIVES_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    puzzle: _common_pb2.PuzzleEnvelope
    state: AdventureToursState
    solution: AdventureMove
    margin: float
    alternatives: _containers.RepeatedCompositeFieldContainer[AdventureAlternative]
    stats: _common_pb2.SolveStats
    def __init__(self, puzzle: _Optional[_Union[_common_pb2.PuzzleEnvelope, _Mapping]] = ..., state: _Optional[_Union[AdventureToursState, _Mapping]] = ..., solution: _Optional[_Union[AdventureMove, _Mapping]] = ..., margin: _Optional[float] = ..., alternatives: _Optional[_Iterable[_Union[AdventureAlternative, _Mapping]]] = ..., stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...

class AdventureToursServiceScoreRequest(_message.Message):
    __slots__ = ("state", "options")
    STATE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    state: AdventureToursState
    options: _common_pb2.SolveOptions
    def __init__(self, state: _Optional[_Union[AdventureToursState, _Mapping]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class AdventureToursServiceScoreResponse(_message.Message):
    __slots__ = ("round_scores", "incomes", "totals", "leaders", "details")
    ROUND_SCORES_FIELD_NUMBER: _ClassVar[int]
    INCOMES_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    LEADERS_FIELD_NUMBER: _ClassVar[int]
    DETAILS_FIELD_NUMBER: _ClassVar[int]
    round_scores: _containers.RepeatedScalarFieldContainer[int]
    incomes: _containers.RepeatedScalarFieldContainer[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    leaders: _containers.RepeatedScalarFieldContainer[int]
    details: _containers.RepeatedCompositeFieldContainer[_common_pb2.ScoreDetail]
    def __init__(self, round_scores: _Optional[_Iterable[int]] = ..., incomes: _Optional[_Iterable[int]] = ..., totals: _Optional[_Iterable[int]] = ..., leaders: _Optional[_Iterable[int]] = ..., details: _Optional[_Iterable[_Union[_common_pb2.ScoreDetail, _Mapping]]] = ...) -> None: ...

class AdventureToursServiceLegalMovesRequest(_message.Message):
    __slots__ = ("state", "options")
    STATE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    state: AdventureToursState
    options: _common_pb2.SolveOptions
    def __init__(self, state: _Optional[_Union[AdventureToursState, _Mapping]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ...) -> None: ...

class AdventureToursServiceLegalMovesResponse(_message.Message):
    __slots__ = ("moves", "to_move")
    MOVES_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedCompositeFieldContainer[AdventureMove]
    to_move: int
    def __init__(self, moves: _Optional[_Iterable[_Union[AdventureMove, _Mapping]]] = ..., to_move: _Optional[int] = ...) -> None: ...

class AdventureToursServiceNewGameRequest(_message.Message):
    __slots__ = ("players", "seed", "rules", "want_picture")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    WANT_PICTURE_FIELD_NUMBER: _ClassVar[int]
    players: int
    seed: int
    rules: AdventureToursRules
    want_picture: bool
    def __init__(self, players: _Optional[int] = ..., seed: _Optional[int] = ..., rules: _Optional[_Union[AdventureToursRules, _Mapping]] = ..., want_picture: _Optional[bool] = ...) -> None: ...

class AdventureToursServiceNewGameResponse(_message.Message):
    __slots__ = ("state", "turn", "picture_svg")
    STATE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    PICTURE_SVG_FIELD_NUMBER: _ClassVar[int]
    state: AdventureToursState
    turn: _common_pb2.TurnInfo
    picture_svg: str
    def __init__(self, state: _Optional[_Union[AdventureToursState, _Mapping]] = ..., turn: _Optional[_Union[_common_pb2.TurnInfo, _Mapping]] = ..., picture_svg: _Optional[str] = ...) -> None: ...

class AdventureToursServicePlayRequest(_message.Message):
    __slots__ = ("state", "move", "seed", "list_outcomes", "want_picture")
    STATE_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    LIST_OUTCOMES_FIELD_NUMBER: _ClassVar[int]
    WANT_PICTURE_FIELD_NUMBER: _ClassVar[int]
    state: AdventureToursState
    move: AdventureMove
    seed: int
    list_outcomes: bool
    want_picture: bool
    def __init__(self, state: _Optional[_Union[AdventureToursState, _Mapping]] = ..., move: _Optional[_Union[AdventureMove, _Mapping]] = ..., seed: _Optional[int] = ..., list_outcomes: _Optional[bool] = ..., want_picture: _Optional[bool] = ...) -> None: ...

class AdventureToursChanceOutcome(_message.Message):
    __slots__ = ("state", "probability", "label", "turn")
    STATE_FIELD_NUMBER: _ClassVar[int]
    PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    state: AdventureToursState
    probability: _common_pb2.Probability
    label: str
    turn: _common_pb2.TurnInfo
    def __init__(self, state: _Optional[_Union[AdventureToursState, _Mapping]] = ..., probability: _Optional[_Union[_common_pb2.Probability, _Mapping]] = ..., label: _Optional[str] = ..., turn: _Optional[_Union[_common_pb2.TurnInfo, _Mapping]] = ...) -> None: ...

class AdventureToursServicePlayResponse(_message.Message):
    __slots__ = ("state", "turn", "outcomes", "picture_svg")
    STATE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    OUTCOMES_FIELD_NUMBER: _ClassVar[int]
    PICTURE_SVG_FIELD_NUMBER: _ClassVar[int]
    state: AdventureToursState
    turn: _common_pb2.TurnInfo
    outcomes: _containers.RepeatedCompositeFieldContainer[AdventureToursChanceOutcome]
    picture_svg: str
    def __init__(self, state: _Optional[_Union[AdventureToursState, _Mapping]] = ..., turn: _Optional[_Union[_common_pb2.TurnInfo, _Mapping]] = ..., outcomes: _Optional[_Iterable[_Union[AdventureToursChanceOutcome, _Mapping]]] = ..., picture_svg: _Optional[str] = ...) -> None: ...

class AdventurePendingStep(_message.Message):
    __slots__ = ("kind", "player", "card", "aux")
    KIND_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    AUX_FIELD_NUMBER: _ClassVar[int]
    kind: str
    player: int
    card: int
    aux: int
    def __init__(self, kind: _Optional[str] = ..., player: _Optional[int] = ..., card: _Optional[int] = ..., aux: _Optional[int] = ...) -> None: ...

class AdventureToursRecord(_message.Message):
    __slots__ = ("start", "steps")
    START_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    start: AdventureToursState
    steps: _containers.RepeatedCompositeFieldContainer[AdventureToursRecordStep]
    def __init__(self, start: _Optional[_Union[AdventureToursState, _Mapping]] = ..., steps: _Optional[_Iterable[_Union[AdventureToursRecordStep, _Mapping]]] = ...) -> None: ...

class AdventureToursRecordStep(_message.Message):
    __slots__ = ("move", "seed", "state")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    move: AdventureMove
    seed: int
    state: AdventureToursState
    def __init__(self, move: _Optional[_Union[AdventureMove, _Mapping]] = ..., seed: _Optional[int] = ..., state: _Optional[_Union[AdventureToursState, _Mapping]] = ...) -> None: ...

class AdventureToursServiceReviewRequest(_message.Message):
    __slots__ = ("record", "options", "review", "objective")
    RECORD_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    REVIEW_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    record: AdventureToursRecord
    options: _common_pb2.SolveOptions
    review: _common_pb2.ReviewOptions
    objective: _common_pb2.Objective
    def __init__(self, record: _Optional[_Union[AdventureToursRecord, _Mapping]] = ..., options: _Optional[_Union[_common_pb2.SolveOptions, _Mapping]] = ..., review: _Optional[_Union[_common_pb2.ReviewOptions, _Mapping]] = ..., objective: _Optional[_Union[_common_pb2.Objective, str]] = ...) -> None: ...

class AdventureToursReviewedMove(_message.Message):
    __slots__ = ("step", "played", "best", "state")
    STEP_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    step: int
    played: AdventureMove
    best: AdventureMove
    state: AdventureToursState
    def __init__(self, step: _Optional[int] = ..., played: _Optional[_Union[AdventureMove, _Mapping]] = ..., best: _Optional[_Union[AdventureMove, _Mapping]] = ..., state: _Optional[_Union[AdventureToursState, _Mapping]] = ...) -> None: ...

class AdventureToursServiceReviewResponse(_message.Message):
    __slots__ = ("review", "moves", "stats")
    REVIEW_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    review: _common_pb2.GameReview
    moves: _containers.RepeatedCompositeFieldContainer[AdventureToursReviewedMove]
    stats: _common_pb2.SolveStats
    def __init__(self, review: _Optional[_Union[_common_pb2.GameReview, _Mapping]] = ..., moves: _Optional[_Iterable[_Union[AdventureToursReviewedMove, _Mapping]]] = ..., stats: _Optional[_Union[_common_pb2.SolveStats, _Mapping]] = ...) -> None: ...
