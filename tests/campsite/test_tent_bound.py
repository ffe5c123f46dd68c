"""`tent_bound.best_cover` is the exact maximum of the relaxed cover problem it states: equal to a brute force over
every choice of at most `limit` cards, each in every placement around the tent (built here from the cards' own
squares, not from `pattern_placements`)."""

from __future__ import annotations

import itertools
import random

from campsolver.solver.campsite import rules as R
from campsolver.solver.campsite import tent_bound as TB


def placements_around(pattern: tuple[R.Cell, ...]) -> set[tuple[int, int, bool]]:
    """(coloured squares among the 8 as a mask, every square of the card among the 8 as a mask, covers the centre?)
    of every placement of the pattern whose 2 x 3 or 3 x 2 outline meets the 3 x 3 window, its centre not coloured."""
    card = R.Card((R.Terrain.DESERT, R.Terrain.FOREST), frozenset(pattern))
    bit = {offset: 1 << k for k, offset in enumerate(R.SURROUNDING)}
    found = set()
    for rotation in range(4):
        squares = card.squares(rotation)
        for row in range(-4, 3):
            for col in range(-4, 3):
                cells = {(row + dr, col + dc): coloured for (dr, dc), coloured in squares.items()}
                if cells.get((0, 0)) or not any(max(abs(r), abs(c)) <= 1 for r, c in cells):
                    continue
                coloured = sum(bit[c] for c, is_coloured in cells.items() if c in bit and is_coloured)
                footprint = sum(bit[c] for c in cells if c in bit)
                found.add((coloured, footprint, (0, 0) in cells))
    return found


def brute_cover(open_mask, matching, other_any, other_fair, limit, need_centre, need_fair) -> int:
    blocked = TB.FULL_WINDOW & ~open_mask
    cards = []
    for pattern, fair in matching:
        cards.append(([(m, c) for m, f, c in placements_around(pattern) if not f & blocked], fair, True))
    if other_any or other_fair:
        cards.append(([(0, True)], other_fair, False))  # a card without the terrain: roles only
    best = TB.NO_COVER
    room = bin(open_mask).count("1") - 1
    for size in range(min(limit, len(cards)) + 1):
        for chosen in itertools.combinations(cards, size):
            for picks in itertools.product(*(options for options, _, _ in chosen)):
                union, centre, fair_state = 0, not need_centre, 0 if need_fair else 2
                for (mask, covers), (_, fair, matches) in zip(picks, chosen, strict=True):
                    union |= mask
                    centre = centre or covers
                    if fair:
                        fair_state = max(fair_state, 2 if matches and mask else 1)
                if centre and fair_state:
                    value = bin(union).count("1")
                    best = max(best, min(value, room) if fair_state == 1 else value)
    return best


def test_best_cover_is_the_brute_force_maximum() -> None:
    rng = random.Random(2)
    deck = list(R.default_deck())
    for _ in range(400):
        cards = rng.sample(deck, rng.randint(0, 3))
        matching = tuple(sorted((tuple(sorted(c.pattern)), c.fair_weather) for c in cards))
        case = (
            rng.randrange(256),
            matching,
            rng.random() < 0.6,
            rng.random() < 0.3,
            rng.randint(1, 4),
            rng.random() < 0.4,
            rng.random() < 0.4,
        )
        assert TB.best_cover(*case) == brute_cover(*case), case


def test_pattern_placements_are_the_placements_around_the_tent() -> None:
    for card in set(R.default_deck()):
        pattern = tuple(sorted(card.pattern))
        assert set(TB.pattern_placements(pattern)) == placements_around(pattern)
