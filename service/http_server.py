"""HTTP serving of the same services: the Connect protocol (JSON and binary, unary) and gRPC-Web, plus the web
table (its static files, and its sessions under /table/: `service.table`), on one port beside the gRPC one.

The protocols come from `connectrpc` (the Connect project's Python runtime: Connect, gRPC and gRPC-Web on ASGI,
checked by the Connect conformance suite) served by uvicorn (HTTP/1.1, which is all Connect unary and gRPC-Web
need; native gRPC stays on grpcio's port). Nothing here frames a message: the library reads the protocol, calls
an endpoint with the decoded request, and writes the response or the error.

Every endpoint is built from the service descriptors (`service.registry`), as the gRPC server's generic handlers
are, and each call goes through `server.answer`, the gRPC handler's own path: the same cheap lane, the same
solver slots (`SolveGate`) and worker processes, the same errors (`server.failure_status`: the `google.rpc.Status`
with its ErrorInfo and BadRequest details, carried as Connect error details or gRPC-Web's
`grpc-status-details-bin`). The protocol's timeout header (`connect-timeout-ms`, `grpc-timeout`) is the deadline
that becomes the solve budget; a client that disconnects, or a deadline that passes, cancels the call's task,
which cancels its budget (and so stops its solve, in process or in its worker).

Bytes nobody sends: a connection must send a request's headers within `header_timeout_s` (10 s) of opening, or of
its first byte after an answer, and the body within `body_timeout_s` (30 s) of its headers; otherwise it is
closed. uvicorn has no such setting (its keep-alive timeout runs only between requests, and every byte resets
it; ASGI middleware sees a request only once its headers are complete), so `_LimitedH11Protocol` adds the two
deadlines to uvicorn's own h11 protocol, with uvicorn's own timer idiom (`loop.call_later`, `transport.close`),
and passes it to uvicorn as its `http` protocol class. At most `max_connections` (512) are open at once: one more
is closed as it opens (and uvicorn's `limit_concurrency` answers 503 beyond it). Headers are at most 16 KiB
(h11's limit: 400 beyond). A gRPC-Web frame flagged compressed without a `grpc-encoding` is INVALID_ARGUMENT
(`_CallWatch`; the library said INTERNAL), and no error message the library writes exceeds the service's own
caps (`errors.excerpt`).

Metrics: every call is counted when it ends (`_CallWatch`, a connectrpc metadata interceptor, sees the errors
the library raises before a handler runs too), and `/metrics` serves the server's Prometheus registry.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import socket
import ssl
import tempfile
import threading
import time
import weakref
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent import futures
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import h11
import uvicorn
from campsolver.service import dispatch
from campsolver.service.errors import (
    MAX_MESSAGE_BYTES,
    FieldViolation,
    MalformedRequest,
    excerpt,
    json_not_an_object,
    json_parse_failure,
    proto_path,
)
from campsolver.service.metrics import CallRecord, Metrics
from campsolver.service.registry import Command, Game
from campsolver.service.table import TableSessions
from campsolver.service.table import routes as table_routes
from connectrpc.code import Code
from connectrpc.errors import ConnectError, ErrorDetail
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.request import RequestContext
from connectrpc.server import ConnectASGIApplication, Endpoint
from google.protobuf import json_format
from google.protobuf.message import DecodeError, Message
from google.rpc import status_pb2
from grpc_health.v1 import health, health_pb2
from prometheus_client import make_asgi_app
from protobuf.wkt import Any as WireAny
from starlette.middleware.cors import CORSMiddleware
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.staticfiles import StaticFiles
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger("campsolver.http")

#: The web table's files (index.html and what it loads), served at `/`.
WEB_ROOT = Path(__file__).resolve().with_name("web")
#: gRPC status numbers -> Connect codes (the same names; Connect spells them in snake case).
CODES: dict[int, Code] = {
    1: Code.CANCELED,
    2: Code.UNKNOWN,
    3: Code.INVALID_ARGUMENT,
    4: Code.DEADLINE_EXCEEDED,
    5: Code.NOT_FOUND,
    6: Code.ALREADY_EXISTS,
    7: Code.PERMISSION_DENIED,
    8: Code.RESOURCE_EXHAUSTED,
    9: Code.FAILED_PRECONDITION,
    10: Code.ABORTED,
    11: Code.OUT_OF_RANGE,
    12: Code.UNIMPLEMENTED,
    13: Code.INTERNAL,
    14: Code.UNAVAILABLE,
    15: Code.DATA_LOSS,
    16: Code.UNAUTHENTICATED,
}
#: Request headers a cross-origin browser client of Connect or gRPC-Web sends, and response headers it reads.
CORS_ALLOW_HEADERS = (
    "Content-Type",
    "Connect-Protocol-Version",
    "Connect-Timeout-Ms",
    "Connect-Accept-Encoding",
    "Connect-Content-Encoding",
    "Grpc-Timeout",
    "X-Grpc-Web",
    "X-User-Agent",
)
CORS_EXPOSE_HEADERS = ("Grpc-Status", "Grpc-Message", "Grpc-Status-Details-Bin", "Content-Encoding")
#: The answer to a native gRPC call on the HTTP port (uvicorn speaks HTTP/1.1, without the trailers gRPC needs).
NATIVE_GRPC_REFUSED = "native gRPC is served on the gRPC port (--port); this port speaks Connect and gRPC-Web\n"
#: A path shaped like a procedure (`/package.Service/Method`): one this server does not know is answered
#: UNIMPLEMENTED, as gRPC answers it, in the caller's protocol (not the static files' 404 or 405).
PROCEDURE_PATH = re.compile(r"^/[A-Za-z_]\w*(\.[A-Za-z_]\w*)+/[A-Za-z_]\w*$", re.ASCII)
#: Seconds a connection may take to send a request's headers (from its opening, or its first byte after an
#: answer), and then its body; past either it is closed.
HEADER_TIMEOUT_S = 10.0
BODY_TIMEOUT_S = 30.0
#: Connections open at once, at most: one more is closed as it opens.
MAX_CONNECTIONS = 512
#: Seconds an idle connection is kept open between two requests (uvicorn's keep-alive timeout).
KEEP_ALIVE_S = 5
#: Where the Prometheus metrics are served (GET).
METRICS_PATH = "/metrics"
#: Where the web table's sessions are served (`service.table`).
TABLE_PREFIX = "/table"
#: The library's message for a gRPC-Web frame flagged compressed with no (or identity) grpc-encoding.
_FLAGGED_WITHOUT_ENCODING = "protocol error: sent compressed message without compression support"


def connect_error(status: status_pb2.Status) -> ConnectError:
    """The Connect error of a `google.rpc.Status`: its code, message and every detail (ErrorInfo, BadRequest)
    as they are, so a Connect or gRPC-Web client reads what a gRPC client reads."""
    details = [ErrorDetail(WireAny(type_url=item.type_url, value=item.value)) for item in status.details]
    return ConnectError(CODES.get(status.code, Code.UNKNOWN), status.message, details)


class _Codec:
    """google.protobuf messages in one wire format; a request that does not decode is INVALID_ARGUMENT with the
    ErrorInfo reason MALFORMED_REQUEST, as over gRPC."""

    def __init__(self, name: str) -> None:
        self._name = name

    def name(self) -> str:
        return self._name

    def encode(self, message: Message) -> bytes:
        if self._name == "json":
            return json_format.MessageToJson(message, indent=None).encode()
        return message.SerializeToString()

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> Message:
        message = message_class()
        try:
            if self._name == "json":
                kind = json_not_an_object(bytes(data))
                if kind is not None:  # no field to name: a list or a number is no message at all
                    name = message_class.DESCRIPTOR.full_name
                    raise connect_error(MalformedRequest(f"expected a JSON object ({name}), got {kind}").to_status())
                # Unknown JSON fields are refused: a misspelt field name would otherwise be a silent default.
                json_format.Parse(bytes(data), message, ignore_unknown_fields=False)
            else:
                message.ParseFromString(bytes(data))
        except (json_format.ParseError, DecodeError, ValueError) as error:
            detail = excerpt(" ".join(str(error).split()), MAX_MESSAGE_BYTES // 2)
            malformed = f"the request is not a valid {message_class.DESCRIPTOR.full_name} ({detail})"
            # A JSON value protobuf can place (`{"state": 5}`) names its field, as the CLI does.
            path, what = json_parse_failure(error) if isinstance(error, json_format.ParseError) else ("", "")
            path = proto_path(message_class.DESCRIPTOR, path)
            violations = [FieldViolation(path, excerpt(what, MAX_MESSAGE_BYTES // 2))] if path else []
            raise connect_error(MalformedRequest(malformed, violations).to_status()) from None
        return message


CODECS = (_Codec("proto"), _Codec("json"))

Answer = Callable[[Command, Message, bytes, Any, CallRecord, float | None], bytes]


def _method(service: str, name: str, request_type: type[Message], response_type: type[Message]) -> MethodInfo:
    return MethodInfo(
        name=name,
        service_name=service,
        input=request_type,
        output=response_type,
        idempotency_level=IdempotencyLevel.UNKNOWN,
        stream_type=StreamType.UNARY,
    )


class _Application(ConnectASGIApplication):
    """One Connect application holding every endpoint (the generated per-service classes are not needed:
    the endpoints come from the descriptors)."""

    @property
    def path(self) -> str:
        return "/"


@dataclass
class HttpConfig:
    host: str
    port: int
    cors_origins: Sequence[str] = ()
    max_message_bytes: int = 4 * 1024 * 1024
    tls_cert_chain: bytes | None = None
    tls_private_key: bytes | None = None
    shutdown_grace_s: float = 30.0
    threads: int = 34
    #: See HEADER_TIMEOUT_S, BODY_TIMEOUT_S and MAX_CONNECTIONS (None: those defaults).
    header_timeout_s: float | None = None
    body_timeout_s: float | None = None
    max_connections: int | None = None


class HttpServer:
    """Connect and gRPC-Web for `games`, health from `health_servicer`, and the web table, on uvicorn in a thread
    of this process (so calls share the gRPC server's solver slots and workers).

    `answer(command, request, raw, budget)` is the gRPC server's call path (`server.answer` with its gate and
    pool bound); `failure(command, error)` its error rendering (`server.failure_status`).
    """

    def __init__(
        self,
        config: HttpConfig,
        games: Mapping[str, Game],
        answer: Answer,
        failure: Callable[[Command, Exception], status_pb2.Status],
        health_servicer: health.HealthServicer,
        metrics: Metrics,
    ) -> None:
        self.config = config
        self.metrics = metrics
        self.header_timeout_s = HEADER_TIMEOUT_S if config.header_timeout_s is None else config.header_timeout_s
        self.body_timeout_s = BODY_TIMEOUT_S if config.body_timeout_s is None else config.body_timeout_s
        self.max_connections = MAX_CONNECTIONS if config.max_connections is None else config.max_connections
        self._answer = answer
        self._failure = failure
        self._health = health_servicer
        # Calls run on threads (the call path blocks while a worker solves); as many as the gRPC server has.
        self._executor = futures.ThreadPoolExecutor(max_workers=config.threads, thread_name_prefix="campsolver-http")
        endpoints: dict[str, Endpoint] = {}
        self._watch = _CallWatch(
            metrics,
            {
                f"/{g.service_full_name}/{c.rpc_name}": (g.cli_name, c.rpc_name)
                for g in games.values()
                for c in g.commands.values()
            },
        )
        for game in games.values():
            for command in game.commands.values():
                method = _method(game.service_full_name, command.rpc_name, command.request_type, command.response_type)
                endpoints[f"/{game.service_full_name}/{command.rpc_name}"] = Endpoint.unary(
                    method, self._endpoint(command)
                )
        check = _method(health.SERVICE_NAME, "Check", health_pb2.HealthCheckRequest, health_pb2.HealthCheckResponse)
        endpoints[f"/{health.SERVICE_NAME}/Check"] = Endpoint.unary(check, self._health_check)
        self.rpc_paths = frozenset(endpoints)
        connect_app = _Application(
            service=None,
            endpoints=lambda _service: endpoints,
            interceptors=[self._watch],
            read_max_bytes=config.max_message_bytes,
            codecs=CODECS,
        )
        static = ExceptionMiddleware(StaticFiles(directory=WEB_ROOT, html=True))  # a missing file: a plain 404
        metrics_app = make_asgi_app(metrics.registry)
        self._games = games
        self.tables = TableSessions(self._table_call)
        table_app = table_routes(self.tables, self._executor)

        async def route(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] == "http" and scope["path"] in self.rpc_paths:
                if _native_grpc(scope):  # needs HTTP/2 trailers, which this port does not speak
                    await PlainTextResponse(NATIVE_GRPC_REFUSED, status_code=415)(scope, receive, send)
                    return
                await connect_app(scope, receive, send)
            elif scope["type"] == "http" and scope["method"] == "POST" and PROCEDURE_PATH.match(scope["path"]):
                if _native_grpc(scope):
                    await PlainTextResponse(NATIVE_GRPC_REFUSED, status_code=415)(scope, receive, send)
                    return
                await _unimplemented(scope, receive, send, config.max_message_bytes)
            elif scope["type"] == "http" and scope["path"] == METRICS_PATH:
                await metrics_app(scope, receive, send)
            elif scope["type"] == "http" and scope["path"].startswith(TABLE_PREFIX + "/"):
                await table_app(scope, receive, send)
            elif scope["type"] == "http":
                await static(scope, receive, send)

        app: Any = route
        if config.cors_origins:
            app = CORSMiddleware(
                route,
                allow_origins=list(config.cors_origins),
                allow_methods=["GET", "POST"],
                allow_headers=list(CORS_ALLOW_HEADERS),
                expose_headers=list(CORS_EXPOSE_HEADERS),
                max_age=7200,
            )
        self.socket = _bind(config.host, config.port)
        self.port = self.socket.getsockname()[1]
        protocol = type(
            "LimitedH11Protocol",
            (_LimitedH11Protocol,),
            {
                "header_timeout_s": self.header_timeout_s,
                "body_timeout_s": self.body_timeout_s,
                "max_connections": self.max_connections,
                "on_closed": staticmethod(self._closed),
            },
        )
        uvicorn_config = uvicorn.Config(
            app,
            lifespan="off",
            log_level="warning",
            access_log=False,
            ws="none",
            http=protocol,
            timeout_keep_alive=KEEP_ALIVE_S,
            limit_concurrency=self.max_connections + 1,
            timeout_graceful_shutdown=max(1, round(config.shutdown_grace_s)),
            ssl_context_factory=self._ssl_context if config.tls_cert_chain else None,
        )
        self._server = uvicorn.Server(uvicorn_config)
        self._thread: threading.Thread | None = None

    @property
    def scheme(self) -> str:
        return "https" if self.config.tls_cert_chain else "http"

    @property
    def url(self) -> str:
        host = self.config.host
        return f"{self.scheme}://{f'[{host}]' if ':' in host else host}:{self.port}"

    def _ssl_context(self, _config: uvicorn.Config, _default: Callable[[], ssl.SSLContext]) -> ssl.SSLContext:
        """A server context from the PEM bytes (Python's ssl reads them only from files: a private temporary
        directory, removed at once)."""
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        with tempfile.TemporaryDirectory(prefix="campsolver-tls-") as folder:
            cert, key = Path(folder, "cert.pem"), Path(folder, "key.pem")
            for path, data in ((cert, self.config.tls_cert_chain), (key, self.config.tls_private_key)):
                path.touch(mode=0o600)
                path.write_bytes(data or b"")
            context.load_cert_chain(cert, key)
        return context

    def _closed(self, reason: str) -> None:
        """A connection closed by the server's limits (metrics)."""
        self.metrics.http_closed.labels(reason).inc()

    def _endpoint(self, command: Command) -> Callable[[Message, RequestContext], Awaitable[Message]]:
        async def call(request: Message, context: RequestContext) -> Message:
            budget = None
            record = self._watch.record_of(context) or CallRecord("connect", command.game_name, command.rpc_name)
            try:
                remaining_ms = context.timeout_ms
                remaining_s = None if remaining_ms is None else max(remaining_ms, 0) / 1000
                record.deadline_s = remaining_s
                answer_by = None if remaining_s is None else time.monotonic() + remaining_s
                budget = dispatch.budget_for(request, remaining_s)
                raw = request.SerializeToString()
                loop = asyncio.get_running_loop()
                data = await loop.run_in_executor(
                    self._executor, self._answer_counted, command, request, raw, budget, record, answer_by
                )
                return command.response_type.FromString(data)
            except asyncio.CancelledError:  # the client went away, or its deadline passed: stop the solve
                if budget is not None:
                    budget.cancel()
                raise
            except ConnectError:
                raise
            except Exception as error:
                raise connect_error(self._failure(command, error)) from None

        return call

    def _answer_counted(
        self, command: Command, request: Message, raw: bytes, budget: Any, record: CallRecord, answer_by: float | None
    ) -> bytes:
        """The call path on an executor thread, its CPU counted for the call."""
        record.thread_cpu_started = time.thread_time()
        try:
            return self._answer(command, request, raw, budget, record, answer_by)
        finally:
            record.take_thread_cpu()

    def _table_call(self, game_name: str, rpc: str, request: Message, seconds: float) -> Message:
        """One call of the web table's sessions, on the server's one call path (`answer`: the same solver slots,
        workers and errors as a gRPC call), counted in the metrics as transport `table`."""
        command = self._games[game_name].by_rpc(rpc)
        record = CallRecord("table", game_name, rpc)
        record.deadline_s = seconds
        try:
            budget = dispatch.budget_for(request, seconds)
            data = self._answer(
                command, request, request.SerializeToString(), budget, record, time.monotonic() + seconds
            )
            return command.response_type.FromString(data)
        except Exception as error:
            record.code = _grpc_code_name(connect_error(self._failure(command, error)).code)
            raise
        finally:
            record.take_thread_cpu()
            self.metrics.finish(record)

    async def _health_check(self, request: health_pb2.HealthCheckRequest, _context: RequestContext) -> Message:
        """grpc.health.v1.Health/Check from the gRPC server's own health servicer (NOT_FOUND for an unknown
        service, as over gRPC)."""
        found = _HealthContext()
        response = self._health.Check(request, found)
        if found.code is not None:
            raise ConnectError(Code.NOT_FOUND, f"unknown service {excerpt(repr(request.service), 200)}")
        return response

    def start(self) -> None:
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self.socket]}, name="campsolver-http", daemon=True
        )
        self._thread.start()

    def wait_started(self, timeout_s: float = 10.0) -> bool:
        """Block until uvicorn accepts connections (True), or `timeout_s` passed (False)."""
        until = time.monotonic() + timeout_s
        while not self._server.started and time.monotonic() < until:
            time.sleep(0.01)
        return self._server.started

    def stop(self, grace_s: float | None = None) -> None:
        """Stop accepting, let in-flight calls finish (up to the grace), then stop."""
        if grace_s is not None:
            self._server.config.timeout_graceful_shutdown = max(1, round(grace_s))
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=(grace_s if grace_s is not None else self.config.shutdown_grace_s) + 5)
        self._executor.shutdown(wait=False, cancel_futures=True)


class _CallWatch:
    """A connectrpc metadata interceptor (first in the chain, so it runs before the request is read): starts each
    call's metrics record, and at the end counts it with the code the client gets. It also mends two errors the
    library raises itself: a gRPC-Web frame flagged compressed with no grpc-encoding (INTERNAL there; a client's
    malformed request, INVALID_ARGUMENT with reason MALFORMED_REQUEST here), and any library message longer than
    the service's own (excerpted, as `errors.RequestError` does)."""

    def __init__(self, metrics: Metrics, calls: Mapping[str, tuple[str, str]]) -> None:
        self._metrics = metrics
        self._calls = calls  # "/service/Method" -> (game, RPC) of the games' endpoints
        self._records: weakref.WeakKeyDictionary[RequestContext, CallRecord] = weakref.WeakKeyDictionary()

    def record_of(self, ctx: RequestContext) -> CallRecord | None:
        return self._records.get(ctx)

    async def on_start(self, ctx: RequestContext) -> CallRecord | None:
        method = ctx.method
        game_rpc = self._calls.get(f"/{method.service_name}/{method.name}")
        if game_rpc is None:  # health checks are not counted
            return None
        kind = (ctx.request_headers.get("content-type") or "").lower()
        record = CallRecord("grpc-web" if kind.startswith("application/grpc-web") else "connect", *game_rpc)
        self._records[ctx] = record
        return record

    async def on_end(self, record: CallRecord | None, ctx: RequestContext, error: Exception | None, /) -> None:
        mended = _mend(error)
        if record is not None:
            self._records.pop(ctx, None)
            final = mended if mended is not None else error
            record.code = (
                _grpc_code_name(final.code)
                if isinstance(final, ConnectError)
                else ("OK" if final is None else "UNKNOWN")
            )
            self._metrics.finish(record)
        if mended is not None:
            raise mended


def _mend(error: Exception | None) -> ConnectError | None:
    """The error a client should get instead of `error` (None: `error` stands)."""
    if not isinstance(error, ConnectError):
        return None
    if error.code == Code.INTERNAL and error.message.startswith(_FLAGGED_WITHOUT_ENCODING) and not error.details:
        return connect_error(
            MalformedRequest(
                "the gRPC-Web message is flagged compressed but the request names no grpc-encoding: send "
                "grpc-encoding: gzip with a gzip-compressed message, or clear the flag"
            ).to_status()
        )
    if len(error.message.encode("utf-8", "replace")) > MAX_MESSAGE_BYTES:
        return ConnectError(error.code, excerpt(error.message, MAX_MESSAGE_BYTES), error.details)
    return None


def _grpc_code_name(code: Code) -> str:
    """The gRPC name of a Connect code (the same codes; Connect spells CANCELLED with one L)."""
    return "CANCELLED" if code == Code.CANCELED else code.name


class _LimitedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline to receive each request and a cap on open connections.

    A connection gets `header_timeout_s` from its opening, or from its first byte after an answer, to send a
    request's headers, then `body_timeout_s` to send its body; past a deadline it is closed (a client that is
    still being answered has no deadline here, and between requests uvicorn's keep-alive timer runs). A
    connection beyond `max_connections` is closed as it opens. `on_closed(reason)` counts each close."""

    header_timeout_s: float = HEADER_TIMEOUT_S
    body_timeout_s: float = BODY_TIMEOUT_S
    max_connections: int = MAX_CONNECTIONS
    on_closed: Callable[[str], None] = staticmethod(lambda _reason: None)

    _deadline: asyncio.TimerHandle | None = None
    _waiting_for: str = ""  # "headers", "body" or "" (no deadline armed)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            self.on_closed("too_many_connections")
            transport.close()
            return
        self._arm("headers")

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._follow()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._follow()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _follow(self) -> None:
        """Arm the deadline the request's state calls for now."""
        state = self.conn.their_state
        if state is h11.IDLE and self.timeout_keep_alive_task is None and not self.transport.is_closing():
            self._arm("headers")  # part of a request's headers arrived (or none yet after an answer was read)
        elif state is h11.SEND_BODY:
            self._arm("body")
        else:  # the request is in, or the connection idles between requests (keep-alive), or it is closing
            self._disarm()

    def _arm(self, waiting_for: str) -> None:
        if self._waiting_for == waiting_for:
            return  # the deadline runs from the start of that wait, not from each byte
        self._disarm()
        seconds = self.header_timeout_s if waiting_for == "headers" else self.body_timeout_s
        self._waiting_for = waiting_for
        self._deadline = self.loop.call_later(seconds, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline, self._waiting_for = None, ""

    def _expired(self) -> None:
        reason = f"{self._waiting_for}_timeout"
        self._deadline, self._waiting_for = None, ""
        if not self.transport.is_closing():
            self.on_closed(reason)
            self.transport.close()


async def _unimplemented(scope: Any, receive: Any, send: Any, max_bytes: int) -> None:
    """An unknown procedure: gRPC-Web's trailers-only answer with grpc-status 12, else Connect's 404 with the
    `unimplemented` code. Its body is read and dropped up to a message's size limit (past it the answer goes out
    at once and the server closes the connection). The path is ASCII (`PROCEDURE_PATH`), so it fits a header."""
    read = 0
    while read <= max_bytes:
        event = await receive()
        read += len(event.get("body", b""))
        if not event.get("more_body", False):
            break
    message = f"unknown procedure {excerpt(scope['path'], 100)}"  # a long path is not echoed back whole
    kind = _content_type(scope)
    if kind.startswith("application/grpc-web"):
        grpc_headers = {"grpc-status": "12", "grpc-message": message}
        response = PlainTextResponse("", headers=grpc_headers, media_type=kind.split(";")[0])
    else:
        response = JSONResponse({"code": "unimplemented", "message": message}, status_code=404)
    await response(scope, receive, send)


def _content_type(scope: Any) -> str:
    """The request's content type, lower case ("" when it has none)."""
    for name, value in scope.get("headers", ()):
        if name == b"content-type":
            return value.decode("latin-1").lower()
    return ""


def _native_grpc(scope: Any) -> bool:
    """Whether the request is native gRPC (application/grpc...), not gRPC-Web or Connect."""
    kind = _content_type(scope)
    return kind.startswith("application/grpc") and not kind.startswith("application/grpc-web")


class _HealthContext:
    """The one part of a grpc.ServicerContext that `HealthServicer.Check` uses."""

    code: Any = None

    def set_code(self, code: Any) -> None:
        self.code = code


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port, bound here so a taken port fails at once with one clear line."""
    host = host.strip("[]")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted connections inherit it: without it uvicorn's two writes (head, body) met the client's delayed ACK
    # and every call took 40+ ms more (measured: 48 ms vs 0.9 ms for a health check on loopback).
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise OSError(f"cannot listen on {host}:{port} (HTTP): {error.strerror}") from None
    sock.listen(2048)
    sock.set_inheritable(False)
    os.set_blocking(sock.fileno(), False)
    return sock
