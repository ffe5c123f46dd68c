"""A puzzle's question is read once: the README's example prints the puzzle's text, which states it (it printed the
text and then the question again), and a book's puzzle page states it once (it stood under the heading, in the
picture and in the statement: three times)."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from campsolver.clients.batch import book
from campsolver.clients.batch.engine import Task
from campsolver.service.registry import games

ROOT = Path(__file__).resolve().parents[1]
GAMES = list(games())


@pytest.fixture(scope="module")
def puzzles(example_puzzles: dict[str, Any]) -> list[tuple[Task, dict, None]]:
    """Every game's example puzzle (the session's, shared with the picture tests), as the book stores it."""
    assert set(example_puzzles) == set(games()), sorted(example_puzzles)
    made = []
    for name, response in example_puzzles.items():
        result = book.puzzle_result(response)
        made.append(
            (
                Task(
                    "book",
                    name,
                    "puzzle",
                    {"game": name, "grade": result["grade"], "seed": result["seed"]},
                    book.generate,
                ),
                result,
                None,
            )
        )
    return made


def _said(text: str, question: str) -> int:
    """How often the question is said in `text` (HTML tags and line breaks inside an SVG's wrapped lines aside):
    its first seven words, which no other line repeats."""
    plain = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())
    return plain.count(" ".join(question.split()[:7]))


def test_every_puzzle_text_states_its_question_once(puzzles: list) -> None:
    for task, result, _ in puzzles:
        assert result["question"] and _said(result["text"], result["question"]) == 1, task.game


def test_the_readme_prints_a_puzzles_text_and_not_its_question_again() -> None:
    readme = (ROOT / "README.md").read_text()
    lines = [line for line in readme.splitlines() if "['text']" in line or '["text"]' in line]
    assert lines, "the README shows how to print a puzzle's text"
    for line in lines:
        assert "question" not in line, line


def test_a_book_puzzle_page_states_the_question_once(puzzles: list) -> None:
    page = book.render("Book", puzzles)
    for number, (task, result, _) in enumerate(puzzles, start=1):
        section = page.split(f'id="puzzle-{number}"')[1].split("</section>")[0]
        assert _said(section, result["question"]) == 1, task.game
        # ... and a page whose picture does not state it says it under the heading.
        bare = dict(result, svg="", solution_svg="")
        alone = book.render("Book", [(task, bare, None)]).split('id="puzzle-1"')[1].split("</section>")[0]
        assert '<p class="question">' in alone and _said(alone, result["question"]) == 1, task.game
