"""`batch --out`: never overwrites a directory no batch wrote, and a sweep without pyarrow says which extra to
install before any task runs."""

from __future__ import annotations

import builtins
from pathlib import Path

import pytest
from campsolver.clients.batch.cli import main as batch_main

SWEEP = ["sweep", "--games", "camper-tour", "--plates", "8", "--tokens", "4", "--in-process", "--no-progress"]


def test_a_non_empty_directory_no_batch_wrote_is_refused_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "sweep.jsonl").write_text("my own notes\n")
    assert batch_main([*SWEEP, "--out", str(mine)]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "--out" in error and "--force" in error
    assert (mine / "sweep.jsonl").read_text() == "my own notes\n"
    assert batch_main([*SWEEP, "--out", str(mine), "--force"]) == 0
    assert (mine / "sweep.jsonl").read_text() != "my own notes\n"
    # A directory a batch wrote (its store is there) resumes without --force; an empty one is fine too.
    assert batch_main([*SWEEP, "--out", str(mine)]) == 0
    empty = tmp_path / "empty"
    empty.mkdir()
    assert batch_main([*SWEEP, "--out", str(empty)]) == 0
    a_file = tmp_path / "file"
    a_file.write_text("x")
    assert batch_main([*SWEEP, "--out", str(a_file)]) == 2


def test_a_sweep_without_pyarrow_names_the_extra_before_any_task(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real_import = builtins.__import__

    def no_pyarrow(name: str, *args: object, **kwargs: object) -> object:
        if name == "pyarrow" or name.startswith("pyarrow."):
            raise ImportError("No module named 'pyarrow'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pyarrow)
    out = tmp_path / "o"
    assert batch_main([*SWEEP, "--out", str(out)]) == 1
    error = capsys.readouterr().err.strip()
    assert "campsolver[batch]" in error and len(error.splitlines()) == 1
    assert not (out / "batch.sqlite").exists()  # refused before any work


def test_a_retry_may_raise_the_time_limit_of_the_failed_tasks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    from campsolver.clients.batch import sweeps

    real_call = sweeps.call

    def slow_on_long_routes(game: str, command: str, request: dict, budget):  # type: ignore[no-untyped-def]
        """The 72-plate value as a solve that needs more than a second (solves now answer best-so-far)."""
        if request["rules"]["plates"] == 72 and budget.time_limit_s < 1.0:
            raise RuntimeError("DEADLINE_EXCEEDED: no answer within the budget; allow more time")
        return real_call(game, command, request, budget)

    monkeypatch.setattr(sweeps, "call", slow_on_long_routes)
    out = tmp_path / "o"
    job = [
        "sweep",
        "--games",
        "camper-tour",
        "--plates",
        "8,72",
        "--tokens",
        "25",
        "--in-process",
        "--no-progress",
        "--out",
        str(out),
    ]
    assert batch_main([*job, "--time-limit", "0.02"]) == 1
    assert "--retry-failed" in capsys.readouterr().err
    assert batch_main([*job, "--time-limit", "120"]) == 2  # a plain rerun with other settings is still refused
    assert "add --retry-failed" in capsys.readouterr().err
    assert batch_main([*job, "--time-limit", "120", "--retry-failed"]) == 0
    rows = [json.loads(line) for line in (out / "sweep.jsonl").read_text().splitlines()]
    limits = {(row["plates"], row["status"]): row["time_limit_s"] for row in rows}
    assert limits == {(8, "ok"): 0.02, (72, "ok"): 120.0}, limits
