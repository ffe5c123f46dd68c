"""Camper Tour positions for people: a text board and an SVG strip of the route, with the question and, apart
from them, the answer.

The route is drawn as a strip of plates 1..L (L = the furthest plate laid), ROW_PLATES to a row, plate 1
being the starting plate (home). Special plates carry their letter (C Unexpected Comforts, M Mechanical
Problem, F Village Festival, P No Parking); campers are letters A, B, C, D (A is camper 0) on their plate;
place markers are shown as "A^" under their plate. Tokens, phases and markers are listed under the strip.
"""

from __future__ import annotations

from html import escape

from campsolver.solver.camper_tour.rules import (
    MAX_ANNOUNCEMENT,
    STARTING_PLATE,
    Action,
    Announce,
    Camper,
    Phase,
    PlateKind,
    TourState,
)

ROW_PLATES = 20
LETTER = {PlateKind.NORMAL: ".", PlateKind.UNEXPECTED_COMFORTS: "C", PlateKind.MECHANICAL_PROBLEM: "M",
          PlateKind.VILLAGE_FESTIVAL: "F", PlateKind.NO_PARKING: "P"}
#: Each special plate's one name (the rulebook's title without a leading "The"), on every surface: the legend
#: here, the proto enum comments, the CLI's text output, docs/rules/ (tests/test_card_names.py).
NAME = {PlateKind.UNEXPECTED_COMFORTS: "Unexpected Comforts", PlateKind.MECHANICAL_PROBLEM: "Mechanical Problem",
        PlateKind.VILLAGE_FESTIVAL: "Village Festival", PlateKind.NO_PARKING: "No Parking"}
COLOUR = {PlateKind.NORMAL: "#f4f1e8", PlateKind.UNEXPECTED_COMFORTS: "#b9e3c6",
          PlateKind.MECHANICAL_PROBLEM: "#f2b8b5", PlateKind.VILLAGE_FESTIVAL: "#f9dd8a",
          PlateKind.NO_PARKING: "#b8cdf2"}
CAMPER_COLOUR = ("#d1495b", "#2e86ab", "#3b8b3b", "#8e5bb5")
CELL = 34


def camper_letter(index: int) -> str:
    return "ABCD"[index]


def _describe(index: int, camper: Camper, to_move: int) -> str:
    who = f"{camper_letter(index)}{' (to move)' if index == to_move else ''}"
    if camper.phase == Phase.OUTWARD:
        where = "at the start, off the route" if camper.position == 0 else f"outward on plate {camper.position}"
        return f"{who}: {where}, {camper.tokens} tokens"
    if camper.phase == Phase.RETURN:
        pending = ", Unexpected Comforts choice pending" if camper.pending.value == "comforts_choice" else ""
        return (f"{who}: heading home on plate {camper.position}, place marker on plate {camper.marker}, "
                f"{camper.tokens} tokens{pending}")
    if camper.phase == Phase.FINISHED:
        return f"{who}: home, final score {camper.score}"
    return f"{who}: eliminated"


def question(state: TourState) -> str:
    """The one-sentence question of a "which announcement?" puzzle."""
    camper = state.mover
    letter = camper_letter(state.to_move)
    largest = min(MAX_ANNOUNCEMENT, camper.position - STARTING_PLATE)
    return (f"Camper {letter} is on plate {camper.position} heading home with {camper.tokens} tokens and the place "
            f"marker on plate {camper.marker}: which number (1-{largest}) should {letter} announce to make the "
            f"best expected final score?")


def text_board(state: TourState) -> str:
    """The route as rows of plates with the campers and markers under them, then each camper's details."""
    length = len(state.laid)
    specials = ", ".join(f"{LETTER[kind]} {name}" for kind, name in NAME.items())
    lines = ["Route: plate 1 is the starting plate (home, H), never special. A-D campers, A^ a place marker.",
             f"Plates: . normal, {specials}."]
    for start in range(1, length + 1, ROW_PLATES):
        plates = range(start, min(length, start + ROW_PLATES - 1) + 1)
        lines.append("plate " + "".join(f"{p:>4}" for p in plates))
        lines.append("kind  " + "".join(f"{LETTER[state.plate_kind(p)] if p > 1 else 'H':>4}" for p in plates))
        here = []
        marks = []
        for p in plates:
            on = [camper_letter(i) for i, c in enumerate(state.campers) if c.active and c.position == p]
            here.append(f"{''.join(on):>4}")
            marked = [camper_letter(i) + "^" for i, c in enumerate(state.campers)
                      if c.phase == Phase.RETURN and c.marker == p]
            marks.append(f"{''.join(marked):>4}")
        lines.append("camper" + "".join(here))
        lines.append("marker" + "".join(marks))
    lines.append("")
    lines.extend(_describe(i, c, state.to_move) for i, c in enumerate(state.campers))
    return "\n".join(lines)


def _cell_origin(plate: int) -> tuple[int, int]:
    row, column = divmod(plate - 1, ROW_PLATES)
    return 10 + column * CELL, 30 + row * (CELL + 34)


def svg_strip(state: TourState, *, answer: Action | None = None) -> str:
    """An SVG of the route strip (plates, specials, campers, markers); with `answer`, the move drawn in."""
    length = len(state.laid)
    rows = (length - 1) // ROW_PLATES + 1
    width = 20 + ROW_PLATES * CELL
    height = 40 + rows * (CELL + 34) + 18 * (len(state.campers) + 1)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             '<text x="10" y="16" font-size="13">Camper Tour: plate 1 is home (H)</text>']
    for plate in range(1, length + 1):
        x, y = _cell_origin(plate)
        kind = state.plate_kind(plate)
        parts.append(f'<rect x="{x}" y="{y}" width="{CELL - 2}" height="{CELL - 2}" fill="{COLOUR[kind]}" '
                     'stroke="#555"/>')
        parts.append(f'<text x="{x + 2}" y="{y + 10}" font-size="8" fill="#444">{plate}</text>')
        label = "H" if plate == STARTING_PLATE else ("" if kind == PlateKind.NORMAL else LETTER[kind])
        if label:
            parts.append(f'<text x="{x + CELL - 12}" y="{y + 10}" font-size="9" font-weight="bold">{label}</text>')
    for i, camper in enumerate(state.campers):
        colour = CAMPER_COLOUR[i]
        if camper.active and camper.position >= STARTING_PLATE:
            x, y = _cell_origin(camper.position)
            parts.append(f'<circle cx="{x + CELL / 2 - 1}" cy="{y + CELL / 2 + 3}" r="9" fill="{colour}"/>')
            parts.append(f'<text x="{x + CELL / 2 - 4}" y="{y + CELL / 2 + 7}" fill="white" '
                         f'font-weight="bold">{camper_letter(i)}</text>')
        if camper.phase == Phase.RETURN and STARTING_PLATE <= camper.marker <= length:
            x, y = _cell_origin(camper.marker)
            top = y + CELL
            parts.append(f'<polygon points="{x + 8},{top + 12} {x + 16},{top + 2} {x + 24},{top + 12}" '
                         f'fill="{colour}"/>')
            parts.append(f'<text x="{x + 9}" y="{top + 24}" font-size="9">{camper_letter(i)}^</text>')
    if isinstance(answer, Announce):
        mover = state.mover
        target = mover.position - answer.plates if mover.phase == Phase.RETURN else mover.position + answer.plates
        x, y = _cell_origin(target)
        parts.append(f'<rect x="{x - 2}" y="{y - 2}" width="{CELL + 2}" height="{CELL + 2}" fill="none" '
                     'stroke="#d1495b" stroke-width="3"/>')
        parts.append(f'<text x="{x}" y="{y - 5}" font-weight="bold" fill="#d1495b">announce {answer.plates}</text>')
    base = 40 + rows * (CELL + 34)
    for i, camper in enumerate(state.campers):
        parts.append(f'<text x="10" y="{base + 18 * i}" fill="{CAMPER_COLOUR[i]}">'
                     f'{escape(_describe(i, camper, state.to_move))}</text>')
    parts.append("</svg>")
    return "\n".join(parts)
