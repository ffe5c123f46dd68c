"""Puzzle text and SVG: the statement alone shows what a player needs (and no answer); the solution is apart."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from campsolver.solver.core.budget import Budget
from campsolver.solver.happy_campers import rules
from campsolver.solver.happy_campers.policies import play_game, random_rolls
from campsolver.solver.happy_campers.puzzle import Puzzle, generate
from campsolver.solver.happy_campers.render import (
    ELEMENT_LETTERS,
    grid_svg,
    puzzle_svg,
    puzzle_text,
    solution_svg,
    solution_text,
)
from hypothesis import given, settings
from hypothesis import strategies as st

SVG = "{http://www.w3.org/2000/svg}"
SMALL = rules.Components(rows=4, cols=4)


@pytest.fixture(scope="module")
def puzzle() -> Puzzle:
    return generate(2, Budget(120), components=SMALL, rolls=5)


def test_text_states_map_rolls_and_cards_and_the_solution_is_apart(puzzle: Puzzle) -> None:
    statement = puzzle_text(puzzle)
    solution = solution_text(puzzle)
    for turn, (a, b) in enumerate(puzzle.rolls):  # a roll is two numbers, either may be the shape (the rules)
        assert f"#{turn + 1} {a} and {b}" in statement
    assert "either number may be the shape" in statement
    for card in puzzle.challenges:
        assert card.value.replace("_", " ") in statement
    start_block = statement.split("Start map:\n")[1].split("\n\n")[0]
    assert rules.parse_grid(start_block, puzzle.components) == puzzle.start_grid
    assert "Shapes by number:" in statement and "Elements by number:" in statement and "6=any" in statement
    assert "shape die" not in statement.lower() and "-element die" not in statement
    assert "Solution" not in statement and "turn 1," not in statement  # no answer in the statement
    final_block = solution.split("Final map:\n")[1].split("\nLargest")[0]
    assert rules.parse_grid(final_block, puzzle.components) == puzzle.solution_grid
    assert rules.render_grid(puzzle.solution_grid) not in statement
    assert f"Solution: {puzzle.optimum} points" in solution
    step = puzzle.solution[0]
    assert f"turn {step.turn + 1}, roll {step.roll[0]} and {step.roll[1]}: " in solution
    assert solution.count("  turn ") == puzzle.turns_played + (puzzle.turns_played < len(puzzle.rolls))
    for step in puzzle.solution:  # cells in the one notation, rRcC
        assert all(f"r{r}c{c}" in solution for r, c in step.cells)
    assert "(" + str(next(iter(puzzle.solution[0].cells))[0]) + "," not in solution
    assert puzzle.grade.value in statement


def _maps(svg: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == "map"]


def test_puzzle_svg_shows_the_puzzle_alone_and_the_solution_svg_the_answer(puzzle: Puzzle) -> None:
    (start,) = _maps(puzzle_svg(puzzle))
    (solved,) = _maps(solution_svg(puzzle))
    cells = puzzle.components.cell_count
    start_rects = [r for r in start.iter(f"{SVG}rect") if r.get("class")]
    solved_rects = [r for r in solved.iter(f"{SVG}rect") if r.get("class")]
    assert len(start_rects) == len(solved_rects) == cells
    predrawn = len(rules.drawn_cells(puzzle.start_grid))
    assert sum(r.get("class") == "predrawn" for r in start_rects) == predrawn
    assert sum(r.get("class") == "drawn" for r in start_rects) == 0  # nothing of the answer in the puzzle
    assert not [t for t in start.iter(f"{SVG}text") if t.get("class") == "turn"]
    assert sum(r.get("class") == "predrawn" for r in solved_rects) == predrawn
    new_squares = sum(len(step.cells) for step in puzzle.solution)
    assert sum(r.get("class") == "drawn" for r in solved_rects) == new_squares
    turn_labels = [t.text for t in solved.iter(f"{SVG}text") if t.get("class") == "turn"]
    assert sorted(turn_labels) == sorted(str(step.turn + 1) for step in puzzle.solution for _ in step.cells)
    predrawn_fill = {r.get("fill") for r in start_rects if r.get("class") == "predrawn"}
    drawn_fill = {r.get("fill") for r in solved_rects if r.get("class") == "drawn"}
    assert not predrawn_fill & drawn_fill  # pre-drawn squares look different from solution squares
    letters = {t.text for t in solved.iter(f"{SVG}text") if t.get("class") == "element"}
    assert letters <= set(ELEMENT_LETTERS.values()) and letters


def test_legend_explains_every_mark(puzzle: Puzzle) -> None:
    for svg, solution in ((puzzle_svg(puzzle), False), (solution_svg(puzzle), True)):
        legend = next(g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("class") == "legend")
        words = " ".join(t.text or "" for t in legend.iter(f"{SVG}text"))
        for element in rules.ELEMENTS:
            assert element.name.lower() in words and ELEMENT_LETTERS[int(element)] in words
        assert "pale" in words and "Shapes by number" in words and "Elements by number" in words
        assert "any shape" in words and "any element" in words
        assert ("turn" in words) == solution


def test_solution_svg_says_when_the_game_ended_early() -> None:
    ended = next(
        p
        for p in (generate(seed, Budget(120), components=SMALL, rolls=6) for seed in range(40))
        if p.turns_played < len(p.rolls)
    )
    assert "ended early" in solution_svg(ended) and "ended early" in solution_text(ended)
    assert "ended early" not in puzzle_svg(ended)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), rows=st.integers(2, 6), cols=st.integers(3, 9))
def test_grid_svg_parses_for_any_played_map(seed: int, rows: int, cols: int) -> None:
    components = rules.Components(rows=rows, cols=cols)
    game = play_game(None, random_rolls(seed, 6), (), components, "random", seed=seed)
    root = ET.fromstring(grid_svg(game.final_grid, title="a <map> & more"))
    rects = [r for r in root.iter(f"{SVG}rect") if r.get("class")]
    assert len(rects) == rows * cols
    assert sum(r.get("class") != "empty" for r in rects) == len(rules.drawn_cells(game.final_grid))
