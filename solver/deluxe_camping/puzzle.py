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
from campsolver.solver.core.picture import Canvas
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
        question = f"Place at most {barriers} barriers so that player {player_letter(player)} secures the most points."
        text = (
            f"Deluxe Camping fence puzzle (seed {seed}, {found.value})\n{question}\n{render_text(state)}\n"
            f"Legend: {text_legend(state)}\n{SITE_RULE} {PUZZLE_RULE}"
        )
        solved = maxima.final_board(state, best.partition.added)
        answer = (
            f"Answer: barriers {describe_edges(state.config, best.partition.added)}; player "
            f"{player_letter(player)} then secures {best.value} points."
        )
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
            svg=render_svg(state, title=f"Deluxe Camping puzzle {seed} ({found.value})", question=question),
            solution_text=f"{answer}\n{render_text(solved, highlight=best.partition.added)}\n"
            "Legend: as in the puzzle; # and = are the answer's barriers.",
            solution_svg=render_svg(
                solved,
                highlight=best.partition.added,
                title=f"Solution to Deluxe Camping puzzle {seed}",
                question=question,
                answer=answer,
            ),
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
        marks[s] = ICE
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
    """ASCII board: pieces (P pool, S ice-cream stand, N pain-in-the-neck, ? mystery token, A/B.. bungalows,
    a/b.. trailers), barriers as | and - (new ones as # and =); `text_legend` says so for a reader."""
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


#: The ice-cream stand's letter in the text board: "S" (stand), which no barrier line resembles ("I" did).
ICE = "S"
#: Every mark of the board: (letter, what it is), in legend order; a legend lists those on the board.
MARKS = (
    ("P", "swimming pool: its site x2"),
    (ICE, "ice-cream stand: its site +5"),
    ("N", "pain-in-the-neck: its site -10, not below 0"),
    ("?", "face-down mystery token"),
)
SITE_RULE = (
    "A site is a region closed by barriers holding pieces of one player only; it scores 1 a square, "
    "x2 with the pool, +5 an ice-cream stand, -10 with the pain-in-the-neck (not below 0)."
)
#: What the puzzle's question takes for granted, said on the page (the securable-score model's reading).
PUZZLE_RULE = (
    "No piece moves. No empty site: every region the barriers close must hold a trailer or bungalow "
    "(the pool, a stand or the pain-in-the-neck alone do not count); a region with pieces of several "
    "players scores nothing."
)


def marks_present(state: DCState) -> list[tuple[str, str]]:
    """(letter, meaning) of every kind of mark on the board, players' pieces first: what a legend lists."""
    present = set(symbols(state).values())
    entries = []
    for p in range(state.config.players):
        letter = LETTERS[p]
        if letter in present:
            entries.append((letter, f"bungalow of player {letter}"))
        if letter.lower() in present:
            entries.append((letter.lower(), f"trailer of player {letter}"))
    return entries + [(mark, meaning) for mark, meaning in MARKS if mark in present]


def text_legend(state: DCState) -> str:
    """The text board's legend: the marks on it, the barriers and the empty square."""
    return "; ".join(f"{mark} {meaning}" for mark, meaning in marks_present(state)) + (
        "; | and - barriers (the board edge is a wall); . empty square."
    )


PLAYER_COLOURS = {"A": "#c0392b", "B": "#2471a3", "C": "#229954", "D": "#b7950b"}
CELL = 48
MARGIN = 20
PICTURE_WIDTH = 680
NEW_BARRIER = "#e67e22"
ICE_SCOOP, ICE_CONE = "#f48fb1", "#e0b07a"


def _board(canvas: Canvas, state: DCState, left: float, top: float, highlight: frozenset[Edge]) -> float:
    """Grid, coordinates, pieces and barriers; returns the y below the board."""
    config = state.config
    width, height = config.cols * CELL, config.rows * CELL
    canvas.shape('<g class="board">')
    canvas.shape(f'<rect x="{left}" y="{top}" width="{width}" height="{height}" fill="#f4f1e6"/>')
    for c in range(1, config.cols):
        canvas.shape(
            f'<line x1="{left + c * CELL}" y1="{top}" x2="{left + c * CELL}" y2="{top + height}" '
            'stroke="#c9c3b0" stroke-width="1"/>'
        )
    for r in range(1, config.rows):
        canvas.shape(
            f'<line x1="{left}" y1="{top + r * CELL}" x2="{left + width}" y2="{top + r * CELL}" '
            'stroke="#c9c3b0" stroke-width="1"/>'
        )
    for c in range(config.cols):
        canvas.text(left + (c + 0.5) * CELL, top - 7, f"c{c}", 11, anchor="middle", fill="#555", cls="coordinate")
    for r in range(config.rows):
        canvas.text(left - 7, top + (r + 0.5) * CELL + 4, f"r{r}", 11, anchor="end", fill="#555", cls="coordinate")
    for square, mark in sorted(symbols(state).items()):
        r, c = config.cell(square)
        _mark(canvas, mark, left + (c + 0.5) * CELL, top + (r + 0.5) * CELL, 22)
    canvas.shape(
        f'<rect x="{left}" y="{top}" width="{width}" height="{height}" fill="none" stroke="#333" stroke-width="4"/>'
    )
    for a, b in sorted(state.barriers):
        (ra, ca), (rb, cb) = config.cell(a), config.cell(b)
        if ra == rb:  # a wall between two columns
            x1 = x2 = left + max(ca, cb) * CELL
            y1, y2 = top + ra * CELL, top + (ra + 1) * CELL
        else:
            y1 = y2 = top + max(ra, rb) * CELL
            x1, x2 = left + ca * CELL, left + (ca + 1) * CELL
        colour = NEW_BARRIER if (a, b) in highlight else "#333"
        canvas.shape(
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" stroke-width="5" stroke-linecap="round"/>'
        )
    canvas.shape("</g>")
    return top + height


def _ice_cream(canvas: Canvas, cx: float, cy: float, size: float) -> None:
    """The ice-cream stand: a pink scoop on a cone, drawn (no letter: a thin "I" read as a barrier)."""
    k = size / 22
    canvas.shape(
        f'<g class="ice-cream"><polygon points="{cx - 8 * k:g},{cy - 1 * k:g} {cx + 8 * k:g},{cy - 1 * k:g} '
        f'{cx:g},{cy + 16 * k:g}" fill="{ICE_CONE}" stroke="#8d6e63"/><circle cx="{cx:g}" '
        f'cy="{cy - 6 * k:g}" r="{9 * k:g}" fill="{ICE_SCOOP}" stroke="#ad1457"/></g>'
    )


def _mark(canvas: Canvas, mark: str, cx: float, cy: float, size: float) -> None:
    """A piece centred at (cx, cy): the ice-cream stand drawn, every other piece as its letter."""
    if mark == ICE:
        _ice_cream(canvas, cx, cy, size)
        return
    canvas.text(
        cx,
        cy + size * 0.36,
        mark,
        size,
        anchor="middle",
        bold=mark.isupper() and mark in PLAYER_COLOURS,
        fill=PLAYER_COLOURS.get(mark.upper(), "#444"),
        cls="piece",
    )


def _legend(canvas: Canvas, y: float, state: DCState, solution: bool) -> float:
    canvas.shape('<g class="legend">')
    canvas.text(MARGIN, y, "Legend", 13, bold=True)
    y += 22
    column = (canvas.width - 2 * MARGIN) / 2
    entries = marks_present(state)
    for index, (mark, meaning) in enumerate(entries):
        x = MARGIN + (index % 2) * column
        _mark(canvas, mark, x + 10, y - 4, 18)
        canvas.text(x + 28, y, meaning, 12, cls="legend-entry")
        if index % 2 == 1 or index == len(entries) - 1:
            y += 26
    lines = [("#333", "barrier (the board edge is a wall too)")]
    if solution:
        lines.append((NEW_BARRIER, "barrier of the answer"))
    for index, (colour, meaning) in enumerate(lines):
        x = MARGIN + index * column
        canvas.shape(f'<line x1="{x}" y1="{y - 5}" x2="{x + 22}" y2="{y - 5}" stroke="{colour}" stroke-width="5"/>')
        canvas.text(x + 28, y, meaning, 12)
    y += 26
    y = canvas.paragraph(MARGIN, y, SITE_RULE, 12, canvas.width - 2 * MARGIN)
    y = canvas.paragraph(MARGIN, y, PUZZLE_RULE, 12, canvas.width - 2 * MARGIN, cls="puzzle-rule")
    canvas.shape("</g>")
    return y


def render_svg(
    state: DCState,
    highlight: frozenset[Edge] = frozenset(),
    *,
    title: str = "Deluxe Camping board",
    question: str = "",
    answer: str = "",
) -> str:
    """The board on a grid with row and column numbers (as in r2c3), every piece's letter and the barriers
    (`highlight`: new ones, in orange), under the title, the question and the answer, over a legend."""
    canvas = Canvas(PICTURE_WIDTH)
    text_width = PICTURE_WIDTH - 2 * MARGIN
    y = canvas.paragraph(MARGIN, MARGIN + 14, title, 16, text_width, bold=True, cls="title")
    if question:
        y = canvas.paragraph(MARGIN, y + 2, f"Question: {question}", 13, text_width, cls="question")
    if answer:
        y = canvas.paragraph(MARGIN, y + 2, answer, 13, text_width, bold=True, cls="answer", fill="#b3261e")
    left = (PICTURE_WIDTH - state.config.cols * CELL) / 2
    y = _board(canvas, state, left, y + 22, highlight)
    y = _legend(canvas, y + 30, state, solution=bool(highlight))
    return canvas.document(y - 16 + MARGIN, title)


__all__ = ["DEFAULT_BARRIERS", "Grade", "Puzzle", "SolveInterrupted", "generate", "render_svg", "render_text"]
