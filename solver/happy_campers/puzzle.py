"""Happy Campers puzzles: a mid-game map, a known roll sequence and 0-2 cards with one best final map.

A puzzle is a clairvoyant single-map problem (`maximise.clairvoyant_max`: forced play of a known roll
sequence) whose optimum CP-SAT proves OPTIMAL and `maximise.is_unique_optimum` proves unique ("same
solution" = same final map). The solver gives the proofs; this module decides which candidates are worth
proving, and grades the survivors.

Why the candidates look the way they do (measured on the default 5x9 map, see the report in
docs/rules/happy-campers.md (Happy Campers: puzzles)):

- Open space is what makes a final map non-unique (a piece with room to slide) and what makes CP-SAT slow
  (8 rolls on a map with 25+ empty squares: 1-30 s a proof and rarely unique; with about 15 empty squares:
  0.1-0.5 s and unique about half the time). So the start map is pre-drawn by seeded legal drawings until
  the open squares are a seeded fraction of what the rolls could fill, capped at `MAX_OPEN_SQUARES`.
- Those pre-drawn squares also break the map's flip symmetry, without which no optimum can be unique
  (the mirrored play scores the same); symmetric starts are rejected before any solving.

Budget: every candidate gets at most `CANDIDATE_CAP_S` seconds (`generate(candidate_cap_s=...)`) of the
request budget; a candidate that is not decided within its cap is rejected ("over its cap") and the next
candidate is tried, so one slow proof cannot eat the whole request (one default-map candidate took 31 s
before the cap). When the request budget itself runs out, `generate` raises `SolveInterrupted`.

Determinism: candidate k of a seed is drawn from `rng_for(seed, PURPOSE, "candidate", k)`; cheap filters
are pure functions of the candidate, and the optimum solve runs CP-SAT with one worker, so its branch and
conflict counts (used for the grade) are reproducible. The one timing-dependent filter is the cap: a seed
gives the same puzzle on any machine unless some candidate before it needs close to `CANDIDATE_CAP_S`
(measured: the proofs of accepted candidates take 0.1-0.5 s on 5x9, about a tenth of the cap). When one was
skipped over its cap, the service's answer says so (the count in `stats.method`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.grade import Grade
from campsolver.solver.core.proof import Proof
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers.cpsat_warmstart import greedy_play
from campsolver.solver.happy_campers.maximise import MaxResult, SolveStats, clairvoyant_max, is_unique_optimum
from campsolver.solver.happy_campers.policies import GREEDY, FastMap, candidate_placement, play_game
from campsolver.solver.happy_campers.rules import (
    ANY_FACE,
    DEFAULT_COMPONENTS,
    Challenge,
    Components,
    Element,
    Grid,
    Option,
    Placement,
    can_draw,
    draw,
    drawn_cells,
    elements_for_face,
    empty_grid,
    fill,
    legal_placements,
    roll_options,
    score,
    shapes_for_face,
    validate_roll,
)

Roll = tuple[int, int]
Cell = tuple[int, int]

#: Seeding label of every random choice made here.
PURPOSE = "happy_campers.puzzle"

# --- candidate shape ---------------------------------------------------------------------------------------
#: Cards a puzzle may use. Noisy Neighbours only changes who draws a double (nothing on one map) and the
#: Festival is a constant +5 on one map: neither changes which final map is best, so neither is offered.
PUZZLE_CARDS: tuple[Challenge, ...] = (
    Challenge.PRIVACY,
    Challenge.QUICK_PEE,
    Challenge.TENT_TOGETHER,
    Challenge.NATURE_RESERVE,
    Challenge.RIVER_TOWN,
    Challenge.GREAT_DIVIDE,
    Challenge.DANGEROUS_ANIMALS,
)
#: Probability of 0, 1 and 2 challenge cards (the rulebook's advanced setup draws 1 or 2).
CARD_COUNT_WEIGHTS: tuple[float, float, float] = (0.4, 0.4, 0.2)
#: Open squares of the start map, as a fraction of the squares the rolls could fill at most (each roll's
#: largest offered shape): drawn uniformly per candidate. Below 1 the map can fill up before the rolls
#: run out, which is where forced play gets interesting; the spread varies the difficulty.
OPEN_FRACTION_RANGE: tuple[float, float] = (0.45, 0.75)
#: Share of pre-drawn drawings chosen by the greedy player (the rest uniformly among legal drawings):
#: a start that a sensible player could have drawn, and one that can still score (uniformly random
#: starts on small maps mostly end below 0 points whatever the rolls).
PREDRAW_GREEDY_SHARE = 0.7
#: Never leave more open squares than this: beyond ~18 the proofs on 5x9 take seconds instead of 0.1 s.
MAX_OPEN_SQUARES = 18
#: At least this many pre-drawn drawings, so the start is a real mid-game position that breaks symmetry.
MIN_PREDRAWN_DRAWINGS = 1
#: A solution must draw at least min(this, rolls) shapes; fewer makes a trivial puzzle.
MIN_SOLUTION_DRAWINGS = 3
#: Give up (NoPuzzleFound) after this many candidates, whatever the budget says.
MAX_CANDIDATES = 2000
#: Seconds one candidate may take (optimum, uniqueness and drawing-order proofs) before the next is tried.
CANDIDATE_CAP_S = 5.0
#: The rejection of a candidate undecided within its cap (the one timing-dependent filter; the service says so).
OVER_CAP = "over its cap"
#: How the service's answer says so (in `stats.method`): another machine or load may give the seed another puzzle.
SKIPPED_OVER_CAP = "skipped, undecided within the cap: another machine or load may give this seed another puzzle"

# --- evidence and grading ------------------------------------------------------------------------------------
#: Randomised greedy plays (the CP-SAT warm-start player) per candidate: the cheap non-uniqueness filter
#: and the "how often does a decent player find it" evidence.
ROLLOUTS = 24
#: Seed of the plain greedy player's tie-breaks (policies.play_game).
GREEDY_SEED = 0
#: Drawing orders counted for the solution before we stop counting.
SOLUTION_ORDER_CAP = 1000

#: The three measurements are each mapped to a level 0..3 by these steps (a value at or above a step
#: raises the level by one); calibrated on 20 accepted 5x9 puzzles (6 and 8 rolls) to spread the grades.
#: Greedy shortfall: optimum minus the plain greedy player's score, in points.
GREEDY_SHORTFALL_STEPS: tuple[int, int, int] = (3, 6, 10)
#: Rollout shortfall: optimum minus the best of `ROLLOUTS` randomised greedy plays, in points.
ROLLOUT_SHORTFALL_STEPS: tuple[int, int, int] = (1, 4, 8)
#: Solver effort: CP-SAT branches of the one-worker optimum proof (reproducible, unlike wall time).
PROOF_BRANCH_STEPS: tuple[int, int, int] = (2000, 4000, 8000)
#: Highest summed level (0..9) of each grade: easy <= 1, medium <= 3, hard <= 5, expert above.
GRADE_LEVEL_CEILINGS: tuple[int, int, int] = (1, 3, 5)
#: CP-SAT workers for the optimum proof: one worker makes its effort counts reproducible.
PROOF_WORKERS = 1


GRADES: tuple[Grade, ...] = (Grade.EASY, Grade.MEDIUM, Grade.HARD, Grade.EXPERT)


class NoPuzzleFound(RuntimeError):
    """`MAX_CANDIDATES` candidates were tried without a match (e.g. a grade the map size cannot give)."""


@dataclass(frozen=True)
class SolutionStep:
    """One drawing of the solution: roll `turn` (0-based) drawn as `element` on `cells` via `option`."""

    turn: int
    roll: Roll
    option: Option
    element: Element
    cells: frozenset[Cell]

    def placement(self) -> Placement:
        return Placement(self.cells, self.element, self.option)


@dataclass(frozen=True)
class Evidence:
    """A named measurement behind the grade, with what it means."""

    name: str
    value: float
    description: str


@dataclass(frozen=True)
class GenerationStats:
    """What it cost to find the puzzle. Timings are informational: nothing deterministic depends on them."""

    candidates: int
    rejections: dict[str, int]
    uniqueness_checks: int
    wall_time_s: float
    proof: SolveStats  # the accepted candidate's optimum solve
    uniqueness_wall_time_s: float  # the accepted candidate's uniqueness re-solve


@dataclass(frozen=True)
class Puzzle:
    """A generated puzzle with its proven unique solution."""

    seed: int
    candidate: int  # index of the accepted candidate in the seed's sequence
    components: Components
    start_grid: Grid
    rolls: tuple[Roll, ...]
    challenges: tuple[Challenge, ...]
    optimum: int
    solution: tuple[SolutionStep, ...]  # in turn order; turns after the game ended are absent
    solution_grid: Grid
    grade: Grade
    evidence: tuple[Evidence, ...]
    proof: Proof
    unique: bool
    stats: GenerationStats = field(compare=False)

    def evidence_value(self, name: str) -> float:
        return next(e.value for e in self.evidence if e.name == name)

    @property
    def turns_played(self) -> int:
        """Rolls drawn in the solution; the roll after them (if any) fits nowhere and ends the game."""
        return len(self.solution)


# ---------------------------------------------------------------------------------------------------------
# Candidates
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """One proposal: everything about a puzzle statement, drawn from one seeded stream."""

    index: int
    start_grid: Grid
    rolls: tuple[Roll, ...]
    challenges: tuple[Challenge, ...]


def roll_capacity(rolls: Sequence[Roll], components: Components) -> int:
    """Most squares the rolls could fill: per roll, the largest shape either option offers."""
    return sum(
        max(len(shape) for option in roll_options(roll) for shape in shapes_for_face(option.shape_face, components))
        for roll in rolls
    )


def draw_candidate(seed: int, index: int, components: Components, rolls: int) -> Candidate:
    """Candidate `index` of `seed`: rolls, cards, then a start map pre-drawn down to the open-square target."""
    rng = rng_for(seed, PURPOSE, "candidate", index)
    roll_seq = tuple((int(a), int(b)) for a, b in rng.integers(1, 7, size=(rolls, 2)))
    card_count = int(rng.choice(len(CARD_COUNT_WEIGHTS), p=np.array(CARD_COUNT_WEIGHTS)))
    picked = rng.choice(len(PUZZLE_CARDS), size=card_count, replace=False)
    cards = tuple(sorted((PUZZLE_CARDS[int(i)] for i in picked), key=lambda card: card.value))
    fraction = float(rng.uniform(*OPEN_FRACTION_RANGE))
    smallest = min(len(shape) for shape in components.shapes)
    open_target = min(round(fraction * roll_capacity(roll_seq, components)), MAX_OPEN_SQUARES)
    open_target = min(open_target, components.cell_count - smallest)
    grid = empty_grid(components)
    drawings = 0
    while drawings < MIN_PREDRAWN_DRAWINGS or components.cell_count - len(drawn_cells(grid)) > open_target:
        roll = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        fast = FastMap.from_grid(grid, cards, components)
        options = fast.roll_candidates(roll, components)
        if not options:
            break
        key = int(rng.integers(2**31))
        if rng.random() < PREDRAW_GREEDY_SHARE:
            chosen = options[GREEDY.choose(fast, options, key)]
        else:
            chosen = options[key % len(options)]
        move = candidate_placement(chosen, components.cols)
        grid = fill(grid, move.cells, move.element)
        drawings += 1
    return Candidate(index, grid, roll_seq, cards)


def _flips(components: Components) -> list[Callable[[Cell], Cell]]:
    """Map symmetries: the three flips, plus quarter turns on a square map."""
    rows, cols = components.rows, components.cols
    maps: list[Callable[[Cell], Cell]] = [
        lambda rc: (rc[0], cols - 1 - rc[1]),
        lambda rc: (rows - 1 - rc[0], rc[1]),
        lambda rc: (rows - 1 - rc[0], cols - 1 - rc[1]),
    ]
    if rows == cols:
        maps += [lambda rc: (rc[1], rows - 1 - rc[0]), lambda rc: (rows - 1 - rc[1], rc[0])]
        maps += [lambda rc: (rc[1], rc[0]), lambda rc: (rows - 1 - rc[1], cols - 1 - rc[0])]
    return maps


def is_symmetric(grid: Grid, components: Components) -> bool:
    """True when some map symmetry leaves the start map unchanged (then the mirrored play ties)."""
    cells = [(r, c) for r in range(components.rows) for c in range(components.cols)]
    return any(all(grid[r][c] == grid[g((r, c))[0]][g((r, c))[1]] for r, c in cells) for g in _flips(components))


# ---------------------------------------------------------------------------------------------------------
# Cheap plays (filters and evidence)
# ---------------------------------------------------------------------------------------------------------


def can_complete(start: Grid, rolls: Sequence[Roll], components: Components) -> bool:
    """Necessary for a positive score: each missing element gets its own roll offering it.

    A roll draws one shape of one element, so the missing elements need distinct rolls (a bipartite
    matching, tried by augmenting paths). Space is ignored: this only rejects hopeless candidates.
    """
    present = {value for row in start for value in row}
    missing = [int(e) for e in components.elements if int(e) not in present]
    offers = [
        {int(e) for option in roll_options(roll) for e in elements_for_face(option.element_face, components)}
        for roll in rolls
    ]
    roll_of: dict[int, int] = {}  # roll index -> the missing element it supplies

    def assign(element: int, seen: set[int]) -> bool:
        for k, offer in enumerate(offers):
            if element in offer and k not in seen:
                seen.add(k)
                if k not in roll_of or assign(roll_of[k], seen):
                    roll_of[k] = element
                    return True
        return False

    return all(assign(element, set()) for element in missing)


def _final_map(start: Grid, plays: Sequence[Placement | None]) -> Grid:
    grid = start
    for play in plays:
        if play is not None:
            grid = fill(grid, play.cells, play.element)
    return grid


def rollout_finals(seed: int, candidate: Candidate, components: Components) -> list[tuple[int, Grid]]:
    """(rules score, final map) of `ROLLOUTS` randomised greedy forced plays (legal by construction)."""
    rng = rng_for(seed, PURPOSE, "rollouts", candidate.index)
    finals = []
    for _ in range(ROLLOUTS):
        played = greedy_play(candidate.start_grid, candidate.rolls, candidate.challenges, components, rng, 1)
        assert played is not None
        finals.append((played[0], _final_map(candidate.start_grid, played[1])))
    return finals


def drawing_orders(
    start: Grid,
    rolls: Sequence[Roll],
    final: Grid,
    components: Components,
    budget: Budget,
    cap: int = SOLUTION_ORDER_CAP,
) -> tuple[int, tuple[SolutionStep, ...] | None]:
    """How many forced plays of `rolls` turn `start` into `final` (up to `cap`), and the first of them.

    Plays are told apart by (cells, element) per turn. Candidates are tried in a fixed order (an option
    without a "?" face first), so the first play found is canonical: the same for every run, however
    CP-SAT happened to order its turns. A play must respect forced play: it stops drawing only when the
    map is `final` and the next roll (if any) fits nowhere on it.
    """
    rows = components.rows
    target = {(r, c): final[r][c] for r in range(rows) for c in range(components.cols) if final[r][c]}
    found: list[tuple[SolutionStep, ...]] = []
    count = 0
    path: list[SolutionStep] = []

    def moves(grid: Grid, roll: Roll) -> list[Placement]:
        unique: dict[tuple[frozenset[Cell], Element], Placement] = {}
        fitting = [
            p for p in legal_placements(grid, roll, components) if all(target.get(c) == p.element for c in p.cells)
        ]
        for p in sorted(fitting, key=lambda p: (_wildcards(p.option), p.option)):
            unique.setdefault((p.cells, p.element), p)
        return sorted(unique.values(), key=lambda p: (sorted(p.cells), int(p.element)))

    def search(grid: Grid, turn: int) -> None:
        nonlocal count
        if count >= cap:
            return
        budget.check()
        if grid == final:
            if turn == len(rolls) or not can_draw(grid, rolls[turn], components):
                count += 1
                if not found:
                    found.append(tuple(path))
            return
        if turn == len(rolls):
            return
        for p in moves(grid, rolls[turn]):
            path.append(SolutionStep(turn, rolls[turn], p.option, p.element, p.cells))
            search(fill(grid, p.cells, p.element), turn + 1)
            path.pop()

    search(start, 0)
    return count, (found[0] if found else None)


def _wildcards(option: Option) -> int:
    """How many "?" faces an option uses (an exact face explains a drawing better)."""
    return (option.shape_face == ANY_FACE) + (option.element_face == ANY_FACE)


# ---------------------------------------------------------------------------------------------------------
# Grading
# ---------------------------------------------------------------------------------------------------------


def _level(value: float, steps: Sequence[float]) -> int:
    """0..len(steps): how many steps `value` reaches."""
    return sum(1 for step in steps if value >= step)


def grade_of(greedy_shortfall: int, rollout_shortfall: int, proof_branches: int) -> tuple[Grade, int]:
    """The grade and summed level (0..9) from the three deterministic measurements."""
    level = (
        _level(greedy_shortfall, GREEDY_SHORTFALL_STEPS)
        + _level(rollout_shortfall, ROLLOUT_SHORTFALL_STEPS)
        + _level(proof_branches, PROOF_BRANCH_STEPS)
    )
    index = sum(1 for ceiling in GRADE_LEVEL_CEILINGS if level > ceiling)
    return GRADES[index], level


# ---------------------------------------------------------------------------------------------------------
# Generation
# ---------------------------------------------------------------------------------------------------------


@dataclass
class _Search:
    """Counters of one `generate` call."""

    rejections: dict[str, int] = field(default_factory=dict)
    candidates: int = 0
    uniqueness_checks: int = 0

    def reject(self, reason: str) -> None:
        self.rejections[reason] = self.rejections.get(reason, 0) + 1


def _interrupted(budget: Budget) -> None:
    """Raise when the budget is gone: an undecided candidate must never be skipped (timing-dependent)."""
    budget.check()


def generate(
    seed: int,
    budget: Budget,
    *,
    components: Components = DEFAULT_COMPONENTS,
    rolls: int = 8,
    grade: Grade | str | None = None,
    candidate_cap_s: float = CANDIDATE_CAP_S,
) -> Puzzle:
    """The first candidate of `seed` whose optimum is proven OPTIMAL and unique (and has `grade`, if asked).

    Each candidate may spend at most `candidate_cap_s` seconds of `budget`; one that is undecided by then is
    rejected and the next one is tried. Raises `SolveInterrupted` when the budget runs out or is cancelled
    first, `NoPuzzleFound` after `MAX_CANDIDATES` candidates.
    """
    if rolls < 1:
        raise ValueError("a puzzle needs at least one roll")
    if candidate_cap_s <= 0:
        raise ValueError("the per-candidate cap must be positive")
    wanted = Grade(grade) if grade is not None else None
    started = time.monotonic()
    search = _Search()
    for index in range(MAX_CANDIDATES):
        _interrupted(budget)
        search.candidates += 1
        capped = budget.limited(candidate_cap_s)
        try:
            puzzle = _try_candidate(seed, index, components, rolls, wanted, capped, search)
        except SolveInterrupted:
            _interrupted(budget)  # the request's own budget is gone (or cancelled): stop
            search.reject(OVER_CAP)  # only this candidate's cap ran out: try the next one
            continue
        if puzzle is not None:
            stats = GenerationStats(
                candidates=search.candidates,
                rejections=dict(search.rejections),
                uniqueness_checks=search.uniqueness_checks,
                wall_time_s=time.monotonic() - started,
                proof=puzzle.stats.proof,
                uniqueness_wall_time_s=puzzle.stats.uniqueness_wall_time_s,
            )
            return _with_stats(puzzle, stats)
    raise NoPuzzleFound(f"no puzzle in {MAX_CANDIDATES} candidates (seed {seed}, grade {wanted})")


def _with_stats(puzzle: Puzzle, stats: GenerationStats) -> Puzzle:
    return Puzzle(**{**{f: getattr(puzzle, f) for f in Puzzle.__dataclass_fields__}, "stats": stats})


def _try_candidate(
    seed: int,
    index: int,
    components: Components,
    rolls: int,
    wanted: Grade | None,
    budget: Budget,
    search: _Search,
) -> Puzzle | None:
    candidate = draw_candidate(seed, index, components, rolls)
    if is_symmetric(candidate.start_grid, components):
        search.reject("symmetric start")
        return None
    if not can_draw(candidate.start_grid, candidate.rolls[0], components):
        search.reject("first roll fits nowhere")
        return None
    if not can_complete(candidate.start_grid, candidate.rolls, components):
        search.reject("elements cannot all be drawn")
        return None
    finals = rollout_finals(seed, candidate, components)
    _interrupted(budget)

    result = clairvoyant_max(
        candidate.start_grid, candidate.rolls, candidate.challenges, components, budget, workers=PROOF_WORKERS
    )
    _interrupted(budget)
    if result.proof is not Proof.OPTIMAL or result.score is None or result.grid is None:
        search.reject("optimum not proven")  # only reachable without a budget expiry by a solver failure
        return None
    optimum = result.score
    if optimum <= 0:
        search.reject("optimum not positive")  # every incomplete map ties at 0
        return None
    if len(result.placements) < min(MIN_SOLUTION_DRAWINGS, rolls):
        search.reject("too few drawings")
        return None
    # Sound shortcut: a legal play reaching the optimum with another final map disproves uniqueness.
    if any(points == optimum and grid != result.grid for points, grid in finals):
        search.reject("rollout ties the optimum")
        return None

    search.uniqueness_checks += 1
    before = time.monotonic()
    unique = is_unique_optimum(result, budget)
    uniqueness_time = time.monotonic() - before
    _interrupted(budget)
    if unique is not True:
        search.reject("optimum not unique" if unique is False else "uniqueness undecided")
        return None

    orders, solution = drawing_orders(candidate.start_grid, candidate.rolls, result.grid, components, budget)
    if solution is None:
        raise RuntimeError("the proven optimum's final map cannot be replayed from the start map")
    evidence = _evidence(seed, candidate, components, result, finals, orders, solution)
    values = {e.name: e.value for e in evidence}
    puzzle_grade, _ = grade_of(
        int(values["greedy_shortfall"]), int(values["rollout_shortfall"]), int(values["proof_branches"])
    )
    if wanted is not None and puzzle_grade is not wanted:
        search.reject("other grade")
        return None
    stats = GenerationStats(search.candidates, {}, search.uniqueness_checks, 0.0, result.stats, uniqueness_time)
    return Puzzle(
        seed=seed,
        candidate=index,
        components=components,
        start_grid=candidate.start_grid,
        rolls=candidate.rolls,
        challenges=candidate.challenges,
        optimum=optimum,
        solution=solution,
        solution_grid=result.grid,
        grade=puzzle_grade,
        evidence=evidence,
        proof=result.proof,
        unique=True,
        stats=stats,
    )


def _evidence(
    seed: int,
    candidate: Candidate,
    components: Components,
    result: MaxResult,
    finals: Sequence[tuple[int, Grid]],
    orders: int,
    solution: Sequence[SolutionStep],
) -> tuple[Evidence, ...]:
    assert result.score is not None
    optimum = result.score
    greedy = play_game(
        candidate.start_grid, candidate.rolls, candidate.challenges, components, "greedy", seed=GREEDY_SEED
    )
    best_rollout = max(points for points, _ in finals)
    hits = sum(1 for points, _ in finals if points == optimum)
    hit_rate = hits / len(finals)
    grade, level = grade_of(optimum - greedy.score, optimum - best_rollout, result.stats.branches)
    choices = 1.0
    grid = candidate.start_grid
    for step in solution:
        choices *= len({(p.cells, p.element) for p in legal_placements(grid, step.roll, components)})
        grid = fill(grid, step.cells, step.element)
    open_squares = components.cell_count - len(drawn_cells(candidate.start_grid))
    return (
        Evidence("greedy_score", greedy.score, f"score of the plain greedy player (tie-break seed {GREEDY_SEED})"),
        Evidence("greedy_shortfall", optimum - greedy.score, "optimum minus the greedy score, in points"),
        Evidence("rollout_best", best_rollout, f"best of {ROLLOUTS} randomised greedy plays"),
        Evidence("rollout_shortfall", optimum - best_rollout, "optimum minus the best randomised greedy play"),
        Evidence("rollout_hit_rate", hit_rate, f"share of {ROLLOUTS} randomised greedy plays reaching the optimum"),
        Evidence("proof_branches", result.stats.branches, "CP-SAT branches of the one-worker optimum proof"),
        Evidence("proof_conflicts", result.stats.conflicts, "CP-SAT conflicts of the one-worker optimum proof"),
        Evidence("solution_orders", orders, f"drawing orders giving the solution map (capped at {SOLUTION_ORDER_CAP})"),
        Evidence(
            "log10_choices", float(np.log10(choices)), "log10 of the product of legal drawings along the solution"
        ),
        Evidence("open_squares", open_squares, "empty squares of the start map"),
        Evidence("difficulty_level", level, f"summed level 0..9 behind the grade {grade.value}"),
    )


def replay(puzzle: Puzzle) -> Grid:
    """Re-draw the solution with the rules model in order (forced play checked); return the final map.

    Raises `rules.IllegalMove` / `ValueError` when the solution is not a legal forced play.
    """
    grid = puzzle.start_grid
    turn = 0
    for step in puzzle.solution:
        if step.turn != turn:
            raise ValueError(f"solution skips roll {turn}")
        if step.option not in roll_options(validate_roll(puzzle.rolls[turn])):
            raise ValueError(f"turn {turn}: option {step.option} is not offered by roll {puzzle.rolls[turn]}")
        grid = draw(grid, step.placement(), puzzle.components)
        turn += 1
    if turn < len(puzzle.rolls) and can_draw(grid, puzzle.rolls[turn], puzzle.components):
        raise ValueError(f"roll {turn} could still be drawn: forced play is violated")
    return grid


def solution_score(puzzle: Puzzle) -> int:
    """The rules model's score of the replayed solution."""
    return score(replay(puzzle), puzzle.challenges, puzzle.components).total
