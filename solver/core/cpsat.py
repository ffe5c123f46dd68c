"""CP-SAT helpers: one place for solver parameters, budgets, cancellation, status mapping, uniqueness.

Every CP-SAT model in campsolver is solved through `solve()`, so a request deadline, a gRPC cancel and
the worker count are honoured the same way everywhere, and a proof claim always comes from the solver's
own status.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from campsolver.solver.core.budget import Budget
from campsolver.solver.core.proof import Proof
from ortools.sat.python import cp_model

__all__ = [
    "DEFAULT_WORKERS",
    "CpSolveResult",
    "Proof",  # re-exported: CP-SAT callers map statuses to it here
    "UniquenessResult",
    "add_nogood",
    "check_unique_optimum",
    "full_linearization",
    "solve",
]

#: Search workers per solve. Two cores per machine, and the service may run solves side by side.
DEFAULT_WORKERS = 2
#: Called with each searched solve's wall seconds (the service's metrics; empty unless someone listens).
_SOLVE_OBSERVERS: list[Callable[[float], None]] = []


def add_solve_observer(observer: Callable[[float], None]) -> None:
    """Call `observer(wall_seconds)` after every CP-SAT search, on the thread that ran it (idempotent)."""
    if observer not in _SOLVE_OBSERVERS:
        _SOLVE_OBSERVERS.append(observer)


def full_linearization(solver: cp_model.CpSolver) -> None:
    """`configure` profile for models whose proofs come from the LP (labels with flow connectivity): every
    constraint in the LP (linearization level 2). Measured on Deluxe Camping's securable-score model, where it
    proves on one worker cases the default two-worker portfolio leaves open after 20 s."""
    solver.parameters.linearization_level = 2


@dataclass
class CpSolveResult:
    """What a CP-SAT solve produced, with the solver's own verdict."""

    status: int
    proof: Proof | None  # None when no solution was found and nothing was proven
    objective: float | None
    bound: float | None
    wall_time_s: float
    branches: int
    conflicts: int
    solver: cp_model.CpSolver

    @property
    def has_solution(self) -> bool:
        return self.status in (cp_model.OPTIMAL, cp_model.FEASIBLE)

    def value(self, var: cp_model.IntVar | cp_model.LinearExpr) -> int:
        return int(self.solver.value(var))

    def boolean(self, literal: cp_model.IntVar) -> bool:
        return bool(self.solver.boolean_value(literal))


#: CP-SAT's `random_seed` is a signed 32-bit integer; a request's seed is any uint64.
CPSAT_SEED_LIMIT = 2**31


def cpsat_seed(seed: int) -> int:
    """CP-SAT's seed for a request seed: the seed itself below 2^31 (answers of small seeds stay as they were),
    else the seed folded into [0, 2^31) by its 31-bit parts, so every uint64 gives a valid, deterministic one."""
    if 0 <= seed < CPSAT_SEED_LIMIT:
        return seed
    folded = 0
    value = abs(seed)
    while value:
        folded ^= value % CPSAT_SEED_LIMIT
        value //= CPSAT_SEED_LIMIT
    return folded


def make_solver(
    budget: Budget, *, workers: int = DEFAULT_WORKERS, seed: int = 0, time_fraction: float = 1.0
) -> cp_model.CpSolver:
    """A CpSolver with campsolver's parameters, limited by `budget` (deterministic for a given seed)."""
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.max_time_in_seconds = max(budget.remaining() * time_fraction, 0.001)
    params.num_search_workers = workers
    params.random_seed = cpsat_seed(seed)
    params.log_search_progress = False
    # CP-SAT installs its own SIGINT handler by default, which swallows Ctrl-C until the solve ends; the CLI
    # turns Ctrl-C into `Budget.cancel()` instead (stop_search), so the signal must reach Python.
    params.catch_sigint_signal = False
    return solver


class _ProgressCallback(cp_model.CpSolverSolutionCallback):
    """Reports each improving solution to the budget's progress listener: its objective, and CP-SAT's bound only
    when the model is the whole problem (a sub-model's bound, of a restricted or relaxed problem, is no bound on
    the answer: a progress line showed 60, then 69, then a final 66)."""

    def __init__(self, budget: Budget, has_objective: bool, whole_problem: bool) -> None:
        super().__init__()
        self._budget = budget
        self._has_objective = has_objective
        self._whole_problem = whole_problem
        self._solutions = 0

    def on_solution_callback(self) -> None:
        self._solutions += 1
        if self._has_objective and self._whole_problem:
            self._budget.report(best=self.objective_value, bound=self.best_objective_bound)
        elif self._has_objective:
            self._budget.report(best=self.objective_value)
        else:
            self._budget.report(solutions=self._solutions)


def solve(
    model: cp_model.CpModel,
    budget: Budget,
    *,
    workers: int = DEFAULT_WORKERS,
    seed: int = 0,
    time_fraction: float = 1.0,
    configure: Callable[[cp_model.CpSolver], None] | None = None,
    whole_problem: bool = False,
) -> CpSolveResult:
    """Solve under the budget; a cancel of the budget stops the search at once (`stop_search`).

    `whole_problem`: the model's objective is the answer's own, so its CP-SAT bound may be shown as progress.
    """
    solver = make_solver(budget, workers=workers, seed=seed, time_fraction=time_fraction)
    if configure is not None:
        configure(solver)
    stopped = threading.Event()

    def stop() -> None:
        stopped.set()
        solver.stop_search()

    budget.on_cancel(stop)
    # `stop_search` before `solve` starts is ignored by CP-SAT, so a spent or cancelled budget never starts
    # a search (a cancel landing in the tiny window after this check is still bounded by the time limit).
    searched = not budget.expired()
    has_objective = model.has_objective()
    if not searched:
        status = cp_model.UNKNOWN
    elif budget.progress is not None:  # someone watches (the CLI on a terminal): report each solution
        status = solver.solve(model, _ProgressCallback(budget, has_objective, whole_problem))
    else:
        status = solver.solve(model)
    if searched:
        for observer in _SOLVE_OBSERVERS:
            observer(solver.wall_time)
    objective = solver.objective_value if has_objective and status in (cp_model.OPTIMAL, cp_model.FEASIBLE) else None
    bound = solver.best_objective_bound if has_objective and status in (cp_model.OPTIMAL, cp_model.FEASIBLE) else None
    return CpSolveResult(
        status=status,
        proof=proof_of(status, has_objective),
        objective=objective,
        bound=bound,
        wall_time_s=solver.wall_time if searched else 0.0,
        branches=solver.num_branches if searched else 0,
        conflicts=solver.num_conflicts if searched else 0,
        solver=solver,
    )


def proof_of(status: int, has_objective: bool = True) -> Proof | None:
    """Map a CP-SAT status to what campsolver may claim."""
    if status == cp_model.OPTIMAL:
        return Proof.OPTIMAL
    if status == cp_model.FEASIBLE:
        return Proof.FEASIBLE_WITH_BOUND if has_objective else Proof.HEURISTIC
    if status == cp_model.INFEASIBLE:
        return Proof.INFEASIBLE
    return None


def add_nogood(model: cp_model.CpModel, literals: Sequence[cp_model.IntVar], values: Sequence[bool]) -> None:
    """Forbid one assignment of `literals` (at least one must differ)."""
    model.add_bool_or([lit.Not() if value else lit for lit, value in zip(literals, values, strict=True)])


@dataclass
class UniquenessResult:
    """Whether an optimum is unique: proven unique, a second optimum found, or undecided."""

    unique: bool | None  # None: the re-solve ran out of budget
    other_solution_status: int
    wall_time_s: float


def check_unique_optimum(
    model: cp_model.CpModel,
    objective: cp_model.LinearExprT,
    optimum: int,
    decision_literals: Sequence[cp_model.IntVar],
    solution: Sequence[bool],
    budget: Budget,
    *,
    maximise: bool = True,
) -> UniquenessResult:
    """Re-solve with the objective pinned to `optimum` and the found solution excluded.

    The optimum is unique (over `decision_literals`) exactly when that re-solve is INFEASIBLE.
    The model is modified: pass a copy (`model.clone()`) if the caller still needs it.
    """
    model.clear_objective()
    if maximise:
        model.add(objective >= optimum)
    else:
        model.add(objective <= optimum)
    add_nogood(model, decision_literals, solution)
    result = solve(model, budget)
    if result.status == cp_model.INFEASIBLE:
        unique: bool | None = True
    elif result.status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        unique = False
    else:
        unique = None
    return UniquenessResult(unique=unique, other_solution_status=result.status, wall_time_s=result.wall_time_s)
