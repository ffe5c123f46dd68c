"""Every game binds one `GameService` that answers every RPC its proto service declares.

The RPC list comes from the `campsolver.v1` descriptors, never from the handlers, so an RPC added to a .proto
file without a handler in every game fails here; the registry binds the same objects the server and CLI use."""

from __future__ import annotations

import importlib
import inspect

import pytest
from campsolver.service import registry
from campsolver.service.games import protocol
from campsolver.service.games.protocol import GameService, method_name

GAMES = sorted(registry.GAME_TABLE)


def _service(game: str) -> GameService:
    return importlib.import_module(f"campsolver.service.games.{registry.GAME_TABLE[game][2]}").SERVICE


def _declared_rpcs(game: str) -> list[str]:
    pb2_name, service_name, _ = registry.GAME_TABLE[game]
    service = importlib.import_module(pb2_name).DESCRIPTOR.services_by_name[service_name]
    return [method.name for method in service.methods]


def test_method_names_are_the_rpc_names_in_snake_case() -> None:
    assert [method_name(rpc) for rpc in ("Hint", "MaxScore", "GeneratePuzzle", "LegalMoves", "NewGame")] == [
        "hint",
        "max_score",
        "generate_puzzle",
        "legal_moves",
        "new_game",
    ]


def test_the_protocol_names_every_rpc_of_every_proto_service() -> None:
    declared = {method_name(rpc) for game in GAMES for rpc in _declared_rpcs(game)}
    members = {name for name, _ in inspect.getmembers(GameService, inspect.isfunction) if not name.startswith("_")} - {
        "warm_up"
    }
    assert members == declared


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_a_handler_and_an_example_for_every_rpc_of_its_service(game: str) -> None:
    service = _service(game)
    assert isinstance(service, GameService)
    pb2_name, service_name, _ = registry.GAME_TABLE[game]
    assert (service.pb2.__name__, service.service_name) == (pb2_name, service_name)
    rpcs = _declared_rpcs(game)
    assert protocol.rpc_names(service) == rpcs
    for rpc in rpcs:
        # the game's own function, not the protocol's empty body
        found = protocol.handler(service, rpc)
        assert found.__module__.startswith("campsolver.service.games."), (game, rpc, found)
        assert inspect.signature(found).parameters.keys() == {"request", "budget"}, (game, rpc)
        assert rpc in service.examples, f"{game} {rpc} needs an example request"
    assert set(service.examples) == set(rpcs)
    assert callable(service.warm_up)


@pytest.mark.parametrize("game", GAMES)
def test_the_registry_binds_the_game_service(game: str) -> None:
    service = _service(game)
    bound = registry.game(game)
    assert {command.rpc_name for command in bound.commands.values()} == set(_declared_rpcs(game))
    for command in bound.commands.values():
        assert command.handler == protocol.handler(service, command.rpc_name)
        assert command.example is service.examples[command.rpc_name]
        request_type = (
            importlib.import_module(service.pb2.__name__)
            .DESCRIPTOR.services_by_name[service.service_name]
            .methods_by_name[command.rpc_name]
            .input_type
        )
        assert command.request_type.DESCRIPTOR is request_type
    assert bound.warm_up == service.warm_up


def test_a_missing_handler_is_found() -> None:
    """The check above fails for a service missing one RPC (what a new RPC without a handler looks like)."""

    class Partial:
        pb2 = _service("campsite").pb2
        service_name = "CampsiteService"

    with pytest.raises(AttributeError):
        protocol.handler(Partial(), "Review")
