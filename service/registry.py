"""Which games exist, their RPCs, and the handler behind each: the one mapping used by server and CLI.

The games and their RPCs are the shared table of `campsolver.api.rpcs` (request and response types read from the
generated service descriptors, so the proto files stay the single source of truth; the clients use that table
alone); each game package binds one `GameService` (`service.games.protocol`: a handler per RPC, proto request +
budget -> proto response, example requests and a warm-up) as its `SERVICE`.
(`--format text` is the client's business: `campsolver.clients.textout`.)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from campsolver.service.games import protocol
from campsolver.service.games.protocol import GameService, Handler
from google.protobuf.message import Message

from campsolver.api.rpcs import COMMANDS, GAME_SERVICES, load_service

__all__ = ["COMMANDS", "GAME_TABLE", "Command", "Game", "Handler", "game", "games"]

#: CLI game name -> (generated module, service name, handler module under campsolver.service.games; "" = none).
GAME_TABLE: dict[str, tuple[str, str, str]] = {
    name: (module_name, service_name, name.replace("-", "_"))
    for name, (module_name, service_name) in GAME_SERVICES.items()
}


@dataclass(frozen=True)
class Command:
    """One RPC of one game."""

    game_name: str  # the game's CLI name, e.g. "happy-campers"
    cli_name: str
    rpc_name: str
    request_type: type[Message]
    response_type: type[Message]
    handler: Handler | None  # None: answers UNIMPLEMENTED
    example: Callable[[], Message] | None


@dataclass(frozen=True)
class Game:
    """One game service."""

    cli_name: str
    service_full_name: str
    commands: dict[str, Command] = field(default_factory=dict)
    warm_up: Callable[..., None] | None = None  # warm_up() before serving; warm_up(request) before one CLI call

    @property
    def implemented(self) -> bool:
        return any(command.handler is not None for command in self.commands.values())

    def by_rpc(self, rpc_name: str) -> Command:
        for command in self.commands.values():
            if command.rpc_name == rpc_name:
                return command
        raise KeyError(rpc_name)


@cache
def _load_game(cli_name: str) -> Game:
    pb2_name, service_name, handler_module_name = GAME_TABLE[cli_name]
    service = load_service(cli_name, pb2_name, service_name)
    bound: GameService | None = None
    if handler_module_name:
        bound = importlib.import_module(f"campsolver.service.games.{handler_module_name}").SERVICE
    commands: dict[str, Command] = {}
    for cli_command, rpc_name in COMMANDS.items():
        rpc = service.by_rpc(rpc_name)
        handler = protocol.handler(bound, rpc_name) if bound else None
        example = bound.examples.get(rpc_name) if bound else None
        commands[cli_command] = Command(
            game_name=cli_name,
            cli_name=cli_command,
            rpc_name=rpc_name,
            request_type=rpc.request_type,
            response_type=rpc.response_type,
            handler=handler,
            example=example,
        )
    warm_up = bound.warm_up if bound else None
    return Game(cli_name=cli_name, service_full_name=service.service_full_name, commands=commands, warm_up=warm_up)


@cache
def games() -> dict[str, Game]:
    """Every game, keyed by its CLI name."""
    return {name: _load_game(name) for name in GAME_TABLE}


def game(cli_name: str) -> Game:
    """One game, loading only its own modules (the CLI asks for one game; the server loads them all)."""
    if cli_name not in GAME_TABLE:
        raise KeyError(f"unknown game {cli_name!r}; choose one of {', '.join(GAME_TABLE)}")
    return _load_game(cli_name)
