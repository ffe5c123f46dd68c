"""Geometry, CP-SAT helpers, budgets and seeding."""

from __future__ import annotations

import threading
import time

from campsolver.solver.core import geometry
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.cpsat import Proof, check_unique_optimum, solve
from campsolver.solver.core.seeding import rng_for
from ortools.sat.python import cp_model


def all_polyominoes(size: int) -> set[frozenset]:
    shapes = {geometry.canonical({(0, 0)})}
    for _ in range(size - 1):
        grown = set()
        for shape in shapes:
            for cell in shape:
                for step in geometry.ORTHOGONAL_STEPS:
                    new = (cell[0] + step[0], cell[1] + step[1])
                    if new not in shape:
                        grown.add(geometry.canonical(shape | {new}))
        shapes = grown
    return shapes


def test_free_polyomino_counts_are_the_known_sequence() -> None:
    # OEIS A000105: 1, 1, 2, 5, 12, 35 free polyominoes; fixed ones A001168: 1, 2, 6, 19, 63, 216.
    free = [len(all_polyominoes(n)) for n in range(1, 7)]
    assert free == [1, 1, 2, 5, 12, 35]
    fixed = [sum(len(geometry.orientations(s)) for s in all_polyominoes(n)) for n in range(1, 7)]
    assert fixed == [1, 2, 6, 19, 63, 216]


def test_placements_and_components() -> None:
    domino = {(0, 0), (0, 1)}
    # 2x3 grid: 4 horizontal + 3 vertical dominoes.
    assert len(geometry.placements(domino, 2, 3)) == 7
    assert geometry.is_connected({(0, 0), (1, 0), (1, 1)})
    assert not geometry.is_connected({(0, 0), (1, 1)})  # diagonals never count
    pieces = geometry.components({(0, 0), (0, 1), (2, 2)})
    assert [len(p) for p in pieces] == [2, 1]
    assert len(geometry.border_cells(5, 9)) == 24


def test_cpsat_solve_maps_status_and_detects_uniqueness() -> None:
    model = cp_model.CpModel()
    x = [model.new_bool_var(f"x{i}") for i in range(3)]
    model.add(sum(x) <= 1)
    model.maximize(2 * x[0] + x[1] + x[2])
    result = solve(model, Budget(5.0))
    assert result.proof is Proof.OPTIMAL and result.objective == 2
    values = [result.boolean(v) for v in x]
    unique = check_unique_optimum(model.clone(), 2 * x[0] + x[1] + x[2], 2, x, values, Budget(5.0))
    assert unique.unique is True
    # With x1 worth 2 as well the optimum is no longer unique.
    model2 = cp_model.CpModel()
    y = [model2.new_bool_var(f"y{i}") for i in range(3)]
    model2.add(sum(y) <= 1)
    objective = 2 * y[0] + 2 * y[1] + y[2]
    model2.maximize(objective)
    first = solve(model2, Budget(5.0))
    again = check_unique_optimum(model2, objective, 2, y, [first.boolean(v) for v in y], Budget(5.0))
    assert again.unique is False


def test_cancel_stops_a_running_cpsat_search() -> None:
    # A hard-ish model: pigeonhole with 13 pigeons in 12 holes, no time limit to speak of.
    model = cp_model.CpModel()
    pigeons, holes = 13, 12
    at = [[model.new_bool_var(f"p{p}h{h}") for h in range(holes)] for p in range(pigeons)]
    for p in range(pigeons):
        model.add_exactly_one(at[p])
    for h in range(holes):
        model.add_at_most_one(at[p][h] for p in range(pigeons))
    budget = Budget(120.0)
    threading.Timer(0.3, budget.cancel).start()
    started = time.monotonic()
    result = solve(model, budget, workers=1)
    assert time.monotonic() - started < 30
    assert result.proof in (None, Proof.INFEASIBLE)


def test_seeded_generators_are_deterministic_and_independent() -> None:
    a = rng_for(7, "rolls").integers(0, 1000, 5).tolist()
    assert a == rng_for(7, "rolls").integers(0, 1000, 5).tolist()
    assert a != rng_for(7, "other").integers(0, 1000, 5).tolist()
    assert a != rng_for(8, "rolls").integers(0, 1000, 5).tolist()


def test_a_cancelled_budget_never_starts_a_cpsat_search() -> None:
    model = cp_model.CpModel()
    x = model.new_int_var(0, 10, "x")
    model.maximize(x)
    budget = Budget(60.0)
    budget.cancel()
    result = solve(model, budget)
    assert result.proof is None and not result.has_solution


def test_bitmask_helpers_agree_with_the_cell_helpers() -> None:
    rows, cols = 3, 4
    table = geometry.neighbour_masks(rows, cols)
    for index in range(rows * cols):
        cell = divmod(index, cols)
        assert geometry.mask_cells(table[index], cols) == frozenset(geometry.neighbours(cell, rows, cols))
    corner = 1  # square (0, 0)
    assert geometry.mask_cells(geometry.grow_mask(corner, rows, cols), cols) == {(0, 0), (0, 1), (1, 0)}
    two_steps = geometry.mask_cells(geometry.grow_mask(corner, rows, cols, 2), cols)
    assert two_steps == {(r, c) for r in range(rows) for c in range(cols) if r + c <= 2}
