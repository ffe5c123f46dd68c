"""Hint search: legal moves, consistent ranking, solo equals the exact solo solver, budgets."""

import pytest
from campsolver.solver.camper_tour.hint import HintOptions, Objective, hint, leaf_values
from campsolver.solver.camper_tour.players import race
from campsolver.solver.camper_tour.rules import TWO_DICE, Camper, Config, Phase, PlateKind, position_state
from campsolver.solver.camper_tour.search import search
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.cpsat import Proof
from campsolver.solver.core.expectimax import expectimax

from tests.timing import Timed

K = PlateKind
ROUTE = Config(plate_count=40, starting_tokens=25)


def two_campers():
    return position_state(
        ROUTE,
        [
            Camper(position=9, tokens=5, phase=Phase.RETURN, marker=20),
            Camper(position=6, tokens=4, phase=Phase.RETURN, marker=19),
        ],
    )


def test_every_hint_move_is_legal_and_ranked():
    state = two_campers()
    result = hint(state, Budget(5), options=HintOptions(max_depth=2, objective=Objective.EXPECTED_SCORE))
    assert result.depth == 2 and result.proof == Proof.HEURISTIC
    assert [m.action for m in result.moves if m.action not in state.legal_actions()] == []
    assert {m.action for m in result.moves} == set(state.legal_actions())
    values = [m.value for m in result.moves]
    assert values == sorted(values, reverse=True)
    assert all(m.loss == pytest.approx(values[0] - m.value) for m in result.moves)
    assert result.moves[0].loss == 0


def test_hint_is_the_depth_limited_expectimax_of_the_rules_model():
    state = two_campers()
    result = hint(state, Budget(5), options=HintOptions(max_depth=1, objective=Objective.EXPECTED_SCORE))
    from campsolver.solver.camper_tour.hint import _SearchNode

    direct = expectimax(_SearchNode(state), max_depth=1, leaf_value=lambda n: leaf_values(n.state))
    expected = {alt.action: alt.values[0] for alt in direct.alternatives}
    assert {m.action: m.value for m in result.moves} == pytest.approx(expected)


def test_solo_hint_equals_the_brute_force_of_the_rules_model():
    """Issue 13: the solo hint calls the solo DP, so it is checked against the generic expectimax over the bare
    rules model (which shares nothing with the DP), not against the DP itself."""
    laid = (K.NORMAL, K.NO_PARKING, K.NORMAL, K.VILLAGE_FESTIVAL) + (K.NORMAL,) * 3
    config = Config(
        plate_count=10, starting_tokens=4, token_supply=7, specials=((K.NO_PARKING, 1), (K.VILLAGE_FESTIVAL, 1))
    )
    state = position_state(config, [Camper(position=7, tokens=3)], laid=laid)
    result = hint(state, Budget(10))
    brute = expectimax(state, budget=Budget(120))
    assert result.proof == Proof.EXACT and brute.exact
    expected = {alt.action: alt.values[0] for alt in brute.alternatives}
    assert {m.action: m.value for m in result.moves} == pytest.approx(expected, abs=1e-9)


def test_hint_is_deterministic_and_opening_hint_works_with_unrevealed_specials():
    state = position_state(Config(), [Camper(), Camper(), Camper()])
    first = hint(state, Budget(10), options=HintOptions(max_depth=1, objective=Objective.EXPECTED_SCORE))
    second = hint(state, Budget(10), options=HintOptions(max_depth=1, objective=Objective.EXPECTED_SCORE))
    assert first.moves == second.moves and first.depth == 1
    assert all(m.action in state.legal_actions() for m in first.moves)


def test_last_camper_rule_is_searched():
    # Alone after the other finished: a failed roll eliminates (score 0) instead of being free.
    finished = Camper(phase=Phase.FINISHED, marker=5, tokens=0, arrival=1)
    state = position_state(ROUTE, [Camper(position=4, tokens=6, phase=Phase.RETURN, marker=12), finished])
    result = hint(state, Budget(10), options=HintOptions(max_depth=6, objective=Objective.EXPECTED_SCORE))
    assert result.proof == Proof.EXACT  # every line ends within six plies
    values = {m.action.plates: m.value for m in result.moves}
    # Announcing 3 goes home at once: the roll r > 3 leaves 6 - (r - 3) tokens; r <= 3 eliminates.
    assert values[3] == pytest.approx(float(sum(p * (12 - abs(9 - r)) for r, p in TWO_DICE if r > 3)))


def test_cancelled_budget_interrupts_before_any_depth():
    budget = Budget(5)
    budget.cancel()
    with pytest.raises(SolveInterrupted):
        hint(two_campers(), budget, options=HintOptions(objective=Objective.EXPECTED_SCORE))


def test_exact_only_without_plate_approximation_even_when_every_line_ends():
    """Issue 13's surviving mutation (`exact = not stats.used_leaf` in hint.py) must fail here: every line
    ends within two plies (the last camper has one token: any outward success or failure eliminates it,
    turning back then announcing 1 always arrives), yet specials are still in the stack and an outward
    camper could lay plates, so the search's plate approximation is in play: HEURISTIC. The same position
    on a fixed layout is EXACT (so a rule that never claims EXACT fails too)."""
    finished = Camper(phase=Phase.FINISHED, marker=3, tokens=0, arrival=1)
    last = Camper(position=2, tokens=1)
    stack = Config(plate_count=20, starting_tokens=10)
    result = hint(
        position_state(stack, [finished, last], to_move=1),
        Budget(30),
        options=HintOptions(max_depth=4, objective=Objective.EXPECTED_SCORE),
    )
    _, stats = search(position_state(stack, [finished, last], to_move=1), 4, Budget(30))
    assert not stats.used_leaf and not result.interrupted
    assert result.proof == Proof.HEURISTIC
    layout = Config(plate_count=20, starting_tokens=10, layout=(PlateKind.NORMAL,) * 20)
    exact = hint(
        position_state(layout, [finished, last], to_move=1),
        Budget(30),
        options=HintOptions(max_depth=4, objective=Objective.EXPECTED_SCORE),
    )
    assert exact.proof == Proof.EXACT


# --- win probability (issue 7 §4) --------------------------------------------------------------------------


def test_multi_camper_hint_defaults_to_win_probability_and_solo_to_expected_score():
    from campsolver.solver.camper_tour.hint import default_objective

    state = two_campers()
    assert default_objective(state) == Objective.WIN_PROBABILITY
    result = hint(state, Budget(30), options=HintOptions(max_playouts=8))
    assert result.method.startswith("win-probability-playouts") and result.depth == 0
    solo = position_state(ROUTE, [Camper(position=9, tokens=5, phase=Phase.RETURN, marker=20)])
    assert default_objective(solo) == Objective.EXPECTED_SCORE
    assert hint(solo, Budget(30)).method.startswith("solo")


def test_win_hint_lists_every_legal_move_once_with_honest_estimates():
    from campsolver.solver.camper_tour.hint import MIN_DROP_ROUNDS, win_candidates, win_standard_error

    state = position_state(Config(), [Camper(position=12, tokens=15), Camper(position=9, tokens=20)], to_move=0)
    result = hint(state, Budget(60), options=HintOptions(max_playouts=12, seed=3))
    legal = state.legal_actions()
    assert sorted(map(str, (m.action for m in result.moves))) == sorted(map(str, legal))
    played = [m for m in result.moves if m.samples]
    assert {m.action for m in played} == set(win_candidates(state))
    assert win_candidates(state)[0] == race(state)
    for move in played:
        assert MIN_DROP_ROUNDS <= move.samples <= 12 and 0.0 <= move.value <= 1.0
        # the value is a win rate over that move's own playouts, with its standard error (`win_standard_error`);
        # a move above the answer without being clearly better shows no value (its mean is in `values`)
        mean = move.value if move.evaluated else move.values[0]
        assert mean * move.samples == pytest.approx(round(mean * move.samples))
        if move.evaluated:
            assert move.standard_error == pytest.approx(win_standard_error(mean * move.samples, move.samples))
            assert move.value <= result.best.value
    assert all(m.value == 0.0 for m in result.moves if not m.samples)
    assert result.samples == result.best.samples and result.proof == Proof.HEURISTIC


def test_win_hint_with_a_playout_cap_is_reproducible():
    state = position_state(
        Config(),
        [Camper(position=12, tokens=15), Camper(position=9, tokens=20), Camper(position=5, tokens=22)],
        to_move=1,
    )
    first = hint(state, Budget(60), options=HintOptions(max_playouts=6, seed=11))
    second = hint(state, Budget(60), options=HintOptions(max_playouts=6, seed=11))
    assert first.moves == second.moves and not first.interrupted


def test_win_hint_models_a_slow_field_as_solo_campers(monkeypatch):
    """Where every other camper lags at most half the mover's plate, the playouts' opponents are the solo
    policy's campers only; elsewhere the whole mixture, each model in turn."""
    from campsolver.solver.camper_tour import hint as hints
    from campsolver.solver.camper_tour.players import slow_field, solo_optimal

    calls: list[str] = []

    def recording(name, player):
        def play(state):
            if state.to_move != 0:  # an opponent's move in a playout (the mover's candidates are proposed too)
                calls.append(name)
            return player(state)

        return play

    monkeypatch.setattr(hints, "SLOW_FIELD_MODELS", (recording("solo", solo_optimal),))
    monkeypatch.setattr(
        hints, "OPPONENT_MODELS", tuple(recording(f"model{i}", m) for i, m in enumerate(hints.OPPONENT_MODELS))
    )
    slow = position_state(
        ROUTE, [Camper(position=14, tokens=20), Camper(position=6, tokens=24), Camper(position=3, tokens=25)]
    )
    assert slow_field(slow)
    hint(slow, Budget(60), options=HintOptions(max_playouts=4, seed=3))
    assert calls and set(calls) == {"solo"}
    calls.clear()
    mixed = position_state(
        ROUTE, [Camper(position=14, tokens=20), Camper(position=9, tokens=20), Camper(position=3, tokens=25)]
    )
    assert not slow_field(mixed)
    hint(mixed, Budget(60), options=HintOptions(max_playouts=4, seed=3))
    assert set(calls) == {f"model{i}" for i in range(len(hints.OPPONENT_MODELS))}


def test_the_win_values_say_which_opponents_they_are_measured_against():
    from campsolver.solver.camper_tour.hint import opponents_played

    slow = position_state(
        ROUTE, [Camper(position=14, tokens=20), Camper(position=6, tokens=24), Camper(position=3, tokens=25)]
    )
    assert opponents_played(slow).startswith("the opponents the solo optimum (the field is slow")
    mixed = position_state(
        ROUTE, [Camper(position=14, tokens=20), Camper(position=9, tokens=20), Camper(position=3, tokens=25)]
    )
    assert opponents_played(mixed) == "the opponents, in turn, race, announce-7, greedy and the solo optimum"


@pytest.mark.timing
def test_win_hint_answers_within_its_time_limit():
    state = position_state(Config(), [Camper(position=12, tokens=15), Camper(position=9, tokens=20)])
    with Timed() as timed:
        result = hint(state, Budget(0.2))
    assert timed.within(0.2, 0.25), timed.explain(0.2, 0.25)  # overrun in CPU terms: holds on a loaded machine
    assert result.best.action in state.legal_actions()
    tiny = hint(state, Budget(1e-6))  # no playout fits: the race rule's move, labelled, not an error
    assert tiny.samples == 0 and tiny.interrupted and tiny.best.action == race(state)


def test_win_hint_cancelled_before_any_playout_raises():
    budget = Budget(5)
    budget.cancel()
    with pytest.raises(SolveInterrupted):
        hint(two_campers(), budget)


@pytest.mark.slow
def test_win_hint_beats_announce_seven_head_to_head():
    """40 seeded two-camper games, seats rotated, hint with at most 2 playouts a candidate: it must win with the
    lower end of the 95% Wilson interval above the fair share (the race rule it builds on wins ~95% here)."""
    from bench.camper_tour import play_games, wilson

    played = play_games(2, "none", "announce-7", range(40), 0.2, max_playouts=2, seed=5)
    assert played["games"] == 40
    assert wilson(int(played["wins"]), 40)[0] > 0.5


def test_the_bench_positions_are_states_the_rules_model_accepts() -> None:
    """The latency bench's seeded positions (`python -m bench --only camper-tour`) are built through the rules
    model's validation: when a rule reading changes (tokens never negative since the shortfall reading), the
    bench must not be left building positions the model refuses."""
    from campsolver.solver.camper_tour.rules import Phase, validate

    from bench.camper_tour import endgame_states, sample_hint_states

    endgames = endgame_states(2024, 20)
    assert len(endgames) == 20
    for state in endgames + sample_hint_states(2024, 5):
        validate(state)
        assert state.current_player() >= 0 and sum(c.active for c in state.campers) >= 2
    assert all(c.phase == Phase.RETURN and c.tokens >= 0 for state in endgames for c in state.campers)


@pytest.mark.timing
def test_win_hint_as_the_last_camper_answers_within_its_time_limit():
    """The last camper's exact table is built on first use (not budget-aware, so it must be small): a long
    return from a cold cache still answers within the hint's time limit, and the answer is legal."""
    from campsolver.solver.camper_tour.players import last_camper_win_probability

    last_camper_win_probability.cache_clear()
    home = Camper(phase=Phase.FINISHED, marker=45, tokens=0, arrival=1)
    last = Camper(position=50, tokens=15, phase=Phase.RETURN, marker=55)
    state = position_state(Config(), [last, home, Camper(phase=Phase.ELIMINATED)])
    with Timed() as timed:
        result = hint(state, Budget(0.2))
    assert timed.within(0.2, 0.25), timed.explain(0.2, 0.25)  # the same margin as the other time-limit test
    assert result.best.action in state.legal_actions()


class _Bits:
    """A generator stand-in whose `getrandbits` returns the given values in turn."""

    def __init__(self, values: list[int]) -> None:
        self.values = list(values)

    def getrandbits(self, k: int) -> int:
        assert k == 6
        return self.values.pop(0)


def test_the_playouts_throw_the_dice_with_the_rules_odds():
    """`draw` maps each of the 36 values below 36 of its 6 random bits to one throw, so each total comes as often as
    the rules model's odds say (exactly), and a value of 36-63 is drawn again (rejection)."""
    from fractions import Fraction

    from campsolver.solver.camper_tour.hint import draw
    from campsolver.solver.camper_tour.rules import Announce, new_game

    state = new_game(Config(), 2).child(Announce(5))  # the ROLL stage
    counts: dict[int, int] = {}
    for bits in range(36):
        total = draw(state, _Bits([bits]))
        counts[total] = counts.get(total, 0) + 1
    assert {total: Fraction(n, 36) for total, n in counts.items()} == dict(TWO_DICE)
    rejected = _Bits([36, 63, 0])
    assert draw(state, rejected) == 2 and not rejected.values
