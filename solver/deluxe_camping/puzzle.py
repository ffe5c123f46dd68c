"""Fence puzzles: a seeded position and K barriers to place so the player secures the most points.

Generation (Tatham style: the solver guarantees the answer):
1. From the seed, a small board (6 x 6, two players, two trailers each) is set up and a few turns are played
   at random; the supply is then cut to the barriers on the board plus K.
2. CP-SAT finds the best own score for the player to move with at most K more barriers (OPTIMAL required).
3. Uniqueness: re-solve with that barrier set excluded; unique when the best other set scores less (proven).
4. Grade from how far a greedy player (one barrier at a time, best immediate allotted points) falls short and
   from the solver's effort.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.grade import Grade
from campsolver.solver.core.proof import Proof
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.deluxe_camping import maximise as maxima
from campsolver.solver.deluxe_camping import rules
from campsolver.solver.deluxe_camping.rules import Config, DCState, Edge, Stage

DEFAULT_BARRIERS = 4
PUZZLE_CONFIG = Config(rows=6, cols=6, players=2, trailers=2, supply=200)
RANDOM_TURNS = (0, 6)
MAX_ATTEMPTS = 60



@dataclass
class Puzzle:
    seed: int
    state: DCState
    player: int
    barriers: int
    solution: frozenset[Edge]
    points: int
    unique: bool
    proof: Proof
    grade: Grade
    evidence: list[tuple[str, float, str]]
    text: str
    svg: str
    solution_text: str
    solution_svg: str
    question: str
    wall_time_s: float


def greedy_points(state: DCState, player: int, barriers: int) -> int:
    """A greedy player: each barrier where the immediately allotted points are highest (no empty region)."""
    board = replace(state, stage=Stage.BARRIER, to_move=player)
    for _ in range(barriers):
        options = board.legal_barriers()
        if not options:
            break
        best = max(
            options,
            key=lambda e: (maxima.final_board(board, frozenset({e})).scores()[player], -e[0], -e[1]),
        )
        board = replace(board, barriers=board.barriers | {best})
    return maxima.final_board(board, frozenset()).scores()[player]


def grade_of(shortfall: int, branches: int) -> Grade:
    if shortfall <= 0:
        return Grade.EASY
    if shortfall <= 4 and branches < 2000:
        return Grade.MEDIUM
    if shortfall <= 10:
        return Grade.HARD
    return Grade.EXPERT


def candidate(seed: int, attempt: int, barriers: int) -> DCState:
    rng = rng_for(seed, "deluxe-camping puzzle", attempt)
    state = rules.random_setup(PUZZLE_CONFIG, rng)
    for _ in range(int(rng.integers(*RANDOM_TURNS))):
        if state.stage is Stage.OVER:
            break
        actions = state.legal_actions()
        state = state.child(actions[int(rng.integers(len(actions)))])
        if state.stage is Stage.BARRIER:
            actions = state.legal_actions()
            state = state.child(actions[int(rng.integers(len(actions)))])
    config = replace(state.config, supply=len(state.barriers) + barriers)
    return replace(state, config=config, stage=Stage.MOVE)


def generate(seed: int, budget: Budget, *, barriers: int = DEFAULT_BARRIERS, grade: Grade | None = None) -> Puzzle:
    """The first candidate of the seed with a proven unique optimum (of the wanted grade).

    Raises `SolveInterrupted` when some candidate was left undecided for lack of time (more time may find one),
    `LookupError` when every candidate was decided and none fits.
    """
    undecided = 0  # candidates skipped because a solve ran out of time, not because they do not fit
    for attempt in range(MAX_ATTEMPTS):
        budget.check()
        state = candidate(seed, attempt, barriers)
        if any(state.stopped(p) for p in range(state.config.players)):
            continue
        player = state.to_move
        best = maxima.maximise(state, budget.limited(max(budget.remaining() / 3, 0.01)), player=player)
        if best.proof is not Proof.OPTIMAL:
            undecided += best.proof is not Proof.INFEASIBLE
            continue
        if best.partition is None or not best.partition.added:
            continue
        if best.value is None or best.value <= state.scores()[player]:
            continue
        other = maxima.maximise(
            state, budget.limited(max(budget.remaining() / 3, 0.01)), player=player, forbid=[best.partition.added]
        )
        unique = other.proof is Proof.INFEASIBLE or (
            other.proof is Proof.OPTIMAL and other.value is not None and other.value < best.value
        )
        if not unique:
            undecided += other.proof not in (Proof.OPTIMAL, Proof.INFEASIBLE)
            continue
        shortfall = best.value - greedy_points(state, player, barriers)
        found = grade_of(shortfall, best.branches)
        if grade is not None and found is not grade:
            continue
        question = (
            f"Place at most {barriers} barriers so that player {player_letter(player)} secures the most points."
        )
        text = f"Deluxe Camping fence puzzle (seed {seed}, {found.value})\n{question}\n{render_text(state)}"
        solved = maxima.final_board(state, best.partition.added)
        return Puzzle(
            seed=seed,
            state=state,
            player=player,
            barriers=barriers,
            solution=best.partition.added,
            points=best.value,
            unique=True,
            proof=Proof.OPTIMAL,
            grade=found,
            evidence=[
                ("greedy_shortfall", float(shortfall), "points the greedy barrier-by-barrier player misses"),
                ("branches", float(best.branches), "CP-SAT branches to prove the optimum"),
                ("solve_seconds", best.wall_time_s, "CP-SAT wall time to prove the optimum"),
                ("second_best", float(other.value if other.value is not None else -1), "best other barrier set"),
                ("attempts", float(attempt), "candidates drawn before this one"),
            ],
            text=text,
            svg=render_svg(state),
            solution_text=f"{best.value} points with barriers {describe_edges(state.config, best.partition.added)}"
            f"\n{render_text(solved, highlight=best.partition.added)}",
            solution_svg=render_svg(solved, highlight=best.partition.added),
            question=question,
            wall_time_s=budget.elapsed(),
        )
    if undecided:
        raise SolveInterrupted("deadline")
    raise LookupError(f"no unique puzzle in {MAX_ATTEMPTS} candidates")


# --- rendering ---------------------------------------------------------------------------------------------

LETTERS = "ABCD"


def player_letter(player: int) -> str:
    return LETTERS[player]


def symbols(state: DCState) -> dict[int, str]:
    marks: dict[int, str] = {}
    if state.pool >= 0:
        marks[state.pool] = "P"
    for s in state.ice_creams:
        marks[s] = "I"
    for s in state.mystery:
        marks[s] = "?"
    if state.nuisance >= 0:
        marks[state.nuisance] = "N"
    for p, b in enumerate(state.bungalows):
        if b >= 0:
            marks[b] = LETTERS[p]
    for p, squares in enumerate(state.trailers):
        for s in squares:
            marks[s] = LETTERS[p].lower()
    return marks


def describe_edges(config: Config, edges: frozenset[Edge]) -> str:
    return ", ".join(rules.describe_action(config, rules.Barrier(e)).removeprefix("barrier ") for e in sorted(edges))


def render_text(state: DCState, highlight: frozenset[Edge] = frozenset()) -> str:
    """ASCII board: pieces (P pool, I ice cream, N pain-in-the-neck, A/B.. bungalows, a/b.. trailers),
    barriers as | and - (new ones as # and =)."""
    config = state.config
    marks = symbols(state)
    lines = []
    for r in range(config.rows):
        row = "|"
        below = "+"
        for c in range(config.cols):
            s = config.square(r, c)
            row += marks.get(s, ".")
            if c < config.cols - 1:
                e = (s, s + 1)
                row += "#" if e in highlight else ("|" if e in state.barriers else " ")
            if r < config.rows - 1:
                e = (s, s + config.cols)
                below += "=" if e in highlight else ("-" if e in state.barriers else " ")
                below += "+" if c < config.cols - 1 else ""
        lines.append(row + "|")
        if r < config.rows - 1:
            lines.append(below + "+")
    border = "+" + "-" * (2 * config.cols - 1) + "+"
    return "\n".join([border, *lines, border])


def render_svg(state: DCState, highlight: frozenset[Edge] = frozenset()) -> str:
    config = state.config
    size = 40
    width, height = config.cols * size, config.rows * size
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width + 8}" height="{height + 8}" '
        f'viewBox="-4 -4 {width + 8} {height + 8}">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#f4f1e6" stroke="#333" stroke-width="3"/>',
    ]
    colours = {"A": "#c0392b", "B": "#2471a3", "C": "#229954", "D": "#b7950b"}
    for s, mark in symbols(state).items():
        r, c = config.cell(s)
        fill = colours.get(mark.upper(), "#555")
        parts.append(
            f'<text x="{c * size + size / 2}" y="{r * size + size * 0.68}" font-size="{size * 0.55}" '
            f'text-anchor="middle" font-family="sans-serif" fill="{fill}">{mark}</text>'
        )
    for a, b in sorted(state.barriers):
        (ra, ca), (rb, cb) = config.cell(a), config.cell(b)
        if ra == rb:  # vertical wall between columns
            x1 = x2 = max(ca, cb) * size
            y1, y2 = ra * size, (ra + 1) * size
        else:
            y1 = y2 = max(ra, rb) * size
            x1, x2 = ca * size, (ca + 1) * size
        colour = "#e67e22" if (a, b) in highlight else "#333"
        parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" stroke-width="4"/>')
    parts.append("</svg>")
    return "\n".join(parts)


__all__ = ["DEFAULT_BARRIERS", "Grade", "Puzzle", "SolveInterrupted", "generate", "render_svg", "render_text"]
