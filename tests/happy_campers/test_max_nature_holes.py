"""Nature Reserve's pattern search (`maximise._nature_holes`): a finder only, checked against the exhaustive oracle.

Tiny 3x4 instances with the map's own caps (`tiny_caps`, as for the floor cut): from the poorest of a few random
complete plays, the search's map is replayed and scored by the rules model, never scores above the oracle's maximum
nor below the start, and climbs on some instance; the whole maximiser with the search on (it replaces the walk) is
OPTIMAL exactly at the oracle's maximum; with every CP-SAT verdict read as open it never claims OPTIMAL. The
oracle costs about 35 s an instance, so these are marked slow."""

from __future__ import annotations

import pytest
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.cpsat import Proof
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers import max_models, maximise, rules

from tests.happy_campers.instances import TINY_3x4
from tests.happy_campers.test_max_nature_floor_cut import (  # noqa: F401  (tiny_caps is a fixture)
    NR,
    _poor_cases,
    _problem,
    open_every_verdict,
    tiny_caps,
)


@pytest.mark.slow
def test_the_search_from_a_poor_map_stays_legal_and_below_the_oracle(tiny_caps: dict[int, int]) -> None:  # noqa: F811 (the fixture)
    """From the poorest complete play: a rules-checked map at least as good, at most the oracle's maximum; on some
    instance strictly better (the search does find)."""
    rng = rng_for(21, "test_max_nature_holes", "poor")
    climbed = checked = 0
    for case in _poor_cases(rng):
        if case is None:
            continue
        rolls, best, poor = case
        problem = _problem(rolls)
        assert maximise._nature_holes_apply(problem)
        top = max_models.cached_programme(problem, tiny_caps).bound()
        found = maximise._nature_holes(problem, poor, top, Budget(20.0), 0, 1, maximise._Tally())
        assert poor[2] <= found[2] <= best, (rolls, poor[2], found[2], best)
        assert rules.score(found[0], NR, TINY_3x4).total == found[2]
        assert maximise._replayed(problem, found[1], AssertionError, str) == found[0]
        climbed += found[2] > poor[2]
        checked += 1
        if checked == 4:
            break
    assert checked >= 2 and climbed >= 1, (checked, climbed)


@pytest.mark.slow
def test_the_maximiser_with_the_search_proves_the_oracle_maximum(tiny_caps: dict[int, int]) -> None:  # noqa: F811 (the fixture)
    """The default maximiser (pattern search, no walk) answers the oracle's maximum, OPTIMAL, from the searched warm
    start and from a poor start play."""
    rng = rng_for(22, "test_max_nature_holes", "whole")
    done = 0
    for case in _poor_cases(rng):
        if case is None:
            continue
        rolls, best, poor = case
        for start in (None, [turn.placement for turn in poor[1]]):
            found = maximise.clairvoyant_max(None, rolls, NR, TINY_3x4, Budget(60.0), workers=1, start_plays=start)
            assert (found.score, found.proof) == (best, Proof.OPTIMAL), (rolls, found.score, best)
        done += 1
        if done == 3:
            break
    assert done == 3


@pytest.mark.slow
def test_an_open_search_is_not_optimal(tiny_caps: dict[int, int], monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811 (the fixture)
    """Every CP-SAT verdict read as open (OPTIMAL as FEASIBLE, INFEASIBLE as UNKNOWN, no CP-SAT bound) and the
    programme's bound raised above the maximum: the pattern search may still climb, but the answer is
    FEASIBLE_WITH_BOUND, never OPTIMAL (a map the search finds proves nothing)."""
    rng = rng_for(23, "test_max_nature_holes", "open")
    rolls, best, poor = next(case for case in _poor_cases(rng) if case is not None)
    opened = open_every_verdict(monkeypatch)

    monkeypatch.setattr(maximise, "solve", opened)
    start = [turn.placement for turn in poor[1]]
    found = maximise.clairvoyant_max(None, rolls, NR, TINY_3x4, Budget(20.0), workers=1, start_plays=start)
    assert found.proof is Proof.FEASIBLE_WITH_BOUND and found.score is not None and found.score <= best
    assert rules.score(found.grid, NR, TINY_3x4).total == found.score
