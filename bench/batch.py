"""Batch engine bench: tasks per second on Ray with 1 and 2 local workers against the in-process loop.

    python -m bench.batch [--quick] [--jobs hc-clairvoyant-1t,hc-hint-games,ct-solo]

The same tasks (same seeds) run on a local Ray instance with one worker, then on one with two workers, and each
time on the plain in-process loop too, right next to the Ray run (loop then Ray with one worker, Ray then loop
with two), so that both sides of a speed-up see about the same load on a shared machine; `--chunks N` pairs them
chunk by chunk instead, for a machine whose load changes fast. Each Ray instance is started once and warmed
(every worker imports campsolver) before any job runs: `ray.init` and the warm-up are timed apart and are not
part of the speed-up, which compares task throughput only.

Jobs, all with a fixed effort that does not depend on the clock (so every engine does the same work; the
results, including CP-SAT's branch and conflict counts, are compared across engines):
- `hc-clairvoyant-1t`: Happy Campers clairvoyant maxima of seeded 10-roll sequences with one CP-SAT search worker
  (deterministic), each solved to a proven optimum: ~0.5-3 s of CPU each. Solve-bound: the goal's job.
- `hc-hint-games`: Happy Campers games of the hint policy (100 rollouts a move, pure Python): solve-bound.
- `ct-solo`: Camper Tour exact solo values by dynamic programming, 10-50 ms each: overhead-bound (shows what a
  Ray task costs when the task is tiny).
Columns: wall time, tasks/s, speed-up over the in-process loop, mean task CPU seconds (in the process that ran
the task), parallelism (task CPU seconds / wall seconds: the cores the tasks really got), driver CPU per task
(what the driver spent submitting, waiting and writing the store), CPU overhead (all CPU of the driver and its
process tree, Ray's GCS, raylet, agents and workers included, over the tasks' own CPU, minus one), the
CPU-time speed-up estimate (`cpu_speedup`: what CPU time alone predicts on an idle machine, blind to other
people's load; optimistic, as it counts no waiting), and the 1-minute load average before and after the row
(the machine is shared). Ray workers run at the driver's priority (`RAY_worker_niceness=0`; Ray's
default is nice 15). Last, a paper estimate of 10,000 Happy Campers sweep tasks on a 64-core cluster from the
measured per-task cost and the measured two-worker efficiency.
"""

from __future__ import annotations

import argparse
import math
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from campsolver.clients.batch.engine import WARM_MODULES, InProcess, RayBackend, RunReport, Task, run_tasks, warm_worker
from campsolver.clients.batch.policies import play_happy_campers
from campsolver.clients.batch.store import Store
from campsolver.clients.batch.sweeps import camper_tour_solo, sweep_rolls
from campsolver.solver.core.budget import Budget

from bench.common import print_table, write_json

#: Each task's own budget: generous, so that no task stops on the clock (the effort must not depend on it).
TIME_LIMIT_S = 120.0
#: Rolls per Happy Campers sequence in the solve-bound job (10 rolls: ~0.5-3 s of one core to prove optimal).
HC_ROLLS = 10
#: The paper cluster: 64 cores, one single-search-worker Happy Campers sweep task per core.
CLUSTER_CORES = 64
PAPER_TASKS = 10_000
WORKER_COUNTS = (1, 2)
#: Each job's tasks run in `--chunks` chunks (default 1), each chunk on the loop and on Ray back to back
#: (alternating which goes first), so that the two engines compare under the same load on a shared machine. More
#: chunks follow changing load more closely but cost Ray one tail (a worker idle while the other finishes the
#: chunk's last task) per chunk: use them under load only.
DEFAULT_CHUNKS = 1


def clairvoyant_single_thread(params: dict[str, Any], budget: Budget) -> dict[str, Any]:
    """A Happy Campers sweep task at a fixed effort: one CP-SAT search worker (deterministic) to a proven optimum.

    Raises when the optimum is not proven, so a row of the bench never hides a solve cut short by the clock.
    """
    from campsolver.solver.core.proof import Proof
    from campsolver.solver.happy_campers.maximise import clairvoyant_max

    result = clairvoyant_max(None, sweep_rolls(int(params["seed"]), int(params["rolls"])), (), budget=budget, workers=1)
    if result.proof is not Proof.OPTIMAL:
        raise RuntimeError(f"seed {params['seed']}: not proven optimal within the budget ({result.proof})")
    return {
        "score": result.score,
        "proof": result.proof.name,
        "branches": result.stats.branches,
        "conflicts": result.stats.conflicts,
    }


def jobs(quick: bool) -> dict[str, list[Task]]:
    maxima = 8 if quick else 32
    games = 4 if quick else 24
    plates = range(20, 73, 8) if quick else range(20, 73, 4)
    return {
        "hc-clairvoyant-1t": [
            Task(
                "bench", "happy-campers", "clairvoyant-1t", {"seed": seed, "rolls": HC_ROLLS}, clairvoyant_single_thread
            )
            for seed in range(maxima)
        ],
        "hc-hint-games": [
            Task("bench", "happy-campers", "game", {"policies": ["hint"], "seed": seed}, play_happy_campers)
            for seed in range(games)
        ],
        "ct-solo": [
            Task("bench", "camper-tour", "solo", {"plates": count, "tokens": tokens, "specials": 0}, camper_tour_solo)
            for count in plates
            for tokens in (10, 15, 20, 25)
        ],
    }


def tree_cpu_s() -> float | None:
    """CPU seconds (user + system) of this process and every live descendant: with a local Ray instance that
    is the driver, the GCS server, the raylet, its agents and the workers. None where /proc is missing."""
    proc = Path("/proc")
    if not proc.is_dir():
        return None
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        parents[int(entry.name)] = int(fields[1])
        ticks[int(entry.name)] = int(fields[11]) + int(fields[12])
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    total, stack = 0, [os.getpid()]
    while stack:
        pid = stack.pop()
        total += ticks.get(pid, 0)
        stack += children.get(pid, [])
    return total / os.sysconf("SC_CLK_TCK")


def timed_run(tasks: list[Task], backend: InProcess | RayBackend) -> dict[str, Any]:
    """Run `tasks` into a fresh store; wall time, task CPU, driver CPU and the results in task order."""
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as directory, Store(Path(directory)) as store:
        tree_cpu = tree_cpu_s()
        driver_cpu = time.process_time()
        started = time.monotonic()
        report: RunReport = run_tasks(tasks, store, backend, time_limit_s=TIME_LIMIT_S)
        wall = time.monotonic() - started
        driver_cpu = time.process_time() - driver_cpu
        tree_after = tree_cpu_s()
        rows = store.rows()
    failed = [row.error for row in rows.values() if row.status != "ok"]
    if failed:
        raise RuntimeError(f"bench task failed: {failed[0]}")
    if isinstance(backend, InProcess):  # the loop's tasks ran in the driver: its CPU is theirs
        driver_cpu -= report.task_cpu_s
    per_worker: dict[str, float] = {}
    for row in rows.values():
        per_worker[row.worker] = per_worker.get(row.worker, 0.0) + (row.cpu_s or 0.0)
    return {
        "wall_s": wall,
        "task_cpu_s": report.task_cpu_s,
        "driver_cpu_s": max(driver_cpu, 0.0),
        "all_cpu_s": None if tree_cpu is None or tree_after is None else tree_after - tree_cpu,
        "busiest_worker_cpu_s": max(per_worker.values()),
        "results": [rows[task.key].result for task in tasks],
        "task_walls": [rows[task.key].wall_s for task in tasks],
        "load": (load_before, os.getloadavg()[0]),
    }


def _autogroup() -> bool:
    try:
        return Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip() == "1"
    except OSError:
        return False


def _chunks(tasks: list[Task], count: int) -> list[list[Task]]:
    size = math.ceil(len(tasks) / count)
    return [tasks[start : start + size] for start in range(0, len(tasks), size)]


def _merge(runs: list[dict[str, Any]], workers: int) -> dict[str, Any]:
    """The chunks of one engine as one run: times and CPU added, results and task times in task order."""
    merged: dict[str, Any] = {key: sum(run[key] for run in runs) for key in ("wall_s", "task_cpu_s", "driver_cpu_s")}
    cpu = [run["all_cpu_s"] for run in runs]
    merged["all_cpu_s"] = None if None in cpu else sum(cpu)
    # the CPU-time makespan of each chunk: its busiest worker, or all its CPU spread over the workers
    merged["cpu_makespan_s"] = (
        None if None in cpu else sum(max(run["busiest_worker_cpu_s"], run["all_cpu_s"] / workers) for run in runs)
    )
    merged["results"] = [result for run in runs for result in run["results"]]
    merged["task_walls"] = [wall for run in runs for wall in run["task_walls"]]
    merged["load"] = (runs[0]["load"][0], runs[-1]["load"][1])
    return merged


def cpu_speedup(reference: dict[str, Any], run: dict[str, Any], workers: int) -> float | None:
    """The speed-up that CPU time alone predicts for an idle machine with `workers` cores: the loop's CPU over the
    larger of the busiest worker's task CPU and all the CPU the Ray run used (driver, Ray's own processes and the
    workers) spread over the cores. Optimistic (no waiting counted), but blind to other people's load."""
    if reference["all_cpu_s"] is None or run["cpu_makespan_s"] is None:
        return None
    return reference["all_cpu_s"] / run["cpu_makespan_s"] if run["cpu_makespan_s"] > 0 else None


def _row(
    name: str, tasks: list[Task], engine: str, run: dict[str, Any], reference: dict[str, Any], workers: int, same: bool
) -> dict[str, Any]:
    count = len(tasks)
    reference_wall = reference["wall_s"]
    overhead = None if run["all_cpu_s"] is None else run["all_cpu_s"] / run["task_cpu_s"] - 1
    return {
        "job": name,
        "tasks": count,
        "engine": engine,
        "wall_s": run["wall_s"],
        "tasks_per_s": count / run["wall_s"],
        "speedup": reference_wall / run["wall_s"],
        "task_cpu_mean_s": run["task_cpu_s"] / count,
        "parallelism": run["task_cpu_s"] / run["wall_s"],
        "driver_cpu_per_task_ms": 1000 * run["driver_cpu_s"] / count,
        "cpu_overhead": overhead,
        "cpu_speedup_est": cpu_speedup(reference, run, workers),
        "load_1min": f"{run['load'][0]:.1f}->{run['load'][1]:.1f}",
        "same_results": same,
    }


def paper_estimate(
    cost_s: float, longest_s: float, efficiency: float, startup_s: float, cpu_efficiency: float | None = None
) -> dict[str, Any]:
    """10,000 single-worker Happy Campers sweep tasks on 64 cores, from the measured cost and efficiency here."""
    efficiency = min(max(efficiency, 1e-6), 1.0)
    waves = math.ceil(PAPER_TASKS / CLUSTER_CORES)
    ideal = PAPER_TASKS * cost_s / CLUSTER_CORES
    estimate = startup_s + ideal / efficiency + longest_s
    from_cpu = None
    if cpu_efficiency is not None:
        from_cpu = startup_s + ideal / min(max(cpu_efficiency, 1e-6), 1.0) + longest_s
    return {
        "tasks": PAPER_TASKS,
        "cluster_cores": CLUSTER_CORES,
        "per_task_cost_s": cost_s,
        "waves": waves,
        "ideal_s": ideal,
        "efficiency": efficiency,
        "startup_s": startup_s,
        "tail_s": longest_s,
        "estimate_s": estimate,
        "estimate_min": estimate / 60,
        "estimate_min_cpu_efficiency": None if from_cpu is None else from_cpu / 60,
        "assumptions": (
            "per-task cost = mean in-process CPU of the hc-clairvoyant-1t tasks (10 rolls, no card, one CP-SAT "
            f"search worker, proven optimal); {CLUSTER_CORES} tasks at once (one a core); efficiency = the "
            "two-worker wall-clock speed-up measured here / 2 (what Ray, the node's background work and other "
            "people's load cost; the last column uses the CPU-time speed-up / 2 instead); plus Ray "
            "start-up and warm-up measured here and one longest task for the last wave's tail; the cluster's own "
            "start and data transfer are not counted (a task's input is a seed, its output a few numbers)"
        ),
    }


#: Per worker count, per job: one engine's merged run.
_Runs = dict[int, dict[str, dict[str, Any]]]


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer tasks, for a smoke run")
    parser.add_argument(
        "--chunks",
        type=int,
        default=DEFAULT_CHUNKS,
        help="pair the loop and Ray chunk by chunk (for a loaded machine; each chunk costs Ray a tail)",
    )
    parser.add_argument("--jobs", help="comma-separated subset of the jobs (results then go to batch_<jobs>.json)")
    return parser.parse_args(argv)


def _run_engines(selected: dict[str, list[Task]], chunks: int) -> tuple[_Runs, _Runs, list[dict[str, Any]]]:
    """Every job on the loop and on Ray, per worker count (one Ray instance each): the loop's runs, Ray's runs, and
    each Ray instance's start-up and warm-up."""
    loop: _Runs = {}
    on_ray: _Runs = {}
    startup = []
    for phase, workers in enumerate(WORKER_COUNTS):
        backend = RayBackend(workers=workers)
        try:
            loop[workers], on_ray[workers] = {}, {}
            for name, tasks in selected.items():
                loop[workers][name], on_ray[workers][name] = _paired_runs(tasks, backend, chunks, phase, workers)
        finally:
            backend.close()
        startup.append(
            {
                "workers": workers,
                "ray_init_s": backend.startup_s,
                "warm_up_s": backend.warmup_s,
                "warm_workers": len(backend.warm_pids),
            }
        )
    return loop, on_ray, startup


def _paired_runs(
    tasks: list[Task], backend: RayBackend, chunks: int, phase: int, workers: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    """One job on the loop and on Ray, chunk by chunk: the two merged runs."""
    loop_parts, ray_parts = [], []
    for index, part in enumerate(_chunks(tasks, max(chunks, 1))):
        # Paired and alternated (loop first, then Ray first, ...): each Ray chunk has a loop chunk
        # of the same tasks run next to it, under the same load.
        order = (InProcess(), backend) if (index + phase) % 2 == 0 else (backend, InProcess())
        for engine in order:
            run = timed_run(part, engine)
            (loop_parts if isinstance(engine, InProcess) else ray_parts).append(run)
    return _merge(loop_parts, 1), _merge(ray_parts, workers)


def _throughput_rows(
    selected: dict[str, list[Task]], loop: _Runs, on_ray: _Runs
) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]], dict[str, float]]:
    """The table's rows (each Ray run next to the loop run paired with it), each job's reference loop run (the
    faster of the two) and its per-task CPU cost."""
    rows = []
    reference_cost: dict[str, float] = {}
    references = {}
    for name, tasks in selected.items():
        first, again = (loop[workers][name] for workers in WORKER_COUNTS)
        references[name] = min(first, again, key=lambda run: run["wall_s"])
        reference_cost[name] = references[name]["task_cpu_s"] / len(tasks)
        for workers in WORKER_COUNTS:
            reference, run = loop[workers][name], on_ray[workers][name]
            rows.append(
                _row(
                    name,
                    tasks,
                    f"in-process (paired with x{workers})",
                    reference,
                    reference,
                    1,
                    reference["results"] == first["results"],
                )
            )
            rows.append(
                _row(name, tasks, f"ray x{workers}", run, reference, workers, run["results"] == reference["results"])
            )
    return rows, references, reference_cost


def _machine_note(load_start: tuple[float, float, float]) -> str:
    """The cores and the load average at the start and the end, with the autogroup caution on a loaded machine."""
    load_end = os.getloadavg()
    machine = (
        f"{os.cpu_count()} cores, shared with other engineers; load average (1, 5, 15 min) "
        f"{load_start[0]:.1f}/{load_start[1]:.1f}/{load_start[2]:.1f} at the start, "
        f"{load_end[0]:.1f}/{load_end[1]:.1f}/{load_end[2]:.1f} at the end"
    )
    if _autogroup() and load_start[0] > (os.cpu_count() or 1):
        machine += (
            ". Caution: the kernel shares CPU between sessions (sched_autogroup), and this bench's driver "
            "and Ray workers are one session, so on a loaded machine two workers get the CPU one process "
            "would: the wall-clock speed-up then says nothing about Ray; read cpu_speedup_est, or run idle"
        )
    return machine


def _paper_row(
    rows: list[dict[str, Any]],
    startup: list[dict[str, Any]],
    references: dict[str, dict[str, Any]],
    reference_cost: dict[str, float],
) -> dict[str, Any]:
    """The paper estimate from the Happy Campers job's two-worker row and start-up."""
    two = next(r for r in rows if r["job"] == "hc-clairvoyant-1t" and r["engine"] == "ray x2")
    two_startup = next(s for s in startup if s["workers"] == 2)
    longest = max(references["hc-clairvoyant-1t"]["task_walls"])
    cpu_two = two["cpu_speedup_est"]
    return paper_estimate(
        reference_cost["hc-clairvoyant-1t"],
        longest,
        two["speedup"] / 2,
        two_startup["ray_init_s"] + two_startup["warm_up_s"],
        None if cpu_two is None else cpu_two / 2,
    )


def _result_name(args: argparse.Namespace, selected: dict[str, list[Task]]) -> str:
    name = (
        "batch"
        if not args.jobs and not args.quick
        else "batch_" + "_".join(selected).replace("-", "_") + ("_quick" if args.quick else "")
    )
    if args.chunks > 1:
        name += f"_chunks{args.chunks}"
    return name


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = _parse_args(argv)
    # The local Ray instance runs its workers at the driver's niceness (`engine.LOCAL_RAY_SYSTEM_CONFIG`), so the
    # pool and the in-process loop compete for the CPU on equal terms.
    selected = jobs(args.quick)
    if args.jobs:
        selected = {name: selected[name] for name in args.jobs.split(",")}
    load_start = os.getloadavg()
    warm_worker(WARM_MODULES)  # the loop's process imports what a warm Ray worker has imported
    clairvoyant_single_thread({"seed": 0, "rolls": 2}, Budget(TIME_LIMIT_S))
    loop, on_ray, startup = _run_engines(selected, args.chunks)
    rows, references, reference_cost = _throughput_rows(selected, loop, on_ray)
    print_table("Batch throughput (same seeds, fixed effort; Ray start-up and warm-up excluded)", rows)
    print_table("Ray start-up (timed apart: ray.init, then one import round per worker)", startup)
    machine = _machine_note(load_start)
    print(machine)
    payload: dict[str, Any] = {
        "throughput": rows,
        "startup": startup,
        "per_task_cpu_s": reference_cost,
        "machine": machine,
        "quick": args.quick,
    }
    if "hc-clairvoyant-1t" in selected:
        paper = _paper_row(rows, startup, references, reference_cost)
        print_table("Paper estimate: 10,000 Happy Campers sweep tasks on 64 cores", [paper])
        payload["paper_estimate"] = paper
    payload["chunks"] = args.chunks
    write_json(_result_name(args, selected), payload)
    return payload


if __name__ == "__main__":
    main()
