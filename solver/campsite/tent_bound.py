"""A proven upper bound on one tent's final points from the cards still to come, by the geometry of their patterns.

Used by `round_search` to bound a node. A tent on cell c (visible empty or bare now) ends with
matches = (its terrain's coloured squares around c now, never covered) + (coloured squares of that terrain the
cards still to come put on the squares around c that are open now, bare or empty). The second part is at most the
largest union, over the 8 squares, of the coloured squares of at most `limit` of those cards, each card in one of
its placements that reach the 3 x 3 window and put no coloured square on c itself (c must end empty). Coloured
squares are never covered, so the final coloured squares around c are a subset of that union: the bound is sound
whatever the cards' order, legality or other tents.

Two roles tighten it, both necessary for the tent:
- a bare centre must end under a card's empty square: one of the cards laid covers c (a placement with c on an
  empty square; any card can, as every card has an empty square), so it uses one of the `limit` cards;
- doubling needs a visible Fair Weather square among the 8 at the end: if none is there now, one of the cards
  laid must be a Fair Weather card reaching the window.

`best_cover` is an exact maximum of that relaxed problem (a small dynamic programme over 8-bit masks), cached on
its inputs; `pattern_placements` lists each pattern's placements around a square once. A placement that would cover
a square coloured now is left out (coloured squares are never covered); squares beyond the 3 x 3 window are not
looked at (a relaxation).
"""

from __future__ import annotations

from functools import cache

from campsolver.solver.campsite.rules import SURROUNDING, Card, Cell, Terrain

#: All 8 squares around a tent.
FULL_WINDOW = (1 << len(SURROUNDING)) - 1
_BIT = {offset: 1 << index for index, offset in enumerate(SURROUNDING)}
_POPCOUNT = tuple(bin(mask).count("1") for mask in range(FULL_WINDOW + 1))
#: `best_cover` answer when the roles cannot be filled within the card limit.
NO_COVER = -1


@cache
def pattern_placements(pattern: tuple[Cell, ...]) -> tuple[tuple[int, int, bool], ...]:
    """Every placement of a card with this pattern that reaches the 3 x 3 window around a tent and puts no coloured
    square on the tent's square: (coloured squares among the 8, squares of the card among the 8, covers the tent's
    square?). Bit i is `SURROUNDING[i]`. Placements with the same three values are listed once."""
    found: set[tuple[int, int, bool]] = set()
    card = Card((Terrain.DESERT, Terrain.FOREST), frozenset(pattern))  # the terrains play no part here
    for rotation in range(4):
        squares = tuple(card.squares(rotation).items())
        height = 1 + max(dr for (dr, _), _ in squares)
        width = 1 + max(dc for (_, dc), _ in squares)
        for row in range(-height, 2):
            for col in range(-width, 2):
                cells = {(row + dr, col + dc): coloured for (dr, dc), coloured in squares}
                if cells.get((0, 0)):
                    continue
                if not any(abs(r) <= 1 and abs(c) <= 1 for r, c in cells):
                    continue
                coloured_mask = footprint = 0
                for cell, coloured in cells.items():
                    if cell in _BIT:
                        footprint |= _BIT[cell]
                        if coloured:
                            coloured_mask |= _BIT[cell]
                found.add((coloured_mask, footprint, (0, 0) in cells))
    return tuple(sorted(found))


#: 256-bit sets of 8-bit masks (bit m set: mask m is in the set), as Python ints.
_MASKS = 1 << (FULL_WINDOW + 1)
#: Per square bit b: the set of masks holding b, and the set of masks without it.
_WITH_BIT = tuple(sum(1 << m for m in range(FULL_WINDOW + 1) if m >> b & 1) for b in range(len(SURROUNDING)))
_WITHOUT_BIT = tuple((_MASKS - 1) ^ with_bit for with_bit in _WITH_BIT)
#: Per count k: the set of masks of k squares (the largest count present is a set's best union).
_OF_SIZE = tuple(sum(1 << m for m in range(FULL_WINDOW + 1) if _POPCOUNT[m] == k) for k in range(len(SURROUNDING) + 1))


#: Per mask: (the masks with bit b, the masks without it, 2^b) for each bit b of it.
_STEPS = tuple(
    tuple((_WITH_BIT[b], _WITHOUT_BIT[b], 1 << b) for b in range(len(SURROUNDING)) if mask >> b & 1)
    for mask in range(FULL_WINDOW + 1)
)


def _joined(masks: int, mask: int) -> int:
    """The set {m | mask : m in masks} (256-bit sets): one square of `mask` at a time, the masks without it moved to
    the mask with it (m -> m + 2^b is a shift by 2^b bits)."""
    for with_bit, without_bit, shift in _STEPS[mask]:
        masks = (masks & with_bit) | ((masks & without_bit) << shift)
    return masks


def _largest(masks: int) -> int:
    """The most squares of a mask in the (non-empty) set."""
    for size in range(len(SURROUNDING), -1, -1):
        if masks & _OF_SIZE[size]:
            return size
    return -1


@cache
def _card_options(pattern: tuple[Cell, ...], fair: bool, blocked: int) -> tuple[tuple[bool, int, tuple[int, ...]], ...]:
    """A card featuring the tent's terrain, its placements that cover no `blocked` square grouped by the roles they
    fill: (covers the centre?, doubling state it gives, coloured masks). A mask strictly inside another of its group
    is left out: its unions are inside the larger's, so it never gives a larger union (the answer is the largest
    union's size), and it fills the same roles."""
    groups: dict[tuple[bool, int], set[int]] = {}
    for mask, footprint, centre in pattern_placements(pattern):
        if not footprint & blocked:
            doubles = (2 if mask else 1) if fair else 0
            groups.setdefault((centre, doubles), set()).add(mask)
    return tuple(
        (centre, doubles, tuple(sorted(m for m in masks if not any(o != m and o & m == m for o in masks))))
        for (centre, doubles), masks in sorted(groups.items())
    )


@cache
def best_cover(
    open_mask: int,
    matching: tuple[tuple[tuple[Cell, ...], bool], ...],
    other_any: bool,
    other_fair: bool,
    limit: int,
    need_centre: bool,
    need_fair: bool,
) -> int:
    """The most open squares around a tent that at most `limit` of the given cards can colour with its terrain.

    `matching`: (pattern as sorted cells, Fair Weather?) of each card featuring the tent's terrain;
    `other_any` / `other_fair`: a card without the terrain (any / a Fair Weather one) is available to fill a role.
    `need_centre`: one card must cover the centre with an empty square; `need_fair`: one card must be a Fair
    Weather card reaching the window.
    NO_COVER when the roles cannot be filled.

    A dynamic programme over the cards, one at a time (in any of its placements, or not used): per state (centre
    covered?, doubling state, cards used) the set of unions of coloured squares reachable, as a 256-bit set of
    8-bit masks (`_joined`); a placement whose coloured squares lie inside another's with the same roles is left
    out (`_card_options`)."""
    # fair: 0 not doubled yet, 1 doubled by a Fair Weather square that matches nothing here (it stays visible among
    # the 8 and is open now, so the matching cover leaves it out), 2 doubled at no cost (not needed, or a coloured
    # square of a matching Fair Weather card among the 8).
    states: dict[tuple[bool, int, int], int] = {(not need_centre, 0 if need_fair else 2, 0): 1}  # {mask 0}

    # The cards used are counted only when they could exceed the limit (else every state's count is 0).
    step = 1 if len(matching) + (other_any or other_fair) > limit else 0

    def add(kept: tuple[tuple[bool, int, tuple[int, ...]], ...]) -> None:
        """One more card, in any of its placements (`kept`: `_card_options`), or not."""
        for (centre_done, fair_state, count), masks in list(states.items()):
            if count >= limit:
                continue
            for covers_centre, doubles, group in kept:
                key = (centre_done or covers_centre, max(fair_state, doubles), count + step)
                joined = states.get(key, 0)
                for mask in group:
                    joined |= _joined(masks, mask)
                states[key] = joined

    blocked = FULL_WINDOW & ~open_mask  # coloured now: a card can never cover them
    for pattern, fair in matching:
        add(_card_options(pattern, fair, blocked))
    if other_any or other_fair:
        # One card without the terrain: it can only fill roles. As the Fair Weather card it has a visible square
        # among the 8 (an open square: it covers none coloured now), which then matches nothing for this tent.
        add(((True, 1 if other_fair else 0, (0,)),))
    best = NO_COVER
    room = _POPCOUNT[open_mask] - 1  # the open squares left once one keeps a non-matching Fair Weather square
    for (centre_done, fair_state, _), masks in states.items():
        if centre_done and fair_state and masks:
            value = _largest(masks)
            best = max(best, min(value, room) if fair_state == 1 else value)
    return best
