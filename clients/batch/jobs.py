"""The three jobs (book, sweep, tournament): their tasks, and their output files written from the store.

Outputs are built from the store in the job's own task order, never in completion order, and hold no timings,
so one command with the same seeds writes byte-identical files however the tasks were scheduled or resumed.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from campsolver.clients.batch import book, sweeps
from campsolver.clients.batch.engine import Task
from campsolver.clients.batch.policies import NAMED_ONLY, POLICY_SETS
from campsolver.clients.batch.service_calls import NotImplementedGames, check_games
from campsolver.clients.batch.store import Row
from campsolver.clients.batch.svg import interval_chart
from campsolver.clients.batch.tournament import (
    REVIEW_FIELDS,
    head_to_head,
    policy_scores,
    review_rows,
    review_summary,
    tournament_tasks,
)
from campsolver.service.registry import GAME_TABLE

JOBS = ("book", "sweep", "tournament")
#: The RPC each job needs from a game's service.
JOB_COMMAND = {"book": "puzzle", "sweep": "max", "tournament": "hint"}


@dataclass(frozen=True)
class JobConfig:
    job: str
    games: tuple[str, ...] = tuple(GAME_TABLE)
    seed: int = 1
    # book
    count: int = 3
    grades: tuple[str, ...] = book.DEFAULT_GRADES
    title: str = "Campsolver puzzle book"
    # sweep
    sweep: sweeps.SweepOptions = field(default_factory=sweeps.SweepOptions)
    # tournament
    matches: int = 100
    policies: tuple[str, ...] = ()
    #: Review every game with this many CPU seconds a decision (None: no reviews).
    review_cpu: float | None = None


def default_games(job: str) -> tuple[str, ...]:
    """The games a job runs when `--games` is not given: every game it has an entry for, in the table's order."""
    if job == "sweep":
        return tuple(name for name in GAME_TABLE if name in sweeps.SWEEPS)
    if job == "tournament":
        return tuple(name for name in GAME_TABLE if name in POLICY_SETS)
    return tuple(GAME_TABLE)


def build_tasks(config: JobConfig) -> list[Task]:
    """Every task of the job in output order; refuses games the job cannot serve, naming each one."""
    games = list(config.games)
    check_games(games, JOB_COMMAND[config.job], config.job)
    if config.job == "book":
        return book.book_tasks(games, config.grades, config.count, config.seed)
    if config.job == "sweep":
        missing = [game for game in games if game not in sweeps.SWEEPS]
        if missing:
            raise NotImplementedGames(
                f"batch sweep: no sweep is defined for {', '.join(missing)} yet (defined: {', '.join(sweeps.SWEEPS)})"
            )
        return [task for game in games for task in sweeps.SWEEPS[game].tasks(config.sweep)]
    missing = [game for game in games if game not in POLICY_SETS]
    if missing:
        raise NotImplementedGames(
            f"batch tournament: no policies are registered for {', '.join(missing)} yet "
            f"(registered: {', '.join(POLICY_SETS)})"
        )
    tasks = []
    for game in games:
        spec = POLICY_SETS[game]
        tasks += tournament_tasks(spec, _policies_for(config, game), config.matches, review_cpu=config.review_cpu)
    return tasks


def _policies_for(config: JobConfig, game: str) -> tuple[str, ...]:
    available = POLICY_SETS[game].policies
    if not config.policies:
        return tuple(name for name in available if name not in NAMED_ONLY)
    chosen = tuple(name for name in config.policies if name in available)
    if len(chosen) < 2:
        raise NotImplementedGames(f"--policies: {game} needs two of {', '.join(available)}")
    return chosen


def check_policies(config: JobConfig) -> None:
    """Every named policy must exist for at least one of the games."""
    known = {name for game in config.games if game in POLICY_SETS for name in POLICY_SETS[game].policies}
    unknown = [name for name in config.policies if name not in known]
    if unknown:
        raise NotImplementedGames(f"--policies: unknown {', '.join(unknown)}; choose from {', '.join(sorted(known))}")


# --- outputs ------------------------------------------------------------------------------------------------


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list | dict):
        return json.dumps(value, sort_keys=True)
    return str(value)


def write_csv(path: Path, columns: list[str], rows: list[dict[str, Any]]) -> Path:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row.get(column)) for column in columns])
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return path


def write_parquet(path: Path, columns: list[str], rows: list[dict[str, Any]]) -> Path:
    """The CSV's table as Parquet with typed columns (ints stay ints, a missing value is null).

    A column's type comes from its values: bool, int, float (ints mixed with floats become float) or string;
    lists and dicts are stored as their JSON text, as in the CSV. pyarrow writes no timestamp, so the same rows
    give the same bytes.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    arrays = {}
    for column in columns:
        values = [row.get(column) for row in rows]
        values = [json.dumps(v, sort_keys=True) if isinstance(v, list | dict) else v for v in values]
        arrays[column] = pa.array(values, type=_arrow_type(column, values))
    pq.write_table(pa.table(arrays), path, compression="zstd")
    return path


def _arrow_type(column: str, values: list[Any]) -> Any:
    import pyarrow as pa

    kinds = {type(value) for value in values if value is not None}
    if not kinds or kinds == {str}:
        return pa.string()
    if kinds == {bool}:
        return pa.bool_()
    if kinds == {int}:
        return pa.int64()
    if kinds <= {int, float}:
        return pa.float64()
    raise TypeError(f"column {column!r} mixes {', '.join(sorted(kind.__name__ for kind in kinds))}")


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row, sort_keys=True) + "\n" for row in rows), encoding="utf-8")
    return path


def write_json(path: Path, payload: Any) -> Path:
    path.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path


def table_rows(tasks: list[Task], stored: dict[str, Row]) -> list[dict[str, Any]]:
    """One flat row per finished task in task order: game, kind, parameters, status, results, error."""
    rows = []
    for task in tasks:
        row = stored.get(task.key)
        if row is None:
            continue
        flat: dict[str, Any] = {"game": task.game, "kind": task.kind, **task.params, "status": row.status}
        flat.update(row.result or {})
        flat["error"] = row.error
        flat["time_limit_s"] = row.time_limit_s
        rows.append(flat)
    return rows


def write_outputs(config: JobConfig, tasks: list[Task], stored: dict[str, Row], out: Path) -> list[Path]:
    if config.job == "book":
        return _write_book(config, tasks, stored, out)
    if config.job == "sweep":
        return _write_sweep(config, tasks, stored, out)
    return _write_tournament(config, tasks, stored, out)


def _write_book(config: JobConfig, tasks: list[Task], stored: dict[str, Row], out: Path) -> list[Path]:
    entries = []
    for task in tasks:
        row = stored.get(task.key)
        if row is not None:
            entries.append((task, row.result if row.status == "ok" else None, row.error))
    html = book.render(config.title, entries)
    paths = [out / "book.html"]
    paths[0].write_text(html, encoding="utf-8")
    records = [
        {
            "game": task.game,
            **task.params,
            "status": "ok" if result else "failed",
            "error": error,
            **{k: v for k, v in (result or {}).items() if k not in ("svg", "solution_svg")},
        }
        for task, result, error in entries
    ]
    paths.append(write_jsonl(out / "puzzles.jsonl", records))
    return paths


def _write_sweep(config: JobConfig, tasks: list[Task], stored: dict[str, Row], out: Path) -> list[Path]:
    rows = table_rows(tasks, stored)
    paths = [write_jsonl(out / "sweep.jsonl", rows)]
    summary = {}
    plot_dir = out / "plots"
    for game in config.games:
        spec = sweeps.SWEEPS[game]
        game_rows = [row for row in rows if row["game"] == game]
        columns = ["game", "kind", "status", *spec.columns, "error"]
        paths.append(write_csv(out / f"sweep-{game}-{spec.name}.csv", columns, game_rows))
        paths.append(write_parquet(out / f"sweep-{game}-{spec.name}.parquet", columns, game_rows))
        summary[f"{game}/{spec.name}"] = spec.summary(game_rows)
        for name, picture in spec.plots(game_rows).items():
            plot_dir.mkdir(exist_ok=True)
            path = plot_dir / name
            path.write_text(picture, encoding="utf-8")
            paths.append(path)
    paths.append(write_json(out / "sweep-summary.json", summary))
    return paths


def _write_tournament(config: JobConfig, tasks: list[Task], stored: dict[str, Row], out: Path) -> list[Path]:
    rows = table_rows(tasks, stored)
    for row in rows:
        row["players"] = " vs ".join(row["policies"])
    reviews = write_reviews(out, rows)  # takes each game's record and review out of its row
    paths = [write_jsonl(out / "games.jsonl", rows)]
    paths.append(write_csv(out / "games.csv", ["game", "players", "seed", "status", "scores", "winner", "error"], rows))
    pairs: list[dict[str, Any]] = []
    scores: list[dict[str, Any]] = []
    descriptions = {}
    for game in config.games:
        spec = POLICY_SETS[game]
        policies = _policies_for(config, game)
        game_rows = [row for row in rows if row["game"] == game]
        pairs += head_to_head(spec, policies, game_rows)
        scores += policy_scores(spec, policies, game_rows)
        descriptions[game] = spec.description
    paths.append(
        write_csv(
            out / "tournament.csv",
            ["game", "policy", "opponent", "games", "wins", "ties", "losses", "win_rate", "ci95_low", "ci95_high"],
            pairs,
        )
    )
    paths.append(
        write_json(
            out / "tournament.json",
            {
                "head_to_head": pairs,
                "scores": scores,
                "rules": descriptions,
                "interval": "95% Wilson score interval; a tie counts as half a win",
            },
        )
    )
    chart_rows = [
        (f"{p['game']}: {p['policy']} v {p['opponent']}", p["win_rate"], p["ci95_low"], p["ci95_high"])
        for p in pairs
        if p["games"] and p["policy"] < p["opponent"]
    ]
    if chart_rows:
        path = out / "tournament.svg"
        path.write_text(
            interval_chart("Head-to-head win rates (95% Wilson)", "win rate of the first policy", chart_rows),
            encoding="utf-8",
        )
        paths.append(path)
    return paths + reviews


def write_reviews(out: Path, rows: list[dict[str, Any]]) -> list[Path]:
    """Each reviewed game's record and review beside each other under reviews/GAME/ (`SEED-SEATS.record.json`,
    `SEED-SEATS.review.json`), `reviews.csv` (a row per game and seat) and `review-summary.json` (per game and
    policy); the record and review are taken out of the rows (games.jsonl keeps the totals)."""
    paths: list[Path] = []
    for row in rows:
        record, review = row.pop("record", None), row.pop("review", None)
        if record is None or review is None:
            continue
        folder = out / "reviews" / row["game"]
        folder.mkdir(parents=True, exist_ok=True)
        stem = f"{row['seed']}-{'-'.join(row['policies'])}"
        paths.append(
            write_json(
                folder / f"{stem}.record.json",
                {"game": row["game"], "seed": row["seed"], "policies": row["policies"], **record},
            )
        )
        paths.append(write_json(folder / f"{stem}.review.json", review))
    seats = review_rows(rows)
    if not seats:
        return paths
    columns = ["game", "seed", "players", "seat", "policy", "complete", *REVIEW_FIELDS]
    paths.append(write_csv(out / "reviews.csv", columns, seats))
    paths.append(
        write_json(
            out / "review-summary.json",
            {
                "by_policy": review_summary(seats),
                "about": (
                    "each game reviewed by the games' Review engine: every decision ranked by the game's hint "
                    "within the given CPU seconds, loss = best value - played value in the hint's unit, accuracy = "
                    "percentage of reviewed decisions below the inaccuracy threshold (docs/review.md)"
                ),
            },
        )
    )
    for row in rows:
        row.pop("review_seats", None)
    return paths
