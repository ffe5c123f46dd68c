"""The exact best response of one camper to a fixed opponent policy in a two-camper race (the ceiling).

`solve_duel(opponent, config)` values every state of a two-camper game on a route without special plates for
the camper we optimise ("X"), the other camper ("Y") playing `opponent`, a fixed function of the rules state
(deterministic, or a mixed distribution over its moves). Y's moves become chance nodes; X maximises the chance
to win as the rules model and the OpenSpiel adapter count it: 1 for the winner (`TourState.winner`: highest final
score, a tie to the later arrival), 1/2 each when nobody finishes. Everything else is exact: the dice, the
occupancy rule, turning back, the return with shortfalls moving the marker, the arrival rule (the game ends when
an arriving camper is furthest ahead), the last-camper rule, eliminations.

How (numpy, one value table per Y state):

* X's states are indexed once (`XSpace`): outward (plate, tokens), returning with tokens (plate, marker,
  tokens >= 1), returning without tokens (plate, marker), the marker moved back by every token missing.
* Y's states are the ones its policy reaches from the start against every X (a breadth-first enumeration).
  Y's move in a joint state (x, y) is asked of `opponent` through a traced state that records what the policy
  read of X (`_Trace`): a deterministic policy's answer holds for every X that agrees on what it read, so one
  call answers whole blocks of X states (for the rules of thumb, every X not standing on one of Y's targets).
  That is exact for any deterministic function of the state; only its cost depends on what it reads. X's numbers
  (tokens, marker, score) are handed over as symbolic affine forms (`_Sym`): arithmetic with plain numbers stays
  symbolic and only what decides something is recorded (a comparison's outcome as a linear constraint; an index,
  a float, a hash or a product of two of them as the exact value), so a policy that computes with X's tokens
  without its answer depending on them (the outside players' supply room) is asked once for every X.
* In the last-camper phase with X home, Y is asked only for X's scores within Y's reach (a higher score ended
  the game at X's arrival, or Y can no longer reach it and loses).
* Backward induction in the order of the race: Y states by Y's progress (returning from the plate nearest home,
  then outward from the furthest plate), and for each a whole table over X states by X's progress. A failed roll
  hands the turn over without moving anything; X's and Y's values of the same (x, y) then solve a two-equation
  fixed point in closed form (the best of the announcements' own fixed points).
* When one camper is home without ending the game, or eliminated, the other is the last camper: X's chances
  there are X's own exact tables (`XLastCamper`), Y's are its policy's chain played out exactly (`_YChains`).

Approximations, stated: markers below MARKER_FLOOR count as MARKER_FLOOR (a camper with that many tokens
missing on the way home; no reasonable play comes near it); the opponent is shown the plates laid up to the
furthest plate a camper stands on or marks (the rules model's laid count can be larger after a shortfall moved a
marker back, or after an elimination), which matters only to a policy that reads `laid`
(`DuelResult.read_laid` says whether it did). Special plates are not modelled: `solve_duel` refuses a route
with specials (`ceiling` values such a route with its specials left out, and says so).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np
from campsolver.solver.camper_tour.rules import (
    MAX_ANNOUNCEMENT,
    STARTING_PLATE,
    TWO_DICE,
    Action,
    Announce,
    Camper,
    ComfortsChoice,
    Config,
    Pass,
    Pending,
    Phase,
    PlateKind,
    TourState,
    TurnBack,
)
from campsolver.solver.core.budget import Budget

#: Markers below this count as this (a shortfall of this many plates on the way home: never near in play).
MARKER_FLOOR = -30
#: Largest payment of one move (a roll of 12 over an announcement of 1).
MAX_PAY = 11
#: Opponent states solved together (the tables of a batch are CHUNK x X states).
CHUNK = 32

ROLLS: tuple[tuple[int, float], ...] = tuple((total, float(p)) for total, p in TWO_DICE)
#: FAIL[a]: P(2d6 <= a), the turn passes without a move (FAIL[0] = 0).
FAIL = np.array([sum(p for r, p in ROLLS if r <= a) for a in range(MAX_ANNOUNCEMENT + 1)])
#: PAYS[a]: (payment, probability) of a successful announcement a (unconditional probabilities).
PAYS: dict[int, tuple[tuple[int, float], ...]] = {
    a: tuple((r - a, p) for r, p in ROLLS if r > a) for a in range(1, MAX_ANNOUNCEMENT + 1)
}

#: Move codes of the opponent's answers: 0 pass, 1..10 announce, TURN turn back.
PASS, TURN = 0, 11
OpponentPolicy = Callable[[TourState], Any]


def move_code(action: Action) -> int:
    if isinstance(action, Announce):
        return action.plates
    if isinstance(action, TurnBack):
        return TURN
    if isinstance(action, Pass):
        return PASS
    raise ValueError(f"{action!r} is not a move of a route without special plates")


# --- X's states --------------------------------------------------------------------------------------------


class XSpace:
    """Index of every state of the camper we optimise, by level (plate and phase), each level contiguous.

    Outward level p (0..N): tokens 1..T. Returning level p (2..N): first the states with tokens, (marker M0 in
    p..N) x (tokens 1..T) (the marker is the turn-back plate while tokens last), then the states without
    tokens, marker m in MARKER_FLOOR..N. Storage: outward levels 0..N, then returning levels 2..N.
    """

    def __init__(self, plates: int, tokens: int, marker_floor: int = MARKER_FLOOR) -> None:
        self.N, self.T, self.m_lo = plates, tokens, marker_floor
        self.nD = plates - marker_floor + 1
        offset = 0
        self.out_off: dict[int, int] = {}
        for p in range(plates + 1):
            self.out_off[p] = offset
            offset += tokens
        self.a_off: dict[int, int] = {}
        self.d_off: dict[int, int] = {}
        for p in range(STARTING_PLATE + 1, plates + 1):
            self.a_off[p] = offset
            offset += (plates - p + 1) * tokens
            self.d_off[p] = offset
            offset += self.nD
        self.size = offset
        position = np.zeros(offset, int)
        phase = np.zeros(offset, int)  # 0 outward, 1 returning
        tokens_of = np.zeros(offset, int)
        marker = np.zeros(offset, int)
        for p in range(plates + 1):
            s = self.out_range(p)
            position[s[0] : s[1]] = p
            tokens_of[s[0] : s[1]] = np.arange(1, tokens + 1)
        for p in self.a_off:
            s = self.ret_range(p)
            position[s[0] : s[1]] = p
            phase[s[0] : s[1]] = 1
            a0, d0 = self.a_off[p], self.d_off[p]
            m0, t = np.meshgrid(np.arange(p, plates + 1), np.arange(1, tokens + 1), indexing="ij")
            tokens_of[a0:d0] = t.ravel()
            marker[a0:d0] = m0.ravel()
            marker[d0 : d0 + self.nD] = np.arange(marker_floor, plates + 1)
        self.position, self.phase, self.tokens, self.marker = position, phase, tokens_of, marker
        #: What an arrival of Y must be strictly beyond to end the game: X's plate outward, its marker home-bound.
        self.reach = np.where(phase == 0, position, marker)
        #: The furthest plate X stands on or marks (the laid count shown to the opponent, with Y's).
        self.extent = np.maximum(position, np.where(phase == 1, marker, 0))
        #: Levels in the order of the backward induction: returning nearest home first, then outward furthest first.
        self.levels: list[tuple[int, int]] = [(1, p) for p in range(STARTING_PLATE + 1, plates + 1)]
        self.levels += [(0, p) for p in range(plates, -1, -1)]

    def out_range(self, p: int) -> tuple[int, int]:
        return self.out_off[p], self.out_off[p] + self.T

    def ret_range(self, p: int) -> tuple[int, int]:
        return self.a_off[p], self.d_off[p] + self.nD

    def level_range(self, level: tuple[int, int]) -> tuple[int, int]:
        phase, p = level
        return self.ret_range(p) if phase else self.out_range(p)

    def out_index(self, p: int, t: int) -> int:
        return self.out_off[p] + t - 1

    def camper(self, index: int) -> Camper:
        """The rules model's camper of state `index`."""
        p, t = int(self.position[index]), int(self.tokens[index])
        if self.phase[index] == 0:
            return Camper(position=p, tokens=t, phase=Phase.OUTWARD)
        return Camper(position=p, tokens=t, phase=Phase.RETURN, marker=int(self.marker[index]))


# --- X as the last camper (exact tables, opponent-free) ---------------------------------------------------------


class XLastCamper:
    """X's exact chances as the last camper on the journey (any failed roll eliminates it).

    `slack[p][t, d]`: returning on plate p with t tokens and a marker d plates above the score to reach, the chance
    to get home with marker - tokens left >= that score (X arrives later, so a tie wins). `outward(s)`: the same
    from X's outward states against a finished score s (turning back or going on). `nobody_home`: the other camper
    eliminated before anybody finished: X wins by arriving at all, and both share the game if X is eliminated too.
    """

    def __init__(self, space: XSpace) -> None:
        self.space = space
        N, T = space.N, space.T
        self.dmax = T + MAX_PAY * (N - 1) + 1  # any slack from here on wins by announcing 1 (never fails)
        pad = MAX_PAY + 1
        self.pad = pad
        width = self.dmax + 1 + pad
        table = np.zeros((N + 1, T + 1, width))
        d = np.arange(-pad, self.dmax + 1)
        t = np.arange(T + 1)
        table[STARTING_PLATE] = d[None, :] >= t[:, None]
        for p in range(STARTING_PLATE + 1, N + 1):
            best = np.zeros((T + 1, self.dmax + 1))
            for a in range(1, min(MAX_ANNOUNCEMENT, p - STARTING_PLATE) + 1):
                value = np.zeros((T + 1, self.dmax + 1))
                below = table[p - a]
                for c, chance in PAYS[a]:
                    rows = np.maximum(t - c, 0)
                    shift = np.maximum(c - t, 0)
                    cols = pad + np.arange(self.dmax + 1)[None, :] - shift[:, None]
                    value += chance * below[rows[:, None], cols]
                np.maximum(best, value, out=best)
            table[p, :, pad:] = best
        self.slack = table
        self._outward: dict[int, np.ndarray] = {}
        self._full: dict[int, np.ndarray] = {}
        nobody = np.ones((N + 1, T + 1))
        for p in (1, 0):
            for tokens in range(1, T + 1):
                best = 0.0
                for a in range(1, MAX_ANNOUNCEMENT + 1):
                    if p + a > N:
                        break
                    value = 0.5 * FAIL[a]
                    for c, chance in PAYS[a]:
                        left = tokens - c
                        if left <= 0:
                            value += 0.5 * chance
                        else:
                            value += chance * (1.0 if p + a > STARTING_PLATE else nobody[p + a, left])
                    best = max(best, value)
                nobody[p, tokens] = best
        full = np.ones(space.size)
        for p in (0, 1):
            lo, hi = space.out_range(p)
            full[lo:hi] = nobody[p, 1:]
        self.nobody_home = full

    def slack_value(self, p: int, tokens: np.ndarray, slack: np.ndarray) -> np.ndarray:
        d = np.clip(slack, -self.pad, self.dmax)
        return self.slack[p][tokens, d + self.pad]

    def outward(self, score: int) -> np.ndarray:
        """[p, t]: X outward on plate p with t tokens (index t, 1..T), the other camper home with `score`."""
        if score not in self._outward:
            N, T = self.space.N, self.space.T
            table = np.zeros((N + 1, T + 1))
            t = np.arange(1, T + 1)
            for p in range(N, -1, -1):
                best = np.zeros(T)
                if p > STARTING_PLATE:
                    best = self.slack_value(p, t, np.full(T, p - score))
                for a in range(1, MAX_ANNOUNCEMENT + 1):
                    if p + a > N:
                        break
                    value = np.zeros(T)
                    for c, chance in PAYS[a]:
                        left = t - c
                        value += chance * np.where(left >= 1, table[p + a, np.maximum(left, 0)], 0.0)
                    best = np.maximum(best, value)
                table[p, 1:] = best
            self._outward[score] = table
        return self._outward[score]

    def against_score(self, score: int) -> np.ndarray:
        """Over every X state: X's chance when the other camper has just arrived with `score` and X must play on as
        the last camper (0 where X's reach is below the score: the arrival then ended the game)."""
        if score not in self._full:
            space = self.space
            full = np.zeros(space.size)
            outward = self.outward(score)
            for p in range(space.N + 1):
                lo, hi = space.out_range(p)
                full[lo:hi] = outward[p, 1:]
            for p in space.a_off:
                lo, hi = space.ret_range(p)
                full[lo:hi] = self.slack_value(p, space.tokens[lo:hi], space.marker[lo:hi] - score)
            full[space.reach < score] = 0.0
            self._full[score] = full
        return self._full[score]


@cache
def _x_tables(plates: int, tokens: int, marker_floor: int) -> tuple[XSpace, XLastCamper]:
    space = XSpace(plates, tokens, marker_floor)
    return space, XLastCamper(space)


# --- tracing what the opponent reads of X ----------------------------------------------------------------------


class _Trace:
    """What the opponent's call read of X (the subject) and of the state: the answer holds wherever those agree."""

    subject: Camper | None = None
    state: TourState | None = None
    laid: tuple[PlateKind, ...] | None = None
    reads: dict[Any, Any] | None = None


_TRACE = _Trace()
_CAMPER_FIELDS = frozenset({"position", "phase", "pending", "arrival"})
#: X's numbers handed over as `_Sym`: what the opponent decides with them is recorded, not their values.
_SYMBOLIC_FIELDS = frozenset({"tokens", "marker"})


#: X's numbers the opponent gets as `_Sym`, in the order of an affine form's coefficients.
_SYM_NAMES = ("tokens", "marker", "score")
_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}


def _integral(number: Any) -> bool:
    """A plain whole number (kept symbolic: integer forms compare exactly; fractions are read exactly instead)."""
    if isinstance(number, bool | int | np.integer):
        return True
    return isinstance(number, float | np.floating) and float(number).is_integer()


class _Sym:
    """A number of X's handed to the opponent (tokens, marker, score) that records what the opponent's code decides
    with it rather than its value. It is an affine form `const + coeffs . (tokens, marker, score)`: sums, differences
    and products with plain numbers stay symbolic; a comparison taken as true or false is recorded as that linear
    constraint, anything else (a product of two of them, an index, a float, a hash, a division) records the exact
    value of the form. So an answer that never depends on X's tokens holds for every X, whatever it computed from
    them. Constraints go to the call's reads as ("sym", coeffs, op, rhs) -> outcome (deduplicated)."""

    __slots__ = ("coeffs", "const", "sink", "value")

    def __init__(self, const: Any, coeffs: tuple[Any, ...], value: Any, sink: dict[Any, Any]) -> None:
        self.const, self.coeffs, self.value, self.sink = const, coeffs, value, sink

    @staticmethod
    def leaf(name: str, value: Any, sink: dict[Any, Any]) -> _Sym:
        coeffs = tuple(1 if n == name else 0 for n in _SYM_NAMES)
        return _Sym(0, coeffs, value, sink)

    def _constrain(self, op: str, rhs: Any, outcome: bool) -> None:
        """Record `coeffs . x  op  rhs - const` == outcome."""
        self.sink[("sym", self.coeffs, op, rhs - self.const)] = outcome

    def _exact(self) -> Any:
        self._constrain("==", self.value, True)
        return self.value

    def _plain(self, other: Any) -> Any:
        """`other` as a plain number (a _Sym of another form is read exactly)."""
        return other._exact() if isinstance(other, _Sym) else other

    def _affine(self, other: Any, sign: int) -> _Sym | Any:
        if isinstance(other, _Sym):
            if other.sink is not self.sink:
                return self._exact() + sign * other._exact()
            coeffs = tuple(a + sign * b for a, b in zip(self.coeffs, other.coeffs, strict=True))
            return _Sym(self.const + sign * other.const, coeffs, self.value + sign * other.value, self.sink)
        if not _integral(other):
            return self._exact() + sign * other
        return _Sym(self.const + sign * other, self.coeffs, self.value + sign * other, self.sink)

    def _scaled(self, k: Any) -> _Sym | Any:
        if isinstance(k, _Sym) or not _integral(k):
            return self._exact() * self._plain(k)
        return _Sym(self.const * k, tuple(c * k for c in self.coeffs), self.value * k, self.sink)

    def __add__(self, other: Any) -> Any:
        return self._affine(other, 1)

    __radd__ = __add__

    def __sub__(self, other: Any) -> Any:
        return self._affine(other, -1)

    def __rsub__(self, other: Any) -> Any:
        return (-self)._affine(other, 1)

    def __mul__(self, other: Any) -> Any:
        return self._scaled(other)

    __rmul__ = __mul__

    def __neg__(self) -> _Sym:
        return _Sym(-self.const, tuple(-c for c in self.coeffs), -self.value, self.sink)

    def __pos__(self) -> _Sym:
        return self

    def __truediv__(self, other: Any) -> Any:
        return self._exact() / self._plain(other)

    def __rtruediv__(self, other: Any) -> Any:
        return other / self._exact()

    def __floordiv__(self, other: Any) -> Any:
        return self._exact() // self._plain(other)

    def __rfloordiv__(self, other: Any) -> Any:
        return other // self._exact()

    def __mod__(self, other: Any) -> Any:
        return self._exact() % self._plain(other)

    def __abs__(self) -> Any:
        return abs(self._exact())

    def _compare(self, other: Any, op: str) -> _SymBool | bool:
        if isinstance(other, _Sym):
            if other.sink is not self.sink:
                return _COMPARE[op](self._exact(), other._exact())
            return (self - other)._compare(0, op)
        if not isinstance(other, int | float | np.integer | np.floating):
            return _COMPARE[op](self._exact(), other)
        return _SymBool(self, op, other)

    def __lt__(self, other: Any) -> Any:
        return self._compare(other, "<")

    def __le__(self, other: Any) -> Any:
        return self._compare(other, "<=")

    def __gt__(self, other: Any) -> Any:
        return self._compare(other, ">")

    def __ge__(self, other: Any) -> Any:
        return self._compare(other, ">=")

    def __eq__(self, other: Any) -> Any:  # type: ignore[override]
        return self._compare(other, "==")

    def __ne__(self, other: Any) -> Any:  # type: ignore[override]
        return self._compare(other, "!=")

    def __bool__(self) -> bool:
        outcome = bool(self.value)
        self._constrain("!=", 0, outcome)
        return outcome

    # Anything else reads the value itself: recorded exactly.
    def __index__(self) -> int:
        return int(self._exact())

    def __int__(self) -> int:
        return int(self._exact())

    def __float__(self) -> float:
        return float(self._exact())

    def __hash__(self) -> int:
        return hash(self._exact())

    def __round__(self, ndigits: int | None = None) -> Any:
        return round(self._exact(), ndigits)

    def __trunc__(self) -> int:
        return math.trunc(self._exact())

    def __floor__(self) -> int:
        return math.floor(self._exact())

    def __ceil__(self) -> int:
        return math.ceil(self._exact())

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.asarray(self._exact(), dtype=dtype)

    def __format__(self, spec: str) -> str:
        return format(self._exact(), spec)

    def __repr__(self) -> str:
        return repr(self._exact())


class _SymBool:
    """A comparison of a `_Sym` with a number, recorded when its truth is taken."""

    __slots__ = ("op", "rhs", "sym")

    def __init__(self, sym: _Sym, op: str, rhs: Any) -> None:
        self.sym, self.op, self.rhs = sym, op, rhs

    def __bool__(self) -> bool:
        outcome = bool(_COMPARE[self.op](self.sym.value, self.rhs))
        self.sym._constrain(self.op, self.rhs, outcome)
        return outcome

    def __index__(self) -> int:
        return int(bool(self))

    __int__ = __index__

    def __float__(self) -> float:
        return float(bool(self))

    def __hash__(self) -> int:
        return hash(bool(self))

    def __eq__(self, other: Any) -> bool:  # type: ignore[override]
        return bool(self) == other

    def __ne__(self, other: Any) -> bool:  # type: ignore[override]
        return bool(self) != other

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.asarray(bool(self), dtype=dtype)

    def __repr__(self) -> str:
        return repr(bool(self))


def _sym_mask(coeffs: tuple[Any, ...], op: str, rhs: Any, outcome: bool, lookup: dict[str, Any]) -> Any:
    """Where X's features satisfy a recorded constraint: an array, or one bool when they are all scalars."""
    total: Any = 0
    for name, c in zip(_SYM_NAMES, coeffs, strict=True):
        if c:
            total = total + c * lookup[name]
    return _COMPARE[op](total, rhs) == outcome


class _TracedCamper(Camper):
    """X as the opponent sees it: every field read is recorded (only on the very object handed over)."""

    __slots__ = ()

    def __getattribute__(self, name: str) -> Any:
        trace = _TRACE
        reads = trace.reads
        if reads is not None and self is trace.subject:
            if name in _CAMPER_FIELDS:
                value = object.__getattribute__(self, name)
                reads[name] = value
                return value
            if name in _SYMBOLIC_FIELDS:
                reads[("field", name)] = None
                return _Sym.leaf(name, object.__getattribute__(self, name), reads)
            if name == "active":
                value = object.__getattribute__(self, "phase") in (Phase.OUTWARD, Phase.RETURN)
                reads["active"] = value
                return value
            if name == "score":
                phase = object.__getattribute__(self, "phase")
                value = (
                    object.__getattribute__(self, "marker") - object.__getattribute__(self, "tokens")
                    if phase == Phase.FINISHED
                    else 0
                )
                reads[("field", "score")] = None
                return _Sym.leaf("score", value, reads)
        return object.__getattribute__(self, name)


# `rules.replace` copies a state slot by slot from `cls.__slots__`: a lookahead in the opponent's code must work.
_TracedCamper.__slots__ = Camper.__slots__  # type: ignore[misc]


class _TracedLaid(tuple):  # type: ignore[type-arg]
    """The laid plates: reading them records how many there are."""

    def _read(self) -> None:
        if _TRACE.reads is not None and self is _TRACE.laid:
            _TRACE.reads["laid"] = tuple.__len__(self)

    def __len__(self) -> int:
        self._read()
        return tuple.__len__(self)

    def __getitem__(self, item: Any) -> Any:
        self._read()
        return tuple.__getitem__(self, item)

    def __iter__(self) -> Any:
        self._read()
        return tuple.__iter__(self)

    def __contains__(self, item: object) -> bool:
        self._read()
        return tuple.__contains__(self, item)


class _TracedTour(TourState):
    """The state handed to the opponent: the occupancy checks record only whether X blocks the plates looked at."""

    __slots__ = ()

    def legal_announcements(self) -> list[int]:
        trace = _TRACE
        reads = trace.reads
        if reads is None or self is not trace.state:
            return TourState.legal_announcements(self)
        trace.reads = None
        try:
            result = TourState.legal_announcements(self)
            mover = self.campers[self.to_move]
            subject = trace.subject
            assert subject is not None
            step = 1 if mover.phase == Phase.OUTWARD else -1
            lo, hi = sorted((mover.position + step, mover.position + step * MAX_ANNOUNCEMENT))
            blocked = (
                subject.position
                if subject.phase in (Phase.OUTWARD, Phase.RETURN)
                and lo <= subject.position <= hi
                and subject.position >= STARTING_PLATE
                else None
            )
        finally:
            trace.reads = reads
        reads[("occ", lo, hi)] = blocked
        return result

    def occupied(self, plate: int, *, besides: int) -> bool:
        trace = _TRACE
        reads = trace.reads
        if reads is None or self is not trace.state:
            return TourState.occupied(self, plate, besides=besides)
        trace.reads = None
        try:
            result = TourState.occupied(self, plate, besides=besides)
            subject = trace.subject
            index = next(i for i, c in enumerate(self.campers) if c is subject)
            here = (
                subject.phase in (Phase.OUTWARD, Phase.RETURN) and subject.position == plate and plate >= STARTING_PLATE
            )
        finally:
            trace.reads = reads
        if index != besides:
            reads[("at", plate)] = here
        return result


_TracedTour.__slots__ = TourState.__slots__  # type: ignore[misc]


# --- the opponent's answers, by classes of X states ---------------------------------------------------------------

#: Y's state: (phase 0 outward / 1 returning, plate, tokens, marker).
YKey = tuple[int, int, int, int]
Distribution = tuple[tuple[int, float], ...]


def y_camper(key: YKey) -> Camper:
    phase, p, t, m = key
    if phase == 0:
        return Camper(position=p, tokens=t, phase=Phase.OUTWARD)
    return Camper(position=p, tokens=t, phase=Phase.RETURN, marker=m)


def y_extent(key: YKey) -> int:
    return max(key[1], key[3] if key[0] == 1 else 0)


@dataclass
class _Entry:
    reads: dict[Any, Any]
    dist: int


@dataclass
class _Features:
    """X states (or finished-X variants) as the matcher sees them: scalars shared by all, arrays per state."""

    scalars: dict[str, Any]
    arrays: dict[str, np.ndarray]
    size: int


class _Opponent:
    """The opponent's answers (distributions over move codes), asked through traced states and reused for every X
    that agrees with what a call read (`_Trace`)."""

    def __init__(self, policy: OpponentPolicy, config: Config, x_seat: int, budget: Budget) -> None:
        self.policy, self.config, self.x_seat, self.budget = policy, config, x_seat, budget
        self.y_seat = 1 - x_seat
        self.dists: list[Distribution] = []
        self._dist_index: dict[Distribution, int] = {}
        self.entries: dict[Any, tuple[dict[int, list[_Entry]], list[_Entry]]] = {}
        self.calls = 0
        self.read_laid = False
        self.read_x = set()  # which of X's fields any call read

    def _dist_id(self, dist: Distribution) -> int:
        if dist not in self._dist_index:
            self._dist_index[dist] = len(self.dists)
            self.dists.append(dist)
        return self._dist_index[dist]

    def ask(self, x: Camper, y: Camper, laid: int) -> _Entry:
        """Call the policy once, X traced; the answer with what it read."""
        self.budget.check()  # every call: a traced call of a player that plans ahead can take seconds
        self.calls += 1
        subject = _TracedCamper(
            position=x.position, tokens=x.tokens, phase=x.phase, marker=x.marker, pending=x.pending, arrival=x.arrival
        )
        campers = (subject, y) if self.x_seat == 0 else (y, subject)
        plates = _TracedLaid((PlateKind.NORMAL,) * laid)
        state = _TracedTour(config=self.config, campers=campers, to_move=self.y_seat, laid=plates)
        trace = _TRACE
        trace.subject, trace.state, trace.laid, trace.reads = subject, state, plates, {}
        try:
            answer = self.policy(state)
            reads = trace.reads
        finally:
            trace.subject = trace.state = trace.laid = trace.reads = None
        assert reads is not None
        plain = TourState(
            config=self.config,
            campers=(x, y) if self.x_seat == 0 else (y, x),
            to_move=self.y_seat,
            laid=(PlateKind.NORMAL,) * laid,
        )
        legal = plain.legal_actions()
        dist = _distribution(answer)
        for action, _ in dist:
            if action not in legal:
                raise ValueError(f"the opponent played {action!r}, not a legal move in {plain}")
        if "laid" in reads:
            self.read_laid = True
        self.read_x.update(k for k in reads if isinstance(k, str))
        self.read_x.update(k[1] for k in reads if isinstance(k, tuple) and k[0] == "field")
        codes: dict[int, float] = {}
        for action, p in dist:
            codes[move_code(action)] = codes.get(move_code(action), 0.0) + p
        return _Entry(reads, self._dist_id(tuple(sorted(codes.items()))))

    def classify(
        self,
        context: Any,
        y: Camper,
        y_laid: int,
        features: _Features,
        make_x: Callable[[int], Camper],
        x_extent: np.ndarray,
    ) -> np.ndarray:
        """The opponent's distribution id for each X state of `features` (asking it as few times as needed).

        Every X of `features` stands on one plate (`scalars["position"]`): entries are indexed by the plate they
        pin X to, so a lookup reads only the entries that can apply there."""
        pinned, general = self.entries.setdefault(context, ({}, []))
        position = features.scalars["position"]
        result = np.full(features.size, -1)
        for entry in pinned.get(position, ()):
            _apply(entry, features, x_extent, y_laid, result)
        for entry in general:
            _apply(entry, features, x_extent, y_laid, result)
        while True:
            missing = np.flatnonzero(result < 0)
            if missing.size == 0:
                return result
            i = int(missing[0])
            x = make_x(i)
            entry = self.ask(x, y, max(y_laid, int(x_extent[i])))
            pin = _pinned_plate(entry.reads)
            if pin is None:
                general.append(entry)
            else:
                pinned.setdefault(pin, []).append(entry)
            _apply(entry, features, x_extent, y_laid, result)
            if result[i] < 0:  # pragma: no cover - the asked state always matches its own reads
                raise AssertionError(f"an opponent call's reads do not match its own state: {entry.reads}")


def _pinned_plate(reads: dict[Any, Any]) -> int | None:
    """The plate an entry's reads pin X to, if any (its position read, or X blocking a plate looked at)."""
    if "position" in reads:
        return int(reads["position"])
    for key, value in reads.items():
        if isinstance(key, tuple) and key[0] == "occ" and value is not None:
            return int(value)
        if isinstance(key, tuple) and key[0] == "at" and value:
            return int(key[1])
    return None


def _apply(entry: _Entry, features: _Features, x_extent: np.ndarray, y_laid: int, result: np.ndarray) -> None:
    """Give the entry's answer to every X of `features` not yet answered that agrees with everything it read."""
    mask: Any = True
    scalars, arrays = features.scalars, features.arrays
    position, active = scalars["position"], scalars["active"]
    lookup: dict[str, Any] | None = None
    for key, value in entry.reads.items():
        if isinstance(key, tuple):
            if key[0] == "sym":
                if lookup is None:
                    lookup = {**scalars, **arrays}
                agrees = _sym_mask(key[1], key[2], key[3], value, lookup)
                if isinstance(agrees, np.ndarray):
                    mask = mask & agrees
                elif not agrees:
                    return
            elif key[0] == "field":
                continue
            elif key[0] == "occ":
                inside = active and key[1] <= position <= key[2] and position >= STARTING_PLATE
                if (position if inside else None) != value:
                    return
            elif (active and position == key[1] and key[1] >= STARTING_PLATE) != value:
                return
        elif key == "laid":
            mask = mask & (np.maximum(x_extent, y_laid) == value)
        elif key in scalars:
            if scalars[key] != value:
                return
        else:
            mask = mask & (arrays[key] == value)
    if mask is True:
        result[result < 0] = entry.dist
    else:
        result[(result < 0) & mask] = entry.dist


def _distribution(answer: Any) -> tuple[tuple[Action, float], ...]:
    """A move, or (move, probability) pairs summing to 1."""
    if isinstance(answer, Announce | TurnBack | Pass | ComfortsChoice):
        return ((answer, 1.0),)
    pairs = tuple((action, float(p)) for action, p in answer if p > 0)
    if not pairs or abs(sum(p for _, p in pairs) - 1.0) > 1e-9:
        raise ValueError(f"an opponent's mixed answer must be (move, probability) pairs summing to 1, not {answer!r}")
    return pairs


# --- Y's moves ----------------------------------------------------------------------------------------------------


def y_outcomes(key: YKey, code: int, plates: int, floor: int) -> list[tuple[float, str, Any]]:
    """Y's move `code` from `key`: (probability, what, detail) with what one of 'stay' (a failed roll or a pass),
    'move' (detail: the new key), 'elim' (ran out of tokens outward), 'arrive' (detail: (marker, tokens) at home),
    'turn' (detail: the key after turning back; the same turn goes on)."""
    phase, p, t, m = key
    if code == TURN:
        return [(1.0, "turn", (1, p, t, p))]
    if code == PASS:
        return [(1.0, "stay", None)]
    result: list[tuple[float, str, Any]] = [(float(FAIL[code]), "stay", None)]
    for c, chance in PAYS[code]:
        if phase == 0:
            result.append((chance, "elim", None) if t - c <= 0 else (chance, "move", (0, p + code, t - c, 0)))
            continue
        left = max(t - c, 0)
        marker = max(m - max(c - t, 0), floor)
        target = p - code
        if target == STARTING_PLATE:
            result.append((chance, "arrive", (marker, left)))
        else:
            result.append((chance, "move", (1, target, left, marker)))
    return result


# --- the duel ------------------------------------------------------------------------------------------------


@dataclass
class DuelResult:
    """The exact chance that X wins with best play against the opponent, X to move first and second."""

    x_first: float
    y_first: float
    x_seat: int
    opponent_states: int
    opponent_calls: int
    read_laid: bool
    read_x: frozenset[str] = field(default_factory=frozenset)


class _Duel:
    def __init__(
        self, opponent: OpponentPolicy, config: Config, x_seat: int, budget: Budget, marker_floor: int
    ) -> None:
        if config.has_specials:
            raise ValueError("the exact duel covers routes without special plates")
        self.config = config
        self.N, self.T = config.plate_count, config.starting_tokens
        self.space, self.last = _x_tables(self.N, self.T, marker_floor)
        self.floor = marker_floor
        self.budget = budget
        self.opp = _Opponent(opponent, config, x_seat, budget)
        self.x_seat = x_seat
        space = self.space
        self.level_features: dict[tuple[int, int], _Features] = {}
        for level in space.levels:
            lo, hi = space.level_range(level)
            phase, p = level
            self.level_features[level] = _Features(
                scalars={
                    "position": p,
                    "phase": Phase.RETURN if phase else Phase.OUTWARD,
                    "active": True,
                    "pending": Pending.NONE,
                    "arrival": 0,
                    "score": 0,
                },
                arrays={"tokens": space.tokens[lo:hi], "marker": space.marker[lo:hi]},
                size=hi - lo,
            )
        # finished X variants (X home, the game going on): marker and tokens left
        variants = [(m, 0) for m in range(marker_floor, self.N + 1)]
        variants += [(m, t) for m in range(STARTING_PLATE + 1, self.N + 1) for t in range(1, self.T + 1)]
        self.finished = variants
        self.f_index = {v: i for i, v in enumerate(variants)}
        self.f_marker = np.array([m for m, _ in variants])
        self.f_tokens = np.array([t for _, t in variants])
        self.f_score = self.f_marker - self.f_tokens
        self.f_features = _Features(
            scalars={"position": 0, "phase": Phase.FINISHED, "active": False, "pending": Pending.NONE, "arrival": 1},
            arrays={"tokens": self.f_tokens, "marker": self.f_marker, "score": self.f_score},
            size=len(variants),
        )
        self.win_if_y_home: dict[YKey, np.ndarray] = {}
        self.y_eliminated_alone: dict[YKey, float] = {}
        self.actions: dict[YKey, list[tuple[int, int, int]]] = {}  # y -> [(lo, hi, dist id)] over X storage
        self.record_policy = False
        self.policy: dict[YKey, np.ndarray] = {}  # y -> X's best move code in every X state (record_policy)

    # Y as the last camper ------------------------------------------------------------------------------------

    def _y_home_chances(self, key: YKey) -> np.ndarray:
        """Over the finished-X variants: the chance that Y, last camper on the journey, wins (home with a score at
        least X's, never failing a roll)."""
        if key in self.win_if_y_home:
            return self.win_if_y_home[key]
        y = y_camper(key)
        # Only X's scores within Y's reach: a higher score ended the game at X's arrival (Y outward behind it, or
        # returning with a lower marker), and from a returning Y whose marker fell below X's score Y cannot win (its
        # score is at most its marker): those stay 0 and the opponent is not asked there.
        reach = key[1] if key[0] == 0 else key[3]
        needed = np.flatnonzero(self.f_score <= reach)
        value = np.zeros(self.f_features.size)
        if needed.size == 0:
            self.win_if_y_home[key] = value
            return value
        features = _Features(
            scalars=self.f_features.scalars,
            arrays={name: array[needed] for name, array in self.f_features.arrays.items()},
            size=needed.size,
        )

        def make_x(i: int) -> Camper:
            marker, tokens = self.finished[int(needed[i])]
            return Camper(position=0, tokens=tokens, phase=Phase.FINISHED, marker=marker, arrival=1)

        extent = np.maximum(self.f_marker, 0)[needed]
        dists = self.opp.classify(("home", key), y, y_extent(key), features, make_x, extent)
        score = self.f_score[needed]
        for dist_id in np.unique(dists):
            mask = dists == dist_id
            part = np.zeros(needed.size)
            for code, weight in self.opp.dists[dist_id]:
                for chance, what, detail in y_outcomes(key, code, self.N, self.floor):
                    if what == "move" or what == "turn":
                        part += weight * chance * self._y_home_chances(detail)[needed]
                    elif what == "arrive":
                        marker, tokens = detail
                        part += weight * chance * (marker - tokens >= score)
                    # 'stay' (a failed roll eliminates the last camper; a pass is counted lost), 'elim': 0
            value[needed[mask]] = part[mask]
        self.win_if_y_home[key] = value
        return value

    def _y_eliminated(self, key: YKey) -> float:
        """X eliminated, nobody home: the chance that Y is eliminated too (then the two share the game)."""
        if key in self.y_eliminated_alone:
            return self.y_eliminated_alone[key]
        x = Camper(position=0, tokens=0, phase=Phase.ELIMINATED)
        features = _Features(
            scalars={
                "position": 0,
                "phase": Phase.ELIMINATED,
                "active": False,
                "pending": Pending.NONE,
                "arrival": 0,
                "score": 0,
                "tokens": 0,
                "marker": 0,
            },
            arrays={},
            size=1,
        )
        dist_id = int(
            self.opp.classify(("alone", key), y_camper(key), y_extent(key), features, lambda i: x, np.zeros(1, int))[0]
        )
        value = 0.0
        for code, weight in self.opp.dists[dist_id]:
            for chance, what, detail in y_outcomes(key, code, self.N, self.floor):
                if what in ("stay", "elim"):
                    value += weight * chance
                elif what in ("move", "turn"):
                    value += weight * chance * self._y_eliminated(detail)
        self.y_eliminated_alone[key] = value
        return value

    # Y's answers against every X ------------------------------------------------------------------------------

    def _classify_y(self, key: YKey) -> list[tuple[int, int, int]]:
        """Y's distribution over X storage, as runs (lo, hi, dist id)."""
        space = self.space
        y = y_camper(key)
        y_laid = y_extent(key)
        runs: list[tuple[int, int, int]] = []
        for level in space.levels:
            lo, hi = space.level_range(level)
            features = self.level_features[level]
            p = level[1]

            def make_x(i: int, lo: int = lo) -> Camper:
                return space.camper(lo + i)

            if y.position >= STARTING_PLATE and p == y.position:
                continue  # X cannot stand on Y's plate: no such joint state
            dists = self.opp.classify(("duel", key), y, y_laid, features, make_x, space.extent[lo:hi])
            if (dists == dists[0]).all():
                runs.append((lo, hi, int(dists[0])))
            else:
                change = np.flatnonzero(np.diff(dists)) + 1
                starts = np.concatenate([[0], change])
                ends = np.concatenate([change, [dists.size]])
                runs += [(lo + int(s), lo + int(e), int(dists[s])) for s, e in zip(starts, ends, strict=True)]
        runs.sort()
        merged: list[tuple[int, int, int]] = []
        for lo, hi, d in runs:
            if merged and merged[-1][1] == lo and merged[-1][2] == d:
                merged[-1] = (merged[-1][0], hi, d)
            else:
                merged.append((lo, hi, d))
        return merged

    def enumerate_y(self, start: YKey) -> list[YKey]:
        """Every Y state reachable against some X, its answers classified."""
        seen = {start}
        stack = [start]
        while stack:
            self.budget.check()
            key = stack.pop()
            runs = self._classify_y(key)
            self.actions[key] = runs
            for dist_id in {d for _, _, d in runs}:
                for code, _ in self.opp.dists[dist_id]:
                    for _, what, detail in y_outcomes(key, code, self.N, self.floor):
                        if what in ("move", "turn") and detail not in seen:
                            seen.add(detail)
                            stack.append(detail)
        return list(seen)

    # the backward induction --------------------------------------------------------------------------------

    def solve(self) -> DuelResult:
        space = self.space
        N, T = self.N, self.T
        start: YKey = (0, 0, T, 0)
        keys = self.enumerate_y(start)
        # Order: returning Y nearest home first, then outward Y furthest first; a batch shares phase and plate (no
        # move within a batch) and holds at most CHUNK states (the tables of a batch are CHUNK x X states).
        order = sorted(keys, key=lambda k: (0, k[1]) if k[0] == 1 else (1, -k[1]))
        batches: list[list[YKey]] = []
        for key in order:
            last_batch = batches[-1] if batches else None
            if last_batch and last_batch[0][:2] == key[:2] and len(last_batch) < CHUNK:
                last_batch.append(key)
            else:
                batches.append([key])
        batch_of = {key: b for b, batch in enumerate(batches) for key in batch}
        last_use: dict[YKey, int] = {}
        fresh_needed: set[YKey] = set()
        for key in keys:
            for dist_id in {d for _, _, d in self.actions[key]}:
                for code, _ in self.opp.dists[dist_id]:
                    for _, what, detail in y_outcomes(key, code, N, self.floor):
                        if what in ("move", "turn"):
                            last_use[detail] = max(last_use.get(detail, -1), batch_of[key])
                            if what == "turn":
                                fresh_needed.add(detail)
        free_after: dict[int, list[YKey]] = {}
        for key in keys:
            free_after.setdefault(last_use.get(key, batch_of[key]), []).append(key)
        self.vx: dict[YKey, np.ndarray] = {}
        self.vy_fresh: dict[YKey, np.ndarray] = {}
        x0 = space.out_index(0, T)
        result_x_first = result_y_first = 0.0
        for b, batch in enumerate(batches):
            self.budget.check()
            codes = np.zeros((len(batch), space.size), np.int8) if self.record_policy else None
            VX, VY = self._solve_batch(batch, codes)
            for j, key in enumerate(batch):
                if codes is not None:
                    self.policy[key] = codes[j]
                self.vx[key] = VX[j].copy()
                if key in fresh_needed:
                    self.vy_fresh[key] = VY[j].copy()
                if key == start:
                    result_x_first = float(VX[j, x0])
                    result_y_first = float(VY[j, x0])
            for key in free_after.get(b, ()):
                self.vx.pop(key, None)
        return DuelResult(
            x_first=result_x_first,
            y_first=result_y_first,
            x_seat=self.x_seat,
            opponent_states=len(keys),
            opponent_calls=self.opp.calls,
            read_laid=self.opp.read_laid,
            read_x=frozenset(self.opp.read_x),
        )

    def _y_move(self, key: YKey, dist_id: int, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        """Over X states lo..hi, Y to move in `key` playing distribution `dist_id`: the expected X-to-move value
        after Y's move when it changes something (R), and the chance that nothing changes (F: a failed roll)."""
        last = self.last
        R = np.zeros(hi - lo)
        F = 0.0
        for code, weight in self.opp.dists[dist_id]:
            for chance, what, detail in y_outcomes(key, code, self.N, self.floor):
                w = weight * chance
                if what == "stay":
                    F += w
                elif what == "move":
                    R += w * self.vx[detail][lo:hi]
                elif what == "turn":
                    R += w * self.vy_fresh[detail][lo:hi]
                elif what == "elim":
                    R += w * last.nobody_home[lo:hi]
                else:
                    marker, tokens = detail
                    R += w * last.against_score(marker - tokens)[lo:hi]
        return R, np.full(hi - lo, F)

    def _solve_batch(self, batch: list[YKey], policy: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """X's values (X to move) and Y's (Y to move) over every X state, for each Y state of the batch; with
        `policy` ([batch, X state]), X's best move codes (the first best in announcement order, turning back last)."""
        space = self.space
        N, T, size = self.N, self.T, space.size
        nb = len(batch)
        q = batch[0][1]
        blocked = q if q >= STARTING_PLATE else None
        R = np.empty((nb, size))
        F = np.empty((nb, size))
        for j, key in enumerate(batch):
            runs = self.actions[key]
            cover: dict[int, int] = {}
            for lo, hi, d in runs:
                cover[d] = cover.get(d, 0) + hi - lo
            main = max(cover, key=lambda d: cover[d])
            R[j], F[j] = self._y_move(key, main, 0, size)
            for lo, hi, d in runs:
                if d != main:
                    R[j, lo:hi], F[j, lo:hi] = self._y_move(key, d, lo, hi)
        # X's arrival: the game ends if X is strictly beyond Y's reach, else Y plays on as the last camper.
        reach = np.array([k[1] if k[0] == 0 else k[3] for k in batch])
        home = np.stack([self._y_home_chances(k) for k in batch])
        arrival = np.where(self.f_score[None, :] > reach[:, None], 1.0, 1.0 - home)
        eliminated = np.array([0.5 * self._y_eliminated(k) for k in batch])
        VX = np.zeros((nb, size))
        VY = np.zeros((nb, size))
        for level in space.levels:
            phase, p = level
            lo, hi = space.level_range(level)
            if blocked is not None and p == blocked:
                continue  # X cannot stand on Y's plate: no such state
            Rl, Fl = R[:, lo:hi], F[:, lo:hi]
            best: np.ndarray | None = None
            code = np.zeros(Rl.shape, np.int8) if policy is not None else None
            if phase == 1:
                for a in range(1, min(MAX_ANNOUNCEMENT, p - STARTING_PLATE) + 1):
                    if p - a == blocked:
                        continue
                    S = self._return_move(VY, p, p - a, arrival)
                    best = _consider(best, code, (FAIL[a] * Rl + S) / (1.0 - FAIL[a] * Fl), a)
            else:
                for a in range(1, MAX_ANNOUNCEMENT + 1):
                    if p + a > N:
                        break
                    if p + a == blocked:
                        continue
                    S = self._outward_move(VY, p + a, a, eliminated)
                    best = _consider(best, code, (FAIL[a] * Rl + S) / (1.0 - FAIL[a] * Fl), a)
                if p > STARTING_PLATE:
                    a0 = space.a_off[p]
                    best = _consider(best, code, VX[:, a0 : a0 + T], TURN)  # turn back, the same turn goes on
            if best is None:  # pass: nothing moves; both passing forever means nobody ever gets home
                with np.errstate(divide="ignore", invalid="ignore"):
                    best = np.where(Fl < 1.0, Rl / (1.0 - Fl), 0.5)
            if policy is not None and code is not None:
                policy[:, lo:hi] = code
            VX[:, lo:hi] = best
            VY[:, lo:hi] = Fl * best + Rl
        return VX, VY

    def _return_move(self, VY: np.ndarray, p: int, target: int, arrival: np.ndarray) -> np.ndarray:
        """Over returning level p: the expected Y-to-move value after a successful announcement home to `target`
        (unconditional probabilities: the failures are added by the caller). Arrays are [batch, X state]."""
        space = self.space
        N, T, nD = space.N, space.T, space.nD
        a = p - target
        nM = N - p + 1
        nb = VY.shape[0]
        out_a = np.zeros((nb, nM, T))
        out_d = np.zeros((nb, nD))
        if target == STARTING_PLATE:
            idx_a, idx_d = self._arrival_indices(p)
            for c, chance in PAYS[a]:
                out_a += chance * arrival[:, idx_a[c]]
                out_d += chance * arrival[:, idx_d[c]]
            return np.concatenate([out_a.reshape(nb, nM * T), out_d], axis=1)
        a0, d0 = space.a_off[target], space.d_off[target]
        below_a = VY[:, a0:d0].reshape(nb, N - target + 1, T)[:, p - target :]  # markers p..N
        below_d = VY[:, d0 : d0 + nD]
        # ext[..., k]: tokens left k - (MAX_PAY - 1), from -10 (the marker moved back 10) to T
        ext = np.empty((nb, nM, MAX_PAY + T))
        ext[:, :, :MAX_PAY] = below_d[:, self._hankel(p)]
        ext[:, :, MAX_PAY:] = below_a
        padded = np.concatenate([np.repeat(below_d[:, :1], MAX_PAY, axis=1), below_d], axis=1)
        for c, chance in PAYS[a]:
            out_a += chance * ext[:, :, MAX_PAY - c : MAX_PAY - c + T]
            out_d += chance * padded[:, MAX_PAY - c : MAX_PAY - c + nD]
        return np.concatenate([out_a.reshape(nb, nM * T), out_d], axis=1)

    @cache  # noqa: B019  (one duel object; a handful of plates)
    def _hankel(self, p: int) -> np.ndarray:
        """[marker p..N, tokens left -10..0]: the no-token row of marker + tokens left (the marker moved back)."""
        space = self.space
        m0 = np.arange(p, space.N + 1)
        return np.clip(m0[:, None] + np.arange(-(MAX_PAY - 1), 1)[None, :] - space.m_lo, 0, space.nD - 1)

    @cache  # noqa: B019
    def _arrival_indices(self, p: int) -> tuple[dict[int, np.ndarray], dict[int, np.ndarray]]:
        """Finished-X variant of each returning state of level p arriving with each payment."""
        space = self.space
        N, T, floor = space.N, space.T, space.m_lo
        m0 = np.arange(p, N + 1)
        t = np.arange(1, T + 1)
        m_d = np.arange(floor, N + 1)
        idx_a, idx_d = {}, {}
        for c in range(1, MAX_PAY + 1):
            left = t - c
            marker = np.maximum(m0[:, None] + np.minimum(left, 0)[None, :], floor)
            tokens = np.broadcast_to(np.maximum(left, 0)[None, :], marker.shape)
            idx_a[c] = self._f_indices(marker, tokens)
            idx_d[c] = self._f_indices(np.maximum(m_d - c, floor), np.zeros(space.nD, int))
        return idx_a, idx_d

    def _f_indices(self, marker: np.ndarray, tokens: np.ndarray) -> np.ndarray:
        floor, nD, T = self.space.m_lo, self.space.nD, self.T
        return np.where(tokens == 0, marker - floor, nD + (marker - STARTING_PLATE - 1) * T + tokens - 1)

    def _outward_move(self, VY: np.ndarray, target: int, a: int, eliminated: np.ndarray) -> np.ndarray:
        space = self.space
        T = space.T
        lo = space.out_off[target]
        nb = VY.shape[0]
        padded = np.concatenate([np.broadcast_to(eliminated[:, None], (nb, MAX_PAY)), VY[:, lo : lo + T]], axis=1)
        out = np.zeros((nb, T))
        for c, chance in PAYS[a]:
            # tokens t (1..T) -> t - c, at column t - c + MAX_PAY - 1 (columns below MAX_PAY: eliminated)
            out += chance * padded[:, MAX_PAY - c : MAX_PAY - c + T]
        return out


def solve_duel(
    opponent: OpponentPolicy,
    config: Config,
    *,
    x_seat: int = 0,
    budget: Budget | None = None,
    marker_floor: int = MARKER_FLOOR,
) -> DuelResult:
    """The exact best-response win probability against `opponent` (see the module docstring), X in `x_seat`:
    `x_first` with X to move first, `y_first` with the opponent first (the same seats)."""
    if x_seat not in (0, 1):
        raise ValueError("two campers: seat 0 or 1")
    return _Duel(opponent, config, x_seat, budget or Budget(float("inf")), marker_floor).solve()


def _consider(best: np.ndarray | None, code: np.ndarray | None, value: np.ndarray, move: int) -> np.ndarray:
    """The better of `best` and a move's `value` (the first best kept), recording the move in `code`."""
    if best is None:
        if code is not None:
            code[:] = move
        return value
    if code is not None:
        code[value > best] = move
    return np.maximum(best, value)


class BestResponsePolicy:
    """The best response as a player (`solve_duel(..., record_policy=True)`): X's recorded best move in the joint
    state, for X in `x_seat` of a two-camper game on the duel's route (no pending effect: no specials)."""

    def __init__(self, duel: _Duel) -> None:
        self.duel = duel
        self.space = duel.space

    def x_index(self, camper: Camper) -> int:
        space = self.space
        if camper.phase == Phase.OUTWARD:
            return space.out_index(camper.position, camper.tokens)
        p, m = camper.position, max(camper.marker, space.m_lo)
        if camper.tokens == 0:
            return space.d_off[p] + m - space.m_lo
        return space.a_off[p] + (m - p) * space.T + camper.tokens - 1

    def __call__(self, state: TourState) -> Action:
        x = state.campers[self.duel.x_seat]
        y = state.campers[1 - self.duel.x_seat]
        if state.last_camper_rule or y.phase not in (Phase.OUTWARD, Phase.RETURN):
            raise ValueError("the recorded best response covers the race with both campers on the journey")
        key: YKey = (
            (0, y.position, y.tokens, 0)
            if y.phase == Phase.OUTWARD
            else (1, y.position, y.tokens, max(y.marker, self.space.m_lo))
        )
        code = int(self.duel.policy[key][self.x_index(x)])
        if code == TURN:
            return TurnBack()
        return Pass() if code == PASS else Announce(code)


def best_response_policy(
    opponent: OpponentPolicy,
    config: Config,
    *,
    x_seat: int = 0,
    budget: Budget | None = None,
    marker_floor: int = MARKER_FLOOR,
) -> tuple[DuelResult, BestResponsePolicy]:
    """`solve_duel` and the best response's move in every joint state with both campers on the journey (memory:
    one byte per X state per opponent state, a few hundred MB on the 72-plate route). The last-camper phase is
    not recorded (X's exact play there is the last camper's table, `XLastCamper`)."""
    duel = _Duel(opponent, config, x_seat, budget or Budget(float("inf")), marker_floor)
    duel.record_policy = True
    result = duel.solve()
    return result, BestResponsePolicy(duel)
