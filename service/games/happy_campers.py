"""Happy Campers: protobuf requests <-> rules model and solvers.

Maps travel as rows of text in the rules model's own symbols (`rules.render_grid` / `rules.parse_grid`),
shapes as rows of '#'. Every conversion error names the request field at fault.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from campsolver.v1 import common_pb2
from campsolver.v1 import happy_campers_pb2 as pb
from service.errors import InvalidArgument, require
from solver.core.budget import Budget
from solver.core.geometry import Cell
from solver.happy_campers import rules
from solver.happy_campers.rules import Challenge, Components, Element, Grid, Placement

CHALLENGE_FROM_PROTO: dict[int, Challenge] = {
    pb.CHALLENGE_PRIVACY: Challenge.PRIVACY,
    pb.CHALLENGE_QUICK_PEE: Challenge.QUICK_PEE,
    pb.CHALLENGE_TENT_TOGETHER: Challenge.TENT_TOGETHER,
    pb.CHALLENGE_NATURE_RESERVE: Challenge.NATURE_RESERVE,
    pb.CHALLENGE_RIVER_TOWN: Challenge.RIVER_TOWN,
    pb.CHALLENGE_NOISY_NEIGHBOURS: Challenge.NOISY_NEIGHBOURS,
    pb.CHALLENGE_GREAT_DIVIDE: Challenge.GREAT_DIVIDE,
    pb.CHALLENGE_DANGEROUS_ANIMALS: Challenge.DANGEROUS_ANIMALS,
    pb.CHALLENGE_FESTIVAL: Challenge.FESTIVAL,
}
CHALLENGE_TO_PROTO = {challenge: number for number, challenge in CHALLENGE_FROM_PROTO.items()}


def _qualify(prefix: str, error: rules.RulesError) -> InvalidArgument:
    field = error.field if not prefix else f"{prefix}.{error.field}"
    return InvalidArgument(field, error.message)


def element_symbol(element: Element) -> str:
    return rules.render_grid(((int(element),),))


def components_from_proto(message: pb.HappyCampersComponents, field: str = "components") -> Components:
    rows = message.rows if message.HasField("rows") else rules.DEFAULT_COMPONENTS.rows
    cols = message.cols if message.HasField("cols") else rules.DEFAULT_COMPONENTS.cols
    shapes: tuple[Any, ...] = rules.DEFAULT_COMPONENTS.shapes
    if message.shapes:
        parsed = []
        for index, shape in enumerate(message.shapes):
            cells = [
                (r, c) for r, line in enumerate(shape.rows) for c, ch in enumerate(line) if ch == "#"
            ]
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
        require(challenge not in found, f"{field}[{index}]", f"{challenge.name} is listed twice")
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


def placement_label(placement: Placement, map_index: int | None = None) -> str:
    where = f"map {map_index + 1}: " if map_index is not None else ""
    cells = " ".join(f"r{r}c{c}" for r, c in sorted(placement.cells))
    return (
        f"{where}shape {placement.option.shape_face} as {Element(placement.element).name.lower()} "
        f"(element face {placement.option.element_face}) on {cells}"
    )


def score_to_proto(breakdown: rules.ScoreBreakdown) -> pb.HappyCampersScore:
    details = [common_pb2.ScoreDetail(name=f"largest {e.name.lower()} cluster", points=n)
               for e, n in breakdown.clusters.items()]
    details.append(common_pb2.ScoreDetail(name="empty squares", points=breakdown.empty_points))
    details.extend(
        common_pb2.ScoreDetail(name=f"challenge {c.name.lower()}", points=p)
        for c, p in breakdown.challenge_points.items()
    )
    return pb.HappyCampersScore(total=breakdown.total, complete=breakdown.complete, details=details)


# --- handlers -------------------------------------------------------------------------------------------


def score(request: pb.HappyCampersServiceScoreRequest, budget: Budget) -> pb.HappyCampersServiceScoreResponse:
    components = components_from_proto(request.components)
    grid = grid_from_rows(request.map, components, "map", connected=False)
    challenges = challenges_from_proto(request.challenges, "challenges")
    festival_won = request.festival_won if request.HasField("festival_won") else True
    breakdown = rules.score(grid, challenges, components, festival_won=festival_won)
    return pb.HappyCampersServiceScoreResponse(score=score_to_proto(breakdown))


def legal_moves(
    request: pb.HappyCampersServiceLegalMovesRequest, budget: Budget
) -> pb.HappyCampersServiceLegalMovesResponse:
    components = components_from_proto(request.components)
    grid = grid_from_rows(request.map, components, "map")
    roll = roll_from_proto(request.roll, "roll")
    moves = rules.legal_placements(grid, roll, components)
    return pb.HappyCampersServiceLegalMovesResponse(
        moves=[placement_to_proto(m) for m in moves], can_draw=bool(moves)
    )


def _example_score() -> pb.HappyCampersServiceScoreRequest:
    return pb.HappyCampersServiceScoreRequest(
        map=["TTTWW~~~~", "TTAAWE~..", "TTAAEEE..", ".........", "........."],
        challenges=[pb.CHALLENGE_PRIVACY, pb.CHALLENGE_RIVER_TOWN],
    )


def _example_legal() -> pb.HappyCampersServiceLegalMovesRequest:
    return pb.HappyCampersServiceLegalMovesRequest(
        map=[".........", "...TT....", "...AA....", ".........", "........."],
        roll=pb.HappyCampersRoll(first=4, second=2),
    )


HANDLERS: dict[str, Any] = {"Score": score, "LegalMoves": legal_moves}
EXAMPLES: dict[str, Any] = {"Score": _example_score, "LegalMoves": _example_legal}
