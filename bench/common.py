"""Small helpers every bench module shares: percentiles, tables, JSON output."""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from campsolver.clients.batch.tournament import wilson  # noqa: F401  (the one Wilson interval, tested there)

RESULTS_DIR = Path(__file__).resolve().parent / "results"


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    position = (len(ordered) - 1) * q / 100.0
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summary_ms(seconds: Sequence[float]) -> dict[str, float]:
    ms = [s * 1000.0 for s in seconds]
    return {
        "n": len(ms),
        "p50_ms": percentile(ms, 50),
        "p99_ms": percentile(ms, 99),
        "mean_ms": statistics.fmean(ms) if ms else float("nan"),
    }


def print_table(title: str, rows: list[dict[str, Any]]) -> None:
    """Print rows (dicts with the same keys) as an aligned text table."""
    print(f"\n## {title}")
    if not rows:
        print("(no rows)")
        return
    headers = list(rows[0])
    cells = [[_fmt(row.get(h)) for h in headers] for row in rows]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(headers)]
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)))
    for c in cells:
        print("  ".join(v.ljust(w) for v, w in zip(c, widths, strict=True)))


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}" if abs(value) < 1e5 else f"{value:.6g}"
    return str(value)


def write_json(name: str, payload: dict[str, Any]) -> Path:
    path = RESULTS_DIR / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)  # a name may hold a folder: arena_report/x
    path.write_text(json.dumps(payload, indent=2, default=str) + "\n")
    print(f"\nwrote {path.relative_to(RESULTS_DIR.parent.parent)}")
    return path
