"""A book's puzzle and its solution stay on one A4 page each while the picture can give up height for a long
solution: a Happy Campers solution (its picture, turns, final map and the grade's evidence table) spilled onto a
second page. Printed by headless Chromium, as `campsolver batch book` readers print it; the picture gives up
height, never below `book.MIN_PICTURE_MM`, and is never stretched; a solution too long even then goes on over a
second sheet, never cut."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from campsolver.clients.batch import book
from campsolver.clients.batch.engine import Task
from campsolver.solver.core.budget import Budget

from tests.batch.test_book import chromium

MM_PX = 96 / 25.4


def _happy_campers_example(response: Any) -> tuple[Task, dict[str, Any]]:
    """The book's task and result for the registry's example Happy Campers puzzle (`response`: the session's)."""
    result = book.puzzle_result(response)
    params = {"game": "happy-campers", "grade": result["grade"], "seed": result["seed"]}
    return Task("book", "happy-campers", "puzzle", params, book.generate), result


def _longer(result: dict[str, Any], turns: int, evidence: int) -> dict[str, Any]:
    """The same puzzle with a longer solution, as a game of more rolls has: `turns` more turn lines and `evidence`
    more rows of evidence."""
    lines = "\n".join(
        f"  turn {9 + i}, roll 3 and 6: any shape with element 3 -> water on r4c7 r4c8" for i in range(turns)
    )
    text = result["solution_text"].replace("\n\nFinal map:", f"\n{lines}\n\nFinal map:")
    assert text != result["solution_text"]
    extra = [dict(row, name=f"{row['name']}_{i}") for i, row in enumerate(result["evidence"] * 2)][:evidence]
    return dict(result, solution_text=text, evidence=result["evidence"] + extra)


def _pdf_pages(html: str, tmp_path: Path) -> int:
    source, pdf = tmp_path / "book.html", tmp_path / "book.pdf"
    source.write_text(html)
    chromium(tmp_path / "profile", f"--print-to-pdf={pdf}", "--no-pdf-header-footer", source.as_uri())
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf.read_bytes()))


def _measure(html: str, tmp_path: Path, what: str) -> Any:
    """`what` (a JavaScript expression) evaluated on the book as printed (the print CSS applied on screen, one A4
    page wide), as JSON."""
    probe = tmp_path / "probe.html"
    script = (
        "<script>window.addEventListener('load', () => { const out = document.createElement('pre');"
        f"out.id = 'measured'; out.textContent = JSON.stringify({what}); document.body.appendChild(out); }});"
        "</script>"
    )
    screen = html.replace("@media print", "@media all").replace("</style>", "body { width: 210mm; }</style>")
    probe.write_text(screen.replace("</body>", script + "</body>"))
    dom = chromium(tmp_path / "profile", "--virtual-time-budget=5000", "--dump-dom", probe.as_uri()).stdout
    return json.loads(re.search(r'<pre id="measured">(.*?)</pre>', dom, re.S).group(1))


def _picture_heights_mm(html: str, tmp_path: Path) -> list[float]:
    """The pictures' heights as printed."""
    heights = "[...document.querySelectorAll('svg')].map(s => s.getBoundingClientRect().height)"
    return [px / MM_PX for px in _measure(html, tmp_path, heights)]


def _cut_sections(html: str, tmp_path: Path) -> list[tuple[str, int, int]]:
    """Puzzle and solution pages whose content reaches beyond their box (id, content and box height in px)."""
    sizes = "[...document.querySelectorAll('section.page')].map(s => [s.id, s.scrollHeight, s.clientHeight])"
    return [(name, content, box) for name, content, box in _measure(html, tmp_path, sizes) if content > box]


@pytest.fixture(scope="module")
def example(example_puzzles: dict[str, Any]) -> tuple[Task, dict[str, Any]]:
    return _happy_campers_example(example_puzzles["happy-campers"])


def test_a_long_happy_campers_solution_stays_on_one_page(example: tuple[Task, dict[str, Any]], tmp_path: Path) -> None:
    task, result = example
    long = _longer(result, turns=8, evidence=4)
    html = book.render("Book", [(task, result, None), (task, long, None)])
    assert _pdf_pages(html, tmp_path) == 1 + 2 * 2
    heights = _picture_heights_mm(html, tmp_path)
    assert len(heights) == 4
    # The long solution's picture gave up height (the short one's did not need to), never below the floor.
    short_solution, long_solution = heights[2], heights[3]
    assert book.MIN_PICTURE_MM - 0.5 <= long_solution < short_solution, heights
    assert _cut_sections(html, tmp_path) == []


def test_a_solution_too_long_for_one_page_goes_on_over_a_second_sheet_and_nothing_is_cut(
    example: tuple[Task, dict[str, Any]], tmp_path: Path
) -> None:
    """With the picture at the floor the text still needs more than the page: the page grows onto a second sheet
    (the book's pages used to cut it off at the sheet's foot)."""
    task, result = example
    html = book.render("Book", [(task, _longer(result, turns=30, evidence=12), None)])
    assert _pdf_pages(html, tmp_path) == 1 + 1 + 2
    _, solution = _picture_heights_mm(html, tmp_path)
    assert solution == pytest.approx(book.MIN_PICTURE_MM, abs=0.5)
    assert _cut_sections(html, tmp_path) == []


def test_pictures_keep_their_print_size_where_the_page_has_room(
    example: tuple[Task, dict[str, Any]], tmp_path: Path
) -> None:
    """No picture is stretched or shrunk where it fits: the print size (solver/core/picture.py) stands."""
    from campsolver.solver.core.picture import print_scale

    from tools.puzzle_pictures import svg_size

    task, result = example
    heights = _picture_heights_mm(book.render("Book", [(task, result, None)]), tmp_path)
    expected = []
    for svg in (result["svg"], result["solution_svg"]):
        width, height = svg_size(svg)
        expected.append(height * print_scale(width, height))
    assert heights == pytest.approx(expected, abs=1.0)


@pytest.mark.slow
def test_the_happy_campers_puzzle_that_spilled_prints_on_one_page_each(tmp_path: Path) -> None:
    """The book that showed it: Happy Campers easy, seed 2 (its solution's evidence table went onto a new page)."""
    params = {"game": "happy-campers", "grade": "easy", "seed": 2}
    result = book.generate(params, Budget(300.0))
    task = Task("book", "happy-campers", "puzzle", params, book.generate)
    assert _pdf_pages(book.render("Book", [(task, result, None)]), tmp_path) == 3


def test_each_picture_carries_its_print_height_and_one_without_a_size_the_tallest() -> None:
    """The print CSS grows a picture up to `--print-height`: its print size from the root's width and height, or
    the tallest print size when the root gives none (the book is still made, the browser sizes the picture)."""
    from campsolver.solver.core.picture import PRINT_MAX_HEIGHT_MM, print_scale

    sized = book._inline_svg('<?xml version="1.0"?><svg width="400" height="300" viewBox="0 0 400 300"></svg>')
    assert f"--print-height: {300 * print_scale(400, 300):.2f}mm" in sized and "<?xml" not in sized
    unsized = book._inline_svg('<svg viewBox="0 0 10 10"></svg>')
    assert f"--print-height: {PRINT_MAX_HEIGHT_MM:.2f}mm" in unsized
    assert book._inline_svg("not a picture") == ""
