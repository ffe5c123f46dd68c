"""TLS from the command line: a bad certificate or key file is named as such before serving, and the CLI's
`--server` reaches a TLS server with `--tls-ca` (or `--tls` for a server with a publicly trusted certificate)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from campsolver.clients import cli
from campsolver.service.games import camper_tour as ct_service
from campsolver.service.server import CampsolverServer, ServerConfig

from tests.test_client import _self_signed


def _files(tmp_path: Path) -> tuple[Path, Path]:
    _self_signed(tmp_path)  # writes cert.pem and key.pem
    return tmp_path / "cert.pem", tmp_path / "key.pem"


def test_serve_names_a_certificate_file_that_is_not_pem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cert, key = _files(tmp_path)
    junk = tmp_path / "junk.txt"
    junk.write_text("not a certificate\n")
    assert cli.main(["serve", "--port", "0", "--tls-cert", str(junk), "--tls-key", str(key)]) == cli.EXIT_BAD_INPUT
    line = capsys.readouterr().err.strip()
    assert "\n" not in line and "--tls-cert" in line and "not a PEM certificate chain" in line
    assert cli.main(["serve", "--port", "0", "--tls-cert", str(cert), "--tls-key", str(junk)]) == cli.EXIT_BAD_INPUT
    assert "--tls-key" in (err := capsys.readouterr().err) and "not a PEM private key" in err


def test_serve_names_a_key_that_does_not_go_with_the_certificate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cert, _key = _files(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    _other_cert, other_key = _files(other)
    assert cli.main(["serve", "--port", "0", "--tls-cert", str(cert), "--tls-key", str(other_key)]) == 2
    line = capsys.readouterr().err.strip()
    assert "--tls-key" in line and "does not go with the certificate" in line


def test_the_cli_reaches_a_tls_server_with_tls_ca(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cert, key = _files(tmp_path)
    running = CampsolverServer(
        ServerConfig(port=0, workers=1, tls_cert_chain=cert.read_bytes(), tls_private_key=key.read_bytes())
    )
    running.start()
    request = tmp_path / "score.json"
    request.write_text(cli.to_json(ct_service.EXAMPLES["Score"]()))
    target = f"localhost:{running.port}"
    try:
        common = ["camper-tour", "score", "--request", str(request), "--server", target, "--timeout", "20"]
        assert cli.main([*common, "--tls-ca", str(cert)]) == cli.EXIT_OK
        assert json.loads(capsys.readouterr().out)["scores"]
        assert cli.main(common) == cli.EXIT_FAILURE  # plaintext to a TLS server: cannot reach, one line
        assert "cannot reach" in capsys.readouterr().err
    finally:
        running.stop(grace_s=1.0)
    assert cli.main(["camper-tour", "score", "--request", str(request), "--tls"]) == cli.EXIT_BAD_INPUT
    assert "--tls: only with --server" in capsys.readouterr().err
