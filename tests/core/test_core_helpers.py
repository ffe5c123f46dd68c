"""Geometry, CP-SAT helpers, budgets and seeding."""

from __future__ import annotations

import threading
import time

import pytest
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


def golomb_ruler(marks: int) -> cp_model.CpModel:
    """Shortest Golomb ruler with `marks` marks: a feasible ruler comes at once, the optimum proof takes minutes."""
    model = cp_model.CpModel()
    horizon = marks * marks
    x = [model.new_int_var(0, horizon, f"mark{i}") for i in range(marks)]
    model.add(x[0] == 0)
    for i in range(marks - 1):
        model.add(x[i + 1] > x[i])
    diffs = [model.new_int_var(1, horizon, f"d{i}_{j}") for i in range(marks) for j in range(i + 1, marks)]
    pairs = [(i, j) for i in range(marks) for j in range(i + 1, marks)]
    for (i, j), d in zip(pairs, diffs, strict=True):
        model.add(d == x[j] - x[i])
    model.add_all_different(diffs)
    model.minimize(x[-1])
    return model


@pytest.mark.timing
def test_cancel_from_another_thread_stops_a_running_cpsat_search() -> None:
    # Without the cancel this solve would run for its whole 120 s budget without proving the optimum (the
    # 13-mark optimum is 106; CP-SAT needs far more than minutes to prove it). The cancel is sent by another
    # thread once CP-SAT has reported its first solution, so it always lands during the search.
    budget = Budget(120.0)
    first_solution = threading.Event()
    budget.progress = lambda fields: first_solution.set()

    def canceller() -> None:
        if first_solution.wait(timeout=60):
            budget.cancel()

    thread = threading.Thread(target=canceller)
    thread.start()
    started = time.monotonic()
    result = solve(golomb_ruler(13), budget, workers=2)
    elapsed = time.monotonic() - started
    thread.join()
    assert first_solution.is_set(), "CP-SAT reported no solution"
    assert budget.cancelled
    assert result.has_solution and result.proof is Proof.FEASIBLE_WITH_BOUND  # stopped: no optimality claim
    assert result.bound is not None and result.bound < result.objective
    assert elapsed < 30, f"the search ran {elapsed:.1f} s after a cancel"


def test_budget_admission_runs_once_on_first_use_and_children_share_progress() -> None:
    admitted: list[float] = []
    budget = Budget(10.0)
    budget.admit_on_first_use(lambda b: admitted.append(b.time_limit_s))
    assert admitted == []  # creating and cancelling hooks is not use
    child = budget.limited(1.0)
    assert admitted == [10.0]
    budget.check()
    budget.remaining()
    assert admitted == [10.0]
    reports: list[dict] = []
    budget.progress = reports.append
    grandchild = budget.sub_budget(0.5)
    grandchild.report(depth=3)
    assert reports and reports[-1]["depth"] == 3 and "elapsed_s" in reports[-1]
    child.report(depth=1)  # created before the listener: reports go nowhere, quietly
    assert len(reports) == 1


def test_admission_that_refuses_cancels_the_budget() -> None:
    budget = Budget(10.0)
    budget.admit_on_first_use(lambda b: b.cancel())
    assert budget.expired() and budget.cancelled


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


def test_freezing_takes_every_live_object_out_of_the_collectors_view() -> None:
    import gc

    from campsolver.solver.core.budget import freeze_long_lived_objects

    alive = [[i] for i in range(1000)]  # tracked containers alive now
    frozen = gc.get_freeze_count()  # the test session froze its imports already
    freeze_long_lived_objects()
    assert gc.get_freeze_count() >= frozen + len(alive)
    assert all(o is not alive for o in gc.get_objects())  # the collector's generations no longer hold it
