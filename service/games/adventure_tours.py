"""Adventure Tours: protobuf requests <-> rules model and solvers (rollout hint, exhaustive max, puzzles)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from campsolver.service.errors import InvalidArgument, RequestError, require, require_limit
from campsolver.service.games import shared
from campsolver.service.games.shared import PROOF_TO_PROTO, grade_from_proto, grade_to_proto, set_value
from campsolver.solver.adventure_tours import hint as hints
from campsolver.solver.adventure_tours import puzzle as puzzles
from campsolver.solver.adventure_tours import render, rules, search
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
from campsolver.solver.adventure_tours.information import Observation, observe, public_state
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
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.proof import Proof

from campsolver.v1 import adventure_tours_pb2 as pb
from campsolver.v1 import common_pb2

DEFAULT_HINT_SECONDS = 1.0
MAX_DECK = 400
MAX_ROUNDS = 10
MAX_CARD_NUMBER = 100

COLOUR_FROM_PROTO = {
    pb.ADVENTURE_COLOUR_RED: Colour.RED,
    pb.ADVENTURE_COLOUR_BLUE: Colour.BLUE,
    pb.ADVENTURE_COLOUR_YELLOW: Colour.YELLOW,
}
COLOUR_TO_PROTO = {c: n for n, c in COLOUR_FROM_PROTO.items()}
ACTION_FROM_PROTO = {
    pb.ADVENTURE_ACTION_NONE: Act.NONE,
    pb.ADVENTURE_ACTION_GIVE_ONE: Act.GIVE_ONE,
    pb.ADVENTURE_ACTION_GIVE_TWO: Act.GIVE_TWO,
    pb.ADVENTURE_ACTION_EXTRA_EQUIPMENT: Act.EXTRA_EQUIPMENT,
    pb.ADVENTURE_ACTION_DISCARD_EQUIPMENT: Act.DISCARD_EQUIPMENT,
    pb.ADVENTURE_ACTION_STEAL_EQUIPMENT: Act.STEAL_EQUIPMENT,
    pb.ADVENTURE_ACTION_EXTRA_TURN: Act.EXTRA_TURN,
    pb.ADVENTURE_ACTION_SAME_COLOUR_MEMBER: Act.SAME_COLOUR_MEMBER,
    pb.ADVENTURE_ACTION_DISCARD_MEMBER: Act.DISCARD_MEMBER,
    pb.ADVENTURE_ACTION_STEAL_MEMBER: Act.STEAL_MEMBER,
    pb.ADVENTURE_ACTION_PATER_MILLER: Act.PATER_MILLER,
}
ACTION_TO_PROTO = {a: n for n, a in ACTION_FROM_PROTO.items()}
ABILITY_FROM_PROTO = {
    pb.ADVENTURE_ABILITY_NONE: Ability.NONE,
    pb.ADVENTURE_ABILITY_EXTRA_EQUIPMENT: Ability.EXTRA_EQUIPMENT,
    pb.ADVENTURE_ABILITY_GIFT_AFTER_EQUIPMENT: Ability.GIFT_AFTER_EQUIPMENT,
    pb.ADVENTURE_ABILITY_EQUIPMENT_ACTION: Ability.EQUIPMENT_ACTION,
    pb.ADVENTURE_ABILITY_EXTRA_MEMBER: Ability.EXTRA_MEMBER,
    pb.ADVENTURE_ABILITY_DOUBLE_ACTION: Ability.DOUBLE_ACTION,
    pb.ADVENTURE_ABILITY_EXTRA_TURN: Ability.EXTRA_TURN,
}
MONEY_FLOOR_FROM_PROTO = {
    pb.ADVENTURE_MONEY_FLOOR_UNSPECIFIED: MoneyFloor.PILE,
    pb.ADVENTURE_MONEY_FLOOR_MONEY_PILE: MoneyFloor.PILE,
    pb.ADVENTURE_MONEY_FLOOR_PER_ROUND: MoneyFloor.ROUND,
}
VARIATION_FROM_PROTO = {
    pb.ADVENTURE_VARIATION_UNSPECIFIED: Variation.NONE,
    pb.ADVENTURE_VARIATION_NONE: Variation.NONE,
    pb.ADVENTURE_VARIATION_SHUFFLE: Variation.SHUFFLE,
    pb.ADVENTURE_VARIATION_LOWEST_CHOOSES: Variation.LOWEST_CHOOSES,
}
OBJECTIVE_FROM_PROTO = {
    common_pb2.OBJECTIVE_UNSPECIFIED: hints.Objective.MARGIN,
    common_pb2.OBJECTIVE_MARGIN: hints.Objective.MARGIN,
    common_pb2.OBJECTIVE_EXPECTED_SCORE: hints.Objective.EXPECTED_SCORE,
    common_pb2.OBJECTIVE_WIN_PROBABILITY: hints.Objective.WIN_PROBABILITY,
}


# --- requests -> model ------------------------------------------------------------------------------------------


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
            players, deck=deck, expert=message.expert, boards=boards, rounds=rounds, variation=variation,
            allow_small=allow_small, money_floor=money_floor,
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
        config, hands, sizes, equipment, members, pile, rest, list(discard), message.to_move, round_index, totals,
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


# --- model -> responses -----------------------------------------------------------------------------------------


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


# --- a whole game in flight (NewGame, Play; Hint, Score and LegalMoves read the same fields) ---------------------

#: Most pending steps a state may carry (a deal of 6 hands to 6 players is 37; RESOURCE_EXHAUSTED beyond).
MAX_PENDING_STEPS = 200
#: The step kinds of the rules model's turn queue.
STEP_KINDS = rules.DECISION_STEPS | rules.CHANCE_STEPS | {"after_turn", "end_turn"}
VARIATION_TO_PROTO = {v: n for n, v in VARIATION_FROM_PROTO.items() if n}


def has_flow(message: pb.AdventureToursState) -> bool:
    """True when the message carries a turn in progress (NewGame/Play fill these fields), not a turn's start."""
    return bool(
        message.pending or message.HasField("starter") or message.extra_turns or message.ability_used
        or message.over or message.last_round or message.HasField("ender") or message.choosing
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
        require(step.player == -1 if nobody else 0 <= step.player < n, f"{where}.player",
                "-1 (nobody's step)" if nobody else f"a seat 0-{n - 1}")
        require(-1 <= step.card < len(parsed.config.deck), f"{where}.card", "-1 or a card id of the deck")
        require(-1 <= step.aux < n, f"{where}.aux", f"-1 or a seat 0-{n - 1}")
        pending.append(Step(step.kind, step.player, step.card, step.aux))
    # The rules model settles turn ends on its own: a state rests on a decision or a chance step.
    require(not pending or pending[0].kind in rules.DECISION_STEPS | rules.CHANCE_STEPS, f"{field}.pending[0].kind",
            "a decision or a chance step (turn ends settle on their own)")
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
    message.rules.CopyFrom(pb.AdventureToursRules(
        expert=config.expert, variation=VARIATION_TO_PROTO[config.variation], rounds=config.rounds
    ))
    message.pending.extend(pb.AdventurePendingStep(kind=s.kind, player=s.player, card=s.card, aux=s.aux)
                           for s in state.pending)
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


def _apply_move(state: State, message: pb.AdventureMove) -> State:
    """The move's steps in order, each checked by the rules model (the step at fault is named)."""
    shared.require_decision(state)
    require(len(message.steps) >= 1, "move.steps", "at least one step")
    for index, step in enumerate(message.steps):
        field = f"move.steps[{index}]"
        try:
            action = step_from_proto(step)
        except ValueError:
            raise InvalidArgument(field, "an empty step") from None
        state = shared.apply_action(state, action, field)
    return state


_STEP_TEXT = {
    "play": "play a card (as a member or as equipment)",
    "action": "carry out the card's action",
    "defend": "protect against the attack or not",
    "offer_a": "place an extra equipment card (or skip)",
    "offer_b": "draw and/or give a card",
    "offer_c": "use the card's action (or skip)",
    "offer_d": "place an extra member (or skip)",
    "offer_e": "use the action twice (or skip)",
    "offer_f": "take an extra turn (or skip)",
    "choose_board": "choose a board",
}


def _describe(state: State) -> str:
    player = state.current_player()
    if player == rules.TERMINAL:
        return "game over"
    step = state.pending[0]
    if player == rules.CHANCE:
        return {"deal": "chance: the deal", "draw": f"chance: player {step.player} draws",
                "shuffle_boards": "chance: the boards are shuffled"}[step.kind]
    return f"player {player}: {_STEP_TEXT[step.kind]}"


def _chance_label(state: State, outcome: Any) -> str:
    step = state.pending[0]
    if step.kind == "shuffle_boards":
        return f"boards {list(outcome)}"
    return f"player {step.player} gets {rules.card_label(state.config, outcome)}"


def _winners(state: State) -> list[int]:
    return [q for q, t in enumerate(state.totals) if t == max(state.totals)]


TABLE_PLAY = shared.TablePlay(
    scores=lambda state: list(state.totals),
    winners=_winners,
    describe=_describe,
    chance_label=_chance_label,
    picture=render.state_svg,
)


def new_game(
    request: pb.AdventureToursServiceNewGameRequest, budget: Budget
) -> pb.AdventureToursServiceNewGameResponse:
    players = request.players or rules.MIN_PLAYERS
    require(rules.MIN_PLAYERS <= players <= rules.MAX_PLAYERS, "players",
            f"{rules.MIN_PLAYERS}-{rules.MAX_PLAYERS}, got {players}")
    require(not request.rules.deck, "rules.deck", "a new game plays the shipped deck")
    require(not request.rules.boards, "rules.boards", "a new game plays the shipped boards")
    config = config_from_proto(request.rules, players, "rules", allow_small=False)
    try:
        state = rules.new_game(config)
    except ValueError as error:
        raise InvalidArgument("players", str(error)) from None
    state = shared.resolve_chance(state, shared.seeded_rng(request.seed))
    return shared.new_game_answer(
        pb.AdventureToursServiceNewGameResponse, state, TABLE_PLAY, game_state_to_proto, request.want_picture
    )


def play(request: pb.AdventureToursServicePlayRequest, budget: Budget) -> pb.AdventureToursServicePlayResponse:
    return shared.play_answer(
        request, game_state_from_proto, _apply_move, TABLE_PLAY, game_state_to_proto,
        pb.AdventureToursServicePlayResponse,
    )


# --- handlers ---------------------------------------------------------------------------------------------------


def hint(request: pb.AdventureToursServiceHintRequest, budget: Budget) -> pb.AdventureToursServiceHintResponse:
    require(request.HasField("state"), "state", "a position is required")
    objective = OBJECTIVE_FROM_PROTO.get(request.objective)
    require(objective is not None, "objective", "unknown objective")
    obs = _decision_observation(request.state)
    if request.options.time_limit_seconds <= 0:
        budget = budget.limited(DEFAULT_HINT_SECONDS)
    started = time.monotonic()
    result = hints.hint(obs, budget, objective=objective, seed=request.options.seed)
    view = public_state(obs)
    best = result.plays[0].value if result.plays[0].samples or result.proof is Proof.EXACT else 0.0
    alternatives = []
    for rank, item in enumerate(result.plays, start=1):
        ranking = common_pb2.RankedAlternative(rank=rank, label=puzzles.play_label(view, item.play))
        if item.samples or result.proof is Proof.EXACT:
            set_value(ranking, item.value, best, samples=item.samples, standard_error=item.standard_error)
            if item.screened:
                ranking.note = "screened out: clearly worse, sampling stopped early"
        elif rank == 1:
            ranking.note = "rule of thumb (the greedy play): the budget ended before any sample, nothing evaluated"
        else:
            ranking.note = "not evaluated: the budget ended before any sample"
        alternatives.append(pb.AdventureAlternative(move=move_to_proto(view, item.play), ranking=ranking))
    note = (
        f"{objective.value} at the round end; you play this, then every player follows the greedy rule; "
        "other hands uniform over the unseen cards; "
        + ("exact expectimax over hidden hands and draws" if result.proof is Proof.EXACT else "Monte Carlo")
    )
    if result.notes:
        note += "; " + "; ".join(result.notes)
    return pb.AdventureToursServiceHintResponse(
        alternatives=alternatives,
        proof=PROOF_TO_PROTO[result.proof],
        note=note,
        stats=common_pb2.SolveStats(
            wall_time_seconds=time.monotonic() - started,
            nodes=result.nodes,
            samples=result.samples,
            method=result.method,
            interrupted=result.interrupted,
        ),
    )


def max_score(
    request: pb.AdventureToursServiceMaxScoreRequest, budget: Budget
) -> pb.AdventureToursServiceMaxScoreResponse:
    require(request.HasField("state"), "state", "a position is required")
    parsed = parse_state(request.state, allow_small=True)
    # The search ends with the current round: the game is cut to this round.
    parsed.config = Config(
        parsed.config.players, deck=parsed.config.deck, expert=parsed.config.expert, boards=parsed.config.boards,
        rounds=parsed.round_index + 1, allow_small=True,
    )
    state = full_state(parsed, need_order=True)
    n = state.config.players
    player = request.player if request.HasField("player") else state.to_move
    require(0 <= player < n, "player", f"must index a player (0-{n - 1})")
    objective = {
        pb.ADVENTURE_MAX_OBJECTIVE_UNSPECIFIED: search.MaxObjective.INCOME,
        pb.ADVENTURE_MAX_OBJECTIVE_INCOME: search.MaxObjective.INCOME,
        pb.ADVENTURE_MAX_OBJECTIVE_MARGIN: search.MaxObjective.MARGIN,
    }.get(request.objective)
    require(objective is not None, "objective", "unknown objective")
    others = {
        pb.ADVENTURE_OTHERS_UNSPECIFIED: search.Others.COOPERATIVE,
        pb.ADVENTURE_OTHERS_COOPERATIVE: search.Others.COOPERATIVE,
        pb.ADVENTURE_OTHERS_GREEDY: search.Others.GREEDY,
    }.get(request.others)
    require(others is not None, "others", "unknown choice")
    started = time.monotonic()
    result = search.maximise(state, player, budget, objective=objective, others=others)
    proven = result.proof is Proof.EXACT
    note = (
        f"{objective.value} of player {player}, others {others.value}: "
        + ("proven optimal by exhaustive search" if proven else
           f"best line found {result.value}; the optimum is at most {result.bound} (search cut by the budget)")
    )
    return pb.AdventureToursServiceMaxScoreResponse(
        value=int(result.value),
        proof=PROOF_TO_PROTO[result.proof],
        line=[
            pb.AdventureLineStep(player=s.current_player(), step=step_to_proto(a), label=rules.action_label(s, a))
            for s, a in result.line
        ],
        round_scores=list(result.final.last_round),
        note=note,
        stats=common_pb2.SolveStats(
            wall_time_seconds=time.monotonic() - started,
            bound=float(result.bound),
            nodes=result.nodes,
            states=result.states,
            method="exhaustive search",
            interrupted=not proven,
        ),
    )


def generate_puzzle(
    request: pb.AdventureToursServiceGeneratePuzzleRequest, budget: Budget
) -> pb.AdventureToursServiceGeneratePuzzleResponse:
    grade = grade_from_proto(request.grade, puzzles.Grade)
    started = time.monotonic()
    puzzle = puzzles.generate(request.seed, budget, grade)
    if puzzle is None:
        raise InvalidArgument("grade", "no puzzle of that grade for this seed; try another seed")
    state = puzzle.state
    return pb.AdventureToursServiceGeneratePuzzleResponse(
        puzzle=common_pb2.PuzzleEnvelope(
            seed=puzzle.seed,
            grade=grade_to_proto(puzzle.grade),
            evidence=[
                common_pb2.DifficultyEvidence(
                    name="greedy_shortfall", value=puzzle.greedy_shortfall,
                    description="coins of round margin the greedy player's own play loses against the best",
                ),
                common_pb2.DifficultyEvidence(
                    name="search_nodes", value=puzzle.nodes, description="nodes the exhaustive proof needed"
                ),
                common_pb2.DifficultyEvidence(
                    name="margin", value=puzzle.margin, description="best value minus second-best value"
                ),
                common_pb2.DifficultyEvidence(name="plays", value=len(puzzle.values), description="legal plays"),
            ],
            unique=puzzle.proof is Proof.EXACT,
            proof=PROOF_TO_PROTO[puzzle.proof],
            text=puzzles.render_text(puzzle),
            svg=puzzles.render_svg(puzzle),
            solution_text=puzzles.render_solution_text(puzzle),
            solution_svg=puzzles.render_svg(puzzle, solution=True),
            question=puzzles.QUESTION,
        ),
        state=_with_rules(state_to_proto(state), rounds=1),
        solution=move_to_proto(state, puzzle.solution),
        margin=float(puzzle.margin),
        alternatives=[
            pb.AdventureAlternative(
                move=move_to_proto(state, play),
                ranking=common_pb2.RankedAlternative(
                    rank=i + 1, label=puzzles.play_label(state, play), value=float(v),
                    loss=float(puzzle.values[0][1] - v),
                ),
            )
            for i, (play, v) in enumerate(puzzle.values)
        ],
        stats=common_pb2.SolveStats(
            wall_time_seconds=time.monotonic() - started, nodes=puzzle.nodes, method="exhaustive search"
        ),
    )


def _with_rules(message: pb.AdventureToursState, rounds: int) -> pb.AdventureToursState:
    message.rules.rounds = rounds
    return message


def score(request: pb.AdventureToursServiceScoreRequest, budget: Budget) -> pb.AdventureToursServiceScoreResponse:
    require(request.HasField("state"), "state", "a position is required")
    parsed = parse_state(request.state, finished_ok=True)  # a round that is over can be scored too
    money = parsed.config.money
    incomes = [sum(money[c] for c in row) for row in parsed.members]
    scores = [
        rules.money_change(parsed.config.money_floor, held, inc, size)
        for held, inc, size in zip(parsed.totals, incomes, parsed.hand_sizes, strict=True)
    ]
    totals = [t + s for t, s in zip(parsed.totals, scores, strict=True)]
    top = max(totals)
    details = []
    for q, (inc, size, sc) in enumerate(zip(incomes, parsed.hand_sizes, scores, strict=True)):
        details.append(common_pb2.ScoreDetail(name=f"player {q} members' money", points=inc))
        details.append(common_pb2.ScoreDetail(name=f"player {q} hand ({size} cards x -2)", points=-2 * size))
        floor = "money at least 0" if parsed.config.money_floor is MoneyFloor.PILE else "round at least 0"
        details.append(common_pb2.ScoreDetail(name=f"player {q} round score ({floor})", points=sc))
    return pb.AdventureToursServiceScoreResponse(
        round_scores=scores,
        incomes=incomes,
        totals=totals,
        leaders=[q for q, t in enumerate(totals) if t == top],
        details=details,
    )


def legal_moves(
    request: pb.AdventureToursServiceLegalMovesRequest, budget: Budget
) -> pb.AdventureToursServiceLegalMovesResponse:
    require(request.HasField("state"), "state", "a position is required")
    obs = _decision_observation(request.state)
    view = public_state(obs)
    # A cheap call: bounded by the deadline, but never consulting the solve budget, which would take a solver slot.
    plays = hints.enumerate_plays(view, obs.player, Budget.until(budget.started, budget.deadline))
    return pb.AdventureToursServiceLegalMovesResponse(
        moves=[move_to_proto(view, p) for p in plays], to_move=obs.player
    )


# --- examples ---------------------------------------------------------------------------------------------------


def example_state(*, hidden: bool) -> pb.AdventureToursState:
    """A late-round 3-player position (the seed-3 puzzle's); `hidden`: other hands given by size only."""
    state = puzzles.candidate(3, 5)
    assert state is not None
    message = state_to_proto(state)
    message.round = 1
    if hidden:
        del message.pile[:]
        for q, player in enumerate(message.players):
            if q != state.to_move:
                player.hand_size = len(player.hand)
                del player.hand[:]
    return message


def _example_max() -> pb.AdventureToursServiceMaxScoreRequest:
    return pb.AdventureToursServiceMaxScoreRequest(
        state=example_state(hidden=False), options=common_pb2.SolveOptions(time_limit_seconds=10.0)
    )


def _example_play() -> pb.AdventureToursServicePlayRequest:
    game = new_game(pb.AdventureToursServiceNewGameRequest(players=3, seed=1), Budget(1.0)).state
    state = game_state_from_proto(game)
    return pb.AdventureToursServicePlayRequest(
        state=game, move=pb.AdventureMove(steps=[step_to_proto(state.legal_actions()[0])]), seed=1
    )


EXAMPLES: dict[str, Any] = {
    "Hint": lambda: pb.AdventureToursServiceHintRequest(
        state=example_state(hidden=True), options=common_pb2.SolveOptions(time_limit_seconds=1.0)
    ),
    "MaxScore": _example_max,
    "GeneratePuzzle": lambda: pb.AdventureToursServiceGeneratePuzzleRequest(
        seed=3, options=common_pb2.SolveOptions(time_limit_seconds=20.0)
    ),
    "Score": lambda: pb.AdventureToursServiceScoreRequest(state=example_state(hidden=True)),
    "LegalMoves": lambda: pb.AdventureToursServiceLegalMovesRequest(state=example_state(hidden=True)),
    "NewGame": lambda: pb.AdventureToursServiceNewGameRequest(players=3, seed=1),
    "Play": lambda: _example_play(),
}

HANDLERS: dict[str, Any] = {
    "Hint": hint,
    "MaxScore": max_score,
    "GeneratePuzzle": generate_puzzle,
    "Score": score,
    "LegalMoves": legal_moves,
    "NewGame": new_game,
    "Play": play,
}

__all__ = ["EXAMPLES", "HANDLERS", "RequestError", "observe"]


# --- review ------------------------------------------------------------------------------------------------

from campsolver.service.games import review as reviews  # noqa: E402
from campsolver.solver.adventure_tours.policies import greedy_action  # noqa: E402
from campsolver.solver.adventure_tours.review import DECISION_CPU_S, AdventureToursReview  # noqa: E402


def _review_move_acts(state: State, message: pb.AdventureMove, field: str) -> list[reviews.Triple]:
    """The move's steps in order, each checked by the rules model (as Play checks them; the step named)."""
    shared.require_decision(state, field)
    require(len(message.steps) >= 1, f"{field}.steps", "at least one step")
    out: list[reviews.Triple] = []
    for index, step in enumerate(message.steps):
        where = f"{field}.steps[{index}]"
        try:
            action = step_from_proto(step)
        except ValueError:
            raise InvalidArgument(where, "an empty step") from None
        before = state
        out += reviews.acts_of(state, [action], where, lambda a, s=before: rules.action_label(s, a))
        state = out[-1][2]
    return out


def _review_adapter(start: State, objective: int) -> tuple[AdventureToursReview, int]:
    chosen = OBJECTIVE_FROM_PROTO.get(objective)
    require(chosen is not None, "objective", "MARGIN (default), EXPECTED_SCORE or WIN_PROBABILITY")
    assert chosen is not None
    resolved = {number: value for number, value in OBJECTIVE_FROM_PROTO.items() if number}
    return AdventureToursReview(chosen, puzzles.play_label), next(n for n, v in resolved.items() if v is chosen)


REVIEW_CODEC = reviews.ReviewCodec(
    play=TABLE_PLAY,
    parse_state=game_state_from_proto,
    to_proto=game_state_to_proto,
    move_acts=_review_move_acts,
    move_to_proto=move_to_proto,
    adapter=_review_adapter,
    players=lambda state: state.config.players,
    default_cpu_s=DECISION_CPU_S,
)


def review(request: pb.AdventureToursServiceReviewRequest, budget: Budget) -> pb.AdventureToursServiceReviewResponse:
    return reviews.review(request, budget, REVIEW_CODEC, pb.AdventureToursServiceReviewResponse,
                          pb.AdventureToursReviewedMove)


def example_record(decisions: int = 4, seed: int = 1) -> pb.AdventureToursRecord:
    """A seeded three-player game's first plays as a NewGame/Play client keeps them: each the greedy rule's play
    and the seed of the draws after it."""
    start = game_state_from_proto(new_game(pb.AdventureToursServiceNewGameRequest(players=3, seed=seed),
                                           Budget(1.0)).state)
    adapter = AdventureToursReview(hints.Objective.MARGIN, puzzles.play_label)
    return reviews.seeded_record(pb.AdventureToursRecord(), start, REVIEW_CODEC, adapter.continues, decisions,
                                 choose=greedy_action)


HANDLERS["Review"] = review
EXAMPLES["Review"] = lambda: pb.AdventureToursServiceReviewRequest(
    record=example_record(), review=common_pb2.ReviewOptions(decision_cpu_seconds=0.3),
    options=common_pb2.SolveOptions(seed=1),
)
