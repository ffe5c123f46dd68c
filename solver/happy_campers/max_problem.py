"""Happy Campers maxima: the problem and answer types shared by the model builders, the card caps and
the solve loop in `maximise` (split out of maximise.py so each concern has its own module)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from campsolver.solver.core.cpsat import CpSolveResult, Proof
from campsolver.solver.core.geometry import Cell, placements
from campsolver.solver.happy_campers import cpsat_map
from campsolver.solver.happy_campers.rules import (
    ANY_FACE,
    ELEMENTS,
    Challenge,
    Components,
    Element,
    Grid,
    Option,
    Placement,
    ScoreBreakdown,
    roll_options,
)
from ortools.sat.python import cp_model

Roll = tuple[int, int]
Mode = Literal["complete", "incomplete", "perfect"]

#: Cards whose points do not depend on the map (or that score none): with only these in play a perfect map
#: is a maximum. The Great Divide is left out: the search does not check its two-sided completeness (tried:
#: with a leaf check and a side-reachability prune it found no two-sided perfect map on 4 of 4 15-roll seeds).
MAP_INDEPENDENT_CARDS = frozenset({Challenge.NOISY_NEIGHBOURS, Challenge.FESTIVAL})
#: The element order used inside the CP-SAT models.
MODEL_ELEMENTS: tuple[int, ...] = tuple(int(e) for e in ELEMENTS)


class ModelMismatch(RuntimeError):
    """The rules model disagrees with a CP-SAT answer: a bug in the model, never a user error."""


# ---------------------------------------------------------------------------------------------------------
# Public results
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnPlay:
    """What happened to one roll: the placement drawn, or None when the game had already ended."""

    turn: int
    roll: Roll
    placement: Placement | None

    @property
    def option(self) -> Option | None:
        return self.placement.option if self.placement else None

    @property
    def element(self) -> Element | None:
        return self.placement.element if self.placement else None

    @property
    def cells(self) -> frozenset[Cell] | None:
        return self.placement.cells if self.placement else None


@dataclass(frozen=True)
class SolveStats:
    """Summed over the CP-SAT solves behind one answer."""

    wall_time_s: float
    branches: int
    conflicts: int
    solves: int
    #: CP-SAT's deterministic time summed over the solves (comparable across machine loads, unlike wall time).
    deterministic_time: float = 0.0


@dataclass(frozen=True)
class MaxProblem:
    """Everything needed to rebuild a model (used by `is_unique_optimum`)."""

    kind: Literal["clairvoyant", "absolute", "challenge"]
    components: Components
    challenges: tuple[Challenge, ...]
    start_grid: Grid
    rolls: tuple[Roll, ...] = ()
    festival_won: bool = True
    card: Challenge | None = None  # challenge_max only


@dataclass(frozen=True)
class MaxResult:
    """A maximum with its proof status.

    `score` is the rules model's score of `grid` (for `challenge_max`: the card's points on `grid`), `bound`
    a proven upper bound on the maximum (None when nothing was proven). `proof` is OPTIMAL only when CP-SAT
    closed every phase, FEASIBLE_WITH_BOUND when a bound was proven but the gap is open, HEURISTIC when no
    bound is known, INFEASIBLE when no map qualifies (challenge_max only), None when the budget ran out
    before any answer.
    """

    score: int | None
    proof: Proof | None
    bound: int | None
    grid: Grid | None
    turns: tuple[TurnPlay, ...]
    breakdown: ScoreBreakdown | None
    stats: SolveStats
    problem: MaxProblem

    @property
    def placements(self) -> tuple[Placement, ...]:
        return tuple(t.placement for t in self.turns if t.placement is not None)


@dataclass
class _Built:
    """A model plus how to read its answer back."""

    model: cp_model.CpModel
    objective: cp_model.LinearExprT | None
    mv: cpsat_map.MapVars
    read_turns: Callable[[CpSolveResult], tuple[TurnPlay, ...]]
    #: The capped cards' points (`max_caps.clairvoyant_card_caps`) inside the objective, for the proof by
    #: card levels (`max_levels`); None when the model has no such part.
    bonus: cp_model.LinearExprT | None = None
    #: The per-roll assignment bound the model was given (`max_assignment`), None when it was not added.
    assignment_bound: int | None = None
    #: Clairvoyant models: per turn, whether it draws and its drawing variables (`max_card_cuts.TurnVars`).
    active: Sequence[cp_model.IntVar] = ()
    turn_vars: Sequence[Any] = ()


def _fixed_cells(grid: Grid) -> dict[Cell, int]:
    return {(r, c): v for r, row in enumerate(grid) for c, v in enumerate(row) if v}


def _placement_table(components: Components, blocked: set[Cell]) -> dict[frozenset[Cell], set[int]]:
    """Every placement (cell set) of every shape that avoids `blocked`, with the shape indices giving it."""
    table: dict[frozenset[Cell], set[int]] = {}
    for s, shape in enumerate(components.shapes):
        for cells in placements(shape, components.rows, components.cols):
            if not cells & blocked:
                table.setdefault(frozenset(cells), set()).add(s)
    return table


def _roll_pairs(roll: Roll, components: Components) -> dict[int, set[int]]:
    """Shape index -> element values allowed with it by either option of the roll (face 6 expanded)."""
    allowed: dict[int, set[int]] = {}
    for option in roll_options(roll):
        shapes = components.shape_indices(option.shape_face)
        if option.element_face == ANY_FACE:
            elements = {int(e) for e in components.elements}
        else:
            elements = {int(components.elements[option.element_face - 1])}
        for s in shapes:
            allowed.setdefault(s, set()).update(elements)
    return allowed
