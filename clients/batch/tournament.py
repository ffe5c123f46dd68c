"""Tournaments: tasks from the policy registry, head-to-head records and 95% Wilson intervals."""

from __future__ import annotations

import itertools
import math
import statistics
from dataclasses import dataclass
from typing import Any

from campsolver.clients.batch.engine import Task
from campsolver.clients.batch.policies import POLICY_SETS, PolicySet

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054


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


def tournament_tasks(spec: PolicySet, policies: tuple[str, ...], games_per_pair: int) -> list[Task]:
    """Solo games: every policy plays seeds 0..N-1. Table games: each pair plays N games, seats rotated (two
    consecutive games share a seed)."""
    if spec.seats == 1:
        return [Task("tournament", spec.game, "game", {"policies": [name], "seed": seed}, spec.play)
                for name in policies for seed in range(games_per_pair)]
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
            tasks.append(Task("tournament", spec.game, "game", {"policies": seats, "seed": game_index // 2},
                              spec.play))
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
        lines.append({"game": spec.game, "policy": name, "opponent": other, "games": record.games,
                      "wins": record.wins, "ties": record.ties, "losses": record.losses,
                      "win_rate": rate, "ci95_low": low if record.games else None,
                      "ci95_high": high if record.games else None})
    return lines


def policy_scores(spec: PolicySet, policies: tuple[str, ...], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Mean final score per policy (over every seat it played) with its standard error."""
    scores: dict[str, list[float]] = {name: [] for name in policies}
    for row in rows:
        if row["status"] == "ok":
            for name, value in zip(row["policies"], row["scores"], strict=True):
                scores[name].append(float(value))
    return [{"game": spec.game, "policy": name, "games": len(values),
             "mean_score": statistics.fmean(values) if values else None,
             "standard_error": statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else None}
            for name, values in scores.items()]


def policy_set(game: str) -> PolicySet | None:
    return POLICY_SETS.get(game)
