"""Every game's puzzle and solution pictures as a reader sees them: printed at the book's size.

For each game's example puzzle (the registry's GeneratePuzzle example, through the service handler):
- both pictures render to PNG with rsvg-convert at the width the book prints them (A4, `print_scale`);
- the puzzle picture states the question (the envelope's question, word for word) and has a legend; the
  solution picture has the question, the answer and a legend;
- every label declares its box (`data-box`, from the renderer), no box overlaps another, none leaves the
  picture (nothing cut), and the smallest text is at least `MIN_TEXT_MM` tall on A4 at the book's scale;
- more seeds of the games whose puzzles are cheap pass the same label checks;
- then the five puzzles go into one book, printed to PDF by headless Chromium (one page each), and the browser
  measures every label (getBBox in the real font): each measured box lies inside its declared box, so the
  overlap and cut checks above hold for the text as drawn, not only for the estimate.
"""

from __future__ import annotations

import itertools
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from campsolver.clients.batch import book
from campsolver.clients.batch.engine import Task
from campsolver.clients.batch.service_calls import call
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.picture import MIN_TEXT_MM, Box, print_scale

from tests.batch.test_book import chromium
from tests.test_pictures import png_size
from tools.puzzle_pictures import print_pixels, svg_size, to_png

SVG = "{http://www.w3.org/2000/svg}"
#: How far (user units) a label the browser measures may reach past its declared box.
MEASURE_SLACK = 1.0


@pytest.fixture(scope="module")
def examples(example_puzzles: dict[str, Any]) -> dict[str, Any]:
    """Game -> its example GeneratePuzzle response (every game with a puzzle command; tests/conftest.py)."""
    assert len(example_puzzles) == 5, sorted(example_puzzles)
    return example_puzzles


def _texts(svg: str) -> list[ET.Element]:
    return list(ET.fromstring(svg).iter(f"{SVG}text"))


def _words(elements: list[ET.Element], cls: str) -> str:
    return " ".join(e.text or "" for e in elements if e.get("class") == cls)


def label_problems(svg: str) -> list[str]:
    """Every way a label of `svg` breaks the reader's rules (empty when it is readable)."""
    width, height = svg_size(svg)
    scale = print_scale(width, height)
    problems = []
    boxes: list[tuple[str, Box]] = []
    for element in _texts(svg):
        text = element.text or ""
        declared = element.get("data-box")
        if declared is None:
            problems.append(f"{text!r}: no data-box")
            continue
        box = Box(*map(float, declared.split()))
        boxes.append((text, box))
        if box.x < 0 or box.y < 0 or box.x + box.width > width or box.y + box.height > height:
            problems.append(f"{text!r} {box} leaves the {width:g}x{height:g} picture")
        size_mm = float(element.get("font-size", "0")) * scale
        if size_mm < MIN_TEXT_MM:
            problems.append(f"{text!r}: {size_mm:.2f} mm on A4")
    for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2):
        if box_a.overlaps(box_b):
            problems.append(f"{a!r} {box_a} overlaps {b!r} {box_b}")
    return problems


def test_every_picture_prints_readable_with_question_and_legend(examples: dict[str, Any], tmp_path: Path) -> None:
    for name, response in examples.items():
        envelope = response.puzzle
        for kind, svg in (("puzzle", envelope.svg), ("solution", envelope.solution_svg)):
            assert svg, f"{name}: no {kind} picture"
            texts = _texts(svg)
            question = _words(texts, "question")
            assert " ".join(envelope.question.split()) in question, (name, kind, question)
            legend = [g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("class") == "legend"]
            assert legend and len(list(legend[0].iter(f"{SVG}text"))) >= 3, f"{name} {kind}: no legend"
            assert label_problems(svg) == [], (name, kind)
            png = to_png(svg, tmp_path / f"{name}-{kind}.png")
            width, height = png_size(png.read_bytes())
            svg_width, svg_height = svg_size(svg)
            assert width == print_pixels(svg)
            assert abs(height - width * svg_height / svg_width) <= 1
        assert "Answer" in _words(_texts(envelope.solution_svg), "answer") or name == "happy-campers", name


#: Games whose puzzles take well under a second: more seeds (and grades) of them, beyond the examples.
CHEAP_PUZZLES = {
    "camper-tour": (range(6), ("easy", "hard", "expert")),
    "campsite": (range(3), (None,)),
    "adventure-tours": (range(8), (None,)),
}


@pytest.mark.parametrize("game", sorted(CHEAP_PUZZLES))
def test_more_seeds_print_readable(game: str) -> None:
    seeds, grades = CHEAP_PUZZLES[game]
    for seed in seeds:
        for grade in grades:
            request: dict[str, Any] = {"seed": seed}
            if grade:
                request["grade"] = "DIFFICULTY_GRADE_" + grade.upper()
            envelope = call(game, "puzzle", request, Budget(60)).puzzle  # type: ignore[attr-defined]
            for kind, svg in (("puzzle", envelope.svg), ("solution", envelope.solution_svg)):
                assert label_problems(svg) == [], (seed, grade, kind)


def test_the_problem_finder_sees_overlaps_cuts_and_small_text() -> None:
    def picture(*labels: str, width: int = 600) -> str:
        return f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="300">' + "".join(labels) + "</svg>"

    ok = '<text font-size="12" data-box="10 10 100 14">a</text>'
    assert label_problems(picture(ok)) == []
    assert "overlaps" in label_problems(picture(ok, '<text font-size="12" data-box="50 15 100 14">b</text>'))[0]
    assert "leaves" in label_problems(picture('<text font-size="12" data-box="550 10 100 14">c</text>'))[0]
    assert "mm on A4" in label_problems(picture('<text font-size="5" data-box="10 10 20 6">d</text>'))[0]
    assert "no data-box" in label_problems(picture('<text font-size="12">e</text>'))[0]


_MEASURE = (
    "<script>window.addEventListener('load', () => { const out = [...document.querySelectorAll('svg')]"
    ".map(svg => [...svg.querySelectorAll('text')].map(t => { const b = t.getBBox();"
    " return [t.textContent, t.getAttribute('data-box'), b.x, b.y, b.width, b.height]; }));"
    " const pre = document.createElement('pre'); pre.id = 'text-boxes'; pre.textContent = JSON.stringify(out);"
    " document.body.appendChild(pre); });</script>"
)


def test_book_of_every_game_prints_one_page_each_and_labels_fit_as_drawn(
    examples: dict[str, Any], tmp_path: Path
) -> None:
    made = [
        (Task("book", name, "puzzle", {"game": name}, book.generate), book.puzzle_result(response), None)
        for name, response in examples.items()
    ]
    html = book.render("Every game", made)
    for number, (_, result, _) in enumerate(made, start=1):
        page = html.split(f'id="puzzle-{number}"')[1].split("</section>")[0]
        assert "evidence" not in page  # the grade's evidence goes with the solution
        assert all(
            f"<td>{item['name']}</td>" in html.split(f'id="solution-{number}"')[1].split("</section>")[0]
            for item in result["evidence"]
        )
    source = tmp_path / "book.html"
    source.write_text(html)
    pdf = tmp_path / "book.pdf"
    chromium(tmp_path / "profile", f"--print-to-pdf={pdf}", "--no-pdf-header-footer", source.as_uri())
    pages = len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf.read_bytes()))
    assert pages == 1 + 2 * len(made)
    probe = tmp_path / "probe.html"
    probe.write_text(html.replace("</body>", _MEASURE + "</body>"))
    dom = chromium(tmp_path / "profile", "--virtual-time-budget=5000", "--dump-dom", probe.as_uri()).stdout
    measured = json.loads(re.search(r'<pre id="text-boxes">(.*?)</pre>', dom, re.S).group(1))
    assert len(measured) == html.count("<svg")
    outside = []
    for picture in measured:
        for text, declared, x, y, width, height in picture:
            box = Box(*map(float, declared.split()))
            if (
                x < box.x - MEASURE_SLACK
                or y < box.y - MEASURE_SLACK
                or x + width > box.x + box.width + MEASURE_SLACK
                or y + height > box.y + box.height + MEASURE_SLACK
            ):
                outside.append((text, box, (round(x, 1), round(y, 1), round(width, 1), round(height, 1))))
    assert outside == [], "\n".join(map(str, outside))
