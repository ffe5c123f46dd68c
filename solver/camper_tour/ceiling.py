"""The ceiling of a two-camper head-to-head row: the best possible win share against a fixed opponent.

`ceiling(opponent, config)` is what a seat-alternating bench row can at most show beside the hint's share: the
exact win probability of the best response to `opponent` (a fixed function of the rules state, deterministic or
mixed), averaged over the two seats (the best response in seat 0 moving first, and in seat 1 moving second; a
game nobody finishes counts half, as the OpenSpiel adapter counts it). The best response knows the opponent's
policy exactly, so no player can expect more against it; the hint, which does not know it, should expect less.

Exact on a route without special plates (`duel.solve_duel`; its two stated approximations, a marker floor and
the laid count shown to the opponent, are in its docstring and in `CeilingReport.notes` when they can matter).
A route with special plates in the stack is valued with its specials left out (every plate normal): the report
says so (`exact` False), since the state of that game (which plates were laid where) is beyond an exact
table. Cost: one joint backward induction per seat (one for both with `seat_symmetric`), dominated by the
opponent's calls: one per class of joint states it cannot tell apart, most of them in the last-camper phase, where
a player that indexes a table by the score to beat is asked once per (own state, score). Measured for the three
outside players of `bench/opponents/camper_tour.py` (all-normal routes, 25 tokens, one seat-symmetric solve):
24 plates 94-216 CPU-s, 1,684-3,347 opponent states, 0.29-0.46 M calls, 350-520 MB peak; 32 plates (thumb,
sprinter) 190 and 355 CPU-s, 650 and 810 MB. CPU grows about as plates^2.5-3 and memory as plates^2.2, so the
72-plate route would take about 0.4-1.6 CPU-hours and 4-5 GB a player (extrapolated, not run).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from campsolver.solver.camper_tour.duel import MARKER_FLOOR, OpponentPolicy, solve_duel
from campsolver.solver.camper_tour.rules import Config
from campsolver.solver.core.budget import Budget


@dataclass(frozen=True)
class CeilingReport:
    """The best response's win probability against one opponent, per seat and averaged over the two seats."""

    value: float
    first: float  # the best response in seat 0, moving first
    second: float  # the best response in seat 1, the opponent moving first
    exact: bool  # False when the config's special plates were left out
    plates: int
    tokens: int
    notes: tuple[str, ...]
    opponent_states: int
    opponent_calls: int
    cpu_seconds: float


def _route(config: Config) -> tuple[Config, bool]:
    if not config.has_specials:
        return config, True
    return replace(config, specials=(), layout=None), False


def ceiling_report(
    opponent: OpponentPolicy,
    config: Config | None = None,
    *,
    budget: Budget | None = None,
    marker_floor: int = MARKER_FLOOR,
    seat_symmetric: bool = False,
) -> CeilingReport:
    """`ceiling` with its parts (see the module docstring). `seat_symmetric`: the opponent plays the same whatever
    its seat number (it reads its own camper as `state.mover`, the other as the other): then one solve gives both
    seats (the best response in seat 0 moving second is the same game), at half the cost."""
    started = time.process_time()
    route, exact = _route(config or Config())
    budget = budget or Budget(float("inf"))
    seat0 = solve_duel(opponent, route, x_seat=0, budget=budget, marker_floor=marker_floor)
    seat1 = seat0 if seat_symmetric else solve_duel(opponent, route, x_seat=1, budget=budget, marker_floor=marker_floor)
    notes = []
    if seat_symmetric:
        notes.append("the opponent taken as seat-symmetric: seat 1's game valued as seat 0's with the opponent first")
    if not exact:
        notes.append(
            "the route's special plates are left out (every plate normal): exact for that route, an "
            "approximation of the game with specials"
        )
    if seat0.read_laid or seat1.read_laid:
        notes.append(
            "the opponent read the laid plates: it was shown them up to the furthest plate a camper stands on or marks"
        )
    notes.append(f"markers below {marker_floor} count as {marker_floor}")
    return CeilingReport(
        value=(seat0.x_first + seat1.y_first) / 2,
        first=seat0.x_first,
        second=seat1.y_first,
        exact=exact,
        plates=route.plate_count,
        tokens=route.starting_tokens,
        notes=tuple(notes),
        opponent_states=seat0.opponent_states + (0 if seat_symmetric else seat1.opponent_states),
        opponent_calls=seat0.opponent_calls + (0 if seat_symmetric else seat1.opponent_calls),
        cpu_seconds=time.process_time() - started,
    )


def ceiling(opponent: OpponentPolicy, config: Config | None = None) -> float:
    """The best possible share of a seat-alternating two-camper row against `opponent` (module docstring): exact
    on a route without special plates; with specials in the stack, the same route with them left out
    (`ceiling_report(...).exact` is then False)."""
    return ceiling_report(opponent, config).value
