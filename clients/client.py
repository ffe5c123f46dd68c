"""A typed Python client: one method per RPC, deadlines as arguments, readable errors.

    with CampsolverClient("127.0.0.1:50051") as client:
        response = client.camper_tour.max_score(request, timeout=5.0)

Errors raise `CampsolverError` with the gRPC code, the message and the field violations from the rich status.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import grpc
from campsolver.service.errors import FieldViolation
from campsolver.service.registry import Game, game
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from grpc_status import rpc_status

#: Default per-call deadline in seconds when the caller gives none.
DEFAULT_TIMEOUT_S = 60.0


@dataclass
class CampsolverError(Exception):
    """A failed call: gRPC code, message, and the request fields at fault (if the server named any)."""

    code: grpc.StatusCode
    message: str
    violations: list[FieldViolation]

    def __str__(self) -> str:
        return f"{self.code.name}: {self.message}"

    @classmethod
    def from_rpc_error(cls, error: grpc.RpcError) -> CampsolverError:
        violations: list[FieldViolation] = []
        status = rpc_status.from_call(error) if isinstance(error, grpc.Call) else None
        if status is not None:
            for detail in status.details:
                if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                    bad_request = error_details_pb2.BadRequest()
                    detail.Unpack(bad_request)
                    violations.extend(FieldViolation(v.field, v.description) for v in bad_request.field_violations)
        code = error.code() if isinstance(error, grpc.Call) else grpc.StatusCode.UNKNOWN
        details = error.details() if isinstance(error, grpc.Call) else str(error)
        return cls(code=code, message=details or code.name, violations=violations)


class GameClient:
    """The RPCs of one game service."""

    def __init__(self, channel: grpc.Channel, game_name: str) -> None:
        self.game: Game = game(game_name)
        self._callables = {
            command.rpc_name: channel.unary_unary(
                f"/{self.game.service_full_name}/{command.rpc_name}",
                request_serializer=command.request_type.SerializeToString,
                response_deserializer=command.response_type.FromString,
            )
            for command in self.game.commands.values()
        }

    def call(self, rpc_name: str, request: Message, timeout: float | None = DEFAULT_TIMEOUT_S) -> Message:
        """Call `rpc_name` with a deadline of `timeout` seconds (None: no deadline)."""
        try:
            return self._callables[rpc_name](request, timeout=timeout)
        except grpc.RpcError as error:
            raise CampsolverError.from_rpc_error(error) from None

    def call_future(self, rpc_name: str, request: Message, timeout: float | None = DEFAULT_TIMEOUT_S) -> Any:
        """Start a call and return its future (cancel it with `.cancel()`)."""
        return self._callables[rpc_name].future(request, timeout=timeout)

    def hint(self, request: Message, timeout: float | None = DEFAULT_TIMEOUT_S) -> Message:
        """The best move now with every alternative ranked."""
        return self.call("Hint", request, timeout)

    def max_score(self, request: Message, timeout: float | None = DEFAULT_TIMEOUT_S) -> Message:
        """The theoretical maximum with its proof status."""
        return self.call("MaxScore", request, timeout)

    def generate_puzzle(self, request: Message, timeout: float | None = DEFAULT_TIMEOUT_S) -> Message:
        """A seeded puzzle with a proven unique optimum."""
        return self.call("GeneratePuzzle", request, timeout)

    def score(self, request: Message, timeout: float | None = DEFAULT_TIMEOUT_S) -> Message:
        """Score a state by the rules model."""
        return self.call("Score", request, timeout)

    def legal_moves(self, request: Message, timeout: float | None = DEFAULT_TIMEOUT_S) -> Message:
        """The legal moves of a state."""
        return self.call("LegalMoves", request, timeout)


class CampsolverClient:
    """A connection to a campsolver server with one `GameClient` per game."""

    def __init__(self, target: str = "127.0.0.1:50051", *, channel: grpc.Channel | None = None) -> None:
        self.target = target
        self.channel = channel or grpc.insecure_channel(target)
        self.happy_campers = GameClient(self.channel, "happy-campers")
        self.deluxe_camping = GameClient(self.channel, "deluxe-camping")
        self.campsite = GameClient(self.channel, "campsite")
        self.camper_tour = GameClient(self.channel, "camper-tour")
        self.adventure_tours = GameClient(self.channel, "adventure-tours")

    def game(self, name: str) -> GameClient:
        """The client of a game by its CLI name (e.g. "camper-tour")."""
        return getattr(self, name.replace("-", "_"))

    def wait_ready(self, timeout: float = 10.0) -> None:
        grpc.channel_ready_future(self.channel).result(timeout=timeout)

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> CampsolverClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
