"""What an answer is worth: one vocabulary for every solver (CP-SAT, dynamic programming, search, sampling).

Mirrored by `campsolver.v1.ProofStatus`; a claim is only ever made from the method's own verdict.
"""

from __future__ import annotations

import enum


class Proof(enum.Enum):
    OPTIMAL = "OPTIMAL"  # CP-SAT proved optimality
    EXACT = "EXACT"  # exact computation (DP / expectimax without approximation)
    FEASIBLE_WITH_BOUND = "FEASIBLE_WITH_BOUND"  # a solution and a proven bound, gap not closed
    HEURISTIC = "HEURISTIC"  # best found, no proof
    INFEASIBLE = "INFEASIBLE"  # proven to have no solution
