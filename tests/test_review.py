"""The review engine (solver/core/review.py) on a toy game, and the Review RPC's record checks, budgets, text,
CLI, gRPC and HTTP paths (the per-game reviews of seeded games are in tests/test_review_games.py)."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, ClassVar

import pytest
from campsolver.clients.textout import render
from campsolver.service import dispatch
from campsolver.service.errors import InvalidArgument, ResourceExhausted
from campsolver.service.games import camper_tour as ct_service
from campsolver.service.games import review as review_service
from campsolver.service.games import shared
from campsolver.service.registry import games
from campsolver.solver.core import review as core
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.game import CHANCE, TERMINAL

from campsolver.v1 import camper_tour_pb2 as ct
from campsolver.v1 import common_pb2

# --- a toy game: two players alternate; each decision is one or two numbers; a coin between turns ---------------


@dataclass(frozen=True)
class Toy:
    """Player 0 and 1 take turns; a turn picks `a` then, when `a` is 2, a second number `b`; a coin follows."""

    turn: int = 0
    picked: tuple[int, ...] = ()
    coin: bool = False
    half: bool = False  # the second number of a turn is due
    limit: int = 4

    def current_player(self) -> int:
        if self.turn >= self.limit:
            return TERMINAL
        if self.coin:
            return CHANCE
        return self.turn % 2

    def legal_actions(self) -> list[int]:
        if self.current_player() < 0:
            return []
        if self.half:
            return [7, 8]
        return [5] if self.turn == 3 else [1, 2, 3]  # turn 3 is forced

    def chance_outcomes(self) -> list[tuple[str, Fraction]]:
        return [("heads", Fraction(1, 2)), ("tails", Fraction(1, 2))] if self.current_player() == CHANCE else []

    def child(self, action: Any) -> Toy:
        if self.current_player() == CHANCE:
            return replace(self, coin=False)
        if action == 2 and not self.half:
            return replace(self, picked=(*self.picked, action), half=True)
        return replace(self, picked=(*self.picked, action), half=False, coin=True, turn=self.turn + 1)

    def returns(self) -> list[float]:
        return [0.0, 0.0]


THRESHOLDS = core.Thresholds(1.0, 2.0, 4.0, "points", "toy")
#: The toy hint's values: a choice's value is 10 minus 3 per step away from the best (1).
VALUES = {(1,): 10.0, (2, 7): 8.5, (2, 8): 7.0, (3,): 4.0}


class ToyAdapter:
    thresholds = THRESHOLDS
    information = "the toy hides nothing"

    def __init__(self, unvalued: tuple[Any, ...] = (), own: float | None = None, clock: list[float] | None = None):
        self.unvalued = unvalued
        self.own = own
        self.clock = clock
        self.ranked: list[Any] = []

    def continues(self, start: Toy, now: Toy, player: int) -> bool:
        return now.half

    def label(self, state: Toy, actions: tuple[Any, ...]) -> str:
        return "+".join(map(str, actions))

    def rank(
        self, decision: core.Decision, budget: Budget, seed: int, earlier: Sequence[core.Decision]
    ) -> core.Ranking:
        self.ranked.append(decision.state)
        if self.clock is not None:
            self.clock[0] += 1.0
        choices = tuple(
            core.Choice(
                actions,
                self.label(decision.state, actions),
                None if actions == self.unvalued else core.Value(value, 0.5, 20),
            )
            for actions, value in VALUES.items()
        )
        return core.Ranking(choices, "points", "toy values")

    def evaluate(
        self,
        decision: core.Decision,
        ranking: core.Ranking,
        budget: Budget,
        seed: int,
        earlier: Sequence[core.Decision],
    ) -> core.Valuation:
        if self.own is None:
            return core.Valuation(None, "no own valuation in the toy")
        return core.Valuation(core.Value(self.own, 0.25, 40), "valued on its own")


def toy_entries(plays: Sequence[tuple[int, ...]]) -> list[core.Act | core.Chance]:
    """The record of a toy game: each turn's actions, then the coin."""
    state, entries = Toy(), []
    for source, play in enumerate(plays):
        for action in play:
            after = state.child(action)
            entries.append(core.Act(source, state, action, after))
            state = after
        if state.current_player() == CHANCE:
            entries.append(core.Chance(source, "heads", Fraction(1, 2)))
            state = state.child("heads")
    return entries


def test_decisions_group_a_turn_as_the_hint_ranks_it() -> None:
    items = core.decisions(toy_entries([(2, 8), (1,), (3,)]), ToyAdapter().continues)
    kinds = [type(item).__name__ for item in items]
    assert kinds == ["Decision", "Chance", "Decision", "Chance", "Decision", "Chance"]
    first = items[0]
    assert isinstance(first, core.Decision) and first.actions == (2, 8) and first.complete
    assert first.after == Toy().child(2).child(8)


def test_a_record_ending_inside_a_decision_is_incomplete() -> None:
    entries = toy_entries([(1,)])
    state = entries[-1]
    toy = Toy().child(1).child("heads")
    entries.append(core.Act(1, toy, 2, toy.child(2)))
    items = core.decisions(entries, ToyAdapter().continues)
    last = items[-1]
    assert isinstance(last, core.Decision) and not last.complete
    result = core.review(items, ToyAdapter(), Budget(10), players=2, decision_cpu_s=1.0)
    assert result.items[-1].status is core.Status.INCOMPLETE  # type: ignore[union-attr]
    assert isinstance(state, core.Chance)


def _reviewed(result: core.ReviewResult) -> list[core.Reviewed]:
    return [item for item in result.items if isinstance(item, core.Reviewed)]


def test_losses_marks_totals_accuracy_and_costliest() -> None:
    items = core.decisions(toy_entries([(2, 8), (3,), (1,), (5,)]), ToyAdapter().continues)
    result = core.review(items, ToyAdapter(), Budget(10), players=2, decision_cpu_s=1.0)
    reviewed = _reviewed(result)
    assert [r.status for r in reviewed] == [core.Status.REVIEWED] * 3 + [core.Status.FORCED]
    losses = [r.loss for r in reviewed]
    assert losses == [10.0 - 7.0, 10.0 - 4.0, 0.0, 0.0]
    assert [r.mark for r in reviewed[:3]] == [core.Mark.MISTAKE, core.Mark.BLUNDER, core.Mark.BEST]
    assert reviewed[0].loss_standard_error == pytest.approx(math.hypot(0.5, 0.5))
    assert reviewed[2].loss_standard_error == 0.0  # the best move: no loss, no error
    zero, one = result.players
    assert (zero.decisions, zero.reviewed, zero.total_loss) == (2, 2, 3.0)
    assert (one.decisions, one.reviewed, one.forced, one.total_loss) == (2, 1, 1, 6.0)
    assert zero.accuracy == 50.0 and one.accuracy == 0.0  # the forced decision stays out of it
    assert zero.mistakes == 1 and one.blunders == 1
    index_of = {id(item): i for i, item in enumerate(result.items)}
    assert zero.costliest == [index_of[id(reviewed[0])]]
    assert zero.total_loss_standard_error == pytest.approx(math.hypot(0.5, 0.5))
    assert result.complete and all(
        s.total_loss
        == sum(r.loss or 0 for r in reviewed if r.decision.player == s.player and r.status is core.Status.REVIEWED)
        for s in result.players
    )


def test_a_played_move_without_a_value_is_valued_on_its_own_or_said_missing() -> None:
    items = core.decisions(toy_entries([(3,)]), ToyAdapter().continues)
    own = core.review(items, ToyAdapter(unvalued=(3,), own=6.5), Budget(10), players=2, decision_cpu_s=1.0)
    (decision,) = _reviewed(own)
    assert decision.status is core.Status.REVIEWED and decision.loss == 3.5 and decision.played_rank == 4
    assert "valued on its own" in decision.note
    missing = core.review(items, ToyAdapter(unvalued=(3,)), Budget(10), players=2, decision_cpu_s=1.0)
    (decision,) = _reviewed(missing)
    assert decision.status is core.Status.VALUE_MISSING and decision.loss is None
    assert "no own valuation" in decision.note and missing.players[0].values_missing == 1
    above = core.review(items, ToyAdapter(unvalued=(3,), own=11.0), Budget(10), players=2, decision_cpu_s=1.0)
    (decision,) = _reviewed(above)
    assert decision.loss == 0.0 and "above the best" in decision.note


class ManualBudget(Budget):
    CLOCK: ClassVar[list[float]] = [0.0]
    _now = staticmethod(lambda: ManualBudget.CLOCK[0])


def test_the_review_is_anytime_under_its_deadline() -> None:
    ManualBudget.CLOCK[0] = 0.0
    items = core.decisions(toy_entries([(1,), (1,), (1,), (5,)]), ToyAdapter().continues)
    adapter = ToyAdapter(clock=ManualBudget.CLOCK)
    result = core.review(items, adapter, ManualBudget(2.5), players=2, decision_cpu_s=1.0)
    statuses = [r.status for r in _reviewed(result)]
    # two decisions fit; the third is cut by the deadline (not kept), the fourth never starts
    assert statuses == [core.Status.REVIEWED, core.Status.REVIEWED, core.Status.NOT_REVIEWED, core.Status.NOT_REVIEWED]
    assert not result.complete and len(adapter.ranked) == 3
    assert result.players[0].not_reviewed == 1 and result.players[1].not_reviewed == 1


def test_a_cancel_stops_the_review() -> None:
    items = core.decisions(toy_entries([(1,), (1,)]), ToyAdapter().continues)
    budget = Budget(10)
    budget.cancel()
    with pytest.raises(SolveInterrupted):
        core.review(items, ToyAdapter(), budget, players=2, decision_cpu_s=1.0)


def test_decision_budget_counts_cpu_and_ends_with_the_review() -> None:
    whole = Budget(10)
    decision = core.DecisionBudget(0.05, whole)
    assert decision.counts_cpu and decision.cpu_share() == 1.0
    phase = decision.limited(1.0)
    assert isinstance(phase, core.DecisionBudget) and phase.parent is whole and phase.time_limit_s <= 0.05
    whole.cancel()
    assert decision.cancelled and phase.cancelled and decision.remaining() == 0.0
    with pytest.raises(SolveInterrupted):
        phase.check()
    ended = Budget.until(0.0, 1.0)  # long past
    late = core.DecisionBudget(5.0, ended)
    assert late.expired() and late.remaining() == 0.0


def test_thresholds_rise_and_mark() -> None:
    with pytest.raises(ValueError):
        core.Thresholds(1.0, 1.0, 2.0, "x", "y")
    assert [THRESHOLDS.mark(x) for x in (0.0, 0.5, 1.0, 2.0, 4.0)] == [
        core.Mark.BEST,
        core.Mark.GOOD,
        core.Mark.INACCURACY,
        core.Mark.MISTAKE,
        core.Mark.BLUNDER,
    ]


# --- the Review RPC's record checks (Camper Tour: the cheapest rules model) ------------------------------------


def _command(game: str = "camper-tour") -> Any:
    return games()[game].commands["review"]


def _run(request: Any, game: str = "camper-tour", seconds: float = 60.0) -> Any:
    return dispatch.run(_command(game), request, Budget(seconds))


def _refused(request: Any, error: type = InvalidArgument) -> str:
    with pytest.raises(error) as caught:
        _run(request)
    return caught.value.violations[0].field


def test_an_illegal_step_is_refused_naming_its_index() -> None:
    request = ct_service.EXAMPLES["Review"]()
    request.record.steps[3].move.announce = 11
    assert _refused(request) == "record.steps[3].move.announce"
    request = ct_service.EXAMPLES["Review"]()
    request.record.steps[2].move.Clear()
    setattr(request.record.steps[2].move, "pass", True)  # a pass when an announcement is legal
    with pytest.raises(InvalidArgument) as caught:
        _run(request)
    assert caught.value.violations[0].field == "record.steps[2].move"
    assert "pass: not a legal move here" in caught.value.violations[0].description


@pytest.mark.parametrize(
    ("steps", "field", "said"),
    [
        ([{"play": {"card": 999}}], "record.steps[0].move.steps[0]", "#999 (no such card"),
        ([{"play": {"card": -1}}], "record.steps[0].move.steps[0]", "#-1 (no such card"),
        ([{"play": {"card": 7, "member": True}}, {"place": 999}], "record.steps[0].move.steps[1]", "#999 (no such"),
        ([{"chooseBoard": 99}], "record.steps[0].move.steps[0]", "board 99 (no such board"),
        ([{"chooseBoard": -1}], "record.steps[0].move.steps[0]", "board -1 (no such board"),
    ],
)
def test_an_adventure_tours_card_outside_the_deck_is_refused_naming_its_step(steps, field, said) -> None:
    """A card id outside the deck in a reviewed move was an IndexError in its label (INTERNAL over gRPC, a
    traceback in the CLI), and a negative id was labelled as another card: both are now refused by name."""
    from campsolver.service.games import adventure_tours as at_service
    from google.protobuf import json_format

    request = at_service.EXAMPLES["Review"]()
    move = request.record.steps[0].move
    move.Clear()
    json_format.ParseDict({"steps": steps}, move)
    with pytest.raises(InvalidArgument) as caught:
        dispatch.run(_command("adventure-tours"), request, Budget(60.0))
    assert caught.value.violations[0].field == field
    assert said in caught.value.violations[0].description


def test_a_label_that_fails_on_an_absurd_move_falls_back_to_the_moves_own_text() -> None:
    """An illegal move is refused by name even when the game's label cannot describe it (never INTERNAL)."""
    start = ct_service.state_from_proto(ct_service.EXAMPLES["Hint"]().state)

    def broken(action: Any) -> str:
        raise IndexError("no such card")

    absurd = ("not", "a", "move")
    with pytest.raises(InvalidArgument) as caught:
        review_service.acts_of(start, [absurd], "record.steps[0].move", broken)
    assert caught.value.violations[0].field == "record.steps[0].move"
    assert str(absurd) in caught.value.violations[0].description


def test_record_shape_errors_name_their_field() -> None:
    assert _refused(ct.CamperTourServiceReviewRequest()) == "record"
    assert _refused(ct.CamperTourServiceReviewRequest(record=ct.CamperTourRecord())) == "record.start"
    request = ct_service.EXAMPLES["Review"]()
    request.record.steps[1].ClearField("seed")  # Camper Tour's state cannot wait on chance: the seed is needed
    assert _refused(request) == "record.steps[1].seed"
    request = ct_service.EXAMPLES["Review"]()
    request.record.steps[0].state.CopyFrom(request.record.start)  # not what the seed gives
    assert _refused(request) == "record.steps[0].state"
    request = ct_service.EXAMPLES["Review"]()
    request.record.start.campers[0].position = 500
    assert _refused(request).startswith("record.start.campers[0]")
    request = ct_service.EXAMPLES["Review"]()
    request.review.decision_cpu_seconds = -1
    assert _refused(request) == "review.decision_cpu_seconds"
    request.review.decision_cpu_seconds = 1e6
    assert _refused(request, ResourceExhausted) == "review.decision_cpu_seconds"
    request = ct_service.EXAMPLES["Review"]()
    request.objective = common_pb2.OBJECTIVE_MARGIN
    assert _refused(request) == "objective"


def test_a_listed_outcome_is_accepted_with_its_probability_and_a_foreign_one_refused() -> None:
    start = ct_service.state_from_proto(
        ct_service.new_game(ct.CamperTourServiceNewGameRequest(players=2, seed=4), Budget(1.0)).state
    )
    action = min((a for a in start.legal_actions() if hasattr(a, "plates")), key=lambda a: a.plates)
    listed = shared.list_outcomes(start.child(action), ct_service.TABLE_PLAY)
    chosen = listed[len(listed) // 2]
    record = ct.CamperTourRecord(start=ct_service.state_to_proto(start))
    record.steps.add(move=ct_service.move_to_proto(action), state=ct_service.state_to_proto(chosen.state))
    walk = review_service.walk_record(record, ct_service.REVIEW_CODEC)
    (act, chance) = walk.entries
    assert isinstance(act, core.Act) and act.action == action
    assert isinstance(chance, core.Chance) and chance.probability == chosen.probability
    assert chance.label == chosen.label and walk.end == chosen.state
    record.steps[0].state.campers[0].tokens = 3  # no roll leaves these tokens
    with pytest.raises(InvalidArgument) as caught:
        review_service.walk_record(record, ct_service.REVIEW_CODEC)
    assert caught.value.violations[0].field == "record.steps[0].state"


def test_a_seeded_step_lists_the_drawn_chance_with_the_sequence_probability() -> None:
    request = ct_service.EXAMPLES["Review"]()
    walk = review_service.walk_record(request.record, ct_service.REVIEW_CODEC)
    state = ct_service.state_from_proto(request.record.start)
    for index, step in enumerate(request.record.steps):
        (act,) = [e for e in walk.entries if isinstance(e, core.Act) and e.source == index]
        chances = [e for e in walk.entries if isinstance(e, core.Chance) and e.source == index]
        assert act.state == state and act.action in state.legal_actions()  # the rules model re-checks each move
        state = shared.resolve_chance(act.after, shared.seeded_rng(step.seed))
        assert len(chances) <= 1 and all(0 < c.probability <= 1 for c in chances)
    assert state == walk.end


def test_a_short_deadline_answers_the_decisions_reviewed_so_far() -> None:
    request = ct_service.EXAMPLES["Review"]()
    request.review.decision_cpu_seconds = 0.2
    response = _run(request, seconds=0.25)
    statuses = [s.decision.status for s in response.review.steps if s.WhichOneof("kind") == "decision"]
    assert not response.review.complete and response.stats.interrupted
    assert common_pb2.REVIEW_STATUS_NOT_REVIEWED in statuses
    first = statuses.index(common_pb2.REVIEW_STATUS_NOT_REVIEWED)
    assert all(s in (common_pb2.REVIEW_STATUS_NOT_REVIEWED, common_pb2.REVIEW_STATUS_FORCED) for s in statuses[first:])
    assert sum(p.not_reviewed for p in response.review.players) >= 1
    assert "deadline" in response.review.note


def test_text_output_is_a_table_and_a_summary() -> None:
    request = ct_service.EXAMPLES["Review"]()
    response = _run(request)
    text = render("camper-tour", request, response)
    lines = text.splitlines()
    assert lines[0].startswith("review in win probability")
    assert lines[1].split()[:3] == ["#", "player", "played"]
    decisions = [s for s in response.review.steps if s.WhichOneof("kind") == "decision"]
    assert len([line for line in lines if line[:1].isdigit()]) == len(decisions)
    assert sum(line.startswith("  player ") for line in lines) == 2
    assert "total loss" in text and "accuracy" in text and "costliest" in text


def test_the_cli_examples_run_and_print_text(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.test_cli import main_in_process

    for game in ("camper-tour", "campsite"):
        code, request_text, _ = main_in_process(capsys, game, "example", "review")
        assert code == 0 and json.loads(request_text)["record"]["steps"]
        code, out, err = main_in_process(
            capsys, game, "review", "--request", "-", "--format", "text", stdin=request_text
        )
        assert code == 0, err
        assert "players:" in out and "total loss" in out


# --- the same review in-process, over gRPC and over HTTP ---------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Any:
    from campsolver.service.server import CampsolverServer, ServerConfig

    running = CampsolverServer(ServerConfig(port=0, http_port=0, workers=1))
    running.start()
    assert running.http is not None and running.http.wait_started()
    yield running
    running.stop(grace_s=2.0)


def _without_stats(message: Any) -> Any:
    copy = type(message)()
    copy.CopyFrom(message)
    copy.ClearField("stats")
    return copy


def test_the_review_over_grpc_and_http_equals_in_process(server: Any) -> None:
    """Campsite's hint is a formula over every play (no sampling): with CPU to rank them all, the review is a
    function of the record, on any transport."""
    from campsolver.clients.client import CampsolverClient
    from campsolver.clients.http_client import PROTOCOLS, HttpCampsolverClient
    from campsolver.service.games import campsite as cs_service
    from google.protobuf import json_format

    from tests.test_http import post_json

    request = cs_service.EXAMPLES["Review"]()
    request.review.decision_cpu_seconds = 3.0
    local = _run(request, game="campsite", seconds=120)
    assert local.review.complete and not local.stats.interrupted
    with CampsolverClient(server.address) as client:
        remote = client.campsite.review(request, timeout=120)
    assert _without_stats(remote) == _without_stats(local)
    for protocol in PROTOCOLS:
        with HttpCampsolverClient(server.http.url, protocol) as http:
            answer = http.call("campsite", "Review", request, timeout=120)
        assert _without_stats(answer) == _without_stats(local), protocol
    status, body, _ = post_json(
        f"{server.http.url}/{games()['campsite'].service_full_name}/Review",
        json.loads(json_format.MessageToJson(request)),
    )
    assert status == 200
    page = json_format.ParseDict(body, _command("campsite").response_type())
    assert _without_stats(page) == _without_stats(local)
    totals = [p.total_loss for p in page.review.players]
    assert totals == [p.total_loss for p in local.review.players]


def test_a_long_seeded_chance_sequence_keeps_its_probabilities_in_64_bits() -> None:
    """The deal of an Adventure Tours round resolved by one Play seed is dozens of cards: that sequence's probability
    would not fit a `Probability`, so it is cut into entries that do, each exact, their product the sequence's."""
    from campsolver.service.games import adventure_tours as at_service

    from campsolver.v1 import adventure_tours_pb2 as at

    start = at_service.game_state_from_proto(
        at_service.new_game(at.AdventureToursServiceNewGameRequest(players=3, seed=2), Budget(1.0)).state
    )
    record = at.AdventureToursRecord(start=at_service.game_state_to_proto(start))
    state = start
    while state.round_index == start.round_index and state.current_player() >= 0:
        action = state.legal_actions()[0]
        seed = len(record.steps) + 1
        record.steps.add(move=at.AdventureMove(steps=[at_service.step_to_proto(action)]), seed=seed)
        state = shared.resolve_chance(state.child(action), shared.seeded_rng(seed))
    assert state.round_index == start.round_index + 1, "the first round was played to its end"
    walk = review_service.walk_record(record, at_service.REVIEW_CODEC)
    last = len(record.steps) - 1
    deal = [e for e in walk.entries if isinstance(e, core.Chance) and e.source == last]
    assert len(deal) >= 2, "the new round's deal is cut into entries"
    product = Fraction(1)
    for chance in deal:
        assert chance.probability.denominator <= review_service.MAX_PROBABILITY_DENOMINATOR
        common_pb2.Probability(numerator=chance.probability.numerator, denominator=chance.probability.denominator)
        product *= chance.probability
    assert 0 < product < Fraction(1, 2**63)
    assert at_service.game_state_to_proto(walk.end) == at_service.game_state_to_proto(state)


# --- batch tournaments with reviews -------------------------------------------------------------------------------


def test_a_tournament_with_reviews_writes_each_games_record_and_review(tmp_path: Any) -> None:
    """Each game's record beside its review, the seats' totals in reviews.csv equal to the review's, the review's
    decisions the record's moves in order, and the games' rows without the record and review."""
    import csv

    from campsolver.clients.batch.cli import main as batch_main

    out = tmp_path / "t"
    code = batch_main(
        [
            "tournament",
            "--games",
            "camper-tour,happy-campers",
            "--policies",
            "rule-of-thumb,random,greedy",
            "--matches",
            "1",
            "--review",
            "--review-cpu",
            "0.1",
            "--out",
            str(out),
            "--in-process",
            "--no-progress",
            "--time-limit",
            "300",
        ]
    )
    assert code == 0
    games_rows = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert games_rows and all("review" not in row and "record" not in row for row in games_rows)
    seats = list(csv.DictReader((out / "reviews.csv").open()))
    assert len(seats) == sum(len(row["policies"]) for row in games_rows)
    for row in games_rows:
        stem = out / "reviews" / row["game"] / f"{row['seed']}-{'-'.join(row['policies'])}"
        record = json.loads(stem.with_suffix(".record.json").read_text())
        review = json.loads(stem.with_suffix(".review.json").read_text())
        decisions = [s["decision"] for s in review["steps"] if "decision" in s]
        assert len([s for s in record["steps"] if "move" in s]) == len(decisions)
        for player in review["players"]:
            mine = [
                d
                for d in decisions
                if d.get("player", 0) == player.get("player", 0) and d["status"] == "REVIEW_STATUS_REVIEWED"
            ]
            assert player.get("totalLoss", 0.0) == pytest.approx(sum(d.get("loss", 0.0) for d in mine))
            seat_row = next(
                s
                for s in seats
                if s["game"] == row["game"]
                and int(s["seed"]) == row["seed"]
                and s["players"] == " vs ".join(row["policies"])
                and int(s["seat"]) == player.get("player", 0)
            )
            assert float(seat_row["total_loss"]) == pytest.approx(player.get("totalLoss", 0.0))
        # the review's decisions are the record's moves, in order (each applied again by the rules model when the
        # record was read: `tournament.recorded_entries`)
        assert [d["played"] for d in decisions] == [s["label"] for s in record["steps"] if "move" in s]
    summary = json.loads((out / "review-summary.json").read_text())["by_policy"]
    assert {(s["game"], s["policy"]) for s in summary} == {(s["game"], s["policy"]) for s in seats}


@pytest.mark.parametrize(
    ("game", "source", "target"),
    [
        ("happy-campers", 0, 2),
        ("deluxe-camping", 1, 3),
        ("campsite", 0, 2),
        ("adventure-tours", 0, 3),
    ],
)
def test_every_game_names_the_step_whose_move_is_illegal(game: str, source: int, target: int) -> None:
    """A move played again later (its squares taken, its card gone, its barrier placed) is refused at its step."""
    command = _command(game)
    request = command.example()
    request.record.steps[target].move.CopyFrom(request.record.steps[source].move)
    with pytest.raises(InvalidArgument) as caught:
        dispatch.run(command, request, Budget(60))
    assert caught.value.violations[0].field.startswith(f"record.steps[{target}].move")
