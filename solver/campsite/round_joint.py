"""A bound on the best solo round from a node that lays each card to come once, for all tents jointly (CP-SAT).

The branch and bound's own bounds (`round_bound`) let each tent use every card to come in a placement of its own.
This relaxation places each card once: one CP-SAT model over the node's table (`round_board.Board`), the cards that
may still be laid (`pool`) and the squares they can reach, whose optimum is at least the value of every round that
completes the node. Every real completion is a solution of the model:

- `lay[card, picture, corner]`: each card of the pool in at most one placement, exactly `left` of them laid (a real
  round lays one card a turn, each from the pool). Corners: every place in the round's frame within the node's
  covered box grown by 3 squares per turn to go (every legal card lies there, `round_board` docstring) where the
  card covers no square coloured now (coloured squares are never covered). Which card is in hand when, the laying
  order and the touching rule are dropped.
- At most one card colours a square, and none colours a square coloured now: a coloured square is never covered, so
  a square coloured by two cards would have one under the other.
- Tents (`tent[token, square]`): each token at most once, at most `turns` in all (the node's tents are still to be
  chosen: `round_search` assigns them at the leaves), one per square, on a square covered now or by a laid card and
  coloured neither now nor by a laid card (a tent ends on a visible empty square). Which turn each goes to (Hall's
  condition) is dropped.
- A terrain tent's points: the coloured squares among its 8 featuring its terrain, now (never covered) or coloured by
  a laid card (the final coloured squares are exactly these). Doubled only when a Fair Weather square is among the
  8: one visible now, or a square of a laid Fair Weather card (relaxed: it may be covered later). Wilderness: the
  terrains among the 8 now, plus at most 2 per square a laid card colours there, at most 6; doubled the same way.

- Each token's points on a square are also at most its potential there (`round_bound.Potentials`, the largest over
  the sets of `left` cards of the pool: a proven bound on a tent there whatever the other tents do), which is the
  tight cap of `points[token, square] + extra[token, square] <= cap * tent[token, square]` (no big-M).

So the model's optimum bounds every completion; under a time limit only CP-SAT's proven objective bound is used
(`best_objective_bound`, never a feasible objective).

Measured (docs/solvers/campsite.md): not used by the search. At 4-7 turns the model holds 15,000-70,000 placement
Booleans and CP-SAT gave no bound below the search's root bound within 20 CPU-s on any of 30 bench roots; solved in
small windows on three-turn rounds its optimum was sometimes below the root bound, sometimes above.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from campsolver.solver.campsite.round_board import (
    PAD,
    REACH_PER_TURN,
    SHAPES,
    TERRAINS,
    Board,
    Frame,
    card_pictures,
    round_card_count,
    start_board,
)
from campsolver.solver.campsite.round_bound import CoverTables, Potentials, Region, subsets
from campsolver.solver.campsite.rules import (
    FAIR_WEATHER_FACTOR,
    HAND_SIZE,
    STARTING_CARDS,
    SURROUNDING,
    Card,
    Terrain,
    Token,
)
from campsolver.solver.core import cpsat
from campsolver.solver.core.budget import Budget, SolveInterrupted
from ortools.sat.python import cp_model

#: A tent's base points: 8 surrounding squares; Wilderness 6 terrains, at most 2 new ones per square.
TERRAIN_CAP = len(SURROUNDING)
WILDERNESS_CAP = len(Terrain)
TERRAINS_PER_SQUARE = 2
#: CP-SAT parameters of the relaxation (one place): one worker (its CPU is the budget's), every constraint in the LP
#: (at the default level the root LP gave no bound within 20 s on a 3-turn root; at level 2 it did).
JOINT_WORKERS = 1
#: Squares between budget checks while the tents' rows are built (a square is ~0.1-0.5 ms of Python).
BUILD_CHECK_STRIDE = 64


@dataclass
class JointModel:
    model: cp_model.CpModel
    lays: int  # placement Booleans
    tents: int  # tent Booleans
    objective: cp_model.LinearExpr


@dataclass
class JointBound:
    bound: int | None  # a proven upper bound on every completion of the node (None: CP-SAT proved nothing)
    status: int
    optimal: bool  # the relaxation was solved to optimality (its optimum is the bound)
    lays: int
    wall_s: float


def _corner_window(board: Board, shape: int, left: int) -> tuple[int, int, int, int]:
    """Array corners (i0, i1, j0, j1) of this outline's cards within the covered box grown by 3 squares a turn to
    go and within the frame (where every card of the round lies)."""
    height, width = SHAPES[shape]
    grow = REACH_PER_TURN * left
    rows, cols = board.frame.shape
    i0 = max(PAD, board.lo[0] - grow)
    j0 = max(PAD, board.lo[1] - grow)
    i1 = min(rows - PAD - height + 1, board.hi[0] + grow - height + 2)
    j1 = min(cols - PAD - width + 1, board.hi[1] + grow - width + 2)
    return i0, i1, j0, j1


def potential_caps(
    order: Sequence[Card],
    board: Board,
    pool: Sequence[int],
    left: int,
    tokens: Sequence[Token],
    budget: Budget | None = None,
) -> tuple[Region, np.ndarray, np.ndarray]:
    """Each token's potential on each square of the node's region (`round_bound.Potentials`: its points with any
    `left` cards of the pool laid, each in a placement of its own), the largest over those sets; and its largest
    over the region (what any square beyond the region can reach: the region's margin is bare like them)."""
    first: dict[Card, int] = {}
    card_key = [first.setdefault(card, i) for i, card in enumerate(order)]
    potentials = Potentials(CoverTables(order, budget), tokens, Region(board), card_key)
    caps = None
    for chosen in subsets(pool, min(left, len(pool)), card_key):
        if budget is not None:
            budget.check()
        values = potentials.values(chosen)
        caps = values if caps is None else np.maximum(caps, values)
    if caps is None:
        caps = potentials.values(())
    return potentials.region, caps, caps.reshape(len(tokens), -1).max(axis=1)


def build_joint_model(
    order: Sequence[Card],
    board: Board,
    pool: Sequence[int],
    left: int,
    turns: int,
    tokens: Sequence[Token],
    budget: Budget | None = None,
) -> JointModel:
    """The relaxation of the module docstring for the node `board` with `left` turns to go (`pool`: indices into
    `order` of the cards that may still be laid; `turns` tents, all still to be chosen). With a budget, raises
    `SolveInterrupted` when it runs out (checked per picture of a card and every `BUILD_CHECK_STRIDE` squares)."""
    tokens = list(tokens)
    model = cp_model.CpModel()
    frame_rows, frame_cols = board.frame.shape
    region, caps, cap_beyond = potential_caps(order, board, pool, left, tokens, budget)
    # Per square (array index): the placements covering it, colouring it (terrain mask), covering it with Fair Weather.
    covering: dict[tuple[int, int], list[cp_model.IntVar]] = {}
    colouring: dict[tuple[int, int], list[tuple[cp_model.IntVar, int]]] = {}
    fair_covering: dict[tuple[int, int], list[cp_model.IntVar]] = {}
    laid_cards = []
    lays = 0
    for index in pool:
        card = order[index]
        mine = []
        for picture in card_pictures(index, card):
            if budget is not None:
                budget.check()
            i0, i1, j0, j1 = _corner_window(board, picture.shape, left)
            corners = board.open_corners(picture.shape, i0, i1, j0, j1)
            for i, j in corners.tolist():
                var = model.new_bool_var(f"lay_c{index}_r{picture.rotation}_{i}_{j}")
                mine.append(var)
                for (dr, dc), coloured in picture.squares:
                    cell = (i + dr, j + dc)
                    covering.setdefault(cell, []).append(var)
                    if coloured:
                        colouring.setdefault(cell, []).append((var, card.mask))
                    if card.fair_weather:
                        fair_covering.setdefault(cell, []).append(var)
        lays += len(mine)
        if mine:
            used = model.new_bool_var(f"used_c{index}")
            model.add(sum(mine) == used)
            laid_cards.append(used)
    model.add(sum(laid_cards) == min(left, len(laid_cards)))
    # What each square ends as: coloured by a laid card (at most one), with each terrain; covered; Fair Weather.
    coloured_by: dict[tuple[int, int], cp_model.IntVar] = {}
    terrain_by: dict[tuple[tuple[int, int], int], cp_model.IntVar] = {}
    for cell, entries in colouring.items():
        any_colour = model.new_bool_var(f"col_{cell[0]}_{cell[1]}")
        model.add(sum(var for var, _ in entries) == any_colour)
        coloured_by[cell] = any_colour
        for terrain in range(TERRAINS):
            mine = [var for var, mask in entries if mask >> terrain & 1]
            if mine:
                has = model.new_bool_var(f"ter{terrain}_{cell[0]}_{cell[1]}")
                model.add(sum(mine) == has)
                terrain_by[(cell, terrain)] = has
    fair_by: dict[tuple[int, int], cp_model.IntVar] = {}
    for cell, entries in fair_covering.items():
        var = model.new_bool_var(f"fw_{cell[0]}_{cell[1]}")
        model.add(var <= sum(entries))
        fair_by[cell] = var
    cov, col, bits, fair = board.cov, board.col, board.bits, board.fair
    # Tent squares: covered now or by a laid card, coloured neither now nor by a laid card.
    cells = sorted(set(covering) | {(int(i), int(j)) for i, j in np.argwhere(cov & ~col).tolist()})
    tent_cells = [c for c in cells if not col[c] and 1 <= c[0] < frame_rows - 1 and 1 <= c[1] < frame_cols - 1]

    def cap_of(t: int, cell: tuple[int, int]) -> int:
        i, j = cell[0] - region.i0, cell[1] - region.j0
        if 0 <= i < caps.shape[1] and 0 <= j < caps.shape[2]:
            return int(caps[t, i, j])
        return int(cap_beyond[t])

    tent: dict[tuple[int, tuple[int, int]], cp_model.IntVar] = {}
    terms = []
    for number, cell in enumerate(tent_cells):
        if budget is not None and number % BUILD_CHECK_STRIDE == 0:
            budget.check()
        around = [(cell[0] + dr, cell[1] + dc) for dr, dc in SURROUNDING]
        if any(fair[a] for a in around):
            fair_near: cp_model.IntVar | int = 1
        else:
            options = [fair_by[a] for a in around if a in fair_by]
            fair_near = 0
            if options:
                fair_near = model.new_bool_var(f"fair_{cell[0]}_{cell[1]}")
                model.add(fair_near <= sum(options))
        here = []
        for t, token in enumerate(tokens):
            cap = cap_of(t, cell)
            if cap <= 0:
                continue  # a tent here scores nothing: leaving it out changes no optimum
            var = model.new_bool_var(f"tent_{token.name}_{cell[0]}_{cell[1]}")
            tent[(t, cell)] = var
            here.append(var)
            if token is Token.WILDERNESS:
                seen = 0
                for a in around:
                    if col[a]:
                        seen |= int(bits[a])
                now = bin(seen).count("1")
                new = [coloured_by[a] for a in around if a in coloured_by]
                base_cap = min(WILDERNESS_CAP, now + TERRAINS_PER_SQUARE * len(new))
            else:
                bit = Terrain(int(token)).bit
                now = sum(1 for a in around if col[a] and bits[a] & bit)
                new = [terrain_by[(a, int(token))] for a in around if (a, int(token)) in terrain_by]
                base_cap = min(TERRAIN_CAP, now + len(new))
            base_cap = min(base_cap, cap)
            points = model.new_int_var(0, base_cap, f"pts_{token.name}_{cell[0]}_{cell[1]}")
            model.add(points <= now + (TERRAINS_PER_SQUARE if token is Token.WILDERNESS else 1) * sum(new))
            total = points
            if not (isinstance(fair_near, int) and fair_near == 0):
                extra = model.new_int_var(
                    0, base_cap * (FAIR_WEATHER_FACTOR - 1), f"x_{token.name}_{cell[0]}_{cell[1]}"
                )
                model.add(extra <= (FAIR_WEATHER_FACTOR - 1) * points)
                if not isinstance(fair_near, int):
                    model.add(extra <= base_cap * (FAIR_WEATHER_FACTOR - 1) * fair_near)
                total = points + extra
            model.add(total <= cap * var)
            terms.append((t, var, total))
        if not here:
            continue
        if cov[cell]:
            model.add(sum(here) + coloured_by.get(cell, 0) <= 1)
        else:
            covered = model.new_bool_var(f"cov_{cell[0]}_{cell[1]}")
            model.add(covered <= sum(covering[cell]))
            model.add(sum(here) + coloured_by.get(cell, 0) <= covered)
    for t in range(len(tokens)):
        mine = [var for (k, _), var in tent.items() if k == t]
        if len(mine) > 1:
            model.add_at_most_one(mine)
    model.add(sum(tent.values()) <= turns)
    # Each token's score (its tent's points, 0 unused): at most its best cap when its tent stands somewhere.
    scores = []
    for t, token in enumerate(tokens):
        mine = [(var, total) for k, var, total in terms if k == t]
        if not mine:
            continue
        best = max(int(cap_beyond[t]), 0)
        score = model.new_int_var(0, best, f"score_{token.name}")
        model.add(score == sum(total for _, total in mine))
        model.add(score <= best * sum(var for var, _ in mine))
        scores.append(score)
    objective = sum(scores)
    model.maximize(objective)
    return JointModel(model, lays, len(tent), objective)


def joint_bound(
    order: Sequence[Card],
    board: Board,
    pool: Sequence[int],
    left: int,
    turns: int,
    tokens: Sequence[Token],
    budget: Budget,
) -> JointBound:
    """Build and solve the relaxation within `budget`: the bound is the optimum when CP-SAT proves it, else CP-SAT's
    proven objective bound (rounded down: every score is whole); None when CP-SAT stops with neither, or the budget
    runs out while the model is built."""
    try:
        built = build_joint_model(order, board, pool, left, turns, tokens, budget)
    except SolveInterrupted:
        return JointBound(None, cp_model.UNKNOWN, False, 0, 0.0)
    result = cpsat.solve(built.model, budget, workers=JOINT_WORKERS, configure=cpsat.full_linearization)
    solver = result.solver
    bound: int | None = None
    if result.status == cp_model.OPTIMAL:
        bound = round(solver.objective_value)
    elif result.status == cp_model.FEASIBLE:
        bound = math.floor(solver.best_objective_bound + 1e-6)
    return JointBound(bound, result.status, result.status == cp_model.OPTIMAL, built.lays, result.wall_time_s)


def root_joint_bound(
    order: Sequence[Card],
    turns: int,
    budget: Budget,
    *,
    hand_size: int = HAND_SIZE,
    tokens: Sequence[Token] = tuple(Token),
) -> JointBound:
    """`joint_bound` at the root of a round (the starting cards down, every card of the round to come)."""
    frame = Frame(turns)
    board = start_board(order, frame)
    pool = list(range(STARTING_CARDS, round_card_count(order, turns, hand_size)))
    return joint_bound(order, board, pool, turns, turns, sorted(set(tokens)), budget)
