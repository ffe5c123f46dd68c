"""Max on positions that sit on the pruning bound: the root's income bound equals the optimum, and the optimum
beats the everyone-greedy line (the search's first incumbent) by exactly 1.

There a pruning test off by one (`upper <= alpha + 1`, or a bound one too small) cuts the only better line and
the search "proves" the greedy value; random positions rarely sit there (about 1 in 700 of `random_tiny`), so
these were picked from seeds 0-8999 of `random_tiny` by that property, which each test re-checks before using
the position (a position that no longer sits on the bound fails loudly instead of testing nothing).
"""

from __future__ import annotations

import pytest
from campsolver.solver.adventure_tours import maximise
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.proof import Proof

from tests.adventure_tours.test_search import brute_force, random_tiny, replay

ON_THE_BOUND = [
    (1473, maximise.Others.COOPERATIVE),
    (1638, maximise.Others.COOPERATIVE),
    (1638, maximise.Others.GREEDY),
    (3713, maximise.Others.COOPERATIVE),
    (3713, maximise.Others.GREEDY),
    (4754, maximise.Others.COOPERATIVE),
    (4754, maximise.Others.GREEDY),
    (6055, maximise.Others.COOPERATIVE),
    (6055, maximise.Others.GREEDY),
    (8947, maximise.Others.COOPERATIVE),
]
INCOME = maximise.MaxObjective.INCOME


@pytest.mark.parametrize(("seed", "others"), ON_THE_BOUND, ids=lambda v: getattr(v, "value", str(v)))
def test_max_on_the_bound_equals_brute_force(seed: int, others: maximise.Others) -> None:
    state = random_tiny(seed)
    optimum = brute_force(state, 0, INCOME, others)
    greedy, _ = maximise.greedy_line_value(state, 0, INCOME)
    assert maximise.income_bound(state, 0) == optimum == greedy + 1, "the position no longer sits on the bound"
    result = maximise.maximise(state, 0, Budget(30), objective=INCOME, others=others)
    assert result.proof is Proof.EXACT
    assert result.value == result.bound == optimum
    assert maximise.round_value(replay(state, result.line), 0, INCOME) == optimum
