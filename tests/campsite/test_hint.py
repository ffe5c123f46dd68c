"""Campsite hints: legal, consistent with the rules model, exact when nothing is left to come, margin-aware.

`hints.hint` is the hint (one ply over every play, then a look-ahead: tests/campsite/test_hint_search.py has the
rest); `hints.hint_one_ply` is the one-ply ranking it used before (kept for the bench's comparisons and as the
round solver's rollout ranking `rank_plays`)."""

from __future__ import annotations

import time

import pytest
from campsolver.solver.campsite import hint as hints
from campsolver.solver.campsite import rules as R
from campsolver.solver.campsite.evaluate import TurnEvaluator, best_turn_search
from campsolver.solver.campsite.rules import Placement, Tent, Token, parse_card
from campsolver.solver.core.budget import Budget

from tests.campsite.test_best_turn import random_table


@pytest.mark.parametrize("seed", range(3))
def test_hint_without_a_future_is_the_exact_best_turn(seed: int) -> None:
    table, hand = random_table(seed, cards=6, tents=4)
    tokens = [Token.WATER, Token.WILDERNESS, Token.FOREST]
    state = hints.seat_state(table, hand, tokens, 0, 2, R.default_deck())
    options = hints.HintOptions(top=5, cards_to_come=0, margin=False)
    result = hints.hint(state, Budget(30), options=options)
    exact = best_turn_search(table, hand, tokens, 0, 2, Budget(30))
    assert result.choices[0].immediate_gain == exact.plays[0].gain
    assert result.choices[0].value == exact.plays[0].score  # own score, no future: the round's final score
    assert result.worlds == 0 and result.choices[0].kind == "ONE_PLY"
    old = hints.hint_one_ply(state, Budget(30), options=options)
    assert old.choices[0].value == exact.plays[0].gain  # the old ranking: value = immediate own gain


@pytest.mark.parametrize("seed", range(3))
def test_every_hinted_play_is_legal_and_its_gains_are_the_rules_model(seed: int) -> None:
    table, hand = random_table(10 + seed, cards=7, tents=5)
    tokens = [t for t in Token if t not in {x.token for x in table.tents if x.player == 0}]
    state = hints.seat_state(table, hand, tokens, 0, 2, R.default_deck())
    result = hints.hint(state, Budget(30), options=hints.HintOptions(top=30, cards_to_come=6, max_worlds=2))
    before = R.player_scores(table, 2)
    for kind in ("LOOK_AHEAD", "ONE_PLY"):
        values = [p.value for p in result.choices if p.kind == kind]
        assert values == sorted(values, reverse=True) and values
    assert len(result.choices) == 30 and result.plays_ranked >= 30
    for play in result.choices:
        after = R.player_scores(table.place(play.placement).pitch(play.tent), 2)
        assert play.immediate_gain == after[0] - before[0]
        assert play.opponent_gain == after[1] - before[1]
        assert play.future_estimate >= -16


def test_margin_objective_avoids_feeding_an_opponent() -> None:
    # The opponent's Desert tent at (1,4) waits for Desert below it; our tent wants Desert too, far away.
    table = R.starting_table(parse_card("MW #../..."), parse_card("MW ..#/..."))
    table = table.pitch(Tent(1, Token.DESERT, 1, 4)).pitch(Tent(0, Token.DESERT, 1, 1))
    hand = [parse_card("DF ###/##.")]
    state = hints.seat_state(table, hand, [Token.FOREST], 0, 2, R.default_deck())
    own = hints.hint(state, Budget(30), options=hints.HintOptions(margin=False, top=400))
    margin = hints.hint(state, Budget(30), options=hints.HintOptions(margin=True, top=1))
    best_margin = margin.choices[0]
    assert best_margin.opponent_gain == 0
    assert any(p.opponent_gain > 0 for p in own.choices)  # some plays do feed the opponent


def test_future_estimate_prefers_open_surroundings() -> None:
    future = hints.future_model(R.default_deck(), cards_to_come=10)
    table = R.starting_table(parse_card("MW #../..."), parse_card("MW ..#/..."))
    evaluator_open = TurnEvaluator(table, 1).base_surroundings[(1, 1)]
    assert future.tent_future(Token.DESERT, evaluator_open) > 0
    assert hints.future_model(R.default_deck(), cards_to_come=0).tent_future(Token.DESERT, evaluator_open) == 0


def test_a_spent_budget_still_values_every_play_one_ply() -> None:
    table, hand = random_table(3, cards=8, tents=5)
    budget = Budget(0.001)
    time.sleep(0.01)
    state = hints.seat_state(table, hand, list(Token), 0, 2, R.default_deck())
    result = hints.hint(state, budget)
    assert result.placements == result.total_placements == len(table.legal_placements(hand))
    assert result.interrupted  # the budget ended the look-ahead before any sampled deal
    assert result.worlds == 0 and result.choices and all(p.kind == "ONE_PLY" for p in result.choices)
    old = hints.hint_one_ply(state, Budget(0.001))
    assert len(old.choices) <= old.plays_ranked  # the old ranking reports nothing it did not rank


def test_greedy_play_is_legal() -> None:
    table, hand = random_table(5, cards=5, tents=3)
    placement, tent = hints.greedy_play(table, hand, list(Token), 0, 2, Budget(30))
    assert isinstance(placement, Placement)
    table.place(placement).pitch(tent)


def test_margin_is_over_the_leading_opponent_not_any_opponent() -> None:
    # Three players; seat 1's Desert tent at (1,4) waits for Desert below it. Feeding it costs us only when seat 1
    # is the best opponent by standing (the margin is over the best opponent, not over whoever gains).
    table = R.starting_table(parse_card("MW #../..."), parse_card("MW ..#/..."))
    table = table.pitch(Tent(1, Token.DESERT, 1, 4)).pitch(Tent(0, Token.DESERT, 1, 1))
    hand = [parse_card("DF ###/##.")]
    deck = R.default_deck()

    def values(totals: list[int], margin: bool) -> dict:
        state = hints.seat_state(table, hand, [Token.FOREST], 0, 3, deck, totals)
        result = hints.hint_one_ply(state, Budget(30), options=hints.HintOptions(top=10_000, margin=margin))
        return {(p.placement, p.tent): p for p in result.choices}

    own = values([0, 0, 0], margin=False)
    feeding = [key for key, play in own.items() if play.opponent_gain > 0]
    assert feeding
    trailing = values([0, 0, 100], margin=True)  # seat 2 leads by far and gains nothing here
    leading = values([0, 100, 0], margin=True)  # seat 1 leads
    for key in feeding:
        assert trailing[key].value == own[key].value  # the leader's standing does not move
        assert leading[key].value < own[key].value  # feeding the leader costs
    assert leading[max(leading, key=lambda k: leading[k].value)].opponent_gain == 0


@pytest.mark.timing
def test_hint_cpu_s_values_every_play_of_a_late_four_player_turn_and_looks_ahead() -> None:
    # HINT_CPU_S is the hint's default CPU a call: every play of a 4-player turn late in a round valued one ply
    # (~1,000 placements) and the best looked ahead in at least one sampled deal. The state: greedy self-play
    # to turn 22 of the first round.
    import random

    from campsolver.solver.campsite.players import HINT_CPU_S, greedy_policy, play_options
    from campsolver.solver.core.budget import CpuBudget
    from campsolver.solver.core.game import CHANCE

    rng = random.Random(3)
    state = R.new_game(4)
    while state.current_player() == CHANCE or state.turn < 22:
        if state.current_player() == CHANCE:
            pile = sorted(state.pile)
            state = state.child(pile[rng.randrange(len(pile))])
            continue
        placement, tent = greedy_policy(state, Budget(30))
        state = state.child(R.PlayCard(placement)).child(R.PitchTent(tent.token, tent.row, tent.col))
    result = hints.hint(state, CpuBudget(HINT_CPU_S), options=play_options(state))
    assert result.placements == result.total_placements > 500  # the one-ply pass is never cut
    assert result.worlds >= 1
    assert result.interrupted == (result.worlds < hints.MAX_WORLDS)  # the budget, not the deal cap, ended it


def test_a_look_ahead_that_plays_all_its_deals_is_not_interrupted() -> None:
    """With time to spare the look-ahead stops at its deal cap and says it finished; on a round's last turn there
    is nothing to look ahead at, and nothing is cut either, even with the budget spent."""
    table, hand = random_table(3, cards=8, tents=5)
    state = hints.seat_state(table, hand, list(Token), 0, 2, R.default_deck())
    result = hints.hint(state, Budget(30), options=hints.HintOptions(max_worlds=2))
    assert result.worlds == 2 and not result.interrupted
    spent = Budget(0.001)
    time.sleep(0.01)
    last = hints.hint(state, spent, options=hints.HintOptions(cards_to_come=0))
    assert last.worlds == 0 and not last.interrupted
    best = result.choices[0]
    state.child(R.PlayCard(best.placement)).child(R.PitchTent(best.tent.token, best.tent.row, best.tent.col))


def test_spread_order_is_a_permutation_whose_prefixes_sample_every_card() -> None:
    table, hand = random_table(7, cards=9, tents=5)
    legal = table.legal_placements(hand)
    spread = hints.spread_order(legal)
    assert sorted(map(repr, spread)) == sorted(map(repr, legal))
    groups = {(p.card, p.rotation) for p in legal}
    assert {(p.card, p.rotation) for p in spread[: len(groups)]} == groups  # one of each group first
    # A whole ranking does not depend on the order: the same values, best first.
    tokens = [Token.DESERT, Token.WATER, Token.WILDERNESS]
    future = hints.one_ply_future(table, hand, 4, R.default_deck(), cards_to_come=10)
    ranked = [
        hints.rank_plays(table, hand, tokens, 0, 4, future, Budget(30), margin=True, top=8, spread=s)
        for s in (False, True)
    ]
    assert [p.value for p in ranked[0].choices] == [p.value for p in ranked[1].choices]
    assert not ranked[1].interrupted and ranked[1].placements == len(legal)
