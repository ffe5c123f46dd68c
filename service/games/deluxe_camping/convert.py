"""Deluxe Camping: protobuf messages <-> the rules model's and solvers' objects (every field validated and named)."""

from __future__ import annotations

import functools

from campsolver.service.errors import InvalidArgument, require, require_limit
from campsolver.service.games import enum_maps
from campsolver.solver.deluxe_camping import hint as hints
from campsolver.solver.deluxe_camping import maximise as maxima
from campsolver.solver.deluxe_camping import rules
from campsolver.solver.deluxe_camping.rules import Barrier, Config, DCState, Move, Place, Stage

from campsolver.v1 import common_pb2
from campsolver.v1 import deluxe_camping_pb2 as pb

#: Request size limits (RESOURCE_EXHAUSTED beyond them).
MAX_SIDE = 20
MAX_SQUARES = 256
MAX_TRAILERS = 20
MAX_SUPPLY = 1000
MAX_PUZZLE_BARRIERS = 8

#: Proto stages by name; unset reads as a turn's movement.
STAGE_FROM_PROTO = enum_maps.from_proto(pb.DeluxeCampingStage, Stage, unspecified=Stage.MOVE)
#: The stages before the turns (the setup and the reveal): no site is allotted yet.
SETUP_STAGES = frozenset({Stage.POOL, Stage.MYSTERY, Stage.BUNGALOW, Stage.TRAILER, Stage.REVEAL})
STAGE_TO_PROTO = enum_maps.to_proto(STAGE_FROM_PROTO)
MAX_OBJECTIVE_FROM_PROTO = enum_maps.from_proto(
    pb.DeluxeCampingMaxObjective, maxima.Objective, unspecified=maxima.Objective.OWN
)
#: The hint's leaf model by its proto value (unset: the solver's default).
HINT_LEAF_FROM_PROTO = enum_maps.from_proto(pb.DeluxeCampingHintLeaf, hints.Leaf, unspecified=hints.DEFAULT_LEAF)
#: Written out: the shared Objective enum, of which this game reads three values (EXPECTED_SCORE as its own score).
HINT_OBJECTIVE_FROM_PROTO = {
    common_pb2.OBJECTIVE_UNSPECIFIED: hints.HintObjective.MARGIN,
    common_pb2.OBJECTIVE_MARGIN: hints.HintObjective.MARGIN,
    common_pb2.OBJECTIVE_EXPECTED_SCORE: hints.HintObjective.OWN,
}


def config_from_proto(message: pb.DeluxeCampingRules, field: str) -> Config:
    rows = message.rows if message.HasField("rows") else rules.DEFAULT_ROWS
    cols = message.cols if message.HasField("cols") else rules.DEFAULT_COLS
    players = message.players if message.HasField("players") else 2
    require(rows >= 1, f"{field}.rows", "must be at least 1")
    require(cols >= 1, f"{field}.cols", "must be at least 1")
    require_limit(rows, MAX_SIDE, f"{field}.rows", "board rows")
    require_limit(cols, MAX_SIDE, f"{field}.cols", "board columns")
    require_limit(rows * cols, MAX_SQUARES, f"{field}", "board squares")
    require(
        rules.MIN_PLAYERS <= players <= rules.MAX_PLAYERS,
        f"{field}.players",
        f"{rules.MIN_PLAYERS}-{rules.MAX_PLAYERS} players, got {players}",
    )
    trailers = message.trailers if message.HasField("trailers") else rules.TRAILERS_BY_PLAYERS[players]
    require(trailers >= 0, f"{field}.trailers", "must not be negative")
    require_limit(trailers, MAX_TRAILERS, f"{field}.trailers", "trailers per player")
    supply = message.supply if message.HasField("supply") else rules.DEFAULT_SUPPLY
    require(supply >= 0, f"{field}.supply", "must not be negative")
    require_limit(supply, MAX_SUPPLY, f"{field}.supply", "barrier supply")
    try:
        return Config(
            rows=rows,
            cols=cols,
            players=players,
            trailers=trailers,
            supply=supply,
            strict_colours=message.strict_colours,
            optional_free_barrier=message.optional_free_barrier,
        )
    except ValueError as error:
        raise InvalidArgument(field, str(error)) from None


def square_from_proto(message: pb.DeluxeCampingSquare, config: Config, field: str) -> int:
    require(0 <= message.row < config.rows, f"{field}.row", f"must be 0-{config.rows - 1}, got {message.row}")
    require(0 <= message.col < config.cols, f"{field}.col", f"must be 0-{config.cols - 1}, got {message.col}")
    return config.square(message.row, message.col)


def square_to_proto(config: Config, square: int) -> pb.DeluxeCampingSquare:
    row, col = config.cell(square)
    return pb.DeluxeCampingSquare(row=row, col=col)


def barrier_from_proto(message: pb.DeluxeCampingBarrier, config: Config, field: str) -> rules.Edge:
    a = square_from_proto(message.a, config, f"{field}.a")
    b = square_from_proto(message.b, config, f"{field}.b")
    require(rules.is_edge(config, (a, b)), field, "a barrier lies between two orthogonally adjacent squares")
    return rules.edge_of(a, b)


def barrier_to_proto(config: Config, edge: rules.Edge) -> pb.DeluxeCampingBarrier:
    return pb.DeluxeCampingBarrier(a=square_to_proto(config, edge[0]), b=square_to_proto(config, edge[1]))


def state_from_proto(message: pb.DeluxeCampingState, field: str = "state") -> DCState:
    config = config_from_proto(message.rules, f"{field}.rules")
    stage = STAGE_FROM_PROTO.get(message.stage)
    require(stage is not None, f"{field}.stage", "unknown stage")
    require(0 <= message.to_move < config.players, f"{field}.to_move", f"must index a player (0-{config.players - 1})")
    require(
        0 <= message.first_player < config.players,
        f"{field}.first_player",
        f"must index a player (0-{config.players - 1})",
    )
    turns = stage in (Stage.MOVE, Stage.BARRIER, Stage.OVER)
    if stage in (Stage.POOL, Stage.MYSTERY):
        require(not message.players, f"{field}.players", "no bungalow or trailer before the bungalows are placed")
    else:  # from the bungalows on, the rules model keeps one entry per player
        require(
            len(message.players) == config.players,
            f"{field}.players",
            f"one entry per player ({config.players}), got {len(message.players)}",
        )
    seen: dict[int, str] = {}

    def place(square_message: pb.DeluxeCampingSquare, where: str) -> int:
        square = square_from_proto(square_message, config, where)
        require(square not in seen, where, f"two pieces on one square (also {seen.get(square)})")
        seen[square] = where
        return square

    pool = place(message.pool, f"{field}.pool") if message.HasField("pool") else -1
    nuisance = place(message.nuisance, f"{field}.nuisance") if message.HasField("nuisance") else -1
    mystery = tuple(sorted(place(s, f"{field}.mystery[{i}]") for i, s in enumerate(message.mystery)))
    ice = tuple(sorted(place(s, f"{field}.ice_creams[{i}]") for i, s in enumerate(message.ice_creams)))
    require_limit(len(mystery), rules.MYSTERY_TOKENS, f"{field}.mystery", "mystery tokens")
    require_limit(len(ice), rules.ICE_CREAM_STANDS, f"{field}.ice_creams", "ice-cream stands")
    bungalows = []
    trailers = []
    for p, player in enumerate(message.players):
        where = f"{field}.players[{p}]"
        bungalows.append(place(player.bungalow, f"{where}.bungalow") if player.HasField("bungalow") else -1)
        require_limit(len(player.trailers), config.trailers, f"{where}.trailers", "trailers")
        trailers.append(tuple(sorted(place(s, f"{where}.trailers[{i}]") for i, s in enumerate(player.trailers))))
        if turns:
            require(bungalows[-1] >= 0, f"{where}.bungalow", "every bungalow is on the board during the turns")
            require(
                len(trailers[-1]) == config.trailers,
                f"{where}.trailers",
                f"{config.trailers} trailers during the turns, got {len(trailers[-1])}",
            )
    if turns:
        require(pool >= 0, f"{field}.pool", "the swimming pool is on the board during the turns")
        require(nuisance >= 0, f"{field}.nuisance", "the pain-in-the-neck is revealed before the first turn")
        require(len(ice) == rules.ICE_CREAM_STANDS, f"{field}.ice_creams", "two ice-cream stands after the reveal")
        require(not mystery, f"{field}.mystery", "the mystery tokens are revealed before the first turn")
    barriers = set()
    for i, b in enumerate(message.barriers):
        edge = barrier_from_proto(b, config, f"{field}.barriers[{i}]")
        require(edge not in barriers, f"{field}.barriers[{i}]", "the same barrier twice")
        barriers.add(edge)
    require(
        len(barriers) <= config.supply,
        f"{field}.barriers",
        f"{len(barriers)} barriers on the board, the supply holds {config.supply}",
    )
    require(message.idle_turns >= 0, f"{field}.idle_turns", "must not be negative")
    require(message.placed_this_turn >= 0, f"{field}.placed_this_turn", "must not be negative")
    state = DCState(
        config=config,
        stage=stage,
        to_move=message.to_move,
        pool=pool,
        mystery=mystery,
        ice_creams=ice,
        nuisance=nuisance,
        bungalows=tuple(bungalows) if message.players else (),
        trailers=tuple(trailers) if message.players else (),
        barriers=frozenset(barriers),
        idle_turns=message.idle_turns,
        placed_this_turn=message.placed_this_turn,
        first_player=message.first_player,
    )
    try:
        rules.validate(state)
    except ValueError as error:
        raise InvalidArgument(field, str(error)) from None
    return state


def state_to_proto(state: DCState) -> pb.DeluxeCampingState:
    config = state.config
    message = pb.DeluxeCampingState(
        rules=pb.DeluxeCampingRules(
            rows=config.rows,
            cols=config.cols,
            players=config.players,
            trailers=config.trailers,
            supply=config.supply,
            strict_colours=config.strict_colours,
            optional_free_barrier=config.optional_free_barrier,
        ),
        stage=STAGE_TO_PROTO[state.stage],
        to_move=state.to_move,
        mystery=[square_to_proto(config, s) for s in state.mystery],
        ice_creams=[square_to_proto(config, s) for s in state.ice_creams],
        barriers=[barrier_to_proto(config, e) for e in sorted(state.barriers)],
        idle_turns=state.idle_turns,
        first_player=state.first_player,
        placed_this_turn=state.placed_this_turn,
    )
    if state.pool >= 0:
        message.pool.CopyFrom(square_to_proto(config, state.pool))
    if state.nuisance >= 0:
        message.nuisance.CopyFrom(square_to_proto(config, state.nuisance))
    for p in range(len(state.bungalows)):
        player = message.players.add()
        if state.bungalows[p] >= 0:
            player.bungalow.CopyFrom(square_to_proto(config, state.bungalows[p]))
        player.trailers.extend(square_to_proto(config, s) for s in state.trailers[p])
    return message


def move_to_proto(config: Config, action: rules.Action) -> pb.DeluxeCampingMove:
    message = pb.DeluxeCampingMove()
    write_move(message, cells_of(config), action)
    return message


@functools.lru_cache(maxsize=256)
def _cells(rows: int, cols: int) -> tuple[tuple[int, int], ...]:
    return tuple((r, c) for r in range(rows) for c in range(cols))


def cells_of(config: Config) -> tuple[tuple[int, int], ...]:
    """(row, col) of every square by number, computed once a board shape (a hint writes hundreds of moves)."""
    return _cells(config.rows, config.cols)


def write_move(message: pb.DeluxeCampingMove, cells: tuple[tuple[int, int], ...], action: rules.Action) -> None:
    """Fill an empty `message` with `action` in place: no intermediate messages to build and copy (a third of the
    CPU of building them, which counts when a hint lists a few hundred choices)."""
    if isinstance(action, Move):
        movement = message.movement
        movement.SetInParent()  # staying put is an empty movement, still chosen
        add = movement.steps.add
        for a, b in action.steps:
            step = add()
            origin = getattr(step, "from")
            origin.row, origin.col = cells[a]
            step.to.row, step.to.col = cells[b]
    elif isinstance(action, Barrier):
        if action.edge is None:
            message.no_barrier = True
        else:
            barrier = message.barrier
            barrier.a.row, barrier.a.col = cells[action.edge[0]]
            barrier.b.row, barrier.b.col = cells[action.edge[1]]
    elif isinstance(action, Place):
        message.place.row, message.place.col = cells[action.square]
    else:
        raise TypeError(f"not a Deluxe Camping decision: {action!r}")


def move_from_proto(message: pb.DeluxeCampingMove, config: Config, field: str) -> rules.Action:
    which = message.WhichOneof("choice")
    require(which is not None, field, "choose place, movement, barrier or no_barrier")
    if which == "no_barrier":
        require(message.no_barrier, f"{field}.no_barrier", "true to leave the free barrier out")
        return Barrier(None)
    if which == "place":
        return Place(square_from_proto(message.place, config, f"{field}.place"))
    if which == "barrier":
        return Barrier(barrier_from_proto(message.barrier, config, f"{field}.barrier"))
    steps = []
    for i, step in enumerate(message.movement.steps):
        where = f"{field}.movement.steps[{i}]"
        origin = square_from_proto(getattr(step, "from"), config, f"{where}.from")
        steps.append((origin, square_from_proto(step.to, config, f"{where}.to")))
    return Move(tuple(steps))


def sites_to_proto(state: DCState) -> list[pb.DeluxeCampingSite]:
    config = state.config
    return [
        pb.DeluxeCampingSite(
            squares=[square_to_proto(config, s) for s in sorted(site.squares)],
            owner=-1 if site.allotted_to is None else site.allotted_to,
            points=site.value if site.allotted_to is not None else 0,
        )
        for site in state.sites
    ]
