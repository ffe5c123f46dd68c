"""The games of `campsolver.v1` and their RPCs, read from the generated descriptors: the table a client calls by.

Which games exist, in the order the project lists them, and each one's generated module and service are named
here; each RPC's name and its request and response types come from the service descriptor, so the proto files
stay the single source of truth. The server's registry (`campsolver.service.registry`) binds its handlers to
this same table; the clients use it as is, without loading the service or any solver.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cache

from google.protobuf import message_factory
from google.protobuf.message import Message

#: CLI command name -> RPC method name, in the order the CLI lists them.
COMMANDS: dict[str, str] = {
    "hint": "Hint",
    "max": "MaxScore",
    "puzzle": "GeneratePuzzle",
    "score": "Score",
    "legal": "LegalMoves",
    "new": "NewGame",
    "play": "Play",
    "review": "Review",
}

#: CLI game name -> (generated module, service name), in the order the project lists the games.
GAME_SERVICES: dict[str, tuple[str, str]] = {
    "happy-campers": ("campsolver.v1.happy_campers_pb2", "HappyCampersService"),
    "deluxe-camping": ("campsolver.v1.deluxe_camping_pb2", "DeluxeCampingService"),
    "campsite": ("campsolver.v1.campsite_pb2", "CampsiteService"),
    "camper-tour": ("campsolver.v1.camper_tour_pb2", "CamperTourService"),
    "adventure-tours": ("campsolver.v1.adventure_tours_pb2", "AdventureToursService"),
}


@dataclass(frozen=True)
class Rpc:
    """One RPC of one game service, as its descriptor declares it."""

    game_name: str  # the game's CLI name, e.g. "happy-campers"
    rpc_name: str  # e.g. "MaxScore"
    request_type: type[Message]
    response_type: type[Message]


@dataclass(frozen=True)
class GameService:
    """One game's service: its full name and every RPC it declares, by RPC name in declaration order."""

    cli_name: str
    service_full_name: str
    rpcs: dict[str, Rpc] = field(default_factory=dict)

    def by_rpc(self, rpc_name: str) -> Rpc:
        """The RPC named `rpc_name` (KeyError when the service declares none)."""
        return self.rpcs[rpc_name]


def load_service(cli_name: str, module_name: str, service_name: str) -> GameService:
    """Read `service_name` of the generated module `module_name` into a `GameService` (uncached)."""
    service = importlib.import_module(module_name).DESCRIPTOR.services_by_name[service_name]
    rpcs = {
        method.name: Rpc(
            game_name=cli_name,
            rpc_name=method.name,
            request_type=message_factory.GetMessageClass(method.input_type),
            response_type=message_factory.GetMessageClass(method.output_type),
        )
        for method in service.methods
    }
    return GameService(cli_name=cli_name, service_full_name=service.full_name, rpcs=rpcs)


@cache
def game_service(cli_name: str) -> GameService:
    """One game's service, loading only its own generated module."""
    if cli_name not in GAME_SERVICES:
        raise KeyError(f"unknown game {cli_name!r}; choose one of {', '.join(GAME_SERVICES)}")
    return load_service(cli_name, *GAME_SERVICES[cli_name])


def game_services() -> dict[str, GameService]:
    """Every game's service, keyed by its CLI name."""
    return {name: game_service(name) for name in GAME_SERVICES}
