"""Happy Campers game flow as immutable `GameState`s: solo mode (two maps) and the multi-player game.

A hint engine enumerates `legal_actions()` for the rolled dice and applies one with `child()`; the
generic expectimax runs on the same states (rolls are chance nodes with exact probabilities). Both classes
keep the rules in `rules.py`: they only decide *which* drawings are open at each step and when the game
ends. Readings of the unclear clauses (solo doubles and their gap rule, who is out on a noisy-neighbour
double, ...) are listed in docs/rules/happy-campers.md.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction

from campsolver.solver.core.game import CHANCE, TERMINAL, GameSpec
from campsolver.solver.core.geometry import grow_mask
from campsolver.solver.happy_campers.rules import (
    ANY_FACE,
    DEFAULT_COMPONENTS,
    Challenge,
    Components,
    Grid,
    IllegalMove,
    Option,
    Placement,
    RulesError,
    drawn_mask,
    elements_for_face,
    festival_winners,
    fill,
    legal_placements,
    legal_placements_for_option,
    placed_shapes,
    roll_options,
    score,
    shapes_for_face,
    validate_grid,
    validate_roll,
)

#: Solo doubles: a detached drawing must keep at least this many empty squares (orthogonal steps) between
#: itself and every drawn square. With 1, any non-touching position is allowed ("anywhere on the sheet").
SOLO_DOUBLE_GAP = 1
#: Multi-player doubles: 1-3 go to the left neighbour, 4-6 to the right neighbour.
LEFT_NEIGHBOUR_FACES = frozenset({1, 2, 3})


def multiplayer_options(
    roll: tuple[int, int], challenges: Iterable[Challenge] = (), components: Components = DEFAULT_COMPONENTS
) -> tuple[Option, ...]:
    """The options a multi-player map can be drawn with this turn (own map on a plain roll, the neighbour's
    map on a double).

    Noisy Neighbours lets the neighbour choose any shape on a double, still filled with the rolled element:
    with five shapes that is `Option(6, d)` (shape face 6 = any shape); with six shapes (face 6 a shape of
    its own) it is one option per shape face, `Option(s, d)` for s = 1..6. Double 6 stays any shape, any
    element. Plain rolls are unchanged by the card. Every solver (the game flow below, the hint engine)
    asks this function.
    """
    a, b = validate_roll(roll)
    if a == b and Challenge.NOISY_NEIGHBOURS in frozenset(challenges):
        if components.six_shapes:
            return tuple(Option(face, b) for face in range(1, len(components.shapes) + 1))
        return (Option(ANY_FACE, b),)
    return roll_options((a, b))


def roll_distribution() -> tuple[tuple[tuple[int, int], Fraction], ...]:
    """The 21 unordered rolls of two dice with exact probabilities ((a, b) and (b, a) give the same options)."""
    outcomes = []
    for a in range(1, 7):
        for b in range(a, 7):
            outcomes.append(((a, b), Fraction(1 if a == b else 2, 36)))
    return tuple(outcomes)


def solo_double_placements(
    grid: Grid, option: Option, components: Components = DEFAULT_COMPONENTS, gap: int = SOLO_DOUBLE_GAP
) -> list[Placement]:
    """Solo double: every ordinary (adjacent) drawing, plus detached ones at least `gap` squares away."""
    ordinary = legal_placements_for_option(grid, option, components)
    drawn = drawn_mask(grid)
    if not drawn:
        return ordinary
    halo = grow_mask(drawn, components.rows, components.cols, gap)
    seen = {(p.cells, p.element) for p in ordinary}
    found = list(ordinary)
    for shape in shapes_for_face(option.shape_face, components):
        for placed in placed_shapes(shape, components.rows, components.cols):
            if placed.mask & halo:
                continue
            for element in elements_for_face(option.element_face, components):
                if (placed.cells, element) not in seen:
                    seen.add((placed.cells, element))
                    found.append(Placement(placed.cells, element, option))
    return found


# ---------------------------------------------------------------------------------------------------------
# Solo mode
# ---------------------------------------------------------------------------------------------------------


class SoloStep(enum.Enum):
    """Where a solo turn stands (the roll is known, some drawing is due)."""

    FIRST_OF_TWO = "first_of_two"  # a drawing on map 0, then one on map 1
    SECOND = "second"  # the drawing on map 1 that completes the turn
    ONLY_ONE = "only_one"  # one map cannot take the roll: draw on the other, then one last turn there
    LAST_TURN = "last_turn"  # the one extra turn on the remaining map; then the game is over


@dataclass(frozen=True)
class SoloDraw:
    """Draw `placement` on map `map_index` (0 or 1)."""

    map_index: int
    placement: Placement


@dataclass(frozen=True)
class SoloState:
    """Solo mode: two maps, each with its own challenge card(s); the lower score counts.

    Chance node when `roll` is None (and the game is not over); otherwise player 0 must make the drawing
    described by `step` using one of `allowed` (map index, option) pairs.
    """

    maps: tuple[Grid, Grid]
    challenges: tuple[tuple[Challenge, ...], tuple[Challenge, ...]] = ((), ())
    components: Components = DEFAULT_COMPONENTS
    double_gap: int = SOLO_DOUBLE_GAP
    over: bool = False
    last_turn_map: int | None = None  # set once one map is out: the other gets one more turn
    roll: tuple[int, int] | None = None
    step: SoloStep | None = None
    allowed: tuple[tuple[int, Option], ...] = ()

    @classmethod
    def new(
        cls,
        challenges: tuple[tuple[Challenge, ...], tuple[Challenge, ...]] = ((), ()),
        components: Components = DEFAULT_COMPONENTS,
        maps: tuple[Grid, Grid] | None = None,
        double_gap: int = SOLO_DOUBLE_GAP,
        last_turn_map: int | None = None,
    ) -> SoloState:
        """A validated state before a roll (maps may be pre-drawn; solo doubles may leave detached pieces).

        `last_turn_map` (0 or 1) starts in the end phase: the other map is out and this one gets the one
        extra turn ("You then get 1 more turn ... on the remaining map"), so a hint can be asked there too.
        """
        if last_turn_map is not None and (isinstance(last_turn_map, bool) or last_turn_map not in (0, 1)):
            raise RulesError("last_turn_map", "the map that gets the extra turn is 0 or 1")
        if len(challenges) != 2:
            raise RulesError("challenges", "solo mode has one challenge list per map")
        for chosen in challenges:
            if Challenge.NOISY_NEIGHBOURS in chosen:
                raise RulesError("challenges", "Noisy Neighbours is not for solo mode")
        if isinstance(double_gap, bool) or not isinstance(double_gap, int) or double_gap < 1:
            raise RulesError("double_gap", "the solo double gap is a whole number of squares, at least 1")
        if maps is None:
            blank = tuple((0,) * components.cols for _ in range(components.rows))
            maps = (blank, blank)
        if len(maps) != 2:
            raise RulesError("maps", "solo mode plays two maps")
        checked = tuple(validate_grid(m, components, require_connected=False) for m in maps)
        return cls(
            (checked[0], checked[1]),
            (tuple(challenges[0]), tuple(challenges[1])),
            components,
            double_gap,
            last_turn_map=last_turn_map,
        )

    # -- GameState protocol -------------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return CHANCE if self.roll is None else 0

    def chance_outcomes(self) -> tuple[tuple[tuple[int, int], Fraction], ...]:
        return roll_distribution() if self.current_player() == CHANCE else ()

    def legal_actions(self) -> list[SoloDraw]:
        if self.current_player() != 0:
            return []
        assert self.roll is not None
        actions = []
        for map_index, option in self.allowed:
            actions.extend(SoloDraw(map_index, p) for p in self._drawings(map_index, option))
        return actions

    def child(self, action: tuple[int, int] | SoloDraw) -> SoloState:
        if self.current_player() == CHANCE:
            return self._after_roll(validate_roll(action))  # type: ignore[arg-type]
        if not isinstance(action, SoloDraw) or action not in self.legal_actions():
            raise IllegalMove(f"{action!r} is not a legal solo drawing now")
        return self._after_draw(action)

    def returns(self) -> tuple[float]:
        return (float(self.final_score()),)

    # -- rules ---------------------------------------------------------------------------------------------

    def final_score(self) -> int:
        """The lower of the two maps' scores (each with its own challenges; no opponents: Festival is won)."""
        return min(score(m, ch, self.components).total for m, ch in zip(self.maps, self.challenges, strict=True))

    def _double_turn(self) -> bool:
        return self.roll is not None and self.roll[0] == self.roll[1] and self.step is not SoloStep.LAST_TURN

    def drawings(self, map_index: int, option: Option) -> list[Placement]:
        """The legal drawings of `option` on map `map_index` at this step: on a double (except in the one
        extra turn) the solo gap rule (`solo_double_placements`), otherwise the ordinary rule. Only
        meaningful for the (map, option) pairs in `allowed`; `legal_actions` is built from it."""
        grid = self.maps[map_index]
        if self._double_turn():
            return solo_double_placements(grid, option, self.components, self.double_gap)
        return legal_placements_for_option(grid, option, self.components)

    _drawings = drawings  # the name the flow below was written with

    def follow_option(self, used: Option) -> Option:
        """The option map 1 must take after map 0 took `used` in a two-map turn (the other result; on a
        double the same one)."""
        assert self.roll is not None
        others = [o for o in roll_options(self.roll) if o != used]
        return others[0] if others else used

    def _can(self, map_index: int, option: Option, roll: tuple[int, int]) -> bool:
        probe = replace(self, roll=roll, step=SoloStep.FIRST_OF_TWO)
        return bool(probe._drawings(map_index, option))

    def _after_roll(self, roll: tuple[int, int]) -> SoloState:
        options = roll_options(roll)
        if self.last_turn_map is not None:
            remaining = self.last_turn_map
            if not legal_placements(self.maps[remaining], roll, self.components):
                return replace(self, over=True)
            allowed = tuple((remaining, o) for o in options)
            return replace(self, roll=roll, step=SoloStep.LAST_TURN, allowed=allowed)
        can = {(m, o): self._can(m, o, roll) for m in (0, 1) for o in options}
        if len(options) == 1:
            (double,) = options
            if can[(0, double)] and can[(1, double)]:
                return replace(self, roll=roll, step=SoloStep.FIRST_OF_TWO, allowed=((0, double),))
        else:
            first, second = options
            openers = tuple(
                (0, o) for o, other in ((first, second), (second, first)) if can[(0, o)] and can[(1, other)]
            )
            if openers:
                return replace(self, roll=roll, step=SoloStep.FIRST_OF_TWO, allowed=openers)
        single = tuple(key for key, ok in can.items() if ok)
        if not single:
            return replace(self, over=True)
        return replace(self, roll=roll, step=SoloStep.ONLY_ONE, allowed=single)

    def _after_draw(self, action: SoloDraw) -> SoloState:
        maps = list(self.maps)
        maps[action.map_index] = fill(maps[action.map_index], action.placement.cells, action.placement.element)
        drawn = replace(self, maps=(maps[0], maps[1]))
        if self.step is SoloStep.FIRST_OF_TWO:
            follow = self.follow_option(action.placement.option)
            return replace(drawn, step=SoloStep.SECOND, allowed=((1, follow),))
        if self.step is SoloStep.ONLY_ONE:
            return replace(drawn, roll=None, step=None, allowed=(), last_turn_map=action.map_index)
        if self.step is SoloStep.LAST_TURN:
            return replace(drawn, roll=None, step=None, allowed=(), over=True)
        return replace(drawn, roll=None, step=None, allowed=())


# ---------------------------------------------------------------------------------------------------------
# Multi-player game
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MultiplayerState:
    """Two or more players, one map each, shared challenge cards, simultaneous turns played in seat order.

    Seats go clockwise by index, so player i's left neighbour is i + 1 and right neighbour i - 1 (mod n).
    After a roll every map still in the game that can take the roll gets exactly one drawing: from its owner,
    or on a double from the neighbour who draws on it. `to_draw` lists the maps still due this turn.
    """

    maps: tuple[Grid, ...]
    challenges: tuple[Challenge, ...] = ()
    components: Components = DEFAULT_COMPONENTS
    in_game: tuple[bool, ...] = ()
    bonus_next: bool = False  # a map dropped out this turn: the next turn is the bonus turn
    bonus_turn: bool = False  # this turn is the bonus turn: the game is over after it
    over: bool = False
    roll: tuple[int, int] | None = None
    to_draw: tuple[int, ...] = ()

    @classmethod
    def new(
        cls,
        players: int,
        challenges: tuple[Challenge, ...] = (),
        components: Components = DEFAULT_COMPONENTS,
        maps: tuple[Grid, ...] | None = None,
    ) -> MultiplayerState:
        if isinstance(players, bool) or not isinstance(players, int) or players < 2:
            raise RulesError("players", "the multi-player game needs at least 2 players")
        if maps is None:
            blank = tuple((0,) * components.cols for _ in range(components.rows))
            maps = (blank,) * players
        if len(maps) != players:
            raise RulesError("maps", f"one map per player, got {len(maps)} for {players}")
        checked = tuple(validate_grid(m, components) for m in maps)
        return cls(checked, tuple(challenges), components, (True,) * players)

    @property
    def players(self) -> int:
        return len(self.maps)

    def drawer_of(self, map_index: int) -> int:
        """Who draws on `map_index` this turn: the owner, or on a double the neighbour drawing on it."""
        assert self.roll is not None
        a, b = self.roll
        if a != b:
            return map_index
        if a in LEFT_NEIGHBOUR_FACES:  # everyone draws on their left neighbour (i + 1): map j gets j - 1's
            return (map_index - 1) % self.players
        return (map_index + 1) % self.players

    def roll_option_for_maps(self) -> tuple[Option, ...]:
        """The options open on any map this turn (a Noisy Neighbours double frees the shape)."""
        assert self.roll is not None
        return multiplayer_options(self.roll, self.challenges, self.components)

    def drawings_on(self, map_index: int) -> list[Placement]:
        grid = self.maps[map_index]
        found: list[Placement] = []
        for option in self.roll_option_for_maps():
            found.extend(legal_placements_for_option(grid, option, self.components))
        return found

    # -- GameState protocol -------------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self.roll is None:
            return CHANCE
        return self.drawer_of(self.to_draw[0])

    def chance_outcomes(self) -> tuple[tuple[tuple[int, int], Fraction], ...]:
        return roll_distribution() if self.current_player() == CHANCE else ()

    def legal_actions(self) -> list[Placement]:
        if self.over or self.roll is None:
            return []
        return self.drawings_on(self.to_draw[0])

    def child(self, action: tuple[int, int] | Placement) -> MultiplayerState:
        if self.current_player() == CHANCE:
            return self._after_roll(validate_roll(action))  # type: ignore[arg-type]
        if not isinstance(action, Placement) or action not in self.legal_actions():
            raise IllegalMove(f"{action!r} is not a legal drawing on map {self.to_draw[0]} now")
        target = self.to_draw[0]
        maps = list(self.maps)
        maps[target] = fill(maps[target], action.cells, action.element)
        rest = self.to_draw[1:]
        if rest:
            return replace(self, maps=tuple(maps), to_draw=rest)
        return self._end_of_turn(tuple(maps))

    def returns(self) -> tuple[float, ...]:
        return tuple(float(s) for s in self.final_scores())

    # -- rules ---------------------------------------------------------------------------------------------

    def final_scores(self) -> tuple[int, ...]:
        """Each player's score; Festival goes to every player with the biggest entertainment cluster."""
        won = festival_winners(self.maps, self.components)
        return tuple(
            score(m, self.challenges, self.components, festival_won=w).total
            for m, w in zip(self.maps, won, strict=True)
        )

    def _after_roll(self, roll: tuple[int, int]) -> MultiplayerState:
        rolled = replace(self, roll=roll)
        active = [j for j in range(self.players) if self.in_game[j]]
        can = {j: bool(rolled.drawings_on(j)) for j in active}
        if self.bonus_turn:
            # In the bonus turn a map that cannot take the roll simply gets nothing.
            due = tuple(j for j in active if can[j])
            if not due:
                return replace(self, over=True, bonus_turn=False)
            return replace(rolled, to_draw=due)
        in_game = tuple(self.in_game[j] and can.get(j, False) for j in range(self.players))
        bonus_next = any(not can[j] for j in active)
        due = tuple(j for j in active if can[j])
        if not due:
            return replace(self, over=True, in_game=in_game)
        return replace(rolled, in_game=in_game, bonus_next=bonus_next, to_draw=due)

    def _end_of_turn(self, maps: tuple[Grid, ...]) -> MultiplayerState:
        if self.bonus_turn:
            return replace(self, maps=maps, roll=None, to_draw=(), over=True, bonus_turn=False)
        if self.bonus_next:
            return replace(self, maps=maps, roll=None, to_draw=(), bonus_next=False, bonus_turn=True)
        return replace(self, maps=maps, roll=None, to_draw=())


# --- the game (solver.core.game.Game) -------------------------------------------------------------------

#: The state of a Happy Campers game, named after the game: the solo game's or the multi-player game's.
HappyCampersState = SoloState | MultiplayerState

#: The rulebook names no most players; the OpenSpiel adapter and the game take up to six maps.
MAX_PLAYERS = 6


@dataclass(frozen=True)
class HappyCampersSetup:
    """A table: 1 player (the solo game, two maps) or 2-6 (one map each), the challenge cards, the map
    size (`components`) and the solo game's doubles gap; `second_challenges` are the solo game's map 1's."""

    players: int
    challenges: tuple[Challenge, ...] = ()
    second_challenges: tuple[Challenge, ...] = ()
    components: Components = DEFAULT_COMPONENTS
    double_gap: int = SOLO_DOUBLE_GAP


def new_happy_campers(setup: HappyCampersSetup) -> HappyCampersState:
    """The empty maps before the first roll (the solo game for one player)."""
    if setup.players == 1:
        return SoloState.new((setup.challenges, setup.second_challenges), setup.components, double_gap=setup.double_gap)
    return MultiplayerState.new(setup.players, setup.challenges, setup.components)


def final_scores(state: HappyCampersState) -> tuple[int, ...]:
    """The score sheet: the solo game's lower map score, or every player's map score (Festival shared)."""
    return (state.final_score(),) if isinstance(state, SoloState) else state.final_scores()


#: Happy Campers as a `Game`: solo (1 player) or 2-6 players, empty maps, a roll first.
GAME: GameSpec[HappyCampersSetup, HappyCampersState] = GameSpec(
    name="happy_campers",
    min_players=1,
    max_players=MAX_PLAYERS,
    make_config=lambda players: HappyCampersSetup(players),
    players_of=lambda setup: setup.players,
    start=new_happy_campers,
    scores=final_scores,
)
