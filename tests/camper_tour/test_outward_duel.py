"""The solved two-camper duel with one camper outward and the other home-bound (`outward_duel`) against an
independent oracle: minimax value iteration over the rules model's own states; the shipped tables against the
solver; the race rule reading them."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import numpy as np
import pytest
from campsolver.solver.camper_tour import outward_duel, return_duel
from campsolver.solver.camper_tour.players import DUEL, race
from campsolver.solver.camper_tour.rules import (
    PLATE_COUNT,
    STARTING_PLATE,
    Announce,
    Camper,
    Config,
    Pending,
    Phase,
    TourState,
    TurnBack,
    position_state,
)

from tests.camper_tour.test_return_duel import minimax_by_value_iteration

SHORT = Config(plate_count=7, specials=())
FIVE = Config(plate_count=5, specials=())
NORMAL_72 = Config(plate_count=PLATE_COUNT, specials=())


def _win_chance_by_value_iteration(start: TourState) -> dict[TourState, float]:
    """The return duel's oracle (minimax value iteration over the rules model's states), nobody winning counting 0
    (the solver's objective: camper 0's chance to win, camper 1 holding it lowest)."""
    return minimax_by_value_iteration(start, nobody=0.0)


@cache
def _short_route_solution() -> outward_duel.Solution:
    plates = SHORT.plate_count - STARTING_PLATE
    return outward_duel.solve(max_out=plates, max_distance=plates, route_plates=plates)


@pytest.mark.parametrize(
    ("x", "y", "mover"),
    [
        ((3, 3), (2, 1, 6), 0),  # X (position, tokens) outward behind Y's marker 6, X to move (13,497 rules states)
        ((4, 2), (2, 2, 6), 1),  # Y (position, tokens, marker) to move
        pytest.param((2, 3), (4, 1, 6), 0, marks=[pytest.mark.slow, pytest.mark.timeout(1800)]),  # goes on: 5 plates
    ],
)
def test_the_solved_outward_duel_equals_minimax_over_the_rules_model(x, y, mover):
    """On a 7-plate all-normal route: the solver's value of the position (X to move or Y to move) equals the
    oracle's, and the move it keeps (X's turn back or announcement, Y's announcement) is one of the oracle's best."""
    campers = [
        Camper(position=x[0], tokens=x[1], phase=Phase.OUTWARD),
        Camper(position=y[0], tokens=y[1], phase=Phase.RETURN, marker=y[2]),
    ]
    start = position_state(SHORT, campers, to_move=mover)
    oracle = _win_chance_by_value_iteration(start)
    solution = _short_route_solution()
    x_policy, y_policy, x_value = solution.x_policy, solution.y_policy, solution.x_value
    cell = (x[0] - STARTING_PLATE, y[0] - STARTING_PLATE, x[0] - y[2] + outward_duel.MAX_GAP, x[1])
    cell = (*cell, y[1] + return_duel.SHORTFALL_FLOOR)
    if mover == 0:
        assert float(x_value[cell]) == pytest.approx(oracle[start], abs=1e-6)  # float32 values
        code = int(x_policy[cell])
        move = TurnBack() if code == outward_duel.TURN_BACK else Announce(code)
    else:
        assert float(solution.y_value[cell]) == pytest.approx(oracle[start], abs=1e-6)
        move = Announce(int(y_policy[cell]))
    pick = max if mover == 0 else min
    best = pick(oracle[start.child(action)] for action in start.legal_actions())
    assert oracle[start.child(move)] == pytest.approx(best, abs=1e-9)


@cache
def _cut_at_three_home() -> outward_duel.Solution:
    """The whole route's solve with the home-bound camper at most 3 plates from home: a cell needs no position
    further from home, so these cells are the full solve's."""
    return outward_duel.solve(max_distance=3)


def test_shipped_tables_equal_the_solver():
    """The shipped X tables are the solver's answers (cut at 3 plates home: every plate out, every gap), and the
    race rule's outward move reads them right."""
    solved = outward_duel.derive(max_distance=3, solution=_cut_at_three_home())[0]
    for gap in (-outward_duel.MAX_GAP, -9, 0, 4, outward_duel.MAX_GAP):
        for out in range(1, outward_duel.MAX_OUT + 1):
            shipped = outward_duel._block(gap, out)
            assert shipped is not None
            assert np.array_equal(shipped[:3], solved[gap + outward_duel.MAX_GAP, out - 1])
    # The race rule's outward move on random duels (home-bound camper 1-3 plates from home), the outward camper to
    # move in either seat: the solver's own choice at the position's cell (read from the solve, not through the
    # writer), legal; the home-bound camper to move gets None (the rule plays). In this test, not its own: one solve.
    x_policy = _cut_at_three_home().x_policy
    rng = np.random.default_rng(11)
    answered = 0
    for _ in range(300):
        out = int(rng.integers(5, outward_duel.MAX_OUT + 2))
        home = int(rng.integers(2, 5))
        marker = home + int(rng.integers(0, 25))
        tx, ty = int(rng.integers(1, 26)), int(rng.integers(0, 26))
        seat, mover = int(rng.integers(0, 2)), int(rng.integers(0, 2))
        outward = Camper(position=out, tokens=tx, phase=Phase.OUTWARD)
        homebound = Camper(position=home, tokens=ty, phase=Phase.RETURN, marker=marker)
        campers = [outward, homebound] if seat == 0 else [homebound, outward]
        state = position_state(NORMAL_72, campers, to_move=mover)
        move = outward_duel.outward_duel_move(state)
        gap = out - marker
        if abs(gap) > outward_duel.MAX_GAP or state.mover.phase == Phase.RETURN:
            assert move is None
            continue
        answered += 1
        cell = (out - STARTING_PLATE, home - STARTING_PLATE, gap + outward_duel.MAX_GAP, tx, ty + return_duel._ZERO)
        code = int(x_policy[cell])
        expected = TurnBack() if code == outward_duel.TURN_BACK else Announce(code)
        assert expected in state.legal_actions()
        assert move == expected
    assert answered >= 120


def _mixed(out: int, out_tokens: int, home: int, home_tokens: int, marker: int, mover: int) -> TourState:
    outward = Camper(position=out, tokens=out_tokens, phase=Phase.OUTWARD)
    homebound = Camper(position=home, tokens=home_tokens, phase=Phase.RETURN, marker=marker)
    return position_state(NORMAL_72, [outward, homebound], to_move=mover)


def _assert_read_in_duels_only(read, duel: TourState, move) -> None:
    """`read` (a table's move function) answers `move` in `duel` and with a third camper eliminated, and None with a
    third on the journey, somebody home, the rival's turn skipped, or on another route."""
    mover = duel.to_move
    assert read(duel) == move
    # Three campers on the journey: not a duel; with the third eliminated, the same duel.
    crowd = position_state(NORMAL_72, [*duel.campers, Camper(position=3, tokens=20)], to_move=mover)
    assert read(crowd) is None
    out = position_state(
        NORMAL_72, [*duel.campers, Camper(position=0, tokens=0, phase=Phase.ELIMINATED)], to_move=mover
    )
    assert read(out) == move
    # Somebody home: not a duel.
    finished = Camper(phase=Phase.FINISHED, marker=9, tokens=0, arrival=1)
    assert read(position_state(NORMAL_72, [*duel.campers, finished], to_move=mover)) is None
    # The rival's turn skipped: the turn order is not the table's.
    campers = list(duel.campers)
    campers[1 - mover] = replace(campers[1 - mover], pending=Pending.SKIP_TURN)
    assert read(position_state(NORMAL_72, campers, to_move=mover)) is None
    # Another route than the tables': not read.
    assert read(position_state(Config(plate_count=60, specials=()), duel.campers, to_move=mover)) is None


def test_race_plays_the_solved_outward_duel_and_the_rule_elsewhere():
    # The home-bound camper to move: its own rule, not the table.
    assert outward_duel.outward_duel_move(_mixed(14, 9, 11, 6, 17, 1)) is None
    for mover in (0, 1):
        duel = _mixed(14, 9, 11, 6, 17, 0)
        if mover == 1:  # the outward camper in the other seat
            duel = position_state(NORMAL_72, duel.campers[::-1], to_move=1)
        move = outward_duel.outward_duel_move(duel)
        assert move is not None and move in duel.legal_actions()
        assert race(duel) == move
        _assert_read_in_duels_only(outward_duel.outward_duel_move, duel, move)
    # Both outward, or both home-bound: not this table.
    both_out = position_state(NORMAL_72, [Camper(position=14, tokens=9), Camper(position=11, tokens=6)])
    assert outward_duel.outward_duel_move(both_out) is None
    both_home = _mixed(14, 9, 11, 6, 17, 0)
    both_home = position_state(
        NORMAL_72, [replace(both_home.campers[0], phase=Phase.RETURN, marker=14), both_home.campers[1]]
    )
    assert outward_duel.outward_duel_move(both_home) is None


@pytest.mark.parametrize(
    ("field", "at_edge", "past_edge"),
    [
        ("out", outward_duel.MAX_OUT, outward_duel.MAX_OUT + 1),
        ("home", outward_duel.MAX_DISTANCE, outward_duel.MAX_DISTANCE + 1),
        ("tokens", outward_duel.MAX_TOKENS, outward_duel.MAX_TOKENS + 1),
        ("rival tokens", outward_duel.MAX_TOKENS, outward_duel.MAX_TOKENS + 1),
        ("gap", -outward_duel.MAX_GAP, -outward_duel.MAX_GAP - 1),
    ],
)
def test_the_tables_answer_at_their_edges_and_the_rule_one_past(field, at_edge, past_edge):
    """At each limit of the tables a move is read; one past it the rule plays (None here). (A gap of +MAX_GAP cannot
    arise within MAX_OUT plates out: the home-bound camper's marker is beyond its own plate.)"""

    def duel(value: int) -> TourState:
        out = value + STARTING_PLATE if field == "out" else 30
        home = value + STARTING_PLATE if field == "home" else 12
        tokens = value if field == "tokens" else 8
        marker = out - value if field == "gap" else max(home, out - 5)
        rival_tokens = value if field == "rival tokens" else 4
        return _mixed(out, tokens, home, rival_tokens, marker, 0)

    assert outward_duel.outward_duel_move(duel(at_edge)) is not None
    assert outward_duel.outward_duel_move(duel(past_edge)) is None


@cache
def _five_plate_both_out() -> outward_duel.BothOut:
    plates = FIVE.plate_count - STARTING_PLATE
    return outward_duel.solve_both_out(outward_duel.solve(max_out=plates, max_distance=plates, route_plates=plates))


@pytest.mark.parametrize(
    ("a", "b", "mover"),
    [
        ((2, 1), (3, 2), 0),  # (position, tokens) each, a to move (6,897 rules states)
        ((2, 2), (3, 1), 1),  # b to move (14,802)
        pytest.param((3, 2), (2, 2), 0, marks=[pytest.mark.slow, pytest.mark.timeout(1800)]),  # 45,365
    ],
)
def test_the_solved_both_outward_duel_equals_minimax_over_the_rules_model(a, b, mover):
    """Both outward on a 5-plate all-normal route: the solver's chance for a (a to move or b to move) equals the
    oracle's, and a's kept choice is one of the oracle's best."""
    start = position_state(
        FIVE, [Camper(position=a[0], tokens=a[1]), Camper(position=b[0], tokens=b[1])], to_move=mover
    )
    oracle = _win_chance_by_value_iteration(start)
    both = _five_plate_both_out()
    cell = (a[0] - STARTING_PLATE, b[0] - STARTING_PLATE, a[1], b[1])
    solved = both.a_value[cell] if mover == 0 else both.b_value[cell]
    assert float(solved) == pytest.approx(oracle[start], abs=1e-7)
    if mover == 0:
        code = int(both.policy[cell])
        move = TurnBack() if code == outward_duel.TURN_BACK else Announce(code)
        best = max(oracle[start.child(action)] for action in start.legal_actions())
        assert oracle[start.child(move)] == pytest.approx(best, abs=1e-9)


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_shipped_tables_equal_the_whole_solve():
    """The whole solve again (about 12 CPU-minutes): the shipped X and both-outward choices are the solver's, and
    `both_out_move` answers the solver's own both-outward choice on random positions."""
    solution = outward_duel.solve()
    both = outward_duel.solve_both_out(solution)
    x_choices, both_choices = outward_duel.derive(solution=solution)
    for out in range(1, outward_duel.MAX_OUT + 1):
        assert np.array_equal(outward_duel._both_out_block(out), both_choices[out - 1])
        for gap in range(-outward_duel.MAX_GAP, outward_duel.MAX_GAP + 1):
            assert np.array_equal(outward_duel._block(gap, out), x_choices[gap + outward_duel.MAX_GAP, out - 1])
    rng = np.random.default_rng(3)
    for _ in range(300):
        pa, pb = (int(p) for p in rng.choice(np.arange(2, outward_duel.MAX_OUT + 2), size=2, replace=False))
        ta, tb = (int(t) for t in rng.integers(1, 26, size=2))
        state = position_state(NORMAL_72, [Camper(position=pa, tokens=ta), Camper(position=pb, tokens=tb)])
        code = int(both.policy[pa - STARTING_PLATE, pb - STARTING_PLATE, ta, tb])
        expected = TurnBack() if code == outward_duel.TURN_BACK else Announce(code)
        assert outward_duel.both_out_move(state) == expected


def test_race_plays_the_solved_both_outward_duel_and_the_rule_elsewhere():
    for mover in (0, 1):
        duel = position_state(NORMAL_72, [Camper(position=14, tokens=9), Camper(position=17, tokens=12)], to_move=mover)
        move = outward_duel.both_out_move(duel)
        assert move is not None and move in duel.legal_actions()
        assert race(duel, duel=replace(DUEL, solved_both_out=True)) == move  # off as shipped
        me, other = duel.campers[mover], duel.campers[1 - mover]
        code = int(
            outward_duel._both_out_block(me.position - STARTING_PLATE)[other.position - 2, me.tokens, other.tokens]
        )
        assert move == (TurnBack() if code == outward_duel.TURN_BACK else Announce(code))
        _assert_read_in_duels_only(outward_duel.both_out_move, duel, move)
    # Off the route or at the starting plate (the first moves), past 40 plates out, or more tokens: the rule.
    for position, tokens in ((0, 25), (STARTING_PLATE, 25), (outward_duel.MAX_OUT + 2, 10), (14, 26)):
        state = position_state(NORMAL_72, [Camper(position=position, tokens=tokens), Camper(position=17, tokens=12)])
        assert outward_duel.both_out_move(state) is None
    edge = position_state(
        NORMAL_72, [Camper(position=outward_duel.MAX_OUT + 1, tokens=25), Camper(position=17, tokens=1)]
    )
    assert outward_duel.both_out_move(edge) is not None
