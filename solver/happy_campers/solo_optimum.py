"""Happy Campers ceilings on short games: the exact optimum over the dice and the clairvoyant expectation.

Two numbers bound what any hint can reach from a position:

- the *optimum* (expectimax): the best expected final score a player can reach when every future roll is
  two fair dice, unknown until it is rolled. Exact: every roll with its probability (1/36 a double, 1/18
  otherwise), every legal drawing, memoised on maps canonical under the rectangle's flips and half turn (every
  card is invariant under them, see `hint._symmetries`);
- the *clairvoyant expectation*: the mean over the dice of the best final score when the whole roll sequence
  is known in advance (`maximise.clairvoyant_max` answers one sequence of the one-map game with CP-SAT;
  `single_clairvoyant` / `solo_clairvoyant` here answer one sequence by exact search, and
  `expected_clairvoyant_*` average them over every sequence, exactly).

Knowing the rolls cannot hurt, so optimum <= clairvoyant expectation; any player's expected score (the hint's
included) is <= the optimum; tests/happy_campers/test_solo_optimum.py checks both exactly on small positions,
and checks this solver against the generic `core.expectimax` on the rules model's own `GameState`s.

Two games, as the rules model plays them:

- one map (`SingleMapState`, the game of the own-map hint and of `maximise.clairvoyant_max`): a roll must be
  drawn (either option, any legal drawing) while one fits; the first roll that fits nowhere ends the game;
  doubles are plain rolls;
- solo (`modes.SoloState`): two maps, one option of the roll on each (a double on both, the gap rule), one
  drawing and the drawn map's one extra turn when no assignment fits both maps; the lower final score counts.

Why a solver of its own next to `core.expectimax`: `SoloState.legal_actions()` lists every pair of drawings
and `child` re-checks each against that list, so the generic search is quadratic in the pairs; here
drawings are bitmasks from the rules model's placement tables, successor maps are deduplicated by their
canonical form before pairing, and each map's successors are computed once per (map, roll). It is exact,
not a bound: no pruning by estimates. It is meant for short games (a few rolls left: a nearly full map or a
small one); `max_states` and the budget stop it on anything larger (`TooLarge`, `SolveInterrupted`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from campsolver.solver.core.budget import Budget
from campsolver.solver.core.game import CHANCE, TERMINAL
from campsolver.solver.happy_campers.hint import _canonical, _flat_after, _symmetries
from campsolver.solver.happy_campers.modes import SOLO_DOUBLE_GAP, SoloState, roll_distribution
from campsolver.solver.happy_campers.policies import board_tables, dilate
from campsolver.solver.happy_campers.rules import (
    ANY_FACE,
    DEFAULT_COMPONENTS,
    Challenge,
    Components,
    Grid,
    IllegalMove,
    Placement,
    fill,
    legal_placements,
    roll_options,
    score,
    validate_grid,
    validate_roll,
)

Roll = tuple[int, int]
Flat = tuple[int, ...]

#: The 21 rolls with float probabilities (the order of `modes.roll_distribution`).
ROLLS: tuple[tuple[Roll, float], ...] = tuple((roll, float(p)) for roll, p in roll_distribution())
#: Default cap on memoised states of one solve (the solver refuses larger games rather than run for hours).
DEFAULT_MAX_STATES = 2_000_000
#: The budget is polled every this many new states.
_CHECK_EVERY = 256

# Solo phases (as `policies`: both maps play; map k has its one extra turn; over).
NORMAL = -1
OVER = -2


class TooLarge(RuntimeError):
    """The game has more states than the solve may memoise (`max_states`): not a short game."""


# ---------------------------------------------------------------------------------------------------------
# The one-map game as a GameState (the reference the fast solver is checked against)
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SingleMapState:
    """The one-map game (forced play, doubles plain, the first roll that fits nowhere ends it) as a `GameState`.

    Built on the rules model alone (`rules.legal_placements`, `rules.score`), for `core.expectimax` in the
    tests; `roll` is None at a chance node.
    """

    grid: Grid
    challenges: tuple[Challenge, ...] = ()
    components: Components = DEFAULT_COMPONENTS
    roll: Roll | None = None
    over: bool = False

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return CHANCE if self.roll is None else 0

    def chance_outcomes(self) -> tuple[tuple[Roll, Fraction], ...]:
        return roll_distribution() if self.current_player() == CHANCE else ()

    def legal_actions(self) -> list[Placement]:
        if self.current_player() != 0:
            return []
        assert self.roll is not None
        return legal_placements(self.grid, self.roll, self.components)

    def child(self, action: Roll | Placement) -> SingleMapState:
        if self.current_player() == CHANCE:
            roll = validate_roll(action)  # type: ignore[arg-type]
            if not legal_placements(self.grid, roll, self.components):
                return SingleMapState(self.grid, self.challenges, self.components, None, True)
            return SingleMapState(self.grid, self.challenges, self.components, roll)
        if not isinstance(action, Placement) or action not in self.legal_actions():
            raise IllegalMove(f"{action!r} is not a legal drawing now")
        return SingleMapState(fill(self.grid, action.cells, action.element), self.challenges, self.components)

    def returns(self) -> tuple[float]:
        return (float(score(self.grid, self.challenges, self.components).total),)


# ---------------------------------------------------------------------------------------------------------
# Maps as flat tuples: drawings, canonical forms, scores (cached)
# ---------------------------------------------------------------------------------------------------------


class _Maps:
    """One component set and card list: the drawings of each roll on a map, and final scores, cached."""

    def __init__(self, components: Components, challenges: tuple[Challenge, ...], gap: int = SOLO_DOUBLE_GAP) -> None:
        self.components = components
        self.challenges = challenges
        self.gap = gap
        self.perms = _symmetries(components.rows, components.cols)
        self.tables = board_tables(components)
        # roll -> per option: (shape indices, element values)
        self.options: dict[Roll, tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]] = {}
        for roll, _ in ROLLS:
            per_option = []
            for option in roll_options(roll):
                shapes = components.shape_indices(option.shape_face)
                elements = (
                    tuple(int(e) for e in components.elements)
                    if option.element_face == ANY_FACE
                    else (int(components.elements[option.element_face - 1]),)
                )
                per_option.append((shapes, elements))
            self.options[roll] = tuple(per_option)
        self._successors: dict[tuple[Flat, Roll, bool, int], tuple[Flat, ...]] = {}
        self._scores: dict[Flat, int] = {}

    def canonical(self, flat: Sequence[int]) -> Flat:
        return _canonical(flat, self.perms)

    def drawn(self, flat: Flat) -> int:
        mask = 0
        for i, v in enumerate(flat):
            if v:
                mask |= 1 << i
        return mask

    def final(self, flat: Flat) -> int:
        """`rules.score(map).total` (Festival counts as won: one map, or solo)."""
        found = self._scores.get(flat)
        if found is None:
            cols = self.components.cols
            grid = tuple(tuple(flat[r * cols : (r + 1) * cols]) for r in range(self.components.rows))
            found = score(grid, self.challenges, self.components).total
            self._scores[flat] = found
        return found

    def option_successors(self, flat: Flat, roll: Roll, option_index: int, detached: bool) -> tuple[Flat, ...]:
        """Canonical maps after every legal drawing of one option of `roll` (deduplicated); `detached`: a solo
        double, where a drawing may also lie apart from the drawn squares, more than `gap` steps away
        (`modes.solo_double_placements`)."""
        if roll[0] > roll[1]:
            roll = (roll[1], roll[0])  # the same two options
        key = (flat, roll, detached, option_index)
        found = self._successors.get(key)
        if found is not None:
            return found
        drawn = self.drawn(flat)
        halo = drawn
        if detached and drawn:
            for _ in range(self.gap):
                halo = dilate(halo, self.tables)
        shapes, elements = self.options[roll][option_index]
        seen: set[Flat] = set()
        for shape_index in shapes:
            for mask, around in self.tables.positions[shape_index]:
                if mask & drawn:
                    continue
                if drawn and not around & drawn and not (detached and not mask & halo):
                    continue
                for element in elements:
                    seen.add(self.canonical(_flat_after(flat, mask, element)))
        result = tuple(sorted(seen))
        self._successors[key] = result
        return result

    def successors(self, flat: Flat, roll: Roll) -> tuple[Flat, ...]:
        """Canonical maps after every legal drawing of `roll` under the ordinary rule (either option)."""
        found: set[Flat] = set()
        if roll[0] > roll[1]:
            roll = (roll[1], roll[0])
        for k in range(len(self.options[roll])):
            found.update(self.option_successors(flat, roll, k, False))
        return tuple(sorted(found))


class _Counter:
    """States memoised so far; polls the budget and enforces `max_states`."""

    def __init__(self, budget: Budget | None, max_states: int) -> None:
        self.budget = budget
        self.max_states = max_states
        self.states = 0

    def tick(self) -> None:
        self.states += 1
        if self.states % _CHECK_EVERY == 0:
            if self.budget is not None:
                self.budget.check()
            if self.states > self.max_states:
                raise TooLarge(f"more than {self.max_states} states: not a short game")


# ---------------------------------------------------------------------------------------------------------
# One map
# ---------------------------------------------------------------------------------------------------------


class SingleOptimum:
    """The exact optimum of the one-map game, memoised across calls (one card list and component set).

    `value(grid)`: the expected final score under optimal play from `grid` before a roll; `move_values(grid,
    roll)`: the same after each legal drawing of `roll` (so the best of them is the optimal move); `play(grid,
    rolls)`: the optimal player's final score on a known roll sequence (it does not look ahead: its mean over
    the dice is `value(grid)`).
    """

    def __init__(
        self,
        challenges: Iterable[Challenge] = (),
        components: Components = DEFAULT_COMPONENTS,
        *,
        budget: Budget | None = None,
        max_states: int = DEFAULT_MAX_STATES,
    ) -> None:
        self.maps = _Maps(components, tuple(challenges))
        self.counter = _Counter(budget, max_states)
        self.memo: dict[Flat, float] = {}

    @property
    def states(self) -> int:
        return self.counter.states

    def key(self, grid: Grid) -> Flat:
        return self.maps.canonical([v for row in grid for v in row])

    def value(self, grid: Grid) -> float:
        return self._value(self.key(validate_grid(grid, self.maps.components)))

    def move_values(self, grid: Grid, roll: Roll) -> dict[Placement, float]:
        """Every legal drawing of `roll` on `grid` (the rules model's list) with its exact optimal value."""
        components = self.maps.components
        return {
            p: self._value(self.key(fill(grid, p.cells, p.element)))
            for p in legal_placements(validate_grid(grid, components), validate_roll(roll), components)
        }

    def best_after(self, flat: Flat, roll: Roll) -> Flat | None:
        """The optimal move's canonical map after `roll` (first of the best in sorted order), None: game over."""
        nexts = self.maps.successors(flat, roll)
        if not nexts:
            return None
        return max(nexts, key=self._value)

    def play(self, grid: Grid, rolls: Sequence[Roll]) -> int:
        """The optimal player's final score when the rolls come in this order (`ValueError` if they run out)."""
        flat = self.key(grid)
        for roll in rolls:
            after = self.best_after(flat, validate_roll(roll))
            if after is None:
                return self.maps.final(flat)
            flat = after
        raise ValueError("the rolls ran out before the game ended")

    def _value(self, flat: Flat) -> float:
        """Expected final score under optimal play from canonical `flat`, before the next roll."""
        found = self.memo.get(flat)
        if found is not None:
            return found
        self.counter.tick()
        total = 0.0
        for roll, p in ROLLS:
            nexts = self.maps.successors(flat, roll)
            total += p * (max(self._value(n) for n in nexts) if nexts else self.maps.final(flat))
        self.memo[flat] = total
        return total


def single_optimum(
    grid: Grid | None,
    challenges: Iterable[Challenge] = (),
    components: Components = DEFAULT_COMPONENTS,
    *,
    budget: Budget | None = None,
    max_states: int = DEFAULT_MAX_STATES,
) -> SingleOptimum:
    """A `SingleOptimum` that has solved the game from `grid` (blank map when None): `.value(grid)` is then free."""
    solver = SingleOptimum(challenges, components, budget=budget, max_states=max_states)
    solver.value(grid if grid is not None else _blank(components))
    return solver


def canonical_map(grid: Grid, components: Components = DEFAULT_COMPONENTS) -> Flat:
    """The key `SingleOptimum.move_values` / `SoloOptimum.move_values` use for a map."""
    return _canonical([v for row in grid for v in row], _symmetries(components.rows, components.cols))


def single_clairvoyant(
    grid: Grid, rolls: Sequence[Roll], challenges: Iterable[Challenge] = (), components: Components = DEFAULT_COMPONENTS
) -> int:
    """The best final score of the one-map game for a known roll sequence (the question `maximise.clairvoyant_max`
    answers with CP-SAT), by exact search; the rolls must last until the game ends (else `ValueError`)."""
    maps = _Maps(components, tuple(challenges))
    memo: dict[tuple[Flat, int], int] = {}
    roll_list = [validate_roll(r) for r in rolls]

    def best(flat: Flat, index: int) -> int:
        key = (flat, index)
        if key in memo:
            return memo[key]
        if index == len(roll_list):
            if any(maps.successors(flat, r) for r, _ in ROLLS):
                raise ValueError("the rolls ran out before the game ended")
            result = maps.final(flat)
        else:
            nexts = maps.successors(flat, roll_list[index])
            result = max(best(n, index + 1) for n in nexts) if nexts else maps.final(flat)
        memo[key] = result
        return result

    return best(maps.canonical([v for row in grid for v in row]), 0)


def expected_single_clairvoyant(
    grid: Grid,
    challenges: Iterable[Challenge] = (),
    components: Components = DEFAULT_COMPONENTS,
    *,
    budget: Budget | None = None,
    max_states: int = DEFAULT_MAX_STATES,
) -> float:
    """The exact mean over the dice of `single_clairvoyant`: E[max over plays of the final score | the rolls].

    By the tree of roll prefixes: after a prefix, the *frontier* is every map some play of it reaches that is
    still in the game; a map that cannot take the next roll ends there and its final score joins the best
    ended score so far. The value of a sequence is the best score of any ended map, so a node depends only on
    (frontier, best so far): memoised on that.
    """
    maps = _Maps(components, tuple(challenges))
    counter = _Counter(budget, max_states)
    memo: dict[tuple[frozenset[Flat], int], float] = {}

    def expect(frontier: frozenset[Flat], best: int) -> float:
        if not frontier:
            return float(best)
        key = (frontier, best)
        found = memo.get(key)
        if found is not None:
            return found
        counter.tick()
        total = 0.0
        for roll, p in ROLLS:
            ended = best
            nexts: set[Flat] = set()
            for flat in frontier:
                after = maps.successors(flat, roll)
                if after:
                    nexts.update(after)
                else:
                    ended = max(ended, maps.final(flat))
            total += p * expect(frozenset(nexts), ended)
        memo[key] = total
        return total

    start = maps.canonical([v for row in grid for v in row])
    return expect(frozenset({start}), _MINUS_INFINITY_SCORE)


#: Below any final score (scores are at least -cells with Dangerous Animals): "no map has ended yet".
_MINUS_INFINITY_SCORE = -(10**6)


# ---------------------------------------------------------------------------------------------------------
# Solo (two maps, the lower score counts)
# ---------------------------------------------------------------------------------------------------------

SoloKey = tuple[Flat, Flat, int]


class _SoloGame:
    """Solo flow of `modes.SoloState` on canonical flat maps: the moves of a roll as successor states."""

    def __init__(self, maps: tuple[_Maps, _Maps]) -> None:
        self.maps = maps
        self.swap = maps[0].challenges == maps[1].challenges  # then (a, b) and (b, a) are the same position

    def key(self, m0: Flat, m1: Flat, phase: int) -> SoloKey:
        if self.swap and m1 < m0:
            return (m1, m0, 1 - phase if phase >= 0 else phase)
        return (m0, m1, phase)

    def final(self, m0: Flat, m1: Flat) -> int:
        return min(self.maps[0].final(m0), self.maps[1].final(m1))

    def moves(self, state: SoloKey, roll: Roll) -> tuple[str, list]:
        """What `roll` allows from `state`: ("over", []) nothing is drawn and the game is over; ("last", [(k,
        maps after)]) the extra turn of map k, the game over after it; ("pairs", [(successors of map 0,
        successors of map 1)]) one block per assignment of the options; ("single", [(k, successors of map k)])
        one drawing on map k, which then gets its extra turn."""
        m0, m1, phase = state
        flats = (m0, m1)
        if roll[0] > roll[1]:
            roll = (roll[1], roll[0])  # the same two options
        if phase >= 0:
            after = self.maps[phase].successors(flats[phase], roll)
            return ("last", [(phase, after)]) if after else ("over", [])
        double = roll[0] == roll[1]
        count = len(self.maps[0].options[roll])
        per_map = [[self.maps[m].option_successors(flats[m], roll, k, double) for k in range(count)] for m in (0, 1)]
        if double:
            blocks = [(per_map[0][0], per_map[1][0])] if per_map[0][0] and per_map[1][0] else []
        else:
            blocks = [(per_map[0][k], per_map[1][1 - k]) for k in (0, 1) if per_map[0][k] and per_map[1][1 - k]]
        if blocks:
            return "pairs", blocks
        singles = []
        for m in (0, 1):
            after = set()
            for k in range(count):
                after.update(per_map[m][k])
            if after:
                singles.append((m, tuple(sorted(after))))
        return ("single", singles) if singles else ("over", [])


class SoloOptimum:
    """The exact optimum of solo mode, memoised across calls (one pair of card lists, components and gap rule).

    `value(state)`: the expected lower final score under optimal play from a `modes.SoloState` before a roll
    (or over); `move_values(state, roll)`: the same after each move of `roll`, keyed by `key(state after)`;
    `play(state, rolls)`: the optimal player's score on a known roll sequence (it does not look ahead: its
    mean over the dice is `value(state)`).
    """

    def __init__(
        self,
        challenges: tuple[Iterable[Challenge], Iterable[Challenge]] = ((), ()),
        components: Components = DEFAULT_COMPONENTS,
        *,
        double_gap: int = SOLO_DOUBLE_GAP,
        budget: Budget | None = None,
        max_states: int = DEFAULT_MAX_STATES,
    ) -> None:
        self.template = SoloState.new((tuple(challenges[0]), tuple(challenges[1])), components, double_gap=double_gap)
        self.game = _SoloGame(_solo_maps(self.template))
        self.counter = _Counter(budget, max_states)
        self.memo: dict[SoloKey, float] = {}

    @property
    def states(self) -> int:
        return self.counter.states

    def key(self, state: SoloState) -> SoloKey:
        """(canonical map 0, canonical map 1, phase) of a state before a roll or over; the maps swapped into
        order when both have the same cards. Phase: -1 both maps play on, k map k has its extra turn, -2 over."""
        if state.roll is not None and not state.over:
            raise ValueError("a solo key is taken before a roll or when the game is over")
        flats = [self.game.maps[m].canonical([v for row in state.maps[m] for v in row]) for m in (0, 1)]
        phase = OVER if state.over else (NORMAL if state.last_turn_map is None else state.last_turn_map)
        return self.game.key(flats[0], flats[1], phase)

    def value(self, state: SoloState) -> float:
        self._check(state)
        return self._value(self.key(state))

    def move_values(self, state: SoloState, roll: Roll) -> dict[SoloKey, float]:
        """The key of the state after each move `roll` allows, with its exact optimal value (empty: over)."""
        self._check(state)
        return {k: self._value(k) for k in self.successor_keys(self.key(state), validate_roll(roll))}

    def successor_keys(self, start: SoloKey, roll: Roll) -> list[SoloKey]:
        """The states after each move of `roll` from `start` (empty: nothing can be drawn, the game is over)."""
        m0, m1, _ = start
        kind, blocks = self.game.moves(start, roll)
        key = self.game.key
        if kind == "over":
            return []
        if kind == "last":
            ((k, after),) = blocks
            return [key(a, m1, OVER) if k == 0 else key(m0, a, OVER) for a in after]
        if kind == "pairs":
            return [key(a, b, NORMAL) for left, right in blocks for a in left for b in right]
        return [key(a, m1, 0) if k == 0 else key(m0, a, 1) for k, after in blocks for a in after]

    def best_after(self, start: SoloKey, roll: Roll) -> SoloKey | None:
        """The optimal move's state after `roll` (first of the best in sorted order), None: game over."""
        nexts = sorted(set(self.successor_keys(start, roll)))
        return max(nexts, key=self._value) if nexts else None

    def final(self, key: SoloKey) -> int:
        return self.game.final(key[0], key[1])

    def play(self, state: SoloState, rolls: Sequence[Roll]) -> int:
        """The optimal player's final (lower) score when the rolls come in this order."""
        key = self.key(state)
        for roll in rolls:
            if key[2] == OVER:
                return self.final(key)
            after = self.best_after(key, validate_roll(roll))
            if after is None:
                return self.final(key)
            key = after
        if key[2] != OVER:
            raise ValueError("the rolls ran out before the game ended")
        return self.final(key)

    def _check(self, state: SoloState) -> None:
        mine = (self.template.challenges, self.template.components, self.template.double_gap)
        if (state.challenges, state.components, state.double_gap) != mine:
            raise ValueError("this solver was built for other cards, components or gap rule")

    def _value(self, state: SoloKey) -> float:
        """Expected lower final score under optimal play from `state` (canonical), before the next roll."""
        found = self.memo.get(state)
        if found is not None:
            return found
        self.counter.tick()
        if state[2] == OVER:
            result = float(self.final(state))
        else:
            result = 0.0
            for roll, p in ROLLS:
                nexts = self.successor_keys(state, roll)
                result += p * (max(self._value(k) for k in nexts) if nexts else self.final(state))
        self.memo[state] = result
        return result


def solo_optimum(
    maps: tuple[Grid, Grid] | None = None,
    challenges: tuple[Iterable[Challenge], Iterable[Challenge]] = ((), ()),
    components: Components = DEFAULT_COMPONENTS,
    *,
    double_gap: int = SOLO_DOUBLE_GAP,
    last_turn_map: int | None = None,
    budget: Budget | None = None,
    max_states: int = DEFAULT_MAX_STATES,
) -> tuple[SoloOptimum, SoloState]:
    """A `SoloOptimum` that has solved the game from `maps` (blank when None), and the rules model's start state:
    `solver.value(state)` is then free."""
    state = SoloState.new(  # the rules model validates the request
        (tuple(challenges[0]), tuple(challenges[1])), components, maps, double_gap, last_turn_map
    )
    solver = SoloOptimum(challenges, components, double_gap=double_gap, budget=budget, max_states=max_states)
    solver.value(state)
    return solver, state


def solo_clairvoyant(state: SoloState, rolls: Sequence[Roll], *, solver: SoloOptimum | None = None) -> int:
    """The best solo score (the lower map) from `state` (before a roll) for a known roll sequence, by exact
    search; the rolls must last until the game ends (else `ValueError`). `solver` shares its move tables."""
    if solver is None:
        solver = SoloOptimum(state.challenges, state.components, double_gap=state.double_gap)
    roll_list = [validate_roll(r) for r in rolls]
    memo: dict[tuple[SoloKey, int], int] = {}

    def best(key: SoloKey, index: int) -> int:
        found = memo.get((key, index))
        if found is not None:
            return found
        if key[2] == OVER:
            result = solver.final(key)
        elif index == len(roll_list):
            raise ValueError("the rolls ran out before the game ended")
        else:
            nexts = solver.successor_keys(key, roll_list[index])
            result = max(best(k, index + 1) for k in nexts) if nexts else solver.final(key)
        memo[(key, index)] = result
        return result

    return best(solver.key(state), 0)


def expected_solo_clairvoyant(
    state: SoloState, *, budget: Budget | None = None, max_states: int = DEFAULT_MAX_STATES
) -> float:
    """The exact mean over the dice of `solo_clairvoyant` (the frontier recursion of
    `expected_single_clairvoyant` on solo states)."""
    solver = SoloOptimum(state.challenges, state.components, double_gap=state.double_gap)
    counter = _Counter(budget, max_states)
    memo: dict[tuple[frozenset[SoloKey], int], float] = {}

    def expect(frontier: frozenset[SoloKey], best: int) -> float:
        if not frontier:
            return float(best)
        found = memo.get((frontier, best))
        if found is not None:
            return found
        counter.tick()
        total = 0.0
        for roll, p in ROLLS:
            ended = best
            nexts: set[SoloKey] = set()
            for live in frontier:
                after = solver.successor_keys(live, roll)
                if not after:
                    ended = max(ended, solver.final(live))
                for k in after:
                    if k[2] == OVER:
                        ended = max(ended, solver.final(k))
                    else:
                        nexts.add(k)
            total += p * expect(frozenset(nexts), ended)
        memo[(frontier, best)] = total
        return total

    start = solver.key(state)
    if start[2] == OVER:
        return float(solver.final(start))
    return expect(frozenset({start}), _MINUS_INFINITY_SCORE)


def _solo_maps(state: SoloState) -> tuple[_Maps, _Maps]:
    """One `_Maps` per map; a single shared one (one cache) when both maps have the same cards."""
    first = _Maps(state.components, tuple(state.challenges[0]), state.double_gap)
    if tuple(state.challenges[1]) == first.challenges:
        return first, first
    return first, _Maps(state.components, tuple(state.challenges[1]), state.double_gap)


def _blank(components: Components) -> Grid:
    return tuple((0,) * components.cols for _ in range(components.rows))
