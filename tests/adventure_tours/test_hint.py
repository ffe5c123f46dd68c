"""The hint: exact values against an independent enumeration, Monte Carlo against exact, hidden information
never read, every play legal."""

import itertools
from dataclasses import replace
from fractions import Fraction

import pytest
from campsolver.solver.adventure_tours import hint as hints
from campsolver.solver.adventure_tours import puzzle
from campsolver.solver.adventure_tours.deck import Act
from campsolver.solver.adventure_tours.information import observe, unseen_pool
from campsolver.solver.adventure_tours.policies import greedy_action
from campsolver.solver.adventure_tours.rules import Play, State
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.game import CHANCE
from campsolver.solver.core.proof import Proof

from tests.adventure_tours.helpers import B, R, Y, card, table

TINY = [
    card(R, 1, money=2, value=2, action=Act.GIVE_ONE),
    card(R, 4, money=4, value=1),
    card(B, 2, money=2, value=2, action=Act.DISCARD_MEMBER),
    card(B, 1, money=1, value=3),
    card(Y, 3, money=3, value=2, action=Act.EXTRA_TURN),
    card(Y, 5, money=5, value=1),
    card(R, 2, money=1, value=2),
    card(B, 4, money=3, value=1, action=Act.STEAL_EQUIPMENT),
    card(Y, 1, money=1, value=3),
]


def tiny_position() -> State:
    """Player 0 holds 0,1,2; players 1 and 2 hold one card each; three cards in the pile."""
    return table(TINY, [[0, 1, 2], [3], [4]], members=[[], [8], []], pile=[5, 6, 7])


def oracle_value(state: State, play: tuple, objective: hints.Objective, policy=greedy_action) -> Fraction:
    """Written from the rulebook directly: every ordering of the unseen cards is equally likely; deal the
    other hands from it, the rest is the pile; play `play`, then everybody follows `policy`; average the
    objective."""
    mover = state.current_player()
    pool = sorted(c for q in range(state.config.players) if q != mover for c in state.hands[q]) + sorted(state.deck)
    sizes = [len(h) for h in state.hands]
    total = Fraction(0)
    count = 0
    for order in itertools.permutations(pool):
        hands, at = [], 0
        for q in range(state.config.players):
            if q == mover:
                hands.append(state.hands[q])
            else:
                hands.append(tuple(sorted(order[at : at + sizes[q]])))
                at += sizes[q]
        world = replace(state, hands=tuple(hands), deck=tuple(order[at:]), deck_ordered=True)
        for action in play:
            world = world.child(action)
        while not world.over:
            world = world.child(world.deck[0] if world.current_player() == CHANCE else policy(world))
        scores = world.last_round
        best_other = max(s for q, s in enumerate(scores) if q != mover)
        if objective is hints.Objective.MARGIN:
            total += scores[mover] - best_other
        elif objective is hints.Objective.EXPECTED_SCORE:
            total += scores[mover]
        else:
            total += 1 if scores[mover] >= best_other else 0
        count += 1
    return total / count


def cheapest_member(state: State) -> object:
    """A rule of thumb unlike greedy and patient: the regular play lays the lowest-numbered card that can join,
    else sponsors with the lowest card; the rest greedy."""
    if state.pending[0].kind == "play":
        player = state.pending[0].player
        members = [c for c in state.hands[player] if state.can_join(player, c)]
        return Play(min(members), True) if members else Play(min(state.hands[player]), False)
    return greedy_action(state)


def model_oracle(state: State, play: tuple, objective: hints.Objective, model: hints.RolloutModel) -> Fraction:
    """The oracle under a rollout model: the mover follows `own`, each other seat each rule of `others` with its
    prior, independently; every seating's oracle value weighted by its probability (written out here, not taken
    from `RolloutModel.assignments`)."""
    mover = state.current_player()
    seats = [
        [(model.own, Fraction(1))]
        if q == mover
        else [(r, Fraction(w).limit_denominator(1000)) for r, w in model.others]
        for q in range(state.config.players)
    ]
    total = Fraction(0)
    for combo in itertools.product(*seats):
        weight = Fraction(1)
        for _, w in combo:
            weight *= w
        rules = [r for r, _ in combo]
        total += weight * oracle_value(state, play, objective, lambda s, rules=rules: rules[s.current_player()](s))
    return total


MIXED = hints.RolloutModel(greedy_action, ((cheapest_member, 0.25), (greedy_action, 0.75)))


@pytest.mark.parametrize("policy", [hints.ROLLOUT_POLICY, hints.PATIENT_MIX, cheapest_member, MIXED])
@pytest.mark.parametrize("objective", list(hints.Objective))
def test_exact_hint_matches_an_independent_enumeration(objective: hints.Objective, policy) -> None:
    """The value is the stated expectation under the rollout model given: the default `ROLLOUT_POLICY` (greedy),
    `PATIENT_MIX` (patient mover, opponents patient or greedy), another plain rule, and a mixture whose rules differ
    in this position (so that the seatings and their weights are really the ones played out)."""
    state = tiny_position()
    result = hints.hint(observe(state, 0), Budget(30), options=hints.HintOptions(objective=objective, policy=policy))
    assert result.proof is Proof.EXACT
    assert len(result.plays) >= 4
    model = hints.as_model(policy)
    for ranked in result.plays:
        expected = float(model_oracle(state, ranked.play, objective, model))
        assert ranked.value == pytest.approx(expected, abs=1e-9)
    if policy is MIXED:  # the mixture is not either of its rules
        for rule in (greedy_action, cheapest_member):
            other = hints.hint(
                observe(state, 0), Budget(30), options=hints.HintOptions(objective=objective, policy=rule)
            )
            assert {r.play: r.value for r in other.plays} != {r.play: r.value for r in result.plays}
    values = [r.value for r in result.plays]
    assert values == sorted(values, reverse=True)


def test_rollout_model_seatings_and_draws_follow_the_priors() -> None:
    """Seatings enumerate every rule per opponent with the product of the priors; draws hit them as often (a
    chi-square over 4,000 draws)."""
    import numpy as np

    seatings = MIXED.assignments(1, 3)
    assert len(seatings) == 4 and sum(w for w, _ in seatings) == pytest.approx(1.0)
    assert all(rules[1] is greedy_action for _, rules in seatings)  # the mover (seat 1) follows `own`
    rng = np.random.default_rng(3)
    counts: dict[tuple, int] = {}
    for _ in range(4000):
        drawn = MIXED.draw(1, 3, rng)
        assert drawn[1] is greedy_action
        key = (drawn[0] is cheapest_member, drawn[2] is cheapest_member)
        counts[key] = counts.get(key, 0) + 1
    chi2 = 0.0
    for weight, rules in seatings:
        key = (rules[0] is cheapest_member, rules[2] is cheapest_member)
        chi2 += (counts.get(key, 0) - 4000 * weight) ** 2 / (4000 * weight)
    assert chi2 < 16.3  # 3 degrees of freedom, p = 0.001
    with pytest.raises(ValueError):
        hints.RolloutModel(greedy_action, ((greedy_action, 0.5),))


def test_monte_carlo_estimate_is_within_three_standard_errors_of_the_exact_value() -> None:
    state = tiny_position()
    obs = observe(state, 0)
    exact = hints.hint(obs, Budget(30))
    best = exact.plays[0]
    ranked, _, interrupted = hints.sampled_values(
        obs, [best.play], hints.Objective.MARGIN, Budget(30), seed=11, max_samples=600
    )
    (estimate,) = ranked
    assert not interrupted and estimate.samples >= 600
    assert estimate.standard_error > 0
    assert abs(estimate.value - best.value) <= 3 * estimate.standard_error


def late_round(seed: int) -> State:
    state = puzzle.candidate(seed, 0)
    assert state is not None
    return state


def shuffled_hidden(state: State, seed: int) -> State:
    """Same public table, other hands and pile order redrawn from the unseen cards."""
    import numpy as np

    rng = np.random.default_rng(seed)
    mover = state.current_player()
    pool = [c for q in range(state.config.players) if q != mover for c in state.hands[q]] + list(state.deck)
    pool = [pool[i] for i in rng.permutation(len(pool))]
    hands, at = [], 0
    for q in range(state.config.players):
        if q == mover:
            hands.append(state.hands[q])
        else:
            hands.append(tuple(sorted(pool[at : at + len(state.hands[q])])))
            at += len(state.hands[q])
    return replace(state, hands=tuple(hands), deck=tuple(pool[at:]))


@pytest.mark.parametrize("exact", [True, False])
def test_hint_never_reads_other_hands_or_the_pile_order(exact: bool) -> None:
    state = tiny_position() if exact else late_round(3)
    other = shuffled_hidden(state, 99)
    assert other.hands != state.hands or other.deck != state.deck
    assert observe(other, other.current_player()) == observe(state, state.current_player())
    # A sample cap (not the clock) ends the sampled runs, so both do the same work.
    first = hints.hint(
        observe(state, state.current_player()),
        Budget(60),
        options=hints.HintOptions(seed=4, allow_exact=exact, max_samples=64),
    )
    second = hints.hint(
        observe(other, other.current_player()),
        Budget(60),
        options=hints.HintOptions(seed=4, allow_exact=exact, max_samples=64),
    )
    assert first.proof is (Proof.EXACT if exact else Proof.HEURISTIC)
    assert [(r.play, r.value, r.standard_error) for r in first.plays] == [
        (r.play, r.value, r.standard_error) for r in second.plays
    ]


def test_every_hinted_play_is_legal_on_the_true_state() -> None:
    for seed in (1, 2, 5):
        state = late_round(seed)
        result = hints.hint(observe(state, state.current_player()), Budget(0.5), options=hints.HintOptions(seed=seed))
        assert result.plays
        for ranked in result.plays:
            hints.apply_play(state, ranked.play)  # raises IllegalAction if not legal


def test_sampled_hint_says_heuristic_with_standard_errors() -> None:
    from campsolver.solver.adventure_tours.rules import Config, new_game
    from campsolver.solver.core.game import sample_outcome
    from campsolver.solver.core.seeding import rng_for

    state = new_game(Config(3))
    rng = rng_for(0, "deal")
    while state.current_player() == CHANCE:
        state = state.child(sample_outcome(state, rng))
    obs = observe(state, state.current_player())
    assert len(unseen_pool(obs)) > hints.EXACT_POOL_LIMIT
    result = hints.hint(obs, Budget(0.5))
    assert result.proof is Proof.HEURISTIC and result.method == "monte-carlo"
    assert all(r.standard_error > 0 for r in result.plays if r.samples >= 2)


def test_standard_errors_cover_the_exact_value_about_95_percent_of_the_time() -> None:
    """Coverage of the sampled standard error against the exact value over many independent short runs."""
    state = tiny_position()
    obs = observe(state, 0)
    exact = hints.hint(obs, Budget(30)).plays[0]
    covered = 0
    runs = 60
    for seed in range(runs):
        (estimate,), _, _ = hints.sampled_values(
            obs, [exact.play], hints.Objective.MARGIN, Budget(30), seed=1000 + seed, max_samples=48
        )
        covered += abs(estimate.value - exact.value) <= 1.96 * estimate.standard_error
    assert covered >= 0.85 * runs  # nominal 95%; binomial noise and small-sample t effects allowed


def test_a_budget_too_short_to_list_the_plays_still_answers_a_legal_play() -> None:
    state = late_round(2)
    result = hints.hint(observe(state, state.current_player()), Budget(1e-6))
    assert result.interrupted and len(result.plays) >= 1
    hints.apply_play(state, result.plays[0].play)


@pytest.mark.timing
@pytest.mark.parametrize("model", ["default", "patient mix"])
@pytest.mark.parametrize("where", ["round start", "exact pool"])
def test_the_rollout_model_keeps_the_cpu_budget(where: str, model: str) -> None:
    """The default rollout policy and `PATIENT_MIX` (seatings drawn per world; exact values summed over seatings)
    stop within their CPU budget: the overrun past a 0.05 CPU-s budget is one rollout's worth, not a seating's or a
    play's."""
    policy = hints.ROLLOUT_POLICY if model == "default" else hints.PATIENT_MIX
    import time

    from campsolver.solver.adventure_tours.rules import Config, new_game
    from campsolver.solver.core.budget import CpuBudget
    from campsolver.solver.core.game import sample_outcome
    from campsolver.solver.core.seeding import rng_for

    if where == "round start":
        state = new_game(Config(3))
        rng = rng_for(1, "deal")
        while state.current_player() == CHANCE:
            state = state.child(sample_outcome(state, rng))
    else:
        state = tiny_position()
    for seed in range(5):
        started = time.process_time()
        result = hints.hint(
            observe(state, state.current_player()), CpuBudget(0.05), options=hints.HintOptions(seed=seed, policy=policy)
        )
        spent = time.process_time() - started
        assert spent <= 0.05 + 0.03, f"{where}: {spent:.3f} CPU-s"
        assert result.plays
