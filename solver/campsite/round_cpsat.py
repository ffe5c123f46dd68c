"""The best solo round of a known deck order as one CP-SAT model over time-indexed placements (proof OPTIMAL
only from the solver's status, and only when the window is the whole reachable area).

The model (every clause of the rules model, see `rules.py`; the tents by the final-picture reading proven in
`round_search`'s docstring):
- `lay[t, card, picture, corner]`: the card laid on turn t (exactly one a turn), in one of its distinct pictures,
  with its top-left corner there. Card i of the order is in hand from turn max(1, i - hand_size) on (hand, then
  one draw a turn); each card is laid at most once.
- Legality on turn t: it covers no square coloured before t (`sum(covering at t) + sum(colouring before t) <= 1`
  per square, one linear row each), and it overlaps or shares a side with a square covered before t
  (`lay <= sum(covered before t over its footprint and side ring)`).
- Tents (`tent[token, square]`): each token at most once, T in all, one per square, on a square covered at the end
  and coloured by no card. Coloured squares and tents are never covered, so a tent scores on the final table; the
  squares can take one tent a turn exactly when, for every s, at most T - s + 1 of them have their top card laid
  on turn s or later (Hall's condition; `round_search` docstring) - the `late[s, square]` rows.
- Scores: a terrain tent's matches are the final coloured squares featuring its terrain among its 8 (coloured
  squares are never covered, so each square's final terrains are the sum of the placements that colour it);
  doubled when a visible Fair Weather square is among them (`fair[square]`: the square's top card is Fair Weather:
  covered by such a card on turn t and by nothing later); Wilderness: 1 per terrain present, doubled the same way.

The window (why a proof over it covers every play): a card laid on turn t touches a square covered before t, so
by induction every square of it lies within the starting cards' box grown by 3t squares (a card reaches at most
3 squares past what it touches). With `growth >= 3 T` the model lists every legal placement of every turn, so its
optimum is the round's optimum and OPTIMAL is a proof. A smaller `growth` keeps only the corners whose card stays
within the box grown by `growth`: its optimum is the best round within that window (a legal round, not a proof
for the whole table); `RoundModel.whole` says which.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from campsolver.solver.campsite.round_board import round_card_count
from campsolver.solver.campsite.round_search import pictures
from campsolver.solver.campsite.rules import (
    CARD_COLS,
    CARD_ROWS,
    FAIR_WEATHER_FACTOR,
    HAND_SIZE,
    STARTING_CARDS,
    SURROUNDING,
    Card,
    Cell,
    Placement,
    Square,
    Tent,
    Terrain,
    Token,
    outline_offsets,
    player_scores,
    starting_table,
)
from campsolver.solver.core import cpsat
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.proof import Proof
from ortools.sat.python import cp_model

#: A card reaches at most this many squares past the squares it touches (its long side).
REACH_PER_TURN = max(CARD_ROWS, CARD_COLS)
#: A tent's base points: 8 surrounding squares, Wilderness 6 terrains.
TERRAIN_CAP = len(SURROUNDING)
WILDERNESS_CAP = len(Terrain)
#: Check the budget every this many placements while building the model (Python model building is the slow part).
MODEL_CHECK_STRIDE = 32
#: Kept back from CP-SAT's time limit for stopping its workers and answering (less than twice this plus the
#: teardown left: no search). Measured: with 0.05 s a 5 s solve of a 2,800-placement model ended 72 ms late at load 13.
CP_SAT_STOP_MARGIN_S = 0.2

#: Freeing a model (its Python variables and constraints) takes time too: measured 0.32 s for 9,900 placement
#: Booleans at load 13 on the 2-core machine; twice that is kept back per placement Boolean (the constraints go too).
TEARDOWN_S_PER_LAY = 64e-6

_ORTHOGONAL = ((-1, 0), (1, 0), (0, -1), (0, 1))


def teardown_s(lays: int) -> float:
    """Seconds kept back for freeing a model of `lays` placement Booleans."""
    return lays * TEARDOWN_S_PER_LAY


@dataclass(frozen=True)
class _Lay:
    turn: int
    index: int  # the card's index in the order
    rotation: int
    row: int
    col: int
    squares: tuple[tuple[Cell, bool], ...]  # table cell, coloured?


@dataclass
class RoundModel:
    model: cp_model.CpModel
    lays: list[tuple[_Lay, cp_model.IntVar]]
    tents: dict[tuple[Token, Cell], cp_model.IntVar]
    objective: cp_model.LinearExpr
    whole: bool  # the window is the whole reachable area: an optimum is the round's optimum
    growth: int


@dataclass
class CpRound:
    plays: list[tuple[Placement, Tent]]
    score: int  # the rules model's score of `plays` (-1: none found)
    bound: float | None  # CP-SAT's bound within the window
    proof: Proof | None  # OPTIMAL only from the solver's status with the whole window
    status: int
    whole: bool
    placements: int  # placement Booleans in the model
    build_s: float
    wall_time_s: float


def _is_const(value: object, constant: int) -> bool:
    """A plain integer equal to `constant` (CP-SAT variables compare into expressions, never use ==)."""
    return isinstance(value, int) and value == constant


def _grown(growth: int) -> tuple[int, int, int, int]:
    """min_row, min_col, max_row, max_col of the starting cards' box grown by `growth` squares."""
    return (-growth, -growth, CARD_ROWS - 1 + growth, STARTING_CARDS * CARD_COLS - 1 + growth)


def _inside(cell: Cell, box: tuple[int, int, int, int]) -> bool:
    return box[0] <= cell[0] <= box[2] and box[1] <= cell[1] <= box[3]


def _colour_literals_around(
    final_colour: dict[Cell, list[tuple[cp_model.IntVar | int, int]]], cell: Cell, bits: int
) -> list[cp_model.IntVar | int]:
    """The literals "this square ends coloured with a terrain in `bits`" over the 8 squares around `cell`
    (each placement that can colour a square contributes one literal; at most one of a square's holds)."""
    return [
        var for dr, dc in SURROUNDING for var, mask in final_colour.get((cell[0] + dr, cell[1] + dc), []) if mask & bits
    ]


class _Ticker:
    """Checks the budget every MODEL_CHECK_STRIDE steps of the model building (each a few microseconds), keeping
    back the teardown time of the placements made so far."""

    def __init__(self, budget: Budget | None) -> None:
        self.budget = budget
        self.checked = 0
        self.lays = 0  # placement Booleans made so far

    def __call__(self) -> None:
        self.checked += 1
        if self.budget is not None and self.checked % MODEL_CHECK_STRIDE == 0:
            self.budget.check()
            if self.budget.remaining() < teardown_s(self.lays):
                raise SolveInterrupted("deadline: no time left to build, solve and free the model")


@dataclass
class _Index:
    """The placements by turn, by card, and by (turn, square) covered / coloured / covered by Fair Weather."""

    by_turn: dict[int, list[cp_model.IntVar]]
    by_card: dict[int, list[cp_model.IntVar]]
    covering: dict[tuple[int, Cell], list[cp_model.IntVar]]  # (turn, cell) -> lays covering it
    colouring: dict[tuple[int, Cell], list[tuple[cp_model.IntVar, int]]]  # -> (lay, terrain mask)
    fair_covering: dict[tuple[int, Cell], list[cp_model.IntVar]]


def add_lays(
    model: cp_model.CpModel,
    order: Sequence[Card],
    turns: int,
    hand_size: int,
    growth: int,
    last_card: int,
    start_coloured: set[Cell],
    tick: _Ticker,
) -> list[tuple[_Lay, cp_model.IntVar]]:
    """Placements per turn: the corners whose card stays in the window, covers no starting coloured square and
    touches the area reachable before the turn (a necessary condition of touching what is down)."""
    window = _grown(growth)
    lays: list[tuple[_Lay, cp_model.IntVar]] = []
    for turn in range(1, turns + 1):
        before = _grown(min(REACH_PER_TURN * (turn - 1), growth))
        for index in range(STARTING_CARDS, last_card):
            if max(1, index - hand_size) > turn:
                continue
            card = order[index]
            for picture in pictures(card):
                height, width = (CARD_COLS, CARD_ROWS) if picture.rotation % 2 else (CARD_ROWS, CARD_COLS)
                foot, ring = outline_offsets(height, width)
                for row in range(window[0], window[2] - height + 2):
                    for col in range(window[1], window[3] - width + 2):
                        tick()
                        if not any(_inside((row + dr, col + dc), before) for dr, dc in foot + ring):
                            continue
                        squares = tuple(((row + dr, col + dc), coloured) for (dr, dc), coloured in picture.squares)
                        if any(cell in start_coloured for cell, _ in squares):
                            continue
                        lay = _Lay(turn, index, picture.rotation, row, col, squares)
                        lays.append((lay, model.new_bool_var(f"lay_t{turn}_c{index}_r{picture.rotation}_{row}_{col}")))
                        tick.lays = len(lays)
    return lays


def _index_lays(lays: list[tuple[_Lay, cp_model.IntVar]], order: Sequence[Card], tick: _Ticker) -> _Index:
    """The placements indexed by turn, card and (turn, square)."""
    index = _Index({}, {}, {}, {}, {})
    for lay, var in lays:
        tick()
        index.by_turn.setdefault(lay.turn, []).append(var)
        index.by_card.setdefault(lay.index, []).append(var)
        card = order[lay.index]
        for cell, coloured in lay.squares:
            index.covering.setdefault((lay.turn, cell), []).append(var)
            if coloured:
                index.colouring.setdefault((lay.turn, cell), []).append((var, card.mask))
            if card.fair_weather:
                index.fair_covering.setdefault((lay.turn, cell), []).append(var)
    return index


def add_one_card_a_turn(
    model: cp_model.CpModel, order: Sequence[Card], turns: int, last_card: int, index: _Index
) -> None:
    """Exactly one card a turn, each card at most once, and of two copies of one card the later is laid only if
    the earlier one is (it is in hand no later)."""
    for turn in range(1, turns + 1):
        model.add_exactly_one(index.by_turn.get(turn, []))
    for variables in index.by_card.values():
        model.add_at_most_one(variables)
    by_card = index.by_card
    for i in range(STARTING_CARDS, last_card):
        for j in range(i + 1, last_card):
            if order[i] == order[j] and i in by_card and j in by_card:
                model.add(sum(by_card[j]) <= sum(by_card[i]))


def add_covered(
    model: cp_model.CpModel,
    cells: list[Cell],
    start_grid: dict[Cell, Square],
    turns: int,
    index: _Index,
    tick: _Ticker,
) -> dict[tuple[int, Cell], cp_model.IntVar | int]:
    """Covered after turn t (a Boolean, or the constant of the start): implied by the cover of t - 1 and by each
    placement covering the square on t, and by nothing else."""
    covered: dict[tuple[int, Cell], cp_model.IntVar | int] = {}
    for cell in cells:
        tick()
        covered[(0, cell)] = 1 if cell in start_grid else 0
        for turn in range(1, turns + 1):
            previous = covered[(turn - 1, cell)]
            now = index.covering.get((turn, cell), [])
            if _is_const(previous, 1) or not now:
                covered[(turn, cell)] = previous
                continue
            var = model.new_bool_var(f"cov_t{turn}_{cell}")
            if not isinstance(previous, int):
                model.add_implication(previous, var)
            for lay_var in now:
                model.add_implication(lay_var, var)
            model.add(var <= sum(now) + previous)
            covered[(turn, cell)] = var
    return covered


def add_no_cover_of_colour(
    model: cp_model.CpModel, cells: list[Cell], turns: int, index: _Index, tick: _Ticker
) -> None:
    """Legality: a card covers no square coloured before its turn (one linear row per turn and square)."""
    for turn in range(2, turns + 1):
        for cell in cells:
            tick()
            now = index.covering.get((turn, cell))
            if not now:
                continue
            earlier = [var for t in range(1, turn) for var, _ in index.colouring.get((t, cell), [])]
            if earlier:
                model.add(sum(now) + sum(earlier) <= 1)


def add_touching(
    model: cp_model.CpModel,
    lays: list[tuple[_Lay, cp_model.IntVar]],
    start_grid: dict[Cell, Square],
    covered: dict[tuple[int, Cell], cp_model.IntVar | int],
    tick: _Ticker,
) -> None:
    """Legality: a card overlaps or shares a side with a square covered before its turn."""
    for lay, var in lays:
        tick()
        if lay.turn == 1:
            touching = any(
                cell in start_grid or (cell[0] + dr, cell[1] + dc) in start_grid
                for cell, _ in lay.squares
                for dr, dc in _ORTHOGONAL
            )
            if not touching:
                model.add(var == 0)
            continue
        reach = {cell for cell, _ in lay.squares}
        reach |= {(cell[0] + dr, cell[1] + dc) for cell, _ in lay.squares for dr, dc in _ORTHOGONAL}
        support = [covered[(lay.turn - 1, cell)] for cell in reach if (lay.turn - 1, cell) in covered]
        if any(_is_const(s, 1) for s in support):
            continue
        variables = [s for s in support if not isinstance(s, int)]
        if not variables:
            model.add(var == 0)
        else:
            model.add_bool_or([*variables, var.Not()])


def _final_colours(
    cells: list[Cell],
    start_grid: dict[Cell, Square],
    start_coloured: set[Cell],
    turns: int,
    index: _Index,
    tick: _Ticker,
) -> dict[Cell, list[tuple[cp_model.IntVar | int, int]]]:
    """Final picture: per square, the (literal, terrain mask) of each placement that can colour it (at most one
    ever colours a square)."""
    final_colour: dict[Cell, list[tuple[cp_model.IntVar | int, int]]] = {}
    for cell in cells:
        tick()
        entries: list[tuple[cp_model.IntVar | int, int]] = []
        if cell in start_coloured:
            entries.append((1, start_grid[cell].mask))
        for turn in range(1, turns + 1):
            entries.extend(index.colouring.get((turn, cell), []))
        if entries:
            final_colour[cell] = entries
    return final_colour


def add_late(
    model: cp_model.CpModel, cells: list[Cell], turns: int, index: _Index, tick: _Ticker
) -> dict[tuple[int, Cell], cp_model.IntVar]:
    """Top card laid on turn s or later: late[s, cell] >= every placement covering the cell on turn >= s."""
    late: dict[tuple[int, Cell], cp_model.IntVar] = {}
    for cell in cells:
        tick()
        following = None
        for turn in range(turns, 0, -1):
            now = index.covering.get((turn, cell), [])
            if following is None and not now:
                continue
            var = model.new_bool_var(f"late_t{turn}_{cell}")
            if following is not None:
                model.add_implication(following, var)
            for lay_var in now:
                model.add_implication(lay_var, var)
            late[(turn, cell)] = var
            following = var
    return late


def add_fair(
    model: cp_model.CpModel,
    cells: list[Cell],
    start_grid: dict[Cell, Square],
    turns: int,
    index: _Index,
    late: dict[tuple[int, Cell], cp_model.IntVar],
    tick: _Ticker,
) -> dict[Cell, cp_model.IntVar | int]:
    """Visible Fair Weather: the top card is a Fair Weather card (covered on turn t, nothing later)."""
    fair: dict[Cell, cp_model.IntVar | int] = {}
    for cell in cells:
        tick()
        options: list[cp_model.IntVar] = []
        always = False
        if cell in start_grid and start_grid[cell].fair_weather:
            if (1, cell) in late:
                options.append(late[(1, cell)].Not())
            else:
                always = True  # a starting Fair Weather square nothing can cover
        for turn in range(1, turns + 1):
            fair_now = index.fair_covering.get((turn, cell))
            if not fair_now:
                continue
            later = late.get((turn + 1, cell))
            if later is None:
                options.extend(fair_now)
                continue
            top = model.new_bool_var(f"fairtop_t{turn}_{cell}")
            model.add(top <= sum(fair_now))
            model.add_implication(top, later.Not())
            options.append(top)
        if always:
            fair[cell] = 1
            continue
        if options:
            var = model.new_bool_var(f"fair_{cell}")
            model.add(var <= sum(options))
            fair[cell] = var
    return fair


def add_tents(
    model: cp_model.CpModel,
    tokens: Sequence[Token],
    turns: int,
    tent_cells: list[Cell],
    final_colour: dict[Cell, list[tuple[cp_model.IntVar | int, int]]],
    final_covered: dict[Cell, cp_model.IntVar | int],
    tick: _Ticker,
) -> tuple[dict[tuple[Token, Cell], cp_model.IntVar], dict[Cell, cp_model.LinearExpr]]:
    """Tents: each token at most once, `turns` in all, one per square, on a square covered at the end and
    coloured by no card. Returns the tent Booleans and each square's occupancy."""
    tent: dict[tuple[Token, Cell], cp_model.IntVar] = {}
    for token in tokens:
        for cell in tent_cells:
            tick()
            tent[(token, cell)] = model.new_bool_var(f"tent_{token.name}_{cell}")
    for token in tokens:
        model.add_at_most_one(tent[(token, cell)] for cell in tent_cells)
    model.add(sum(tent.values()) == turns)
    occupied: dict[Cell, cp_model.LinearExpr] = {}
    for cell in tent_cells:
        tick()
        here = sum(tent[(token, cell)] for token in tokens)
        occupied[cell] = here
        colour = [var for var, _ in final_colour.get(cell, [])]
        cover = final_covered[cell]
        model.add(here + sum(colour) <= cover)
    return tent, occupied


def add_hall(
    model: cp_model.CpModel,
    turns: int,
    tent_cells: list[Cell],
    occupied: dict[Cell, cp_model.LinearExpr],
    late: dict[tuple[int, Cell], cp_model.IntVar],
    tick: _Ticker,
) -> None:
    """Hall: at most T - s + 1 tent squares whose top card was laid on turn s or later."""
    for s in range(2, turns + 1):
        late_tents = []
        for cell in tent_cells:
            tick()
            if (s, cell) not in late:
                continue
            both = model.new_bool_var(f"latetent_s{s}_{cell}")
            model.add(both >= occupied[cell] + late[(s, cell)] - 1)
            late_tents.append(both)
        if len(late_tents) > turns - s + 1:
            model.add(sum(late_tents) <= turns - s + 1)


def add_wilderness_base(
    model: cp_model.CpModel,
    tent_cells: list[Cell],
    tent: dict[tuple[Token, Cell], cp_model.IntVar],
    final_colour: dict[Cell, list[tuple[cp_model.IntVar | int, int]]],
    tick: _Ticker,
) -> cp_model.IntVar:
    """Wilderness base points: 1 per terrain coloured among the 8 squares around its tent."""
    token = Token.WILDERNESS
    present = []
    for terrain in Terrain:
        has = model.new_bool_var(f"wild_{terrain.name}")
        present.append(has)
        for cell in tent_cells:
            tick()
            around = _colour_literals_around(final_colour, cell, terrain.bit)
            if not around:
                model.add(has == 0).only_enforce_if(tent[(token, cell)])
            elif not any(_is_const(v, 1) for v in around):
                model.add(has <= sum(around)).only_enforce_if(tent[(token, cell)])
    base = model.new_int_var(0, WILDERNESS_CAP, "base_WILDERNESS")
    model.add(base == sum(present))
    return base


def add_terrain_base(
    model: cp_model.CpModel,
    token: Token,
    tent_cells: list[Cell],
    tent: dict[tuple[Token, Cell], cp_model.IntVar],
    final_colour: dict[Cell, list[tuple[cp_model.IntVar | int, int]]],
    tick: _Ticker,
) -> cp_model.IntVar:
    """A terrain token's base points, disaggregated: the points on each square (0 without the tent), summed (a
    tighter LP than one enforced row per square)."""
    cap = TERRAIN_CAP
    base = model.new_int_var(0, cap, f"base_{token.name}")
    bit = Terrain(int(token)).bit
    shares = []
    for cell in tent_cells:
        tick()
        around = _colour_literals_around(final_colour, cell, bit)
        if not around:
            continue
        share = model.new_int_var(0, min(cap, len(around)), f"pts_{token.name}_{cell}")
        model.add(share <= len(around) * tent[(token, cell)])
        model.add(share <= sum(around))
        shares.append(share)
    model.add(base <= sum(shares))
    return base


def add_doubling(
    model: cp_model.CpModel,
    token: Token,
    base: cp_model.IntVar,
    cap: int,
    doubled_ok: cp_model.IntVar,
    tent_cells: list[Cell],
    tent: dict[tuple[Token, Cell], cp_model.IntVar],
    fair: dict[Cell, cp_model.IntVar | int],
    tick: _Ticker,
) -> cp_model.IntVar:
    """Fair Weather: the token's extra points (its base once more) only with a visible Fair Weather square among
    the 8 around its tent."""
    for cell in tent_cells:
        tick()
        near = [fair.get((cell[0] + dr, cell[1] + dc)) for dr, dc in SURROUNDING]
        near = [v for v in near if v is not None]
        if any(_is_const(v, 1) for v in near):
            continue
        if not near:
            model.add_implication(tent[(token, cell)], doubled_ok.Not())
        else:
            model.add(doubled_ok <= sum(near)).only_enforce_if(tent[(token, cell)])
    extra = model.new_int_var(0, cap * (FAIR_WEATHER_FACTOR - 1), f"extra_{token.name}")
    model.add(extra <= base * (FAIR_WEATHER_FACTOR - 1))
    model.add(extra <= cap * (FAIR_WEATHER_FACTOR - 1) * doubled_ok)
    return extra


def add_scores(
    model: cp_model.CpModel,
    tokens: Sequence[Token],
    tent_cells: list[Cell],
    tent: dict[tuple[Token, Cell], cp_model.IntVar],
    final_colour: dict[Cell, list[tuple[cp_model.IntVar | int, int]]],
    fair: dict[Cell, cp_model.IntVar | int],
    tick: _Ticker,
) -> cp_model.LinearExpr:
    """Each token's base points plus its Fair Weather extra; returns the sum (the objective)."""
    terms = []
    for token in tokens:
        used = [tent[(token, cell)] for cell in tent_cells]
        doubled_ok = model.new_bool_var(f"double_{token.name}")
        if token is Token.WILDERNESS:
            base = add_wilderness_base(model, tent_cells, tent, final_colour, tick)
            cap = WILDERNESS_CAP
        else:
            base = add_terrain_base(model, token, tent_cells, tent, final_colour, tick)
            cap = TERRAIN_CAP
        model.add(base <= cap * sum(used))
        extra = add_doubling(model, token, base, cap, doubled_ok, tent_cells, tent, fair, tick)
        terms.extend([base, extra])
    return sum(terms)


def build_round_model(
    order: Sequence[Card],
    turns: int,
    *,
    hand_size: int = HAND_SIZE,
    tokens: Sequence[Token] = tuple(Token),
    growth: int | None = None,
    budget: Budget | None = None,
) -> RoundModel:
    """The model of the module docstring. `growth=None`: the whole reachable window (3 squares per turn)."""
    whole_growth = REACH_PER_TURN * turns
    growth = whole_growth if growth is None else min(growth, whole_growth)
    tokens = sorted(set(tokens))
    model = cp_model.CpModel()
    start_grid = starting_table(order[0], order[1]).grid
    start_coloured = {cell for cell, sq in start_grid.items() if sq.coloured}
    last_card = round_card_count(order, turns, hand_size)
    tick = _Ticker(budget)
    lays = add_lays(model, order, turns, hand_size, growth, last_card, start_coloured, tick)
    index = _index_lays(lays, order, tick)
    add_one_card_a_turn(model, order, turns, last_card, index)
    cells = sorted(set(start_grid) | {cell for (_, cell) in index.covering})
    covered = add_covered(model, cells, start_grid, turns, index, tick)
    add_no_cover_of_colour(model, cells, turns, index, tick)
    add_touching(model, lays, start_grid, covered, tick)
    final_colour = _final_colours(cells, start_grid, start_coloured, turns, index, tick)
    late = add_late(model, cells, turns, index, tick)
    fair = add_fair(model, cells, start_grid, turns, index, late, tick)
    final_covered = {cell: covered[(turns, cell)] for cell in cells}
    tent_cells = [cell for cell in cells if cell not in start_coloured]
    tent, occupied = add_tents(model, tokens, turns, tent_cells, final_colour, final_covered, tick)
    add_hall(model, turns, tent_cells, occupied, late, tick)
    objective = add_scores(model, tokens, tent_cells, tent, final_colour, fair, tick)
    model.maximize(objective)
    return RoundModel(model, lays, tent, objective, growth >= whole_growth, growth)


def hint_round(
    round_model: RoundModel,
    plays: Sequence[tuple[Placement, Tent]],
    order: Sequence[Card],
    budget: Budget | None = None,
) -> None:
    """Warm start: hint the placements and tents of a known legal round (only the placement and tent Booleans)."""
    wanted = set()
    for turn, (placement, _) in enumerate(plays, start=1):
        wanted.add((turn, placement.card, tuple(sorted(placement.squares().items()))))
    for number, (lay, var) in enumerate(round_model.lays):
        if budget is not None and number % MODEL_CHECK_STRIDE == 0:
            budget.check()
        key = (lay.turn, order[lay.index], tuple(sorted(lay.squares)))
        round_model.model.add_hint(var, key in wanted)
    tents = {(tent.token, tent.cell) for _, tent in plays}
    for key, var in round_model.tents.items():
        round_model.model.add_hint(var, key in tents)


def solve_round(
    order: Sequence[Card],
    turns: int,
    budget: Budget,
    *,
    hand_size: int = HAND_SIZE,
    tokens: Sequence[Token] = tuple(Token),
    growth: int | None = None,
    warm: Sequence[tuple[Placement, Tent]] = (),
    seed: int = 0,
    workers: int = cpsat.DEFAULT_WORKERS,
) -> CpRound:
    """Build, warm-start, solve; decode the round, replay it through the rules model and re-score it."""
    import time

    started = time.monotonic()
    round_model = build_round_model(order, turns, hand_size=hand_size, tokens=tokens, growth=growth, budget=budget)
    if warm:
        hint_round(round_model, warm, order, budget)
    build_s = time.monotonic() - started
    remaining = budget.remaining()
    kept = CP_SAT_STOP_MARGIN_S + teardown_s(len(round_model.lays))
    if remaining < 2 * kept:
        raise SolveInterrupted("deadline")
    result = cpsat.solve(
        round_model.model, budget, seed=seed, workers=workers, time_fraction=(remaining - kept) / remaining
    )
    if not result.has_solution:
        return CpRound(
            [],
            -1,
            result.bound,
            None,
            result.status,
            round_model.whole,
            len(round_model.lays),
            build_s,
            result.wall_time_s,
        )
    plays = decode(round_model, result, order, turns)
    table = starting_table(order[0], order[1])
    for placement, tent in plays:
        table = table.place(placement).pitch(tent)  # the rules model checks every step
    score = player_scores(table, 1)[0]
    if result.proof is Proof.OPTIMAL and result.objective is not None and score != round(result.objective):
        raise RuntimeError(f"CP-SAT claims {result.objective} but the rules model scores the round {score}")
    proof = Proof.OPTIMAL if result.proof is Proof.OPTIMAL and round_model.whole else None
    return CpRound(
        plays,
        score,
        result.bound,
        proof,
        result.status,
        round_model.whole,
        len(round_model.lays),
        build_s,
        result.wall_time_s,
    )


def decode(
    round_model: RoundModel, result: cpsat.CpSolveResult, order: Sequence[Card], turns: int
) -> list[tuple[Placement, Tent]]:
    """The placements turn by turn, and the tents given to turns by the laying turn of their square's top card
    (ascending: Hall's condition makes it fit)."""
    laid: dict[int, _Lay] = {}
    for lay, var in round_model.lays:
        if result.boolean(var):
            laid[lay.turn] = lay
    top_turn: dict[Cell, int] = {}
    for turn in sorted(laid):
        for cell, _ in laid[turn].squares:
            top_turn[cell] = turn
    tents = [(token, cell) for (token, cell), var in round_model.tents.items() if result.boolean(var)]
    tents.sort(key=lambda item: (top_turn.get(item[1], 0), item[1], item[0]))
    plays = []
    for turn in range(1, turns + 1):
        lay = laid[turn]
        token, (row, col) = tents[turn - 1]
        plays.append((Placement(order[lay.index], lay.row, lay.col, lay.rotation), Tent(0, token, row, col)))
    return plays
