"""What the registry binds for each game: one object with a handler per RPC of the game's proto service, the
example requests and a warm-up.

The RPCs come from the `campsolver.v1` service descriptors (`rpc_names`), and a handler's Python name is the RPC's
in snake case (`MaxScore` -> `max_score`, `method_name`), so a new RPC in a .proto file is a missing method here
(tests/test_game_service.py fails until every game has it). A handler takes the request message and the call's
`Budget` and returns the response message; conversion between messages and rules-model objects lives beside it
in the game's `convert` module.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

from campsolver.solver.core.budget import Budget
from google.protobuf.message import Message

#: One handler: a request message and its budget -> the response message (errors are `service.errors`' own).
Handler = Callable[[Any, Budget], Message]


@runtime_checkable
class GameService(Protocol):
    """One game's service: the handlers of its proto service, examples keyed by RPC name, a warm-up."""

    #: The generated module (`campsolver.v1.<game>_pb2`) and the service's name in it.
    pb2: ModuleType
    service_name: str
    #: RPC name -> a function building an example request (`campsolver <game> <command> --example`, the tests).
    examples: Mapping[str, Callable[[], Message]]

    def hint(self, request: Any, budget: Budget) -> Message: ...

    def max_score(self, request: Any, budget: Budget) -> Message: ...

    def generate_puzzle(self, request: Any, budget: Budget) -> Message: ...

    def score(self, request: Any, budget: Budget) -> Message: ...

    def legal_moves(self, request: Any, budget: Budget) -> Message: ...

    def new_game(self, request: Any, budget: Budget) -> Message: ...

    def play(self, request: Any, budget: Budget) -> Message: ...

    def review(self, request: Any, budget: Budget) -> Message: ...

    def warm_up(self, request: Message | None = None) -> None:
        """Build what the first call would otherwise pay for: everything before the server reports SERVING
        (`request` None); only what `request` can use before a one-shot CLI call's time limit starts."""


def method_name(rpc_name: str) -> str:
    """The handler's attribute name for an RPC: `GeneratePuzzle` -> `generate_puzzle`."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", rpc_name).lower()


def rpc_names(service: GameService) -> list[str]:
    """The RPCs of the service's proto service, in declaration order (from the descriptors)."""
    return [method.name for method in service.pb2.DESCRIPTOR.services_by_name[service.service_name].methods]


def handler(service: GameService, rpc_name: str) -> Handler:
    """The handler of one RPC (AttributeError when the game has none)."""
    found = getattr(service, method_name(rpc_name))
    if not callable(found):
        raise TypeError(f"{type(service).__name__}.{method_name(rpc_name)} is not a handler")
    return found


def _nothing_to_warm(request: Message | None = None) -> None:
    """Nothing to build ahead of the first call."""


@dataclass(frozen=True)
class BoundService:
    """A `GameService` whose handlers are the functions of one `handlers` module (built by `bind`)."""

    pb2: ModuleType
    service_name: str
    examples: Mapping[str, Callable[[], Message]]
    hint: Handler
    max_score: Handler
    generate_puzzle: Handler
    score: Handler
    legal_moves: Handler
    new_game: Handler
    play: Handler
    review: Handler
    warm_up: Callable[..., None] = _nothing_to_warm


def bind(
    pb2: ModuleType,
    service_name: str,
    handlers: ModuleType,
    examples: Mapping[str, Callable[[], Message]],
    warm_up: Callable[..., None] = _nothing_to_warm,
) -> GameService:
    """The game's service: each RPC of the proto service bound to the `handlers` function of its snake-case name
    (an RPC without one fails here, at import)."""
    rpcs = [method.name for method in pb2.DESCRIPTOR.services_by_name[service_name].methods]
    bound = {method_name(rpc): getattr(handlers, method_name(rpc)) for rpc in rpcs}
    return BoundService(pb2=pb2, service_name=service_name, examples=examples, warm_up=warm_up, **bound)
