"""An exhaustive Campsite oracle written from the rulebook alone (it shares no code with solver/campsite).

Cards are strings 'XY ###/... [x2]'. A table is a list of (card string, top row, left col, quarter turns) in the
order laid, plus tents as (player, token letter, row, col); token letters D F M P W T, X for Wilderness.
"""

from __future__ import annotations


def card_cells(card: str, row: int, col: int, turns: int) -> dict[tuple[int, int], bool]:
    """Cell -> coloured, for the card turned `turns` quarter turns clockwise with its corner at (row, col)."""
    rows = card.split()[1].split("/")
    picture = [list(r) for r in rows]
    for _ in range(turns):  # rotate the picture clockwise: new[i][j] = old[h-1-j][i]
        h = len(picture)
        w = len(picture[0])
        picture = [[picture[h - 1 - j][i] for j in range(h)] for i in range(w)]
    return {(row + i, col + j): ch == "#" for i, line in enumerate(picture) for j, ch in enumerate(line)}


def view(laid: list[tuple[str, int, int, int]]) -> dict[tuple[int, int], tuple[str, bool, bool]]:
    """Cell -> (terrain letters or '', coloured, fair weather) of the top card."""
    top: dict[tuple[int, int], tuple[str, bool, bool]] = {}
    for card, r, c, t in laid:
        letters = card.split()[0]
        fair = card.endswith("x2")
        for cell, coloured in card_cells(card, r, c, t).items():
            top[cell] = (letters if coloured else "", coloured, fair)
    return top


def may_lay(laid, tents, card: str, r: int, c: int, t: int) -> bool:
    top = view(laid)
    tent_cells = {(tr, tc) for _, _, tr, tc in tents}
    cells = card_cells(card, r, c, t)
    for cell in cells:
        if cell in top and (top[cell][1] or cell in tent_cells):
            return False
    if any(cell in top for cell in cells):
        return True
    return any((i + a, j + b) in top for i, j in cells for a, b in ((0, 1), (1, 0), (0, -1), (-1, 0)))


def points(top, token: str, row: int, col: int) -> int:
    around = [(row + a, col + b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)]
    squares = [top[cell] for cell in around if cell in top]
    if token == "X":
        base = len({letter for letters, coloured, _ in squares if coloured for letter in letters})
    else:
        base = sum(1 for letters, coloured, _ in squares if coloured and token in letters)
    return base * 2 if any(fair for _, _, fair in squares) else base


def player_total(laid, tents, player: int) -> int:
    top = view(laid)
    return sum(points(top, token, r, c) for p, token, r, c in tents if p == player)


def turns(laid, tents, hand: list[str], tokens: str, player: int = 0):
    """Every (card, row, col, turns, token, tent row, tent col, mover's total after) of one turn."""
    top = view(laid)
    rows = [r for r, _ in top]
    cols = [c for _, c in top]
    for card in sorted(set(hand)):
        for t in range(4):
            for r in range(min(rows) - 3, max(rows) + 2):
                for c in range(min(cols) - 3, max(cols) + 2):
                    if not may_lay(laid, tents, card, r, c, t):
                        continue
                    after = [*laid, (card, r, c, t)]
                    new_top = view(after)
                    taken = {(tr, tc) for _, _, tr, tc in tents}
                    for (tr, tc), (_, coloured, _) in new_top.items():
                        if coloured or (tr, tc) in taken:
                            continue
                        for token in tokens:
                            total = player_total(after, [*tents, (player, token, tr, tc)], player)
                            yield card, r, c, t, token, tr, tc, total


def best_turn_value(laid, tents, hand, tokens, player: int = 0) -> int:
    return max(entry[-1] for entry in turns(laid, tents, hand, tokens, player))


def best_solo_round(laid, order: list[str], tokens: str, turns_left: int) -> int:
    """Best round total for one player who knows the pile order: hand = first 3 of `order`, draw after each turn."""
    best = -1

    def go(laid_now, tents_now, hand, pile, tokens_left, left):
        nonlocal best
        if left == 0:
            best = max(best, player_total(laid_now, tents_now, 0))
            return
        for card, r, c, t, token, tr, tc, _ in list(turns(laid_now, tents_now, hand, tokens_left)):
            rest = list(hand)
            rest.remove(card)
            new_hand = rest + pile[:1]
            go(
                [*laid_now, (card, r, c, t)],
                [*tents_now, (0, token, tr, tc)],
                new_hand,
                pile[1:],
                tokens_left.replace(token, ""),
                left - 1,
            )

    go(list(laid), [], list(order[:3]), list(order[3:]), tokens, turns_left)
    return best
