"""Errors name the field and what is wrong with a short excerpt, never the whole input: a status's message and
details stay under 1 KiB on every transport (gRPC, Connect JSON, Connect binary, gRPC-Web), for every game.

A 60 KB Campsite request with one malformed deck card once answered a 94 KB message, and over gRPC its 80 KB of
trailers passed a default client's 16 KiB metadata limit, so the caller saw RESOURCE_EXHAUSTED instead of
INVALID_ARGUMENT. The caps live in `service.errors` (every error is built there), so each game's large malformed
request (`bench.service_probes.large_malformed_requests`, about 40-60 KB, one bad item) is checked here on the wire.
"""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator

import grpc
import pytest
from campsolver.clients.base import read_error_details
from campsolver.service.errors import (
    MAX_DESCRIPTION_BYTES,
    MAX_FIELD_BYTES,
    MAX_MESSAGE_BYTES,
    MAX_STATUS_BYTES,
    InvalidArgument,
    MalformedRequest,
    ResourceExhausted,
    excerpt,
)
from campsolver.service.registry import GAME_TABLE, games
from campsolver.service.server import CampsolverServer, ServerConfig
from google.protobuf import json_format
from google.rpc import status_pb2

from bench.service_probes import grpc_web_frame, grpc_web_status, large_malformed_requests

#: What a client decodes of one error (message plus the serialized details) must stay below this.
ONE_KIB = 1024
CASES = large_malformed_requests()


@pytest.fixture(scope="module")
def server() -> Iterator[CampsolverServer]:
    running = CampsolverServer(ServerConfig(port=0, http_port=0, workers=1))
    running.start()
    assert running.http is not None and running.http.wait_started()
    yield running
    running.stop(grace_s=2.0)


# --- the caps, at their edge and one past it -------------------------------------------------------------------


def test_a_text_at_the_cap_is_kept_whole_and_one_byte_more_is_excerpted() -> None:
    assert excerpt("a" * 50, 50) == "a" * 50
    cut = excerpt("a" * 51, 50)
    assert len(cut.encode()) <= 50 and cut.startswith("aaaa") and cut.endswith("(51 characters)")
    # Multi-byte characters are cut at a character, within the byte cap.
    wide = excerpt("日" * 100, 50)
    assert len(wide.encode()) <= 50 and wide.startswith("日") and "(100 characters)" in wide


def test_a_field_and_a_description_at_their_caps_are_kept_and_one_past_is_cut() -> None:
    edge = InvalidArgument("f" * MAX_FIELD_BYTES, "d" * MAX_DESCRIPTION_BYTES)
    assert edge.violations[0].field == "f" * MAX_FIELD_BYTES
    assert edge.violations[0].description == "d" * MAX_DESCRIPTION_BYTES
    past = InvalidArgument("f" * (MAX_FIELD_BYTES + 1), "d" * (MAX_DESCRIPTION_BYTES + 1))
    assert len(past.violations[0].field.encode()) <= MAX_FIELD_BYTES
    assert (
        past.violations[0].field.startswith("ffff")
        and f"({MAX_FIELD_BYTES + 1} characters)" in past.violations[0].field
    )
    assert len(past.violations[0].description.encode()) <= MAX_DESCRIPTION_BYTES


@pytest.mark.parametrize(
    "error",
    [
        InvalidArgument("f" * 5_000, "d" * 90_000),
        InvalidArgument("é" * 5_000, "日" * 90_000),
        ResourceExhausted("state.players[0].trailers", "x" * 100_000),
        MalformedRequest("the request is not valid (" + "z" * 100_000 + ")"),
    ],
    ids=["ascii", "multibyte", "resource-exhausted", "malformed"],
)
def test_the_whole_status_of_any_error_stays_under_a_kib(error: InvalidArgument) -> None:
    status = error.to_status()
    assert len(status.SerializeToString()) < MAX_STATUS_BYTES == ONE_KIB
    assert len(status.message.encode()) <= MAX_MESSAGE_BYTES + 20
    assert len(error.one_line().encode()) < ONE_KIB  # the CLI's line too


# --- every game's large malformed request on every transport ----------------------------------------------------


def _path(game_name: str, rpc: str) -> str:
    return f"/{games()[game_name].service_full_name}/{rpc}"


@pytest.mark.parametrize("game_name", list(GAME_TABLE))
def test_over_grpc_a_default_client_gets_the_field_not_a_metadata_overflow(
    server: CampsolverServer, game_name: str
) -> None:
    rpc, request, field = CASES[game_name]
    assert request.ByteSize() > 30_000
    # Default channel options: the 16 KiB metadata limit a client has unless it raises it.
    with grpc.insecure_channel(server.address) as channel, pytest.raises(grpc.RpcError) as raised:
        channel.unary_unary(_path(game_name, rpc))(request.SerializeToString(), timeout=60)
    error = raised.value
    assert error.code() in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.RESOURCE_EXHAUSTED), error.details()
    details = dict(error.trailing_metadata())["grpc-status-details-bin"]
    status = status_pb2.Status.FromString(details)
    violations, reason = read_error_details((d.TypeName(), d.value) for d in status.details)
    assert violations and violations[0].field.startswith(field), violations
    assert reason in ("INVALID_FIELD", "LIMIT_EXCEEDED")
    assert len(error.details().encode()) + len(details) < ONE_KIB
    assert sum(len(k) + len(v) for k, v in error.trailing_metadata()) < ONE_KIB


def _post(
    server: CampsolverServer, path: str, body: bytes, headers: dict[str, str]
) -> tuple[int, dict[str, str], bytes]:
    assert server.http is not None
    connection = http.client.HTTPConnection("127.0.0.1", server.http.port, timeout=60)
    try:
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


@pytest.mark.parametrize("codec", ["json", "proto"])
@pytest.mark.parametrize("game_name", list(GAME_TABLE))
def test_over_connect_the_error_body_stays_under_a_kib(server: CampsolverServer, game_name: str, codec: str) -> None:
    rpc, request, field = CASES[game_name]
    body = json_format.MessageToJson(request, indent=None).encode() if codec == "json" else request.SerializeToString()
    status, _headers, data = _post(server, _path(game_name, rpc), body, {"Content-Type": f"application/{codec}"})
    assert status in (400, 429), data[:200]  # invalid_argument, resource_exhausted
    assert len(data) < ONE_KIB
    error = json.loads(data)
    assert error["code"] in ("invalid_argument", "resource_exhausted")
    assert error["message"].startswith(field)


@pytest.mark.parametrize("game_name", list(GAME_TABLE))
def test_over_grpc_web_message_and_details_stay_under_a_kib(server: CampsolverServer, game_name: str) -> None:
    import base64
    from urllib.parse import unquote

    rpc, request, field = CASES[game_name]
    status, head, data = _post(
        server,
        _path(game_name, rpc),
        grpc_web_frame(request.SerializeToString()),
        {"Content-Type": "application/grpc-web+proto", "X-Grpc-Web": "1"},
    )
    headers = grpc_web_status(head, data)
    assert status == 200 and headers["grpc-status"] in ("3", "8")
    message = unquote(headers["grpc-message"])
    details = base64.b64decode(headers["grpc-status-details-bin"] + "==")
    assert message.startswith(field)
    assert len(message.encode()) + len(details) < ONE_KIB + MAX_MESSAGE_BYTES  # details repeat the message
    assert len(details) < ONE_KIB
    # On the wire (percent-encoded message, base64 details): a few KiB at most, far below any header limit.
    assert len(headers["grpc-message"]) + len(headers["grpc-status-details-bin"]) < 4 * ONE_KIB


@pytest.mark.parametrize("game_name", list(GAME_TABLE))
def test_a_60_kb_unknown_json_field_name_is_not_repeated_back(server: CampsolverServer, game_name: str) -> None:
    rpc = CASES[game_name][0]
    body = json.dumps({"z" * 60_000: 1}).encode()
    status, _headers, data = _post(server, _path(game_name, rpc), body, {"Content-Type": "application/json"})
    assert status == 400 and len(data) < ONE_KIB
    error = json.loads(data)
    assert error["code"] == "invalid_argument"
    assert "has no field named" in error["message"] and "characters)" in error["message"]  # the name, excerpted


def test_field_paths_convert_between_proto_and_json_names_both_ways() -> None:
    """One walker names a field path for the CLI (JSON names) and for a wire violation (proto names), whichever
    spelling the path came in, indices kept and unknown segments left as they are."""
    from campsolver.service.errors import json_path, proto_path

    from campsolver.v1 import camper_tour_pb2 as ct

    hint = ct.CamperTourServiceHintRequest.DESCRIPTOR
    for given in ("options.time_limit_seconds", "options.timeLimitSeconds"):
        assert json_path(hint, given) == "options.timeLimitSeconds"
        assert proto_path(hint, given) == "options.time_limit_seconds"
    assert proto_path(hint, "history[3].state.campers[1].tokens") == "history[3].state.campers[1].tokens"
    assert json_path(hint, "nope[2].x") == proto_path(hint, "nope[2].x") == "nope[2].x"
