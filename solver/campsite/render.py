"""Text and SVG pictures of a Campsite table, readable without colour (letters on every square).

Text: one 3-character cell per square. A coloured square shows its two terrain letters (D F M P W T), an empty card
square shows '..'; a third character '*' marks a Fair Weather card. A tent shows '^' + token letter (X for
Wilderness) + the owner's seat. Table surface is blank.
SVG: the same letters on every square, Fair Weather squares hatched, tents as triangles with their letter, and
(in solution pictures) the laid card outlined with a thick dashed line.
"""

from __future__ import annotations

from collections.abc import Sequence

from campsolver.solver.campsite.rules import Card, Placement, Table, Tent, Token
from campsolver.solver.core.picture import Canvas, text_width

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


MARGIN = 20
PICTURE_MIN_WIDTH = 680
COLOURED = "#d9d9d9"
HATCH = ("<defs><pattern id='fair' width='6' height='6' patternUnits='userSpaceOnUse'>"
         "<path d='M0,6 L6,0' stroke='#888' stroke-width='1'/></pattern></defs>")
TERRAIN_NAMES = ("Desert", "Forest", "Meadow", "Mountains", "Water", "Trail")


def _square(canvas: Canvas, x: float, y: float, size: float, coloured: bool, fair: bool, letters: str,
            letter_size: float) -> None:
    canvas.shape(f'<rect x="{x:g}" y="{y:g}" width="{size:g}" height="{size:g}" '
                 f'fill="{COLOURED if coloured else "#ffffff"}" stroke="#000"/>')
    if fair:
        canvas.shape(f'<rect x="{x:g}" y="{y:g}" width="{size:g}" height="{size:g}" fill="url(#fair)"/>')
    if letters:
        canvas.text(x + 4, y + letter_size + 2, letters, letter_size, cls="terrain")


def _tent(canvas: Canvas, x: float, y: float, size: float, label: str, bold: bool) -> None:
    canvas.shape(f'<polygon points="{x + size / 2:g},{y + 5:g} {x + 5:g},{y + size - 3:g} {x + size - 5:g},'
                 f'{y + size - 3:g}" fill="#ffffff" stroke="#000" stroke-width="{3 if bold else 1}"/>')
    canvas.text(x + size / 2, y + size - 6, label, 12, anchor="middle", bold=bold, cls="tent")


def _table(canvas: Canvas, table: Table, left: float, top: float, highlight: Placement | None,
           new_tent: Tent | None) -> float:
    """The table with row and column numbers (as in r2c3); returns the y below it."""
    min_r, min_c, max_r, max_c = _extent(table)
    canvas.shape('<g class="table">')
    for c in range(min_c, max_c + 1):
        canvas.text(left + (c - min_c + 0.5) * CELL, top - 6, f"c{c}", 12, anchor="middle", fill="#555",
                    cls="coordinate")
    for r in range(min_r, max_r + 1):
        canvas.text(left - 6, top + (r - min_r + 0.5) * CELL + 4, f"r{r}", 12, anchor="end", fill="#555",
                    cls="coordinate")
    tents = table.tent_cells
    for (r, c), square in sorted(table.grid.items()):
        x, y = left + (c - min_c) * CELL, top + (r - min_r) * CELL
        letters = _letters(square.mask) if square.coloured and (r, c) not in tents else ""
        _square(canvas, x, y, CELL, square.coloured, square.fair_weather, letters, 12)
    for tent in table.tents:
        x, y = left + (tent.col - min_c) * CELL, top + (tent.row - min_r) * CELL
        _tent(canvas, x, y, CELL, f"{tent.token.letter}{tent.player}", new_tent is not None and tent == new_tent)
    if highlight is not None:
        cells = highlight.squares()
        rows = [r for r, _ in cells]
        cols = [c for _, c in cells]
        canvas.shape(
            f'<rect class="laid" x="{left + (min(cols) - min_c) * CELL}" y="{top + (min(rows) - min_r) * CELL}" '
            f'width="{(max(cols) - min(cols) + 1) * CELL}" height="{(max(rows) - min(rows) + 1) * CELL}" '
            'fill="none" stroke="#000" stroke-width="4" stroke-dasharray="8,4"/>'
        )
    canvas.shape("</g>")
    return top + (max_r - min_r + 1) * CELL


def _hand(canvas: Canvas, hand: Sequence[Card], tokens: Sequence[Token], y: float) -> float:
    """The hand's cards (landscape, as `Card.text` writes them) and the tokens; returns the y below."""
    size = 28
    canvas.shape('<g class="hand">')
    box = canvas.text(MARGIN, y, "Hand:", 13, bold=True)
    x = box.x + box.width + 12
    top = y - 14
    for number, card in enumerate(hand, start=1):
        pair = "".join(t.letter for t in card.terrains)
        for (r, c), coloured in sorted(card.squares(0).items()):
            _square(canvas, x + c * size, top + r * size, size, coloured, card.fair_weather,
                    pair if coloured else "", 11)
        caption = f"card {number}: {card.text()}"
        canvas.text(x, top + 2 * size + 16, caption, 12, cls="card")
        x += max(3 * size, text_width(caption, 12)) + 18
    y = top + 2 * size + 40
    names = ", ".join(f"{t.letter} {t.name.title()}" for t in tokens)
    y = canvas.paragraph(MARGIN, y, f"Tokens seat 0 may pitch: {names}", 13, canvas.width - 2 * MARGIN)
    canvas.shape("</g>")
    return y


def _legend(canvas: Canvas, y: float, solution: bool) -> float:
    canvas.shape('<g class="legend">')
    canvas.text(MARGIN, y, "Legend", 13, bold=True)
    y += 22
    terrains = ", ".join(f"{letter} {name}" for letter, name in zip("DFMPWT", TERRAIN_NAMES, strict=True))
    y = canvas.paragraph(MARGIN, y, f"Letters on a square: its two terrains ({terrains}).", 12,
                         canvas.width - 2 * MARGIN) + 8
    rows: list[tuple[str, str]] = [("coloured", "grey square: coloured, features both its terrains"),
                                   ("empty", "white square: an empty card square (tents go here)"),
                                   ("fair", "hatched: a Fair Weather card's square (its tents score x2)"),
                                   ("tent", "tent W0: seat 0's tent with token W (X = Wilderness); seat 0 is you")]
    if solution:
        rows += [("new", "thick tent: the tent the best play pitches"),
                 ("laid", "dashed outline: the card the best play lays")]
    for kind, meaning in rows:
        x = MARGIN
        if kind in ("coloured", "empty", "fair"):
            _square(canvas, x, y - 15, 20, kind != "empty", kind == "fair", "", 9)
        elif kind in ("tent", "new"):
            canvas.shape(f'<polygon points="{x + 11},{y - 16} {x + 2},{y + 4} {x + 20},{y + 4}" fill="#ffffff" '
                         f'stroke="#000" stroke-width="{3 if kind == "new" else 1}"/>')
        else:
            canvas.shape(f'<rect x="{x}" y="{y - 16}" width="22" height="20" fill="none" stroke="#000" '
                         'stroke-width="3" stroke-dasharray="6,3"/>')
        y = canvas.paragraph(x + 32, y, meaning, 12, canvas.width - 2 * MARGIN - 32) + 10
    canvas.shape("</g>")
    return y


def puzzle_svg(table: Table, hand: Sequence[Card], tokens: Sequence[Token], *, title: str, question: str,
               answer: str = "", highlight: Placement | None = None, new_tent: Tent | None = None) -> str:
    """A Campsite puzzle (or, with `answer`, its solution): title, question, the table with coordinates, the
    hand and tokens, and a legend for every mark."""
    if not table.grid:
        raise ValueError("an empty table has no picture")
    _, min_c, _, max_c = _extent(table)
    left = MARGIN + 30
    width = max(PICTURE_MIN_WIDTH, left + (max_c - min_c + 1) * CELL + MARGIN)
    canvas = Canvas(width)
    canvas.shape(HATCH)
    text_width_ = width - 2 * MARGIN
    y = canvas.paragraph(MARGIN, MARGIN + 14, title, 16, text_width_, bold=True, cls="title")
    y = canvas.paragraph(MARGIN, y + 2, f"Question: {question}", 13, text_width_, cls="question")
    if answer:
        y = canvas.paragraph(MARGIN, y + 2, answer, 13, text_width_, bold=True, cls="answer", fill="#b3261e")
    y = _table(canvas, table, left, y + 20, highlight, new_tent)
    if not answer:
        y = _hand(canvas, hand, tokens, y + 30)
    y = _legend(canvas, y + 20, solution=bool(answer))
    return canvas.document(y - 16 + MARGIN, title)


def table_svg(table: Table, highlight: Placement | None = None, new_tent: Tent | None = None) -> str:
    """The table alone (no question, hand or legend), for callers that only show a position."""
    if not table.grid:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'
    _, min_c, _, max_c = _extent(table)
    canvas = Canvas((max_c - min_c + 1) * CELL + 2 * MARGIN + 30)
    canvas.shape(HATCH)
    y = _table(canvas, table, MARGIN + 30, MARGIN + 14, highlight, new_tent)
    return canvas.document(y + MARGIN, "Campsite table")
