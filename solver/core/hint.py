"""One hint vocabulary for every game: a ranked choice and a hint result that each game extends.

Every game's `hint(state, budget, *, options)` takes that game's own state (`<Game>State` from its `rules.py`),
a budget and a frozen `HintOptions` of the game's knobs, and answers with the game's `HintResult`, a subclass of
`HintResultBase` whose `choices` are the game's subclass of `RankedChoice`, best first. A game adds its own
fields (per choice: a search depth, a value's kind, a sample count; per result: nodes, rollouts, mode) and
keeps the shared ones meaning the same thing everywhere:

- `RankedChoice.choice` is the legal move (the game's action), `value` an estimate of the stated quantity (or
  None: not valued before the budget ran out), `loss` the value's shortfall against the best choice's (>= 0;
  None where the two values are not comparable or not known), `standard_error` and `samples` where the value is
  sampled, `exact` when the value is proven, `note` a short word on what the value is.
- `HintResultBase.proof` is the claim for the whole ranking (`Proof.EXACT` only when every value is proven),
  `method` the search that made it, `wall_time_s` and `cpu_time_s` what the hint took, `interrupted` whether
  the budget cut it, `notes` what the caller should know about the answer.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from campsolver.solver.core.proof import Proof

A = TypeVar("A")
C = TypeVar("C", bound="RankedChoice")


@dataclass(kw_only=True)
class RankedChoice(Generic[A]):
    """One legal choice and what the hint knows of it (see the module docstring)."""

    choice: A
    value: float | None = None
    loss: float | None = None
    standard_error: float | None = None
    samples: int = 0
    exact: bool = False
    note: str = ""


@dataclass(kw_only=True)
class HintResultBase(Generic[C]):
    """A hint's answer: every legal choice ranked best first, and what the ranking is worth."""

    choices: list[C] | tuple[C, ...]
    proof: Proof = Proof.HEURISTIC
    method: str = ""
    wall_time_s: float = 0.0
    cpu_time_s: float = 0.0
    interrupted: bool = False
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def best(self) -> C | None:
        """The first choice (None when there is no legal choice)."""
        return self.choices[0] if self.choices else None


class HintClock:
    """Wall and process CPU time since a hint started (`HintResultBase.wall_time_s` and `cpu_time_s`; the CPU
    time is the process's, so in a server it counts other threads too)."""

    def __init__(self) -> None:
        self.wall_started = time.monotonic()
        self.cpu_started = time.process_time()

    def wall(self) -> float:
        return time.monotonic() - self.wall_started

    def cpu(self) -> float:
        return time.process_time() - self.cpu_started


def losses_from_best(choices: list[C] | tuple[C, ...], maximise: bool = True) -> None:
    """Set each valued choice's `loss` against the first valued choice (the best), in the objective's direction;
    for games whose ranked values are one comparable quantity."""
    best = next((c.value for c in choices if c.value is not None), None)
    if best is None:
        return
    for c in choices:
        if c.value is not None:
            c.loss = max((best - c.value) if maximise else (c.value - best), 0.0) + 0.0


__all__ = ["HintClock", "HintResultBase", "RankedChoice", "losses_from_best"]
