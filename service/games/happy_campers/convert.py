"""Happy Campers: protobuf messages <-> the rules model's and solvers' objects (every field validated and named)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from typing import Any

from campsolver.service.errors import InvalidArgument, require, require_limit
from campsolver.service.games import enum_maps
from campsolver.solver.core.geometry import Cell
from campsolver.solver.happy_campers import hint as hint_engine
from campsolver.solver.happy_campers import modes, rules
from campsolver.solver.happy_campers.rules import Challenge, Components, Element, Grid, Placement

from campsolver.v1 import common_pb2
from campsolver.v1 import happy_campers_pb2 as pb

CHALLENGE_FROM_PROTO = enum_maps.from_proto(pb.Challenge, Challenge)
CHALLENGE_TO_PROTO = enum_maps.to_proto(CHALLENGE_FROM_PROTO)
#: Longest roll sequence a clairvoyant MaxScore accepts (RESOURCE_EXHAUSTED beyond).
MAX_ROLLS = 40
#: Puzzle roll counts accepted (RESOURCE_EXHAUSTED beyond the maximum).
DEFAULT_PUZZLE_ROLLS = 8
MAX_PUZZLE_ROLLS = 20
HINT_MODE_FROM_PROTO = enum_maps.from_proto(pb.HintMode, hint_engine.HintMode, unspecified=hint_engine.HintMode.OWN_MAP)
#: Most players a multi-player hint accepts (every rollout plays every map; RESOURCE_EXHAUSTED beyond).
MAX_HINT_PLAYERS = 8
OBJECTIVE_FROM_PROTO = enum_maps.from_proto(
    pb.HintObjective, hint_engine.Objective, unspecified=hint_engine.Objective.OWNER_WORST
)


def _qualify(prefix: str, error: rules.RulesError) -> InvalidArgument:
    field = error.field if not prefix else f"{prefix}.{error.field}"
    return InvalidArgument(field, error.message)


@cache
def element_symbol(element: Element) -> str:
    """The element's map symbol (cached: a hint converts every legal move, well inside its deadline)."""
    return rules.render_grid(((int(element),),))


def components_from_proto(message: pb.HappyCampersComponents, field: str = "components") -> Components:
    rows = message.rows if message.HasField("rows") else rules.DEFAULT_COMPONENTS.rows
    cols = message.cols if message.HasField("cols") else rules.DEFAULT_COMPONENTS.cols
    # Beyond the configured board limit is a size limit (RESOURCE_EXHAUSTED); nonsense sizes are invalid.
    require_limit(rows, rules.MAX_MAP_SIDE, f"{field}.rows", "board rows")
    require_limit(cols, rules.MAX_MAP_SIDE, f"{field}.cols", "board columns")
    shapes: tuple[Any, ...] = rules.DEFAULT_COMPONENTS.shapes
    if message.shapes:
        parsed = []
        for index, shape in enumerate(message.shapes):
            cells = [(r, c) for r, line in enumerate(shape.rows) for c, ch in enumerate(line) if ch == "#"]
            bad = {ch for line in shape.rows for ch in line} - {"#", "."}
            require(not bad, f"{field}.shapes[{index}].rows", f"only '#' and '.' are allowed, got {sorted(bad)}")
            parsed.append(cells)
        shapes = tuple(parsed)
    try:
        return Components(rows=rows, cols=cols, shapes=shapes)
    except rules.RulesError as error:
        raise _qualify(field, error) from None


def grid_from_rows(lines: Sequence[str], components: Components, field: str, *, connected: bool = True) -> Grid:
    """A map from its text rows (empty list: a blank map)."""
    if not lines:
        return rules.empty_grid(components)
    require(
        len(lines) == components.rows,
        field,
        f"expected {components.rows} rows of {components.cols} squares, got {len(lines)} rows",
    )
    for index, line in enumerate(lines):
        require(
            len(line) == components.cols,
            f"{field}[{index}]",
            f"expected {components.cols} squares, got {len(line)}",
        )
    try:
        grid = rules.parse_grid("\n".join(lines))
        return rules.validate_grid(grid, components, require_connected=connected)
    except rules.RulesError as error:
        raise InvalidArgument(field, error.message) from None


def grid_to_rows(grid: Grid) -> list[str]:
    return rules.render_grid(grid).splitlines()


def roll_from_proto(message: pb.HappyCampersRoll, field: str) -> tuple[int, int]:
    for name in ("first", "second"):
        value = getattr(message, name)
        require(1 <= value <= 6, f"{field}.{name}", f"a die face is 1..6, got {value}")
    return message.first, message.second


def challenges_from_proto(values: Sequence[int], field: str) -> tuple[Challenge, ...]:
    found: list[Challenge] = []
    for index, value in enumerate(values):
        challenge = CHALLENGE_FROM_PROTO.get(value)
        require(challenge is not None, f"{field}[{index}]", "unknown or unspecified challenge card")
        require(challenge not in found, f"{field}[{index}]", f"{challenge.display_name} is listed twice")
        found.append(challenge)
    return tuple(found)


def cells_to_proto(cells: Sequence[Cell]) -> list[pb.HappyCampersCell]:
    return [pb.HappyCampersCell(row=r, col=c) for r, c in sorted(cells)]


def placement_to_proto(placement: Placement, turn: int = 0, map_index: int = 0) -> pb.HappyCampersPlacement:
    return pb.HappyCampersPlacement(
        turn=turn,
        shape_face=placement.option.shape_face,
        element_face=placement.option.element_face,
        element=element_symbol(placement.element),
        cells=cells_to_proto(sorted(placement.cells)),
        map_index=map_index,
    )


def score_to_proto(breakdown: rules.ScoreBreakdown) -> pb.HappyCampersScore:
    details = [
        common_pb2.ScoreDetail(name=f"largest {e.name.lower()} cluster", points=n)
        for e, n in breakdown.clusters.items()
    ]
    details.append(common_pb2.ScoreDetail(name="empty squares", points=breakdown.empty_points))
    details.extend(
        common_pb2.ScoreDetail(name=f"challenge {c.display_name}", points=p)
        for c, p in breakdown.challenge_points.items()
    )
    return pb.HappyCampersScore(total=breakdown.total, complete=breakdown.complete, details=details)


GameFlow = modes.SoloState | modes.MultiplayerState


def components_to_proto(components: Components) -> pb.HappyCampersComponents:
    message = pb.HappyCampersComponents(rows=components.rows, cols=components.cols)
    if components.shapes != rules.DEFAULT_COMPONENTS.shapes:
        for shape in components.shapes:
            rows = max(r for r, _ in shape) + 1
            cols = max(c for _, c in shape) + 1
            message.shapes.add(
                rows=["".join("#" if (r, c) in shape else "." for c in range(cols)) for r in range(rows)]
            )
    return message


def game_from_proto(message: pb.HappyCampersGame, field: str = "game") -> GameFlow:
    """A game state from its message, checked against the rules model's invariants (fields named)."""
    components = components_from_proto(message.components, f"{field}.components")
    require(len(message.maps) >= 1, f"{field}.maps", "one map per player (solo: two)")
    require_limit(len(message.maps), MAX_HINT_PLAYERS, f"{field}.maps", "maps")
    grids = tuple(
        grid_from_rows(m.rows, components, f"{field}.maps[{i}].rows", connected=not message.solo)
        for i, m in enumerate(message.maps)
    )
    challenges = challenges_from_proto(message.challenges, f"{field}.challenges")
    roll = roll_from_proto(message.roll, f"{field}.roll") if message.HasField("roll") else None
    require(not (message.over and roll), f"{field}.roll", "no roll once the game is over")
    if message.solo:
        require(len(grids) == 2, f"{field}.maps", "solo mode plays two maps")
        second = challenges_from_proto(message.second_challenges, f"{field}.second_challenges")
        gap = message.solo_double_gap if message.HasField("solo_double_gap") else modes.SOLO_DOUBLE_GAP
        require(1 <= gap <= 3, f"{field}.solo_double_gap", "a gap of 1 to 3 squares")
        last = message.solo_last_turn_map if message.HasField("solo_last_turn_map") else None
        try:
            base = modes.SoloState.new(
                (challenges, second), components, maps=(grids[0], grids[1]), double_gap=gap, last_turn_map=last
            )
        except rules.RulesError as error:
            raise _qualify(field, error) from None
        require(not message.HasField("solo_follow") or roll is not None, f"{field}.solo_follow", "only with a roll")
        if message.over:
            return replace(base, over=True)
        if roll is None:
            return base
        if message.HasField("solo_follow"):
            return _solo_second_drawing(base, roll, message.solo_follow, f"{field}.solo_follow")
        state = base.child(roll)
        require(not state.over, f"{field}.roll", "neither map can take this roll: the game is over")
        return state
    require(not message.second_challenges, f"{field}.second_challenges", "only in the solo game")
    players = len(grids)
    require(players >= 2, f"{field}.maps", "the multi-player game has 2 or more maps (solo: set `solo`)")
    try:
        base = modes.MultiplayerState.new(players, challenges, components, maps=grids)
    except rules.RulesError as error:
        raise _qualify(field, error) from None
    in_game = tuple(message.in_game) if message.in_game else (True,) * players
    require(len(in_game) == players, f"{field}.in_game", f"one entry per map ({players})")
    to_draw = tuple(message.to_draw)
    for index, j in enumerate(to_draw):
        where = f"{field}.to_draw[{index}]"
        require(0 <= j < players and in_game[j], where, "a map still in the game")
        require(index == 0 or j > to_draw[index - 1], where, "maps are drawn on in seat order, each once")
    require(message.over or any(in_game), f"{field}.in_game", "a game not over has a map in it")
    if not message.over:
        require(bool(to_draw) == (roll is not None), f"{field}.to_draw", "maps are due exactly while a roll is on")
    require(not (message.bonus_next and message.bonus_turn), f"{field}.bonus_turn", "not with bonus_next")
    state = replace(
        base,
        in_game=in_game,
        bonus_next=message.bonus_next,
        bonus_turn=message.bonus_turn,
        over=message.over,
        roll=None if message.over else roll,
        to_draw=() if message.over else to_draw,
    )
    if roll is not None and not message.over:
        require(bool(state.legal_actions()), f"{field}.to_draw[0]", "this map cannot take the roll")
    return state


def _solo_second_drawing(
    base: modes.SoloState, roll: tuple[int, int], follow: pb.HappyCampersOption, field: str
) -> modes.SoloState:
    """The state between the two drawings of a two-map solo turn (map 0 drawn, map 1 due with `follow`)."""
    try:
        option = rules.Option(follow.shape_face, follow.element_face)
    except rules.RulesError as error:
        raise _qualify(field, error) from None
    require(option in rules.roll_options(roll), field, "an option of the roll")
    require(base.last_turn_map is None, field, "not in the extra turn (one map only)")
    state = replace(base, roll=roll, step=modes.SoloStep.SECOND, allowed=((1, option),))
    require(bool(state.legal_actions()), field, "map 1 cannot take this option")
    return state


def game_to_proto(state: GameFlow) -> pb.HappyCampersGame:
    message = pb.HappyCampersGame(
        components=components_to_proto(state.components),
        maps=[pb.HappyCampersMap(rows=grid_to_rows(grid)) for grid in state.maps],
        over=state.over,
    )
    if state.roll is not None:
        message.roll.CopyFrom(pb.HappyCampersRoll(first=state.roll[0], second=state.roll[1]))
    if isinstance(state, modes.SoloState):
        message.solo = True
        message.challenges.extend(CHALLENGE_TO_PROTO[c] for c in state.challenges[0])
        message.second_challenges.extend(CHALLENGE_TO_PROTO[c] for c in state.challenges[1])
        message.solo_double_gap = state.double_gap
        if state.last_turn_map is not None:
            message.solo_last_turn_map = state.last_turn_map
        if state.step is modes.SoloStep.SECOND:
            ((_, follow),) = state.allowed
            message.solo_follow.CopyFrom(
                pb.HappyCampersOption(shape_face=follow.shape_face, element_face=follow.element_face)
            )
        return message
    message.challenges.extend(CHALLENGE_TO_PROTO[c] for c in state.challenges)
    message.in_game.extend(state.in_game)
    message.to_draw.extend(state.to_draw)
    message.bonus_next, message.bonus_turn = state.bonus_next, state.bonus_turn
    return message


def placement_from_proto(message: pb.HappyCampersPlacement, components: Components, field: str) -> Placement:
    """A drawing as the rules model takes it (its legality is the caller's check)."""
    symbols = {element_symbol(e): e for e in rules.ELEMENTS}
    require(message.element in symbols, f"{field}.element", f"one of {sorted(symbols)}")
    cells = frozenset((c.row, c.col) for c in message.cells)
    require(len(cells) == len(message.cells) and cells, f"{field}.cells", "distinct squares, at least one")
    try:
        option = rules.Option(message.shape_face, message.element_face)
    except rules.RulesError as error:
        raise _qualify(field, error) from None
    return Placement(cells, symbols[message.element], option)
