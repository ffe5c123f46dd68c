"""Puzzles: the unique best play re-checked by the plain brute force, grading evidence, rendering apart."""

import xml.etree.ElementTree as ET

import pytest
from campsolver.solver.adventure_tours import maximise, puzzle
from campsolver.solver.adventure_tours.hint import apply_play, greedy_play
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.proof import Proof

from tests.adventure_tours.test_search import brute_force


@pytest.mark.parametrize("seed", [0, 2])
def test_puzzle_best_play_is_unique_by_the_margin_under_brute_force(seed: int) -> None:
    found = puzzle.generate(seed, Budget(60))
    assert found is not None and found.proof is Proof.EXACT
    state, player = found.state, found.player
    truth = {
        play: brute_force(apply_play(state, play), player, maximise.MaxObjective.MARGIN, maximise.Others.GREEDY)
        for play, _ in found.values
    }
    assert truth == dict(found.values)
    ordered = sorted(truth.values(), reverse=True)
    assert ordered[0] - ordered[1] == found.margin >= puzzle.MIN_MARGIN
    assert truth[found.solution] == ordered[0]
    greedy = greedy_play(state, player)
    assert found.greedy_shortfall == ordered[0] - truth[greedy]
    assert found.grade is puzzle.grade_of(found.greedy_shortfall, found.nodes)


def test_puzzle_text_and_pictures_keep_the_solution_apart() -> None:
    found = puzzle.generate(1, Budget(60))
    assert found is not None
    text = puzzle.render_text(found)
    solution = puzzle.render_solution_text(found)
    best = puzzle.play_label(found.state, found.solution)
    assert puzzle.QUESTION in text and "Best play" not in text and best in solution
    for svg in (puzzle.render_svg(found), puzzle.render_svg(found, solution=True)):
        assert ET.fromstring(svg).tag.endswith("svg")
    assert puzzle.render_svg(found) != puzzle.render_svg(found, solution=True)


def test_puzzle_page_defines_the_greedy_rule_spells_actions_and_numbers_the_cards_the_answer_names() -> None:
    """The page a reader solves from: the greedy rule the question names is defined in words (text and picture),
    every action on a card is explained in words, and every card the answer names (#N) carries that number in the
    picture."""
    import re

    found = puzzle.generate(3, Budget(60))
    assert found is not None
    text = puzzle.render_text(found)
    assert "greedy rule" in puzzle.QUESTION and puzzle.GREEDY_RULE in text
    for solution in (False, True):
        svg = ET.fromstring(puzzle.render_svg(found, solution=solution))
        texts = [(t.get("class"), t.text or "") for t in svg.iter("{http://www.w3.org/2000/svg}text")]
        words = " ".join(" ".join(t for _, t in texts).split())
        assert " ".join(puzzle.GREEDY_RULE.split()) in words
        numbers = {t for c, t in texts if c == "card-number"}
        answer = " ".join(t for c, t in texts if c == "answer") if solution else puzzle.render_solution_text(found)
        named = set(re.findall(r"#\d+", answer))
        assert named and named <= numbers, (named, numbers)
        names = [t for c, t in texts if c == "action-name"]
        assert names == [f"{act.value}:" for act in puzzle.actions_on_the_page(found.state)]
        assert len(names) >= 3
    for act in puzzle.actions_on_the_page(found.state):
        assert f"{act.value}: {puzzle.ACTION_WORDS[act]}" in text
    # every card is spelled out in the text: no R8($6,+1 ...) shorthand
    assert not re.search(r"[RBY]\d\(\$", text + puzzle.render_solution_text(found))
