"""The gRPC server: every game service, health, reflection, solve concurrency and graceful shutdown.

Handlers are registered generically from the service descriptors (`service.registry`), so adding a game
never touches this file. Each call: deadline -> budget, cancel -> budget.cancel (which stops CP-SAT and
expectimax), a slot from the solve gate, then `service.dispatch.run`.
"""

from __future__ import annotations

import logging
import signal
import threading
from concurrent import futures
from dataclasses import dataclass

import grpc
from campsolver.service import dispatch
from campsolver.service.errors import RequestError, ServerBusy
from campsolver.service.registry import Command, Game, games
from google.protobuf.message import Message
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from grpc_status import rpc_status

log = logging.getLogger("campsolver.server")

#: Largest request or response accepted, in bytes (beyond it gRPC answers RESOURCE_EXHAUSTED).
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
#: Seconds in-flight calls get to finish after SIGTERM.
SHUTDOWN_GRACE_S = 30.0


@dataclass
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 50051
    workers: int = 2  # solves at once; further solves wait for a slot until their deadline
    max_message_bytes: int = MAX_MESSAGE_BYTES


class SolveGate:
    """Admits at most `workers` solves at once; a waiting call gives up when its budget is spent."""

    def __init__(self, workers: int) -> None:
        self._slots = threading.BoundedSemaphore(workers)

    def acquire(self, timeout_s: float) -> bool:
        return self._slots.acquire(timeout=max(timeout_s, 0.0))

    def release(self) -> None:
        self._slots.release()


def _unary_handler(command: Command, gate: SolveGate):
    def handle(request: Message, context: grpc.ServicerContext) -> Message:
        error: RequestError | None = None
        response: Message | None = None
        try:
            budget = dispatch.budget_for(request, context.time_remaining())
            context.add_callback(budget.cancel)
            if not gate.acquire(budget.remaining()):
                raise ServerBusy("every solver slot stayed busy for the whole solve budget; try again")
            try:
                response = dispatch.run(command, request, budget)
            finally:
                gate.release()
        except RequestError as request_error:
            error = request_error
        except Exception:  # never a traceback to the client, never a dead server
            log.exception("internal error in %s", command.rpc_name)
            context.abort(grpc.StatusCode.INTERNAL, "internal error (logged on the server)")
        if error is not None:
            context.abort_with_status(rpc_status.to_status(error.to_status()))
        return response

    return handle


def _generic_handler(game: Game, gate: SolveGate) -> grpc.GenericRpcHandler:
    methods = {
        command.rpc_name: grpc.unary_unary_rpc_method_handler(
            _unary_handler(command, gate),
            request_deserializer=command.request_type.FromString,
            response_serializer=command.response_type.SerializeToString,
        )
        for command in game.commands.values()
    }
    return grpc.method_handlers_generic_handler(game.service_full_name, methods)


class CampsolverServer:
    """A running server with its health servicer, so callers (and tests) can stop it cleanly."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        options = [
            ("grpc.max_receive_message_length", config.max_message_bytes),
            ("grpc.max_send_message_length", config.max_message_bytes),
            ("grpc.so_reuseport", 0),  # a second server on a taken port must fail, not share it
        ]
        # More threads than solve slots, so health checks and queued calls are still answered.
        self._pool = futures.ThreadPoolExecutor(max_workers=config.workers + 8)
        self.server = grpc.server(self._pool, options=options)
        gate = SolveGate(config.workers)
        self.health = health.HealthServicer(experimental_non_blocking=True)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.server)
        service_names = [health.SERVICE_NAME, reflection.SERVICE_NAME]
        for game in games().values():
            self.server.add_generic_rpc_handlers((_generic_handler(game, gate),))
            service_names.append(game.service_full_name)
            self.health.set(game.service_full_name, health_pb2.HealthCheckResponse.NOT_SERVING)
        self.health.set("", health_pb2.HealthCheckResponse.NOT_SERVING)
        reflection.enable_server_reflection(service_names, self.server)
        try:
            self.port = self.server.add_insecure_port(f"{config.host}:{config.port}")
        except RuntimeError as error:  # grpcio reports a taken port this way
            raise OSError(f"cannot listen on {config.host}:{config.port} ({error})") from None
        if self.port == 0:
            raise OSError(f"cannot listen on {config.host}:{config.port}")

    @property
    def address(self) -> str:
        return f"{self.config.host}:{self.port}"

    def start(self) -> None:
        self.server.start()
        for game in games().values():
            if game.warm_up is not None:
                game.warm_up()
            self.health.set(game.service_full_name, health_pb2.HealthCheckResponse.SERVING)
        self.health.set("", health_pb2.HealthCheckResponse.SERVING)

    def stop(self, grace_s: float = SHUTDOWN_GRACE_S) -> None:
        """Stop taking calls, let in-flight calls finish (up to `grace_s`), then stop."""
        self.health.enter_graceful_shutdown()
        self.server.stop(grace_s).wait()
        self._pool.shutdown(wait=False, cancel_futures=True)


def serve(config: ServerConfig) -> None:
    """Run until SIGTERM or SIGINT, then drain in-flight calls and exit."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    server = CampsolverServer(config)
    server.start()
    print(f"campsolver listening on {server.address} (workers={config.workers})", flush=True)
    stop_requested = threading.Event()

    def on_signal(signum: int, _frame: object) -> None:
        log.info("signal %s: draining in-flight calls", signal.Signals(signum).name)
        stop_requested.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    stop_requested.wait()
    server.stop()
    print("campsolver stopped", flush=True)
