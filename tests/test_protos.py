"""Generated code is current, and the protos follow buf's STANDARD lint rules in spirit."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tools import genprotos

ROOT = Path(__file__).resolve().parents[1]
PROTOS = sorted((ROOT / "protos" / "campsolver" / "v1").glob("*.proto"))
GAME_RPCS = {"Hint", "MaxScore", "GeneratePuzzle", "Score", "LegalMoves"}


def test_generated_code_is_current(tmp_path: Path) -> None:
    generated = genprotos.generate(tmp_path)
    assert generated, "protoc produced nothing"
    for relative in generated:
        committed = ROOT / relative
        assert committed.exists(), f"{relative} is missing: run `make protos`"
        assert committed.read_bytes() == (tmp_path / relative).read_bytes(), f"{relative} is stale: run `make protos`"
    committed_files = {p.relative_to(ROOT) for p in (ROOT / genprotos.PACKAGE_DIR).rglob("*") if p.is_file()}
    committed_files = {p for p in committed_files if "__pycache__" not in p.parts}
    assert committed_files == set(generated), "campsolver/v1/ holds files `make protos` does not generate"


@pytest.mark.parametrize("proto", PROTOS, ids=lambda p: p.name)
def test_proto_lint_in_spirit(proto: Path) -> None:
    text = proto.read_text()
    assert 'syntax = "proto3";' in text
    assert "package campsolver.v1;" in text, "versioned package"
    assert re.fullmatch(r"[a-z][a-z0-9_]*\.proto", proto.name), "lower_snake_case file names"
    for enum_name, body in re.findall(r"enum (\w+) \{(.*?)\n\}", text, re.S):
        prefix = re.sub(r"(?<!^)(?=[A-Z])", "_", enum_name).upper() + "_"
        values = re.findall(r"^\s*(\w+) = (\d+);", body, re.M)
        assert values[0] == (prefix + "UNSPECIFIED", "0"), f"{enum_name}: zero value must be {prefix}UNSPECIFIED"
        for value, _ in values:
            assert value.startswith(prefix), f"{enum_name}.{value} must be prefixed {prefix}"
    for field in re.findall(r"^\s+(?:optional |repeated )?[\w.]+ (\w+) = \d+;", text, re.M):
        assert re.fullmatch(r"[a-z][a-z0-9_]*", field), f"field {field} must be lower_snake_case"
    services = re.findall(r"service (\w+) \{(.*?)\n\}", text, re.S)
    for service, body in services:
        assert service.endswith("Service")
        rpcs = re.findall(r"rpc (\w+)\((\w+)\) returns \((\w+)\);", body)
        assert {name for name, _, _ in rpcs} >= GAME_RPCS, f"{service} lacks some of {GAME_RPCS}"
        for name, request, response in rpcs:
            assert request == f"{service}{name}Request", "request/response message per RPC, standard names"
            assert response == f"{service}{name}Response"
            assert f"message {request} {{" in text and f"message {response} {{" in text


def test_buf_lint_when_available() -> None:
    buf = shutil.which("buf")
    if buf is None:
        pytest.skip("buf is not installed here; test_proto_lint_in_spirit covers the STANDARD rules we use")
    import subprocess

    result = subprocess.run([buf, "lint"], cwd=ROOT / "protos", capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
