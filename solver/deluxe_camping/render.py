"""The Deluxe Camping board as the web table draws it for a seat (puzzle pictures live in `puzzle.render_svg`).

Deluxe Camping is played in the open (the mystery tokens are face down for everybody until the reveal), so
every seat sees the same board: row and column numbers, pieces as lettered discs in their player's colour
(bungalow: upper-case letter on a square, trailer: lower-case on a disc), the pool, the mystery tokens, the
ice-cream stands and the pain-in-the-neck each with its own mark, barriers as thick lines (those placed since
the last look in orange), sites allotted to a player tinted in that player's colour. Transparent hit marks lie
over every square (`data-key="sq:N"`), every piece (`from:N sq:N`) and every edge (`edge:A-B`), so a client can
take clicks on them; `data-cell` carries the same identity for highlighting.
"""

from __future__ import annotations

from campsolver.solver.core.picture import Canvas
from campsolver.solver.deluxe_camping.rules import DCState, Edge, Stage

LETTERS = "ABCD"
PLAYER_COLOURS = ("#c0392b", "#2471a3", "#229954", "#b7950b")
SITE_TINTS = ("#f6dcd9", "#d9e6f2", "#d8efdf", "#f3ecc9")
POOL_COLOUR = "#4aa3df"
ICE_COLOUR = "#f7a8c8"
NUISANCE_COLOUR = "#37474f"
MYSTERY_COLOUR = "#bdbdbd"
BARRIER_COLOUR = "#263238"
NEW_BARRIER_COLOUR = "#e67e22"
BOARD_COLOUR = "#f4f1e6"
CELL = 46
AXIS = 30
#: Half the thickness of an edge's hit mark.
EDGE_HIT = 7


def _xy(state: DCState, square: int) -> tuple[float, float]:
    r, c = state.config.cell(square)
    return AXIS + c * CELL, AXIS + r * CELL


def piece_marks(state: DCState) -> dict[int, tuple[str, str, str, str]]:
    """Square -> (shape, fill, text, text colour) of every piece on the board."""
    marks: dict[int, tuple[str, str, str, str]] = {}
    if state.pool >= 0:
        marks[state.pool] = ("pool", POOL_COLOUR, "P", "#ffffff")
    for square in state.mystery:
        marks[square] = ("disc", MYSTERY_COLOUR, "?", "#212121")
    for square in state.ice_creams:
        marks[square] = ("ice", ICE_COLOUR, "Ic", "#212121")
    if state.nuisance >= 0:
        marks[state.nuisance] = ("disc", NUISANCE_COLOUR, "N", "#ffffff")
    for player, square in enumerate(state.bungalows):
        if square >= 0:
            marks[square] = ("square", PLAYER_COLOURS[player], LETTERS[player], "#ffffff")
    for player, squares in enumerate(state.trailers):
        for square in squares:
            marks[square] = ("disc", PLAYER_COLOURS[player], LETTERS[player].lower(), "#ffffff")
    return marks


def _edge_line(state: DCState, edge: Edge) -> tuple[float, float, float, float]:
    (ra, ca), (rb, cb) = state.config.cell(edge[0]), state.config.cell(edge[1])
    if ra == rb:
        x = AXIS + max(ca, cb) * CELL
        return x, AXIS + ra * CELL, x, AXIS + (ra + 1) * CELL
    y = AXIS + max(ra, rb) * CELL
    return AXIS + ca * CELL, y, AXIS + (ca + 1) * CELL, y


def seat_svg(state: DCState, viewer: int, *, previous: DCState | None = None) -> str:
    """The board for seat `viewer` (the same for every seat: nothing is hidden from one player only)."""
    config = state.config
    width = AXIS + config.cols * CELL + 10
    height = AXIS + config.rows * CELL + 10
    canvas = Canvas(width)
    board_w, board_h = config.cols * CELL, config.rows * CELL
    canvas.shape(f'<rect x="{AXIS}" y="{AXIS}" width="{board_w}" height="{board_h}" fill="{BOARD_COLOUR}"/>')
    if state.stage not in (Stage.POOL, Stage.MYSTERY, Stage.BUNGALOW, Stage.TRAILER):
        for site in state.sites:
            owner = site.allotted_to
            if owner is None:
                continue
            for square in site.squares:
                x, y = _xy(state, square)
                canvas.shape(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{SITE_TINTS[owner]}"/>')
    for c in range(1, config.cols):
        canvas.shape(
            f'<line x1="{AXIS + c * CELL}" y1="{AXIS}" x2="{AXIS + c * CELL}" y2="{AXIS + board_h}" stroke="#c9c3b0"/>'
        )
    for r in range(1, config.rows):
        canvas.shape(
            f'<line x1="{AXIS}" y1="{AXIS + r * CELL}" x2="{AXIS + board_w}" y2="{AXIS + r * CELL}" stroke="#c9c3b0"/>'
        )
    for c in range(config.cols):
        canvas.text(AXIS + (c + 0.5) * CELL, AXIS - 9, f"c{c}", 12, anchor="middle", fill="#555", cls="coordinate")
    for r in range(config.rows):
        canvas.text(AXIS - 4, AXIS + (r + 0.5) * CELL + 4.5, f"r{r}", 12, anchor="end", fill="#555", cls="coordinate")
    for square, (shape, fill, text, ink) in sorted(piece_marks(state).items()):
        x, y = _xy(state, square)
        cx, cy = x + CELL / 2, y + CELL / 2
        ring = (
            ' stroke="#111" stroke-width="2.5"'
            if shape in ("square", "disc") and fill == PLAYER_COLOURS[viewer % len(PLAYER_COLOURS)]
            else ""
        )
        if shape == "square":
            canvas.shape(
                f'<rect x="{x + 6}" y="{y + 6}" width="{CELL - 12}" height="{CELL - 12}" rx="3" fill="{fill}"{ring}/>'
            )
        elif shape == "pool":
            canvas.shape(
                f'<rect x="{x + 4}" y="{y + 8}" width="{CELL - 8}" height="{CELL - 16}" rx="9" fill="{fill}"/>'
            )
        elif shape == "ice":
            canvas.shape(
                f'<polygon points="{cx - 10},{cy - 2} {cx + 10},{cy - 2} {cx},{cy + 17}" fill="#d7a86e"/>'
                f'<circle cx="{cx}" cy="{cy - 6}" r="12" fill="{fill}"/>'
            )
        else:
            canvas.shape(f'<circle cx="{cx}" cy="{cy}" r="{CELL / 2 - 6}" fill="{fill}"{ring}/>')
        canvas.text(cx, cy + (0 if shape == "ice" else 5), text, 14, anchor="middle", bold=True, fill=ink, cls="piece")
    canvas.shape(
        f'<rect x="{AXIS}" y="{AXIS}" width="{board_w}" height="{board_h}" fill="none" '
        f'stroke="{BARRIER_COLOUR}" stroke-width="4"/>'
    )
    new = state.barriers - previous.barriers if previous is not None else frozenset()
    for edge in sorted(state.barriers):
        x1, y1, x2, y2 = _edge_line(state, edge)
        colour = NEW_BARRIER_COLOUR if edge in new else BARRIER_COLOUR
        canvas.shape(
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" stroke-width="5" stroke-linecap="round"/>'
        )
    canvas.shape('<g class="hits">')
    occupied = piece_marks(state)
    for square in range(config.squares):
        x, y = _xy(state, square)
        r, c = config.cell(square)
        keys = f"from:{square} sq:{square}" if square in occupied else f"sq:{square}"
        canvas.shape(
            f'<rect class="hit" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="transparent" '
            f'data-key="{keys}" data-cell="sq:{square}"><title>r{r}c{c}</title></rect>'
        )
    for a in range(config.squares):
        for b in (a + 1, a + config.cols):
            if b >= config.squares or (b == a + 1 and b % config.cols == 0):
                continue
            x1, y1, x2, y2 = _edge_line(state, (a, b))
            if x1 == x2:
                box = (x1 - EDGE_HIT, y1 + 4, 2 * EDGE_HIT, y2 - y1 - 8)
            else:
                box = (x1 + 4, y1 - EDGE_HIT, x2 - x1 - 8, 2 * EDGE_HIT)
            (ra, ca), (rb, cb) = config.cell(a), config.cell(b)
            canvas.shape(
                f'<rect class="hit edge" x="{box[0]}" y="{box[1]}" width="{box[2]}" height="{box[3]}" '
                f'fill="transparent" data-key="edge:{a}-{b}" data-cell="edge:{a}-{b}">'
                f"<title>between r{ra}c{ca} and r{rb}c{cb}</title></rect>"
            )
    canvas.shape("</g>")
    return canvas.document(height, "Deluxe Camping board")


def swatch(shape: str, fill: str, text: str = "", ink: str = "#ffffff") -> str:
    """A 28 x 28 legend mark drawn as on the board."""
    if shape == "square":
        mark = f'<rect x="3" y="3" width="22" height="22" rx="3" fill="{fill}"/>'
    elif shape == "pool":
        mark = f'<rect x="1" y="5" width="26" height="18" rx="8" fill="{fill}"/>'
    elif shape == "ice":
        mark = f'<polygon points="7,13 21,13 14,27" fill="#d7a86e"/><circle cx="14" cy="10" r="9" fill="{fill}"/>'
    elif shape == "line":
        mark = f'<line x1="2" y1="14" x2="26" y2="14" stroke="{fill}" stroke-width="5" stroke-linecap="round"/>'
    elif shape == "tint":
        mark = f'<rect x="1" y="1" width="26" height="26" fill="{fill}" stroke="#c9c3b0"/>'
    else:
        mark = f'<circle cx="14" cy="14" r="12" fill="{fill}"/>'
    label = (
        (
            f'<text x="14" y="{13 if shape == "ice" else 18.5}" font-size="12" font-weight="bold" '
            f'text-anchor="middle" fill="{ink}">{text}</text>'
        )
        if text
        else ""
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="28" height="28" viewBox="0 0 28 28" '
        f'font-family="DejaVu Sans, Verdana, sans-serif">{mark}{label}</svg>'
    )


def seat_legend(state: DCState) -> list[tuple[str, str]]:
    """Every mark of `seat_svg`, as (a small SVG of the mark, what it means)."""
    entries = []
    for player in range(state.config.players):
        letter = LETTERS[player]
        entries.append((swatch("square", PLAYER_COLOURS[player], letter), f"{letter}'s bungalow"))
        entries.append((swatch("disc", PLAYER_COLOURS[player], letter.lower()), f"{letter}'s trailer"))
    entries += [
        (swatch("pool", POOL_COLOUR, "P"), "the swimming pool: its site scores x2"),
        (
            swatch("disc", MYSTERY_COLOUR, "?", "#212121"),
            "a mystery token, face down: two ice-cream stands and the pain-in-the-neck, revealed after the setup",
        ),
        (swatch("ice", ICE_COLOUR, "Ic", "#212121"), "an ice-cream stand: its site +5"),
        (
            swatch("disc", NUISANCE_COLOUR, "N"),
            "the pain-in-the-neck: its site -10 (not below 0); any player may move it as part of a turn",
        ),
        (swatch("line", BARRIER_COLOUR), "a barrier (the board's edge is a wall too)"),
        (swatch("line", NEW_BARRIER_COLOUR), "a barrier placed since your last look"),
    ]
    entries += [
        (
            swatch("tint", SITE_TINTS[p]),
            f"a site allotted to {LETTERS[p]}: it holds only {LETTERS[p]}'s pieces and scores for them",
        )
        for p in range(state.config.players)
    ]
    return entries
