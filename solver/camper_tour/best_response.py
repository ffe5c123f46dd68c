"""Best response to solo-policy campers: the chance to win a Camper Tour race against campers who play the
exact solo policy (`players.solo_optimal`), for every choice of the camper to move.

Why a separate model: campers who announce 9-10 (the solo policy) score 64-72 once home, more than any race
can, so with two or more of them in the game a racer wins only by getting home first with a final score
strictly ahead of every other camper's reach (an outward camper's plate, a returning camper's marker, a
finished camper's score): the game then ends at its arrival. The Monte Carlo playouts of the win hint cannot
find that plan within 0.2 s (each compares a few moves over a few hundred games); this dynamic programme
values it for every move at once (`values`, about 0.04 s on the default route). The hint uses it only where
the game's record shows every other camper playing the solo policy (`opponents.solo_field`).

The model:

* Each other camper is an independent Markov chain on (plate, tokens) playing the all-normal solo policy
  (its turn-back ends the chain: its reach stays its marker); from its present state, forward propagation
  gives the distribution of its reach after t turns, so `win_by_arrival[t, s]` = P(every other reach < s
  when the mover arrives on its t-th turn from now with score s) (they have each had t turns by then).
* The mover's return is one of a few fixed plans (announce at most A: `RETURN_CAPS`); `return_outcomes`
  holds, per plan, start plate and tokens, the exact joint distribution of the turns it takes and the
  plates it loses (tokens left at arrival plus any shortfall), built once per route length.
* The mover's outward journey is a backward induction over its turns to come (`HORIZON`): each turn, turn
  back (then the best return plan) or announce, valued by `win_by_arrival`.

Not modelled: occupied plates, specials (the route is taken as all normal), the last-camper rule (which is
why the hint needs two or more other campers: with one, the mover arriving first makes it the last camper,
and that decides most two-camper games), and a return plan changed midway (the return is re-planned at
each of its turns). Beyond `HORIZON` turns a journey counts as lost. So a value is the win probability
under this model, an estimate of the real one (HEURISTIC). Its calibration is measured in the bench
(`python -m bench.camper_tour --head-to-head`: the mean model value at its first answer in each game against the
games won).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from campsolver.solver.camper_tour.players import reach
from campsolver.solver.camper_tour.rules import (
    MAX_ANNOUNCEMENT,
    STARTING_PLATE,
    TWO_DICE,
    Action,
    Announce,
    Config,
    Pending,
    Phase,
    TourState,
    TurnBack,
    new_game,
)
from campsolver.solver.camper_tour.solo import MAX_PAYMENT, all_normal_tables
from campsolver.solver.core.budget import Budget

#: Turns of the mover looked ahead (outward and home together); a journey longer than this counts as lost.
HORIZON = 26
#: The furthest plate a race against solo-policy campers turns back from (the model's size).
MAX_RACE_PLATE = 40
#: Most plates a return may lose (tokens left plus shortfall); more counts as this many (a lost race anyway).
MAX_LOSS = 30
#: Return plans: announce at most this many plates on every turn home.
RETURN_CAPS = (4, 5, 6, 7, 8)
#: Room an outward mover needs past its plate for the model to apply (MAX_RACE_PLATE - this is the last).
MIN_ROOM = 10
#: Tokens the mover's tables cover (more are counted as this many: a racer never needs more).
MAX_TOKENS = 31

#: PAYMENT[a - 1, c - 1] = P(the dice total a + c): announcing a moves and pays c tokens (unconditional).
PAYMENT = np.zeros((MAX_ANNOUNCEMENT, MAX_PAYMENT))
for _total, _chance in TWO_DICE:
    for _a in range(1, MAX_ANNOUNCEMENT + 1):
        if _total > _a:
            PAYMENT[_a - 1, _total - _a - 1] = float(_chance)
_SUCCESS = PAYMENT.sum(axis=1)  # P(roll > a), index a - 1


#: Tables built once per route length (plate count, token limit): a build takes about 0.5 s, so the service
#: builds the default route's in its warm-up, and a build checks the budget as it goes (none is kept half built).
_RETURN_OUTCOMES: dict[int, np.ndarray] = {}
_SOLO_CHAINS: dict[tuple[int, int], _SoloChain] = {}
_PLANS_BY_PLATE: dict[int, np.ndarray] = {}


def return_outcomes(plate_count: int, budget: Budget | None = None) -> np.ndarray:
    """[plan, plate, tokens, turns, loss]: the chance that the return from `plate` with `tokens` under plan
    `RETURN_CAPS[plan]` arrives after `turns` turns (1 = this one) having lost `loss` plates. Plates above
    MAX_RACE_PLATE are not covered; turns beyond HORIZON are dropped (the mass is then below 1)."""
    if plate_count not in _RETURN_OUTCOMES:
        _RETURN_OUTCOMES[plate_count] = _build_return_outcomes(plate_count, budget or Budget(float("inf")))
    return _RETURN_OUTCOMES[plate_count]


def _build_return_outcomes(plate_count: int, budget: Budget) -> np.ndarray:
    plates = min(plate_count, MAX_RACE_PLATE)
    table = np.zeros((len(RETURN_CAPS), plates + 1, MAX_TOKENS + 1, HORIZON + 1, MAX_LOSS + 1))
    for plan, cap in enumerate(RETURN_CAPS):
        for tokens in range(MAX_TOKENS + 1):
            table[plan, STARTING_PLATE, tokens, 0, min(tokens, MAX_LOSS)] = 1.0
        for plate in range(STARTING_PLATE + 1, plates + 1):
            a = min(cap, plate - STARTING_PLATE)
            fail = 1.0 - _SUCCESS[a - 1]
            budget.check()
            for tokens in range(MAX_TOKENS + 1):
                arrived = np.zeros((HORIZON + 1, MAX_LOSS + 1))
                for c in range(1, MAX_PAYMENT + 1):
                    w = PAYMENT[a - 1, c - 1]
                    if w == 0.0:
                        continue
                    shortfall = max(0, c - tokens)
                    after = table[plan, plate - a, max(0, tokens - c)]
                    arrived[:, shortfall:] += w * after[:, : MAX_LOSS + 1 - shortfall]
                    if shortfall:
                        arrived[:, MAX_LOSS] += w * after[:, MAX_LOSS + 1 - shortfall :].sum(axis=1)
                # this turn: success after 0, 1, 2... failed turns (each failure costs one turn)
                out = np.zeros_like(arrived)
                geometric = 1.0
                for waited in range(HORIZON):
                    out[waited + 1 :] += geometric * arrived[: HORIZON - waited]
                    geometric *= fail
                    if geometric < 1e-12:
                        break
                table[plan, plate, tokens] = out
    return table


@dataclass(frozen=True)
class _SoloChain:
    """The solo policy's outward chain on (plate, tokens) for the route: transitions as flat arrays."""

    plates: int
    cap: int
    source: np.ndarray
    target: np.ndarray
    weight: np.ndarray

    @property
    def outward_states(self) -> int:
        return (self.plates + 1) * (self.cap + 1)

    def index(self, plate: int, tokens: int) -> int:
        return plate * (self.cap + 1) + min(tokens, self.cap)

    def turned(self, marker: int) -> int:
        """The absorbing state of a camper that turned back at `marker` (its reach stays there)."""
        return self.outward_states + marker


def _solo_chain(plate_count: int, token_limit: int, budget: Budget | None = None) -> _SoloChain:
    key = (plate_count, token_limit)
    if key not in _SOLO_CHAINS:
        _SOLO_CHAINS[key] = _build_solo_chain(plate_count, token_limit, budget or Budget(float("inf")))
    return _SOLO_CHAINS[key]


def _build_solo_chain(plate_count: int, token_limit: int, budget: Budget) -> _SoloChain:
    tables = all_normal_tables(plate_count, token_limit)
    cap = min(token_limit, tables.axis.cap)
    chain = _SoloChain(plate_count, cap, np.zeros(0, int), np.zeros(0, int), np.zeros(0))
    sources, targets, weights = [], [], []
    for plate in range(0, plate_count + 1):
        budget.check()
        for tokens in range(1, cap + 1):
            here = chain.index(plate, tokens)
            options = tables.outward_alternatives(plate, tokens)
            if not options:
                sources.append(here), targets.append(chain.turned(plate)), weights.append(1.0)
                continue
            action = max(options, key=lambda item: item[1])[0]
            if isinstance(action, TurnBack):
                sources.append(here), targets.append(chain.turned(plate)), weights.append(1.0)
                continue
            a = action.plates
            sources.append(here), targets.append(here), weights.append(1.0 - _SUCCESS[a - 1])
            for c in range(1, MAX_PAYMENT + 1):
                w = PAYMENT[a - 1, c - 1]
                if w > 0.0:
                    # tokens run out outward: eliminated, its reach no longer counts (state plate 0, no tokens)
                    target = chain.index(plate + a, tokens - c) if tokens - c > 0 else chain.index(0, 0)
                    sources.append(here), targets.append(target), weights.append(w)
    return _SoloChain(plate_count, cap, np.array(sources), np.array(targets), np.array(weights))


def reach_below(state: TourState, other: int, turns: int, budget: Budget | None = None) -> np.ndarray:
    """[t, s]: the chance that camper `other`'s reach after t more of its turns is below s (s in 0..plates+1)."""
    config = state.config
    camper = state.campers[other]
    plates = config.plate_count
    result = np.zeros((turns + 1, plates + 2))
    if camper.phase != Phase.OUTWARD:
        # Fixed from now on. An arrival with score s is ahead of it when s > its reach, or s >= a finished
        # camper's score (the later arrival wins a tie): rules `_furthest_ahead`.
        tie_wins = camper.phase == Phase.FINISHED
        result[:, min(max(reach(camper), 0) + (0 if tie_wins else 1), plates + 1) :] = 1.0
        return result
    chain = _solo_chain(plates, config.token_limit, budget)
    mass = np.zeros(chain.outward_states + plates + 1)
    mass[chain.index(max(camper.position, 0), max(camper.tokens, 1))] = 1.0
    reach_of_state = np.concatenate([np.repeat(np.arange(plates + 1), chain.cap + 1), np.arange(plates + 1)])
    reach_of_state[chain.index(0, 0)] = 0  # eliminated outward
    eliminated = chain.index(0, 0)
    for t in range(turns + 1):
        if budget is not None and t % 8 == 0:
            budget.check()
        by_reach = np.bincount(reach_of_state, weights=mass, minlength=plates + 1)
        result[t, 1:] = np.cumsum(by_reach)[: plates + 1]
        moved = np.bincount(chain.target, weights=mass[chain.source] * chain.weight, minlength=mass.size)
        moved[chain.outward_states :] += mass[chain.outward_states :]  # turned back: absorbing
        moved[eliminated] += mass[eliminated]
        mass = moved
    return result


def win_by_arrival(state: TourState, budget: Budget | None = None) -> np.ndarray:
    """[t, s]: P(every other camper's reach is below s when the mover arrives on its t-th turn from now)."""
    plates = state.config.plate_count
    table = np.ones((HORIZON + 1, plates + 2))
    for other in range(len(state.campers)):
        if other != state.to_move:
            table *= reach_below(state, other, HORIZON, budget)
    return table


@dataclass(frozen=True)
class BestResponse:
    """The mover's legal choices the model covers, each with its model win probability (see the module
    docstring). Not covered, so absent: on the return an announcement no plan makes (below the smallest cap
    but short of home, or above the largest), and a Pass."""

    values: dict[Action, float]

    @property
    def best(self) -> Action:
        return max(self.values, key=lambda a: self.values[a])


def applies(state: TourState) -> bool:
    """Whether the model covers the mover's decision: no pending effect, no last-camper rule in force; outward
    on at most plate MAX_RACE_PLATE - MIN_ROOM; or returning with a marker from 2 to MAX_RACE_PLATE while every
    other camper not eliminated is still outward behind that marker (else arriving first cannot end the game
    furthest ahead, the only win the model knows). Elsewhere the hint plays out the race instead."""
    camper = state.mover
    if camper.pending != Pending.NONE or state.last_camper_rule:
        return False
    if camper.phase == Phase.OUTWARD:
        return camper.position <= MAX_RACE_PLATE - MIN_ROOM
    if camper.phase != Phase.RETURN or not STARTING_PLATE < camper.marker <= MAX_RACE_PLATE:
        return False
    others = [state.campers[i] for i in state.others_in_game()]
    return all(c.phase == Phase.OUTWARD and c.position < camper.marker for c in others)


def _plans_by_plate(plate_count: int, budget: Budget | None = None) -> np.ndarray:
    """`return_outcomes` as [plate, plan x tokens, turns x loss]: the layout of one batched matrix product."""
    if plate_count not in _PLANS_BY_PLATE:
        outcomes = return_outcomes(plate_count, budget)
        plans, plates, tokens, turns, losses = outcomes.shape
        _PLANS_BY_PLATE[plate_count] = np.ascontiguousarray(
            outcomes.transpose(1, 0, 2, 3, 4).reshape(plates, plans * tokens, turns * losses)
        )
    return _PLANS_BY_PLATE[plate_count]


#: Below this model win probability for its best move the hint does not answer from the model (it plays out the
#: race instead, which also knows the other ways to win).
MIN_WIN = 0.005
#: Seconds of budget a hint needs to build a route's tables itself (about 1 s on an idle core; see `ready`).
BUILD_SECONDS = 3.0


def ready(plate_count: int, token_limit: int) -> bool:
    """Whether the route's tables are built (by `warm_up` or an earlier call)."""
    return plate_count in _PLANS_BY_PLATE and (plate_count, token_limit) in _SOLO_CHAINS


def warm_up(config: Config) -> None:
    """Build the route's tables (about 1 s) and run the model once, so that the first hint on the route answers
    within its budget."""
    _plans_by_plate(config.plate_count)
    _solo_chain(config.plate_count, config.token_limit)
    values(new_game(config, 3))


def _arrival_grid(win: np.ndarray, plates: int) -> np.ndarray:
    """[marker, turns x loss, k]: the win chance of arriving `turns` turns into a return that starts on the
    mover's k-th turn from now, from a marker, having lost `loss` plates (score marker - loss; 0 if not
    positive, and 0 beyond HORIZON). Laid out for `_turn_back_values`' matrix product."""
    marker = np.arange(plates + 1)[:, None]
    score = marker - np.arange(MAX_LOSS + 1)[None, :]
    # by_row[row, marker, loss] = win[row, marker - loss], 0 where the score is not positive
    by_row = np.where(score > 0, win[:, np.clip(score, 0, win.shape[1] - 1)], 0.0)
    k = np.arange(HORIZON + 1)[:, None]
    used = np.arange(HORIZON + 1)[None, :]
    row = k + used - 1
    valid = (row >= 0) & (used <= HORIZON - k)
    grid = by_row[np.clip(row, 0, HORIZON)] * valid[:, :, None, None]  # [k, turns, marker, loss]
    return np.ascontiguousarray(grid.transpose(2, 1, 3, 0)).reshape(plates + 1, -1, HORIZON + 1)


#: Plates per block of `_turn_back_values`' matrix product (the budget is checked between blocks: a block takes
#: about 5 ms on an idle core).
PLATE_BLOCK = 10


def _turn_back_values(state: TourState, win: np.ndarray, plates: int, budget: Budget) -> np.ndarray:
    """[k, plate, tokens]: the win chance of turning back on plate `plate` (the marker) with `tokens`, on the
    mover's k-th turn from now, with the best return plan."""
    by_plate = _plans_by_plate(state.config.plate_count)[: plates + 1]
    grid = _arrival_grid(win, plates)
    values = np.empty((plates + 1, by_plate.shape[1], HORIZON + 1))
    for first in range(0, plates + 1, PLATE_BLOCK):
        budget.check()
        block = slice(first, first + PLATE_BLOCK)
        values[block] = np.matmul(by_plate[block], grid[block])
    values = values.reshape(plates + 1, len(RETURN_CAPS), MAX_TOKENS + 1, HORIZON + 1)
    return values.max(axis=1).transpose(2, 0, 1)


def values(state: TourState, budget: Budget | None = None) -> BestResponse:
    """The model win probability of each legal choice of the mover the model covers (where `applies`; see the
    module docstring and `BestResponse`). The budget is checked between the model's stages and at every turn
    of the backward induction."""
    budget = budget or Budget(float("inf"))
    camper = state.mover
    config = state.config
    legal = state.legal_actions()
    tokens = min(max(camper.tokens, 0), MAX_TOKENS)
    plates = min(config.plate_count, MAX_RACE_PLATE)
    _plans_by_plate(config.plate_count, budget)
    budget.check()
    win = win_by_arrival(state, budget)
    budget.check()
    result: dict[Action, float] = {}
    if camper.phase == Phase.RETURN:
        by_plate = _plans_by_plate(config.plate_count)[camper.position]  # [plan x tokens, turns x loss]
        grid = _arrival_grid(win, plates)[camper.marker, :, 0]  # this turn is the return's first
        plans = (by_plate @ grid).reshape(len(RETURN_CAPS), MAX_TOKENS + 1)[:, tokens]
        for cap, value in zip(RETURN_CAPS, plans, strict=True):
            action = Announce(min(cap, camper.position - STARTING_PLATE))
            if action in legal:
                result[action] = max(result.get(action, 0.0), float(value))
        return BestResponse(result)
    turn_back = _turn_back_values(state, win, plates, budget)
    turn_back[:, : STARTING_PLATE + 1] = 0.0  # a return from the start plate is no journey
    # outward[k, p, t]: the value on the mover's k-th turn from now, outward on plate p with t tokens
    outward = np.zeros((HORIZON + 2, plates + 1, MAX_TOKENS + 1))
    for k in range(HORIZON, -1, -1):
        budget.check()
        best = turn_back[k].copy()
        for a in range(1, MAX_ANNOUNCEMENT + 1):
            best[: plates + 1 - a] = np.maximum(best[: plates + 1 - a], _announce_value(outward[k + 1], a, plates))
        outward[k] = best
    position = max(camper.position, 0)
    for action in legal:
        if isinstance(action, TurnBack):
            result[action] = float(turn_back[0, position, tokens])
        elif isinstance(action, Announce) and position + action.plates <= plates:
            result[action] = float(_announce_value(outward[1], action.plates, plates)[position, tokens])
    return BestResponse(result)


def _announce_value(next_turn: np.ndarray, a: int, plates: int) -> np.ndarray:
    """[p, t]: announcing `a` from plate p with t tokens, valued by the next turn's table: a failed roll stays,
    a success moves a plates and pays the excess (tokens at 0 or below outward: eliminated, worth 0)."""
    value = (1.0 - _SUCCESS[a - 1]) * next_turn[: plates + 1 - a]
    for c in range(1, MAX_PAYMENT + 1):
        w = PAYMENT[a - 1, c - 1]
        if w > 0.0:
            landed = np.zeros((plates + 1 - a, MAX_TOKENS + 1))
            landed[:, c + 1 :] = next_turn[a:, 1 : MAX_TOKENS + 1 - c]
            value = value + w * landed
    return value
