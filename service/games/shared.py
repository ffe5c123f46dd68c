"""Mappings every game's request handler shares: proof status and puzzle grade to their proto enums."""

from __future__ import annotations

import enum
import itertools
from typing import TypeVar

from campsolver.service.errors import require
from campsolver.solver.core.proof import Proof

from campsolver.v1 import common_pb2

PROOF_TO_PROTO = {
    Proof.OPTIMAL: common_pb2.PROOF_STATUS_OPTIMAL,
    Proof.EXACT: common_pb2.PROOF_STATUS_EXACT,
    Proof.FEASIBLE_WITH_BOUND: common_pb2.PROOF_STATUS_FEASIBLE_WITH_BOUND,
    Proof.HEURISTIC: common_pb2.PROOF_STATUS_HEURISTIC,
    Proof.INFEASIBLE: common_pb2.PROOF_STATUS_INFEASIBLE,
}

#: Every game grades puzzles easy / medium / hard / expert (its own enum, same values).
GRADE_BY_NAME = {
    "easy": common_pb2.DIFFICULTY_GRADE_EASY,
    "medium": common_pb2.DIFFICULTY_GRADE_MEDIUM,
    "hard": common_pb2.DIFFICULTY_GRADE_HARD,
    "expert": common_pb2.DIFFICULTY_GRADE_EXPERT,
}

GradeT = TypeVar("GradeT", bound=enum.Enum)


def grade_to_proto(grade: enum.Enum) -> int:
    return GRADE_BY_NAME[grade.value]


def grade_from_proto(number: int, grade_type: type[GradeT], field: str = "grade") -> GradeT | None:
    """The game's grade asked for (None when unspecified); INVALID_ARGUMENT for an unknown value."""
    if number == common_pb2.DIFFICULTY_GRADE_UNSPECIFIED:
        return None
    names = {value: name for name, value in GRADE_BY_NAME.items()}
    require(number in names, field, "unknown difficulty grade")
    return grade_type(names[number])


# --- the hint contract ---------------------------------------------------------------------------------------

#: Fewest samples behind a sample mean from which a standard error is reported: below it the sample standard
#: deviation is too unstable (2-3 playouts that agree give 0) for value +- 2 SE to cover the truth 93% of the time,
#: so the answer carries `samples` and no standard error.
MIN_SAMPLES_FOR_STANDARD_ERROR = 10
#: Slack for floating-point rounding when rank order is compared with value order.
RANK_VALUE_TOLERANCE = 1e-9


def set_value(
    ranking: common_pb2.RankedAlternative,
    value: float,
    best: float,
    *,
    samples: int = 0,
    standard_error: float | None = None,
    exact: bool = True,
) -> None:
    """Fill a ranked move's value, its loss versus `best`, and its uncertainty honestly.

    `samples == 0`: a computed value, exact (standard error 0) or, with `exact=False`, a heuristic estimate that
    has no sampling error to state (standard error absent; the note says what the value is). A sample mean
    carries `sampled`, `samples`, and a standard error only from `MIN_SAMPLES_FOR_STANDARD_ERROR` samples on.
    """
    ranking.value = value
    ranking.loss = max(best - value, 0.0)
    if samples <= 0:
        if exact:
            ranking.standard_error = 0.0
        else:
            ranking.ClearField("standard_error")
        return
    ranking.sampled, ranking.samples = True, samples
    if standard_error is not None and samples >= MIN_SAMPLES_FOR_STANDARD_ERROR:
        ranking.standard_error = standard_error


def ranking_contract_violations(rankings: list[common_pb2.RankedAlternative]) -> list[str]:
    """What a hint's ranked list breaks of the contract a client relies on (empty when nothing).

    Ranks are 1..n in list order; among the moves listed with a value, rank order is value order and
    loss = best value - value; a move without a value has no loss; a standard error is never negative and never
    comes from fewer than `MIN_SAMPLES_FOR_STANDARD_ERROR` samples of a sample mean.
    """
    problems = []
    valued = [r for r in rankings if r.HasField("value")]
    best = max((r.value for r in valued), default=0.0)
    for position, ranking in enumerate(rankings, start=1):
        if ranking.rank != position:
            problems.append(f"rank {ranking.rank} listed at position {position}")
        if not ranking.HasField("value"):
            if ranking.HasField("loss"):
                problems.append(f"rank {ranking.rank}: a loss without a value")
            if not ranking.note:
                problems.append(f"rank {ranking.rank}: no value and no note saying why")
            continue
        if not ranking.HasField("loss") or abs(ranking.loss - (best - ranking.value)) > 1e-6:
            problems.append(f"rank {ranking.rank}: loss {ranking.loss} is not best {best} - value {ranking.value}")
        if ranking.HasField("standard_error"):
            if ranking.standard_error < 0:
                problems.append(f"rank {ranking.rank}: negative standard error")
            if ranking.sampled and ranking.samples < MIN_SAMPLES_FOR_STANDARD_ERROR:
                problems.append(f"rank {ranking.rank}: a standard error from {ranking.samples} samples")
    for earlier, later in itertools.pairwise(valued):
        if later.value > earlier.value + RANK_VALUE_TOLERANCE:
            problems.append(f"rank {later.rank} has value {later.value} above rank {earlier.rank}'s {earlier.value}")
    return problems
