"""A client that goes away stops its solve within half a second, in every game, over gRPC and HTTP.

Before: a Deluxe Camping MaxScore (TOTAL) whose client disconnected kept building and skipping its case models
pass after pass (each pass asked only `Budget.remaining()`, which ignored the cancel) and was killed after 2 s:
0 of 50 stopped within 0.5 s at load 17 (`python -m bench.disconnects`). Judged in CPU terms on a loaded machine
(`tests/timing.py`): the allowance stretches with the core share a busy thread gets now.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator

import pytest
from campsolver.clients.client import CampsolverClient
from campsolver.service import dispatch
from campsolver.service.registry import GAME_TABLE, games
from campsolver.service.server import CampsolverServer, ServerConfig
from campsolver.solver.core.budget import Budget, SolveInterrupted

from bench.disconnects import STOP_WITHIN_S, _grpc_try, _http_try, long_solves
from tests.timing import within_loaded


def test_a_cancelled_budget_has_no_time_left() -> None:
    budget = Budget(60.0)
    assert budget.remaining() > 59
    budget.cancel()
    assert budget.remaining() == 0.0 and budget.expired()
    assert budget.limited(10.0).expired()  # a phase budget made after the cancel is spent too


@pytest.mark.timing
# The Deluxe Camping MaxScore proves its optimum in about 0.8 s on an idle machine: cancels well before that.
@pytest.mark.parametrize("after_s", [0.05, 0.15, 0.3])
def test_a_deluxe_camping_max_score_stops_at_a_cancel(after_s: float) -> None:
    rpc, request = long_solves()["deluxe-camping"]
    command = games()["deluxe-camping"].by_rpc(rpc)
    budget = Budget(60.0)
    ended: dict[str, float] = {}

    def solve() -> None:
        try:
            dispatch.run(command, request, budget)
        finally:
            ended["at"] = time.monotonic()

    thread = threading.Thread(target=solve)
    thread.start()
    thread.join(after_s)
    assert thread.is_alive(), "the solve ended before the cancel: no test"
    cancelled = time.monotonic()
    budget.cancel()
    thread.join(30)
    stopped_after = ended["at"] - cancelled
    assert within_loaded(stopped_after, STOP_WITHIN_S), f"stopped {stopped_after:.3f} s after the cancel"


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[CampsolverServer, CampsolverClient]]:
    running = CampsolverServer(ServerConfig(port=0, http_port=0, workers=1))
    running.start()
    assert running.http is not None and running.http.wait_started()
    with CampsolverClient(running.address) as client:
        client.wait_ready()
        yield running, client
    running.stop(grace_s=2.0)


def _disconnects(server: CampsolverServer, client: CampsolverClient, game_name: str, tries: int) -> list[float]:
    rpc, request = long_solves()[game_name]
    rng = random.Random(game_name)
    stops = []
    for index in range(tries):
        wait_s = rng.uniform(0.05, 1.0)
        if index % 2 == 0:
            stop = _grpc_try(server, client, game_name, rpc, request, wait_s)
        else:
            stop = _http_try(server, game_name, rpc, request, wait_s)
        assert stop is not None, "the solve ended before the cancel: no test"
        stops.append(stop)
        assert server.gate.wait_idle(timeout_s=60)
    return stops


@pytest.mark.timing
@pytest.mark.parametrize("game_name", list(GAME_TABLE))
def test_a_disconnected_clients_solve_stops_in_its_worker(
    server: tuple[CampsolverServer, CampsolverClient], game_name: str
) -> None:
    """Quick: one gRPC cancel and one HTTP client going away per game."""
    running, client = server
    assert running.pool is not None
    restarts = running.pool.restarts
    stops = _disconnects(running, client, game_name, 2)
    assert all(within_loaded(stop, STOP_WITHIN_S) for stop in stops), stops
    assert running.pool.restarts == restarts, "a worker ignored the cancel and was killed"


@pytest.mark.slow
@pytest.mark.timing
@pytest.mark.parametrize("game_name", list(GAME_TABLE))
def test_fifty_disconnects_in_every_game_all_stop_within_half_a_second(
    server: tuple[CampsolverServer, CampsolverClient], game_name: str
) -> None:
    running, client = server
    assert running.pool is not None
    restarts = running.pool.restarts
    stops = _disconnects(running, client, game_name, 50)
    late = [round(stop, 3) for stop in stops if not within_loaded(stop, STOP_WITHIN_S)]
    assert not late, f"{len(late)} of 50 stopped late: {late}"
    assert running.pool.restarts == restarts


def test_a_budget_sees_a_cancel_kept_elsewhere_without_a_watcher_thread() -> None:
    """A solver worker's budget polls the parent's cancel flag itself: a watcher thread can be starved of the GIL
    by a search that drops and retakes it often (an Adventure Tours hint ignored a cancel for 0.6-0.8 s)."""
    flag = threading.Event()
    budget = Budget(60.0)
    budget.poll_cancel(flag.is_set)
    phase = budget.sub_budget(0.5).limited(10.0)
    budget.check()
    phase.check()
    flag.set()
    time.sleep(0.02)  # past the poll interval
    with pytest.raises(SolveInterrupted):
        phase.check()  # the phase budget asks its parent, which polls the flag
    assert budget.cancelled and budget.remaining() == 0.0
