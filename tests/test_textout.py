"""`--format text` reads as text for every game and command: no raw protobuf, squares as rRcC, "none" for a
missing winner, and a puzzle's solution printed once."""

from __future__ import annotations

import re

import pytest
from campsolver.clients.textout import render
from campsolver.service import dispatch
from campsolver.service.registry import games
from campsolver.solver.core.budget import Budget

GAMES = list(games())
#: A square written the old way, "(3,1)": text writes "r3c1" everywhere.
PAIR = re.compile(r"\(-?\d+, ?-?\d+\)")


def _answer(game_name: str, command_name: str, seconds: float = 1.0) -> str:
    command = games()[game_name].commands[command_name]
    assert command.example is not None
    request = command.example()
    if "options" in request.DESCRIPTOR.fields_by_name:
        request.options.time_limit_seconds = seconds
    return render(game_name, request, dispatch.run(command, request, Budget(seconds)))


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("command_name", ["score", "legal", "hint"])
def test_text_output_has_no_raw_protobuf_and_writes_squares_as_rrcc(game_name: str, command_name: str) -> None:
    text = _answer(game_name, command_name, 0.3)
    assert "{" not in text and "}" not in text, text[:2000]
    assert not PAIR.search(text), PAIR.search(text)
    assert "winner: -1" not in text and "to move: -1" not in text


def test_text_output_of_deluxe_camping_names_squares_steps_and_a_missing_winner() -> None:
    score = _answer("deluxe-camping", "score")
    assert "winner: none" in score and re.search(r"squares r0c0 r0c1 ", score)
    legal = _answer("deluxe-camping", "legal")
    assert re.search(r"steps r\d+c\d+->r\d+c\d+", legal)


@pytest.mark.parametrize("game_name", ["campsite", "camper-tour"])
def test_a_puzzle_prints_its_statement_and_its_solution_once(game_name: str) -> None:
    text = _answer(game_name, "puzzle", 60.0)
    assert "{" not in text and text.count("solution:") == 1, text
    assert "as data: --format json" in text


@pytest.mark.parametrize("game_name", GAMES)
def test_command_help_says_what_the_request_holds(game_name: str, capsys: pytest.CaptureFixture[str]) -> None:
    from campsolver.clients.cli import main

    for command_name in ("hint", "max", "puzzle", "score", "legal", "new", "play"):
        assert main([game_name, command_name, "--help"]) == 0
        out = capsys.readouterr().out
        request = games()[game_name].commands[command_name].request_type.DESCRIPTOR
        assert request.full_name in out and f"campsolver {game_name} example {command_name}" in out
        assert all(f"  {field.json_name}: " in out for field in request.fields), out
    assert main([game_name, "--help"]) == 0
    assert "COMMAND --help" in capsys.readouterr().out


def test_batch_help_shows_every_default_once(capsys: pytest.CaptureFixture[str]) -> None:
    from campsolver.clients.batch.cli import build_parser

    text = " ".join(build_parser().format_help().split())
    for shown in (
        "(default: 1)",
        "(default: 3)",
        "(default: 10)",
        "(default: 5,10,15,20,25)",
        "easy,medium,hard",
        "(default: Campsolver puzzle book)",
    ):
        assert shown in text, shown
    assert "(default 3) (default" not in text and "(0,)" not in text
