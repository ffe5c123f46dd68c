"""A request the CLI cannot parse names the field by its whole path, as typed, with no empty segment: an enum name
that does not exist deep in a list said `state.campers[0].phase..:`; a value of the wrong type with no "at" in
protobuf's message named no field at all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from campsolver.clients.cli import main

CASES = [
    (
        "camper-tour",
        "hint",
        {"state": {"campers": [{"phase": "BOGUS"}]}},
        "state.campers[0].phase: Invalid enum value BOGUS",
        "CAMPER_PHASE_OUTWARD",
    ),
    (
        "camper-tour",
        "hint",
        {"state": {"campers": [{}, {"position": 2, "phase": "NOPE"}]}},
        "state.campers[1].phase: Invalid enum value NOPE",
        "CAMPER_PHASE_RETURN",
    ),
    (
        "camper-tour",
        "score",
        {"state": {"rules": {"layout": ["PLATE_KIND_NORMAL", "X"]}}},
        "state.rules.layout[1]: Invalid enum value X",
        "PLATE_KIND_NO_PARKING",
    ),
    ("camper-tour", "hint", {"objective": "NOPE"}, "objective: Invalid enum value NOPE", "OBJECTIVE_WIN_PROBABILITY"),
    (
        "happy-campers",
        "score",
        {"challenges": ["PRIVAC"]},
        "challenges[0]: Invalid enum value PRIVAC",
        "CHALLENGE_PRIVACY",
    ),
    ("camper-tour", "hint", {"state": {"toMove": "x"}}, "state.toMove: invalid literal for int()", None),
    ("camper-tour", "hint", {"options": {"timeLimitSeconds": "abc"}}, "options.timeLimitSeconds: Couldn't parse", None),
]


@pytest.mark.parametrize(
    ("game", "command", "body", "expected", "valid"), CASES, ids=[case[3].split(":")[0] for case in CASES]
)
def test_a_field_that_does_not_parse_is_named_by_its_path(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    game: str,
    command: str,
    body: dict,
    expected: str,
    valid: str | None,
) -> None:
    request = tmp_path / "request.json"
    request.write_text(json.dumps(body))
    assert main([game, command, "--request", str(request)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("campsolver: request: "), err
    assert expected in err, err
    path = err.removeprefix("campsolver: request: ").split(": ")[0]
    assert ".." not in path and not path.endswith(".") and "" not in path.split("."), path
    if valid is not None:
        assert "valid names: " in err and valid in err
