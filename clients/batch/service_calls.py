"""Generic service calls for batch tasks: a proto3-JSON request through `campsolver.service.dispatch.run`.

Batch tasks go through the same registry and handler path as the gRPC servicer and the CLI, so a batch row is
exactly what the service would answer.
"""

from __future__ import annotations

from typing import Any

from campsolver.service import dispatch
from campsolver.service.errors import RequestError
from campsolver.service.registry import GAME_TABLE, game
from campsolver.solver.core.budget import Budget
from google.protobuf import json_format
from google.protobuf.message import Message

from campsolver.v1 import common_pb2


class NotImplementedGames(Exception):
    """Some requested games have no service behind the RPC a job needs."""


def implemented(game_name: str, command: str) -> bool:
    return game(game_name).commands[command].handler is not None


def check_games(games: list[str], command: str, job: str) -> None:
    """Refuse unknown games and games whose service cannot answer `command`, naming every one of them."""
    unknown = [name for name in games if name not in GAME_TABLE]
    if unknown:
        raise NotImplementedGames(f"--games: unknown game(s) {', '.join(unknown)}; choose from {', '.join(GAME_TABLE)}")
    missing = [name for name in games if not implemented(name, command)]
    if missing:
        ready = [name for name in GAME_TABLE if implemented(name, command)]
        raise NotImplementedGames(
            f"batch {job}: the service of {', '.join(missing)} is not implemented yet "
            f"(ready: {', '.join(ready) or 'none'}); pass --games with those"
        )


def call(game_name: str, command: str, request: dict[str, Any], budget: Budget) -> Message:
    """Answer a proto3-JSON `request` with the game's handler under `budget` (errors raised as RuntimeError)."""
    spec = game(game_name).commands[command]
    message = spec.request_type()
    json_format.ParseDict(request, message)
    if "options" in message.DESCRIPTOR.fields_by_name:
        message.options.time_limit_seconds = min(budget.remaining(), dispatch.MAX_TIME_LIMIT_S)  # type: ignore[attr-defined]
    try:
        return dispatch.run(spec, message, budget)
    except RequestError as error:
        raise RuntimeError(f"{game_name} {command}: {error.code.name}: {error.detail()}") from None


def proof_name(value: int) -> str:
    """`OPTIMAL`, `EXACT`, ... from a ProofStatus number."""
    return common_pb2.ProofStatus.Name(value).removeprefix("PROOF_STATUS_")


def grade_name(value: int) -> str:
    return common_pb2.DifficultyGrade.Name(value).removeprefix("DIFFICULTY_GRADE_").lower()


def to_dict(message: Message) -> dict[str, Any]:
    return json_format.MessageToDict(message, preserving_proto_field_name=True)
