"""`--format text`: a response as a person reads it (boards as text, ranked alternatives as a table).

Generic over every game's response messages, so a new game gets readable output without code here:
repeated strings of equal width print as a board, `alternatives` (anything with a `ranking`) as a table,
a `PuzzleEnvelope` as its statement text, `stats` as one summary line, other fields as `name: value`.

A game whose responses carry no picture of the position (Camper Tour answers with moves, the route is in the
request; Play answers the next state as data) adds one above that through `TEXT_FORMATTERS`: the position after
the move where the answer holds it, else the request's, reusing its solver's own text rendering (the same text
its puzzles print), so a board is drawn in one place only.
"""

from __future__ import annotations

from collections.abc import Callable

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

_PUZZLE_ENVELOPE = "campsolver.v1.PuzzleEnvelope"
_SOLVE_STATS = "campsolver.v1.SolveStats"
_TURN_INFO = "campsolver.v1.TurnInfo"


def _label(name: str) -> str:
    return name.replace("_", " ")


def _scalar(field: FieldDescriptor, value: object) -> str:
    if field.type == FieldDescriptor.TYPE_ENUM:
        from campsolver.service.card_names import display_name

        card = display_name(field.enum_type.full_name, int(value))  # type: ignore[call-overload]
        if card is not None:  # a card's one name, as the puzzle text and pictures print it
            return card
        name = field.enum_type.values_by_number.get(int(value))  # type: ignore[call-overload]
        if name is None:
            return str(value)
        prefix = _enum_prefix(field)
        return name.name.removeprefix(prefix).lower().replace("_", " ")
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _enum_prefix(field: FieldDescriptor) -> str:
    names = [v.name for v in field.enum_type.values]
    prefix = names[0]
    for name in names[1:]:
        while not name.startswith(prefix):
            prefix = prefix[:-1]
    return prefix


def _is_board(field: FieldDescriptor, values: list) -> bool:
    return (
        field.type == FieldDescriptor.TYPE_STRING
        and len(values) >= 2
        and len({len(v) for v in values}) == 1
        and all("\n" not in v for v in values)
    )


#: Integer fields where a negative number means "nobody" (no winner yet or a tie for first; nobody to move).
NONE_WHEN_NEGATIVE = frozenset({"winner", "to_move"})


#: Number fields (a proto3 number without presence cannot tell 0 from unset: the text decides when a 0 is said).
_NUMBER_TYPES = frozenset(
    {
        FieldDescriptor.TYPE_DOUBLE,
        FieldDescriptor.TYPE_FLOAT,
        FieldDescriptor.TYPE_INT64,
        FieldDescriptor.TYPE_UINT64,
        FieldDescriptor.TYPE_INT32,
        FieldDescriptor.TYPE_FIXED64,
        FieldDescriptor.TYPE_FIXED32,
        FieldDescriptor.TYPE_UINT32,
        FieldDescriptor.TYPE_SFIXED32,
        FieldDescriptor.TYPE_SFIXED64,
        FieldDescriptor.TYPE_SINT32,
        FieldDescriptor.TYPE_SINT64,
    }
)
#: Number fields whose 0 is always a value worth saying (a challenge that scored no points, player 0 owning a
#: site, no tokens left), matched by the end of the field's name.
ZERO_IS_A_VALUE = (
    "points",
    "score",
    "scores",
    "total",
    "owner",
    "player",
    "value",
    "tokens",
    "money",
    "income",
    "left",
    "loss",
    "margin",
    "count",
    "winner",
    "to_move",
)


def _is_number(field: FieldDescriptor) -> bool:
    """A singular number field that always has a value (no presence)."""
    return field.type in _NUMBER_TYPES and not field.is_repeated and not field.has_presence


def _says_zero(field: FieldDescriptor) -> bool:
    """Whether a 0 in this number field is printed: a quantity or a seat, by its name."""
    return _is_number(field) and field.name.endswith(ZERO_IS_A_VALUE)


def _varying_numbers(items: list[Message]) -> frozenset[str]:
    """Number fields of a list's messages that are not 0 in some item: a column whose 0s mean something (map 0 of
    two, rotation 0 of four) and are said in every item."""
    if not items:
        return frozenset()
    return frozenset(
        f.name for f in items[0].DESCRIPTOR.fields if _is_number(f) and any(getattr(item, f.name) for item in items)
    )


def _is_cell(message: Message) -> bool:
    names = set(message.DESCRIPTOR.fields_by_name)
    return {"row", "col"} <= names


def inline(message: Message, zeros: frozenset[str] = frozenset()) -> str:
    """A message on one line as a person reads it: a move by its label when it has one, squares as `rRcC`
    (zeros included: r0c0 is a square), nested messages inline, default scalars left out but for the numbers
    whose 0 is a value (`ZERO_IS_A_VALUE`, and the fields named in `zeros`: those that vary along its list)."""
    fields = message.DESCRIPTOR.fields_by_name
    if "label" in fields and getattr(message, "label", ""):
        return str(message.label)  # type: ignore[attr-defined]
    parts: list[str] = []
    pair = [f for f in message.DESCRIPTOR.fields if f.message_type is not None and not f.is_repeated]
    if len(pair) == len(fields) == 2 and all(_is_cell(getattr(message, f.name)) for f in pair):
        a, b = (inline(getattr(message, f.name)) for f in pair)  # a step from one square to another, or an edge
        return f"{a}->{b}" if pair[0].name in ("from", "from_") else f"{a}|{b}"
    if _is_cell(message) and not {"row", "col"} & {f.name for f in fields.values() if f.is_repeated}:
        parts.append(f"r{message.row}c{message.col}")  # type: ignore[attr-defined]
    for field in message.DESCRIPTOR.fields:
        if field.name in ("row", "col") and parts[:1] and _is_cell(message):
            continue
        value = getattr(message, field.name)
        name = _label(field.name)
        if field.is_repeated:
            items = list(value)
            if not items:
                continue
            if field.message_type is not None:
                varying = _varying_numbers(items)
                shown = " ".join(inline(item, varying) for item in items)
            else:
                shown = ", ".join(_scalar(field, item) for item in items)
            parts.append(f"{name} {shown}")
        elif field.message_type is not None:
            if message.HasField(field.name):
                parts.append(f"{name} {inline(value)}" if not _is_cell(value) or len(fields) > 2 else inline(value))
        elif (
            value
            or (field.has_presence and message.HasField(field.name))
            or _says_zero(field)
            or (field.name in zeros and _is_number(field))
        ):
            parts.append(f"{name} {_scalar(field, value)}")
    return ", ".join(parts) if parts else "(empty)"


def _stats_line(stats: Message, elapsed_s: float | None = None) -> str:
    """The solve in one line. `elapsed_s`: the call's time as its caller measured it, which is what "solved in"
    says when given (a fallback answer's own stats count only the fallback's milliseconds)."""
    seconds = stats.wall_time_seconds if elapsed_s is None else elapsed_s  # type: ignore[attr-defined]
    parts = [f"{seconds:.2f} s"]
    for name in ("method", "samples", "nodes", "depth"):
        if name in stats.DESCRIPTOR.fields_by_name and getattr(stats, name):
            parts.append(f"{_label(name)} {getattr(stats, name)}")
    if "bound" in stats.DESCRIPTOR.fields_by_name and stats.HasField("bound"):  # type: ignore[attr-defined]
        parts.append(f"bound {stats.bound:g}")  # type: ignore[attr-defined]
    if getattr(stats, "interrupted", False):
        parts.append("stopped by its time budget")
    return "solved in " + ", ".join(parts)


def _alternatives_table(items: list[Message]) -> list[str]:
    rows = [("rank", "value", "loss", "+-se", "move")]
    notes = []
    for item in items:
        ranking = item.ranking  # type: ignore[attr-defined]
        value = f"{ranking.value:.4f}" if ranking.HasField("value") else "-"
        loss = f"{ranking.loss:.4f}" if ranking.HasField("loss") else "-"
        if ranking.HasField("standard_error"):
            se = f"{ranking.standard_error:.4f}" if ranking.standard_error else ""
        else:
            se = f"n={ranking.samples}" if ranking.sampled else ""
        rows.append((str(ranking.rank), value, loss, se, ranking.label))
        if ranking.note:
            notes.append(f"  #{ranking.rank}: {ranking.note}")
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = ["  ".join(cell.rjust(w) for cell, w in zip(row[:4], widths, strict=True)) + "  " + row[4] for row in rows]
    return lines + (["notes:", *notes] if notes else [])


def _table_play_text(message: Message) -> str:
    """A NewGame/Play answer: whose turn and what to decide, scores, listed chance outcomes (the state itself is
    data for the next call: --format json)."""
    turn = message.turn  # type: ignore[attr-defined]
    lines = [f"turn: {turn.description}"] if message.HasField("turn") else []
    if turn.HasField("to_move"):
        lines.append(f"to move: player {turn.to_move}")
    if turn.chance_next:
        lines.append("next: a chance step (play with no move, and a seed or list_outcomes)")
    if turn.game_over:
        lines.append("game over")
    if turn.scores:
        lines.append(f"scores: {', '.join(str(s) for s in turn.scores)}")
    if turn.winners:
        lines.append(f"winners: {', '.join(f'player {w}' for w in turn.winners)}")
    outcomes = list(getattr(message, "outcomes", []))
    if outcomes:
        lines.append("chance outcomes:")
        lines.extend(f"  - {o.label}: {o.probability.numerator}/{o.probability.denominator}" for o in outcomes)
    lines.append("(the state for the next call, and its picture with wantPicture: --format json)")
    return "\n".join(lines)


_GAME_REVIEW = "campsolver.v1.GameReview"
#: Longest move label a review table shows (the rest is in --format json).
REVIEW_LABEL_WIDTH = 34


def _short(text: str, width: int = REVIEW_LABEL_WIDTH) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def _review_number(message: Message, name: str) -> str:
    return f"{getattr(message, name):.3f}" if message.HasField(name) else "-"


def review_text(review: Message) -> str:
    """A `GameReview` as a person reads it: a table of the decisions (the move made and its value, the best and its
    value, the loss and the mark), then each player's summary; chance steps and notes are in --format json."""
    thresholds = review.thresholds  # type: ignore[attr-defined]
    lines = [
        f"review in {review.unit}: inaccuracy from a loss of {thresholds.inaccuracy:g}, mistake from "  # type: ignore[attr-defined]
        f"{thresholds.mistake:g}, blunder from {thresholds.blunder:g}",
    ]
    rows = [("#", "player", "played", "value", "best", "value", "loss", "mark")]
    chances = 0
    for index, step in enumerate(review.steps):  # type: ignore[attr-defined]
        if step.WhichOneof("kind") != "decision":
            chances += 1
            continue
        decision = step.decision
        mark = decision.mark if decision.mark else 0
        shown = _scalar(decision.DESCRIPTOR.fields_by_name["mark"], mark) if mark else ""
        if decision.status != 1:  # not REVIEWED: the status says why there is no loss
            shown = _scalar(decision.DESCRIPTOR.fields_by_name["status"], decision.status)
        loss = _review_number(decision, "loss")
        if decision.HasField("loss_standard_error") and decision.loss_standard_error > 0:
            loss += f" +-{decision.loss_standard_error:.3f}"
        rows.append(
            (
                str(index),
                str(decision.player),
                _short(decision.played),
                _review_number(decision, "played_value"),
                _short(decision.best),
                _review_number(decision, "best_value"),
                loss,
                shown,
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines += ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows]
    if chances:
        lines.append(f"({chances} chance steps between them, with their probabilities: --format json)")
    lines.append("players:")
    for summary in review.players:  # type: ignore[attr-defined]
        spread = (
            f" +-{summary.total_loss_standard_error:.3f}"
            if summary.HasField("total_loss_standard_error") and summary.total_loss_standard_error
            else ""
        )
        accuracy = f"accuracy {summary.accuracy:.0f}%" if summary.HasField("accuracy") else "accuracy -"
        costly = ", ".join(f"#{index}" for index in summary.costliest) or "none"
        others = [f"{summary.forced} forced"] if summary.forced else []
        if summary.not_reviewed:
            others.append(f"{summary.not_reviewed} not reviewed")
        if summary.values_missing:
            others.append(f"{summary.values_missing} without a value")
        extra = f" ({', '.join(others)})" if others else ""
        lines.append(
            f"  player {summary.player}: total loss {summary.total_loss:.3f}{spread} over {summary.reviewed} reviewed "
            f"decisions{extra}; {accuracy}; {_count(summary.inaccuracies, 'inaccuracy', 'inaccuracies')}, "
            f"{_count(summary.mistakes, 'mistake')}, {_count(summary.blunders, 'blunder')}; costliest: {costly}"
        )
    if not review.complete:  # type: ignore[attr-defined]
        lines.append("not complete: the deadline came first (allow more time: --timeout)")
    return "\n".join(lines)


def to_text(message: Message, indent: str = "", elapsed_s: float | None = None) -> str:
    """The message as aligned, labelled text (ends without a newline); `elapsed_s` as in `_stats_line`."""
    fields_by_name = message.DESCRIPTOR.fields_by_name
    if (
        not indent
        and "review" in fields_by_name
        and fields_by_name["review"].message_type is not None
        and fields_by_name["review"].message_type.full_name == _GAME_REVIEW
    ):
        body = review_text(message.review)  # type: ignore[attr-defined]
        stats = message.stats if "stats" in fields_by_name else None  # type: ignore[attr-defined]
        return body + (f"\n{_stats_line(stats)}" if stats is not None and message.HasField("stats") else "")
    if not indent and "turn" in fields_by_name and fields_by_name["turn"].message_type.full_name == _TURN_INFO:
        return _table_play_text(message)
    lines: list[str] = []
    stats_line = ""
    listed = {field.name for field, _ in message.ListFields()}
    # The fields set, and the numbers whose 0 is a value (a total of 0 is a total), in the message's own order.
    fields = [
        (field, getattr(message, field.name))
        for field in message.DESCRIPTOR.fields
        if field.name in listed or (_says_zero(field) and not field.containing_oneof)
    ]
    # A puzzle answer prints its statement and, apart, its solution once: the position and the solution as data
    # (the same things again) are for --format json.
    puzzle = any(f.message_type is not None and f.message_type.full_name == _PUZZLE_ENVELOPE for f, _ in fields)
    for field, value in fields:
        name = _label(field.name)
        if (
            puzzle
            and field.message_type is not None
            and field.message_type.full_name not in (_PUZZLE_ENVELOPE, _SOLVE_STATS)
        ):
            continue
        if field.message_type is not None and field.message_type.full_name == _SOLVE_STATS:
            stats_line = _stats_line(value, elapsed_s)
        elif field.message_type is not None and field.message_type.full_name == _PUZZLE_ENVELOPE:
            envelope = value
            lines.append(f"{indent}{name}:")
            lines.extend(f"{indent}  {line}" for line in envelope.text.rstrip().splitlines())
            if envelope.solution_text:
                lines.append(f"{indent}  solution:")
                lines.extend(f"{indent}    {line}" for line in envelope.solution_text.rstrip().splitlines())
            if envelope.evidence:  # with the solution: a greedy score beside the statement gives the answer away
                lines.append(f"{indent}  grade evidence:")
                lines.extend(f"{indent}    {e.name} = {e.value:g}: {e.description}" for e in envelope.evidence)
            if envelope.svg:
                lines.append(f"{indent}  (pictures: puzzle.svg and puzzle.solutionSvg in --format json)")
            lines.append(f"{indent}  (the position and the solution as data: --format json)")
        elif field.is_repeated:
            items = list(value)
            if field.message_type is not None and items and "ranking" in field.message_type.fields_by_name:
                lines.append(f"{indent}{name}:")
                lines.extend(f"{indent}  {line}" for line in _alternatives_table(items))
            elif _is_board(field, items):
                lines.append(f"{indent}{name}:")
                lines.extend(f"{indent}  {row}" for row in items)
            elif field.message_type is not None:
                varying = _varying_numbers(items)
                lines.append(f"{indent}{name}:")
                lines.extend(f"{indent}  - {inline(item, varying)}" for item in items)
            else:
                lines.append(f"{indent}{name}: {', '.join(_scalar(field, v) for v in items)}")
        elif field.message_type is not None:
            lines.append(f"{indent}{name}:")
            lines.append(to_text(value, indent + "  "))
        elif field.name in NONE_WHEN_NEGATIVE and value < 0:
            lines.append(f"{indent}{name}: none")
        else:
            lines.append(f"{indent}{name}: {_scalar(field, value)}")
    if stats_line:
        lines.append(f"{indent}{stats_line}")
    return "\n".join(line for line in lines if line.strip())


def _has_state(message: Message) -> bool:
    return "state" in message.DESCRIPTOR.fields_by_name and message.HasField("state")  # type: ignore[attr-defined]


def _camper_tour_route(request: Message, response: Message) -> str | None:
    """The route strip (plates with specials marked, campers, markers, tokens) of the position the answer is
    about: the one after the move where the answer holds the game's next state (Play, NewGame), else the
    request's (a hint, a score: the position asked about; Play's listed outcomes: the position they follow)."""
    from campsolver.service.errors import RequestError
    from campsolver.service.games.camper_tour import state_from_proto
    from campsolver.solver.camper_tour.render import text_board

    after = _has_state(response)
    if not after and not _has_state(request):
        return None
    try:
        state = state_from_proto(response.state if after else request.state)  # type: ignore[attr-defined]
    except RequestError:  # the server judged the request; a position this side cannot read is just not drawn
        return None
    board = text_board(state)
    if not after and "outcomes" in response.DESCRIPTOR.fields_by_name and list(response.outcomes):  # type: ignore[attr-defined]
        return "Before the move (the outcomes below each follow it):\n" + board
    return board


#: Game (CLI name) -> the position of a call as text (from its request and response), printed above the response
#: (None: nothing to draw).
TEXT_FORMATTERS: dict[str, Callable[[Message, Message], str | None]] = {
    "camper-tour": _camper_tour_route,
}


def render(game_name: str, request: Message, response: Message, elapsed_s: float | None = None) -> str:
    """`--format text` of one call: the game's picture of the position (if any), then the response.
    `elapsed_s`: the call's time as the caller measured it (the CLI's), said as the time it was solved in."""
    formatter = TEXT_FORMATTERS.get(game_name)
    board = formatter(request, response) if formatter is not None else None
    body = to_text(response, elapsed_s=elapsed_s)
    return f"{board}\n\n{body}" if board else body


def _count(n: int, one: str, many: str = "") -> str:
    """`1 blunder`, `2 blunders`."""
    return f"{n} {one if n == 1 else many or one + 's'}"
