"""The Review RPC of every game: a NewGame/Play record -> rules-model transitions -> `solver.core.review` -> protos.

A record is what a client of NewGame and Play keeps: the state it started from and, for every Play call, its
move, the seed it resolved the chance with and the state it answered. Each step is checked by the rules model
(a move legal in turn, a chance outcome one the step can have: the seed's, or one of the listed outcomes), and a
step at fault is INVALID_ARGUMENT naming it (`record.steps[7].move`). Only then does the review touch its budget
(and so take a solver slot): a refused record never queues.

Each game supplies a `ReviewCodec` (its state and move conversions, its `TablePlay`, its review adapter); this
module does the rest once.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from campsolver.service.errors import InvalidArgument, ResourceExhausted, require, require_limit
from campsolver.service.games import shared
from campsolver.solver.core import review as core
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.game import CHANCE, TERMINAL
from google.protobuf.message import Message

from campsolver.v1 import common_pb2

#: Most Play steps a record may hold (a four-camper Camper Tour game takes a few hundred).
MAX_RECORD_STEPS = 5_000
#: Most CPU seconds a decision may ask for.
MAX_DECISION_CPU_S = 60.0
#: The largest denominator a `Probability` message holds (int64).
MAX_PROBABILITY_DENOMINATOR = 2**63 - 1

Triple = tuple[Any, Any, Any]  # (state before, action, state after)

STATUS_TO_PROTO = {
    core.Status.REVIEWED: common_pb2.REVIEW_STATUS_REVIEWED,
    core.Status.FORCED: common_pb2.REVIEW_STATUS_FORCED,
    core.Status.NOT_REVIEWED: common_pb2.REVIEW_STATUS_NOT_REVIEWED,
    core.Status.VALUE_MISSING: common_pb2.REVIEW_STATUS_VALUE_MISSING,
    core.Status.INCOMPLETE: common_pb2.REVIEW_STATUS_INCOMPLETE,
    core.Status.NOT_RANKED: common_pb2.REVIEW_STATUS_NOT_RANKED,
}
MARK_TO_PROTO = {
    core.Mark.BEST: common_pb2.REVIEW_MARK_BEST,
    core.Mark.GOOD: common_pb2.REVIEW_MARK_GOOD,
    core.Mark.INACCURACY: common_pb2.REVIEW_MARK_INACCURACY,
    core.Mark.MISTAKE: common_pb2.REVIEW_MARK_MISTAKE,
    core.Mark.BLUNDER: common_pb2.REVIEW_MARK_BLUNDER,
}

ACCURACY_NOTE = (
    "accuracy: the percentage of a player's reviewed, unforced decisions whose loss is below the inaccuracy threshold"
)


@dataclass(frozen=True)
class ReviewCodec:
    """What one game gives the Review handler.

    `parse_state(message, field)`: a state message -> the rules state (validated, fields named);
    `to_proto(state)`: back (states are compared through it); `move_acts(state, move, field)`: a move message ->
    its actions, each checked by the rules model, as (state, action, after) triples; `move_to_proto(state,
    actions)`: a decision's actions -> the game's move message; `adapter(start, objective)`: the review adapter
    and the objective it ranks by (`objective` the request's, validated there, field `objective`);
    `players(state)`: the seats; `default_cpu_s`: a decision's CPU budget when the request names none.
    """

    play: shared.TablePlay
    parse_state: Callable[[Message, str], Any]
    to_proto: Callable[[Any], Message]
    move_acts: Callable[[Any, Message, str], list[Triple]]
    move_to_proto: Callable[[Any, tuple[Any, ...]], Message]
    adapter: Callable[[Any, int], tuple[Any, int]]
    players: Callable[[Any], int]
    default_cpu_s: float


@dataclass
class Walk:
    start: Any
    entries: list[core.Act | core.Chance]
    end: Any


def _same(codec: ReviewCodec, given: Any, actual: Any) -> bool:
    return codec.to_proto(given) == codec.to_proto(actual)


def walk_record(record: Message, codec: ReviewCodec) -> Walk:
    """The record's transitions, every one checked by the rules model (INVALID_ARGUMENT naming the step)."""
    require(record.HasField("start"), "record.start", "the state the game started from is required (NewGame's)")
    state = codec.parse_state(record.start, "record.start")
    start = state
    steps = record.steps
    require_limit(len(steps), MAX_RECORD_STEPS, "record.steps", "record steps")
    entries: list[core.Act | core.Chance] = []
    for index, step in enumerate(steps):
        field = f"record.steps[{index}]"
        player = state.current_player()
        if step.HasField("move") and step.move.ByteSize() > 0:
            require(player != TERMINAL, f"{field}.move", "the game is over: no move can be played")
            require(
                player != CHANCE,
                f"{field}.move",
                "a chance step is next: this step plays no move (give the seed or the state Play answered)",
            )
            for before, action, after in codec.move_acts(state, step.move, f"{field}.move"):
                entries.append(core.Act(index, before, action, after))
                state = after
        else:
            require(player != TERMINAL, f"{field}.move", "the game is over: nothing follows")
            require(player == CHANCE, f"{field}.move", f"player {player} is to move: a move is required")
        seed = step.seed if step.HasField("seed") else None
        given = codec.parse_state(step.state, f"{field}.state") if step.HasField("state") else None
        if state.current_player() != CHANCE:
            if given is not None:
                require(_same(codec, given, state), f"{field}.state", "not the state this move leads to")
            continue
        if seed is not None:
            # Play resolves every chance step until a player decides: one entry, the drawn outcomes in order and
            # the probability of that sequence (a new entry where that probability would not fit the message's
            # 64-bit numbers: a deal of many cards).
            rng = shared.seeded_rng(seed)
            labels: list[str] = []
            probability = Fraction(1)
            while state.current_player() == CHANCE:
                outcome = shared.draw_outcome(state, rng)
                chance = next(p for o, p in state.chance_outcomes() if o == outcome)
                if labels and (probability * chance).denominator > MAX_PROBABILITY_DENOMINATOR:
                    entries.append(core.Chance(index, "; ".join(labels), probability))
                    labels, probability = [], Fraction(1)
                probability *= chance
                labels.append(codec.play.chance_label(state, outcome))
                state = state.child(outcome)
            entries.append(core.Chance(index, "; ".join(labels), probability))
            if given is not None:
                require(
                    _same(codec, given, state),
                    f"{field}.state",
                    f"not the state seed {seed} gives after this step (the seed's state is used by Play)",
                )
        elif given is not None:
            try:
                listed = shared.list_outcomes(state, codec.play)
            except ResourceExhausted as error:
                raise ResourceExhausted(
                    f"{field}.state", f"{error.violations[0].description}: give the seed Play used instead"
                ) from None
            match = next((o for o in listed if _same(codec, given, o.state)), None)
            require(match is not None, f"{field}.state", "not one of the outcomes of the chance step that follows")
            assert match is not None
            entries.append(core.Chance(index, match.label, match.probability))
            state = match.state
        else:
            require(
                codec.play.chance_states,
                f"{field}.seed",
                "a chance step follows: give the seed Play used, or the state it answered",
            )
    return Walk(start, entries, state)


def decision_cpu_seconds(options: common_pb2.ReviewOptions, default: float) -> float:
    value = options.decision_cpu_seconds
    require(
        not math.isnan(value) and value >= 0,
        "review.decision_cpu_seconds",
        "a non-negative number of CPU seconds (0: the game's default)",
    )
    if value > MAX_DECISION_CPU_S:
        raise ResourceExhausted(
            "review.decision_cpu_seconds", f"{value:g} CPU-s a decision exceeds the limit of {MAX_DECISION_CPU_S:g}"
        )
    return value or default


def review(
    request: Message, budget: Budget, codec: ReviewCodec, response_type: type[Message], moved_type: type[Message]
) -> Message:
    """The whole Review handler: validate the record (no budget touched), review it, answer the protos."""
    require(request.HasField("record"), "record", "the game's record is required")
    walk = walk_record(request.record, codec)
    cpu_s = decision_cpu_seconds(request.review, codec.default_cpu_s)
    adapter, objective = codec.adapter(walk.start, request.objective)
    items = core.decisions(walk.entries, adapter.continues)
    result = core.review(
        items, adapter, budget, players=codec.players(walk.start), decision_cpu_s=cpu_s, seed=request.options.seed
    )
    return _response(result, walk, codec, adapter, objective, response_type, moved_type, request.review.want_states)


def _decision_proto(item: core.Reviewed) -> common_pb2.ReviewedDecision:
    message = common_pb2.ReviewedDecision(
        player=item.decision.player,
        status=STATUS_TO_PROTO[item.status],
        played=item.played_label,
        best=item.best_label,
        exact=item.exact,
        played_rank=item.played_rank,
        choices=item.choices,
        unit=item.unit,
        note=item.note,
    )
    for prefix, value in (("played", item.played), ("best", item.best)):
        if value is None:
            continue
        setattr(message, f"{prefix}_value", value.value)
        setattr(message, f"{prefix}_samples", value.samples)
        shown = value.shown_error
        if shown is not None:
            setattr(message, f"{prefix}_standard_error", shown)
    if item.loss is not None:
        message.loss = item.loss
    if item.loss_standard_error is not None:
        message.loss_standard_error = item.loss_standard_error
    if item.mark is not None:
        message.mark = MARK_TO_PROTO[item.mark]
    return message


def _summary_proto(summary: core.PlayerSummary) -> common_pb2.PlayerReview:
    message = common_pb2.PlayerReview(
        player=summary.player,
        decisions=summary.decisions,
        reviewed=summary.reviewed,
        forced=summary.forced,
        not_reviewed=summary.not_reviewed,
        values_missing=summary.values_missing,
        total_loss=summary.total_loss,
        mean_loss=summary.mean_loss,
        inaccuracies=summary.inaccuracies,
        mistakes=summary.mistakes,
        blunders=summary.blunders,
        costliest=summary.costliest,
    )
    if summary.total_loss_standard_error is not None:
        message.total_loss_standard_error = summary.total_loss_standard_error
    if summary.accuracy is not None:
        message.accuracy = summary.accuracy
    return message


def review_note(adapter: Any, result: core.ReviewResult) -> str:
    """What the review did, in words: whose information, the accuracy figure, the budgets."""
    parts = [
        getattr(adapter, "information", ""),
        ACCURACY_NOTE,
        f"each decision ranked within {result.decision_cpu_s:g} CPU-s",
    ]
    if not result.complete:
        parts.append("the review's deadline came first: the later decisions are marked not reviewed")
    return "; ".join(part for part in parts if part)


def game_review_proto(
    result: core.ReviewResult, adapter: Any, objective: int, end: common_pb2.TurnInfo
) -> common_pb2.GameReview:
    """The review as the `GameReview` message (the service's answer and the batch tournament's review files)."""
    thresholds = result.thresholds
    game_review = common_pb2.GameReview(
        objective=objective,
        unit=thresholds.unit,
        complete=result.complete,
        note=review_note(adapter, result),
        thresholds=common_pb2.ReviewThresholds(
            inaccuracy=thresholds.inaccuracy,
            mistake=thresholds.mistake,
            blunder=thresholds.blunder,
            unit=thresholds.unit,
            reason=thresholds.reason,
        ),
        end=end,
        decision_cpu_seconds=result.decision_cpu_s,
        players=[_summary_proto(s) for s in result.players],
    )
    for item in result.items:
        if isinstance(item, core.Chance):
            game_review.steps.add(
                record_step=item.source,
                chance=common_pb2.ReviewedChance(
                    label=item.label, probability=shared.probability_to_proto(item.probability)
                ),
            )
        else:
            game_review.steps.add(record_step=item.decision.source, decision=_decision_proto(item))
    return game_review


def _response(
    result: core.ReviewResult,
    walk: Walk,
    codec: ReviewCodec,
    adapter: Any,
    objective: int,
    response_type: type[Message],
    moved_type: type[Message],
    want_states: bool,
) -> Message:
    game_review = game_review_proto(result, adapter, objective, shared.turn_info(walk.end, codec.play))
    response = response_type()
    for index, item in enumerate(result.items):
        if isinstance(item, core.Chance):
            continue
        decision = item.decision
        moved = moved_type(step=index, played=codec.move_to_proto(decision.state, decision.actions))
        if item.best_actions is not None:
            moved.best.CopyFrom(codec.move_to_proto(decision.state, item.best_actions))
        if want_states:
            moved.state.CopyFrom(codec.to_proto(decision.state))
        response.moves.append(moved)
    response.review.CopyFrom(game_review)
    ranked = sum(1 for item in result.items if isinstance(item, core.Reviewed) and item.cpu_s > 0)
    response.stats.CopyFrom(
        common_pb2.SolveStats(
            wall_time_seconds=result.wall_s,
            nodes=ranked,
            method="review: each decision ranked by the game's hint",
            interrupted=result.interrupted or not result.complete,
        )
    )
    return response


def acts_of(state: Any, actions: Sequence[Any], field: str, labels: Callable[[Any], str] | None = None) -> list[Triple]:
    """Each action applied in turn by the rules model: INVALID_ARGUMENT naming `field` (indexed when there are
    several) for the first that is not legal then."""
    out: list[Triple] = []
    for index, action in enumerate(actions):
        where = f"{field}[{index}]" if len(actions) > 1 else field
        shared.require_decision(state, where)
        if action not in state.legal_actions():
            shown = str(action)
            if labels is not None:
                with contextlib.suppress(IndexError, KeyError, ValueError, TypeError):
                    shown = labels(action)  # a label of an absurd move may fail: the move's own text then
            raise InvalidArgument(
                where, f"{shown}: not a legal move here (player {state.current_player()} to move; see LegalMoves)"
            )
        after = state.child(action)
        out.append((state, action, after))
        state = after
    return out


def first_moves(
    state: Any, continues: Callable[[Any, Any, int], bool], choose: Callable[[Any], Any] | None = None
) -> tuple[Any, ...]:
    """One decision's actions as the review groups them: `choose(state)` (default: the first legal action) at each
    of the player's steps while the decision goes on (examples and tests)."""
    player = state.current_player()
    actions: list[Any] = []
    now = state
    while True:
        action = choose(now) if choose is not None else now.legal_actions()[0]
        actions.append(action)
        now = now.child(action)
        if not (now.current_player() == player and continues(state, now, player)):
            return tuple(actions)


def seeded_record(
    record: Message,
    start: Any,
    codec: ReviewCodec,
    continues: Callable[[Any, Any, int], bool],
    decisions: int,
    choose: Callable[[Any], Any] | None = None,
    first_seed: int = 1,
) -> Message:
    """A record as a NewGame/Play client keeps it: `start`, then `decisions` Play calls, each a decision's move
    (`first_moves`) and the seed that resolved the chance after it (first_seed, first_seed + 1, ...)."""
    record.start.CopyFrom(codec.to_proto(start))
    state = start
    for index in range(decisions):
        if state.current_player() < 0:
            break
        actions = first_moves(state, continues, choose)
        after = state
        for action in actions:
            after = after.child(action)
        seed = first_seed + index
        record.steps.add(move=codec.move_to_proto(state, actions), seed=seed)
        state = shared.resolve_chance(after, shared.seeded_rng(seed))
    return record
