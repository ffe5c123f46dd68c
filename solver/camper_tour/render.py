"""Camper Tour positions for people: a text board and an SVG strip of the route, with the question and, apart
from them, the answer.

The route is drawn as a strip of plates 1..L (L = the furthest plate laid), ROW_PLATES to a row, plate 1
being the starting plate (home). Special plates carry their letter (C Unexpected Comforts, M Mechanical
Problem, F Village Festival, P No Parking); campers are letters A, B, C, D (A is camper 0) on their plate;
place markers are shown as "A^" under their plate. Tokens, phases and markers are listed under the strip.
"""

from __future__ import annotations

from campsolver.solver.camper_tour.rules import (
    MAX_ANNOUNCEMENT,
    STARTING_PLATE,
    Action,
    Announce,
    Camper,
    NoParkingReturn,
    Phase,
    PlateKind,
    TokenRule,
    TourState,
)
from campsolver.solver.core.picture import Canvas

ROW_PLATES = 20
LETTER = {
    PlateKind.NORMAL: ".",
    PlateKind.UNEXPECTED_COMFORTS: "C",
    PlateKind.MECHANICAL_PROBLEM: "M",
    PlateKind.VILLAGE_FESTIVAL: "F",
    PlateKind.NO_PARKING: "P",
}
#: Each special plate's one name (the rulebook's title without a leading "The"), on every surface: the legend
#: here, the proto enum comments, the CLI's text output, docs/rules/ (tests/test_card_names.py).
NAME = {
    PlateKind.UNEXPECTED_COMFORTS: "Unexpected Comforts",
    PlateKind.MECHANICAL_PROBLEM: "Mechanical Problem",
    PlateKind.VILLAGE_FESTIVAL: "Village Festival",
    PlateKind.NO_PARKING: "No Parking",
}
COLOUR = {
    PlateKind.NORMAL: "#f4f1e8",
    PlateKind.UNEXPECTED_COMFORTS: "#b9e3c6",
    PlateKind.MECHANICAL_PROBLEM: "#f2b8b5",
    PlateKind.VILLAGE_FESTIVAL: "#f9dd8a",
    PlateKind.NO_PARKING: "#b8cdf2",
}
CAMPER_COLOUR = ("#d1495b", "#2e86ab", "#3b8b3b", "#8e5bb5")
CELL = 34


def _tokens(count: int) -> str:
    """'1 token', '3 tokens'."""
    return f"{count} token{'' if count == 1 else 's'}"


def camper_letter(index: int) -> str:
    return "ABCD"[index]


def _describe(index: int, camper: Camper, to_move: int) -> str:
    who = f"{camper_letter(index)}{' (to move)' if index == to_move else ''}"
    if camper.phase == Phase.OUTWARD:
        where = "at the start, off the route" if camper.position == 0 else f"outward on plate {camper.position}"
        return f"{who}: {where}, {_tokens(camper.tokens)}"
    if camper.phase == Phase.RETURN:
        pending = ", Unexpected Comforts choice pending" if camper.pending.value == "comforts_choice" else ""
        return (
            f"{who}: heading home on plate {camper.position}, place marker on plate {camper.marker}, "
            f"{_tokens(camper.tokens)}{pending}"
        )
    if camper.phase == Phase.FINISHED:
        return f"{who}: home, final score {camper.score}"
    return f"{who}: eliminated"


def question(state: TourState) -> str:
    """The one-sentence question of a "which announcement?" puzzle."""
    camper = state.mover
    letter = camper_letter(state.to_move)
    largest = min(MAX_ANNOUNCEMENT, camper.position - STARTING_PLATE)
    return (
        f"Camper {letter} is on plate {camper.position} heading home with {_tokens(camper.tokens)} and the place "
        f"marker on plate {camper.marker}: which number (1-{largest}) should {letter} announce to make the "
        f"best expected final score?"
    )


def rules_words(state: TourState) -> list[str]:
    """The rules variants the position is played under, in words (docs/rules/camper-tour.md): the last-camper
    rule, the No Parking reading and the token limit."""
    config = state.config
    campers = len(state.campers)
    if campers == 1:
        last = (
            "One camper (solo): the last-camper rule does not apply, so a roll not above the announcement never "
            "eliminates; it only passes the turn."
        )
    else:
        last = (
            f"{campers} campers: the last-camper rule applies: once only one camper is still travelling, a roll "
            "not above its announcement eliminates it."
        )
    if config.no_parking_return is NoParkingReturn.TOWARD_START:
        parking = (
            "No Parking moves a camper back toward the starting plate (the default reading): on the way home "
            "a free advance, reaching plate 1 exactly is arriving; a result past plate 1 means staying and "
            "losing 3 tokens; an occupied result is rolled again."
        )
    else:
        parking = (
            "No Parking moves a camper back the way it came (variant away from home), never past the furthest "
            "plate laid (there: staying and losing 3 tokens); an occupied result is rolled again."
        )
    if config.token_rule is TokenRule.SUPPLY:
        tokens = (
            f"Tokens gained come from the box's {config.token_supply} tokens that nobody holds (the default reading)."
        )
    else:
        tokens = f"Nobody holds more than {config.starting_tokens} tokens (variant per-camper cap)."
    return [f"Rules: {last}", parking, tokens]


def text_board(state: TourState) -> str:
    """The route as rows of plates with the campers and markers under them, then each camper's details."""
    length = len(state.laid)
    specials = ", ".join(f"{LETTER[kind]} {name}" for kind, name in NAME.items())
    lines = [
        "Route: plate 1 is the starting plate (home, H), never special. A-D campers, A^ a place marker.",
        f"Plates: . normal, {specials}.",
    ]
    for start in range(1, length + 1, ROW_PLATES):
        plates = range(start, min(length, start + ROW_PLATES - 1) + 1)
        lines.append("plate " + "".join(f"{p:>4}" for p in plates))
        lines.append("kind  " + "".join(f"{LETTER[state.plate_kind(p)] if p > 1 else 'H':>4}" for p in plates))
        here = []
        marks = []
        for p in plates:
            on = [camper_letter(i) for i, c in enumerate(state.campers) if c.active and c.position == p]
            here.append(f"{''.join(on):>4}")
            marked = [
                camper_letter(i) + "^" for i, c in enumerate(state.campers) if c.phase == Phase.RETURN and c.marker == p
            ]
            marks.append(f"{''.join(marked):>4}")
        lines.append("camper" + "".join(here))
        lines.append("marker" + "".join(marks))
    lines.append("")
    lines.extend(_describe(i, c, state.to_move) for i, c in enumerate(state.campers))
    return "\n".join(lines)


#: Plates per row of the picture, the side of a plate, and the band under a row for place markers.
PICTURE_ROW_PLATES = 15
PLATE = 44
MARKER_BAND = 30
MARGIN = 20
PICTURE_WIDTH = 2 * MARGIN + PICTURE_ROW_PLATES * PLATE


def _plate_origin(plate: int, top: float) -> tuple[float, float]:
    row, column = divmod(plate - 1, PICTURE_ROW_PLATES)
    return MARGIN + column * PLATE, top + row * (PLATE + MARKER_BAND)


def _legend(canvas: Canvas, y: float, state: TourState) -> float:
    """Every mark of the strip explained; returns the baseline below the legend."""
    canvas.shape('<g class="legend">')
    canvas.text(MARGIN, y, "Legend", 13, bold=True)
    y += 24
    entries: list[tuple[str, str, str]] = [
        (COLOUR[PlateKind.NORMAL], "H", "plate 1: home, where the tour starts and ends"),
        (COLOUR[PlateKind.NORMAL], "", "normal plate (small number: plate number)"),
    ]
    entries += [(COLOUR[kind], LETTER[kind], NAME[kind]) for kind in NAME]
    column = (PICTURE_WIDTH - 2 * MARGIN) / 2
    for index, (fill, letter, meaning) in enumerate(entries):
        x = MARGIN + (index % 2) * column
        canvas.shape(f'<rect x="{x}" y="{y - 15}" width="20" height="20" fill="{fill}" stroke="#555"/>')
        if letter:
            canvas.text(x + 10, y, letter, 11, anchor="middle", bold=True)
        canvas.text(x + 28, y, meaning, 12)
        if index % 2 == 1 or index == len(entries) - 1:
            y += 24
    for i in range(len(state.campers)):
        colour = CAMPER_COLOUR[i]
        letter = camper_letter(i)
        canvas.shape(f'<circle cx="{MARGIN + 10}" cy="{y - 5}" r="10" fill="{colour}"/>')
        canvas.text(MARGIN + 10, y - 1, letter, 12, anchor="middle", bold=True, fill="#ffffff")
        canvas.shape(
            f'<polygon points="{MARGIN + column},{y + 4} {MARGIN + column + 8},{y - 10} '
            f'{MARGIN + column + 16},{y + 4}" fill="{colour}"/>'
        )
        canvas.text(MARGIN + 28, y, f"camper {letter} on its plate", 12)
        canvas.text(MARGIN + column + 20, y, f"{letter}: camper {letter}'s place marker (under its plate)", 12)
        y += 24
    canvas.shape("</g>")
    return y


def _strip(canvas: Canvas, state: TourState, top: float) -> float:
    """Plates, specials, campers and markers from `top`; returns the y below the last marker band."""
    length = len(state.laid)
    canvas.shape('<g class="route">')
    for plate in range(1, length + 1):
        x, y = _plate_origin(plate, top)
        kind = state.plate_kind(plate)
        canvas.shape(
            f'<rect class="plate" x="{x}" y="{y}" width="{PLATE - 2}" height="{PLATE - 2}" '
            f'fill="{COLOUR[kind]}" '
            'stroke="#555"/>'
        )
        canvas.text(x + 3, y + 11, str(plate), 10, fill="#444", cls="plate")
        label = "H" if plate == STARTING_PLATE else ("" if kind == PlateKind.NORMAL else LETTER[kind])
        if label:
            canvas.text(x + PLATE - 5, y + 12, label, 11, anchor="end", bold=True, cls="kind")
    for plate in range(STARTING_PLATE, length + 1):
        here = [i for i, c in enumerate(state.campers) if c.active and c.position == plate]
        x, y = _plate_origin(plate, top)
        for k, i in enumerate(here):
            cx = x + (PLATE - 2) / 2 + (k - (len(here) - 1) / 2) * 20
            canvas.shape(f'<circle cx="{cx:g}" cy="{y + 28}" r="10" fill="{CAMPER_COLOUR[i]}"/>')
            canvas.text(cx, y + 32, camper_letter(i), 12, anchor="middle", bold=True, fill="#ffffff", cls="camper")
        marked = [i for i, c in enumerate(state.campers) if c.phase == Phase.RETURN and c.marker == plate]
        for k, i in enumerate(marked):
            mx = x + 2 + k * 21
            base = y + PLATE + 14
            canvas.shape(
                f'<polygon points="{mx},{base} {mx + 8},{base - 12} {mx + 16},{base}" fill="{CAMPER_COLOUR[i]}"/>'
            )
            canvas.text(mx + 8, base + 13, camper_letter(i), 10, anchor="middle", bold=True, cls="marker")
    canvas.shape("</g>")
    rows = (length - 1) // PICTURE_ROW_PLATES + 1
    return top + rows * (PLATE + MARKER_BAND)


def svg_strip(
    state: TourState,
    *,
    answer: Action | None = None,
    title: str = "Camper Tour position",
    question_text: str = "",
    answer_text: str = "",
) -> str:
    """The route strip (plates, specials, campers, markers) with the title, the question and a legend; with
    `answer`, the plate the announcement aims at outlined in red and `answer_text` above the strip."""
    width = PICTURE_WIDTH
    text_width = width - 2 * MARGIN
    canvas = Canvas(width)
    y = canvas.paragraph(MARGIN, MARGIN + 14, title, 16, text_width, bold=True, cls="title")
    if question_text:
        y = canvas.paragraph(MARGIN, y + 2, f"Question: {question_text}", 13, text_width, cls="question")
    if answer is not None and answer_text:
        y = canvas.paragraph(MARGIN, y + 2, answer_text, 13, text_width, bold=True, cls="answer", fill="#b3261e")
    top = y + 4
    if isinstance(answer, Announce):
        mover = state.mover
        target = mover.position - answer.plates if mover.phase == Phase.RETURN else mover.position + answer.plates
        x, y0 = _plate_origin(target, top)
        canvas.shape(
            f'<rect class="answer" x="{x - 2}" y="{y0 - 2}" width="{PLATE + 2}" height="{PLATE + 2}" '
            'fill="none" stroke="#d1495b" stroke-width="3"/>'
        )
    y = _strip(canvas, state, top) + 14
    for i, camper in enumerate(state.campers):
        y = canvas.paragraph(
            MARGIN, y, _describe(i, camper, state.to_move), 12, text_width, cls="camper-line", fill=CAMPER_COLOUR[i]
        )
    y = canvas.paragraph(MARGIN, y + 6, " ".join(rules_words(state)), 12, text_width, cls="rules")
    y = _legend(canvas, y + 10, state)
    return canvas.document(y - 24 + MARGIN, title)


def puzzle_svg(state: TourState, *, seed: int, grade: str) -> str:
    """The puzzle picture: title, question, route and legend (no answer)."""
    return svg_strip(state, title=f"Camper Tour puzzle {seed} ({grade})", question_text=question(state))


def solution_svg(state: TourState, answer: Action, *, seed: int, value: str = "") -> str:
    """The solution picture: the question, the answer in words with its expected value (`value`, e.g. "expected
    final score 30.424, exact"), and its target plate outlined on the route."""
    text = f"Answer: {answer_label(answer)}" + (f": {value}." if value else ".")
    if isinstance(answer, Announce) and state.mover.phase == Phase.RETURN:
        text += (
            f" Outlined in red: plate {state.mover.position - answer.plates}, where camper "
            f"{camper_letter(state.to_move)} lands when the roll is above {answer.plates}."
        )
    return svg_strip(
        state,
        answer=answer,
        title=f"Solution to Camper Tour puzzle {seed}",
        question_text=question(state),
        answer_text=text,
    )


def answer_label(action: Action) -> str:
    """An announcement as the solution names it ("announce 3")."""
    return f"announce {action.plates}" if isinstance(action, Announce) else str(action)


# --- the web table's seat view ---------------------------------------------------------------------------------

#: The seat view's plates: per row, their side, the band under a row for place markers (every text >= 12 units,
#: so the page shows it at 12 CSS px or more when the picture is not shrunk).
SEAT_ROW_PLATES = 15
SEAT_PLATE = 46
SEAT_BAND = 30
SEAT_MARGIN = 16
SEAT_WIDTH = 2 * SEAT_MARGIN + SEAT_ROW_PLATES * SEAT_PLATE
#: Plates not laid yet that the seat view draws ahead of the furthest camper (an announcement reaches 10).
SEAT_AHEAD = MAX_ANNOUNCEMENT
INK_DARK = "#212121"


def _seat_plate_origin(plate: int) -> tuple[float, float]:
    row, column = divmod(plate - 1, SEAT_ROW_PLATES)
    return SEAT_MARGIN + column * SEAT_PLATE, SEAT_MARGIN + row * (SEAT_PLATE + SEAT_BAND)


def seat_svg(state: TourState, viewer: int) -> str:
    """The route as camper `viewer` sees it at the web table (everything in Camper Tour is public): the plates
    laid (number, special letter, home), the plates an announcement could still reach drawn dashed (not laid
    yet), the campers and place markers. Over every plate lies a transparent hit mark (`class="hit"`,
    `data-key="plate:N"`, `data-cell="plate:N"`) a client can take clicks on."""
    laid = len(state.laid)
    reach = max([c.position for c in state.campers if c.active] + [0]) + SEAT_AHEAD
    shown = max(laid, min(state.config.plate_count, reach), 1)
    rows = (shown - 1) // SEAT_ROW_PLATES + 1
    height = 2 * SEAT_MARGIN + rows * (SEAT_PLATE + SEAT_BAND) - 6
    canvas = Canvas(SEAT_WIDTH)
    inner = SEAT_PLATE - 2
    for plate in range(1, shown + 1):
        x, y = _seat_plate_origin(plate)
        if plate > laid:
            canvas.shape(
                f'<rect x="{x}" y="{y}" width="{inner}" height="{inner}" fill="#ffffff" stroke="#999" '
                'stroke-dasharray="4 3"/>'
            )
            canvas.text(x + 3, y + 14, str(plate), 12, fill="#888", cls="plate")
            continue
        kind = state.plate_kind(plate)
        canvas.shape(f'<rect x="{x}" y="{y}" width="{inner}" height="{inner}" fill="{COLOUR[kind]}" stroke="#555"/>')
        canvas.text(x + 3, y + 14, str(plate), 12, fill="#333", cls="plate")
        label = "H" if plate == STARTING_PLATE else ("" if kind == PlateKind.NORMAL else LETTER[kind])
        if label:
            canvas.text(x + inner - 3, y + 14, label, 12, anchor="end", bold=True, cls="kind")
    for plate in range(STARTING_PLATE, shown + 1):
        x, y = _seat_plate_origin(plate)
        here = [i for i, c in enumerate(state.campers) if c.active and c.position == plate]
        for k, i in enumerate(here):
            cx = x + inner / 2 + (k - (len(here) - 1) / 2) * 20
            ring = ' stroke="#111" stroke-width="2.5"' if i == viewer else ""
            canvas.shape(f'<circle cx="{cx:g}" cy="{y + 30}" r="11" fill="{CAMPER_COLOUR[i]}"{ring}/>')
            canvas.text(cx, y + 34.5, camper_letter(i), 12, anchor="middle", bold=True, fill="#ffffff", cls="camper")
        marked = [i for i, c in enumerate(state.campers) if c.phase == Phase.RETURN and c.marker == plate]
        for k, i in enumerate(marked):
            mx = x + 2 + k * 21
            base = y + SEAT_PLATE + 12
            canvas.shape(
                f'<polygon points="{mx},{base} {mx + 8},{base - 12} {mx + 16},{base}" fill="{CAMPER_COLOUR[i]}"/>'
            )
            canvas.text(mx + 8, base + 14, camper_letter(i), 12, anchor="middle", bold=True, cls="marker")
    canvas.shape('<g class="hits">')
    for plate in range(1, shown + 1):
        x, y = _seat_plate_origin(plate)
        canvas.shape(
            f'<rect class="hit" x="{x}" y="{y}" width="{inner}" height="{inner}" fill="transparent" '
            f'data-key="plate:{plate}" data-cell="plate:{plate}"><title>plate {plate}</title></rect>'
        )
    canvas.shape("</g>")
    return canvas.document(height, "Camper Tour route")


def _swatch(
    fill: str, letter: str = "", *, dashed: bool = False, shape: str = "rect", letter_fill: str = INK_DARK
) -> str:
    """A 24 x 24 legend mark (a plate, a camper or a marker), as a standalone SVG."""
    if shape == "circle":
        mark = f'<circle cx="12" cy="12" r="11" fill="{fill}"/>'
    elif shape == "triangle":
        mark = f'<polygon points="3,21 12,5 21,21" fill="{fill}"/>'
    else:
        dash = ' stroke-dasharray="4 3" stroke="#999"' if dashed else ' stroke="#555"'
        mark = f'<rect x="1" y="1" width="22" height="22" fill="{fill}"{dash}/>'
    text = (
        (
            f'<text x="12" y="16.5" font-size="12" font-weight="bold" text-anchor="middle" fill="{letter_fill}">'
            f"{letter}</text>"
        )
        if letter
        else ""
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" '
        f'font-family="DejaVu Sans, Verdana, sans-serif">{mark}{text}</svg>'
    )


def seat_legend(state: TourState) -> list[tuple[str, str]]:
    """Every mark of `seat_svg`, as (a small SVG of the mark, what it means)."""
    entries = [
        (_swatch(COLOUR[PlateKind.NORMAL], "H"), "plate 1, home: where the tour starts and ends"),
        (_swatch(COLOUR[PlateKind.NORMAL]), "a normal plate (its number at the top left)"),
        (_swatch("#ffffff", dashed=True), "not laid yet: laid from the stack when a camper drives onto it"),
    ]
    effects = {
        PlateKind.UNEXPECTED_COMFORTS: "next turn, stay and recover 3 tokens, discard 3, or neither",
        PlateKind.MECHANICAL_PROBLEM: "outward: roll a die, lose that many tokens and the next turn",
        PlateKind.VILLAGE_FESTIVAL: "roll a die: 4-6 gains that many tokens, 1-3 loses the next turn",
        PlateKind.NO_PARKING: "roll a die and move back that many plates (no room: lose 3 tokens)",
    }
    entries += [(_swatch(COLOUR[kind], LETTER[kind]), f"{NAME[kind]}: {effects[kind]}") for kind in NAME]
    for i in range(len(state.campers)):
        letter = camper_letter(i)
        entries.append(
            (_swatch(CAMPER_COLOUR[i], letter, shape="circle", letter_fill="#ffffff"), f"camper {letter} on its plate")
        )
        entries.append(
            (
                _swatch(CAMPER_COLOUR[i], shape="triangle"),
                f"camper {letter}'s place marker, under its plate (set when {letter} turned back)",
            )
        )
    return entries
