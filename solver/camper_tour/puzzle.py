"""Camper Tour puzzles: "which announcement?" endgames with a unique best answer, graded.

A candidate is drawn from the seed: a fixed route layout (the default special plates at random places),
our camper on the return journey with a few tokens left, and sometimes an opponent on the return journey
standing between us and the start (it blocks its plate and races us home). The candidate is kept when
the best choice beats the second best by `min_margin` expected points:

* solo positions are valued by the exact solo solver (proof EXACT);
* positions with an opponent by the hint search at a fixed depth (`OPPONENT_DEPTH` decision plies, so
  the same seed gives the same puzzle on any machine; proof HEURISTIC).

Grade = how much a simple heuristic loses against the best. The heuristic ("token budgeting"): choose
the legal announcement a whose expected cost for the rest of the way, ceil(distance / a) moves times
E[roll - a | roll > a], is closest to the tokens left (ties to the longer move). Loss below 0.05: easy;
below 0.5: medium; below 1.5: hard; otherwise expert.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from campsolver.solver.camper_tour.hint import HintOptions, HintResult, Objective, RankedMove, hint
from campsolver.solver.camper_tour.rules import (
    DEFAULT_SPECIALS,
    PLATE_COUNT,
    STARTING_PLATE,
    STARTING_TOKENS,
    Announce,
    Camper,
    Config,
    Phase,
    PlateKind,
    TourState,
    position_state,
)
from campsolver.solver.camper_tour.solo import SUCCESS_WEIGHTS
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.grade import Grade
from campsolver.solver.core.proof import Proof
from campsolver.solver.core.seeding import rng_for

#: Default uniqueness margin (expected points between the best and the second-best choice).
DEFAULT_MARGIN = 0.25
#: Fixed search depth for puzzles with an opponent (determinism).
OPPONENT_DEPTH = 2
#: Probability that a candidate has an opponent in the way.
OPPONENT_PROBABILITY = 0.3


#: Upper bounds of the heuristic's loss for each grade (expert: anything above).
GRADE_LOSS_LIMITS = ((Grade.EASY, 0.05), (Grade.MEDIUM, 0.5), (Grade.HARD, 1.5))


@dataclass(frozen=True)
class PuzzleEvidence:
    """Why the puzzle is unique and how hard it is."""

    moves: tuple[RankedMove, ...]  # every legal choice, best first, with its value and loss
    heuristic_move: Announce
    heuristic_loss: float
    proof: Proof
    depth: int  # 0: exact solo values; else the fixed search depth
    attempts: int  # candidates drawn before this one was accepted


@dataclass(frozen=True)
class Puzzle:
    seed: int
    state: TourState  # camper `state.to_move` (0) must choose
    solution: Announce
    margin: float
    grade: Grade
    evidence: PuzzleEvidence


def grade_for(loss: float) -> Grade:
    for grade, limit in GRADE_LOSS_LIMITS:
        if loss < limit:
            return grade
    return Grade.EXPERT


def expected_payment(announcement: int) -> float:
    """E[roll - a | roll > a] for announcement a."""
    return float(sum(SUCCESS_WEIGHTS[announcement - 1, c - 1] * c for c in range(1, 12)))


def budgeting_heuristic(state: TourState) -> Announce:
    """The documented simple heuristic used for grading (return journey only)."""
    camper = state.mover
    distance = camper.position - STARTING_PLATE
    options = state.legal_announcements()
    if not options:
        raise ValueError("no legal announcement")

    def mismatch(a: int) -> tuple[float, int]:
        return (abs(math.ceil(distance / a) * expected_payment(a) - camper.tokens), -a)

    return Announce(min(options, key=mismatch))


def _random_layout(rng, plate_count: int) -> tuple[PlateKind, ...]:  # type: ignore[no-untyped-def]
    kinds = [PlateKind.NORMAL] * plate_count
    specials = [kind for kind, count in DEFAULT_SPECIALS for _ in range(count)]
    places = rng.choice(range(STARTING_PLATE, plate_count), size=len(specials), replace=False)
    for place, kind in zip(places, specials, strict=True):
        kinds[int(place)] = kind  # index i is plate i + 1: never the starting plate
    return tuple(kinds)


def _candidate(seed: int, attempt: int, opponent_probability: float) -> TourState:
    rng = rng_for(seed, "camper-tour-puzzle", attempt)
    config = Config(plate_count=PLATE_COUNT, starting_tokens=STARTING_TOKENS, layout=_random_layout(rng, PLATE_COUNT))
    with_opponent = rng.random() < opponent_probability
    marker = int(rng.integers(12, 41))
    top = 12 if with_opponent else 25
    position = int(rng.integers(4, min(marker, top) + 1))
    tokens = int(rng.integers(1, 13))
    campers = [Camper(position=position, tokens=tokens, phase=Phase.RETURN, marker=marker)]
    if with_opponent:
        other_position = int(rng.integers(2, position))
        other_marker = int(rng.integers(max(other_position, marker - 6), marker + 7))
        campers.append(
            Camper(position=other_position, tokens=int(rng.integers(0, 10)), phase=Phase.RETURN, marker=other_marker)
        )
    return position_state(config, campers)


def evaluate(state: TourState, budget: Budget) -> HintResult:
    """The values a puzzle is judged by (exact solo, or the fixed-depth search with an opponent)."""
    if len(state.campers) == 1:
        return hint(state, budget)
    result = hint(state, budget, options=HintOptions(max_depth=OPPONENT_DEPTH, objective=Objective.EXPECTED_SCORE))
    if result.depth != OPPONENT_DEPTH and result.proof != Proof.EXACT:
        raise SolveInterrupted("deadline")
    return result


def generate(
    seed: int,
    budget: Budget,
    *,
    grade: Grade | None = None,
    min_margin: float = DEFAULT_MARGIN,
    opponent_probability: float = OPPONENT_PROBABILITY,
    max_attempts: int = 500,
) -> Puzzle:
    """The first candidate for `seed` with a unique best announcement (and the asked grade, if any)."""
    for attempt in range(max_attempts):
        budget.check()
        state = _candidate(seed, attempt, opponent_probability)
        if len(state.legal_actions()) < 2:
            continue
        result = evaluate(state, budget)
        moves = result.moves
        margin = moves[0].value - moves[1].value
        if margin < min_margin:
            continue
        heuristic_move = budgeting_heuristic(state)
        loss = next(m.loss for m in moves if m.action == heuristic_move)
        found = grade_for(loss)
        if grade is not None and found != grade:
            continue
        solution = moves[0].action
        assert isinstance(solution, Announce)
        evidence = PuzzleEvidence(
            moves=moves,
            heuristic_move=heuristic_move,
            heuristic_loss=loss,
            proof=result.proof,
            depth=result.depth,
            attempts=attempt + 1,
        )
        return Puzzle(seed=seed, state=state, solution=solution, margin=margin, grade=found, evidence=evidence)
    raise LookupError(f"no puzzle found in {max_attempts} candidates")
