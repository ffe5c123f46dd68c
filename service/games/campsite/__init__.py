"""Campsite: the game's service, bound for the registry as `SERVICE`.

`convert` turns protobuf messages into rules-model objects and back, `handlers` answers each RPC, `examples` builds
an example request for each; this package re-exports their public names.
"""

from __future__ import annotations

from campsolver.service.games.campsite import convert, examples, handlers
from campsolver.service.games.campsite.convert import (
    GAME_STAGE_FROM_PROTO,
    GAME_STAGE_TO_PROTO,
    MAX_COORDINATE,
    MAX_DECK,
    MAX_HAND,
    MAX_TABLE_CARDS,
    MAX_TOP,
    TERRAIN_FROM_PROTO,
    TERRAIN_TO_PROTO,
    TOKEN_FROM_PROTO,
    TOKEN_TO_PROTO,
    Turn,
    card_from_proto,
    card_to_proto,
    game_from_proto,
    game_to_proto,
    placement_from_proto,
    placement_to_proto,
    play_label,
    play_to_proto,
    table_from_proto,
    table_to_proto,
    tent_from_proto,
    tent_to_proto,
    token_from_proto,
)
from campsolver.service.games.campsite.examples import (
    EXAMPLES,
    example_record,
    example_turn,
)
from campsolver.service.games.campsite.handlers import (
    DEFAULT_HINT_SECONDS,
    HINT_CHECK_SHARE,
    REVIEW_CODEC,
    TABLE_PLAY,
    _apply_play,
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

from campsolver.v1 import campsite_pb2

SERVICE: GameService = bind(campsite_pb2, "CampsiteService", handlers, EXAMPLES)


__all__ = [
    "DEFAULT_HINT_SECONDS",
    "EXAMPLES",
    "GAME_STAGE_FROM_PROTO",
    "GAME_STAGE_TO_PROTO",
    "HINT_CHECK_SHARE",
    "MAX_COORDINATE",
    "MAX_DECK",
    "MAX_HAND",
    "MAX_TABLE_CARDS",
    "MAX_TOP",
    "REVIEW_CODEC",
    "SERVICE",
    "TABLE_PLAY",
    "TERRAIN_FROM_PROTO",
    "TERRAIN_TO_PROTO",
    "TOKEN_FROM_PROTO",
    "TOKEN_TO_PROTO",
    "Turn",
    "_apply_play",
    "card_from_proto",
    "card_to_proto",
    "convert",
    "example_record",
    "example_turn",
    "examples",
    "game_from_proto",
    "game_to_proto",
    "generate_puzzle",
    "handlers",
    "hint",
    "legal_moves",
    "max_score",
    "new_game",
    "placement_from_proto",
    "placement_to_proto",
    "play",
    "play_label",
    "play_to_proto",
    "review",
    "score",
    "table_from_proto",
    "table_to_proto",
    "tent_from_proto",
    "tent_to_proto",
    "token_from_proto",
]
