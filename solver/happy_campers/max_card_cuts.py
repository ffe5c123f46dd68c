"""Happy Campers clairvoyant maxima: redundant linear cuts that tie each card's points to the turns'
element choices, so that CP-SAT's relaxation can bound the card (the per-card model).

In the plain model a square's element is linked to the turn that drew it only by clauses (cover and
element imply the square's literal); the relaxation may then hold, say, 24 fractional edge trees while
no turn draws trees. The cuts here say, per turn t and element e: the squares of a region (the edge, the
whole map, ...) that turn t gives element e are at most the turn's squares in that region *and* at most
the most that an e-option of the roll could put there, times "turn t draws e":

    r[t,e] <= region_t = sum_P |P & region| * use_t[P]        r[t,e] <= M[t,e] * element_t[e]

and the region's e-squares are at most the pre-drawn ones plus sum_t r[t,e]. In every integer solution
r[t,e] can take its true value (region_t when turn t draws e, else 0), so no map is cut off; in the
relaxation a turn can no longer both draw its biggest shape with one element and count as another.
M[t,e] is the plain maximum over the turn's candidate placements, no big-M constant.

Card by card, with these counts:

- Privacy: edge trees <= pre-drawn edge trees + sum_t r_edge[t, trees];
- Tent Together: 4 * tent squares (2x2) <= tents drawn; Quick Pee: lines with a toilet <= pre-drawn
  toilet lines + sum_t (most lines one toilet placement of turn t can reach) * element_t[toilets];
- River Town: cols * rivers <= water drawn (a river crosses every column), and, where water is scarce, per
  column rivers <= the column's water squares (rivers share no square);
- for those two, the element's squares <= pre-drawn + sum_t r_all[t, e]. (Not added for every element:
  without a card that counts an element they only grew the model.)
- Nature Reserve (`add_isolated_empty_cut`): the isolated empty squares' sides are at most the free sides
  of the drawn shapes, and a drawn square has at most deg - 1 isolated neighbours (root bound at 10-20
  rolls from about 80 to about 63).

Each cut is a consequence of the exact model, so it changes no optimum; `tests/happy_campers` checks the
model with the cuts against the exhaustive oracle on tiny maps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from campsolver.solver.core.geometry import Cell, border_cells, neighbours
from campsolver.solver.happy_campers import cpsat_map
from campsolver.solver.happy_campers.rules import Challenge, Element
from ortools.sat.python import cp_model


@dataclass(frozen=True)
class TurnVars:
    """One turn of the clairvoyant model: candidate cell sets with the elements each may take, and the
    turn's placement and element literals."""

    candidates: dict[frozenset[Cell], set[int]]
    use: dict[frozenset[Cell], cp_model.IntVar]
    element: dict[int, cp_model.IntVar]


def _region_count(
    model: cp_model.CpModel,
    turns: Sequence[TurnVars],
    region: set[Cell],
    element: int,
    name: str,
    weight: dict[frozenset[Cell], int] | None = None,
) -> cp_model.LinearExprT:
    """sum_t r[t, element]: a relaxation-tight upper bound on the region's squares that the turns give
    `element` (or, with `weight`, on a per-placement weight summed over the placements drawn with it)."""
    terms = []
    for t, turn in enumerate(turns):
        el = turn.element.get(element)
        if el is None:
            continue
        size = {cells: (weight[cells] if weight is not None else len(cells & region)) for cells in turn.candidates}
        most = max((size[cells] for cells, allowed in turn.candidates.items() if element in allowed), default=0)
        if most == 0:
            continue
        r = model.new_int_var(0, most, f"{name}_{t}")
        model.add(r <= most * el)
        model.add(r <= sum(size[cells] * var for cells, var in turn.use.items() if size[cells]))
        terms.append(r)
    return sum(terms)


def _lines_of(cells: frozenset[Cell]) -> int:
    return len({r for r, _ in cells}) + len({c for _, c in cells})


def add_card_cuts(
    model: cp_model.CpModel,
    mv: cpsat_map.MapVars,
    turns: Sequence[TurnVars],
    pre: dict[Cell, int],
    cards: Sequence[Challenge],
    card_points: dict[str, cp_model.LinearExprT],
    isolated: Sequence[cp_model.IntVar],
    card_caps: dict[Challenge, int],
) -> None:
    """Add the cuts for each card in play (`card_points` by card value, the
    objective's own card terms; `isolated` Nature Reserve's per-square literals; `card_caps` the cards' analytic
    caps, `max_caps.clairvoyant_card_caps`, which decide whether River Town's column cut is added)."""
    rows, cols = mv.rows, mv.cols
    k_of = {e: k for k, e in enumerate(mv.elements)}
    everything = set(mv.cells)
    edge = border_cells(rows, cols)

    def count_cut(e: int) -> cp_model.LinearExprT:
        """The element's squares, capped by the pre-drawn ones plus sum_t r_all[t, e]; returns the count."""
        pre_e = sum(1 for v in pre.values() if v == e)
        bound = pre_e + _region_count(model, turns, everything, e, f"cut_all_{e}")
        count = sum(mv.cell_element[i][k_of[e]] for i in range(len(mv.cells)))
        model.add(count <= bound)
        return count

    trees, toilets, water, tents = (int(Element.TREES), int(Element.TOILETS), int(Element.WATER), int(Element.TENTS))
    if Challenge.PRIVACY in cards:
        pre_edge = sum(1 for cell, v in pre.items() if v == trees and cell in edge)
        edge_trees = _region_count(model, turns, edge, trees, "cut_edge_trees")
        model.add(card_points[Challenge.PRIVACY.value] <= pre_edge + edge_trees)
    if Challenge.TENT_TOGETHER in cards:
        squares = card_points[Challenge.TENT_TOGETHER.value]
        model.add(4 * squares <= cpsat_map.TENT_SQUARE_POINTS * count_cut(tents))
    if Challenge.RIVER_TOWN in cards:
        model.add(cols * card_points[Challenge.RIVER_TOWN.value] <= cpsat_map.RIVER_POINTS * count_cut(water))
        most_rivers = card_caps[Challenge.RIVER_TOWN] // cpsat_map.RIVER_POINTS
        if RIVER_COLUMN_CUT and most_rivers <= RIVER_COLUMN_CUT_MAX_RIVERS:
            # Rivers share no square and each crosses every column: per column, rivers <= its water squares.
            for c in range(cols):
                column = {cell for cell in everything if cell[1] == c}
                pre_water = sum(1 for cell, v in pre.items() if v == water and cell[1] == c)
                drawn = _region_count(model, turns, column, water, f"cut_col_{c}_water")
                model.add(card_points[Challenge.RIVER_TOWN.value] <= cpsat_map.RIVER_POINTS * (pre_water + drawn))
    if Challenge.QUICK_PEE in cards:
        pre_cells = [cell for cell, v in pre.items() if v == toilets]
        pre_lines = len({r for r, _ in pre_cells}) + len({c for _, c in pre_cells})
        weight = {cells: _lines_of(cells) for turn in turns for cells in turn.candidates}
        reach = _region_count(model, turns, everything, toilets, "cut_toilet_lines", weight)
        model.add(card_points[Challenge.QUICK_PEE.value] <= pre_lines + reach)
    if Challenge.NATURE_RESERVE in cards and isolated and NATURE_RESERVE_CUT:
        add_isolated_empty_cut(model, mv, turns, pre, isolated)


#: River Town: also rivers <= each column's water squares (pre-drawn plus what the turns can draw there), where
#: water is scarce: the card's cap (the water the rolls can draw at all, over the columns) is at most
#: RIVER_COLUMN_CUT_MAX_RIVERS rivers. Then
#: where the water goes decides the rivers and the relaxation needs the columns (tuning seeds 5,600,000-004, 10
#: rolls: 2 more of 5 proven); with water for 3-5 rivers (20 rolls) the cut only slowed the proofs (2-3 of 5 lost).
RIVER_COLUMN_CUT = True
RIVER_COLUMN_CUT_MAX_RIVERS = 2


#: Add Nature Reserve's adjacency-count cut (`add_isolated_empty_cut`).
NATURE_RESERVE_CUT = True


def _internal_adjacencies(cells: frozenset[Cell]) -> int:
    return sum(1 for r, c in cells for nb in ((r + 1, c), (r, c + 1)) if nb in cells)


def add_isolated_empty_cut(
    model: cp_model.CpModel,
    mv: cpsat_map.MapVars,
    turns: Sequence[TurnVars],
    pre: dict[Cell, int],
    isolated: Sequence[cp_model.IntVar],
) -> None:
    """Nature Reserve: count square sides. Each isolated empty square i has all deg(i) neighbours drawn,
    so the (drawn, empty) adjacent pairs number at least sum_i deg(i) * isolated_i. Every drawn square j
    has deg(j) sides, and each drawn-drawn adjacent pair uses two of them:

        sum_i deg(i) * isolated_i + 2 * A <= sum_j deg(j) * filled_j

    with A the drawn-drawn pairs, at least the pairs inside the pre-drawn squares, plus the pairs inside
    each drawn shape, plus one per turn that touches an earlier drawing (every turn but an opening one on
    an empty map; distinct turns' contact pairs are distinct: each pair is counted by its later turn).
    Valid for every final map; in the relaxation it stops isolated squares from outnumbering the sides the
    drawn shapes can offer them (the plain model lets each hole borrow a fractional filled neighbour).
    """
    n = len(mv.cells)
    degree = [len(mv.neighbour_indices(i)) for i in range(n)]
    pre_pairs = _internal_adjacencies(frozenset(pre))
    shape_pairs = []
    contacts = []
    for t, turn in enumerate(turns):
        shape_pairs.extend(_internal_adjacencies(cells) * var for cells, var in turn.use.items())
        if t > 0 or pre:
            contacts.extend(turn.use.values())
    model.add(
        sum(degree[i] * isolated[i] for i in range(n)) + 2 * (pre_pairs + sum(shape_pairs) + sum(contacts))
        <= sum(degree[i] * mv.filled[i] for i in range(n))
    )
    # Locally: a drawn square has a drawn neighbour (its shape's other squares; every shape has two or more,
    # and a pre-drawn square counts if its neighbour is pre-drawn too), so at most deg - 1 of its neighbours
    # are isolated; an empty square has none (isolated squares need every neighbour drawn).
    if any(len(cells) < 2 for turn in turns for cells in turn.candidates):
        return  # a one-square shape (custom components) may stand alone
    lone_pre = {cell for cell in pre if not any(nb in pre for nb in neighbours(cell, mv.rows, mv.cols))}
    for j in range(n):
        if mv.cells[j] in lone_pre:
            continue
        around = mv.neighbour_indices(j)
        model.add(sum(isolated[i] for i in around) <= (len(around) - 1) * mv.filled[j])
