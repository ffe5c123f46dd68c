"""The service against a real server on loopback: health, reflection, errors, deadlines, cancels."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from google.protobuf import descriptor_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from campsolver.v1 import happy_campers_pb2 as hc
from clients.client import CampsolverClient, CampsolverError
from service.registry import games
from service.server import CampsolverServer, ServerConfig


@pytest.fixture(scope="module")
def server() -> Iterator[CampsolverServer]:
    running = CampsolverServer(ServerConfig(port=0, workers=2))
    running.start()
    yield running
    running.stop(grace_s=2.0)


@pytest.fixture(scope="module")
def client(server: CampsolverServer) -> Iterator[CampsolverClient]:
    with CampsolverClient(server.address) as connected:
        connected.wait_ready()
        yield connected


def test_every_service_reports_serving(client: CampsolverClient) -> None:
    stub = health_pb2_grpc.HealthStub(client.channel)
    names = ["", *(game.service_full_name for game in games().values())]
    for name in names:
        response = stub.Check(health_pb2.HealthCheckRequest(service=name), timeout=5)
        assert response.status == health_pb2.HealthCheckResponse.SERVING, name


def test_reflection_lists_and_describes_services(client: CampsolverClient) -> None:
    stub = reflection_pb2_grpc.ServerReflectionStub(client.channel)
    requests = [
        reflection_pb2.ServerReflectionRequest(list_services=""),
        reflection_pb2.ServerReflectionRequest(file_containing_symbol="campsolver.v1.CamperTourService"),
    ]
    responses = list(stub.ServerReflectionInfo(iter(requests), timeout=5))
    listed = {s.name for s in responses[0].list_services_response.service}
    assert {game.service_full_name for game in games().values()} <= listed
    assert "grpc.health.v1.Health" in listed
    files = [descriptor_pb2.FileDescriptorProto.FromString(b) for b in
             responses[1].file_descriptor_response.file_descriptor_proto]
    methods = {m.name for f in files for s in f.service if s.name == "CamperTourService" for m in s.method}
    assert methods >= {"Hint", "MaxScore", "GeneratePuzzle", "Score", "LegalMoves"}


def test_bad_request_is_invalid_argument_with_field_violations(client: CampsolverClient) -> None:
    request = hc.HappyCampersServiceLegalMovesRequest(roll=hc.HappyCampersRoll(first=0, second=3))
    with pytest.raises(CampsolverError) as caught:
        client.happy_campers.legal_moves(request, timeout=10)
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert [v.field for v in caught.value.violations] == ["roll.first"]


def test_oversized_request_is_resource_exhausted(client: CampsolverClient) -> None:
    request = hc.HappyCampersServiceScoreRequest(map=["." * 1000] * 5000)  # about 5 MB
    with pytest.raises(CampsolverError) as caught:
        client.happy_campers.score(request, timeout=10)
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_time_limit_beyond_the_cap_is_resource_exhausted(client: CampsolverClient) -> None:
    request = hc.HappyCampersServiceScoreRequest()
    request.options.time_limit_seconds = 10_000
    with pytest.raises(CampsolverError) as caught:
        client.happy_campers.score(request, timeout=10)
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert caught.value.violations[0].field == "options.time_limit_seconds"


def test_unimplemented_game_answers_unimplemented(client: CampsolverClient) -> None:
    from campsolver.v1 import campsite_pb2

    with pytest.raises(CampsolverError) as caught:
        client.campsite.hint(campsite_pb2.CampsiteServiceHintRequest(), timeout=10)
    assert caught.value.code == grpc.StatusCode.UNIMPLEMENTED


def test_server_survives_errors(client: CampsolverClient) -> None:
    response = client.happy_campers.score(
        hc.HappyCampersServiceScoreRequest(map=["TTW~AE...", ".........", ".........", ".........", "........."]),
        timeout=10,
    )
    assert response.score.complete
