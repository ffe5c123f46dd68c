"""Adventure Tours: the RPC handlers (request + budget -> response), NewGame/Play table flow and review codec."""

from __future__ import annotations

import time
from typing import Any

from campsolver.service.errors import InvalidArgument, require
from campsolver.service.games import review as reviews
from campsolver.service.games import shared
from campsolver.service.games.adventure_tours.convert import (
    OBJECTIVE_FROM_PROTO,
    _decision_observation,
    config_from_proto,
    full_state,
    game_state_from_proto,
    game_state_to_proto,
    move_to_proto,
    parse_state,
    state_to_proto,
    step_from_proto,
    step_to_proto,
)
from campsolver.service.games.shared import PROOF_TO_PROTO, grade_from_proto, grade_to_proto, set_value
from campsolver.solver.adventure_tours import hint as hints
from campsolver.solver.adventure_tours import maximise, render, rules
from campsolver.solver.adventure_tours import puzzle as puzzles
from campsolver.solver.adventure_tours.information import public_state
from campsolver.solver.adventure_tours.review import DECISION_CPU_S, AdventureToursReview
from campsolver.solver.adventure_tours.rules import Config, MoneyFloor, State
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.proof import Proof

from campsolver.v1 import adventure_tours_pb2 as pb
from campsolver.v1 import common_pb2

DEFAULT_HINT_SECONDS = 1.0


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
        return {
            "deal": "chance: the deal",
            "draw": f"chance: player {step.player} draws",
            "shuffle_boards": "chance: the boards are shuffled",
        }[step.kind]
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
    require(
        rules.MIN_PLAYERS <= players <= rules.MAX_PLAYERS,
        "players",
        f"{rules.MIN_PLAYERS}-{rules.MAX_PLAYERS}, got {players}",
    )
    require(not request.rules.deck, "rules.deck", "a new game plays the shipped deck")
    require(not request.rules.boards, "rules.boards", "a new game plays the shipped boards")
    config = config_from_proto(request.rules, players, "rules", allow_small=False)
    try:
        state = rules.GAME.new_initial_state(config)
    except ValueError as error:
        raise InvalidArgument("players", str(error)) from None
    state = shared.resolve_chance(state, shared.seeded_rng(request.seed))
    return shared.new_game_answer(
        pb.AdventureToursServiceNewGameResponse, state, TABLE_PLAY, game_state_to_proto, request.want_picture
    )


def play(request: pb.AdventureToursServicePlayRequest, budget: Budget) -> pb.AdventureToursServicePlayResponse:
    return shared.play_answer(
        request,
        game_state_from_proto,
        _apply_move,
        TABLE_PLAY,
        game_state_to_proto,
        pb.AdventureToursServicePlayResponse,
    )


def hint(request: pb.AdventureToursServiceHintRequest, budget: Budget) -> pb.AdventureToursServiceHintResponse:
    require(request.HasField("state"), "state", "a position is required")
    objective = OBJECTIVE_FROM_PROTO.get(request.objective)
    require(objective is not None, "objective", "unknown objective")
    obs = _decision_observation(request.state)
    if request.options.time_limit_seconds <= 0:
        budget = budget.limited(DEFAULT_HINT_SECONDS)
    started = time.monotonic()
    result = hints.hint(obs, budget, options=hints.HintOptions(objective=objective, seed=request.options.seed))
    view = public_state(obs)
    first = result.choices[0]
    best = first.value if first.samples or result.proof is Proof.EXACT else 0.0
    alternatives = []
    for rank, item in enumerate(result.choices, start=1):
        ranking = common_pb2.RankedAlternative(rank=rank, label=puzzles.play_label(view, item.choice))
        if item.samples or result.proof is Proof.EXACT:
            set_value(ranking, item.value, best, samples=item.samples, standard_error=item.standard_error)
            if item.screened:
                ranking.note = "screened out: clearly worse, sampling stopped early"
        elif rank == 1:
            ranking.note = (
                "rule of thumb (the patient rule's play): the budget ended before any sample, nothing evaluated"
            )
        else:
            ranking.note = "not evaluated: the budget ended before any sample"
        alternatives.append(pb.AdventureAlternative(move=move_to_proto(view, item.choice), ranking=ranking))
    note = (
        f"{objective.value} at the round end; you play this, then you follow the patient rule and each other player "
        "the patient or the greedy rule (even odds); "
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
        parsed.config.players,
        deck=parsed.config.deck,
        expert=parsed.config.expert,
        boards=parsed.config.boards,
        rounds=parsed.round_index + 1,
        allow_small=True,
    )
    state = full_state(parsed, need_order=True)
    n = state.config.players
    player = request.player if request.HasField("player") else state.to_move
    require(0 <= player < n, "player", f"must index a player (0-{n - 1})")
    objective = {
        pb.ADVENTURE_MAX_OBJECTIVE_UNSPECIFIED: maximise.MaxObjective.INCOME,
        pb.ADVENTURE_MAX_OBJECTIVE_INCOME: maximise.MaxObjective.INCOME,
        pb.ADVENTURE_MAX_OBJECTIVE_MARGIN: maximise.MaxObjective.MARGIN,
    }.get(request.objective)
    require(objective is not None, "objective", "unknown objective")
    others = {
        pb.ADVENTURE_OTHERS_UNSPECIFIED: maximise.Others.COOPERATIVE,
        pb.ADVENTURE_OTHERS_COOPERATIVE: maximise.Others.COOPERATIVE,
        pb.ADVENTURE_OTHERS_GREEDY: maximise.Others.GREEDY,
    }.get(request.others)
    require(others is not None, "others", "unknown choice")
    started = time.monotonic()
    result = maximise.maximise(state, player, budget, objective=objective, others=others)
    proven = result.proof is Proof.EXACT
    note = f"{objective.value} of player {player}, others {others.value}: " + (
        "proven optimal by exhaustive search"
        if proven
        else f"best line found {result.value}; the optimum is at most {result.bound} (search cut by the budget)"
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
                    name="greedy_shortfall",
                    value=puzzle.greedy_shortfall,
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
                    rank=i + 1,
                    label=puzzles.play_label(state, play),
                    value=float(v),
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
    return pb.AdventureToursServiceLegalMovesResponse(moves=[move_to_proto(view, p) for p in plays], to_move=obs.player)


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
    return reviews.review(
        request, budget, REVIEW_CODEC, pb.AdventureToursServiceReviewResponse, pb.AdventureToursReviewedMove
    )
