"""Campsite puzzles: unique best play re-checked by the rules model, grades, pictures readable without colour."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from campsolver.solver.campsite import puzzle as puzzles
from campsolver.solver.campsite import render
from campsolver.solver.campsite import rules as R
from campsolver.solver.campsite.evaluate import best_turn_search
from campsolver.solver.core.budget import Budget, SolveInterrupted


@pytest.fixture(scope="module")
def puzzle() -> puzzles.Puzzle:
    return puzzles.generate(3, Budget(60))


def test_the_solution_is_the_only_best_play(puzzle: puzzles.Puzzle) -> None:
    placement, tent = puzzle.solution
    after = puzzle.table.place(placement).pitch(tent)
    assert R.player_scores(after, 2)[0] == puzzle.best
    search = best_turn_search(puzzle.table, puzzle.hand, puzzle.tokens, 0, 2, Budget(60))
    assert len(search.plays) == 1 and search.plays[0].score == puzzle.best
    assert puzzle.second < puzzle.best
    assert puzzle.grade is puzzles.grade_of(puzzle.near_best, puzzle.naive_shortfall, puzzle.best - puzzle.second)


def test_generation_is_deterministic(puzzle: puzzles.Puzzle) -> None:
    again = puzzles.generate(3, Budget(60))
    assert again.table == puzzle.table and again.solution == puzzle.solution and again.hand == puzzle.hand


def test_grade_rises_with_the_evidence() -> None:
    order = list(puzzles.Grade)
    assert puzzles.grade_of(0, 0, 3) is puzzles.Grade.EASY
    for near in range(0, 8):
        for shortfall in range(0, 5):
            here = order.index(puzzles.grade_of(near, shortfall, 2))
            assert order.index(puzzles.grade_of(near + 1, shortfall, 2)) >= here
            assert order.index(puzzles.grade_of(near, shortfall + 1, 2)) >= here


def test_a_spent_budget_raises_rather_than_answering() -> None:
    budget = Budget(0.001)
    import time

    time.sleep(0.01)
    with pytest.raises(SolveInterrupted):
        puzzles.generate(3, budget)


def test_pictures_name_every_square_in_letters(puzzle: puzzles.Puzzle) -> None:
    text = render.table_text(puzzle.table)
    letters = {t.letter for t in R.Terrain}
    coloured = [sq for sq in puzzle.table.grid.values() if sq.coloured]
    visible_tents = {c for c in puzzle.table.tent_cells}
    assert sum(1 for cell, sq in puzzle.table.grid.items() if sq.coloured and cell not in visible_tents) == len(
        coloured
    )
    pairs = [tok for tok in text.split() if len(tok) >= 2 and set(tok[:2]) <= letters]
    assert len(pairs) == len(coloured)
    assert text.count("^") == len(puzzle.table.tents)
    svg = render.table_svg(puzzle.table)
    root = ET.fromstring(svg)
    labels = [el.text for el in root.iter("{http://www.w3.org/2000/svg}text")]
    assert sum(1 for label in labels if label and set(label) <= letters) == len(coloured)
