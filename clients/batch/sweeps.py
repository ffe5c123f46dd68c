"""Sweeps: maxima over seeded inputs, one registry entry per (game, sweep). A new game adds a `Sweep` here.

- happy-campers-clairvoyant: the clairvoyant maximum (CP-SAT, with its proof status) of M seeded roll
  sequences per challenge card: the "par" of a card. Every card sees the same M sequences (common random
  numbers), so cards compare on equal luck.
- camper-tour-solo: the solo expected score of the optimal policy over a grid of route lengths (plates) and
  starting tokens (MaxScore, exact by dynamic programming when the layout is all normal).
- deluxe-camping-securable: the securable score (MaxScore, CP-SAT) of the player to move on seeded setups
  (pieces placed at random, the reveal drawn at random) for each player count: the best final partition the
  barriers left in the supply can close, with its proof status.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from campsolver.clients.batch import svg
from campsolver.clients.batch.engine import Task
from campsolver.clients.batch.service_calls import call, proof_name
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.cpsat import DEFAULT_WORKERS as CPSAT_SEARCH_WORKERS
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers.rules import Challenge


@dataclass(frozen=True)
class SweepOptions:
    seeds: int = 20
    rolls: int = 10
    cards: tuple[str, ...] = ()
    plates: tuple[int, ...] = (12, 24, 36, 48, 60, 72)
    tokens: tuple[int, ...] = (5, 10, 15, 20, 25)
    specials: tuple[int, ...] = (0,)
    players: tuple[int, ...] = (2, 3, 4)


@dataclass(frozen=True)
class Sweep:
    name: str
    game: str
    tasks: Callable[[SweepOptions], list[Task]]
    #: Table columns after `sweep, game, status`: parameters first, then results.
    columns: tuple[str, ...]
    plots: Callable[[list[dict[str, Any]]], dict[str, str]]
    summary: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]


# --- Happy Campers clairvoyant maxima per challenge card -------------------------------------------------


def happy_campers_cards() -> tuple[str, ...]:
    """CLI names of the challenge cards (`none` = no card), in the proto's order."""
    from campsolver.v1 import happy_campers_pb2

    numbers = sorted(happy_campers_pb2.Challenge.values())
    names = [
        happy_campers_pb2.Challenge.Name(number).removeprefix("CHALLENGE_").lower().replace("_", "-")
        for number in numbers
        if number != happy_campers_pb2.CHALLENGE_UNSPECIFIED
    ]
    return ("none", *names)


#: Cards a clairvoyant one-map sweep runs by default: every card scored on one map (Festival compares maps).
DEFAULT_CARDS = tuple(card for card in happy_campers_cards() if card != "festival")


def sweep_rolls(seed: int, count: int) -> list[tuple[int, int]]:
    dice = rng_for(seed, "batch-sweep-happy-campers-rolls").integers(1, 7, size=(count, 2))
    return [(int(a), int(b)) for a, b in dice]


def happy_campers_clairvoyant(params: dict[str, Any], budget: Budget) -> dict[str, Any]:
    card = params["card"]
    request: dict[str, Any] = {
        "rolls": [{"first": a, "second": b} for a, b in sweep_rolls(int(params["seed"]), int(params["rolls"]))],
        "challenges": [] if card == "none" else ["CHALLENGE_" + card.upper().replace("-", "_")],
        "mode": "MAX_MODE_CLAIRVOYANT",
    }
    response = call("happy-campers", "max", request, budget)
    # The service names a card's score detail by its one display name (`Challenge.display_name`).
    detail_name = "challenge " + Challenge[card.upper().replace("-", "_")].display_name if card != "none" else None
    card_points = [detail.points for detail in response.breakdown.details if detail.name == detail_name]
    return {
        "score": int(response.score),
        "proof": proof_name(response.proof),
        "bound": float(response.stats.bound) if response.stats.HasField("bound") else None,
        "rolls_used": int(response.rolls_used),
        "card_points": float(card_points[0]) if card_points else None,
    }


def _happy_campers_tasks(options: SweepOptions) -> list[Task]:
    cards = options.cards or DEFAULT_CARDS
    return [
        Task(
            "sweep",
            "happy-campers",
            "clairvoyant",
            {"card": card, "seed": seed, "rolls": options.rolls},
            happy_campers_clairvoyant,
            cpus=CPSAT_SEARCH_WORKERS,
        )
        for card in cards
        for seed in range(options.seeds)
    ]


def _quartiles(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return values[0], values[0]
    q = statistics.quantiles(values, n=4, method="inclusive")
    return q[0], q[2]


def _happy_campers_summary(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    summary = []
    for card in dict.fromkeys(row["card"] for row in rows):
        ok = [row for row in rows if row["card"] == card and row["status"] == "ok"]
        scores = [float(row["score"]) for row in ok]
        if not scores:
            continue
        low, high = _quartiles(scores)
        summary.append(
            {
                "card": card,
                "rows": len(ok),
                "failed": sum(r["card"] == card for r in rows) - len(ok),
                "proven_optimal": sum(row["proof"] in ("OPTIMAL", "EXACT") for row in ok),
                "mean": statistics.fmean(scores),
                "min": min(scores),
                "q1": low,
                "median": statistics.median(scores),
                "q3": high,
                "max": max(scores),
                "standard_error": statistics.stdev(scores) / len(scores) ** 0.5 if len(scores) > 1 else None,
            }
        )
    return summary


def _happy_campers_plots(rows: list[dict[str, Any]]) -> dict[str, str]:
    summary = _happy_campers_summary(rows)
    if not summary:
        return {}
    rolls = rows[0]["rolls"]
    chart = svg.range_chart(
        f"Happy Campers clairvoyant maxima per card ({rolls} rolls, {max(s['rows'] for s in summary)} seeds)",
        "final score (best found; see proof column)",
        [(s["card"], s["min"], s["q1"], s["q3"], s["max"], s["mean"]) for s in summary],
    )
    return {"sweep-happy-campers-clairvoyant.svg": chart}


# --- Camper Tour solo values over plates x tokens ---------------------------------------------------------


def camper_tour_solo(params: dict[str, Any], budget: Budget) -> dict[str, Any]:
    specials = int(params["specials"])
    rules = {
        "plates": int(params["plates"]),
        "tokens": int(params["tokens"]),
        "unexpected_comforts": specials,
        "mechanical_problem": specials,
        "village_festival": specials,
        "no_parking": specials,
    }
    response = call("camper-tour", "max", {"rules": rules}, budget)
    return {
        "expected_score": float(response.expected_score),
        "proof": proof_name(response.proof),
        "standard_error": response.standard_error if response.HasField("standard_error") else None,
    }


def _camper_tour_tasks(options: SweepOptions) -> list[Task]:
    return [
        Task(
            "sweep", "camper-tour", "solo", {"plates": plates, "tokens": tokens, "specials": specials}, camper_tour_solo
        )
        for specials in options.specials
        for plates in options.plates
        for tokens in options.tokens
    ]


def _camper_tour_summary(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {key: row.get(key) for key in ("plates", "tokens", "specials", "expected_score", "proof")}
        for row in rows
        if row["status"] == "ok"
    ]


def _camper_tour_plots(rows: list[dict[str, Any]]) -> dict[str, str]:
    plots = {}
    for specials in dict.fromkeys(row["specials"] for row in rows):
        series: dict[str, list[tuple[float, float]]] = {}
        for row in rows:
            if row["status"] == "ok" and row["specials"] == specials:
                series.setdefault(f"{row['tokens']} tokens", []).append((row["plates"], row["expected_score"]))
        if series:
            plots[f"sweep-camper-tour-solo-specials-{specials}.svg"] = svg.line_chart(
                f"Camper Tour solo expected score ({specials} of each special plate)",
                "plates on the route",
                "expected final score (optimal policy)",
                series,
            )
    return plots


# --- Deluxe Camping securable scores over seeded setups ---------------------------------------------------


def deluxe_camping_setup(players: int, seed: int) -> Any:
    """The seeded position a sweep row starts from: setup and reveal played at random (a `DCState`)."""
    from campsolver.solver.deluxe_camping.rules import Config, random_setup

    return random_setup(Config(players=players), rng_for(seed, "batch-sweep-deluxe-camping-setup"))


def deluxe_camping_securable(params: dict[str, Any], budget: Budget) -> dict[str, Any]:
    from campsolver.clients.batch.service_calls import to_dict
    from campsolver.service.games.deluxe_camping import state_to_proto

    state = deluxe_camping_setup(int(params["players"]), int(params["seed"]))
    response = call("deluxe-camping", "max", {"state": to_dict(state_to_proto(state))}, budget)
    return {
        "player": int(state.to_move),
        "value": int(response.value) if response.scores else None,
        "proof": proof_name(response.proof),
        "bound": float(response.stats.bound) if response.stats.HasField("bound") else None,
        "scores": [int(score) for score in response.scores],
        "barriers": [[[b.a.row, b.a.col], [b.b.row, b.b.col]] for b in response.barriers],
    }


def _deluxe_camping_tasks(options: SweepOptions) -> list[Task]:
    return [
        Task(
            "sweep",
            "deluxe-camping",
            "securable",
            {"players": players, "seed": seed},
            deluxe_camping_securable,
            cpus=CPSAT_SEARCH_WORKERS,
        )
        for players in options.players
        for seed in range(options.seeds)
    ]


def _deluxe_camping_summary(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    summary = []
    for players in dict.fromkeys(row["players"] for row in rows):
        ok = [row for row in rows if row["players"] == players and row["status"] == "ok" and row["value"] is not None]
        values = [float(row["value"]) for row in ok]
        if not values:
            continue
        low, high = _quartiles(values)
        summary.append(
            {
                "players": players,
                "rows": len(ok),
                "proven_optimal": sum(row["proof"] == "OPTIMAL" for row in ok),
                "mean": statistics.fmean(values),
                "min": min(values),
                "q1": low,
                "median": statistics.median(values),
                "q3": high,
                "max": max(values),
            }
        )
    return summary


def _deluxe_camping_plots(rows: list[dict[str, Any]]) -> dict[str, str]:
    summary = _deluxe_camping_summary(rows)
    if not summary:
        return {}
    chart = svg.range_chart(
        f"Deluxe Camping securable score of the player to move ({max(s['rows'] for s in summary)} setups)",
        "securable final score (best found; see proof column)",
        [(f"{s['players']} players", s["min"], s["q1"], s["q3"], s["max"], s["mean"]) for s in summary],
    )
    return {"sweep-deluxe-camping-securable.svg": chart}


SWEEPS: dict[str, Sweep] = {
    "happy-campers": Sweep(
        name="clairvoyant",
        game="happy-campers",
        tasks=_happy_campers_tasks,
        columns=("card", "seed", "rolls", "score", "proof", "bound", "rolls_used", "card_points"),
        plots=_happy_campers_plots,
        summary=_happy_campers_summary,
    ),
    "camper-tour": Sweep(
        name="solo",
        game="camper-tour",
        tasks=_camper_tour_tasks,
        columns=("plates", "tokens", "specials", "expected_score", "proof", "standard_error"),
        plots=_camper_tour_plots,
        summary=_camper_tour_summary,
    ),
    "deluxe-camping": Sweep(
        name="securable",
        game="deluxe-camping",
        tasks=_deluxe_camping_tasks,
        columns=("players", "seed", "player", "value", "proof", "bound", "scores", "barriers"),
        plots=_deluxe_camping_plots,
        summary=_deluxe_camping_summary,
    ),
}
