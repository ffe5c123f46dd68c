"""Happy Campers in OpenSpiel as `campsolver_happy_campers` (perfect information, explicit chance).

`players=1` is the solo game (two maps, the lower score counts; returns are that score); 2-6 players is the
multi-player game (one map each, shared challenge cards; on a double a neighbour draws on your map, so the
player to move is whoever draws on the map due next, as in the rules model).

Decision action id = (((cells * 5 + element - 1) * 36 + option) * maps + map), where `cells` is the index of
the drawing's set of squares in `cell_sets(components)` (every position of every shape on the map, sorted by
its bit mask r * cols + c), `element` 1..5 the element drawn, `option` = (shape face - 1) * 6 + (element face
- 1) the roll option used, `maps` 2 in solo mode (`map` 0 or 1, the map drawn on) and 1 otherwise. Chance
id = (a - 1) * 6 + (b - 1) for the unordered roll a <= b, with the rules model's probability (1/36 a double,
2/36 otherwise). Documented in docs/openspiel.md.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import pyspiel

from campsolver.openspiel.common import RETURNS_WIN, AdapterGame, Encoding, check_returns_mode, game_type, merged
from campsolver.solver.happy_campers import modes
from campsolver.solver.happy_campers import rules as hc

SHORT_NAME = "campsolver_happy_campers"
#: The rules model's `Game` this adapter is built on (its players, its start).
RULES_GAME = modes.GAME
MIN_PLAYERS = RULES_GAME.min_players
#: The rulebook names no maximum; the game (and the adapter) takes up to six maps.
MAX_PLAYERS = RULES_GAME.max_players
HIDDEN_INFORMATION = False
FACES = 6
OPTIONS = FACES * FACES
ELEMENTS = len(hc.ELEMENTS)

DEFAULTS: dict[str, Any] = {
    "players": 2,
    "rows": hc.DEFAULT_COMPONENTS.rows,
    "cols": hc.DEFAULT_COMPONENTS.cols,
    "challenges": "",  # challenge names joined by "+" (`privacy+quick_pee`): all maps (solo: map 0)
    "second_challenges": "",  # solo mode: map 1's challenge cards
    "double_gap": modes.SOLO_DOUBLE_GAP,
    "returns": RETURNS_WIN,
}
#: Rule options and variants the conformance test runs besides the defaults.
VARIANTS: list[dict[str, Any]] = [
    {"players": 3, "challenges": "noisy_neighbours+festival+river_town"},
    {"players": 2, "challenges": "great_divide+tent_together", "rows": 4, "cols": 6},
    {"players": 1, "challenges": "privacy", "second_challenges": "quick_pee+nature_reserve", "double_gap": 2},
]


@lru_cache(maxsize=16)
def cell_sets(components: hc.Components) -> tuple[frozenset[hc.Cell], ...]:
    """Every set of squares a drawing can cover (all positions of all shapes), sorted by bit mask."""
    by_mask: dict[int, frozenset[hc.Cell]] = {}
    for shape in components.shapes:
        for placed in hc.placed_shapes(shape, components.rows, components.cols):
            by_mask[placed.mask] = placed.cells
    return tuple(by_mask[mask] for mask in sorted(by_mask))


@lru_cache(maxsize=16)
def _cell_index(components: hc.Components) -> dict[frozenset[hc.Cell], int]:
    return {cells: i for i, cells in enumerate(cell_sets(components))}


def _maps(state: Any) -> int:
    return 2 if isinstance(state, modes.SoloState) else 1


def encode(state: Any, move: Any) -> int:
    """Rules-model drawing (`Placement`, or `SoloDraw` in solo mode) -> action id."""
    map_index = 0
    if isinstance(move, modes.SoloDraw):
        map_index, move = move.map_index, move.placement
    cells = _cell_index(state.components)[move.cells]
    option = (move.option.shape_face - 1) * FACES + (move.option.element_face - 1)
    return ((cells * ELEMENTS + int(move.element) - 1) * OPTIONS + option) * _maps(state) + map_index


def decode(state: Any, action: int) -> Any:
    """Action id -> rules-model drawing."""
    maps = _maps(state)
    rest, map_index = divmod(action, maps)
    rest, option = divmod(rest, OPTIONS)
    cells, element = divmod(rest, ELEMENTS)
    table = cell_sets(state.components)
    if not 0 <= cells < len(table):
        raise ValueError(f"no Happy Campers action has id {action}")
    placement = hc.Placement(table[cells], hc.Element(element + 1), hc.Option(option // FACES + 1, option % FACES + 1))
    return modes.SoloDraw(map_index, placement) if maps == 2 else placement


def encode_chance(state: Any, roll: tuple[int, int]) -> int:
    a, b = sorted(roll)
    return (a - 1) * FACES + (b - 1)


def decode_chance(state: Any, action: int) -> tuple[int, int]:
    return action // FACES + 1, action % FACES + 1


def move_text(state: Any, move: Any) -> str:
    prefix = ""
    if isinstance(move, modes.SoloDraw):
        prefix, move = f"map {move.map_index} ", move.placement
    cells = " ".join(f"r{r}c{c}" for r, c in move.sorted_cells())
    option = move.option
    return f"{prefix}{move.element.name.lower()} on {cells} (option {option.shape_face}/{option.element_face})"


def chance_text(state: Any, roll: tuple[int, int]) -> str:
    return f"roll {roll[0]}-{roll[1]}"


def describe(state: Any) -> str:
    head = f"roll {state.roll}" if state.roll is not None else "to roll"
    if isinstance(state, modes.SoloState):
        head += f" step {state.step.value if state.step else '-'} last_turn_map {state.last_turn_map}"
    else:
        head += f" to_draw {list(state.to_draw)} in_game {list(state.in_game)} bonus {state.bonus_turn}"
    maps = "\n\n".join(f"map {i}\n{hc.render_grid(grid)}" for i, grid in enumerate(state.maps))
    return f"{head}\n{maps}"


ENCODING = Encoding(encode, decode, encode_chance, decode_chance, move_text, chance_text, describe)


def _challenges(text: str) -> tuple[hc.Challenge, ...]:
    # "+", not ",": a comma would end the parameter in OpenSpiel's game string `name(a=b,c=d)`.
    return tuple(hc.Challenge(name.strip()) for name in text.split("+") if name.strip())


class HappyCampersGame(AdapterGame):
    """Happy Campers: solo (1 player) or the multi-player game (2-6), default component data."""

    encoding = ENCODING

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        full = merged(DEFAULTS, params)
        check_returns_mode(full["returns"])
        players = full["players"]
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players: {MIN_PLAYERS}-{MAX_PLAYERS}, got {players}")
        components = hc.Components(rows=full["rows"], cols=full["cols"])
        maps = 2 if players == 1 else 1
        scores = full["returns"] != RETURNS_WIN or players == 1
        cells = components.cell_count
        smallest = min(len(shape) for shape in components.shapes)
        # A map's score: at worst every square empty and a tent on every edge square; at best below six
        # points a square plus the row/column bonuses (a bound, not an attainable score).
        info = pyspiel.GameInfo(
            num_distinct_actions=len(cell_sets(components)) * ELEMENTS * OPTIONS * maps,
            max_chance_outcomes=FACES * FACES,
            num_players=players,
            min_utility=float(-2 * cells) if scores else 0.0,
            max_utility=float(6 * cells + 6 * (components.rows + components.cols) + 5) if scores else 1.0,
            utility_sum=None if scores else 1.0,
            max_game_length=max(players, maps) * (cells // smallest),
        )
        super().__init__(_type(constant_sum=not scores), info, full)
        self.components = components
        self.initial_rules_state()  # refuses a setting the rules model refuses

    def initial_rules_state(self) -> Any:
        params = self.params
        setup = modes.HappyCampersSetup(
            params["players"],
            _challenges(params["challenges"]),
            _challenges(params["second_challenges"]),
            self.components,
            params["double_gap"],
        )
        return modes.GAME.new_initial_state(setup)


def _type(*, constant_sum: bool) -> pyspiel.GameType:
    return game_type(
        SHORT_NAME,
        "Happy Campers (campsolver rules model)",
        players=(MIN_PLAYERS, MAX_PLAYERS),
        imperfect=False,
        constant_sum=constant_sum,
        parameters=DEFAULTS,
    )


pyspiel.register_game(_type(constant_sum=True), HappyCampersGame)
