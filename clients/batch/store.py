"""The embedded result store: one SQLite row per task key, written as each task finishes.

Why SQLite: a single file in `--out`, atomic commits (a SIGKILL between two tasks loses nothing committed and
never leaves half a row), and a primary key that makes a second recording of the same task impossible.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

STORE_NAME = "batch.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS results (
    key TEXT PRIMARY KEY,
    job TEXT NOT NULL,
    game TEXT NOT NULL,
    kind TEXT NOT NULL,
    params TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
    result TEXT,
    error TEXT,
    wall_s REAL NOT NULL,
    cpu_s REAL,
    worker TEXT NOT NULL,
    finished_at REAL NOT NULL
);
"""


class StoreMismatch(Exception):
    """The store in `--out` belongs to a different batch (another job or other settings)."""


@dataclass(frozen=True)
class Row:
    key: str
    status: str
    result: dict[str, Any] | None
    error: str | None
    wall_s: float
    worker: str
    #: CPU seconds of the process that ran the task, over the task (None in stores older than the column).
    cpu_s: float | None = None
    #: The budget the task ran under (None in stores older than the column: the batch's own).
    time_limit_s: float | None = None


class Store:
    """Results of one batch, keyed by task key."""

    def __init__(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / STORE_NAME
        self._db = sqlite3.connect(self.path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        columns = {name for (_, name, *_rest) in self._db.execute("PRAGMA table_info(results)")}
        if "cpu_s" not in columns:  # a store written before tasks reported their CPU time
            self._db.execute("ALTER TABLE results ADD COLUMN cpu_s REAL")
        if "time_limit_s" not in columns:  # the budget each task ran under (a retry may raise it)
            self._db.execute("ALTER TABLE results ADD COLUMN time_limit_s REAL")

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def setting(self, name: str) -> Any:
        """A setting recorded by `bind` (None when none is)."""
        row = self._db.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
        return None if row is None else json.loads(row[0])

    def bind(self, settings: dict[str, Any]) -> None:
        """Record the batch settings that change results; refuse a store made with other settings."""
        for name, value in sorted(settings.items()):
            text = json.dumps(value, sort_keys=True)
            row = self._db.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
            if row is None:
                self._db.execute("INSERT INTO meta (name, value) VALUES (?, ?)", (name, text))
            elif row[0] != text:
                raise StoreMismatch(
                    f"{self.path} was made with {name}={row[0]}, not {text}; use another --out or the same settings"
                )

    def done_keys(self) -> set[str]:
        return {key for (key,) in self._db.execute("SELECT key FROM results")}

    def record(
        self,
        *,
        key: str,
        job: str,
        game: str,
        kind: str,
        params: dict[str, Any],
        status: str,
        result: dict[str, Any] | None,
        error: str | None,
        wall_s: float,
        worker: str,
        cpu_s: float | None = None,
        time_limit_s: float | None = None,
    ) -> bool:
        """Write one finished task (committed before returning); False if the key was already recorded."""
        cursor = self._db.execute(
            "INSERT INTO results (key, job, game, kind, params, status, result, error, wall_s, cpu_s, worker, "
            "finished_at, time_limit_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(key) DO NOTHING",
            (
                key,
                job,
                game,
                kind,
                json.dumps(params, sort_keys=True),
                status,
                None if result is None else json.dumps(result, sort_keys=True),
                error,
                wall_s,
                cpu_s,
                worker,
                time.time(),
                time_limit_s,
            ),
        )
        return cursor.rowcount == 1

    def forget_failed(self) -> int:
        """Drop failed rows so that they run again (`--retry-failed`)."""
        return self._db.execute("DELETE FROM results WHERE status = 'failed'").rowcount

    def rows(self) -> dict[str, Row]:
        rows = {}
        for key, status, result, error, wall_s, worker, cpu_s, limit in self._db.execute(
            "SELECT key, status, result, error, wall_s, worker, cpu_s, time_limit_s FROM results"
        ):
            rows[key] = Row(
                key, status, None if result is None else json.loads(result), error, wall_s, worker, cpu_s, limit
            )
        return rows

    def count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM results").fetchone()[0])
