"""The arena: each game's hint against opponents it was not tuned on (docs/head-to-head.md).

    python -m bench.arena [--cells CELLS] [--games N] [--chunk N] [--hint-cpu S] [--workers N | --ray local|ADDR]
    python -m bench.arena --curve [--curve-cpus 0.05,0.2,1.0] [--cells CELLS]   # the budget-strength curve
    python -m bench.arena --estimate ...   # the CPU each cell needs, nothing played
    python -m bench.arena --summary ...    # the tables of what was played

Cells (`game:players:opponent[+opponent...]`, see bench.arena.cells): by default every game at its smallest
table against greedy-rollout MCTS / IS-MCTS at 4x and 16x the hint's mean CPU a call, against each outside
player, and mixed tables of outside players at 3 and 4 players. Report seeds from `REPORT_FIRST_SEED`.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
from pathlib import Path
from typing import Any

from bench.arena.bots import GreedyBotSetting
from bench.arena.cells import (
    REPORT_FIRST_SEED,
    ArenaCell,
    GameCalibrations,
    bot_settings,
    load_games,
    make_backend,
    missing,
    outside_players,
    prepare,
    run_games,
    tune_bots,
)
from bench.arena.tables import (
    calibration_markdown,
    ceiling_functions,
    curve_markdown,
    estimate_cpu,
    markdown,
    summarise,
)
from bench.common import RESULTS_DIR, print_table, write_json
from bench.openspiel import DEFAULT_HINT_CPU_S, GAMES

RUN_DIR = RESULTS_DIR / "arena"
CURVE_CPUS = (0.05, 0.2, 1.0)
#: Largest table each game allows, for the mixed tables (Camper Tour: 4 campers).
MAX_PLAYERS = {"happy_campers": 6, "deluxe_camping": 4, "camper_tour": 4, "campsite": 6, "adventure_tours": 6}


def styles(game: str) -> list[str]:
    """The outside players' styles for `game` (none while bench.opponents is missing)."""
    with contextlib.suppress(RuntimeError):
        return sorted(outside_players(game))
    return []


def default_cells() -> list[str]:
    """Smallest tables against the greedy-rollout bots at 4x and 16x and each outside player, then mixed tables of
    outside players (different styles at once): every pair of styles at 3 players, three styles at 4."""
    cells = []
    for opponent in ("gbot4", "gbot16"):
        cells += [f"{key}:{spec.smallest}:{opponent}" for key, spec in GAMES.items()]
    for key, spec in GAMES.items():
        cells += [f"{key}:{spec.smallest}:out:{style}" for style in styles(key)]
    for key in GAMES:
        found = styles(key)
        if len(found) < 2:
            continue
        # 3 players: every pair of styles; 4 players: three styles (cycling when the game has two).
        cells += [f"{key}:3:out:{a}+out:{b}" for a, b in itertools.combinations(found, 2)]
        if MAX_PLAYERS[key] >= 4:
            cells.append(f"{key}:4:" + "+".join(f"out:{s}" for s in itertools.islice(itertools.cycle(found), 3)))
    return cells


def curve_cells() -> list[str]:
    """The budget curve's cells: every game at its smallest table against the hint at 10x and each outside player."""
    cells = []
    for key, spec in GAMES.items():
        cells += [f"{key}:{spec.smallest}:hint10x"] + [f"{key}:{spec.smallest}:out:{s}" for s in styles(key)]
    return cells


def run(
    cells: list[ArenaCell],
    run_dir: Path,
    hint_cpu_s: float,
    args: argparse.Namespace,
    calibrations: GameCalibrations,
    settings: dict[str, GreedyBotSetting],
) -> list[dict[str, Any]]:
    """Estimate, then (unless --estimate / --summary) play the cells chunk by chunk; returns the summary rows.
    The bots are calibrated first (in games; `--estimate` uses a calibration only when one exists)."""
    configs: dict[str, dict[str, Any]] = {}
    total = 0.0
    for cell in cells:
        path = run_dir / f"{cell.name}.jsonl"
        setting = settings.get(cell.game, GreedyBotSetting())
        keys = {
            o.name: GameCalibrations.key(cell.game, cell.players, o, setting, hint_cpu_s)
            for o in cell.opponents
            if o.is_bot
        }
        if not (args.summary or args.estimate):
            configs[cell.text] = prepare(cell, run_dir, hint_cpu_s, args.first_seed, calibrations, settings)
        rows = load_games(path)
        todo = max(args.games - max(len(rows) - 1, 0), 0)
        bots = {name: calibrations.data[key] for name, key in keys.items() if key in calibrations.data}
        prefix = f"{cell.game}_{cell.players}p_"
        related = [row for key, row in calibrations.data.items() if key.startswith(prefix)]
        estimate = estimate_cpu(cell, rows, todo, hint_cpu_s, bots, related)
        total += estimate["total_s"]
        if not args.summary:
            print(
                f"estimate {cell.text} at {hint_cpu_s:g} CPU-s: {todo} games to play, ~{estimate['per_game_s']:.1f} "
                f"CPU-s a game ({estimate['from']}), ~{estimate['total_s'] / 3600:.2f} CPU-h",
                flush=True,
            )
    if not args.summary:
        print(f"estimate at {hint_cpu_s:g} CPU-s: ~{total / 3600:.2f} CPU-h for {len(cells)} cells", flush=True)
    if not (args.summary or args.estimate):
        backend = make_backend(args.workers, args.ray)
        try:
            target = 0
            while target < args.games:
                target = min(target + args.chunk, args.games)
                work = [
                    (configs[c.text], run_dir / f"{c.name}.jsonl", i)
                    for c in cells
                    for i in missing(run_dir / f"{c.name}.jsonl", target)
                ]
                failures = run_games(work, backend)
                if failures:
                    print(f"{failures} games failed (a rerun plays them again)", flush=True)
        finally:
            backend.close()
    # --summary, --estimate and --kept-ceilings only read: a ceiling not kept (bench/results/camper_tour_ceilings.json)
    # is left out rather than solved after the games (up to CEILING_CPU_S a player).
    ceilings = ceiling_functions(solve=not (args.summary or args.estimate or args.kept_ceilings))
    return [summarise(c, rows, ceilings) for c in cells if len(rows := load_games(run_dir / f"{c.name}.jsonl")) > 1]


def report(rows: list[dict[str, Any]], title: str, name: str) -> None:
    short = [
        {
            k: r[k]
            for k in (
                "cell",
                "games",
                "hint_share",
                "wilson95_low",
                "wilson95_high",
                "hint_cpu_mean_s",
                "hint_cpu_median_s",
                "opponent_cpu_mean_s",
                "opponent_cpu_median_s",
                "ratio_mean",
                "collapses",
            )
        }
        for r in rows
    ]
    print_table(title, short)
    print(markdown(rows))
    write_json(name, {"rows": rows})


def _cells(parser: argparse.ArgumentParser, texts: list[str]) -> list[ArenaCell]:
    """The cells named, or exit 2 with one line naming the bad one."""
    try:
        return [ArenaCell.parse(t) for t in texts if t]
    except ValueError as bad:
        parser.error(f"--cells: {bad}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--cells", default="", help="game:players:opponent[+opponent...],... (default: see above)")
    parser.add_argument("--games", type=int, default=200, help="games a cell")
    parser.add_argument("--chunk", type=int, default=20, help="games a cell per pass (every cell gets some soon)")
    parser.add_argument("--hint-cpu", type=float, default=DEFAULT_HINT_CPU_S, help="the hint's CPU seconds a call")
    parser.add_argument("--first-seed", type=int, default=REPORT_FIRST_SEED)
    parser.add_argument("--run-dir", default=str(RUN_DIR))
    parser.add_argument("--workers", type=int, default=1, help="games at once (a fork pool; with --ray, Ray's CPUs)")
    parser.add_argument("--ray", default=None, help="'local' (a Ray instance started here) or a cluster's address")
    parser.add_argument("--curve", action="store_true", help="the budget-strength curve over --curve-cpus")
    parser.add_argument("--curve-cpus", default=",".join(f"{x:g}" for x in CURVE_CPUS))
    parser.add_argument("--estimate", action="store_true", help="print the CPU each cell needs; play nothing")
    parser.add_argument("--summary", action="store_true", help="print and write the tables only")
    parser.add_argument(
        "--kept-ceilings", action="store_true", help="show only ceilings already kept; solve none after the games"
    )
    parser.add_argument("--out", default="", help="the summary's JSON name under bench/results (default: arena_<run>)")
    parser.add_argument("--calibrations", action="store_true", help="print the run directory's bot calibrations")
    parser.add_argument(
        "--tune-bots",
        default="",
        help="games whose greedy-rollout bot settings to tune first "
        "(comma list or 'all'; tuning seeds, 4x, the smallest table)",
    )
    parser.add_argument("--tune-games", type=int, default=16, help="games a setting when tuning")
    args = parser.parse_args(argv)
    run_dir = Path(args.run_dir)
    calibrations = GameCalibrations(run_dir)
    if args.calibrations:
        print(calibration_markdown(calibrations.data))
        return
    to_tune = list(GAMES) if args.tune_bots == "all" else [k for k in args.tune_bots.split(",") if k]
    if unknown := [k for k in to_tune if k not in GAMES]:
        parser.error(f"--tune-bots: unknown game {unknown[0]!r} (one of {sorted(GAMES)} or 'all')")
    if to_tune:
        backend = make_backend(args.workers, args.ray)
        try:
            for key in to_tune:
                tune_bots(GAMES[key], args.tune_games, run_dir, args.hint_cpu, calibrations, backend)
        finally:
            backend.close()
    settings = bot_settings(run_dir)
    suffix = "" if run_dir.resolve() == RUN_DIR.resolve() else f"_{run_dir.name}"
    if args.curve:
        if args.out:
            parser.error("--out: the curve writes one file a budget (arena_curve_cpu<x>); leave --out out")
        cells = _cells(parser, args.cells.split(",") if args.cells else curve_cells())
        by_budget = {}
        for cpu in (float(x) for x in args.curve_cpus.split(",")):
            rows = run(cells, run_dir / f"curve_cpu{cpu:g}", cpu, args, calibrations, settings)
            by_budget[cpu] = rows
            if rows and not args.estimate:
                report(rows, f"budget curve: hint at {cpu:g} CPU-s a call", f"arena_curve_cpu{cpu:g}{suffix}")
        if args.estimate:
            return
        print(curve_markdown(by_budget))
        write_json(f"arena_curve{suffix}", {str(k): v for k, v in by_budget.items()})
        return
    cells = _cells(parser, args.cells.split(",") if args.cells else default_cells())
    rows = run(cells, run_dir, args.hint_cpu, args, calibrations, settings)
    if rows and not args.estimate:
        title = f"hint ({args.hint_cpu:g} CPU-s a call asked) vs opponents it was not tuned on"
        report(rows, title, args.out or f"arena{suffix}")


if __name__ == "__main__":
    main()
