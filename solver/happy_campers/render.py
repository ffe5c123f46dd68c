"""Text and SVG pictures of Happy Campers puzzles (plain string building, no dependencies).

A puzzle has two pictures and two texts: the statement alone (start map, rolls, cards, and a legend that
explains every mark and what each die face means) and, apart from it, the solution (the solved map with the
turn that drew each square, and whether the game ended early).

Text uses the rules model's map symbols (`rules.render_grid`), so a printed map can be read back with
`rules.parse_grid`; cells are written `rRcC` (0-based row and column, as in the JSON `row`/`col` and in hint
labels). Pictures label squares with letters that read as their element (Tr, WC, Wa, Te, En); pre-drawn
squares are pale, squares drawn in the solution are full colour with their turn number, and each drawing of
the solution is outlined.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from campsolver.solver.core.picture import Canvas
from campsolver.solver.happy_campers.puzzle import Puzzle
from campsolver.solver.happy_campers.rules import (
    ANY_FACE,
    Components,
    Element,
    Grid,
    Option,
    render_grid,
    score,
)

Cell = tuple[int, int]

#: Map symbols, as in `rules.render_grid` (text statements, parseable).
ELEMENT_SYMBOLS: dict[int, str] = {0: ".", 1: "T", 2: "W", 3: "~", 4: "A", 5: "E"}
#: Letters on the pictures: short enough for a square, and they read as the element.
ELEMENT_LETTERS: dict[int, str] = {1: "Tr", 2: "WC", 3: "Wa", 4: "Te", 5: "En"}
#: Fill colours of the elements (solution squares); pre-drawn squares use the pale variant.
ELEMENT_COLOURS: dict[int, str] = {1: "#2e7d32", 2: "#6d4c41", 3: "#1e88e5", 4: "#ef6c00", 5: "#8e24aa"}
PALE_COLOURS: dict[int, str] = {1: "#a5d6a7", 2: "#bcaaa4", 3: "#90caf9", 4: "#ffcc80", 5: "#ce93d8"}
EMPTY_COLOUR = "#ffffff"
GRID_LINE_COLOUR = "#9e9e9e"
PIECE_OUTLINE_COLOUR = "#000000"
#: Side of one square and the gaps around the pictures, in SVG user units.
CELL_SIZE = 36
MARGIN = 20
TITLE_HEIGHT = 28
LEGEND_LINE = 24
LEGEND_WIDTH = 640


def cell_label(cell: Cell) -> str:
    """The one way a cell is written in text: `rRcC`, 0-based like the JSON row/col."""
    return f"r{cell[0]}c{cell[1]}"


def _element_name(element: int) -> str:
    return Element(element).name.lower()


def _option_text(option: Option) -> str:
    shape = "any shape" if option.shape_face == ANY_FACE else f"shape {option.shape_face}"
    element = "any element" if option.element_face == ANY_FACE else f"element {option.element_face}"
    return f"{shape} with {element}"


def _cards(puzzle: Puzzle) -> str:
    return ", ".join(card.display_name for card in puzzle.challenges) or "none"


#: How a roll is read (the rulebook: "Each player can choose which shape to draw and which element to fill this
#: shape with": with 4 and 2, shape 2 with element 4 or shape 4 with element 2).
ROLL_RULE = (
    "Each roll: either number may be the shape and the other the element (4 and 2: shape 2 with "
    "element 4, or shape 4 with element 2)."
)
#: Doubles in a puzzle (one map): the multi-player and solo double rules are off (docs/rules/happy-campers.md).
DOUBLE_RULE = (
    "Doubles are off: with one map a double is an ordinary roll (5 and 5: shape 5 with element 5; 6 and "
    "6: any shape with any element); no neighbour draws it and there is no second map."
)
#: The same with a sixth shape, where a 6 is that shape (only the element 6 is "any").
DOUBLE_RULE_SIX_SHAPES = (
    "Doubles are off: with one map a double is an ordinary roll (5 and 5: shape 5 with element "
    "5; 6 and 6: shape 6 with any element); no neighbour draws it and there is no second map."
)


def double_rule(components: Components) -> str:
    """The doubles sentence for these components (what a 6 is depends on the number of shapes)."""
    return DOUBLE_RULE if len(components.shapes) < ANY_FACE else DOUBLE_RULE_SIX_SHAPES


#: How cells are named (the answer's `rRcC`), said beside a map that carries its row and column numbers.
COORDINATE_RULE = "Cells are named rRcC: row R from the top, column C from the left, both from 0 (r0c0 top left)."
#: The band left of and above a puzzle picture's map for its row and column numbers.
AXIS = 30


def puzzle_question(puzzle: Puzzle) -> str:
    """The task in one sentence."""
    return (
        f"Play the {len(puzzle.rolls)} rolls in order on the start map (draw each roll if it fits anywhere; the "
        "first roll that fits nowhere ends the game): which final map scores the most points?"
    )


def _face_lines(components: Components) -> list[str]:
    shapes = []
    for face, shape in enumerate(components.shapes, start=1):
        rows = max(r for r, _ in shape) + 1
        cols = max(c for _, c in shape) + 1
        drawing = "/".join("".join("#" if (r, c) in shape else "." for c in range(cols)) for r in range(rows))
        shapes.append(f"{face}={drawing}")
    elements = [f"{face}={_element_name(e)}" for face, e in enumerate(components.elements, start=1)]
    return [
        f"Shapes by number: {'  '.join(shapes)}{_any_shape_text(components, '  6=any shape')} ('#' a square, "
        "'/' a new row)",
        f"Elements by number: {'  '.join(elements)}  6=any element",
    ]


def _any_shape_text(components: Components, text: str) -> str:
    """`text` when shape number 6 means any shape (five shapes); empty when it is the sixth shape."""
    return text if len(components.shapes) < ANY_FACE else ""


def puzzle_text(puzzle: Puzzle) -> str:
    """The statement alone: map, rolls, cards, what the symbols and die faces mean, and the task."""
    comp = puzzle.components
    rolls = ", ".join(f"#{t + 1} {roll_label(roll)}" for t, roll in enumerate(puzzle.rolls))
    legend = "  ".join(f"{ELEMENT_SYMBOLS[int(e)]} {_element_name(e)}" for e in Element)
    lines = [
        f"Happy Campers puzzle (seed {puzzle.seed}, candidate {puzzle.candidate}) - grade {puzzle.grade.value}",
        f"Map {comp.rows}x{comp.cols}; challenge cards: {_cards(puzzle)}",
        f"Symbols: {legend}",
        *_face_lines(comp),
        "",
        "Start map:",
        render_grid(puzzle.start_grid),
        "",
        COORDINATE_RULE,
        "",
        f"Rolls, in order: {rolls}",
        ROLL_RULE,
        double_rule(comp),
        "",
        f"Task: {puzzle_question(puzzle)}",
        "Exactly one final map reaches the best score.",
    ]
    return "\n".join(lines) + "\n"


def roll_label(roll: tuple[int, int]) -> str:
    """A roll as the rules read it: two numbers, either of which may be the shape ("3 and 6")."""
    return f"{roll[0]} and {roll[1]}"


def solution_text(puzzle: Puzzle) -> str:
    """The answer, apart from the statement: each drawing, the final map and the score (the grade's evidence
    travels beside it in the envelope's `evidence`)."""
    comp = puzzle.components
    lines = [f"Solution: {puzzle.optimum} points ({puzzle.proof.value}, unique: {puzzle.unique})"]
    for step in puzzle.solution:
        cells = " ".join(cell_label(cell) for cell in sorted(step.cells))
        lines.append(
            f"  turn {step.turn + 1}, roll {roll_label(step.roll)}: {_option_text(step.option)} -> "
            f"{_element_name(step.element)} on {cells}"
        )
    if puzzle.turns_played < len(puzzle.rolls):
        t = puzzle.turns_played
        lines.append(f"  turn {t + 1}, roll {roll_label(puzzle.rolls[t])}: fits nowhere: the game ended early")
    breakdown = score(puzzle.solution_grid, puzzle.challenges, comp)
    clusters = ", ".join(f"{_element_name(e)} {n}" for e, n in breakdown.clusters.items())
    card_points = ", ".join(f"{c.display_name} {p:+d}" for c, p in breakdown.challenge_points.items()) or "none"
    lines += [
        "",
        "Final map:",
        render_grid(puzzle.solution_grid),
        f"Largest clusters: {clusters}; empty squares {breakdown.empty_points:+d}; cards: {card_points}",
    ]
    return "\n".join(lines) + "\n"


def _grid_group(
    canvas: Canvas,
    grid: Grid,
    x: float,
    y: float,
    *,
    predrawn: Grid | None,
    turn_of: Mapping[Cell, int],
    cell_size: int,
) -> None:
    """One map whose top-left corner is (x, y), drawn on `canvas`."""
    rows, cols = len(grid), len(grid[0])
    canvas.shape('<g class="map">')
    for r in range(rows):
        for c in range(cols):
            value = grid[r][c]
            pre = predrawn is not None and predrawn[r][c] != 0
            fill = EMPTY_COLOUR if value == 0 else (PALE_COLOURS if pre else ELEMENT_COLOURS)[value]
            cx, cy = x + c * cell_size, y + r * cell_size
            kind = "empty" if value == 0 else ("predrawn" if pre else "drawn")
            canvas.shape(
                f'<rect class="{kind}" x="{cx}" y="{cy}" width="{cell_size}" height="{cell_size}" '
                f'fill="{fill}" stroke="{GRID_LINE_COLOUR}" stroke-width="1"/>'
            )
            if value:
                colour = "#212121" if pre else "#ffffff"
                canvas.text(
                    cx + cell_size / 2,
                    cy + cell_size * 0.76,
                    ELEMENT_LETTERS[value],
                    round(cell_size * 0.36),
                    anchor="middle",
                    bold=True,
                    fill=colour,
                    cls="element",
                )
            turn = turn_of.get((r, c))
            if turn is not None:
                canvas.text(
                    cx + 3,
                    cy + cell_size * 0.3,
                    str(turn),
                    max(10, round(cell_size * 0.26)),
                    fill="#ffffff",
                    cls="turn",
                )
    # Outline every solution drawing: a thick edge wherever the neighbour is not the same drawing.
    for (r, c), turn in sorted(turn_of.items()):
        cx, cy = x + c * cell_size, y + r * cell_size
        edges = (
            ((r - 1, c), (cx, cy, cx + cell_size, cy)),
            ((r + 1, c), (cx, cy + cell_size, cx + cell_size, cy + cell_size)),
            ((r, c - 1), (cx, cy, cx, cy + cell_size)),
            ((r, c + 1), (cx + cell_size, cy, cx + cell_size, cy + cell_size)),
        )
        for neighbour, (x1, y1, x2, y2) in edges:
            if turn_of.get(neighbour) != turn:
                canvas.shape(
                    f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{PIECE_OUTLINE_COLOUR}" '
                    f'stroke-width="3" stroke-linecap="square"/>'
                )
    canvas.shape(
        f'<rect x="{x}" y="{y}" width="{cols * cell_size}" height="{rows * cell_size}" fill="none" '
        f'stroke="#212121" stroke-width="2"/></g>'
    )


def _swatch(canvas: Canvas, x: float, y: float, fill: str, letter: str = "", letter_fill: str = "#ffffff") -> None:
    canvas.shape(f'<rect x="{x}" y="{y - 14}" width="22" height="20" fill="{fill}" stroke="{GRID_LINE_COLOUR}"/>')
    if letter:
        canvas.text(x + 11, y + 1, letter, 10, anchor="middle", bold=True, fill=letter_fill, cls="swatch")


def _mini_shape(canvas: Canvas, x: float, y: float, shape: frozenset[Cell], size: int = 7) -> None:
    canvas.shape(
        "".join(
            f'<rect x="{x + c * size}" y="{y - 13 + r * size}" width="{size}" height="{size}" fill="#424242" '
            f'stroke="#fafafa" stroke-width="0.5"/>'
            for r, c in sorted(shape)
        )
    )


def _legend(
    canvas: Canvas, x: float, y: float, components: Components, *, solution: bool, notes: Sequence[str]
) -> float:
    """Every mark explained: element letters and colours, pale versus placed, turn numbers, what each number
    of a roll means; returns the baseline below the legend."""
    canvas.shape('<g class="legend">')
    canvas.text(x, y, "Legend", 13, bold=True)
    y += LEGEND_LINE
    for k, element in enumerate(e for e in Element if e != Element.EMPTY):
        lx = x + k * 125
        _swatch(canvas, lx, y, ELEMENT_COLOURS[int(element)], ELEMENT_LETTERS[int(element)])
        canvas.text(lx + 26, y, _element_name(element), 12)
    y += LEGEND_LINE
    _swatch(canvas, x, y, PALE_COLOURS[1], ELEMENT_LETTERS[1], "#212121")
    canvas.text(x + 30, y, "pale: drawn before the puzzle starts (the start map)", 12)
    if solution:
        y += LEGEND_LINE
        _swatch(canvas, x, y, ELEMENT_COLOURS[1])
        canvas.text(x + 2, y - 4, "3", 10, fill="#ffffff", cls="turn")
        canvas.text(x + 30, y, "full colour: drawn in the solution; the small number is the turn that drew it", 12)
    y += LEGEND_LINE
    box = canvas.text(x, y, "Shapes by number:", 12)
    lx = box.x + box.width + 10
    for face, shape in enumerate(components.shapes, start=1):
        box = canvas.text(lx, y, f"{face}", 12)
        _mini_shape(canvas, box.x + box.width + 3, y, shape)
        lx = box.x + box.width + 3 + (max(c for _, c in shape) + 1) * 7 + 14
    if _any_shape_text(components, "any"):
        canvas.text(lx, y, f"{ANY_FACE} any shape", 12)
    y += LEGEND_LINE
    box = canvas.text(x, y, "Elements by number:", 12)
    lx = box.x + box.width + 10
    for face, element in enumerate(components.elements, start=1):
        box = canvas.text(lx, y, f"{face}", 12)
        _swatch(canvas, box.x + box.width + 3, y, ELEMENT_COLOURS[int(element)], ELEMENT_LETTERS[int(element)])
        lx = box.x + box.width + 3 + 22 + 12
    canvas.text(lx, y, f"{ANY_FACE} any element", 12)
    for note in notes:
        y += LEGEND_LINE
        canvas.text(x, y, note, 12, cls="note")
    canvas.shape("</g>")
    return y + LEGEND_LINE


def grid_svg(
    grid: Grid,
    *,
    title: str = "",
    predrawn: Grid | None = None,
    turn_of: Mapping[Cell, int] | None = None,
    cell_size: int = CELL_SIZE,
) -> str:
    """A standalone SVG of one map. `predrawn` marks squares to show pale; `turn_of` numbers drawings."""
    rows, cols = len(grid), len(grid[0])
    canvas = Canvas(2 * MARGIN + cols * cell_size)
    canvas.text(MARGIN, MARGIN + TITLE_HEIGHT - 8, title, 15, bold=True, cls="title")
    _grid_group(
        canvas, grid, MARGIN, MARGIN + TITLE_HEIGHT, predrawn=predrawn, turn_of=turn_of or {}, cell_size=cell_size
    )
    return canvas.document(MARGIN + TITLE_HEIGHT + rows * cell_size + MARGIN, title or "Happy Campers map", "#fafafa")


def solution_turns(puzzle: Puzzle) -> dict[Cell, int]:
    """Square -> 1-based turn number of the solution drawing covering it."""
    return {cell: step.turn + 1 for step in puzzle.solution for cell in step.cells}


def _picture(
    puzzle: Puzzle,
    grid: Grid,
    title: str,
    above: Sequence[str],
    below: Sequence[str],
    *,
    solution: bool,
    cell_size: int,
) -> str:
    """Title, the sentences `above` (the question), the map, the sentences `below`, then the legend."""
    comp = puzzle.components
    width = max(2 * MARGIN + AXIS + comp.cols * cell_size, 2 * MARGIN + LEGEND_WIDTH)
    canvas = Canvas(width)
    text_width = width - 2 * MARGIN
    y = canvas.paragraph(MARGIN, MARGIN + 16, title, 16, text_width, bold=True, cls="title")
    for sentence in above:
        y = canvas.paragraph(MARGIN, y + 2, sentence, 13, text_width, cls="question")
    left, y = MARGIN + AXIS, y + 14
    for c in range(comp.cols):  # row and column numbers, as the answer names cells (r2c3)
        canvas.text(left + (c + 0.5) * cell_size, y - 6, f"c{c}", 12, anchor="middle", fill="#555", cls="coordinate")
    for r in range(comp.rows):
        canvas.text(left - 6, y + (r + 0.5) * cell_size + 4, f"r{r}", 12, anchor="end", fill="#555", cls="coordinate")
    _grid_group(
        canvas,
        grid,
        left,
        y,
        predrawn=puzzle.start_grid,
        turn_of=solution_turns(puzzle) if solution else {},
        cell_size=cell_size,
    )
    y += comp.rows * cell_size + 20
    for sentence in below:
        y = canvas.paragraph(MARGIN, y, sentence, 13, text_width, cls="caption")
    ended = puzzle.turns_played < len(puzzle.rolls)
    notes = (
        [f"The game ended early: roll {puzzle.turns_played + 1} fits nowhere on this map."]
        if solution and ended
        else []
    )
    y = _legend(canvas, MARGIN, y + 4, comp, solution=solution, notes=notes)
    return canvas.document(y - LEGEND_LINE + MARGIN, title, "#fafafa")


def _rolls_line(puzzle: Puzzle) -> str:
    return "Rolls in order: " + ", ".join(f"#{t + 1} {roll_label(roll)}" for t, roll in enumerate(puzzle.rolls))


def puzzle_svg(puzzle: Puzzle, *, cell_size: int = CELL_SIZE) -> str:
    """The puzzle alone: the question, the start map, the rolls, the cards and the legend (no answer in it)."""
    below = [
        COORDINATE_RULE,
        f"{_rolls_line(puzzle)}; challenge cards: {_cards(puzzle)}.",
        ROLL_RULE,
        double_rule(puzzle.components),
    ]
    title = f"Happy Campers puzzle {puzzle.seed} ({puzzle.grade.value})"
    above = [f"Question: {puzzle_question(puzzle)} Exactly one final map reaches the best score."]
    return _picture(puzzle, puzzle.start_grid, title, above, below, solution=False, cell_size=cell_size)


def solution_svg(puzzle: Puzzle, *, cell_size: int = CELL_SIZE) -> str:
    """The answer: the solved map with the turn of each drawing, and whether the game ended early."""
    title = f"Solution to Happy Campers puzzle {puzzle.seed}: {puzzle.optimum} points"
    played = f"{puzzle.turns_played} of {len(puzzle.rolls)} rolls drawn"
    above = [
        f"Question: {puzzle_question(puzzle)}",
        f"Answer: the final map below ({played}; proof {puzzle.proof.value}"
        f"{', the only map with this score' if puzzle.unique else ''}).",
    ]
    below = [f"{_rolls_line(puzzle)}; challenge cards: {_cards(puzzle)}."]
    return _picture(puzzle, puzzle.solution_grid, title, above, below, solution=True, cell_size=cell_size)


# --- the web table's seat view ---------------------------------------------------------------------------------

#: The seat view's square, and the band left and above a map for its coordinates (text at 12-13 units).
SEAT_CELL = 36
SEAT_AXIS = 30


def seat_map_svg(grid: Grid, map_index: int, *, recent: frozenset[Cell] = frozenset(), label: str = "") -> str:
    """One player's map as the web table shows it: row and column numbers (r0.., c0.., as hint labels name
    cells), each drawn square in its element's colour with its letters, the last drawing outlined, and over
    every square a transparent hit mark (`class="hit"`, `data-key` and `data-cell` "cell:M:rRcC") a client
    can take clicks on. Happy Campers is played in the open: every seat sees every map."""
    rows, cols = len(grid), len(grid[0])
    width = SEAT_AXIS + cols * SEAT_CELL + 8
    height = SEAT_AXIS + rows * SEAT_CELL + 8
    canvas = Canvas(width)
    left, top = SEAT_AXIS, SEAT_AXIS
    for c in range(cols):
        canvas.text(left + (c + 0.5) * SEAT_CELL, top - 9, f"c{c}", 12, anchor="middle", fill="#555", cls="coordinate")
    for r in range(rows):
        canvas.text(
            left - 4, top + (r + 0.5) * SEAT_CELL + 4.5, f"r{r}", 12, anchor="end", fill="#555", cls="coordinate"
        )
    for r in range(rows):
        for c in range(cols):
            value = grid[r][c]
            x, y = left + c * SEAT_CELL, top + r * SEAT_CELL
            fill = EMPTY_COLOUR if value == 0 else ELEMENT_COLOURS[value]
            canvas.shape(
                f'<rect x="{x}" y="{y}" width="{SEAT_CELL}" height="{SEAT_CELL}" fill="{fill}" '
                f'stroke="{GRID_LINE_COLOUR}"/>'
            )
            if value:
                canvas.text(
                    x + SEAT_CELL / 2,
                    y + SEAT_CELL * 0.68,
                    ELEMENT_LETTERS[value],
                    13,
                    anchor="middle",
                    bold=True,
                    fill="#ffffff",
                    cls="element",
                )
    for r, c in sorted(recent):
        x, y = left + c * SEAT_CELL, top + r * SEAT_CELL
        for (nr, nc), (x1, y1, x2, y2) in (
            ((r - 1, c), (x, y, x + SEAT_CELL, y)),
            ((r + 1, c), (x, y + SEAT_CELL, x + SEAT_CELL, y + SEAT_CELL)),
            ((r, c - 1), (x, y, x, y + SEAT_CELL)),
            ((r, c + 1), (x + SEAT_CELL, y, x + SEAT_CELL, y + SEAT_CELL)),
        ):
            if (nr, nc) not in recent:
                canvas.shape(
                    f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{PIECE_OUTLINE_COLOUR}" '
                    'stroke-width="3" stroke-linecap="square"/>'
                )
    canvas.shape(
        f'<rect x="{left}" y="{top}" width="{cols * SEAT_CELL}" height="{rows * SEAT_CELL}" fill="none" '
        'stroke="#212121" stroke-width="2"/>'
    )
    canvas.shape('<g class="hits">')
    for r in range(rows):
        for c in range(cols):
            key = f"cell:{map_index}:r{r}c{c}"
            canvas.shape(
                f'<rect class="hit" x="{left + c * SEAT_CELL}" y="{top + r * SEAT_CELL}" '
                f'width="{SEAT_CELL}" height="{SEAT_CELL}" fill="transparent" data-key="{key}" '
                f'data-cell="{key}"><title>r{r}c{c}</title></rect>'
            )
    canvas.shape("</g>")
    return canvas.document(height, label or f"map {map_index}")


def shape_svg(shape: frozenset[Cell], size: int = 9) -> str:
    """A shape of the reference card as a small standalone SVG (the legend's mark of a shape number)."""
    rows = max(r for r, _ in shape) + 1
    cols = max(c for _, c in shape) + 1
    cells = "".join(
        f'<rect x="{1 + c * size}" y="{1 + r * size}" width="{size}" height="{size}" fill="#424242" stroke="#fafafa"/>'
        for r, c in sorted(shape)
    )
    width, height = cols * size + 2, rows * size + 2
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">{cells}</svg>'
    )
