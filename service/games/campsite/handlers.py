"""Campsite: the RPC handlers (request + budget -> response), the NewGame/Play table flow and the review codec."""

from __future__ import annotations

from typing import Any

from campsolver.service.errors import InvalidArgument, require, require_limit
from campsolver.service.games import review as reviews
from campsolver.service.games import shared
from campsolver.service.games.campsite.convert import (
    MAX_DECK,
    MAX_TOP,
    TOKEN_TO_PROTO,
    Turn,
    _deck,
    _players,
    _with_turn_of_game,
    card_from_proto,
    card_to_proto,
    game_from_proto,
    game_to_proto,
    placement_from_proto,
    placement_to_proto,
    play_label,
    play_to_proto,
    table_from_proto,
    table_to_proto,
    tent_from_proto,
    tent_to_proto,
)
from campsolver.service.games.shared import PROOF_TO_PROTO, grade_from_proto, grade_to_proto, set_value
from campsolver.solver.campsite import hint as hints
from campsolver.solver.campsite import maximise, render, rules
from campsolver.solver.campsite import puzzle as puzzles
from campsolver.solver.campsite.review import DECISION_CPU_S, CampsiteReview
from campsolver.solver.campsite.rules import Card, IllegalMove, Placement, Table, Tent
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.proof import Proof

from campsolver.v1 import campsite_pb2 as pb
from campsolver.v1 import common_pb2

#: A hint's budget when the request names none (the deadline still caps it).
DEFAULT_HINT_SECONDS = 2.0
#: Share of a hint's budget kept back for the rules model's re-check of the plays answered and the reply.
HINT_CHECK_SHARE = 0.15


def _check_play(turn: Turn, placement: Placement, tent: Tent, placed: dict[Placement, Table] | None = None) -> None:
    """Solvers enumerate plays their own way; the rules model must accept each before we answer. `placed`
    caches the table after each placement checked (a hint's plays share placements; a table's grid costs ms)."""
    if placement.card not in turn.hand or tent.token not in turn.tokens or tent.player != turn.player:
        raise RuntimeError(f"solver play {play_label(placement, tent)} is not open to the mover")
    table = placed.get(placement) if placed is not None else None
    if table is None:
        table = turn.table.place(placement)
        if placed is not None:
            placed[placement] = table
    table.check_tent(tent)


def _apply_play(state: rules.CampsiteState, message: pb.CampsitePlay) -> rules.CampsiteState:
    """Lay the card, then pitch the tent (the rules model checks both; the field at fault is named)."""
    shared.require_decision(state)
    require(message.HasField("placement"), "move.placement", "a card placement is required")
    require(message.HasField("tent"), "move.tent", "a tent is required")
    placement = placement_from_proto(message.placement, "move.placement")
    tent = tent_from_proto(message.tent, "move.tent")
    require(tent.player == state.to_move, "move.tent.player", f"player {state.to_move} is to move")
    try:
        laid = state.child(rules.PlayCard(placement))
    except IllegalMove as error:
        raise InvalidArgument("move.placement", str(error)) from None
    require(tent.token in laid.tokens[tent.player], "move.tent.token", "this token is already used this round")
    try:
        return laid.child(rules.PitchTent(tent.token, tent.row, tent.col))
    except IllegalMove as error:
        raise InvalidArgument("move.tent", str(error)) from None


def _running_scores(state: rules.CampsiteState) -> list[int]:
    if state.stage is rules.Stage.OVER:
        return list(state.totals)
    table = rules.player_scores(state.table, state.players)
    return [t + s for t, s in zip(state.totals, table, strict=True)]


def _describe(state: rules.CampsiteState) -> str:
    if state.stage is rules.Stage.OVER:
        return "game over"
    if state.stage is rules.Stage.DEAL:
        return f"chance: round {state.round + 1}, the deal"
    if state.stage is rules.Stage.DRAW:
        return f"chance: player {state.to_move} draws a card"
    return f"player {state.to_move}: lay a card and pitch a tent"


def _chance_label(state: rules.CampsiteState, card: Card) -> str:
    if state.stage is rules.Stage.DRAW:
        return f"player {state.to_move} draws {card}"
    if len(state.table.placements) < rules.STARTING_CARDS:
        return f"starting card {card}"
    dealt = sum(len(hand) for hand in state.hands)
    return f"player {(state.starter + dealt // rules.HAND_SIZE) % state.players} is dealt {card}"


TABLE_PLAY = shared.TablePlay(
    scores=_running_scores,
    winners=lambda state: state.winners(),
    describe=_describe,
    chance_label=_chance_label,
    picture=lambda state: render.table_svg(state.table),
)


def new_game(request: pb.CampsiteServiceNewGameRequest, budget: Budget) -> pb.CampsiteServiceNewGameResponse:
    players = request.players or 2
    require(
        rules.MIN_PLAYERS <= players <= rules.MAX_PLAYERS,
        "players",
        f"{rules.MIN_PLAYERS}-{rules.MAX_PLAYERS}, got {players}",
    )
    deck = _deck(request.deck, "deck")
    try:
        state = rules.GAME.new_initial_state(rules.CampsiteSetup(players, deck))
    except IllegalMove as error:
        raise InvalidArgument("deck", str(error)) from None
    state = shared.resolve_chance(state, shared.seeded_rng(request.seed))
    return shared.new_game_answer(
        pb.CampsiteServiceNewGameResponse, state, TABLE_PLAY, game_to_proto, request.want_picture
    )


def play(request: pb.CampsiteServicePlayRequest, budget: Budget) -> pb.CampsiteServicePlayResponse:
    return shared.play_answer(
        request, game_from_proto, _apply_play, TABLE_PLAY, game_to_proto, pb.CampsiteServicePlayResponse
    )


def hint(request: pb.CampsiteServiceHintRequest, budget: Budget) -> pb.CampsiteServiceHintResponse:
    totals = None
    if request.HasField("game"):
        require(not request.HasField("state"), "state", "either state or game")
        totals = game_from_proto(request.game, "game").totals  # earlier rounds count in the margin
        request = _with_turn_of_game(request)
    require(request.HasField("state"), "state", "a turn is required")
    require(request.top >= 0, "top", "must not be negative")
    require_limit(request.top, MAX_TOP, "top", "alternatives")
    turn = Turn(request.state, "state")
    objective = request.objective
    if objective == common_pb2.OBJECTIVE_UNSPECIFIED:
        objective = common_pb2.OBJECTIVE_MARGIN if turn.players > 1 else common_pb2.OBJECTIVE_EXPECTED_SCORE
    require(
        objective in (common_pb2.OBJECTIVE_MARGIN, common_pb2.OBJECTIVE_EXPECTED_SCORE),
        "objective",
        "Campsite hints rank by MARGIN or EXPECTED_SCORE",
    )
    if not request.options.time_limit_seconds:
        budget = budget.limited(DEFAULT_HINT_SECONDS)
    # The rules model re-checks every play answered (a few ms each on a loaded machine): kept back from the
    # search so the answer is still sent in time.
    budget = budget.limited(max(budget.remaining() * (1 - HINT_CHECK_SHARE), 0.001))
    margin = objective == common_pb2.OBJECTIVE_MARGIN
    state = hints.seat_state(turn.table, turn.hand, turn.tokens, turn.player, turn.players, turn.deck, totals)
    options = hints.HintOptions(margin=margin, top=request.top or hints.DEFAULT_TOP, seed=request.options.seed)
    result = hints.hint(state, budget, options=options)
    placed: dict[Placement, Table] = {}
    for play in result.choices:
        _check_play(turn, play.placement, play.tent, placed)
    quantity = "final margin over the best opponent" if margin else "final score"
    # The looked-ahead plays' values (sample means) are the ranking's own quantity and come first; the one-ply
    # values are another estimate, ranked below them: listed without a value, the number in the note, so that
    # no listed value contradicts its rank. With no look-ahead (too little budget, or the round's last turn)
    # the one-ply values are the ranking.
    searched = [p for p in result.choices if p.kind == "LOOK_AHEAD"]
    best = max((p.value for p in searched or result.choices), default=0.0)
    alternatives = []
    for i, p in enumerate(result.choices):
        ranking = common_pb2.RankedAlternative(rank=i + 1, label=play_label(p.placement, p.tent))
        if p.kind == "LOOK_AHEAD":
            ranking.note = (
                f"look-ahead: mean {quantity} this round (earlier rounds counted) over {p.samples} "
                f"sampled deals of the unseen cards, after the other players and then you play "
                f"{result.depth - 1} more turn(s) by the one-ply rule, tents valued by the fitted "
                "tables"
            )
            set_value(ranking, p.value, best, samples=p.samples, standard_error=p.standard_error)
        else:
            ranking.note = (
                f"one-ply: {quantity} estimated right after this play by the fitted tent tables "
                "(tent points + expected growth; what keeping the token is worth)"
            )
            if searched:
                ranking.note += f" = {p.value:.2f}, not comparable with the looked-ahead values above"
            else:
                set_value(ranking, p.value, best, exact=False)  # a heuristic value, no sampling error to state
        alternatives.append(
            pb.CampsiteAlternative(
                play=play_to_proto(p.placement, p.tent),
                ranking=ranking,
                immediate_gain=p.immediate_gain,
                future_estimate=p.future_estimate,
                opponent_gain=p.opponent_gain,
            )
        )
    return pb.CampsiteServiceHintResponse(
        alternatives=alternatives,
        plays_ranked=result.plays_ranked,
        objective=objective,
        proof=common_pb2.PROOF_STATUS_HEURISTIC,
        stats=common_pb2.SolveStats(
            wall_time_seconds=result.wall_time_s,
            states=result.placements,
            method=result.method,
            interrupted=result.interrupted,  # the budget ended the look-ahead before its last sampled deal
        ),
    )


def _max_turn(request: pb.CampsiteServiceMaxScoreRequest, budget: Budget) -> pb.CampsiteServiceMaxScoreResponse:
    turn = Turn(request.turn, "turn")
    if request.method == pb.CAMPSITE_MAX_METHOD_CP_SAT:
        try:
            found = maximise.best_turn_cpsat(
                turn.table, turn.hand, turn.tokens, turn.player, budget, seed=request.options.seed
            )
        except SolveInterrupted:
            found = None
        if found is None or found.placement is None or found.tent is None:
            # CP-SAT found nothing in time: the enumeration's best so far (its first placement at least).
            return _max_turn_enumerated(turn, budget, "CP-SAT found no play within the budget; ")
        _check_play(turn, found.placement, found.tent)
        after = turn.table.place(found.placement).pitch(found.tent)
        return pb.CampsiteServiceMaxScoreResponse(
            score=found.score or 0,
            gain=found.gain or 0,
            proof=PROOF_TO_PROTO[found.proof] if found.proof else common_pb2.PROOF_STATUS_UNSPECIFIED,
            plays=[play_to_proto(found.placement, found.tent)],
            note="CP-SAT over every legal placement and tent square; proof from the solver status",
            final_table=table_to_proto(after),
            stats=common_pb2.SolveStats(
                wall_time_seconds=found.wall_time_s,
                bound=found.bound,
                nodes=found.branches,
                conflicts=found.conflicts,
                states=found.candidates,
                method="cp-sat",
                interrupted=found.interrupted,
            ),
        )
    return _max_turn_enumerated(turn, budget)


def _max_turn_enumerated(turn: Turn, budget: Budget, note: str = "") -> pb.CampsiteServiceMaxScoreResponse:
    """The best play by exhaustive enumeration; cut by the budget, the best so far with a proven ceiling (the
    first placement is always evaluated, so there is an answer)."""
    search = maximise.best_turn_search(turn.table, turn.hand, turn.tokens, turn.player, turn.players, budget)
    play = search.plays[0]
    _check_play(turn, play.placement, play.tent)
    after = turn.table.place(play.placement).pitch(play.tent)
    proof = Proof.FEASIBLE_WITH_BOUND if search.interrupted else Proof.EXACT
    bound = (
        max(maximise.turn_upper_bound(turn.table, turn.hand, turn.tokens, turn.player), play.score)
        if search.interrupted
        else play.score
    )
    note += (
        f"every play enumerated ({search.total} placements); {len(search.plays)} optimal"
        if not search.interrupted
        else f"interrupted after {search.evaluated} of {search.total} placements: best found {play.score}, the "
        f"optimum is at most {bound}"
    )
    return pb.CampsiteServiceMaxScoreResponse(
        score=play.score,
        gain=play.gain,
        proof=PROOF_TO_PROTO[proof],
        plays=[play_to_proto(play.placement, play.tent)],
        optimal_plays=0 if search.interrupted else len(search.plays),
        note=note,
        final_table=table_to_proto(after),
        stats=common_pb2.SolveStats(
            wall_time_seconds=budget.elapsed(),
            bound=float(bound),
            states=search.evaluated,
            method="exact enumeration",
            interrupted=search.interrupted,
        ),
    )


def _max_round(request: pb.CampsiteServiceMaxScoreRequest, budget: Budget) -> pb.CampsiteServiceMaxScoreResponse:
    message = request.round
    require_limit(len(message.order), MAX_DECK, "round.order", "deck size")
    order = [card_from_proto(c, f"round.order[{i}]") for i, c in enumerate(message.order)]
    turns = message.turns or rules.TURNS_PER_ROUND
    require(1 <= turns <= rules.TURNS_PER_ROUND, "round.turns", f"1-{rules.TURNS_PER_ROUND}")
    needed = rules.STARTING_CARDS + max(rules.HAND_SIZE, turns)
    require(
        len(order) >= needed, "round.order", f"{turns} turns need at least {needed} cards (2 starting, a hand of 3)"
    )
    require(request.method != pb.CAMPSITE_MAX_METHOD_CP_SAT, "method", "no CP-SAT round model: use EXACT")
    result = maximise.best_round(order, turns, budget)
    return pb.CampsiteServiceMaxScoreResponse(
        score=result.score,
        gain=result.score,
        proof=PROOF_TO_PROTO[result.proof],
        plays=[play_to_proto(p, t) for p, t in result.plays],
        note=result.note,
        final_table=table_to_proto(result.table),
        stats=common_pb2.SolveStats(
            wall_time_seconds=budget.elapsed(),
            bound=float(result.bound),
            method="exact enumeration" if turns == 1 else "beam search + exact branch and bound",
            interrupted=result.interrupted,
        ),
    )


def max_score(request: pb.CampsiteServiceMaxScoreRequest, budget: Budget) -> pb.CampsiteServiceMaxScoreResponse:
    problem = request.WhichOneof("problem")
    require(problem is not None, "problem", "give a `turn` or a `round`")
    require(request.method in pb.CampsiteMaxMethod.values(), "method", "unknown method")
    if problem == "turn":
        return _max_turn(request, budget)
    return _max_round(request, budget)


def generate_puzzle(
    request: pb.CampsiteServiceGeneratePuzzleRequest, budget: Budget
) -> pb.CampsiteServiceGeneratePuzzleResponse:
    grade = grade_from_proto(request.grade, puzzles.Grade)
    try:
        puzzle = puzzles.generate(request.seed, budget, grade=grade)
    except LookupError as error:
        raise InvalidArgument("grade", f"no puzzle of that grade for this seed: {error}") from None
    placement, tent = puzzle.solution
    tokens = ", ".join(t.name.title() for t in puzzle.tokens)
    hand = "; ".join(c.text() for c in puzzle.hand)
    question = (
        f"Seat 0 holds {hand} and the tokens {tokens}: which single play (card, position, rotation, token, "
        "square) gives seat 0 the highest round score as the table then stands?"
    )
    text = "\n".join(
        [
            f"Campsite puzzle (seed {puzzle.seed}, {puzzle.grade.value})",
            render.table_text(puzzle.table),
            render.LEGEND,
            "Cards are 'XY rows': the two terrains, then the landscape card's two rows (# coloured, . empty); "
            "rotations are quarter turns clockwise; a card is laid next to or over empty squares only.",
            question,
        ]
    )
    after = puzzle.table.place(placement).pitch(tent)
    solution_text = "\n".join(
        [
            f"Best play (unique, proven by enumerating every play): {play_label(placement, tent)}",
            f"Seat 0 then scores {puzzle.best}; the next best play scores {puzzle.second}.",
            render.table_text(after),
        ]
    )
    return pb.CampsiteServiceGeneratePuzzleResponse(
        puzzle=common_pb2.PuzzleEnvelope(
            seed=puzzle.seed,
            grade=grade_to_proto(puzzle.grade),
            evidence=[
                common_pb2.DifficultyEvidence(
                    name="near_best", value=puzzle.near_best, description="other plays within 1 point of the best"
                ),
                common_pb2.DifficultyEvidence(
                    name="naive_shortfall",
                    value=puzzle.naive_shortfall,
                    description="points lost by a player who only looks at the new tent's own score",
                ),
                common_pb2.DifficultyEvidence(
                    name="margin", value=puzzle.best - puzzle.second, description="best minus second-best score"
                ),
                common_pb2.DifficultyEvidence(
                    name="attempts", value=puzzle.attempts, description="candidates drawn before this one"
                ),
            ],
            unique=True,
            proof=PROOF_TO_PROTO[puzzle.proof],
            text=text,
            svg=render.puzzle_svg(
                puzzle.table,
                puzzle.hand,
                puzzle.tokens,
                title=f"Campsite puzzle {puzzle.seed} ({puzzle.grade.value})",
                question=question,
            ),
            solution_text=solution_text,
            solution_svg=render.puzzle_svg(
                after,
                puzzle.hand,
                puzzle.tokens,
                title=f"Solution to Campsite puzzle {puzzle.seed}",
                question=question,
                highlight=placement,
                new_tent=tent,
                answer=f"Answer: {play_label(placement, tent)}; seat 0 then scores {puzzle.best} (the next best "
                f"play {puzzle.second}).",
            ),
            question=question,
        ),
        state=pb.CampsiteTurnState(
            table=table_to_proto(puzzle.table),
            hand=[card_to_proto(c) for c in puzzle.hand],
            tokens=[TOKEN_TO_PROTO[t] for t in puzzle.tokens],
            player=0,
            players=2,
        ),
        solution=play_to_proto(placement, tent),
        best_score=puzzle.best,
        second_best_score=puzzle.second,
        stats=common_pb2.SolveStats(wall_time_seconds=budget.elapsed(), method="exact enumeration + cp-sat check"),
    )


def score(request: pb.CampsiteServiceScoreRequest, budget: Budget) -> pb.CampsiteServiceScoreResponse:
    if request.HasField("game"):
        require(not request.HasField("table") and not request.players, "table", "either table or game")
        state = game_from_proto(request.game)
        request = pb.CampsiteServiceScoreRequest(table=request.game.table, players=state.players)
    table = table_from_proto(request.table, "table")
    players = _players(request.players, table, 0, "players")
    tent_scores = [rules.score_tent(table, t) for t in table.tents]
    totals = rules.player_scores(table, players)
    return pb.CampsiteServiceScoreResponse(
        scores=totals,
        tents=[
            pb.CampsiteTentScore(tent=tent_to_proto(s.tent), base=s.base, doubled=s.doubled, points=s.points)
            for s in tent_scores
        ],
        details=[
            common_pb2.ScoreDetail(
                name=f"seat {s.tent.player} {s.tent.token.name.title()} at r{s.tent.row}c{s.tent.col}"
                + (" x2" if s.doubled else ""),
                points=s.points,
            )
            for s in tent_scores
        ],
    )


def legal_moves(request: pb.CampsiteServiceLegalMovesRequest, budget: Budget) -> pb.CampsiteServiceLegalMovesResponse:
    if request.HasField("game"):
        require(not request.HasField("state"), "state", "either state or game")
        request = _with_turn_of_game(request)
    require(request.HasField("state"), "state", "a turn is required")
    turn = Turn(request.state, "state")
    placements = turn.table.legal_placements(turn.hand)
    table = turn.table
    if request.HasField("after"):
        placement = placement_from_proto(request.after, "after")
        require(placement.card in turn.hand, "after.card", "the card is not in the hand")
        try:
            table = table.place(placement)
        except IllegalMove as error:
            raise InvalidArgument("after", str(error)) from None
    return pb.CampsiteServiceLegalMovesResponse(
        placements=[placement_to_proto(p) for p in placements],
        tent_squares=[pb.CampsiteCell(row=r, col=c) for r, c in table.free_squares()],
        tokens=[TOKEN_TO_PROTO[t] for t in turn.tokens],
    )


def _review_move_acts(state: rules.CampsiteState, message: pb.CampsitePlay, field: str) -> list[reviews.Triple]:
    """The card, then the tent, each checked by the rules model (as Play checks them; the field named)."""
    shared.require_decision(state, field)
    require(message.HasField("placement"), f"{field}.placement", "a card placement is required")
    require(message.HasField("tent"), f"{field}.tent", "a tent is required")
    placement = placement_from_proto(message.placement, f"{field}.placement")
    tent = tent_from_proto(message.tent, f"{field}.tent")
    require(tent.player == state.to_move, f"{field}.tent.player", f"player {state.to_move} is to move")
    card = rules.PlayCard(placement)
    try:
        laid = state.child(card)
    except IllegalMove as error:
        raise InvalidArgument(f"{field}.placement", f"lay {placement.label()}: {error}") from None
    require(tent.token in laid.tokens[tent.player], f"{field}.tent.token", "this token is already used this round")
    pitch = rules.PitchTent(tent.token, tent.row, tent.col)
    try:
        after = laid.child(pitch)
    except IllegalMove as error:
        raise InvalidArgument(f"{field}.tent", str(error)) from None
    return [(state, card, laid), (laid, pitch, after)]


def _review_move_to_proto(state: rules.CampsiteState, actions: tuple[Any, ...]) -> pb.CampsitePlay:
    card = actions[0]
    if len(actions) < 2:
        return pb.CampsitePlay(placement=placement_to_proto(card.placement))
    pitch = actions[1]
    return play_to_proto(card.placement, Tent(state.to_move, pitch.token, pitch.row, pitch.col))


def _review_adapter(start: rules.CampsiteState, objective: int) -> tuple[CampsiteReview, int]:
    if objective == common_pb2.OBJECTIVE_UNSPECIFIED:
        objective = common_pb2.OBJECTIVE_MARGIN if start.players > 1 else common_pb2.OBJECTIVE_EXPECTED_SCORE
    require(
        objective in (common_pb2.OBJECTIVE_MARGIN, common_pb2.OBJECTIVE_EXPECTED_SCORE),
        "objective",
        "Campsite reviews rank by MARGIN or EXPECTED_SCORE",
    )
    return CampsiteReview(objective == common_pb2.OBJECTIVE_MARGIN, play_label), objective


REVIEW_CODEC = reviews.ReviewCodec(
    play=TABLE_PLAY,
    parse_state=game_from_proto,
    to_proto=game_to_proto,
    move_acts=_review_move_acts,
    move_to_proto=_review_move_to_proto,
    adapter=_review_adapter,
    players=lambda state: state.players,
    default_cpu_s=DECISION_CPU_S,
)


def review(request: pb.CampsiteServiceReviewRequest, budget: Budget) -> pb.CampsiteServiceReviewResponse:
    return reviews.review(request, budget, REVIEW_CODEC, pb.CampsiteServiceReviewResponse, pb.CampsiteReviewedMove)
