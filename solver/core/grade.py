"""The difficulty grades every game's puzzle generator assigns (one scale, so a puzzle book can mix games).

Each game decides *how* it grades (solver effort, greedy shortfall, near-best plays) in its own `grade_of`;
the scale itself is shared.
"""

from __future__ import annotations

import enum


class Grade(enum.Enum):
    """How hard a puzzle is, from the evidence its generator measured."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    EXPERT = "expert"
