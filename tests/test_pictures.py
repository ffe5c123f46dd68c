"""Every game's example puzzle pictures render: each SVG goes through rsvg-convert to PNG, so a broken SVG fails.

Generic over the registry, so games merged later are covered without editing this file.
"""

from __future__ import annotations

import shutil
import struct
import subprocess
from pathlib import Path
from typing import Any

from campsolver.service.registry import games

RSVG = shutil.which("rsvg-convert") or "/usr/bin/rsvg-convert"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_every_example_puzzle_picture_renders_to_png(tmp_path: Path, example_puzzles: dict[str, Any]) -> None:
    assert Path(RSVG).exists(), "rsvg-convert is required (Debian package librsvg2-bin)"
    rendered = []
    assert {name for name, game in games().items() if game.commands["puzzle"].handler} == set(example_puzzles)
    for name, response in example_puzzles.items():
        envelope = response.puzzle  # type: ignore[attr-defined]
        assert envelope.text, f"{name}: a puzzle needs its printable statement"
        if envelope.svg:
            assert envelope.solution_svg, f"{name}: the solution is a second picture beside the puzzle's"
        for kind, svg in (("puzzle", envelope.svg), ("solution", envelope.solution_svg)):
            if not svg:
                continue
            source = tmp_path / f"{name}-{kind}.svg"
            source.write_text(svg)
            result = subprocess.run([RSVG, "--format", "png", str(source)], capture_output=True, timeout=120)
            assert result.returncode == 0, f"{name} {kind}: {result.stderr.decode()}"
            width, height = png_size(result.stdout)
            assert width >= 100 and height >= 100, (name, kind, width, height)
            assert not result.stderr, result.stderr.decode()
            rendered.append((name, kind))
    assert ("happy-campers", "puzzle") in rendered and ("happy-campers", "solution") in rendered, rendered
