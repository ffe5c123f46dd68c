"""Text and SVG pictures of Happy Campers puzzles (plain string building, no dependencies).

The text statement uses the rules model's map symbols (`rules.render_grid`), so a printed puzzle can be
read back with `rules.parse_grid`. The SVG shows the start map and the solved map side by side: every
element has a colour and its map symbol; pre-drawn squares are pale, solution squares full colour with
the number of the turn that drew them, and each solution drawing is outlined so its shape stands out.
"""

from __future__ import annotations

from collections.abc import Mapping
from xml.sax.saxutils import escape

from campsolver.solver.happy_campers.puzzle import Puzzle
from campsolver.solver.happy_campers.rules import (
    ANY_FACE,
    Element,
    Grid,
    Option,
    render_grid,
    score,
)

Cell = tuple[int, int]

#: Map symbols, as in `rules.render_grid`.
ELEMENT_SYMBOLS: dict[int, str] = {0: ".", 1: "T", 2: "W", 3: "~", 4: "A", 5: "E"}
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
PANEL_GAP = 40
LEGEND_HEIGHT = 30


def _element_name(element: int) -> str:
    return Element(element).name.lower()


def _option_text(option: Option) -> str:
    shape = "any shape" if option.shape_face == ANY_FACE else f"shape {option.shape_face}"
    element = "any element" if option.element_face == ANY_FACE else f"element {option.element_face}"
    return f"{shape} with {element}"


def puzzle_text(puzzle: Puzzle) -> str:
    """The statement (map, rolls, cards, task) followed by the solution and the grade evidence."""
    comp = puzzle.components
    cards = ", ".join(card.value.replace("_", " ") for card in puzzle.challenges) or "none"
    rolls = "  ".join(f"{t + 1}:{a}-{b}" for t, (a, b) in enumerate(puzzle.rolls))
    legend = "  ".join(f"{ELEMENT_SYMBOLS[int(e)]} {_element_name(e)}" for e in Element)
    lines = [
        f"Happy Campers puzzle (seed {puzzle.seed}, candidate {puzzle.candidate}) - grade {puzzle.grade.value}",
        f"Map {comp.rows}x{comp.cols}; challenge cards: {cards}",
        f"Symbols: {legend}",
        "",
        "Start map:",
        render_grid(puzzle.start_grid),
        "",
        f"Rolls, in order: {rolls}",
        "",
        "Task: play the rolls in order on this map (a roll must be drawn whenever it fits; the first roll that",
        "fits nowhere ends the game) and reach the best final score. Exactly one final map reaches it.",
        "",
        "=" * 40,
        f"Solution: {puzzle.optimum} points ({puzzle.proof.value}, unique: {puzzle.unique})",
    ]
    for step in puzzle.solution:
        cells = " ".join(f"({r},{c})" for r, c in sorted(step.cells))
        lines.append(
            f"  turn {step.turn + 1}, roll {step.roll[0]}-{step.roll[1]}: {_option_text(step.option)} -> "
            f"{_element_name(step.element)} on {cells}"
        )
    if puzzle.turns_played < len(puzzle.rolls):
        t = puzzle.turns_played
        lines.append(f"  turn {t + 1}, roll {puzzle.rolls[t][0]}-{puzzle.rolls[t][1]}: fits nowhere, the game ends")
    breakdown = score(puzzle.solution_grid, puzzle.challenges, comp)
    clusters = ", ".join(f"{_element_name(e)} {n}" for e, n in breakdown.clusters.items())
    card_points = ", ".join(f"{c.value} {p:+d}" for c, p in breakdown.challenge_points.items()) or "none"
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


def _piece_of(turn_of: Mapping[Cell, int], cell: Cell) -> int | None:
    return turn_of.get(cell)


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
    parts = [
        f'<g class="map"><text x="{x}" y="{y - 8}" font-family="sans-serif" font-size="15" '
        f'font-weight="bold">{escape(title)}</text>'
    ]
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
                colour = "#424242" if pre else "#ffffff"
                parts.append(
                    f'<text x="{cx + cell_size / 2}" y="{cy + cell_size * 0.62}" text-anchor="middle" '
                    f'font-family="monospace" font-size="{cell_size * 0.45:.0f}" fill="{colour}">'
                    f"{escape(ELEMENT_SYMBOLS[value])}</text>"
                )
            turn = turn_of.get((r, c))
            if turn is not None:
                parts.append(
                    f'<text class="turn" x="{cx + 3}" y="{cy + cell_size * 0.3:.1f}" font-family="sans-serif" '
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
            if _piece_of(turn_of, neighbour) != turn:
                parts.append(
                    f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{PIECE_OUTLINE_COLOUR}" '
                    f'stroke-width="3" stroke-linecap="square"/>'
                )
    parts.append(
        f'<rect x="{x}" y="{y}" width="{cols * cell_size}" height="{rows * cell_size}" fill="none" '
        f'stroke="#212121" stroke-width="2"/></g>'
    )
    return parts


def _legend(x: float, y: float) -> list[str]:
    parts = ['<g class="legend">']
    for k, element in enumerate(e for e in Element if e != Element.EMPTY):
        lx = x + k * 120
        parts.append(
            f'<rect x="{lx}" y="{y}" width="16" height="16" fill="{ELEMENT_COLOURS[int(element)]}"/>'
            f'<text x="{lx + 22}" y="{y + 13}" font-family="sans-serif" font-size="12">'
            f"{escape(ELEMENT_SYMBOLS[int(element)])} {escape(_element_name(element))}</text>"
        )
    parts.append("</g>")
    return parts


def _document(width: float, height: float, body: list[str], label: str) -> str:
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(label, {chr(34): "&quot;"})}">',
            f'<rect width="{width}" height="{height}" fill="#fafafa"/>',
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


def puzzle_svg(puzzle: Puzzle, *, cell_size: int = CELL_SIZE) -> str:
    """Start map and solved map side by side, with a legend and the rolls underneath."""
    comp = puzzle.components
    panel_w = comp.cols * cell_size
    panel_h = comp.rows * cell_size
    top = MARGIN + TITLE_HEIGHT
    width = 2 * MARGIN + 2 * panel_w + PANEL_GAP
    width = max(width, 2 * MARGIN + 5 * 120)
    rolls_y = top + panel_h + 24
    legend_y = rolls_y + 14
    height = legend_y + LEGEND_HEIGHT + MARGIN
    cards = ", ".join(card.value.replace("_", " ") for card in puzzle.challenges) or "no cards"
    body = _grid_group(
        puzzle.start_grid,
        MARGIN,
        top,
        title=f"Start ({cards})",
        predrawn=puzzle.start_grid,
        turn_of={},
        cell_size=cell_size,
    )
    body += _grid_group(
        puzzle.solution_grid,
        MARGIN + panel_w + PANEL_GAP,
        top,
        title=f"Solution: {puzzle.optimum} points ({puzzle.grade.value})",
        predrawn=puzzle.start_grid,
        turn_of=solution_turns(puzzle),
        cell_size=cell_size,
    )
    rolls = "  ".join(f"{t + 1}: {a}-{b}" for t, (a, b) in enumerate(puzzle.rolls))
    body.append(
        f'<text class="rolls" x="{MARGIN}" y="{rolls_y}" font-family="sans-serif" font-size="13">'
        f"Rolls {escape(rolls)}</text>"
    )
    body += _legend(MARGIN, legend_y)
    return _document(width, height, body, f"Happy Campers puzzle, seed {puzzle.seed}")
