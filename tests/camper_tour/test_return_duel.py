"""The solved two-camper return duel (`return_duel`) against an independent oracle: minimax value iteration over
the rules model's own states, and the shipped tables against the solver."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from campsolver.solver.camper_tour import return_duel
from campsolver.solver.camper_tour.players import race
from campsolver.solver.camper_tour.rules import (
    STARTING_PLATE,
    Announce,
    Camper,
    Config,
    Pending,
    Phase,
    Stage,
    TourState,
    position_state,
)

NORMAL = Config(plate_count=20, specials=())


def minimax_by_value_iteration(start: TourState, nobody: float = 0.5) -> dict[TourState, float]:
    """Camper 0's chance to win from every state reachable from `start` (a game nobody wins counts `nobody`), camper
    0 maximising and camper 1 minimising it, the dice as chance (`TourState.child`, `chance_outcomes`, `winner`:
    the rules model alone); the failed-roll cycles solved by iterating to a fixed point."""
    graph: dict[TourState, tuple[str, list]] = {}
    frontier = [start]
    while frontier:
        state = frontier.pop()
        if state in graph:
            continue
        if state.stage == Stage.OVER:
            winner = state.winner()
            graph[state] = ("end", [1.0 if winner == 0 else (nobody if winner is None else 0.0)])
            continue
        if state.stage == Stage.DECIDE:
            kind = "max" if state.to_move == 0 else "min"
            edges = [state.child(action) for action in state.legal_actions()]
        else:
            kind = "chance"
            edges = [(state.child(outcome), float(p)) for outcome, p in state.chance_outcomes()]
        graph[state] = (kind, edges)
        frontier.extend(edge if kind != "chance" else edge[0] for edge in edges)
    value = dict.fromkeys(graph, 0.5)
    for _ in range(3000):
        change = 0.0
        for state, (kind, edges) in graph.items():
            if kind == "end":
                new = edges[0]
            elif kind == "chance":
                new = sum(p * value[child] for child, p in edges)
            else:
                pick = max if kind == "max" else min
                new = pick(value[child] for child in edges)
            change = max(change, abs(new - value[state]))
            value[state] = new
        if change < 1e-13:
            return value
    raise AssertionError("value iteration did not converge")


@pytest.mark.parametrize(
    ("x", "y"),
    [
        ((5, 2, 9), (4, 1, 12)),  # (position, tokens, marker): X behind by 3 (16,621 rules states)
        ((5, 1, 11), (4, 2, 9)),  # X ahead by 2
        pytest.param((6, 3, 9), (8, 1, 12), marks=[pytest.mark.slow, pytest.mark.timeout(1800)]),  # 195,904 states
        pytest.param((7, 2, 11), (5, 0, 11), marks=[pytest.mark.slow, pytest.mark.timeout(1800)]),  # level, Y 0 tokens
    ],
)
def test_the_solved_duel_equals_minimax_over_the_rules_model(x, y):
    """The solver's value of the position (X to move) equals the oracle's, and the announcement it keeps is one of
    the oracle's best."""
    campers = [Camper(position=p, tokens=t, phase=Phase.RETURN, marker=m) for p, t, m in (x, y)]
    start = position_state(NORMAL, campers)
    oracle = minimax_by_value_iteration(start)
    gap = x[2] - y[2]
    policy, value = return_duel.solve(gap, max_distance=10)
    dx, dy = x[0] - STARTING_PLATE, y[0] - STARTING_PLATE
    sx, sy = x[1] + return_duel.SHORTFALL_FLOOR, y[1] + return_duel.SHORTFALL_FLOOR
    assert value[dx, dy, sx, sy] == pytest.approx(oracle[start], abs=1e-9)
    chosen = start.child(Announce(int(policy[dx, dy, sx, sy])))
    assert oracle[chosen] == pytest.approx(max(oracle[start.child(a)] for a in start.legal_actions()), abs=1e-9)


def test_shipped_tables_equal_the_solver():
    """The shipped tables are the solver's answers (positions up to 12 plates out depend on nothing further out)."""
    for gap in (-7, 0, 3, return_duel.MAX_GAP):
        solved = return_duel.derive(gap, max_distance=12)
        for dx in range(1, 13):
            shipped = return_duel._block(gap, dx)
            assert shipped is not None
            assert np.array_equal(shipped[:12], solved[dx - 1])


def test_race_plays_the_solved_duel_home_and_the_rule_elsewhere():
    duel = position_state(
        NORMAL,
        [
            Camper(position=14, tokens=9, phase=Phase.RETURN, marker=17),
            Camper(position=11, tokens=6, phase=Phase.RETURN, marker=15),
        ],
    )
    move = return_duel.duel_return_move(duel)
    assert move is not None and move in duel.legal_actions()
    assert race(duel) == move
    # One camper still outward: not the solved duel.
    outward = position_state(
        NORMAL,
        [Camper(position=14, tokens=9, phase=Phase.RETURN, marker=17), Camper(position=15, tokens=6)],
    )
    assert return_duel.duel_return_move(outward) is None
    # Three campers on the journey: not a duel; with the third eliminated, the same duel.
    crowd = position_state(NORMAL, [*duel.campers, Camper(position=3, tokens=20)])
    assert return_duel.duel_return_move(crowd) is None
    out = position_state(NORMAL, [*duel.campers, Camper(position=0, tokens=0, phase=Phase.ELIMINATED)])
    assert return_duel.duel_return_move(out) == move
    # The rival's turn skipped (a failed Village Festival roll): the turn order is not the table's.
    skipping = replace(duel.campers[1], pending=Pending.SKIP_TURN)
    assert return_duel.duel_return_move(position_state(NORMAL, [duel.campers[0], skipping])) is None
    # Somebody home: not a duel.
    home = position_state(NORMAL, [*duel.campers, Camper(phase=Phase.FINISHED, marker=9, tokens=0, arrival=1)])
    assert return_duel.duel_return_move(home) is None


def test_a_duel_reads_the_solvers_cell_from_either_seat():
    """Random duels, the mover in either seat: the move answered is the solver's announcement at the position's
    (marker gap, plates out, tokens) cell, legal, and never the rule's fallback."""
    rng = np.random.default_rng(5)
    solved: dict[int, np.ndarray] = {}
    floor = return_duel.SHORTFALL_FLOOR
    for _ in range(200):
        px, py = (int(p) for p in rng.choice(np.arange(2, 17), size=2, replace=False))
        tx, ty = (int(t) for t in rng.integers(0, 26, size=2))
        mx, my = px + int(rng.integers(0, 8)), py + int(rng.integers(0, 8))
        mover = int(rng.integers(0, 2))
        me = Camper(position=px, tokens=tx, phase=Phase.RETURN, marker=mx)
        other = Camper(position=py, tokens=ty, phase=Phase.RETURN, marker=my)
        campers = [me, other] if mover == 0 else [other, me]
        state = position_state(Config(plate_count=30, specials=()), campers, to_move=mover)
        gap = mx - my
        if gap not in solved:
            solved[gap] = return_duel.solve(gap, max_distance=16)[0]
        expected = Announce(int(solved[gap][px - STARTING_PLATE, py - STARTING_PLATE, tx + floor, ty + floor]))
        assert expected in state.legal_actions()
        assert return_duel.duel_return_move(state) == expected


def test_the_table_move_is_legal_on_random_duels():
    rng = np.random.default_rng(5)
    answered = 0
    for _ in range(300):
        px, py = rng.choice(np.arange(2, 40), size=2, replace=False)
        campers = [
            Camper(
                position=int(p),
                tokens=int(rng.integers(0, 26)),
                phase=Phase.RETURN,
                marker=int(p + rng.integers(0, 20)),
            )
            for p in (px, py)
        ]
        state = position_state(Config(plate_count=60, specials=()), campers)
        move = return_duel.duel_return_move(state)
        if move is not None:
            answered += 1
            assert move in state.legal_actions()
    assert answered >= 250


@pytest.mark.parametrize(
    ("field", "at_edge", "past_edge"),
    [
        ("distance", return_duel.MAX_DISTANCE, return_duel.MAX_DISTANCE + 1),
        ("tokens", return_duel.MAX_TOKENS, return_duel.MAX_TOKENS + 1),
        ("gap", return_duel.MAX_GAP, return_duel.MAX_GAP + 1),
        ("gap", -return_duel.MAX_GAP, -return_duel.MAX_GAP - 1),
    ],
)
def test_the_tables_answer_at_their_edges_and_the_rule_one_past(field, at_edge, past_edge):
    """At each limit of the tables the solver's cell is read; one past it the rule plays (None here)."""

    def duel(value: int) -> TourState:
        distance = value if field == "distance" else 10
        tokens = value if field == "tokens" else 5
        mover = Camper(position=distance + STARTING_PLATE, tokens=tokens, phase=Phase.RETURN, marker=60)
        marker = 60 - value if field == "gap" else 60
        other = Camper(position=3, tokens=4, phase=Phase.RETURN, marker=marker)
        return position_state(Config(plate_count=120, specials=()), [mover, other])

    inside = duel(at_edge)
    me, other = inside.campers
    gap = me.marker - other.marker
    block = return_duel._block(gap, me.position - STARTING_PLATE)
    assert return_duel.duel_return_move(inside) == Announce(int(block[other.position - 1 - 1, me.tokens, other.tokens]))
    assert return_duel.duel_return_move(duel(past_edge)) is None
