"""Hints for a multi-camper Camper Tour position: every choice of the camper to move, ranked.

Objective: the mover's expected final score (`Camper.score`: marker - |tokens| at arrival; 0 for an
eliminated camper and for one still travelling when the game ends, since it never completed the
journey). Opponents maximise their own expected score (max^n), so the occupancy rule, the last-camper
rule and the race to finish (the game ends when an arriving camper is furthest ahead) all act inside the
search through the rules model.

Search: a depth-limited max^n expectimax, iterative deepening in decision plies within the Budget; the
answer is the deepest search that completed. Frontier decision states are scored with the exact solo
values of every camper on the all-normal route (opponents and unrevealed specials ignored beyond the
horizon). To keep plate laying from exploding (a 10-plate move onto new ground is 10 chance nodes),
inside the search only the plate a camper stops on is drawn with the stack's odds; plates it merely
passes are laid as the stack's most common kind. `_SearchNode` states that model for the generic
`solver.core.expectimax`, which is the reference; the hint itself runs the specialised
`solver.camper_tour.search` engine, which returns the same values (tests compare every alternative)
roughly fifty times faster. A solo game (one camper from the start) is answered by the exact solo
solver instead.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass
from fractions import Fraction

from campsolver.solver.camper_tour.players import greedy, racer, solo_optimal
from campsolver.solver.camper_tour.rules import (
    Action,
    Camper,
    ComfortsChoice,
    Pending,
    Phase,
    PlateKind,
    Stage,
    TourState,
    TurnBack,
    validate,
)
from campsolver.solver.camper_tour.search import search
from campsolver.solver.camper_tour.solo import SoloPosition, all_normal_tables, comforts_tokens, solve_solo
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.game import sample_outcome
from campsolver.solver.core.proof import Proof
from campsolver.solver.core.seeding import rng_for

#: Deepest iterative-deepening level tried (decision plies).
MAX_DEPTH = 12
#: A deeper search takes at least this many times the previous depth's time (measured growth is 3-20x).
DEPTH_GROWTH = 3.0


@dataclass(frozen=True)
class RankedMove:
    """One legal choice: its value for the mover, its loss against the best, every camper's value."""

    action: Action
    value: float
    loss: float
    values: tuple[float, ...]


@dataclass(frozen=True)
class HintResult:
    """Ranked moves (best first), the depth they come from, and how much they are worth.

    proof is EXACT only when the search reached the end of the game everywhere (or the solo solver was
    exact); otherwise HEURISTIC. depth is the number of decision plies of the completed search (0 for a
    solo answer).
    """

    player: int
    moves: tuple[RankedMove, ...]
    depth: int
    proof: Proof
    method: str
    nodes: int
    wall_time_s: float
    interrupted: bool  # the next depth was cut by the budget
    samples: int = 0  # playouts per move (win-probability rollouts)

    @property
    def best(self) -> RankedMove:
        return self.moves[0]


def camper_leaf_value(state: TourState, index: int) -> float:
    """Exact solo value of one camper from here on the all-normal route (0 if eliminated)."""
    camper = state.campers[index]
    if camper.phase == Phase.FINISHED:
        return float(camper.score)
    if camper.phase == Phase.ELIMINATED:
        return 0.0
    tables = all_normal_tables(state.config.plate_count, state.config.token_limit)
    options = [camper.tokens]
    if camper.pending == Pending.COMFORTS_CHOICE:
        limit = state.config.token_limit  # a leaf estimate: the supply left is not looked at
        options = [comforts_tokens(choice, camper.tokens, limit) for choice in ComfortsChoice]
    if camper.phase == Phase.RETURN:
        return camper.marker - min(tables.back.cost_at(camper.position, t) for t in options)
    value = max(tables.outward_value(camper.position, t) for t in options)
    if camper.pending == Pending.COMFORTS_CHOICE and camper.position > 1:  # turn back first, then choose
        value = max(value, camper.position - min(tables.back.cost_at(camper.position, t) for t in options))
    return value


def leaf_values(state: TourState) -> tuple[float, ...]:
    return tuple(camper_leaf_value(state, i) for i in range(len(state.campers)))


@dataclass(frozen=True)
class _SearchNode:
    """The rules state with passed-over plates laid deterministically (see the module docstring)."""

    state: TourState

    def current_player(self) -> int:
        return self.state.current_player()

    def legal_actions(self) -> list[Action]:
        return self.state.legal_actions()

    def chance_outcomes(self) -> list[tuple[object, Fraction]]:
        state = self.state
        if state.stage == Stage.LAY and len(state.laid) + 1 < state.target:
            counts = state.remaining_stack()
            common = max(range(len(counts)), key=lambda k: (counts[k], -k))
            return [(PlateKind(common), Fraction(1))]
        return state.chance_outcomes()

    def child(self, action: object) -> _SearchNode:
        return _SearchNode(self.state.child(action))

    def returns(self) -> list[float]:
        return self.state.returns()


class Objective(enum.Enum):
    """What a hint's values measure (common.proto's `Objective`)."""

    WIN_PROBABILITY = "win_probability"
    EXPECTED_SCORE = "expected_score"


#: Paired standard errors by which a candidate must beat the greedy rule's move in the playouts to replace it.
SWITCH_Z = 2.0
MIN_SWITCH_ROUNDS = 6
#: Playouts per candidate move at most (the budget usually stops it first).
MAX_PLAYOUTS = 2_000
MAX_ROLLOUT_STEPS = 20_000


def hint(state: TourState, budget: Budget, *, max_depth: int = MAX_DEPTH,
         objective: Objective = Objective.EXPECTED_SCORE, seed: int = 0) -> HintResult:
    """Rank every legal choice of the camper to move (state must be a decision node)."""
    started = time.monotonic()
    validate(state)
    if state.stage != Stage.DECIDE:
        raise ValueError("hints are asked at the start of a decision")
    player = state.to_move
    if len(state.campers) == 1:
        return _solo_hint(state, budget, started)
    if objective == Objective.WIN_PROBABILITY:
        return _win_hint(state, budget, started, seed)
    best: tuple[list[tuple[Action, tuple[float, ...]]], int, bool, int] | None = None
    interrupted = False
    nodes = 0
    last_depth_s = 0.0
    for depth in range(1, max_depth + 1):
        # Deepen only if the next depth can finish: it costs at least DEPTH_GROWTH times the last one, and a
        # search cut by the deadline is wasted time the client waits for.
        if best is not None and budget.remaining() < DEPTH_GROWTH * last_depth_s:
            interrupted = True
            break
        depth_started = time.monotonic()
        try:
            alternatives, stats = search(state, depth, budget)
        except SolveInterrupted:
            if best is None:
                raise
            interrupted = True
            break
        last_depth_s = time.monotonic() - depth_started
        nodes += stats.nodes + stats.successors
        # Passed-over plates drawn from a stack that still holds specials are laid as its most common kind
        # (an approximation of the search), so only a known layout or a special-free stack can be exact.
        approximated = (
            state.config.layout is None
            and any(c.active and c.phase == Phase.OUTWARD for c in state.campers)
            and any(count for kind, count in enumerate(state.remaining_stack()) if kind != PlateKind.NORMAL)
        )
        exact = not stats.used_leaf and not approximated
        best = (alternatives, depth, exact, nodes)
        if not stats.used_leaf:  # the search reached the end of the game everywhere: deeper adds nothing
            break
    assert best is not None
    alternatives, depth, exact, nodes = best
    return HintResult(
        player=player,
        moves=_rank(alternatives, player),
        depth=depth,
        proof=Proof.EXACT if exact else Proof.HEURISTIC,
        method="expectimax-iterative-deepening",
        nodes=nodes,
        wall_time_s=time.monotonic() - started,
        interrupted=interrupted,
    )


def _win_hint(state: TourState, budget: Budget, started: float, seed: int) -> HintResult:
    """Win probability of each candidate move by Monte Carlo: the move, then every camper plays the
    `racer` rule of thumb (announce-7, last-camper aware) to the end of the game (the race, the arrival
    rule and the last-camper rule all played out by the rules model). Round-robin over the candidates with
    common random numbers (playout i of every move uses the same dice stream); the budget is checked before
    every playout, so the answer comes before the deadline. Values are estimates (HEURISTIC): the win rate
    of the move followed by that continuation, with the number of playouts in `samples`."""
    player = state.to_move
    legal = state.legal_actions()
    # Few candidates, so each gets enough playouts in a fraction of a second: what each rule of thumb and the
    # solo optimum would play here, and turning back; every other legal move is listed after them unsampled.
    # The racer rule's move comes first and stays the answer unless the playouts show another candidate
    # winning more often by more than SWITCH_Z paired standard errors (the same dice stream for every move).
    baseline = racer(state)
    proposals = [baseline, greedy(state), solo_optimal(state)]
    proposals += [a for a in legal if isinstance(a, TurnBack)]
    candidates = [baseline] + [a for a in legal if a in proposals and a != baseline]
    outcomes: dict[Action, list[float]] = {a: [] for a in candidates}
    interrupted = False
    slowest = 0.0  # the longest playout so far: another one starts only if it would still end in time
    for i in range(MAX_PLAYOUTS):
        try:
            for action in candidates:
                budget.check()
                if budget.remaining() < slowest:
                    raise SolveInterrupted("deadline")
                began = time.monotonic()
                outcomes[action].append(_playout(state.child(action), player, rng_for(seed, "camper-tour-win", i)))
                slowest = max(slowest, time.monotonic() - began)
        except SolveInterrupted:
            interrupted = True
            break
    rounds = min(len(v) for v in outcomes.values())
    if rounds == 0:
        if not outcomes[baseline]:
            raise SolveInterrupted("deadline")
        rounds = 1
        candidates = [baseline]
    wins = {a: sum(outcomes[a][:rounds]) for a in candidates}
    counts = {a: rounds for a in candidates}
    chosen = baseline
    for action in candidates[1:]:
        differences = [x - y for x, y in zip(outcomes[action][:rounds], outcomes[baseline][:rounds], strict=True)]
        mean = sum(differences) / rounds
        spread = (sum((d - mean) ** 2 for d in differences) / max(1, rounds - 1)) ** 0.5 / rounds ** 0.5
        if rounds >= MIN_SWITCH_ROUNDS and mean > SWITCH_Z * spread and wins[action] > wins[chosen]:
            chosen = action
    played = list(candidates)
    ranked = [(a, wins[a] / counts[a]) for a in played]
    ranked.sort(key=lambda item: (item[0] != chosen, -item[1]))
    top = ranked[0][1]
    moves = tuple(RankedMove(a, v, max(0.0, top - v), (v,)) for a, v in ranked)
    # Moves no rule proposed: listed last with no estimate of their own (value 0, loss = the best's value).
    moves += tuple(RankedMove(a, 0.0, top, (0.0,)) for a in legal if a not in played)
    return HintResult(player=player, moves=moves, depth=0, proof=Proof.HEURISTIC,
                      method=f"win-probability-rollouts:{min(counts.values())}", nodes=sum(counts.values()),
                      wall_time_s=time.monotonic() - started, interrupted=interrupted,
                      samples=min(counts[a] for a in played))


#: Everybody's play after the candidate move, in the rollouts.
ROLLOUT_POLICY = racer


def _playout(state: TourState, player: int, rng: object) -> float:
    """1 if `player` wins after everybody plays `ROLLOUT_POLICY` to the end (ties by the tie rule)."""
    for _ in range(MAX_ROLLOUT_STEPS):
        if state.game_over:
            return 1.0 if state.winner() == player else 0.0
        if state.current_player() >= 0:
            state = state.child(ROLLOUT_POLICY(state))
        else:
            state = state.child(sample_outcome(state, rng))  # type: ignore[arg-type]
    raise RuntimeError("playout did not end")


def _rank(alternatives: list[tuple[Action, tuple[float, ...]]], player: int) -> tuple[RankedMove, ...]:
    ordered = sorted(alternatives, key=lambda item: -item[1][player])
    top = ordered[0][1][player]
    return tuple(RankedMove(action, values[player], top - values[player], values) for action, values in ordered)


def _solo_hint(state: TourState, budget: Budget, started: float) -> HintResult:
    camper: Camper = state.campers[0]
    position = SoloPosition(position=camper.position, tokens=camper.tokens, phase=camper.phase,
                            marker=camper.marker, pending=camper.pending, laid=state.laid)
    solved = solve_solo(state.config, position, budget)
    alternatives = [(alt.action, (alt.value,)) for alt in solved.alternatives]
    return HintResult(
        player=0, moves=_rank(alternatives, 0), depth=0, proof=solved.proof, method=f"solo:{solved.method}",
        nodes=solved.states_evaluated, wall_time_s=time.monotonic() - started, interrupted=False,
    )
