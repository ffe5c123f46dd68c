"""Mappings every game's request handler shares: proof status and puzzle grade to their proto enums."""

from __future__ import annotations

import enum
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
