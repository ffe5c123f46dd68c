"""Camper Tour: the game's service, bound for the registry as `SERVICE`.

`convert` turns protobuf messages into rules-model objects and back, `handlers` answers each RPC, `examples` builds
an example request for each; this package re-exports their public names.
"""

from __future__ import annotations

from campsolver.service.games.camper_tour import convert, examples, handlers
from campsolver.service.games.camper_tour.convert import (
    COMFORTS_FROM_PROTO,
    COMFORTS_TO_PROTO,
    MAX_HINT_DEPTH,
    MAX_PLATES,
    MAX_ROLL_OVERSHOOT,
    MAX_TOKENS,
    NO_PARKING_FROM_PROTO,
    NO_PARKING_TO_PROTO,
    OBJECTIVE_FROM_PROTO,
    OBJECTIVE_TO_PROTO,
    PENDING_FROM_PROTO,
    PENDING_TO_PROTO,
    PHASE_FROM_PROTO,
    PHASE_TO_PROTO,
    PLATE_FROM_PROTO,
    PLATE_TO_PROTO,
    TOKEN_RULE_FROM_PROTO,
    TOKEN_RULE_TO_PROTO,
    camper_from_proto,
    config_from_proto,
    history_from_proto,
    move_from_proto,
    move_label,
    move_to_proto,
    ranked,
    ranked_in_order,
    state_from_proto,
    state_to_proto,
)
from campsolver.service.games.camper_tour.examples import (
    ALL_NORMAL_RULES,
    EXAMPLES,
    example_record,
)
from campsolver.service.games.camper_tour.handlers import (
    DEFAULT_HINT_SECONDS,
    REVIEW_CODEC,
    TABLE_PLAY,
    _apply_move,
    generate_puzzle,
    hint,
    hint_objective,
    legal_moves,
    max_score,
    new_game,
    play,
    review,
    score,
    warm_up,
)
from campsolver.service.games.protocol import GameService, bind

from campsolver.v1 import camper_tour_pb2

SERVICE: GameService = bind(camper_tour_pb2, "CamperTourService", handlers, EXAMPLES, warm_up=handlers.warm_up)


__all__ = [
    "ALL_NORMAL_RULES",
    "COMFORTS_FROM_PROTO",
    "COMFORTS_TO_PROTO",
    "DEFAULT_HINT_SECONDS",
    "EXAMPLES",
    "MAX_HINT_DEPTH",
    "MAX_PLATES",
    "MAX_ROLL_OVERSHOOT",
    "MAX_TOKENS",
    "NO_PARKING_FROM_PROTO",
    "NO_PARKING_TO_PROTO",
    "OBJECTIVE_FROM_PROTO",
    "OBJECTIVE_TO_PROTO",
    "PENDING_FROM_PROTO",
    "PENDING_TO_PROTO",
    "PHASE_FROM_PROTO",
    "PHASE_TO_PROTO",
    "PLATE_FROM_PROTO",
    "PLATE_TO_PROTO",
    "REVIEW_CODEC",
    "SERVICE",
    "TABLE_PLAY",
    "TOKEN_RULE_FROM_PROTO",
    "TOKEN_RULE_TO_PROTO",
    "_apply_move",
    "camper_from_proto",
    "config_from_proto",
    "convert",
    "example_record",
    "examples",
    "generate_puzzle",
    "handlers",
    "hint",
    "hint_objective",
    "history_from_proto",
    "legal_moves",
    "max_score",
    "move_from_proto",
    "move_label",
    "move_to_proto",
    "new_game",
    "play",
    "ranked",
    "ranked_in_order",
    "review",
    "score",
    "state_from_proto",
    "state_to_proto",
    "warm_up",
]
