"""Puzzle text and SVG: the statement shows what a player needs, the SVG is valid XML showing both maps."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from campsolver.solver.core.budget import Budget
from campsolver.solver.happy_campers import rules
from campsolver.solver.happy_campers.policies import play_game, random_rolls
from campsolver.solver.happy_campers.puzzle import Puzzle, generate
from campsolver.solver.happy_campers.render import grid_svg, puzzle_svg, puzzle_text
from hypothesis import given, settings
from hypothesis import strategies as st

SVG = "{http://www.w3.org/2000/svg}"
SMALL = rules.Components(rows=4, cols=4)


@pytest.fixture(scope="module")
def puzzle() -> Puzzle:
    return generate(2, Budget(120), components=SMALL, rolls=5)


def test_text_states_map_rolls_and_cards_then_the_solution(puzzle: Puzzle) -> None:
    text = puzzle_text(puzzle)
    statement, solution = text.split("=" * 40)
    for turn, (a, b) in enumerate(puzzle.rolls):
        assert f"{turn + 1}:{a}-{b}" in statement
    for card in puzzle.challenges:
        assert card.value.replace("_", " ") in statement
    start_block = statement.split("Start map:\n")[1].split("\n\n")[0]
    assert rules.parse_grid(start_block, puzzle.components) == puzzle.start_grid
    final_block = solution.split("Final map:\n")[1].split("\nLargest")[0]
    assert rules.parse_grid(final_block, puzzle.components) == puzzle.solution_grid
    assert f"Solution: {puzzle.optimum} points" in solution
    assert solution.count("  turn ") == puzzle.turns_played + (puzzle.turns_played < len(puzzle.rolls))
    assert puzzle.grade.value in text


def test_puzzle_svg_is_valid_xml_with_both_maps(puzzle: Puzzle) -> None:
    root = ET.fromstring(puzzle_svg(puzzle))
    assert root.tag == f"{SVG}svg"
    maps = [g for g in root.iter(f"{SVG}g") if g.get("class") == "map"]
    assert len(maps) == 2
    cells = puzzle.components.cell_count
    start_rects = [r for r in maps[0].iter(f"{SVG}rect") if r.get("class")]
    solved_rects = [r for r in maps[1].iter(f"{SVG}rect") if r.get("class")]
    assert len(start_rects) == len(solved_rects) == cells
    predrawn = len(rules.drawn_cells(puzzle.start_grid))
    assert sum(r.get("class") == "predrawn" for r in start_rects) == predrawn
    assert sum(r.get("class") == "predrawn" for r in solved_rects) == predrawn
    new_squares = sum(len(step.cells) for step in puzzle.solution)
    assert sum(r.get("class") == "drawn" for r in solved_rects) == new_squares
    turn_labels = [t.text for t in maps[1].iter(f"{SVG}text") if t.get("class") == "turn"]
    assert sorted(turn_labels) == sorted(str(step.turn + 1) for step in puzzle.solution for _ in step.cells)
    predrawn_fill = {r.get("fill") for r in start_rects if r.get("class") == "predrawn"}
    drawn_fill = {r.get("fill") for r in solved_rects if r.get("class") == "drawn"}
    assert not predrawn_fill & drawn_fill  # pre-drawn squares look different from solution squares


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), rows=st.integers(2, 6), cols=st.integers(3, 9))
def test_grid_svg_parses_for_any_played_map(seed: int, rows: int, cols: int) -> None:
    components = rules.Components(rows=rows, cols=cols)
    game = play_game(None, random_rolls(seed, 6), (), components, "random", seed=seed)
    root = ET.fromstring(grid_svg(game.final_grid, title="a <map> & more"))
    rects = [r for r in root.iter(f"{SVG}rect") if r.get("class")]
    assert len(rects) == rows * cols
    assert sum(r.get("class") != "empty" for r in rects) == len(rules.drawn_cells(game.final_grid))
