"""The Python clients: typed methods that match the service definitions, asyncio, TLS, call credentials,
wait-for-ready."""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import socket
import subprocess
import typing
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from campsolver.clients import AsyncCampsolverClient, CampsolverClient, CampsolverError
from campsolver.clients.typed import ASYNC_CLIENTS, SYNC_CLIENTS
from campsolver.service.games import camper_tour as ct_service
from campsolver.service.registry import games
from campsolver.service.server import CampsolverServer, ServerConfig

from campsolver.v1 import happy_campers_pb2 as hc

METHOD_OF_RPC = {
    "Hint": "hint",
    "MaxScore": "max_score",
    "GeneratePuzzle": "generate_puzzle",
    "Score": "score",
    "LegalMoves": "legal_moves",
    "NewGame": "new_game",
    "Play": "play",
    "Review": "review",
}


@pytest.fixture(scope="module")
def server() -> Iterator[CampsolverServer]:
    running = CampsolverServer(ServerConfig(port=0, workers=1))
    running.start()
    yield running
    running.stop(grace_s=1.0)


@pytest.mark.parametrize("clients", [SYNC_CLIENTS, ASYNC_CLIENTS], ids=["sync", "async"])
def test_every_game_rpc_has_a_typed_method_with_its_own_messages(clients: dict) -> None:
    assert set(clients) == set(games()), "every registered game needs a typed client"
    for name, game in games().items():
        client_class = clients[name]
        for command in game.commands.values():
            method = getattr(client_class, METHOD_OF_RPC[command.rpc_name])
            hints = typing.get_type_hints(method)
            assert hints["request"] is command.request_type, (name, command.rpc_name)
            assert hints["return"] is command.response_type, (name, command.rpc_name)
            assert inspect.iscoroutinefunction(method) == (clients is ASYNC_CLIENTS)


def test_sync_client_answers_and_raises_rich_errors(server: CampsolverServer) -> None:
    with CampsolverClient(server.address) as client:
        response = client.camper_tour.score(ct_service.EXAMPLES["Score"](), timeout=10)
        assert list(response.scores)
        with pytest.raises(CampsolverError) as caught:
            client.happy_campers.legal_moves(hc.HappyCampersServiceLegalMovesRequest(), timeout=10)
        assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
        assert caught.value.violations and caught.value.reason


def test_async_client_has_the_same_surface(server: CampsolverServer) -> None:
    async def scenario() -> tuple[list[int], CampsolverError]:
        async with AsyncCampsolverClient(server.address) as client:
            await client.wait_ready()
            response = await client.camper_tour.score(ct_service.EXAMPLES["Score"](), timeout=10)
            try:
                await client.happy_campers.legal_moves(hc.HappyCampersServiceLegalMovesRequest(), timeout=10)
            except CampsolverError as error:
                return list(response.scores), error
            raise AssertionError("an invalid request was accepted")

    # On a thread of its own: an earlier test in this process (Playwright's sync API, the web table's browser tests)
    # may keep an event loop running on the main thread, where `asyncio.run` refuses to start.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        scores, error = pool.submit(asyncio.run, scenario()).result()
    with CampsolverClient(server.address) as client:
        assert scores == list(client.camper_tour.score(ct_service.EXAMPLES["Score"](), timeout=10).scores)
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT and error.violations


def _self_signed(directory: Path) -> tuple[bytes, bytes]:
    key, cert = directory / "key.pem", directory / "cert.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=DNS:localhost,IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert.read_bytes(), key.read_bytes()


def test_tls_and_call_credentials(tmp_path: Path) -> None:
    cert, key = _self_signed(tmp_path)
    running = CampsolverServer(ServerConfig(port=0, workers=1, tls_cert_chain=cert, tls_private_key=key))
    running.start()
    seen: list[str] = []

    def plugin(context: grpc.AuthMetadataContext, callback: grpc.AuthMetadataPluginCallback) -> None:
        seen.append(context.method_name)
        callback((("authorization", "Bearer test-token"),), None)

    try:
        target = f"localhost:{running.port}"
        with CampsolverClient(
            target,
            credentials=grpc.ssl_channel_credentials(root_certificates=cert),
            call_credentials=grpc.metadata_call_credentials(plugin),
        ) as client:
            assert list(client.camper_tour.score(ct_service.EXAMPLES["Score"](), timeout=10).scores)
        assert seen == ["Score"]
        with CampsolverClient(target) as plaintext, pytest.raises(CampsolverError) as caught:
            plaintext.camper_tour.score(ct_service.EXAMPLES["Score"](), timeout=10)
        assert caught.value.code == grpc.StatusCode.UNAVAILABLE
    finally:
        running.stop(grace_s=1.0)
    with pytest.raises(ValueError, match="secure channel"):
        CampsolverClient(target, call_credentials=grpc.access_token_call_credentials("x"))


def test_wait_for_ready_waits_for_a_server_that_comes_up_later() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"127.0.0.1:{port}"
    with CampsolverClient(address) as fail_fast, pytest.raises(CampsolverError) as caught:
        fail_fast.camper_tour.score(ct_service.EXAMPLES["Score"](), timeout=10)
    assert caught.value.code == grpc.StatusCode.UNAVAILABLE
    with CampsolverClient(address, wait_for_ready=True) as patient:
        pending = patient.camper_tour.call_future("Score", ct_service.EXAMPLES["Score"](), timeout=60)
        running = CampsolverServer(ServerConfig(port=port, workers=1))
        running.start()
        try:
            assert list(pending.result().scores)
        finally:
            running.stop(grace_s=1.0)
