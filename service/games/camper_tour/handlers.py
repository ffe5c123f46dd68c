"""Camper Tour: the RPC handlers (request + budget -> response), the NewGame/Play table flow and the review codec."""

from __future__ import annotations

from typing import Any

from campsolver.service.errors import InvalidArgument, require, require_limit
from campsolver.service.games import review as reviews
from campsolver.service.games import shared
from campsolver.service.games.camper_tour.convert import (
    MAX_HINT_DEPTH,
    OBJECTIVE_FROM_PROTO,
    OBJECTIVE_TO_PROTO,
    _decision_state,
    config_from_proto,
    history_from_proto,
    move_from_proto,
    move_label,
    move_to_proto,
    ranked,
    ranked_in_order,
    state_from_proto,
    state_to_proto,
)
from campsolver.service.games.shared import (
    MIN_SAMPLES_FOR_STANDARD_ERROR,
    PROOF_TO_PROTO,
    grade_from_proto,
    grade_to_proto,
)
from campsolver.solver.camper_tour import best_response, maximise, render, rules, solo
from campsolver.solver.camper_tour import hint as hint_search
from campsolver.solver.camper_tour import puzzle as puzzles
from campsolver.solver.camper_tour.review import DECISION_CPU_S, CamperTourReview
from campsolver.solver.camper_tour.rules import Action, Camper, Config, PlateKind, Stage, TourState
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.proof import Proof

from campsolver.v1 import camper_tour_pb2 as pb
from campsolver.v1 import common_pb2

#: A hint deepens until its budget ends: this is the budget when the request names none (the deadline still caps it).
DEFAULT_HINT_SECONDS = 1.0


def _check_moves_are_legal(state: TourState, actions: list[Action]) -> None:
    """The solvers generate their own moves for speed; the rules model must agree before we answer."""
    legal = set(state.legal_actions())
    if set(actions) != legal or len(actions) != len(legal):
        raise RuntimeError(
            f"solver moves {actions} disagree with the rules model's legal moves {sorted(map(str, legal))}"
        )


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
    result = hint_search.hint(
        state,
        budget,
        options=hint_search.HintOptions(
            max_depth=request.depth or hint_search.MAX_DEPTH,
            objective=objective,
            seed=request.options.seed,
            history=record,
            record_checked=True,
        ),
    )
    _check_moves_are_legal(state, [m.choice for m in result.choices])
    if result.fallback:
        note = f"{result.fallback}; allow more time for ranked values"
    elif result.method == hint_search.BEST_RESPONSE_METHOD:
        note = (
            "win probability under the best-response model: the history shows every other camper playing the "
            "exact solo policy, and each move is valued by the chance of getting home first strictly ahead of "
            "every other camper's reach against them (a model estimate: specials, occupied plates and the "
            "last-camper rule are left out)"
        )
    elif result.method.startswith("win-probability"):
        best = result.best
        error = (
            f"standard error {best.standard_error:.3f}"
            if best.samples >= MIN_SAMPLES_FOR_STANDARD_ERROR
            else "too few for a standard error"
        )
        note = (
            f"win probability estimated from {best.samples} playouts of the answered move ({error}); after "
            f"the move the mover plays the race rule of thumb and {result.opponents}; the answer is the rule "
            "of thumb's move unless another is clearly better in paired playouts; a move without a value "
            "says why in its note"
        )
    elif result.note:
        note = result.note
    elif result.proof is Proof.EXACT:
        note = "exact expected final score"
    else:
        note = f"expected final score of a depth-{result.depth} search with solo values at its leaves"
    unread = len(request.history) - len(record)
    if unread:
        note += (
            f"; the game's record: {len(record)} of its {len(request.history)} decisions read and checked "
            "(the first ones of each other camper still travelling, whose style the hint reads), the others "
            "checked for shape only"
        )
    return pb.CamperTourServiceHintResponse(
        alternatives=ranked_in_order(result.choices, exact=result.proof is Proof.EXACT),
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
    position = maximise.SoloPosition(
        position=camper.position,
        tokens=camper.tokens,
        phase=camper.phase,
        marker=camper.marker,
        pending=camper.pending,
        laid=tuple(laid),
    )
    result = maximise.maximise(config, position, budget, seed=request.options.seed)
    _check_moves_are_legal(maximise.solo_state(config, position), [a.action for a in result.alternatives])
    notes = list(result.notes)
    if result.upper_estimate is not None:
        spread = (
            f" +- {result.upper_standard_error:.4f}"
            if result.upper_standard_error is not None
            else " (from too few layouts for a standard error)"
        )
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
    text = (
        f"Camper Tour puzzle (seed {puzzle.seed}, {puzzle.grade.value})\n{render.text_board(puzzle.state)}\n"
        + "\n".join(render.rules_words(puzzle.state))
        + f"\n\nQuestion: {question}"
    )
    second = evidence.moves[1]
    exact = evidence.proof is Proof.EXACT
    solution_text = (
        f"Answer: {move_label(puzzle.solution)} (expected final score {evidence.moves[0].value:.3f}); the next best, "
        f"{move_label(second.action)}, is worth {second.value:.3f} ({puzzle.margin:.3f} less). "
        + (
            "Values are exact (the solo solver)."
            if exact
            else f"Values come from a depth-{evidence.depth} search (not proven)."
        )
    )
    how = "exact" if exact else f"depth-{evidence.depth} search, not proven"
    value = (
        f"expected final score {evidence.moves[0].value:.3f}, {how} (the next best, {move_label(second.action)}: "
        f"{second.value:.3f})"
    )
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
        stats=common_pb2.SolveStats(depth=evidence.depth, method="exact solo" if evidence.depth == 0 else "expectimax"),
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
        state = rules.GAME.new_initial_state(rules.CamperTourSetup(campers, config, first))
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
    return reviews.review(request, budget, REVIEW_CODEC, pb.CamperTourServiceReviewResponse, pb.CamperTourReviewedMove)


def warm_up(request: Any = None) -> None:
    """Build the all-normal solo tables the hint leaves use (milliseconds) and the best response's tables for the
    default route (1-3 s): all of them before reporting SERVING (`request` None); before one CLI call, the best
    response's only when `request` can use them (a hint with a game record, a review, three campers or more)."""
    solo.all_normal_tables(rules.PLATE_COUNT, Config().token_limit)
    if request is None or _may_read_opponents(request):
        best_response.warm_up(Config())


def _may_read_opponents(request: Any) -> bool:
    """Whether the win hint may model the other campers from a record (`best_response`): a Hint with a `history`,
    or a Review (its hints read the record so far), of three campers or more."""
    if isinstance(request, pb.CamperTourServiceHintRequest):
        return len(request.history) > 0 and len(request.state.campers) >= 3
    if isinstance(request, pb.CamperTourServiceReviewRequest):
        return len(request.record.start.campers) >= 3
    return False
