"""An SVG picture of an Adventure Tours game in progress (the table a web client draws).

Each player's row: their board (name, ability), money so far, then hand, members and equipment as coloured
cards (demand d, money $, value +, action). The pile shows its size only: a shuffled pile has no order to show
(puzzles, whose pile order is known, draw it with `puzzle.render_svg`).
"""

from __future__ import annotations

from html import escape

from campsolver.solver.adventure_tours.deck import Act
from campsolver.solver.adventure_tours.information import Observation
from campsolver.solver.adventure_tours.rules import State
from campsolver.solver.core.picture import SEAT_LETTERS, Canvas, wrap

_FILL = {0: "#e57373", 1: "#64b5f6", 2: "#fff176"}
CARD_W, CARD_H, GAP = 52, 64, 6
WIDTH = 900


def _text(x: float, y: float, content: str, size: int = 12) -> str:
    return f'<text x="{x:g}" y="{y:g}" font-size="{size}" font-family="sans-serif">{escape(content)}</text>'


def _card(state: State, card: int, x: float, y: float) -> str:
    cfg = state.config
    return (
        f'<rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="{_FILL[cfg.colour[card]]}" '
        'stroke="#000"/>'
        + _text(x + 4, y + 16, f"d{cfg.demand[card]}")
        + _text(x + 4, y + 32, f"${cfg.money[card]}")
        + _text(x + 4, y + 48, f"+{cfg.value[card]}")
        + _text(x + 4, y + 60, cfg.action[card].value[:10], 8)
    )


def state_svg(state: State) -> str:
    """The whole table: every player's board, money, hand, members and equipment; pile size, discards, round."""
    cfg = state.config
    player = state.current_player()
    parts: list[str] = []
    y = 10.0
    for q in range(cfg.players):
        board = cfg.boards[state.seat_boards[q]]
        ability = f", {board.ability.value}" if cfg.expert else ""
        mark = " (to move)" if q == player else ""
        parts.append(_text(10, y + 14, f"Player {q}{mark}: {board.name}{ability}; money {state.totals[q]}", 14))
        y += 20
        for label, cards in (("hand", state.hands[q]), ("members", state.members[q]), ("equip", state.equipment[q])):
            parts.append(_text(10, y + 36, label))
            parts.extend(_card(state, c, 80 + i * (CARD_W + GAP), y) for i, c in enumerate(cards))
            y += CARD_H + GAP
        y += 6
    status = "game over" if state.over else f"round {state.round_index + 1} of {cfg.rounds}"
    parts.append(_text(10, y + 14, f"{status}; pile: {len(state.deck)} cards; discarded: {len(state.discard)}", 14))
    height = y + 28
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:g}" '
        f'viewBox="0 0 {WIDTH} {height:g}">' + "".join(parts) + "</svg>"
    )


# --- the web table's seat view ---------------------------------------------------------------------------------

COLOUR_NAMES = ("red", "blue", "yellow")
EQUIPMENT_NAMES = ("technology", "provisions", "clothing")
CARD_FILL = ("#f6c1c1", "#bcd9f5", "#fff0a6")
CARD_EDGE = ("#b23b3b", "#2f6fb0", "#b59a00")
#: Cards on the table (members, equipment) and in the seat's own hand.
MINI_W, MINI_H = 64, 54
HAND_W, HAND_H = 104, 96
SEAT_WIDTH = 790
ROW_LABEL = 92


def _mini_card(canvas: Canvas, config, card: int, x: float, y: float) -> None:  # type: ignore[no-untyped-def]
    colour = config.colour[card]
    canvas.shape(
        f'<rect x="{x}" y="{y}" width="{MINI_W}" height="{MINI_H}" rx="5" fill="{CARD_FILL[colour]}" '
        f'stroke="{CARD_EDGE[colour]}" stroke-width="1.5"/>'
    )
    canvas.text(x + 5, y + 16, f"#{card}", 12, bold=True, cls="card-id")
    canvas.text(
        x + 5,
        y + 32,
        f"{COLOUR_NAMES[colour][0].upper()}{config.demand[card]} ${config.money[card]}",
        12,
        cls="card-facts",
    )
    value = f"+{config.value[card]}"
    if config.action[card] is Act.PATER_MILLER:
        value += " PM"
    canvas.text(x + 5, y + 48, value, 12, cls="card-facts")


def _hand_card(canvas: Canvas, config, card: int, x: float, y: float) -> None:  # type: ignore[no-untyped-def]
    colour = config.colour[card]
    canvas.shape(
        f'<rect x="{x}" y="{y}" width="{HAND_W}" height="{HAND_H}" rx="6" fill="{CARD_FILL[colour]}" '
        f'stroke="{CARD_EDGE[colour]}" stroke-width="2"/>'
    )
    canvas.text(x + 6, y + 17, f"#{card}", 13, bold=True, cls="card-id")
    canvas.text(
        x + HAND_W - 6,
        y + 17,
        f"{COLOUR_NAMES[colour][0].upper()}{config.demand[card]}",
        13,
        anchor="end",
        bold=True,
        cls="card-demand",
    )
    canvas.text(x + 6, y + 34, f"${config.money[card]} a member", 12, cls="card-facts")
    canvas.text(x + 6, y + 50, f"+{config.value[card]} {COLOUR_NAMES[colour]}", 12, cls="card-facts")
    action = config.action[card]
    words = "no action" if action is Act.NONE else action.value
    for k, line in enumerate(wrap(words, 12, HAND_W - 10)[:2]):
        canvas.text(x + 6, y + 68 + 15 * k, line, 12, fill="#333", cls="card-action")


def equipment_levels(obs: Observation, player: int) -> tuple[int, int, int]:
    """Technology (red), provisions (blue), clothing (yellow): the board's start plus the equipment's values."""
    config = obs.config
    start = config.boards[obs.seat_boards[player]].start
    return tuple(
        start[colour] + sum(config.value[c] for c in obs.equipment[player] if config.colour[c] == colour)
        for colour in range(3)
    )  # type: ignore[return-value]


def seat_table_svg(obs: Observation, *, over: bool = False) -> str:
    """The public table as seat `obs.player` sees it: every seat's board, money, equipment totals, members and
    equipment (each card with its number, as hints name it), and the size of every hand; never another seat's
    cards in hand (the observation does not hold them). A transparent hit mark over each seat's header
    (`data-key="seat:Q"`) takes a click naming that player (a target or a recipient)."""
    config = obs.config
    canvas = Canvas(SEAT_WIDTH)
    y = 8.0
    per_row = (SEAT_WIDTH - ROW_LABEL - 10) // (MINI_W + 6)
    for q in range(config.players):
        board = config.boards[obs.seat_boards[q]]
        top = y
        you = " (you)" if q == obs.player else ""
        move = "" if over or q != obs.to_move else " - to move"
        income = sum(config.money[c] for c in obs.members[q])
        ability = f" ({board.ability.value})" if config.expert else ""
        canvas.text(10, y + 16, f"{SEAT_LETTERS[q]}{you}{move}: {board.name} board{ability}", 14, bold=True, cls="seat")
        tech, food, clothes = equipment_levels(obs, q)
        canvas.text(
            10,
            y + 34,
            f"money {obs.totals[q]} · income this round {income} · hand "
            f"{obs.hand_sizes[q]} · equipment: red {tech}, blue {food}, yellow {clothes}",
            12,
            cls="seat-facts",
        )
        y += 42
        for label, cards in (("members", obs.members[q]), ("equipment", obs.equipment[q])):
            canvas.text(10, y + 20, label, 12, fill="#555", cls="row-label")
            if not cards:
                canvas.text(ROW_LABEL, y + 20, "none", 12, fill="#777", cls="row-empty")
                y += 28
                continue
            for index, card in enumerate(cards):
                row, column = divmod(index, per_row)
                _mini_card(canvas, config, card, ROW_LABEL + column * (MINI_W + 6), y + row * (MINI_H + 6))
            y += ((len(cards) - 1) // per_row + 1) * (MINI_H + 6)
        canvas.shape(
            f'<rect class="hit" x="4" y="{top}" width="{SEAT_WIDTH - 8}" height="40" fill="transparent" '
            f'data-key="seat:{q}" data-cell="seat:{q}"><title>{SEAT_LETTERS[q]}</title></rect>'
        )
        canvas.shape(f'<line x1="4" y1="{y + 4}" x2="{SEAT_WIDTH - 4}" y2="{y + 4}" stroke="#d5ddd8"/>')
        y += 10
    status = "game over" if over else f"round {obs.round_index + 1} of {config.rounds}"
    canvas.text(10, y + 14, f"{status}; pile: {obs.deck_size} cards; discarded: {len(obs.discard)}", 12, cls="pile")
    return canvas.document(y + 24, "Adventure Tours table")


def seat_hand_svg(obs: Observation) -> str:
    """Seat `obs.player`'s own hand, face up, each card with its number, demand, money, value and action in
    words; a hit mark on each (`data-key="card:N place:N"`)."""
    config = obs.config
    per_row = (SEAT_WIDTH - 20) // (HAND_W + 8)
    hand = obs.hand
    rows = max(1, (len(hand) - 1) // per_row + 1)
    canvas = Canvas(max(300, min(SEAT_WIDTH, 12 + len(hand) * (HAND_W + 8))))
    if not hand:
        canvas.text(10, 24, "no cards in hand", 13, fill="#555")
    for index, card in enumerate(hand):
        row, column = divmod(index, per_row)
        x, y = 10 + column * (HAND_W + 8), 8 + row * (HAND_H + 8)
        _hand_card(canvas, config, card, x, y)
        canvas.shape(
            f'<rect class="hit" x="{x}" y="{y}" width="{HAND_W}" height="{HAND_H}" fill="transparent" '
            f'data-key="card:{card} place:{card}" data-cell="card:{card}"><title>card #{card}</title></rect>'
        )
    return canvas.document(16 + rows * (HAND_H + 8), "your hand")


def seat_legend_entries(config) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """Every mark of the seat view, as (a small SVG of the mark, what it means)."""

    def mark(fill: str, edge: str, text: str) -> str:
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="24" viewBox="0 0 40 24" '
            f'font-family="DejaVu Sans, Verdana, sans-serif"><rect x="1" y="1" width="38" height="22" rx="4" '
            f'fill="{fill}" stroke="{edge}"/><text x="20" y="16.5" font-size="12" font-weight="bold" '
            f'text-anchor="middle">{text}</text></svg>'
        )

    entries = [
        (
            mark(CARD_FILL[c], CARD_EDGE[c], COLOUR_NAMES[c][0].upper()),
            f"a {COLOUR_NAMES[c]} card: its demand and value count in {COLOUR_NAMES[c]} ({EQUIPMENT_NAMES[c]}) "
            "equipment",
        )
        for c in range(3)
    ]
    entries += [
        (mark("#ffffff", "#555", "#17"), "the card's number: hints and the log name cards by it"),
        (mark("#ffffff", "#555", "R4"), "demand: joins as a member only with 4 or more red equipment"),
        (mark("#ffffff", "#555", "$2"), "money: a member pays 2 at the round's end"),
        (mark("#ffffff", "#555", "+2"), "value: played as equipment it adds 2 to its colour's equipment"),
        (mark("#ffffff", "#555", "PM"), "Pater Miller: protects its expedition against one attack"),
        (mark("#ffffff", "#555", "A"), "a seat's header: click it to choose that player as a target"),
    ]
    return entries
