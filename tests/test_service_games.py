"""Every game RPC through a real server, each answer re-checked by the rules model."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from campsolver.clients.client import CampsolverClient
from campsolver.service.games import camper_tour as ct_service
from campsolver.service.games import happy_campers as hc_service
from campsolver.service.server import CampsolverServer, ServerConfig
from campsolver.solver.camper_tour import rules as ct_rules
from campsolver.solver.happy_campers import exhaustive
from campsolver.solver.happy_campers import rules as hc_rules

from campsolver.v1 import camper_tour_pb2 as ct
from campsolver.v1 import common_pb2
from campsolver.v1 import happy_campers_pb2 as hc


@pytest.fixture(scope="module")
def client() -> Iterator[CampsolverClient]:
    server = CampsolverServer(ServerConfig(port=0, workers=2))
    server.start()
    with CampsolverClient(server.address) as connected:
        connected.wait_ready()
        yield connected
    server.stop(grace_s=2.0)


def hc_placement(message: hc.HappyCampersPlacement) -> hc_rules.Placement:
    symbol_to_element = {hc_service.element_symbol(e): e for e in hc_rules.ELEMENTS}
    return hc_rules.Placement(
        cells=frozenset((c.row, c.col) for c in message.cells),
        element=symbol_to_element[message.element],
        option=hc_rules.Option(message.shape_face, message.element_face),
    )


def test_happy_campers_hint_moves_are_legal_and_ranked(client: CampsolverClient) -> None:
    request = hc_service.EXAMPLES["Hint"]()
    response = client.happy_campers.hint(request, timeout=30)
    grid = hc_service.grid_from_rows(request.map, hc_rules.DEFAULT_COMPONENTS, "map")
    legal = hc_rules.legal_placements(grid, (request.roll.first, request.roll.second))
    assert len(response.alternatives) == len({(p.cells, p.element) for p in legal})
    values = [a.ranking.value for a in response.alternatives if a.ranking.HasField("value")]
    # Finalists (no "halved out" note) come first, sorted by value; moves dropped earlier follow them.
    finalists = [a.ranking.value for a in response.alternatives if a.ranking.HasField("value")
                 and not a.ranking.note.startswith("halved out")]
    assert finalists == sorted(finalists, reverse=True) and values[: len(finalists)] == finalists
    for alternative in response.alternatives:
        (placement,) = alternative.move.placements
        hc_rules.draw(grid, hc_placement(placement))  # raises IllegalMove if the hint is not legal
        if alternative.ranking.HasField("value"):
            assert alternative.ranking.loss == pytest.approx(max(values[0] - alternative.ranking.value, 0.0))


@pytest.mark.parametrize("seed", range(4))
def test_happy_campers_max_matches_the_exhaustive_oracle(client: CampsolverClient, seed: int) -> None:
    import numpy as np

    rng = np.random.default_rng(seed)
    rolls = [tuple(int(x) for x in rng.integers(1, 7, 2)) for _ in range(6)]
    components = hc_rules.Components(rows=3, cols=4)
    request = hc.HappyCampersServiceMaxScoreRequest(
        components=hc.HappyCampersComponents(rows=3, cols=4),
        rolls=[hc.HappyCampersRoll(first=a, second=b) for a, b in rolls],
        options=common_pb2.SolveOptions(time_limit_seconds=20),
    )
    response = client.happy_campers.max_score(request, timeout=30)
    oracle = exhaustive.clairvoyant_max(None, rolls, (), components)
    assert response.proof == common_pb2.PROOF_STATUS_OPTIMAL
    assert response.score == oracle.score
    grid = hc_rules.empty_grid(components)
    for placement in response.placements:
        grid = hc_rules.draw(grid, hc_placement(placement), components)
    assert hc_service.grid_to_rows(grid) == list(response.final_map)
    assert hc_rules.score(grid, (), components).total == response.score
    if response.ended_by_blocked_roll:
        blocked = rolls[response.rolls_used]
        assert not hc_rules.can_draw(grid, blocked, components)


def test_camper_tour_max_is_the_solo_value_and_hint_moves_are_legal(client: CampsolverClient) -> None:
    response = client.camper_tour.max_score(ct_service.EXAMPLES["MaxScore"](), timeout=30)
    assert response.proof == common_pb2.PROOF_STATUS_EXACT
    assert response.expected_score == pytest.approx(69.894372, abs=1e-6)
    assert response.alternatives[0].ranking.value == pytest.approx(response.expected_score, abs=1e-12)
    request = ct_service.EXAMPLES["Hint"]()
    hint = client.camper_tour.hint(request, timeout=30)
    state = ct_service.state_from_proto(request.state)
    legal = {ct_service.move_to_proto(a).SerializeToString(deterministic=True) for a in state.legal_actions()}
    assert hint.alternatives
    for alternative in hint.alternatives:
        assert alternative.move.SerializeToString(deterministic=True) in legal
        assert alternative.ranking.loss >= 0


def test_camper_tour_puzzle_is_reproducible_and_legal(client: CampsolverClient) -> None:
    request = ct.CamperTourServiceGeneratePuzzleRequest(seed=11)
    first = client.camper_tour.generate_puzzle(request, timeout=60)
    second = client.camper_tour.generate_puzzle(request, timeout=60)
    assert first.state == second.state and first.solution == second.solution
    assert first.puzzle.unique and first.puzzle.proof == common_pb2.PROOF_STATUS_EXACT
    state = ct_service.state_from_proto(first.state)
    assert first.solution.announce in {a.plates for a in state.legal_actions() if isinstance(a, ct_rules.Announce)}
    assert first.margin >= 0.25


IMPLEMENTED = [
    (game_name, command.rpc_name)
    for game_name, game in __import__("campsolver.service.registry", fromlist=["games"]).games().items()
    for command in game.commands.values()
    if command.handler is not None
]


@pytest.mark.parametrize(("game_name", "rpc_name"), IMPLEMENTED)
def test_every_example_request_is_answered_over_grpc(client: CampsolverClient, game_name: str, rpc_name: str) -> None:
    game_client = client.game(game_name)
    command = game_client.game.by_rpc(rpc_name)
    response = game_client.call(rpc_name, command.example(), timeout=120)
    assert isinstance(response, command.response_type)
    assert response.ByteSize() > 0


def test_camper_tour_score_accepts_a_finished_game_and_rejects_absurd_campers(client: CampsolverClient) -> None:
    from campsolver.clients.client import CampsolverError

    finished = ct.CamperTourState(
        rules=ct_service.ALL_NORMAL_RULES,
        campers=[
            ct.Camper(phase=ct.CAMPER_PHASE_FINISHED, marker=50, tokens=-2, arrival=1),
            ct.Camper(phase=ct.CAMPER_PHASE_FINISHED, marker=44, tokens=0, arrival=2),
        ],
    )
    response = client.camper_tour.score(ct.CamperTourServiceScoreRequest(state=finished), timeout=10)
    assert list(response.scores) == [48, 44] and response.game_over and response.winner == 0
    legal = client.camper_tour.legal_moves(ct.CamperTourServiceLegalMovesRequest(state=finished), timeout=10)
    assert not legal.moves and legal.to_move == -1
    absurd = ct.CamperTourState(
        campers=[ct.Camper(phase=ct.CAMPER_PHASE_FINISHED, marker=-50, tokens=-2_000_000_000)]
    )
    with pytest.raises(CampsolverError) as caught:
        client.camper_tour.score(ct.CamperTourServiceScoreRequest(state=absurd), timeout=10)
    assert caught.value.violations[0].field == "state.campers[0].marker"
