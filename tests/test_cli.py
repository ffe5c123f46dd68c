"""The CLI: one line and exit code 2 on bad input, examples that round-trip, UNIMPLEMENTED games."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from campsolver.clients import cli
from campsolver.service.registry import COMMANDS, games

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "campsolver.clients.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )


def assert_one_line_error(result: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, f"expected one line, got: {result.stderr!r}"
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0]


IMPLEMENTED = [
    (game_name, cli_name)
    for game_name, game in games().items()
    for cli_name, command in game.commands.items()
    if command.handler is not None
]


@pytest.mark.parametrize(("game_name", "command"), IMPLEMENTED)
def test_every_implemented_command_has_an_example_that_runs(game_name: str, command: str, capsys) -> None:
    assert games()[game_name].commands[command].example is not None, "every command needs an example request"
    assert cli.main([game_name, "example", command]) == 0
    request_text = capsys.readouterr().out
    json.loads(request_text)
    result = run_cli(game_name, command, "--request", "-", stdin=request_text)
    assert result.returncode == 0, result.stderr
    json.loads(result.stdout)


@pytest.mark.parametrize("game_name", [g for g, spec in games().items() if not spec.implemented])
def test_unimplemented_games_answer_unimplemented(game_name: str) -> None:
    assert_one_line_error(run_cli(game_name, "hint", "--request", "-", stdin="{}"), "UNIMPLEMENTED")


def test_usage_errors_are_one_line() -> None:
    assert_one_line_error(run_cli("no-such-game", "hint"), "usage")
    assert_one_line_error(run_cli("camper-tour", "fly"), "usage")
    assert_one_line_error(run_cli("camper-tour", "hint"), "--request")
    assert_one_line_error(run_cli("camper-tour", "example"), "example")


def test_bad_json_and_unknown_fields_are_one_line() -> None:
    assert_one_line_error(run_cli("happy-campers", "score", "--request", "-", stdin="{not json"), "request")
    assert_one_line_error(
        run_cli("happy-campers", "score", "--request", "-", stdin='{"mapp": []}'), "request", "mapp"
    )
    assert_one_line_error(run_cli("happy-campers", "score", "--request", "/nonexistent.json"), "--request")


def test_invalid_argument_names_the_field() -> None:
    result = run_cli(
        "happy-campers", "legal", "--request", "-", stdin='{"roll": {"first": 7, "second": 1}}'
    )
    assert_one_line_error(result, "INVALID_ARGUMENT", "roll.first")
    result = run_cli("happy-campers", "score", "--request", "-", stdin='{"options": {"timeLimitSeconds": -1}}')
    assert_one_line_error(result, "options.time_limit_seconds")


def test_commands_table_is_complete() -> None:
    assert set(COMMANDS) == {"hint", "max", "puzzle", "score", "legal"}


def test_unreadable_request_files_and_bad_ports_are_one_line(tmp_path: Path) -> None:
    binary = tmp_path / "request.json"
    binary.write_bytes(b"\xff\xfe\x00")
    assert_one_line_error(run_cli("camper-tour", "score", "--request", str(binary)), "--request", "UTF-8")
    assert_one_line_error(run_cli("serve", "--port", "99999"), "--port")
