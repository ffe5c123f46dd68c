"""Nature Reserve's floor cut (`max_models._add_nature_floor_cut`): with a floor L (the walk's level, or the main
solve's warm start) the clairvoyant model keeps only maps with at most `nature_non_isolated_limit(caps, n, L)`
empty squares that are not isolated, and no two neighbouring empty squares when that limit is 0 or 1.

A limit too low would make CP-SAT "prove" a smaller maximum, so it is checked: against every drawn/empty pattern
of small maps (the inequality the limit rests on, with the map's own exact caps), against legal games on the
default map with the shipped caps, and through the walk and the main solve against the exhaustive oracle on tiny
maps with their own caps (the cut's clause form included), and the climb Nature Reserve uses instead of the walk
(`maximise.NATURE_ASCENT`) against the oracle and with its verdicts forced open, in the library and on the wire
(the oracle cases cost about 35 s a test, so those are marked slow)."""

from __future__ import annotations

import dataclasses
import functools
import itertools

import pytest
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.cpsat import Proof
from campsolver.solver.core.geometry import neighbours
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers import exhaustive, max_models, max_nature, maximise, rules
from campsolver.solver.happy_campers.max_assignment import AssignmentProgramme
from campsolver.solver.happy_campers.max_problem import MaxProblem
from campsolver.solver.happy_campers.rules import Challenge, Components
from ortools.sat.python import cp_model

from tests.happy_campers.instances import TINY_3x4, random_rolls
from tests.happy_campers.test_max_nature import random_legal_grid
from tests.happy_campers.test_max_top_down import random_play

NR = (Challenge.NATURE_RESERVE,)


@functools.cache
def profile_caps(rows: int, cols: int) -> dict[int, int]:
    """Caps from the exact isolated-square profile alone (no absolute maximum): 2 D - n + 3 iso(D). They bound
    every map whose drawn squares each have a drawn neighbour, so every map a game draws from an empty map."""
    n = rows * cols
    return {d: 2 * d - n + 3 * iso for d, iso in max_nature.isolated_profile(rows, cols).items()}


def _non_isolated(drawn: set, rows: int, cols: int) -> tuple[int, int]:
    """(isolated empty squares, other empty squares) of a drawn/empty pattern."""
    iso = non = 0
    for cell in itertools.product(range(rows), range(cols)):
        if cell in drawn:
            continue
        if all(nb in drawn for nb in neighbours(cell, rows, cols)):
            iso += 1
        else:
            non += 1
    return iso, non


@pytest.mark.parametrize(("rows", "cols"), [(3, 4), (4, 4), (2, 6)])
def test_the_limit_holds_for_every_pattern_of_small_maps(rows: int, cols: int) -> None:
    """Every drawn/empty pattern with no lone drawn square, at its best part (every drawn square clustered,
    2 D - n + 3 isolated), and every level up to it: its non-isolated empty squares are within the limit, which
    is met with equality by some pattern at some level (the limit is not loose everywhere)."""
    n = rows * cols
    caps = profile_caps(rows, cols)
    cells = list(itertools.product(range(rows), range(cols)))
    tight = 0
    for pattern in itertools.product((0, 1), repeat=n):
        drawn = {cell for cell, v in zip(cells, pattern, strict=True) if v}
        if any(not any(nb in drawn for nb in neighbours(c, rows, cols)) for c in drawn):
            continue
        iso, non = _non_isolated(drawn, rows, cols)
        best = 2 * len(drawn) - n + 3 * iso
        for level in range(best - 6, best + 1):
            limit = max_models.nature_non_isolated_limit(caps, n, level)
            assert limit is not None and non <= limit, (sorted(drawn), level, non, limit)
        tight += non == max_models.nature_non_isolated_limit(caps, n, best)
    assert tight > 0


def test_the_limit_holds_on_legal_games_of_the_default_map() -> None:
    """Random legal games on the 5x9 map, the shipped caps: every complete map's non-isolated empty squares are
    within the limit at its own Nature Reserve part."""
    caps = max_nature.caps_for(rules.DEFAULT_COMPONENTS)
    assert caps is not None
    rng = rng_for(7, "test_max_nature_floor_cut", "default")
    checked = 0
    for _ in range(150):
        grid = random_legal_grid(rng)
        breakdown = rules.score(grid, NR)
        if not breakdown.complete:
            continue
        part = sum(breakdown.clusters.values()) + breakdown.empty_points + breakdown.challenge_points[NR[0]]
        drawn = {(r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if v}
        _, non = _non_isolated(drawn, 5, 9)
        limit = max_models.nature_non_isolated_limit(caps, 45, part)
        assert limit is not None and non <= limit, (rules.render_grid(grid), part, non, limit)
        checked += 1
    assert checked >= 50


def test_the_shipped_caps_give_no_two_empty_neighbours_near_the_top() -> None:
    """What the cut does on the 5x9 map: from level 56 up no two empty squares may touch (limit <= 1), 60 (the
    absolute maximum) leaves no non-isolated empty square, and nothing reaches 61."""
    caps = max_nature.caps_for(rules.DEFAULT_COMPONENTS)
    assert caps is not None
    limits = {level: max_models.nature_non_isolated_limit(caps, 45, level) for level in range(54, 62)}
    assert limits == {54: 2, 55: 2, 56: 1, 57: 1, 58: 1, 59: 0, 60: 0, 61: None}


def _problem(rolls, challenges=NR) -> MaxProblem:
    return MaxProblem("clairvoyant", TINY_3x4, tuple(challenges), rules.empty_grid(TINY_3x4), rolls=tuple(rolls))


@pytest.fixture
def tiny_caps(monkeypatch: pytest.MonkeyPatch) -> dict[int, int]:
    """The tiny map's own caps, in the maximiser (no table is shipped for 3x4, so the cut would not run)."""
    caps = profile_caps(TINY_3x4.rows, TINY_3x4.cols)

    def caps_for(components: Components) -> dict[int, int] | None:
        return caps if components == TINY_3x4 else max_nature.caps_for(components)

    monkeypatch.setattr(max_models, "caps_for", caps_for)
    max_models._programme_of.cache_clear()
    yield caps
    max_models._programme_of.cache_clear()


def _oracle_cases(count: int, challenges=NR):
    """Random 7-roll tiny instances with a complete map above 0 (rolls, the oracle's maximum)."""
    rng = rng_for(13, "test_max_nature_floor_cut", "tiny", *(c.value for c in challenges))
    for _ in range(80):
        rolls = random_rolls(rng, 7)
        oracle = exhaustive.clairvoyant_max(None, rolls, challenges, TINY_3x4)
        if oracle.score > 0:
            yield rolls, oracle.score
            count -= 1
            if count == 0:
                return


@pytest.mark.slow
@pytest.mark.parametrize(
    "challenges",
    [NR, (Challenge.NATURE_RESERVE, Challenge.FESTIVAL), (Challenge.NATURE_RESERVE, Challenge.QUICK_PEE)],
    ids=lambda cs: "+".join(c.value for c in cs),
)
def test_the_walk_with_the_cut_stops_at_the_oracle_maximum(tiny_caps: dict[int, int], challenges) -> None:
    """Tiny Nature Reserve instances with the map's own caps: the walk (every level cut) answers exactly the
    oracle's maximum, closed; the level above holds no map; and the level model at the maximum, cut, is
    feasible: including instances where the cut is the clause form (limit <= 1 at the maximum). With Festival or
    Quick Pee beside it the cut's level is lowered by their points (at their caps): counting them as Nature
    Reserve's would cut the maximum away."""
    clause_form = 0
    others = 5 if Challenge.FESTIVAL in challenges else TINY_3x4.rows + TINY_3x4.cols if len(challenges) > 1 else 0
    for rolls, best in _oracle_cases(4, challenges):
        problem = _problem(rolls, challenges)
        assert max_models.clairvoyant_nature_caps(problem) == tiny_caps
        walked = maximise._top_down(problem, 0, False, Budget(60.0), 1, maximise._Tally())
        assert walked is not None and walked.answer is not None, rolls
        assert (walked.answer[2], walked.bound, walked.closed) == (best, best, True), (rolls, walked.bound, best)
        above = maximise._level_model(problem, best + 1)
        assert maximise.solve(above.model, Budget(30.0), workers=1).status == cp_model.INFEASIBLE, rolls
        clause_form += max_models.nature_non_isolated_limit(tiny_caps, 12, best - others) <= 1
    assert clause_form >= 1 or len(challenges) > 1


@pytest.mark.slow
def test_the_climb_with_the_cut_proves_the_oracle_maximum(
    tiny_caps: dict[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the caps, Nature Reserve climbs (`maximise.NATURE_ASCENT`: no walk; the main model fixed and cut at the
    warm start's score, then improve-or-prove rounds fixed and cut at one point more): the oracle's maximum,
    OPTIMAL, on tiny instances with the map's own caps, from the searched warm start and from the poorest
    complete play of a few random ones (so the rounds have something to climb)."""
    monkeypatch.setattr(maximise, "NATURE_ASCENT", True)
    rng = rng_for(14, "test_max_nature_floor_cut", "climb")
    for rolls, best in _oracle_cases(3):
        problem = _problem(rolls)
        assert maximise._nature_ascends(problem)
        found = maximise.clairvoyant_max(None, rolls, NR, TINY_3x4, Budget(60.0), workers=1)
        assert (found.score, found.proof) == (best, Proof.OPTIMAL), (rolls, found.score, best)
        assert rules.score(found.grid, NR, TINY_3x4).total == best
        poor = _poorest_play(rng, problem)
        if poor is not None:
            found = maximise.clairvoyant_max(None, rolls, NR, TINY_3x4, Budget(60.0), workers=1, start_plays=poor)
            assert (found.score, found.proof) == (best, Proof.OPTIMAL), (rolls, found.score, best)


def _poorest_play(rng, problem: MaxProblem) -> list[rules.Placement | None] | None:
    """Of 100 random legal plays, the one whose complete map scores least (None: none complete)."""
    worst = None
    for _ in range(100):
        plays = random_play(rng, problem.rolls)
        answer = maximise._hint_answer(problem, plays)
        if answer is not None and (worst is None or answer[2] < worst[0]):
            worst = (answer[2], plays)
    return worst[1] if worst is not None else None


def _poor_cases(rng):
    """Oracle cases with a complete play below the maximum: (rolls, the maximum, that play's answer)."""
    for rolls, best in _oracle_cases(8):
        plays = _poorest_play(rng, _problem(rolls))
        poor = maximise._hint_answer(_problem(rolls), plays) if plays is not None else None
        yield (rolls, best, poor) if poor is not None and poor[2] < best else None


#: `maximise.solve` as imported (the open-solve patch wraps this one).
UNPATCHED_SOLVE = maximise.solve


def open_every_verdict(monkeypatch: pytest.MonkeyPatch):
    """Raise the programme's bound by 3 (still a bound, so only CP-SAT could prove the maximum) and return a solve
    that reads every CP-SAT verdict as open: OPTIMAL as FEASIBLE, INFEASIBLE as UNKNOWN, no CP-SAT bound."""
    real_bound = AssignmentProgramme.bound

    def looser(self):
        value = real_bound(self)
        return None if value is None else value + 3

    monkeypatch.setattr(AssignmentProgramme, "bound", looser)
    max_models._programme_of.cache_clear()

    def opened(model, budget, *args, **kwargs):
        result = UNPATCHED_SOLVE(model, budget, *args, **kwargs)
        if result.status == cp_model.OPTIMAL:
            return dataclasses.replace(result, status=cp_model.FEASIBLE, proof=Proof.FEASIBLE_WITH_BOUND, bound=None)
        if result.status == cp_model.INFEASIBLE:
            return dataclasses.replace(result, status=cp_model.UNKNOWN, proof=None, bound=None)
        return result

    return opened


@pytest.mark.slow
def test_an_open_climb_is_not_optimal_in_the_library_or_on_the_wire(
    tiny_caps: dict[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every CP-SAT verdict of the climb read as open (OPTIMAL as FEASIBLE, INFEASIBLE as UNKNOWN, no bound from
    CP-SAT), the programme's bound raised above the maximum: the answer is
    the rules-checked map with FEASIBLE_WITH_BOUND, in the library and on the wire (a server solving in this
    process); the same request with the verdicts as they are is OPTIMAL at the oracle's maximum."""
    monkeypatch.setattr(maximise, "NATURE_ASCENT", True)
    from campsolver.service.games import happy_campers as hc_service

    from campsolver.v1 import common_pb2
    from campsolver.v1 import happy_campers_pb2 as pb
    from tests.conftest import serving

    rng = rng_for(15, "test_max_nature_floor_cut", "open")
    rolls, best, poor = next(case for case in _poor_cases(rng) if case is not None)
    # The programme's bound is the maximum on most tiny instances, and a map meeting it is proven without CP-SAT:
    # raised by 3 (still a bound), only CP-SAT's verdicts can prove the maximum.
    opened = open_every_verdict(monkeypatch)

    request = pb.HappyCampersServiceMaxScoreRequest(
        components=pb.HappyCampersComponents(rows=TINY_3x4.rows, cols=TINY_3x4.cols),
        rolls=[pb.HappyCampersRoll(first=a, second=b) for a, b in rolls],
        challenges=[pb.CHALLENGE_NATURE_RESERVE],
        options=common_pb2.SolveOptions(time_limit_seconds=20.0),
    )
    problem = _problem(rolls)
    top = max_models.cached_programme(problem, tiny_caps).bound()
    monkeypatch.setattr(maximise, "solve", opened)
    # The rounds alone, from a poor map: they climb, but no round's verdict closes it.
    climbed = maximise._improve_or_prove(problem, poor, top, Budget(20.0), 1, maximise._Tally())
    assert not climbed.closed and poor[2] < climbed.answer[2] <= best, (poor[2], climbed.answer[2], best)
    found = maximise.clairvoyant_max(None, rolls, NR, TINY_3x4, Budget(20.0), workers=1)
    assert found.proof is Proof.FEASIBLE_WITH_BOUND and found.score is not None and found.score <= best
    with serving(workers=1, solve_in_process=True) as client:
        response = client.happy_campers.max_score(request, timeout=60)
        assert common_pb2.ProofStatus.Name(response.proof) == "PROOF_STATUS_FEASIBLE_WITH_BOUND"
        monkeypatch.setattr(maximise, "solve", UNPATCHED_SOLVE)
        closed = client.happy_campers.max_score(request, timeout=60)
    assert common_pb2.ProofStatus.Name(closed.proof) == "PROOF_STATUS_OPTIMAL" and closed.score == best
    rounds = maximise._improve_or_prove(problem, poor, top, Budget(20.0), 1, maximise._Tally())
    assert rounds.closed and rounds.answer[2] == best
    grid = hc_service.grid_from_rows(list(closed.final_map), TINY_3x4, "final_map")
    assert rules.score(grid, NR, TINY_3x4).total == best
