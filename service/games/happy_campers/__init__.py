"""Happy Campers: the game's service, bound for the registry as `SERVICE`.

`convert` turns protobuf messages into rules-model objects and back, `handlers` answers each RPC, `examples` builds
an example request for each; this package re-exports their public names.
"""

from __future__ import annotations

from campsolver.service.games.happy_campers import convert, examples, handlers
from campsolver.service.games.happy_campers.convert import (
    CHALLENGE_FROM_PROTO,
    CHALLENGE_TO_PROTO,
    DEFAULT_PUZZLE_ROLLS,
    HINT_MODE_FROM_PROTO,
    MAX_HINT_PLAYERS,
    MAX_PUZZLE_ROLLS,
    MAX_ROLLS,
    OBJECTIVE_FROM_PROTO,
    GameFlow,
    cells_to_proto,
    challenges_from_proto,
    components_from_proto,
    components_to_proto,
    element_symbol,
    game_from_proto,
    game_to_proto,
    grid_from_rows,
    grid_to_rows,
    placement_from_proto,
    placement_to_proto,
    roll_from_proto,
    score_to_proto,
)
from campsolver.service.games.happy_campers.examples import (
    EXAMPLES,
    example_record,
)
from campsolver.service.games.happy_campers.handlers import (
    DEFAULT_HINT_SECONDS,
    EXIT_WAIT_S,
    REVIEW_CODEC,
    TABLE_PLAY,
    WITHIN_POLL_S,
    _apply_move,
    _review_move_to_proto,
    game_svg,
    generate_puzzle,
    hint,
    legal_moves,
    max_score,
    new_game,
    play,
    review,
    score,
    side_by_side,
)
from campsolver.service.games.protocol import GameService, bind

from campsolver.v1 import happy_campers_pb2

SERVICE: GameService = bind(happy_campers_pb2, "HappyCampersService", handlers, EXAMPLES)


__all__ = [
    "CHALLENGE_FROM_PROTO",
    "CHALLENGE_TO_PROTO",
    "DEFAULT_HINT_SECONDS",
    "DEFAULT_PUZZLE_ROLLS",
    "EXAMPLES",
    "EXIT_WAIT_S",
    "HINT_MODE_FROM_PROTO",
    "MAX_HINT_PLAYERS",
    "MAX_PUZZLE_ROLLS",
    "MAX_ROLLS",
    "OBJECTIVE_FROM_PROTO",
    "REVIEW_CODEC",
    "SERVICE",
    "TABLE_PLAY",
    "WITHIN_POLL_S",
    "GameFlow",
    "_apply_move",
    "_review_move_to_proto",
    "cells_to_proto",
    "challenges_from_proto",
    "components_from_proto",
    "components_to_proto",
    "convert",
    "element_symbol",
    "example_record",
    "examples",
    "game_from_proto",
    "game_svg",
    "game_to_proto",
    "generate_puzzle",
    "grid_from_rows",
    "grid_to_rows",
    "handlers",
    "hint",
    "legal_moves",
    "max_score",
    "new_game",
    "placement_from_proto",
    "placement_to_proto",
    "play",
    "review",
    "roll_from_proto",
    "score",
    "score_to_proto",
    "side_by_side",
]
