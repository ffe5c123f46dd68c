"""The best solo round: the exact branch and bound against exhaustive search on short rounds and small hands.

The exhaustive search here plays every first turn (placement x token x square through the rules model) and
finishes with the exact best turn (`best_turn_search`, itself checked against the rulebook-only oracle in
test_best_turn.py); it shares nothing with the branch and bound's final-picture reading of a round.
"""

from __future__ import annotations

import itertools
import random
import sys

import pytest
from campsolver.solver.campsite import rules as R
from campsolver.solver.campsite.best_round import best_round
from campsolver.solver.campsite.evaluate import best_turn_search
from campsolver.solver.campsite.round_search import INFEASIBLE, best_tents, search_round
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.proof import Proof


def exhaustive_two_turns(order: list[R.Card], hand_size: int, tokens: list[R.Token]) -> int:
    """Best 2-turn solo round: every first play, then the exact best second turn."""
    table = R.starting_table(order[0], order[1])
    hand = list(order[2 : 2 + hand_size])
    best = -1
    for placement, tent in R.iter_turn_plays(table, hand, tokens):
        after = table.place(placement).pitch(tent)
        rest = list(hand)
        rest.remove(placement.card)
        rest.append(order[2 + hand_size])
        left = [t for t in tokens if t != tent.token]
        second = best_turn_search(after, rest, left, 0, 1, Budget(900))
        assert not second.interrupted
        best = max(best, second.plays[0].score)
    return best


def replay_score(order: list[R.Card], plays, hand_size: int, tokens: list[R.Token]) -> int:
    """Replay the returned plays through the rules model (hand, draws, tokens, legality) and score the round."""
    table = R.starting_table(order[0], order[1])
    hand = list(order[2 : 2 + hand_size])
    drawn = 2 + hand_size
    left = set(tokens)
    for placement, tent in plays:
        assert placement.card in hand and tent.token in left
        hand.remove(placement.card)
        left.discard(tent.token)
        if drawn < len(order):
            hand.append(order[drawn])
            drawn += 1
        table = table.place(placement).pitch(tent)
    return R.player_scores(table, 1)[0]


def dense_order(seed: int) -> list[R.Card]:
    """A shuffled order of the default deck's cards with 4-5 coloured squares (few tent squares: a small tree)."""
    cards = [c for c in R.default_deck() if len(c.pattern) >= 4]
    random.Random(seed).shuffle(cards)
    return cards


def check_two_turn_round(order: list[R.Card], hand_size: int, tokens: list[R.Token]) -> None:
    result = best_round(order, 2, Budget(900), hand_size=hand_size, tokens=tokens)  # ~1 s CPU; slack for load
    assert result.proof is Proof.EXACT and result.bound == result.score
    assert replay_score(order, result.plays, hand_size, tokens) == result.score
    optimum = exhaustive_two_turns(order, hand_size, tokens)
    assert result.score == optimum
    # The branch and bound's root bound is a true bound, and without a warm start it finds the optimum itself.
    alone = search_round(order, 2, Budget(900), hand_size=hand_size, tokens=tokens)
    assert alone.complete and alone.best == optimum <= alone.bound


@pytest.mark.parametrize("seed", [0, 1])
def test_two_turn_round_equals_exhaustive_search(seed: int) -> None:
    tokens = [R.Token.WATER, R.Token.WILDERNESS] if seed % 2 else [R.Token.DESERT, R.Token.FOREST]
    check_two_turn_round(dense_order(seed), 1, tokens)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 10))
def test_two_turn_round_equals_exhaustive_search_many_seeds(seed: int) -> None:
    rng = random.Random(seed)
    order = dense_order(seed) if seed % 2 else list(R.default_deck())
    if not seed % 2:
        rng.shuffle(order)
    tokens = rng.sample(list(R.Token), 2)
    check_two_turn_round(order, 1 + seed % 2, tokens)


def brute_tents(values, count: int, turns: int) -> int:
    """Every choice of `turns` tokens on distinct squares, kept when the squares fit one tent a turn."""
    best = INFEASIBLE
    for cells in itertools.combinations(range(len(values)), turns):
        times = sorted(values[i][1] for i in cells)
        if any(time > k + 1 for k, time in enumerate(times)):
            continue
        for tokens in itertools.permutations(range(count), turns):
            best = max(best, sum(values[i][2][t] for i, t in zip(cells, tokens, strict=True)))
    return best


@pytest.mark.parametrize("seed", range(40))
def test_best_tents_equals_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    turns = rng.randint(1, 4)
    count = rng.randint(turns, 5)
    cells = rng.randint(turns, 7)
    values = [
        ((k, 0), rng.randint(0, turns), [rng.choice([0, 1, 2, 4, 6, 8, 16]) for _ in range(count)])
        for k in range(cells)
    ]
    if sum(1 for v in values if v[1] == 0) == 0:
        values[0] = (values[0][0], 0, values[0][2])  # a round always has the starting cards' squares
    assert best_tents(values, count, turns) == brute_tents(values, count, turns)


def test_a_spent_budget_gives_no_proof_but_a_legal_round_within_its_bound() -> None:
    order = list(R.default_deck())
    random.Random(3).shuffle(order)
    result = best_round(order, 3, Budget(1.0))
    assert result.proof in (Proof.FEASIBLE_WITH_BOUND, Proof.HEURISTIC, Proof.EXACT)
    if result.proof is not Proof.EXACT:
        assert result.interrupted
    if result.plays:
        assert replay_score(order, result.plays, 3, list(R.Token)) == result.score
        assert result.score <= result.bound


class _StopsAfter(Budget):
    """A budget spent after `steps` looks at it (`expired`): a search stopped part-way, the same on any machine."""

    def __init__(self, steps: int | None = None) -> None:
        super().__init__(900)
        self.steps = steps
        self.looks = 0

    def expired(self) -> bool:
        self.looks += 1
        return (self.steps is not None and self.looks > self.steps) or super().expired()


# 13 no longer: with the card-once root bound every stopped search there reports the root (the case never arises).
@pytest.mark.parametrize("seed", [6, 14, pytest.param(23, marks=pytest.mark.slow)])
def test_a_stopped_search_reports_the_highest_open_bound_never_below_the_optimum(seed: int) -> None:
    """Three-turn rounds whose root bound is above the optimum, stopped after each tenth of the looks a whole search
    takes: no stopped search claims completion, each reports a bound at least the optimum and a best at most it,
    and some report an open bound below the root's (the claim this forces: the highest bound still open)."""
    order = dense_order(seed)
    tokens = random.Random(seed).sample(list(R.Token), 3)
    whole = _StopsAfter()
    full = search_round(order, 3, whole, hand_size=2, tokens=tokens)
    assert full.complete and full.bound == full.best < full.root_bound
    below_root = 0
    for tenth in range(1, 10):
        stopped = search_round(order, 3, _StopsAfter(whole.looks * tenth // 10), hand_size=2, tokens=tokens)
        assert not stopped.complete
        assert stopped.best <= full.best <= stopped.bound <= stopped.root_bound == full.root_bound
        below_root += stopped.bound < stopped.root_bound
    assert below_root, "every stopped search reported its root bound: the open-bound case never arose"


def test_a_search_stopped_while_bounding_the_root_reports_an_open_bound_not_its_warm_start() -> None:
    """Stopped before the root is bounded, nothing is closed: the reported bound is the root's fallback cap, at
    least the optimum, never the warm start's score (that would claim the warm start optimal unsearched)."""
    order = dense_order(6)
    tokens = random.Random(6).sample(list(R.Token), 3)
    full = search_round(order, 3, _StopsAfter(), hand_size=2, tokens=tokens)
    spent = Budget(900)
    spent.cancel()  # the root's cover tables check the budget: the search stops inside the root's bound
    stopped = search_round(order, 3, spent, hand_size=2, tokens=tokens, incumbent=full.best - 3)
    assert not stopped.complete
    assert stopped.bound >= full.best > full.best - 3


@pytest.mark.parametrize("seed", [6, 13])
def test_first_level_rebounds_keep_the_optimum_and_a_stop_inside_one_claims_no_proof(seed: int, monkeypatch) -> None:
    """The best-first loop works out a first-level branch's own bound (each card to come in one place) before
    expanding it, and drops or re-queues it lower. Made to happen on three-turn rounds (the depth-first part
    lowered to one turn): the search with it completes at the optimum found without it; stopped inside such a bound
    (the second call: the first is the root's), it claims no completion, its bound is at least the optimum, and
    best_round claims no EXACT."""
    from campsolver.solver.campsite import round_search as RS
    from campsolver.solver.core.budget import SolveInterrupted

    monkeypatch.setattr(RS, "DEPTH_FIRST_LEFT", 1)
    order = dense_order(seed)
    tokens = random.Random(seed).sample(list(R.Token), 3)
    monkeypatch.setattr(RS, "REBOUND", False)
    plain = search_round(order, 3, Budget(900), hand_size=2, tokens=tokens)
    monkeypatch.setattr(RS, "REBOUND", True)
    full = search_round(order, 3, Budget(900), hand_size=2, tokens=tokens)
    assert plain.complete and full.complete and full.best == plain.best == full.bound
    real = RS.placed_card_bound
    calls: list[int] = []

    def stops_on_the_second_call(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise SolveInterrupted("stopped inside a first-level branch's own bound")
        return real(*args, **kwargs)

    monkeypatch.setattr(RS, "placed_card_bound", stops_on_the_second_call)
    stopped = search_round(order, 3, Budget(900), hand_size=2, tokens=tokens)
    assert len(calls) == 2, "no first-level branch was re-bounded: the case this forces never arose"
    assert not stopped.complete
    assert stopped.best <= full.best <= stopped.bound
    calls.clear()
    result = best_round(order, 3, Budget(900), hand_size=2, tokens=tokens)
    if len(calls) >= 2:  # the search got past the root with branches above the warm start, and was stopped
        assert result.proof is not Proof.EXACT and result.score <= full.best <= result.bound
    else:
        assert result.proof is Proof.EXACT and result.score == full.best


def legal_round(
    order: list[R.Card], turns: int, hand_size: int, tokens: list[R.Token], rng: random.Random
) -> list[tuple[R.Placement, R.Tent]]:
    """A random legal solo round by the rules model (a hand card, a legal placement, a free square, an unused
    token, then the draw)."""
    table = R.starting_table(order[0], order[1])
    hand = list(order[2 : 2 + hand_size])
    drawn = 2 + hand_size
    left = list(tokens)
    plays = []
    for _ in range(turns):
        placement = rng.choice(table.legal_placements(hand))
        table = table.place(placement)
        tent = R.Tent(0, left.pop(rng.randrange(len(left))), *rng.choice(table.free_squares()))
        table = table.pitch(tent)
        hand.remove(placement.card)
        hand.append(order[drawn])
        drawn += 1
        plays.append((placement, tent))
    return plays


@pytest.mark.parametrize("seed", [6, 14])
def test_a_polished_warm_start_keeps_the_optimum_and_its_stop_is_not_the_searchs(seed: int, monkeypatch) -> None:
    """The warm start's last turns re-searched exactly (`_Search.polish`): a random legal round maps onto the
    search's pictures and corners square for square; searched with it, the search completes at the optimum found
    without it; the polish stopped after a few looks (its own budget) leaves the search to complete the same."""
    from campsolver.solver.campsite import round_search as RS

    order = dense_order(seed)
    rng = random.Random(seed)
    tokens = rng.sample(list(R.Token), 3)
    plain = search_round(order, 3, Budget(900), hand_size=2, tokens=tokens)
    assert plain.complete
    warm = legal_round(order, 3, 2, tokens, rng)
    warm_score = replay_score(order, warm, 2, tokens)
    assert warm_score < plain.best, "the random round is optimal: nothing for the polish to find"
    search = RS._Search(order, 3, 2, tokens, Budget(900))
    children = search.warm_children(warm)
    assert children is not None
    for child, (placement, _) in zip(children, warm, strict=True):
        cell = search.frame.cell(child.i, child.j)
        again = R.Placement(child.picture.card, cell[0], cell[1], child.picture.rotation)
        assert again.squares() == placement.squares()
    polished = search_round(order, 3, Budget(900), hand_size=2, tokens=tokens, incumbent=warm_score, warm=warm)
    assert polished.complete and polished.best == polished.bound == plain.best
    real = RS._Search.polish

    def stopped_polish(self, plays, budget):
        return real(self, plays, _StopsAfter(5))

    monkeypatch.setattr(RS._Search, "polish", stopped_polish)
    after_stop = search_round(order, 3, Budget(900), hand_size=2, tokens=tokens, incumbent=warm_score, warm=warm)
    assert after_stop.complete and after_stop.best == after_stop.bound == plain.best


@pytest.mark.parametrize("seed", [6, 14])
def test_a_search_stopped_after_the_polish_claims_no_proof_and_its_round_is_the_rules_models(
    seed: int, monkeypatch
) -> None:
    """The budget spent as the polish ends: whatever the polish found, the search is not complete, its bound is at
    least the optimum, and its round, replayed by the rules model, scores what it claims; best_round on the same
    stop answers a legal round below its bound, never EXACT unless it met the per-token cap."""
    from campsolver.solver.campsite import best_round as BR
    from campsolver.solver.campsite import round_search as RS

    order = dense_order(seed)
    rng = random.Random(seed)
    tokens = rng.sample(list(R.Token), 3)
    optimum = search_round(order, 3, Budget(900), hand_size=2, tokens=tokens).best
    warm = legal_round(order, 3, 2, tokens, rng)
    warm_score = replay_score(order, warm, 2, tokens)
    real = RS._Search.polish

    def polish_then_stop(self, plays, budget):
        real(self, plays, budget)
        self.budget.cancel()

    monkeypatch.setattr(RS._Search, "polish", polish_then_stop)
    budget = Budget(900)
    stopped = search_round(order, 3, budget, hand_size=2, tokens=tokens, incumbent=warm_score, warm=warm)
    assert not stopped.complete
    assert max(stopped.best, warm_score) <= optimum <= stopped.bound
    assert stopped.best > warm_score, "the polish found nothing: the case this forces never arose"
    by_turn = {turn: R.Tent(0, token, *cell) for token, cell, turn in stopped.tents}
    plays = [(placement, by_turn[turn]) for turn, placement in enumerate(stopped.placements, start=1)]
    assert replay_score(order, plays, 2, tokens) == stopped.best
    result = BR.best_round(order, 3, Budget(900), hand_size=2, tokens=tokens)
    assert replay_score(order, result.plays, 2, tokens) == result.score <= optimum <= result.bound
    if result.score < BR.upper_bound(order, 3, 2, tokens):
        assert result.proof is not Proof.EXACT


@pytest.mark.parametrize("seed", [6, 13])
def test_first_card_caps_keep_the_optimum_and_a_stop_inside_them_claims_no_proof(seed: int, monkeypatch) -> None:
    """Best-first children capped by the bound of laying their card first at their place (`_Search.capped`), made
    to happen at depths 0 and 1 of three-turn rounds (the depth-first part lowered to one turn): the search with
    caps completes at the optimum found without them; stopped inside the caps' bound, it claims no completion, its
    bound is at least the optimum, and best_round claims no EXACT below the per-token cap."""
    from campsolver.solver.campsite import best_round as BR
    from campsolver.solver.campsite import round_search as RS
    from campsolver.solver.core.budget import SolveInterrupted

    monkeypatch.setattr(RS, "DEPTH_FIRST_LEFT", 1)
    order = dense_order(seed)
    tokens = random.Random(seed).sample(list(R.Token), 3)
    monkeypatch.setattr(RS, "FIRST_CARD_DEPTH", 0)
    plain = search_round(order, 3, Budget(900), hand_size=2, tokens=tokens)
    monkeypatch.setattr(RS, "FIRST_CARD_DEPTH", 2)
    real = RS.first_card_bounds
    calls: list[int] = []

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(RS, "first_card_bounds", counted)
    capped = search_round(order, 3, Budget(900), hand_size=2, tokens=tokens)
    assert len(calls) >= 2, "the caps ran at the root only: the depth-one case never arose"
    assert plain.complete and capped.complete and capped.best == plain.best == capped.bound

    def stops(*args, **kwargs):
        raise SolveInterrupted("stopped inside the first-card caps")

    monkeypatch.setattr(RS, "first_card_bounds", stops)
    stopped = search_round(order, 3, Budget(900), hand_size=2, tokens=tokens)
    assert not stopped.complete
    assert stopped.best <= plain.best <= stopped.bound
    result = BR.best_round(order, 3, Budget(900), hand_size=2, tokens=tokens)
    assert replay_score(order, result.plays, 2, tokens) == result.score <= plain.best <= result.bound
    if result.score < BR.upper_bound(order, 3, 2, tokens):
        assert result.proof is not Proof.EXACT


class _RecordsLooks(_StopsAfter):
    """`_StopsAfter` that also notes which function took each look (the beam's own checks between its nodes)."""

    def __init__(self, steps: int | None = None) -> None:
        super().__init__(steps)
        self.lookers: list[str] = []

    def expired(self) -> bool:
        self.lookers.append(sys._getframe(1).f_code.co_name)
        return super().expired()


def test_a_beam_cut_at_any_of_its_checks_says_it_was_interrupted() -> None:
    """The beam (alone: `exact=False`) cut by the budget between two of its nodes, in any turn, reports
    `interrupted` (the service's `stats.interrupted`), whatever it still answers. Found by the mutation run: a cut in
    the last turn reported as a finished search survived every test."""
    order, tokens = dense_order(0), [R.Token.WATER, R.Token.FOREST]
    whole = _RecordsLooks()
    assert not best_round(order, 2, whole, hand_size=2, tokens=tokens, exact=False).interrupted
    cuts = [look for look, looker in enumerate(whole.lookers) if looker == "_beam"]
    assert len(cuts) >= 4, "the beam no longer checks its budget between nodes"
    for look in cuts:
        result = best_round(order, 2, _StopsAfter(look), hand_size=2, tokens=tokens, exact=False)
        assert result.interrupted, f"cut at look {look}: {result.note}"
        assert result.proof is not Proof.EXACT or result.score == result.bound


@pytest.mark.parametrize("seed", [6, 14])
def test_wider_beams_keep_the_optimum_and_their_round_is_the_rules_models(seed: int, monkeypatch) -> None:
    """Wider beams before the branch and bound (`best_round._widen`, switched on here for three-turn rounds): the
    search still completes at the optimum found without them, and the round returned replays to its score."""
    from campsolver.solver.campsite import best_round as BR

    order = dense_order(seed)
    tokens = random.Random(seed).sample(list(R.Token), 3)
    plain = search_round(order, 3, Budget(900), hand_size=2, tokens=tokens)
    assert plain.complete
    monkeypatch.setattr(BR, "WIDEN_SHARE", 0.5)
    monkeypatch.setattr(BR, "WIDEN_FROM_TURNS", 3)
    warm_starts = []
    real = BR._widen

    def recorded(*args, **kwargs):
        warm_starts.append(real(*args, **kwargs))
        return warm_starts[-1]

    monkeypatch.setattr(BR, "_widen", recorded)
    widened = best_round(order, 3, Budget(900), hand_size=2, tokens=tokens)
    assert len(warm_starts) == 1, "the wider beams did not run"
    assert replay_score(order, warm_starts[0].plays, 2, tokens) == warm_starts[0].score <= plain.best
    assert widened.proof is Proof.EXACT and widened.score == widened.bound == plain.best
    assert replay_score(order, widened.plays, 2, tokens) == widened.score


def test_wider_beams_stopped_anywhere_keep_the_best_round_so_far() -> None:
    """`_widen` cut by its budget at any of its looks: never worse than the round it was given, never a round the
    rules model scores differently, and a stop before the first wider beam ends returns the given round."""
    from campsolver.solver.campsite import best_round as BR

    order = dense_order(3)
    tokens = [R.Token.WATER, R.Token.FOREST, R.Token.DESERT]
    table = R.starting_table(order[0], order[1])
    start = BR._Node(table, tuple(order[2:4]), 4, frozenset(tokens), (), 0.0)
    bound = BR.upper_bound(order, 3, 2, tokens)
    first = BR._beam(order, 3, start, Budget(900), bound, width=1)
    assert first.plays and not first.interrupted
    whole = _StopsAfter()
    full = BR._widen(order, 3, start, whole, bound, first)
    assert full.score > first.score, "a beam one state wide is already the best: nothing to widen"
    for steps in range(0, whole.looks + 1, max(1, whole.looks // 12)):
        cut = BR._widen(order, 3, start, _StopsAfter(steps), bound, first)
        assert first.score <= cut.score <= full.score
        assert replay_score(order, cut.plays, 2, tokens) == cut.score
        if steps == 0:
            assert cut is first
