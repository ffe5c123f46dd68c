"""Deluxe Camping rules model: every clause of the rulebook as an immutable `GameState`.

Squares are indexed `r * cols + c` (rows from the top). A barrier lies on the edge between two orthogonally
adjacent squares and is written `(a, b)` with `a < b`. A *region* is a connected component of the board once
barriers are walls (the board edge is a wall); a region holding trailers or bungalows of one player only is a
*site allotted* to that player. Only allotted sites score.

Turn structure (one player, three actions in the rulebook): a MOVE decision (up to two steps over own trailers
and the pain-in-the-neck), the automatic barriers between every new pair of neighbouring pieces of different
players, then a BARRIER decision (the free barrier). The two decisions are separate plies so searches branch
on ~100 moves and then ~150 barriers instead of their product.

Every reading the rulebook leaves open is decided here and listed in docs/rules/deluxe-camping.md with the
test that pins it. Nothing in this module searches: the solvers live in `maximise`, `hint`, `puzzle`.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache, cached_property, lru_cache

from campsolver.solver.core.game import CHANCE, TERMINAL, GameSpec

# --- Game facts --------------------------------------------------------------------------------------------

#: Default board (the rulebook gives a 480 mm board and no grid; 10 x 10 fits the supply and the pieces).
DEFAULT_ROWS = 10
DEFAULT_COLS = 10
#: Barriers in the box, shared by every player.
DEFAULT_SUPPLY = 60
MIN_PLAYERS = 2
MAX_PLAYERS = 4
#: Trailers per player by player count (each player also has one bungalow).
TRAILERS_BY_PLAYERS = {2: 6, 3: 4, 4: 2}
#: Steps of movement per turn, over own trailers and the pain-in-the-neck.
STEPS_PER_TURN = 2
#: Mystery tokens: two ice-cream stands and one pain-in-the-neck.
ICE_CREAM_STANDS = 2
MYSTERY_TOKENS = 3
#: Scoring.
POOL_FACTOR = 2
ICE_CREAM_BONUS = 5
NUISANCE_PENALTY = 10

Edge = tuple[int, int]


class Stage(enum.Enum):
    """Where the game stands: setup placements in the rulebook's order, the reveal, turns, the end."""

    POOL = "pool"  # the first player places the swimming pool
    MYSTERY = "mystery"  # another player places the three face-down mystery tokens, one at a time
    BUNGALOW = "bungalow"  # each player in turn places a bungalow
    TRAILER = "trailer"  # trailers one at a time, in turn, until all are placed
    REVEAL = "reveal"  # chance: which mystery square holds the pain-in-the-neck
    MOVE = "move"
    BARRIER = "barrier"
    OVER = "over"


class IllegalAction(ValueError):
    """An action the rules do not allow in this state."""


@dataclass(frozen=True)
class Place:
    """A setup placement (the stage says what is placed)."""

    square: int


@dataclass(frozen=True)
class Move:
    """The movement of one turn: up to two orthogonal steps, each `(from, to)`, applied in order.

    `()` is staying put. Steps of one piece are chained (its second step starts where the first ended).
    """

    steps: tuple[Edge, ...] = ()


@dataclass(frozen=True)
class Barrier:
    """The free barrier, on the edge between squares `edge[0] < edge[1]`; `None`: no free barrier this turn
    (legal only under the optional-free-barrier variant)."""

    edge: Edge | None


Action = Place | Move | Barrier | int  # int: the reveal outcome (square of the pain-in-the-neck)


@dataclass(frozen=True)
class Config:
    """Component data: board, players, trailers, barrier supply (documented defaults, all overridable)."""

    rows: int = DEFAULT_ROWS
    cols: int = DEFAULT_COLS
    players: int = 2
    trailers: int = -1  # -1: the rulebook count for `players` (6, 4 or 2)
    supply: int = DEFAULT_SUPPLY
    #: Named variant "strict colours": the setup's "Do not place barriers between trailers or bungalows of the
    #: same colour" also binds the free barrier (default: it may go between one player's own pieces).
    strict_colours: bool = False
    #: Named variant "optional free barrier": a player may end the turn without the free barrier (`Barrier(None)`;
    #: default: compulsory whenever one is legal).
    optional_free_barrier: bool = False

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"{MIN_PLAYERS}-{MAX_PLAYERS} players, got {self.players}")
        if self.trailers == -1:
            object.__setattr__(self, "trailers", TRAILERS_BY_PLAYERS[self.players])
        if self.rows < 1 or self.cols < 1 or self.rows * self.cols < 2:
            raise ValueError("the board needs at least two squares")
        if self.trailers < 0 or self.supply < 0:
            raise ValueError("trailers and supply must not be negative")
        pieces = self.players * (1 + self.trailers)
        if pieces > self.rows * self.cols:
            raise ValueError(f"{pieces} pieces do not fit on {self.rows * self.cols} squares")

    @property
    def squares(self) -> int:
        return self.rows * self.cols

    def cell(self, square: int) -> tuple[int, int]:
        return divmod(square, self.cols)

    def square(self, row: int, col: int) -> int:
        return row * self.cols + col


@cache
def neighbour_table(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Orthogonal neighbours of every square."""
    table = []
    for s in range(rows * cols):
        r, c = divmod(s, cols)
        near = []
        if r > 0:
            near.append(s - cols)
        if c > 0:
            near.append(s - 1)
        if c < cols - 1:
            near.append(s + 1)
        if r < rows - 1:
            near.append(s + cols)
        table.append(tuple(near))
    return tuple(table)


@cache
def all_edges(rows: int, cols: int) -> tuple[Edge, ...]:
    """Every edge between two adjacent squares, `(a, b)` with `a < b`, in a stable order."""
    edges = []
    for s in range(rows * cols):
        r, c = divmod(s, cols)
        if c < cols - 1:
            edges.append((s, s + 1))
        if r < rows - 1:
            edges.append((s, s + cols))
    return tuple(edges)


def edge_of(a: int, b: int) -> Edge:
    return (a, b) if a < b else (b, a)


def is_edge(config: Config, edge: Sequence[int]) -> bool:
    """True when `edge` joins two orthogonally adjacent squares of the board."""
    if len(edge) != 2:
        return False
    a, b = edge
    if not (0 <= a < config.squares and 0 <= b < config.squares):
        return False
    return b in neighbour_table(config.rows, config.cols)[a]


def regions(config: Config, barriers: frozenset[Edge]) -> tuple[int, ...]:
    """Region label of every square (labels 0.. in order of their smallest square)."""
    table = neighbour_table(config.rows, config.cols)
    label = [-1] * config.squares
    count = 0
    for start in range(config.squares):
        if label[start] >= 0:
            continue
        label[start] = count
        stack = [start]
        while stack:
            s = stack.pop()
            for t in table[s]:
                if label[t] < 0 and edge_of(s, t) not in barriers:
                    label[t] = count
                    stack.append(t)
        count += 1
    return tuple(label)


def site_value(size: int, pool: bool, ice_creams: int, nuisance: bool) -> int:
    """A site's points, in the rulebook's order: 1 a square, x2 with the pool, +5 an ice-cream stand,
    -10 with the pain-in-the-neck but never below 0."""
    value = size * (POOL_FACTOR if pool else 1) + ICE_CREAM_BONUS * ice_creams
    if nuisance:
        value = max(0, value - NUISANCE_PENALTY)
    return value


@dataclass(frozen=True)
class Site:
    """One region of the board and what stands in it."""

    squares: frozenset[int]
    owners: frozenset[int]  # players with a trailer or bungalow in it
    pool: bool
    ice_creams: int
    nuisance: bool

    @property
    def allotted_to(self) -> int | None:
        return next(iter(self.owners)) if len(self.owners) == 1 else None

    @property
    def value(self) -> int:
        return site_value(len(self.squares), self.pool, self.ice_creams, self.nuisance)


@dataclass(frozen=True)
class DCState:
    """A Deluxe Camping position. Immutable and hashable (the search memoises on it).

    Before the reveal, `mystery` lists the three face-down squares and `ice_creams`/`nuisance` are unset;
    after it, `mystery` is empty. `-1` marks a piece not placed yet.
    """

    config: Config
    stage: Stage = Stage.POOL
    to_move: int = 0
    pool: int = -1
    mystery: tuple[int, ...] = ()
    ice_creams: tuple[int, ...] = ()
    nuisance: int = -1
    bungalows: tuple[int, ...] = ()
    trailers: tuple[tuple[int, ...], ...] = ()
    barriers: frozenset[Edge] = frozenset()
    #: Turns in a row in which no barrier was placed; a whole round of them ends the game.
    idle_turns: int = 0
    #: Barriers placed during the current turn so far (automatic + free), to keep `idle_turns`.
    placed_this_turn: int = 0
    first_player: int = 0
    _cache: dict = field(default_factory=dict, init=False, compare=False, hash=False, repr=False)

    # --- derived facts (cached; the state never changes) ------------------------------------------------

    @property
    def supply_left(self) -> int:
        return self.config.supply - len(self.barriers)

    @cached_property
    def owner_at(self) -> dict[int, int]:
        """Square -> player, for every placed trailer and bungalow."""
        owners: dict[int, int] = {}
        for player, square in enumerate(self.bungalows):
            if square >= 0:
                owners[square] = player
        for player, squares in enumerate(self.trailers):
            for square in squares:
                owners[square] = player
        return owners

    @cached_property
    def occupied(self) -> frozenset[int]:
        """Every square holding a piece (no square holds two)."""
        taken = set(self.owner_at)
        taken.update(s for s in (self.pool, self.nuisance) if s >= 0)
        taken.update(self.mystery)
        taken.update(self.ice_creams)
        return frozenset(taken)

    @cached_property
    def region_of(self) -> tuple[int, ...]:
        return regions(self.config, self.barriers)

    @cached_property
    def sites(self) -> tuple[Site, ...]:
        """Every region with its contents, indexed by region label."""
        members: dict[int, list[int]] = {}
        for square, label in enumerate(self.region_of):
            members.setdefault(label, []).append(square)
        found = []
        ice = set(self.ice_creams)
        for label in range(len(members)):
            squares = frozenset(members[label])
            found.append(
                Site(
                    squares=squares,
                    owners=frozenset(self.owner_at[s] for s in squares if s in self.owner_at),
                    pool=self.pool in squares,
                    ice_creams=len(ice & squares),
                    nuisance=self.nuisance in squares,
                )
            )
        return tuple(found)

    def allotted(self, square: int) -> int | None:
        """The player the square's region is allotted to (None when the region is not allotted)."""
        return self.sites[self.region_of[square]].allotted_to

    def pieces_of(self, player: int) -> tuple[int, ...]:
        bungalow = self.bungalows[player] if player < len(self.bungalows) else -1
        own = self.trailers[player] if player < len(self.trailers) else ()
        return ((bungalow,) if bungalow >= 0 else ()) + tuple(own)

    def stopped(self, player: int) -> bool:
        """All of the player's pieces stand in sites allotted to them: no more moves or barriers."""
        if self.stage not in (Stage.MOVE, Stage.BARRIER, Stage.OVER):
            return False
        return all(self.allotted(s) == player for s in self.pieces_of(player))

    def scores(self) -> tuple[int, ...]:
        """Points per player from the allotted sites (the final scores once the game is over)."""
        totals = [0] * self.config.players
        for site in self.sites:
            owner = site.allotted_to
            if owner is not None:
                totals[owner] += site.value
        return tuple(totals)

    # --- GameState protocol ------------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.stage is Stage.OVER:
            return TERMINAL
        if self.stage is Stage.REVEAL:
            return CHANCE
        return self.to_move

    def returns(self) -> tuple[float, ...]:
        return tuple(float(s) for s in self.scores())

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """The reveal: the pain-in-the-neck is under any of the three tokens with probability 1/3."""
        if self.stage is not Stage.REVEAL:
            return []
        return [(square, Fraction(1, len(self.mystery))) for square in self.mystery]

    def legal_actions(self) -> list[Action]:
        key = "legal"
        if key not in self._cache:
            self._cache[key] = self._legal_actions()
        return list(self._cache[key])

    def _legal_actions(self) -> list[Action]:
        stage = self.stage
        if stage in (Stage.POOL, Stage.MYSTERY, Stage.BUNGALOW, Stage.TRAILER):
            return [Place(s) for s in range(self.config.squares) if self._placement_ok(s)]
        if stage is Stage.MOVE:
            return list(self.legal_moves())
        if stage is Stage.BARRIER:
            skip = [Barrier(None)] if self.config.optional_free_barrier else []
            return [Barrier(e) for e in self.legal_barriers()] + skip
        return []

    def child(self, action: Action) -> DCState:
        stage = self.stage
        if stage is Stage.REVEAL:
            return self._reveal(action)
        if stage is Stage.OVER:
            raise IllegalAction("the game is over")
        if stage in (Stage.POOL, Stage.MYSTERY, Stage.BUNGALOW, Stage.TRAILER):
            if not isinstance(action, Place) or not self._placement_ok(action.square):
                raise IllegalAction(f"illegal placement {action!r} at stage {stage.value}")
            return self._place(action.square)
        if stage is Stage.MOVE:
            if not isinstance(action, Move):
                raise IllegalAction(f"expected a Move, got {action!r}")
            return self._apply_move(action)
        if not isinstance(action, Barrier):
            raise IllegalAction(f"expected a Barrier, got {action!r}")
        return self._apply_barrier(action.edge)

    # --- setup ---------------------------------------------------------------------------------------------

    def _placement_ok(self, square: int) -> bool:
        if not 0 <= square < self.config.squares or square in self.occupied:
            return False
        if self.stage is Stage.BUNGALOW:
            near = neighbour_table(self.config.rows, self.config.cols)[square]
            # "One cannot place a bungalow beside the swimming pool or beside another bungalow."
            if self.pool in near or any(b in near for b in self.bungalows if b >= 0):
                return False
        if self.stage is Stage.TRAILER:
            # Automatic barriers follow the placement: never more than the supply holds.
            return self._new_adjacencies_with(square, self.to_move) + self._pending_adjacencies() <= self.config.supply
        return True

    def _new_adjacencies_with(self, square: int, player: int) -> int:
        near = neighbour_table(self.config.rows, self.config.cols)[square]
        return sum(1 for t in near if t in self.owner_at and self.owner_at[t] != player)

    def _pending_adjacencies(self) -> int:
        return len(automatic_barriers(self.config, self.owner_at, self.barriers))

    def _place(self, square: int) -> DCState:
        players = self.config.players
        if self.stage is Stage.POOL:
            return replace(self, pool=square, stage=Stage.MYSTERY, to_move=(self.first_player + 1) % players)
        if self.stage is Stage.MYSTERY:
            mystery = tuple(sorted((*self.mystery, square)))
            if len(mystery) < MYSTERY_TOKENS:
                return replace(self, mystery=mystery)
            return replace(
                self,
                mystery=mystery,
                stage=Stage.BUNGALOW,
                to_move=self.first_player,
                bungalows=(-1,) * players,
                trailers=((),) * players,
            )
        if self.stage is Stage.BUNGALOW:
            bungalows = list(self.bungalows)
            bungalows[self.to_move] = square
            nxt = (self.to_move + 1) % players
            stage = Stage.TRAILER if nxt == self.first_player else Stage.BUNGALOW
            return replace(self, bungalows=tuple(bungalows), to_move=nxt, stage=stage)
        trailers = list(self.trailers)
        trailers[self.to_move] = tuple(sorted((*trailers[self.to_move], square)))
        state = replace(self, trailers=tuple(trailers), to_move=(self.to_move + 1) % players)
        if all(len(t) == self.config.trailers for t in state.trailers):
            walls = automatic_barriers(self.config, state.owner_at, state.barriers)
            state = replace(state, barriers=state.barriers | walls, stage=Stage.REVEAL, to_move=self.first_player)
        return state

    def _reveal(self, outcome: object) -> DCState:
        if not isinstance(outcome, int) or outcome not in self.mystery:
            raise IllegalAction(f"the pain-in-the-neck is under one of {self.mystery}, not {outcome!r}")
        ice = tuple(s for s in self.mystery if s != outcome)
        state = replace(
            self,
            mystery=(),
            ice_creams=ice,
            nuisance=outcome,
            stage=Stage.MOVE,
            to_move=self.first_player,
            idle_turns=0,
            placed_this_turn=0,
        )
        return state._next_active((self.first_player - 1) % self.config.players, idle=0)

    # --- movement --------------------------------------------------------------------------------------

    def movable(self) -> tuple[int, ...]:
        """Squares of the pieces the player to move may move: own trailers and the pain-in-the-neck,
        except pieces standing in an allotted (finished) site."""
        own = [s for s in self.trailers[self.to_move] if self.allotted(s) is None]
        if self.nuisance >= 0 and self.allotted(self.nuisance) is None:
            own.append(self.nuisance)
        return tuple(sorted(own))

    def _step_ok(self, a: int, b: int, occupied: set[int]) -> bool:
        return (
            b in neighbour_table(self.config.rows, self.config.cols)[a]
            and b not in occupied
            and edge_of(a, b) not in self.barriers
        )

    def _moved(self, move: Move) -> tuple[dict[int, int], set[int]] | None:
        """Apply the steps to a map origin -> position; None when a step is illegal."""
        if len(move.steps) > STEPS_PER_TURN:
            return None
        movable = set(self.movable())
        occupied = set(self.occupied)
        position: dict[int, int] = {}  # origin -> current square
        where: dict[int, int] = {}  # current square -> origin
        for a, b in move.steps:
            origin = where.get(a, a)
            if origin not in movable or position.get(origin, origin) != a:
                return None
            if not self._step_ok(a, b, occupied):
                return None
            occupied.discard(a)
            occupied.add(b)
            position[origin] = b
            where.pop(a, None)
            where[b] = origin
        return position, occupied

    def _after_move(self, position: dict[int, int]) -> DCState:
        trailers = list(self.trailers)
        mine = [position.get(s, s) for s in trailers[self.to_move]]
        trailers[self.to_move] = tuple(sorted(mine))
        nuisance = position.get(self.nuisance, self.nuisance) if self.nuisance >= 0 else -1
        return replace(self, trailers=tuple(trailers), nuisance=nuisance)

    def legal_moves(self) -> list[Move]:
        """Every distinct movement (distinct by where the pieces end), staying put first."""
        key = "moves"
        if key in self._cache:
            return list(self._cache[key])
        table = neighbour_table(self.config.rows, self.config.cols)
        barriers = self.barriers
        occupied = self.occupied
        movable = self.movable()
        results: dict[tuple, Move] = {self._result_key({}): Move(())}

        def free(a: int, b: int, vacated: int = -1, taken: int = -1) -> bool:
            return (
                (b not in occupied or b == vacated) and b != taken and (a, b) not in barriers and (b, a) not in barriers
            )

        def consider(position: dict[int, int], steps: tuple[Edge, ...]) -> None:
            key = self._result_key(position)
            if key in results or self._walls_needed(position) > self.supply_left:
                return
            results[key] = Move(steps)

        for a in movable:
            for b in table[a]:
                if not free(a, b):
                    continue
                consider({a: b}, ((a, b),))
                for c in table[b]:
                    if c != a and free(b, c, vacated=a):
                        consider({a: c}, ((a, b), (b, c)))
                for other in movable:
                    if other == a:
                        continue
                    for d in table[other]:
                        if free(other, d, vacated=a, taken=b):
                            consider({a: b, other: d}, ((a, b), (other, d)))
        moves = list(results.values())
        self._cache[key] = moves
        return list(moves)

    def _walls_needed(self, position: dict[int, int]) -> int:
        """Automatic barriers a movement creates: every moved own trailer beside another player's piece."""
        table = neighbour_table(self.config.rows, self.config.cols)
        owners = self.owner_at
        me = self.to_move
        count = 0
        for origin, square in position.items():
            if owners.get(origin) != me:
                continue  # the pain-in-the-neck never gets automatic barriers
            for t in table[square]:
                if t in owners and owners[t] != me and edge_of(square, t) not in self.barriers:
                    count += 1
        return count

    def _result_key(self, position: dict[int, int]) -> tuple:
        mine = tuple(sorted(position.get(s, s) for s in self.trailers[self.to_move]))
        return mine, position.get(self.nuisance, self.nuisance)

    def _apply_move(self, move: Move) -> DCState:
        outcome = self._moved(move)
        if outcome is None:
            raise IllegalAction(f"illegal movement {move.steps}")
        after = self._after_move(outcome[0])
        walls = automatic_barriers(self.config, after.owner_at, self.barriers)
        if len(walls) > self.supply_left:
            raise IllegalAction("the automatic barriers this movement needs exceed the supply")
        state = replace(after, barriers=self.barriers | walls, placed_this_turn=len(walls), stage=Stage.BARRIER)
        if not walls:
            # Pieces never leave their region, so without new barriers the regions and their contents stand.
            state.__dict__["region_of"] = self.region_of
            state.__dict__["sites"] = self.sites
        if state.supply_left == 0 or state.stopped(self.to_move) or not state.has_free_barrier():
            return state._end_turn()
        return state

    # --- the free barrier ------------------------------------------------------------------------------

    def has_free_barrier(self) -> bool:
        """Whether any free barrier is legal, without listing them: every region holds a trailer or bungalow,
        so a region that is not allotted holds pieces of two players, and then an edge on a cycle (splits
        nothing) or the first edge of the path between two such pieces (a bridge with a piece on each side) is
        legal. So: some region is not allotted and the supply is not empty (property-tested against
        `legal_barriers`). Under the strict-colours variant too: the first edge of a shortest path between two
        players' pieces leaves a piece for an empty square, never joins two pieces of one colour."""
        return self.supply_left > 0 and any(site.allotted_to is None for site in self.sites)

    def legal_barriers(self) -> list[Edge]:
        """Edges where the free barrier may go: free, not inside an allotted site, not creating a region
        without a trailer or bungalow; under the strict-colours variant, not between two pieces of one player."""
        key = "barriers"
        if key in self._cache:
            return list(self._cache[key])
        found = legal_barrier_edges(self) if self.supply_left > 0 else []
        if self.config.strict_colours:
            owners = self.owner_at
            found = [(a, b) for a, b in found if not (a in owners and owners.get(b) == owners[a])]
        self._cache[key] = found
        return list(found)

    def _apply_barrier(self, edge: Sequence[int] | None) -> DCState:
        if edge is None:
            if not self.config.optional_free_barrier:
                raise IllegalAction("the free barrier is compulsory (the optional-free-barrier variant is off)")
            return self._end_turn()
        edge = tuple(edge)
        if edge not in set(self.legal_barriers()):
            raise IllegalAction(f"the free barrier may not go on {edge}")
        state = replace(self, barriers=self.barriers | {edge}, placed_this_turn=self.placed_this_turn + 1)
        return state._end_turn()

    # --- turn order ------------------------------------------------------------------------------------

    def _end_turn(self) -> DCState:
        idle = 0 if self.placed_this_turn else self.idle_turns + 1
        return self._next_active(self.to_move, idle)

    def _next_active(self, after: int, idle: int) -> DCState:
        """The turn of the next player after `after` who has not stopped, or the end of the game: everyone
        stopped, the supply is empty, or a whole round of turns went by without a barrier."""
        state = replace(self, idle_turns=idle, placed_this_turn=0, stage=Stage.MOVE)
        active = [p for p in range(self.config.players) if not state.stopped(p)]
        if not active or state.supply_left == 0 or idle >= len(active):
            return replace(state, stage=Stage.OVER)
        nxt = next(
            p for k in range(1, self.config.players + 1) if not state.stopped(p := (after + k) % self.config.players)
        )
        return state._start_turn(nxt)

    def _start_turn(self, player: int) -> DCState:
        return replace(self, stage=Stage.MOVE, to_move=player, placed_this_turn=0)

    def __repr__(self) -> str:
        return f"DCState(stage={self.stage.value}, to_move={self.to_move}, barriers={len(self.barriers)})"


def automatic_barriers(config: Config, owner_at: dict[int, int], barriers: frozenset[Edge]) -> frozenset[Edge]:
    """The missing barriers between orthogonally adjacent trailers/bungalows of different players."""
    table = neighbour_table(config.rows, config.cols)
    walls = set()
    for square, owner in owner_at.items():
        for t in table[square]:
            if t > square and t in owner_at and owner_at[t] != owner:
                edge = (square, t)
                if edge not in barriers:
                    walls.add(edge)
    return frozenset(walls)


def legal_barrier_edges(state: DCState) -> list[Edge]:
    """Free barrier edges by one bridge search per open region (a non-bridge edge never splits a region;
    a bridge is legal when both sides hold a trailer or bungalow)."""
    config = state.config
    table = neighbour_table(config.rows, config.cols)
    barriers = state.barriers
    region_of = state.region_of
    sites = state.sites
    has_piece = [1 if s in state.owner_at else 0 for s in range(config.squares)]
    legal: list[Edge] = []
    order = [-1] * config.squares
    low = [0] * config.squares
    below = [0] * config.squares  # pieces in the DFS subtree
    counter = 0
    for root in range(config.squares):
        if order[root] >= 0:
            continue
        site = sites[region_of[root]]
        if site.allotted_to is not None:
            for s in site.squares:
                order[s] = 0
            continue
        region_pieces = sum(has_piece[s] for s in site.squares)
        splitting: set[Edge] = set()  # bridges that would leave a side with no trailer or bungalow
        order[root] = low[root] = counter
        counter += 1
        below[root] = has_piece[root]
        stack = [(root, -1, iter(table[root]))]
        while stack:
            s, parent, it = stack[-1]
            advanced = False
            for t in it:
                if edge_of(s, t) in barriers or t == parent:
                    continue
                if order[t] < 0:
                    order[t] = low[t] = counter
                    counter += 1
                    below[t] = has_piece[t]
                    stack.append((t, s, iter(table[t])))
                    advanced = True
                    break
                low[s] = min(low[s], order[t])
            if advanced:
                continue
            stack.pop()
            if parent >= 0:
                low[parent] = min(low[parent], low[s])
                below[parent] += below[s]
                if low[s] > order[parent]:
                    inside = below[s]
                    if inside == 0 or region_pieces - inside == 0:
                        splitting.add(edge_of(s, parent))
        for s in site.squares:
            for t in table[s]:
                if t > s and (s, t) not in barriers and (s, t) not in splitting:
                    legal.append((s, t))
    return sorted(legal)


# --- construction helpers ---------------------------------------------------------------------------------


def initial_state(config: Config | None = None, first_player: int = 0) -> DCState:
    """The empty campground before the swimming pool is placed."""
    config = config or Config()
    return DCState(config=config, stage=Stage.POOL, to_move=first_player, first_player=first_player)


def play_state(
    config: Config,
    *,
    pool: int,
    ice_creams: Iterable[int],
    nuisance: int,
    bungalows: Sequence[int],
    trailers: Sequence[Iterable[int]],
    barriers: Iterable[Sequence[int]] = (),
    to_move: int = 0,
    stage: Stage = Stage.MOVE,
    idle_turns: int = 0,
    first_player: int = 0,
) -> DCState:
    """A position during the turns (after the reveal), validated; automatic barriers must already be there."""
    state = DCState(
        config=config,
        stage=stage,
        to_move=to_move,
        pool=pool,
        ice_creams=tuple(sorted(ice_creams)),
        nuisance=nuisance,
        bungalows=tuple(bungalows),
        trailers=tuple(tuple(sorted(t)) for t in trailers),
        barriers=frozenset(edge_of(*e) for e in barriers),
        idle_turns=idle_turns,
        first_player=first_player,
    )
    validate(state)
    return state


def validate(state: DCState, *, complete: bool = True) -> None:
    """Raise ValueError when a position breaks a rule a reachable position always keeps.

    `complete=False` lets test pictures leave out the pool, the ice-cream stands or the pain-in-the-neck."""
    config = state.config
    squares: list[int] = []
    if state.stage in (Stage.MOVE, Stage.BARRIER, Stage.OVER):
        if len(state.bungalows) != config.players or len(state.trailers) != config.players:
            raise ValueError(f"every one of the {config.players} players needs a bungalow and trailers")
        if state.mystery:
            raise ValueError("the mystery tokens are revealed before the first turn")
        if complete and (state.pool < 0 or state.nuisance < 0 or len(state.ice_creams) != ICE_CREAM_STANDS):
            raise ValueError("the pool, two ice-cream stands and the pain-in-the-neck must all be on the board")
    for player in range(len(state.trailers)):
        if state.stage in (Stage.MOVE, Stage.BARRIER, Stage.OVER) and len(state.trailers[player]) != config.trailers:
            raise ValueError(f"player {player} needs {config.trailers} trailers, has {len(state.trailers[player])}")
    for s in (state.pool, state.nuisance, *state.mystery, *state.ice_creams, *state.bungalows):
        if s >= 0:
            squares.append(s)
    for t in state.trailers:
        squares.extend(t)
    for s in squares:
        if not 0 <= s < config.squares:
            raise ValueError(f"square {s} is off the {config.rows} x {config.cols} board")
    if len(set(squares)) != len(squares):
        raise ValueError("two pieces on one square")
    table = neighbour_table(config.rows, config.cols)
    placed = [b for b in state.bungalows if b >= 0]
    for b in placed:
        if state.pool >= 0 and state.pool in table[b]:
            raise ValueError(f"bungalow on square {b} is beside the swimming pool")
        if any(o in table[b] for o in placed if o != b):
            raise ValueError(f"bungalow on square {b} is beside another bungalow")
    for edge in state.barriers:
        if not is_edge(config, edge):
            raise ValueError(f"barrier {edge} is not between two adjacent squares")
    if len(state.barriers) > config.supply:
        raise ValueError(f"{len(state.barriers)} barriers on the board, the supply holds {config.supply}")
    if state.stage in (Stage.MOVE, Stage.BARRIER, Stage.OVER):
        missing = automatic_barriers(config, state.owner_at, state.barriers)
        if missing:
            raise ValueError(f"pieces of different players side by side without a barrier at {sorted(missing)}")
        for site in state.sites:
            if not site.owners:
                raise ValueError("a region without any trailer or bungalow (an empty site)")
        if state.stage is not Stage.OVER and state.stopped(state.to_move):
            raise ValueError(f"player {state.to_move} has stopped (all their sites are allotted) and cannot move")


def random_setup(config: Config, rng, first_player: int = 0) -> DCState:
    """Play the setup with uniformly random legal placements and reveal (a seeded position to start turns)."""
    state = initial_state(config, first_player)
    while state.stage not in (Stage.MOVE, Stage.OVER):
        if state.stage is Stage.REVEAL:
            outcomes = state.chance_outcomes()
            state = state.child(outcomes[int(rng.integers(len(outcomes)))][0])
            continue
        actions = state.legal_actions()
        state = state.child(actions[int(rng.integers(len(actions)))])
    return state


@lru_cache(maxsize=256)
def square_names(rows: int, cols: int) -> tuple[str, ...]:
    """Every square's name in text (rRcC), by square number: computed once a board shape, since a hint labels
    hundreds of choices."""
    return tuple(f"r{r}c{c}" for r in range(rows) for c in range(cols))


def describe_action(config: Config, action: Action) -> str:
    """A human-readable move: squares as rRcC (row R, column C from 0, as everywhere in text)."""
    at = square_names(config.rows, config.cols).__getitem__

    if isinstance(action, Place):
        return f"place at {at(action.square)}"
    if isinstance(action, Move):
        if not action.steps:
            return "stay"
        return ", ".join(f"{at(a)}->{at(b)}" for a, b in action.steps)
    if isinstance(action, Barrier):
        if action.edge is None:
            return "no free barrier"
        return f"barrier {at(action.edge[0])}|{at(action.edge[1])}"
    return f"pain-in-the-neck under {at(int(action))}"


# --- text boards (tests, docs and puzzles share one picture) -------------------------------------------------

PLAYER_LETTERS = "ABCD"


def parse_board(
    text: str,
    *,
    players: int | None = None,
    supply: int = DEFAULT_SUPPLY,
    to_move: int = 0,
    stage: Stage = Stage.MOVE,
    add_automatic: bool = False,
) -> DCState:
    """A position from its picture: a frame of `+`/`-`/`|`, squares on odd lines and columns, walls between
    them (`|` or `#` between columns, `-` or `=` between rows, a space for none). Squares: `.` empty,
    `P` pool, `S` (or `I`) ice-cream stand, `N` pain-in-the-neck, `A`-`D` bungalows, `a`-`d` trailers.

    `add_automatic` adds the automatic barriers between neighbouring pieces of different players."""
    lines = [line for line in text.strip("\n").splitlines() if line.strip()]
    lines = [line.strip() for line in lines]
    if len(lines) < 3 or len(lines) % 2 == 0:
        raise ValueError("a board picture has a frame line, then square lines and wall lines alternating")
    rows = (len(lines) - 1) // 2
    cols = (len(lines[1]) - 1) // 2
    marks: dict[int, str] = {}
    walls: set[Edge] = set()
    for r in range(rows):
        line = lines[2 * r + 1]
        if len(line) != 2 * cols + 1:
            raise ValueError(f"square line {r} has {len(line)} characters, expected {2 * cols + 1}")
        for c in range(cols):
            mark = line[2 * c + 1]
            if mark != ".":
                marks[r * cols + c] = mark
            if c < cols - 1 and line[2 * c + 2] in "|#":
                walls.add((r * cols + c, r * cols + c + 1))
        if r < rows - 1:
            below = lines[2 * r + 2]
            for c in range(cols):
                if below[2 * c + 1] in "-=":
                    walls.add((r * cols + c, (r + 1) * cols + c))
    letters = [m.upper() for m in marks.values() if m.upper() in PLAYER_LETTERS]
    count = players or max(PLAYER_LETTERS.index(m) + 1 for m in letters)
    bungalows = [-1] * count
    trailers: list[list[int]] = [[] for _ in range(count)]
    pool, nuisance, ice = -1, -1, []
    for square, mark in sorted(marks.items()):
        if mark == "P":
            pool = square
        elif mark == "N":
            nuisance = square
        elif mark in "SI":  # the puzzle text writes S; I, the older letter, still reads
            ice.append(square)
        elif mark in PLAYER_LETTERS:
            bungalows[PLAYER_LETTERS.index(mark)] = square
        elif mark in PLAYER_LETTERS.lower():
            trailers[PLAYER_LETTERS.lower().index(mark)].append(square)
        else:
            raise ValueError(f"unknown mark {mark!r}")
    counts = {len(t) for t in trailers}
    if len(counts) != 1:
        raise ValueError("every player needs the same number of trailers")
    config = Config(rows=rows, cols=cols, players=count, trailers=counts.pop(), supply=supply)
    state = DCState(
        config=config,
        stage=stage,
        to_move=to_move,
        pool=pool,
        ice_creams=tuple(ice),
        nuisance=nuisance,
        bungalows=tuple(bungalows),
        trailers=tuple(tuple(t) for t in trailers),
        barriers=frozenset(walls),
    )
    if add_automatic:
        state = replace(state, barriers=state.barriers | automatic_barriers(config, state.owner_at, state.barriers))
    validate(state, complete=False)
    return state


# --- the game (solver.core.game.Game) -------------------------------------------------------------------

#: The state of a Deluxe Camping game, named after the game (the same class as `DCState`).
DeluxeCampingState = DCState


@dataclass(frozen=True)
class DeluxeCampingSetup:
    """A table: the rules `Config` (it names the players) and who places first (`initial_state`'s arguments; the
    rulebook leaves the first player to the table, so a service draws it)."""

    config: Config = field(default_factory=Config)
    first_player: int = 0

    @property
    def players(self) -> int:
        return self.config.players


def new_deluxe_camping(setup: DeluxeCampingSetup) -> DCState:
    """The empty campground before the pool is placed, `setup.first_player` to place it (a seat of the table)."""
    if isinstance(setup.first_player, bool) or not 0 <= setup.first_player < setup.players:
        raise ValueError(f"the first player is a seat 0-{setup.players - 1}, got {setup.first_player}")
    return initial_state(setup.config, setup.first_player)


#: Deluxe Camping as a `Game`: a setup of the rules `Config` and the first player; a game starts with the pool to
#: place.
GAME: GameSpec[DeluxeCampingSetup, DCState] = GameSpec(
    name="deluxe_camping",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    make_config=lambda players: DeluxeCampingSetup(Config(players=players)),
    players_of=lambda setup: setup.players,
    start=new_deluxe_camping,
    scores=lambda state: state.scores(),
)
