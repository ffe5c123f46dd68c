"""The arena's tables: a row a cell (share with its Wilson interval, scores, budgets, CPU on both sides, collapses,
a ceiling where one is known), the budget-strength curve, and CPU estimates for cells not yet played.

Ceilings: `CEILINGS[game]` may hold a function `(cell, games) -> Ceiling | None`, e.g. the exact best response's
share against a fixed opponent (Camper Tour with 2 campers); it is called for every row of that game and its
answer shown beside the hint's share. A module `bench.ceilings` defining `CEILINGS` (same shape) is read too,
when it exists, so the helper that computes a ceiling plugs it in without editing this file. A function takes
a keyword `solve`: False (`--summary`) asks it to answer only what it already knows, without a long solve.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench.arena.cells import ArenaCell
from bench.openspiel import GAMES, wilson

#: A game is a collapse when the hint scored under this fraction of its median score in the cell.
COLLAPSE_FRACTION = 0.2


@dataclass(frozen=True)
class Ceiling:
    """The best share a player could get against this cell's opponents, and how it was obtained."""

    share: float
    how: str


CeilingFn = Callable[[ArenaCell, list[dict[str, Any]]], Ceiling | None]
CEILINGS: dict[str, CeilingFn] = {}


def ceiling_functions(*, solve: bool = True) -> dict[str, CeilingFn]:
    """Every game's ceiling function; with `solve=False` each answers from what it has kept only."""
    found = dict(CEILINGS)
    with contextlib.suppress(ModuleNotFoundError):
        found = {**getattr(importlib.import_module("bench.ceilings"), "CEILINGS", {}), **found}
    return found if solve else {game: functools.partial(fn, solve=False) for game, fn in found.items()}


def _stats(values: list[float]) -> tuple[float | None, float | None]:
    return (statistics.fmean(values), statistics.median(values)) if values else (None, None)


def collapses(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Games where the hint scored under `COLLAPSE_FRACTION` of a reference score: its own median score in these
    games, or, when that median is not positive (a hint that scores nothing in most games, or Camper Tour's scores
    below zero), the opponents' median score; none when neither is positive."""
    hint_scores = [g["scores"][g["hint_seat"]] for g in games]
    if not hint_scores:
        return []
    reference = statistics.median(hint_scores)
    if reference <= 0:
        reference = statistics.median(x for g in games for p, x in enumerate(g["scores"]) if p != g["hint_seat"])
    if reference <= 0:
        return []
    return [
        {"seed": g["seed"], "hint_seat": g["hint_seat"], "hint_score": g["scores"][g["hint_seat"]]}
        for g in games
        if g["scores"][g["hint_seat"]] < COLLAPSE_FRACTION * reference
    ]


def summarise(
    cell: ArenaCell, rows: list[dict[str, Any]], ceilings: dict[str, CeilingFn] | None = None
) -> dict[str, Any]:
    """One cell's row from its JSONL lines (header first)."""
    header, games = rows[0], rows[1:]
    n = len(games)
    share = sum(g["hint_return"] for g in games)
    low, high = wilson(share, n)
    hint_cpu = [x for g in games for x in g["hint_cpu"]]
    opp_cpu = [x for g in games for cpu in g["opponent_cpu"].values() for x in cpu]
    hint_mean, hint_median = _stats(hint_cpu)
    opp_mean, opp_median = _stats(opp_cpu)
    hint_scores = [g["scores"][g["hint_seat"]] for g in games]
    by_kind: dict[str, list[float]] = {}
    for g in games:
        for p, kind in enumerate(g["seats"]):
            if p != g["hint_seat"]:
                by_kind.setdefault(kind, []).append(g["scores"][p])
    opp_scores = [x for scores in by_kind.values() for x in scores]
    cpu_by_kind: dict[str, list[float]] = {}
    for g in games:
        for p, cpu in g["opponent_cpu"].items():
            cpu_by_kind.setdefault(g["seats"][int(p)], []).extend(cpu)
    playouts = [x for g in games for seat in g.get("opponent_playouts", {}).values() for x in seat]
    factors = {o.factor for o in cell.opponents if o.kind in ("gbot", "rbot", "hint")}
    kinds = {o.kind for o in cell.opponents}
    fn = (ceilings if ceilings is not None else ceiling_functions()).get(cell.game)
    ceiling = fn(cell, games) if fn is not None and games else None
    lost = collapses(games)
    return {
        "cell": cell.text,
        "game": cell.game,
        "players": cell.players,
        "opponent": cell.opponent_text,
        "games": n,
        "hint_share": share / n if n else None,
        "wilson95_low": low,
        "wilson95_high": high,
        "fair_share": 1 / cell.players,
        "beats_fair": bool(n and low > 1 / cell.players),
        "hint_mean_score": statistics.fmean(hint_scores) if n else None,
        "opponent_mean_score": statistics.fmean(opp_scores) if opp_scores else None,
        "opponent_mean_score_by_kind": {k: statistics.fmean(v) for k, v in by_kind.items()},
        "hint_cpu_asked_s": header["hint_cpu_s"],
        "hint_budget_s": header["hint_budget_s"],
        "hint_cpu_mean_s": hint_mean,
        "hint_cpu_median_s": hint_median,
        "opponent_cpu_mean_s": opp_mean,
        "opponent_cpu_median_s": opp_median,
        "ratio_mean": opp_mean / hint_mean if opp_mean is not None and hint_mean else None,
        "ratio_median": opp_median / hint_median if opp_median is not None and hint_median else None,
        "opponent_cpu_by_kind": {
            k: dict(zip(("mean_s", "median_s"), _stats(v), strict=True)) for k, v in cpu_by_kind.items()
        },
        # The factor the opponents were given (one kind of bot or hint only), to hold the in-game ratio against.
        "factor": next(iter(factors)) if len(factors) == 1 and kinds <= {"gbot", "rbot", "hint"} else None,
        "bots": header.get("bots", {}),
        "bot_playouts_mean": statistics.fmean(playouts) if playouts else None,
        "collapses": len(lost),
        "collapse_games": lost,
        "hint_median_score": statistics.median(hint_scores) if n else None,
        "ceiling": None if ceiling is None else {"share": ceiling.share, "how": ceiling.how},
        "first_seed": header["first_seed"],
    }


def _f(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def opponent_label(row: dict[str, Any]) -> str:
    """'greedy-rollout MCTS 4x (12 sims)' etc., for the markdown table."""
    bot = "IS-MCTS" if GAMES[row["game"]].hidden else "MCTS"
    parts = []
    for name in row["opponent"].split("+"):
        if name.startswith(("gbot", "rbot")):
            sims = row["bots"].get(name, {}).get("simulations")
            rollout = "greedy-rollout" if name.startswith("g") else "random-rollout"
            parts.append(f"{rollout} {bot} {name[4:]}x ({sims} sims)")
        elif name.startswith("hint"):
            parts.append(f"hint at {name[4:]}")
        else:
            parts.append(name)
    return " + ".join(parts)


def markdown(rows: list[dict[str, Any]]) -> str:
    """The rows as the markdown table of docs/head-to-head.md; a bot or 10x-hint cell whose in-game ratio of
    means is off its factor by more than 0.8-1.25 says so ("over 4x")."""
    lines = [
        "| game | players | opponent | games | hint's share [Wilson 95%] | fair | mean score hint / opponents | "
        "hint budget (asked) CPU-s | hint CPU-s a call mean / median | opponent CPU-s a decision mean / median | "
        "opponent / hint CPU (means; medians) | collapses | ceiling | first seed |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        ceiling = "-" if r["ceiling"] is None else f"{r['ceiling']['share']:.3f}"
        ratio = "-" if r["ratio_mean"] is None else f"{r['ratio_mean']:.2f}x; {r['ratio_median']:.2f}x"
        if r["factor"] and r["ratio_mean"] is not None and not 0.8 <= r["ratio_mean"] / r["factor"] <= 1.25:
            ratio += f" ({'under' if r['ratio_mean'] < r['factor'] else 'over'} {r['factor']:g}x)"
        lines.append(
            f"| {r['game'].replace('_', ' ')} | {r['players']} | {opponent_label(r)} | {r['games']} | "
            f"{_f(r['hint_share'])} [{_f(r['wilson95_low'])}, {_f(r['wilson95_high'])}] | {r['fair_share']:.3f} | "
            f"{_f(r['hint_mean_score'], 1)} / {_f(r['opponent_mean_score'], 1)} | "
            f"{r['hint_budget_s']:g} ({r['hint_cpu_asked_s']:g}) | "
            f"{_f(r['hint_cpu_mean_s'], 4)} / {_f(r['hint_cpu_median_s'], 4)} | "
            f"{_f(r['opponent_cpu_mean_s'], 4)} / {_f(r['opponent_cpu_median_s'], 4)} | {ratio} | "
            f"{r['collapses']} of {r['games']} | {ceiling} | {r['first_seed']:,} |"
        )
    return "\n".join(lines)


def curve_markdown(rows_by_budget: dict[float, list[dict[str, Any]]]) -> str:
    """The budget-strength curve: per game and hint budget, the share against the same hint at 10x (near 0.5:
    converged) and against each other opponent of the sweep."""
    opponents: list[str] = []
    games: list[tuple[str, int]] = []
    for rows in rows_by_budget.values():
        for r in rows:
            if r["opponent"] not in opponents:
                opponents.append(r["opponent"])
            if (r["game"], r["players"]) not in games:
                games.append((r["game"], r["players"]))
    opponents.sort(key=lambda o: (not o.startswith("hint"), o))
    lines = [
        "| game | players | hint CPU-s asked (budget) | " + " | ".join(f"vs {o}" for o in opponents) + " |",
        "|---|---|---|" + "---|" * len(opponents),
    ]
    for game, players in games:
        for budget in sorted(rows_by_budget):
            found = {r["opponent"]: r for r in rows_by_budget[budget] if (r["game"], r["players"]) == (game, players)}
            if not found:
                continue
            real = next(iter(found.values()))["hint_budget_s"]
            cells = [
                (
                    f"{_f(found[o]['hint_share'])} [{_f(found[o]['wilson95_low'])}, {_f(found[o]['wilson95_high'])}]"
                    f" n={found[o]['games']}"
                )
                if o in found
                else "-"
                for o in opponents
            ]
            head = f"| {game.replace('_', ' ')} | {players} | {budget:g} ({real:g}) | "
            lines.append(head + " | ".join(cells) + " |")
    return "\n".join(lines)


def calibration_markdown(data: dict[str, Any]) -> str:
    """The calibrations of a run directory (`calibration_games.json`) as a table: the simulation count kept, the
    CPU both sides spent in its round, and whether the 2-simulation floor was reached."""
    lines = [
        "| calibration | simulations | rounds | hint CPU-s a call mean / median | bot CPU-s a decision mean / "
        "median | bot / hint (means) | of the target | floor |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for key, row in sorted(data.items()):
        lines.append(
            f"| {key} | {row['simulations']} | {len(row['rounds'])} | {row['hint_mean_s']:.4f} / "
            f"{row['hint_median_s']:.4f} | {row['bot_mean_s']:.4f} / {row['bot_median_s']:.4f} | "
            f"{row['bot_mean_s'] / row['hint_mean_s']:.2f}x | {row['ratio']:.2f} | "
            f"{'yes' if row['floor'] else 'no'} |"
        )
    return "\n".join(lines)


# --- CPU estimates ----------------------------------------------------------------------------------------------

#: Hint calls a game (the hint's seat, smallest table; the means of the arena's smoke games against the 4x
#: greedy-rollout bots, 2 games a game at seeds 7,000,000: few, so an estimate, no more).
HINT_CALLS_A_GAME = {
    "happy_campers": 13,
    "deluxe_camping": 40,
    "camper_tour": 12,
    "campsite": 21,
    "adventure_tours": 28,
}
#: One opponent seat's decisions a game (the same games); a turn of several decisions is one call for a plan seat.
DECISIONS_A_GAME = {"happy_campers": 13, "deluxe_camping": 40, "camper_tour": 10, "campsite": 42, "adventure_tours": 40}
#: CPU-s a game of one greedy seat (greedy self-play, through the rules model; Deluxe Camping and Campsite's
#: greedy ranks every move by its immediate score).
GREEDY_CPU_A_GAME = {
    "happy_campers": 0.01,
    "deluxe_camping": 0.7,
    "camper_tour": 0.01,
    "campsite": 0.4,
    "adventure_tours": 0.01,
}


def estimate_cpu(
    cell: ArenaCell,
    rows: list[dict[str, Any]],
    games: int,
    hint_cpu_s: float,
    bots: dict[str, dict[str, Any]] | None = None,
    related: list[dict[str, Any]] | None = None,
) -> dict[str, float]:
    """CPU seconds `games` games of the cell need: from the games already played when there are some (their mean
    CPU a game, both sides), else from the budgets (the hint spending its whole budget a call: an upper bound
    for hints that stop early), the bots' calibration (their mean CPU a decision; a bot not calibrated yet: its
    factor x the hint's mean measured by the game's other calibrations, `related`, and at least their 2-simulation
    floor) and the constants above."""
    played = rows[1:]
    if played:
        per_game = statistics.fmean(
            sum(g["hint_cpu"]) + sum(sum(c) for c in g["opponent_cpu"].values()) for g in played
        )
        return {"per_game_s": per_game, "total_s": per_game * games, "from": "played"}
    spec = cell.spec
    budget = spec.budget(hint_cpu_s)
    calls = HINT_CALLS_A_GAME[cell.game]
    hint = calls * budget
    opponents = 0.0
    for p in range(1, cell.players):
        opponent = cell.opponent_at(p, 0)
        if opponent.kind == "hint":
            opponents += calls * budget * opponent.factor
        elif opponent.is_bot:
            bot = (bots or {}).get(opponent.name)
            if bot is not None:
                mean = bot["bot_mean_s"]
            else:  # not calibrated yet: factor x the hint's measured mean, never under a known 2-simulation floor
                known = [row for row in (related or []) if row.get("hint_cpu_s") == hint_cpu_s]
                hint_mean = max((row["hint_mean_s"] for row in known), default=budget)
                floor = max((row["bot_mean_s"] for row in known if row.get("floor")), default=0.0)
                mean = max(opponent.factor * hint_mean, floor)
            opponents += DECISIONS_A_GAME[cell.game] * mean
        else:
            opponents += GREEDY_CPU_A_GAME[cell.game]
    per_game = hint + opponents
    return {"per_game_s": per_game, "total_s": per_game * games, "from": "budgets"}
