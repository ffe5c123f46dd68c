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

import re
from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape

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
FONT = 'font-family="DejaVu Sans, Verdana, sans-serif"'


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
        f"Shape die: {'  '.join(shapes)}  6=any shape ('#' a square, '/' a new row)",
        f"Element die: {'  '.join(elements)}  6=any element",
    ]


def puzzle_text(puzzle: Puzzle) -> str:
    """The statement alone: map, rolls, cards, what the symbols and die faces mean, and the task."""
    comp = puzzle.components
    rolls = "  ".join(f"{t + 1}:{a}-{b}" for t, (a, b) in enumerate(puzzle.rolls))
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
        f"Rolls, in order (shape die-element die): {rolls}",
        "",
        f"Task: {puzzle_question(puzzle)}",
        "Exactly one final map reaches the best score.",
    ]
    return "\n".join(lines) + "\n"


def solution_text(puzzle: Puzzle) -> str:
    """The answer, apart from the statement: each drawing, the final map, the score and the grade evidence."""
    comp = puzzle.components
    lines = [f"Solution: {puzzle.optimum} points ({puzzle.proof.value}, unique: {puzzle.unique})"]
    for step in puzzle.solution:
        cells = " ".join(cell_label(cell) for cell in sorted(step.cells))
        lines.append(
            f"  turn {step.turn + 1}, roll {step.roll[0]}-{step.roll[1]}: {_option_text(step.option)} -> "
            f"{_element_name(step.element)} on {cells}"
        )
    if puzzle.turns_played < len(puzzle.rolls):
        t = puzzle.turns_played
        lines.append(
            f"  turn {t + 1}, roll {puzzle.rolls[t][0]}-{puzzle.rolls[t][1]}: fits nowhere: the game ended early"
        )
    breakdown = score(puzzle.solution_grid, puzzle.challenges, comp)
    clusters = ", ".join(f"{_element_name(e)} {n}" for e, n in breakdown.clusters.items())
    card_points = ", ".join(f"{c.display_name} {p:+d}" for c, p in breakdown.challenge_points.items()) or "none"
    lines += [
        "",
        "Final map:",
        render_grid(puzzle.solution_grid),
        f"Largest clusters: {clusters}; empty squares {breakdown.empty_points:+d}; cards: {card_points}",
        "",
        "Grade evidence:",
    ]
    for item in puzzle.evidence:
        value = (
            f"{item.value:.3f}" if isinstance(item.value, float) and not float(item.value).is_integer() else item.value
        )
        lines.append(f"  {item.name} = {value}: {item.description}")
    return "\n".join(lines) + "\n"


def _text(x: float, y: float, content: str, size: int = 12, extra: str = "") -> str:
    return f'<text x="{x:g}" y="{y:g}" {FONT} font-size="{size}"{extra}>{escape(content)}</text>'


def _grid_group(
    grid: Grid,
    x: float,
    y: float,
    *,
    title: str,
    predrawn: Grid | None,
    turn_of: Mapping[Cell, int],
    cell_size: int,
) -> list[str]:
    """SVG elements of one map whose top-left corner (below the title) is (x, y)."""
    rows, cols = len(grid), len(grid[0])
    heading = _text(x, y - 8, title, 15, ' font-weight="bold"')
    parts = [f'<g class="map">{heading}']
    for r in range(rows):
        for c in range(cols):
            value = grid[r][c]
            pre = predrawn is not None and predrawn[r][c] != 0
            fill = EMPTY_COLOUR if value == 0 else (PALE_COLOURS if pre else ELEMENT_COLOURS)[value]
            cx, cy = x + c * cell_size, y + r * cell_size
            kind = "empty" if value == 0 else ("predrawn" if pre else "drawn")
            parts.append(
                f'<rect class="{kind}" x="{cx}" y="{cy}" width="{cell_size}" height="{cell_size}" '
                f'fill="{fill}" stroke="{GRID_LINE_COLOUR}" stroke-width="1"/>'
            )
            if value:
                colour = "#212121" if pre else "#ffffff"
                parts.append(
                    f'<text class="element" x="{cx + cell_size / 2}" y="{cy + cell_size * 0.72:.1f}" '
                    f'text-anchor="middle" {FONT} font-weight="bold" font-size="{cell_size * 0.36:.0f}" '
                    f'fill="{colour}">{escape(ELEMENT_LETTERS[value])}</text>'
                )
            turn = turn_of.get((r, c))
            if turn is not None:
                parts.append(
                    f'<text class="turn" x="{cx + 3}" y="{cy + cell_size * 0.3:.1f}" {FONT} '
                    f'font-size="{cell_size * 0.26:.0f}" fill="#ffffff">{turn}</text>'
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
                parts.append(
                    f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{PIECE_OUTLINE_COLOUR}" '
                    f'stroke-width="3" stroke-linecap="square"/>'
                )
    parts.append(
        f'<rect x="{x}" y="{y}" width="{cols * cell_size}" height="{rows * cell_size}" fill="none" '
        f'stroke="#212121" stroke-width="2"/></g>'
    )
    return parts


def _swatch(x: float, y: float, fill: str, letter: str = "", letter_fill: str = "#ffffff") -> str:
    parts = f'<rect x="{x}" y="{y - 13}" width="18" height="18" fill="{fill}" stroke="{GRID_LINE_COLOUR}"/>'
    if letter:
        parts += (
            f'<text x="{x + 9}" y="{y + 1}" text-anchor="middle" {FONT} font-weight="bold" font-size="9" '
            f'fill="{letter_fill}">{escape(letter)}</text>'
        )
    return parts


def _mini_shape(x: float, y: float, shape: frozenset[Cell], size: int = 7) -> str:
    return "".join(
        f'<rect x="{x + c * size}" y="{y - 13 + r * size}" width="{size}" height="{size}" fill="#424242" '
        f'stroke="#fafafa" stroke-width="0.5"/>'
        for r, c in sorted(shape)
    )


def _legend(x: float, y: float, components: Components, *, solution: bool, notes: Sequence[str]) -> list[str]:
    """Every mark explained: element letters and colours, pale versus placed, turn numbers, die faces."""
    parts = ['<g class="legend">']
    for k, element in enumerate(e for e in Element if e != Element.EMPTY):
        lx = x + k * 125
        parts.append(_swatch(lx, y, ELEMENT_COLOURS[int(element)], ELEMENT_LETTERS[int(element)]))
        parts.append(_text(lx + 24, y, _element_name(element)))
    y += LEGEND_LINE
    parts.append(_swatch(x, y, PALE_COLOURS[1], ELEMENT_LETTERS[1], "#212121"))
    parts.append(_text(x + 24, y, "pale: drawn before the puzzle starts (the start map)"))
    if solution:
        y += LEGEND_LINE
        parts.append(_swatch(x, y, ELEMENT_COLOURS[1], ELEMENT_LETTERS[1]))
        parts.append(_text(x + 3, y - 5, "3", 8, ' fill="#ffffff"'))
        parts.append(
            _text(x + 24, y, "full colour: drawn in the solution; the small number is the turn (roll) that drew it")
        )
    y += LEGEND_LINE
    parts.append(_text(x, y, "Shape die:"))
    lx = x + 70
    for face, shape in enumerate(components.shapes, start=1):
        parts.append(_text(lx, y, f"{face}"))
        parts.append(_mini_shape(lx + 10, y, shape))
        width = (max(c for _, c in shape) + 1) * 7
        lx += 10 + width + 16
    parts.append(_text(lx, y, f"{ANY_FACE} any shape"))
    y += LEGEND_LINE
    parts.append(_text(x, y, "Element die:"))
    lx = x + 80
    for face, element in enumerate(components.elements, start=1):
        parts.append(_text(lx, y, f"{face}"))
        parts.append(_swatch(lx + 10, y, ELEMENT_COLOURS[int(element)], ELEMENT_LETTERS[int(element)]))
        lx += 40
    parts.append(_text(lx, y, f"{ANY_FACE} any element"))
    for note in notes:
        y += LEGEND_LINE
        parts.append(_text(x, y, note, 12, ' class="note"'))
    parts.append("</g>")
    return parts


def _legend_height(solution: bool, notes: Sequence[str]) -> int:
    return LEGEND_LINE * (4 + int(solution) + len(notes))


def _document(width: float, height: float, body: list[str], label: str) -> str:
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
            f'viewBox="0 0 {width:g} {height:g}" role="img" aria-label="{escape(label, {chr(34): "&quot;"})}">',
            f'<rect width="{width:g}" height="{height:g}" fill="#fafafa"/>',
            *body,
            "</svg>",
        ]
    )


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
    width = 2 * MARGIN + cols * cell_size
    height = MARGIN + TITLE_HEIGHT + rows * cell_size + MARGIN
    body = _grid_group(
        grid, MARGIN, MARGIN + TITLE_HEIGHT, title=title, predrawn=predrawn, turn_of=turn_of or {}, cell_size=cell_size
    )
    return _document(width, height, body, title or "Happy Campers map")


def solution_turns(puzzle: Puzzle) -> dict[Cell, int]:
    """Square -> 1-based turn number of the solution drawing covering it."""
    return {cell: step.turn + 1 for step in puzzle.solution for cell in step.cells}


def _picture(puzzle: Puzzle, grid: Grid, title: str, lines: Sequence[str], *, solution: bool, cell_size: int) -> str:
    comp = puzzle.components
    top = MARGIN + TITLE_HEIGHT
    panel_h = comp.rows * cell_size
    width = max(2 * MARGIN + comp.cols * cell_size, 2 * MARGIN + LEGEND_WIDTH)
    body = _grid_group(
        grid,
        MARGIN,
        top,
        title=title,
        predrawn=puzzle.start_grid,
        turn_of=solution_turns(puzzle) if solution else {},
        cell_size=cell_size,
    )
    y = top + panel_h + 24
    for line in lines:
        body.append(_text(MARGIN, y, line, 13, ' class="caption"'))
        y += 20
    ended = puzzle.turns_played < len(puzzle.rolls)
    notes = (
        [f"The game ended early: roll {puzzle.turns_played + 1} fits nowhere on this map."]
        if solution and ended
        else []
    )
    body += _legend(MARGIN, y + 8, comp, solution=solution, notes=notes)
    height = y + 8 + _legend_height(solution, notes) + MARGIN
    return _document(width, height, body, title)


def puzzle_svg(puzzle: Puzzle, *, cell_size: int = CELL_SIZE) -> str:
    """The puzzle alone: the start map, the rolls, the cards and the legend (no answer in it)."""
    rolls = ", ".join(f"#{t + 1} {a}-{b}" for t, (a, b) in enumerate(puzzle.rolls))
    lines = [f"Rolls in order (shape die-element die): {rolls}", f"Challenge cards: {_cards(puzzle)}",
             "Find the final map with the most points (exactly one reaches it)."]
    title = f"Happy Campers puzzle {puzzle.seed} ({puzzle.grade.value})"
    return _picture(puzzle, puzzle.start_grid, title, lines, solution=False, cell_size=cell_size)


def solution_svg(puzzle: Puzzle, *, cell_size: int = CELL_SIZE) -> str:
    """The answer: the solved map with the turn of each drawing, and whether the game ended early."""
    title = f"Solution to puzzle {puzzle.seed}: {puzzle.optimum} points"
    played = f"{puzzle.turns_played} of {len(puzzle.rolls)} rolls drawn"
    lines = [f"{played}; optimum {puzzle.proof.value}, unique: {'yes' if puzzle.unique else 'no'}"]
    return _picture(puzzle, puzzle.solution_grid, title, lines, solution=True, cell_size=cell_size)


def maps_svg(pictures: Sequence[str], gap: int = MARGIN) -> str:
    """Standalone map pictures (`grid_svg`) side by side in one SVG: a whole game's maps."""
    sizes = [(float(_attribute(p, "width")), float(_attribute(p, "height"))) for p in pictures]
    width = sum(w for w, _ in sizes) + gap * max(len(sizes) - 1, 0)
    height = max((h for _, h in sizes), default=0.0)
    parts, x = [], 0.0
    for picture, (w, _) in zip(pictures, sizes, strict=True):
        parts.append(picture.replace("<svg ", f'<svg x="{x:g}" y="0" ', 1))
        x += w + gap
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}">' + "".join(parts) + "</svg>"
    )


def _attribute(svg: str, name: str) -> str:
    match = re.search(rf'<svg[^>]*\s{name}="([0-9.]+)', svg)
    assert match is not None, f"a picture without its {name}"
    return match.group(1)
