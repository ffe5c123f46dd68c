"""The sixth shape: `components.shapes` may list six shapes (face 6 a shape of its own) as well as five.

Each layer is checked with six shapes: the rules model (hand-counted drawings), the game flow (Noisy
Neighbours), the fast rollout engine, the CP-SAT maximiser against the exhaustive oracle, the hint, the
puzzle generator, and every service command through the same dispatcher the gRPC servicer and the CLI use.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from campsolver.service import dispatch
from campsolver.service.errors import InvalidArgument
from campsolver.service.registry import game
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.proof import Proof
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers import exhaustive, maximise, puzzle
from campsolver.solver.happy_campers.hint import HintMode, HintOptions, hint, turn_state
from campsolver.solver.happy_campers.modes import MultiplayerState, multiplayer_options
from campsolver.solver.happy_campers.policies import FastMap, candidate_placement
from campsolver.solver.happy_campers.rules import (
    DEFAULT_SHAPES,
    DOMINO,
    Challenge,
    Components,
    Element,
    Option,
    RulesError,
    draw,
    empty_grid,
    legal_placements,
    legal_placements_for_option,
    parse_grid,
    score,
    shapes_for_face,
)

from campsolver.v1 import happy_campers_pb2 as pb

ROOT = Path(__file__).resolve().parents[2]
MONOMINO = frozenset({(0, 0)})
S_TETROMINO = frozenset({(0, 1), (0, 2), (1, 0), (1, 1)})
SIX_34 = Components(rows=3, cols=4, shapes=(*DEFAULT_SHAPES, MONOMINO))
FIVE_34 = Components(rows=3, cols=4)


def test_components_take_five_or_six_shapes_and_name_the_field_otherwise():
    assert len(SIX_34.shapes) == 6 and SIX_34.six_shapes
    assert not FIVE_34.six_shapes
    for bad in (DEFAULT_SHAPES[:4], (*DEFAULT_SHAPES, MONOMINO, DOMINO)):
        with pytest.raises(RulesError) as caught:
            Components(rows=3, cols=4, shapes=bad)
        assert caught.value.field == "shapes"


def test_face_six_is_the_sixth_shape_by_hand_count():
    """Empty 3x4 map, roll (6, 1). Six shapes: shape 6 (a single square) as trees in 12 places, plus shape 1
    (domino: 9 across + 8 down = 17 places) in any of 5 elements = 85; 97 in all. Five shapes: shape face 6
    is any shape, so it is far more."""
    grid = empty_grid(SIX_34)
    moves = legal_placements(grid, (6, 1), SIX_34)
    assert len(legal_placements_for_option(grid, Option(6, 1), SIX_34)) == 12
    assert len(legal_placements_for_option(grid, Option(1, 6), SIX_34)) == 85
    assert len(moves) == 97
    assert all(len(p.cells) == 1 and p.element is Element.TREES for p in moves if p.option == Option(6, 1))
    assert shapes_for_face(6, SIX_34) == (MONOMINO,)
    assert len(shapes_for_face(6, FIVE_34)) == 5
    assert len(legal_placements_for_option(grid, Option(6, 1), FIVE_34)) > 12


def test_noisy_neighbours_double_offers_every_one_of_six_shapes():
    cards = (Challenge.NOISY_NEIGHBOURS,)
    assert multiplayer_options((2, 2), cards, SIX_34) == tuple(Option(s, 2) for s in range(1, 7))
    assert multiplayer_options((6, 6), cards, SIX_34) == tuple(Option(s, 6) for s in range(1, 7))
    assert multiplayer_options((2, 2), (), SIX_34) == (Option(2, 2),)
    state = MultiplayerState.new(2, cards, SIX_34).child((3, 3))
    offered = {p.option for p in state.legal_actions()}
    assert offered == {Option(s, 3) for s in range(1, 7)}


@pytest.mark.parametrize("seed", range(6))
def test_fast_engine_draws_exactly_the_rules_models_moves_with_six_shapes(seed):
    rng = rng_for(seed, "six-shapes-fast")
    grid = parse_grid("....\n.TW.\n....")
    for _ in range(3):
        roll = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        fast = FastMap.from_grid(grid, (), SIX_34)
        ours = {candidate_placement(c, SIX_34.cols) for c in fast.roll_candidates(roll, SIX_34)}
        legal = legal_placements(grid, roll, SIX_34)
        assert ours == set(legal)
        if not legal:
            break
        grid = draw(grid, legal[int(rng.integers(len(legal)))], SIX_34)


@pytest.mark.parametrize("seed", range(4))
def test_clairvoyant_max_with_six_shapes_matches_the_exhaustive_oracle(seed):
    rng = rng_for(seed, "six-shapes-oracle")
    rolls = [(6, int(rng.integers(1, 7))) if t % 2 == 0 else (int(rng.integers(1, 6)), 6) for t in range(5)]
    components = Components(rows=3, cols=4, shapes=(*DEFAULT_SHAPES, S_TETROMINO))
    cards = (Challenge.PRIVACY,) if seed % 2 else ()
    oracle = exhaustive.clairvoyant_max(None, rolls, cards, components)
    found = maximise.clairvoyant_max(None, rolls, cards, components, Budget(30))
    assert found.proof is Proof.OPTIMAL
    assert found.score == oracle.score
    grid = empty_grid(components)
    for turn in found.turns:
        if turn.placement is not None:
            assert turn.placement in legal_placements(grid, rolls[turn.turn], components)
            grid = draw(grid, turn.placement, components)
    assert grid == found.grid and score(grid, cards, components).total == found.score
    # The oracle sees a different game with five shapes (face 6 = any): the answers may differ, and the
    # five-shape optimum is never lower (every drawing of the sixth shape is also open to "any shape").
    five = exhaustive.clairvoyant_max(None, rolls, cards, Components(rows=3, cols=4))
    assert five.score >= oracle.score or not {6} & {f for roll in rolls for f in roll}


def test_absolute_max_with_six_shapes_matches_the_exhaustive_oracle():
    components = Components(rows=2, cols=4, shapes=(DOMINO, DOMINO, DOMINO, DOMINO, DOMINO, MONOMINO))
    cards = (Challenge.NATURE_RESERVE,)
    oracle = exhaustive.absolute_max(components, cards)
    found = maximise.absolute_max(components, cards, Budget(30))
    assert found.proof is Proof.OPTIMAL and found.score == oracle.score
    assert score(found.grid, cards, components).total == found.score


def test_hint_with_six_shapes_lists_exactly_the_legal_moves():
    grid = parse_grid("....\n.TW.\n....")
    result = hint(turn_state(grid, (6, 3), (), SIX_34), Budget(10), options=HintOptions(seed=1, rollouts=60))
    listed = {a.move.placements[0] for a in result.alternatives}
    assert listed == set(legal_placements(grid, (6, 3), SIX_34))
    for alternative in result.alternatives:
        placement = alternative.move.placements[0]
        draw(grid, placement, SIX_34)
        if placement.option == Option(6, 3):
            assert len(placement.cells) == 1
    neighbour = hint(
        turn_state(grid, (4, 4), (Challenge.NOISY_NEIGHBOURS,), SIX_34, mode=HintMode.NEIGHBOUR_MAP),
        Budget(10),
        options=HintOptions(seed=1, rollouts=40),
    )
    drawn = {a.move.placements[0] for a in neighbour.alternatives}
    expected = {p for s in range(1, 7) for p in legal_placements_for_option(grid, Option(s, 4), SIX_34)}
    assert drawn == expected
    assert {p.option.shape_face for p in drawn} == {1, 2, 3, 6}  # the square and the T do not fit here


def test_puzzle_with_six_shapes_replays_to_its_proven_optimum():
    components = Components(rows=4, cols=5, shapes=(*DEFAULT_SHAPES, MONOMINO))
    found = puzzle.generate(3, Budget(60), components=components, rolls=5)
    assert found.proof is Proof.OPTIMAL and found.unique
    final = puzzle.replay(found)
    assert final == found.solution_grid
    assert score(final, found.challenges, components).total == found.optimum
    oracle = exhaustive.clairvoyant_max(found.start_grid, found.rolls, found.challenges, components)
    assert oracle.score == found.optimum
    # the statement and its picture show number 6 as the sixth shape, never as "any shape"
    from campsolver.solver.happy_campers import render

    assert "6=#" in render.puzzle_text(found) and "any shape" not in render.puzzle_text(found)
    assert "any shape" not in render.puzzle_svg(found)


def _six_shape_components() -> pb.HappyCampersComponents:
    shapes = [pb.HappyCampersShape(rows=rows) for rows in (["##"], ["###"], ["#.", "##"], ["##", "##"])]
    shapes += [pb.HappyCampersShape(rows=["###", ".#."]), pb.HappyCampersShape(rows=["#"])]
    return pb.HappyCampersComponents(rows=3, cols=4, shapes=shapes)


def test_every_service_command_takes_six_shapes():
    hc = game("happy-campers")
    components = _six_shape_components()
    start = ["....", ".TW.", "...."]

    def run(cli_name, request):
        return dispatch.run(hc.commands[cli_name], request, Budget(60))

    legal = run(
        "legal",
        pb.HappyCampersServiceLegalMovesRequest(
            components=components, map=start, roll=pb.HappyCampersRoll(first=6, second=1)
        ),
    )
    single = [m for m in legal.moves if m.shape_face == 6]
    assert single and all(len(m.cells) == 1 for m in single)
    scored = run("score", pb.HappyCampersServiceScoreRequest(components=components, map=["TWWA", "TW~E", "...."]))
    assert scored.score.complete and scored.score.total == 2 + 3 + 1 + 1 + 1 - 4
    rolls = [(6, 1), (2, 6), (6, 4), (5, 6), (6, 3)]
    best = run(
        "max",
        pb.HappyCampersServiceMaxScoreRequest(
            components=components, start_map=start, rolls=[pb.HappyCampersRoll(first=a, second=b) for a, b in rolls]
        ),
    )
    oracle = exhaustive.clairvoyant_max(parse_grid("\n".join(start)), rolls, (), SIX_34)
    assert best.score == oracle.score
    hinted = run(
        "hint",
        pb.HappyCampersServiceHintRequest(
            components=components, map=start, roll=pb.HappyCampersRoll(first=6, second=6)
        ),
    )
    assert hinted.alternatives and all(len(a.move.placements[0].cells) == 1 for a in hinted.alternatives)
    made = run(
        "puzzle",
        pb.HappyCampersServiceGeneratePuzzleRequest(
            seed=3, components=pb.HappyCampersComponents(rows=4, cols=5, shapes=components.shapes), rolls=5
        ),
    )
    assert made.puzzle.unique
    with pytest.raises(InvalidArgument) as caught:
        run(
            "score",
            pb.HappyCampersServiceScoreRequest(
                components=pb.HappyCampersComponents(shapes=[*list(components.shapes), components.shapes[0]])
            ),
        )
    assert caught.value.violations[0].field == "components.shapes"


def test_cli_max_takes_six_shapes():
    request = {
        "components": {
            "rows": 3,
            "cols": 4,
            "shapes": [{"rows": r} for r in (["##"], ["###"], ["#.", "##"], ["##", "##"], ["###", ".#."], ["#"])],
        },
        "rolls": [{"first": 6, "second": 6}, {"first": 6, "second": 2}, {"first": 6, "second": 6}],
    }
    done = subprocess.run(
        [sys.executable, "-m", "campsolver.clients.cli", "happy-campers", "max", "--request", "-"],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    rolls = [(6, 6), (6, 2), (6, 6)]
    oracle = exhaustive.clairvoyant_max(None, rolls, (), SIX_34)
    assert answer.get("score", 0) == oracle.score
