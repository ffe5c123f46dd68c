"""Proven maximum scores for Happy Campers maps with CP-SAT.

Three questions, one machinery:

- `clairvoyant_max`: the best final score of one map when the whole roll sequence is known in advance,
  under forced play (a roll must be drawn whenever it can be; the first roll that fits nowhere ends the game);
- `absolute_max`: the best score over every map that some sequence of drawings can produce (free choice of
  shapes and elements, any number of turns);
- `challenge_max`: one challenge card's own best points over complete drawable maps (the card maxima).

Every model is built from `cpsat_map` (exact scoring) plus how squares get drawn. Because an incomplete
map scores 0 whatever else it holds, each question is split in two CP-SAT problems instead of one model
with an "is complete" switch (whose linear relaxation is useless): (A) maximise the full score over
complete maps; (B), only when A cannot beat 0, decide whether an incomplete outcome exists. The proof
claim combines the two solver statuses and is OPTIMAL only when every phase that matters was closed by
CP-SAT (OPTIMAL or INFEASIBLE).

Clairvoyant play starts CP-SAT from a legal play (`cpsat_warmstart`): a perfect map when the depth-first
search finds one within its share of the budget (then the hint already meets the root bound), else the
best greedy play. With point-scoring cards the model gets analytic caps on each card's points
(`clairvoyant_card_caps`, redundant constraints), and when only Dangerous Animals / Quick Pee score, the
search first aims at a perfect map meeting every cap: perfect value + caps bounds every map, so such a map
is proven at the root. The play fixes only the decisions, so a pinned copy of the model is solved first to
extend the hint to every variable (CP-SAT's own completion of a partial hint drifts badly on these models).

With Privacy, Tent Together, River Town or Quick Pee (no Nature Reserve) in a game whose rolls can fill
the map, the hint is the better of the greedy play and an anytime ascent over full maps (`max_ascent`):
the greedy plays start far below the optimum there, and CP-SAT's proof usually follows soon after it
holds the optimum. The main solve leaves out the first-solution subsolvers (it always starts from a
complete hint), so the second worker's time goes to the neighbourhood searches.

Between the warm start and the main solve, the walk down from the per-roll assignment bound (`_top_down`): one
CP-SAT problem per level, from the bound down, each with every drawing fixed away that cannot reach it and the
objective pinned to it; INFEASIBLE lowers the bound, a map found there is the answer (OPTIMAL from that level's
status). The main solve gets what the walk leaves, with the lowered bound.

Optionally (`LEVEL_PROOF`, off by default: not measured to pay), with Privacy, Tent Together or River Town
the main solve gets half the time left and, when it leaves a gap, the proof by card levels (`max_levels`)
splits the question on the cards' points: one CP-SAT problem per level, OPTIMAL only when CP-SAT closes
every level and the rest.

Every answer is replayed through the rules model before it is returned: each placement goes through
`rules.draw` in order, forced play is re-checked with `rules.can_draw`, and `rules.score` of the final map
must lie between the model's objective and its proven bound (and equal it when the proof is OPTIMAL).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from campsolver.solver.core.budget import Budget
from campsolver.solver.core.cpsat import CpSolveResult, Proof, add_nogood, check_unique_optimum, solve
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers import cpsat_map, max_models, max_warmstarts
from campsolver.solver.happy_campers.card_moves import card_bonus
from campsolver.solver.happy_campers.cpsat_warmstart import PerfectSearch, greedy_play, perfect_play
from campsolver.solver.happy_campers.max_ascent import ascent_applies, final_grid, perfect_card_ascent
from campsolver.solver.happy_campers.max_caps import (  # noqa: F401  (re-exported: one public module)
    CARD_PREFERENCE,
    CARD_TARGET_PRUNES,
    QUICK_PEE_LINE_WEIGHT,
    _card_preference,
    _card_viability,
    _element_caps,
    clairvoyant_card_caps,
    most_squares,
    target_value,
)
from campsolver.solver.happy_campers.max_levels import levels_apply, prove_by_levels
from campsolver.solver.happy_campers.max_models import (  # noqa: F401
    DECISION_STRATEGY,
    _add_play_hint,
    _build_absolute,
    _build_clairvoyant,
    _card_terms,
    _drawing_order,
    _option_for,
    _scoring_objective,
    abandons_builds_on_cancel,
    builds_abandoned_on_cancel,
)
from campsolver.solver.happy_campers.max_problem import (  # noqa: F401
    MAP_INDEPENDENT_CARDS,
    MODEL_ELEMENTS,
    MaxProblem,
    MaxResult,
    Mode,
    ModelMismatch,
    Roll,
    SolveStats,
    TurnPlay,
    _Built,
    _fixed_cells,
    _placement_table,
    _roll_pairs,
)
from campsolver.solver.happy_campers.rules import (
    DEFAULT_COMPONENTS,
    Challenge,
    Components,
    Grid,
    IllegalMove,
    Placement,
    ScoreBreakdown,
    can_draw,
    draw,
    empty_grid,
    roll_options,
    score,
    validate_grid,
    validate_roll,
)
from ortools.sat.python import cp_model

#: Randomised greedy plays tried for the clairvoyant warm start (each costs a few milliseconds a roll).
WARMSTART_ROLLOUTS = 8
#: With point-scoring cards: more rollouts, over several weights of the cards' move terms (`card_moves`).
CARD_WARMSTART_ROLLOUTS = 12
CARD_MOVE_TERMS = True
#: Share of the remaining budget the greedy rollouts may use (more rollouts stop at it).
GREEDY_SHARE = 0.15

#: Share of the remaining budget the perfect-map search may use before CP-SAT starts (it usually needs
#: milliseconds; when no perfect map exists it rarely finishes its tree, so the share is what it costs).
PERFECT_SEARCH_SHARE = 0.3
#: Share of what is then left for CP-SAT's perfect-map feasibility model (when the search found nothing).
PERFECT_MODEL_SHARE = 0.3
#: With Privacy, Tent Together, River Town or Quick Pee (and no Nature Reserve) in a game that can fill the
#: map, start from the perfect-map ascent (`max_ascent`) when it beats the greedy play; its share of the
#: remaining budget. Quick Pee also goes there instead of the cap-aimed perfect search (the ascent's last
#: level is that search). 15%: side by side against 30% on a quiet machine the main solve's extra time proved
#: 40/63 single-card cases in 10 s against 37/63 (the ascent finds its best maps early).
CARD_ASCENT = True
ASCENT_SHARE = 0.15
ASCENT_TARGET_CARDS = frozenset({Challenge.QUICK_PEE})
#: After an ascent that misses the caps with only `TARGET_CARDS` in play (Quick Pee among them), run the
#: target feasibility model before the greedy play. Quick Pee alone, 10 s, quiet machine, interleaved with
#: it off: seeds 0-7 (15 and 20 rolls) 7/16 -> 9/16 proven, fresh seeds 8-19 18/24 -> 20/24; no case lost a
#: proof, best maps +5 in total (`bench/results/happy_campers_qp_target_model.jsonl`). Not with The Great
#: Divide: Quick Pee + Great Divide, 15 and 20 rolls, seeds 0-4, A/B interleaved: 1/10 proven either way and
#: best maps 6 points lower in total (two-sided perfect maps at the cap are rarely found in the share);
#: Quick Pee + Dangerous Animals 6/10 either way, maps equal (`happy_campers_proofs_ab_qp_target_model_pairs.jsonl`).
ASCENT_TARGET_MODEL = True
#: Share of the remaining budget for completing the hint (pinned solve; it usually takes well under a second).
HINT_COMPLETION_SHARE = 0.2


# ---------------------------------------------------------------------------------------------------------
# Solving and checking
# ---------------------------------------------------------------------------------------------------------


@dataclass
class _Tally:
    wall: float = 0.0
    branches: int = 0
    conflicts: int = 0
    solves: int = 0
    deterministic: float = 0.0
    results: list[CpSolveResult] = field(default_factory=list)

    def add(self, result: CpSolveResult) -> None:
        self.wall += result.wall_time_s
        self.branches += result.branches
        self.conflicts += result.conflicts
        self.solves += 1
        if result.wall_time_s > 0:  # a search ran (a spent budget starts none)
            self.deterministic += result.solver.response_proto.deterministic_time

    def stats(self) -> SolveStats:
        return SolveStats(self.wall, self.branches, self.conflicts, self.solves, self.deterministic)


def _read_grid(mv: cpsat_map.MapVars, result: CpSolveResult) -> Grid:
    values = []
    for i in range(len(mv.cells)):
        value = 0
        for k, e in enumerate(mv.elements):
            if result.boolean(mv.cell_element[i][k]):
                value = e
        values.append(value)
    return tuple(tuple(values[r * mv.cols : (r + 1) * mv.cols]) for r in range(mv.rows))


def _replay(problem: MaxProblem, turns: Sequence[TurnPlay], model_grid: Grid) -> Grid:
    """Re-draw every placement with the rules model; check forced play and the final map."""
    grid = _replayed(problem, turns, ModelMismatch, lambda turn: f"turn {turn}")
    if grid != model_grid:
        raise ModelMismatch("replaying the placements does not give the model's map")
    return grid


def _replayed(
    problem: MaxProblem, turns: Sequence[TurnPlay], error: type[Exception], where: Callable[[int], str]
) -> Grid:
    """The map the turns draw from the start map, by the rules model: each placement under one of its
    roll's options and legal there (`rules.draw`), a roll skipped in clairvoyant play only when it cannot
    be drawn, nothing drawn after; otherwise `error` naming `where(turn)`. One check for CP-SAT's answers
    (ModelMismatch) and for a caller's `start_plays` (ValueError)."""
    comp = problem.components
    grid = problem.start_grid
    ended = False
    for turn in turns:
        if turn.placement is None:
            if problem.kind == "clairvoyant" and not ended and can_draw(grid, turn.roll, comp):
                raise error(f"{where(turn.turn)}: roll {turn.roll} can be drawn, so it cannot be skipped")
            ended = True
            continue
        if ended:
            raise error(f"{where(turn.turn)}: drawn after the game ended")
        if turn.placement.option not in roll_options(turn.roll):
            raise error(f"{where(turn.turn)}: not a legal drawing of roll {turn.roll}: {turn.placement.option}")
        try:
            grid = draw(grid, turn.placement, comp)
        except IllegalMove as err:
            raise error(
                f"{where(turn.turn)}: not a legal drawing of roll {turn.roll} on the map so far ({err})"
            ) from err
    return grid


def _points(problem: MaxProblem, grid: Grid) -> tuple[int, ScoreBreakdown]:
    breakdown = score(grid, problem.challenges, problem.components, festival_won=problem.festival_won)
    if problem.kind == "challenge":
        assert problem.card is not None
        return (breakdown.challenge_points.get(problem.card, 0) if breakdown.complete else 0), breakdown
    return breakdown.total, breakdown


def _checked_answer(
    problem: MaxProblem, built: _Built, result: CpSolveResult
) -> tuple[Grid, tuple[TurnPlay, ...], int, ScoreBreakdown]:
    model_grid = _read_grid(built.mv, result)
    turns = built.read_turns(result)
    grid = _replay(problem, turns, model_grid)
    value, breakdown = _points(problem, grid)
    if built.objective is not None:
        objective = round(result.objective) if result.objective is not None else None
        bound = result.bound
        if objective is not None and value < objective:
            raise ModelMismatch(f"rules score {value} below the model objective {objective}")
        if bound is not None and value > bound + 1e-6:
            raise ModelMismatch(f"rules score {value} above the proven bound {bound}")
    return grid, turns, value, breakdown


def _hint_answer(
    problem: MaxProblem, plays: Sequence[Placement | None]
) -> tuple[Grid, tuple[TurnPlay, ...], int, ScoreBreakdown] | None:
    """A warm-start play as an answer: replayed through the rules model (forced play checked) and scored;
    None when its final map is incomplete."""
    turns = tuple(TurnPlay(t, roll, play) for t, (roll, play) in enumerate(zip(problem.rolls, plays, strict=True)))
    grid = _replay(problem, turns, final_grid(problem, plays))
    value, breakdown = _points(problem, grid)
    return (grid, turns, value, breakdown) if breakdown.complete else None


#: CP-SAT parameter overrides for these models (measured on random 15-roll sequences, see the bench):
#: presolve probing costs seconds on these models and buys nothing measurable.
SOLVER_PARAMETERS: dict[str, object] = {"cp_model_probing_level": 0}


def _configure(solver: cp_model.CpSolver) -> None:
    for name, value in SOLVER_PARAMETERS.items():
        setattr(solver.parameters, name, value)


#: Subsolvers left out of the clairvoyant main solve, which always starts from a complete hint: local
#: search, feasibility jump and the feasibility pump look for first solutions, and on two workers they
#: share the second thread with the large-neighbourhood searches that do improve the hint. Measured on 17
#: open single-card cases (10 s, load 6-7, interleaved): 1 proof against 0, mean gap 6.6 against 8.6.
CLAIRVOYANT_IGNORED_SUBSOLVERS = ("ls", "fj", "feasibility_pump")


def _configure_clairvoyant(solver: cp_model.CpSolver) -> None:
    _configure(solver)
    solver.parameters.ignore_subsolvers.extend(CLAIRVOYANT_IGNORED_SUBSOLVERS)


def _closed(result: CpSolveResult) -> bool:
    return result.status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)


@dataclass(frozen=True)
class _Hint:
    """Where CP-SAT starts clairvoyant play, and whether CP-SAT proved that no perfect map exists."""

    plays: Sequence[Placement | None] | None
    no_perfect_map: bool


#: Cards with which "as many squares as the rolls allow, one cluster per element, every card at its cap"
#: (`target_value`) bounds every map's total, so a map reaching it is a maximum proven at CP-SAT's root:
#: no card, cards scoring no map-dependent points, The Great Divide (completeness only) and the cards
#: whose cap is often met (`CARD_TARGET_PRUNES`). Privacy, Tent Together and River Town caps are almost
#: never met; Nature Reserve's single empty squares score, so the bound does not hold with it.
TARGET_CARDS = MAP_INDEPENDENT_CARDS | {Challenge.GREAT_DIVIDE, *CARD_TARGET_PRUNES}


#: Cards the target feasibility model leaves out (only the depth-first search aims at them): Quick Pee's
#: cap (a toilet in every row and column) is rarely met by a map at the target, and the model's share of
#: the budget was then lost (10 rolls: 44 of a proven 47 where the plain solve had proven 47).
MODEL_UNTARGETED_CARDS = frozenset({Challenge.QUICK_PEE})


#: Run the target feasibility model in short games too when The Great Divide is in play.
SHORT_GAME_DIVIDE_MODEL = True


def _target_caps(problem: MaxProblem) -> dict[Challenge, int]:
    return clairvoyant_card_caps(problem)


#: Also start from the guided greedy and the game's own players (`max_warmstarts`) when they beat the hint below;
#: their share of the budget.
MORE_WARM_STARTS = True
MORE_WARM_STARTS_SHARE = 0.1
GUIDED_ROLLOUTS = 12


def _clairvoyant_hint(problem: MaxProblem, budget: Budget, seed: int, workers: int, tally: _Tally) -> _Hint:
    """The best warm start: `_searched_hint`'s, or a guided greedy play or a player's play (`max_warmstarts`)
    when it scores more by the rules (skipped when the first already meets the per-roll assignment bound)."""
    found = _searched_hint(problem, budget, seed, workers, tally)
    if not MORE_WARM_STARTS or budget.expired():
        return found
    programme = max_models.cached_programme(problem, max_models.clairvoyant_nature_caps(problem))
    top = programme.bound()
    if top is None:
        return found
    current = _hint_floor(problem, found.plays)
    if current is not None and current >= top:
        return found
    share = budget.limited(budget.remaining() * MORE_WARM_STARTS_SHARE)
    rng = rng_for(seed, "happy_campers.maximise.guided")
    guided = max_warmstarts.guided_plays(problem, programme, rng, GUIDED_ROLLOUTS, share.limited(share.remaining() / 2))
    best = found
    if guided is not None:
        best = _better_hint(problem, best, _Hint(guided[1], found.no_perfect_map))
    for plays in max_warmstarts.policy_plays(problem, share, seed):
        best = _better_hint(problem, best, _Hint(plays, found.no_perfect_map))
    return best


def _searched_hint(problem: MaxProblem, budget: Budget, seed: int, workers: int, tally: _Tally) -> _Hint:
    """A legal play for CP-SAT to start from: a map at the target value when one is found quickly, else
    the best greedy play.

    With only `TARGET_CARDS` in play no map scores more than `target_value` (as many squares as the rolls
    allow, one cluster per element, every card at its cap), so a play reaching it is a maximum and CP-SAT
    meets its root bound at once. Two searches look for one: when the rolls can fill the map, the
    depth-first `perfect_play` (milliseconds on almost every random 15-roll sequence; with The Great
    Divide it prunes by the crossing columns, `max_caps.divide_crossing_columns`, and checks both halves
    of the final map); then, when it neither finds one nor
    exhausts its tree, CP-SAT on the target feasibility model (`_build_clairvoyant(..., "perfect")`), which
    is better when the rolls leave no slack and which can also prove that no such map exists: its
    INFEASIBLE status then caps the main model's objective below the target value, a cut the main solve
    could not derive quickly by itself. In short games (the rolls cannot fill the map) neither runs: the
    model's share cost more than it found (Dangerous Animals, 10 rolls: 1/10 proven with it, 5/5 without).
    """
    cards = set(problem.challenges)
    if CARD_ASCENT and ascent_applies(problem) and (not cards <= TARGET_CARDS or cards & ASCENT_TARGET_CARDS):
        return _ascent_hint(problem, budget, seed, workers, tally)
    if not cards <= TARGET_CARDS:
        return _greedy_hint(problem, seed, False, budget)
    caps = _target_caps(problem)
    fills = most_squares(problem) >= problem.components.cell_count
    exhausted = False
    if fills:
        search = _perfect_search(problem, budget, seed, caps)
        if search.plays is not None:
            return _Hint(search.plays, False)
        exhausted = search.exhausted
    no_target_map = False
    short_model = Challenge.GREAT_DIVIDE in cards and SHORT_GAME_DIVIDE_MODEL
    if (fills or short_model) and not exhausted and not budget.expired() and not cards & MODEL_UNTARGETED_CARDS:
        target_map = _target_model_play(problem, caps, budget, workers, tally)
        if target_map.plays is not None:
            return target_map
        no_target_map = target_map.no_perfect_map
    return _greedy_hint(problem, seed, no_target_map, budget)


def _ascent_hint(problem: MaxProblem, budget: Budget, seed: int, workers: int, tally: _Tally) -> _Hint:
    """The better (by `rules.score`) of the perfect-map ascent (`max_ascent`, within ASCENT_SHARE of the
    budget) and the greedy play. When the ascent meets the cards' caps its map is at the target value, an
    upper bound on every map (`target_value`), so CP-SAT proves it at the root.

    When it misses them and the target value does bound every map (only `TARGET_CARDS` in play, Quick Pee
    among them; not with The Great Divide), CP-SAT's target feasibility model gets PERFECT_MODEL_SHARE of
    what is left first (`ASCENT_TARGET_MODEL`): a map it finds is proven at the root, and its INFEASIBLE
    status caps the main model below the target."""
    ascent = perfect_card_ascent(problem, budget.limited(budget.remaining() * ASCENT_SHARE), seed)
    if ascent is not None and ascent.capped:
        return _Hint(ascent.plays, False)
    no_target_map = False
    cards = set(problem.challenges)
    if ASCENT_TARGET_MODEL and cards <= TARGET_CARDS and Challenge.GREAT_DIVIDE not in cards and not budget.expired():
        target_map = _target_model_play(problem, _target_caps(problem), budget, workers, tally)
        if target_map.plays is not None:
            return target_map
        no_target_map = target_map.no_perfect_map
    greedy = _greedy_hint(problem, seed, no_target_map, budget)
    if ascent is None or greedy.plays is None:
        return greedy if ascent is None else _Hint(ascent.plays, no_target_map)
    greedy_total = score(
        final_grid(problem, greedy.plays), problem.challenges, problem.components, festival_won=problem.festival_won
    ).total
    return _Hint(ascent.plays, no_target_map) if ascent.total >= greedy_total else greedy


def _better_hint(problem: MaxProblem, first: _Hint, second: _Hint) -> _Hint:
    """Of two warm starts, the one whose final map scores more by the rules (an incomplete map counts as none;
    a tie keeps the first)."""

    def value(hint: _Hint) -> int | None:
        if hint.plays is None:
            return None
        answer = _hint_answer(problem, hint.plays)
        return answer[2] if answer is not None else None

    a, b = value(first), value(second)
    if a is None:
        return second
    if b is None:
        return first
    return first if a >= b else second


def _target_model_play(
    problem: MaxProblem, caps: dict[Challenge, int], budget: Budget, workers: int, tally: _Tally
) -> _Hint:
    """CP-SAT on the target feasibility model (perfect map, every card at its cap) within
    PERFECT_MODEL_SHARE of the budget left: its map if found, else whether it proved that none exists."""
    built = _build_clairvoyant(problem, "perfect", targets=caps)
    result = solve(
        built.model, budget.limited(budget.remaining() * PERFECT_MODEL_SHARE), workers=workers, configure=_configure
    )
    tally.add(result)
    if result.has_solution:
        return _Hint([turn.placement for turn in built.read_turns(result)], False)
    return _Hint(None, result.status == cp_model.INFEASIBLE)


def _perfect_search(problem: MaxProblem, budget: Budget, seed: int, caps: dict[Challenge, int]) -> PerfectSearch:
    """The depth-first search for a perfect map, aimed at the caps of Dangerous Animals / Quick Pee.

    Tried: hinting any perfect map when none meets the caps (45 + a few card points, above the greedy
    play's total) made the final answers *worse* (Privacy 49 and 52 against 61 and 54 from the greedy
    hint, same 10 s): CP-SAT stays near a hint whose card score is poor.
    """
    share = budget.limited(budget.remaining() * PERFECT_SEARCH_SHARE)
    comp = problem.components
    divide = Challenge.GREAT_DIVIDE in problem.challenges
    if not caps and not divide:
        return perfect_play(
            problem.start_grid, problem.rolls, comp, rng_for(seed, "happy_campers.maximise.perfect"), share
        )
    target = sum(caps.values())
    cards = problem.challenges
    festival_won = problem.festival_won

    def card_points(grid: Grid) -> int:
        """The capped cards' points of a complete map (below the target when The Great Divide says the map
        is incomplete)."""
        breakdown = score(grid, cards, comp, festival_won=festival_won)
        if not breakdown.complete:
            return target - 1
        return sum(breakdown.challenge_points.get(card, 0) for card in caps)

    return perfect_play(
        problem.start_grid,
        problem.rolls,
        comp,
        rng_for(seed, "happy_campers.maximise.perfect_cards"),
        share,
        accept=lambda grid: card_points(grid) >= target,
        viable=_card_viability(problem, caps),
        prefer=_card_preference(problem, caps) if CARD_PREFERENCE else None,
    )


def _greedy_hint(problem: MaxProblem, seed: int, no_perfect_map: bool, budget: Budget) -> _Hint:
    """The best greedy rollout, within a share of the budget (at least one rollout is always finished:
    the solve needs a start; under a load average of 30, twelve 20-roll rollouts took most of 10 s)."""
    bonus = card_bonus(problem.challenges, problem.components) if CARD_MOVE_TERMS else None
    warm = greedy_play(
        problem.start_grid,
        problem.rolls,
        problem.challenges,
        problem.components,
        rng_for(seed, "happy_campers.maximise.warmstart"),
        WARMSTART_ROLLOUTS if bonus is None else CARD_WARMSTART_ROLLOUTS,
        festival_won=problem.festival_won,
        bonus=bonus,
        budget=budget.limited(budget.remaining() * GREEDY_SHARE),
    )
    return _Hint(warm[1] if warm else None, no_perfect_map)


def _complete_hint(model: cp_model.CpModel, budget: Budget, workers: int, tally: _Tally) -> None:
    """Extend a partial hint (the play's decisions) to every variable of the model.

    CP-SAT completes a partial hint by its own search, and on these models that search often drifts far
    from the hinted play (a perfect play hinted without its cluster trees came back as a 36-point map).
    Solving a copy with the hinted variables pinned takes a fraction of a second and gives a full
    assignment, which the real solve then takes as its first solution. The copy's answer is only a hint:
    the proof still comes from the unpinned model's own status.
    """
    hinted = list(zip(model.proto.solution_hint.vars, model.proto.solution_hint.values, strict=True))
    if not hinted or budget.expired():
        return
    pinned = model.clone()
    for index, value in hinted:
        pinned.add(pinned.get_int_var_from_proto_index(index) == value)
    share = budget.limited(budget.remaining() * HINT_COMPLETION_SHARE)
    result = solve(pinned, share, workers=workers, configure=_configure)
    tally.add(result)
    if not result.has_solution:
        return
    solution = result.solver.response_proto.solution
    model.clear_hints()
    for index in range(len(model.proto.variables)):
        model.add_hint(model.get_int_var_from_proto_index(index), solution[index])


#: Prove by card levels (`max_levels`) when the main solve leaves a gap with Privacy, Tent Together or River
#: Town in play; the main solve then gets LEVEL_MAIN_SHARE of the time left. Off by default: measured, it
#: closed no more than it cost. Singles table side by side under load 10-13: 13/63 with, 16/63 without
#: (10-roll River Town 0/3 against 2/3: the main solve's late proofs lose their time); 6 open 15-roll cases
#: at 30 s (about the CPU of a quiet 10-s run): 1 proven with (River Town 55), 2 without (Privacy 63, 10
#: rolls 47). It does lower open bounds (Tent Together 69 -> 66, River Town 60 -> 55) and finds maps the main
#: solve misses; `python -m bench.happy_campers_max --proof-table --levels on` measures it.
LEVEL_PROOF = False
LEVEL_MAIN_SHARE = 0.5
#: Start the level problems from the main solve's best map (as a hint; it is below their threshold, so it
#: only steers the search toward its neighbourhood).
LEVEL_HINT_INCUMBENT = True


def _hint_solution(model: cp_model.CpModel, result: CpSolveResult) -> None:
    """Replace the model's hint by a full solution of it."""
    solution = result.solver.response_proto.solution
    model.clear_hints()
    for index in range(len(model.proto.variables)):
        model.add_hint(model.get_int_var_from_proto_index(index), solution[index])


#: Time kept back from the last solve of a phase for what follows it (reading, replaying and re-scoring the
#: answer, building phase B): under a load average of 7, 10 s answers came back up to 0.3 s late without it.
POST_SOLVE_RESERVE_S = 0.25
POST_SOLVE_RESERVE_SHARE = 0.03


def _search_share(budget: Budget) -> Budget:
    """The budget less a small reserve for the work after the solve (the deadline is the answer's)."""
    remaining = budget.remaining()
    return budget.limited(remaining - min(POST_SOLVE_RESERVE_S, POST_SOLVE_RESERVE_SHARE * remaining))


#: A checked answer: (map, turns, rules score, breakdown).
_Answer = tuple[Grid, tuple[TurnPlay, ...], int, ScoreBreakdown]


@dataclass
class _PhaseA:
    """Phase A's solve of the complete-map model: the result, its checked answer, and its bound (-inf: no complete map
    at all; None: nothing found and nothing proven); `by_levels` and `improving` say which proof may follow."""

    result: CpSolveResult
    answer: _Answer | None
    bound: float | None
    by_levels: bool
    improving: bool


@abandons_builds_on_cancel
def _maximise(
    problem: MaxProblem,
    budget: Budget,
    builder: Callable[[MaxProblem, Mode], _Built],
    *,
    incomplete_phase: bool,
    workers: int,
    seed: int = 0,
    given_hint: _Hint | None = None,
) -> MaxResult:
    """Phase A (complete maps, maximise) and, if A cannot reach 0, phase B (an incomplete outcome?).

    `given_hint` (clairvoyant only) replaces the warm-start searches. Every model built on the way is abandoned
    (`SolveInterrupted`) once `budget` is cancelled."""
    tally = _Tally()
    if budget.expired():
        # CP-SAT ignores a stop request made before its search starts, so never start one.
        return MaxResult(None, None, None, None, (), None, tally.stats(), problem)
    hint: _Hint | None = None
    if problem.kind == "clairvoyant":
        hint = given_hint or _clairvoyant_hint(problem, budget, seed, workers, tally)
        prepared = _clairvoyant_main_model(problem, hint, budget, workers, tally, seed)
        if isinstance(prepared, MaxResult):
            return prepared
        built = prepared
    else:
        built = builder(problem, "complete")
    phase_a = _solve_phase_a(problem, built, hint, budget, workers, tally)
    answer = phase_a.answer
    a_value = answer[2] if answer else None
    if (answer is not None and a_value is not None and a_value >= 0) or not incomplete_phase:
        return _complete_answer(problem, built, phase_a, budget, workers, tally)
    return _phase_b(problem, builder, phase_a, budget, workers, tally)


def _clairvoyant_main_model(
    problem: MaxProblem, hint: _Hint, budget: Budget, workers: int, tally: _Tally, seed: int = 0
) -> _Built | MaxResult:
    """The clairvoyant main model, fixed at the hint's floor, cut below the perfect-map target when the hint proved
    no perfect map, and hinted with a complete solution; or the walk down from the top's answer when it found one.
    With Nature Reserve the pattern search (`_nature_holes`) first improves the hint, and replaces the walk."""
    floor = _hint_floor(problem, hint.plays) if ASSIGNMENT_FIXING else None
    searched_holes = False
    neighbourhood_share = _neighbourhood_share(problem)
    if neighbourhood_share is not None and floor is not None and floor >= 0:
        top = max_models.cached_programme(problem, max_models.clairvoyant_nature_caps(problem)).bound()
        start = _hint_answer(problem, hint.plays) if hint.plays is not None else None
        if top is not None and start is not None:
            if hint.no_perfect_map:
                top = min(top, target_value(problem, _target_caps(problem)) - 1)
            share = budget.limited(budget.remaining() * neighbourhood_share)
            found = _nature_holes(problem, start, top, share, seed, workers, tally)
            searched_holes = _nature_holes_apply(problem)  # Nature Reserve: the search replaces the walk
            if found[2] > floor:
                hint = _Hint(tuple(turn.placement for turn in found[1]), hint.no_perfect_map)
                floor = found[2]
    walked = None
    # Else (no walk, the pattern search, or the Nature Reserve climb) the main solve and phase B decide.
    if TOP_DOWN and not searched_holes and not _nature_ascends(problem) and floor is not None and floor >= 0:
        walked = _top_down(problem, floor, hint.no_perfect_map, budget, workers, tally)
    if walked is not None and walked.answer is not None:
        grid, turns, value, breakdown = walked.answer
        # OPTIMAL only on CP-SAT's own verdict on the level's model (objective pinned at the proven bound).
        proof = Proof.OPTIMAL if walked.closed else Proof.FEASIBLE_WITH_BOUND
        return MaxResult(value, proof, walked.bound, grid, turns, breakdown, tally.stats(), problem)
    built = _build_clairvoyant(problem, "complete", hint=hint.plays, floor=floor)
    if hint.no_perfect_map:
        assert built.objective is not None
        built.model.add(built.objective <= target_value(problem, _target_caps(problem)) - 1)
    if walked is not None and built.assignment_bound is not None and walked.bound < built.assignment_bound:
        assert built.objective is not None
        built.model.add(built.objective <= walked.bound)
        built.assignment_bound = walked.bound
    _complete_hint(built.model, budget, workers, tally)
    return built


def _solve_phase_a(
    problem: MaxProblem, built: _Built, hint: _Hint | None, budget: Budget, workers: int, tally: _Tally
) -> _PhaseA:
    """Solve the complete-map model on its share of the budget (less when a proof by levels or the improve-or-prove
    loop may follow) and check its answer with the rules model."""
    by_levels = LEVEL_PROOF and levels_apply(problem) and built.bonus is not None
    improving = (
        (IMPROVE_OR_PROVE or _nature_ascends(problem))
        and problem.kind == "clairvoyant"
        and built.assignment_bound is not None
    )
    if by_levels:
        main_share = budget.limited(budget.remaining() * LEVEL_MAIN_SHARE)
    elif improving:
        main_share = budget.limited(budget.remaining() * IMPROVE_MAIN_SHARE)
    else:
        main_share = _search_share(budget)
    configure = _configure_clairvoyant if problem.kind == "clairvoyant" else _configure
    res_a = solve(built.model, main_share, workers=workers, configure=configure)
    tally.add(res_a)
    answer = None
    if res_a.has_solution:
        answer = _checked_answer(problem, built, res_a)
    elif res_a.status == cp_model.UNKNOWN and hint is not None and hint.plays is not None:
        # The solve had too little time to load even the hint (a heavy load): the hint is still a legal
        # play; answered as HEURISTIC (no bound) when its map is complete.
        answer = _hint_answer(problem, hint.plays)
    if answer is not None and built.assignment_bound is not None and answer[2] > built.assignment_bound:
        raise ModelMismatch(f"rules score {answer[2]} above the assignment bound {built.assignment_bound}")
    # -inf: no complete map at all; None: nothing found and nothing proven.
    bound_a = float("-inf") if res_a.status == cp_model.INFEASIBLE else _tighter(res_a.bound, built.assignment_bound)
    return _PhaseA(res_a, answer, bound_a, bool(by_levels), improving)


def _complete_answer(
    problem: MaxProblem, built: _Built, phase_a: _PhaseA, budget: Budget, workers: int, tally: _Tally
) -> MaxResult:
    """Phase A's answer (no phase B): proven by levels or by the improve-or-prove loop when CP-SAT left a gap."""
    res_a, answer = phase_a.result, phase_a.answer
    if answer is None:
        proof = Proof.INFEASIBLE if res_a.status == cp_model.INFEASIBLE else None
        return MaxResult(None, proof, None, None, (), None, tally.stats(), problem)
    grid, turns, value, breakdown = answer
    proof = Proof.OPTIMAL if res_a.status == cp_model.OPTIMAL else Proof.FEASIBLE_WITH_BOUND
    bound = _tighter(res_a.bound, built.assignment_bound)
    if phase_a.by_levels and res_a.has_solution and proof is not Proof.OPTIMAL and not budget.expired():
        if LEVEL_HINT_INCUMBENT:
            _hint_solution(built.model, res_a)
        levels = prove_by_levels(
            problem,
            built,
            answer,
            value,
            bound,
            _search_share(budget),
            workers=workers,
            configure=_configure,
            record=tally.add,
            check=lambda level_built, result: _checked_answer(problem, level_built, result),
        )
        grid, turns, value, breakdown = levels.answer
        bound = levels.bound
        # OPTIMAL only when CP-SAT closed every level and the rest (`max_levels`).
        proof = Proof.OPTIMAL if levels.closed else Proof.FEASIBLE_WITH_BOUND
    if phase_a.improving and proof is not Proof.OPTIMAL and not budget.expired():
        better = _improve_or_prove(problem, (grid, turns, value, breakdown), bound, budget, workers, tally)
        (grid, turns, value, breakdown), bound = better.answer, better.bound
        # OPTIMAL only on CP-SAT's own verdict on the "strictly better" model (`_improve_or_prove`).
        proof = Proof.OPTIMAL if better.closed else Proof.FEASIBLE_WITH_BOUND
    if bound is None:
        proof = Proof.HEURISTIC
    return MaxResult(value, proof, bound, grid, turns, breakdown, tally.stats(), problem)


def _phase_b(
    problem: MaxProblem,
    builder: Callable[[MaxProblem, Mode], _Built],
    phase_a: _PhaseA,
    budget: Budget,
    workers: int,
    tally: _Tally,
) -> MaxResult:
    """Phase B: does some legal outcome leave the map incomplete (worth 0)? Then the answer from both phases."""
    res_a, answer, bound_a = phase_a.result, phase_a.answer, phase_a.bound
    res_b = None
    answer_b = None
    if not budget.expired():
        built_b = builder(problem, "incomplete")
        res_b = solve(built_b.model, _search_share(budget), workers=workers, configure=_configure)
        tally.add(res_b)
        if res_b.has_solution:
            answer_b = _checked_answer(problem, built_b, res_b)
            if answer_b[2] != 0:
                raise ModelMismatch("an incomplete map scored non-zero")
    closed = _closed(res_a) and res_b is not None and _closed(res_b)
    if answer_b is not None:
        grid, turns, value, breakdown = answer_b
        bound = None if bound_a is None else max(0, int(bound_a + 1e-6) if bound_a != float("-inf") else 0)
        proof = Proof.OPTIMAL if closed else (Proof.FEASIBLE_WITH_BOUND if bound is not None else Proof.HEURISTIC)
        return MaxResult(value, proof, bound, grid, turns, breakdown, tally.stats(), problem)
    if answer is not None:
        grid, turns, value, breakdown = answer
        if closed:
            return MaxResult(value, Proof.OPTIMAL, value, grid, turns, breakdown, tally.stats(), problem)
        bound = None if bound_a is None else max(0, int(bound_a + 1e-6))
        proof = Proof.FEASIBLE_WITH_BOUND if bound is not None else Proof.HEURISTIC
        return MaxResult(value, proof, bound, grid, turns, breakdown, tally.stats(), problem)
    if res_b is not None and res_b.status == cp_model.INFEASIBLE and res_a.status == cp_model.INFEASIBLE:
        raise ModelMismatch("neither a complete nor an incomplete outcome exists")
    return MaxResult(None, None, None, None, (), None, tally.stats(), problem)


#: Before the main solve, walk down from the per-roll assignment bound one level at a time (`_top_down`).
TOP_DOWN = True
#: Share of the remaining budget the walk may use in all (each level gets what is left of it).
TOP_DOWN_SHARE = 0.8


@dataclass
class _Walked:
    """What the walk down from the top proved: `bound` (every level above it holds no map), and the map found at
    that level with whether CP-SAT closed that level's model."""

    bound: int
    answer: tuple[Grid, tuple[TurnPlay, ...], int, ScoreBreakdown] | None
    closed: bool


def _level_model(problem: MaxProblem, level: int) -> _Built:
    """The walk's model of one level: the clairvoyant model with the fixing at `level` (every map scoring `level` or
    more stays) and the objective pinned to `level`; feasible exactly when some map scores `level` (when every
    level above is empty)."""
    built = _build_clairvoyant(problem, "complete", floor=level)
    assert built.objective is not None
    built.model.name = f"top_down_{level}"
    built.model.add(built.objective >= level)
    built.model.add(built.objective <= level)
    return built


def _top_down(
    problem: MaxProblem, floor: int, no_perfect_map: bool, budget: Budget, workers: int, tally: _Tally
) -> _Walked | None:
    """Walk down from the proven top (the per-roll assignment bound; one below the target value when no perfect map
    exists) toward the warm start's score, one level L at a time: CP-SAT on the clairvoyant model with every
    drawing removed through which no map reaches L (the fixing at L keeps every map scoring L or more) and the
    objective pinned to L (every level above was proven empty). INFEASIBLE: no map scores L, the bound falls to
    L - 1 and the walk goes on. A map found scores exactly L, the proven bound: the walk stops with it, closed
    when CP-SAT says OPTIMAL. A level stopped by the budget ends the walk with the bound where it stands.

    Why: the programme's bound sits at or one point above the optimum on most roll sequences (measured), while the
    main solve, fixed only at the warm start's score, searches a far larger model and often ends 5-9 points below
    in 10 CPU-s; at the top almost every drawing is fixed away and CP-SAT finds or refutes a level in seconds.
    `floor` is the warm start's score (a map reaches it, so a walk down to it proves it). None when there is
    nothing to walk (no complete map, or the floor already meets the top)."""
    if budget.expired():
        return None
    top = max_models.cached_programme(problem, max_models.clairvoyant_nature_caps(problem)).bound()
    if top is None:
        return None
    if no_perfect_map:
        top = min(top, target_value(problem, _target_caps(problem)) - 1)
    if top <= floor:
        return None
    share = budget.limited(budget.remaining() * TOP_DOWN_SHARE)
    level = top
    budget.report(best=floor, bound=top)  # a map scores `floor`; no map scores above `top`
    while level > floor and not share.expired():
        built = _level_model(problem, level)
        result = solve(built.model, _search_share(share), workers=workers, configure=_configure)
        tally.add(result)
        if result.status == cp_model.INFEASIBLE:
            level -= 1
            budget.report(bound=level)
            continue
        if result.has_solution:
            found = _checked_answer(problem, built, result)
            if found[2] != level:
                raise ModelMismatch(f"a map worth {found[2]} from the model pinned at {level}")
            return _Walked(level, found, result.status == cp_model.OPTIMAL)
        break
    return _Walked(level, None, False)


#: With Nature Reserve (and its caps), improve the warm start before the main solve by large neighbourhoods of its
#: drawings (`_nature_holes`, in place of the walk): its share of the budget left after the warm starts, the CPU of
#: one neighbourhood's solve, and the window radii tried in turn (Chebyshev distance around a centre square).
NATURE_HOLES = True
NATURE_HOLES_SHARE = 0.7
NATURE_HOLE_CHECK_S = 0.4
NATURE_HOLE_RADII = (1, 2)
#: The last drawings of the best map, always left free in a window's model (the game may end elsewhere).
NATURE_HOLE_FREE_LAST = 1


def _nature_holes_apply(problem: MaxProblem) -> bool:
    """Whether the pattern search runs: a clairvoyant problem with Nature Reserve and its shipped caps."""
    return (
        NATURE_HOLES
        and problem.kind == "clairvoyant"
        and Challenge.NATURE_RESERVE in problem.challenges
        and max_models.clairvoyant_nature_caps(problem) is not None
    )


#: Privacy: the same neighbourhood search (`_nature_holes`) on PRIVACY_NEIGHBOURHOOD_SHARE of the budget before the
#: walk (which still runs). Off by default (an A/B arm).
PRIVACY_NEIGHBOURHOODS = False
PRIVACY_NEIGHBOURHOOD_SHARE = 0.3


def _neighbourhood_share(problem: MaxProblem) -> float | None:
    """The share of the budget the neighbourhood search gets before the main solve (None: it does not run)."""
    if _nature_holes_apply(problem) and not _nature_ascends(problem):
        return NATURE_HOLES_SHARE
    if PRIVACY_NEIGHBOURHOODS and problem.kind == "clairvoyant" and Challenge.PRIVACY in problem.challenges:
        return PRIVACY_NEIGHBOURHOOD_SHARE
    return None


def _canonical_turns(problem: MaxProblem, turns: Sequence[TurnPlay]) -> tuple[TurnPlay, ...]:
    """The play mapped by the flip that makes its first drawing an orbit minimum (the model keeps only those;
    `max_models._add_play_hint` does the same): every card in play respects these flips."""
    pre = {(r, c) for r, row in enumerate(problem.start_grid) for c, v in enumerate(row) if v}
    symmetries = max_models._first_turn_symmetries(problem, pre)
    first = turns[0].placement if turns else None
    if not symmetries or first is None:
        return tuple(turns)
    best_key, flip = sorted(first.cells), None
    for g in symmetries:
        key = sorted(g(cell) for cell in first.cells)
        if key < best_key:
            best_key, flip = key, g
    if flip is None:
        return tuple(turns)
    return tuple(
        TurnPlay(
            t.turn,
            t.roll,
            None
            if t.placement is None
            else Placement(frozenset(flip(c) for c in t.placement.cells), t.placement.element, t.placement.option),
        )
        for t in turns
    )


def _nature_holes(
    problem: MaxProblem, answer: _Answer, top: int, budget: Budget, seed: int, workers: int, tally: _Tally
) -> _Answer:
    """A better map than `answer` by large neighbourhoods of its drawings (a finder only: no bound from here).

    Round by round, with v the best map's score: the clairvoyant model fixed and cut at v + 1 (`floor`: the per-roll
    fixing and Nature Reserve's floor cut, which near the cap leave only lattices of single holes) and
    "objective >= v + 1" as a feasibility problem, with every drawing of the best map kept as it is except those
    touching one small window of squares and the last drawings (so the game may end sooner or later). Why: the maps
    near Nature Reserve's cap are lattices of single holes, which the turn-by-turn search of the whole model finds
    only in 7-30 CPU-s; with most drawings fixed the model is small and CP-SAT decides it in a fraction of a second.
    A window's map is replayed and scored by the rules model (`_checked_answer`)."""
    rng = rng_for(seed, "happy_campers.maximise.nature_holes")
    radii = list(NATURE_HOLE_RADII)
    turns = _canonical_turns(problem, answer[1])
    while answer[2] < top and radii and not budget.expired():
        target = answer[2] + 1
        built = _build_clairvoyant(problem, "complete", floor=target)
        assert built.objective is not None
        built.model.add(built.objective >= target)
        built.model.clear_objective()
        mv = built.mv
        drawn_turns = [t for t in turns if t.placement is not None]
        last = {t.turn for t in drawn_turns[-NATURE_HOLE_FREE_LAST:]}
        centres = [int(i) for i in rng.permutation(len(mv.cells))]
        radius = radii[0]
        improved = None
        for centre in centres:
            if budget.expired():
                break
            cr, cc = mv.cells[centre]
            model = built.model.clone()
            for play in drawn_turns:
                placement = play.placement
                assert placement is not None
                if play.turn in last or any(max(abs(r - cr), abs(c - cc)) <= radius for r, c in placement.cells):
                    continue
                turn = built.turn_vars[play.turn]
                if placement.cells not in turn.use or int(placement.element) not in turn.element:
                    continue  # not a drawing of this model (cannot happen for a legal play): left free
                model.add(turn.use[placement.cells] == 1)
                model.add(turn.element[int(placement.element)] == 1)
            result = solve(model, budget.limited(NATURE_HOLE_CHECK_S), workers=workers, configure=_configure)
            tally.add(result)
            if result.has_solution:
                improved = _checked_answer(problem, built, result)
                break
        if improved is None:
            radii.pop(0)  # no window of this size helps: try larger ones
            continue
        if improved[2] < target:
            raise ModelMismatch(f"a map worth {improved[2]} from a window asking for {target} or more")
        answer = improved
        turns = improved[1]
        radii = list(NATURE_HOLE_RADII)
    return answer


#: After the main solve (IMPROVE_MAIN_SHARE of the budget), ask CP-SAT for a strictly better map with the
#: per-roll fixing at that level (`_improve_or_prove`) until it says none exists or the budget is spent.
IMPROVE_OR_PROVE = False
IMPROVE_MAIN_SHARE = 0.5
#: With Nature Reserve (and its caps), climb instead of walking down: no walk, the main solve and then the
#: improve-or-prove rounds (`_improve_or_prove`), each fixed and cut at the level it asks for. Off by default:
#: at 10 CPU-s the climb finds better maps (median gap 7 -> 5) but proves none; at 30 CPU-s the walk with the
#: floor cut proves 4 of 9 where the climb proves 1 (measured: docs/solvers/happy-campers.md).
NATURE_ASCENT = False


def _nature_ascends(problem: MaxProblem) -> bool:
    """Whether this problem climbs (`NATURE_ASCENT`) instead of walking down: a clairvoyant one with Nature Reserve
    and its shipped caps."""
    return (
        NATURE_ASCENT
        and problem.kind == "clairvoyant"
        and Challenge.NATURE_RESERVE in problem.challenges
        and max_models.clairvoyant_nature_caps(problem) is not None
    )


@dataclass
class _Improved:
    answer: tuple[Grid, tuple[TurnPlay, ...], int, ScoreBreakdown]
    bound: int | None
    closed: bool


def _improve_or_prove(
    problem: MaxProblem,
    answer: tuple[Grid, tuple[TurnPlay, ...], int, ScoreBreakdown],
    bound: int | None,
    budget: Budget,
    workers: int,
    tally: _Tally,
) -> _Improved:
    """Close the gap above a checked answer worth v: CP-SAT on the clairvoyant model with "objective >= v + 1"
    and every drawing that cannot lead to v + 1 by the per-roll assignment bound removed (`floor`, which keeps
    every map scoring v + 1 or more). INFEASIBLE: no map beats v, the answer is the maximum. A map found is
    replayed and re-scored (`_checked_answer`) and becomes the answer; when that solve is OPTIMAL it is the
    maximum (the model holds every better map), else the next round asks for more. A round stopped by the
    budget leaves the bound at the larger of v and that round's proven bound (maps above v are in its model)."""
    value = answer[2]
    while not budget.expired():
        if bound is not None and value >= bound:
            return _Improved(answer, value, True)
        built = _build_clairvoyant(problem, "complete", floor=value + 1)
        assert built.objective is not None
        built.model.add(built.objective >= value + 1)
        result = solve(built.model, _search_share(budget), workers=workers, configure=_configure)
        tally.add(result)
        if result.status == cp_model.INFEASIBLE:
            return _Improved(answer, value, True)
        if result.has_solution:
            found = _checked_answer(problem, built, result)
            if found[2] <= value:
                raise ModelMismatch(f"a map worth {found[2]} from the model asking for more than {value}")
            answer, value = found, found[2]
            if result.status == cp_model.OPTIMAL:
                return _Improved(answer, value, True)
        if result.bound is not None:
            round_bound = max(value, int(result.bound + 1e-6))
            bound = round_bound if bound is None else min(bound, round_bound)
        if not result.has_solution:
            break  # the round ran out of time without a map: nothing more to learn with what is left
    return _Improved(answer, bound if bound is None else max(bound, value), False)


#: Drop from the main model every drawing through which no map can reach the warm start's score by the per-roll
#: assignment bound (`max_models._add_assignment_fixing`): the warm start and every better map stay.
ASSIGNMENT_FIXING = True


def _hint_floor(problem: MaxProblem, plays: Sequence[Placement | None] | None) -> int | None:
    """The rules score of the warm start's final map when it is complete (a score some map of the model reaches),
    else None."""
    if plays is None:
        return None
    answer = _hint_answer(problem, plays)
    return answer[2] if answer is not None else None


def _tighter(cpsat_bound: float | None, assignment: int | None) -> int | None:
    """The proven bound to report: CP-SAT's, or the per-roll assignment bound (`max_assignment`) when it is lower
    or CP-SAT proved none (a solve stopped before it loaded the hint). Only ever a bound: OPTIMAL still comes
    from CP-SAT's status alone."""
    bounds = [int(cpsat_bound + 1e-6)] if cpsat_bound is not None else []
    if assignment is not None:
        bounds.append(assignment)
    return min(bounds) if bounds else None


def _normalised_start(start_grid: Grid | None, components: Components) -> Grid:
    if start_grid is None:
        return empty_grid(components)
    return validate_grid(start_grid, components)


def clairvoyant_max(
    start_grid: Grid | None,
    rolls: Sequence[Roll],
    challenges: Iterable[Challenge] = (),
    components: Components = DEFAULT_COMPONENTS,
    budget: Budget | None = None,
    *,
    festival_won: bool = True,
    workers: int = 2,
    start_plays: Sequence[Placement | None] | None = None,
) -> MaxResult:
    """The best final score of one map for a known roll sequence under forced single-map play.

    `start_plays` (one placement or None per roll, e.g. the placements of an earlier answer's turns)
    replaces the warm-start searches: CP-SAT starts from that play, so a second, longer ask resumes from
    the best map already known, and the bench can tell a missing map from a missing bound. It is
    replayed by the rules model first (`ValueError` if it is not a legal play of these rolls). It only
    changes where the search starts: the value and the proof still come from CP-SAT's status.
    """
    problem = MaxProblem(
        kind="clairvoyant",
        components=components,
        challenges=tuple(sorted(set(challenges), key=lambda ch: ch.value)),
        start_grid=_normalised_start(start_grid, components),
        rolls=tuple(validate_roll(r) for r in rolls),
        festival_won=festival_won,
    )
    given = None if start_plays is None else _Hint(_checked_start_plays(problem, start_plays), False)
    return _maximise(
        problem, budget or Budget(), _build_clairvoyant, incomplete_phase=True, workers=workers, given_hint=given
    )


def _checked_start_plays(problem: MaxProblem, start_plays: Sequence[Placement | None]) -> tuple[Placement | None, ...]:
    """The caller's warm start, one entry per roll, replayed by the rules model (`_replayed`)."""
    plays = tuple(start_plays)
    if len(plays) != len(problem.rolls):
        raise ValueError(f"start_plays: {len(plays)} plays for {len(problem.rolls)} rolls")
    turns = [TurnPlay(t, roll, play) for t, (roll, play) in enumerate(zip(problem.rolls, plays, strict=True))]
    _replayed(problem, turns, ValueError, lambda turn: f"start_plays[{turn}]")
    return plays


def absolute_max(
    components: Components = DEFAULT_COMPONENTS,
    challenges: Iterable[Challenge] = (),
    budget: Budget | None = None,
    start_grid: Grid | None = None,
    *,
    festival_won: bool = True,
    workers: int = 2,
) -> MaxResult:
    """The best score over every map some sequence of legal drawings can produce from `start_grid`.

    An incomplete map scores 0; the start map itself (no further drawing) is incomplete exactly when some
    element is missing from it, and drawing never removes an element, so 0 is reachable iff the start map
    is incomplete.
    """
    problem = MaxProblem(
        kind="absolute",
        components=components,
        challenges=tuple(sorted(set(challenges), key=lambda ch: ch.value)),
        start_grid=_normalised_start(start_grid, components),
        festival_won=festival_won,
    )
    result = _maximise(problem, budget or Budget(), _build_absolute, incomplete_phase=False, workers=workers)
    start_points, start_breakdown = _points(problem, problem.start_grid)
    if start_breakdown.complete:
        return result
    # The untouched start map is a legal outcome worth 0.
    if result.score is not None and result.score >= 0:
        return result
    proof = Proof.OPTIMAL if result.proof in (Proof.OPTIMAL, Proof.INFEASIBLE) else Proof.FEASIBLE_WITH_BOUND
    bound = None if result.bound is None else max(result.bound, 0)
    if result.proof is Proof.INFEASIBLE:
        bound = 0
    if bound is None:
        proof = Proof.HEURISTIC
    return MaxResult(start_points, proof, bound, problem.start_grid, (), start_breakdown, result.stats, problem)


def challenge_max(
    card: Challenge,
    components: Components = DEFAULT_COMPONENTS,
    budget: Budget | None = None,
    *,
    festival_won: bool = True,
    workers: int = 2,
) -> MaxResult:
    """One card's own best points over complete maps that legal drawing can produce (from an empty map).

    Completeness is required because an incomplete map scores 0 whatever the card says; that is how the
    printed maxima read (River Town: four rivers, 20, since five would leave no room for other elements).
    """
    problem = MaxProblem(
        kind="challenge",
        components=components,
        challenges=(card,),
        start_grid=empty_grid(components),
        festival_won=festival_won,
        card=card,
    )
    return _maximise(problem, budget or Budget(), _build_absolute, incomplete_phase=False, workers=workers)


# ---------------------------------------------------------------------------------------------------------
# Uniqueness
# ---------------------------------------------------------------------------------------------------------


_BUILDERS: dict[str, Callable[[MaxProblem, Mode], _Built]] = {
    "clairvoyant": _build_clairvoyant,
    "absolute": _build_absolute,
    "challenge": _build_absolute,
}


def is_unique_optimum(result: MaxResult, budget: Budget | None = None) -> bool | None:
    """Is `result.grid` the only final map reaching the proven optimum?

    "Same solution" means the same final map (element per square): two drawing orders or placement
    splits that end in the same map are one solution. Returns None when undecided (the result is not
    proven optimal, or the re-solve ran out of budget).
    """
    if result.proof is not Proof.OPTIMAL or result.score is None or result.grid is None:
        return None
    budget = budget or Budget()
    problem = result.problem
    optimum = result.score
    flat = [v for row in result.grid for v in row]
    built = _BUILDERS[problem.kind](problem, "complete")
    literals = [lit for row in built.mv.cell_element for lit in row]
    values = [flat[i] == e for i in range(len(flat)) for e in built.mv.elements]
    assert built.objective is not None
    check = check_unique_optimum(built.model, built.objective, optimum, literals, values, budget)
    if check.unique is not True:
        return check.unique
    if optimum < 0 or problem.kind == "challenge":
        return True
    # A score of 0 is also reached by every incomplete outcome.
    if problem.kind == "absolute":
        return not (
            optimum == 0 and problem.start_grid != result.grid and not _points(problem, problem.start_grid)[1].complete
        )
    if optimum > 0:
        return True
    built_b = _build_clairvoyant(problem, "incomplete")
    literals_b = [lit for row in built_b.mv.cell_element for lit in row]
    add_nogood(built_b.model, literals_b, values)
    other = solve(built_b.model, budget)
    if other.status == cp_model.INFEASIBLE:
        return True
    if other.has_solution:
        return False
    return None


# ---------------------------------------------------------------------------------------------------------
# Encoding check
# ---------------------------------------------------------------------------------------------------------


def model_score(
    grid: Grid,
    challenges: Iterable[Challenge] = (),
    components: Components = DEFAULT_COMPONENTS,
    budget: Budget | None = None,
    *,
    festival_won: bool = True,
) -> int | None:
    """What the CP-SAT scoring encoding says a fixed map is worth (None: the model calls it incomplete).

    Not an optimiser: every square is pinned, so this isolates the scoring encoding (clusters, rivers,
    tent squares, isolated empties, completeness) for tests against `rules.score`.
    """
    grid = validate_grid(grid, components, require_connected=False)
    problem = MaxProblem("absolute", components, tuple(challenges), grid, festival_won=festival_won)
    model = cp_model.CpModel()
    every_square = {(r, c): v for r, row in enumerate(grid) for c, v in enumerate(row)}
    mv = cpsat_map.new_map_vars(model, components.rows, components.cols, MODEL_ELEMENTS, every_square)
    cpsat_map.add_completeness(model, mv, Challenge.GREAT_DIVIDE in problem.challenges, True)
    objective = _scoring_objective(model, mv, problem)
    model.maximize(objective)
    result = solve(model, budget or Budget(), configure=_configure)
    if result.status == cp_model.INFEASIBLE:
        return None
    if result.status != cp_model.OPTIMAL:
        raise ModelMismatch("a fixed map should be scored to optimality at once")
    return round(result.objective)
