"""Campsite rules model: terrain cards, the shared play area, tent tokens, rounds and scoring.

Every clause of the rulebook (`../shared/rules/campsite.txt`) lives here once; the solvers (`best_turn`,
`best_round`, `hint`, `puzzle`) and the service only call it. The readings the rulebook leaves open are decided
here and listed in docs/rules/campsite.md with the test that pins each:

- cards lie on one square grid (integer cell coordinates, rows counted down, columns right);
- a card never covers a square that holds a tent (only empty, tent-free terrain may be covered);
- a Fair Weather card doubles a tent when any of its *visible* squares (coloured or empty) is among the 8;
- the tent's own square is not one of its 8 surrounding squares;
- when the draw pile is empty the player simply does not draw (hands shrink; every player still has a card for
  each of the 7 turns because a deck must hold at least 2 + 7 x players cards);
- each round deals afresh: the two starting cards side by side (both landscape, the second to the right of the
  first), then 3 cards to each player.

Nothing in this module searches.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, cached_property

from campsolver.solver.core.budget import Budget
from campsolver.solver.core.game import CHANCE, TERMINAL, GameSpec

# --- Game facts ---------------------------------------------------------------------------------------------

#: A terrain card is 2 squares by 3 in its landscape orientation.
CARD_ROWS = 2
CARD_COLS = 3
CARD_SQUARES = CARD_ROWS * CARD_COLS
#: "The terrain area may occupy anywhere from 1 to 5 squares of a 6-square card."
MIN_COLOURED = 1
MAX_COLOURED = 5
#: Turns per round ("After each player has placed all their tents (7 turns)") and rounds per game.
TURNS_PER_ROUND = 7
ROUNDS = 3
HAND_SIZE = 3
STARTING_CARDS = 2
#: Six token sets in the box: 2-6 players (1 is the solo `max` setting).
MIN_PLAYERS = 1
MAX_PLAYERS = 6
#: The 8 squares around a tent, clockwise from the top-left as in the rulebook's diagram.
SURROUNDING: tuple[tuple[int, int], ...] = ((-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1))
FAIR_WEATHER_FACTOR = 2
#: Quarter turns clockwise; 0 and 2 lie landscape (2 x 3), 1 and 3 portrait (3 x 2). Never face down.
ROTATIONS = (0, 1, 2, 3)

Cell = tuple[int, int]


class Terrain(enum.IntEnum):
    """The six terrains; the value is the bit used in terrain masks."""

    DESERT = 0
    FOREST = 1
    MEADOW = 2
    MOUNTAINS = 3
    WATER = 4
    TRAIL = 5

    @property
    def bit(self) -> int:
        return 1 << self.value

    @property
    def letter(self) -> str:
        return TERRAIN_LETTERS[self]


#: One letter per terrain, for text pictures and card strings (readable without colour).
TERRAIN_LETTERS = {
    Terrain.DESERT: "D",
    Terrain.FOREST: "F",
    Terrain.MEADOW: "M",
    Terrain.MOUNTAINS: "P",  # P for peaks: M is Meadow
    Terrain.WATER: "W",
    Terrain.TRAIL: "T",
}
TERRAIN_BY_LETTER = {letter: terrain for terrain, letter in TERRAIN_LETTERS.items()}
ALL_TERRAINS_MASK = (1 << len(Terrain)) - 1


class Token(enum.IntEnum):
    """A tent token: one per terrain plus Wilderness (which scores distinct terrains)."""

    DESERT = 0
    FOREST = 1
    MEADOW = 2
    MOUNTAINS = 3
    WATER = 4
    TRAIL = 5
    WILDERNESS = 6

    @property
    def terrain(self) -> Terrain | None:
        return None if self is Token.WILDERNESS else Terrain(self.value)

    @property
    def letter(self) -> str:
        return "X" if self is Token.WILDERNESS else TERRAIN_LETTERS[Terrain(self.value)]


ALL_TOKENS: tuple[Token, ...] = tuple(Token)


class IllegalMove(ValueError):
    """A card placement, tent placement or table that breaks the rules."""


# --- Cards ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Card:
    """A terrain card: two different terrains, a 2 x 3 pattern of coloured squares, maybe Fair Weather (x2).

    `pattern` holds the coloured squares as (row, col) in the landscape orientation. Every coloured square
    features both terrains ("squares are always a combination of 2 different terrains").
    """

    terrains: tuple[Terrain, Terrain]
    pattern: frozenset[Cell]
    fair_weather: bool = False

    def __post_init__(self) -> None:
        first, second = self.terrains
        if first == second:
            raise IllegalMove("a card shows two different terrains")
        if first > second:
            object.__setattr__(self, "terrains", (second, first))
        if not all(0 <= r < CARD_ROWS and 0 <= c < CARD_COLS for r, c in self.pattern):
            raise IllegalMove("a card is 2 x 3 squares")
        if not MIN_COLOURED <= len(self.pattern) <= MAX_COLOURED:
            raise IllegalMove(f"a card has {MIN_COLOURED} to {MAX_COLOURED} coloured squares")

    def sort_key(self) -> tuple:
        """A total order (frozensets only compare as subsets): terrains, pattern, Fair Weather."""
        return (self.terrains, tuple(sorted(self.pattern)), self.fair_weather)

    def __lt__(self, other: Card) -> bool:
        return self.sort_key() < other.sort_key()

    @property
    def mask(self) -> int:
        """Terrain bits of each coloured square."""
        return self.terrains[0].bit | self.terrains[1].bit

    def text(self) -> str:
        """'DW ##./.#. x2': terrain letters, the two rows (# coloured, . empty), x2 for Fair Weather."""
        rows = "/".join(
            "".join("#" if (r, c) in self.pattern else "." for c in range(CARD_COLS)) for r in range(CARD_ROWS)
        )
        pair = "".join(t.letter for t in self.terrains)
        return f"{pair} {rows}" + (" x2" if self.fair_weather else "")

    def __str__(self) -> str:
        return self.text()

    def squares(self, rotation: int) -> dict[Cell, bool]:
        """Offset -> coloured? for the card turned `rotation` quarter turns clockwise."""
        return dict(_rotated_squares(self.pattern, rotation))


def parse_card(text: str) -> Card:
    """The inverse of `Card.text`."""
    parts = text.split()
    if len(parts) not in (2, 3) or len(parts[0]) != 2:
        raise IllegalMove(f"card {text!r}: expected 'XY ###/... [x2]'")
    if len(parts) == 3 and parts[2].lower() != "x2":
        raise IllegalMove(f"card {text!r}: the third part can only be x2")
    try:
        terrains = (TERRAIN_BY_LETTER[parts[0][0]], TERRAIN_BY_LETTER[parts[0][1]])
    except KeyError:
        raise IllegalMove(f"card {text!r}: terrain letters are {''.join(TERRAIN_BY_LETTER)}") from None
    return Card(terrains, pattern_from_rows(parts[1].split("/")), fair_weather=len(parts) == 3)


def pattern_from_rows(rows: Sequence[str]) -> frozenset[Cell]:
    """Coloured squares from two rows of three characters ('#' coloured, '.' empty)."""
    if len(rows) != CARD_ROWS or any(len(row) != CARD_COLS for row in rows):
        raise IllegalMove("a card is 2 rows of 3 squares")
    if any(ch not in "#." for row in rows for ch in row):
        raise IllegalMove("card squares are '#' (coloured) or '.' (empty)")
    return frozenset((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#")


@cache
def _rotated_squares(pattern: frozenset[Cell], rotation: int) -> tuple[tuple[Cell, bool], ...]:
    if rotation not in ROTATIONS:
        raise IllegalMove("rotation is 0-3 quarter turns")
    cells = [((r, c), (r, c) in pattern) for r in range(CARD_ROWS) for c in range(CARD_COLS)]
    rows = CARD_ROWS
    for _ in range(rotation):
        # A quarter turn clockwise maps (r, c) in an h-row card to (c, h - 1 - r).
        cells = [((c, rows - 1 - r), coloured) for (r, c), coloured in cells]
        rows = CARD_COLS if rows == CARD_ROWS else CARD_ROWS
    return tuple(sorted(cells))


# --- The play area -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Square:
    """The visible top square of one grid cell."""

    layer: int  # index of the card placement it belongs to
    coloured: bool
    mask: int  # terrain bits (0 when empty)
    fair_weather: bool


@dataclass(frozen=True)
class Placement:
    """A card laid with its top-left corner at (row, col), turned `rotation` quarter turns clockwise."""

    card: Card
    row: int
    col: int
    rotation: int = 0

    def squares(self) -> dict[Cell, bool]:
        """Table cell -> coloured? for every square of the card."""
        offsets = _rotated_squares(self.card.pattern, self.rotation)
        return {(self.row + dr, self.col + dc): coloured for (dr, dc), coloured in offsets}

    def footprint(self) -> frozenset[Cell]:
        return frozenset(self.squares())

    def signature(self) -> tuple:
        """What the table looks like after this placement (two placements with one signature are one play)."""
        return (
            self.card.terrains,
            self.card.fair_weather,
            tuple(sorted(self.squares().items())),
        )

    def label(self) -> str:
        turned = f" turned {90 * self.rotation}{'' if self.rotation == 2 else ' clockwise'}" if self.rotation else ""
        return f"{self.card.text()} at r{self.row}c{self.col}{turned}"


@dataclass(frozen=True)
class Tent:
    player: int
    token: Token
    row: int
    col: int

    @property
    def cell(self) -> Cell:
        return (self.row, self.col)


@dataclass(frozen=True)
class Table:
    """The central play area: card placements in the order they were laid, and the tents on them."""

    placements: tuple[Placement, ...] = ()
    tents: tuple[Tent, ...] = ()

    @cached_property
    def grid(self) -> dict[Cell, Square]:
        """The visible square of every covered cell (later cards lie on top)."""
        grid: dict[Cell, Square] = {}
        for layer, placement in enumerate(self.placements):
            card = placement.card
            for cell, coloured in placement.squares().items():
                grid[cell] = Square(layer, coloured, card.mask if coloured else 0, card.fair_weather)
        return grid

    @cached_property
    def tent_cells(self) -> dict[Cell, Tent]:
        return {tent.cell: tent for tent in self.tents}

    def free_squares(self) -> list[Cell]:
        """Visible empty squares without a tent: where a tent may go."""
        return sorted(cell for cell, sq in self.grid.items() if not sq.coloured and cell not in self.tent_cells)

    def check_placement(self, placement: Placement) -> None:
        """Raise `IllegalMove` unless the rulebook allows laying `placement` now."""
        grid = self.grid
        squares = placement.squares()
        if not grid:
            return  # the first starting card
        touches = False
        for cell in squares:
            below = grid.get(cell)
            if below is not None:
                touches = True  # overlapping, on top
                if below.coloured:
                    raise IllegalMove(f"square {cell} is coloured terrain: only empty terrain may be covered")
                if cell in self.tent_cells:
                    raise IllegalMove(f"square {cell} holds a tent: a tent is never covered")
        if not touches:
            touches = any((r + dr, c + dc) in grid for r, c in squares for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)))
        if not touches:
            raise IllegalMove("a card must share a square side with a card in play, or overlap one")

    def place(self, placement: Placement) -> Table:
        self.check_placement(placement)
        return Table((*self.placements, placement), self.tents)

    def check_tent(self, tent: Tent) -> None:
        square = self.grid.get(tent.cell)
        if square is None:
            raise IllegalMove(f"square {tent.cell} is table surface: a tent goes on a card")
        if square.coloured:
            raise IllegalMove(f"square {tent.cell} is coloured: a tent goes on empty terrain")
        if tent.cell in self.tent_cells:
            raise IllegalMove(f"square {tent.cell} already holds a tent")

    def pitch(self, tent: Tent) -> Table:
        self.check_tent(tent)
        return Table(self.placements, (*self.tents, tent))

    def legal_placements(self, cards: Iterable[Card], budget: Budget | None = None) -> list[Placement]:
        """Every distinct legal placement of the given cards (one per resulting table picture, whichever card of
        the hand shows it).

        With a budget, raises `SolveInterrupted` when it runs out (checked once per card).
        """
        return [
            Placement(card, row, col, rotation)
            for card, rotation, corners in self.legal_placement_groups(cards, budget)
            for row, col in corners
        ]

    def legal_placement_groups(
        self, cards: Iterable[Card], budget: Budget | None = None
    ) -> list[tuple[Card, int, list[Cell]]]:
        """`legal_placements` grouped without building them: (card, rotation, its legal corners in row-major
        order) per card in sorted order and rotation. For callers that handle thousands of plays a second.
        """
        grid = self.grid
        if not grid:
            return [(card, 0, [(0, 0)]) for card in sorted(set(cards))]
        # The same test as `check_placement`, with the table's sets built once. Whether a corner is legal depends
        # only on the card's outline (2 x 3 or 3 x 2), never on its pattern: compute the legal corners per outline
        # (cover no coloured square or tent; overlap a card or share a square side with one), then lay each
        # distinct picture of each card there. Same order as a row-by-row scan: card, rotation, row, column.
        blocked = {cell for cell, square in grid.items() if square.coloured} | set(self.tent_cells)
        corners: dict[tuple[int, int], list[Cell]] = {}
        for outline in ((CARD_ROWS, CARD_COLS), (CARD_COLS, CARD_ROWS)):
            height, width = outline
            foot, ring = outline_offsets(height, width)
            touching = {(r - dr, c - dc) for r, c in grid for dr, dc in foot + ring}
            covered = {(r - dr, c - dc) for r, c in blocked for dr, dc in foot}
            corners[outline] = sorted(touching - covered)
        found: list[tuple[Card, int, list[Cell]]] = []
        # One play per resulting picture, across the whole hand: a 180-degree symmetric pattern shows the same
        # picture turned 0 and 180 degrees, and two different cards of one terrain pair and Fair Weather whose
        # patterns are half turns of each other (WF #.#/.## and WF ##./#.#) show the same pictures as each other.
        # The first card in sorted order keeps them; the hand left over is the same either way up to a half turn.
        seen: set[tuple] = set()
        for index, card in enumerate(sorted(set(cards))):
            if budget is not None and index:
                budget.check()
            for rotation in ROTATIONS:
                picture = (card.terrains, card.fair_weather, _rotated_squares(card.pattern, rotation))
                if picture in seen:
                    continue  # the same picture as an earlier rotation of this card or an earlier card
                seen.add(picture)
                outline = (CARD_ROWS, CARD_COLS) if rotation % 2 == 0 else (CARD_COLS, CARD_ROWS)
                found.append((card, rotation, corners[outline]))
        return found


@cache
def outline_offsets(height: int, width: int) -> tuple[tuple[Cell, ...], tuple[Cell, ...]]:
    """The squares of a height x width card from its corner, and the squares sharing a side with it."""
    foot = tuple((dr, dc) for dr in range(height) for dc in range(width))
    ring = (
        tuple((-1, dc) for dc in range(width))
        + tuple((height, dc) for dc in range(width))
        + tuple((dr, -1) for dr in range(height))
        + tuple((dr, width) for dr in range(height))
    )
    return foot, ring


def starting_table(first: Card, second: Card) -> Table:
    """The two starting cards face up, side by side: both landscape, the second to the right of the first."""
    return Table((Placement(first, 0, 0, 0), Placement(second, 0, CARD_COLS, 0)))


def table_from_placements(placements: Sequence[Placement], tents: Sequence[Tent] = ()) -> Table:
    """Replay placements in order (each checked; the first is free), then pitch the tents (each checked)."""
    table = Table()
    for placement in placements:
        table = table.place(placement)
    for tent in tents:
        table = table.pitch(tent)
    return table


# --- Scoring -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TentScore:
    tent: Tent
    base: int
    doubled: bool

    @property
    def points(self) -> int:
        return self.base * (FAIR_WEATHER_FACTOR if self.doubled else 1)


def tent_points(grid: dict[Cell, Square], token: Token, cell: Cell) -> tuple[int, bool]:
    """(base points, doubled?) of `token` on `cell` as the table stands."""
    row, col = cell
    matched = 0
    seen = 0
    doubled = False
    terrain = token.terrain
    bit = terrain.bit if terrain is not None else 0
    for dr, dc in SURROUNDING:
        square = grid.get((row + dr, col + dc))
        if square is None:
            continue
        doubled = doubled or square.fair_weather
        if square.coloured:
            seen |= square.mask
            if square.mask & bit:
                matched += 1
    base = bin(seen).count("1") if terrain is None else matched
    return base, doubled


def score_tent(table: Table, tent: Tent) -> TentScore:
    base, doubled = tent_points(table.grid, tent.token, tent.cell)
    return TentScore(tent, base, doubled)


def player_scores(table: Table, players: int) -> list[int]:
    """Each player's points for the round as the table stands (every tent scored at round end)."""
    totals = [0] * players
    for tent in table.tents:
        totals[tent.player] += score_tent(table, tent).points
    return totals


# --- Decks ---------------------------------------------------------------------------------------------------


def parse_deck(lines: Iterable[str]) -> tuple[Card, ...]:
    return tuple(parse_card(line) for line in lines if line.strip() and not line.lstrip().startswith("#"))


@cache
def default_deck() -> tuple[Card, ...]:
    """The shipped deck (data in `deck_data.py`, produced by `deck_recipe()`); parsed once (10+ ms of every
    request that leaves the deck out)."""
    from campsolver.solver.campsite.deck_data import DEFAULT_DECK

    return parse_deck(DEFAULT_DECK)


def deck_recipe(copies: int = 4, fair_weather_every: int = 6) -> tuple[Card, ...]:
    """The documented recipe of the default deck (60 cards).

    For each of the 15 terrain pairs (in order DF, DM, ..., WT) and each copy j = 0..copies-1, with running card
    number n = 4 x pair + j: the card has k = 1 + (pair + j) mod 5 coloured squares, its pattern is pattern
    number (7 x pair + 3 x j) mod C(6, k) among the k-subsets of the 6 squares in lexicographic order of their
    row-major indices, and it is Fair Weather when n mod 6 == 5 (10 of the 60). Every pair therefore appears
    4 times, every count 1-5 appears 12 times, and the patterns vary.
    """
    from itertools import combinations

    pairs = [(a, b) for a in Terrain for b in Terrain if a < b]
    deck = []
    for index, pair in enumerate(pairs):
        for copy in range(copies):
            number = copies * index + copy
            count = 1 + (index + copy) % MAX_COLOURED
            subsets = list(combinations(range(CARD_SQUARES), count))
            chosen = subsets[(7 * index + 3 * copy) % len(subsets)]
            pattern = frozenset(divmod(square, CARD_COLS) for square in chosen)
            deck.append(Card(pair, pattern, fair_weather=number % fair_weather_every == fair_weather_every - 1))
    return tuple(deck)


def minimum_deck_size(players: int) -> int:
    """Cards a deck needs so every player can lay a card on each of the 7 turns of a round."""
    return STARTING_CARDS + TURNS_PER_ROUND * players


# --- The game as a state machine (OpenSpiel style) -------------------------------------------------------


class Stage(enum.Enum):
    DEAL = "deal"  # chance: the next card off the pile goes to the start or a hand
    CARD = "card"  # the player to move lays a card
    TENT = "tent"  # the player to move pitches a tent
    DRAW = "draw"  # chance: the player to move draws (skipped when the pile is empty)
    OVER = "over"


@dataclass(frozen=True)
class PlayCard:
    """Lay the card `placement.card` from the hand as `placement`."""

    placement: Placement


@dataclass(frozen=True)
class PitchTent:
    token: Token
    row: int
    col: int


Action = PlayCard | PitchTent


@dataclass(frozen=True)
class CampsiteState:
    """A whole game. Draws are chance nodes over the cards left in the pile, each with its exact probability."""

    players: int
    deck: tuple[Card, ...]
    round: int = 0  # 0-based
    turn: int = 0  # turns completed this round (all players)
    stage: Stage = Stage.DEAL
    pile: tuple[Card, ...] = ()  # the cards not yet drawn this round, as a sorted multiset
    hands: tuple[tuple[Card, ...], ...] = ()
    table: Table = field(default_factory=Table)
    tokens: tuple[frozenset[Token], ...] = ()  # tokens not yet pitched this round
    totals: tuple[int, ...] = ()  # points of the rounds already scored
    round_scores: tuple[tuple[int, ...], ...] = ()
    starter: int = 0  # the player who begins each round

    @property
    def to_move(self) -> int:
        return (self.starter + self.turn) % self.players

    def current_player(self) -> int:
        if self.stage is Stage.OVER:
            return TERMINAL
        if self.stage in (Stage.DEAL, Stage.DRAW):
            return CHANCE
        return self.to_move

    def legal_actions(self) -> list[Action]:
        if self.stage is Stage.CARD:
            return [PlayCard(p) for p in self.table.legal_placements(self.hands[self.to_move])]
        if self.stage is Stage.TENT:
            return [
                PitchTent(token, r, c)
                for token in sorted(self.tokens[self.to_move])
                for r, c in self.table.free_squares()
            ]
        return []

    def chance_outcomes(self) -> list[tuple[Card, Fraction]]:
        if self.stage not in (Stage.DEAL, Stage.DRAW):
            return []
        counts = Counter(self.pile)
        total = len(self.pile)
        return [(card, Fraction(n, total)) for card, n in sorted(counts.items())]

    def child(self, action: Action | Card) -> CampsiteState:
        if self.stage is Stage.DEAL:
            return self._deal(_as_card(action))
        if self.stage is Stage.DRAW:
            return self._draw(_as_card(action))
        if self.stage is Stage.CARD:
            if not isinstance(action, PlayCard):
                raise IllegalMove("lay a card first")
            return self._play_card(action.placement)
        if self.stage is Stage.TENT:
            if not isinstance(action, PitchTent):
                raise IllegalMove("pitch a tent now")
            return self._pitch(action)
        raise IllegalMove("the game is over")

    def returns(self) -> list[float]:
        return [float(t) for t in self.totals]

    def winners(self) -> list[int]:
        best = max(self.totals)
        return [i for i, t in enumerate(self.totals) if t == best]

    # -- transitions ----------------------------------------------------------------------------------------

    def _take(self, card: Card) -> tuple[Card, ...]:
        pile = list(self.pile)
        try:
            pile.remove(card)
        except ValueError:
            raise IllegalMove(f"card {card} is not in the draw pile") from None
        return tuple(pile)

    def _deal(self, card: Card) -> CampsiteState:
        pile = self._take(card)
        laid = len(self.table.placements)
        if laid < STARTING_CARDS:
            placement = Placement(card, 0, CARD_COLS * laid, 0)
            state = _replace(self, pile=pile, table=self.table.place(placement))
        else:
            dealt = sum(len(h) for h in self.hands)
            seat = (self.starter + dealt // HAND_SIZE) % self.players
            hands = list(self.hands)
            hands[seat] = tuple(sorted(hands[seat] + (card,)))
            state = _replace(self, pile=pile, hands=tuple(hands))
            if dealt + 1 == HAND_SIZE * self.players:
                state = _replace(state, stage=Stage.CARD)
        return state

    def _play_card(self, placement: Placement) -> CampsiteState:
        hand = list(self.hands[self.to_move])
        if placement.card not in hand:
            raise IllegalMove(f"card {placement.card} is not in the hand of player {self.to_move}")
        table = self.table.place(placement)
        hand.remove(placement.card)
        hands = list(self.hands)
        hands[self.to_move] = tuple(hand)
        return _replace(self, table=table, hands=tuple(hands), stage=Stage.TENT)

    def _pitch(self, action: PitchTent) -> CampsiteState:
        player = self.to_move
        if action.token not in self.tokens[player]:
            raise IllegalMove(f"token {action.token.name} was already used this round")
        table = self.table.pitch(Tent(player, action.token, action.row, action.col))
        tokens = list(self.tokens)
        tokens[player] = tokens[player] - {action.token}
        state = _replace(self, table=table, tokens=tuple(tokens), stage=Stage.DRAW)
        if not state.pile:
            return state._end_turn()  # empty pile: no draw
        return state

    def _draw(self, card: Card) -> CampsiteState:
        pile = self._take(card)
        hands = list(self.hands)
        hands[self.to_move] = tuple(sorted(hands[self.to_move] + (card,)))
        return _replace(self, pile=pile, hands=tuple(hands))._end_turn()

    def _end_turn(self) -> CampsiteState:
        turn = self.turn + 1
        if turn < TURNS_PER_ROUND * self.players:
            return _replace(self, turn=turn, stage=Stage.CARD)
        scores = tuple(player_scores(self.table, self.players))
        totals = tuple(a + b for a, b in zip(self.totals, scores, strict=True))
        state = _replace(self, totals=totals, round_scores=(*self.round_scores, scores), turn=turn)
        if self.round + 1 >= ROUNDS:
            return _replace(state, stage=Stage.OVER)
        return _fresh_round(state, self.round + 1)


def _as_card(outcome: object) -> Card:
    if not isinstance(outcome, Card):
        raise IllegalMove("a chance node takes a card")
    return outcome


def _replace(state: CampsiteState, **changes: object) -> CampsiteState:
    from dataclasses import replace

    return replace(state, **changes)


def _fresh_round(state: CampsiteState, round_index: int) -> CampsiteState:
    """Gather every card, shuffle (the pile is the whole deck again), tokens back, deal anew."""
    return _replace(
        state,
        round=round_index,
        turn=0,
        stage=Stage.DEAL,
        pile=tuple(sorted(state.deck)),
        hands=tuple(() for _ in range(state.players)),
        table=Table(),
        tokens=tuple(frozenset(ALL_TOKENS) for _ in range(state.players)),
        starter=round_index % state.players,
    )


def new_game(players: int, deck: Sequence[Card] | None = None) -> CampsiteState:
    """A game before the first deal. The first player of round r is seat r mod players (seats rotate)."""
    deck = tuple(deck) if deck is not None else default_deck()
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalMove(f"{MIN_PLAYERS}-{MAX_PLAYERS} players")
    if len(deck) < minimum_deck_size(players):
        raise IllegalMove(f"a deck for {players} players needs at least {minimum_deck_size(players)} cards")
    base = CampsiteState(players=players, deck=deck, totals=(0,) * players)
    return _fresh_round(base, 0)


def deal_in_order(state: CampsiteState, order: Sequence[Card]) -> CampsiteState:
    """Resolve the deal chance nodes with the cards of `order` in turn (a known deck order)."""
    for card in order:
        if state.stage is not Stage.DEAL:
            break
        state = state.child(card)
    return state


def iter_turn_plays(table: Table, hand: Sequence[Card], tokens: Iterable[Token]) -> Iterator[tuple[Placement, Tent]]:
    """Every (card placement, tent) of one turn for player 0 (used by small oracles and tests)."""
    for placement in table.legal_placements(hand):
        after = table.place(placement)
        for token in sorted(tokens):
            for r, c in after.free_squares():
                yield placement, Tent(0, token, r, c)


# --- the game (solver.core.game.Game) -------------------------------------------------------------------


@dataclass(frozen=True)
class CampsiteSetup:
    """A table: how many players and the deck (None: the default 60 cards), `new_game`'s arguments."""

    players: int
    deck: tuple[Card, ...] | None = None


def score_sheet(state: CampsiteState) -> tuple[int, ...]:
    """Each player's points summed over the rounds scored so far (the final scores once the game is over)."""
    return tuple(sum(scores[seat] for scores in state.round_scores) for seat in range(state.players))


#: Campsite as a `Game`: 1-6 players, three rounds; a game starts with the deal of the starting cards.
GAME: GameSpec[CampsiteSetup, CampsiteState] = GameSpec(
    name="campsite",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    make_config=lambda players: CampsiteSetup(players),
    players_of=lambda setup: setup.players,
    start=lambda setup: new_game(setup.players, setup.deck),
    scores=score_sheet,
)
