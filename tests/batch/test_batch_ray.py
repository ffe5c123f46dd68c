"""Batch jobs on Ray: one local Ray instance for the whole module (its start-up is the slow part).

- The same sweep on Ray and in-process writes byte-identical files, CSV, Parquet and plots (completion order does
  not matter).
- A driver SIGKILLed mid-batch resumes: nothing lost, nothing duplicated, the same files as an uninterrupted run.
- A worker that dies is retried by Ray and its task recorded once.
"""

from __future__ import annotations

import itertools
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import ray
from campsolver.clients.batch.cli import main as batch_main
from campsolver.clients.batch.engine import (
    LOCAL_RAY_SYSTEM_CONFIG,
    RAY_START_TIMEOUT_S,
    RayBackend,
    Task,
    call_with_start_timeout,
    run_tasks,
    tear_down_ray,
)
from campsolver.clients.batch.store import STORE_NAME, Store

#: A sweep whose tasks each take about a second (CP-SAT clairvoyant maxima): long enough to kill mid-batch.
HAPPY_SWEEP = [
    "sweep",
    "--games",
    "happy-campers",
    "--cards",
    "none,dangerous-animals",
    "--seeds",
    "4",
    "--rolls",
    "8",
    "--time-limit",
    "60",
    "--no-progress",
]
CAMPER_SWEEP = [
    "sweep",
    "--games",
    "camper-tour",
    "--plates",
    "12,24,36",
    "--tokens",
    "5,15",
    "--time-limit",
    "60",
    "--no-progress",
]
#: 60 exact solo values of about 10-50 ms each: many small tasks, so a kill lands mid-batch cheaply.
CAMPER_KILL_SWEEP = [
    "sweep",
    "--games",
    "camper-tour",
    "--plates",
    "20,24,28,32,36,40,44,48,52,56,60,64",
    "--tokens",
    "5,10,15,20,25",
    "--time-limit",
    "60",
    "--no-progress",
]
OUTPUT_FILES = ("sweep.jsonl", "sweep-summary.json")
#: How long the kill test waits for the driver's first two rows: only a guard against a hung driver. (With the
#: workers at Ray's default niceness 15, a loaded machine starved them: 1 row after 120 s, and tasks answered
#: heuristic maps at their 60-s limit; `engine.LOCAL_RAY_SYSTEM_CONFIG`.)
KILL_WAIT_S = 300


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    def start() -> None:
        ray.init(
            address="local",
            num_cpus=2,
            include_dashboard=False,
            object_store_memory=100 * 1024 * 1024,
            log_to_driver=False,
            logging_level="ERROR",
            _system_config=LOCAL_RAY_SYSTEM_CONFIG,
        )

    # The engine's start-up guard: a start that hangs or loses its raylet (seen in CI) is torn down and retried.
    call_with_start_timeout(start, tear_down_ray, RAY_START_TIMEOUT_S)
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


def _outputs(out: Path) -> dict[str, bytes]:
    files = {name: (out / name).read_bytes() for name in OUTPUT_FILES}
    tables = sorted(out.glob("sweep-*.csv")) + sorted(out.glob("sweep-*.parquet"))
    assert tables, "the sweep wrote no table"
    for path in tables + sorted((out / "plots").glob("*.svg")):
        files[path.relative_to(out).as_posix()] = path.read_bytes()
    return files


def test_ray_and_in_process_write_the_same_files(cluster: str, tmp_path: Path) -> None:
    on_ray, local = tmp_path / "ray", tmp_path / "local"
    assert batch_main([*CAMPER_SWEEP, "--out", str(on_ray)]) == 0  # joins the module's Ray (already initialised)
    assert batch_main([*CAMPER_SWEEP, "--out", str(local), "--in-process"]) == 0
    assert _outputs(on_ray) == _outputs(local)
    with sqlite3.connect(on_ray / STORE_NAME) as db:
        workers = {worker for (worker,) in db.execute("SELECT worker FROM results")}
    assert all(str(os.getpid()) not in worker for worker in workers)  # really ran in Ray workers


def _rows(store: Path) -> int:
    try:
        with sqlite3.connect(store, timeout=5) as db:
            return int(db.execute("SELECT COUNT(*) FROM results").fetchone()[0])
    except sqlite3.OperationalError:  # not created yet
        return 0


@pytest.mark.parametrize(
    ("job", "total"),
    [
        pytest.param(CAMPER_KILL_SWEEP, 60, id="camper-tour-60-small-tasks"),
        pytest.param(HAPPY_SWEEP, 8, id="happy-campers-8-cp-sat-tasks", marks=pytest.mark.slow),
    ],
)
def test_sigkilled_driver_resumes_without_loss_or_duplicates(
    cluster: str, tmp_path: Path, job: list[str], total: int, capsys: pytest.CaptureFixture[str]
) -> None:
    reference = tmp_path / "reference"
    assert batch_main([*job, "--out", str(reference), "--in-process"]) == 0
    out = tmp_path / "killed"
    command = [sys.executable, "-m", "campsolver", "batch", *job, "--out", str(out), "--address", cluster]
    driver = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    started = time.monotonic()
    deadline = started + KILL_WAIT_S
    while _rows(out / STORE_NAME) < 2 and driver.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    waited = time.monotonic() - started
    os.kill(driver.pid, signal.SIGKILL)
    driver.wait(timeout=30)
    assert driver.returncode == -signal.SIGKILL, "the driver finished before the kill: make the sweep longer"
    at_kill = _rows(out / STORE_NAME)
    assert 2 <= at_kill < total, f"{at_kill} rows {waited:.1f} s after the driver started"
    capsys.readouterr()
    assert batch_main([*job, "--out", str(out), "--address", cluster]) == 0
    summary = capsys.readouterr().out
    assert f"{total} tasks: {total - at_kill} run, {at_kill} resumed, 0 failed" in summary
    with sqlite3.connect(out / STORE_NAME) as db:
        keys = [key for (key,) in db.execute("SELECT key FROM results")]
    assert len(keys) == len(set(keys)) == total
    assert _outputs(out) == _outputs(reference)
    print(
        f"resume figures: {total} tasks, {at_kill} recorded at the kill ({waited:.1f} s after the start), "
        f"{total - at_kill} run after it"
    )


#: A driver that starts its own local instance (as `campsolver batch` does without --address), niced by argv[1].
OWN_INSTANCE_NICENESS = """
import os, sys
os.nice(int(sys.argv[1]))
from campsolver.clients.batch.engine import RayBackend
backend = RayBackend(workers=1)
print(os.getpriority(os.PRIO_PROCESS, 0), backend.worker_niceness)
backend.close()
"""


@pytest.mark.parametrize("driver_niceness", [0, 3])
def test_an_own_local_instance_runs_its_workers_at_the_drivers_niceness(driver_niceness: int) -> None:
    """Ray's default (workers at niceness 15) starved batch tasks on a loaded machine: 1.6 s of CPU in a 60-s
    limit, a heuristic map answered where in-process CP-SAT proved the optimum. The instance the engine
    starts runs them at the driver's own niceness. Own process: this module already holds a Ray instance."""
    done = subprocess.run(
        [sys.executable, "-c", OWN_INSTANCE_NICENESS, str(driver_niceness)],
        capture_output=True,
        text=True,
        timeout=180,
        check=True,
    )
    driver, workers = (int(word) for word in done.stdout.split()[-2:])
    assert driver == driver_niceness
    assert workers == driver, done.stderr[-2000:]
    assert "warning: the Ray workers run at niceness" not in done.stderr


def test_a_dying_worker_is_retried_and_recorded_once(cluster: str, tmp_path: Path) -> None:
    marker = tmp_path / "died-once"

    def dies_once(params: dict, budget: object) -> dict:
        if params["n"] == 1 and not marker.exists():
            marker.write_text("the worker exits here, as if killed")
            os._exit(1)
        return {"square": params["n"] ** 2, "pid": os.getpid()}

    tasks = [Task("test", "none", "square", {"n": n}, dies_once) for n in range(3)]
    with Store(tmp_path / "out") as store:
        report = run_tasks(tasks, store, RayBackend(), time_limit_s=30.0, retries=2)
        rows = store.rows()
    assert marker.exists()
    assert (report.ran, report.failed, report.duplicates) == (3, 0, 0)
    assert [rows[task.key].result["square"] for task in tasks] == [0, 1, 4]

    with Store(tmp_path / "no-retry") as store:
        marker.unlink()
        report = run_tasks(tasks, store, RayBackend(), time_limit_s=30.0, retries=0)
        failed = [row for row in store.rows().values() if row.status == "failed"]
    assert report.failed == 1 and len(failed) == 1 and failed[0].worker == "lost"


def _interval(params: dict, budget: object) -> dict:
    started = time.time()
    time.sleep(0.3)
    return {"start": started, "end": time.time(), "cpus": ray.get_runtime_context().get_assigned_resources()["CPU"]}


def test_a_two_cpu_task_reserves_both_cpus(cluster: str, tmp_path: Path) -> None:
    """A CP-SAT task with two search workers reserves two CPUs (Ray says so inside the task), so on a 2-CPU
    instance no two of them overlap; a plain task reserves one."""
    wide = [Task("test", "none", "wide", {"n": n}, _interval, cpus=2) for n in range(3)]
    narrow = [Task("test", "none", "narrow", {"n": n}, _interval) for n in range(2)]
    huge = [Task("test", "none", "huge", {"n": 0}, _interval, cpus=64)]  # capped at the instance's 2 CPUs
    with Store(tmp_path / "out") as store:
        report = run_tasks(wide + narrow + huge, store, RayBackend(), time_limit_s=30.0)
        rows = store.rows()
    assert (report.ran, report.failed) == (6, 0)
    assert [rows[task.key].result["cpus"] for task in wide + narrow + huge] == [2, 2, 2, 1, 1, 2]
    spans = sorted((rows[task.key].result["start"], rows[task.key].result["end"]) for task in wide + huge)
    assert all(end <= next_start for (_, end), (next_start, _) in itertools.pairwise(spans))
