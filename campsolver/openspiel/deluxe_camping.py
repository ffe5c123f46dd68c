"""Deluxe Camping in OpenSpiel as `campsolver_deluxe_camping` (perfect information, explicit chance).

The mystery tokens are "secretly mixed" and laid face down, so before the reveal no player knows which one is
the pain-in-the-neck; the rules model draws it at the reveal (a chance node, 1/3 each), which is the same
game. Every player therefore knows the whole state at every decision: the game type says perfect information
(see docs/openspiel.md).

Squares are the rules model's r * cols + c (S squares). Decision action ids: setup placement on square s
(pool, mystery token, bungalow, trailer: the stage says which) is s; a movement is S + m, with m = 0 for
staying put, 1 + k for one step and 1 + 4S + 4S k1 + k2 for two, where a step's k = 4 x from-square +
direction (0 up, 1 right, 2 down, 3 left); the free barrier on the edge between a and b (a < b) is
S + M + 2a + (0 if b = a + 1 else 1), M = 1 + 4S + (4S)^2 movement ids; no free barrier (the optional-free-barrier
variant) is the last id, S + M + 2S. Chance id (the reveal) = the square of
the pain-in-the-neck. Documented in docs/openspiel.md.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from campsolver.openspiel.common import RETURNS_WIN, AdapterGame, Encoding, check_returns_mode, game_type, merged
from campsolver.solver.deluxe_camping import rules as dc

SHORT_NAME = "campsolver_deluxe_camping"
#: The rules model's `Game` this adapter is built on (its players, its start).
RULES_GAME = dc.GAME
MIN_PLAYERS = RULES_GAME.min_players
MAX_PLAYERS = RULES_GAME.max_players
HIDDEN_INFORMATION = False
DIRECTIONS = 4

DEFAULTS: dict[str, Any] = {
    "players": 2,
    "rows": dc.DEFAULT_ROWS,
    "cols": dc.DEFAULT_COLS,
    "trailers": -1,  # -1: the rulebook's count for the player count (6, 4 or 2)
    "supply": dc.DEFAULT_SUPPLY,
    # Named variants (docs/rules/deluxe-camping.md): no free barrier between one player's own pieces; the free
    # barrier may be left out (action id `no_barrier_id`).
    "strict_colours": False,
    "optional_free_barrier": False,
    "returns": RETURNS_WIN,
}
#: Rule options and variants the conformance test runs besides the defaults.
VARIANTS: list[dict[str, Any]] = [
    {"players": 3, "rows": 6, "cols": 7, "supply": 30},
    {"players": 2, "rows": 5, "cols": 5, "trailers": 2, "supply": 12, "returns": "scores"},
    {
        "players": 2,
        "rows": 5,
        "cols": 6,
        "trailers": 2,
        "supply": 14,
        "strict_colours": True,
        "optional_free_barrier": True,
    },
]


def _sizes(config: dc.Config) -> tuple[int, int]:
    """(squares, movement ids)."""
    squares = config.squares
    steps = DIRECTIONS * squares
    return squares, 1 + steps + steps * steps


def num_actions(config: dc.Config) -> int:
    """Placements, movements, free barriers (two edges per square), and leaving the free barrier out."""
    squares, moves = _sizes(config)
    return squares + moves + 2 * squares + 1


def no_barrier_id(config: dc.Config) -> int:
    """The action id of `Barrier(None)` (no free barrier: the optional-free-barrier variant only)."""
    return num_actions(config) - 1


def _step_code(config: dc.Config, step: tuple[int, int]) -> int:
    a, b = step
    delta = b - a
    direction = {-config.cols: 0, 1: 1, config.cols: 2, -1: 3}[delta]
    return DIRECTIONS * a + direction


def _step(config: dc.Config, code: int) -> tuple[int, int]:
    a, direction = divmod(code, DIRECTIONS)
    return a, a + (-config.cols, 1, config.cols, -1)[direction]


def encode(state: dc.DCState, move: Any) -> int:
    """Rules-model decision (`Place`, `Move`, `Barrier`) -> action id."""
    config = state.config
    squares, moves = _sizes(config)
    if isinstance(move, dc.Place):
        return move.square
    if isinstance(move, dc.Move):
        codes = [_step_code(config, step) for step in move.steps]
        if not codes:
            return squares
        if len(codes) == 1:
            return squares + 1 + codes[0]
        return squares + 1 + DIRECTIONS * squares + DIRECTIONS * squares * codes[0] + codes[1]
    if move.edge is None:
        return no_barrier_id(config)
    a, b = move.edge
    return squares + moves + 2 * a + (0 if b == a + 1 else 1)


def decode(state: dc.DCState, action: int) -> Any:
    """Action id -> rules-model decision."""
    config = state.config
    squares, moves = _sizes(config)
    steps = DIRECTIONS * squares
    if action < squares:
        return dc.Place(action)
    if action < squares + moves:
        m = action - squares
        if m == 0:
            return dc.Move(())
        if m <= steps:
            return dc.Move((_step(config, m - 1),))
        first, second = divmod(m - 1 - steps, steps)
        return dc.Move((_step(config, first), _step(config, second)))
    if action == no_barrier_id(config):
        return dc.Barrier(None)
    a, vertical = divmod(action - squares - moves, 2)
    if a >= squares:
        raise ValueError(f"no Deluxe Camping action has id {action}")
    return dc.Barrier((a, a + (config.cols if vertical else 1)))


def encode_chance(state: dc.DCState, square: int) -> int:
    return int(square)


def decode_chance(state: dc.DCState, action: int) -> int:
    return action


def move_text(state: dc.DCState, move: Any) -> str:
    if isinstance(move, dc.Place):
        return f"{state.stage.value} {dc.describe_action(state.config, move)}"
    return dc.describe_action(state.config, move)


def chance_text(state: dc.DCState, square: int) -> str:
    return dc.describe_action(state.config, square)


def describe(state: dc.DCState) -> str:
    return repr(state)


ENCODING = Encoding(encode, decode, encode_chance, decode_chance, move_text, chance_text, describe)


class DeluxeCampingGame(AdapterGame):
    """Deluxe Camping for 2-4 players: the setup, the reveal and the turns of the rules model."""

    encoding = ENCODING

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        full = merged(DEFAULTS, params)
        check_returns_mode(full["returns"])
        config = dc.Config(
            rows=full["rows"],
            cols=full["cols"],
            players=full["players"],
            trailers=full["trailers"],
            supply=full["supply"],
            strict_colours=bool(full["strict_colours"]),
            optional_free_barrier=bool(full["optional_free_barrier"]),
        )
        scores = full["returns"] != RETURNS_WIN
        squares = config.squares
        # Setup: the pool, three tokens, a bungalow and the trailers of each player. A turn is a movement and
        # at most one free barrier; every turn but the idle ones lays a barrier, and fewer idle turns in a row
        # than there are players are possible before the game ends.
        setup = 1 + dc.MYSTERY_TOKENS + config.players * (1 + config.trailers)
        info = pyspiel.GameInfo(
            num_distinct_actions=num_actions(config),
            max_chance_outcomes=squares,
            num_players=config.players,
            min_utility=0.0,
            max_utility=float(dc.POOL_FACTOR * squares + dc.ICE_CREAM_STANDS * dc.ICE_CREAM_BONUS) if scores else 1.0,
            utility_sum=None if scores else 1.0,
            max_game_length=setup + 2 * config.players * (config.supply + 1),
        )
        super().__init__(_type(constant_sum=not scores), info, full)
        self.config = config

    def initial_rules_state(self) -> dc.DCState:
        return dc.GAME.new_initial_state(dc.DeluxeCampingSetup(self.config))


def _type(*, constant_sum: bool) -> pyspiel.GameType:
    return game_type(
        SHORT_NAME,
        "Deluxe Camping (campsolver rules model)",
        players=(MIN_PLAYERS, MAX_PLAYERS),
        imperfect=False,
        constant_sum=constant_sum,
        parameters=DEFAULTS,
    )


pyspiel.register_game(_type(constant_sum=True), DeluxeCampingGame)
