"""Adventure Tours: protobuf messages <-> the rules model's and solvers' objects (every field validated and named)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from campsolver.service.errors import InvalidArgument, require, require_limit
from campsolver.service.games import enum_maps
from campsolver.solver.adventure_tours import hint as hints
from campsolver.solver.adventure_tours import puzzle as puzzles
from campsolver.solver.adventure_tours import rules
from campsolver.solver.adventure_tours.deck import (
    DEFAULT_DECK,
    DESERT,
    EXPERT_BOARDS,
    Ability,
    Act,
    Board,
    Card,
    Colour,
)
from campsolver.solver.adventure_tours.information import Observation, observe
from campsolver.solver.adventure_tours.rules import (
    Accept,
    Action,
    ChooseBoard,
    Config,
    GiftChoice,
    GiveTwo,
    MoneyFloor,
    Place,
    Play,
    Protect,
    Skip,
    State,
    Step,
    Target,
    Variation,
)

from campsolver.v1 import adventure_tours_pb2 as pb
from campsolver.v1 import common_pb2

MAX_DECK = 400
MAX_ROUNDS = 10
MAX_CARD_NUMBER = 100

COLOUR_FROM_PROTO = enum_maps.from_proto(pb.AdventureColour, Colour)
COLOUR_TO_PROTO = enum_maps.to_proto(COLOUR_FROM_PROTO)
ACTION_FROM_PROTO = enum_maps.from_proto(pb.AdventureAction, Act)
ACTION_TO_PROTO = enum_maps.to_proto(ACTION_FROM_PROTO)
ABILITY_FROM_PROTO = enum_maps.from_proto(pb.AdventureAbility, Ability)
#: Written out: the proto names the floors MONEY_PILE and PER_ROUND, the rules model PILE and ROUND.
MONEY_FLOOR_FROM_PROTO = {
    pb.ADVENTURE_MONEY_FLOOR_UNSPECIFIED: MoneyFloor.PILE,
    pb.ADVENTURE_MONEY_FLOOR_MONEY_PILE: MoneyFloor.PILE,
    pb.ADVENTURE_MONEY_FLOOR_PER_ROUND: MoneyFloor.ROUND,
}
VARIATION_FROM_PROTO = enum_maps.from_proto(pb.AdventureVariation, Variation, unspecified=Variation.NONE)
VARIATION_TO_PROTO = enum_maps.to_proto(VARIATION_FROM_PROTO)
#: Written out: the values of the shared Objective enum this game ranks by (unset: the margin).
OBJECTIVE_FROM_PROTO = {
    common_pb2.OBJECTIVE_UNSPECIFIED: hints.Objective.MARGIN,
    common_pb2.OBJECTIVE_MARGIN: hints.Objective.MARGIN,
    common_pb2.OBJECTIVE_EXPECTED_SCORE: hints.Objective.EXPECTED_SCORE,
    common_pb2.OBJECTIVE_WIN_PROBABILITY: hints.Objective.WIN_PROBABILITY,
}


def _card_from_proto(message: pb.AdventureCard, field: str, index: int) -> Card:
    colour = COLOUR_FROM_PROTO.get(message.colour)
    require(colour is not None, f"{field}.colour", "unknown or unspecified colour")
    action = ACTION_FROM_PROTO.get(message.action)
    require(action is not None, f"{field}.action", "unknown or unspecified action (use ADVENTURE_ACTION_NONE)")
    for name in ("demand", "money", "value"):
        number = getattr(message, name)
        require(number >= 0, f"{field}.{name}", f"must not be negative, got {number}")
        require_limit(number, MAX_CARD_NUMBER, f"{field}.{name}", name)
    return Card(message.name or f"card-{index}", colour, message.demand, message.money, message.value, action)


def _board_from_proto(message: pb.AdventureBoard, field: str) -> Board:
    ability = ABILITY_FROM_PROTO.get(message.ability) if message.ability else Ability.NONE
    require(ability is not None, f"{field}.ability", "unknown ability")
    start = (message.technology, message.provisions, message.clothing)
    require(all(s >= 0 for s in start), field, "starting values must not be negative")
    require_limit(max(start, default=0), MAX_CARD_NUMBER, field, "starting value")
    return Board(message.name or "board", start, ability)


def config_from_proto(message: pb.AdventureToursRules, players: int, field: str, *, allow_small: bool) -> Config:
    require_limit(len(message.deck), MAX_DECK, f"{field}.deck", "deck size")
    deck = (
        tuple(_card_from_proto(c, f"{field}.deck[{i}]", i) for i, c in enumerate(message.deck))
        if message.deck
        else DEFAULT_DECK
    )
    boards = tuple(_board_from_proto(b, f"{field}.boards[{i}]") for i, b in enumerate(message.boards)) or None
    if boards is None:
        boards = EXPERT_BOARDS if message.expert else (DESERT,) * rules.MAX_PLAYERS
    variation = VARIATION_FROM_PROTO.get(message.variation)
    require(variation is not None, f"{field}.variation", "unknown variation")
    money_floor = MONEY_FLOOR_FROM_PROTO.get(message.money_floor)
    require(money_floor is not None, f"{field}.money_floor", "unknown money floor")
    rounds = message.rounds if message.HasField("rounds") else rules.ROUNDS
    require(rounds >= 1, f"{field}.rounds", f"at least one round, got {rounds}")
    require_limit(rounds, MAX_ROUNDS, f"{field}.rounds", "rounds")
    try:
        return Config(
            players,
            deck=deck,
            expert=message.expert,
            boards=boards,
            rounds=rounds,
            variation=variation,
            allow_small=allow_small,
            money_floor=money_floor,
        )
    except ValueError as error:
        raise InvalidArgument(field, str(error)) from None


@dataclass
class Parsed:
    config: Config
    hands: list[tuple[int, ...] | None]
    hand_sizes: list[int]
    equipment: list[tuple[int, ...]]
    members: list[tuple[int, ...]]
    pile: list[int] | None
    rest: list[int]  # cards not placed anywhere (the pile's content)
    discard: list[int]
    to_move: int
    round_index: int
    totals: list[int]
    seat_boards: list[int]


def parse_state(
    message: pb.AdventureToursState, field: str = "state", *, allow_small: bool = False, finished_ok: bool = False
) -> Parsed:
    """Validate a position and every card in it; INVALID_ARGUMENT names the field at fault."""
    n = len(message.players)
    low = rules.MIN_SOLVER_PLAYERS if allow_small else rules.MIN_PLAYERS
    require(low <= n <= rules.MAX_PLAYERS, f"{field}.players", f"{low}-{rules.MAX_PLAYERS} players, got {n}")
    config = config_from_proto(message.rules, n, f"{field}.rules", allow_small=allow_small)
    size = len(config.deck)
    where: dict[int, str] = {}

    def cards(values: Any, path: str) -> tuple[int, ...]:
        out = []
        for i, card in enumerate(values):
            require(0 <= card < size, f"{path}[{i}]", f"card {card} is not in the deck (ids 0-{size - 1})")
            require(card not in where, f"{path}[{i}]", f"card {card} already lies in {where.get(card)}")
            where[card] = f"{path}[{i}]"
            out.append(card)
        return tuple(out)

    hands: list[tuple[int, ...] | None] = []
    sizes, equipment, members, totals, boards = [], [], [], [], []
    for q, player in enumerate(message.players):
        path = f"{field}.players[{q}]"
        hand = cards(player.hand, f"{path}.hand")
        if player.HasField("hand_size"):
            require(player.hand_size >= 0, f"{path}.hand_size", "must not be negative")
            require(
                not hand or player.hand_size == len(hand),
                f"{path}.hand_size",
                f"says {player.hand_size} but the hand lists {len(hand)} cards",
            )
            hands.append(hand if hand else (None if player.hand_size else ()))
            sizes.append(player.hand_size)
        else:
            hands.append(hand)
            sizes.append(len(hand))
        equipment.append(cards(player.equipment, f"{path}.equipment"))
        members.append(cards(player.members, f"{path}.members"))
        require(player.money >= 0, f"{path}.money", "must not be negative")
        totals.append(player.money)
        board = player.board if player.HasField("board") else q
        require(0 <= board < len(config.boards), f"{path}.board", f"must index a board (0-{len(config.boards) - 1})")
        # While boards are being chosen (variation 2, `choosing`), a seat keeps last round's until it picks.
        require(
            board not in boards or bool(message.choosing), f"{path}.board", f"board {board} is already another player's"
        )
        boards.append(board)
    discard = cards(message.discard, f"{field}.discard")
    pile = list(cards(message.pile, f"{field}.pile")) if message.pile else None
    rest = [c for c in range(size) if c not in where] if pile is None else list(pile)
    hidden = sum(s for h, s in zip(hands, sizes, strict=True) if h is None)
    if pile is not None:
        missing = [c for c in range(size) if c not in where]
        require(
            not missing and hidden == 0,
            f"{field}.pile",
            "the listed pile must hold every card not in a hand, on a board or discarded "
            f"({len(missing)} cards unaccounted for, {hidden} in hidden hands)",
        )
    else:
        require(
            hidden < len(rest) or (finished_ok and hidden <= len(rest)),
            f"{field}.players",
            f"hand sizes do not add up: {hidden} hidden hand cards but only {len(rest)} cards are not on the table "
            "(the pile needs at least one)",
        )
    require(0 <= message.to_move < n, f"{field}.to_move", f"must index a player (0-{n - 1})")
    round_index = max(message.round, 1) - 1
    require(message.round >= 0, f"{field}.round", "must be positive")
    require(round_index < config.rounds, f"{field}.round", f"the game has {config.rounds} rounds")
    mover_hand = hands[message.to_move]
    if not finished_ok:
        mover = f"{field}.players[{message.to_move}].hand"
        require(mover_hand is not None, mover, "the player to move's hand is needed")
        require(bool(mover_hand), mover, "empty: the round is already over")
    return Parsed(
        config,
        hands,
        sizes,
        equipment,
        members,
        pile,
        rest,
        list(discard),
        message.to_move,
        round_index,
        totals,
        boards,
    )


def full_state(parsed: Parsed, field: str = "state", *, need_order: bool = False) -> State:
    """Every hand known (and the pile's order when `need_order`)."""
    for q, hand in enumerate(parsed.hands):
        require(hand is not None, f"{field}.players[{q}].hand", "this command needs every hand")
    if need_order:
        require(parsed.pile is not None, f"{field}.pile", "this command needs the pile's order (top first)")
    try:
        return rules.position(
            parsed.config,
            hands=[h or () for h in parsed.hands],
            equipment=parsed.equipment,
            members=parsed.members,
            discard=parsed.discard,
            deck=parsed.rest,
            deck_ordered=parsed.pile is not None,
            to_move=parsed.to_move,
            round_index=parsed.round_index,
            totals=parsed.totals,
            seat_boards=parsed.seat_boards,
        )
    except ValueError as error:
        raise InvalidArgument(field, str(error)) from None


def observation(parsed: Parsed) -> Observation:
    """What the player to move sees: own hand, public table, other hands' sizes only."""
    mover = parsed.to_move
    hand = parsed.hands[mover]
    assert hand is not None
    return Observation(
        config=parsed.config,
        player=mover,
        hand=tuple(sorted(hand)),
        hand_sizes=tuple(parsed.hand_sizes),
        equipment=tuple(parsed.equipment),
        members=tuple(parsed.members),
        discard=tuple(sorted(parsed.discard)),
        seat_boards=tuple(parsed.seat_boards),
        pending=(Step("play", mover),),
        to_move=mover,
        starter=mover,
        round_index=parsed.round_index,
        totals=tuple(parsed.totals),
        deck_size=len(parsed.rest) - sum(s for q, s in enumerate(parsed.hand_sizes) if parsed.hands[q] is None),
        extra_turns=0,
        ability_used=False,
    )


def step_to_proto(action: Action) -> pb.AdventureStep:
    if isinstance(action, Play):
        return pb.AdventureStep(play=pb.AdventurePlay(card=action.card, member=action.member))
    if isinstance(action, Target):
        return pb.AdventureStep(target=action.player)
    if isinstance(action, GiveTwo):
        return pb.AdventureStep(give_two=pb.AdventureGiveTwo(first=action.first, second=action.second))
    if isinstance(action, Place):
        return pb.AdventureStep(place=action.card)
    if isinstance(action, Accept):
        return pb.AdventureStep(accept=True)
    if isinstance(action, Skip):
        return pb.AdventureStep(skip=True)
    if isinstance(action, Protect):
        return pb.AdventureStep(protect=action.use)
    if isinstance(action, GiftChoice):
        return pb.AdventureStep(
            gift=pb.AdventureGift(draw=action.draw, give=action.gift >= 0, recipient=max(action.gift, 0))
        )
    if isinstance(action, ChooseBoard):
        return pb.AdventureStep(choose_board=action.board)
    raise AssertionError(action)


def step_from_proto(message: pb.AdventureStep) -> Action:
    """The inverse of `step_to_proto` (tests use it to replay answers through the rules model)."""
    which = message.WhichOneof("choice")
    if which == "play":
        return Play(message.play.card, message.play.member)
    if which == "target":
        return Target(message.target)
    if which == "give_two":
        return GiveTwo(message.give_two.first, message.give_two.second)
    if which == "place":
        return Place(message.place)
    if which == "accept":
        return Accept()
    if which == "skip":
        return Skip()
    if which == "protect":
        return Protect(message.protect)
    if which == "gift":
        return GiftChoice(message.gift.draw, message.gift.recipient if message.gift.give else -1)
    if which == "choose_board":
        return ChooseBoard(message.choose_board)
    raise ValueError("empty step")


def move_to_proto(state: State, play: tuple[Action, ...]) -> pb.AdventureMove:
    return pb.AdventureMove(steps=[step_to_proto(a) for a in play], label=puzzles.play_label(state, play))


def state_to_proto(state: State) -> pb.AdventureToursState:
    return pb.AdventureToursState(
        players=[
            pb.AdventurePlayer(
                hand=state.hands[q],
                equipment=state.equipment[q],
                members=state.members[q],
                board=state.seat_boards[q],
                money=state.totals[q],
            )
            for q in range(state.config.players)
        ],
        pile=state.deck if state.deck_ordered else (),
        discard=state.discard,
        to_move=state.to_move,
        round=state.round_index + 1,
    )


#: Most pending steps a state may carry (a deal of 6 hands to 6 players is 37; RESOURCE_EXHAUSTED beyond).
MAX_PENDING_STEPS = 200
#: The step kinds of the rules model's turn queue.
STEP_KINDS = rules.DECISION_STEPS | rules.CHANCE_STEPS | {"after_turn", "end_turn"}


def has_flow(message: pb.AdventureToursState) -> bool:
    """True when the message carries a turn in progress (NewGame/Play fill these fields), not a turn's start."""
    return bool(
        message.pending
        or message.HasField("starter")
        or message.extra_turns
        or message.ability_used
        or message.over
        or message.last_round
        or message.HasField("ender")
        or message.choosing
    )


def game_state_from_proto(message: pb.AdventureToursState, field: str = "state") -> State:
    """Every hand known; the flow fields (`pending`, `starter`, ...) give the turn in progress."""
    if not has_flow(message):
        return full_state(parse_state(message, field), field)
    parsed = parse_state(message, field, finished_ok=True)
    for q, hand in enumerate(parsed.hands):
        require(hand is not None, f"{field}.players[{q}].hand", "a game in flight lists every hand")
    n = parsed.config.players
    require_limit(len(message.pending), MAX_PENDING_STEPS, f"{field}.pending", "pending steps")
    pending = []
    for index, step in enumerate(message.pending):
        where = f"{field}.pending[{index}]"
        require(step.kind in STEP_KINDS, f"{where}.kind", f"one of {sorted(STEP_KINDS)}")
        nobody = step.kind == "shuffle_boards"  # the one step that is nobody's
        require(
            step.player == -1 if nobody else 0 <= step.player < n,
            f"{where}.player",
            "-1 (nobody's step)" if nobody else f"a seat 0-{n - 1}",
        )
        require(-1 <= step.card < len(parsed.config.deck), f"{where}.card", "-1 or a card id of the deck")
        require(-1 <= step.aux < n, f"{where}.aux", f"-1 or a seat 0-{n - 1}")
        pending.append(Step(step.kind, step.player, step.card, step.aux))
    # The rules model settles turn ends on its own: a state rests on a decision or a chance step.
    require(
        not pending or pending[0].kind in rules.DECISION_STEPS | rules.CHANCE_STEPS,
        f"{field}.pending[0].kind",
        "a decision or a chance step (turn ends settle on their own)",
    )
    require(bool(pending) or message.over, f"{field}.pending", "a game not over has a step pending")
    starter = message.starter if message.HasField("starter") else parsed.to_move
    require(0 <= starter < n, f"{field}.starter", f"a seat 0-{n - 1}")
    require(message.extra_turns >= 0, f"{field}.extra_turns", "must not be negative")
    require(not message.last_round or len(message.last_round) == n, f"{field}.last_round", f"{n} entries")
    ender = message.ender if message.HasField("ender") else -1
    require(-1 <= ender < n, f"{field}.ender", f"-1 or a seat 0-{n - 1}")
    for index, board in enumerate(message.choosing):
        require(0 <= board < len(parsed.config.boards), f"{field}.choosing[{index}]", "a board index")
    ordered = parsed.pile is not None
    state = State(
        config=parsed.config,
        hands=tuple(tuple(sorted(h or ())) for h in parsed.hands),
        equipment=tuple(parsed.equipment),
        members=tuple(parsed.members),
        deck=tuple(parsed.rest) if ordered else tuple(sorted(parsed.rest)),
        discard=tuple(sorted(parsed.discard)),
        seat_boards=tuple(parsed.seat_boards),
        pending=tuple(pending),
        to_move=parsed.to_move,
        starter=starter,
        round_index=parsed.round_index,
        totals=tuple(parsed.totals),
        extra_turns=message.extra_turns,
        ability_used=message.ability_used,
        deck_ordered=ordered,
        over=message.over,
        last_round=tuple(message.last_round),
        ender=ender,
        choosing=tuple(message.choosing),
    )
    try:
        rules.validate(state)
    except ValueError as error:
        raise InvalidArgument(field, str(error)) from None
    try:  # a queue the rules model never builds (a step's card not where the step needs it) shows here
        state.legal_actions() if state.current_player() >= 0 else state.chance_outcomes()
    except (AssertionError, IndexError, KeyError, ValueError, TypeError) as error:
        raise InvalidArgument(f"{field}.pending", f"not a turn the rules can be in: {error}") from None
    return state


def game_state_to_proto(state: State) -> pb.AdventureToursState:
    """`state_to_proto` with the rules (variation, rounds, expert boards) and the turn in progress."""
    message = state_to_proto(state)
    config = state.config
    message.rules.CopyFrom(
        pb.AdventureToursRules(
            expert=config.expert, variation=VARIATION_TO_PROTO[config.variation], rounds=config.rounds
        )
    )
    message.pending.extend(
        pb.AdventurePendingStep(kind=s.kind, player=s.player, card=s.card, aux=s.aux) for s in state.pending
    )
    message.starter, message.extra_turns, message.ability_used = state.starter, state.extra_turns, state.ability_used
    message.over, message.ender = state.over, state.ender
    message.last_round.extend(state.last_round)
    message.choosing.extend(state.choosing)
    return message


def _decision_observation(message: pb.AdventureToursState, field: str = "state") -> Observation:
    """What the player deciding now sees: a turn's start (`observation`) or a turn in progress."""
    if not has_flow(message):
        return observation(parse_state(message, field))
    state = game_state_from_proto(message, field)
    player = state.current_player()
    require(player >= 0, field, "no player decides now (chance is next or the game is over)")
    return observe(state, player)
