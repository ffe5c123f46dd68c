"""Hints: every choice of the player to move ranked by the securable outcome it leads to.

A turn is two decisions (the movement, then the free barrier). The value of a position is its *territory
estimate*: the nearest-piece partition of every open region (barriers as walls, each square to the closest
trailer or bungalow, touching sites of one owner merged) scored by the rules model, with the allotted sites as
they are. It is the cheap stand-in for the CP-SAT securable score (which takes seconds on the full board): the
hint must answer ~100 movements x ~150 barriers within about a second.

- At a BARRIER decision every legal barrier is valued by the estimate of the board it makes.
- At a MOVE decision every movement is valued by the estimate after the movement and the mover's best free
  barrier among the `BARRIER_CANDIDATES` best at the current position (or none when none is legal).
Objective: the mover's margin over the best opponent (default; that is what wins) or the mover's own score.
The search is one turn deep (no opponent replies): the answer is HEURISTIC and says so.
"""

from __future__ import annotations

import enum
import time
from collections import deque
from dataclasses import dataclass

from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.proof import Proof
from campsolver.solver.deluxe_camping import rules
from campsolver.solver.deluxe_camping.rules import Action, Barrier, DCState, Stage, neighbour_table

#: Free barriers tried after each movement (the best at the current position).
BARRIER_CANDIDATES = 6


class HintObjective(enum.Enum):
    MARGIN = "margin"
    OWN = "own"


def territory_scores(state: DCState) -> tuple[int, ...]:
    """Per-player points of the nearest-piece partition: every square to its closest trailer or bungalow
    (breadth first from all pieces at once, barriers as walls), touching squares of one owner form one site,
    each site scored by the rulebook. Allotted regions come out as they are (one owner fills them)."""
    config = state.config
    table = neighbour_table(config.rows, config.cols)
    barriers = state.barriers
    owner = [-1] * config.squares
    queue: deque[int] = deque()
    for square, player in state.owner_at.items():
        owner[square] = player
        queue.append(square)
    while queue:
        s = queue.popleft()
        for t in table[s]:
            if owner[t] < 0 and (s, t) not in barriers and (t, s) not in barriers:
                owner[t] = owner[s]
                queue.append(t)
    totals = [0] * config.players
    seen = [False] * config.squares
    ice = set(state.ice_creams)
    for start in range(config.squares):
        if seen[start] or owner[start] < 0:
            continue
        seen[start] = True
        stack = [start]
        size = ice_count = 0
        pool = nuisance = False
        while stack:
            s = stack.pop()
            size += 1
            ice_count += s in ice
            pool = pool or s == state.pool
            nuisance = nuisance or s == state.nuisance
            for t in table[s]:
                if not seen[t] and owner[t] == owner[start] and (s, t) not in barriers and (t, s) not in barriers:
                    seen[t] = True
                    stack.append(t)
        totals[owner[start]] += rules.site_value(size, pool, ice_count, nuisance)
    return tuple(totals)


def barriers_needed(state: DCState) -> int:
    """Barriers the nearest-owner partition still lacks: edges without a barrier between squares whose
    nearest pieces belong to different players."""
    config = state.config
    table = neighbour_table(config.rows, config.cols)
    owner = [-1] * config.squares
    queue: deque[int] = deque()
    for square, player in state.owner_at.items():
        owner[square] = player
        queue.append(square)
    while queue:
        s = queue.popleft()
        for t in table[s]:
            if owner[t] < 0 and (min(s, t), max(s, t)) not in state.barriers:
                owner[t] = owner[s]
                queue.append(t)
    return sum(
        1
        for a, b in rules.all_edges(config.rows, config.cols)
        if owner[a] != owner[b] and (a, b) not in state.barriers
    )


def estimate_scores(state: DCState) -> tuple[float, ...]:
    """Points already secured plus the territory still open, discounted by the share of the barriers it needs
    that the supply still holds (the game ends when the barriers run out and open regions score nothing)."""
    secured = state.scores()
    if state.stage is Stage.OVER:
        return tuple(float(x) for x in secured)
    territory = territory_scores(state)
    needed = barriers_needed(state)
    share = 1.0 if needed <= state.supply_left else state.supply_left / needed
    return tuple(s + share * (t - s) for s, t in zip(secured, territory, strict=True))


def utility(scores: tuple[float, ...], player: int, objective: HintObjective) -> float:
    if objective is HintObjective.OWN:
        return float(scores[player])
    return float(scores[player] - max(s for p, s in enumerate(scores) if p != player))


def evaluate(state: DCState, player: int, objective: HintObjective) -> float:
    """The estimate of a position for `player` (exact scores once the game is over)."""
    return utility(estimate_scores(state), player, objective)


@dataclass
class RankedMove:
    action: Action
    value: float | None  # None: not evaluated before the budget ran out


@dataclass
class HintResult:
    moves: list[RankedMove]  # best first; unevaluated last
    proof: Proof
    nodes: int
    wall_time_s: float
    interrupted: bool


def hint(state: DCState, budget: Budget, objective: HintObjective = HintObjective.MARGIN) -> HintResult:
    """Rank every legal choice of the player to move (see the module docstring)."""
    started = time.monotonic()
    player = state.to_move
    actions = state.legal_actions()
    values: dict[int, float] = {}
    nodes = 0
    interrupted = False
    try:
        if state.stage is Stage.BARRIER:
            for i, action in enumerate(actions):
                budget.check()
                values[i] = evaluate(state.child(action), player, objective)
                nodes += 1
        elif state.stage is Stage.MOVE:
            # Screen the free barriers once (at the stay-put position), with at most a third of the budget.
            candidates = _barrier_candidates(state, player, objective, budget.limited(budget.remaining() / 3))
            nodes += len(candidates)
            for i, action in enumerate(actions):
                budget.check()
                after = state.child(action)
                if after.stage is Stage.BARRIER and after.to_move == player:
                    legal = set(after.legal_barriers())
                    tried = [e for e in candidates if e in legal] or after.legal_barriers()[:BARRIER_CANDIDATES]
                    best = None
                    for edge in tried:
                        v = evaluate(after.child(Barrier(edge)), player, objective)
                        nodes += 1
                        best = v if best is None else max(best, v)
                    values[i] = best if best is not None else evaluate(after, player, objective)
                else:
                    values[i] = evaluate(after, player, objective)
                    nodes += 1
        else:
            raise ValueError(f"no hint at stage {state.stage.value}: hints are for the turns (move, barrier)")
    except SolveInterrupted:
        if not values:
            raise
        interrupted = True
    order = sorted(range(len(actions)), key=lambda i: (i not in values, -values.get(i, 0.0), i))
    return HintResult(
        moves=[RankedMove(actions[i], values.get(i)) for i in order],
        proof=Proof.HEURISTIC,
        nodes=nodes,
        wall_time_s=time.monotonic() - started,
        interrupted=interrupted,
    )


def _barrier_candidates(
    state: DCState, player: int, objective: HintObjective, budget: Budget
) -> list[rules.Edge]:
    """The free barriers that are best if the mover stays put (a cheap screen for every movement); when the
    screen's budget ends, the best of those seen so far."""
    stay = state.child(rules.Move(()))
    if stay.stage is not Stage.BARRIER or stay.to_move != player:
        return []
    scored = []
    for edge in stay.legal_barriers():
        if budget.expired():
            break
        scored.append((evaluate(stay.child(Barrier(edge)), player, objective), edge))
    scored.sort(key=lambda pair: (-pair[0], pair[1]))
    return [edge for _, edge in scored[:BARRIER_CANDIDATES]]
