"""Text and SVG pictures of a Campsite table, readable without colour (letters on every square).

Text: one 3-character cell per square. A coloured square shows its two terrain letters (D F M P W T), an empty card
square shows '..'; a third character '*' marks a Fair Weather card. A tent shows '^' + token letter (X for
Wilderness) + the owner's seat. Table surface is blank.
SVG: the same letters on every square, Fair Weather squares hatched, tents as triangles with their letter, and
(in solution pictures) the laid card outlined with a thick dashed line.
"""

from __future__ import annotations

from html import escape

from campsolver.solver.campsite.rules import Placement, Table, Tent

LEGEND = (
    "Legend: D Desert, F Forest, M Meadow, P Mountains, W Water, T Trail; '..' empty square; "
    "'*' Fair Weather card (x2); '^Wn' tent of seat n with token W (X = Wilderness)."
)
CELL = 36


def _extent(table: Table, extra: list[Placement] | None = None) -> tuple[int, int, int, int]:
    cells = list(table.grid)
    for placement in extra or []:
        cells.extend(placement.squares())
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return min(rows), min(cols), max(rows), max(cols)


def table_text(table: Table) -> str:
    if not table.grid:
        return "(empty table)"
    min_r, min_c, max_r, max_c = _extent(table)
    lines = ["     " + "".join(f"{c:>3} " for c in range(min_c, max_c + 1))]
    for r in range(min_r, max_r + 1):
        cells = []
        for c in range(min_c, max_c + 1):
            square = table.grid.get((r, c))
            tent = table.tent_cells.get((r, c))
            if tent is not None:
                text = f"^{tent.token.letter}{tent.player}"
            elif square is None:
                text = "   "
            else:
                letters = _letters(square.mask) if square.coloured else ".."
                text = letters + ("*" if square.fair_weather else " ")
            cells.append(text)
        lines.append(f"{r:>4} " + " ".join(cells))
    return "\n".join(lines)


def _letters(mask: int) -> str:
    from campsolver.solver.campsite.rules import Terrain

    return "".join(t.letter for t in Terrain if mask & t.bit)


def table_svg(table: Table, highlight: Placement | None = None, new_tent: Tent | None = None) -> str:
    if not table.grid:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'
    min_r, min_c, max_r, max_c = _extent(table)
    width = (max_c - min_c + 1) * CELL + 2
    height = (max_r - min_r + 1) * CELL + 2
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="monospace">',
        "<defs><pattern id='fair' width='6' height='6' patternUnits='userSpaceOnUse'>"
        "<path d='M0,6 L6,0' stroke='#888' stroke-width='1'/></pattern></defs>",
    ]
    for (r, c), square in sorted(table.grid.items()):
        x = (c - min_c) * CELL + 1
        y = (r - min_r) * CELL + 1
        fill = "#d9d9d9" if square.coloured else "#ffffff"
        parts.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#000"/>')
        if square.fair_weather:
            parts.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="url(#fair)"/>')
        label = _letters(square.mask) if square.coloured else ""
        if label:
            parts.append(f'<text x="{x + 6}" y="{y + 14}" font-size="12">{escape(label)}</text>')
    for tent in table.tents:
        x = (tent.col - min_c) * CELL + 1
        y = (tent.row - min_r) * CELL + 1
        bold = new_tent is not None and tent == new_tent
        parts.append(
            f'<polygon points="{x + CELL / 2},{y + 6} {x + 6},{y + CELL - 6} {x + CELL - 6},{y + CELL - 6}" '
            f'fill="none" stroke="#000" stroke-width="{3 if bold else 1}"/>'
        )
        parts.append(
            f'<text x="{x + CELL / 2 - 4}" y="{y + CELL - 9}" font-size="11">{tent.token.letter}{tent.player}</text>'
        )
    if highlight is not None:
        cells = highlight.squares()
        rows = [r for r, _ in cells]
        cols = [c for _, c in cells]
        x = (min(cols) - min_c) * CELL + 1
        y = (min(rows) - min_r) * CELL + 1
        w = (max(cols) - min(cols) + 1) * CELL
        h = (max(rows) - min(rows) + 1) * CELL
        parts.append(
            f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="none" stroke="#000" stroke-width="4" '
            'stroke-dasharray="8,4"/>'
        )
    parts.append("</svg>")
    return "".join(parts)
