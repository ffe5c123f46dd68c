"""The Campsite hint's search (`solver/campsite/lookahead.py` through `hint.hint`): every listed play legal and
re-scored by the rules model, the answer independent of the cards the mover cannot see, values in rank order
and of the kind they say, the round's last turn exact, and the CPU budget kept."""

from __future__ import annotations

import random
import time
from dataclasses import replace
from itertools import pairwise

import numpy as np
import pytest
from campsolver.solver.campsite import hint as hints
from campsolver.solver.campsite import lookahead as L
from campsolver.solver.campsite import rules as R
from campsolver.solver.campsite.players import play_options
from campsolver.solver.core.budget import Budget, CpuBudget
from campsolver.solver.core.game import CHANCE


def game_state(seed: int, players: int, turn: int, round_index: int = 0) -> R.CampsiteState:
    """A state of a seeded game with random legal play, at turn `turn` of round `round_index`, the mover to lay
    a card."""
    rng = random.Random(seed)
    state = R.new_game(players)
    while True:
        if state.current_player() == CHANCE:
            pile = sorted(state.pile)
            state = state.child(pile[rng.randrange(len(pile))])
            continue
        if state.round == round_index and state.turn == turn and state.stage is R.Stage.CARD:
            return state
        actions = state.legal_actions()
        state = state.child(actions[rng.randrange(len(actions))])


def run_hint(state: R.CampsiteState, budget: Budget, **options: object) -> hints.HintResult:
    return hints.hint(state, budget, options=hints.HintOptions(**options))  # type: ignore[arg-type]


CASES = [(1, 2, 3), (2, 2, 8), (3, 4, 5), (4, 4, 20), (5, 3, 11)]


@pytest.mark.parametrize(("seed", "players", "turn"), CASES)
def test_every_listed_play_is_legal_and_its_gains_are_the_rules_model(seed: int, players: int, turn: int) -> None:
    state = game_state(seed, players, turn, round_index=seed % 2)
    result = run_hint(state, Budget(60), top=25, max_worlds=3)
    seat = state.to_move
    before = R.player_scores(state.table, players)
    assert len(result.choices) == 25
    for play in result.choices:
        after_state = state.child(R.PlayCard(play.placement)).child(
            R.PitchTent(play.tent.token, play.tent.row, play.tent.col)
        )  # the rules model refuses an illegal move
        after = R.player_scores(state.table.place(play.placement).pitch(play.tent), players)
        assert play.tent.player == seat and after_state.tokens[seat] == state.tokens[seat] - {play.tent.token}
        assert play.immediate_gain == after[seat] - before[seat]
        assert play.opponent_gain == max(after[k] - before[k] for k in range(players) if k != seat)
        assert play.future_estimate >= -1e-9  # a tent's value is never below its points


@pytest.mark.parametrize(("seed", "players", "turn"), CASES[:4])
def test_values_are_in_rank_order_and_say_their_kind(seed: int, players: int, turn: int) -> None:
    state = game_state(seed, players, turn)
    result = run_hint(state, Budget(60), top=30, max_worlds=4)
    kinds = [p.kind for p in result.choices]
    assert kinds == sorted(kinds, key=lambda k: k != "LOOK_AHEAD")  # the looked-ahead plays first
    assert result.worlds == 4 and kinds.count("LOOK_AHEAD") == hints.SEARCH_WIDTH
    for group in ("LOOK_AHEAD", "ONE_PLY"):
        values = [p.value for p in result.choices if p.kind == group]
        assert all(a >= b for a, b in pairwise(values)), group
    for play in result.choices:
        if play.kind == "LOOK_AHEAD":
            assert play.samples == 4 and play.standard_error is not None and play.standard_error >= 0
        else:
            assert play.samples == 0 and play.standard_error is None


def test_a_looked_ahead_value_is_the_mean_of_its_play_outs_and_its_standard_error_theirs() -> None:
    state = game_state(7, 2, 6)
    seat = state.to_move
    view = L.seat_view(state.table, state.hands[seat], state.tokens[seat], seat, 2, state.deck, state.totals)
    result = L.search(view, Budget(60), seed=3, max_worlds=5)
    model = L.ValueModel(2)
    rng = np.random.default_rng(L.view_seed(view, 3))
    worlds = [L.sample_world(view, rng) for _ in range(5)]
    for candidate in result.candidates:
        fresh = L.Candidate(candidate.index, candidate.token, candidate.row, candidate.col, 0.0)
        samples = [L.play_out(view, result.root, fresh, world, model, True, 2) for world in worlds]
        assert candidate.samples == samples
        assert candidate.mean == pytest.approx(np.mean(samples))
        assert candidate.standard_error == pytest.approx(np.std(samples, ddof=1) / np.sqrt(5))


@pytest.mark.parametrize("players", [2, 4])
def test_the_answer_does_not_depend_on_the_cards_the_mover_cannot_see(players: int) -> None:
    state = game_state(11 + players, players, 2 * players + 1)
    seat = state.to_move
    rng = random.Random(5)
    for _ in range(3):
        hidden = [c for k in range(players) if k != seat for c in state.hands[k]] + list(state.pile)
        rng.shuffle(hidden)
        hands = list(state.hands)
        for k in range(players):
            if k != seat:
                hands[k], hidden = tuple(sorted(hidden[: len(hands[k])])), hidden[len(hands[k]) :]
        other = replace(state, hands=tuple(hands), pile=tuple(sorted(hidden)))
        assert other.hands != state.hands
        first = hints.hint(state, Budget(60), options=play_options(state, 9, max_worlds=3))
        again = hints.hint(other, Budget(60), options=play_options(other, 9, max_worlds=3))
        assert [(p.placement, p.tent, p.value) for p in first.choices] == [
            (p.placement, p.tent, p.value) for p in again.choices
        ]


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3)])
def test_the_rounds_last_turn_is_the_exact_best_margin(seed: int, players: int) -> None:
    state = game_state(seed, players, R.TURNS_PER_ROUND * players - 1)
    result = run_hint(state, Budget(60), top=1)
    seat = state.to_move
    best = -(10**9)
    for action in state.legal_actions():
        after_card = state.child(action)
        for pitch in after_card.legal_actions():
            table = after_card.table.pitch(R.Tent(seat, pitch.token, pitch.row, pitch.col))
            scores = [a + b for a, b in zip(state.totals, R.player_scores(table, players), strict=True)]
            best = max(best, scores[seat] - max(s for k, s in enumerate(scores) if k != seat))
    assert result.worlds == 0 and result.choices[0].kind == "ONE_PLY"
    assert result.choices[0].value == best


def test_the_seat_view_counts_hands_tokens_and_the_unseen_cards() -> None:
    state = game_state(3, 3, 7)
    seat = state.to_move
    view = L.seat_view(state.table, state.hands[seat], state.tokens[seat], seat, 3, state.deck, state.totals)
    assert view.hand_sizes == [len(h) for h in state.hands]
    assert view.tokens == [frozenset(int(t) for t in tokens) for tokens in state.tokens]
    hidden = sorted([c for k in range(3) if k != seat for c in state.hands[k]] + list(state.pile))
    assert view.unseen == hidden and view.pile_size == len(state.pile)
    assert view.played == state.turn and all(view.mover_at(t) == (state.starter + t) % 3 for t in range(21))


@pytest.mark.timing
@pytest.mark.parametrize(("seed", "players", "turn"), [(1, 2, 4), (4, 4, 18)])
def test_the_cpu_budget_holds(seed: int, players: int, turn: int) -> None:
    state = game_state(seed, players, turn)
    run_hint(state, Budget(60), top=1, max_worlds=1)  # imports and caches warm
    for limit in (0.05, 0.15):
        started = time.process_time()
        result = hints.hint(state, CpuBudget(limit), options=play_options(state))
        spent = time.process_time() - started
        assert result.choices
        assert spent <= limit + 0.03, f"{spent:.3f} CPU-s at a {limit} CPU-s budget"


def test_sampled_worlds_deal_the_unseen_cards_uniformly() -> None:
    """The look-ahead's worlds (`sample_world`): every world deals exactly the unseen cards (each other seat its
    hand size, then the pile), and over many worlds each card lands in an opponent's hand as often as its share
    of the unseen cards says (a chi-square far inside its tail for the cards' count)."""
    from collections import Counter

    state = game_state(3, 3, 7)
    seat = state.to_move
    view = L.seat_view(state.table, state.hands[seat], state.tokens[seat], seat, 3, state.deck, state.totals)
    other = next(k for k in range(3) if k != seat)
    rng = np.random.default_rng(2024)
    worlds = 4000
    seen: Counter[R.Card] = Counter()
    for _ in range(worlds):
        world = L.sample_world(view, rng)
        dealt = [c for k in range(3) if k != seat for c in world.hands[k]] + list(world.pile)
        assert sorted(dealt) == sorted(view.unseen)
        assert [len(h) for k, h in enumerate(world.hands) if k != seat] == [
            view.hand_sizes[k] for k in range(3) if k != seat
        ]
        seen.update(world.hands[other])
    share = Counter(view.unseen)
    expected = {card: worlds * view.hand_sizes[other] * count / len(view.unseen) for card, count in share.items()}
    chi2 = sum((seen[card] - e) ** 2 / e for card, e in expected.items())
    df = len(expected) - 1
    assert chi2 < df + 6 * (2 * df) ** 0.5, (chi2, df)


def test_a_play_that_left_the_race_is_valued_paired_with_the_best_that_stayed() -> None:
    """`halving`: the worst play leaves the race every that many worlds, so the rest get more worlds; the plays
    that left are valued by the best finalist's mean less their mean gap on the worlds both saw (with both
    standard errors combined), so every listed look-ahead value stays in rank order and the best is a finalist."""
    state = game_state(7, 2, 6)
    seat = state.to_move
    view = L.seat_view(state.table, state.hands[seat], state.tokens[seat], seat, 2, state.deck, state.totals)
    result = L.search(view, Budget(60), seed=3, max_worlds=9, halving=2)
    finalists = [c for c in result.candidates if c.reference is None]
    left = [c for c in result.candidates if c.reference is not None]
    assert result.finalists == len(finalists) == 2 and len(left) == hints.SEARCH_WIDTH - 2
    assert result.worlds == 9 and all(len(c.samples) == 9 for c in finalists)
    assert sorted(len(c.samples) for c in left) == [2, 4, 6, 8]  # one left after every 2 worlds
    best = max(finalists, key=lambda c: np.mean(c.samples))
    assert result.candidates[0] is best
    for c in left:
        n = len(c.samples)
        gap = np.array(best.samples[:n]) - np.array(c.samples)
        assert c.reference is best and gap.mean() >= -1e-9  # it was behind the best on the worlds it saw
        assert c.mean == pytest.approx(np.mean(best.samples) - gap.mean())
        paired = np.std(gap, ddof=1) / np.sqrt(n)
        assert c.standard_error == pytest.approx(np.hypot(best.standard_error, paired))
    assert all(a.mean >= b.mean for a, b in pairwise(result.candidates))
    listed = run_hint(state, Budget(60), top=10, max_worlds=9, halving=2, seed=3)
    looked = [p for p in listed.choices if p.kind == "LOOK_AHEAD"]
    assert len(looked) == hints.SEARCH_WIDTH and all(a.value >= b.value for a, b in pairwise(looked))
    assert sorted(p.samples for p in looked) == [2, 4, 6, 8, 9, 9] and "left early" in listed.method


def test_every_card_puts_each_cards_best_play_among_the_looked_ahead_plays() -> None:
    """`every_card`: the look-ahead weighs which card to play (and keep): each card of the hand with its best
    one-ply play among the candidates, the other places by one-ply value; without it the candidates are the
    best by one-ply value, here all placements of one card."""
    state = game_state(7, 2, 6)
    seat = state.to_move
    view = L.seat_view(state.table, state.hands[seat], state.tokens[seat], seat, 2, state.deck, state.totals)
    plain = L.search(view, Budget(60), seed=3, max_worlds=2)
    wide = L.search(view, Budget(60), seed=3, max_worlds=2, every_card=True)
    root = wide.root

    def card(index: int) -> R.Card:
        return root.pl.pictures[int(root.pl.pic[index])].card

    ranked = np.argsort(-root.value, kind="stable").tolist()
    best_of = {}
    for i in ranked:
        best_of.setdefault(card(i), i)
    assert len(best_of) == len(set(view.hand)) > 1
    assert {c.index for c in wide.candidates} >= set(best_of.values())
    assert len(wide.candidates) == hints.SEARCH_WIDTH == len(plain.candidates)
    others = sorted((c.index for c in wide.candidates if c.index not in best_of.values()), key=ranked.index)
    assert others == [i for i in ranked if i not in best_of.values()][: len(others)]
    assert sorted(c.index for c in plain.candidates) == sorted(ranked[: hints.SEARCH_WIDTH], key=int)
    assert len({card(c.index) for c in wide.candidates}) > len({card(c.index) for c in plain.candidates})


def test_the_hint_looks_ahead_at_every_card_of_the_hand_by_default() -> None:
    state = game_state(7, 2, 6)
    result = run_hint(state, Budget(60), top=30, max_worlds=2)
    looked = [p for p in result.choices if p.kind == "LOOK_AHEAD"]
    assert len(looked) == hints.SEARCH_WIDTH
    assert {p.placement.card for p in looked} == set(state.hands[state.to_move])
