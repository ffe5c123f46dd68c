"""Adventure Tours rules model: every clause of the rulebook and its Guide as an immutable `GameState`.

A turn is a queue of steps (`Step`): the regular play, then whatever the card's action, the board's ability and
Pater Miller add to it. Decisions are atomic (`Play`, `Target`, `GiveTwo`, `Place`, `Accept`, `Skip`, `Protect`,
`GiftChoice`, `ChooseBoard`); every card drawn or dealt from a shuffled pile is a chance node with the exact
probability of each card kind (`fractions.Fraction`); a pile in a known order (the `max` setting) gives a single
outcome of probability 1. Nothing here searches: solvers live in `hint`, `search`, `puzzle`.

Every reading the rulebook leaves open is decided here and listed in docs/rules/adventure-tours.md with the
test that pins it.
"""

from __future__ import annotations

import enum
import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import cached_property

from campsolver.solver.adventure_tours.deck import (
    ATTACKS,
    DEFAULT_DECK,
    DESERT,
    EXPERT_BOARDS,
    Ability,
    Act,
    Board,
    Card,
)
from campsolver.solver.core.game import CHANCE, TERMINAL, GameSpec

# --- Game facts -----------------------------------------------------------------------------------------------

MIN_PLAYERS = 3
MAX_PLAYERS = 6
#: The max / puzzle solvers also accept a solo table (one player) and two players.
MIN_SOLVER_PLAYERS = 1
HAND_SIZE = 6
ROUNDS = 3
#: Coins paid per card left in hand at the round end.
HAND_PENALTY = 2


class Variation(enum.Enum):
    """Board handling between rounds (rulebook "Variation 1" / "Variation 2")."""

    NONE = "none"
    SHUFFLE = "variation 1"  # all boards shuffled and redistributed before each round
    LOWEST_CHOOSES = "variation 2"  # lowest scorer of the round chooses first among the boards in use


class MoneyFloor(enum.Enum):
    """Where "a player can drop no lower than 0 with his money" applies to the hand costs at a round end.

    PILE (default): money is the pile in front of the player, so hand costs may eat earlier rounds' money and
    only the pile stops at 0 (20 coins held, income 3, 4 cards in hand: 20 + 3 - 8 = 15). ROUND (named variant
    "per-round floor"): each round's income minus hand costs is floored at 0 on its own (the same case: 20).
    """

    PILE = "money pile"
    ROUND = "per round"


def money_change(floor: MoneyFloor, money: int, income: int, hand_cards: int) -> int:
    """What a round end adds to a player's money: income minus 2 per card in hand, floored as `floor` reads
    the rulebook (never below 0 for the round under ROUND; the pile `money` never below 0 under PILE)."""
    net = income - HAND_PENALTY * hand_cards
    return max(0, net) if floor is MoneyFloor.ROUND else max(-money, net)


# --- Actions (decisions) --------------------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Play:
    """The regular play: `card` from hand on top as a member (`member`) or to the right as equipment."""

    card: int
    member: bool


@dataclass(frozen=True, order=True)
class Target:
    """The player an action (or the gift of ability 2) is aimed at; yourself included."""

    player: int


@dataclass(frozen=True, order=True)
class GiveTwo:
    """Two cards from the draw pile: both to one player (`first == second`) or one each (announced together)."""

    first: int
    second: int


@dataclass(frozen=True, order=True)
class Place:
    """A further card from hand: equipment (extra equipment, ability 1) or member (same colour, ability 4)."""

    card: int


@dataclass(frozen=True, order=True)
class Accept:
    """Take the offered extra turn / use the ability."""


@dataclass(frozen=True, order=True)
class Skip:
    """Decline an optional action or ability ("can be employed": every action is optional)."""


@dataclass(frozen=True, order=True)
class Protect:
    """The attacked player's answer: parry with a Pater Miller (which is then removed) or let it happen."""

    use: bool


@dataclass(frozen=True, order=True)
class GiftChoice:
    """Ability 2 after equipment: draw or not, and the gift's recipient (-1: no gift)."""

    draw: bool
    gift: int


@dataclass(frozen=True, order=True)
class ChooseBoard:
    """Variation 2: take one of the boards in use for the next round (index into `Config.boards`)."""

    board: int


Action = Play | Target | GiveTwo | Place | Accept | Skip | Protect | GiftChoice | ChooseBoard


@dataclass(frozen=True)
class Step:
    """One pending piece of a turn. `card` is the card concerned, `aux` the attacker of a defend step."""

    kind: str
    player: int
    card: int = -1
    aux: int = -1


#: Steps a player decides; the rest are chance (draw, deal, shuffle_boards) or settle on their own.
DECISION_STEPS = frozenset(
    {"play", "action", "defend", "offer_a", "offer_b", "offer_c", "offer_d", "offer_e", "offer_f", "choose_board"}
)
CHANCE_STEPS = frozenset({"draw", "deal", "shuffle_boards"})


class IllegalAction(ValueError):
    """An action that is not legal in the state it was applied to."""


# --- Configuration --------------------------------------------------------------------------------------------


class Config:
    """The table: deck, boards, players, rounds, variation. Compared by identity (states share one object)."""

    def __init__(
        self,
        players: int = 3,
        *,
        deck: Sequence[Card] = DEFAULT_DECK,
        expert: bool = False,
        boards: Sequence[Board] | None = None,
        rounds: int = ROUNDS,
        variation: Variation = Variation.NONE,
        hand_size: int = HAND_SIZE,
        allow_small: bool = False,
        money_floor: MoneyFloor = MoneyFloor.PILE,
    ) -> None:
        low = MIN_SOLVER_PLAYERS if allow_small else MIN_PLAYERS
        if not low <= players <= MAX_PLAYERS:
            raise ValueError(f"{low}-{MAX_PLAYERS} players, got {players}")
        if boards is None:
            boards = EXPERT_BOARDS if expert else (DESERT,) * MAX_PLAYERS
        if len(boards) < players:
            raise ValueError(f"{len(boards)} boards for {players} players")
        if rounds < 1:
            raise ValueError("at least one round")
        self.players = players
        self.deck = tuple(deck)
        self.boards = tuple(boards)
        self.expert = expert
        self.rounds = rounds
        self.variation = variation
        self.hand_size = hand_size
        self.money_floor = money_floor
        self.colour = [int(c.colour) for c in self.deck]
        self.demand = [c.demand for c in self.deck]
        self.money = [c.money for c in self.deck]
        self.value = [c.value for c in self.deck]
        self.action = [c.action for c in self.deck]
        self.kind = [c.kind for c in self.deck]

    def ability(self, board: int) -> Ability:
        return self.boards[board].ability if self.expert else Ability.NONE


# --- State ----------------------------------------------------------------------------------------------------


def _sorted(cards: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(cards))


@dataclass(frozen=True)
class State:
    """A position. `hands`/`discard` are sorted; `equipment`/`members` keep laying order (last = rightmost);
    `deck` is sorted when shuffled (`deck_ordered` False) and top-first when its order is known."""

    config: Config = field(compare=False, hash=False)
    hands: tuple[tuple[int, ...], ...]
    equipment: tuple[tuple[int, ...], ...]
    members: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    seat_boards: tuple[int, ...]
    pending: tuple[Step, ...]
    to_move: int = 0
    starter: int = 0
    round_index: int = 0
    totals: tuple[int, ...] = ()
    extra_turns: int = 0
    ability_used: bool = False
    deck_ordered: bool = False
    over: bool = False
    #: Round incomes of the last finished round (after the hand penalty).
    last_round: tuple[int, ...] = ()
    #: The player whose turn ended the last round.
    ender: int = -1
    #: Variation 2: boards still to be chosen.
    choosing: tuple[int, ...] = ()

    # -- GameState protocol --

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        step = self.pending[0]
        if step.kind in CHANCE_STEPS:
            return CHANCE
        return step.player

    def legal_actions(self) -> list[Action]:
        if self.over or self.pending[0].kind in CHANCE_STEPS:
            return []
        return _legal(self, self.pending[0])

    def chance_outcomes(self) -> list[tuple[int | tuple[int, ...], Fraction]]:
        if self.over or self.pending[0].kind not in CHANCE_STEPS:
            return []
        step = self.pending[0]
        if step.kind == "shuffle_boards":
            n = self.config.players
            perms = list(itertools.permutations(range(len(self.config.boards)), n))
            return [(p, Fraction(1, len(perms))) for p in perms]
        if self.deck_ordered:
            return [(self.deck[0], Fraction(1))]
        counts: dict[tuple, list[int]] = {}
        for card in self.deck:
            entry = counts.setdefault(self.config.kind[card], [card, 0])
            entry[1] += 1
        total = len(self.deck)
        return [(card, Fraction(count, total)) for card, count in counts.values()]

    def child(self, action: object) -> State:
        if self.over:
            raise IllegalAction("the game is over")
        step = self.pending[0]
        rest = self.pending[1:]
        if step.kind in CHANCE_STEPS:
            return _settle(_resolve_chance(self, step, rest, action))
        if action not in _legal(self, step):
            raise IllegalAction(f"{action!r} is not legal at {step.kind} of player {step.player}")
        return _settle(_resolve_decision(self, step, rest, action))

    def child_of_legal(self, action: Action) -> State:
        """`child` for an action taken from `legal_actions()` of this very state (a rollout's rule of thumb): the
        same successor, without checking the action against the legal list again."""
        step = self.pending[0]
        if self.over or step.kind in CHANCE_STEPS:
            return self.child(action)
        return _settle(_resolve_decision(self, step, self.pending[1:], action))

    def returns(self) -> list[float]:
        return [float(t) for t in self.totals]

    # -- derived facts --

    def board(self, player: int) -> Board:
        return self.config.boards[self.seat_boards[player]]

    def ability(self, player: int) -> Ability:
        return self.config.ability(self.seat_boards[player])

    def equipment_level(self, player: int, colour: int) -> int:
        return self._levels[player][colour]

    @cached_property
    def _levels(self) -> tuple[tuple[int, ...], ...]:
        """Every player's equipment level per colour: board start plus the values of the equipment of that colour
        (computed once a state: the rules of thumb ask it for every hand card)."""
        cfg = self.config
        out = []
        for player, row in enumerate(self.equipment):
            levels = list(self.board(player).start)
            for c in row:
                levels[cfg.colour[c]] += cfg.value[c]
            out.append(tuple(levels))
        return tuple(out)

    def can_join(self, player: int, card: int) -> bool:
        """The demand of `card` does not exceed the player's equipment of its colour."""
        return self.config.demand[card] <= self.equipment_level(player, self.config.colour[card])

    def income(self, player: int) -> int:
        return sum(self.config.money[c] for c in self.members[player])

    def round_score(self, player: int) -> int:
        """What the round would add to the player's money if it ended now: income minus 2 per hand card, floored
        as `Config.money_floor` says (under the default PILE floor it is negative when hand costs eat earlier
        rounds' money, never below minus the money held)."""
        return money_change(self.config.money_floor, self.totals[player], self.income(player), len(self.hands[player]))

    def round_score_floor(self, player: int) -> int:
        """The lowest `round_score` the player can have this round whatever happens (a bound for the solvers)."""
        return 0 if self.config.money_floor is MoneyFloor.ROUND else -self.totals[player]

    def round_scores(self) -> list[int]:
        return [self.round_score(p) for p in range(self.config.players)]

    def step(self) -> Step | None:
        return None if self.over else self.pending[0]

    def protectors(self, player: int) -> list[tuple[str, int]]:
        """Pater Millers that can parry an attack on `player`: members, and equipment on the board whose
        ability plays equipment actions (Guide, ability 3)."""
        cfg = self.config
        found = [("members", c) for c in self.members[player] if cfg.action[c] is Act.PATER_MILLER]
        if self.ability(player) is Ability.EQUIPMENT_ACTION:
            found += [("equipment", c) for c in self.equipment[player] if cfg.action[c] is Act.PATER_MILLER]
        return found

    @cached_property
    def _hash(self) -> int:
        return hash(
            (
                self.hands,
                self.equipment,
                self.members,
                self.deck,
                self.discard,
                self.seat_boards,
                self.pending,
                self.to_move,
                self.round_index,
                self.totals,
                self.extra_turns,
                self.ability_used,
                self.over,
            )
        )

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return (
            self._hash == other._hash
            and self.config is other.config
            and self.hands == other.hands
            and self.equipment == other.equipment
            and self.members == other.members
            and self.deck == other.deck
            and self.discard == other.discard
            and self.pending == other.pending
            and self.seat_boards == other.seat_boards
            and self.to_move == other.to_move
            and self.round_index == other.round_index
            and self.totals == other.totals
            and self.extra_turns == other.extra_turns
            and self.ability_used == other.ability_used
            and self.over == other.over
            and self.deck_ordered == other.deck_ordered
            and self.starter == other.starter
            and self.choosing == other.choosing
        )

    def all_cards(self) -> Counter[int]:
        """Every card id wherever it lies (conservation: each id exactly once)."""
        found: Counter[int] = Counter(self.deck)
        found.update(self.discard)
        for rows in (self.hands, self.equipment, self.members):
            for row in rows:
                found.update(row)
        return found


#: The names of `State`'s fields (what `replace` may change).
_STATE_FIELDS = frozenset(f.name for f in fields(State))


def replace(state: State, /, **changes: object) -> State:
    """`dataclasses.replace` for a `State`, without re-running the generated `__init__`: the copy shares every
    unchanged field and drops the cached hash. Rollouts make hundreds of thousands of states, and the generic
    `replace` was half of a hint's CPU."""
    if not changes.keys() <= _STATE_FIELDS:
        raise TypeError(f"State has no field {sorted(changes.keys() - _STATE_FIELDS)}")
    new = object.__new__(State)
    values = new.__dict__
    values.update(state.__dict__)
    values.pop("_hash", None)
    values.pop("_levels", None)
    values.update(changes)
    return new


# --- construction ---------------------------------------------------------------------------------------------


def boards_differ(config: Config) -> bool:
    """Whether the boards on offer are not all alike (expert sides, or custom boards): then who gets which one
    matters and the deal is a chance node."""
    return config.expert or len(set(config.boards)) > 1


def new_game(config: Config) -> State:
    """The start of a game: "each player receives a board at random" (a chance node over the boards' ordered
    choices, uniform, when the boards differ; seat i holds board i until it is resolved), deck shuffled, hands
    dealt by chance. Whoever resolves the chance nodes from a seed deals the boards from that seed too."""
    n = config.players
    empty = ((),) * n
    deck = tuple(range(len(config.deck)))
    if len(deck) <= config.hand_size * n:
        raise ValueError(f"a deck of {len(deck)} cards cannot deal {config.hand_size} to {n} players")
    state = State(
        config=config,
        hands=empty,
        equipment=empty,
        members=empty,
        deck=deck,
        discard=(),
        seat_boards=tuple(range(n)),
        pending=(),
        totals=(0,) * n,
    )
    return _settle(
        replace(state, pending=_round_setup(config, starter=0, order=None, deal_boards=boards_differ(config)))
    )


def _round_setup(config: Config, starter: int, order: list[int] | None, deal_boards: bool = False) -> tuple[Step, ...]:
    n = config.players
    steps: list[Step] = []
    if deal_boards or (config.variation is Variation.SHUFFLE and config.expert):
        steps.append(Step("shuffle_boards", -1))
    if config.variation is Variation.LOWEST_CHOOSES and config.expert and order is not None:
        steps += [Step("choose_board", p) for p in order]
    for i in range(config.hand_size * n):
        steps.append(Step("deal", (starter + i) % n))
    steps.append(Step("play", starter))
    return tuple(steps)


def position(
    config: Config,
    *,
    hands: Sequence[Sequence[int]],
    equipment: Sequence[Sequence[int]] | None = None,
    members: Sequence[Sequence[int]] | None = None,
    discard: Sequence[int] = (),
    deck: Sequence[int] | None = None,
    deck_ordered: bool = False,
    to_move: int = 0,
    starter: int | None = None,
    round_index: int = 0,
    totals: Sequence[int] | None = None,
    seat_boards: Sequence[int] | None = None,
) -> State:
    """A position at the start of `to_move`'s turn. Without `deck`, every card not placed is in the pile."""
    n = config.players
    equipment = equipment or [()] * n
    members = members or [()] * n
    placed: list[int] = [c for row in (*hands, *equipment, *members) for c in row] + list(discard)
    if deck is None:
        taken = set(placed)
        deck = [c for c in range(len(config.deck)) if c not in taken]
    state = State(
        config=config,
        hands=tuple(_sorted(h) for h in hands),
        equipment=tuple(tuple(e) for e in equipment),
        members=tuple(tuple(m) for m in members),
        deck=tuple(deck) if deck_ordered else _sorted(deck),
        discard=_sorted(discard),
        seat_boards=tuple(seat_boards) if seat_boards is not None else tuple(range(n)),
        pending=(Step("play", to_move),),
        to_move=to_move,
        starter=to_move if starter is None else starter,
        round_index=round_index,
        totals=tuple(totals) if totals is not None else (0,) * n,
        deck_ordered=deck_ordered,
    )
    validate(state)
    return state


def validate(state: State) -> None:
    """Raise ValueError naming what is wrong (used for requests)."""
    cfg = state.config
    n = cfg.players
    for name, rows in (("hands", state.hands), ("equipment", state.equipment), ("members", state.members)):
        if len(rows) != n:
            raise ValueError(f"{name}: {len(rows)} rows for {n} players")
    counts = state.all_cards()
    for card, count in counts.items():
        if not 0 <= card < len(cfg.deck):
            raise ValueError(f"card {card} is not in the deck (0-{len(cfg.deck) - 1})")
        if count > 1:
            raise ValueError(f"card {card} lies in {count} places")
    if len(counts) != len(cfg.deck):
        raise ValueError(f"{len(cfg.deck) - len(counts)} cards of the deck lie nowhere")
    # While the boards are chosen (variation 2) a seat keeps last round's board until it picks one.
    if len(state.seat_boards) != n or (len(set(state.seat_boards)) != n and not state.choosing):
        raise ValueError("every player needs a board of their own")
    if any(not 0 <= b < len(cfg.boards) for b in state.seat_boards):
        raise ValueError("board index out of range")
    if not 0 <= state.to_move < n:
        raise ValueError(f"to_move must be 0-{n - 1}")
    if not state.over and not state.deck:
        raise ValueError("the draw pile is empty: the round is already over")
    if not state.over and state.pending and state.pending[0].kind == "play" and not state.hands[state.to_move]:
        raise ValueError("the player to move has no card: the round is already over")
    if len(state.totals) != n or any(t < 0 for t in state.totals):
        raise ValueError("totals: one non-negative total per player")


# --- legality -------------------------------------------------------------------------------------------------


def _players(state: State) -> range:
    return range(state.config.players)


def _action_choices(state: State, actor: int, card: int) -> list[Action]:
    cfg = state.config
    act = cfg.action[card]
    choices: list[Action] = []
    if act is Act.GIVE_ONE:
        choices = [Target(p) for p in _players(state)]
    elif act is Act.GIVE_TWO:
        choices = [GiveTwo(p, q) for p in _players(state) for q in _players(state) if p <= q]
    elif act is Act.EXTRA_EQUIPMENT:
        choices = [Place(c) for c in state.hands[actor]]
    elif act is Act.DISCARD_EQUIPMENT:
        choices = [Target(p) for p in _players(state) if state.equipment[p]]
    elif act is Act.STEAL_EQUIPMENT:
        choices = [Target(p) for p in _players(state) if p != actor and state.equipment[p]]
    elif act is Act.EXTRA_TURN:
        choices = [Accept()]
    elif act is Act.SAME_COLOUR_MEMBER:
        choices = [
            Place(c) for c in state.hands[actor] if cfg.colour[c] == cfg.colour[card] and state.can_join(actor, c)
        ]
    elif act is Act.DISCARD_MEMBER or act is Act.STEAL_MEMBER:
        choices = [Target(p) for p in _players(state) if state.members[p]]
    return [*choices, Skip()] if choices else []


def _legal(state: State, step: Step) -> list[Action]:
    cfg = state.config
    p = step.player
    kind = step.kind
    if kind == "play":
        moves: list[Action] = []
        for c in state.hands[p]:
            if state.can_join(p, c):
                moves.append(Play(c, True))
            moves.append(Play(c, False))
        return moves
    if kind == "action":
        return _action_choices(state, p, step.card)
    if kind == "defend":
        return [Protect(True), Protect(False)]
    if kind == "offer_a":
        return [Place(c) for c in state.hands[p]] + [Skip()] if state.hands[p] else []
    if kind == "offer_b":
        return [GiftChoice(d, g) for d in (True, False) for g in (-1, *_players(state))]
    if kind == "offer_c":
        card = step.card
        usable = cfg.action[card] not in (Act.NONE, Act.PATER_MILLER) and state.can_join(p, card)
        return [Accept(), Skip()] if usable and _action_choices(state, p, card) else []
    if kind == "offer_d":
        placeable = [Place(c) for c in state.hands[p] if state.can_join(p, c)]
        return [*placeable, Skip()] if placeable else []
    if kind == "offer_e":
        return [Accept(), Skip()] if _action_choices(state, p, step.card) else []
    if kind == "offer_f":
        return [Accept(), Skip()]
    if kind == "choose_board":
        return [ChooseBoard(b) for b in state.choosing]
    raise AssertionError(kind)


# --- transitions ----------------------------------------------------------------------------------------------


def _set(rows: tuple[tuple[int, ...], ...], player: int, row: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return (*rows[:player], row, *rows[player + 1 :])


def _without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    index = cards.index(card)
    return cards[:index] + cards[index + 1 :]


def _draw_into(state: State, recipient: int, card: int) -> State:
    if state.deck_ordered:
        if not state.deck or state.deck[0] != card:
            raise IllegalAction(f"card {card} is not on top of the known pile")
        deck = state.deck[1:]
    else:
        if card not in state.deck:
            raise IllegalAction(f"card {card} is not in the draw pile")
        deck = _without(state.deck, card)
    hands = _set(state.hands, recipient, _sorted((*state.hands[recipient], card)))
    return replace(state, deck=deck, hands=hands)


def _resolve_chance(state: State, step: Step, rest: tuple[Step, ...], outcome: object) -> State:
    if step.kind == "shuffle_boards":
        assert isinstance(outcome, tuple)
        return replace(state, seat_boards=tuple(outcome), pending=rest)
    assert isinstance(outcome, int)
    after = replace(_draw_into(state, step.player, outcome), pending=rest)
    if step.kind == "draw" and not after.deck:
        # "The round also ends immediately once the draw pile is depleted."
        return _end_round(after, ender=state.to_move)
    return after


def _equip(state: State, player: int, card: int) -> State:
    return replace(
        state,
        hands=_set(state.hands, player, _without(state.hands[player], card)),
        equipment=_set(state.equipment, player, (*state.equipment[player], card)),
    )


def _join(state: State, player: int, card: int) -> State:
    return replace(
        state,
        hands=_set(state.hands, player, _without(state.hands[player], card)),
        members=_set(state.members, player, (*state.members[player], card)),
    )


def _member_steps(state: State, player: int, card: int, regular: bool) -> list[Step]:
    """What follows a card joining as a member: its action, and on the regular play abilities 5 and 4."""
    act = state.config.action[card]
    steps: list[Step] = []
    if act not in (Act.NONE, Act.PATER_MILLER):
        steps.append(Step("action", player, card))
        if regular and not state.ability_used and state.ability(player) is Ability.DOUBLE_ACTION:
            steps.append(Step("offer_e", player, card))
    if regular and not state.ability_used and state.ability(player) is Ability.EXTRA_MEMBER:
        steps.append(Step("offer_d", player))
    return steps


def _resolve_decision(state: State, step: Step, rest: tuple[Step, ...], action: object) -> State:
    p = step.player
    kind = step.kind
    if kind == "play":
        assert isinstance(action, Play)
        if action.member:
            state = _join(state, p, action.card)
            front = _member_steps(state, p, action.card, regular=True)
        else:
            state = _equip(state, p, action.card)
            ability = state.ability(p)
            if not state.ability_used and ability is Ability.GIFT_AFTER_EQUIPMENT:
                front = [Step("offer_b", p)]
            elif not state.ability_used and ability is Ability.EQUIPMENT_ACTION:
                front = [Step("offer_c", p, action.card), Step("draw", p)]
            else:
                front = [Step("draw", p)]
        return replace(state, pending=(*front, Step("after_turn", p), *rest))
    if kind == "action":
        return _resolve_action(state, step, rest, action)
    if kind == "defend":
        assert isinstance(action, Protect)
        attacker, card, target = step.aux, step.card, p
        if action.use:
            row_name, protector = state.protectors(target)[-1]
            row = getattr(state, row_name)
            state = replace(
                state,
                **{row_name: _set(row, target, _without(row[target], protector))},
                discard=_sorted((*state.discard, protector)),
            )
            return replace(state, pending=rest)
        return replace(_attack(state, attacker, card, target), pending=rest)
    if isinstance(action, Skip):
        return replace(state, pending=rest)
    if kind == "offer_a":
        assert isinstance(action, Place)
        state = _equip(state, p, action.card)
        return replace(state, ability_used=True, pending=(Step("draw", p), *rest))
    if kind == "offer_b":
        assert isinstance(action, GiftChoice)
        front = ([Step("draw", p)] if action.draw else []) + ([Step("draw", action.gift)] if action.gift >= 0 else [])
        used = state.ability_used or not action.draw or action.gift >= 0
        return replace(state, ability_used=used, pending=(*front, *rest))
    if kind == "offer_c":
        return replace(state, ability_used=True, pending=(Step("action", p, step.card), *rest))
    if kind == "offer_d":
        assert isinstance(action, Place)
        state = replace(_join(state, p, action.card), ability_used=True)
        return replace(state, pending=(*_member_steps(state, p, action.card, regular=False), *rest))
    if kind == "offer_e":
        return replace(state, ability_used=True, pending=(Step("action", p, step.card), *rest))
    if kind == "offer_f":
        return replace(state, ability_used=True, extra_turns=state.extra_turns + 1, pending=rest)
    if kind == "choose_board":
        assert isinstance(action, ChooseBoard)
        boards = _set_int(state.seat_boards, p, action.board)
        return replace(state, seat_boards=boards, choosing=_without(state.choosing, action.board), pending=rest)
    raise AssertionError(kind)


def _set_int(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _attack(state: State, attacker: int, card: int, target: int) -> State:
    act = state.config.action[card]
    row_name = "equipment" if act in (Act.DISCARD_EQUIPMENT, Act.STEAL_EQUIPMENT) else "members"
    row = getattr(state, row_name)
    if not row[target]:
        return state  # the card attacked was removed meanwhile (a double attack): nothing left to take
    taken = row[target][-1]
    state = replace(state, **{row_name: _set(row, target, row[target][:-1])})
    if act in (Act.DISCARD_EQUIPMENT, Act.DISCARD_MEMBER):
        return replace(state, discard=_sorted((*state.discard, taken)))
    # Steals land on the attacker's equipment, with no draw and no action.
    return replace(state, equipment=_set(state.equipment, attacker, (*state.equipment[attacker], taken)))


def _resolve_action(state: State, step: Step, rest: tuple[Step, ...], action: object) -> State:
    p, card = step.player, step.card
    act = state.config.action[card]
    if isinstance(action, Skip):
        return replace(state, pending=rest)
    if act is Act.GIVE_ONE:
        assert isinstance(action, Target)
        return replace(state, pending=(Step("draw", action.player), *rest))
    if act is Act.GIVE_TWO:
        assert isinstance(action, GiveTwo)
        return replace(state, pending=(Step("draw", action.first), Step("draw", action.second), *rest))
    if act is Act.EXTRA_EQUIPMENT:
        assert isinstance(action, Place)
        return replace(_equip(state, p, action.card), pending=(Step("draw", p), *rest))
    if act is Act.EXTRA_TURN:
        return replace(state, extra_turns=state.extra_turns + 1, pending=rest)
    if act is Act.SAME_COLOUR_MEMBER:
        assert isinstance(action, Place)
        state = _join(state, p, action.card)
        return replace(state, pending=(*_member_steps(state, p, action.card, regular=False), *rest))
    assert act in ATTACKS and isinstance(action, Target)
    target = action.player
    if target != p and state.protectors(target):
        return replace(state, pending=(Step("defend", target, card, p), *rest))
    return replace(_attack(state, p, card, target), pending=rest)


def _end_round(state: State, ender: int) -> State:
    cfg = state.config
    n = cfg.players
    scores = tuple(state.round_scores())
    totals = tuple(t + s for t, s in zip(state.totals, scores, strict=True))
    finished = replace(
        state, totals=totals, last_round=scores, ender=ender, pending=(), extra_turns=0, ability_used=False
    )
    if state.round_index + 1 >= cfg.rounds:
        return replace(finished, over=True)
    starter = (ender + 1) % n
    order = sorted(range(n), key=lambda q: (scores[q], (q - starter) % n))
    empty = ((),) * n
    return replace(
        finished,
        hands=empty,
        equipment=empty,
        members=empty,
        deck=tuple(range(len(cfg.deck))),
        discard=(),
        deck_ordered=False,
        round_index=state.round_index + 1,
        starter=starter,
        to_move=starter,
        choosing=_sorted(state.seat_boards) if cfg.variation is Variation.LOWEST_CHOOSES else (),
        pending=_round_setup(cfg, starter, order),
    )


def _settle(state: State) -> State:
    """Resolve every step that needs nobody: turn ends, offers with nothing to offer."""
    while not state.over:
        step = state.pending[0]
        rest = state.pending[1:]
        if step.kind == "after_turn":
            p = step.player
            front: list[Step] = []
            ability = state.ability(p)
            if not state.ability_used and ability is Ability.EXTRA_EQUIPMENT and state.hands[p]:
                front.append(Step("offer_a", p))
            if not state.ability_used and ability is Ability.EXTRA_TURN:
                front.append(Step("offer_f", p))
            state = replace(state, pending=(*front, Step("end_turn", p), *rest))
            continue
        if step.kind == "end_turn":
            p = step.player
            if not state.hands[p]:
                # "If, at the end of his turn, a player has no more cards in hand, the round ends immediately."
                state = _end_round(state, ender=p)
            elif state.extra_turns > 0:
                state = replace(state, extra_turns=state.extra_turns - 1, pending=(Step("play", p), *rest))
            else:
                nxt = (p + 1) % state.config.players
                state = replace(state, to_move=nxt, ability_used=False, pending=(Step("play", nxt), *rest))
            continue
        if step.kind == "play" and state.to_move != step.player:
            state = replace(state, to_move=step.player)
            continue
        # A regular play is never skipped (a real player to move always holds a card; an empty hand here
        # only happens in a public view whose other hands are unknown).
        if step.kind in DECISION_STEPS and step.kind != "play" and not _legal(state, step):
            state = replace(state, pending=rest)
            continue
        break
    return state


# --- labels ---------------------------------------------------------------------------------------------------


def card_label(config: Config, card: int) -> str:
    """`#id label`; an id outside the deck (a bad request's) is said so, never wrapped around to another card."""
    if not 0 <= card < len(config.deck):
        return f"#{card} (no such card: 0-{len(config.deck) - 1})"
    return f"#{card} {config.deck[card].label()}"


def action_label(state: State, action: Action) -> str:
    """A human-readable line for an action taken at `state`."""
    cfg = state.config
    if isinstance(action, Play):
        where = "as member" if action.member else "as equipment"
        return f"play {card_label(cfg, action.card)} {where}"
    if isinstance(action, Target):
        return f"target player {action.player}"
    if isinstance(action, GiveTwo):
        if action.first == action.second:
            return f"give two cards to player {action.first}"
        return f"give one card each to players {action.first} and {action.second}"
    if isinstance(action, Place):
        return f"place {card_label(cfg, action.card)}"
    if isinstance(action, Accept):
        return "accept"
    if isinstance(action, Skip):
        return "skip"
    if isinstance(action, Protect):
        return "protect with Pater Miller" if action.use else "let the attack happen"
    if isinstance(action, GiftChoice):
        gift = "no gift" if action.gift < 0 else f"gift to player {action.gift}"
        return f"{'draw' if action.draw else 'no draw'}, {gift}"
    if isinstance(action, ChooseBoard):
        if not 0 <= action.board < len(cfg.boards):
            return f"choose board {action.board} (no such board: 0-{len(cfg.boards) - 1})"
        return f"choose board {cfg.boards[action.board].name}"
    return repr(action)


# --- the game (solver.core.game.Game) -------------------------------------------------------------------

#: The state of an Adventure Tours game, named after the game (the same class as `State`).
AdventureToursState = State

#: Adventure Tours as a `Game`: its `Config` names the players (3-6); a game starts with the deal.
GAME: GameSpec[Config, State] = GameSpec(
    name="adventure_tours",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    make_config=lambda players: Config(players),
    players_of=lambda config: config.players,
    start=new_game,
    scores=lambda state: state.totals,
    default_players=MIN_PLAYERS,
)
