"""Deluxe Camping: the RPC handlers (request + budget -> response), the NewGame/Play table flow and the review codec."""

from __future__ import annotations

from campsolver.service.errors import InvalidArgument, require, require_limit
from campsolver.service.games import review as reviews
from campsolver.service.games import shared
from campsolver.service.games.deluxe_camping.convert import (
    HINT_LEAF_FROM_PROTO,
    HINT_OBJECTIVE_FROM_PROTO,
    MAX_OBJECTIVE_FROM_PROTO,
    MAX_PUZZLE_BARRIERS,
    SETUP_STAGES,
    STAGE_TO_PROTO,
    barrier_to_proto,
    cells_of,
    config_from_proto,
    move_from_proto,
    move_to_proto,
    sites_to_proto,
    state_from_proto,
    state_to_proto,
    write_move,
)
from campsolver.service.games.shared import PROOF_TO_PROTO, grade_from_proto, grade_to_proto, set_value
from campsolver.solver.core.budget import Budget
from campsolver.solver.deluxe_camping import hint as hints
from campsolver.solver.deluxe_camping import maximise as maxima
from campsolver.solver.deluxe_camping import puzzle as puzzles
from campsolver.solver.deluxe_camping import rules
from campsolver.solver.deluxe_camping.review import DECISION_CPU_S, DeluxeCampingReview
from campsolver.solver.deluxe_camping.rules import DCState, Stage

from campsolver.v1 import common_pb2
from campsolver.v1 import deluxe_camping_pb2 as pb

#: A hint's budget when the request names none (the deadline still caps it).
DEFAULT_HINT_SECONDS = 1.0
#: CPU seconds to check, label and serialise one ranked choice of a hint (measured ~40-60 us).
RESPONSE_CPU_PER_CHOICE_S = 6e-5

#: Most reply plies a request may cap the deepening at: far beyond what any budget reaches (a line to the end
#: of a default game is about 30 plies), so a larger number is a mistake worth naming.
HINT_REPLY_PLIES_LIMIT = 1_000


def hint(request: pb.DeluxeCampingServiceHintRequest, budget: Budget) -> pb.DeluxeCampingServiceHintResponse:
    require(request.HasField("state"), "state", "a position is required")
    objective = HINT_OBJECTIVE_FROM_PROTO.get(request.objective)
    require(objective is not None, "objective", "MARGIN (default) or EXPECTED_SCORE (own score)")
    leaf = HINT_LEAF_FROM_PROTO.get(request.leaf)
    require(leaf is not None, "leaf", "unset (the reply search, default), SECURABLE or ESTIMATE")
    max_replies = request.max_reply_plies if request.HasField("max_reply_plies") else None
    require(
        max_replies is None or max_replies >= 0,
        "max_reply_plies",
        "0 or more reply plies, or unset for as deep as the budget allows",
    )
    if max_replies is not None:
        require_limit(max_replies, HINT_REPLY_PLIES_LIMIT, "max_reply_plies", "reply plies")
    state = state_from_proto(request.state)
    if state.stage in hints.SETUP_STAGES:
        require(request.leaf == pb.DELUXE_CAMPING_HINT_LEAF_UNSPECIFIED, "leaf", "the setup hint has no leaves")
        require(max_replies is None, "max_reply_plies", "the setup hint models no replies")
        if not request.options.time_limit_seconds:
            budget = budget.limited(DEFAULT_HINT_SECONDS)
        return _setup_hint(state, budget, objective)
    require(state.stage in (Stage.MOVE, Stage.BARRIER), "state.stage", "a position during the turns (MOVE or BARRIER)")
    if not request.options.time_limit_seconds:
        budget = budget.limited(DEFAULT_HINT_SECONDS)
    # Writing the answer costs CPU per legal choice (hundreds at a movement): kept back from the search, at the
    # CPU share the call has had so far, so the reply still leaves before the deadline on a loaded machine.
    reserve = RESPONSE_CPU_PER_CHOICE_S * len(state.legal_actions()) / budget.cpu_share()
    budget = budget.limited(max(budget.remaining() - reserve, 0.001))
    result = hints.hint(state, budget, options=hints.HintOptions(objective, leaf, max_replies))
    legal = set(state.legal_actions())
    if {m.choice for m in result.choices} != legal:
        raise RuntimeError("hint moves disagree with the rules model's legal moves")
    # Only the first group's values are the ranking's own quantity (the search ranks by them, best first): they
    # are listed as values with their loss. The later groups' values are other quantities (a shallower
    # estimate), ranked below whatever their number: they are listed without a value, the number in the note,
    # so that no listed value contradicts its rank.
    groups = [hints.comparison_group(m, result.leaf) for m in result.choices if m.value is not None]
    top_group = min(groups, default=None)
    top_values = [
        m.value for m in result.choices if m.value is not None and hints.comparison_group(m, result.leaf) == top_group
    ]
    best = max(top_values, default=0.0)
    # Written in place, each square's and label's text looked up once a board shape: an answer lists every legal
    # choice (a few hundred at a movement), and the rule of thumb's answer, which has no time at all, is mostly this.
    response = pb.DeluxeCampingServiceHintResponse(proof=PROOF_TO_PROTO[result.proof])
    cells = cells_of(state.config)
    add = response.alternatives.add
    for rank, move in enumerate(result.choices, start=1):
        alternative = add()
        write_move(alternative.move, cells, move.choice)
        ranking = alternative.ranking
        ranking.rank = rank
        ranking.label = rules.describe_action(state.config, move.choice)
        ranking.note = move.note
        if move.value is not None and hints.comparison_group(move, result.leaf) == top_group:
            set_value(ranking, move.value, best, exact=move.exact)  # a heuristic value has no SE to state
        elif move.value is not None:
            ranking.note += f" (that value, {move.value:g}, is not comparable with the ranked values above)"
    if result.leaf is hints.Leaf.REPLY:
        note = (
            f"{objective.value}: every choice valued by the territory estimate (allotted points plus the open "
            "squares each player reaches first, late in the game scaled by the share of its frontier the "
            "player's share of the supply can close), a movement with the mover's best free barrier among the "
            "likely ones, the best turns first after the next player's best reply (staying put or one of their "
            "most threatening movements, then their most threatening barrier, by their margin)"
            + ("" if max_replies is None else f" (reply plies capped at {max_replies} by the request)")
            + f": {result.reply_plies} reply ply(ies); each value's kind in its note; a heuristic, not a proof unless "
            "every choice ends the game"
        )
    else:
        note = _deepening_note(result, objective, max_replies)
    response.note = note
    stats = response.stats
    stats.wall_time_seconds = result.wall_time_s
    stats.nodes = result.nodes
    stats.depth = result.depth
    stats.method = result.method
    stats.interrupted = result.interrupted
    return response


def _deepening_note(result: hints.HintResult, objective: hints.HintObjective, max_replies: int | None) -> str:
    """The note of the deepening search (estimate or securable leaves, on request)."""
    leaves = (
        f"; their leaves valued by the CP-SAT securable-score model ({result.leaves_solved} solved, "
        f"{result.leaves_proven} proven optimal, CP-SAT at most {hints.LEAF_CAP_S:g} s each on a re-used model), "
        "ranked first by it, the estimate at the leaf breaking ties"
        if result.leaf is hints.Leaf.SECURABLE
        else "; their leaves valued by the estimate"
    )
    note = (
        f"{objective.value}: every choice one turn deep by the nearest-piece territory estimate, the best "
        f"{hints.DEEPEN} searched deeper with every free barrier and the opponents' best replies, iterative "
        f"deepening as deep as the budget allowed"
        + ("" if max_replies is None else f" (capped at {max_replies} by the request)")
        + f": {result.reply_plies} reply ply(ies)"
        f"{leaves}; each value's kind in its note; a heuristic, not a proof unless every choice ends the game"
    )
    return note


def _setup_hint(state: DCState, budget: Budget, objective: hints.HintObjective) -> pb.DeluxeCampingServiceHintResponse:
    """A setup placement's hint: every legal placement one placement deep by the territory estimate."""
    result = hints.setup_hint(state, budget, options=hints.HintOptions(objective))
    if {m.choice for m in result.choices} != set(state.legal_actions()):
        raise RuntimeError("hint moves disagree with the rules model's legal moves")
    best = max((m.value for m in result.choices if m.value is not None), default=0.0)
    alternatives = []
    for rank, move in enumerate(result.choices, start=1):
        ranking = common_pb2.RankedAlternative(rank=rank, label=rules.describe_action(state.config, move.choice))
        if move.value is None:
            ranking.note = move.note
        else:
            ranking.note = (
                "territory estimate right after this placement (the reveal's exact expectation once "
                "it is next); no reply modelled"
            )
            set_value(ranking, move.value, best, exact=False)
        alternatives.append(pb.DeluxeCampingAlternative(move=move_to_proto(state.config, move.choice), ranking=ranking))
    return pb.DeluxeCampingServiceHintResponse(
        alternatives=alternatives,
        proof=PROOF_TO_PROTO[result.proof],
        note=(
            f"{objective.value}: a setup placement, every choice valued one placement deep by the nearest-piece "
            "territory estimate (pieces placed so far claim their nearest squares); a heuristic"
        ),
        stats=common_pb2.SolveStats(
            wall_time_seconds=result.wall_time_s,
            nodes=result.nodes,
            depth=1,
            method=result.method,
            interrupted=result.interrupted,
        ),
    )


def max_score(
    request: pb.DeluxeCampingServiceMaxScoreRequest, budget: Budget
) -> pb.DeluxeCampingServiceMaxScoreResponse:
    require(request.HasField("state"), "state", "a position is required")
    state = state_from_proto(request.state)
    require(state.stage in (Stage.MOVE, Stage.BARRIER, Stage.OVER), "state.stage", "a position after the reveal")
    objective = MAX_OBJECTIVE_FROM_PROTO.get(request.objective)
    require(objective is not None, "objective", "unknown objective")
    player = request.player if request.HasField("player") else state.to_move
    require(0 <= player < state.config.players, "player", f"must index a player (0-{state.config.players - 1})")
    result = maxima.maximise(state, budget, player=player, objective=objective, seed=request.options.seed)
    response = pb.DeluxeCampingServiceMaxScoreResponse(
        proof=PROOF_TO_PROTO[result.proof] if result.proof else common_pb2.PROOF_STATUS_UNSPECIFIED,
        stats=common_pb2.SolveStats(
            wall_time_seconds=result.wall_time_s,
            nodes=result.branches,
            conflicts=result.conflicts,
            method="cp-sat",
            interrupted=result.interrupted,
        ),
    )
    if result.bound is not None:
        response.stats.bound = result.bound
    if result.partition is None:
        response.note = "no partition found within the budget" if result.proof is None else "no partition exists"
        return response
    board = maxima.final_board(state, result.partition.added)
    response.value = result.value or 0
    response.scores.extend(result.partition.scores)
    response.barriers.extend(barrier_to_proto(state.config, e) for e in sorted(result.partition.added))
    response.sites.extend(sites_to_proto(board))
    response.note = (
        f"{objective.value} of player {player}: {result.value}"
        + ("" if result.proof is maxima.Proof.OPTIMAL else f"; proven bound {result.bound}")
        + f"; {len(result.partition.added)} of {state.supply_left} barriers used"
    )
    return response


def generate_puzzle(
    request: pb.DeluxeCampingServiceGeneratePuzzleRequest, budget: Budget
) -> pb.DeluxeCampingServiceGeneratePuzzleResponse:
    grade = grade_from_proto(request.grade, puzzles.Grade)
    barriers = request.barriers or puzzles.DEFAULT_BARRIERS
    require(barriers >= 1, "barriers", "at least one barrier to place")
    require_limit(barriers, MAX_PUZZLE_BARRIERS, "barriers", "barriers to place")
    try:
        puzzle = puzzles.generate(request.seed, budget, barriers=barriers, grade=grade)
    except LookupError as error:
        if grade is None:
            raise InvalidArgument("seed", f"no puzzle for this seed: {error}; try another seed") from None
        raise InvalidArgument("grade", f"no puzzle of that grade for this seed: {error}") from None
    config = puzzle.state.config
    return pb.DeluxeCampingServiceGeneratePuzzleResponse(
        puzzle=common_pb2.PuzzleEnvelope(
            seed=puzzle.seed,
            grade=grade_to_proto(puzzle.grade),
            evidence=[
                common_pb2.DifficultyEvidence(name=name, value=value, description=description)
                for name, value, description in puzzle.evidence
            ],
            unique=puzzle.unique,
            proof=PROOF_TO_PROTO[puzzle.proof],
            text=puzzle.text,
            svg=puzzle.svg,
            solution_text=puzzle.solution_text,
            solution_svg=puzzle.solution_svg,
            question=puzzle.question,
        ),
        state=state_to_proto(puzzle.state),
        player=puzzle.player,
        barriers=puzzle.barriers,
        solution=[barrier_to_proto(config, e) for e in sorted(puzzle.solution)],
        points=puzzle.points,
        stats=common_pb2.SolveStats(wall_time_seconds=puzzle.wall_time_s, method="cp-sat"),
    )


def score(request: pb.DeluxeCampingServiceScoreRequest, budget: Budget) -> pb.DeluxeCampingServiceScoreResponse:
    require(request.HasField("state"), "state", "a position is required")
    state = state_from_proto(request.state)
    if state.stage in SETUP_STAGES:
        # No site can be allotted before the turns (barriers come only then): every player has 0.
        return pb.DeluxeCampingServiceScoreResponse(
            scores=[0] * state.config.players, winner=-1, barriers_left=state.supply_left
        )
    require(not state.mystery, "state.mystery", "scores are defined once the mystery tokens are revealed")
    scores = state.scores()
    game_over = state.stage is Stage.OVER
    top = max(scores) if scores else 0
    leaders = [p for p, s in enumerate(scores) if s == top]
    return pb.DeluxeCampingServiceScoreResponse(
        scores=scores,
        game_over=game_over,
        winner=leaders[0] if game_over and len(leaders) == 1 else -1,
        sites=sites_to_proto(state),
        details=[
            common_pb2.ScoreDetail(name=f"player {p} site of {len(site.squares)} squares", points=site.value)
            for site in state.sites
            if (p := site.allotted_to) is not None
        ],
        barriers_left=state.supply_left,
    )


def legal_moves(
    request: pb.DeluxeCampingServiceLegalMovesRequest, budget: Budget
) -> pb.DeluxeCampingServiceLegalMovesResponse:
    require(request.HasField("state"), "state", "a position is required")
    state = state_from_proto(request.state)
    actions = state.legal_actions()
    player = state.current_player()
    return pb.DeluxeCampingServiceLegalMovesResponse(
        moves=[move_to_proto(state.config, a) for a in actions],
        to_move=player if player >= 0 else -1,
        stage=STAGE_TO_PROTO[state.stage],
    )


def _describe(state: DCState) -> str:
    player = state.current_player()
    if player == rules.TERMINAL:
        return "game over"
    if player == rules.CHANCE:
        return "chance: the pain-in-the-neck is revealed under one of the mystery tokens"
    what = {
        Stage.POOL: "place the swimming pool",
        Stage.MYSTERY: "place a mystery token",
        Stage.BUNGALOW: "place your bungalow",
        Stage.TRAILER: "place a trailer",
        Stage.MOVE: "move your trailers (or stay)",
        Stage.BARRIER: "place a barrier",
    }[state.stage]
    return f"player {player}: {what}"


def _running_scores(state: DCState) -> list[int]:
    return [0] * state.config.players if state.stage in SETUP_STAGES else list(state.scores())


def _winners(state: DCState) -> list[int]:
    scores = state.scores()
    return [p for p, s in enumerate(scores) if s == max(scores)]


TABLE_PLAY = shared.TablePlay(
    scores=_running_scores,
    winners=_winners,
    describe=_describe,
    chance_label=lambda state, square: rules.describe_action(state.config, square),
    picture=lambda state: puzzles.render_svg(state),
)


def new_game(request: pb.DeluxeCampingServiceNewGameRequest, budget: Budget) -> pb.DeluxeCampingServiceNewGameResponse:
    settings = pb.DeluxeCampingRules()
    settings.CopyFrom(request.rules)
    if request.players:
        require(
            not request.rules.HasField("players") or request.rules.players == request.players,
            "players",
            f"{request.players} players, but rules.players says {request.rules.players}",
        )
        settings.players = request.players
    config = config_from_proto(settings, "rules" if not request.players else "players")
    # The setup's one chance: who begins (any seat, equally likely).
    first = shared.seeded_rng(request.seed).randrange(config.players)
    state = rules.GAME.new_initial_state(rules.DeluxeCampingSetup(config, first))
    return shared.new_game_answer(
        pb.DeluxeCampingServiceNewGameResponse, state, TABLE_PLAY, state_to_proto, request.want_picture
    )


def _apply_move(state: DCState, message: pb.DeluxeCampingMove) -> DCState:
    shared.require_decision(state)
    return shared.apply_action(state, move_from_proto(message, state.config, "move"))


def play(request: pb.DeluxeCampingServicePlayRequest, budget: Budget) -> pb.DeluxeCampingServicePlayResponse:
    return shared.play_answer(
        request, state_from_proto, _apply_move, TABLE_PLAY, state_to_proto, pb.DeluxeCampingServicePlayResponse
    )


def _review_move_acts(state: DCState, message: pb.DeluxeCampingMove, field: str) -> list[reviews.Triple]:
    shared.require_decision(state, field)
    action = move_from_proto(message, state.config, field)
    return reviews.acts_of(state, [action], field, lambda a: rules.describe_action(state.config, a))


def _review_adapter(start: DCState, objective: int) -> tuple[DeluxeCampingReview, int]:
    chosen = HINT_OBJECTIVE_FROM_PROTO.get(objective)
    require(chosen is not None, "objective", "MARGIN (default) or EXPECTED_SCORE (own score)")
    assert chosen is not None
    adapter = DeluxeCampingReview(chosen)
    return adapter, (
        common_pb2.OBJECTIVE_MARGIN if chosen is hints.HintObjective.MARGIN else common_pb2.OBJECTIVE_EXPECTED_SCORE
    )


REVIEW_CODEC = reviews.ReviewCodec(
    play=TABLE_PLAY,
    parse_state=state_from_proto,
    to_proto=state_to_proto,
    move_acts=_review_move_acts,
    move_to_proto=lambda state, actions: move_to_proto(state.config, actions[0]),
    adapter=_review_adapter,
    players=lambda state: state.config.players,
    default_cpu_s=DECISION_CPU_S,
)


def review(request: pb.DeluxeCampingServiceReviewRequest, budget: Budget) -> pb.DeluxeCampingServiceReviewResponse:
    return reviews.review(
        request, budget, REVIEW_CODEC, pb.DeluxeCampingServiceReviewResponse, pb.DeluxeCampingReviewedMove
    )
