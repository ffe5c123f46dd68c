"""The `campsolver` command line.

    campsolver serve [--host H] [--port P] [--workers N] [--solve-in-process] [--drain-announce-seconds S]
                     [--tls-cert F --tls-key F] [--http-port P [--cors-origin ORIGIN ...]]
    campsolver GAME COMMAND --request FILE|- [--server HOST:PORT [--tls | --tls-ca F]] [--timeout S]
                     [--format json|text] [--quiet]
    campsolver GAME example COMMAND
    campsolver --version

COMMAND is one of hint, max, puzzle, score, legal, new, play, review. Requests and responses are the proto3 JSON of
the RPC's messages. In-process solving goes through `service.dispatch.run`, the very function the servicer calls.

Conventions: bad input exits 2 with one line on stderr (argparse usage errors keep their usage line first);
other failures (server unreachable, deadline) exit 1 with one line; Ctrl-C stops any solve within half a
second and exits 130 with one line. Field paths in messages are the JSON names the user typed
(`options.timeLimitSeconds`). Progress goes to stderr only when stderr is a terminal (and not `--quiet`).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import grpc
from campsolver.clients.helpformat import DefaultsFormatter
from campsolver.service import dispatch
from campsolver.service.errors import RequestError, json_not_an_object, json_parse_failure, json_path
from campsolver.service.registry import COMMANDS, GAME_TABLE, Command, game
from campsolver.solver.core.budget import Budget, freeze_long_lived_objects
from google.protobuf import descriptor_pool, json_format
from google.protobuf.message import Message

import campsolver

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, what shells expect after Ctrl-C
#: After Ctrl-C, how long the solve gets to stop before the process exits regardless.
INTERRUPT_GRACE_S = 0.4
#: Default deadline of a call with --server (in-process solves default to the service's own budget).
DEFAULT_SERVER_TIMEOUT_S = 60.0
#: Set to 1 to show progress even when stderr is not a terminal (tests, `script` recordings).
PROGRESS_ENV = "CAMPSOLVER_PROGRESS"

#: gRPC codes that mean the request itself was at fault.
BAD_INPUT_CODES = {
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
    grpc.StatusCode.UNIMPLEMENTED,
    grpc.StatusCode.OUT_OF_RANGE,
}

COMMAND_HELP = {
    "hint": "the best move now, every alternative ranked with its value and its loss versus the best",
    "max": "the theoretical maximum score with its proof status (or the best found and its bound)",
    "puzzle": "a seeded puzzle with a proven unique best answer and a difficulty grade",
    "score": "score a state by the rules model",
    "legal": "the legal moves of a state",
    "new": "a seeded new game for N players: the state and whose turn it is",
    "play": "a state and a move -> the next state (chance from a seed, or listed with exact probabilities)",
    "review": "a game's record -> each decision's loss against the hint's best, marks and each player's totals",
    "example": "print an example request for COMMAND (pipe it back with --request -)",
}


class _GameHelp(argparse.Action):
    """`GAME --help`: the game's commands; `GAME COMMAND --help`: what that command's request holds."""

    def __init__(
        self, option_strings: list[str], dest: str = argparse.SUPPRESS, *, game_name: str, help: str | None = None
    ) -> None:
        super().__init__(option_strings, dest, default=argparse.SUPPRESS, nargs=0, help=help)
        self.game_name = game_name

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        command_name = getattr(namespace, "command", None)
        if command_name in COMMANDS:
            from campsolver.clients.requesthelp import request_help

            command = game(self.game_name).commands[command_name]
            print(
                request_help(self.game_name, command_name, COMMAND_HELP[command_name], command.request_type.DESCRIPTOR)
            )
        else:
            parser.print_help()
        parser.exit()


class CliError(Exception):
    def __init__(self, message: str, exit_code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.exit_code = exit_code


class _Parser(argparse.ArgumentParser):
    """argparse with its usage line kept on errors, squeezed onto one line, then the error on one line."""

    def error(self, message: str) -> None:  # type: ignore[override]
        usage = " ".join(self.format_usage().split())
        sys.stderr.write(f"{usage}\n{self.prog}: error: {message}\n")
        raise SystemExit(EXIT_BAD_INPUT)


# --- JSON in and out ---------------------------------------------------------------------------------------


def to_json(message: Message) -> str:
    """Compact proto3 JSON: one line, default-valued fields left out."""
    return json_format.MessageToJson(message, indent=None)


def _enum_hint(error_text: str) -> str:
    match = re.search(r"enum type ([\w.]+)", error_text)
    if not match:
        return ""
    try:
        enum = descriptor_pool.Default().FindEnumTypeByName(match.group(1))
    except KeyError:
        return ""
    return f"; valid names: {', '.join(v.name for v in enum.values)}"


def parse_request(command: Command, text: str) -> Message:
    request = command.request_type()
    kind = json_not_an_object(text)
    if kind is not None:
        raise CliError(f"request: expected a JSON object (the {request.DESCRIPTOR.name} message), got {kind}")
    try:
        json_format.Parse(text, request)
    except json_format.ParseError as error:
        path, innermost = json_parse_failure(error)
        field = f"{json_path(request.DESCRIPTOR, path)}: " if path else ""
        raise CliError(f"request: {field}{innermost}{_enum_hint(str(error))}") from None
    return request


def read_request_text(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    try:
        with open(source, encoding="utf-8") as handle:
            return handle.read()
    except OSError as error:
        raise CliError(f"--request: cannot read {source}: {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise CliError(f"--request: {source} is not UTF-8 text ({error.reason} at byte {error.start})") from None


def render_error(error: RequestError, request: Message | None) -> str:
    """One line: the code, then each field at fault by its JSON name."""
    if error.violations and request is not None:
        detail = "; ".join(f"{json_path(request.DESCRIPTOR, v.field)}: {v.description}" for v in error.violations)
    else:
        detail = error.detail()
    return f"{error.code.name}: {detail}"


# --- progress and Ctrl-C -----------------------------------------------------------------------------------


class Progress:
    """A one-line ticker on stderr (elapsed time plus what the solver last reported); silent when disabled."""

    #: (reported field, shown as): CP-SAT reports best and bound, searches the depth reached (plies) and nodes,
    #: Monte Carlo the samples drawn (`Budget.report`).
    FIELDS = (
        ("best", "best"),
        ("bound", "bound"),
        ("depth", "depth"),
        ("nodes", "nodes"),
        ("samples", "samples"),
        ("reviewed", "decisions reviewed"),
    )

    def __init__(self, enabled: bool, label: str) -> None:
        self.enabled = enabled
        self.label = label
        self.started = time.monotonic()
        self._latest: dict[str, Any] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._tick, daemon=True)
        self._shown = False

    def update(self, fields: dict[str, Any]) -> None:
        """Take what a solver reports. Every solver maximises: the best shown never falls and the bound never rises
        (a later phase may report a worse map found, or a weaker bound; both earlier figures still hold)."""
        fields = dict(fields)
        for key, keep in (("best", max), ("bound", min)):
            if fields.get(key) is not None and self._latest.get(key) is not None:
                fields[key] = keep(fields[key], self._latest[key])
        self._latest.update(fields)

    def __enter__(self) -> Progress:
        if self.enabled:
            self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        if self.enabled:
            self._thread.join(timeout=1.0)
            if self._shown:
                sys.stderr.write("\r\033[K")
                sys.stderr.flush()

    def line(self) -> str:
        parts = [f"{self.label}: {time.monotonic() - self.started:5.1f} s"]
        for key, name in self.FIELDS:
            value = self._latest.get(key)
            if value is not None:
                parts.append(f"{name} {value:g}" if isinstance(value, float) else f"{name} {value}")
        return "  ".join(parts)

    def _tick(self) -> None:
        while not self._stop.wait(0.25):
            sys.stderr.write("\r\033[K" + self.line())
            sys.stderr.flush()
            self._shown = True


def run_interruptibly(work: Callable[[], Message], budget: Budget) -> Message:
    """Run `work` in a worker thread so Ctrl-C reaches the main thread at once; Ctrl-C cancels `budget`.

    CP-SAT is told not to catch SIGINT (solver.core.cpsat), so the signal reaches Python; the main thread turns
    it into `budget.cancel()`, which stops CP-SAT (`stop_search`) and every loop that checks the budget.
    """
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["response"] = work()
        except BaseException as error:  # handed to the main thread
            outcome["error"] = error

    worker = threading.Thread(target=target, name="campsolver-solve", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(timeout=0.05)
    except KeyboardInterrupt:
        budget.cancel()
        worker.join(timeout=INTERRUPT_GRACE_S)
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome["response"]


# --- solving -----------------------------------------------------------------------------------------------


def solve_in_process(command: Command, request: Message, budget: Budget) -> Message:
    return dispatch.run(command, request, budget)


def solve_remote(
    game_name: str,
    command: Command,
    request: Message,
    server: str,
    timeout: float,
    budget: Budget,
    credentials: grpc.ChannelCredentials | None = None,
) -> Message:
    from campsolver.clients.client import CampsolverClient, CampsolverError

    with CampsolverClient(server, credentials=credentials) as client:
        future = client.game(game_name).call_future(command.rpc_name, request, timeout=timeout)
        budget.on_cancel(future.cancel)
        try:
            return future.result()
        except grpc.RpcError as rpc_error:
            error = CampsolverError.from_rpc_error(rpc_error)
            detail = "; ".join(
                f"{json_path(request.DESCRIPTOR, v.field)}: {v.description}" for v in error.violations
            ) or " ".join(error.message.split())
            if error.code == grpc.StatusCode.UNAVAILABLE and not error.violations and "slot" not in detail:
                detail = f"cannot reach {server} ({detail})"
            code = EXIT_BAD_INPUT if error.code in BAD_INPUT_CODES else EXIT_FAILURE
            raise CliError(f"{error.code.name}: {detail}", code) from None
        except grpc.FutureCancelledError:
            raise KeyboardInterrupt from None


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return value


def _non_negative_seconds(text: str) -> float:
    if text.strip() in ("0", "0.0"):
        return 0.0
    return _positive_seconds(text)


def build_parser() -> argparse.ArgumentParser:
    """The CLI's parser: `serve`, `batch` (its own parser, in `clients.batch.cli`) and one sub-parser a game."""
    parser = _Parser(
        prog="campsolver",
        description="Hints, proven maximum scores and unique-solution puzzles for camping board games.",
        formatter_class=DefaultsFormatter,
    )
    parser.add_argument("--version", action="version", version=f"campsolver {campsolver.__version__}")
    sub = parser.add_subparsers(dest="target", required=True, parser_class=_Parser, metavar="{serve,batch,GAME}")
    _add_serve_parser(sub)
    sub.add_parser(
        "batch", help="puzzle books, maxima sweeps and tournaments on Ray (campsolver batch -h)", add_help=False
    )
    for game_name in GAME_TABLE:
        _add_game_parser(sub, game_name)
    return parser


def _add_serve_parser(sub: argparse._SubParsersAction) -> None:
    """`campsolver serve`: where to listen, the workers, TLS, the HTTP side and the log format."""
    serve = sub.add_parser(
        "serve",
        help="start the gRPC service",
        description="Serve every game over gRPC, with health and reflection, until SIGTERM or Ctrl-C.",
        formatter_class=DefaultsFormatter,
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=50051, help="port to listen on (0: any free port)")
    serve.add_argument(
        "--workers",
        type=int,
        default=2,
        help="solves at once, each in its own worker process (cheap calls never wait for one)",
    )
    serve.add_argument(
        "--solve-in-process",
        action="store_true",
        help="run solves on threads of the server process instead of worker processes (debugging)",
    )
    serve.add_argument(
        "--drain-announce-seconds",
        type=_non_negative_seconds,
        default=5.0,
        help="after SIGTERM, report NOT_SERVING on health for this long while still accepting calls",
    )
    serve.add_argument("--tls-cert", help="PEM certificate chain: serve TLS (with --tls-key), on the HTTP port too")
    serve.add_argument("--tls-key", help="PEM private key of --tls-cert")
    _add_serve_http_arguments(serve)
    serve.add_argument(
        "--log-format",
        choices=("text", "json"),
        default="text",
        help="log lines as text, or one JSON object a line (an access line per call: game, RPC, code, wall and "
        "CPU seconds, fallback reason)",
    )


def _add_serve_http_arguments(serve: argparse.ArgumentParser) -> None:
    """`serve --http-port` and the limits of its HTTP connections."""
    serve.add_argument(
        "--http-port",
        type=int,
        metavar="PORT",
        help="also serve Connect (JSON and binary) and gRPC-Web, and the web table at /, on this port of --host",
    )
    serve.add_argument(
        "--cors-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="with --http-port: a browser origin (e.g. https://games.example) allowed to call cross-origin; "
        "repeatable; none by default",
    )
    serve.add_argument(
        "--http-header-timeout",
        type=_positive_seconds,
        default=None,
        metavar="SECONDS",
        help="with --http-port: close a connection whose request headers have not all arrived after this long",
    )
    serve.add_argument(
        "--http-body-timeout",
        type=_positive_seconds,
        default=None,
        metavar="SECONDS",
        help="with --http-port: close a connection whose request body has not all arrived this long after its headers",
    )
    serve.add_argument(
        "--http-max-connections",
        type=int,
        default=None,
        metavar="N",
        help="with --http-port: HTTP connections open at once; one more is closed as it opens",
    )


def _add_game_parser(sub: argparse._SubParsersAction, game_name: str) -> None:
    """`campsolver GAME COMMAND`: the request, where to solve it (in-process or --server, TLS), the deadline and
    the output format; `GAME --help` lists the commands."""
    game_parser = sub.add_parser(
        game_name,
        help=f"{game_name}: {', '.join(COMMAND_HELP)}",
        description=f"{game_name} commands:\n"
        + "\n".join(f"  {name:8} {text}" for name, text in COMMAND_HELP.items())
        + f"\n\n`campsolver {game_name} COMMAND --help` says what COMMAND's request holds.",
        formatter_class=DefaultsFormatter,
        add_help=False,
    )
    game_parser.add_argument(
        "-h", "--help", action=_GameHelp, game_name=game_name, help="this help; after a COMMAND, what its request holds"
    )
    game_parser.add_argument("command", choices=[*COMMANDS, "example"], help="what to do")
    game_parser.add_argument(
        "example_of", nargs="?", choices=list(COMMANDS), help="with `example`: the command", metavar="COMMAND"
    )
    game_parser.add_argument("--request", metavar="FILE", help="proto3 JSON request file, or - for stdin")
    game_parser.add_argument("--server", metavar="HOST:PORT", help="ask a running server instead of solving in-process")
    game_parser.add_argument(
        "--tls", action="store_true", help="with --server: connect over TLS, trusting the system's CA roots"
    )
    game_parser.add_argument(
        "--tls-ca",
        metavar="FILE",
        help="with --server: connect over TLS, trusting the PEM CA bundle FILE "
        "(e.g. the server's own --tls-cert when it is self-signed)",
    )
    game_parser.add_argument(
        "--timeout",
        type=_positive_seconds,
        metavar="SECONDS",
        help=f"deadline of the call (with --server default {DEFAULT_SERVER_TIMEOUT_S:g} s; in-process: the "
        "request's own time limit, else the service default)",
    )
    game_parser.add_argument(
        "--format", choices=("json", "text"), default="json", help="json (compact proto3 JSON) or text"
    )
    game_parser.add_argument("--quiet", action="store_true", help="no progress line on stderr")


#: What a PEM certificate chain and a PEM private key file contain (the grpc core only says "Failed to bind").
PEM_CERTIFICATE = b"-----BEGIN CERTIFICATE-----"
PEM_PRIVATE_KEY = b"PRIVATE KEY-----"


def _read_pem(path: str, flag: str, marker: bytes, what: str) -> bytes:
    """The file's bytes; a CliError naming the flag when it cannot be read or is not `what`."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise CliError(f"{flag}: cannot read {path}: {error.strerror}") from None
    if marker not in data:
        raise CliError(f"{flag}: {path} is not {what} (no '{marker.decode()}' block)")
    return data


def _check_key_pair(cert_path: str, key_path: str) -> None:
    """The key must belong to the certificate: say so here, not as a failure to bind."""
    import ssl

    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(cert_path, key_path)
    except ssl.SSLError as error:
        reason = error.reason or str(error)
        raise CliError(f"--tls-key: {key_path} does not go with the certificate in {cert_path} ({reason})") from None


def _client_credentials(args: argparse.Namespace) -> grpc.ChannelCredentials | None:
    """TLS credentials for --server from --tls / --tls-ca (None: plaintext)."""
    if args.tls_ca:
        return grpc.ssl_channel_credentials(
            root_certificates=_read_pem(args.tls_ca, "--tls-ca", PEM_CERTIFICATE, "a PEM certificate bundle")
        )
    if args.tls:
        return grpc.ssl_channel_credentials()
    return None


def _serve(args: argparse.Namespace) -> int:
    from campsolver.service.server import ServerConfig, serve

    if args.workers < 1:
        raise CliError("--workers: must be at least 1")
    if not 0 <= args.port <= 65535:
        raise CliError(f"--port: must be 0 to 65535, got {args.port}")
    if bool(args.tls_cert) != bool(args.tls_key):
        raise CliError("--tls-cert and --tls-key: give both or neither")
    if args.http_port is not None and not 0 <= args.http_port <= 65535:
        raise CliError(f"--http-port: must be 0 to 65535, got {args.http_port}")
    if args.http_port is not None and args.http_port == args.port != 0:
        raise CliError("--http-port: must differ from --port")
    if args.cors_origin and args.http_port is None:
        raise CliError("--cors-origin: only with --http-port")
    if args.http_max_connections is not None and args.http_max_connections < 1:
        raise CliError(f"--http-max-connections: must be at least 1, got {args.http_max_connections}")
    for origin in args.cors_origin:
        if not re.fullmatch(r"https?://[^/\s]+", origin):
            raise CliError(f"--cors-origin: {origin!r} is not an origin (scheme://host[:port], no path)")
    tls: dict[str, bytes] = {}
    if args.tls_cert:
        tls["tls_cert_chain"] = _read_pem(args.tls_cert, "--tls-cert", PEM_CERTIFICATE, "a PEM certificate chain")
        tls["tls_private_key"] = _read_pem(args.tls_key, "--tls-key", PEM_PRIVATE_KEY, "a PEM private key")
        _check_key_pair(args.tls_cert, args.tls_key)
    config = ServerConfig(
        host=args.host,
        port=args.port,
        workers=args.workers,
        drain_announce_s=args.drain_announce_seconds,
        solve_in_process=args.solve_in_process,
        http_port=args.http_port,
        cors_origins=tuple(args.cors_origin),
        log_format=args.log_format,
        http_header_timeout_s=args.http_header_timeout,
        http_body_timeout_s=args.http_body_timeout,
        http_max_connections=args.http_max_connections,
        **tls,
    )
    try:
        serve(config)
    except (OSError, RuntimeError) as error:
        raise CliError(f"serve: {error}", EXIT_FAILURE) from None
    return EXIT_OK


def run(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(argv)
    if args.target == "serve":
        return _serve(args)
    game_spec = game(args.target)
    if args.command == "example":
        if args.example_of is None:
            raise CliError(f"example: name the command ({', '.join(COMMANDS)})")
        for flag in ("request", "server", "timeout", "tls_ca"):
            if getattr(args, flag) is not None:
                raise CliError(f"--{flag.replace('_', '-')}: has no effect with `example`")
        if args.tls:
            raise CliError("--tls: has no effect with `example`")
        if args.format != "json":
            raise CliError("--format: `example` prints the request as JSON only")
        command = game_spec.commands[args.example_of]
        if command.example is None:
            raise CliError(f"UNIMPLEMENTED: {args.target} {args.example_of} is not implemented yet")
        print(to_json(command.example()))
        return EXIT_OK
    if args.example_of is not None:
        raise CliError(f"unexpected argument {args.example_of!r}")
    if args.server is not None and not args.server.strip():
        raise CliError("--server: empty (HOST:PORT of a running server; leave --server out to solve in-process)")
    if (args.tls or args.tls_ca) and not args.server:
        raise CliError(f"{'--tls-ca' if args.tls_ca else '--tls'}: only with --server")
    credentials = _client_credentials(args) if args.server else None
    if not args.request:
        raise CliError("--request: required (a file, or - for stdin)")
    command = game_spec.commands[args.command]
    request = parse_request(command, read_request_text(args.request))
    show_progress = not args.quiet and (sys.stderr.isatty() or os.environ.get(PROGRESS_ENV) == "1")
    started = time.monotonic()  # the text summary says how long the call really took
    with Progress(show_progress, f"{args.target} {args.command}") as progress:
        if args.server:
            budget = Budget(args.timeout or DEFAULT_SERVER_TIMEOUT_S)
            timeout = args.timeout or DEFAULT_SERVER_TIMEOUT_S
            response = run_interruptibly(
                lambda: solve_remote(args.target, command, request, args.server, timeout, budget, credentials), budget
            )
        else:
            try:
                # As the server: validation and cheap calls are answered without a solve ...
                response = dispatch.answer_cheaply(command, request, dispatch.budget_for(request, args.timeout))
                if response is None:
                    # ... and a real solve starts after the game's warm-up for this request (tables it may use,
                    # which would otherwise be built inside its time limit: Camper Tour's best response, 1-3 s,
                    # only for a record of three campers or more) and with the long-lived heap frozen (no full
                    # collection walks the imports in it).
                    if game_spec.warm_up is not None:
                        game_spec.warm_up(request)
                    freeze_long_lived_objects()
                    budget = dispatch.budget_for(request, args.timeout)  # its time starts now
                    budget.progress = progress.update
                    response = run_interruptibly(lambda: solve_in_process(command, request, budget), budget)
            except RequestError as error:
                code = EXIT_BAD_INPUT if error.code in BAD_INPUT_CODES else EXIT_FAILURE
                raise CliError(render_error(error, request), code) from None
    if args.format == "text":
        from campsolver.clients.textout import render

        print(render(args.target, request, response, elapsed_s=time.monotonic() - started))
    else:
        print(to_json(response))
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["batch"]:  # its own parser: campsolver.clients.batch.cli
        from campsolver.clients.batch.cli import main as batch_main

        return batch_main(arguments[1:])
    try:
        return run(arguments)
    except SystemExit as done:  # argparse: --help, --version, usage errors (already printed)
        return done.code if isinstance(done.code, int) else EXIT_BAD_INPUT
    except CliError as error:
        print(f"campsolver: {error}", file=sys.stderr)
        return error.exit_code
    except RequestError as error:
        print(f"campsolver: {error.one_line()}", file=sys.stderr)
        return EXIT_BAD_INPUT if error.code in BAD_INPUT_CODES else EXIT_FAILURE
    except KeyboardInterrupt:
        print("campsolver: interrupted", file=sys.stderr, flush=True)
        if argv is None:  # the console command: leave now, without finalising native solver threads
            sys.stdout.flush()
            os._exit(EXIT_INTERRUPTED)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader went away (e.g. `| head`): nothing more to say
        sys.stderr.close()
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
