"""What every game's request handler shares: proof status and puzzle grade to their proto enums, the hint
contract, and the NewGame/Play flow of thin clients (chance resolved from a seed or listed exactly)."""

from __future__ import annotations

import enum
import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

from campsolver.service.errors import require, require_limit
from campsolver.solver.core.game import CHANCE, TERMINAL, GameState
from campsolver.solver.core.proof import Proof
from google.protobuf.message import Message

from campsolver.v1 import common_pb2

PROOF_TO_PROTO = {
    Proof.OPTIMAL: common_pb2.PROOF_STATUS_OPTIMAL,
    Proof.EXACT: common_pb2.PROOF_STATUS_EXACT,
    Proof.FEASIBLE_WITH_BOUND: common_pb2.PROOF_STATUS_FEASIBLE_WITH_BOUND,
    Proof.HEURISTIC: common_pb2.PROOF_STATUS_HEURISTIC,
    Proof.INFEASIBLE: common_pb2.PROOF_STATUS_INFEASIBLE,
}

#: Every game grades puzzles easy / medium / hard / expert (its own enum, same values).
GRADE_BY_NAME = {
    "easy": common_pb2.DIFFICULTY_GRADE_EASY,
    "medium": common_pb2.DIFFICULTY_GRADE_MEDIUM,
    "hard": common_pb2.DIFFICULTY_GRADE_HARD,
    "expert": common_pb2.DIFFICULTY_GRADE_EXPERT,
}

GradeT = TypeVar("GradeT", bound=enum.Enum)


def grade_to_proto(grade: enum.Enum) -> int:
    return GRADE_BY_NAME[grade.value]


def grade_from_proto(number: int, grade_type: type[GradeT], field: str = "grade") -> GradeT | None:
    """The game's grade asked for (None when unspecified); INVALID_ARGUMENT for an unknown value."""
    if number == common_pb2.DIFFICULTY_GRADE_UNSPECIFIED:
        return None
    names = {value: name for name, value in GRADE_BY_NAME.items()}
    require(number in names, field, "unknown difficulty grade")
    return grade_type(names[number])


# --- the hint contract ---------------------------------------------------------------------------------------

#: Fewest samples behind a sample mean from which a standard error is reported: below it the sample standard
#: deviation is too unstable (2-3 playouts that agree give 0) for value +- 2 SE to cover the truth 93% of the time,
#: so the answer carries `samples` and no standard error.
MIN_SAMPLES_FOR_STANDARD_ERROR = 10
#: Slack for floating-point rounding when rank order is compared with value order.
RANK_VALUE_TOLERANCE = 1e-9


def set_value(
    ranking: common_pb2.RankedAlternative,
    value: float,
    best: float,
    *,
    samples: int = 0,
    standard_error: float | None = None,
    exact: bool = True,
) -> None:
    """Fill a ranked move's value, its loss versus `best`, and its uncertainty honestly.

    `samples == 0`: a computed value, exact (standard error 0) or, with `exact=False`, a heuristic estimate that
    has no sampling error to state (standard error absent; the note says what the value is). A sample mean
    carries `sampled`, `samples`, and a standard error only from `MIN_SAMPLES_FOR_STANDARD_ERROR` samples on.
    """
    ranking.value = value
    ranking.loss = max(best - value, 0.0)
    if samples <= 0:
        if exact:
            ranking.standard_error = 0.0
        else:
            ranking.ClearField("standard_error")
        return
    ranking.sampled, ranking.samples = True, samples
    if standard_error is not None and samples >= MIN_SAMPLES_FOR_STANDARD_ERROR:
        ranking.standard_error = standard_error


def ranking_contract_violations(rankings: list[common_pb2.RankedAlternative]) -> list[str]:
    """What a hint's ranked list breaks of the contract a client relies on (empty when nothing).

    Ranks are 1..n in list order; among the moves listed with a value, rank order is value order and
    loss = best value - value; a move without a value has no loss; a standard error is never negative and never
    comes from fewer than `MIN_SAMPLES_FOR_STANDARD_ERROR` samples of a sample mean.
    """
    problems = []
    valued = [r for r in rankings if r.HasField("value")]
    best = max((r.value for r in valued), default=0.0)
    for position, ranking in enumerate(rankings, start=1):
        if ranking.rank != position:
            problems.append(f"rank {ranking.rank} listed at position {position}")
        if not ranking.HasField("value"):
            if ranking.HasField("loss"):
                problems.append(f"rank {ranking.rank}: a loss without a value")
            if not ranking.note:
                problems.append(f"rank {ranking.rank}: no value and no note saying why")
            continue
        if not ranking.HasField("loss") or abs(ranking.loss - (best - ranking.value)) > 1e-6:
            problems.append(f"rank {ranking.rank}: loss {ranking.loss} is not best {best} - value {ranking.value}")
        if ranking.HasField("standard_error"):
            if ranking.standard_error < 0:
                problems.append(f"rank {ranking.rank}: negative standard error")
            if ranking.sampled and ranking.samples < MIN_SAMPLES_FOR_STANDARD_ERROR:
                problems.append(f"rank {ranking.rank}: a standard error from {ranking.samples} samples")
    for earlier, later in itertools.pairwise(valued):
        if later.value > earlier.value + RANK_VALUE_TOLERANCE:
            problems.append(f"rank {later.rank} has value {later.value} above rank {earlier.rank}'s {earlier.value}")
    return problems


# --- thin-client play: NewGame and Play ----------------------------------------------------------------------

#: Most outcomes a listed chance step may have (RESOURCE_EXHAUSTED beyond: resolve it from a seed instead).
MAX_LISTED_OUTCOMES = 1000
#: Most chance nodes a listing may walk (chance steps in a row multiply; a deal of hands would never end).
MAX_LISTED_CHANCE_NODES = 20_000


@dataclass(frozen=True)
class TablePlay:
    """What one game gives the shared NewGame/Play flow; every rule stays in its rules model's `GameState`.

    `scores(state)` the running (or final) score of each seat, `winners(state)` the winning seats of a finished
    game, `describe(state)` what is to be decided, `chance_label(state, outcome)` a chance outcome in words,
    `picture(state)` the game's SVG drawing. `chance_states`: the game's state message can hold a state that
    waits on chance (otherwise Play resolves or lists every chance step before it answers).
    """

    scores: Callable[[Any], Sequence[int]]
    winners: Callable[[Any], Sequence[int]]
    describe: Callable[[Any], str]
    chance_label: Callable[[Any, Any], str]
    picture: Callable[[Any], str]
    chance_states: bool = True


@dataclass(frozen=True)
class ListedOutcome:
    """One outcome of a listed chance step: the state it leads to, its exact probability, a label."""

    state: Any
    probability: Fraction
    label: str


def seeded_rng(seed: int) -> random.Random:
    """The chance stream of one NewGame or Play call (the same seed gives the same game)."""
    return random.Random(f"campsolver-table-{int(seed)}")


def draw_outcome(state: GameState, rng: random.Random) -> Any:
    """One chance outcome, drawn with its exact probability (integer arithmetic: no rounding)."""
    outcomes = state.chance_outcomes()
    # Only a state the rules never reach (sent by a client) can wait on a chance step with nothing to draw.
    require(bool(outcomes), "state", "a chance step with no outcome: not a state the game can be in")
    common = math.lcm(*(p.denominator for _, p in outcomes))
    pick = rng.randrange(common)
    for outcome, probability in outcomes:
        pick -= probability.numerator * (common // probability.denominator)
        if pick < 0:
            return outcome
    raise AssertionError("chance probabilities do not sum to 1")


def resolve_chance(state: GameState, rng: random.Random) -> GameState:
    """Play chance until a player decides or the game is over."""
    while state.current_player() == CHANCE:
        state = state.child(draw_outcome(state, rng))
    return state


def list_outcomes(state: GameState, play: TablePlay) -> list[ListedOutcome]:
    """The outcomes of the chance step at `state` with exact probabilities. A game whose state message cannot
    hold a chance state lists the chance steps in a row as one (probabilities multiplied, equal states merged).
    RESOURCE_EXHAUSTED (`list_outcomes`) when there are too many: resolve it from a seed instead."""
    found: dict[Any, ListedOutcome] = {}
    walked = 0

    def walk(node: GameState, probability: Fraction, labels: tuple[str, ...]) -> None:
        nonlocal walked
        walked += 1
        require_limit(walked, MAX_LISTED_CHANCE_NODES, "list_outcomes", "chance nodes in the listed step")
        for outcome, p in node.chance_outcomes():
            after = node.child(outcome)
            path = (*labels, play.chance_label(node, outcome))
            if after.current_player() == CHANCE and not play.chance_states:
                walk(after, probability * p, path)
                continue
            known = found.get(after)
            if known is None:
                require_limit(len(found) + 1, MAX_LISTED_OUTCOMES, "list_outcomes", "chance outcomes")
                found[after] = ListedOutcome(after, probability * p, "; ".join(path))
            else:
                found[after] = ListedOutcome(after, known.probability + probability * p, known.label)

    require(bool(state.chance_outcomes()), "state", "a chance step with no outcome: not a state the game can be in")
    walk(state, Fraction(1), ())
    return list(found.values())


def probability_to_proto(probability: Fraction) -> common_pb2.Probability:
    return common_pb2.Probability(
        numerator=probability.numerator, denominator=probability.denominator, value=float(probability)
    )


def turn_info(state: GameState, play: TablePlay) -> common_pb2.TurnInfo:
    """The common turn facts of a state, all read from the rules model."""
    player = state.current_player()
    info = common_pb2.TurnInfo(
        chance_next=player == CHANCE,
        game_over=player == TERMINAL,
        scores=list(play.scores(state)),
        description=play.describe(state),
    )
    if player >= 0:
        info.to_move = player
    if player == TERMINAL:
        info.winners.extend(play.winners(state))
    return info


def require_decision(state: GameState, field: str = "move") -> None:
    """INVALID_ARGUMENT naming `field` when no player decides now (chance is next, or the game is over)."""
    player = state.current_player()
    require(player != TERMINAL, field, "the game is over: no move can be played")
    require(player != CHANCE, field, "a chance step is next: send no move, with a seed or list_outcomes")


def apply_action(state: GameState, action: Any, field: str = "move") -> GameState:
    """`state.child(action)` for a legal action; INVALID_ARGUMENT naming `field` for any other."""
    require_decision(state, field)
    require(action in state.legal_actions(), field, "not a legal move in this state (see LegalMoves)")
    return state.child(action)


@dataclass(frozen=True)
class PlayResult:
    """Play's answer before it becomes a proto: the next state, or the listed outcomes of a chance step."""

    state: Any
    outcomes: list[ListedOutcome]


def play_flow(
    state: GameState,
    apply_move: Callable[[GameState], GameState] | None,
    play: TablePlay,
    *,
    seed: int | None,
    listing: bool,
) -> PlayResult:
    """The shared Play: apply the move (if any), then handle chance as the client chose.

    With no move the state must wait on chance. After the move (or at once without one) a chance step is
    listed (`listing`), resolved from `seed` until a player decides or the game ends, or, with neither, left
    for a later call where the state message can hold it.
    """
    require(not (listing and seed is not None), "list_outcomes", "either a seed or list_outcomes, not both")
    if apply_move is not None:
        state = apply_move(state)
    else:
        player = state.current_player()
        require(player != TERMINAL, "move", "the game is over")
        require(player == CHANCE, "move", f"player {player} is to move: a move is required")
        require(listing or seed is not None, "seed", "a chance step is next: give a seed or set list_outcomes")
    if state.current_player() != CHANCE:
        return PlayResult(state, [])
    if listing:
        return PlayResult(state, list_outcomes(state, play))
    if seed is not None:
        return PlayResult(resolve_chance(state, seeded_rng(seed)), [])
    require(play.chance_states, "seed", "a chance step follows this move: give a seed or set list_outcomes")
    return PlayResult(state, [])


def new_game_answer(
    response_type: type[Message],
    state: GameState,
    play: TablePlay,
    to_proto: Callable[[Any], Message],
    want_picture: bool,
) -> Message:
    """NewGame's response: the state after the seeded setup, its turn facts and (when asked) its picture."""
    response = response_type(state=to_proto(state), turn=turn_info(state, play))
    if want_picture:
        response.picture_svg = play.picture(state)
    return response


def play_answer(
    request: Message,
    parse_state: Callable[[Message, str], GameState],
    apply_move: Callable[[GameState, Message], GameState],
    play: TablePlay,
    to_proto: Callable[[Any], Message],
    response_type: type[Message],
) -> Message:
    """The shared Play handler: parse the state, play the move (`apply_move` checks it by the rules model and
    names the field at fault), handle chance as asked, and answer the next state or the listed outcomes."""
    require(request.HasField("state"), "state", "the state to play from is required")
    state = parse_state(request.state, "state")  # faults named under the request's own field
    # An empty move message (`"move": {}` from a JSON client) is no move.
    given = request.HasField("move") and request.move.ByteSize() > 0
    mover = (lambda s: apply_move(s, request.move)) if given else None
    seed = request.seed if request.HasField("seed") else None
    result = play_flow(state, mover, play, seed=seed, listing=request.list_outcomes)
    response = response_type()
    for listed in result.outcomes:
        response.outcomes.add(
            state=to_proto(listed.state),
            probability=probability_to_proto(listed.probability),
            label=listed.label,
            turn=turn_info(listed.state, play),
        )
    if result.outcomes and not play.chance_states:
        return response
    response.state.CopyFrom(to_proto(result.state))
    response.turn.CopyFrom(turn_info(result.state, play))
    if request.want_picture:
        response.picture_svg = play.picture(result.state)
    return response
