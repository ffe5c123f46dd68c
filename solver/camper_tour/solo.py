"""Exact solo solver (the `max` command): one camper, no opponents, failed rolls free.

Semantics (also those of `rules.TourState` with a single camper): plates 1..N, start off the route at 0;
outward announcements never pass plate N; an outward camper at or below 0 tokens is eliminated (score 0);
turning back (plate 2 or later) puts the marker on the current plate; on the return tokens may go
negative; final score = marker - |tokens at arrival|. A failed roll changes nothing, so announcing `a`
is worth the expectation conditioned on the roll beating `a`.

Three regimes, always labelled honestly:

* Known layout (a fixed layout, a stack without specials, or any return journey: it only lands on
  plates already revealed): a vectorised dynamic programme over (plate, tokens) rows. The return
  journey decomposes as marker - C(plate, tokens), C the least expected |tokens at arrival|, computed
  plate by plate upward (the return only moves toward the start). Below a token floor no gain can bring
  tokens back above zero, so C is exactly linear there and the token axis stays finite. The outward
  table is swept from the far end; No Parking can send a camper back onto lower plates (cycles when a
  Festival/Comforts gain refills tokens), so sweeps repeat until the table is a bitwise fixed point of
  the Bellman equation (one sweep is already exact without No Parking plates). Status EXACT.
* Unknown plates drawn from a stack with specials, small enough: exact memoised expectimax over
  (revealed layout, plate, tokens), the return journey valued by the exact table of the revealed layout.
  Status EXACT. If a cycle through a refilling plate shows up, or it does not fit the budget, fall back:
* Otherwise HEURISTIC: a Monte Carlo estimate (with standard error) of a layout-aware policy played
  through the rules model (exact return play for the revealed layout; outward one-step look-ahead on
  the all-normal table with each plate's known kind, or the stack's odds for unrevealed plates), plus a
  sampled clairvoyant upper estimate (mean exact value when the whole layout is known in advance).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache

import numpy as np
from campsolver.solver.camper_tour.rules import (
    COMFORTS_TOKENS,
    DIE_FACES,
    FESTIVAL_MIN_GAIN,
    MAX_ANNOUNCEMENT,
    NO_PARKING_PENALTY,
    STARTING_PLATE,
    TWO_DICE,
    Action,
    Announce,
    Camper,
    ComfortsChoice,
    Config,
    NoParkingReturn,
    Pending,
    Phase,
    PlateKind,
    Stage,
    TourState,
    TurnBack,
    validate,
)
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.game import sample_outcome
from campsolver.solver.core.proof import Proof
from campsolver.solver.core.seeding import rng_for

#: Largest payment of one move (roll 12 over announcement 1).
MAX_PAYMENT = 11
#: Token cells kept below the exact floor so every shifted lookup stays inside the array.
TOKEN_PAD = MAX_PAYMENT + 1
#: Stack-aware exact search is attempted only when the unrevealed route has at most this many layouts.
EXACT_LAYOUT_LIMIT = 20_000
#: ...and at most this many memoised states.
EXACT_STATE_LIMIT = 400_000
#: Bellman sweeps allowed before a known-layout table is declared not converged.
MAX_SWEEPS = 2_000
_LOW_VALUE = -1e9  # a safe lower bound to start value iteration from (scores are within +-100)


def _success_weights() -> np.ndarray:
    """weights[a-1, c-1] = P(roll = a + c | roll > a): the payment c of a successful announcement a."""
    weights = np.zeros((MAX_ANNOUNCEMENT, MAX_PAYMENT))
    for a in range(1, MAX_ANNOUNCEMENT + 1):
        success = sum(p for total, p in TWO_DICE if total > a)
        for total, p in TWO_DICE:
            if total > a:
                weights[a - 1, total - a - 1] = float(p / success)
    return weights


SUCCESS_WEIGHTS = _success_weights()
#: The same, reversed along the payment axis to match `sliding_window_view` windows.
_REVERSED_WEIGHTS = SUCCESS_WEIGHTS[:, ::-1].copy()


@dataclass(frozen=True)
class TokenAxis:
    """The token counts a table covers: exact on [low, cap], a padding below for shifted lookups."""

    cap: int
    low: int

    @property
    def base(self) -> int:
        return self.low - TOKEN_PAD

    @property
    def width(self) -> int:
        return self.cap - self.base + 1

    def index(self, tokens: int) -> int:
        return tokens - self.base

    def tokens(self) -> np.ndarray:
        return np.arange(self.base, self.cap + 1)


def token_axis(cap: int, kinds: Sequence[PlateKind] = ()) -> TokenAxis:
    """Tokens never go below 0: a shortfall on the return moves the marker back at once and is never
    refunded, so below 0 the return cost is exactly C(p, 0) + the tokens missing (the padding cells)."""
    return TokenAxis(cap=cap, low=0)


def solo_cap(config: Config) -> int:
    """Most tokens a lone camper can hold: the whole supply (nobody else holds any), or the per-camper cap."""
    return config.token_limit


def _expected_after_move(rows: np.ndarray) -> np.ndarray:
    """rows[a-1] is the landing row after announcing a; returns E[row[t - payment] | success] per a.

    Output column j corresponds to the token index j + MAX_PAYMENT (lower cells are left to callers).
    """
    windows = np.lib.stride_tricks.sliding_window_view(rows, MAX_PAYMENT, axis=1)[:, :-1, :]
    count = rows.shape[0]
    return np.einsum("awk,ak->aw", windows, _REVERSED_WEIGHTS[:count])


def _extrapolate_below(row: np.ndarray, axis: TokenAxis) -> None:
    """Each token below the floor is one more token missing at arrival: cost grows by exactly 1."""
    low = axis.index(axis.low)
    row[:low] = row[low] + (low - np.arange(low))


def _clamped(axis: TokenAxis, shift: int) -> np.ndarray:
    """Indices of tokens + shift, clamped to the cap (gains) and to the array (losses, padding only)."""
    return np.clip(np.arange(axis.width) + shift, 0, axis.width - 1)


def _discard_indices(axis: TokenAxis) -> np.ndarray:
    """Unexpected Comforts discard: -3 but never below 0; nothing to discard at or below 0."""
    t = axis.tokens()
    after = np.where(t > 0, np.maximum(t - COMFORTS_TOKENS, 0), t)
    return after - axis.base


class ReturnRows:
    """C(p, tokens): least expected |tokens at arrival| from the start of a turn on plate p, returning.

    Row p depends only on plates 2..p-1, so rows are built lazily as far as the layout is known.
    """

    def __init__(
        self, axis: TokenAxis, kinds: Sequence[PlateKind] = (), *, away: bool = False, budget: Budget | None = None
    ) -> None:
        self.axis = axis
        self.kinds: list[PlateKind] = list(kinds)
        # No Parking read as "away from home" on the return (a named variant): the camper can be sent back up
        # to the furthest plate laid, so rows depend on higher rows: solved by value iteration below.
        self.away = away and PlateKind.NO_PARKING in self.kinds[1:]
        self.converged = True
        arrival = np.abs(axis.tokens()).astype(float)
        self.cost: list[np.ndarray] = [arrival, arrival]  # index 0 unused; plate 1 = arrival
        self.landing: dict[int, np.ndarray] = {STARTING_PLATE: arrival}
        self.up = {d: _clamped(axis, d) for d in range(1, DIE_FACES + 1)}
        self.down3 = _clamped(axis, -NO_PARKING_PENALTY)
        self.discard = _discard_indices(axis)
        if self.away:
            self._iterate(budget)

    def _iterate(self, budget: Budget | None) -> None:
        """Gauss-Seidel value iteration over every row 2..laid, from 0 (a lower bound: costs are >= 0)."""
        top = len(self.kinds)
        width = self.axis.width
        self.cost = self.cost[:2] + [np.zeros(width) for _ in range(2, top + 1)]
        self.converged = False
        for _ in range(MAX_SWEEPS):
            if budget is not None:
                budget.check()
            previous = [row.copy() for row in self.cost]
            self.landing = {STARTING_PLATE: self.cost[STARTING_PLATE]}
            for plate in range(STARTING_PLATE + 1, top + 1):
                count = min(MAX_ANNOUNCEMENT, plate - STARTING_PLATE)
                rows = np.stack(
                    [
                        self._landing(plate - a, self.cost[plate - a])
                        if plate - a > STARTING_PLATE
                        else self.cost[STARTING_PLATE]
                        for a in range(1, count + 1)
                    ]
                )
                cost = np.empty(width)
                cost[MAX_PAYMENT:] = _expected_after_move(rows).min(axis=0)
                _extrapolate_below(cost, self.axis)
                self.cost[plate] = cost
            if all(np.array_equal(a, b) for a, b in zip(previous, self.cost, strict=True)):
                self.converged = True
                break
        self.landing = {STARTING_PLATE: self.cost[STARTING_PLATE]}
        for plate in range(STARTING_PLATE + 1, top + 1):
            self.landing[plate] = self._landing(plate, self.cost[plate])

    def kind(self, plate: int) -> PlateKind:
        return PlateKind.NORMAL if plate <= STARTING_PLATE else self.kinds[plate - 1]

    def extend_kinds(self, kinds: Sequence[PlateKind]) -> None:
        """Learn more of the layout (a prefix of the route); rows already built stay valid."""
        if list(kinds[: len(self.kinds)]) != self.kinds:
            raise ValueError("layout disagrees with the rows already built")
        if self.away:
            raise ValueError("away-from-home rows depend on the furthest plate laid: build new ones")
        self.kinds = list(kinds)

    def row(self, plate: int) -> np.ndarray:
        """C(plate, .): needs the kinds of plates 2..plate-1 only."""
        while len(self.cost) <= plate:
            self._build(len(self.cost))
        return self.cost[plate]

    def landing_row(self, plate: int) -> np.ndarray:
        """Cost of stopping on `plate` (after paying), its effect applied: needs its kind too."""
        row = self.landing.get(plate)
        if row is None:
            if plate > len(self.kinds):
                raise ValueError(f"plate {plate} not laid yet")
            row = self._landing(plate, self.row(plate))
            self.landing[plate] = row
        return row

    def _build(self, plate: int) -> None:
        count = min(MAX_ANNOUNCEMENT, plate - STARTING_PLATE)
        rows = np.stack([self.landing_row(plate - a) for a in range(1, count + 1)])
        expected = _expected_after_move(rows)
        cost = np.empty(self.axis.width)
        cost[MAX_PAYMENT:] = expected.min(axis=0)
        _extrapolate_below(cost, self.axis)
        self.cost.append(cost)

    def _landing(self, plate: int, cost: np.ndarray) -> np.ndarray:
        kind = self.kind(plate)
        if kind in (PlateKind.NORMAL, PlateKind.MECHANICAL_PROBLEM):  # Mechanical Problem: normal on return
            return cost
        if kind == PlateKind.UNEXPECTED_COMFORTS:
            row = np.minimum(np.minimum(cost[self.up[COMFORTS_TOKENS]], cost[self.discard]), cost)
        elif kind == PlateKind.VILLAGE_FESTIVAL:
            row = (FESTIVAL_MIN_GAIN - 1) / DIE_FACES * cost
            for d in range(FESTIVAL_MIN_GAIN, DIE_FACES + 1):
                row = row + cost[self.up[d]] / DIE_FACES
        else:  # No Parking: back toward the start (free), or -3 when that would pass the start
            row = np.zeros(self.axis.width)
            for d in range(1, DIE_FACES + 1):
                destination = plate + d if self.away else plate - d
                if STARTING_PLATE <= destination <= (len(self.kinds) if self.away else destination):
                    row = row + self.cost[destination] / DIE_FACES
                else:
                    row = row + cost[self.down3] / DIE_FACES
        row = np.array(row, dtype=float)
        _extrapolate_below(row, self.axis)
        return row

    def announce_costs(self, plate: int, tokens: int) -> dict[int, float]:
        """Expected |tokens at arrival| after announcing each legal a from `plate` with `tokens`."""
        index = self.axis.index(tokens)
        result = {}
        for a in range(1, min(MAX_ANNOUNCEMENT, plate - STARTING_PLATE) + 1):
            landing = self.landing_row(plate - a)
            result[a] = float(
                sum(
                    SUCCESS_WEIGHTS[a - 1, c - 1] * _lookup(landing, index - c, self.axis)
                    for c in range(1, MAX_PAYMENT + 1)
                )
            )
        return result

    def cost_at(self, plate: int, tokens: int) -> float:
        return _lookup(self.row(plate), self.axis.index(tokens), self.axis)


def _lookup(row: np.ndarray, index: int, axis: TokenAxis) -> float:
    """row[index]; below the array a return-cost row is linear (1 per missing token)."""
    if index < 0:
        return float(row[0] - index)
    return float(row[min(index, axis.width - 1)])


class KnownLayoutTables:
    """Exact solo tables for a route whose every plate kind is known."""

    def __init__(
        self, kinds: Sequence[PlateKind], cap: int, budget: Budget | None = None, *, away: bool = False
    ) -> None:
        self.kinds = tuple(kinds)
        self.plates = len(self.kinds)
        self.axis = token_axis(cap, self.kinds)
        if away and PlateKind.NO_PARKING in self.kinds[1:]:
            # The furthest plate laid is the turn-back plate in a solo game: one return table per plate.
            self.backs = [
                ReturnRows(self.axis, self.kinds[:p], away=True, budget=budget) if p >= STARTING_PLATE + 1 else None
                for p in range(self.plates + 1)
            ]
        else:
            self.backs = None
        self.back = ReturnRows(self.axis, self.kinds)
        self.back.row(self.plates)
        axis = self.axis
        tokens = axis.tokens()
        self.alive = tokens >= 1
        self.turnback = np.full((self.plates + 1, axis.width), _LOW_VALUE)
        for p in range(STARTING_PLATE + 1, self.plates + 1):
            self.turnback[p] = np.where(self.alive, p - self.return_row(p, p), 0.0)
        # Turning back at the start of the Unexpected Comforts turn, then the choice on the return.
        self.comforts_turnback = np.full((self.plates + 1, axis.width), _LOW_VALUE)
        for p in range(STARTING_PLATE + 1, self.plates + 1):
            back = self.return_row(p, p)
            best = np.minimum(np.minimum(back[_clamped(axis, COMFORTS_TOKENS)], back[_discard_indices(axis)]), back)
            self.comforts_turnback[p] = p - best
        self.value = np.where(self.alive, self.turnback, 0.0)
        self.landing = np.zeros_like(self.value)
        self.up = {d: _clamped(axis, d) for d in range(1, DIE_FACES + 1)}
        self.down = {d: _clamped(axis, -d) for d in range(1, DIE_FACES + 1)}
        self.discard = _discard_indices(axis)
        has_no_parking = PlateKind.NO_PARKING in self.kinds[1:]
        self.sweeps = 0
        self.converged = False
        while self.sweeps < MAX_SWEEPS:
            if budget is not None:
                budget.check()
            previous = self.value.copy()
            self._sweep()
            self.sweeps += 1
            if not has_no_parking or np.array_equal(previous, self.value):
                self.converged = True
                break
        self.cells = self.sweeps * (self.plates + 1) * axis.width

    def kind(self, plate: int) -> PlateKind:
        return PlateKind.NORMAL if plate <= STARTING_PLATE else self.kinds[plate - 1]

    def return_rows(self, furthest: int) -> ReturnRows:
        """The return table of a camper whose furthest plate laid is `furthest` (its turn-back plate)."""
        return self.backs[furthest] if self.backs is not None else self.back

    def return_row(self, plate: int, furthest: int) -> np.ndarray:
        return self.return_rows(furthest).row(plate)

    @property
    def return_converged(self) -> bool:
        return self.backs is None or all(b is None or b.converged for b in self.backs)

    def _sweep(self) -> None:
        n = self.plates
        for p in range(n, -1, -1):
            count = min(MAX_ANNOUNCEMENT, n - p)
            row = self.turnback[p].copy()
            if count:
                expected = _expected_after_move(self.landing[p + 1 : p + count + 1])
                row[MAX_PAYMENT:] = np.maximum(row[MAX_PAYMENT:], expected.max(axis=0))
            self.value[p] = np.where(self.alive, row, 0.0)
            if p >= STARTING_PLATE:
                self.landing[p] = self._landing_row(p)

    def _landing_row(self, plate: int) -> np.ndarray:
        """Outward value of stopping on `plate` (after paying), before its effect is applied."""
        v = self.value[plate]
        kind = self.kind(plate)
        if kind == PlateKind.NORMAL:
            row = v
        elif kind == PlateKind.UNEXPECTED_COMFORTS:
            row = np.maximum(
                np.maximum(np.maximum(v[self.up[COMFORTS_TOKENS]], v[self.discard]), v), self.comforts_turnback[plate]
            )
        elif kind == PlateKind.MECHANICAL_PROBLEM:
            row = sum(v[self.down[d]] for d in range(1, DIE_FACES + 1)) / DIE_FACES
        elif kind == PlateKind.VILLAGE_FESTIVAL:
            row = (FESTIVAL_MIN_GAIN - 1) / DIE_FACES * v
            for d in range(FESTIVAL_MIN_GAIN, DIE_FACES + 1):
                row = row + v[self.up[d]] / DIE_FACES
        else:
            row = np.zeros(self.axis.width)
            for d in range(1, DIE_FACES + 1):
                destination = plate - d
                row = (
                    row
                    + (self.value[destination] if destination >= STARTING_PLATE else v[self.down[NO_PARKING_PENALTY]])
                    / DIE_FACES
                )
        return np.where(self.alive, row, 0.0)

    # --- queries -----------------------------------------------------------------------------------

    def outward_value(self, plate: int, tokens: int) -> float:
        if tokens <= 0:
            return 0.0
        return float(self.value[plate, self.axis.index(min(tokens, self.axis.cap))])

    def comforts_alternatives(self, plate: int, tokens: int) -> list[tuple[Action, float]]:
        """An outward camper's Unexpected Comforts turn: turn back first (then choose), or choose outward."""
        cap = self.axis.cap
        result: list[tuple[Action, float]] = []
        if plate > STARTING_PLATE:
            result.append((TurnBack(), float(self.comforts_turnback[plate, self.axis.index(tokens)])))
        result.extend((c, self.outward_value(plate, comforts_tokens(c, tokens, cap))) for c in ComfortsChoice)
        return result

    def outward_alternatives(self, plate: int, tokens: int) -> list[tuple[Action, float]]:
        result: list[tuple[Action, float]] = []
        index = self.axis.index(tokens)
        if plate > STARTING_PLATE:
            result.append((TurnBack(), float(self.turnback[plate, index])))
        for a in range(1, min(MAX_ANNOUNCEMENT, self.plates - plate) + 1):
            landing = self.landing[plate + a]
            value = sum(
                SUCCESS_WEIGHTS[a - 1, c - 1] * float(landing[max(index - c, 0)]) for c in range(1, MAX_PAYMENT + 1)
            )
            result.append((Announce(a), float(value)))
        return result


@lru_cache(maxsize=16)
def all_normal_tables(plate_count: int, cap: int) -> KnownLayoutTables:
    """The all-normal route's tables (cached: hint leaves and the bench reuse them)."""
    return KnownLayoutTables((PlateKind.NORMAL,) * plate_count, cap)


# --- public API -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SoloPosition:
    """A solo camper's situation. `laid` = kinds of the plates revealed so far (plate i = laid[i-1]).

    `pending` SKIP_TURN is accepted and changes nothing (a lost turn costs nothing in solo).
    """

    position: int = 0
    tokens: int = 25
    phase: Phase = Phase.OUTWARD
    marker: int = 0
    pending: Pending = Pending.NONE
    laid: tuple[PlateKind, ...] = ()

    def camper(self) -> Camper:
        return Camper(
            position=self.position, tokens=self.tokens, phase=self.phase, marker=self.marker, pending=self.pending
        )


@dataclass(frozen=True)
class SoloAlternative:
    action: Action
    value: float


@dataclass(frozen=True)
class SoloResult:
    """The `max` answer at one position.

    value: expected final score of the optimal policy (EXACT) or the Monte Carlo estimate of the
    heuristic policy (HEURISTIC, with `standard_error`; then `upper_estimate` +- `upper_standard_error`
    is the sampled clairvoyant value, an estimate of an upper bound). alternatives: every legal choice
    with its value (HEURISTIC: the policy's one-step look-ahead estimates), best first.
    """

    value: float
    alternatives: tuple[SoloAlternative, ...]
    proof: Proof
    method: str
    states_evaluated: int
    wall_time_s: float
    standard_error: float | None = None
    upper_estimate: float | None = None
    upper_standard_error: float | None = None
    samples: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def best(self) -> SoloAlternative:
        return self.alternatives[0]


def solo_state(config: Config, position: SoloPosition) -> TourState:
    """The rules-model state of a solo position (a decision node of camper 0)."""
    laid = position.laid
    reach = max(position.position, position.marker)
    if len(laid) < reach:
        raise ValueError("the plates up to the camper's position (and marker) must be laid")
    return TourState(config=config, campers=(position.camper(),), laid=tuple(laid))


def solve_solo(
    config: Config,
    position: SoloPosition,
    budget: Budget,
    *,
    seed: int = 0,
    max_samples: int = 2_000,
    clairvoyant_samples: int = 24,
) -> SoloResult:
    """Expected final score of optimal solo play from `position`, and of every alternative."""
    started = time.monotonic()
    _check_position(config, position)
    if position.phase == Phase.RETURN or _layout_known(config, position.laid):
        try:
            return _finish(_solve_known(config, position, budget), started)
        except SolveInterrupted:
            if budget.cancelled:
                raise
            return _finish(
                _look_ahead(config, position, 0, "the exact table did not finish within the time limit"), started
            )
    if _layout_count(config, position.laid) <= EXACT_LAYOUT_LIMIT:
        exact_budget = budget.sub_budget(0.5)
        try:
            return _finish(_StackExact(config, exact_budget).solve(position), started)
        except (_CycleFound, _TooLarge, SolveInterrupted) as stop:
            budget.check()  # a cancel or the caller's own deadline stops everything
            note = f"exact stack search abandoned: {stop!r}"
    else:
        note = "route too long for the exact stack search"
    result = _heuristic(config, position, budget, seed, max_samples, clairvoyant_samples)
    return _finish(result, started, extra_note=note)


def _finish(result: SoloResult, started: float, extra_note: str | None = None) -> SoloResult:
    alternatives = tuple(sorted(result.alternatives, key=lambda alt: -alt.value))
    notes = result.notes + ((extra_note,) if extra_note else ())
    return SoloResult(
        value=result.value,
        alternatives=alternatives,
        proof=result.proof,
        method=result.method,
        states_evaluated=result.states_evaluated,
        wall_time_s=time.monotonic() - started,
        standard_error=result.standard_error,
        upper_estimate=result.upper_estimate,
        upper_standard_error=result.upper_standard_error,
        samples=result.samples,
        notes=notes,
    )


def _check_position(config: Config, position: SoloPosition) -> None:
    validate(solo_state(config, position))
    if position.phase not in (Phase.OUTWARD, Phase.RETURN):
        raise ValueError("the camper must still be on the journey")


def _layout_known(config: Config, laid: Sequence[PlateKind]) -> bool:
    if config.layout is not None or len(laid) == config.plate_count:
        return True
    remaining = TourState(config=config, campers=(Camper(),), laid=tuple(laid)).remaining_stack()
    return sum(remaining[1:]) == 0


def _full_known_layout(config: Config, laid: Sequence[PlateKind]) -> tuple[PlateKind, ...]:
    if config.layout is not None:
        return config.layout
    return tuple(laid) + (PlateKind.NORMAL,) * (config.plate_count - len(laid))


def _comforts_alternatives(values: dict[ComfortsChoice, float]) -> list[SoloAlternative]:
    return [SoloAlternative(choice, value) for choice, value in values.items()]


def comforts_tokens(choice: ComfortsChoice, tokens: int, cap: int) -> int:
    """Tokens after the Unexpected Comforts choice (the rules model's reading, for table lookups)."""
    if choice == ComfortsChoice.RECOVER:
        return min(cap, tokens + COMFORTS_TOKENS)
    if choice == ComfortsChoice.DISCARD and tokens > 0:
        return max(0, tokens - COMFORTS_TOKENS)
    return tokens


def is_away(config: Config) -> bool:
    return config.no_parking_return == NoParkingReturn.AWAY_FROM_HOME


def _solve_known(config: Config, position: SoloPosition, budget: Budget) -> SoloResult:
    cap = solo_cap(config)
    if position.phase == Phase.RETURN:
        kinds = tuple(position.laid)
        axis = token_axis(cap, kinds)
        rows = ReturnRows(axis, kinds, away=is_away(config), budget=budget)
        m, p, t = position.marker, position.position, position.tokens
        if position.pending == Pending.COMFORTS_CHOICE:
            alternatives = _comforts_alternatives(
                {c: m - rows.cost_at(p, comforts_tokens(c, t, cap)) for c in ComfortsChoice}
            )
        else:
            alternatives = [SoloAlternative(Announce(a), m - cost) for a, cost in rows.announce_costs(p, t).items()]
        states = (len(rows.cost) - 1) * axis.width
        proof = Proof.EXACT if rows.converged else Proof.HEURISTIC
        return SoloResult(max(a.value for a in alternatives), tuple(alternatives), proof, "return-table", states, 0.0)
    tables = KnownLayoutTables(_full_known_layout(config, position.laid), cap, budget, away=is_away(config))
    p, t = position.position, position.tokens
    if position.pending == Pending.COMFORTS_CHOICE:
        alternatives = [SoloAlternative(a, v) for a, v in tables.comforts_alternatives(p, t)]
    else:
        alternatives = [SoloAlternative(a, v) for a, v in tables.outward_alternatives(p, t)]
    proof = Proof.EXACT if tables.converged and tables.return_converged else Proof.HEURISTIC
    notes = () if tables.converged else (f"value iteration stopped after {tables.sweeps} sweeps",)
    return SoloResult(
        max(a.value for a in alternatives),
        tuple(alternatives),
        proof,
        "known-layout-dp",
        tables.cells,
        0.0,
        notes=notes,
    )


# --- exact search over revealed layouts -------------------------------------------------------------


class _CycleFound(Exception):
    """A refilling plate plus No Parking made the outward play revisit a state: not a finite tree."""


class _TooLarge(Exception):
    pass


def _layout_count(config: Config, laid: Sequence[PlateKind]) -> int:
    """How many distinct kind sequences the unrevealed rest of the route can take."""
    remaining = list(TourState(config=config, campers=(Camper(),), laid=tuple(laid)).remaining_stack())
    length = config.plate_count - len(laid)

    @cache
    def count(left: int, counts: tuple[int, ...]) -> int:
        if left == 0:
            return 1
        total = 0
        for k, c in enumerate(counts):
            if c:
                reduced = list(counts)
                reduced[k] -= 1
                total += count(left - 1, tuple(reduced))
                if total > EXACT_LAYOUT_LIMIT:
                    return total
        return total

    return count(length, tuple(remaining))


class _StackExact:
    """Memoised expectimax over (revealed layout, plate, tokens) for the outward journey."""

    def __init__(self, config: Config, budget: Budget) -> None:
        self.config = config
        self.budget = budget
        self.plates = config.plate_count
        self.cap = solo_cap(config)
        self.away = is_away(config)
        self.stack = config.stack_counts()
        kinds = [PlateKind(k) for k, c in enumerate(self.stack) for _ in range(c)]
        self.axis = token_axis(self.cap, kinds)
        self.returns: dict[tuple[PlateKind, ...], ReturnRows] = {}
        self.memo: dict[tuple[tuple[PlateKind, ...], int, int], float] = {}
        self.open: set[tuple[tuple[PlateKind, ...], int, int]] = set()
        self.extensions: dict[tuple[tuple[PlateKind, ...], int], list[tuple[tuple[PlateKind, ...], float]]] = {}

    def return_cost(self, laid: tuple[PlateKind, ...], plate: int, tokens: int) -> float:
        """From the turn-back plate `plate` (the furthest plate laid in a solo game)."""
        prefix = laid[:plate] if self.away else laid[: plate - 1]
        rows = self.returns.get(prefix)
        if rows is None:
            rows = ReturnRows(self.axis, prefix, away=self.away, budget=self.budget)
            self.returns[prefix] = rows
        return rows.cost_at(plate, tokens)

    def comforts_turn_back(self, laid: tuple[PlateKind, ...], plate: int, tokens: int) -> float:
        return plate - min(self.return_cost(laid, plate, comforts_tokens(c, tokens, self.cap)) for c in ComfortsChoice)

    def extend(self, laid: tuple[PlateKind, ...], length: int) -> list[tuple[tuple[PlateKind, ...], float]]:
        """Every way to lay plates up to `length`, with its exact probability from the stack."""
        key = (laid, length)
        cached = self.extensions.get(key)
        if cached is not None:
            return cached
        result: list[tuple[tuple[PlateKind, ...], float]] = [(laid, 1.0)]
        for _ in range(length - len(laid)):
            grown = []
            for prefix, p in result:
                counts = list(self.stack)
                for k in prefix:
                    counts[k] -= 1
                total = sum(counts)
                grown.extend(((*prefix, PlateKind(k)), p * c / total) for k, c in enumerate(counts) if c)
            result = grown
        self.extensions[key] = result
        return result

    def kind(self, laid: tuple[PlateKind, ...], plate: int) -> PlateKind:
        return PlateKind.NORMAL if plate <= STARTING_PLATE else laid[plate - 1]

    def value(self, laid: tuple[PlateKind, ...], plate: int, tokens: int) -> float:
        """Start of an outward turn on `plate` with `tokens` (> 0), plates `laid` revealed."""
        tokens = min(tokens, self.cap)
        key = (laid, plate, tokens)
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        if key in self.open:
            raise _CycleFound(key)
        if len(self.memo) >= EXACT_STATE_LIMIT:
            raise _TooLarge(len(self.memo))
        if len(self.memo) % 256 == 0:
            self.budget.check()
        self.open.add(key)
        best = max(v for _, v in self.alternatives(laid, plate, tokens))
        self.open.discard(key)
        self.memo[key] = best
        return best

    def alternatives(self, laid: tuple[PlateKind, ...], plate: int, tokens: int) -> list[tuple[Action, float]]:
        result: list[tuple[Action, float]] = []
        if plate > STARTING_PLATE:
            result.append((TurnBack(), plate - self.return_cost(laid, plate, tokens)))
        for a in range(1, min(MAX_ANNOUNCEMENT, self.plates - plate) + 1):
            destination = plate + a
            total = 0.0
            for layout, p in self.extend(laid, max(destination, len(laid))):
                for c in range(1, MAX_PAYMENT + 1):
                    w = SUCCESS_WEIGHTS[a - 1, c - 1]
                    if w:
                        total += p * w * self.landing(layout, destination, tokens - c)
            result.append((Announce(a), total))
        return result

    def landing(self, laid: tuple[PlateKind, ...], plate: int, tokens: int) -> float:
        if tokens <= 0:
            return 0.0
        kind = self.kind(laid, plate)
        if kind == PlateKind.NORMAL:
            return self.value(laid, plate, tokens)
        if kind == PlateKind.UNEXPECTED_COMFORTS:
            return max(
                max(self.after(laid, plate, comforts_tokens(c, tokens, self.cap)) for c in ComfortsChoice),
                self.comforts_turn_back(laid, plate, tokens),
            )
        if kind == PlateKind.MECHANICAL_PROBLEM:
            return sum(self.after(laid, plate, tokens - d) for d in range(1, DIE_FACES + 1)) / DIE_FACES
        if kind == PlateKind.VILLAGE_FESTIVAL:
            return (
                sum(
                    self.after(laid, plate, min(self.cap, tokens + d))
                    if d >= FESTIVAL_MIN_GAIN
                    else self.after(laid, plate, tokens)
                    for d in range(1, DIE_FACES + 1)
                )
                / DIE_FACES
            )
        total = 0.0
        for d in range(1, DIE_FACES + 1):
            destination = plate - d
            if destination >= STARTING_PLATE:
                total += self.after(laid, destination, tokens)
            else:
                total += self.after(laid, plate, tokens - NO_PARKING_PENALTY)
        return total / DIE_FACES

    def after(self, laid: tuple[PlateKind, ...], plate: int, tokens: int) -> float:
        return self.value(laid, plate, tokens) if tokens > 0 else 0.0

    def solve(self, position: SoloPosition) -> SoloResult:
        laid, p, t = tuple(position.laid), position.position, position.tokens
        if position.pending == Pending.COMFORTS_CHOICE:
            alternatives = [SoloAlternative(TurnBack(), self.comforts_turn_back(laid, p, t))] if p > 1 else []
            alternatives += [
                SoloAlternative(c, self.after(laid, p, comforts_tokens(c, t, self.cap))) for c in ComfortsChoice
            ]
        else:
            alternatives = [SoloAlternative(a, v) for a, v in self.alternatives(laid, p, t)]
        return SoloResult(
            max(a.value for a in alternatives),
            tuple(alternatives),
            Proof.EXACT,
            "stack-expectimax",
            len(self.memo),
            0.0,
        )


# --- heuristic: layout-aware policy, Monte Carlo, clairvoyant bound ---------------------------------


class LayoutAwarePolicy:
    """A good solo policy when unrevealed plates may be special.

    Return journey: exact for the revealed layout. Outward: turn back now (exact value for the revealed
    layout) versus each announcement valued one step ahead with the all-normal outward table, applying
    the landing plate's effect if revealed, or the stack's odds of each effect if not.
    """

    def __init__(self, config: Config) -> None:
        self.config = config
        self.cap = solo_cap(config)
        self.away = is_away(config)
        kinds = [PlateKind(k) for k, c in enumerate(config.stack_counts()) for _ in range(c)]
        self.axis = token_axis(self.cap, kinds)
        self.normal = all_normal_tables(config.plate_count, self.cap)
        self._rows: ReturnRows | None = None
        self._landing_by_kind = {kind: self._proxy_landing(kind) for kind in PlateKind}

    def _proxy_landing(self, kind: PlateKind) -> np.ndarray:
        """Outward landing rows (plate x tokens) valued with the all-normal table, for one plate kind."""
        v = self.normal.value
        axis = self.normal.axis
        out = np.zeros_like(v)
        up = {d: _clamped(axis, d) for d in range(1, DIE_FACES + 1)}
        down = {d: _clamped(axis, -d) for d in range(1, DIE_FACES + 1)}
        discard = _discard_indices(axis)
        for q in range(STARTING_PLATE, self.config.plate_count + 1):
            row = v[q]
            if kind == PlateKind.UNEXPECTED_COMFORTS and q > STARTING_PLATE:
                row = np.maximum(np.maximum(row[up[COMFORTS_TOKENS]], row[discard]), row)
            elif kind == PlateKind.MECHANICAL_PROBLEM and q > STARTING_PLATE:
                row = sum(row[down[d]] for d in range(1, DIE_FACES + 1)) / DIE_FACES
            elif kind == PlateKind.VILLAGE_FESTIVAL and q > STARTING_PLATE:
                row = (FESTIVAL_MIN_GAIN - 1) / DIE_FACES * row + sum(
                    row[up[d]] for d in range(FESTIVAL_MIN_GAIN, DIE_FACES + 1)
                ) / DIE_FACES
            elif kind == PlateKind.NO_PARKING and q > STARTING_PLATE:
                row = (
                    sum(
                        v[q - d] if q - d >= STARTING_PLATE else row[down[NO_PARKING_PENALTY]]
                        for d in range(1, DIE_FACES + 1)
                    )
                    / DIE_FACES
                )
            out[q] = np.where(self.normal.alive, row, 0.0)
        return out

    def return_rows(self, laid: Sequence[PlateKind]) -> ReturnRows:
        if self.away:
            if self._rows is None or self._rows.kinds != list(laid):
                self._rows = ReturnRows(self.axis, laid, away=True)
            return self._rows
        if self._rows is None or list(laid[: len(self._rows.kinds)]) != self._rows.kinds:
            self._rows = ReturnRows(self.axis, laid)
        else:
            self._rows.extend_kinds(laid)
        return self._rows

    def alternatives(self, state: TourState) -> list[tuple[Action, float]]:
        camper = state.campers[0]
        rows = self.return_rows(state.laid)
        p, t = camper.position, camper.tokens
        if camper.phase == Phase.RETURN:
            if camper.pending == Pending.COMFORTS_CHOICE:
                return [(c, camper.marker - rows.cost_at(p, comforts_tokens(c, t, self.cap))) for c in ComfortsChoice]
            return [(Announce(a), camper.marker - cost) for a, cost in rows.announce_costs(p, t).items()]
        if camper.pending == Pending.COMFORTS_CHOICE:
            back = [(TurnBack(), p - min(rows.cost_at(p, comforts_tokens(c, t, self.cap)) for c in ComfortsChoice))]
            return back + [(c, self.normal.outward_value(p, comforts_tokens(c, t, self.cap))) for c in ComfortsChoice]
        result: list[tuple[Action, float]] = []
        if p > STARTING_PLATE:
            result.append((TurnBack(), p - rows.cost_at(p, t)))
        index = self.normal.axis.index(t)
        odds = _kind_odds(state)
        for a in state.legal_announcements():
            q = p + a
            if q <= len(state.laid):
                row = self._landing_by_kind[state.plate_kind(q)][q]
            else:
                row = sum(w * self._landing_by_kind[k][q] for k, w in odds)
            value = sum(
                SUCCESS_WEIGHTS[a - 1, c - 1] * float(row[max(index - c, 0)]) for c in range(1, MAX_PAYMENT + 1)
            )
            result.append((Announce(a), float(value)))
        return result

    def __call__(self, state: TourState) -> Action:
        return max(self.alternatives(state), key=lambda item: item[1])[0]


def _kind_odds(state: TourState) -> list[tuple[PlateKind, float]]:
    counts = state.remaining_stack()
    total = sum(counts)
    return [(PlateKind(k), c / total) for k, c in enumerate(counts) if c]


def play_solo(
    state: TourState,
    policy: Callable[[TourState], Action],
    rng: np.random.Generator,
    budget: Budget | None = None,
    max_steps: int = 100_000,
) -> float:
    """Play one solo game through the rules model; returns the final score (failed rolls just repeat)."""
    for _step in range(max_steps):
        if state.stage == Stage.OVER:
            return float(state.campers[0].score)
        if budget is not None:
            budget.check()  # every step: one policy call can take milliseconds
        state = state.child(policy(state)) if state.stage == Stage.DECIDE else state.child(sample_outcome(state, rng))
    raise RuntimeError("solo game did not end")


def _mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = float(np.mean(values))
    error = float(np.std(values, ddof=1) / math.sqrt(n)) if n > 1 else float("inf")
    return mean, error


#: Policy games the Monte Carlo estimate plays before the clairvoyant layouts get any time (fewer than this give
#: no standard error worth reporting), budget permitting.
MIN_POLICY_GAMES = 10
#: CPU seconds a clairvoyant table of the default 72-plate route takes (0.25-0.27 measured), foreseen for the
#: first one.
CLAIRVOYANT_TABLE_CPU_S = 0.3


def _heuristic(
    config: Config, position: SoloPosition, budget: Budget, seed: int, max_samples: int, clairvoyant_samples: int
) -> SoloResult:
    """The layout-aware policy's Monte Carlo value (60% of the budget, and at least MIN_POLICY_GAMES games
    while the budget lasts), then sampled clairvoyant layouts with what is left. Answers before the budget ends
    with whatever it has (best-so-far); only a cancel raises. With no game finished, the value is the policy's
    one-step look-ahead estimate, and the note says so."""
    policy = LayoutAwarePolicy(config)
    state = solo_state(config, position)
    alternatives = [SoloAlternative(a, v) for a, v in policy.alternatives(state)]
    scores: list[float] = []
    policy_budget = budget.sub_budget(0.6)
    try:
        for i in range(max_samples):
            if policy_budget.expired() and len(scores) >= MIN_POLICY_GAMES:
                break
            scores.append(play_solo(state, policy, rng_for(seed, "camper-tour-solo-mc", i), budget))
    except SolveInterrupted:
        if budget.cancelled:
            raise
    if len(scores) < 2:
        return _look_ahead(
            config, position, len(scores), "no game of the policy finished within the time limit", alternatives
        )
    upper: list[float] = []
    remaining = list(state.remaining_stack())
    pool = [PlateKind(k) for k, c in enumerate(remaining) for _ in range(c)]
    cells = 0
    costliest = CLAIRVOYANT_TABLE_CPU_S
    try:
        for i in range(clairvoyant_samples):
            # A table does tens of ms of work before its first budget check: start one only if it foreseeably
            # fits (its CPU cost over the CPU share this process gets), so the answer is not late.
            if budget.remaining() < costliest / budget.cpu_share():
                break
            began = time.process_time()
            rng = rng_for(seed, "camper-tour-solo-clairvoyant", i)
            drawn = [pool[j] for j in rng.permutation(len(pool))[: config.plate_count - len(position.laid)]]
            tables = KnownLayoutTables(
                tuple(position.laid) + tuple(drawn), solo_cap(config), budget, away=is_away(config)
            )
            cells += tables.cells
            if position.pending == Pending.COMFORTS_CHOICE:
                upper.append(max(v for _, v in tables.comforts_alternatives(position.position, position.tokens)))
            else:
                upper.append(tables.outward_value(position.position, position.tokens))
            costliest = max(costliest if i else 0.0, time.process_time() - began)
    except SolveInterrupted:
        if budget.cancelled:
            raise
    mean, error = _mean_and_error(scores)
    upper_mean, upper_error = _mean_and_error(upper) if upper else (None, None)  # one layout: still unbiased
    # No standard error from fewer than MIN_POLICY_GAMES samples: too unstable to be worth stating.
    stated = error if len(scores) >= MIN_POLICY_GAMES else None
    upper_stated = upper_error if len(upper) >= MIN_POLICY_GAMES else None
    spread = f"standard error {error:.3f}" if stated is not None else "too few games for a standard error"
    return SoloResult(
        value=mean,
        alternatives=tuple(alternatives),
        proof=Proof.HEURISTIC,
        method="monte-carlo-policy",
        states_evaluated=cells,
        wall_time_s=0.0,
        standard_error=stated,
        upper_estimate=upper_mean,
        upper_standard_error=upper_stated,
        samples=len(scores),
        notes=(
            f"value: Monte Carlo mean of the layout-aware policy over {len(scores)} games ({spread}), a lower "
            f"estimate of the best policy's value, not a proof; alternatives: that policy's one-step look-ahead "
            f"estimates (all-normal table, stack odds), a different estimate; {len(upper)} clairvoyant layouts "
            "sampled within the time limit",
        ),
    )


def _look_ahead(
    config: Config, position: SoloPosition, samples: int, why: str, alternatives: Sequence[SoloAlternative] = ()
) -> SoloResult:
    """The best-so-far answer when nothing better finished in time (`why`): the layout-aware policy's one-step
    look-ahead values (all-normal table, the laid plates' kinds, the stack's odds; `alternatives` when already
    computed), HEURISTIC, said plainly."""
    if not alternatives:
        alternatives = [
            SoloAlternative(a, v) for a, v in LayoutAwarePolicy(config).alternatives(solo_state(config, position))
        ]
    return SoloResult(
        value=max(a.value for a in alternatives),
        alternatives=tuple(alternatives),
        proof=Proof.HEURISTIC,
        method="layout-aware-look-ahead",
        states_evaluated=0,
        wall_time_s=0.0,
        samples=samples,
        notes=(
            f"value: the layout-aware policy's one-step look-ahead estimate (all-normal table, stack odds), not "
            f"a bound and without a standard error: {why}",
        ),
    )


def optimal_policy(config: Config, laid: Sequence[PlateKind] = ()) -> Callable[[TourState], Action]:
    """The exact optimal solo policy for a known layout, as a callable on rules states."""
    tables = KnownLayoutTables(_full_known_layout(config, laid), solo_cap(config), away=is_away(config))

    def choose(state: TourState) -> Action:
        camper = state.campers[state.to_move]
        p, t = camper.position, min(camper.tokens, tables.axis.cap)
        if camper.phase == Phase.RETURN:
            back = tables.return_rows(len(state.laid)) if tables.backs is not None else tables.back
            if camper.pending == Pending.COMFORTS_CHOICE:
                return min(ComfortsChoice, key=lambda c: back.cost_at(p, comforts_tokens(c, t, tables.axis.cap)))
            costs = back.announce_costs(p, t)
            return Announce(min(costs, key=lambda a: costs[a]))
        if camper.pending == Pending.COMFORTS_CHOICE:
            return max(tables.comforts_alternatives(p, t), key=lambda item: item[1])[0]
        return max(tables.outward_alternatives(p, t), key=lambda item: item[1])[0]

    return choose
