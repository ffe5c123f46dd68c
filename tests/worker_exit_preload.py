"""Forkserver preload for `test_a_worker_that_exits_mid_solve_is_internal`: the service's own preload, then the
Camper Tour hint handler replaced by one that calls `os._exit` once the call is a real solve.

Why a preload: workers are forked from the forkserver, so a handler patched in the test process would never
reach them, and forking workers straight from a process whose gRPC threads are busy can abort the child in
gRPC's poller (seen in CI). Patched here, every worker (the replacements too) inherits the dying handler while
the gRPC process keeps the real one.
"""

from __future__ import annotations

import dataclasses
import os

from campsolver.service import worker_preload  # noqa: F401  (imports and warms up every game)
from campsolver.service.registry import games
from campsolver.solver.core.budget import Budget

from campsolver.v1 import camper_tour_pb2 as ct

#: The worker's exit code when it dies mid-solve.
EXIT_CODE = 3


def dies_once_solving(request: ct.CamperTourServiceHintRequest, budget: Budget) -> ct.CamperTourServiceHintResponse:
    budget.check()  # validation is over: from here on the call is a real solve (in a worker)
    os._exit(EXIT_CODE)


_hint = games()["camper-tour"].commands["hint"]
games()["camper-tour"].commands["hint"] = dataclasses.replace(_hint, handler=dies_once_solving)
