"""Any uint64 seed works: CP-SAT's own seed is 32-bit, so larger request seeds are folded into its range."""

from __future__ import annotations

import pytest
from campsolver.clients.client import CampsolverClient
from campsolver.service.games import campsite as campsite_service
from campsolver.service.games import deluxe_camping as deluxe_service
from campsolver.solver.core.cpsat import CPSAT_SEED_LIMIT, cpsat_seed

from campsolver.v1 import campsite_pb2

LARGE_SEEDS = (2**31 - 1, 2**31, 2**32 + 5, 2**64 - 1)


def test_cpsat_seed_keeps_small_seeds_and_folds_large_ones_deterministically() -> None:
    assert [cpsat_seed(s) for s in (0, 1, 12345, 2**31 - 1)] == [0, 1, 12345, 2**31 - 1]
    folded = [cpsat_seed(s) for s in LARGE_SEEDS[1:]]
    assert all(0 <= s < CPSAT_SEED_LIMIT for s in folded)
    assert folded == [cpsat_seed(s) for s in LARGE_SEEDS[1:]]
    assert len(set(folded)) == len(folded)


@pytest.mark.parametrize("seed", LARGE_SEEDS)
def test_cp_sat_max_scores_accept_any_uint64_seed(client: CampsolverClient, seed: int) -> None:
    deluxe = deluxe_service.EXAMPLES["MaxScore"]()
    deluxe.options.seed = seed
    assert client.deluxe_camping.max_score(deluxe, timeout=120).proof
    campsite = campsite_service.EXAMPLES["MaxScore"]()
    campsite.method = campsite_pb2.CAMPSITE_MAX_METHOD_CP_SAT
    campsite.options.seed = seed
    assert client.campsite.max_score(campsite, timeout=120).proof
