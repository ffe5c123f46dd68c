"""The gRPC server: every game service, health, reflection, solve concurrency and graceful shutdown.

Handlers are registered generically from the service descriptors (`service.registry`), so adding a game
never touches this file. Each call: the request bytes are parsed inside the handler (bad bytes or invalid
UTF-8 -> INVALID_ARGUMENT), deadline -> budget, cancel -> budget.cancel (which stops CP-SAT and expectimax),
then the handler. By default real solves run in worker processes (`service.workers`, one per solver slot):
the handler first runs here until it consults its budget (`dispatch.answer_cheaply`), so cheap calls and
refused requests are answered in this process, and only a call that starts solving takes a slot and is sent,
as bytes, to that slot's worker. With `solve_in_process` (tests, debugging) solves run on this process's
threads instead (`service.dispatch.run`, taking a slot at the handler's first look at its budget).

Shutdown (SIGTERM): health says NOT_SERVING for `drain_announce_s` while calls are still accepted (so a load
balancer watching health stops sending), then the server stops accepting and in-flight calls get
`SHUTDOWN_GRACE_S` to finish.
"""

from __future__ import annotations

import logging
import signal
import socket
import sys
import threading
import time
from concurrent import futures
from dataclasses import dataclass

import grpc
from campsolver.service import dispatch
from campsolver.service.dispatch import SolveGate
from campsolver.service.errors import InternalError, MalformedRequest, RequestError, excerpt
from campsolver.service.metrics import CallRecord, Metrics, configure_logging, record_cpsat_solves
from campsolver.service.registry import Command, Game, games
from campsolver.service.workers import WORKER_NICE, WorkerPool
from campsolver.solver.core.budget import Budget, freeze_long_lived_objects
from google.protobuf.message import DecodeError, Message
from google.rpc import status_pb2
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2, reflection_pb2_grpc
from grpc_status import rpc_status

log = logging.getLogger("campsolver.server")

#: Largest request or response accepted, in bytes (beyond it gRPC answers RESOURCE_EXHAUSTED).
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
#: Seconds in-flight calls get to finish after SIGTERM.
SHUTDOWN_GRACE_S = 30.0
#: Seconds health reports NOT_SERVING, while calls are still accepted, before the server stops accepting.
DRAIN_ANNOUNCE_S = 5.0
#: A handler that works longer than this before it first consults its budget is logged: validation should be
#: cheap, and everything before that first look runs in the server process (and again in the worker).
SLOW_PROBE_S = 0.05
#: See ServerConfig.gil_switch_interval_s.
GIL_SWITCH_INTERVAL_S = 0.0005
#: grpcio-reflection 1.81 ships only v1alpha; v1 has the same messages under another package name, so the
#: v1alpha servicer answers it too (grpcurl and other v1 clients try it first).
REFLECTION_V1_SERVICE = "grpc.reflection.v1.ServerReflection"


@dataclass
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 50051
    workers: int = 2  # solves at once; further solves wait for a slot until their deadline
    max_message_bytes: int = MAX_MESSAGE_BYTES
    drain_announce_s: float = DRAIN_ANNOUNCE_S
    shutdown_grace_s: float = SHUTDOWN_GRACE_S
    tls_cert_chain: bytes | None = None  # PEM; with tls_private_key: serve TLS instead of plaintext
    tls_private_key: bytes | None = None
    #: Python's GIL switch interval in the server process. Solver threads running Python hold the GIL for
    #: the whole interval (5 ms by default); a shorter one lets cheap calls through between their slices.
    gil_switch_interval_s: float = GIL_SWITCH_INTERVAL_S
    #: Solve on threads of the gRPC process instead of worker processes (debugging; a debugger sees the solve).
    solve_in_process: bool = False
    #: multiprocessing start method of the solver workers (None: forkserver where available, else spawn; "fork"
    #: is refused, see `WorkerPool._make_context`).
    worker_start_method: str | None = None
    #: Niceness added to the solver workers, so cheap calls get the CPU first on a busy machine (0: none).
    worker_nice: int = WORKER_NICE
    #: Port of the HTTP side (Connect, gRPC-Web, the web table) on `host`; None: no HTTP, 0: any free port.
    http_port: int | None = None
    #: Origins whose browser pages may call the HTTP side cross-origin (CORS); none by default.
    cors_origins: tuple[str, ...] = ()
    #: Log lines as text or as one JSON object a line ("json"), the access log's line per call included.
    log_format: str = "text"
    #: HTTP side: seconds a connection may take to send a request's headers, and its body (then it is closed),
    #: and the most connections open at once (see `service.http_server`).
    http_header_timeout_s: float | None = None
    http_body_timeout_s: float | None = None
    http_max_connections: int | None = None


def answer(
    command: Command,
    request: Message,
    raw: bytes,
    budget: Budget,
    gate: SolveGate,
    pool: WorkerPool | None,
    record: CallRecord | None = None,
    answer_by: float | None = None,
) -> bytes:
    """The response bytes of one parsed call, the one path of every transport (gRPC and HTTP).

    In-process solves run here under `gate`; otherwise the handler first runs here until it consults its budget
    (`dispatch.answer_cheaply`: cheap calls and refused requests are answered at once), and only a call that
    starts solving takes a slot and goes, as the request bytes `raw`, to that slot's worker. Raises
    `RequestError`s for the transport to render. `record` (the metrics) learns the fallback, the worker's CPU
    seconds and the CP-SAT solves; `answer_by` is the RPC deadline (`time.monotonic()`), which a hint keeps.
    """
    if pool is None:
        record_cpsat_solves(record)
        try:
            response = dispatch.run(command, request, budget, gate)
        finally:
            record_cpsat_solves(None)
        if record is not None:
            record.note_response(response)
        return response.SerializeToString()
    if budget.remaining() < dispatch.MIN_SEARCH_S:  # a hint with no time to search: validated and answered here,
        response = dispatch.answer_without_search(command, request)  # once (a loaded machine needs every ms)
        if response is not None:
            if record is not None:
                record.note_response(response)
            return response.SerializeToString()
    probe_started = time.monotonic()
    response = dispatch.answer_cheaply(command, request, budget)
    if response is not None:
        return response.SerializeToString()
    probe_s = time.monotonic() - probe_started
    if probe_s > SLOW_PROBE_S:  # that work ran on this process's GIL, and runs again in the worker
        log.warning(
            "%s %s worked %.0f ms before consulting its budget", command.game_name, command.rpc_name, 1000 * probe_s
        )
    return pool.solve(command, raw, budget, gate, record, answer_by)


def parse_request(command: Command, raw: bytes) -> Message:
    """The request message of `raw` (bad bytes or invalid UTF-8: MalformedRequest, INVALID_ARGUMENT)."""
    try:
        return command.request_type.FromString(raw)
    except (DecodeError, ValueError) as error:
        raise MalformedRequest(
            f"the request is not a valid {command.request_type.DESCRIPTOR.full_name} ({excerpt(str(error), 160)})"
        ) from None


def failure_status(command: Command, error: Exception) -> status_pb2.Status:
    """The `google.rpc.Status` a failed call answers, whatever its transport: a RequestError's own status, and
    for anything else INTERNAL with no detail (the traceback is logged here, never sent)."""
    if not isinstance(error, RequestError):
        log.error("internal error in %s %s", command.game_name, command.rpc_name, exc_info=error)
        error = InternalError("internal error (logged on the server)")
    return error.to_status()


def _unary_handler(command: Command, gate: SolveGate, pool: WorkerPool | None, metrics: Metrics):
    def handle(raw: bytes, context: grpc.ServicerContext) -> bytes:
        record = CallRecord("grpc", command.game_name, command.rpc_name)
        remaining_at_start = context.time_remaining()
        answer_by = None if remaining_at_start is None else record.started + remaining_at_start
        record.deadline_s = remaining_at_start
        try:
            request = parse_request(command, raw)
            budget = dispatch.budget_for(request, remaining_at_start)
            context.add_callback(budget.cancel)
            data = answer(command, request, raw, budget, gate, pool, record, answer_by)
            remaining = context.time_remaining()
            if remaining is not None and remaining <= 0:  # answered after the deadline: the client saw that
                record.code = grpc.StatusCode.DEADLINE_EXCEEDED.name
            return data
        except Exception as error:  # never a traceback to the client, never a dead server
            failure = failure_status(command, error)
            record.code = code_name(failure.code)
        finally:
            record.take_thread_cpu()
            metrics.finish(record)
        context.abort_with_status(rpc_status.to_status(failure))
        raise AssertionError("abort_with_status returns only by raising")

    return handle


def code_name(number: int) -> str:
    """The gRPC code name of a status number (UNKNOWN for a number gRPC does not define)."""
    for code in grpc.StatusCode:
        if code.value[0] == number:
            return code.name
    return grpc.StatusCode.UNKNOWN.name


def _generic_handler(game: Game, gate: SolveGate, pool: WorkerPool | None, metrics: Metrics) -> grpc.GenericRpcHandler:
    methods = {
        command.rpc_name: grpc.unary_unary_rpc_method_handler(_unary_handler(command, gate, pool, metrics))
        for command in game.commands.values()
    }
    return grpc.method_handlers_generic_handler(game.service_full_name, methods)


def register_reflection_v1_descriptor() -> None:
    """Put `grpc.reflection.v1`'s descriptor in the default pool, so reflection can describe the v1 service it
    serves (grpcurl's `describe grpc.reflection.v1.ServerReflection` said "Symbol not found").

    grpcio-reflection ships only v1alpha's generated code; v1 is the same file under another package, so its
    descriptor is v1alpha's with the package and the type references renamed. Idempotent.
    """
    from google.protobuf import descriptor_pb2, descriptor_pool

    pool = descriptor_pool.Default()
    try:
        pool.FindServiceByName(REFLECTION_V1_SERVICE)
        return
    except KeyError:
        pass
    old, new = ".grpc.reflection.v1alpha.", ".grpc.reflection.v1."
    proto = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(proto)
    proto.name, proto.package = "grpc/reflection/v1/reflection.proto", "grpc.reflection.v1"
    for message in proto.message_type:
        for item in message.field:
            if item.HasField("type_name"):
                item.type_name = item.type_name.replace(old, new)
    for service in proto.service:
        for method in service.method:
            method.input_type = method.input_type.replace(old, new)
            method.output_type = method.output_type.replace(old, new)
    pool.AddSerializedFile(proto.SerializeToString())


def _reflection_v1_handler(servicer: reflection.ReflectionServicer) -> grpc.GenericRpcHandler:
    method = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
    )
    return grpc.method_handlers_generic_handler(REFLECTION_V1_SERVICE, {"ServerReflectionInfo": method})


def _check_port_free(host: str, port: int) -> None:
    """One clear line for a taken port (gRPC itself logs a C-core error line and returns 0)."""
    if port == 0:
        return
    host = host.strip("[]")  # "[::1]" in a gRPC address is "::1" to a socket
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gRPC does: TIME_WAIT is no conflict
        try:
            probe.bind((host, port))
        except OSError as error:
            raise OSError(f"cannot listen on {host}:{port}: {error.strerror}") from None


class CampsolverServer:
    """A running server with its health servicer, so callers (and tests) can stop it cleanly."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        options = [
            ("grpc.max_receive_message_length", config.max_message_bytes),
            ("grpc.max_send_message_length", config.max_message_bytes),
            ("grpc.so_reuseport", 0),  # a second server on a taken port must fail, not share it
        ]
        _check_port_free(config.host, config.port)
        # More threads than solve slots, so cheap calls, health checks and queued calls are still answered.
        self._pool = futures.ThreadPoolExecutor(max_workers=config.workers + 32)
        self.server = grpc.server(self._pool, options=options)
        self.gate = SolveGate(config.workers)
        self.pool = (
            None
            if config.solve_in_process
            else WorkerPool(config.workers, config.worker_start_method, config.worker_nice, config.log_format)
        )
        self.metrics = Metrics(self.gate.state, lambda: self.pool.restarts if self.pool is not None else 0)
        self.health = health.HealthServicer(experimental_non_blocking=True)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.server)
        service_names = [health.SERVICE_NAME, reflection.SERVICE_NAME, REFLECTION_V1_SERVICE]
        for game in games().values():
            self.server.add_generic_rpc_handlers((_generic_handler(game, self.gate, self.pool, self.metrics),))
            service_names.append(game.service_full_name)
            self.health.set(game.service_full_name, health_pb2.HealthCheckResponse.NOT_SERVING)
        self.health.set("", health_pb2.HealthCheckResponse.NOT_SERVING)
        register_reflection_v1_descriptor()
        reflection_servicer = reflection.ReflectionServicer(service_names)
        reflection_pb2_grpc.add_ServerReflectionServicer_to_server(reflection_servicer, self.server)
        self.server.add_generic_rpc_handlers((_reflection_v1_handler(reflection_servicer),))
        address = f"{config.host}:{config.port}"
        try:
            if config.tls_cert_chain and config.tls_private_key:
                credentials = grpc.ssl_server_credentials([(config.tls_private_key, config.tls_cert_chain)])
                self.port = self.server.add_secure_port(address, credentials)
            else:
                self.port = self.server.add_insecure_port(address)
        except RuntimeError as error:  # grpcio reports a taken port this way
            raise OSError(f"cannot listen on {address} ({error})") from None
        if self.port == 0:
            raise OSError(f"cannot listen on {address}")
        self.http = None
        if config.http_port is not None:
            from campsolver.service.http_server import HttpConfig, HttpServer

            self.http = HttpServer(
                HttpConfig(
                    host=config.host,
                    port=config.http_port,
                    cors_origins=config.cors_origins,
                    max_message_bytes=config.max_message_bytes,
                    tls_cert_chain=config.tls_cert_chain,
                    tls_private_key=config.tls_private_key,
                    shutdown_grace_s=config.shutdown_grace_s,
                    threads=config.workers + 32,
                    header_timeout_s=config.http_header_timeout_s,
                    body_timeout_s=config.http_body_timeout_s,
                    max_connections=config.http_max_connections,
                ),
                games(),
                lambda command, request, raw, budget, record, answer_by: answer(
                    command, request, raw, budget, self.gate, self.pool, record, answer_by
                ),
                failure_status,
                self.health,
                self.metrics,
            )
        self.draining = threading.Event()

    @property
    def address(self) -> str:
        return f"{self.config.host}:{self.port}"

    def start(self) -> None:
        """Start serving; a game service says SERVING once warmed up (and its solver workers are ready), and only
        if it is implemented."""
        self.server.start()
        if self.http is not None:
            self.http.start()
        if self.pool is not None:
            self.pool.start()
        for game in games().values():
            if not game.implemented:
                continue  # stays NOT_SERVING: every call would answer UNIMPLEMENTED
            if game.warm_up is not None:
                game.warm_up()
            self.health.set(game.service_full_name, health_pb2.HealthCheckResponse.SERVING)
        freeze_long_lived_objects()  # in-process solves and cheap calls: no full collection walks the imports
        self.health.set("", health_pb2.HealthCheckResponse.SERVING)

    def announce_draining(self) -> None:
        """Health says NOT_SERVING for every service; calls are still accepted and answered."""
        self.draining.set()
        self.health.enter_graceful_shutdown()

    def stop(self, grace_s: float | None = None) -> None:
        """Stop taking calls, let in-flight calls finish (up to `grace_s`), then stop."""
        self.announce_draining()
        grace = self.config.shutdown_grace_s if grace_s is None else grace_s
        stopped = self.server.stop(grace)
        if self.http is not None:
            self.http.stop(grace)  # meanwhile gRPC's in-flight calls finish too
        stopped.wait()
        self._pool.shutdown(wait=False, cancel_futures=True)
        if self.pool is not None:
            self.pool.close()

    def drain(self, announce_s: float | None = None) -> None:
        """The SIGTERM sequence: announce NOT_SERVING, keep accepting for `announce_s`, then stop and drain."""
        self.announce_draining()
        threading.Event().wait(self.config.drain_announce_s if announce_s is None else announce_s)
        self.stop()


def serve(config: ServerConfig) -> None:
    """Run until SIGTERM or SIGINT, then announce, drain in-flight calls and exit."""
    configure_logging(config.log_format)
    if config.gil_switch_interval_s:
        sys.setswitchinterval(config.gil_switch_interval_s)
    server = CampsolverServer(config)
    server.start()
    scheme = "TLS" if config.tls_cert_chain else "plaintext"
    where = "in-process" if config.solve_in_process else "worker processes"
    print(f"campsolver listening on {server.address} ({scheme}, workers={config.workers}, {where})", flush=True)
    if server.http is not None:
        cors = ", ".join(config.cors_origins) or "none"
        print(f"campsolver HTTP (Connect, gRPC-Web, web table) on {server.http.url} (CORS origins: {cors})", flush=True)
    stop_requested = threading.Event()
    announce = {"seconds": config.drain_announce_s}

    def on_signal(signum: int, _frame: object) -> None:
        if signum == signal.SIGINT:  # Ctrl-C at a terminal: nobody balances load there, drain at once
            announce["seconds"] = 0.0
        log.info(
            "signal %s: NOT_SERVING for %.1f s, then draining in-flight calls",
            signal.Signals(signum).name,
            announce["seconds"],
        )
        stop_requested.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    while not stop_requested.wait(timeout=1.0):
        pass
    server.drain(announce["seconds"])
    print("campsolver stopped", flush=True)
