"""The puzzle book in a real browser: headless Chromium prints `book.html` to PDF and PNG.

Checked: one title page, one page per puzzle and one per solution (the PDF page count), every SVG drawn with a
non-empty box (measured by the browser's layout), the book is self-contained (no external resource), and
rerunning the command resumes everything and writes the same file.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from campsolver.clients.batch.cli import main as batch_main

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _book_command(out: Path) -> list[str]:
    return [
        "book",
        "--games",
        "camper-tour,happy-campers",
        "--grades",
        "easy",
        "--count",
        "1",
        "--seed",
        "3",
        "--out",
        str(out),
        "--in-process",
        "--no-progress",
        "--time-limit",
        "120",
    ]


@pytest.fixture(scope="module")
def book_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    out = tmp_path_factory.mktemp("book")
    assert batch_main(_book_command(out)) == 0
    yield out


def chromium(profile: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    if not Path(CHROMIUM).exists():
        pytest.fail("headless Chromium is required (Debian package `chromium`, installed by `make system-deps`)")
    return subprocess.run(
        [CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *arguments],
        capture_output=True,
        text=True,
        timeout=180,
        check=True,
    )


def test_book_prints_one_page_per_puzzle_and_solution(book_dir: Path, tmp_path: Path) -> None:
    html = (book_dir / "book.html").read_text()
    puzzles = len(re.findall(r'<section class="page puzzle"', html))
    assert puzzles == 2  # camper-tour easy + happy-campers easy
    assert len(re.findall(r'<section class="page solution"', html)) == puzzles
    pdf = tmp_path / "book.pdf"
    chromium(tmp_path / "profile", f"--print-to-pdf={pdf}", "--no-pdf-header-footer", (book_dir / "book.html").as_uri())
    pages = len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf.read_bytes()))
    # a title page, then each puzzle and each solution on exactly one page of its own (the print CSS fits the
    # picture, statement and evidence table of these puzzles on one A4 page)
    assert pages == 1 + 2 * puzzles


def test_every_svg_has_a_non_empty_box_and_the_page_renders(book_dir: Path, tmp_path: Path) -> None:
    html = (book_dir / "book.html").read_text()
    assert html.count("<svg") >= 1
    assert not re.search(r'(src|href)="(https?:|//)', html)  # self-contained: nothing fetched
    probe = tmp_path / "probe.html"
    script = (
        "<script>window.addEventListener('load', () => { const boxes = [...document.querySelectorAll('svg')]"
        ".map(s => { const r = s.getBoundingClientRect(); return [r.width, r.height]; });"
        "const out = document.createElement('pre'); out.id = 'svg-boxes';"
        "out.textContent = JSON.stringify(boxes);"
        "document.body.appendChild(out); });</script>"
    )
    probe.write_text(html.replace("</body>", script + "</body>"))
    dom = chromium(tmp_path / "profile", "--virtual-time-budget=5000", "--dump-dom", probe.as_uri()).stdout
    boxes = json.loads(re.search(r'<pre id="svg-boxes">(.*?)</pre>', dom, re.S).group(1))
    assert len(boxes) == html.count("<svg")
    assert all(width > 50 and height > 50 for width, height in boxes), boxes
    png = tmp_path / "page.png"
    chromium(
        tmp_path / "profile",
        "--hide-scrollbars",
        "--window-size=794,1123",
        f"--screenshot={png}",
        (book_dir / "book.html").as_uri(),
    )
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (794, 1123)


def test_rerun_resumes_everything_and_writes_the_same_book(book_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = (book_dir / "book.html").read_bytes()
    capsys.readouterr()
    assert batch_main(_book_command(book_dir)) == 0
    assert "2 tasks: 0 run, 2 resumed, 0 failed" in capsys.readouterr().out
    assert (book_dir / "book.html").read_bytes() == before


def test_puzzle_pages_carry_grade_proof_question_and_seed(book_dir: Path) -> None:
    records = [json.loads(line) for line in (book_dir / "puzzles.jsonl").read_text().splitlines()]
    assert [(r["game"], r["grade"], r["status"]) for r in records] == [
        ("camper-tour", "easy", "ok"),
        ("happy-campers", "easy", "ok"),
    ]
    html = (book_dir / "book.html").read_text()
    for number, record in enumerate(records, start=1):
        section = html.split(f'id="puzzle-{number}"')[1].split("</section>")[0]
        assert f"Seed {record['seed']}" in section and f"proof {record['proof']}" in section
        assert 'class="question"' in section
        assert "Solution:" not in section  # the answer is kept for the solutions pages
