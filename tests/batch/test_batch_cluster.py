"""A batch on a real two-node Ray cluster started with the `ray` CLI, on loopback, one CPU per node.

The sweep runs on both nodes (the store's `worker` column names each task's Ray node); the second node's raylet
is SIGKILLed in the middle of the run, and the run still finishes with every task recorded exactly once, all ok,
and the same files as an in-process run. The cluster is torn down by pid (every process that names this
cluster's temporary directory), never with a machine-wide `ray stop`, which would end other Ray instances too.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from campsolver.clients.batch.cli import main as batch_main
from campsolver.clients.batch.store import STORE_NAME

from tests.batch.test_batch_ray import _outputs

pytestmark = pytest.mark.slow

RAY = str(Path(sys.executable).with_name("ray"))
#: 224 exact Camper Tour solo values (dynamic programming, ~0.1 s each with Ray's overhead): many short tasks,
#: so both nodes get work and the kill lands with tasks in flight and tasks still to come.
PLATES = ",".join(str(plates) for plates in range(12, 124, 4))
CLUSTER_SWEEP = [
    "sweep",
    "--games",
    "camper-tour",
    "--plates",
    PLATES,
    "--tokens",
    "5,10,15,20,25,30,35,40",
    "--time-limit",
    "60",
    "--no-progress",
]
TOTAL = 28 * 8
#: Guards against a hung cluster or driver on a loaded machine (load ~9 on 2 cores); none is a measurement.
START_TIMEOUT_S = 120
FIRST_ROWS_WAIT_S = 180
DRIVER_TIMEOUT_S = 300
CLUSTER_ENV = {"RAY_worker_niceness": "0", "RAY_AUTH_MODE": "disabled"}
#: Rows each node must have recorded before the kill (so "ran on both nodes" is seen before the node is lost).
ROWS_PER_NODE_BEFORE_KILL = 3


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _cluster_processes(marker: str) -> dict[int, list[str]]:
    """Processes whose command line names `marker` (this cluster's temporary directory or GCS address)."""
    found: dict[int, list[str]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                argv = [part.decode(errors="replace") for part in cmdline.read().split(b"\0") if part]
        except OSError:
            continue
        if any(marker in part for part in argv):
            found[int(entry)] = argv
    return found


def _raylets(temp_dir: str) -> dict[int, list[str]]:
    return {
        pid: argv
        for pid, argv in _cluster_processes(temp_dir).items()
        if argv and os.path.basename(argv[0]) == "raylet"
    }


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            return [int(child) for child in children.read().split()]
    except OSError:
        return []


def _title(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().split(b"\0")[0].decode(errors="replace")
    except OSError:
        return ""


def _node_id(argv: list[str]) -> str:
    for part in argv:
        if part.startswith("--node_id="):
            return part.split("=", 1)[1]
    raise AssertionError(f"no --node_id in the raylet's command line: {argv}")


def _ray_start(args: list[str], env: dict[str, str]) -> None:
    done = subprocess.run([RAY, "start", *args], capture_output=True, text=True, timeout=START_TIMEOUT_S, env=env)
    assert done.returncode == 0, f"ray start {args} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"


@contextlib.contextmanager
def _two_node_cluster() -> Iterator[tuple[str, str, int]]:
    """Head (1 CPU) and a second node (1 CPU) on 127.0.0.1; yields (address, temp dir, second raylet's pid)."""
    # Short path: Ray's Unix sockets live under it, and a socket path has at most 107 bytes.
    temp_dir = tempfile.mkdtemp(prefix="rc", dir="/tmp")
    port = _free_port()
    address = f"127.0.0.1:{port}"
    # Workers at normal priority (Ray's default niceness 15 starves them on a loaded machine). Token auth off:
    # Ray 2.60 turns it on for a head whenever ~/.ray/auth_token exists, and then a second `ray start` without
    # RAY_AUTH_MODE=token is refused ("InvalidAuthToken"); this cluster listens on loopback only.
    env = {**os.environ, **CLUSTER_ENV}
    try:
        _ray_start(
            [
                "--head",
                "--num-cpus",
                "1",
                "--port",
                str(port),
                "--node-ip-address",
                "127.0.0.1",
                "--include-dashboard",
                "false",
                "--temp-dir",
                temp_dir,
                "--disable-usage-stats",
                "--ray-client-server-port",
                str(_free_port()),
                "--dashboard-agent-listen-port",
                str(_free_port()),
            ],
            env,
        )
        head_raylets = set(_raylets(temp_dir))
        assert len(head_raylets) == 1, _raylets(temp_dir)
        _ray_start(
            [
                "--address",
                address,
                "--num-cpus",
                "1",
                "--node-ip-address",
                "127.0.0.1",
                "--disable-usage-stats",
                "--dashboard-agent-listen-port",
                str(_free_port()),
            ],
            env,
        )
        second = set(_raylets(temp_dir)) - head_raylets
        assert len(second) == 1, _raylets(temp_dir)
        yield address, temp_dir, second.pop()
    finally:
        for _ in range(3):  # the cluster's processes, by pid: daemons, agents and workers all name temp_dir
            pids = set(_cluster_processes(temp_dir)) | set(_cluster_processes(address))
            if not pids:
                break
            for pid in pids:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(1)
        shutil.rmtree(temp_dir, ignore_errors=True)


#: A driver on the cluster (argv[1]) running one task that asks for two CPUs, as a CP-SAT sweep task does.
TWO_CPU_TASK = """
import sys, tempfile
from pathlib import Path
import ray
from campsolver.clients.batch.engine import RayBackend, Task, run_tasks
from campsolver.clients.batch.store import Store

def assigned(params, budget):
    return {"cpus": ray.get_runtime_context().get_assigned_resources()["CPU"]}

backend = RayBackend(sys.argv[1], warm=False)
with Store(Path(tempfile.mkdtemp())) as store:
    report = run_tasks([Task("test", "none", "wide", {}, assigned, cpus=2)], store, backend, time_limit_s=30.0)
    row = next(iter(store.rows().values()))
print(backend.cpus, backend.node_cpus, report.ran, row.result["cpus"])
"""


def _rows(store: Path) -> list[tuple[str, str, str]]:
    try:
        with sqlite3.connect(store, timeout=5) as db:
            return [
                (key, status, worker) for key, status, worker in db.execute("SELECT key, status, worker FROM results")
            ]
    except sqlite3.OperationalError:  # not created yet
        return []


def _node_of(worker: str) -> str:
    return worker.rsplit("@", 1)[1] if "@" in worker else ""


def test_a_sweep_survives_losing_a_node_of_a_two_node_cluster(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reference = tmp_path / "reference"
    assert batch_main([*CLUSTER_SWEEP, "--out", str(reference), "--in-process"]) == 0
    capsys.readouterr()
    out = tmp_path / "cluster"
    started = time.monotonic()
    with _two_node_cluster() as (address, temp_dir, second_raylet):
        head_node = _node_id(next(argv for pid, argv in _raylets(temp_dir).items() if pid != second_raylet))
        second_node = _node_id(_raylets(temp_dir)[second_raylet])
        # Two 1-CPU nodes make a 2-CPU cluster, but a task asking for two CPUs fits on no node: it is capped at
        # the largest node's one CPU (before the cap it waited forever).
        wide = subprocess.run(
            [sys.executable, "-c", TWO_CPU_TASK, address],
            capture_output=True,
            text=True,
            timeout=START_TIMEOUT_S,
            env={**os.environ, **CLUSTER_ENV},
        )
        assert wide.returncode == 0, wide.stderr[-3000:]
        assert wide.stdout.split()[-4:] == ["2", "1", "1", "1.0"], wide.stdout
        command = [sys.executable, "-m", "campsolver", "batch", *CLUSTER_SWEEP, "--out", str(out), "--address", address]
        driver = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **CLUSTER_ENV}
        )
        try:
            deadline = time.monotonic() + FIRST_ROWS_WAIT_S
            while driver.poll() is None and time.monotonic() < deadline:
                per_node = [_node_of(worker) for _, _, worker in _rows(out / STORE_NAME)]
                running = [child for child in _children(second_raylet) if _title(child) == "ray::execute"]
                if min(per_node.count(head_node), per_node.count(second_node)) >= ROWS_PER_NODE_BEFORE_KILL and running:
                    break
                time.sleep(0.05)
            assert driver.poll() is None, "the driver finished before the kill: make the sweep longer"
            rows_at_kill = _rows(out / STORE_NAME)
            running_at_kill = [child for child in _children(second_raylet) if _title(child) == "ray::execute"]
            os.kill(second_raylet, signal.SIGKILL)
            killed_at = time.monotonic()
            stdout, stderr = driver.communicate(timeout=DRIVER_TIMEOUT_S)
        finally:
            if driver.poll() is None:
                driver.kill()
                driver.wait(timeout=30)
        wall_s = time.monotonic() - started
    assert driver.returncode == 0, stderr[-3000:]
    assert f"{TOTAL} tasks: {TOTAL} run, 0 resumed, 0 failed" in stdout, stdout + stderr[-2000:]
    rows = _rows(out / STORE_NAME)
    keys = [key for key, _, _ in rows]
    assert len(keys) == len(set(keys)) == TOTAL
    assert {status for _, status, _ in rows} == {"ok"}
    nodes = [_node_of(worker) for _, _, worker in rows]
    at_kill = [_node_of(worker) for _, _, worker in rows_at_kill]
    assert at_kill.count(head_node) >= ROWS_PER_NODE_BEFORE_KILL
    assert at_kill.count(second_node) >= ROWS_PER_NODE_BEFORE_KILL  # ran on both nodes before the kill
    assert set(nodes) == {head_node, second_node}
    assert len(rows_at_kill) < TOTAL
    assert _outputs(out) == _outputs(reference)
    print(
        f"cluster figures: {TOTAL} tasks, head {nodes.count(head_node)} / second node "
        f"{nodes.count(second_node)}; {len(rows_at_kill)} rows at the kill (head {at_kill.count(head_node)}, "
        f"second {at_kill.count(second_node)}), {len(running_at_kill)} task(s) running on the second node "
        f"killed and retried; {time.monotonic() - killed_at:.1f} s from the kill to the end; wall {wall_s:.1f} s "
        f"(cluster start to teardown)"
    )
