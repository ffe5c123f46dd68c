"""Puzzles: deterministic, legal, unique by the margin under an independent re-solve, graded."""

import pytest
from campsolver.solver.camper_tour.hint import _SearchNode, leaf_values
from campsolver.solver.camper_tour.puzzle import (
    DEFAULT_MARGIN,
    OPPONENT_DEPTH,
    Grade,
    budgeting_heuristic,
    generate,
    grade_for,
)
from campsolver.solver.camper_tour.rules import PlateKind as K
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.cpsat import Proof
from campsolver.solver.core.expectimax import expectimax


def independent_values(puzzle):
    """Solo: brute-force expectimax on the rules model (not the solo DP). Opponent: the plain search."""
    state = puzzle.state
    if len(state.campers) == 1:
        result = expectimax(state, budget=Budget(60))
    else:
        result = expectimax(
            _SearchNode(state), budget=Budget(60), max_depth=OPPONENT_DEPTH, leaf_value=lambda n: leaf_values(n.state)
        )
    return {alt.action: alt.values[0] for alt in result.alternatives}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_puzzle_is_deterministic_unique_and_rechecked(seed):
    puzzle = generate(seed, Budget(30))
    assert generate(seed, Budget(30)) == puzzle
    assert puzzle.solution in puzzle.state.legal_actions()
    values = independent_values(puzzle)
    ranked = sorted(values.values(), reverse=True)
    assert max(values, key=values.get) == puzzle.solution
    assert ranked[0] - ranked[1] >= DEFAULT_MARGIN
    assert ranked[0] - ranked[1] == pytest.approx(puzzle.margin, abs=1e-9)
    expected_proof = Proof.EXACT if len(puzzle.state.campers) == 1 else Proof.HEURISTIC
    assert puzzle.evidence.proof == expected_proof


def test_grade_comes_from_the_heuristic_loss():
    puzzle = generate(5, Budget(30), grade=Grade.HARD)
    assert puzzle.grade == Grade.HARD
    heuristic = budgeting_heuristic(puzzle.state)
    loss = next(m.loss for m in puzzle.evidence.moves if m.action == heuristic)
    assert loss == puzzle.evidence.heuristic_loss and grade_for(loss) == Grade.HARD and loss > 0
    assert grade_for(0.0) == Grade.EASY and grade_for(10.0) == Grade.EXPERT


def test_puzzle_statement_a_person_can_read_with_the_answer_apart():
    import xml.etree.ElementTree as ElementTree

    from campsolver.service.games import camper_tour as service
    from campsolver.solver.camper_tour.render import puzzle_svg, text_board

    from campsolver.v1 import camper_tour_pb2 as pb

    response = service.generate_puzzle(pb.CamperTourServiceGeneratePuzzleRequest(seed=4), Budget(30))
    envelope = response.puzzle
    state = service.state_from_proto(response.state)
    mover = state.mover
    # the statement: the board (every laid plate, the specials, where each camper and marker is) and the question
    assert envelope.question and envelope.question in envelope.text
    for plate in range(1, len(state.laid) + 1):
        assert f"{plate:>4}" in envelope.text
    assert f"on plate {mover.position}" in envelope.text and f"{mover.tokens} tokens" in envelope.text
    specials = [p for p in range(2, len(state.laid) + 1) if state.plate_kind(p) != K.NORMAL]
    board_kinds = text_board(state).splitlines()
    assert sum(line.count(letter) for line in board_kinds if line.startswith("kind") for letter in "CMFP") == len(
        specials
    )
    # the answer is not in the statement, and is in the solution
    label = f"announce {response.solution.announce}"
    assert label not in envelope.text and label not in envelope.svg
    assert label in envelope.solution_text and label in envelope.solution_svg
    # both pictures are well-formed SVG with one square per laid plate
    for picture in (envelope.svg, envelope.solution_svg):
        root = ElementTree.fromstring(picture)
        squares = [e for e in root.iter("{http://www.w3.org/2000/svg}rect") if e.get("class") == "plate"]
        assert len(squares) == len(state.laid)
    grade = envelope.DESCRIPTOR.fields_by_name["grade"].enum_type.values_by_number[envelope.grade].name
    assert envelope.svg == puzzle_svg(state, seed=4, grade=grade.removeprefix("DIFFICULTY_GRADE_").lower())
    # the solution's label sits in the text above the route, never on the title (it overlapped it once)
    answer = [
        t
        for t in ElementTree.fromstring(envelope.solution_svg).iter("{http://www.w3.org/2000/svg}text")
        if t.get("class") == "answer"
    ]
    assert answer and label in " ".join(t.text or "" for t in answer)
