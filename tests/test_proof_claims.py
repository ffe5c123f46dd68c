"""Proof claims from the outside in: every MaxScore path that can say OPTIMAL or EXACT, forced into its unproven
case, must say FEASIBLE_WITH_BOUND (with a bound at least the value) or HEURISTIC on the wire.

Each test forces the case in the solver's own terms (a budget that runs out after a few looks, a search stopped at
its first solution, a beam-only answer, value iteration capped, a level proof left open), calls the service over
gRPC (a server solving in this process, so the forcing reaches the solve), and reads the verdict by its enum *name*
on the wire. Where cheap, the same request unforced is shown to be proven, so the forcing is what changed the
verdict. Every answer's play is re-checked by the rules model.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from campsolver.clients.client import CampsolverClient
from campsolver.service.games import adventure_tours as at_service
from campsolver.service.games import campsite as cs_service
from campsolver.service.games import deluxe_camping as dc_service
from campsolver.service.games import happy_campers as hc_service
from campsolver.service.games.shared import ranking_contract_violations
from campsolver.solver.adventure_tours import hint as at_hints
from campsolver.solver.adventure_tours import maximise as at_search
from campsolver.solver.adventure_tours.deck import DEFAULT_DECK
from campsolver.solver.camper_tour import solo
from campsolver.solver.campsite import best_round as cs_rounds
from campsolver.solver.campsite import evaluate as cs_evaluate
from campsolver.solver.campsite import round_search as cs_round_search
from campsolver.solver.campsite import rules as cs_rules
from campsolver.solver.core import cpsat
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.happy_campers import maximise as hc_maximise
from campsolver.solver.happy_campers import rules as hc_rules
from campsolver.solver.happy_campers.rules import Challenge
from ortools.sat.python import cp_model

from campsolver.v1 import adventure_tours_pb2 as at_pb
from campsolver.v1 import camper_tour_pb2 as ct_pb
from campsolver.v1 import campsite_pb2 as cs_pb
from campsolver.v1 import common_pb2
from campsolver.v1 import deluxe_camping_pb2 as dc_pb
from campsolver.v1 import happy_campers_pb2 as hc_pb
from tests.conftest import serving
from tests.happy_campers.test_max_levels import LEVEL_CASES, instance

UNPROVEN = {"PROOF_STATUS_FEASIBLE_WITH_BOUND", "PROOF_STATUS_HEURISTIC"}
PROVEN = {"PROOF_STATUS_OPTIMAL", "PROOF_STATUS_EXACT"}


def name(proof: int) -> str:
    return common_pb2.ProofStatus.Name(proof)


class StepBudget(Budget):
    """A budget that runs out after `steps` calls of `expired()` (and of `check()` when `checks`), whatever the
    clock says: "interrupted part-way" made deterministic on any machine. Its children (`limited`,
    `sub_budget`) are plain time budgets, cancelled with it when it runs out.
    """

    def __init__(self, time_limit_s: float = 60.0, steps: int | None = None, checks: bool = False) -> None:
        super().__init__(time_limit_s)
        self.steps_left = steps
        self.checks = checks

    def _spent(self) -> bool:
        if self.steps_left is None:
            return False
        self.steps_left -= 1
        if self.steps_left < 0:
            self.cancel()
        return self.steps_left < 0

    def expired(self) -> bool:
        return self._spent() or super().expired()

    def check(self) -> None:
        if self.checks and self._spent():
            raise SolveInterrupted("deadline")
        super().check()


def with_step_budget(real: Callable[..., Any], steps: int, budget_at: int, checks: bool = False) -> Callable[..., Any]:
    """`real` with its positional budget argument (index `budget_at`) replaced by a `StepBudget(steps)`."""

    @functools.wraps(real)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        budget = StepBudget(steps=steps, checks=checks)
        return real(*args[:budget_at], budget, *args[budget_at + 1 :], **kwargs)

    return wrapped


def first_solution_only(
    real: Callable[..., cpsat.CpSolveResult], *, unaided: bool = False
) -> Callable[..., cpsat.CpSolveResult]:
    """A CP-SAT solve stopped at its first solution: an interrupted search, status FEASIBLE unless it is closed.
    `unaided`: one search worker and no LP relaxation, so that the first solution is not also proven optimal by a tight
    bound found beside it (a small model otherwise closes at its first solution on some runs)."""

    @functools.wraps(real)
    def wrapped(model: Any, budget: Budget, *args: Any, configure: Any = None, **kwargs: Any) -> cpsat.CpSolveResult:
        def stop_at_first(solver: Any) -> None:
            if configure is not None:
                configure(solver)
            solver.parameters.stop_after_first_solution = True
            if unaided:
                solver.parameters.num_search_workers = 1
                solver.parameters.linearization_level = 0

        return real(model, budget, *args, configure=stop_at_first, **kwargs)

    return wrapped


@pytest.fixture(scope="module")
def client() -> Iterator[CampsolverClient]:
    """A loopback server that solves on threads of this process, so a test's monkeypatch reaches the solve."""
    with serving(workers=1, solve_in_process=True) as connected:
        yield connected


# --- Campsite ------------------------------------------------------------------------------------------------


def _cs_apply(turn: cs_service.Turn, play: cs_pb.CampsitePlay) -> cs_rules.Table:
    placement = cs_service.placement_from_proto(play.placement, "placement")
    tent = cs_service.tent_from_proto(play.tent, "tent")
    assert placement.card in turn.hand and tent.token in turn.tokens and tent.player == turn.player
    return turn.table.place(placement).pitch(tent)


def test_campsite_interrupted_turn_enumeration_is_heuristic_on_the_wire(
    client: CampsolverClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The service's own max-turn path: a search cut after 32 placements must not say EXACT."""
    request = cs_service.EXAMPLES["MaxScore"]()
    turn = cs_service.Turn(request.turn, "turn")
    proven = client.campsite.max_score(request, timeout=60)
    assert name(proven.proof) == "PROOF_STATUS_EXACT" and not proven.stats.interrupted
    # the turn search the service reaches through `maximise` (which calls it at call time)
    monkeypatch.setattr(cs_evaluate, "best_turn_search", with_step_budget(cs_evaluate.best_turn_search, 2, 5))
    cut = client.campsite.max_score(request, timeout=60)
    assert cut.stats.interrupted and 0 < cut.stats.states < proven.stats.states
    # Unproven: no claim at all, or the best play found with a proven bound at least its score.
    assert name(cut.proof) in ("PROOF_STATUS_HEURISTIC", "PROOF_STATUS_FEASIBLE_WITH_BOUND")
    if name(cut.proof) == "PROOF_STATUS_FEASIBLE_WITH_BOUND":
        assert cut.stats.HasField("bound") and cut.stats.bound >= proven.score >= cut.score
    assert cut.optimal_plays == 0
    assert cs_rules.player_scores(_cs_apply(turn, cut.plays[0]), turn.players)[0] == cut.score <= proven.score


def _cs_round_request(turns: int, seed: int, seconds: float = 20.0) -> cs_pb.CampsiteServiceMaxScoreRequest:
    order = list(cs_rules.default_deck())
    random.Random(seed).shuffle(order)
    return cs_pb.CampsiteServiceMaxScoreRequest(
        round=cs_pb.CampsiteRound(order=[cs_pb.CampsiteCard(text=c.text()) for c in order[:12]], turns=turns),
        options=common_pb2.SolveOptions(time_limit_seconds=seconds),
    )


def _cs_round_score(
    request: cs_pb.CampsiteServiceMaxScoreRequest, response: cs_pb.CampsiteServiceMaxScoreResponse
) -> int:
    """The answer's round replayed by the rules model from the starting cards (the table it ends on)."""
    order = [cs_rules.parse_card(c.text) for c in request.round.order]
    table = cs_rules.starting_table(order[0], order[1])
    for play in response.plays:
        placement = cs_service.placement_from_proto(play.placement, "placement")
        table = table.place(placement).pitch(cs_service.tent_from_proto(play.tent, "tent"))
    return cs_rules.player_scores(table, 1)[0]


def test_campsite_interrupted_one_turn_round_is_heuristic(
    client: CampsolverClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    request = _cs_round_request(1, seed=4)
    monkeypatch.setattr(cs_rounds, "best_turn_search", with_step_budget(cs_rounds.best_turn_search, 2, 5))
    response = client.campsite.max_score(request, timeout=60)
    assert response.stats.interrupted
    assert name(response.proof) in ("PROOF_STATUS_HEURISTIC", "PROOF_STATUS_FEASIBLE_WITH_BOUND")
    assert _cs_round_score(request, response) == response.score <= response.stats.bound


def test_campsite_interrupted_round_search_is_feasible_with_bound(
    client: CampsolverClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The branch and bound cut after a few looks: the beam's (or the search's) round with a bound, never EXACT."""
    request = _cs_round_request(3, seed=4)
    monkeypatch.setattr(cs_round_search, "search_round", with_step_budget(cs_round_search.search_round, 3, 2))
    response = client.campsite.max_score(request, timeout=60)
    assert response.stats.interrupted
    assert name(response.proof) == "PROOF_STATUS_FEASIBLE_WITH_BOUND"
    assert response.stats.bound >= response.score == _cs_round_score(request, response)


def test_campsite_beam_below_its_bound_is_feasible_with_bound(
    client: CampsolverClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A beam-only answer is EXACT only when it meets the per-token bound; below it, FEASIBLE_WITH_BOUND."""
    monkeypatch.setattr(cs_rounds, "best_round", functools.partial(cs_rounds.best_round, exact=False))
    checked = 0
    for seed in (4, 5):
        request = _cs_round_request(3, seed=seed)
        response = client.campsite.max_score(request, timeout=60)
        assert response.score == _cs_round_score(request, response) <= response.stats.bound
        if response.score < response.stats.bound:
            assert name(response.proof) == "PROOF_STATUS_FEASIBLE_WITH_BOUND", seed
            checked += 1
        else:
            assert name(response.proof) in PROVEN, seed
    assert checked, "every beam answer met its bound: the case under test never arose"


# --- Happy Campers -------------------------------------------------------------------------------------------


def _hc_request(
    rolls: list[tuple[int, int]], cards: tuple[Challenge, ...], rows: int = 0, cols: int = 0, seconds: float = 20.0
) -> hc_pb.HappyCampersServiceMaxScoreRequest:
    request = hc_pb.HappyCampersServiceMaxScoreRequest(
        rolls=[hc_pb.HappyCampersRoll(first=a, second=b) for a, b in rolls],
        challenges=[hc_service.CHALLENGE_TO_PROTO[c] for c in cards],
        options=common_pb2.SolveOptions(time_limit_seconds=seconds),
    )
    if rows:
        request.components.rows, request.components.cols = rows, cols
    return request


def _hc_check_map(
    response: hc_pb.HappyCampersServiceMaxScoreResponse, cards: tuple[Challenge, ...], components: hc_rules.Components
) -> None:
    """The rules model scores the answer's map at the answer's score."""
    grid = hc_service.grid_from_rows(list(response.final_map), components, "final_map")
    assert hc_rules.score(grid, cards, components).total == response.score


def test_happy_campers_main_solve_stopped_early_is_feasible_with_bound(
    client: CampsolverClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The main solve's claim: without the walk down from the bound, which would close this case before it (the
    # walk's own unproven case: tests/happy_campers/test_max_top_down.py).
    monkeypatch.setattr(hc_maximise, "TOP_DOWN", False)
    monkeypatch.setattr(hc_maximise, "solve", first_solution_only(hc_maximise.solve))
    request = hc_service.EXAMPLES["MaxScore"]()
    request.options.time_limit_seconds = 30  # room for the first solution on a loaded machine (it stops there)
    response = client.happy_campers.max_score(request, timeout=60)
    assert response.stats.HasField("bound") and response.stats.bound > response.score, "closed at once"
    assert name(response.proof) == "PROOF_STATUS_FEASIBLE_WITH_BOUND"
    assert response.stats.interrupted


def test_happy_campers_absolute_max_stopped_early_is_feasible_with_bound(
    client: CampsolverClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The absolute maximum (no rolls) with CP-SAT stopped at its first map: CP-SAT's FEASIBLE reaches the wire."""
    statuses: list[int] = []
    monkeypatch.setattr(hc_maximise, "solve", recording_first_solution_only(hc_maximise.solve, statuses))
    cards = (Challenge.PRIVACY, Challenge.RIVER_TOWN)
    request = _hc_request([], cards)
    request.mode = hc_pb.MAX_MODE_ABSOLUTE
    response = client.happy_campers.max_score(request, timeout=60)
    assert statuses and statuses[-1] == cp_model.FEASIBLE, statuses
    assert name(response.proof) == "PROOF_STATUS_FEASIBLE_WITH_BOUND"
    assert response.stats.bound >= response.score
    _hc_check_map(response, cards, hc_rules.DEFAULT_COMPONENTS)


def test_happy_campers_level_proof_with_a_level_open_is_not_optimal(
    client: CampsolverClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The proof by levels, its budget spent after one level: some level stays open, so no OPTIMAL."""
    monkeypatch.setattr(hc_maximise, "LEVEL_PROOF", True)
    monkeypatch.setattr(hc_maximise, "TOP_DOWN", False)  # the levels follow the main solve, not the walk
    monkeypatch.setattr(hc_maximise, "solve", first_solution_only(hc_maximise.solve))  # the main solve only
    real_levels = hc_maximise.prove_by_levels
    proofs = []

    def one_level_then_out_of_time(*args: Any, **kwargs: Any) -> Any:
        args = (*args[:5], StepBudget(steps=2), *args[6:])
        proof = real_levels(*args, **kwargs)
        proofs.append(proof)
        return proof

    monkeypatch.setattr(hc_maximise, "prove_by_levels", one_level_then_out_of_time)
    checked = 0
    for cards, seeds in LEVEL_CASES[:2]:
        for seed in seeds:
            components, rolls = instance(seed, cards)
            request = _hc_request(rolls, cards, components.rows, components.cols)
            seen = len(proofs)
            response = client.happy_campers.max_score(request, timeout=60)
            if len(proofs) == seen or proofs[-1].levels_total == 0:
                # The main solve closed it alone, or its bound (the per-roll assignment bound included) already
                # met the first map, so no level was open and CP-SAT's rest solve proved it: nothing to check.
                continue
            checked += 1
            assert not proofs[-1].closed and proofs[-1].levels_closed < proofs[-1].levels_total
            assert name(response.proof) == "PROOF_STATUS_FEASIBLE_WITH_BOUND", seed
            assert response.stats.bound >= response.score
            _hc_check_map(response, cards, components)
    assert checked, "no case reached the levels with a level open"


# --- Deluxe Camping ------------------------------------------------------------------------------------------


def never_started(real: Callable[..., cpsat.CpSolveResult]) -> Callable[..., cpsat.CpSolveResult]:
    """A CP-SAT solve whose budget is spent before it starts (status UNKNOWN, no solution, no bound)."""

    @functools.wraps(real)
    def wrapped(model: Any, budget: Budget, *args: Any, **kwargs: Any) -> cpsat.CpSolveResult:
        return real(model, StepBudget(steps=0), *args, **kwargs)

    return wrapped


def test_deluxe_camping_max_with_no_case_closed_is_feasible_with_bound(
    client: CampsolverClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every case of the split left unsolved: the answer is the first heuristic board, with the ceiling as bound."""
    request = dc_service.EXAMPLES["MaxScore"]()
    monkeypatch.setattr(cpsat, "solve", never_started(cpsat.solve))
    cut = client.deluxe_camping.max_score(request, timeout=60)
    assert cut.barriers, "no board at all: the case under test did not arise"
    assert name(cut.proof) == "PROOF_STATUS_FEASIBLE_WITH_BOUND"
    assert cut.stats.interrupted and cut.stats.bound >= cut.value
    monkeypatch.undo()
    proven = client.deluxe_camping.max_score(request, timeout=60)
    assert proven.value <= cut.stats.bound  # the bound holds against the best the unforced solve finds


def test_deluxe_camping_hint_cut_by_its_budget_is_heuristic(client: CampsolverClient) -> None:
    """An opening hint on a short budget: its lines end nowhere near the game's end, so its values are not
    exact (EXACT needs every listed move's line to reach the end of the game)."""
    request = dc_service.EXAMPLES["Hint"]()
    request.options.time_limit_seconds = 0.3
    response = client.deluxe_camping.hint(request, timeout=60)
    assert response.alternatives
    assert name(response.proof) == "PROOF_STATUS_HEURISTIC"


def recording_first_solution_only(
    real: Callable[..., cpsat.CpSolveResult], statuses: list[int], *, unaided: bool = False
) -> Callable[..., cpsat.CpSolveResult]:
    """`first_solution_only`, recording CP-SAT's own status of each solve."""
    stopped = first_solution_only(real, unaided=unaided)

    @functools.wraps(real)
    def wrapped(*args: Any, **kwargs: Any) -> cpsat.CpSolveResult:
        result = stopped(*args, **kwargs)
        statuses.append(result.status)
        return result

    return wrapped


def test_deluxe_camping_total_max_stopped_early_is_feasible_with_bound(
    client: CampsolverClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The players' total (solved case by case, warm-started from the OWN boards): every CP-SAT solve stopped at
    its first solution (status FEASIBLE) must reach the wire as FEASIBLE_WITH_BOUND, never OPTIMAL."""
    request = dc_service.EXAMPLES["MaxScore"]()
    request.objective = dc_pb.DELUXE_CAMPING_MAX_OBJECTIVE_TOTAL
    request.options.time_limit_seconds = 30  # room for the first solution on a loaded machine (it stops there)
    statuses: list[int] = []
    monkeypatch.setattr(cpsat, "solve", recording_first_solution_only(cpsat.solve, statuses))
    cut = client.deluxe_camping.max_score(request, timeout=60)
    assert statuses and statuses[-1] == cp_model.FEASIBLE, statuses
    assert name(cut.proof) == "PROOF_STATUS_FEASIBLE_WITH_BOUND"
    assert cut.stats.bound >= cut.value


def test_campsite_cp_sat_turn_stopped_early_is_feasible_with_bound(
    client: CampsolverClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    request = cs_service.EXAMPLES["MaxScore"]()
    request.method = cs_pb.CAMPSITE_MAX_METHOD_CP_SAT
    turn = cs_service.Turn(request.turn, "turn")
    statuses: list[int] = []
    # Unaided: with its LP and several workers, CP-SAT closed this small turn at its first solution on a clean
    # clone's run (status OPTIMAL, an honest claim, but not the interrupted case this test is for).
    monkeypatch.setattr(cpsat, "solve", recording_first_solution_only(cpsat.solve, statuses, unaided=True))
    cut = client.campsite.max_score(request, timeout=60)
    assert statuses and statuses[-1] == cp_model.FEASIBLE, statuses
    assert name(cut.proof) == "PROOF_STATUS_FEASIBLE_WITH_BOUND"
    assert cut.stats.bound >= cut.score
    assert cs_rules.player_scores(_cs_apply(turn, cut.plays[0]), turn.players)[0] == cut.score


# --- Adventure Tours -----------------------------------------------------------------------------------------


def test_adventure_tours_interrupted_max_is_feasible_with_bound(
    client: CampsolverClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    request = at_service.EXAMPLES["MaxScore"]()
    proven = client.adventure_tours.max_score(request, timeout=60)
    assert name(proven.proof) == "PROOF_STATUS_EXACT"
    monkeypatch.setattr(at_search, "_CHECK_EVERY", 1)
    monkeypatch.setattr(at_search, "maximise", with_step_budget(at_search.maximise, 5, 2, checks=True))
    cut = client.adventure_tours.max_score(request, timeout=60)
    assert name(cut.proof) == "PROOF_STATUS_FEASIBLE_WITH_BOUND"
    assert cut.stats.bound >= proven.value >= cut.value
    assert cut.stats.interrupted


def _at_small_pool_hint(seconds: float) -> Any:
    """The example hint with all but 6 unseen cards discarded: small enough for the exact expectimax."""
    state = at_service.example_state(hidden=True)
    placed = set(state.discard) | {c for p in state.players for f in (p.hand, p.equipment, p.members) for c in f}
    unseen = [c for c in range(len(DEFAULT_DECK)) if c not in placed]
    state.discard.extend(unseen[6:])
    return at_pb.AdventureToursServiceHintRequest(
        state=state, options=common_pb2.SolveOptions(time_limit_seconds=seconds)
    )


def test_adventure_tours_interrupted_exact_hint_is_heuristic(
    client: CampsolverClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hint's exact expectimax cut part-way: it samples instead, and says HEURISTIC. The note says which: "exact
    expectimax" only on the EXACT answer, "Monte Carlo" on the sampled one."""
    exact_note = "exact expectimax over hidden hands and draws"
    proven = client.adventure_tours.hint(_at_small_pool_hint(30.0), timeout=90)  # ends when the expectimax does
    assert name(proven.proof) == "PROOF_STATUS_EXACT" and proven.stats.method == "expectimax"
    assert exact_note in proven.note and "Monte Carlo" not in proven.note, proven.note
    # exact values carry no samples: each loss is still measured from the best exact value
    assert ranking_contract_violations([a.ranking for a in proven.alternatives]) == []
    assert proven.alternatives[0].ranking.loss == 0
    monkeypatch.setattr(at_hints, "exact_values", with_step_budget(at_hints.exact_values, 3, 3, checks=True))
    cut = client.adventure_tours.hint(_at_small_pool_hint(1.0), timeout=60)
    assert cut.stats.method != "expectimax"
    assert name(cut.proof) == "PROOF_STATUS_HEURISTIC"
    assert "Monte Carlo" in cut.note and exact_note not in cut.note, cut.note


# --- Camper Tour ---------------------------------------------------------------------------------------------

NO_PARKING_LAYOUT = [
    ct_pb.PLATE_KIND_VILLAGE_FESTIVAL
    if i == 3
    else ct_pb.PLATE_KIND_NO_PARKING
    if i in (8, 12)
    else ct_pb.PLATE_KIND_NORMAL
    for i in range(20)
]


def _ct_rules(away: bool) -> ct_pb.CamperTourRules:
    return ct_pb.CamperTourRules(
        plates=20,
        tokens=10,
        layout=NO_PARKING_LAYOUT,
        no_parking_return=ct_pb.NO_PARKING_RETURN_AWAY_FROM_HOME if away else ct_pb.NO_PARKING_RETURN_TOWARD_START,
    )


def _ct_returning(away: bool) -> ct_pb.CamperTourServiceMaxScoreRequest:
    return ct_pb.CamperTourServiceMaxScoreRequest(
        state=ct_pb.CamperTourState(
            rules=_ct_rules(away),
            placed=NO_PARKING_LAYOUT[:16],
            campers=[ct_pb.Camper(position=15, tokens=3, phase=ct_pb.CAMPER_PHASE_RETURN, marker=16)],
        ),
        options=common_pb2.SolveOptions(time_limit_seconds=30),
    )


def test_camper_tour_depth_limited_hint_is_heuristic(client: CampsolverClient) -> None:
    """An expected-score hint one ply deep on a stack without specials (so no plate approximation): its leaves
    are solo values, not the end of the game, so it is not EXACT."""
    request = ct_pb.CamperTourServiceHintRequest(
        state=ct_pb.CamperTourState(
            rules=ct_pb.CamperTourRules(unexpected_comforts=0, mechanical_problem=0, village_festival=0, no_parking=0),
            campers=[ct_pb.Camper(position=10, tokens=20), ct_pb.Camper(position=12, tokens=20)],
        ),
        depth=1,
        objective=common_pb2.OBJECTIVE_EXPECTED_SCORE,
        options=common_pb2.SolveOptions(time_limit_seconds=2.0),
    )
    response = client.camper_tour.hint(request, timeout=60)
    assert response.stats.depth == 1
    assert name(response.proof) == "PROOF_STATUS_HEURISTIC"


@pytest.mark.parametrize("case", ["outward", "return"])
def test_camper_tour_tables_that_do_not_converge_are_heuristic(
    client: CampsolverClient, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    """Value iteration capped at one sweep cannot reach its fixed point on a No Parking route: HEURISTIC."""
    request = (
        ct_pb.CamperTourServiceMaxScoreRequest(rules=_ct_rules(False)) if case == "outward" else _ct_returning(True)
    )
    assert name(client.camper_tour.max_score(request, timeout=60).proof) == "PROOF_STATUS_EXACT"
    monkeypatch.setattr(solo, "MAX_SWEEPS", 1)
    assert name(client.camper_tour.max_score(request, timeout=60).proof) == "PROOF_STATUS_HEURISTIC"


def test_camper_tour_outward_tables_with_an_unconverged_return_table_are_heuristic(
    client: CampsolverClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The outward tables converge but an away-from-home return table they read does not: still HEURISTIC."""
    request = ct_pb.CamperTourServiceMaxScoreRequest(rules=_ct_rules(True))
    assert name(client.camper_tour.max_score(request, timeout=60).proof) == "PROOF_STATUS_EXACT"

    class UnconvergedAwayRows(solo.ReturnRows):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            if self.away:
                self.converged = False

    monkeypatch.setattr(solo, "ReturnRows", UnconvergedAwayRows)
    assert name(client.camper_tour.max_score(request, timeout=60).proof) == "PROOF_STATUS_HEURISTIC"
