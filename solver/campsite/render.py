"""Text and SVG pictures of a Campsite table, readable without colour (letters on every square).

Text: one 3-character cell per square. A coloured square shows its two terrain letters (D F M P W T), an empty card
square shows '..'; a third character '*' marks a Fair Weather card. A tent shows '^' + token letter (X for
Wilderness) + the owner's seat. Table surface is blank.
SVG: the same letters on every square, Fair Weather squares hatched, tents as triangles with their letter, and
(in solution pictures) the laid card outlined with a thick dashed line.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from campsolver.solver.campsite.rules import Card, Placement, Table, Tent, Token
from campsolver.solver.core.picture import SEAT_LETTERS, Canvas, text_width

LEGEND = (
    "Legend: D Desert, F Forest, M Meadow, P Mountains, W Water, T Trail; '..' empty square; "
    "'*' Fair Weather card (x2); '^Wn' tent of seat n with token W (X = Wilderness). Seat 0 is you; a tent of "
    "another seat (an opponent) scores for that seat only and blocks its square: no tent or card goes there."
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
HATCH = (
    "<defs><pattern id='fair' width='6' height='6' patternUnits='userSpaceOnUse'>"
    "<path d='M0,6 L6,0' stroke='#888' stroke-width='1'/></pattern></defs>"
)
TERRAIN_NAMES = ("Desert", "Forest", "Meadow", "Mountains", "Water", "Trail")


def _square(
    canvas: Canvas, x: float, y: float, size: float, coloured: bool, fair: bool, letters: str, letter_size: float
) -> None:
    canvas.shape(
        f'<rect x="{x:g}" y="{y:g}" width="{size:g}" height="{size:g}" '
        f'fill="{COLOURED if coloured else "#ffffff"}" stroke="#000"/>'
    )
    if fair:
        canvas.shape(f'<rect x="{x:g}" y="{y:g}" width="{size:g}" height="{size:g}" fill="url(#fair)"/>')
    if letters:  # centred, clear of the square's edges (where a laid card's outline runs)
        canvas.text(
            x + size / 2, y + size / 2 + 0.36 * letter_size, letters, letter_size, anchor="middle", cls="terrain"
        )


def _tent(canvas: Canvas, x: float, y: float, size: float, label: str, bold: bool) -> None:
    """A tent: the triangle in the square's upper half, its label below it (no outline runs through the label)."""
    base = y + size - 17
    canvas.shape(
        f'<polygon class="tent" points="{x + size / 2:g},{y + 3:g} {x + 7:g},{base:g} {x + size - 7:g},'
        f'{base:g}" fill="#ffffff" stroke="#000" stroke-width="{3 if bold else 1}"/>'
    )
    canvas.text(x + size / 2, y + size - 3.5, label, 12, anchor="middle", bold=bold, cls="tent")


def _table(
    canvas: Canvas, table: Table, left: float, top: float, highlight: Placement | None, new_tent: Tent | None
) -> float:
    """The table with row and column numbers (as in r2c3); returns the y below it."""
    min_r, min_c, max_r, max_c = _extent(table)
    canvas.shape('<g class="table">')
    for c in range(min_c, max_c + 1):
        canvas.text(
            left + (c - min_c + 0.5) * CELL, top - 6, f"c{c}", 12, anchor="middle", fill="#555", cls="coordinate"
        )
    for r in range(min_r, max_r + 1):
        canvas.text(
            left - 6, top + (r - min_r + 0.5) * CELL + 4, f"r{r}", 12, anchor="end", fill="#555", cls="coordinate"
        )
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
            _square(
                canvas, x + c * size, top + r * size, size, coloured, card.fair_weather, pair if coloured else "", 12
            )
        caption = f"card {number}: {card.text()}"
        canvas.text(x, top + 2 * size + 16, caption, 12, cls="card")
        x += max(3 * size, text_width(caption, 12)) + 18
    y = top + 2 * size + 40
    names = ", ".join(f"{t.letter} {t.name.title()}" for t in tokens)
    y = canvas.paragraph(MARGIN, y, f"Tokens seat 0 may pitch: {names}", 13, canvas.width - 2 * MARGIN)
    canvas.shape("</g>")
    return y


def _legend(canvas: Canvas, y: float, solution: bool, opponents: Sequence[int] = ()) -> float:
    canvas.shape('<g class="legend">')
    canvas.text(MARGIN, y, "Legend", 13, bold=True)
    y += 22
    terrains = ", ".join(f"{letter} {name}" for letter, name in zip("DFMPWT", TERRAIN_NAMES, strict=True))
    y = (
        canvas.paragraph(
            MARGIN,
            y,
            f"Letters on a square: its two terrains ({terrains}). Hand cards lie "
            'unturned; turns are quarter turns clockwise ("turned 270 clockwise"); a position is the '
            "turned card's top-left square.",
            12,
            canvas.width - 2 * MARGIN,
        )
        + 8
    )
    rows: list[tuple[str, str]] = [
        ("coloured", "grey square: coloured, features both its terrains"),
        ("empty", "white square: an empty card square (tents go here)"),
        ("fair", "hatched: a Fair Weather card's square (its tents score x2)"),
        ("tent", "tent W0: seat 0's tent with token W (X = Wilderness); seat 0 is you"),
    ]
    for seat in opponents:
        rows.append(
            (
                "tent",
                f"tent W{seat}: a tent of seat {seat}, an opponent: it scores for seat {seat} only "
                "and blocks its square (no tent or card goes there)",
            )
        )
    if solution:
        rows += [
            ("new", "thick tent: the tent the best play pitches"),
            ("laid", "dashed outline: the card the best play lays"),
        ]
    for kind, meaning in rows:
        x = MARGIN
        if kind in ("coloured", "empty", "fair"):
            _square(canvas, x, y - 15, 20, kind != "empty", kind == "fair", "", 9)
        elif kind in ("tent", "new"):
            canvas.shape(
                f'<polygon points="{x + 11},{y - 16} {x + 2},{y + 4} {x + 20},{y + 4}" fill="#ffffff" '
                f'stroke="#000" stroke-width="{3 if kind == "new" else 1}"/>'
            )
        else:
            canvas.shape(
                f'<rect x="{x}" y="{y - 16}" width="22" height="20" fill="none" stroke="#000" '
                'stroke-width="3" stroke-dasharray="6,3"/>'
            )
        y = canvas.paragraph(x + 32, y, meaning, 12, canvas.width - 2 * MARGIN - 32) + 10
    canvas.shape("</g>")
    return y


def puzzle_svg(
    table: Table,
    hand: Sequence[Card],
    tokens: Sequence[Token],
    *,
    title: str,
    question: str,
    answer: str = "",
    highlight: Placement | None = None,
    new_tent: Tent | None = None,
) -> str:
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
    opponents = sorted({tent.player for tent in table.tents} - {0})
    y = _legend(canvas, y + 20, solution=bool(answer), opponents=opponents)
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


# --- the web table's seat view ---------------------------------------------------------------------------------

#: Terrain colours of the seat view (each coloured square is split between its two terrains, letters on top).
TERRAIN_COLOURS = {"D": "#e9c46a", "F": "#2d6a4f", "M": "#95d5b2", "P": "#9e9e9e", "W": "#4895ef", "T": "#b08968"}
SEAT_COLOURS = ("#d1495b", "#2e86ab", "#3b8b3b", "#8e5bb5", "#e07a1f", "#455a64")
EMPTY_SQUARE = "#fffdf5"
#: Cells of table surface drawn around the cards (a card laid beside the table reaches 3 squares out).
SEAT_SURROUND = 3
SEAT_AXIS = 30
SEAT_MAX_WIDTH = 800
TOKEN_NAMES = {
    "D": "Desert",
    "F": "Forest",
    "M": "Meadow",
    "P": "Mountains",
    "W": "Water",
    "T": "Trail",
    "X": "Wilderness",
}


def _seat_square(
    parts: list[str], x: float, y: float, size: float, mask: int, coloured: bool, fair: bool, font: float = 12
) -> None:
    """One visible square: split between its two terrain colours (coloured) or pale (empty); a sun dot on a
    Fair Weather card's squares."""
    if coloured:
        letters = _letters(mask)
        first, second = TERRAIN_COLOURS[letters[0]], TERRAIN_COLOURS[letters[-1]]
        parts.append(
            f'<polygon points="{x},{y} {x + size},{y} {x},{y + size}" fill="{first}"/>'
            f'<polygon points="{x + size},{y} {x + size},{y + size} {x},{y + size}" fill="{second}"/>'
        )
        parts.append(
            f'<text x="{x + size / 2:g}" y="{y + size / 2 + font * 0.37:g}" font-size="{font:g}" '
            'font-weight="bold" '
            f'text-anchor="middle" fill="#111" stroke="#ffffff" stroke-width="3" paint-order="stroke">'
            f"{letters}</text>"
        )
    else:
        parts.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{EMPTY_SQUARE}"/>')
    parts.append(
        f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="none" stroke="#8d8d8d" stroke-width="0.8"/>'
    )
    if fair:
        parts.append(f'<circle cx="{x + size - 6:g}" cy="{y + 6:g}" r="4" fill="#ffb703" stroke="#9a6700"/>')


def _seat_tent(
    parts: list[str], x: float, y: float, size: float, seat: int, letter: str, bold: bool, font: float = 12
) -> None:
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    width = 3 if bold else 1
    parts.append(
        f'<polygon points="{x + size / 2:g},{y + 3:g} {x + 3:g},{y + size - 3:g} {x + size - 3:g},'
        f'{y + size - 3:g}" fill="{colour}" stroke="#111" stroke-width="{width}"/>'
    )
    parts.append(
        f'<text x="{x + size / 2:g}" y="{y + size - 6:g}" font-size="{font:g}" font-weight="bold" '
        f'text-anchor="middle" fill="#ffffff">{letter}</text>'
    )


def seat_table_svg(
    table: Table, *, laid: Placement | None = None, new_tent: Tent | None = None, surround: int = SEAT_SURROUND
) -> str:
    """The play area as every seat sees it (the table is public): rows and columns numbered as the moves name
    them, each square in its two terrains' colours with their letters, tents in their seat's colour with their
    token's letter, the card laid last outlined; `surround` squares of table surface around the cards. Over
    every square lies a transparent hit mark (`class="hit"`, `data-key="at:R,C sq:R,C"`: a card's top-left
    corner or a tent's square; `data-cell="c:R,C"`) for a client's clicks."""
    cells = list(table.grid) or [(0, 0)]
    min_r = min(r for r, _ in cells) - surround
    max_r = max(r for r, _ in cells) + surround
    min_c = min(c for _, c in cells) - surround
    max_c = max(c for _, c in cells) + surround
    columns = max_c - min_c + 1
    size = max(26, min(36, (SEAT_MAX_WIDTH - SEAT_AXIS - 10) // columns))
    width = SEAT_AXIS + columns * size + 10
    height = SEAT_AXIS + (max_r - min_r + 1) * size + 10
    # A table wider than the page's picture area is shrunk to fit it: its letters grow to stay readable.
    font = min(16, max(12, math.ceil(11.5 * width / SEAT_MAX_WIDTH)))
    step = 1 if size >= 2.6 * font else 2  # column numbers on every column, or every other one
    parts: list[str] = []
    canvas = Canvas(width)

    def xy(r: int, c: int) -> tuple[float, float]:
        return SEAT_AXIS + (c - min_c) * size, SEAT_AXIS + (r - min_r) * size

    canvas.shape(
        f'<rect x="{SEAT_AXIS}" y="{SEAT_AXIS}" width="{columns * size}" '
        f'height="{(max_r - min_r + 1) * size}" fill="#eef1f3"/>'
    )
    for c in range(min_c, max_c + 1):
        if (c - min_c) % step == 0:
            canvas.text(
                SEAT_AXIS + (c - min_c + 0.5) * size,
                SEAT_AXIS - 9,
                f"c{c}",
                font,
                anchor="middle",
                fill="#555",
                cls="coordinate",
            )
    for r in range(min_r, max_r + 1):
        canvas.text(
            SEAT_AXIS - 4,
            SEAT_AXIS + (r - min_r + 0.5) * size + 4.5,
            f"r{r}",
            font,
            anchor="end",
            fill="#555",
            cls="coordinate",
        )
    for (r, c), square in sorted(table.grid.items()):
        x, y = xy(r, c)
        _seat_square(parts, x, y, size, square.mask, square.coloured, square.fair_weather, font)
    for layer, placement in enumerate(table.placements):
        covered = [cell for cell in placement.squares() if table.grid[cell].layer == layer]
        for r, c in covered:  # the card's visible outline: a thick edge where the next square is not this card
            x, y = xy(r, c)
            for (nr, nc), (x1, y1, x2, y2) in (
                ((r - 1, c), (x, y, x + size, y)),
                ((r + 1, c), (x, y + size, x + size, y + size)),
                ((r, c - 1), (x, y, x, y + size)),
                ((r, c + 1), (x + size, y, x + size, y + size)),
            ):
                other = table.grid.get((nr, nc))
                if other is None or other.layer != layer:
                    parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#37474f" stroke-width="2"/>')
    for tent in table.tents:
        x, y = xy(tent.row, tent.col)
        _seat_tent(parts, x, y, size, tent.player, tent.token.letter, tent == new_tent, font)
    if laid is not None:
        for r, c in laid.squares():
            x, y = xy(r, c)
            for (nr, nc), (x1, y1, x2, y2) in (
                ((r - 1, c), (x, y, x + size, y)),
                ((r + 1, c), (x, y + size, x + size, y + size)),
                ((r, c - 1), (x, y, x, y + size)),
                ((r, c + 1), (x + size, y, x + size, y + size)),
            ):
                if (nr, nc) not in laid.squares():
                    parts.append(
                        f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#e67e22" '
                        'stroke-width="4" stroke-dasharray="7 3"/>'
                    )
    for part in parts:
        canvas.shape(part)
    canvas.shape('<g class="hits">')
    for r in range(min_r, max_r + 1):
        for c in range(min_c, max_c + 1):
            x, y = xy(r, c)
            canvas.shape(
                f'<rect class="hit" x="{x}" y="{y}" width="{size}" height="{size}" fill="transparent" '
                f'data-key="at:{r},{c} sq:{r},{c}" data-cell="c:{r},{c}"><title>r{r}c{c}</title></rect>'
            )
    canvas.shape("</g>")
    return canvas.document(height, "Campsite table")


def seat_hand_svg(hand: Sequence[Card], tokens: Sequence[Token], seat: int) -> str:
    """The seat's own hand and unused tent tokens (nobody else's): each card landscape, as its first rotation
    lies, with a hit mark `card:I` (I: the first hand index of an equal card); each token a tent in the seat's
    colour with a hit mark `token:L` (L: the token's letter)."""
    size = 26
    card_w = 3 * size
    width = max(SEAT_AXIS, 12 + len(hand) * (card_w + 18) + 10, 12 + len(tokens) * 40 + 10, 300)
    canvas = Canvas(width)
    parts: list[str] = []
    y0 = 10
    firsts: dict[Card, int] = {}
    for index, card in enumerate(hand):
        first = firsts.setdefault(card, index)
        x0 = 12 + index * (card_w + 18)
        for (r, c), coloured in sorted(card.squares(0).items()):
            _seat_square(
                parts, x0 + c * size, y0 + r * size, size, card.mask if coloured else 0, coloured, card.fair_weather
            )
        parts.append(
            f'<rect x="{x0}" y="{y0}" width="{card_w}" height="{2 * size}" fill="none" stroke="#37474f" '
            'stroke-width="2"/>'
        )
        parts.append(
            f'<rect class="hit" x="{x0 - 4}" y="{y0 - 4}" width="{card_w + 8}" height="{2 * size + 8}" '
            f'fill="transparent" data-key="card:{first}" data-cell="card:{first}"><title>card {index + 1}: '
            f"{card.text()}</title></rect>"
        )
    for part in parts:
        canvas.shape(part)
    label_y = y0 + 2 * size + 17
    for index, card in enumerate(hand):
        x0 = 12 + index * (card_w + 18)
        canvas.text(x0, label_y, f"card {index + 1}" + (" x2" if card.fair_weather else ""), 12, cls="card")
    top = label_y + 10
    parts = []
    for index, token in enumerate(tokens):
        x = 12 + index * 40
        _seat_tent(parts, x, top, 32, seat, token.letter, False)
        parts.append(
            f'<rect class="hit" x="{x}" y="{top}" width="32" height="32" fill="transparent" '
            f'data-key="token:{token.letter}" data-cell="token:{token.letter}"><title>'
            f"{TOKEN_NAMES[token.letter]} token</title></rect>"
        )
    for part in parts:
        canvas.shape(part)
    return canvas.document(top + 42, "your hand and tokens")


def seat_legend_entries(players: int) -> list[tuple[str, str]]:
    """Every mark of `seat_table_svg` and `seat_hand_svg`, as (a small SVG of the mark, what it means)."""

    def mark(inner: str) -> str:
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="28" height="28" viewBox="0 0 28 28" '
            f'font-family="DejaVu Sans, Verdana, sans-serif">{inner}</svg>'
        )

    entries = []
    for letter, name in zip("DFMPWT", TERRAIN_NAMES, strict=True):
        entries.append(
            (
                mark(
                    f'<rect x="1" y="1" width="26" height="26" fill="{TERRAIN_COLOURS[letter]}"/>'
                    f'<text x="14" y="18.5" font-size="12" font-weight="bold" text-anchor="middle" '
                    f'fill="#111" stroke="#fff" stroke-width="3" paint-order="stroke">{letter}</text>'
                ),
                f"{letter}: {name}",
            )
        )
    square: list[str] = []
    _seat_square(square, 1, 1, 26, 0b10001, True, False)
    entries.append((mark("".join(square)), "a coloured square: it features both its terrains (here D and W)"))
    square = []
    _seat_square(square, 1, 1, 26, 0, False, False)
    entries.append((mark("".join(square)), "an empty card square: a tent may go here, or a card on top"))
    square = []
    _seat_square(square, 1, 1, 26, 0, False, True)
    entries.append((mark("".join(square)), "sun: a Fair Weather card's square; a tent next to one scores x2"))
    entries.append(
        (
            mark('<rect x="1" y="1" width="26" height="26" fill="#eef1f3"/>'),
            "table surface: a card may be laid here, touching or overlapping a card",
        )
    )
    for seat in range(players):
        tent: list[str] = []
        _seat_tent(tent, 0, 0, 28, seat, "F", False)
        entries.append(
            (
                mark("".join(tent)),
                f"{SEAT_LETTERS[seat]}'s tent with the Forest token: 1 point per square around it showing its terrain",
            )
        )
    tent = []
    _seat_tent(tent, 0, 0, 28, 0, "X", False)
    entries.append((mark("".join(tent)), "X: the Wilderness token, 1 point per different terrain around it"))
    entries.append(
        (
            mark('<line x1="2" y1="14" x2="26" y2="14" stroke="#e67e22" stroke-width="4" stroke-dasharray="7 3"/>'),
            "dashed orange: the card laid last",
        )
    )
    return entries
