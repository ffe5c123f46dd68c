"""An SVG picture of an Adventure Tours game in progress (the table a web client draws).

Each player's row: their board (name, ability), money so far, then hand, members and equipment as coloured
cards (demand d, money $, value +, action). The pile shows its size only: a shuffled pile has no order to show
(puzzles, whose pile order is known, draw it with `puzzle.render_svg`).
"""

from __future__ import annotations

from html import escape

from campsolver.solver.adventure_tours.rules import State

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
