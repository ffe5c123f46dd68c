"""Tournaments: tasks from the policy registry, head-to-head records and 95% Wilson intervals."""

from __future__ import annotations

import functools
import itertools
import math
import statistics
from dataclasses import dataclass
from typing import Any

from campsolver.clients.batch.engine import Task
from campsolver.clients.batch.policies import POLICY_SETS, PolicySet

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054
#: One review task function per game (a Ray task stores each function once: the same object every task).
_REVIEWERS: dict[str, Any] = {}


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (ties counted as half a win: slightly conservative then)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(centre - half, 0.0)
    high = 1.0 if successes >= trials else min(centre + half, 1.0)
    return low, high


def tournament_tasks(
    spec: PolicySet, policies: tuple[str, ...], games_per_pair: int, review_cpu: float | None = None
) -> list[Task]:
    """Solo games: every policy plays seeds 0..N-1. Table games: each pair plays N games, seats rotated (two
    consecutive games share a seed). With `review_cpu` each game is reviewed after it is played (`play_and_review`,
    that many CPU seconds a decision; the task's key says so, so reviewed and plain runs never share a store row)."""
    function: Any = spec.play
    extra: dict[str, Any] = {}
    if review_cpu is not None:
        function, extra = (
            _REVIEWERS.setdefault(spec.game, functools.partial(play_and_review, spec.game)),
            {"review_cpu": review_cpu},
        )
    if spec.seats == 1:
        return [
            Task("tournament", spec.game, "game", {"policies": [name], "seed": seed, **extra}, function)
            for name in policies
            for seed in range(games_per_pair)
        ]
    tasks = []
    for first, second in itertools.combinations(policies, 2):
        for game_index in range(games_per_pair):
            if spec.seats == 2:
                seats = [first, second] if game_index % 2 == 0 else [second, first]
            else:
                # More seats than policies in the pair: one policy sits alone against copies of the other; which
                # policy is alone alternates and its seat rotates, game by game.
                lone, rest = (first, second) if game_index % 2 == 0 else (second, first)
                seats = [rest] * spec.seats
                seats[(game_index // 2) % spec.seats] = lone
            tasks.append(
                Task("tournament", spec.game, "game", {"policies": seats, "seed": game_index // 2, **extra}, function)
            )
    return tasks


@dataclass
class Record:
    wins: int = 0
    ties: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.ties + self.losses


def head_to_head(spec: PolicySet, policies: tuple[str, ...], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One line per ordered pair (policy, opponent): wins, ties, losses, win rate with its 95% Wilson interval."""
    records: dict[tuple[str, str], Record] = {pair: Record() for pair in itertools.permutations(policies, 2)}
    ok = [row for row in rows if row["status"] == "ok"]
    if spec.seats == 1:
        by_seed: dict[int, dict[str, float]] = {}
        for row in ok:
            by_seed.setdefault(row["seed"], {})[row["policies"][0]] = row["scores"][0]
        for scores in by_seed.values():
            for a, b in itertools.permutations(policies, 2):
                if a in scores and b in scores:
                    record = records[(a, b)]
                    if scores[a] > scores[b]:
                        record.wins += 1
                    elif scores[a] < scores[b]:
                        record.losses += 1
                    else:
                        record.ties += 1
    else:
        # One record per game and ordered pair of policies at the table (a policy in several seats counts once):
        # a win when one of its seats won, a loss when one of the opponent's did, otherwise a tie.
        for row in ok:
            seats = row["policies"]
            winning = seats[row["winner"]] if row["winner"] is not None else None
            for name, other in itertools.permutations(dict.fromkeys(seats), 2):
                if (name, other) not in records:
                    continue
                record = records[(name, other)]
                if winning == name:
                    record.wins += 1
                elif winning == other:
                    record.losses += 1
                else:
                    record.ties += 1
    lines = []
    for (name, other), record in records.items():
        rate = (record.wins + 0.5 * record.ties) / record.games if record.games else None
        low, high = wilson(record.wins + 0.5 * record.ties, record.games)
        lines.append(
            {
                "game": spec.game,
                "policy": name,
                "opponent": other,
                "games": record.games,
                "wins": record.wins,
                "ties": record.ties,
                "losses": record.losses,
                "win_rate": rate,
                "ci95_low": low if record.games else None,
                "ci95_high": high if record.games else None,
            }
        )
    return lines


def policy_scores(spec: PolicySet, policies: tuple[str, ...], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Mean final score per policy (over every seat it played) with its standard error."""
    scores: dict[str, list[float]] = {name: [] for name in policies}
    for row in rows:
        if row["status"] == "ok":
            for name, value in zip(row["policies"], row["scores"], strict=True):
                scores[name].append(float(value))
    return [
        {
            "game": spec.game,
            "policy": name,
            "games": len(values),
            "mean_score": statistics.fmean(values) if values else None,
            "standard_error": statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else None,
        }
        for name, values in scores.items()
    ]


def policy_set(game: str) -> PolicySet | None:
    return POLICY_SETS.get(game)


# --- reviews: each game's record reviewed by the games' Review engine --------------------------------------------

#: CPU seconds a decision of a tournament game's review (`--review-cpu`; the service's defaults are 0.5-1 s).
DEFAULT_REVIEW_CPU_S = 0.3
#: A seat's review totals, as the games' rows and `reviews.csv` carry them.
REVIEW_FIELDS = (
    "decisions",
    "reviewed",
    "forced",
    "not_reviewed",
    "values_missing",
    "total_loss",
    "mean_loss",
    "accuracy",
    "inaccuracies",
    "mistakes",
    "blunders",
)


def _service_module(game: str) -> Any:
    import importlib

    from campsolver.service.registry import GAME_TABLE

    return importlib.import_module(f"campsolver.service.games.{GAME_TABLE[game][2]}")


def recorded_entries(game: str, recording: list[tuple[Any, ...]]) -> tuple[Any, list[Any], Any]:
    """A played game's transitions (`policies.RECORDING`) as the review engine's record: (start state, `Act` and
    `Chance` entries, end state). Every action is applied again by the rules model here."""
    from campsolver.solver.core import review as core

    if game == "happy-campers":
        from campsolver.clients.batch.policies import HAPPY_CAMPERS_ROLLS
        from campsolver.solver.happy_campers.review import SingleMapGame

        state = start = SingleMapGame.new(rolls=HAPPY_CAMPERS_ROLLS)
        entries: list[Any] = []
        for index, (kind, what) in enumerate(recording):
            if kind == "roll":
                roll = (min(what), max(what))
                probability = dict(state.chance_outcomes())[roll]
                entries.append(core.Chance(index, f"roll {what[0]}-{what[1]}", probability))
                state = state.child(roll)
            else:
                after = state.child(what)
                entries.append(core.Act(index, state, what, after))
                state = after
        return start, entries, state
    play = _service_module(game).TABLE_PLAY
    starts = [entry[1] for entry in recording if entry[0] == "start"]
    start = state = starts[0]
    entries = []
    for index, (kind, before, what) in enumerate(entry for entry in recording if entry[0] != "start"):
        assert before == state, "the recording is not one line of play"
        if kind == "chance":
            probability = next(p for o, p in state.chance_outcomes() if o == what)
            entries.append(core.Chance(index, play.chance_label(state, what), probability))
            state = state.child(what)
        else:
            after = state.child(what)
            entries.append(core.Act(index, state, what, after))
            state = after
    return start, entries, state


def review_recorded(
    game: str, recording: list[tuple[Any, ...]], budget: Any, *, decision_cpu_s: float, seed: int
) -> dict[str, Any]:
    """Review a tournament game from its recording with the game's review adapter (as the Review RPC ranks, under
    `budget`, anytime): the record (moves as the RPC's JSON, chance with its probability) and the review as JSON."""
    from campsolver.service.games import review as review_service
    from campsolver.service.games import shared
    from campsolver.solver.core import review as core
    from google.protobuf import json_format

    from campsolver.v1 import common_pb2

    start, entries, end = recorded_entries(game, recording)
    if game == "happy-campers":
        from campsolver.service.games.happy_campers import _review_move_to_proto
        from campsolver.solver.happy_campers.review import HappyCampersReview

        adapter: Any = HappyCampersReview(solo=True)
        objective, players = common_pb2.OBJECTIVE_EXPECTED_SCORE, 1
        move_to_proto = _review_move_to_proto
        start_json = None
        end_turn = common_pb2.TurnInfo(game_over=end.over, scores=[int(end.returns()[0])])
    else:
        codec = _service_module(game).REVIEW_CODEC
        adapter, objective = codec.adapter(start, common_pb2.OBJECTIVE_UNSPECIFIED)
        players = codec.players(start)
        move_to_proto = codec.move_to_proto
        start_json = json_format.MessageToDict(codec.to_proto(start))
        end_turn = shared.turn_info(end, codec.play)
    items = core.decisions(entries, adapter.continues)
    result = core.review(items, adapter, budget, players=players, decision_cpu_s=decision_cpu_s, seed=seed)
    steps: list[dict[str, Any]] = []
    for item in items:
        if isinstance(item, core.Chance):
            steps.append(
                {"chance": item.label, "probability": f"{item.probability.numerator}/{item.probability.denominator}"}
            )
        else:
            steps.append(
                {
                    "player": item.player,
                    "label": adapter.label(item.state, item.actions),
                    "move": json_format.MessageToDict(move_to_proto(item.state, item.actions)),
                }
            )
    game_review = review_service.game_review_proto(result, adapter, objective, end_turn)
    return {
        "record": {"start": start_json, "steps": steps},
        "review": json_format.MessageToDict(game_review),
        "review_seats": [
            {field: _summary_value(summary, field) for field in REVIEW_FIELDS} for summary in game_review.players
        ],
        "review_complete": game_review.complete,
    }


def _summary_value(summary: Any, field: str) -> Any:
    if field == "accuracy":
        return summary.accuracy if summary.HasField("accuracy") else None
    return getattr(summary, field)


def play_and_review(game: str, params: dict[str, Any], budget: Any) -> dict[str, Any]:
    """A tournament game (the policy set's `play`, recording its transitions), then its review within what is left of
    the task's budget (anytime: the decisions the budget leaves are marked not reviewed)."""
    from campsolver.clients.batch.policies import RECORDING

    recording: list[tuple[Any, ...]] = []
    token = RECORDING.set(recording)
    try:
        result = POLICY_SETS[game].play(params, budget)
    finally:
        RECORDING.reset(token)
    result.update(
        review_recorded(game, recording, budget, decision_cpu_s=float(params["review_cpu"]), seed=int(params["seed"]))
    )
    return result


def review_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per game and seat of the reviewed games: the seat's policy and its review totals."""
    out = []
    for row in rows:
        if row["status"] != "ok" or "review_seats" not in row:
            continue
        for seat, (policy, seats) in enumerate(zip(row["policies"], row["review_seats"], strict=True)):
            out.append(
                {
                    "game": row["game"],
                    "seed": row["seed"],
                    "players": " vs ".join(row["policies"]),
                    "seat": seat,
                    "policy": policy,
                    "complete": row["review_complete"],
                    **seats,
                }
            )
    return out


def review_summary(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per game and policy over its seats: games, reviewed decisions, the mean loss a decision (over every reviewed
    decision, with its standard error over games), the mean accuracy over games, mistakes and blunders a game."""
    grouped: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows:
        grouped.setdefault((row["game"], row["policy"]), []).append(row)
    out = []
    for (game, policy), seats in grouped.items():
        reviewed = sum(seat["reviewed"] for seat in seats)
        per_game = [seat["mean_loss"] for seat in seats if seat["reviewed"]]
        accuracies = [seat["accuracy"] for seat in seats if seat["accuracy"] is not None]
        out.append(
            {
                "game": game,
                "policy": policy,
                "seats": len(seats),
                "reviewed_decisions": reviewed,
                "mean_loss_per_decision": sum(seat["total_loss"] for seat in seats) / reviewed if reviewed else None,
                "mean_loss_standard_error": (
                    statistics.stdev(per_game) / math.sqrt(len(per_game)) if len(per_game) > 1 else None
                ),
                "mean_accuracy": statistics.fmean(accuracies) if accuracies else None,
                "mistakes_per_game": statistics.fmean(seat["mistakes"] for seat in seats),
                "blunders_per_game": statistics.fmean(seat["blunders"] for seat in seats),
                "complete_reviews": sum(bool(seat["complete"]) for seat in seats),
            }
        )
    return out
