"""The progress line shows only a bound valid for the whole problem, and never a rising one."""

from __future__ import annotations

from typing import Any

import pytest
from campsolver.clients.cli import Progress
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.cpsat import solve
from ortools.sat.python import cp_model


def test_the_progress_line_keeps_the_best_found_and_the_tightest_bound() -> None:
    progress = Progress(enabled=False, label="max")
    progress.update({"best": 60, "bound": 60.0})
    progress.update({"best": 55, "bound": 69.0})  # a later phase: a worse map, a weaker bound
    assert "best 60" in progress.line() and "bound 60" in progress.line()
    progress.update({"best": 63, "bound": 66.0, "depth": 3})
    assert "best 63" in progress.line() and "bound 60" in progress.line() and "depth 3" in progress.line()


@pytest.mark.parametrize("whole_problem", [False, True])
def test_cp_sat_reports_its_bound_only_for_a_whole_problem_model(whole_problem: bool) -> None:
    model = cp_model.CpModel()
    x = [model.new_int_var(0, 5, f"x{i}") for i in range(4)]
    model.add(sum(x) <= 11)
    model.maximize(sum((i + 1) * v for i, v in enumerate(x)))
    reports: list[dict[str, Any]] = []
    budget = Budget(10)
    budget.progress = reports.append
    result = solve(model, budget, whole_problem=whole_problem)
    assert result.objective is not None and reports
    assert all("best" in r for r in reports)
    assert any("bound" in r for r in reports) is whole_problem
