"""`campsolver batch JOB [options] --out DIR`: parse, build the tasks, run them, write the outputs.

Exit codes follow the main CLI: 0 done, 1 some task failed or the engine could not start, 2 bad input
(one line on stderr), 130 interrupted (the store keeps everything finished; rerun the same command).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from campsolver.clients.batch import book, sweeps
from campsolver.clients.batch.engine import DEFAULT_RETRIES, InProcess, RayBackend, run_tasks
from campsolver.clients.batch.jobs import JOBS, JobConfig, build_tasks, check_policies, default_games, write_outputs
from campsolver.clients.batch.progress import Progress, format_duration
from campsolver.clients.batch.service_calls import NotImplementedGames
from campsolver.clients.batch.store import STORE_NAME, Store, StoreMismatch
from campsolver.clients.batch.tournament import DEFAULT_REVIEW_CPU_S
from campsolver.clients.helpformat import DefaultsFormatter  # every default shown, as in the other commands' help
from campsolver.service.dispatch import MAX_TIME_LIMIT_S
from campsolver.service.games.review import MAX_DECISION_CPU_S
from campsolver.service.registry import GAME_TABLE
from campsolver.solver.deluxe_camping.rules import MAX_PLAYERS, MIN_PLAYERS

DEFAULT_TIME_LIMIT_S = 60.0


class BatchError(Exception):
    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise BatchError(f"usage: {message}")


def _names(option: str, allowed: Sequence[str] | None = None):  # type: ignore[no-untyped-def]
    def parse(text: str) -> tuple[str, ...]:
        names = tuple(dict.fromkeys(name.strip() for name in text.split(",") if name.strip()))
        if not names:
            raise argparse.ArgumentTypeError("empty list")
        if allowed is not None:
            unknown = [name for name in names if name not in allowed]
            if unknown:
                raise argparse.ArgumentTypeError(f"unknown {', '.join(unknown)}; choose from {', '.join(allowed)}")
        return names

    parse.__name__ = option
    return parse


def _ints(text: str) -> tuple[int, ...]:
    try:
        values = tuple(int(value) for value in text.split(",") if value.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of integers: {text!r}") from None
    if not values or min(values) < 0:
        raise argparse.ArgumentTypeError(f"need non-negative integers: {text!r}")
    return values


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="campsolver batch",
        description="Puzzle books, maxima sweeps and tournaments on Ray.",
        formatter_class=DefaultsFormatter,
    )
    parser.add_argument("job", choices=JOBS)
    parser.add_argument(
        "--out",
        required=True,
        help="output directory (holds the resumable store batch.sqlite); "
        "an existing directory must be empty or one a batch wrote, unless --force",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="write into a non-empty --out directory that no batch wrote (same-named files are overwritten)",
    )
    parser.add_argument(
        "--games",
        type=_names("games", list(GAME_TABLE)),
        help="comma-separated games (default: every game the job has an entry for: all five for a "
        "book, the games with a sweep or with tournament policies)",
    )
    parser.add_argument("--seed", type=int, default=1, help="base seed (book: puzzle seeds start here)")
    parser.add_argument(
        "--time-limit", type=float, default=DEFAULT_TIME_LIMIT_S, help="seconds each task may run (its own budget)"
    )
    parser.add_argument("--address", help="join an existing Ray cluster (HOST:PORT or 'auto') instead of a local one")
    parser.add_argument("--workers", type=int, help="CPUs of the local Ray instance (default: all cores)")
    parser.add_argument("--in-process", action="store_true", help="no Ray: run the tasks one by one here")
    parser.add_argument("--retries", type=int, default=DEFAULT_RETRIES, help="Ray retries after a worker failure")
    parser.add_argument("--retry-failed", action="store_true", help="run failed tasks of the store again")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    group = parser.add_argument_group("book")
    group.add_argument("--count", type=int, default=3, help="puzzles per game and grade (default 3)")
    group.add_argument(
        "--grades",
        type=_names("grades", book.GRADES),
        default=book.DEFAULT_GRADES,
        help=f"comma-separated grades, of {', '.join(book.GRADES)}",
    )
    group.add_argument("--title", default="Campsolver puzzle book", help="the book's title")
    group = parser.add_argument_group("sweep")
    group.add_argument(
        "--seeds",
        type=int,
        default=20,
        help="Happy Campers: roll sequences per card; Deluxe Camping: setups per player count",
    )
    group.add_argument("--rolls", type=int, default=10, help="Happy Campers: rolls per sequence")
    group.add_argument(
        "--cards",
        type=_names("cards", sweeps.happy_campers_cards()),
        help="Happy Campers: cards (none = no card; default: every one-map card and none)",
    )
    group.add_argument("--plates", type=_ints, default=sweeps.SweepOptions.plates, help="Camper Tour: route lengths")
    group.add_argument("--tokens", type=_ints, default=sweeps.SweepOptions.tokens, help="Camper Tour: tokens")
    group.add_argument(
        "--specials",
        type=_ints,
        default=sweeps.SweepOptions.specials,
        help="Camper Tour: plates of each special kind in the stack (default 0: exact values)",
    )
    group.add_argument(
        "--players",
        type=_ints,
        default=sweeps.SweepOptions.players,
        help="Deluxe Camping: player counts (default 2,3,4)",
    )
    group = parser.add_argument_group("tournament")
    group.add_argument("--matches", type=int, default=100, help="games per pair of policies (seats rotated)")
    group.add_argument("--policies", type=_names("policies"), default=(), help="policies to play (default: all)")
    group.add_argument(
        "--review",
        action="store_true",
        help="review every game after it is played (the games' Review engine, within the task's "
        "--time-limit): a record and a review file per game under reviews/, reviews.csv and "
        "review-summary.json",
    )
    group.add_argument(
        "--review-cpu",
        type=float,
        default=DEFAULT_REVIEW_CPU_S,
        help="with --review: CPU seconds each decision's ranking may use",
    )
    return parser


def config_from(args: argparse.Namespace) -> JobConfig:
    for option, value, low in (
        ("--count", args.count, 1),
        ("--seeds", args.seeds, 1),
        ("--rolls", args.rolls, 1),
        ("--matches", args.matches, 1),
        ("--retries", args.retries, 0),
    ):
        if value < low:
            raise BatchError(f"{option}: must be at least {low}, got {value}")
    if args.seed < 0:
        raise BatchError(f"--seed: must be non-negative, got {args.seed}")
    if not 0 < args.time_limit <= MAX_TIME_LIMIT_S:
        raise BatchError(f"--time-limit: must be in (0, {MAX_TIME_LIMIT_S:g}] seconds, got {args.time_limit:g}")
    if args.workers is not None and args.workers < 1:
        raise BatchError(f"--workers: must be at least 1, got {args.workers}")
    if min(args.plates) < 1 or min(args.tokens) < 1:
        raise BatchError("--plates/--tokens: must be at least 1")
    if not MIN_PLAYERS <= min(args.players) <= max(args.players) <= MAX_PLAYERS:
        raise BatchError(f"--players: Deluxe Camping seats {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if not 0 < args.review_cpu <= MAX_DECISION_CPU_S:
        raise BatchError(f"--review-cpu: must be in (0, {MAX_DECISION_CPU_S:g}] CPU seconds, got {args.review_cpu:g}")
    options = sweeps.SweepOptions(
        seeds=args.seeds,
        rolls=args.rolls,
        cards=args.cards or (),
        plates=args.plates,
        tokens=args.tokens,
        specials=args.specials,
        players=args.players,
    )
    return JobConfig(
        job=args.job,
        games=args.games or default_games(args.job),
        seed=args.seed,
        count=args.count,
        grades=args.grades,
        title=args.title,
        sweep=options,
        matches=args.matches,
        policies=args.policies,
        review_cpu=args.review_cpu if args.review else None,
    )


def check_out_directory(out: Path, force: bool) -> None:
    """Refuse to write into a directory that holds other files and no batch store (its same-named files would be
    overwritten silently); an empty one, a new one or one a batch wrote (resume) is fine."""
    if not out.exists():
        return
    if not out.is_dir():
        raise BatchError(f"--out: {out} exists and is not a directory")
    if force or (out / STORE_NAME).exists() or not any(out.iterdir()):
        return
    raise BatchError(
        f"--out: {out} is not empty and no batch wrote it (no {STORE_NAME}); choose a new directory "
        "or pass --force to overwrite its same-named files"
    )


def check_parquet_writer() -> None:
    """A sweep writes Parquet tables: without pyarrow, say which extra to install before any task runs."""
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise BatchError(
            "batch sweep writes Parquet tables with pyarrow, which is not installed: pip install 'campsolver[batch]'", 1
        ) from None


def run(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(argv)
    config = config_from(args)
    try:
        if config.policies:
            check_policies(config)
        tasks = build_tasks(config)
    except NotImplementedGames as error:
        raise BatchError(str(error)) from None
    out = Path(args.out)
    check_out_directory(out, args.force)
    if config.job == "sweep":
        check_parquet_writer()
    try:
        store = Store(out)
    except Exception as error:
        raise BatchError(f"--out: cannot open a store in {out}: {error}") from None
    with store:
        first_limit = store.setting("time_limit_s")
        raised = args.retry_failed and first_limit is not None and args.time_limit > first_limit
        try:
            # A retry may raise the time limit for the failed tasks (each row records its own); anything else that
            # changes results must match the store.
            store.bind({"job": config.job, "time_limit_s": first_limit if raised else args.time_limit})
        except StoreMismatch as error:
            hint = (
                "; to run the failed tasks again with more time, add --retry-failed"
                if first_limit is not None and args.time_limit > first_limit
                else ""
            )
            raise BatchError(f"--out: {error}{hint}") from None
        if args.retry_failed:
            store.forget_failed()
        backend: InProcess | RayBackend
        done = store.done_keys()
        if args.in_process or all(task.key in done for task in tasks):  # nothing to run: no Ray start-up
            backend = InProcess()
        else:
            try:
                backend = RayBackend(address=args.address, workers=args.workers)
            except ImportError:
                raise BatchError(
                    "ray is not installed: pip install 'campsolver[batch]' (or pass --in-process)", 1
                ) from None
            except Exception as error:
                message = " ".join(str(error).split())[:300]
                raise BatchError(f"--address: cannot start or join Ray: {message}", 1) from None
        progress = Progress(f"batch {config.job}", enabled=not args.no_progress)
        try:
            report = run_tasks(
                tasks, store, backend, time_limit_s=args.time_limit, retries=args.retries, progress=progress
            )
        except KeyboardInterrupt:
            print(
                f"\nbatch {config.job}: interrupted; {store.count()} tasks are in {store.path}; rerun the same "
                "command to resume",
                file=sys.stderr,
            )
            return 130
        finally:
            backend.close()
        started = time.monotonic()
        paths = write_outputs(config, tasks, store.rows(), out)
        write_s = time.monotonic() - started
    rate = report.ran / report.wall_s if report.wall_s > 0 else 0.0
    shown = ", ".join(str(path) for path in paths[:4]) + (f" (+{len(paths) - 4} more)" if len(paths) > 4 else "")
    print(
        f"batch {config.job}: {report.total} tasks: {report.ran} run, {report.resumed} resumed, "
        f"{report.failed} failed; {format_duration(report.wall_s)} ({rate:.2f} task/s) on {report.backend}, "
        f"start-up {report.startup_s:.1f} s + worker warm-up {report.warmup_s:.1f} s, outputs {write_s:.1f} s; "
        f"wrote {shown}"
    )
    failed = sum(row.status == "failed" for key, row in store_rows_of(out, tasks).items())
    if failed:
        print(
            f"batch {config.job}: {failed} task(s) failed (see the error column); --retry-failed runs them again",
            file=sys.stderr,
        )
        return 1
    return 0


def store_rows_of(out: Path, tasks: list) -> dict:  # type: ignore[type-arg]
    keys = {task.key for task in tasks}
    with Store(out) as store:
        return {key: row for key, row in store.rows().items() if key in keys}


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return run(sys.argv[1:] if argv is None else argv)
    except BatchError as error:
        print(f"campsolver batch: {error}", file=sys.stderr)
        return error.exit_code
