"""The `campsolver` command line.

    campsolver serve [--host H] [--port P] [--workers N]
    campsolver GAME COMMAND --request FILE|- [--server HOST:PORT] [--timeout S]
    campsolver GAME example COMMAND

COMMAND is one of hint, max, puzzle, score, legal. Requests and responses are the proto3 JSON of the RPC's
messages. In-process solving goes through `service.dispatch.run`, the very function the servicer calls.
Bad input: exit code 2 and one line on stderr. Other failures (server unreachable, deadline): exit code 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import grpc
from campsolver.service import dispatch
from campsolver.service.errors import RequestError
from campsolver.service.registry import COMMANDS, GAME_TABLE, Command, game
from google.protobuf import json_format
from google.protobuf.message import Message

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_BAD_INPUT = 2

#: gRPC codes that mean the request itself was at fault.
BAD_INPUT_CODES = {
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
    grpc.StatusCode.UNIMPLEMENTED,
    grpc.StatusCode.OUT_OF_RANGE,
}


class CliError(Exception):
    def __init__(self, message: str, exit_code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.exit_code = exit_code


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line with exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise CliError(f"usage: {message}")


def to_json(message: Message) -> str:
    return json_format.MessageToJson(message, always_print_fields_with_no_presence=True, indent=2)


def parse_request(command: Command, text: str) -> Message:
    request = command.request_type()
    try:
        json_format.Parse(text, request)
    except json_format.ParseError as error:
        raise CliError(f"request: {' '.join(str(error).split())}") from None
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


def solve_in_process(command: Command, request: Message) -> Message:
    budget = dispatch.budget_for(request, None)
    return dispatch.run(command, request, budget)


def solve_remote(game_name: str, command: Command, request: Message, server: str, timeout: float) -> Message:
    from campsolver.clients.client import CampsolverClient, CampsolverError

    with CampsolverClient(server) as client:
        try:
            return client.game(game_name).call(command.rpc_name, request, timeout=timeout)
        except CampsolverError as error:
            detail = "; ".join(str(v) for v in error.violations) or error.message
            code = EXIT_BAD_INPUT if error.code in BAD_INPUT_CODES else EXIT_FAILURE
            raise CliError(f"{error.code.name}: {detail}", code) from None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="campsolver", description="Hints, proven maxima and puzzles for camping board games.")
    sub = parser.add_subparsers(dest="target", required=True, parser_class=_Parser)
    serve = sub.add_parser("serve", help="start the gRPC service")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=50051)
    serve.add_argument("--workers", type=int, default=2, help="solves at once")
    sub.add_parser("batch", help="puzzle books, maxima sweeps and tournaments on Ray (campsolver batch -h)",
                   add_help=False)
    for game_name in GAME_TABLE:
        game_parser = sub.add_parser(game_name, help=f"{game_name} commands")
        game_parser.add_argument("command", choices=[*COMMANDS, "example"])
        game_parser.add_argument("example_of", nargs="?", choices=list(COMMANDS), help="with `example`: the command")
        game_parser.add_argument("--request", help="proto3 JSON request file, or - for stdin")
        game_parser.add_argument("--server", help="HOST:PORT of a running server (default: solve in-process)")
        game_parser.add_argument("--timeout", type=float, default=60.0, help="deadline in seconds with --server")
    return parser


def run(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(argv)
    if args.target == "serve":
        from campsolver.service.server import ServerConfig, serve

        if args.workers < 1:
            raise CliError("--workers: must be at least 1")
        if not 0 <= args.port <= 65535:
            raise CliError(f"--port: must be 0 to 65535, got {args.port}")
        try:
            serve(ServerConfig(host=args.host, port=args.port, workers=args.workers))
        except (OSError, RuntimeError) as error:
            raise CliError(f"serve: {error}", EXIT_FAILURE) from None
        return EXIT_OK
    game_spec = game(args.target)
    if args.command == "example":
        if args.example_of is None:
            raise CliError(f"example: name the command ({', '.join(COMMANDS)})")
        command = game_spec.commands[args.example_of]
        if command.example is None:
            raise CliError(f"{args.target} {args.example_of}: not implemented yet")
        print(to_json(command.example()))
        return EXIT_OK
    if args.example_of is not None:
        raise CliError(f"unexpected argument {args.example_of!r}")
    if not args.request:
        raise CliError("--request: required (a file, or - for stdin)")
    command = game_spec.commands[args.command]
    request = parse_request(command, read_request_text(args.request))
    if args.server:
        response = solve_remote(args.target, command, request, args.server, args.timeout)
    else:
        response = solve_in_process(command, request)
    print(to_json(response))
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["batch"]:  # its own parser: campsolver.clients.batch.cli
        from campsolver.clients.batch.cli import main as batch_main

        return batch_main(arguments[1:])
    try:
        return run(sys.argv[1:] if argv is None else argv)
    except CliError as error:
        print(f"campsolver: {error}", file=sys.stderr)
        return error.exit_code
    except RequestError as error:
        print(f"campsolver: {error.one_line()}", file=sys.stderr)
        return EXIT_BAD_INPUT if error.code in BAD_INPUT_CODES else EXIT_FAILURE
    except KeyboardInterrupt:
        print("campsolver: interrupted", file=sys.stderr)
        return EXIT_FAILURE
    except BrokenPipeError:  # the reader went away (e.g. `| head`): nothing more to say
        sys.stderr.close()
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
