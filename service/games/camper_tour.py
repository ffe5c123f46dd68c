"""Camper Tour: protobuf requests <-> rules model and solvers (exact solo DP, expectimax hints, puzzles)."""

from __future__ import annotations

from typing import Any

from campsolver.service.errors import InvalidArgument, require, require_limit
from campsolver.service.games import review as reviews
from campsolver.service.games import shared
from campsolver.service.games.protocol import GameService
from campsolver.service.games.shared import (
    MIN_SAMPLES_FOR_STANDARD_ERROR,
    PROOF_TO_PROTO,
    grade_from_proto,
    grade_to_proto,
    set_value,
)
from campsolver.solver.camper_tour import best_response, render, rules, solo
from campsolver.solver.camper_tour import hint as hint_search
from campsolver.solver.camper_tour import puzzle as puzzles
from campsolver.solver.camper_tour.hint import RankedMove
from campsolver.solver.camper_tour.opponents import MAX_RECORD, Decision, check_record, record_window
from campsolver.solver.camper_tour.review import DECISION_CPU_S, CamperTourReview
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
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.proof import Proof

from campsolver.v1 import camper_tour_pb2 as pb
from campsolver.v1 import common_pb2

#: A hint deepens until its budget ends: this is the budget when the request names none (the deadline still caps it).
DEFAULT_HINT_SECONDS = 1.0
#: Most tokens one move can cost (roll 12 on an announcement of 1).
MAX_ROLL_OVERSHOOT = 11
#: Request size limits (RESOURCE_EXHAUSTED beyond them).
MAX_PLATES = 200
MAX_TOKENS = 100
MAX_HINT_DEPTH = 40

PLATE_FROM_PROTO = {
    pb.PLATE_KIND_NORMAL: PlateKind.NORMAL,
    pb.PLATE_KIND_UNEXPECTED_COMFORTS: PlateKind.UNEXPECTED_COMFORTS,
    pb.PLATE_KIND_MECHANICAL_PROBLEM: PlateKind.MECHANICAL_PROBLEM,
    pb.PLATE_KIND_VILLAGE_FESTIVAL: PlateKind.VILLAGE_FESTIVAL,
    pb.PLATE_KIND_NO_PARKING: PlateKind.NO_PARKING,
}
PLATE_TO_PROTO = {kind: number for number, kind in PLATE_FROM_PROTO.items()}
PHASE_FROM_PROTO = {
    pb.CAMPER_PHASE_UNSPECIFIED: Phase.OUTWARD,
    pb.CAMPER_PHASE_OUTWARD: Phase.OUTWARD,
    pb.CAMPER_PHASE_RETURN: Phase.RETURN,
    pb.CAMPER_PHASE_FINISHED: Phase.FINISHED,
    pb.CAMPER_PHASE_ELIMINATED: Phase.ELIMINATED,
}
PHASE_TO_PROTO = {
    Phase.OUTWARD: pb.CAMPER_PHASE_OUTWARD,
    Phase.RETURN: pb.CAMPER_PHASE_RETURN,
    Phase.FINISHED: pb.CAMPER_PHASE_FINISHED,
    Phase.ELIMINATED: pb.CAMPER_PHASE_ELIMINATED,
}
PENDING_FROM_PROTO = {
    pb.PENDING_EFFECT_UNSPECIFIED: Pending.NONE,
    pb.PENDING_EFFECT_SKIP_TURN: Pending.SKIP_TURN,
    pb.PENDING_EFFECT_COMFORTS_CHOICE: Pending.COMFORTS_CHOICE,
}
PENDING_TO_PROTO = {pending: number for number, pending in PENDING_FROM_PROTO.items()}
TOKEN_RULE_FROM_PROTO = {
    pb.TOKEN_RULE_UNSPECIFIED: rules.TokenRule.SUPPLY,
    pb.TOKEN_RULE_SUPPLY: rules.TokenRule.SUPPLY,
    pb.TOKEN_RULE_PER_CAMPER_CAP: rules.TokenRule.PER_CAMPER_CAP,
}
NO_PARKING_FROM_PROTO = {
    pb.NO_PARKING_RETURN_UNSPECIFIED: rules.NoParkingReturn.TOWARD_START,
    pb.NO_PARKING_RETURN_TOWARD_START: rules.NoParkingReturn.TOWARD_START,
    pb.NO_PARKING_RETURN_AWAY_FROM_HOME: rules.NoParkingReturn.AWAY_FROM_HOME,
}
TOKEN_RULE_TO_PROTO = {rule: number for number, rule in TOKEN_RULE_FROM_PROTO.items() if number}
NO_PARKING_TO_PROTO = {reading: number for number, reading in NO_PARKING_FROM_PROTO.items() if number}
COMFORTS_TO_PROTO = {
    ComfortsChoice.RECOVER: pb.COMFORTS_CHOICE_RECOVER,
    ComfortsChoice.DISCARD: pb.COMFORTS_CHOICE_DISCARD,
    ComfortsChoice.DECLINE: pb.COMFORTS_CHOICE_DECLINE,
}
COMFORTS_FROM_PROTO = {number: choice for choice, number in COMFORTS_TO_PROTO.items()}


# --- conversions ----------------------------------------------------------------------------------------


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
        require(
            sum(c for _, c in specials) <= plates, f"{field}", "more special plates than plates in the stack"
        )
    token_rule = TOKEN_RULE_FROM_PROTO.get(message.token_rule)
    require(token_rule is not None, f"{field}.token_rule", "unknown token rule")
    no_parking = NO_PARKING_FROM_PROTO.get(message.no_parking_return)
    require(no_parking is not None, f"{field}.no_parking_return", "unknown No Parking reading")
    try:
        return Config(plate_count=plates, starting_tokens=tokens, specials=tuple(specials), layout=layout,
                      token_rule=token_rule, no_parking_return=no_parking)
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
    require(tokens >= 0, f"{field}.tokens",
            f"tokens are never negative (a missing token moves the place marker back instead), got {tokens}")
    require(tokens <= config.token_limit, f"{field}.tokens",
            f"at most {config.token_limit} ({config.token_rule.value}), got {tokens}")
    if phase == Phase.OUTWARD:
        require(message.marker == 0, f"{field}.marker", "an outward camper has no marker yet")
    if phase == Phase.RETURN:
        require(message.position > rules.STARTING_PLATE, f"{field}.position",
                f"a returning camper stands on plate 2 to {config.plate_count} (plate 1 is home)")
    if phase in (Phase.RETURN, Phase.FINISHED):
        # Each move costs at most 11 tokens (12 rolled on a 1-plate announcement): no real game goes deeper.
        deepest = -MAX_ROLL_OVERSHOOT * 2 * config.plate_count
        require(deepest <= message.marker <= config.plate_count, f"{field}.marker",
                f"a place marker lies between {deepest} and plate {config.plate_count}, got {message.marker}")
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
    state = TourState(config=config, campers=tuple(campers), to_move=message.to_move, laid=tuple(laid),
                      stage=Stage.OVER if over else Stage.DECIDE)
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
        require(1 <= message.announce <= rules.MAX_ANNOUNCEMENT, f"{field}.announce",
                f"announce 1-{rules.MAX_ANNOUNCEMENT} plates, got {message.announce}")
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
        record.append(Decision(_decision_state(decision.state, f"{field}.state"),
                               move_from_proto(decision.move, f"{field}.move")))
        where.append(i)
    try:
        check_record(record, state)
    except ValueError as error:
        field, _, description = str(error).partition(": ")
        if field.startswith("history["):  # check_record counts the decisions read: name the request's index
            index, _, rest = field[len("history["):].partition("]")
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


def ranked(moves: list[tuple[Action, float]], *, exact: bool = True) -> list[pb.CamperTourAlternative]:
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


def _check_moves_are_legal(state: TourState, actions: list[Action]) -> None:
    """The solvers generate their own moves for speed; the rules model must agree before we answer."""
    legal = set(state.legal_actions())
    if set(actions) != legal or len(actions) != len(legal):
        raise RuntimeError(
            f"solver moves {actions} disagree with the rules model's legal moves {sorted(map(str, legal))}"
        )


def _decision_state(request_state: pb.CamperTourState, field: str = "state") -> TourState:
    state = state_from_proto(request_state, field)
    require(not state.game_over, field, "the game is over: there is no move to make")
    require(bool(state.legal_actions()), f"{field}.to_move", "the camper to move has no decision to make")
    return state


# --- handlers -------------------------------------------------------------------------------------------


OBJECTIVE_FROM_PROTO = {
    common_pb2.OBJECTIVE_WIN_PROBABILITY: hint_search.Objective.WIN_PROBABILITY,
    common_pb2.OBJECTIVE_EXPECTED_SCORE: hint_search.Objective.EXPECTED_SCORE,
}
OBJECTIVE_TO_PROTO = {objective: number for number, objective in OBJECTIVE_FROM_PROTO.items()}


def hint_objective(request: pb.CamperTourServiceHintRequest, state: TourState) -> hint_search.Objective:
    """Unset: win probability with 2-4 campers, expected score solo (where they are the same thing)."""
    if request.objective == common_pb2.OBJECTIVE_UNSPECIFIED:
        if len(state.campers) >= 2:
            return hint_search.Objective.WIN_PROBABILITY
        return hint_search.Objective.EXPECTED_SCORE
    objective = OBJECTIVE_FROM_PROTO.get(request.objective)
    require(objective is not None, "objective", "Camper Tour hints rank by WIN_PROBABILITY or EXPECTED_SCORE")
    assert objective is not None
    return objective


def hint(request: pb.CamperTourServiceHintRequest, budget: Budget) -> pb.CamperTourServiceHintResponse:
    require(request.HasField("state"), "state", "a position is required")
    require(request.depth >= 0, "depth", "must not be negative")
    require_limit(request.depth, MAX_HINT_DEPTH, "depth", "search depth")
    state = _decision_state(request.state)
    objective = hint_objective(request, state)
    record = history_from_proto(request, state)
    if not request.options.time_limit_seconds:
        budget = budget.limited(DEFAULT_HINT_SECONDS)
    result = hint_search.hint(state, budget, max_depth=request.depth or hint_search.MAX_DEPTH,
                              objective=objective, seed=request.options.seed, history=record, record_checked=True)
    _check_moves_are_legal(state, [m.action for m in result.moves])
    if result.fallback:
        note = f"{result.fallback}; allow more time for ranked values"
    elif result.method == hint_search.BEST_RESPONSE_METHOD:
        note = ("win probability under the best-response model: the history shows every other camper playing the "
                "exact solo policy, and each move is valued by the chance of getting home first strictly ahead of "
                "every other camper's reach against them (a model estimate: specials, occupied plates and the "
                "last-camper rule are left out)")
    elif result.method.startswith("win-probability"):
        best = result.best
        error = (f"standard error {best.standard_error:.3f}" if best.samples >= MIN_SAMPLES_FOR_STANDARD_ERROR
                 else "too few for a standard error")
        note = (f"win probability estimated from {best.samples} playouts of the answered move ({error}); after "
                f"the move the mover plays the race rule of thumb and {result.opponents}; the answer is the rule "
                "of thumb's move unless another is clearly better in paired playouts; a move without a value "
                "says why in its note")
    elif result.note:
        note = result.note
    elif result.proof is Proof.EXACT:
        note = "exact expected final score"
    else:
        note = f"expected final score of a depth-{result.depth} search with solo values at its leaves"
    unread = len(request.history) - len(record)
    if unread:
        note += (f"; the game's record: {len(record)} of its {len(request.history)} decisions read and checked "
                 "(the first ones of each other camper still travelling, whose style the hint reads), the others "
                 "checked for shape only")
    return pb.CamperTourServiceHintResponse(
        alternatives=ranked_in_order(list(result.moves), exact=result.proof is Proof.EXACT),
        proof=PROOF_TO_PROTO[result.proof],
        stats=common_pb2.SolveStats(
            wall_time_seconds=result.wall_time_s,
            nodes=result.nodes,
            depth=result.depth,
            method=result.method,
            interrupted=result.interrupted,
            samples=result.samples,
            fallback=result.fallback,
        ),
        objective=OBJECTIVE_TO_PROTO[objective],
        note=note,
    )


def ranked_in_order(moves: list[RankedMove], *, exact: bool = False) -> list[pb.CamperTourAlternative]:
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
        ranking = common_pb2.RankedAlternative(rank=i + 1, label=move_label(move.action))
        if move.evaluated:
            if move.samples:
                set_value(ranking, move.value, best, samples=move.samples, standard_error=move.standard_error)
            else:
                set_value(ranking, move.value, best)
                if not exact:
                    ranking.ClearField("standard_error")
        else:
            ranking.note = move.note or ("not compared: outside the hint's candidate moves or its model's, or cut "
                                         "by the time limit")
        alternatives.append(pb.CamperTourAlternative(move=move_to_proto(move.action), ranking=ranking))
    return alternatives


def max_score(request: pb.CamperTourServiceMaxScoreRequest, budget: Budget) -> pb.CamperTourServiceMaxScoreResponse:
    if request.HasField("state"):
        require(len(request.state.campers) == 1, "state.campers", "the solo maximum takes exactly one camper")
        state = _decision_state(request.state)
        config = state.config
        camper = state.campers[0]
        laid = state.laid
    else:
        config = config_from_proto(request.rules, "rules")
        camper = Camper(tokens=config.starting_tokens)
        laid = ()
    position = solo.SoloPosition(
        position=camper.position,
        tokens=camper.tokens,
        phase=camper.phase,
        marker=camper.marker,
        pending=camper.pending,
        laid=tuple(laid),
    )
    result = solo.solve_solo(config, position, budget, seed=request.options.seed)
    _check_moves_are_legal(solo.solo_state(config, position), [a.action for a in result.alternatives])
    notes = list(result.notes)
    if result.upper_estimate is not None:
        spread = (f" +- {result.upper_standard_error:.4f}" if result.upper_standard_error is not None
                  else " (from too few layouts for a standard error)")
        notes.append(
            f"sampled clairvoyant value {result.upper_estimate:.4f}{spread} "
            "(an estimate of an upper bound, not a proof)"
        )
    if result.proof is Proof.EXACT:
        standard_error: float | None = 0.0
    else:  # solve_solo states one only from enough games or layouts
        standard_error = result.standard_error
    return pb.CamperTourServiceMaxScoreResponse(
        expected_score=result.value,
        proof=PROOF_TO_PROTO[result.proof],
        standard_error=standard_error,
        alternatives=ranked([(a.action, a.value) for a in result.alternatives], exact=result.proof is Proof.EXACT),
        note="; ".join(notes) or ("exact" if result.proof is Proof.EXACT else ""),
        stats=common_pb2.SolveStats(
            wall_time_seconds=result.wall_time_s,
            states=result.states_evaluated,
            samples=result.samples,
            method=result.method,
        ),
    )


def generate_puzzle(
    request: pb.CamperTourServiceGeneratePuzzleRequest, budget: Budget
) -> pb.CamperTourServiceGeneratePuzzleResponse:
    grade = grade_from_proto(request.grade, puzzles.Grade)
    try:
        puzzle = puzzles.generate(
            request.seed,
            budget,
            grade=grade,
            opponent_probability=puzzles.OPPONENT_PROBABILITY if request.with_opponents else 0.0,
        )
    except LookupError as error:
        raise InvalidArgument("grade", f"no puzzle of that grade for this seed: {error}") from None
    evidence = puzzle.evidence
    question = render.question(puzzle.state)
    text = (f"Camper Tour puzzle (seed {puzzle.seed}, {puzzle.grade.value})\n{render.text_board(puzzle.state)}\n"
            + "\n".join(render.rules_words(puzzle.state)) + f"\n\nQuestion: {question}")
    second = evidence.moves[1]
    exact = evidence.proof is Proof.EXACT
    solution_text = (
        f"Answer: {move_label(puzzle.solution)} (expected final score {evidence.moves[0].value:.3f}); the next best, "
        f"{move_label(second.action)}, is worth {second.value:.3f} ({puzzle.margin:.3f} less). "
        + ("Values are exact (the solo solver)." if exact
           else f"Values come from a depth-{evidence.depth} search (not proven).")
    )
    how = "exact" if exact else f"depth-{evidence.depth} search, not proven"
    value = (f"expected final score {evidence.moves[0].value:.3f}, {how} (the next best, {move_label(second.action)}: "
             f"{second.value:.3f})")
    return pb.CamperTourServiceGeneratePuzzleResponse(
        puzzle=common_pb2.PuzzleEnvelope(
            seed=puzzle.seed,
            grade=grade_to_proto(puzzle.grade),
            evidence=[
                common_pb2.DifficultyEvidence(
                    name="heuristic_loss",
                    value=evidence.heuristic_loss,
                    description=(
                        f"expected points the token-budgeting heuristic ({move_label(evidence.heuristic_move)}) "
                        "loses against the best announcement"
                    ),
                ),
                common_pb2.DifficultyEvidence(
                    name="margin", value=puzzle.margin, description="best value minus second-best value"
                ),
                common_pb2.DifficultyEvidence(
                    name="choices", value=len(evidence.moves), description="legal choices at the position"
                ),
                common_pb2.DifficultyEvidence(
                    name="attempts", value=evidence.attempts, description="candidates drawn before this one"
                ),
            ],
            unique=evidence.proof is Proof.EXACT,
            proof=PROOF_TO_PROTO[evidence.proof],
            text=text,
            svg=render.puzzle_svg(puzzle.state, seed=puzzle.seed, grade=puzzle.grade.value),
            solution_text=solution_text,
            solution_svg=render.solution_svg(puzzle.state, puzzle.solution, seed=puzzle.seed, value=value),
            question=question,
        ),
        state=state_to_proto(puzzle.state),
        solution=move_to_proto(puzzle.solution),
        margin=puzzle.margin,
        alternatives=ranked([(m.action, m.value) for m in evidence.moves], exact=evidence.proof is Proof.EXACT),
        stats=common_pb2.SolveStats(
            depth=evidence.depth, method="exact solo" if evidence.depth == 0 else "expectimax"
        ),
    )


def score(request: pb.CamperTourServiceScoreRequest, budget: Budget) -> pb.CamperTourServiceScoreResponse:
    require(request.HasField("state"), "state", "a position is required")
    state = state_from_proto(request.state)
    winner = state.winner()
    game_over = state.game_over
    return pb.CamperTourServiceScoreResponse(
        scores=[c.score for c in state.campers],
        game_over=game_over,
        winner=-1 if winner is None else winner,
        details=[
            common_pb2.ScoreDetail(name=f"camper {i + 1} ({c.phase.value})", points=c.score)
            for i, c in enumerate(state.campers)
        ],
    )


def legal_moves(
    request: pb.CamperTourServiceLegalMovesRequest, budget: Budget
) -> pb.CamperTourServiceLegalMovesResponse:
    require(request.HasField("state"), "state", "a position is required")
    state = state_from_proto(request.state)
    actions = state.legal_actions()
    return pb.CamperTourServiceLegalMovesResponse(
        moves=[move_to_proto(a) for a in actions], to_move=state.to_move if actions else -1
    )


# --- thin-client play ------------------------------------------------------------------------------------------


def _describe(state: TourState) -> str:
    player = state.current_player()
    if player == rules.TERMINAL:
        return "game over"
    if player == rules.CHANCE:
        return f"chance: {state.stage.value}"
    if state.mover.pending == rules.Pending.COMFORTS_CHOICE:
        return f"camper {player}: choose what Unexpected Comforts gives (or turn back)"
    return f"camper {player}: announce how many plates to drive (or turn back, or pass)"


def _chance_label(state: TourState, outcome: Any) -> str:
    if state.stage == Stage.ROLL:
        return f"dice {outcome}"
    if state.stage == Stage.LAY:
        return f"plate {len(state.laid) + 1}: {PlateKind(outcome).name.lower().replace('_', ' ')}"
    return f"die {outcome}"


def _winners(state: TourState) -> list[int]:
    winner = state.winner()
    return [] if winner is None else [winner]


TABLE_PLAY = shared.TablePlay(
    scores=lambda state: [c.score for c in state.campers],
    winners=_winners,
    describe=_describe,
    chance_label=_chance_label,
    picture=lambda state: render.svg_strip(state),
    chance_states=False,  # the state message holds decisions and the end only
)


def new_game(request: pb.CamperTourServiceNewGameRequest, budget: Budget) -> pb.CamperTourServiceNewGameResponse:
    campers = request.players or 2
    require(
        rules.MIN_CAMPERS <= campers <= rules.MAX_CAMPERS,
        "players",
        f"{rules.MIN_CAMPERS}-{rules.MAX_CAMPERS} campers, got {campers}",
    )
    config = config_from_proto(request.rules, "rules")
    # The setup's one chance: who begins (any seat, equally likely).
    first = shared.seeded_rng(request.seed).randrange(campers)
    try:
        state = rules.new_game(config, campers, first=first)
    except ValueError as error:
        raise InvalidArgument("players", str(error)) from None
    return shared.new_game_answer(
        pb.CamperTourServiceNewGameResponse, state, TABLE_PLAY, state_to_proto, request.want_picture
    )


def _apply_move(state: TourState, message: pb.CamperTourMove) -> TourState:
    shared.require_decision(state)
    return shared.apply_action(state, move_from_proto(message, "move"))


def play(request: pb.CamperTourServicePlayRequest, budget: Budget) -> pb.CamperTourServicePlayResponse:
    return shared.play_answer(
        request, state_from_proto, _apply_move, TABLE_PLAY, state_to_proto, pb.CamperTourServicePlayResponse
    )


# --- review ------------------------------------------------------------------------------------------------


def _review_move_acts(state: TourState, message: pb.CamperTourMove, field: str) -> list[reviews.Triple]:
    shared.require_decision(state, field)
    return reviews.acts_of(state, [move_from_proto(message, field)], field, move_label)


def _review_adapter(start: TourState, objective: int) -> tuple[CamperTourReview, int]:
    chosen = None
    if objective != common_pb2.OBJECTIVE_UNSPECIFIED:
        chosen = OBJECTIVE_FROM_PROTO.get(objective)
        require(chosen is not None, "objective", "Camper Tour reviews rank by WIN_PROBABILITY or EXPECTED_SCORE")
    adapter = CamperTourReview(chosen, len(start.campers), move_label)
    return adapter, OBJECTIVE_TO_PROTO[adapter.objective]


REVIEW_CODEC = reviews.ReviewCodec(
    play=TABLE_PLAY,
    parse_state=state_from_proto,
    to_proto=state_to_proto,
    move_acts=_review_move_acts,
    move_to_proto=lambda state, actions: move_to_proto(actions[0]),
    adapter=_review_adapter,
    players=lambda state: len(state.campers),
    default_cpu_s=DECISION_CPU_S,
)


def review(request: pb.CamperTourServiceReviewRequest, budget: Budget) -> pb.CamperTourServiceReviewResponse:
    return reviews.review(request, budget, REVIEW_CODEC, pb.CamperTourServiceReviewResponse,
                          pb.CamperTourReviewedMove)


def example_record(moves: int = 8, seed: int = 1) -> pb.CamperTourRecord:
    """A short seeded two-camper game as a NewGame/Play client keeps it: the start and `moves` Play calls, each
    the race rule of thumb's move (the first camper's third one a deliberate 10) and its seed."""
    from campsolver.solver.camper_tour.players import race

    start = state_from_proto(new_game(pb.CamperTourServiceNewGameRequest(players=2, seed=seed), Budget(1.0)).state)
    record = pb.CamperTourRecord(start=state_to_proto(start))
    state = start
    for step in range(moves):
        if state.game_over:
            break
        action = race(state)
        if step == 4 and Announce(10) in state.legal_actions():
            action = Announce(10)
        state = shared.resolve_chance(state.child(action), shared.seeded_rng(step + 1))
        record.steps.add(move=move_to_proto(action), seed=step + 1)
    return record


# --- examples, warm-up, bench requests -------------------------------------------------------------------

ALL_NORMAL_RULES = pb.CamperTourRules(unexpected_comforts=0, mechanical_problem=0, village_festival=0, no_parking=0)


def _example_state() -> pb.CamperTourState:
    return pb.CamperTourState(
        rules=ALL_NORMAL_RULES,
        campers=[
            pb.Camper(position=30, phase=pb.CAMPER_PHASE_RETURN, marker=41, tokens=9),
            pb.Camper(position=24, phase=pb.CAMPER_PHASE_OUTWARD, tokens=20),
        ],
        to_move=0,
    )


EXAMPLES: dict[str, Any] = {
    "Hint": lambda: pb.CamperTourServiceHintRequest(
        state=_example_state(), options=common_pb2.SolveOptions(time_limit_seconds=1.0)
    ),
    "MaxScore": lambda: pb.CamperTourServiceMaxScoreRequest(rules=ALL_NORMAL_RULES),
    "GeneratePuzzle": lambda: pb.CamperTourServiceGeneratePuzzleRequest(
        seed=7, options=common_pb2.SolveOptions(time_limit_seconds=10.0)
    ),
    "Score": lambda: pb.CamperTourServiceScoreRequest(
        state=pb.CamperTourState(
            rules=ALL_NORMAL_RULES,
            campers=[
                pb.Camper(position=0, phase=pb.CAMPER_PHASE_FINISHED, marker=50, tokens=0, arrival=1),
                pb.Camper(position=12, phase=pb.CAMPER_PHASE_RETURN, marker=58, tokens=6),
            ],
            to_move=1,
        )
    ),
    "LegalMoves": lambda: pb.CamperTourServiceLegalMovesRequest(state=_example_state()),
    "NewGame": lambda: pb.CamperTourServiceNewGameRequest(players=2, seed=1),
    "Play": lambda: pb.CamperTourServicePlayRequest(
        state=_example_state(), move=move_to_proto(state_from_proto(_example_state()).legal_actions()[0]), seed=1
    ),
    "Review": lambda: pb.CamperTourServiceReviewRequest(
        record=example_record(), review=common_pb2.ReviewOptions(decision_cpu_seconds=0.3),
        options=common_pb2.SolveOptions(seed=1),
    ),
}


def _warm_up() -> None:
    """Build the all-normal solo tables the hint leaves use and the best response's tables for the default
    route (about 1 s), before reporting SERVING."""
    solo.all_normal_tables(rules.PLATE_COUNT, Config().token_limit)
    best_response.warm_up(Config())


class CamperTourService:
    """`campsolver.v1.CamperTourService`: this module's handlers, bound for the registry."""

    pb2 = pb
    service_name = "CamperTourService"
    examples = EXAMPLES
    hint = staticmethod(hint)
    max_score = staticmethod(max_score)
    generate_puzzle = staticmethod(generate_puzzle)
    score = staticmethod(score)
    legal_moves = staticmethod(legal_moves)
    new_game = staticmethod(new_game)
    play = staticmethod(play)
    review = staticmethod(review)

    def warm_up(self) -> None:
        _warm_up()


SERVICE: GameService = CamperTourService()
