"""Deluxe Camping: the game's service, bound for the registry as `SERVICE`.

`convert` turns protobuf messages into rules-model objects and back, `handlers` answers each RPC, `examples` builds
an example request for each; this package re-exports their public names.
"""

from __future__ import annotations

from campsolver.service.games.deluxe_camping import convert, examples, handlers
from campsolver.service.games.deluxe_camping.convert import (
    HINT_LEAF_FROM_PROTO,
    HINT_OBJECTIVE_FROM_PROTO,
    MAX_OBJECTIVE_FROM_PROTO,
    MAX_PUZZLE_BARRIERS,
    MAX_SIDE,
    MAX_SQUARES,
    MAX_SUPPLY,
    MAX_TRAILERS,
    SETUP_STAGES,
    STAGE_FROM_PROTO,
    STAGE_TO_PROTO,
    barrier_from_proto,
    barrier_to_proto,
    cells_of,
    config_from_proto,
    move_from_proto,
    move_to_proto,
    sites_to_proto,
    square_from_proto,
    square_to_proto,
    state_from_proto,
    state_to_proto,
    write_move,
)
from campsolver.service.games.deluxe_camping.examples import (
    EXAMPLES,
    example_record,
    example_state,
)
from campsolver.service.games.deluxe_camping.handlers import (
    DEFAULT_HINT_SECONDS,
    HINT_REPLY_PLIES_LIMIT,
    RESPONSE_CPU_PER_CHOICE_S,
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

from campsolver.v1 import deluxe_camping_pb2

SERVICE: GameService = bind(deluxe_camping_pb2, "DeluxeCampingService", handlers, EXAMPLES)


__all__ = [
    "DEFAULT_HINT_SECONDS",
    "EXAMPLES",
    "HINT_LEAF_FROM_PROTO",
    "HINT_OBJECTIVE_FROM_PROTO",
    "HINT_REPLY_PLIES_LIMIT",
    "MAX_OBJECTIVE_FROM_PROTO",
    "MAX_PUZZLE_BARRIERS",
    "MAX_SIDE",
    "MAX_SQUARES",
    "MAX_SUPPLY",
    "MAX_TRAILERS",
    "RESPONSE_CPU_PER_CHOICE_S",
    "REVIEW_CODEC",
    "SERVICE",
    "SETUP_STAGES",
    "STAGE_FROM_PROTO",
    "STAGE_TO_PROTO",
    "TABLE_PLAY",
    "_apply_move",
    "barrier_from_proto",
    "barrier_to_proto",
    "cells_of",
    "config_from_proto",
    "convert",
    "example_record",
    "example_state",
    "examples",
    "generate_puzzle",
    "handlers",
    "hint",
    "legal_moves",
    "max_score",
    "move_from_proto",
    "move_to_proto",
    "new_game",
    "play",
    "review",
    "score",
    "sites_to_proto",
    "square_from_proto",
    "square_to_proto",
    "state_from_proto",
    "state_to_proto",
    "write_move",
]
