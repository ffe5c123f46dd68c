"""Outside players for Camper Tour, written from the rulebook (/work/shared/rules/camper-tour.txt), the project's
readings (docs/rules/camper-tour.md) and the rules-model API (`solver/camper_tour/rules.py`) alone, without
reading the hint's code, notes or bench results; never tuned against the hint.

Camper Tour is a race as much as a journey: an arrival whose score is furthest ahead ends the game, and a
camper still outward behind that score (or returning with a lower marker) then scores nothing. So the two
table-driven styles put a price on every turn spent: their tables (computed once per route length with numpy,
all plates read as normal ones) value a position by the expected final score minus `pace` points per turn still
to play, an announcement of n costing pace / P(roll > n) turns on average. Plates already laid are read as what
they are when a move would stop on one (Comforts, Mechanical Problem, Festival, No Parking: their expected
effect). When a camper is the last one travelling, a failed roll eliminates it: then every style plays from an
exact table of the chance to get home with a score at least the best finished score (every failed roll fatal).

- `steady`: pace 0.8 points a turn (long journeys, announcements of 7-9), hurrying (pace 2.0) as soon as
  another camper heads home.
- `sprinter`: pace 1.5: announcements of 5-6, turns back sooner, races the others home.
- `thumb`: a rule of thumb without the score tables: outward announce 5 (6 when short) while the tokens exceed
  what the way home costs at half a token a plate plus 2, then turn back; home, the announcement whose cost a
  plate matches the tokens a plate left; Comforts: recover when short, discard when long.

With pace 0 the tables give the solo expectation of the documented setting (72 plates, 25 tokens, all normal:
69.894372, the figure docs/rules/camper-tour.md quotes from its independent oracle), which checks them.

Cost: a decision is a few table lookups: median 0.1-0.3 ms (2 players, measured in the sanity games); the tables
are built once per process on first use, ~0.08 CPU-s a pace and ~0.3 CPU-s for the last-camper table
(`bench.opponents.prepare("camper_tour")` builds them before timing).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from campsolver.solver.camper_tour import rules as R

#: Tokens the tables cover (more are read as this many).
TOKEN_CAP = 80
#: Loss budgets the last-camper table covers (a larger budget reads as this one: "any score wins").
BUDGET_CAP = 110
ROLLS = np.arange(2, 13)
ROLL_P = np.array([float(p) for _, p in R.TWO_DICE])


def success(n: int) -> float:
    return float(ROLL_P[n < ROLLS].sum())


def _conditional(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(payments, probabilities) of a successful announcement of n, conditioned on the success."""
    mask = n < ROLLS
    return ROLLS[mask] - n, ROLL_P[mask] / ROLL_P[mask].sum()


@cache
def tables(plates: int, pace: float) -> tuple[np.ndarray, np.ndarray]:
    """(loss, value): `loss[p, t]` the expected shortfall of the way home from plate p with t tokens (leftover
    tokens at arrival, missing tokens, and `pace` a turn); `value[p, t]` the expected final score minus `pace`
    a turn of an outward camper on plate p (0 = off the route) with t tokens, turning back where it pays."""
    tokens = np.arange(TOKEN_CAP + 1)
    loss = np.full((plates + 1, TOKEN_CAP + 1), np.inf)
    loss[1] = tokens
    for p in range(2, plates + 1):
        best = np.full(TOKEN_CAP + 1, np.inf)
        for n in range(1, min(R.MAX_ANNOUNCEMENT, p - 1) + 1):
            pays, probs = _conditional(n)
            total = np.full(TOKEN_CAP + 1, pace / success(n))
            for pay, prob in zip(pays, probs, strict=True):
                left = np.maximum(0, tokens - pay)
                total += prob * (np.maximum(0, pay - tokens) + loss[p - n, left])
            best = np.minimum(best, total)
        loss[p] = best
    value = np.zeros((plates + 1, TOKEN_CAP + 1))
    for p in range(plates, -1, -1):
        best = np.full(TOKEN_CAP + 1, -np.inf)
        if p >= R.STARTING_PLATE + 1:
            best = p - loss[p]
        for n in range(1, R.MAX_ANNOUNCEMENT + 1):
            if p + n > plates:
                break
            pays, probs = _conditional(n)
            total = np.full(TOKEN_CAP + 1, -pace / success(n))
            for pay, prob in zip(pays, probs, strict=True):
                left = tokens - pay
                total += prob * np.where(left > 0, value[p + n, np.clip(left, 0, TOKEN_CAP)], 0.0)
            best = np.maximum(best, total)
        best[0] = 0.0  # no tokens outward: eliminated
        value[p] = best
    return loss, value


@cache
def last_camper_table(plates: int) -> np.ndarray:
    """`home[p, t, b]`: the chance that a returning camper alone on the journey gets home from plate p with t
    tokens losing at most b plates of its marker (leftover plus missing tokens), every failed roll fatal."""
    budgets = np.arange(BUDGET_CAP + 1)
    tokens = np.arange(TOKEN_CAP + 1)
    home = np.zeros((plates + 1, TOKEN_CAP + 1, BUDGET_CAP + 1))
    home[1] = (tokens[:, None] <= budgets[None, :]).astype(float)
    for p in range(2, plates + 1):
        best = np.zeros((TOKEN_CAP + 1, BUDGET_CAP + 1))
        for n in range(1, min(R.MAX_ANNOUNCEMENT, p - 1) + 1):
            mask = n < ROLLS
            total = np.zeros_like(best)
            for roll, prob in zip(ROLLS[mask], ROLL_P[mask], strict=True):
                pay = roll - n
                left = np.maximum(0, tokens - pay)
                short = np.maximum(0, pay - tokens)
                rest = budgets[None, :] - short[:, None]
                got = home[p - n][left[:, None], np.clip(rest, 0, BUDGET_CAP)]
                total += prob * np.where(rest >= 0, got, 0.0)
            best = np.maximum(best, total)
        home[p] = best
    return home


# --- reading the table ------------------------------------------------------------------------------------------


def _cap(t: int) -> int:
    return max(0, min(TOKEN_CAP, t))


def _supply_room(state: R.TourState, camper: R.Camper) -> int:
    """Tokens a gain can still bring (the box's tokens nobody on the journey holds, or the per-camper cap)."""
    cfg = state.config
    if cfg.token_rule == R.TokenRule.PER_CAMPER_CAP:
        return max(0, cfg.starting_tokens - camper.tokens)
    held = sum(c.tokens for c in state.campers if c.active)
    return max(0, cfg.token_supply - held)


def _outward_value(value: np.ndarray, p: int, t: int) -> float:
    return 0.0 if t <= 0 else float(value[min(p, value.shape[0] - 1), _cap(t)])


def _home_loss(loss: np.ndarray, p: int, t: int) -> float:
    """Expected shortfall from plate p with t tokens; a negative t (owed) moves the marker at once."""
    owed = max(0, -t)
    return owed + float(loss[p, _cap(t)])


def _landing(
    state: R.TourState,
    kind: R.PlateKind | None,
    plate: int,
    t: int,
    outward: bool,
    loss: np.ndarray,
    value: np.ndarray,
    pace: float,
) -> float:
    """The value of stopping on `plate` with t tokens (outward: the expected score; home: minus the loss), the
    plate read as what it is when it is already laid."""
    room = _supply_room(state, state.mover)

    def worth(p: int, tokens: int) -> float:
        if outward:
            return _outward_value(value, p, tokens)
        return -_home_loss(loss, p, tokens) if p > R.STARTING_PLATE else -float(max(0, tokens))

    if kind is None or kind == R.PlateKind.NORMAL:
        return worth(plate, t)
    if kind == R.PlateKind.UNEXPECTED_COMFORTS:
        return max(worth(plate, t + min(3, room)), worth(plate, max(0, t - 3)), worth(plate, t)) - pace
    if kind == R.PlateKind.MECHANICAL_PROBLEM:
        if not outward:
            return worth(plate, t)
        return sum(worth(plate, t - d) if t - d > 0 else 0.0 for d in range(1, 7)) / 6 - pace
    if kind == R.PlateKind.VILLAGE_FESTIVAL:
        gains = sum(worth(plate, t + min(d, room)) for d in range(4, 7)) / 6
        return gains + 0.5 * (worth(plate, t) - pace)
    # No Parking: back toward the start (a free advance on the way home); off the route: lose 3.
    total = 0.0
    for d in range(1, 7):
        dest = plate - d
        if dest < R.STARTING_PLATE:
            total += worth(plate, t - 3) if (outward and t - 3 > 0) or not outward else 0.0
        elif not outward and dest == R.STARTING_PLATE:
            total += -float(max(0, t))
        else:
            total += worth(dest, t)
    return total / 6


def _plate_kind(state: R.TourState, plate: int) -> R.PlateKind | None:
    """The kind of a laid plate (None: not laid yet; the starting plate never acts)."""
    if plate <= R.STARTING_PLATE or plate > len(state.laid):
        return None
    return state.laid[plate - 1]


def _last_camper_target(state: R.TourState) -> float | None:
    """The score to reach when this camper is the last one travelling (None: nobody home, any arrival wins)."""
    me = state.to_move
    finished = [c.score for i, c in enumerate(state.campers) if i != me and c.phase == R.Phase.FINISHED]
    return max(finished) if finished else None


def _last_camper_move(state: R.TourState) -> list[Any]:
    """Every failed roll is fatal: play for the chance to get home at least level with the best score home."""
    me = state.mover
    table = last_camper_table(state.config.plate_count)
    target = _last_camper_target(state)
    legal = state.legal_actions()
    announcements = [a for a in legal if isinstance(a, R.Announce)]

    def chance_home(plate: int, tokens: int, marker: int) -> float:
        budget = BUDGET_CAP if target is None else int(np.floor(marker - target))
        if budget < 0:
            return 0.0
        return float(table[plate, _cap(tokens), min(budget, BUDGET_CAP)])

    if me.phase == R.Phase.OUTWARD:
        # Turn back now, or move once more and turn back there (a one-step look-ahead).
        options: list[tuple[float, Any]] = []
        if any(isinstance(a, R.TurnBack) for a in legal):
            options.append((chance_home(me.position, me.tokens, me.position), R.TurnBack()))
        for a in announcements:
            n = a.plates
            dest = me.position + n
            total = 0.0
            for roll, prob in zip(ROLLS, ROLL_P, strict=True):
                if roll > n and me.tokens - (roll - n) > 0:
                    total += prob * chance_home(dest, me.tokens - (roll - n), dest)
            options.append((total, a))
        if options:
            return [max(options, key=lambda o: o[0])[1]]
        return [legal[0]]
    if me.pending == R.Pending.COMFORTS_CHOICE:
        room = _supply_room(state, me)
        choices = {
            R.ComfortsChoice.RECOVER: me.tokens + min(3, room),
            R.ComfortsChoice.DISCARD: max(0, me.tokens - 3),
            R.ComfortsChoice.DECLINE: me.tokens,
        }
        return [max(choices, key=lambda c: chance_home(me.position, choices[c], me.marker))]
    best: tuple[float, Any] | None = None
    for a in announcements:
        n = a.plates
        dest = me.position - n
        total = 0.0
        for roll, prob in zip(ROLLS, ROLL_P, strict=True):
            if roll <= n:
                continue
            pay = roll - n
            short = max(0, pay - me.tokens)
            left = max(0, me.tokens - pay)
            total += (
                prob * chance_home(dest, left, me.marker - short)
                if dest > 1
                else prob * (1.0 if target is None or me.marker - short - left >= target else 0.0)
            )
        if best is None or total > best[0]:
            best = (total, a)
    return [best[1] if best is not None else legal[0]]


def table_move(state: R.TourState, seat: int, pace: float, hurry: float = 0.0) -> list[Any]:
    """The move the expected-score-minus-pace tables choose."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return [legal[0]]
    if state.last_camper_rule:
        return _last_camper_move(state)
    me = state.mover
    if hurry and any(c.phase == R.Phase.RETURN for i, c in enumerate(state.campers) if i != state.to_move):
        pace = max(pace, hurry)  # someone is heading home: the game may end soon
    loss, value = tables(state.config.plate_count, pace)
    announcements = [a for a in legal if isinstance(a, R.Announce)]
    room = _supply_room(state, me)
    if me.pending == R.Pending.COMFORTS_CHOICE:
        outward = me.phase == R.Phase.OUTWARD
        choices = {
            R.ComfortsChoice.RECOVER: me.tokens + min(3, room),
            R.ComfortsChoice.DISCARD: max(0, me.tokens - 3),
            R.ComfortsChoice.DECLINE: me.tokens,
        }
        if outward:
            scored = {c: _outward_value(value, me.position, t) for c, t in choices.items()}
        else:
            scored = {c: -_home_loss(loss, me.position, t) for c, t in choices.items()}
        best = max(scored, key=lambda c: scored[c])
        if outward and any(isinstance(a, R.TurnBack) for a in legal):
            back = me.position - min(_home_loss(loss, me.position, t) for t in choices.values())
            if back > scored[best]:
                return [R.TurnBack()]
        return [best]
    options: list[tuple[float, Any]] = []
    if me.phase == R.Phase.OUTWARD:
        if any(isinstance(a, R.TurnBack) for a in legal):
            options.append((me.position - _home_loss(loss, me.position, me.tokens), R.TurnBack()))
        for a in announcements:
            n = a.plates
            dest = me.position + n
            pays, probs = _conditional(n)
            total = -pace / success(n)
            kind = _plate_kind(state, dest)
            for pay, prob in zip(pays, probs, strict=True):
                left = me.tokens - pay
                if left > 0:
                    total += prob * _landing(state, kind, dest, left, True, loss, value, pace)
            options.append((total, a))
    else:
        for a in announcements:
            n = a.plates
            dest = me.position - n
            pays, probs = _conditional(n)
            total = -pace / success(n)
            kind = _plate_kind(state, dest)
            for pay, prob in zip(pays, probs, strict=True):
                short = max(0, pay - me.tokens)
                left = max(0, me.tokens - pay)
                if dest == R.STARTING_PLATE:
                    total += prob * -(short + left)
                else:
                    total += prob * (-short + _landing(state, kind, dest, left, False, loss, value, pace))
            options.append((total, a))
    if not options:
        return [legal[0]]
    return [max(options, key=lambda o: o[0])[1]]


# --- the rule of thumb -------------------------------------------------------------------------------------------


def _cost_per_plate(n: int) -> float:
    pays, probs = _conditional(n)
    return float((pays * probs).sum()) / n


def thumb(state: R.TourState, seat: int, rng: np.random.Generator) -> list[Any]:
    """Outward 5 a turn (6 when short) until the tokens only cover the way home (half a token a plate plus 2);
    home, the announcement whose cost a plate matches the tokens a plate left; last camper: the surest move."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return [legal[0]]
    if state.last_camper_rule:
        return _last_camper_move(state)
    me = state.mover
    announcements = [a.plates for a in legal if isinstance(a, R.Announce)]
    distance = me.position - 1
    if me.pending == R.Pending.COMFORTS_CHOICE:
        need = 0.5 * distance + (2 if me.phase == R.Phase.OUTWARD else 0)
        if me.tokens > need + 4:
            return [R.ComfortsChoice.DISCARD]
        return [R.ComfortsChoice.RECOVER if me.tokens < need else R.ComfortsChoice.DECLINE]
    if me.phase == R.Phase.OUTWARD:
        if R.TurnBack() in legal and (me.tokens <= 0.5 * distance + 2 or not announcements):
            return [R.TurnBack()]
        if not announcements:
            return [legal[0]]
        want = 5 if me.tokens > 10 else 6
        return [R.Announce(min(announcements, key=lambda n: (abs(n - want), -n)))]
    if not announcements:
        return [legal[0]]
    if distance in announcements and me.tokens <= 2:
        return [R.Announce(distance)]
    rate = me.tokens / max(1, distance)
    return [R.Announce(min(announcements, key=lambda n: (abs(_cost_per_plate(n) - rate), -n)))]


#: The paces the table styles use (steady's two, sprinter's).
PACES = (0.8, 2.0, 1.5)


def steady(state: R.TourState, seat: int, rng: np.random.Generator) -> list[Any]:
    """Expected final score minus 0.8 a turn (2.0 once another camper heads home)."""
    return table_move(state, seat, 0.8, hurry=2.0)


def sprinter(state: R.TourState, seat: int, rng: np.random.Generator) -> list[Any]:
    """Expected final score minus 1.5 a turn: races home."""
    return table_move(state, seat, 1.5)


PLAYERS = {"steady": steady, "sprinter": sprinter, "thumb": thumb}
