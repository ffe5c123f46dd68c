"""Camper Tour: protobuf messages <-> the rules model's and solvers' objects (every field validated and named)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from campsolver.service.errors import InvalidArgument, require, require_limit
from campsolver.service.games import enum_maps
from campsolver.service.games.shared import set_value
from campsolver.solver.camper_tour import hint as hint_search
from campsolver.solver.camper_tour import rules
from campsolver.solver.camper_tour.hint import RankedMove
from campsolver.solver.camper_tour.opponents import MAX_RECORD, Decision, check_record, record_window
from campsolver.solver.camper_tour.rules import (
    Action,
    Announce,
    Camper,
    ComfortsChoice,
    Config,
    Pass,
    Pending,
    Phase,
    PlateKind,
    Stage,
    TourState,
    TurnBack,
)

from campsolver.v1 import camper_tour_pb2 as pb
from campsolver.v1 import common_pb2

#: Most tokens one move can cost (roll 12 on an announcement of 1).
MAX_ROLL_OVERSHOOT = 11
#: Request size limits (RESOURCE_EXHAUSTED beyond them).
MAX_PLATES = 200
MAX_TOKENS = 100
MAX_HINT_DEPTH = 40

PLATE_FROM_PROTO = enum_maps.from_proto(pb.PlateKind, PlateKind)
PLATE_TO_PROTO = enum_maps.to_proto(PLATE_FROM_PROTO)
PHASE_FROM_PROTO = enum_maps.from_proto(pb.CamperPhase, Phase, unspecified=Phase.OUTWARD)
PHASE_TO_PROTO = enum_maps.to_proto(PHASE_FROM_PROTO)
PENDING_FROM_PROTO = enum_maps.from_proto(pb.PendingEffect, Pending, unspecified=Pending.NONE)
#: Inverted as a whole: no pending effect is written as UNSPECIFIED (the proto has no NONE value).
PENDING_TO_PROTO = {pending: number for number, pending in PENDING_FROM_PROTO.items()}
TOKEN_RULE_FROM_PROTO = enum_maps.from_proto(pb.TokenRule, rules.TokenRule, unspecified=rules.TokenRule.SUPPLY)
NO_PARKING_FROM_PROTO = enum_maps.from_proto(
    pb.NoParkingReturn, rules.NoParkingReturn, unspecified=rules.NoParkingReturn.TOWARD_START
)
TOKEN_RULE_TO_PROTO = enum_maps.to_proto(TOKEN_RULE_FROM_PROTO)
NO_PARKING_TO_PROTO = enum_maps.to_proto(NO_PARKING_FROM_PROTO)
COMFORTS_FROM_PROTO = enum_maps.from_proto(pb.ComfortsChoice, ComfortsChoice)
COMFORTS_TO_PROTO = enum_maps.to_proto(COMFORTS_FROM_PROTO)


def _plate_kinds(values: Any, field: str) -> tuple[PlateKind, ...]:
    kinds = tuple(map(PLATE_FROM_PROTO.get, values))  # one pass, no per-plate message: a record repeats this
    if None in kinds:
        index = kinds.index(None)
        raise InvalidArgument(f"{field}[{index}]", "unknown or unspecified plate kind")
    return kinds  # type: ignore[return-value]


def config_from_proto(message: pb.CamperTourRules, field: str) -> Config:
    """The table a request describes; unset fields take the defaults (72 plates, 25 tokens, 3 of each)."""
    layout = _plate_kinds(message.layout, f"{field}.layout") if message.layout else None
    default_plates = len(layout) if layout else rules.PLATE_COUNT
    plates = message.plates if message.HasField("plates") else default_plates
    tokens = message.tokens if message.HasField("tokens") else rules.STARTING_TOKENS
    require(plates >= 2, f"{field}.plates", "the route needs at least 2 plates")
    require_limit(plates, MAX_PLATES, f"{field}.plates", "route length")
    require(tokens >= 1, f"{field}.tokens", "campers need at least one token")
    require_limit(tokens, MAX_TOKENS, f"{field}.tokens", "token count")
    if layout is not None:
        require(len(layout) == plates, f"{field}.layout", f"gives {len(layout)} plates for a route of {plates}")
    specials = []
    for name, kind in (
        ("unexpected_comforts", PlateKind.UNEXPECTED_COMFORTS),
        ("mechanical_problem", PlateKind.MECHANICAL_PROBLEM),
        ("village_festival", PlateKind.VILLAGE_FESTIVAL),
        ("no_parking", PlateKind.NO_PARKING),
    ):
        count = getattr(message, name) if message.HasField(name) else dict(rules.DEFAULT_SPECIALS)[kind]
        require(count >= 0, f"{field}.{name}", "must not be negative")
        specials.append((kind, count))
    if layout is None:
        require(sum(c for _, c in specials) <= plates, f"{field}", "more special plates than plates in the stack")
    token_rule = TOKEN_RULE_FROM_PROTO.get(message.token_rule)
    require(token_rule is not None, f"{field}.token_rule", "unknown token rule")
    no_parking = NO_PARKING_FROM_PROTO.get(message.no_parking_return)
    require(no_parking is not None, f"{field}.no_parking_return", "unknown No Parking reading")
    try:
        return Config(
            plate_count=plates,
            starting_tokens=tokens,
            specials=tuple(specials),
            layout=layout,
            token_rule=token_rule,
            no_parking_return=no_parking,
        )
    except ValueError as error:
        raise InvalidArgument(field, str(error)) from None


def camper_from_proto(message: pb.Camper, config: Config, field: str) -> Camper:
    phase = PHASE_FROM_PROTO.get(message.phase)
    require(phase is not None, f"{field}.phase", "unknown phase")
    pending = PENDING_FROM_PROTO.get(message.pending)
    require(pending is not None, f"{field}.pending", "unknown pending effect")
    require(
        0 <= message.position <= config.plate_count,
        f"{field}.position",
        f"must be 0 (the start) to {config.plate_count}, got {message.position}",
    )
    tokens = message.tokens
    if phase == Phase.OUTWARD and tokens == 0:
        tokens = config.starting_tokens  # unset: the starting count
    require(
        tokens >= 0,
        f"{field}.tokens",
        f"tokens are never negative (a missing token moves the place marker back instead), got {tokens}",
    )
    require(
        tokens <= config.token_limit,
        f"{field}.tokens",
        f"at most {config.token_limit} ({config.token_rule.value}), got {tokens}",
    )
    if phase == Phase.OUTWARD:
        require(message.marker == 0, f"{field}.marker", "an outward camper has no marker yet")
    if phase == Phase.RETURN:
        require(
            message.position > rules.STARTING_PLATE,
            f"{field}.position",
            f"a returning camper stands on plate 2 to {config.plate_count} (plate 1 is home)",
        )
    if phase in (Phase.RETURN, Phase.FINISHED):
        # Each move costs at most 11 tokens (12 rolled on a 1-plate announcement): no real game goes deeper.
        deepest = -MAX_ROLL_OVERSHOOT * 2 * config.plate_count
        require(
            deepest <= message.marker <= config.plate_count,
            f"{field}.marker",
            f"a place marker lies between {deepest} and plate {config.plate_count}, got {message.marker}",
        )
    require(message.arrival >= 0, f"{field}.arrival", "must not be negative")
    return Camper(
        position=message.position,
        tokens=tokens,
        phase=phase,
        marker=message.marker,
        pending=pending,
        arrival=message.arrival,
    )


def state_from_proto(message: pb.CamperTourState, field: str = "state") -> TourState:
    config = config_from_proto(message.rules, f"{field}.rules")
    count = len(message.campers)
    require(
        rules.MIN_CAMPERS <= count <= rules.MAX_CAMPERS,
        f"{field}.campers",
        f"{rules.MIN_CAMPERS}-{rules.MAX_CAMPERS} campers, got {count}",
    )
    campers = [camper_from_proto(c, config, f"{field}.campers[{i}]") for i, c in enumerate(message.campers)]
    require(0 <= message.to_move < count, f"{field}.to_move", f"must index a camper (0-{count - 1})")
    laid = _plate_kinds(message.placed, f"{field}.placed") if message.placed else None
    # One validation for every RPC: the rules model's invariants (rules.validate), each camper's field named.
    reach = max([c.position for c in campers] + [c.marker for c in campers] + [0])
    if laid is None:
        laid = config.layout[:reach] if config.layout is not None else (PlateKind.NORMAL,) * reach
    # The end is checked at an arrival: `game_over` is the request's record of it (unset: read from the present).
    try:
        over = rules.read_game_over(campers, message.game_over if message.HasField("game_over") else None)
    except ValueError as error:
        raise InvalidArgument(f"{field}.game_over", str(error)) from None
    state = TourState(
        config=config,
        campers=tuple(campers),
        to_move=message.to_move,
        laid=tuple(laid),
        stage=Stage.OVER if over else Stage.DECIDE,
    )
    try:
        rules.validate(state)
    except ValueError as error:
        raise InvalidArgument(_field_of(state, error, field), str(error)) from None
    return state


def _field_of(state: TourState, error: ValueError, field: str) -> str:
    """The request field a rules invariant points at: the first camper that breaks it alone, else the table."""
    for i, camper in enumerate(state.campers):
        try:
            # ROLL: a stage without the turn order's or the end's invariants, so only the camper's own fields count
            rules.validate(TourState(config=state.config, campers=(camper,), laid=state.laid, stage=Stage.ROLL))
        except ValueError as single:
            text = str(single)
            part = "marker" if "marker" in text else "tokens" if "token" in text else "position"
            return f"{field}.campers[{i}].{part}"
    message = str(error)
    if "arrival number" in message:
        seen: set[int] = set()
        for i, camper in enumerate(state.campers):
            if camper.phase == Phase.FINISHED:
                if camper.arrival in seen:
                    return f"{field}.campers[{i}].arrival"
                seen.add(camper.arrival)
    if "laid" in message or "stack" in message:
        return f"{field}.placed"
    if "to move" in message or "skipped turn" in message:
        return f"{field}.to_move"
    return f"{field}.campers"


def state_to_proto(state: TourState) -> pb.CamperTourState:
    config = state.config
    counts = dict(config.specials)
    rules_message = pb.CamperTourRules(
        plates=config.plate_count,
        tokens=config.starting_tokens,
        unexpected_comforts=counts.get(PlateKind.UNEXPECTED_COMFORTS, 0),
        mechanical_problem=counts.get(PlateKind.MECHANICAL_PROBLEM, 0),
        village_festival=counts.get(PlateKind.VILLAGE_FESTIVAL, 0),
        no_parking=counts.get(PlateKind.NO_PARKING, 0),
        layout=[PLATE_TO_PROTO[k] for k in config.layout] if config.layout is not None else [],
        token_rule=TOKEN_RULE_TO_PROTO[config.token_rule],
        no_parking_return=NO_PARKING_TO_PROTO[config.no_parking_return],
    )
    return pb.CamperTourState(
        rules=rules_message,
        placed=[PLATE_TO_PROTO[k] for k in state.laid],
        campers=[
            pb.Camper(
                position=c.position,
                phase=PHASE_TO_PROTO[c.phase],
                marker=c.marker,
                tokens=c.tokens,
                pending=PENDING_TO_PROTO[c.pending],
                arrival=c.arrival,
            )
            for c in state.campers
        ],
        to_move=state.to_move,
        game_over=state.game_over,
    )


def move_to_proto(action: Action) -> pb.CamperTourMove:
    if isinstance(action, Announce):
        return pb.CamperTourMove(announce=action.plates)
    if isinstance(action, TurnBack):
        return pb.CamperTourMove(turn_back=True)
    if isinstance(action, Pass):
        return pb.CamperTourMove(**{"pass": True})
    if isinstance(action, ComfortsChoice):
        return pb.CamperTourMove(comforts=COMFORTS_TO_PROTO[action])
    raise TypeError(f"not a Camper Tour action: {action!r}")


def move_from_proto(message: pb.CamperTourMove, field: str) -> Action:
    """The rules model's action for a move message (its legality is the caller's check)."""
    choice = message.WhichOneof("choice")
    if choice == "turn_back" and message.turn_back:
        return TurnBack()
    if choice == "announce":
        require(
            1 <= message.announce <= rules.MAX_ANNOUNCEMENT,
            f"{field}.announce",
            f"announce 1-{rules.MAX_ANNOUNCEMENT} plates, got {message.announce}",
        )
        return Announce(message.announce)
    if choice == "comforts":
        require(message.comforts in COMFORTS_FROM_PROTO, f"{field}.comforts", "RECOVER, DISCARD or DECLINE")
        return COMFORTS_FROM_PROTO[message.comforts]
    if choice == "pass" and getattr(message, "pass"):
        return Pass()
    raise InvalidArgument(field, "one of turn_back, announce, comforts or pass must be set (true)")


def history_from_proto(request: pb.CamperTourServiceHintRequest, state: TourState) -> list[Decision]:
    """The decisions of the hint's game record the hint reads, each checked: a decision state of a game like
    `state`'s, a legal move.

    The hint reads the first decisions of each other camper still travelling, and only where two or more other
    campers are in the game (`opponents.record_window`), so only those are converted and checked in full (about
    0.15 ms a decision, a few dozen at most whatever the record's length); every decision is checked for its
    shape (a state with the position's number of campers, and a move the rules know, e.g. announce 1-10). The
    answer's note says how many were not read.
    """
    history = request.history
    require_limit(len(history), MAX_RECORD, "history", "decisions in the history")
    campers = len(state.campers)
    for i, decision in enumerate(history):
        require(decision.HasField("state"), f"history[{i}].state", "each decision needs the state its camper faced")
        require(decision.HasField("move"), f"history[{i}].move", "each decision needs the move its camper chose")
        count = len(decision.state.campers)
        require(count == campers, f"history[{i}].state.campers", f"{count} campers, the position has {campers}")
        move_from_proto(decision.move, f"history[{i}].move")  # a move the rules know (range checks, microseconds)
    record, where = [], []
    for i in record_window([decision.state.to_move for decision in history], state):
        decision, field = history[i], f"history[{i}]"
        record.append(
            Decision(_decision_state(decision.state, f"{field}.state"), move_from_proto(decision.move, f"{field}.move"))
        )
        where.append(i)
    try:
        check_record(record, state)
    except ValueError as error:
        field, _, description = str(error).partition(": ")
        if field.startswith("history["):  # check_record counts the decisions read: name the request's index
            index, _, rest = field[len("history[") :].partition("]")
            field = f"history[{where[int(index)]}]{rest}"
        raise InvalidArgument(field, description) from None
    return record


def move_label(action: Action) -> str:
    if isinstance(action, Announce):
        return f"announce {action.plates}"
    if isinstance(action, TurnBack):
        return "turn back"
    if isinstance(action, Pass):
        return "pass"
    return f"comforts: {action.value}"


def ranked(moves: list[tuple[Action, float]], *, exact: bool) -> list[pb.CamperTourAlternative]:
    """Alternatives best first, with rank, value and loss versus the best (`set_value`); standard error 0 for
    exact values, none for estimates that are not sample means (a look-ahead or search value)."""
    ordered = sorted(moves, key=lambda pair: -pair[1])
    best = ordered[0][1] if ordered else 0.0
    alternatives = []
    for i, (action, value) in enumerate(ordered):
        ranking = common_pb2.RankedAlternative(rank=i + 1, label=move_label(action))
        set_value(ranking, value, best)
        if not exact:
            ranking.ClearField("standard_error")
        alternatives.append(pb.CamperTourAlternative(move=move_to_proto(action), ranking=ranking))
    return alternatives


def _decision_state(request_state: pb.CamperTourState, field: str = "state") -> TourState:
    state = state_from_proto(request_state, field)
    require(not state.game_over, field, "the game is over: there is no move to make")
    require(bool(state.legal_actions()), f"{field}.to_move", "the camper to move has no decision to make")
    return state


#: Written out: the two values of the shared Objective enum this game ranks by.
OBJECTIVE_FROM_PROTO = {
    common_pb2.OBJECTIVE_WIN_PROBABILITY: hint_search.Objective.WIN_PROBABILITY,
    common_pb2.OBJECTIVE_EXPECTED_SCORE: hint_search.Objective.EXPECTED_SCORE,
}
OBJECTIVE_TO_PROTO = {objective: number for number, objective in OBJECTIVE_FROM_PROTO.items()}


def ranked_in_order(moves: Sequence[RankedMove], *, exact: bool) -> list[pb.CamperTourAlternative]:
    """Alternatives in the solver's order (best first), with their own values and losses (`set_value`).

    A playout estimate carries its sample count and, from MIN_SAMPLES_FOR_STANDARD_ERROR playouts on, its
    standard error; an exact value has standard error 0; a search or model value that is neither has none
    (its error is not a sampling error, and is not known). A move the hint did not value has no value at all
    (a 0 there would read as "this move never wins"), and a note saying why.
    """
    valued = [move for move in moves if move.evaluated]
    best = max((move.value for move in valued), default=0.0)
    alternatives = []
    for i, move in enumerate(moves):
        ranking = common_pb2.RankedAlternative(rank=i + 1, label=move_label(move.choice))
        if move.evaluated:
            if move.samples:
                set_value(ranking, move.value, best, samples=move.samples, standard_error=move.standard_error)
            else:
                set_value(ranking, move.value, best)
                if not exact:
                    ranking.ClearField("standard_error")
        else:
            ranking.note = move.note or (
                "not compared: outside the hint's candidate moves or its model's, or cut by the time limit"
            )
        alternatives.append(pb.CamperTourAlternative(move=move_to_proto(move.choice), ranking=ranking))
    return alternatives
