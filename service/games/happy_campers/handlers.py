"""Happy Campers: the RPC handlers (request + budget -> response), NewGame/Play table flow and review codec."""

from __future__ import annotations

import atexit
import re
import threading
from collections.abc import Callable, Sequence
from typing import Any

from campsolver.service.errors import DeadlineExceeded, InvalidArgument, require, require_limit
from campsolver.service.games import review as reviews
from campsolver.service.games import shared
from campsolver.service.games.happy_campers.convert import (
    CHALLENGE_FROM_PROTO,
    CHALLENGE_TO_PROTO,
    DEFAULT_PUZZLE_ROLLS,
    HINT_MODE_FROM_PROTO,
    MAX_HINT_PLAYERS,
    MAX_PUZZLE_ROLLS,
    MAX_ROLLS,
    OBJECTIVE_FROM_PROTO,
    GameFlow,
    _qualify,
    challenges_from_proto,
    components_from_proto,
    game_from_proto,
    game_to_proto,
    grid_from_rows,
    grid_to_rows,
    placement_from_proto,
    placement_to_proto,
    roll_from_proto,
    score_to_proto,
)
from campsolver.service.games.shared import PROOF_TO_PROTO, grade_from_proto, grade_to_proto, set_value
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.game import TERMINAL
from campsolver.solver.core.proof import Proof
from campsolver.solver.happy_campers import hint as hint_engine
from campsolver.solver.happy_campers import maximise, modes, render, rules
from campsolver.solver.happy_campers import puzzle as puzzles
from campsolver.solver.happy_campers.max_caps import clairvoyant_card_caps, target_value
from campsolver.solver.happy_campers.max_problem import MAP_INDEPENDENT_CARDS, MaxProblem, SolveStats, TurnPlay
from campsolver.solver.happy_campers.policies import SHAPED_GREEDY, play_game
from campsolver.solver.happy_campers.review import DECISION_CPU_S, HappyCampersReview
from campsolver.solver.happy_campers.rules import Challenge, Components, Element, Grid

from campsolver.v1 import common_pb2
from campsolver.v1 import happy_campers_pb2 as pb

#: Hint budget when the request names none (the deadline still caps it).
DEFAULT_HINT_SECONDS = 1.0


def _apply_move(state: GameFlow, message: pb.HappyCampersHintMove) -> GameFlow:
    """One drawing (solo: one, or both drawings of a two-map turn, as the hint lists them)."""
    shared.require_decision(state)
    require(len(message.placements) >= 1, "move.placements", "a drawing is required")
    solo = isinstance(state, modes.SoloState)
    require(solo or len(message.placements) == 1, "move.placements", "one drawing a move")
    for index, drawn in enumerate(message.placements):
        field = f"move.placements[{index}]"
        if index:
            require(
                state.current_player() == 0 and getattr(state, "step", None) is modes.SoloStep.SECOND,
                field,
                "the turn has no second drawing",
            )
        placement = placement_from_proto(drawn, state.components, field)
        action: Any = modes.SoloDraw(drawn.map_index, placement) if solo else placement
        state = shared.apply_action(state, action, field)
    return state


def _scores(state: GameFlow) -> list[int]:
    if isinstance(state, modes.SoloState):
        return [state.final_score()]
    return list(state.final_scores())


def _describe(state: GameFlow) -> str:
    player = state.current_player()
    if player == TERMINAL:
        return "game over"
    if state.roll is None:
        return "chance: roll the two dice"
    roll = f"roll {state.roll[0]}-{state.roll[1]}"
    if isinstance(state, modes.SoloState):
        where = {
            modes.SoloStep.FIRST_OF_TWO: "draw one option on map 0, then the other on map 1",
            modes.SoloStep.SECOND: "draw the other option on map 1",
            modes.SoloStep.ONLY_ONE: "only one map can take the roll: draw on it",
            modes.SoloStep.LAST_TURN: f"the last turn: draw on map {state.last_turn_map}",
        }[state.step]  # type: ignore[index]
        return f"player 0, {roll}: {where}"
    target = state.to_draw[0]
    on = "your map" if target == player else f"player {target}'s map (a double)"
    return f"player {player}, {roll}: draw on {on}" + (" (bonus turn: the last)" if state.bonus_turn else "")


def game_svg(state: GameFlow) -> str:
    """Every map of the game, each drawn by the game's own map renderer, side by side."""
    titles = (
        [f"map {i}" for i in range(2)]
        if isinstance(state, modes.SoloState)
        else [f"player {i}" + ("" if state.in_game[i] else " (out)") for i in range(len(state.maps))]
    )
    return side_by_side([render.grid_svg(grid, title=t) for grid, t in zip(state.maps, titles, strict=True)])


def side_by_side(pictures: Sequence[str], gap: int = render.MARGIN) -> str:
    """Standalone map pictures (the game's own `render.grid_svg`) side by side in one SVG: a whole game."""
    sizes = [(float(_svg_attribute(p, "width")), float(_svg_attribute(p, "height"))) for p in pictures]
    width = sum(w for w, _ in sizes) + gap * max(len(sizes) - 1, 0)
    height = max((h for _, h in sizes), default=0.0)
    parts, x = [], 0.0
    for picture, (w, _) in zip(pictures, sizes, strict=True):
        parts.append(picture.replace("<svg ", f'<svg x="{x:g}" y="0" ', 1))
        x += w + gap
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}">' + "".join(parts) + "</svg>"
    )


def _svg_attribute(svg: str, name: str) -> str:
    match = re.search(rf'<svg[^>]*\s{name}="([0-9.]+)', svg)
    assert match is not None, f"a picture without its {name}"
    return match.group(1)


TABLE_PLAY = shared.TablePlay(
    scores=_scores,
    winners=lambda state: _top(_scores(state)),
    describe=_describe,
    chance_label=lambda state, roll: f"roll {roll[0]}-{roll[1]}",
    picture=game_svg,
)


def _top(scores: Sequence[int]) -> list[int]:
    return [i for i, s in enumerate(scores) if s == max(scores)]


def new_game(request: pb.HappyCampersServiceNewGameRequest, budget: Budget) -> pb.HappyCampersServiceNewGameResponse:
    players = request.players or 2
    require(players >= 1, "players", f"1 (solo) or more, got {players}")
    require_limit(players, MAX_HINT_PLAYERS, "players", "players")  # the rulebook names no maximum: our cap
    components = components_from_proto(request.components)
    challenges = challenges_from_proto(request.challenges, "challenges")
    gap = request.solo_double_gap if request.HasField("solo_double_gap") else modes.SOLO_DOUBLE_GAP
    second: tuple[Challenge, ...] = ()
    try:
        if players == 1:
            require(1 <= gap <= 3, "solo_double_gap", "a gap of 1 to 3 squares")
            # As the solo hint reads it: no second list means the same cards on both maps.
            second = challenges_from_proto(request.second_challenges, "second_challenges") or challenges
        else:
            require(not request.second_challenges, "second_challenges", "only in the solo game (players 1)")
            require(not request.HasField("solo_double_gap"), "solo_double_gap", "only in the solo game (players 1)")
        setup = modes.HappyCampersSetup(players, challenges, second, components, gap)
        state: GameFlow = rules.GAME.new_initial_state(setup)
    except rules.RulesError as error:
        raise _qualify("", error) from None
    state = shared.resolve_chance(state, shared.seeded_rng(request.seed))
    return shared.new_game_answer(
        pb.HappyCampersServiceNewGameResponse, state, TABLE_PLAY, game_to_proto, request.want_picture
    )


def play(request: pb.HappyCampersServicePlayRequest, budget: Budget) -> pb.HappyCampersServicePlayResponse:
    return shared.play_answer(
        request, game_from_proto, _apply_move, TABLE_PLAY, game_to_proto, pb.HappyCampersServicePlayResponse
    )


def _hint_request_of_game(request: pb.HappyCampersServiceHintRequest) -> pb.HappyCampersServiceHintRequest:
    """The plain Hint request of the drawing due in `request.game` (mode, maps, roll and cards from the game)."""
    for name in ("map", "second_map", "challenges", "second_challenges", "other_maps"):
        require(not getattr(request, name), name, "not with `game`")
    for name in ("roll", "players", "solo_double_gap", "solo_last_turn_map", "components", "solo_follow"):
        require(not request.HasField(name), name, "not with `game`")
    require(request.mode == pb.HINT_MODE_UNSPECIFIED, "mode", "not with `game` (the game says it)")
    require(not request.bonus_turn, "bonus_turn", "not with `game`")
    state = game_from_proto(request.game)
    require(state.current_player() >= 0, "game", "no drawing is due: the dice are to be rolled or the game is over")
    assert state.roll is not None
    plain = pb.HappyCampersServiceHintRequest(
        components=request.game.components,
        roll=pb.HappyCampersRoll(first=state.roll[0], second=state.roll[1]),
        options=request.options,
        objective=request.objective,
    )
    if isinstance(state, modes.SoloState):
        plain.mode = pb.HINT_MODE_SOLO
        if state.step is modes.SoloStep.SECOND:
            plain.solo_follow.CopyFrom(request.game.solo_follow)
        plain.map.extend(grid_to_rows(state.maps[0]))
        plain.second_map.extend(grid_to_rows(state.maps[1]))
        plain.challenges.extend(CHALLENGE_TO_PROTO[c] for c in state.challenges[0])
        plain.second_challenges.extend(CHALLENGE_TO_PROTO[c] for c in state.challenges[1])
        plain.solo_double_gap = state.double_gap
        if state.last_turn_map is not None:
            plain.solo_last_turn_map = state.last_turn_map
        return plain
    target = state.to_draw[0]
    plain.challenges.extend(CHALLENGE_TO_PROTO[c] for c in state.challenges)
    plain.map.extend(grid_to_rows(state.maps[target]))
    if state.roll[0] == state.roll[1]:
        plain.mode = pb.HINT_MODE_NEIGHBOUR_MAP
        return plain
    plain.mode = pb.HINT_MODE_MULTIPLAYER
    count = len(state.maps)
    plain.other_maps.extend(
        pb.HappyCampersMap(rows=grid_to_rows(state.maps[(target + k) % count])) for k in range(1, count)
    )
    plain.bonus_turn = state.bonus_turn
    return plain


def _score_game(request: pb.HappyCampersServiceScoreRequest) -> pb.HappyCampersServiceScoreResponse:
    require(not request.map, "map", "not with `game`")
    require(not request.challenges, "challenges", "not with `game`")
    require(not request.HasField("components"), "components", "not with `game`")
    require(not request.HasField("festival_won"), "festival_won", "not with `game` (the game decides it)")
    state = game_from_proto(request.game)
    if isinstance(state, modes.SoloState):
        breakdowns = [rules.score(m, ch, state.components) for m, ch in zip(state.maps, state.challenges, strict=True)]
    else:
        won = rules.festival_winners(state.maps, state.components)
        breakdowns = [
            rules.score(m, state.challenges, state.components, festival_won=w)
            for m, w in zip(state.maps, won, strict=True)
        ]
    return pb.HappyCampersServiceScoreResponse(map_scores=[score_to_proto(b) for b in breakdowns])


def _legal_in_game(request: pb.HappyCampersServiceLegalMovesRequest) -> pb.HappyCampersServiceLegalMovesResponse:
    require(not request.map, "map", "not with `game`")
    require(not request.HasField("roll"), "roll", "not with `game`")
    require(not request.HasField("components"), "components", "not with `game`")
    state = game_from_proto(request.game)
    moves = [
        placement_to_proto(a.placement, map_index=a.map_index)
        if isinstance(a, modes.SoloDraw)
        else placement_to_proto(a)
        for a in state.legal_actions()
    ]
    return pb.HappyCampersServiceLegalMovesResponse(moves=moves, can_draw=bool(moves))


def score(request: pb.HappyCampersServiceScoreRequest, budget: Budget) -> pb.HappyCampersServiceScoreResponse:
    if request.HasField("game"):
        return _score_game(request)
    components = components_from_proto(request.components)
    grid = grid_from_rows(request.map, components, "map", connected=False)
    challenges = challenges_from_proto(request.challenges, "challenges")
    festival_won = request.festival_won if request.HasField("festival_won") else True
    breakdown = rules.score(grid, challenges, components, festival_won=festival_won)
    return pb.HappyCampersServiceScoreResponse(score=score_to_proto(breakdown))


def hint(request: pb.HappyCampersServiceHintRequest, budget: Budget) -> pb.HappyCampersServiceHintResponse:
    if request.HasField("game"):
        request = _hint_request_of_game(request)
    components = components_from_proto(request.components)
    mode = HINT_MODE_FROM_PROTO.get(request.mode)
    require(mode is not None, "mode", "unknown hint mode")
    objective = OBJECTIVE_FROM_PROTO.get(request.objective)
    require(objective is not None, "objective", "unknown objective")
    solo = mode is hint_engine.HintMode.SOLO
    # Solo doubles may leave detached pieces (the gap rule), so a solo map need not be connected.
    grid = grid_from_rows(request.map, components, "map", connected=not solo)
    require(request.HasField("roll"), "roll", "the current roll is required")
    roll = roll_from_proto(request.roll, "roll")
    challenges = challenges_from_proto(request.challenges, "challenges")
    solo_options = _hint_solo_options(request, components, challenges, solo)
    if mode is hint_engine.HintMode.NEIGHBOUR_MAP:
        require(roll[0] == roll[1], "roll", "you draw on a neighbour's map only on a double")
    multiplayer = _hint_multiplayer_options(request, components, roll, mode is hint_engine.HintMode.MULTIPLAYER)
    if not request.options.time_limit_seconds:
        budget = budget.limited(DEFAULT_HINT_SECONDS)
    try:
        state = hint_engine.turn_state(grid, roll, challenges, components, mode=mode, **solo_options, **multiplayer)
        options = hint_engine.HintOptions(objective=objective, seed=request.options.seed)
        result = hint_engine.hint(state, budget, options=options)
    except rules.RulesError as error:
        raise _qualify("", error) from None
    return pb.HappyCampersServiceHintResponse(
        alternatives=_hint_alternatives(result),
        blocked=result.blocked,
        blocked_maps=list(result.blocked_maps),
        game_ends_after=result.game_ends_after,
        unlisted_pairs=result.unlisted_pairs,
        stats=common_pb2.SolveStats(
            wall_time_seconds=result.wall_time_s,
            samples=result.rollouts,
            method=result.method,
            interrupted=result.interrupted,
        ),
    )


def _hint_solo_options(
    request: pb.HappyCampersServiceHintRequest, components: rules.Components, challenges: Any, solo: bool
) -> dict[str, Any]:
    """The solo knobs of a hint request (the second map and its cards, the gap rule, the last turn, the
    follow-up option), checked; outside solo mode each of them is refused by name."""
    if not solo:
        require(not request.second_map, "second_map", "only in HINT_MODE_SOLO")
        require(not request.second_challenges, "second_challenges", "only in HINT_MODE_SOLO")
        require(not request.HasField("solo_double_gap"), "solo_double_gap", "only in HINT_MODE_SOLO")
        require(not request.HasField("solo_last_turn_map"), "solo_last_turn_map", "only in HINT_MODE_SOLO")
        require(not request.HasField("solo_follow"), "solo_follow", "only in HINT_MODE_SOLO")
        return {"second_grid": None, "second_challenges": None}
    options: dict[str, Any] = {}
    if request.HasField("solo_double_gap"):
        require(1 <= request.solo_double_gap <= 3, "solo_double_gap", "a gap of 1 to 3 squares")
        options["solo_double_gap"] = request.solo_double_gap
    if request.HasField("solo_last_turn_map"):
        require(request.solo_last_turn_map in (0, 1), "solo_last_turn_map", "0 or 1")
        options["solo_last_turn_map"] = request.solo_last_turn_map
    if request.HasField("solo_follow"):
        try:
            options["solo_follow"] = rules.Option(request.solo_follow.shape_face, request.solo_follow.element_face)
        except rules.RulesError as error:
            raise _qualify("solo_follow", error) from None
    options["second_grid"] = grid_from_rows(request.second_map, components, "second_map", connected=False)
    options["second_challenges"] = challenges_from_proto(request.second_challenges, "second_challenges") or challenges
    return options


def _hint_multiplayer_options(
    request: pb.HappyCampersServiceHintRequest, components: rules.Components, roll: Any, multiplayer: bool
) -> dict[str, Any]:
    """The multi-player knobs of a hint request (players, the other maps, the bonus turn), checked; outside
    multi-player mode each of them is refused by name."""
    if not multiplayer:
        require(not request.other_maps, "other_maps", "only in HINT_MODE_MULTIPLAYER")
        require(not request.HasField("players"), "players", "only in HINT_MODE_MULTIPLAYER")
        require(not request.bonus_turn, "bonus_turn", "only in HINT_MODE_MULTIPLAYER")
        return {}
    options: dict[str, Any] = {}
    require(roll[0] != roll[1], "roll", "on a double you draw on a neighbour's map (HINT_MODE_NEIGHBOUR_MAP)")
    if request.HasField("players"):
        require(request.players >= 2, "players", "the multi-player game needs at least 2 players")
        require_limit(request.players, MAX_HINT_PLAYERS, "players", "players")
        options["players"] = request.players
    if request.other_maps:
        require_limit(len(request.other_maps) + 1, MAX_HINT_PLAYERS, "other_maps", "players")
        options["other_grids"] = [
            grid_from_rows(m.rows, components, f"other_maps[{i}].rows") for i, m in enumerate(request.other_maps)
        ]
    require(
        "players" in options or "other_grids" in options,
        "players",
        "give the number of players or the other players' maps",
    )
    options["bonus_turn"] = request.bonus_turn
    return options


def _hint_alternatives(result: hint_engine.HintResult) -> list[pb.HappyCampersHintAlternative]:
    """The ranked moves on the wire: values signed so that higher is better for the asker (hurting the
    neighbour shows minus the owner's score), each with the note the solver set (its exact tie group included)."""
    alternatives = []
    sign = -1.0 if result.objective is hint_engine.Objective.OWNER_WORST else 1.0
    valued = [a for a in result.choices if a.value is not None]
    best = sign * valued[0].value if valued else 0.0
    for alternative in result.choices:
        ranking = common_pb2.RankedAlternative(rank=alternative.rank, label=alternative.label)
        if alternative.value is not None:
            set_value(
                ranking,
                sign * alternative.value,
                best,
                samples=alternative.value_samples,
                standard_error=alternative.standard_error,
            )
        ranking.note = alternative.note
        move = pb.HappyCampersHintMove(
            placements=[
                placement_to_proto(p, map_index=index)
                for index, p in enumerate(alternative.choice.placements)
                if p is not None
            ]
        )
        alternatives.append(pb.HappyCampersHintAlternative(move=move, ranking=ranking))
    return alternatives


#: The puzzle's method, and after it how many candidates were skipped over their cap (`puzzles.SKIPPED_OVER_CAP`).
PUZZLE_METHOD = "cp-sat optimum + uniqueness re-solve per candidate"


def generate_puzzle(
    request: pb.HappyCampersServiceGeneratePuzzleRequest, budget: Budget
) -> pb.HappyCampersServiceGeneratePuzzleResponse:
    components = components_from_proto(request.components)
    roll_count = request.rolls or DEFAULT_PUZZLE_ROLLS
    require(roll_count >= 1, "rolls", "a puzzle needs at least one roll")
    require_limit(roll_count, MAX_PUZZLE_ROLLS, "rolls", "roll count")
    grade = grade_from_proto(request.grade, puzzles.Grade)
    try:
        puzzle = puzzles.generate(request.seed, budget, components=components, rolls=roll_count, grade=grade)
    except puzzles.NoPuzzleFound as error:
        raise InvalidArgument("seed", f"no puzzle for this seed and these settings: {error}") from None
    placements = [placement_to_proto(step.placement(), turn=step.turn) for step in puzzle.solution]
    proof_stats = puzzle.stats.proof
    # A candidate undecided within its cap (seconds) was skipped: on a slower or loaded machine the same seed may
    # give a later candidate, so the method says the answer depended on the time (the puzzle is still proven, and
    # `interrupted` keeps its meaning: the budget cut the answer's own work).
    over_cap = puzzle.stats.rejections.get(puzzles.OVER_CAP, 0)
    method = PUZZLE_METHOD
    if over_cap:
        what = "1 earlier candidate was" if over_cap == 1 else f"{over_cap} earlier candidates were"
        method += f"; {what} {puzzles.SKIPPED_OVER_CAP} ({puzzles.CANDIDATE_CAP_S:g} s)"
    return pb.HappyCampersServiceGeneratePuzzleResponse(
        puzzle=common_pb2.PuzzleEnvelope(
            seed=puzzle.seed,
            grade=grade_to_proto(puzzle.grade),
            evidence=[
                common_pb2.DifficultyEvidence(name=e.name, value=e.value, description=e.description)
                for e in puzzle.evidence
            ],
            unique=puzzle.unique,
            proof=PROOF_TO_PROTO[puzzle.proof],
            text=render.puzzle_text(puzzle),
            svg=render.puzzle_svg(puzzle),
            solution_text=render.solution_text(puzzle),
            solution_svg=render.solution_svg(puzzle),
            question=render.puzzle_question(puzzle),
        ),
        start_map=grid_to_rows(puzzle.start_grid),
        rolls=[pb.HappyCampersRoll(first=a, second=b) for a, b in puzzle.rolls],
        challenges=[CHALLENGE_TO_PROTO[c] for c in puzzle.challenges],
        optimum=puzzle.optimum,
        solution=placements,
        solution_map=grid_to_rows(puzzle.solution_grid),
        stats=common_pb2.SolveStats(
            wall_time_seconds=puzzle.stats.wall_time_s,
            nodes=proof_stats.branches,
            conflicts=proof_stats.conflicts,
            samples=puzzle.stats.candidates,
            method=method,
        ),
    )


def _stats(stats: maximise.SolveStats, bound: int | None, interrupted: bool) -> common_pb2.SolveStats:
    message = common_pb2.SolveStats(
        wall_time_seconds=stats.wall_time_s,
        nodes=stats.branches,
        conflicts=stats.conflicts,
        method="cp-sat",
        interrupted=interrupted,
    )
    if bound is not None:
        message.bound = bound
    return message


def _require_answer(result: maximise.MaxResult, budget: Budget) -> None:
    if result.score is None:
        raise DeadlineExceeded(f"CP-SAT found no solution within the {budget.time_limit_s:g} s budget")


#: How often the request thread looks whether the search is done or its budget spent (seconds).
WITHIN_POLL_S = 0.005

#: Searches answered without waiting (cancelled, ending within milliseconds). A process that exits while one is
#: still inside CP-SAT aborts ("terminate called without an active exception"), so exit waits for them.
_LEFT_RUNNING: list[threading.Thread] = []
#: At most this long at exit for each (a cancelled search ends at its next turn or CP-SAT's next check).
EXIT_WAIT_S = 5.0


@atexit.register
def _wait_for_cancelled_searches() -> None:
    for thread in _LEFT_RUNNING:
        thread.join(EXIT_WAIT_S)


def _within(budget: Budget, search: Callable[[], maximise.MaxResult]) -> maximise.MaxResult | None:
    """`search()` if it returns before `budget` is spent, else None (and the budget is cancelled).

    The CP-SAT models are built in Python without looking at the budget (about 0.3 CPU-s for 10 rolls), so on a
    busy machine or at a short deadline the build alone outlasts the budget. The search runs in a daemon thread
    and the request answers at the deadline with what it has; the cancel stops CP-SAT at once, and a model still
    being built is dropped when its solve sees the cancelled budget. Works for either clock (`CpuBudget` too).
    """
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["result"] = search()
        except BaseException as error:  # handed to the request thread
            box["error"] = error

    thread = threading.Thread(target=run, name="happy-campers-max", daemon=True)
    thread.start()
    while thread.is_alive() and not budget.expired():
        thread.join(WITHIN_POLL_S)
    if thread.is_alive():
        budget.cancel()
        _LEFT_RUNNING[:] = [*(t for t in _LEFT_RUNNING if t.is_alive()), thread]
        return None
    if "error" in box:
        if isinstance(box["error"], SolveInterrupted) and box["error"].reason == "deadline":
            return None
        raise box["error"]
    return box["result"]


def _best_so_far(
    clairvoyant: bool,
    start: Grid,
    rolls: Sequence[tuple[int, int]],
    challenges: tuple[Challenge, ...],
    components: Components,
) -> maximise.MaxResult:
    """The answer that exists before any search (milliseconds): the rule of thumb's play of the rolls (shaped greedy,
    every drawing through `rules.draw`) with the analytic bound of the clairvoyant model (perfect map plus each
    card's cap; none with Nature Reserve, whose isolated empty squares can beat it), or for the absolute maximum
    the start map itself (a legal outcome: no drawing, HEURISTIC). The max answers it when CP-SAT found nothing
    before the deadline, so a caller always gets a best-so-far map."""
    problem = MaxProblem(
        kind="clairvoyant" if clairvoyant else "absolute",
        components=components,
        challenges=tuple(sorted(set(challenges), key=lambda ch: ch.value)),
        start_grid=start,
        rolls=tuple(rolls),
    )
    stats = SolveStats(0.0, 0, 0, 0)
    if not clairvoyant:
        breakdown = rules.score(start, challenges, components)
        return maximise.MaxResult(breakdown.total, Proof.HEURISTIC, None, start, (), breakdown, stats, problem)
    played = play_game(start, rolls, challenges, components, SHAPED_GREEDY)
    turns = tuple(
        TurnPlay(t, roll, played.placements[t] if t < len(played.placements) else None) for t, roll in enumerate(rolls)
    )
    caps = clairvoyant_card_caps(problem)
    bounded = all(card in caps or card in MAP_INDEPENDENT_CARDS for card in problem.challenges)
    # Complete maps score at most the target value; an incomplete one scores 0.
    bound = max(target_value(problem, caps), 0) if bounded else None
    proof = Proof.FEASIBLE_WITH_BOUND if bound is not None else Proof.HEURISTIC
    return maximise.MaxResult(played.score, proof, bound, played.final_grid, turns, played.breakdown, stats, problem)


def max_score(request: pb.HappyCampersServiceMaxScoreRequest, budget: Budget) -> pb.HappyCampersServiceMaxScoreResponse:
    components = components_from_proto(request.components)
    start = grid_from_rows(request.start_map, components, "start_map")
    challenges = challenges_from_proto(request.challenges, "challenges")
    rolls = [roll_from_proto(r, f"rolls[{i}]") for i, r in enumerate(request.rolls)]
    require_limit(len(rolls), MAX_ROLLS, "rolls", "roll count")
    mode = request.mode
    if mode == pb.MAX_MODE_UNSPECIFIED:
        mode = pb.MAX_MODE_CLAIRVOYANT if rolls else pb.MAX_MODE_ABSOLUTE
    require(mode != pb.MAX_MODE_CLAIRVOYANT or bool(rolls), "rolls", "the clairvoyant maximum needs a roll sequence")
    require(mode != pb.MAX_MODE_ABSOLUTE or not rolls, "rolls", "the absolute maximum takes no rolls")
    require(not request.card_maxima or mode == pb.MAX_MODE_ABSOLUTE, "card_maxima", "only with the absolute mode")
    cards = challenges or tuple(CHALLENGE_FROM_PROTO.values())
    main_share = 1.0 / (1 + len(cards)) if request.card_maxima else 1.0
    # A legal answer first (milliseconds), so the deadline only decides how good the answer is.
    fallback = _best_so_far(mode == pb.MAX_MODE_CLAIRVOYANT, start, rolls, challenges, components)
    main_budget = budget.sub_budget(main_share)
    if mode == pb.MAX_MODE_CLAIRVOYANT:
        found = _within(
            main_budget, lambda: maximise.clairvoyant_max(start, rolls, challenges, components, main_budget)
        )
    else:
        found = _within(
            main_budget, lambda: maximise.absolute_max(components, challenges, main_budget, start_grid=start)
        )
    fell_back = found is None or found.score is None
    result = fallback if fell_back or found is None else found
    _require_answer(result, budget)
    assert result.grid is not None and result.breakdown is not None and result.proof is not None
    placements = [placement_to_proto(t.placement, turn=t.turn) for t in result.turns if t.placement is not None]
    response = pb.HappyCampersServiceMaxScoreResponse(
        score=result.score,
        proof=PROOF_TO_PROTO[result.proof],
        final_map=grid_to_rows(result.grid),
        placements=placements,
        rolls_used=len(placements) if mode == pb.MAX_MODE_CLAIRVOYANT else 0,
        ended_by_blocked_roll=mode == pb.MAX_MODE_CLAIRVOYANT and len(placements) < len(rolls),
        breakdown=score_to_proto(result.breakdown),
        stats=_stats(result.stats, result.bound, interrupted=result.proof is not Proof.OPTIMAL),
    )
    if fell_back:
        response.stats.method = (
            "rule of thumb (shaped greedy play) with the analytic bound: CP-SAT found no map before the deadline"
            if mode == pb.MAX_MODE_CLAIRVOYANT
            else "the start map (no drawing): CP-SAT found no map before the deadline"
        )
        response.stats.wall_time_seconds = budget.elapsed()  # the search ran until now, not the fallback's 0 s
    if request.card_maxima:
        for index, card in enumerate(cards):
            card_budget = budget.sub_budget(1.0 / (len(cards) - index))
            card_result = _within(card_budget, lambda: maximise.challenge_max(card, components, card_budget))  # noqa: B023
            entry = pb.HappyCampersCardMax(challenge=CHALLENGE_TO_PROTO[card])
            if card_result is None:  # the deadline came first: no points, no bound
                response.card_maxima.append(entry)
                continue
            if card_result.score is not None:  # absent when the budget ran out before any answer
                entry.points = card_result.score
            entry.proof = PROOF_TO_PROTO.get(card_result.proof, common_pb2.PROOF_STATUS_UNSPECIFIED)
            if card_result.bound is not None:
                entry.bound = card_result.bound
            response.card_maxima.append(entry)
    return response


def legal_moves(
    request: pb.HappyCampersServiceLegalMovesRequest, budget: Budget
) -> pb.HappyCampersServiceLegalMovesResponse:
    if request.HasField("game"):
        return _legal_in_game(request)
    components = components_from_proto(request.components)
    grid = grid_from_rows(request.map, components, "map")
    roll = roll_from_proto(request.roll, "roll")
    moves = rules.legal_placements(grid, roll, components)
    return pb.HappyCampersServiceLegalMovesResponse(moves=[placement_to_proto(m) for m in moves], can_draw=bool(moves))


def _drawing_label(action: Any) -> str:
    placement = action.placement if isinstance(action, modes.SoloDraw) else action
    cells = " ".join(f"r{r}c{c}" for r, c in sorted(placement.cells))
    return f"{Element(placement.element).name.lower()} on {cells}"


def _review_move_acts(state: GameFlow, message: pb.HappyCampersHintMove, field: str) -> list[reviews.Triple]:
    """One drawing (solo: one, or both drawings of a two-map turn), each checked by the rules model (as Play)."""
    shared.require_decision(state, field)
    require(len(message.placements) >= 1, f"{field}.placements", "a drawing is required")
    solo = isinstance(state, modes.SoloState)
    require(solo or len(message.placements) == 1, f"{field}.placements", "one drawing a move")
    out: list[reviews.Triple] = []
    for index, drawn in enumerate(message.placements):
        where = f"{field}.placements[{index}]"
        if index:
            require(
                state.current_player() == 0 and getattr(state, "step", None) is modes.SoloStep.SECOND,
                where,
                "the turn has no second drawing",
            )
        placement = placement_from_proto(drawn, state.components, where)
        action: Any = modes.SoloDraw(drawn.map_index, placement) if solo else placement
        out += reviews.acts_of(state, [action], where, _drawing_label)
        state = out[-1][2]
    return out


def _review_move_to_proto(state: GameFlow, actions: tuple[Any, ...]) -> pb.HappyCampersHintMove:
    return pb.HappyCampersHintMove(
        placements=[
            placement_to_proto(a.placement, map_index=a.map_index)
            if isinstance(a, modes.SoloDraw)
            else placement_to_proto(a)
            for a in actions
        ]
    )


def _review_adapter(start: GameFlow, objective: int) -> tuple[HappyCampersReview, int]:
    solo = isinstance(start, modes.SoloState)
    if objective == common_pb2.OBJECTIVE_UNSPECIFIED:
        objective = common_pb2.OBJECTIVE_EXPECTED_SCORE if solo else common_pb2.OBJECTIVE_MARGIN
    allowed = (
        (common_pb2.OBJECTIVE_EXPECTED_SCORE,)
        if solo
        else (common_pb2.OBJECTIVE_MARGIN, common_pb2.OBJECTIVE_EXPECTED_SCORE)
    )
    require(objective in allowed, "objective", "solo: EXPECTED_SCORE; multi-player: MARGIN or EXPECTED_SCORE")
    return HappyCampersReview(solo, margin=objective == common_pb2.OBJECTIVE_MARGIN), objective


REVIEW_CODEC = reviews.ReviewCodec(
    play=TABLE_PLAY,
    parse_state=game_from_proto,
    to_proto=game_to_proto,
    move_acts=_review_move_acts,
    move_to_proto=_review_move_to_proto,
    adapter=_review_adapter,
    players=lambda state: 1 if isinstance(state, modes.SoloState) else len(state.maps),
    default_cpu_s=DECISION_CPU_S,
)


def review(request: pb.HappyCampersServiceReviewRequest, budget: Budget) -> pb.HappyCampersServiceReviewResponse:
    return reviews.review(
        request, budget, REVIEW_CODEC, pb.HappyCampersServiceReviewResponse, pb.HappyCampersReviewedMove
    )
