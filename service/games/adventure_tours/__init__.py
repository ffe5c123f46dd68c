"""Adventure Tours: the game's service, bound for the registry as `SERVICE`.

`convert` turns protobuf messages into rules-model objects and back, `handlers` answers each RPC, `examples` builds
an example request for each; this package re-exports their public names.
"""

from __future__ import annotations

from campsolver.service.games.adventure_tours import convert, examples, handlers
from campsolver.service.games.adventure_tours.convert import (
    ABILITY_FROM_PROTO,
    ACTION_FROM_PROTO,
    ACTION_TO_PROTO,
    COLOUR_FROM_PROTO,
    COLOUR_TO_PROTO,
    MAX_CARD_NUMBER,
    MAX_DECK,
    MAX_PENDING_STEPS,
    MAX_ROUNDS,
    MONEY_FLOOR_FROM_PROTO,
    OBJECTIVE_FROM_PROTO,
    STEP_KINDS,
    VARIATION_FROM_PROTO,
    VARIATION_TO_PROTO,
    Parsed,
    config_from_proto,
    full_state,
    game_state_from_proto,
    game_state_to_proto,
    has_flow,
    move_to_proto,
    observation,
    parse_state,
    state_to_proto,
    step_from_proto,
    step_to_proto,
)
from campsolver.service.games.adventure_tours.examples import (
    EXAMPLES,
    example_record,
    example_state,
)
from campsolver.service.games.adventure_tours.handlers import (
    _STEP_TEXT,
    DEFAULT_HINT_SECONDS,
    REVIEW_CODEC,
    TABLE_PLAY,
    _apply_move,
    generate_puzzle,
    hint,
    legal_moves,
    max_score,
    new_game,
    play,
    review,
    score,
)
from campsolver.service.games.protocol import GameService, bind

from campsolver.v1 import adventure_tours_pb2

SERVICE: GameService = bind(adventure_tours_pb2, "AdventureToursService", handlers, EXAMPLES)


__all__ = [
    "ABILITY_FROM_PROTO",
    "ACTION_FROM_PROTO",
    "ACTION_TO_PROTO",
    "COLOUR_FROM_PROTO",
    "COLOUR_TO_PROTO",
    "DEFAULT_HINT_SECONDS",
    "EXAMPLES",
    "MAX_CARD_NUMBER",
    "MAX_DECK",
    "MAX_PENDING_STEPS",
    "MAX_ROUNDS",
    "MONEY_FLOOR_FROM_PROTO",
    "OBJECTIVE_FROM_PROTO",
    "REVIEW_CODEC",
    "SERVICE",
    "STEP_KINDS",
    "TABLE_PLAY",
    "VARIATION_FROM_PROTO",
    "VARIATION_TO_PROTO",
    "_STEP_TEXT",
    "Parsed",
    "_apply_move",
    "config_from_proto",
    "convert",
    "example_record",
    "example_state",
    "examples",
    "full_state",
    "game_state_from_proto",
    "game_state_to_proto",
    "generate_puzzle",
    "handlers",
    "has_flow",
    "hint",
    "legal_moves",
    "max_score",
    "move_to_proto",
    "new_game",
    "observation",
    "parse_state",
    "play",
    "review",
    "score",
    "state_to_proto",
    "step_from_proto",
    "step_to_proto",
]
