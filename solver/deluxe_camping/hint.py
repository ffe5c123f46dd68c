"""Hints: every choice of the player to move ranked by a search over the legal moves.

A turn is two decisions (the movement, then the free barrier), so a hint is asked at either. Two searches:

- The default, the *reply search* (`Leaf.REPLY`, `reply_search`): every choice valued by the territory estimate
  (`territory`: allotted points plus the open squares each player reaches first), a movement completed with the
  mover's best free barrier among the likely ones, and the best turns, as many as the budget allows, valued
  after the next player's best reply (staying put or one of their most threatening movements, then their most
  threatening barrier, by their own margin). Why: at the bench's 0.05 CPU-s a call the deepening search below
  never reached its CP-SAT leaves (its answer was the one-turn screen in 97% of calls) and lost 0.16 to a
  one-ply territory player; the reply search wins most games against it (docs/solvers/deluxe-camping.md).
- The *deepening search* (`Leaf.SECURABLE` or `Leaf.ESTIMATE`, on request):
  1. Screen: every choice one turn deep, valued by the *estimate* of `hint_search.estimate` (allotted sites
     exact, open territory by nearest piece, discounted by the barriers it still needs). At a BARRIER decision
     every legal barrier; at a MOVE decision every movement followed by the mover's best free barrier among
     the best `BARRIER_CANDIDATES` at the stay-put position and the edges around the squares the movement
     reaches.
  2. Iterative deepening over the `DEEPEN` best screened choices: the mover's best free barrier among *all*
     legal ones after the movement, then reply plies, one more each iteration as deep as the budget allows (an
     iteration starts only when the last one's time, grown by `ITERATION_GROWTH`, fits in what is left; the
     depth is capped only by the game's end, or by `max_replies` when a caller asks): the next opponent's turn
     (in a 2-player game, from the second ply on, the mover's own turn first). A turn in a line is the player
     staying put and placing the barrier best for *their* objective by the estimate (the opponents': their
     margin over their best opponent). Each iteration values every candidate's line end (the *leaf*); an
     iteration cut short by the budget is dropped and the previous complete one ranks the candidates.
  3. Leaves: `SECURABLE`: the CP-SAT securable-score value (`leaf_model.securable_value`: the best final
     partition if the pieces stay put, for the hint's objective; a model built once per candidate and re-used
     for its leaves with the new barriers fixed, CP-SAT stopped after `LEAF_CAP_S`, the rules-scored first
     solutions as the floor), the estimate at the same leaf breaking ties. `ESTIMATE`: the estimate at the leaf.

Every value says what it is (`ValueKind`): the final score when the choice (exact) or the searched line ends
the game; the territory estimate after the next player's reply, after the mover's turn, after the movement
alone (reply search); the securable optimum or a securable partition's value with CP-SAT's bound; the estimate
at the leaf or one turn deep (deepening search); none. The securable value assumes the pieces stay put and the
opponents let the mover place every barrier left: an optimistic leaf, not a forecast. The answer is HEURISTIC
unless every choice ends the game (then EXACT).

Objective: the mover's margin over the best opponent (default; that is what wins) or the mover's own score.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass

from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.hint import HintClock, HintResultBase, RankedChoice
from campsolver.solver.core.proof import Proof
from campsolver.solver.deluxe_camping import leaf_model as leaves
from campsolver.solver.deluxe_camping import maximise as maxima
from campsolver.solver.deluxe_camping import reply_search as replies
from campsolver.solver.deluxe_camping import rules
from campsolver.solver.deluxe_camping.hint_search import edge_id, edge_ids, estimate
from campsolver.solver.deluxe_camping.rules import Action, Barrier, DCState, Edge, Move, Stage, neighbour_table

#: Free barriers tried after each movement in the one-turn pass (the best at the stay-put position), besides
#: the edges around the squares the movement reaches. The deepened choices try every legal barrier.
BARRIER_CANDIDATES = 3
#: Choices searched deeper (iterative deepening), best screened value first. Measured CPU for the screen on
#: the default board: 0.22-0.31 s for an opening movement (~3,500 leaves), ~0.05 s for a barrier (~900).
DEEPEN = 4
#: The deepest iteration by default: None, as deep as the budget allows (reply plies after the mover's turn;
#: 1: the next opponent's reply; 2: one more turn of an opponent, after the mover's own in a 2-player game).
#: Until issue 8's last step it was 2 (`max_replies=2` gives that search back).
MAX_REPLY_PLIES: int | None = None
#: An iteration starts only if the previous one's time (on the budget's clock) times this fits in what is
#: left: one more ply costs about as much as the last (the same candidates, a turn each, a leaf each; the
#: models are built in the first), so an iteration that cannot finish is not started (it would be dropped).
ITERATION_GROWTH = 1.25
#: CP-SAT's limit a securable leaf (one worker, on a re-used model). Measured on 2-player self-play positions
#: (bench/deluxe_camping.py --only leaf): below ~0.1 s CP-SAT rarely beats the first solutions, but it bounds
#: them; 20 ms keeps a leaf at "tens of ms" and 8 leaves a hint within ~0.25 s CPU.
LEAF_CAP_S = 0.02
#: Share of the budget for the screen when securable leaves follow (the iterations may use all that is left).
ESTIMATE_SHARE = 0.5
#: A securable leaf starts only when its uninterruptible work (`leaf_model.expected_cpu`: the first solutions,
#: the model's clone and hint, a build when no cached model serves it; the largest of recent leaves), at the
#: CPU share the hint has had so far (`Budget.cpu_share`; on a loaded machine a fraction of a core), plus
#: `LEAF_STOP_S` fits in what is left: the overrun stays small under load.
#: CP-SAT's stop latency and the re-scoring of its answer (wall seconds kept back after each leaf).
LEAF_STOP_S = 0.02
#: The most CPU between two budget checks (a position's legal barriers and child state, ~1-2 ms) plus the final
#: ranking: the search stops this much CPU (at the CPU share so far) before the deadline, so that on a loaded
#: machine the work after the last check still ends in time.
END_CPU_S = 0.004


class HintObjective(enum.Enum):
    MARGIN = "margin"
    OWN = "own"


class Leaf(enum.Enum):
    """Which search ranks the choices: the default reply search (`reply_search`), or the deepening search
    with its leaves valued by the estimate or by the CP-SAT securable-score model."""

    REPLY = "reply"  # every choice by the territory estimate, the best after the next player's best reply
    ESTIMATE = "estimate"  # deepening over stay-put replies, leaves by the nearest-piece estimate (hint_search)
    SECURABLE = "securable"  # the same, leaves by the CP-SAT securable-score model (maximise), estimate ties


#: The default: the reply search. Against a one-ply territory player it won 12 of 13 games where the securable
#: deepening search won about 1 in 6 (docs/solvers/deluxe-camping.md).
DEFAULT_LEAF = Leaf.REPLY


class ValueKind(enum.Enum):
    """What a ranked choice's value is (values of different kinds are different quantities)."""

    EXACT = "exact"  # the choice (with the mover's own barrier after it) ends the game: the final objective
    LINE_FINAL = "final score of the searched line"  # the game ends within the modelled replies
    SECURABLE_OPTIMAL = "securable optimum"  # CP-SAT proved the securable value at the leaf
    SECURABLE_FOUND = "securable, best found"  # a securable partition's value (<= the optimum <= `bound`)
    SEARCHED = "estimate after the replies"  # territory estimate at the end of the searched line
    SCREENED = "estimate one turn deep"  # territory estimate before the next player's reply (screen)
    SETUP = "estimate one placement deep"  # a setup placement: the territory estimate right after it
    REPLY = "territory estimate after the next player's best reply"  # the reply search's deepest value
    TURN = "territory estimate after the mover's turn"  # movement and free barrier, no reply yet
    MOVED = "territory estimate after the movement"  # before the free barrier
    NONE = "not evaluated"  # the budget ran out first


_OBJECTIVE_TO_MAX = {HintObjective.MARGIN: maxima.Objective.MARGIN, HintObjective.OWN: maxima.Objective.OWN}


def utility(scores: tuple[float, ...] | list[float], player: int, objective: HintObjective) -> float:
    if objective is HintObjective.OWN:
        return float(scores[player])
    return float(scores[player] - max(s for p, s in enumerate(scores) if p != player))


def estimate_scores(state: DCState, extra: Edge | None = None) -> list[float]:
    """The estimate of a position (optionally with one more barrier), exact once the game is over."""
    if state.stage is Stage.OVER and extra is None:
        return [float(x) for x in state.scores()]
    squares = state.config.squares
    base = state._cache.get("barrier_ids")
    if base is None:
        base = state._cache["barrier_ids"] = edge_ids(squares, state.barriers)
    barriers = base if extra is None else base | {edge_id(squares, extra)}
    supply = state.supply_left - (extra is not None)
    return estimate(state.config, state.owner_at, barriers, state.pool, state.ice_creams, state.nuisance, supply)


def evaluate(state: DCState, player: int, objective: HintObjective) -> float:
    """The estimate of a position for `player` (exact scores once the game is over)."""
    return utility(estimate_scores(state), player, objective)


def territory_scores(state: DCState) -> tuple[int, ...]:
    """Per-player points of the nearest-piece partition of the whole board with an unlimited supply (the
    estimate without the discount); equal to the scores on a finished board."""
    values = estimate(
        state.config,
        state.owner_at,
        edge_ids(state.config.squares, state.barriers),
        state.pool,
        state.ice_creams,
        state.nuisance,
        len(rules.all_edges(state.config.rows, state.config.cols)),
    )
    return tuple(round(v) for v in values)


@dataclass(kw_only=True)
class RankedMove(RankedChoice[Action]):
    """One legal choice (`choice`: the action) and its value (None: not evaluated before the budget ran out);
    `exact`: the value is a final score (the choice ends the game); `note`: what the value is (`value_note`);
    `loss`: against the best choice, within the best choice's comparison group only (`comparison_group`)."""

    depth: int = 0  # 1: one turn deep; 1 + n: with n reply plies; 0: not evaluated
    kind: ValueKind = ValueKind.NONE
    bound: float | None = None  # SECURABLE_FOUND: CP-SAT's upper bound of the securable value
    estimate: float | None = None  # the territory estimate (after the reply when searched)
    line: tuple[Action, ...] = ()  # the actions from the position to the leaf valued (searched or securable)
    replies: int = 0  # reply plies searched after the mover's turn
    rule_of_thumb: bool = False  # nothing was valued in time: this is `rule_of_thumb`'s choice, put first


@dataclass(kw_only=True)
class HintResult(HintResultBase[RankedMove]):
    """Every legal choice, best first (unevaluated last), and the search's figures."""

    nodes: int = 0
    depth: int = 1  # the deepest level any choice reached
    leaf: Leaf = Leaf.ESTIMATE
    leaves_solved: int = 0  # securable leaves valued by CP-SAT (cache hits included)
    leaves_proven: int = 0  # of those, proven optimal
    reply_plies: int = 0  # the deepest complete iteration (reply plies after the mover's turn)
    leaves_reused: int = 0  # securable leaves served by a cached model (no build)
    leaf_cpu_s: float = 0.0  # CPU seconds in securable leaves


@dataclass(frozen=True)
class HintOptions:
    """The hint's knobs. `objective`: the mover's margin (default) or own score; `leaf`: which search (default
    `DEFAULT_LEAF`, the reply search); `max_replies`: the deepest iteration (reply plies; default
    `MAX_REPLY_PLIES`: as deep as the budget allows; 0 in the reply search: no reply modelled); `leaf_cap_s`:
    CP-SAT's limit a securable leaf (default `LEAF_CAP_S`)."""

    objective: HintObjective = HintObjective.MARGIN
    leaf: Leaf | None = None
    max_replies: int | None = None
    leaf_cap_s: float | None = None


REPLY_METHOD = "territory estimate of every choice, the best after the next player's best reply"
SETUP_METHOD = "territory estimate one placement deep (setup)"


def deepening_method(leaf: Leaf) -> str:
    """The deepening search's method (estimate or securable leaves)."""
    return "territory search with iterative deepening over the opponents' replies" + (
        ", CP-SAT securable-score leaves" if leaf is Leaf.SECURABLE else ", estimate leaves"
    )


class _Search:
    """One hint: the mover, the objective, the node count and the budget."""

    def __init__(self, state: DCState, budget: Budget, objective: HintObjective) -> None:
        self.state = state
        self.budget = budget  # the current phase's
        self.whole = budget  # the hint's
        self.objective = objective
        self.me = state.to_move
        self.nodes = 0

    def check(self) -> None:
        """Raise `SolveInterrupted` when the phase must stop, or when what is left of the whole budget is no
        more than `END_CPU_S` at the CPU share so far (the work after the last check must end in time)."""
        self.budget.check()
        if self.whole.remaining() * self.whole.cpu_share() < END_CPU_S:
            raise SolveInterrupted("deadline (end reserve)")

    def value(
        self,
        state: DCState,
        extra: Edge | None = None,
        player: int | None = None,
        objective: HintObjective | None = None,
    ) -> float:
        self.nodes += 1
        return utility(
            estimate_scores(state, extra), self.me if player is None else player, objective or self.objective
        )

    def best_barrier(
        self, state: DCState, edges: list[Edge], player: int, objective: HintObjective
    ) -> tuple[float, Edge | None]:
        """The best of `edges` for `player` at a BARRIER decision (value for that player and objective); under
        the optional-free-barrier variant leaving it out (`None`) is one of the choices."""
        best: tuple[float, Edge | None] = (float("-inf"), None)
        options: list[Edge | None] = [*edges, None] if state.config.optional_free_barrier else list(edges)
        for edge in options:
            self.check()
            v = self.value(state, edge, player, objective)
            if v > best[0]:
                best = (v, edge)
        return best


def hint(state: DCState, budget: Budget, *, options: HintOptions = HintOptions()) -> HintResult:
    """Rank every legal choice of the player to move (see the module docstring; the knobs in `HintOptions`)."""
    if state.stage not in (Stage.MOVE, Stage.BARRIER):
        raise ValueError(f"no hint at stage {state.stage.value}: hints are for the turns (move, barrier)")
    leaf = DEFAULT_LEAF if options.leaf is None else options.leaf
    if leaf is Leaf.REPLY:
        return _reply_hint(state, budget, options.objective, options.max_replies)
    max_replies = MAX_REPLY_PLIES if options.max_replies is None else options.max_replies
    cap = LEAF_CAP_S if options.leaf_cap_s is None else options.leaf_cap_s
    clock = HintClock()
    search = _Search(state, budget, options.objective)
    actions = state.legal_actions()
    shallow: dict[int, float] = {}
    exact: set[int] = set()
    interrupted = _screen(search, actions, leaf, shallow, exact)
    search.budget = budget
    order = sorted(shallow, key=lambda i: (-shallow[i], i))[:DEEPEN]
    deepening = _Deepening(search, actions, order, leaf, cap)
    interrupted = deepening.run(max_replies) or interrupted
    chosen, plies_used = deepening.chosen()
    for i, valued in chosen.items():
        if valued.exact:
            exact.add(i)
        else:
            exact.discard(i)
    moves = [_ranked(i, actions[i], shallow, chosen, exact, plies_used) for i in range(len(actions))]
    moves.sort(key=lambda m_i: (*_rank_key(m_i[0], leaf), m_i[1]))
    if all(m.value is None for m, _ in moves):
        # Nothing valued in time: the rule of thumb's choice leads, flagged, so the answer is still a choice.
        thumb = rule_of_thumb(state)
        moves.sort(key=lambda m_i: m_i[0].choice != thumb)
        moves[0][0].rule_of_thumb = True
    stats = deepening.stats
    return _finished(
        HintResult(
            choices=[m for m, _ in moves],
            proof=Proof.EXACT if len(exact) == len(actions) else Proof.HEURISTIC,
            method=deepening_method(leaf),
            interrupted=interrupted,
            nodes=search.nodes,
            depth=1 + plies_used,
            leaf=leaf,
            leaves_solved=stats.solved,
            leaves_proven=stats.proven,
            reply_plies=plies_used,
            leaves_reused=stats.reused,
            leaf_cpu_s=stats.cpu_s,
        ),
        clock,
    )


def _screen(search: _Search, actions: list[Action], leaf: Leaf, shallow: dict[int, float], exact: set[int]) -> bool:
    """The deepening search's screen: every choice one turn deep into `shallow` (`exact`: those that end the
    game); True when the budget cut it. With securable leaves the screen gets a share of the budget, so the
    leaves are not starved."""
    state, budget = search.state, search.whole
    search.budget = budget if leaf is Leaf.ESTIMATE else budget.sub_budget(ESTIMATE_SHARE)
    try:
        if state.stage is Stage.BARRIER:
            for i, action in enumerate(actions):
                search.check()
                assert isinstance(action, Barrier)
                shallow[i] = search.value(state, action.edge)
        else:
            _rank_movements(search, actions, shallow, exact)
        budget.report(depth=1, samples=search.nodes, best=max(shallow.values(), default=None))
    except SolveInterrupted:
        # Answer with what was valued (possibly nothing: every choice unevaluated). The screen's share may be
        # spent with budget left: the best screened choices are still searched deeper.
        return True
    return False


class _Deepening:
    """Iterative deepening over the best screened choices: one more reply ply each iteration."""

    def __init__(self, search: _Search, actions: list[Action], order: list[int], leaf: Leaf, cap: float) -> None:
        self.search, self.actions, self.order, self.leaf, self.cap = search, actions, order, leaf, cap
        self.lines: dict[int, _Line] = {}
        self.iterations: list[dict[int, _Valued]] = []  # per reply depth (1, 2, ...): the candidates valued there
        self.complete = 0  # the deepest iteration that valued every candidate
        self.stats = _LeafStats()

    def run(self, max_replies: int | None) -> bool:
        """Deepen while the budget allows (and up to `max_replies`); True when the budget ended the search."""
        search, order, lines = self.search, self.order, self.lines
        budget = search.whole
        try:
            for i in order:
                lines[i] = _start_line(search, self.actions[i])
            plies, last_cost = 0, 0.0
            while order and (max_replies is None or plies < max_replies):
                if plies and last_cost * ITERATION_GROWTH > budget.remaining():
                    # The next iteration would not finish (its values would be dropped): the budget ends the
                    # search here, so the answer depends on it (`interrupted`), though nothing was cut.
                    return True
                plies += 1
                iteration_started = budget.elapsed()
                valued: dict[int, _Valued] = {}
                self.iterations.append(valued)
                for i in order:
                    line = lines[i]
                    if not line.over:
                        _extend(search, line)
                    valued[i] = _value_line(search, line, self.leaf, self.cap, self.stats)
                self.complete = plies
                last_cost = budget.elapsed() - iteration_started
                best = max(valued.values(), key=lambda v: v.value)
                budget.report(
                    depth=1 + plies,
                    samples=search.nodes,
                    best=best.value,
                    bound=best.bound if best.bound is not None else None,
                )
                if all(lines[i].over for i in order):
                    break  # every searched line ended the game: deeper plies change nothing
        except (SolveInterrupted, _OutOfTime):
            return True
        return False

    def chosen(self) -> tuple[dict[int, _Valued], int]:
        """The best answer so far and its reply plies: the deepest complete iteration; if not even the first
        completed, what it valued."""
        complete, iterations = self.complete, self.iterations
        chosen = iterations[complete - 1] if complete else (iterations[0] if iterations else {})
        return chosen, complete if complete else (1 if chosen else 0)


def _finished(result: HintResult, clock: HintClock) -> HintResult:
    """The shared fields every answer fills the same way: each choice's note and loss (within the best choice's
    comparison group, where values are one quantity), the time taken."""
    top_group = next((comparison_group(m, result.leaf) for m in result.choices if m.value is not None), None)
    best = next((m.value for m in result.choices if m.value is not None), None)
    for move in result.choices:
        move.note = value_note(move)
        if move.value is not None and best is not None and comparison_group(move, result.leaf) == top_group:
            move.loss = max(best - move.value, 0.0) + 0.0
    result.wall_time_s, result.cpu_time_s = clock.wall(), clock.cpu()
    return result


def _reply_hint(state: DCState, budget: Budget, objective: HintObjective, max_replies: int | None) -> HintResult:
    """The reply search (`reply_search`): every choice valued within the budget, the answer in the hint's
    shape (each value's kind: exact, final score of the reply line, after the reply, after the turn, after the
    movement, none)."""
    clock = HintClock()
    checker = _Search(state, budget, objective)
    try:
        checker.check()
    except SolveInterrupted:
        # No time at all (the service's rule-of-thumb answer under load): no board, no search, every choice listed.
        return rule_of_thumb_result(state, Leaf.REPLY, clock)
    search = replies.Search(
        state, checker.check, own=objective is HintObjective.OWN, replies=max_replies is None or max_replies > 0
    )
    interrupted = False
    try:
        search.run()
        budget.report(depth=2 if search.replies else 1, samples=search.evaluations)
    except SolveInterrupted:
        interrupted = True
    moves = [_reply_ranked(choice) for choice in search.choices]
    if all(m.value is None for m in moves):
        return rule_of_thumb_result(state, Leaf.REPLY, clock, nodes=search.evaluations)
    order = sorted(range(len(moves)), key=lambda i: (*_rank_key(moves[i], Leaf.REPLY), i))
    moves = [moves[i] for i in order]
    every_exact = all(m.exact for m in moves)
    replied = any(m.kind in _REPLY_KINDS and m.replies for m in moves)
    return _finished(
        HintResult(
            choices=moves,
            proof=Proof.EXACT if every_exact else Proof.HEURISTIC,
            method=REPLY_METHOD,
            interrupted=interrupted,
            nodes=search.evaluations,
            depth=max((m.depth for m in moves), default=0),
            leaf=Leaf.REPLY,
            reply_plies=1 if replied else 0,
        ),
        clock,
    )


#: The reply search's kinds that rank together (best first): each an estimate of the final objective after the
#: next player's reply, or that objective itself where the line ends the game.
_REPLY_KINDS = frozenset({ValueKind.EXACT, ValueKind.LINE_FINAL, ValueKind.REPLY})
_REPLY_GROUP = {
    ValueKind.EXACT: 0,
    ValueKind.LINE_FINAL: 0,
    ValueKind.REPLY: 0,
    ValueKind.TURN: 1,
    ValueKind.MOVED: 2,
    ValueKind.NONE: 3,
}


def _reply_ranked(choice: replies.Choice) -> RankedMove:
    """A reply-search choice as a ranked move: its deepest value and that value's kind."""
    group = choice.group
    line = (choice.action, *choice.line)
    if group is replies.Group.REPLY:
        if choice.turn_final:
            exact = choice.turn_exhaustive
            kind = ValueKind.EXACT if exact else ValueKind.LINE_FINAL
            return RankedMove(
                choice=choice.action,
                value=choice.reply,
                depth=1,
                exact=exact,
                kind=kind,
                estimate=choice.turn,
                line=line,
            )
        kind = ValueKind.LINE_FINAL if choice.reply_final else ValueKind.REPLY
        return RankedMove(
            choice=choice.action, value=choice.reply, depth=2, kind=kind, estimate=choice.turn, line=line, replies=1
        )
    if group is replies.Group.TURN:
        exact = choice.turn_final and choice.turn_exhaustive
        kind = ValueKind.EXACT if exact else ValueKind.LINE_FINAL if choice.turn_final else ValueKind.TURN
        return RankedMove(
            choice=choice.action, value=choice.turn, depth=1, exact=exact, kind=kind, estimate=choice.turn, line=line
        )
    if group is replies.Group.SCREEN:
        return RankedMove(
            choice=choice.action, value=choice.screen, depth=1, kind=ValueKind.MOVED, estimate=choice.screen
        )
    return RankedMove(choice=choice.action)


def rule_of_thumb_result(state: DCState, leaf: Leaf, clock: HintClock, nodes: int = 0) -> HintResult:
    """The answer when nothing was valued in time: every legal choice unevaluated, in the rules' order, the rule
    of thumb's choice first and flagged (`rule_of_thumb`). Nothing is computed per choice, so the answer costs
    little more than listing the legal choices."""
    actions = state.legal_actions()
    thumb = rule_of_thumb(state)
    first = actions.index(thumb)
    moves = [RankedMove(choice=thumb, rule_of_thumb=True)]
    moves.extend(RankedMove(choice=action) for i, action in enumerate(actions) if i != first)
    method = REPLY_METHOD if leaf is Leaf.REPLY else deepening_method(leaf)
    return _finished(
        HintResult(
            choices=moves, proof=Proof.HEURISTIC, method=method, interrupted=True, nodes=nodes, depth=0, leaf=leaf
        ),
        clock,
    )


def rule_of_thumb(state: DCState) -> Action:
    """The choice made without any evaluation when the budget ends before the first one: at a movement, stay
    put (every piece keeps what it holds; the free barrier follows); at a barrier, the first legal one."""
    stay = Move(())
    if state.stage is Stage.MOVE and stay in state.legal_actions():
        return stay
    return state.legal_actions()[0]


#: The setup stages: placements before the reveal (`setup_hint` ranks them).
SETUP_STAGES = frozenset({Stage.POOL, Stage.MYSTERY, Stage.BUNGALOW, Stage.TRAILER})


def setup_value(after: DCState, player: int, objective: HintObjective) -> float:
    """The territory estimate of a setup position for `player`: the pieces placed so far claim their nearest
    squares; once the reveal is next, its exact expectation (each mystery token the pain-in-the-neck with
    probability 1/3, through the rules model's reveal and automatic barriers)."""
    if after.current_player() == rules.CHANCE:
        return sum(
            float(p) * evaluate(after.child(outcome), player, objective) for outcome, p in after.chance_outcomes()
        )
    return evaluate(after, player, objective)


def setup_hint(state: DCState, budget: Budget, *, options: HintOptions = HintOptions()) -> HintResult:
    """Rank every setup placement (pool, mystery token, bungalow, trailer) one placement deep by
    `setup_value`: a heuristic (no reply is modelled), best first; the choices the budget left unvalued last,
    the first legal one first when nothing was valued. Of the options only `objective` applies."""
    if state.stage not in SETUP_STAGES:
        raise ValueError(f"no setup hint at stage {state.stage.value}")
    clock = HintClock()
    objective = options.objective
    player = state.to_move
    actions = state.legal_actions()
    valued: list[RankedMove] = []
    interrupted = False
    for action in actions:
        if budget.expired():
            interrupted = True
            break
        value = setup_value(state.child(action), player, objective)
        valued.append(RankedMove(choice=action, value=value, depth=1, kind=ValueKind.SETUP, estimate=value))
    valued.sort(key=lambda m: -m.value)  # type: ignore[operator]
    rest = [RankedMove(choice=a) for a in actions[len(valued) :]]
    if not valued and rest:
        rest[0].rule_of_thumb = True
    return _finished(
        HintResult(
            choices=valued + rest,
            proof=Proof.HEURISTIC,
            method=SETUP_METHOD,
            interrupted=interrupted,
            nodes=len(valued),
        ),
        clock,
    )


def value_note(move: RankedMove) -> str:
    """What a ranked choice's value is (every value says its kind)."""
    kind = move.kind
    if kind is ValueKind.NONE:
        if move.rule_of_thumb:
            return (
                "rule of thumb (stay put at a movement, the first legal barrier at a barrier): the budget ran "
                "out before any choice was evaluated"
            )
        return "not evaluated: the budget ran out"
    replies = f"after {move.replies} reply ply(ies)"
    if kind is ValueKind.EXACT:
        return "exact final value: this choice (with the mover's own barrier) ends the game"
    if kind is ValueKind.LINE_FINAL:
        return (
            f"final score of the searched line: the game ends {replies} (each player staying put and "
            "placing the barrier best for them by the territory estimate), not a proof"
        )
    if kind is ValueKind.SECURABLE_OPTIMAL:
        return f"securable optimum {replies} (CP-SAT proven; pieces stay put)"
    if kind is ValueKind.SECURABLE_FOUND:
        bound = "unknown" if move.bound is None or move.bound == float("inf") else f"{move.bound:g}"
        return (
            f"securable {replies}: best partition found, not proven (CP-SAT bound {bound}; pieces stay "
            "put); ties broken by the territory estimate at the same leaf"
        )
    if kind is ValueKind.SEARCHED:
        return f"territory estimate {replies} (searched)"
    if kind is ValueKind.REPLY:
        return (
            "territory estimate after the next player's best reply (allotted points plus the open squares "
            "each player reaches first, late in the game scaled by the share of its frontier the player's "
            "share of the supply can close; the reply modelled: staying put or a threatening movement, then a "
            "threatening barrier)"
        )
    if kind is ValueKind.TURN:
        return (
            "territory estimate after the mover's turn (with the free barrier shown in the line), before any "
            "reply; not comparable with the values after a reply"
        )
    if kind is ValueKind.MOVED:
        return (
            "territory estimate after the movement alone, before the free barrier; not comparable with the "
            "values after a whole turn"
        )
    if kind is ValueKind.SETUP:
        return (
            "setup placement: the mover's territory estimate right after it, one placement deep (a rule of "
            "thumb for the setup, not a search)"
        )
    return (
        "screened one turn deep: territory estimate before the next player's reply, not comparable with "
        "the searched choices' values"
    )


class _OutOfTime(Exception):
    """Too little budget left to value a securable leaf (the iteration stops there)."""


@dataclass
class _Line:
    """A candidate's searched line: the position reached, the actions after the candidate, reply plies."""

    state: DCState
    actions: tuple[Action, ...]
    base: DCState  # the candidate's position before any barrier (its securable model is built there)
    plies: int = 0

    @property
    def over(self) -> bool:
        return self.state.stage is Stage.OVER


@dataclass
class _Valued:
    """A candidate valued at the end of its line in one iteration."""

    value: float
    kind: ValueKind
    estimate: float
    line: tuple[Action, ...]
    exact: bool = False
    bound: float | None = None


@dataclass
class _LeafStats:
    solved: int = 0
    proven: int = 0
    reused: int = 0
    cpu_s: float = 0.0


def _start_line(search: _Search, action: Action) -> _Line:
    """The candidate, then (after a movement) the mover's best free barrier among every legal one."""
    base = search.state.child(action) if isinstance(action, Move) else search.state
    state = search.state.child(action)
    line: tuple[Action, ...] = ()
    if state.stage is Stage.BARRIER and state.to_move == search.me:
        _, edge = search.best_barrier(state, state.legal_barriers(), search.me, search.objective)
        if edge is not None or state.config.optional_free_barrier:
            state = state.child(Barrier(edge))
            line = (Barrier(edge),)
    return _Line(state=state, actions=line, base=base)


def _extend(search: _Search, line: _Line) -> None:
    """One more reply ply: turns are played until an opponent has played one (in a 2-player game the mover's
    own turn comes first from the second ply on). Each turn: stay put, then the barrier best by the estimate
    for that player's objective (the opponents': their margin over their best opponent; the mover's: the
    hint's)."""
    while line.state.stage is not Stage.OVER:
        player = line.state.to_move
        objective = search.objective if player == search.me else HintObjective.MARGIN
        state = line.state
        played: tuple[Action, ...] = ()
        if state.stage is Stage.MOVE:
            state = state.child(Move(()))
            played = (Move(()),)
        if state.stage is Stage.BARRIER and state.to_move == player:
            _, edge = search.best_barrier(state, state.legal_barriers(), player, objective)
            if edge is not None or state.config.optional_free_barrier:
                state = state.child(Barrier(edge))
                played = (*played, Barrier(edge))
        if not played:
            break  # nothing to play (cannot happen at a turn; guards the loop)
        line.state, line.actions = state, line.actions + played
        if player != search.me:
            break
    line.plies += 1


def _value_line(search: _Search, line: _Line, leaf: Leaf, cap: float, stats: _LeafStats) -> _Valued:
    """The candidate's value at the end of its line: exact when the game is over, else the estimate, or with
    securable leaves the CP-SAT securable value (at most `cap` of CP-SAT; the estimate kept for ties)."""
    if line.over:
        final = utility([float(x) for x in line.state.scores()], search.me, search.objective)
        search.nodes += 1
        if line.plies:  # the end relies on the modelled replies (stay put, the estimate's best barrier)
            return _Valued(final, ValueKind.LINE_FINAL, final, line.actions)
        return _Valued(final, ValueKind.EXACT, final, line.actions, exact=True)
    estimate_value = search.value(line.state)
    if leaf is Leaf.ESTIMATE:
        return _Valued(estimate_value, ValueKind.SEARCHED, estimate_value, line.actions)
    budget = search.budget
    objective = _OBJECTIVE_TO_MAX[search.objective]
    fixed_wall = leaves.expected_cpu(line.state, search.me, objective) / search.whole.cpu_share()
    remaining = budget.remaining() - LEAF_STOP_S
    if remaining < fixed_wall:
        raise _OutOfTime
    cpu = time.process_time()
    secured = leaves.securable_value(
        line.state, search.me, objective, budget.limited(min(cap, remaining)), base=line.base
    )
    stats.cpu_s += time.process_time() - cpu
    if secured is None:
        return _Valued(estimate_value, ValueKind.SEARCHED, estimate_value, line.actions)
    stats.solved += 1
    stats.proven += secured.proven
    stats.reused += secured.reused
    kind = ValueKind.SECURABLE_OPTIMAL if secured.proven else ValueKind.SECURABLE_FOUND
    return _Valued(float(secured.value), kind, estimate_value, line.actions, bound=secured.bound)


#: Ranking groups, best first. With securable leaves, the choices valued by the securable model (or exactly)
#: come first; the estimate-only groups follow as in the estimate search.
_GROUP = {
    ValueKind.EXACT: 0,
    ValueKind.LINE_FINAL: 0,
    ValueKind.SECURABLE_OPTIMAL: 0,
    ValueKind.SECURABLE_FOUND: 0,
    ValueKind.SEARCHED: 1,
    ValueKind.SCREENED: 2,
    ValueKind.NONE: 3,
}


def _ranked(
    i: int,
    action: Action,
    shallow: dict[int, float],
    chosen: dict[int, _Valued],
    exact: set[int],
    plies: int,
) -> tuple[RankedMove, int]:
    """One choice with its value and the kind of that value."""
    if i in chosen:
        v = chosen[i]
        return RankedMove(
            choice=action,
            value=v.value,
            depth=1 + plies,
            exact=v.exact,
            kind=v.kind,
            bound=v.bound,
            estimate=v.estimate,
            line=(action, *v.line),
            replies=plies,
        ), i
    if i in shallow:
        kind = ValueKind.EXACT if i in exact else ValueKind.SCREENED
        return RankedMove(choice=action, value=shallow[i], depth=1, exact=i in exact, kind=kind, estimate=shallow[i]), i
    return RankedMove(choice=action), i


def comparison_group(move: RankedMove, leaf: Leaf) -> int:
    """Choices whose values are one quantity (ranked together, best first; groups in order): in the reply
    search, by value kind (after the reply or final, after the turn, after the movement, unevaluated); with
    estimate leaves, by search depth (searched, screened, unevaluated); with securable leaves, by value kind
    (securable or exact, searched, screened, unevaluated)."""
    if leaf is Leaf.REPLY:
        return _REPLY_GROUP[move.kind]
    if leaf is Leaf.ESTIMATE:
        return 3 if move.value is None else 0 if move.depth >= 2 else 1
    return _GROUP[move.kind]


def _rank_key(move: RankedMove, leaf: Leaf) -> tuple:
    """Group first, then best value first (with securable leaves the estimate at the leaf breaks ties), then
    the shorter line (an outcome reached now is sure; a later one relies on the modelled replies)."""
    tie = 0.0 if leaf is Leaf.ESTIMATE else -(move.estimate or 0.0)
    return (comparison_group(move, leaf), -(move.value or 0.0), tie, len(move.line))


def _rank_movements(search: _Search, actions: list[Action], values: dict[int, float], exact: set[int]) -> None:
    """One turn deep for every movement: the movement, then the best screened free barrier."""
    state, me = search.state, search.me
    candidates = _barrier_candidates(search)
    table = neighbour_table(state.config.rows, state.config.cols)
    for i, action in enumerate(actions):
        search.check()
        after = state.child(action)
        if after.stage is Stage.BARRIER and after.to_move == me:
            legal = set(after.legal_barriers())
            assert isinstance(action, Move)
            reached = {b for _, b in action.steps} - {a for a, _ in action.steps}
            near = [rules.edge_of(s, t) for s in reached for t in table[s]]
            tried = list(dict.fromkeys(e for e in [*candidates, *near] if e in legal))
            if not tried:
                tried = after.legal_barriers()[:BARRIER_CANDIDATES]
            values[i], _ = search.best_barrier(after, tried, me, search.objective)
        else:
            values[i] = search.value(after)
            if after.stage is Stage.OVER:
                exact.add(i)


def _barrier_candidates(search: _Search) -> list[Edge]:
    """The free barriers that are best if the mover stays put (a cheap screen for every movement); with at
    most a third of the budget, the best of those seen when it ends."""
    state, me = search.state, search.me
    stay = state.child(Move(()))
    if stay.stage is not Stage.BARRIER or stay.to_move != me:
        return []
    screen = search.budget.limited(search.budget.remaining() / 3)
    scored = []
    for edge in stay.legal_barriers():
        if screen.expired():
            break
        scored.append((search.value(stay, edge), edge))
    scored.sort(key=lambda pair: (-pair[0], pair[1]))
    return [edge for _, edge in scored[:BARRIER_CANDIDATES]]


__all__ = [
    "BARRIER_CANDIDATES",
    "DEEPEN",
    "ITERATION_GROWTH",
    "LEAF_CAP_S",
    "MAX_REPLY_PLIES",
    "HintObjective",
    "HintOptions",
    "HintResult",
    "Leaf",
    "RankedMove",
    "ValueKind",
    "comparison_group",
    "estimate_scores",
    "evaluate",
    "hint",
    "rule_of_thumb",
    "setup_hint",
    "territory_scores",
    "utility",
    "value_note",
]
