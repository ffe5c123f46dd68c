"""Hints (legal, ranked, within the budget, finding the obvious closing barrier) and fence puzzles (re-scored,
unique by re-solving, the answer kept apart from the statement)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest
from campsolver.solver.core.budget import Budget, CpuBudget
from campsolver.solver.core.proof import Proof
from campsolver.solver.deluxe_camping import hint as hints
from campsolver.solver.deluxe_camping import leaf_model, rules
from campsolver.solver.deluxe_camping import maximise as maxima
from campsolver.solver.deluxe_camping import puzzle as puzzles
from campsolver.solver.deluxe_camping.rules import Barrier, Config, DCState, Stage, parse_board

from tests.timing import Timed

CLOSE_ME = """
+-----------+
|A . . . . .|
+ + + + + + +
|. . . . . .|
+-+-+-+-+-+ +
|. . . . . B|
+-----------+
"""


def assert_ranked(result: hints.HintResult) -> None:
    """Groups of comparable values in order (searched, screened, unevaluated; with securable leaves by value
    kind), each best first; every searched choice at the depth of the deepest complete iteration."""
    groups = [hints.comparison_group(m, result.leaf) for m in result.choices]
    assert groups == sorted(groups)
    for group in set(groups) - {3}:
        values = [m.value for m, g in zip(result.choices, groups, strict=True) if g == group]
        assert None not in values and values == sorted(values, reverse=True)
    assert all(m.value is None for m in result.choices if m.depth == 0)
    assert {m.depth for m in result.choices if m.depth > 1} <= {1 + result.reply_plies}


@pytest.mark.parametrize("leaf", list(hints.Leaf))
def test_hint_finds_the_barrier_that_closes_the_movers_site(leaf: hints.Leaf) -> None:
    state = parse_board(CLOSE_ME, stage=Stage.BARRIER)
    result = hints.hint(state, Budget(5), options=hints.HintOptions(leaf=leaf))
    assert result.choices[0].choice == Barrier((11, 17))
    assert result.choices[0].exact  # closing it ends the game: the value is the final margin
    assert {m.choice for m in result.choices} == set(state.legal_actions())
    assert_ranked(result)


def replay_best_turns(state: DCState, action: rules.Action, me: int, plies: int) -> DCState:
    """The searched line rebuilt from the rules model alone: the mover's action (after a movement, the best of
    every legal barrier), then `plies` opponent turns, every turn in between staying put and placing the
    barrier best for that player by the estimate (opponents: their margin; ties to the first legal edge)."""

    def best_barrier(position: DCState, player: int) -> DCState:
        edges = position.legal_barriers()
        values = [hints.evaluate(position.child(Barrier(e)), player, hints.HintObjective.MARGIN) for e in edges]
        return position.child(Barrier(edges[values.index(max(values))]))

    state = state.child(action)
    if state.stage is Stage.BARRIER and state.to_move == me:
        state = best_barrier(state, me)
    for _ in range(plies):
        while state.stage is not Stage.OVER:
            player = state.to_move
            state = state.child(rules.Move(()))
            if state.stage is Stage.BARRIER and state.to_move == player:
                state = best_barrier(state, player)
            if player != me:
                break
    return state


def barrier_position(seed: int, turns: int) -> DCState:
    rng = np.random.default_rng(seed)
    state = rules.random_setup(Config(players=2), rng)
    for _ in range(turns):  # a few random turns into the game, at a free-barrier decision
        actions = state.legal_actions()
        state = state.child(actions[int(rng.integers(len(actions)))])
    while state.stage is not Stage.BARRIER:
        state = state.child(rules.Move(()))
    return state


@pytest.mark.parametrize("plies", [1, 2])
def test_searched_values_are_the_estimate_after_the_best_replies(plies: int) -> None:
    state = barrier_position(5, 12)
    result = hints.hint(state, Budget(30), options=hints.HintOptions(leaf=hints.Leaf.ESTIMATE, max_replies=plies))
    deep = [m for m in result.choices if m.depth == 1 + plies]
    assert len(deep) == min(hints.DEEPEN, len(result.choices)) and not result.interrupted
    assert result.reply_plies == plies
    for move in deep:
        leaf = replay_best_turns(state, move.choice, state.to_move, plies)
        assert replay(state, move.line) == leaf
        assert move.value == pytest.approx(hints.evaluate(leaf, state.to_move, hints.HintObjective.MARGIN))


@pytest.mark.timing
def test_deepening_goes_as_deep_as_the_budget_allows_by_default() -> None:
    """No depth cap by default: a larger budget reaches deeper iterations (until the lines end the game), and
    the search stops before the deadline rather than start an iteration it cannot finish. The depths are
    compared under CPU budgets (what an idle core allows), so a loaded machine cannot make them equal; the
    deadline is checked on the wall clock."""
    state = barrier_position(6, 10)
    assert hints.MAX_REPLY_PLIES is None
    plies = {}
    for seconds in (0.6, 4.0):
        result = hints.hint(state, CpuBudget(seconds), options=hints.HintOptions(leaf=hints.Leaf.SECURABLE))
        assert result.leaf is hints.Leaf.SECURABLE
        assert_ranked(result)
        assert_kinds(result)
        plies[seconds] = result.reply_plies
    assert plies[4.0] > max(plies[0.6], 2)
    with Timed() as timed:
        result = hints.hint(state, Budget(0.6), options=hints.HintOptions(leaf=hints.Leaf.SECURABLE))
    assert result.wall_time_s <= timed.wall and timed.within(0.6, 0.05), timed.explain(0.6, 0.05)
    assert_ranked(result)


def test_max_replies_caps_the_deepening() -> None:
    state = barrier_position(6, 10)
    result = hints.hint(state, Budget(30), options=hints.HintOptions(leaf=hints.Leaf.SECURABLE, max_replies=2))
    assert result.reply_plies == 2 and not result.interrupted
    assert_ranked(result)


def test_an_iteration_that_cannot_finish_is_not_started(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each iteration is made to cost 0.35 s of the budget's clock: with 1 s, the third would end after the
    deadline, so it is never started; the search stops after the second (nothing dropped), and says that the
    budget stopped it (a larger budget would have gone deeper)."""
    state = barrier_position(6, 10)
    real = hints._value_line
    elapsed = [0.0]

    class Clocked(Budget):
        _now = staticmethod(lambda: elapsed[0])

    valued = []

    def value_line(search, line, *rest):
        elapsed[0] += 0.35 / hints.DEEPEN  # an iteration values DEEPEN candidates
        valued.append(line.plies)
        return real(search, line, *rest)

    monkeypatch.setattr(hints, "_value_line", value_line)
    result = hints.hint(state, Clocked(1.0), options=hints.HintOptions(leaf=hints.Leaf.ESTIMATE))
    assert result.reply_plies == 2 and result.interrupted
    assert sorted(set(valued)) == [1, 2] and len(valued) == 2 * hints.DEEPEN


def test_a_cut_short_iteration_keeps_the_previous_complete_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The second iteration runs out of time at its second leaf: the first iteration's values rank."""
    state = barrier_position(7, 10)
    calls = []
    real = hints._value_line

    def value_line(search, line, *rest):
        calls.append(line.plies)
        if line.plies == 2 and calls.count(2) == 2:
            raise hints._OutOfTime
        return real(search, line, *rest)

    monkeypatch.setattr(hints, "_value_line", value_line)
    result = hints.hint(state, Budget(30), options=hints.HintOptions(leaf=hints.Leaf.SECURABLE))
    assert result.interrupted and result.reply_plies == 1
    searched = [m for m in result.choices if m.depth > 1]
    assert len(searched) == hints.DEEPEN and {m.depth for m in searched} == {2}
    assert_ranked(result)


@pytest.mark.timing
@pytest.mark.parametrize("players", [2, 4])
def test_hint_ranks_every_movement_within_its_budget(players: int) -> None:
    state = rules.random_setup(Config(players=players), np.random.default_rng(players))
    with Timed() as timed:
        result = hints.hint(state, Budget(1.0))
    assert timed.within(1.0, 0.25), timed.explain(1.0, 0.25)  # the budget holds (overrun in CPU terms)
    assert [m.choice for m in result.choices if m.value is not None]
    assert {m.choice for m in result.choices} == set(state.legal_actions())
    assert result.proof is Proof.HEURISTIC
    assert result.leaf is hints.Leaf.REPLY is hints.DEFAULT_LEAF
    assert_ranked(result)


def test_hint_own_objective_ignores_the_opponents() -> None:
    state = parse_board(CLOSE_ME, stage=Stage.BARRIER)
    own = hints.hint(state, Budget(5), options=hints.HintOptions(hints.HintObjective.OWN))
    assert own.choices[0].value == 12  # the closed site of 12 squares
    margin = hints.hint(state, Budget(5), options=hints.HintOptions(hints.HintObjective.MARGIN))
    assert margin.choices[0].value == 12 - 6


def test_territory_estimate_is_exact_on_a_finished_board() -> None:
    state = parse_board(CLOSE_ME, stage=Stage.BARRIER).child(Barrier((11, 17)))
    assert hints.territory_scores(state) == state.scores() == (12, 6)


@pytest.fixture(scope="module")
def puzzle() -> puzzles.Puzzle:
    return puzzles.generate(2, Budget(120))


@pytest.mark.slow
def test_puzzle_is_reproducible(puzzle: puzzles.Puzzle) -> None:
    again = puzzles.generate(2, Budget(120))
    assert again.state == puzzle.state and again.solution == puzzle.solution


def test_puzzle_is_rescored(puzzle: puzzles.Puzzle) -> None:
    assert len(puzzle.solution) <= puzzle.barriers
    board = maxima.final_board(puzzle.state, puzzle.solution)
    assert board.scores()[puzzle.player] == puzzle.points
    assert puzzle.proof is Proof.OPTIMAL and puzzle.unique


def test_puzzle_optimum_is_unique_by_re_solving(puzzle: puzzles.Puzzle) -> None:
    other = maxima.maximise(puzzle.state, Budget(60), player=puzzle.player, forbid=[puzzle.solution])
    assert other.proof in (Proof.OPTIMAL, Proof.INFEASIBLE)
    assert other.value is None or other.value < puzzle.points


def test_puzzle_statement_keeps_the_answer_apart(puzzle: puzzles.Puzzle) -> None:
    assert "#" not in puzzle.text and "=" not in puzzle.text  # new barriers are drawn only in the solution
    assert "#" in puzzle.solution_text or "=" in puzzle.solution_text
    assert puzzle.question in puzzle.text
    for picture in (puzzle.svg, puzzle.solution_svg):
        ET.fromstring(picture)
    assert puzzle.svg != puzzle.solution_svg
    board, legend = puzzle.text.split("\n", 2)[2].split("\nLegend: ")
    assert rules.parse_board(board, supply=puzzle.state.config.supply) is not None
    names = {
        "P": "swimming pool",
        "S": "ice-cream",
        "N": "pain-in-the-neck",
        "a": "trailer",
        "b": "trailer",
        "A": "bungalow",
        "B": "bungalow",
        "?": "face-down mystery",
    }
    on_board = {mark for mark in board if mark in names}
    for letter, piece in names.items():  # every letter of the board is explained, and only those
        assert (f"{letter} {piece}" in legend) == (letter in on_board), (letter, legend)
    assert "I" not in board.replace("|", "")  # the stand's letter is S: an I reads as a barrier


def test_puzzle_pictures_draw_the_stand_and_list_only_the_marks_on_the_board(puzzle: puzzles.Puzzle) -> None:
    """The legend of both pictures lists exactly the kinds of piece on the board (no mystery token unless one is
    there); the ice-cream stand is a drawn cone, not a letter; the page says the no-empty-site rule applies."""
    present = {mark for mark in puzzles.symbols(puzzle.state).values()}
    for picture in (puzzle.svg, puzzle.solution_svg):
        root = ET.fromstring(picture)
        svg = "{http://www.w3.org/2000/svg}"
        legend = next(g for g in root.iter(f"{svg}g") if g.get("class") == "legend")
        listed = {t.text for t in legend.iter(f"{svg}text") if t.get("class") == "legend-entry"}
        assert listed == {meaning for _, meaning in puzzles.marks_present(puzzle.state)}
        assert {mark for mark, _ in puzzles.marks_present(puzzle.state)} == present
        board = next(g for g in root.iter(f"{svg}g") if g.get("class") == "board")
        letters = [t.text for t in board.iter(f"{svg}text") if t.get("class") == "piece"]
        stands = len(puzzle.state.ice_creams)
        assert puzzles.ICE not in letters and "I" not in letters
        assert len([g for g in board.iter(f"{svg}g") if g.get("class") == "ice-cream"]) == stands
        assert len([g for g in legend.iter(f"{svg}g") if g.get("class") == "ice-cream"]) == (stands > 0)
        words = " ".join(" ".join(t.text or "" for t in root.iter(f"{svg}text")).split())
        assert "No empty site" in words and " ".join(puzzles.PUZZLE_RULE.split()) in words
    assert "?" not in present or "mystery" in puzzle.text
    assert puzzles.PUZZLE_RULE in puzzle.text


def test_hint_answers_even_when_the_budget_is_spent_before_any_choice_is_valued() -> None:
    state = rules.random_setup(Config(players=2), np.random.default_rng(0))
    result = hints.hint(state, Budget(1e-6))
    assert result.interrupted
    assert {m.choice for m in result.choices} == set(state.legal_actions())
    assert_ranked(result)


# --- securable-score leaves (CP-SAT) ---------------------------------------------------------------------------

SMALL = Config(rows=6, cols=6, players=2, trailers=2, supply=24)


def small_position(seed: int, turns: int) -> DCState:
    """A seeded small board a few random turns into the game (CP-SAT proves its leaves quickly)."""
    rng = np.random.default_rng(seed)
    state = rules.random_setup(SMALL, rng)
    for _ in range(turns):
        if state.stage is Stage.OVER:
            break
        actions = state.legal_actions()
        state = state.child(actions[int(rng.integers(len(actions)))])
    return state


def replay(state: DCState, line: tuple[rules.Action, ...]) -> DCState:
    """The leaf of a searched choice rebuilt by the rules model: every action legal where it is played."""
    for action in line:
        assert action in state.legal_actions()
        state = state.child(action)
    return state


@pytest.mark.parametrize("objective", list(hints.HintObjective))
@pytest.mark.parametrize("seed", [1, 2])
def test_securable_leaf_values_are_maximise_values_at_the_rebuilt_leaf(
    seed: int, objective: hints.HintObjective
) -> None:
    leaf_model.clear_cache()
    state = small_position(seed, 6)
    me = state.to_move
    # A cap long enough to prove each leaf of the small board.
    options = hints.HintOptions(objective, leaf=hints.Leaf.SECURABLE, leaf_cap_s=5.0, max_replies=2)
    result = hints.hint(state, Budget(120), options=options)
    assert {m.choice for m in result.choices} == set(state.legal_actions())
    securable = (hints.ValueKind.SECURABLE_OPTIMAL, hints.ValueKind.SECURABLE_FOUND)
    secured = [m for m in result.choices if m.kind in securable]
    assert secured and result.reply_plies == 2
    assert result.leaves_reused > 0  # the leaves of a candidate share its model
    for move in secured:
        assert move.line[0] == move.choice
        leaf = replay(state, move.line)
        again = maxima.maximise(leaf, Budget(30), player=me, objective=hints._OBJECTIVE_TO_MAX[objective])
        assert again.proof is Proof.OPTIMAL
        if move.kind is hints.ValueKind.SECURABLE_OPTIMAL:
            assert move.value == again.value == move.bound
        else:  # a partition's value: at most the optimum, which is at most CP-SAT's bound
            assert move.value <= again.value <= move.bound
    assert any(m.kind is hints.ValueKind.SECURABLE_OPTIMAL for m in result.choices)


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_a_reused_leaf_model_has_the_leafs_own_optimum(seed: int) -> None:
    """One model built at a position serves positions with more barriers (fixed literals): its proven value
    and board equal a fresh `maximise` at each of them, re-scored by the rules model."""
    leaf_model.clear_cache()
    base = small_position(seed, 4)
    while base.stage is not Stage.BARRIER:
        base = base.child(rules.Move(()))
    me = base.to_move
    for objective in (maxima.Objective.MARGIN, maxima.Objective.OWN):
        reused = 0
        for edge in base.legal_barriers()[:4]:
            position = base.child(Barrier(edge))
            value = leaf_model.securable_value(position, me, objective, Budget(30), base=base)
            fresh = maxima.maximise(position, Budget(30), player=me, objective=objective)
            assert value is not None and value.proven and fresh.proof is Proof.OPTIMAL
            assert value.value == fresh.value == value.bound
            scores = maxima.score_partition(position, value.added).scores
            assert maxima.objective_value(scores, objective, me) == value.value
            reused += value.reused
        assert reused >= 1


def assert_kinds(result: hints.HintResult) -> None:
    """Every evaluated choice has a value of a stated kind; groups in order, each best first."""
    for move in result.choices:
        assert (move.value is None) == (move.kind is hints.ValueKind.NONE)
        if move.kind is hints.ValueKind.SECURABLE_FOUND:
            assert move.bound is not None and move.bound >= move.value
    groups = [hints.comparison_group(m, result.leaf) for m in result.choices]
    assert groups == sorted(groups)
    for group in set(groups) - {3}:  # 3: not evaluated, in every search
        values = [m.value for m, g in zip(result.choices, groups, strict=True) if g == group]
        assert values == sorted(values, reverse=True)


@pytest.mark.timing
@pytest.mark.parametrize("players", [2, 4])
def test_securable_hint_answers_within_its_budget_on_the_default_board(players: int) -> None:
    rng = np.random.default_rng(10 + players)
    state = rules.random_setup(Config(players=players), rng)
    for stage in (Stage.MOVE, Stage.BARRIER):
        while state.stage is not stage:
            state = state.child(rules.Move(()))
        for seconds in (0.15, 0.6):  # too short for every iteration, and long enough for some
            with Timed() as timed:
                result = hints.hint(state, Budget(seconds), options=hints.HintOptions(leaf=hints.Leaf.SECURABLE))
            assert timed.within(seconds, 0.1), timed.explain(seconds, 0.1)  # the overrun goal is 50 ms
            assert {m.choice for m in result.choices} == set(state.legal_actions())
            assert_kinds(result)
            assert_ranked(result)


def test_estimate_hint_values_say_their_kind() -> None:
    state = small_position(3, 4)
    result = hints.hint(state, Budget(5), options=hints.HintOptions(leaf=hints.Leaf.ESTIMATE))
    assert result.leaf is hints.Leaf.ESTIMATE
    assert_kinds(result)
    kinds = {m.kind for m in result.choices}
    assert kinds & {hints.ValueKind.SEARCHED, hints.ValueKind.EXACT, hints.ValueKind.LINE_FINAL}


def test_lines_searched_to_the_end_are_final_scores_not_proofs() -> None:
    """With budget to spare the deepening plays the searched lines to the game's end: such a value is the
    rules model's final score of the replayed line, labelled as the line's (it relies on the modelled
    replies), never exact and never a proof; exact only where the mover's own actions end the game."""
    state = barrier_position(6, 30)
    # CPU seconds: the same search under any load. About 4 CPU-s reach the end on an idle core; under heavy
    # load the same work takes more CPU (one CI run at load 5 fell short), and the search stops by itself once
    # every line has ended, so a larger budget costs nothing where it is not needed.
    result = hints.hint(state, CpuBudget(12.0), options=hints.HintOptions(leaf=hints.Leaf.SECURABLE))
    ended = [m for m in result.choices if m.kind is hints.ValueKind.LINE_FINAL]
    assert ended, "12 CPU-s play the searched lines of this position to the end"
    for move in ended:
        leaf = replay(state, move.line)
        assert leaf.stage is Stage.OVER and not move.exact and move.replies >= 1
        assert move.value == hints.utility([float(x) for x in leaf.scores()], state.to_move, hints.HintObjective.MARGIN)
    for move in result.choices:
        if move.kind is hints.ValueKind.EXACT:
            leaf = replay(state, move.line)
            assert leaf.stage is Stage.OVER
            assert all(isinstance(a, rules.Barrier) for a in move.line[1:])  # the mover's own barrier only
    assert result.proof is Proof.HEURISTIC
    assert_kinds(result)
    assert_ranked(result)
