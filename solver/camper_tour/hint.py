"""Hints for a multi-camper Camper Tour position: every choice of the camper to move, ranked.

Two objectives (`Objective`; `default_objective`: WIN_PROBABILITY with 2-4 campers, EXPECTED_SCORE solo).

WIN_PROBABILITY (`_win_hint`): Monte Carlo playouts of the whole race after each candidate move, the mover
continuing with the `race` rule of thumb and the opponents with a mixture of plausible players (solo-policy
campers only where the field is slow or the game's record shows them: `opponent_models`); see
`_win_hint` for the estimate, its standard error and the sequential stopping. Where the record shows two or
more other campers all playing the solo policy (`opponents.solo_field`), the exact best response to them
(`best_response`) ranks every move instead, where its model applies.

EXPECTED_SCORE: the mover's expected final score (`Camper.score`: marker - |tokens| at arrival; 0 for an
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
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from campsolver.solver.camper_tour import best_response
from campsolver.solver.camper_tour.opponents import Decision, check_record, solo_field
from campsolver.solver.camper_tour.players import Player, announce_seven, greedy, race, slow_field, solo_optimal
from campsolver.solver.camper_tour.rules import (
    DIE_FACES,
    Action,
    Announce,
    Camper,
    CamperTourState,
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
from campsolver.solver.core.hint import HintClock, HintResultBase, RankedChoice
from campsolver.solver.core.proof import Proof

#: Deepest iterative-deepening level tried (decision plies).
MAX_DEPTH = 12
#: A deeper search takes at least this many times the previous depth's time (measured growth is 3-20x).
DEPTH_GROWTH = 3.0


@dataclass(kw_only=True)
class RankedMove(RankedChoice[Action]):
    """One legal choice (`choice`, also `action`) on the shared `RankedChoice`: its value for the mover, its loss
    against the best, every camper's value.

    `samples`: playouts behind `value` (win-probability hints; 0 for search values). `standard_error`: of `value`,
    its sampling error when it is a playout mean (from MIN_SAMPLES playouts on), 0.0 when it is exact (`exact` set),
    None when it is neither (a depth-limited search, a model): `value_kind` then says what it is. `note`: why an
    unevaluated move has no value, when it is something else than "not compared".
    """

    values: tuple[float, ...] = ()
    #: What `value` is: "exact", "playouts" (a win rate over `samples` playouts), "search" (a depth-limited
    #: expectimax with solo values at its leaves), "model" (the best-response model), "look-ahead" (the solo
    #: policy's one-step look-ahead), "" for a move without a value.
    value_kind: str = ""
    #: False for a move the win-probability hint did not compare (outside its candidates, or cut by the time
    #: limit before its first playout), or whose estimate is above the answered move's without being clearly
    #: better (`note` says so): `value` is then not shown, so that the ranks shown follow the values shown.
    evaluated: bool = True

    @property
    def action(self) -> Action:
        """The move (the shared `choice`)."""
        return self.choice


def _move(action: Action, value: float, loss: float, values: tuple[float, ...], **known: object) -> RankedMove:
    """A ranked move (`exact` when its value is proven)."""
    return RankedMove(
        choice=action, value=value, loss=loss, values=values, exact=known.get("value_kind") == "exact", **known
    )


@dataclass(kw_only=True)
class HintResult(HintResultBase[RankedMove]):
    """Ranked moves (best first: `choices`, also `moves`), the depth they come from, and how much they are worth.

    proof is EXACT only when the search reached the end of the game everywhere (or the solo solver was
    exact); otherwise HEURISTIC. depth is the number of decision plies of the completed search (0 for a
    solo answer). interrupted: the next depth was cut by the budget. notes: what the values are, in words, when the
    method alone does not say (a solo answer that is not exact: the look-ahead values beside the policy's own
    sampled value, with its games and standard error; also `note`).
    """

    player: int
    depth: int = 0
    nodes: int = 0
    samples: int = 0  # playouts of the answered move (win-probability hints)
    #: Win-probability hints: whom the values are measured against, in words (`opponents_played`).
    opponents: str = ""
    #: The answer is a rule of thumb's move because the budget ended before anything better was known
    #: (`RULE_OF_THUMB_METHOD`); the text says which rule and why.
    fallback: str = ""

    @property
    def moves(self) -> tuple[RankedMove, ...]:
        """The ranked moves (the shared `choices`)."""
        return tuple(self.choices)

    @property
    def note(self) -> str:
        """The notes in one text ("" without any)."""
        return "; ".join(self.notes)


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


#: Paired standard errors by which a candidate must beat the baseline (`race`) move to replace it.
SWITCH_Z = 2.0
#: Paired standard errors below the baseline at which a candidate stops being sampled (sequential stopping).
DROP_Z = 1.0
#: Playouts a move needs for a value (shown with its standard error, the service's MIN_SAMPLES_FOR_STANDARD_ERROR),
#: and rounds before a candidate may be dropped (so a dropped candidate keeps its value).
MIN_SAMPLES = 10
MIN_DROP_ROUNDS = MIN_SAMPLES
#: Pairs before a candidate may replace the baseline.
MIN_ROUNDS = 8
#: Playouts per candidate move at most (the budget usually stops it first).
MAX_PLAYOUTS = 2_000
MAX_ROLLOUT_STEPS = 20_000


def default_objective(state: TourState) -> Objective:
    """WIN_PROBABILITY with 2-4 campers (what a player at the table wants); solo, where winning means
    nothing beyond the score, EXPECTED_SCORE. The service uses the same default."""
    return Objective.WIN_PROBABILITY if len(state.campers) >= 2 else Objective.EXPECTED_SCORE


@dataclass(frozen=True)
class HintOptions:
    """The hint's knobs. `max_depth`: the deepest search (decision plies); `objective`: None means
    `default_objective(state)`; `seed`: the playouts' dice; `max_playouts`: caps the win-probability playouts per
    move (with a budget that does not run out, the answer is then a function of (state, seed) alone); `history`: the
    game's record so far (any earlier decisions, oldest first; `opponents.Decision`), from which the win-probability
    hint reads the opponents' style (`opponent_models`); `record_checked`: the caller has already checked it."""

    max_depth: int = MAX_DEPTH
    objective: Objective | None = None
    seed: int = 0
    max_playouts: int = MAX_PLAYOUTS
    history: Sequence[Decision] = field(default_factory=tuple)
    record_checked: bool = False


def hint(state: CamperTourState, budget: Budget, *, options: HintOptions = HintOptions()) -> HintResult:
    """Rank every legal choice of the camper to move (state must be a decision node) with `options`' knobs
    (`HintOptions`). ValueError if a decision in `options.history` is not a legal move of a game like this one.

    Whatever the budget, the answer comes before it ends: the rule of thumb's move is known from the start,
    and a budget that ends before anything better is known answers with it (`HintResult.fallback` says so);
    only a cancel raises `SolveInterrupted`.
    """
    clock = HintClock()
    validate(state)
    history = options.history
    if not options.record_checked:
        check_record(history, state)
    if state.stage != Stage.DECIDE:
        raise ValueError("hints are asked at the start of a decision")
    player = state.to_move
    if len(state.campers) == 1:
        return _solo_hint(state, budget, clock)
    if (options.objective or default_objective(state)) == Objective.WIN_PROBABILITY:
        try:
            by_record = solo_field(state, history, budget)  # read once: it replays the solo policy on the record
        except SolveInterrupted:
            if budget.cancelled:
                raise
            return rule_of_thumb_hint(state, clock, race, "the time limit ended while the game's record was read")
        if by_record and best_response.applies(state) and _tables_fit(state, budget):
            try:
                answer = _best_response_hint(state, budget, clock)
                if answer is not None and answer.best.value >= best_response.MIN_WIN:
                    return answer
                # the model sees no way to win by arriving first: the playouts (second places, the last-camper
                # rule) decide
            except SolveInterrupted:
                if budget.cancelled:
                    raise
                # out of time (a loaded machine): the playouts answer with what is left
        return _win_hint(state, budget, clock, options.seed, options.max_playouts, _opponents(state, by_record))
    best: tuple[list[tuple[Action, tuple[float, ...]]], int, bool, int] | None = None
    interrupted = False
    nodes = 0
    last_depth_s = 0.0
    for depth in range(1, options.max_depth + 1):
        # Deepen only if the next depth can finish: it costs at least DEPTH_GROWTH times the last one, and a
        # search cut by the deadline is wasted time the client waits for.
        if best is not None and budget.remaining() < DEPTH_GROWTH * last_depth_s:
            interrupted = True
            break
        depth_started = budget.elapsed()  # on the budget's own clock (CPU seconds for a CpuBudget)
        try:
            alternatives, stats = search(state, depth, budget)
        except SolveInterrupted:
            if best is None:
                if budget.cancelled:
                    raise
                return rule_of_thumb_hint(
                    state, clock, solo_optimal, "the time limit ended before a depth-1 search finished"
                )
            interrupted = True
            break
        last_depth_s = budget.elapsed() - depth_started
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
        choices=_rank(alternatives, player, exact=exact, kind="search"),
        depth=depth,
        proof=Proof.EXACT if exact else Proof.HEURISTIC,
        method="expectimax-iterative-deepening",
        nodes=nodes,
        wall_time_s=clock.wall(),
        cpu_time_s=clock.cpu(),
        interrupted=interrupted,
    )


#: Opponents' play in the playouts, one model per playout in turn (the i-th playout of every candidate move
#: uses the same model and the same seeded dice stream: common random numbers). The hint does not know whom
#: it plays against, so it averages the win rate over these plausible tables: itself (`race`), the
#: announce-7 rule, the greedy rule and the exact solo policy.
OPPONENT_MODELS: tuple[Player, ...] = (race, announce_seven, greedy, solo_optimal)
#: ...except where the field is known to be solo-policy campers: where the state itself tells
#: (`players.slow_field`: every other camper outward on at most half the mover's plate) or the game's record
#: shows it (`opponents.solo_field`). Over seeded 3-camper games of `race` against two copies of each model,
#: the field looked slow at 143 of 1,487 decisions against the solo optimum, 15 of 1,496 against announce-7
#: and 4 of 1,531 against greedy: a faster player is rarely that far behind, and the mixture's fast players
#: would value the slow-field moves against the wrong field.
SLOW_FIELD_MODELS: tuple[Player, ...] = (solo_optimal,)


#: How the service's note names each opponent model.
MODEL_NAMES: dict[Player, str] = {
    race: "race",
    announce_seven: "announce-7",
    greedy: "greedy",
    solo_optimal: "the solo optimum",
}


@dataclass(frozen=True)
class _Opponents:
    """The opponents' play in the playouts, and the same in words."""

    models: tuple[Player, ...]
    described: str


def _name(model: Player) -> str:
    return MODEL_NAMES.get(model, getattr(model, "__name__", "a model"))


def _opponents(state: TourState, by_record: bool) -> _Opponents:
    """OPPONENT_MODELS, or SLOW_FIELD_MODELS where the record (`by_record`: `opponents.solo_field`) or the
    state (`players.slow_field`) shows solo-policy campers."""
    if by_record:
        return _Opponents(
            SLOW_FIELD_MODELS,
            "the opponents the solo optimum (the game's history shows every other camper playing the solo policy)",
        )
    if slow_field(state):
        names = " and ".join(_name(model) for model in SLOW_FIELD_MODELS)
        return _Opponents(
            SLOW_FIELD_MODELS,
            f"the opponents {names} (the field is slow: every other camper at most half the mover's plate)",
        )
    names = [_name(model) for model in OPPONENT_MODELS]
    return _Opponents(OPPONENT_MODELS, f"the opponents, in turn, {', '.join(names[:-1])} and {names[-1]}")


def opponent_models(state: TourState, history: Sequence[Decision] = ()) -> tuple[Player, ...]:
    """The opponents' play in the playouts from `state` (see OPPONENT_MODELS and SLOW_FIELD_MODELS)."""
    return _opponents(state, solo_field(state, history)).models


def opponents_played(state: TourState, history: Sequence[Decision] = ()) -> str:
    """What the win-probability values from `state` are measured against, in words (the service's note; a hint
    gives the same as `HintResult.opponents`)."""
    return _opponents(state, solo_field(state, history)).described


#: The method name of a hint ranked by the best response to solo-policy campers.
BEST_RESPONSE_METHOD = "best-response-to-solo-policy"
#: The method name of an answer that is a rule of thumb's move (the budget ended before anything better).
RULE_OF_THUMB_METHOD = "rule-of-thumb"


def rule_of_thumb_hint(state: TourState, clock: HintClock, rule: Player, why: str) -> HintResult:
    """The rule of thumb's move first and every other legal move after it, none valued: the answer a hint
    gives when its budget ends before anything better is known (`why`), flagged in `fallback` and `method`."""
    first = rule(state)
    legal = state.legal_actions()
    moves = tuple(_move(a, 0.0, 0.0, (0.0,), evaluated=False) for a in [first] + [a for a in legal if a != first])
    name = _name(rule)
    return HintResult(
        player=state.to_move,
        choices=moves,
        depth=0,
        proof=Proof.HEURISTIC,
        method=f"{RULE_OF_THUMB_METHOD}:{name}",
        nodes=0,
        wall_time_s=clock.wall(),
        cpu_time_s=clock.cpu(),
        interrupted=True,
        fallback=f"the rule of thumb's move ({name}), not valued: {why}",
    )


def _tables_fit(state: TourState, budget: Budget) -> bool:
    """The best response's route tables are built, or the budget leaves time to build them (a short hint on a
    route nobody warmed up plays out instead: a build cut by the deadline would be lost, and so every time)."""
    config = state.config
    # BUILD_SECONDS is CPU time: the wall time it foresees is that over the CPU share this process gets.
    return (
        best_response.ready(config.plate_count, config.token_limit)
        or budget.remaining() * budget.cpu_share() >= best_response.BUILD_SECONDS
    )


def _best_response_hint(state: TourState, budget: Budget, clock: HintClock) -> HintResult | None:
    """The legal moves ranked by their model win probability against solo-policy campers (`best_response`):
    values of one model (no sampling, so no standard error), HEURISTIC since the model leaves out specials,
    occupancy and the last-camper rule. Moves the model does not cover are listed last without a value
    (`evaluated` False, as the playouts list the moves they did not compare); None if it covers none."""
    response = best_response.values(state, budget)
    if not response.values:
        return None
    ordered = sorted(response.values.items(), key=lambda item: -item[1])
    top = ordered[0][1]
    moves = tuple(_move(a, v, top - v, (v,), value_kind="model") for a, v in ordered)
    moves += tuple(
        _move(a, 0.0, top, (0.0,), evaluated=False) for a in state.legal_actions() if a not in response.values
    )
    return HintResult(
        player=state.to_move,
        choices=moves,
        depth=0,
        proof=Proof.HEURISTIC,
        method=BEST_RESPONSE_METHOD,
        nodes=len(moves),
        wall_time_s=clock.wall(),
        cpu_time_s=clock.cpu(),
        interrupted=False,
        opponents=_opponents(state, True).described,
    )


@dataclass(frozen=True)
class PairedDifference:
    """Mean and standard error of (candidate - baseline) over the paired playouts both have."""

    mean: float
    standard_error: float
    pairs: int


def paired_difference(candidate: list[float], baseline: list[float]) -> PairedDifference:
    pairs = min(len(candidate), len(baseline))
    if pairs == 0:
        return PairedDifference(0.0, float("inf"), 0)
    differences = [x - y for x, y in zip(candidate[:pairs], baseline[:pairs], strict=True)]
    mean = sum(differences) / pairs
    variance = sum((d - mean) ** 2 for d in differences) / max(1, pairs - 1)
    return PairedDifference(mean, (variance / pairs) ** 0.5, pairs)


def win_candidates(state: TourState) -> list[Action]:
    """The moves the playouts compare, baseline (`race`) first: what each rule of thumb and the solo optimum
    would play here, turning back, and the announcements next to the baseline's. A playout costs a few
    milliseconds of the pure-Python rules model, so sampling all (up to 11) legal moves within 0.2 s would give
    each too few playouts to tell them apart; the other legal moves are listed after these, unsampled."""
    legal = state.legal_actions()
    baseline = race(state)
    proposals = [baseline, *(model(state) for model in OPPONENT_MODELS[1:])]
    proposals += [a for a in legal if isinstance(a, TurnBack | ComfortsChoice)]
    if isinstance(baseline, Announce):
        proposals += [Announce(baseline.plates - 1), Announce(baseline.plates + 1)]
    return [baseline] + [a for a in legal if a in proposals and a != baseline]


def _win_hint(
    state: TourState, budget: Budget, clock: HintClock, seed: int, max_playouts: int, opponents: _Opponents
) -> HintResult:
    """Win probability of each candidate move (`win_candidates`) by Monte Carlo playouts.

    A playout plays the candidate, then the mover continues with `race` and every opponent with the playout's
    model from `opponent_models` (OPPONENT_MODELS, or SLOW_FIELD_MODELS where the field is slow or the record shows
    solo-policy campers), to the end of the game through the rules model (the race, the arrival rule, the
    last-camper rule and the tie rule all played out); it scores 1 if the mover wins. Rounds go over the
    candidates still sampled, with common random numbers (playout i of every candidate: the same model and dice).

    The budget decides how many candidates are compared: after each round the playouts the time left allows are
    foreseen from the costliest playout so far, and only as many candidates are kept (in `win_candidates`' order,
    the baseline first) as can each reach MIN_SAMPLES playouts, so that every value shown carries its standard
    error. Sequential stopping: from MIN_SAMPLES rounds on, a candidate whose paired difference to the baseline is
    below 0 by DROP_Z standard errors (or exactly 0 with no spread) is no longer sampled, and the hint answers as soon
    as only the baseline is left, the playout cap is reached or the budget ends (checked before every playout and
    inside it; a playout starts only if its foreseen time, the costliest playout's CPU seconds over
    `Budget.cpu_share`, still fits, on the budget's own clock). The baseline stays the answer unless a candidate
    beats it by SWITCH_Z paired standard errors over at least MIN_ROUNDS pairs. Each value is the win rate over
    that move's own playouts (HEURISTIC) with its standard error (`win_standard_error`), against
    `opponent_models`, not a known table; a move with fewer than MIN_SAMPLES playouts gets no value (`note` says
    how many it had), and the ranking shows what was decided (`_win_ranking`).
    """
    player = state.to_move
    candidates = win_candidates(state)
    baseline = candidates[0]
    outcomes, interrupted = _win_playouts(state, budget, seed, max_playouts, opponents.models, candidates)
    if not outcomes[baseline]:
        # Not one playout fitted the time limit (a loaded machine): the baseline rule's move, values not estimated.
        answer = rule_of_thumb_hint(state, clock, race, "no playout finished within the time limit")
        return HintResult(
            player=player,
            choices=answer.choices,
            depth=0,
            proof=Proof.HEURISTIC,
            method=answer.method,
            nodes=0,
            wall_time_s=clock.wall(),
            cpu_time_s=clock.cpu(),
            interrupted=True,
            samples=0,
            opponents=opponents.described,
            fallback=answer.fallback,
        )
    chosen = _switch(candidates, outcomes)
    moves = _win_ranking(chosen, baseline, candidates, outcomes, state.legal_actions())
    counts = [len(outcomes[a]) for a in candidates if outcomes[a]]
    return HintResult(
        player=player,
        choices=moves,
        depth=0,
        proof=Proof.HEURISTIC,
        method=f"win-probability-playouts:{len(outcomes[chosen])}",
        nodes=sum(counts),
        wall_time_s=clock.wall(),
        cpu_time_s=clock.cpu(),
        interrupted=interrupted,
        samples=len(outcomes[chosen]),
        opponents=opponents.described,
    )


def _win_playouts(
    state: TourState,
    budget: Budget,
    seed: int,
    max_playouts: int,
    models: tuple[Player, ...],
    candidates: list[Action],
) -> tuple[dict[Action, list[float]], bool]:
    """The rounds of playouts (see `_win_hint`): each candidate's results, and whether the budget cut them."""
    player = state.to_move
    baseline = candidates[0]
    outcomes: dict[Action, list[float]] = {a: [] for a in candidates}
    sampled = list(candidates)
    slowest = 0.0  # CPU seconds of the costliest playout so far
    spent, played = 0.0, 0  # CPU seconds of all playouts so far, and how many
    for i in range(max_playouts):
        model = models[i % len(models)]
        try:
            for action in sampled:
                budget.check()
                # The playout's foreseen time on the budget's own clock: its CPU cost, over the CPU share this
                # process gets (1 for a CpuBudget, whose clock is CPU time).
                if budget.remaining() < slowest / budget.cpu_share():
                    raise SolveInterrupted("deadline")
                began = time.process_time()
                result = _playout(state.child(action), player, model, playout_rng(seed, i), budget)
                outcomes[action].append(result)
                cost = time.process_time() - began
                slowest, spent, played = max(slowest, cost), spent + cost, played + 1
        except SolveInterrupted:
            if budget.cancelled:
                raise
            return outcomes, True
        top = outcomes[baseline]
        budget.report(samples=sum(len(v) for v in outcomes.values()), best=sum(top) / len(top))
        sampled = _still_sampled(sampled, outcomes, baseline, i + 1, budget, spent, played)
        if sampled == [baseline] and i + 1 >= MIN_SAMPLES:
            break
    return outcomes, False


def _still_sampled(
    sampled: list[Action],
    outcomes: dict[Action, list[float]],
    baseline: Action,
    done: int,
    budget: Budget,
    spent: float,
    played: int,
) -> list[Action]:
    """The candidates the next round samples: from MIN_SAMPLES rounds on, those not clearly worse than the baseline;
    before, only as many as can each still reach MIN_SAMPLES playouts in the time left (at the mean playout's cost
    so far)."""
    if done >= MIN_SAMPLES:
        return [a for a in sampled if a == baseline or not _clearly_worse(outcomes[a], outcomes[baseline])]
    if spent > 0.0:
        affordable = int(budget.remaining() * budget.cpu_share() * played / spent)
        keep = max(1, affordable // max(1, MIN_SAMPLES - done))
        return sampled[:keep]
    return sampled


def _switch(candidates: list[Action], outcomes: dict[Action, list[float]]) -> Action:
    """The answered move: the baseline (the first candidate) unless another beats it by SWITCH_Z paired standard
    errors over at least MIN_ROUNDS pairs (the largest such mean difference)."""
    baseline = candidates[0]
    chosen, margin = baseline, 0.0
    for action in candidates[1:]:
        difference = paired_difference(outcomes[action], outcomes[baseline])
        clear = difference.pairs >= MIN_ROUNDS and difference.mean > SWITCH_Z * difference.standard_error
        if clear and difference.mean > margin:
            chosen, margin = action, difference.mean
    return chosen


def win_standard_error(wins: float, n: int) -> float:
    """Standard error of a win rate from `n` playouts with `wins` wins, for value +- 2 SE to cover the truth.

    The binomial sqrt(p(1-p)/n) at the Agresti-Coull centre p = (wins + 2) / (n + 4): the plain p(1-p) of the
    sample is 0 when every playout agrees (0 or n wins), though a move that never won in 20 playouts may still
    win a few percent of games; the centre moved toward 1/2 keeps the interval honest there.
    """
    centre = (wins + 2.0) / (n + 4.0)
    return (centre * (1.0 - centre) / n) ** 0.5


def _win_ranking(
    chosen: Action, baseline: Action, candidates: list[Action], outcomes: dict[Action, list[float]], legal: list[Action]
) -> tuple[RankedMove, ...]:
    """The answered move first, then so that the ranks shown follow the values shown; every value shown is a win
    rate over at least MIN_SAMPLES playouts with its standard error.

    The hint keeps the baseline (rule of thumb) move unless another is clearly better in the paired comparison:
    a move whose own mean is above the answer's without being clearly better is listed next, without a value
    (its `note` gives the mean, the paired difference and why it is not the answer), rather than shown with a
    value that contradicts its rank. Then the other compared moves by their win rate, then the moves with fewer
    than MIN_SAMPLES playouts (no value: too few for a standard error; the note says how many), then the moves not
    compared, without a value.
    """

    def estimate(action: Action) -> tuple[float, int]:
        results = outcomes[action]
        return sum(results) / len(results), len(results)

    def few(action: Action, n: int) -> RankedMove:
        return _move(
            action,
            0.0,
            0.0,
            (0.0,),
            samples=n,
            evaluated=False,
            note=f"{n} playouts: too few for a value with a standard error (from {MIN_SAMPLES} on)",
        )

    top, top_n = estimate(chosen)
    if top_n < MIN_SAMPLES:
        moves = [few(chosen, top_n)]
    else:
        moves = [
            _move(
                chosen,
                top,
                0.0,
                (top,),
                samples=top_n,
                standard_error=win_standard_error(top * top_n, top_n),
                value_kind="playouts",
            )
        ]
    above, below, short = [], [], []
    for action in candidates:
        if action == chosen or not outcomes[action]:
            continue
        value, n = estimate(action)
        if n < MIN_SAMPLES:
            short.append((action, n))
            continue
        (above if value > top else below).append((action, value, n))
    for action, value, n in sorted(above, key=lambda item: -item[1]):
        difference = paired_difference(outcomes[action], outcomes[baseline])
        versus = "the rule of thumb's move" if chosen == baseline else "the answered move, which is"
        note = (
            f"win rate {value:.3f} over {n} playouts, above the answer's {top:.3f} but not clearly better "
            f"than {versus} in paired playouts (difference {difference.mean:+.3f} +- "
            f"{difference.standard_error:.3f} over {difference.pairs} pairs; a move replaces the rule of "
            f"thumb's only beyond {SWITCH_Z:g} standard errors): no value shown, so that ranks follow values"
        )
        if action == baseline:
            note = (
                f"the rule of thumb's move: win rate {value:.3f} over {n} playouts, clearly beaten in paired "
                "playouts by the answer (whose own mean over its playouts is lower): no value shown, so that "
                "ranks follow values"
            )
        moves.append(_move(action, 0.0, top, (value,), samples=n, evaluated=False, note=note))
    for action, value, n in sorted(below, key=lambda item: -item[1]):
        moves.append(
            _move(
                action,
                value,
                top - value,
                (value,),
                samples=n,
                standard_error=win_standard_error(value * n, n),
                value_kind="playouts",
            )
        )
    moves += [few(action, n) for action, n in short]
    # Moves not compared (see `win_candidates`, or cut by the budget before their first playout): listed last
    # with no estimate of their own (evaluated=False: the service leaves their value and loss absent).
    moves += [_move(a, 0.0, top, (0.0,), evaluated=False) for a in legal if not outcomes.get(a)]
    return tuple(moves)


def _clearly_worse(candidate: list[float], baseline: list[float]) -> bool:
    difference = paired_difference(candidate, baseline)
    if difference.standard_error == 0.0:
        return difference.mean <= 0.0
    return difference.mean + DROP_Z * difference.standard_error < 0.0


#: Budget checks inside one playout: every this many decisions.
PLAYOUT_CHECK_EVERY = 8


#: The total of each of the 36 throws of two dice.
_THROW_TOTALS = tuple(a + b for a in range(1, DIE_FACES + 1) for b in range(1, DIE_FACES + 1))


def draw(state: TourState, rng: random.Random) -> object:
    """One chance outcome of `state` with the rules model's exact odds (`rules.TourState.chance_outcomes`), drawn
    from a stdlib generator: the dice as one of the 36 equally likely throws, a plate from the stack's counts, a die
    face (every special plate's die, No Parking's re-rolls conditioned away, is uniform over its outcomes)."""
    stage = state.stage
    if stage is Stage.ROLL:
        while True:  # one of the 36 equally likely throws, by rejection from 6 random bits (exact odds)
            throw = rng.getrandbits(6)
            if throw < DIE_FACES * DIE_FACES:
                return _THROW_TOTALS[throw]
    if stage is Stage.LAY:
        layout = state.config.layout
        if layout is not None:
            return layout[len(state.laid)]
        counts = state.remaining_stack()
        pick = rng.randrange(sum(counts))
        for kind, count in enumerate(counts):
            if pick < count:
                return PlateKind(kind)
            pick -= count
    outcomes = state.chance_outcomes()
    return outcomes[rng.randrange(len(outcomes))][0]


def playout_rng(seed: int, index: int) -> random.Random:
    """The dice of playout `index` (the same for every candidate move: common random numbers)."""
    return random.Random(f"camper-tour-win:{seed}:{index}")


def _playout(state: TourState, player: int, opponents: Player, rng: random.Random, budget: Budget) -> float:
    """1 if `player` wins after it plays `race` and everybody else `opponents` to the end (ties by the tie rule)."""
    for step in range(MAX_ROLLOUT_STEPS):
        if state.game_over:
            return 1.0 if state.winner() == player else 0.0
        if state.current_player() >= 0:
            if step % PLAYOUT_CHECK_EVERY == 0:
                budget.check()
            state = state.child((race if state.to_move == player else opponents)(state))
        else:
            state = state.child(draw(state, rng))
    raise RuntimeError("playout did not end")


def _rank(
    alternatives: list[tuple[Action, tuple[float, ...]]], player: int, *, exact: bool, kind: str
) -> tuple[RankedMove, ...]:
    """Best first; an exact value states standard error 0, any other (`kind`) none."""
    ordered = sorted(alternatives, key=lambda item: -item[1][player])
    top = ordered[0][1][player]
    return tuple(
        _move(
            action,
            values[player],
            top - values[player],
            values,
            standard_error=0.0 if exact else None,
            value_kind="exact" if exact else kind,
        )
        for action, values in ordered
    )


def _solo_hint(state: TourState, budget: Budget, clock: HintClock) -> HintResult:
    """The solo solver's answer. Not exact: every move valued by the layout-aware policy's one-step look-ahead
    (not sampled: no samples, no standard error); when the solver also played the policy out (`monte-carlo-policy`),
    `samples` and `note` give those games and their mean with its standard error, the sampled value of the
    policy's move (the answer), beside the look-ahead values rather than mixed into their ranking."""
    camper: Camper = state.campers[0]
    position = SoloPosition(
        position=camper.position,
        tokens=camper.tokens,
        phase=camper.phase,
        marker=camper.marker,
        pending=camper.pending,
        laid=state.laid,
    )
    solved = solve_solo(state.config, position, budget)  # answers best-so-far when the budget ends
    alternatives = [(alt.action, (alt.value,)) for alt in solved.alternatives]
    exact = solved.proof is Proof.EXACT
    note = ""
    if not exact:
        note = (
            "expected final score: the layout-aware solo policy's one-step look-ahead estimates (all-normal "
            "tables, the stack's odds for unlaid plates), not sampled and without a standard error"
        )
        if solved.method == "monte-carlo-policy" and solved.samples:
            spread = (
                f"standard error {solved.standard_error:.3f}"
                if solved.standard_error is not None
                else "too few games for a standard error"
            )
            note += (
                f"; the policy's own move played out to the end over {solved.samples} games scores "
                f"{solved.value:.3f} ({spread}), a sampled value of that policy"
            )
    return HintResult(
        player=0,
        choices=_rank(alternatives, 0, exact=exact, kind="look-ahead"),
        depth=0,
        proof=solved.proof,
        method=f"solo:{solved.method}",
        nodes=solved.states_evaluated,
        wall_time_s=clock.wall(),
        cpu_time_s=clock.cpu(),
        interrupted=False,
        samples=solved.samples if solved.method == "monte-carlo-policy" else 0,
        notes=(note,) if note else (),
    )
